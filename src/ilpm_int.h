/* ilpm_int.h: what ilpm's own layers share beyond the public interface
 * of ilpm.h, not installed: the model's parts that the lowerings, the
 * run layer and the puzzles use but a library user has no need of
 * (names, groups left out of a lowering, the search hint, cutting a
 * build short), propagation, and the options' rows and the back ends'
 * queries.  The util floor's own header (util.h: errors, the deadline
 * watch, option rows) comes with it; GLPK's readers are in
 * ilpm_readers.h. */
#ifndef ILPM_INT_H
#define ILPM_INT_H

#include "ilpm.h"
#include "util.h"

/* X(ID, "name") lists make an enum and its names alike (ILPM_ENUM_ID_ is
 * ilpm.h's). */
#define ILPM_ENUM_NAME_(id, name) name,

// clang-format off
/* What is propagated before lowering (ilpm_options.propagate): auto (the
 * back end's default), none, the units and what they force, or that and
 * probing (ilpm_model_propagate's levels). */
#define ILPM_PROPAGATES(X) X(ILPM_PROP_AUTO, "auto") X(ILPM_PROP_NONE, "none")  \
    X(ILPM_PROP_UNITS, "units") X(ILPM_PROP_PROBE, "probe")
typedef enum ilpm_propagate {
    ILPM_PROPAGATES(ILPM_ENUM_ID_) ILPM_PROP_COUNT } ilpm_propagate;
// clang-format on

/* ------------------------------------------------------------------ */
/* Models: families, names, groups, limits                          */

/* The same, but an out-of-range index is an error naming the family. */
int ilpm_model_var_checked(const ilpm_model *m, int fam, const int *idx,
                           ilpm_err *err);
int ilpm_model_nfamilies(const ilpm_model *m);
const char *ilpm_model_family_name(const ilpm_model *m, int fam);
/* The declaration of family fam: dimensions, ranges (lo and hi hold
 * ILPM_MAX_DIMS entries) and flags.  Returns ndims, or -1 for no family. */
int ilpm_model_family_info(const ilpm_model *m, int fam, int *lo, int *hi,
                           unsigned *flags);
/* Gives variable v the user's own name (a model file's column), which
 * ilpm_model_var_name then returns and the exports write instead of
 * FAMILY[i,...]; NULL takes it back.  0, or -1 with err. */
int ilpm_model_set_var_name(ilpm_model *m, int v, const char *name,
                            ilpm_err *err);
/* The name ilpm_model_set_var_name gave v, or NULL. */
const char *ilpm_model_var_own_name(const ilpm_model *m, int v);
/* The constraints added from now on carry the user's name (a model
 * file's row; NULL: none), which the LP and MPS exports give their rows
 * ("cap", then "cap.2", ... when one name has several).  0, or -1. */
int ilpm_model_set_con_name(ilpm_model *m, const char *name, ilpm_err *err);
/* 1 if variable v belongs to an ILPM_FAM_AUX family. */
int ilpm_model_var_is_aux(const ilpm_model *m, int v);
/* How many variables belong to ILPM_FAM_AUX families; mark (NULL:
 * none; nvars + 1 entries, zeroed) gets 1 at each, a family at a time
 * rather than a search per variable. */
long ilpm_model_aux_mark(const ilpm_model *m, uint8_t *mark);

/* Cuts building short: once deadline (ilpm_now() seconds, <= 0: never)
 * has come or *stop is set, every ilpm_add_* fails with err->rc
 * ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED, and so does
 * ilpm_model_cut_short. */
void ilpm_model_set_deadline(ilpm_model *m, double deadline,
                             volatile int *stop);
/* 0 when building m was not cut short; else -1 with err saying so (rc
 * ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED), for a build that went on after
 * a refused constraint. */
int ilpm_model_cut_short(const ilpm_model *m, ilpm_err *err);

int ilpm_model_ngroups(const ilpm_model *m);
const char *ilpm_model_group_name(const ilpm_model *m, int g);
/* Marks group g redundant, as MiniZinc's redundant_constraint does: its
 * constraints follow from the others.  Propagation reasons with them (a
 * redundant row can prove that no solution exists before any search),
 * the checker checks them, and the lowerings and exports leave them out,
 * so that they cost neither rows nor clauses. */
void ilpm_model_set_redundant(ilpm_model *m, int g);
/* Where a group is left out: the linear rows (GLPK, LP, MPS, OPB), the
 * clauses (CaDiCaL, DIMACS), or both (redundant).  A group left out of
 * one lowering only states a rule that the other states its own way: the
 * two need not be the same constraints, only the same solutions. */
enum { ILPM_LOWER_ROWS = 1, ILPM_LOWER_CNF = 2 };
void ilpm_model_set_redundant_in(ilpm_model *m, int g, unsigned lowerings);
/* The lowerings that leave group g out (ILPM_LOWER_* bits); 0 for none. */
unsigned ilpm_model_group_redundant(const ilpm_model *m, int g);

/* The model's search hint, as a MiniZinc model annotates its solve item:
 * which variables a search should decide first when it looks for any
 * solution.  Each back end maps it for itself (docs/layout.md): GLPK to
 * its branching rule under --branch auto (input: the first fractional
 * column, reverse: the last, likeliest: the largest value, up branch
 * first); CaDiCaL and cp ignore it (their own activity-driven choices do
 * better).  Propagated copies keep it. */
typedef enum ilpm_hint {
    ILPM_HINT_NONE,      /* the back end's own choice (the default)   */
    ILPM_HINT_INPUT,     /* the variables in the order they were made */
    ILPM_HINT_REVERSE,   /* the same, from the last one made          */
    ILPM_HINT_LIKELIEST, /* the one nearest true, set true first      */
    ILPM_HINT_COUNT
} ilpm_hint;
void ilpm_model_set_hint(ilpm_model *m, ilpm_hint h);
ilpm_hint ilpm_model_hint(const ilpm_model *m);

/* A matching group (matching.c): variables x[i * nvals + j], i < ncells,
 * j < nvals (nvals >= ncells), of which the model's own constraints
 * make each cell i take exactly one value j and each value j at most one
 * cell (an alldifferent over 0/1 variables: a Sudoku house's cells x
 * digits).  The group states no constraint: it tells a back end where the
 * model has one (cp's Hall-set reasoning, --cp-alldiff).  Its number, or
 * -1 with err (a variable out of range, a size below 1 or nvals below
 * ncells).  Models keep their groups, not their propagated copies. */
int ilpm_model_matching(ilpm_model *m, const int *x, int ncells, int nvals,
                        ilpm_err *err);
int ilpm_model_nmatchings(const ilpm_model *m);
/* Group g's variables (ncells * nvals of them, row by row), or NULL. */
const int *ilpm_model_matching_get(const ilpm_model *m, int g, int *ncells,
                                   int *nvals);
struct ilpm_matchings;
void ilpm_matchings_free(struct ilpm_matchings *g);
/* model.c: where m keeps its matching groups. */
struct ilpm_matchings **ilpm_model_matchings_at(const ilpm_model *m);

/* ------------------------------------------------------------------ */
/* Propagation                                                      */

/* Propagation over the model's fixed literals.  Level 1: the unit
 * clauses and what clauses, at-most-one, exactly-one, implications and
 * cardinality constraints then force.  Level 2 adds failed-literal
 * probing within a work budget (a literal whose propagation fails is
 * ruled out; one that both values of a variable force is fixed), then
 * clause probing (what every literal of a short at-least-one forces).  Only
 * models with a unit clause are looked at.  Returns a new model over the same
 * variables (same families, groups and objective) in which every forced
 * variable is one unit clause (group "fixed") and every other constraint is
 * rewritten without the forced literals, or dropped once satisfied.  It has the
 * same solutions.  When propagation proves that there is none, the model
 * returned is that proof (its frame and the clauses x1 and -x1).  Returns
 * NULL with *unchanged = 1 when nothing is forced, NULL with err on
 * failure. */
ilpm_model *ilpm_model_propagate(const ilpm_model *m, int level, int *unchanged,
                                 ilpm_err *err);

/* The same propagation kept over one model across calls, for solving it
 * under many sets of assumptions (a batch's givens): built once, each
 * call settles what the assumptions force and takes it back after. */
typedef struct ilpm_propagator ilpm_propagator;
/* w, if not NULL, cuts the building short (-1 with err->rc set). */
ilpm_propagator *ilpm_propagator_new(const ilpm_model *m, ilpm_watch *w,
                                     ilpm_err *err);
void ilpm_propagator_free(ilpm_propagator *p);
/* The literals that assume[0..n) force in m at level (1 units, 2 also
 * probing; w, if not NULL, cuts probing short), the assumptions
 * included, into *out (malloc'd, *nout of them; the model's own forced
 * literals are left out).  Returns 0, 1 when the assumptions contradict
 * the model (no solution under them), -1 with err on failure. */
int ilpm_propagator_run(ilpm_propagator *p, const int *assume, int n, int level,
                        ilpm_watch *w, int **out, int *nout, ilpm_err *err);

/* The model o->backend lowers for m under o: m itself, or with
 * o->propagate its propagated copy, handed to the caller in *own (NULL
 * when m is used) to free after the lowered form.  NULL with err on
 * failure. */
const ilpm_model *ilpm_model_lowered(const ilpm_model *m, const ilpm_options *o,
                                     ilpm_model **own, ilpm_err *err);

/* The level o->propagate asks of ilpm_model_propagate: 0 none, 1 units,
 * 2 probing (auto: 2 on both back ends). */
int ilpm_propagate_level(const ilpm_options *o);
/* The level for what assumptions force (ilpm_propagator_run): the same,
 * except that auto asks 0 of a back end that propagates assumptions
 * itself (fix_under_auto 0: its driver's propagation policy). */
int ilpm_propagate_assumed_level(const ilpm_options *o, int fix_under_auto);

/* ------------------------------------------------------------------ */
/* Options and back ends                                            */

/* The outcome (ilpm_status) of work that failed with rc: ILPM_TIMEOUT,
 * ILPM_STOPPED when it was cut short, else ILPM_ERROR. */
int ilpm_rc_outcome(ilpm_rc rc);

/* The deadline of work that starts now under o: o->deadline when set,
 * else now + o->time_limit (0: none).  The one place the time limit in
 * seconds becomes a deadline. */
double ilpm_options_deadline(const ilpm_options *o);
/* The seconds a supervisor (a batch's parent) waits for one run under o
 * before it takes the run as hung: its time limit, plus the steps around
 * the solve (half as long again, and 5 s); 0 for none.  With
 * ilpm_options_deadline, the limit's only conversions (util/err.c). */
double ilpm_options_kill_after(const ilpm_options *o);

/* The options every back end shares, one row each (ILPM_OPT_LOWER: those
 * of the lowering), ended by a row with name NULL.  The command line's
 * parser and --help, ilpm_options_init, ilpm_options_set and the tests
 * read it. */
const ilpm_opt *ilpm_options_table(void);
/* The row named name, shared or a back end's, or NULL; *backend (if not
 * NULL) receives the back end whose row it is, or -1 for a shared one. */
const ilpm_opt *ilpm_option_find(const char *name, int *backend);
/* Its own option rows (the fields they set are in its area of
 * ilpm_options), ended by a row with name NULL. */
const ilpm_opt *ilpm_backend_options(int b);
/* Checks what back end b would refuse in o before any model is built
 * (--sat-option names and values on CaDiCaL's own table): 0, or -1 with
 * err (rc ILPM_E_INPUT) holding one message. */
int ilpm_backend_check_options(int b, const ilpm_options *o, ilpm_err *err);
/* What a back end's statistics count, by the model it lowers to: bits,
 * so that one back end may count both. */
typedef enum ilpm_backend_reports {
    ILPM_REPORTS_NONE = 0,   /* only variables                 */
    ILPM_REPORTS_ROWS = 1,   /* rows and nonzeros (stats.rows)  */
    ILPM_REPORTS_CLAUSES = 2 /* clauses (stats.clauses)         */
} ilpm_backend_reports;
ilpm_backend_reports ilpm_backend_report(int b);
const char *ilpm_propagate_name(ilpm_propagate p);
int ilpm_propagate_parse(const char *s);

/* Optimising: a bound from outside (a portfolio's other members).  fn
 * returns 1 and sets *obj when a new bound has come since the last call
 * (the objective, in the model's sense, of a solution found elsewhere),
 * else 0; from then on only solutions strictly better than *obj are
 * wanted, and a search that finds none answers ILPM_UNSAT ("nothing
 * better"), not ILPM_OPTIMAL.  Back ends poll it where they poll their
 * watch, so fn must be cheap (it is called often).  NULL: none. */
typedef int (*ilpm_bound_fn)(void *ctx, int64_t *obj);
void ilpm_solver_on_bound(ilpm_solver *s, ilpm_bound_fn fn, void *ctx);

#endif
