/* ilpm.h: the public interface of libilpm, the one header installed.
 *
 * A model is a set of 0/1 variables in named families plus constraints
 * that keep their kind and group.  It is solved by GLPK ("ilp"), as CNF by
 * CaDiCaL ("sat") or by ilpm's own search ("cp"), written as LP, MPS, CNF
 * or OPB, or read from such a file.  A fallible function returns 0 (or an
 * id) or fills the caller's ilpm_err; nothing here prints or exits.  The
 * layers' own headers (ilpm_int.h, util/util.h) are not installed.
 */
#ifndef ILPM_H
#define ILPM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ILPM_VERSION_MAJOR 0
#define ILPM_VERSION_MINOR 1
#define ILPM_VERSION_PATCH 0
#define ILPM_VERSION "0.1.0"

/* ---- Errors -------------------------------------------------------- */

/* What a call came to, kept with its message in the caller's ilpm_err:
 * ILPM_OK, or the kind of failure, so that a caller can tell the user's
 * part (input, limit) from the machine's and ilpm's. */
typedef enum ilpm_rc {
    ILPM_OK = 0,
    ILPM_E_INPUT,       /* the input or a parameter: the user can mend it */
    ILPM_E_LIMIT,       /* past a size bound the user can raise (max_vars) */
    ILPM_E_NOMEM,       /* an allocation failed                            */
    ILPM_E_IO,          /* an output could not be created or written       */
    ILPM_E_TIMEOUT,     /* the deadline came first (a time limit)          */
    ILPM_E_INTERRUPTED, /* the stop flag was set                           */
    ILPM_E_FAIL         /* ilpm or a solver failed on sound input          */
} ilpm_rc;

typedef struct ilpm_err {
    char msg[512];
    ilpm_rc rc; /* ILPM_OK until a failure is reported */
} ilpm_err;

#define ILPM_ENUM_ID_(id, name) id, /* X(ID, "name") lists make enums */
/* The outcomes of a solve: solved (a solution), optimal (proven),
 * feasible (a solution, a limit hit before its proof), unsat (none
 * exists), timeout (a limit hit, no solution), stopped, error. */
// clang-format off
#define ILPM_STATUSES(X) X(ILPM_SOLVED, "solved") X(ILPM_OPTIMAL, "optimal")   \
    X(ILPM_FEASIBLE, "feasible") X(ILPM_UNSAT, "unsat")                        \
    X(ILPM_TIMEOUT, "timeout") X(ILPM_STOPPED, "stopped") X(ILPM_ERROR, "error")
typedef enum ilpm_status { ILPM_STATUSES(ILPM_ENUM_ID_) ILPM_STATUS_COUNT } ilpm_status;
// clang-format on

const char *ilpm_status_name(ilpm_status s);
/* Monotonic clock in seconds (for timings and deadlines). */
double ilpm_now(void);

/* ---- Building a model ---------------------------------------------- */

typedef struct ilpm_model ilpm_model;

typedef enum ilpm_cmp { ILPM_LE, ILPM_GE, ILPM_EQ } ilpm_cmp;

typedef enum ilpm_kind {
    ILPM_CLAUSE, /* at least one literal true                       */
    ILPM_ALO,    /* at least one: the same as a clause, kept apart  */
    ILPM_AMO,    /* at most one literal true                        */
    ILPM_EXO,    /* exactly one literal true                        */
    ILPM_IMPL,   /* a -> b (b may be negative)                      */
    ILPM_CARD,   /* sum of literals cmp k                           */
    ILPM_CCARD,  /* cond -> (sum of literals cmp k)                 */
    ILPM_LINEAR, /* sum a_i * l_i cmp b, integer a_i                */
    ILPM_KIND_COUNT
} ilpm_kind;

typedef enum ilpm_sense { ILPM_NONE, ILPM_MINIMIZE, ILPM_MAXIMIZE } ilpm_sense;

#define ILPM_MAX_DIMS 4
/* A family flagged ILPM_FAM_AUX is not part of the answer: counting and
 * enumeration project it away. */
#define ILPM_FAM_AUX 1u

ilpm_model *ilpm_model_new(void);
void ilpm_model_free(ilpm_model *m);

/* Declares a family of variables with ndims (1..4) inclusive ranges
 * lo[d]..hi[d].  Returns the family id (>= 0) or -1. */
int ilpm_model_family(ilpm_model *m, const char *name, int ndims, const int *lo,
                      const int *hi, unsigned flags, ilpm_err *err);
/* Family id by name, or -1. */
int ilpm_model_family_find(const ilpm_model *m, const char *name);
/* Variable id (1-based, DIMACS) of a family member, or 0 if an index is
 * out of its range.  Unused trailing indices are ignored. */
int ilpm_model_var(const ilpm_model *m, int fam, int i0, int i1, int i2,
                   int i3);
int ilpm_model_nvars(const ilpm_model *m);
/* Writes the name of variable v ("X[1,2,3]") into buf; returns buf. */
const char *ilpm_model_var_name(const ilpm_model *m, int v, char *buf,
                                size_t size);

/* At most max_vars variables and max_bytes of constraints (0: no
 * bound), checked before memory is committed: past them, rc ILPM_E_LIMIT. */
void ilpm_model_set_limits(ilpm_model *m, int64_t max_vars, int64_t max_bytes);

/* Subsequent constraints belong to the named group (created on first
 * use; statistics are kept per group).  Returns the group id or -1. */
int ilpm_model_group(ilpm_model *m, const char *name, ilpm_err *err);

/* Literals: +v is x_v, -v is (1 - x_v).  Each returns 0 or -1. */
int ilpm_add_clause(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_alo(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_amo(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_exo(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_impl(ilpm_model *m, int a, int b, ilpm_err *err);
int ilpm_add_card(ilpm_model *m, const int *lits, int n, ilpm_cmp cmp,
                  int64_t k, ilpm_err *err);
int ilpm_add_ccard(ilpm_model *m, int cond, const int *lits, int n,
                   ilpm_cmp cmp, int64_t k, ilpm_err *err);
int ilpm_add_linear(ilpm_model *m, const int64_t *coefs, const int *lits, int n,
                    ilpm_cmp cmp, int64_t rhs, ilpm_err *err);
/* Sets (replaces) the objective: sense over sum coefs[i] * lits[i]. */
int ilpm_model_objective(ilpm_model *m, ilpm_sense sense, const int64_t *coefs,
                         const int *lits, int n, ilpm_err *err);

/* ---- Reading a model back ------------------------------------------ */

/* A constraint as the model keeps it (ilpm_model_con), for a caller's own
 * exporter or checker. */
typedef struct ilpm_con {
    ilpm_kind kind;
    ilpm_cmp cmp;
    int group;
    int cond;             /* ILPM_CCARD: the condition literal; else 0 */
    int n;                /* number of literals                        */
    const int *lits;      /* n literals                                */
    const int64_t *coefs; /* n coefficients (all 1 unless LINEAR)      */
    int64_t rhs;          /* k or b; 1 for clause/alo/amo/exo; 0 impl  */
    const char *name;     /* the user's name for it, or NULL           */
} ilpm_con;

size_t ilpm_model_ncons(const ilpm_model *m);
void ilpm_model_con(const ilpm_model *m, size_t i, ilpm_con *out);
ilpm_sense ilpm_model_objective_get(const ilpm_model *m, int *n,
                                    const int **lits, const int64_t **coefs);
/* Value of the objective under a 0/1 assignment vals[1..nvars]. */
int64_t ilpm_model_objective_value(const ilpm_model *m, const uint8_t *vals);
/* 1 if vals[1..nvars] satisfies every constraint; else 0, and *bad
 * (bad may be NULL) the index of the first it breaks (ilpm_model_con). */
int ilpm_model_check(const ilpm_model *m, const uint8_t *vals, size_t *bad);
const char *ilpm_kind_name(ilpm_kind k);

/* ---- Options and back ends ----------------------------------------- */

/* Each back end's own options live in an area of ilpm_options that only
 * it reads: set them by name (ilpm_options_set).  Room for
 * ILPM_BACKENDS_MAX back ends of ILPM_BACKEND_AREA bytes each. */
#define ILPM_BACKENDS_MAX 8
#define ILPM_BACKEND_AREA 64
typedef union ilpm_backend_opts {
    int64_t i; /* the members align it for any field */
    void *p;
    unsigned char bytes[ILPM_BACKEND_AREA];
} ilpm_backend_opts;

typedef struct ilpm_options {
    int backend;       /* ilpm_backend_find("sat"); default ilp     */
    int propagate;     /* "propagate": set by name; default auto    */
    double time_limit; /* seconds, <= 0 for none                    */
    /* The time point (ilpm_now()) work stops at, 0 for none: set once
     * from time_limit where the work starts, then watched by every step. */
    double deadline;
    /* With verbose, the solvers' progress goes to log(log_ctx, text), in
     * pieces that join into their output; log must not call back into
     * ilpm.  While a verbose SAT call runs, stdout is pointed at the log
     * (CaDiCaL writes there): other threads' stdout lands in it too. */
    int verbose;
    void (*log)(void *ctx, const char *text);
    void *log_ctx;
    int64_t max_vars;        /* model variables (default 50 million)      */
    int64_t max_memory_mb;   /* model and CNF storage (3/4 of the machine) */
    volatile int *stop_flag; /* non-zero stops every step and back end   */
    ilpm_backend_opts backend_area[ILPM_BACKENDS_MAX]; /* by back end     */
} ilpm_options;

/* Every option at its default. */
void ilpm_options_init(ilpm_options *o);
/* Sets option name (shared or a back end's; `ilpm solve --help` lists
 * them) from text as the command line takes it (NULL for a flag): 0, or
 * -1 with err ("--amo: expected one of ...") and o unchanged. */
int ilpm_options_set(ilpm_options *o, const char *name, const char *value,
                     ilpm_err *err);
/* Option name's value as text ("seq") into buf: 0, or -1 for none. */
int ilpm_options_get(const ilpm_options *o, const char *name, char *buf,
                     size_t size);
/* The back ends, numbered from 0 in their list's order (ilp, sat, cp):
 * how many, the number of the one named name (-1: none), its name. */
int ilpm_backend_count(void);
int ilpm_backend_find(const char *name);
const char *ilpm_backend_name(int b);

/* ---- Sizes --------------------------------------------------------- */

/* Sizes of one formulation, overall and per group. */
typedef struct ilpm_group_stats {
    int64_t cons;              /* model constraints in the group */
    int64_t rows, nonzeros;    /* ILP rows                       */
    int64_t clauses, literals; /* CNF clauses                    */
    int64_t aux_vars;          /* CNF auxiliary variables        */
} ilpm_group_stats;

typedef struct ilpm_stats {
    int64_t vars;     /* model variables                         */
    int64_t aux_vars; /* model vars in AUX families + CNF aux vars */
    int64_t rows, nonzeros;
    int64_t clauses, literals;
    int64_t fixed; /* variables fixed before search: givens, propagation */
    int ngroups;
    ilpm_group_stats *groups; /* ngroups entries, owned by the stats */
} ilpm_stats;

void ilpm_stats_free(ilpm_stats *s);

/* Sizes of both lowerings of m under o, without solving. */
int ilpm_model_stats(const ilpm_model *m, const ilpm_options *o,
                     ilpm_stats *out, ilpm_err *err);

/* ---- Solving and counting ------------------------------------------ */

/* A solver holds one lowered model and may be called many times: with
 * assumptions (literals held true for one call only), after blocking the
 * last solution, or after bounding the objective. */
typedef struct ilpm_solver ilpm_solver;

ilpm_solver *ilpm_solver_new(const ilpm_model *m, const ilpm_options *o,
                             ilpm_err *err);
void ilpm_solver_free(ilpm_solver *s);
/* Satisfaction: finds any solution, ignoring the objective. */
ilpm_status ilpm_solver_solve(ilpm_solver *s, const int *assume, int n,
                              ilpm_err *err);
/* Optimisation: GLPK's objective, or a bound tightened step by step on
 * SAT.  ILPM_OPTIMAL when proven, ILPM_FEASIBLE when a limit hit first. */
ilpm_status ilpm_solver_optimize(ilpm_solver *s, const int *assume, int n,
                                 ilpm_err *err);
/* Values of the last solution: vals[v] for v = 1..nvars; NULL: none. */
const uint8_t *ilpm_solver_values(const ilpm_solver *s);
int64_t ilpm_solver_objective(const ilpm_solver *s);
/* Excludes the last solution, projected onto the non-aux variables. */
int ilpm_solver_block(ilpm_solver *s, ilpm_err *err);
/* Sizes of the lowered formulation (groups included). */
const ilpm_stats *ilpm_solver_stats(const ilpm_solver *s);
/* Sets the deadline of the calls that follow (ilpm_now() seconds, 0:
 * none); ilpm_solver_new takes it from its options. */
void ilpm_solver_set_deadline(ilpm_solver *s, double deadline);

/* Counts solutions projected onto the non-aux variables, up to limit
 * (0: none); fn (NULL: none) sees each one, non-zero from it stops the
 * count with an error.  ILPM_SOLVED when complete or at the limit,
 * ILPM_TIMEOUT / ILPM_STOPPED with *count so far. */
typedef int (*ilpm_solution_fn)(void *ctx, const uint8_t *vals);
ilpm_status ilpm_solver_count(ilpm_solver *s, uint64_t limit, uint64_t *count,
                              ilpm_solution_fn fn, void *ctx, ilpm_err *err);
/* Optimisation: fn (NULL: none) sees each improving solution as the back
 * end finds it; non-zero from it ends the search with ILPM_ERROR. */
void ilpm_solver_on_incumbent(ilpm_solver *s, ilpm_solution_fn fn, void *ctx);
/* 1 when the last count ran out of solutions (exact); 0 when the limit,
 * a time limit, a stop or an error ended it first. */
int ilpm_solver_count_complete(const ilpm_solver *s);

/* ---- Files --------------------------------------------------------- */

typedef enum ilpm_format {
    ILPM_FMT_LP,  /* CPLEX LP, through GLPK's writer                 */
    ILPM_FMT_MPS, /* free MPS, through GLPK's writer                 */
    ILPM_FMT_CNF, /* DIMACS CNF with a "c NAME VAR" dictionary       */
    ILPM_FMT_OPB, /* pseudo-Boolean (OPB), PB competition format     */
    ILPM_FMT_COUNT
} ilpm_format;

/* Writes the model to path ("-": standard output; a regular file is
 * replaced only once the whole file is written): 0, or -1 with err (rc
 * ILPM_E_IO when the output cannot be written). */
int ilpm_export(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                const char *path, ilpm_err *err);

/* Reads the model file path in the format named format ("lp", "mps",
 * "opb", "cnf", "fzn"; NULL: by its extension) into *out, a new model
 * whose variables are the file's 0/1 columns, each integer column in
 * bits (binary encoding), and whose objective is the file's.  0, or -1
 * with err: "file:line:column: message" (rc ILPM_E_INPUT) for a file
 * that does not read. */
int ilpm_model_read(const char *path, const char *format, ilpm_model **out,
                    ilpm_err *err);

#ifdef __cplusplus
}
#endif
#endif
