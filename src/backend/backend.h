/* backend.h: what the lowerings and drivers share inside libilpm.
 *
 * The CNF lowering (cnf.c) turns model constraints into clauses in an
 * ilpm_cnf; the SAT driver (sat.c) feeds those clauses to CaDiCaL.  rows.c
 * turns them into linear rows, which the GLPK lowering and driver
 * (glpk_*.c, behind glpk_int.h) and the OPB writer (opb.c) share.
 * Every driver (GLPK, CaDiCaL, cp) embeds the base ilpm_driver and is a
 * row of the registry (registry.c); solver.c puts them behind the public
 * ilpm_solver handle.  Only the glpk_* files include glpk.h and only sat.c
 * includes ccadical.h.
 */
#ifndef ILPM_BACKEND_H
#define ILPM_BACKEND_H

#include "backends.h"
#include "ilpm_int.h"
#include "sat_int.h"

#include <stdio.h>

/* ------------------------------------------------------------------ */
/* CNF: clauses in one flat array, each ended by 0.                     */

typedef struct ilpm_cnf {
    int nvars;      /* highest variable id: model vars then aux vars */
    int model_vars; /* ids 1..model_vars are the model's variables   */
    int *lits;      /* clauses, each terminated by 0                 */
    size_t nlits, cap;
    size_t nfed; /* literals already handed to a solver and dropped */
    int64_t nclauses;
    /* Per-group sizes; cur_group receives what is added now (-1: none). */
    ilpm_group_stats *groups;
    int ngroups;
    int cur_group;
    /* Every clause added gets the negation of each guard literal, so the
     * clauses bind only when all guards are true (conditional
     * constraints and objective bounds under assumptions). */
    int guards[4];
    int nguards;
    ilpm_amo_enc amo;
    ilpm_card_enc card;
    int64_t max_pb_nodes;
    /* A linear row whose BDD passes this many nodes (when below
     * max_pb_nodes) is encoded by adders instead (cnf_obj.c). */
    int64_t row_nodes;
    /* Literals the CNF may hold (0: no bound), from --max-memory; past it
     * ilpm_cnf_add fails and sets over_budget. */
    size_t max_lits;
    int over_budget;
    /* The time limit and stop flag of the options: encoding stops with
     * err->rc ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED. */
    ilpm_watch watch;
} ilpm_cnf;

/* Prepares an empty CNF over the model's variables (no clauses yet). */
int ilpm_cnf_init(ilpm_cnf *c, const ilpm_model *m, const ilpm_options *o,
                  ilpm_err *err);
void ilpm_cnf_release(ilpm_cnf *c);
/* A fresh auxiliary variable, counted in the current group. */
int ilpm_cnf_new_var(ilpm_cnf *c);
/* Appends a clause (plus the guards); counted in the current group. */
int ilpm_cnf_add(ilpm_cnf *c, const int *lits, int n);
/* Lowers one constraint with the encodings selected in c. */
int ilpm_cnf_encode(ilpm_cnf *c, const ilpm_con *con, ilpm_err *err);
/* The same, with messages saying what the constraint is ("the
 * objective's bound") instead of its group. */
int ilpm_cnf_encode_as(ilpm_cnf *c, const ilpm_con *con, const char *what,
                       ilpm_err *err);
/* Lowers the whole model (all constraints, no objective). */
int ilpm_cnf_from_model(ilpm_cnf *c, const ilpm_model *m, const ilpm_options *o,
                        ilpm_err *err);
/* Writes DIMACS with a "c NAME VAR" line for every model variable. */
int ilpm_cnf_write_dimacs(const ilpm_cnf *c, const ilpm_model *m, FILE *f,
                          ilpm_err *err);

/* ------------------------------------------------------------------ */
/* Linear rows (rows.c): the one lowering of a constraint to rows over  */
/* the model's variables, for the GLPK problem and the OPB file.        */

/* sum coefs[i] * x(vars[i]) cmp rhs, each variable once, no zero
 * coefficient, negative literals folded into rhs. */
typedef struct ilpm_row {
    int len;
    const int *vars;
    const int64_t *coefs;
    ilpm_cmp cmp;
    int64_t rhs;
    const char *name; /* its constraint's own name, or NULL */
} ilpm_row;

/* The workspace: a dense accumulator over the variables, zero between
 * rows.  A row handed out lives in it until the next call. */
typedef struct ilpm_rows {
    int nvars;
    int64_t *acc;
    uint8_t *inrow;
    int *vars; /* the variables met, then the row's */
    int64_t *coefs;
    int n;       /* variables met in the current row */
    int64_t cst; /* the constant the negative literals left */
} ilpm_rows;

/* 0, or -1 when out of memory (the caller says what for). */
int ilpm_rows_init(ilpm_rows *r, int nvars);
void ilpm_rows_release(ilpm_rows *r);
/* Receives each row; group is the constraint's.  A row with len 0 is a
 * constant that fails (one that holds is never passed).  Non-zero stops
 * the lowering, which returns it. */
typedef int (*ilpm_row_fn)(void *ctx, const ilpm_row *row, int group);
/* The rows of c: one, or for a conditional cardinality one per side
 * that can fail (big-M rows). */
int ilpm_rows_con(ilpm_rows *r, const ilpm_con *c, ilpm_row_fn fn, void *ctx);
/* The rows of every constraint of m, in order, but for redundant
 * groups. */
int ilpm_rows_model(ilpm_rows *r, const ilpm_model *m, ilpm_row_fn fn,
                    void *ctx);
/* The terms of sum sign * coefs[i] * lits[i] into *out; returns the
 * constant part (an objective's). */
int64_t ilpm_rows_sum(ilpm_rows *r, const int64_t *coefs, const int *lits,
                      int n, int64_t sign, ilpm_row *out);

/* ------------------------------------------------------------------ */
/* Back-end drivers behind ilpm_solver.                                 */

/* What every driver holds, embedded as the first member of each back
 * end's own struct (struct glpk { ilpm_driver base; ... }), so that the
 * registry's functions take and return the base and each back end turns
 * it into its own struct with a cast.  The watch is the time limit and
 * stop flag of the work under way: the creation's (the options' time
 * limit, set by ilpm_driver_init), then, before each solve and count,
 * the run's deadline (solver.c sets it and has checked it).  Every
 * search stops through it: ilpm_watch_poll in loops,
 * ilpm_watch_check in a solver's callback. */
typedef struct ilpm_driver {
    const ilpm_model *m; /* the model it lowered (the caller's)      */
    ilpm_options o;      /* its own copy of the options              */
    ilpm_stats *stats;   /* the caller's, filled at creation; or NULL */
    ilpm_watch watch;
    /* Optimising: sees each improving solution as the search finds it
     * (vals[1..nvars]), or NULL (solver.c sets it before each solve).
     * Non-zero from it ends the search with ILPM_ERROR. */
    ilpm_solution_fn incumbent;
    void *incumbent_ctx;
    /* Optimising: a bound from outside (ilpm_solver_on_bound), or NULL;
     * polled through ilpm_driver_bound. */
    ilpm_bound_fn bound;
    void *bound_ctx;
} ilpm_driver;

/* An improving solution, shown to d's incumbent hook if it has one: 0 to
 * go on, non-zero to end the search with ILPM_ERROR. */
static inline int ilpm_driver_incumbent(ilpm_driver *d, const uint8_t *vals)
{
    return d->incumbent ? d->incumbent(d->incumbent_ctx, vals) : 0;
}

/* A new outside bound for d's optimisation, in minimisation form (the
 * objective of a maximisation negated), into *min: 1, or 0 when none
 * came. */
static inline int ilpm_driver_bound(ilpm_driver *d, int64_t max, int64_t *min)
{
    int64_t b;
    if (!d->bound || !d->bound(d->bound_ctx, &b))
        return 0;
    *min = max ? -b : b;
    return 1;
}

/* The base of a new driver: m, a copy of o (NULL: the defaults), stats
 * and a watch over o's time limit and stop flag. */
void ilpm_driver_init(ilpm_driver *d, const ilpm_model *m,
                      const ilpm_options *o, ilpm_stats *stats);

/* What a back end does, the driver of its row of ILPM_BACKENDS
 * (backends.h, which holds its name and help). */
typedef struct ilpm_driver_ops {
    ilpm_driver *(*create)(const ilpm_model *m, const ilpm_options *o,
                           ilpm_stats *stats, ilpm_err *err);
    void (*destroy)(ilpm_driver *d);
    /* Satisfaction (optimize = 0) or optimisation (optimize = 1) under
     * assumptions; fills vals[1..nvars] when a solution is found and,
     * when optimising, *obj.  It stops at d->watch (ILPM_TIMEOUT or
     * ILPM_STOPPED, with what it found by then when optimising). */
    ilpm_status (*solve)(ilpm_driver *d, const int *assume, int n, int optimize,
                         uint8_t *vals, int64_t *obj, ilpm_err *err);
    /* Adds a permanent constraint (no-good cuts for enumeration): short,
     * never cut short by the watch. */
    int (*add)(ilpm_driver *d, const ilpm_con *con, ilpm_err *err);
    /* Optional: enumerates the solutions in one search, each projected
     * onto the model's non-aux variables and reported once through fn
     * (vals[1..nvars] filled; aux entries as found).  Stops after limit
     * solutions (0: none) or at d->watch (ILPM_TIMEOUT or
     * ILPM_STOPPED); *complete is 1 when the search ran out of
     * solutions.  m is the model whose aux flags say what to project
     * away; short_block as in solver.c: a no-good over the true non-aux
     * variables alone blocks exactly one projected solution.  NULL:
     * solver.c counts by blocking and solving again. */
    ilpm_status (*count)(ilpm_driver *d, const ilpm_model *m, int short_block,
                         uint64_t limit, uint8_t *vals, uint64_t *count,
                         int *complete, ilpm_solution_fn fn, void *ctx,
                         ilpm_err *err);
    /* Optional: checks the options this back end alone reads (see
     * ilpm_backend_check_options), before any model. */
    int (*check)(const ilpm_options *o, ilpm_err *err);
    /* What its statistics count (run and compare show those columns). */
    ilpm_backend_reports reports;
    /* Its own options, one row each (offsets in its area of
     * ilpm_options, ilpm_backend_area), ended by a row with name NULL:
     * the command line parses them, prints their help and refuses them
     * with another back end, as it does a puzzle's. */
    const ilpm_opt *opts;
    /* Its propagation policy: 1 when, under --propagate auto, the
     * literals that assumptions force are fixed before it solves (GLPK
     * presolves them away); 0 when it takes assumptions as they are and
     * propagates them itself (ilpm_propagate_assumed_level). */
    int fix_assumed;
    /* 1 when it settles the model's givens itself, on the kernel it
     * searches on (cp: ilpm_kern_settle_givens), and so is created on the
     * model as given rather than on its settled copy. */
    int settles;
} ilpm_driver_ops;

/* Every driver named in the back-end list (backends.h). */
#define ILPM_DRIVER_DECL_(id, name, help, driver)                              \
    extern const ilpm_driver_ops driver;
ILPM_BACKENDS(ILPM_DRIVER_DECL_)
#undef ILPM_DRIVER_DECL_

/* The driver of back end b (registry.c). */
const ilpm_driver_ops *ilpm_backend_driver(ilpm_backend b);

/* Whether the solvers should report: asked to, and someone listens. */
static inline int ilpm_reports(const ilpm_options *o)
{
    return o->verbose && o->log;
}

#ifdef ILPM_TEST_HOOKS
/* Set by tests (-Dtest_hooks=true builds only): the next GLPK solve
 * misuses GLPK on purpose, so that the recovery from its abort runs. */
extern int ilpm_glpk_fault;
#endif

/* Fills the GLPK side of stats (rows, nonzeros per group) without
 * solving. */
int ilpm_glpk_stats(const ilpm_model *m, const ilpm_options *o,
                    ilpm_stats *stats, ilpm_err *err);
/* Writes LP or MPS through GLPK's own writers; returns as ilpm_export. */
int ilpm_glpk_write(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                    const char *path, ilpm_err *err);
/* The LP relaxation of a model with an objective (glpk_lp.c), in
 * minimisation form: every solution x has objective >= z - slack +
 * sum over v of rc[v] x_v if rc[v] > 0, -rc[v] (1 - x_v) if rc[v] < 0
 * (reduced costs at the bound the LP takes; rc has nvars + 1 entries,
 * the caller's; x, when not NULL, as many: the LP's values).  ILPM_SOLVED,
 * ILPM_UNSAT (no LP solution), ILPM_TIMEOUT (o's deadline) or ILPM_ERROR (err
 * set). */
typedef struct ilpm_lp_bound {
    double z, slack;
    double *rc, *x;
} ilpm_lp_bound;
ilpm_status ilpm_glpk_lp_bound(const ilpm_model *m, const ilpm_options *o,
                               ilpm_lp_bound *b, ilpm_err *err);
/* Writes OPB (linear pseudo-Boolean, PB competition format). */
int ilpm_opb_write(const ilpm_model *m, FILE *f, ilpm_err *err);
/* The same, ended by *stop (non-zero; NULL for none): -1 with err
 * ILPM_E_INTERRUPTED. */
int ilpm_opb_write_until(const ilpm_model *m, FILE *f, volatile int *stop,
                         ilpm_err *err);

/* Allocates stats->groups for the model's groups, zeroed, and fills
 * vars and per-group cons. */
int ilpm_stats_prepare(const ilpm_model *m, ilpm_stats *s, ilpm_err *err);
/* Adds c's sizes to s (prepared for the same model): clauses, literals
 * and auxiliary variables, in total and per group. */
void ilpm_cnf_stats(const ilpm_cnf *c, ilpm_stats *s);

#endif
