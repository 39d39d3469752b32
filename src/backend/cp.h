/* cp.h: the cp back end's own propagation engine and search, private to
 * src/backend/cp_*.c.
 *
 * Every constraint kind is read as "cond -> sum a_i l_i cmp k" with
 * a_i > 0 (a negative coefficient is folded into its literal's negation
 * and k), so one propagator with bounds reasoning serves all of them:
 * the terms are sorted by decreasing coefficient, and a constraint keeps
 * the weight of its true and of its false literals, so that a literal
 * costs the constraints it occurs in, and propagating one stops at the
 * first term that fits in its slack.  The trail is undone by taking the
 * weights back, never by propagating again from scratch.  The model
 * layer's engine.c does the same for the settling of givens before
 * lowering, without weights and conditions and without growing. */
#ifndef ILPM_CP_H
#define ILPM_CP_H

#include "backend.h"

#include <stdint.h>
#include <stdlib.h>

enum { CP_OPEN = 0, CP_TRUE = 1, CP_FALSE = 2 };

typedef struct cp_occ {
    int c;     /* constraint */
    int64_t a; /* the literal's coefficient there */
} cp_occ;

typedef struct cp_list {
    cp_occ *v;
    int n, cap;
} cp_list;

typedef struct cp_con {
    size_t start; /* into lits and coefs */
    int n;
    uint8_t le, ge; /* the sides that bind (both for =) */
    uint8_t unit;   /* every coefficient 1 */
    int cond;       /* 0, or the literal the constraint is conditional on */
    int64_t k, total;
    int64_t st, sf; /* weight of the true and false literals */
} cp_con;

/* A reason, per assigned variable: CP_DECIDED (a decision, an assumption,
 * or what the model forced before the search), 4c + kind for constraint c
 * (kind CP_R_LE: its <= side took the literal; CP_R_GE: its >= side;
 * CP_R_CLE, CP_R_CGE: that side failed, so its condition went false), or
 * -2 - i for learned clause i.  A constraint's reason is explained into a
 * clause only when conflict analysis asks (ilpm_cp_explain). */
enum { CP_DECIDED = -1 };
enum { CP_R_LE = 0, CP_R_GE = 1, CP_R_CLE = 2, CP_R_CGE = 3 };

struct cp_db;
struct cp_heap;

typedef struct cp_eng {
    int nv;
    cp_con *cons;
    int ncons, capcons;
    int *lits;
    int64_t *coefs;
    size_t nlits, caplits;
    cp_list *occ;   /* per literal index: its terms                 */
    cp_list *cocc;  /* per literal index: constraints it conditions */
    uint8_t *dirty; /* per constraint: waiting in lazy            */
    int *lazy;      /* weighted constraints to look at, last      */
    int nlazy;
    uint8_t *val;
    int *trail;
    int ntrail, qhead;
    uint64_t props;       /* literals propagated */
    int *reason;          /* per variable, as above                   */
    int *level;           /* per variable: its decision level         */
    int *tpos;            /* per variable: its place on the trail     */
    int lvl;              /* the current decision level               */
    int conf;             /* the last conflict, as a reason           */
    struct cp_db *db;     /* learned clauses, NULL: no learning  */
    struct cp_heap *heap; /* activity order, NULL: none          */
    uint8_t *phase;       /* per variable: its last value        */
} cp_eng;

static inline int cp_lval(const uint8_t *val, int l)
{
    int x = val[abs(l)];
    if (x == CP_OPEN || l > 0)
        return x;
    return x == CP_TRUE ? CP_FALSE : CP_TRUE;
}

static inline size_t cp_lix(int l)
{
    return 2 * (size_t)abs(l) + (l < 0);
}

/* cp_engine.c */
/* The model's constraints, redundant groups too; w (the time limit and
 * stop flag) cuts it short with err->status set. */
int ilpm_cp_eng_init(cp_eng *e, const ilpm_model *m, ilpm_watch *w,
                     ilpm_err *err);
void ilpm_cp_eng_free(cp_eng *e);
/* Adds sum coefs[i] lits[i] cmp k under cond (0: none), any signs.  Returns the
 * constraint's number, -1 when out of memory. */
int ilpm_cp_eng_add(cp_eng *e, const int64_t *coefs, const int *lits, int n,
                    ilpm_cmp cmp, int64_t k, int cond);
/* Adds model constraint c (the same number as in the model when added
 * in order); -1 when out of memory. */
int ilpm_cp_eng_add_con(cp_eng *e, const ilpm_con *c);
/* Makes l true (a decision: no reason); -1 when it is false already. */
int ilpm_cp_eng_assign(cp_eng *e, int l);
/* Makes l true for reason r (see CP_DECIDED); -1 when it is false. */
int ilpm_cp_eng_imply(cp_eng *e, int l, int r);
/* Propagates the trail; -1 on a conflict. */
int ilpm_cp_eng_propagate(cp_eng *e);
/* Looks at constraint c as it stands (after its bound moved); -1 on a
 * conflict. */
int ilpm_cp_eng_check(cp_eng *e, int c);
/* Takes the trail back to mark. */
void ilpm_cp_eng_undo(cp_eng *e, int mark);
/* Takes the constraints c with gone[c] out of the occurrence lists (their
 * weights are no longer kept: a search watches them as clauses), and
 * puts them back with their weights counted anew. */
void ilpm_cp_eng_detach(cp_eng *e, const uint8_t *gone);
void ilpm_cp_eng_attach(cp_eng *e, const uint8_t *gone);

/* cp_search.c: one depth-first search. */
typedef enum cp_mode { CP_SOLVE, CP_COUNT, CP_OPTIMIZE } cp_mode;

typedef struct cp_search {
    cp_eng *e;
    const uint8_t *aux; /* aux[v]: not a puzzle variable            */
    const int *cand;    /* first-fail's constraints                 */
    int ncand;
    ilpm_search strategy;
    int64_t lookahead; /* probes per node, 0: none                 */
    int obj;           /* the objective's bound constraint, or -1  */
    int64_t obj_shift; /* objective = weight of its true terms + this */
    cp_mode mode;
    uint64_t limit;      /* CP_COUNT: stop after this many (0: none) */
    ilpm_solution_fn fn; /* CP_COUNT: sees each solution             */
    uint64_t *live;      /* CP_COUNT: the count so far, before fn    */
    void *ctx;
    ilpm_watch w;
    int64_t *order; /* lookahead's scratch: (open, constraint) pairs */
    uint8_t *wit;   /* CP_COUNT with aux: a solution below the node    */
    int wit_ok;     /* wit agrees with every value on the trail        */
    /* out */
    uint32_t rng;
    int learn; /* conflict-driven (cp_cdcl.c), else depth first */
    /* Sees each learned clause (the tests check it is implied). */
    void (*on_learn)(void *ctx, const int *lits, int n);
    void *learn_ctx;
    uint64_t nodes, fails, probes, count, restarts, learned;
    int found;
    int complete;
    int64_t best; /* CP_OPTIMIZE: the objective in minimisation form */
} cp_search;

/* Runs the search from the engine's current (propagated) state, which it
 * restores; vals[1..nv] receives the (last, best) solution.  ILPM_SOLVED
 * (a solution, or CP_COUNT done), ILPM_UNSAT, ILPM_OPTIMAL, ILPM_FEASIBLE,
 * ILPM_TIMEOUT, ILPM_STOPPED or ILPM_ERROR (out of memory, or fn). */
ilpm_status ilpm_cp_search_run(cp_search *s, uint8_t *vals, ilpm_err *err);
/* A solution on the trail, as the mode takes it: kept (solve, and
 * optimise, whose bound it tightens to one below its value), or counted
 * and shown to s->fn.  1 when the search ends with *st (solved, the
 * count's limit reached, fn failed), else 0. */
int ilpm_cp_solution(cp_search *s, uint8_t *vals, ilpm_status *st);
/* The next decision by --search's rule, or 0 when every variable has a
 * value. */
int ilpm_cp_pick(cp_search *s);

/* cp_learn.c: reasons explained, conflict analysis, learned clauses. */
typedef struct cp_ivec {
    int *v;
    int n, cap;
} cp_ivec;

typedef struct cp_clause {
    size_t start; /* into the db's lits */
    int n, lbd;
    float act;
} cp_clause;

typedef struct cp_db {
    int *lits;
    size_t nlits, caplits;
    cp_clause *cl;
    int ncl, capcl;
    cp_ivec *watch; /* per literal index: clauses watching it */
    cp_ivec units;  /* clauses of one literal */
    float inc;
    cp_ivec confl, out, buf; /* scratch */
    uint8_t *seen;
    int *stamp; /* per level, for the LBD */
    int stamp_now;
    int64_t max_learnt;
    int nv;
} cp_db;

typedef struct cp_heap {
    int *h, *pos; /* pos[v] < 0: not in the heap */
    int n;
    double *act;
    double inc;
    int nv;
} cp_heap;

/* Explains reason r of literal p (p = 0: the conflict e->conf) as a
 * clause into out: p first, then literals false now that imply it (for
 * a constraint, the largest of those it had at hand, greedily, until
 * they suffice).  -1 when out of memory. */
int ilpm_cp_explain(cp_eng *e, int r, int p, cp_ivec *out);
int ilpm_cp_db_init(cp_db *db, int nv);
void ilpm_cp_db_free(cp_db *db);
/* Learned clauses watching -l, now false; -1 on a conflict. */
int ilpm_cp_db_propagate(cp_eng *e, int l);
/* First-UIP analysis of the conflict clause in db->confl, whose literals
 * at the current level number one or more: the learned clause into
 * db->out (asserting literal first, then one of the next level), its
 * LBD into *lbd.  Returns the level to jump back to, -2 out of memory. */
int ilpm_cp_analyze(cp_eng *e, int *lbd);
/* Adds db->out as a learned clause (watching its first two literals);
 * its number, -1 out of memory. */
int ilpm_cp_db_add(cp_eng *e, int lbd);
/* Deletes half of the learned clauses, worst LBD and activity first,
 * keeping those that are a reason now; -1 out of memory. */
int ilpm_cp_db_reduce(cp_eng *e);
int ilpm_cp_heap_init(cp_heap *h, int nv);
void ilpm_cp_heap_free(cp_heap *h);
void ilpm_cp_heap_insert(cp_heap *h, int v);
/* The open variable of highest activity, 0 when none is left. */
int ilpm_cp_heap_pop_open(cp_heap *h, const uint8_t *val);

/* cp_cdcl.c: the conflict-driven search behind ilpm_cp_search_run. */
ilpm_status ilpm_cp_cdcl_run(cp_search *s, uint8_t *vals, ilpm_err *err);

#endif
