/* cp.h: the cp back end's searches on the propagation kernel, private
 * to src/backend/cp_*.c.
 *
 * The kernel (src/model/kernel.h) reads every constraint kind as
 * "cond -> sum a_i l_i cmp k" with a_i > 0 and propagates it by bounds
 * reasoning over weights kept per constraint, with a reason for every
 * assignment; the settling of givens before lowering runs on it too.
 * Here: the depth-first search (cp_search.c), the conflict-driven one
 * (cp_cdcl.c) with its explanations, learned clauses and activity order
 * (cp_learn.c), which hang on the kernel's clause store and branching
 * order, what both searches share (cp_branch.c: branching, solutions,
 * outcomes; neither search calls the other), and the driver
 * (cp_driver.c), which picks the search. */
#ifndef ILPM_CP_H
#define ILPM_CP_H

#include "backend.h"
#include "cp_opts.h"
#include "kernel.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>

/* The LP relaxation's bound: with `bound`, no solution is below z; as
 * a row of the kernel over the reduced costs: 1 + its number (0: none),
 * its k tightened by each solution to floor(scale * (best - 1 - z)). */
typedef struct cp_lp {
    int bound, row;
    double z, scale;
} cp_lp;

/* cp_search.c: one depth-first search. */
typedef enum cp_mode { CP_SOLVE, CP_COUNT, CP_OPTIMIZE } cp_mode;

struct cp_pb;
struct cp_hall;

typedef struct cp_search {
    ilpm_kern *e;
    const uint8_t *aux; /* aux[v]: not a puzzle variable            */
    const int *cand;    /* first-fail's constraints                 */
    int ncand;
    ilpm_search strategy;
    int64_t lookahead; /* probes per node, 0: none                 */
    int obj;           /* the objective's bound constraint, or -1  */
    int64_t obj_shift; /* objective = weight of its true terms + this */
    cp_lp lp;          /* CP_OPTIMIZE: the LP bound's row, if any */
    cp_mode mode;
    uint64_t limit;      /* CP_COUNT: stop after this many (0: none) */
    ilpm_solution_fn fn; /* CP_COUNT, CP_OPTIMIZE: sees each solution */
    uint64_t *live;      /* CP_COUNT: the count so far, before fn    */
    void *ctx;
    ilpm_watch w;
    int64_t *order; /* lookahead's scratch: (open, constraint) pairs */
    uint8_t *wit;   /* CP_COUNT with aux: a solution below the node    */
    int wit_ok;     /* wit agrees with every value on the trail        */
    /* out */
    uint32_t rng;
    int learn; /* conflict-driven (cp_cdcl.c), else depth first */
    /* Give up after this many failures (0: no limit), returning
     * ILPM_TIMEOUT with gave_up set. */
    uint64_t fail_budget;
    /* Depth first: fail_budget waits while the failures are fewer than
     * the most decisions the search stood on (deepest): a deep search
     * that fails little is on its way (--learn auto's turns, docs/cp.md). */
    int budget_by_depth, deepest;
    /* Learning: give up likewise at the first restart past until, or
     * the first conflict past until_hard (times of ilpm_now(); 0: none). */
    double until, until_hard;
    int gave_up;
    /* Learning: when set, a search that gives up (fail_budget, until)
     * keeps its state in *keep (learned clauses, activities, phases,
     * restarts), the kernel back at its level 0: what it fixed there
     * stays on the trail (implied by the model), above what it started
     * from.  A search in between runs on that trail and takes back what
     * it adds; the next run takes the kept one up again, and a run that
     * ends frees it, the kernel back where it started, and sets *keep to
     * NULL (else ilpm_cp_cdcl_drop frees it; the caller takes the trail
     * back). */
    struct cdcl **keep;
    /* Depth first, having found a solution: the trail left as it ends,
     * for the driver to take back when it is used again (undoing a
     * solution of queens 5000 is 25 million literals). */
    int keep_trail;
    /* Depth first, one solution: the rows' weights copied at the root,
     * so that a restart resets them (ilpm_kern_reset) rather than undoes
     * its trail literal by literal (a count's searches for a witness,
     * many and short, copy nothing). */
    int root_reset;
    /* Sees each learned clause (the tests check it is implied). */
    void (*on_learn)(void *ctx, const int *lits, int n);
    void *learn_ctx;
    /* Learning: cutting-planes analysis of conflicts on weighted rows
     * (--cp-analysis cuts, cp_cuts.c: 1, its clause learned when better
     * than the first-UIP one; 2: always), and a hook that sees each sum it
     * derives (the tests check it is implied; a cp_pb). */
    int cuts;
    void (*on_cut)(void *ctx, const struct cp_pb *sum);
    void *cut_ctx;
    uint64_t cut_tried, cut_taken, cut_rows;
    /* Hall sets of the model's matching groups (--cp-alldiff, cp_hall.c)
     * at each node's fixpoint, or NULL. */
    struct cp_hall *hall;
    uint64_t nodes, fails, probes, count, restarts, learned;
    /* Depth first, one solution: the searches that went back part of
     * the way (cp_search.c's go_back), deep searches alone. */
    uint64_t local;
    int found;
    int complete;
    int64_t best; /* CP_OPTIMIZE: the objective in minimisation form */
    /* CP_OPTIMIZE: the driver whose outside bound (ilpm_driver_bound) is
     * polled every 512th node, or NULL; max: a maximisation; ext: best
     * is that bound, better than any solution found here (exhausted:
     * ILPM_UNSAT, nothing better). */
    ilpm_driver *drv;
    int max, ext;
    uint32_t tick;
} cp_search;

/* Undoing the search's trail when it ends takes time too (0.35 s for
 * the trail of n-Queens 4000, up to 16 million literals, under load):
 * every 64th node the search
 * looks whether the time left still covers that and freeing the memory
 * (ilpm_free_time), and else ends.  The watch's status sticks for the
 * search loop's poll. */
#define CP_UNDO_S_PER_LIT 3e-8

/* The value choice's ties go uniformly at random in a first-fail row of
 * at least this many literals (cp_branch.c's choose): the order of a
 * long row is the model's layout, whose regular pattern a large board
 * repeats (n-Queens' knight's-move stairs, which leave a sub-board
 * without a completion at the bottom of the descent). */
#define CP_LONG_ROW 1000
/* A depth-first search for one solution at least this many decisions
 * deep goes back CP_LOCAL_JUMP decisions after CP_LOCAL_FAILS failures
 * rather than exhaust the bottom of its descent, both growing each time
 * (cp_search.c's go_back); above it, a restart from the root would
 * cost a descent. */
#define CP_LOCAL_DEPTH 1000
#define CP_LOCAL_FAILS 20
#define CP_LOCAL_JUMP 100
/* CP_LOCAL_DEPTH, but for the tests, which look at a deep search
 * without it. */
extern int ilpm_cp_local_depth;
static inline void ilpm_cp_undo_due(cp_search *s)
{
    ilpm_watch *w = &s->w;
    if ((s->nodes & 63) == 0 && !w->status && w->deadline > 0 &&
        ilpm_now() + ilpm_free_time() +
                (double)s->e->ntrail * CP_UNDO_S_PER_LIT >=
            w->deadline)
        w->status = ILPM_TIMEOUT;
}

/* Runs the search s->learn selects (cp_driver.c) from the kernel's
 * current (propagated) state, which it restores (unless the time limit
 * or a stop cut it short, s->w.status, or keep_trail kept a depth-first
 * solution: the caller takes that trail back); vals[1..nv] receives the
 * (last, best) solution.  ILPM_SOLVED (a solution, or CP_COUNT done),
 * ILPM_UNSAT, ILPM_OPTIMAL, ILPM_FEASIBLE, ILPM_TIMEOUT, ILPM_STOPPED or
 * ILPM_ERROR (out of memory, or fn). */
ilpm_status ilpm_cp_search_run(cp_search *s, uint8_t *vals, ilpm_err *err);
/* cp_cdcl.c: frees a learning search kept by cp_search.keep (NULL: none). */
void ilpm_cp_cdcl_drop(struct cdcl *c);
/* cp_search.c: the depth-first search, as ilpm_cp_search_run. */
ilpm_status ilpm_cp_dfs_run(cp_search *s, uint8_t *vals, ilpm_err *err);

/* cp_cover.c: a count by exact cover (Algorithm X over bitsets), when
 * every row still open on the kernel as it stands (its trail propagated)
 * is "sum = 1" or "sum <= 1" over positive literals of open puzzle
 * variables, each in some "sum = 1", or a clause (implied by a "sum = 1"
 * within it, narrowing one it lies within, else checked at each
 * solution); implied[r] (r < nimplied): row r is implied by the others
 * (a redundant group), left out.  1 when it counted into
 * s (count, nodes, fails, complete), every solution shown to s->fn with
 * vals as its values, *st ILPM_SOLVED (done, or s->limit reached),
 * ILPM_TIMEOUT, ILPM_STOPPED (s->w) or ILPM_ERROR (fn); 0 when the
 * model is not such a cover, or too large (the depth-first search
 * counts).  The kernel is left as it is. */
int ilpm_cp_cover_count(cp_search *s, const uint8_t *implied, int nimplied,
                        uint8_t *vals, ilpm_status *st);
/* How many counts this thread ran by exact cover (the tests look). */
extern _Thread_local uint64_t ilpm_cp_cover_runs;

/* cp_branch.c: what both searches share. */
/* A solution on the trail, as the mode takes it: kept (solve, and
 * optimise, whose bound it tightens to one below its value), or counted
 * and shown to s->fn.  1 when the search ends with *st (solved, the
 * count's limit reached, fn failed), else 0. */
int ilpm_cp_solution(cp_search *s, uint8_t *vals, ilpm_status *st);
/* The next decision by --search's rule, or 0 when every variable has a
 * value. */
int ilpm_cp_pick(cp_search *s);
/* CP_OPTIMIZE with a solution: the objective's row and the LP bound's
 * row bounded below s->best (the objective's row fails at once when the
 * LP's value is met). */
void ilpm_cp_bound(cp_search *s);
/* Before a node of an optimisation: the objective's bound and the LP
 * bound's row checked, and propagated; 1 on a conflict, else 0. */
int ilpm_cp_bound_fails(cp_search *s);
/* The outcome of a search that ran out of branches: a count done, the
 * optimum found, or no solution. */
ilpm_status ilpm_cp_exhausted(const cp_search *s);
/* Status st of a search that ended, except that an optimisation cut
 * short (ILPM_TIMEOUT, ILPM_STOPPED) after a solution is ILPM_FEASIBLE. */
ilpm_status ilpm_cp_cut_short(const cp_search *s, ilpm_status st);

/* cp_learn.c: reasons explained, conflict analysis, learned clauses. */
typedef struct cp_ivec {
    int *v;
    int n, cap;
} cp_ivec;

/* Appends x; -1 when out of memory. */
static inline int ilpm_cp_ivec_push(cp_ivec *a, int x)
{
    if (ilpm_grow_int((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v) != 0)
        return -1;
    a->v[a->n++] = x;
    return 0;
}

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
    int64_t *keys;           /* explain's candidates, by trail place */
    int capkeys;
    uint8_t *seen;
    int *stamp; /* per level, for the LBD */
    int stamp_now;
    int64_t max_learnt;
    int nv;
    int weighted; /* the last analysis met a weighted row's reason */
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
 * a constraint, those set earliest, until they suffice, less those the
 * sum does not need; e->db is its scratch).  -1 when out of memory. */
int ilpm_cp_explain(ilpm_kern *e, int r, int p, cp_ivec *out);
int ilpm_cp_db_init(cp_db *db, int nv);
void ilpm_cp_db_free(cp_db *db);
/* Learned clauses watching -l, now false; -1 on a conflict. */
int ilpm_cp_db_propagate(ilpm_kern *e, int l);
/* First-UIP analysis of the conflict clause in db->confl, whose literals
 * at the current level number one or more: the learned clause into
 * db->out (asserting literal first, then one of the next level), its
 * LBD into *lbd.  Returns the level to jump back to (>= 0), or -1 out
 * of memory. */
int ilpm_cp_analyze(ilpm_kern *e, int *lbd);
/* The learned clause in db->out (asserting literal first, the others
 * false below the current level and marked seen): minimised, the marks
 * taken off, the literal of the level to jump back to second; returns
 * that level, its LBD into *lbd (-1 out of memory). */
int ilpm_cp_conclude(ilpm_kern *e, int *lbd);
/* Of the keys (trail place << 32 | i, i indexing w), the earliest whose
 * weights |w[i]| sum past need, and of those only what the sum needs
 * (the others set to -1): sorts keys, returns how many were looked at,
 * their sum into *sum (at most need when all were too few). */
int ilpm_cp_earliest(int64_t *keys, int nk, const int64_t *w, int64_t need,
                     int64_t *sum);

/* cp_cuts.c: cutting-planes conflict analysis (--cp-analysis cuts).  A
 * sum "sum |a[v]| l_v >= d" over the variables in vars[0..n), the
 * literal of v being v when a[v] > 0, -v when a[v] < 0 (a[v] = 0: none);
 * big when a coefficient grew past the analysis's limit. */
typedef struct cp_pb {
    int64_t *a;
    int *vars;
    uint8_t *in;
    int n, big;
    int64_t d;
} cp_pb;

typedef struct cp_cuts {
    cp_pb sum, r;  /* the sum derived, a reason */
    int ok;        /* the last analysis derived sum */
    cp_ivec first; /* the first-UIP clause, kept while the sum is tried */
    cp_ivec lits;  /* the sum as a row, for the kernel */
    int64_t *coefs;
    size_t capcoefs;
    uint64_t steps;        /* reasons added */
    uint64_t tried, taken; /* analyses run, clauses of theirs learned */
    /* Sees every sum derived (the tests check it is implied). */
    void (*on_cut)(void *ctx, const cp_pb *sum);
    void *cut_ctx;
} cp_cuts;

int ilpm_cp_cuts_init(cp_cuts *k, int nv);
void ilpm_cp_cuts_free(cp_cuts *k);
/* The conflict e->conf (at the current level) analysed by cutting
 * planes into an asserting sum, and the clause that explains its
 * assertion into db->out as ilpm_cp_conclude leaves it: returns the level
 * to jump back to, -2 when the analysis gave up (db->out emptied), -1
 * out of memory. */
int ilpm_cp_cuts_analyze(ilpm_kern *e, cp_cuts *k, int *lbd);
/* The sum the last analysis derived added to the kernel as a row "sum
 * a_i l_i >= d" (implied by the model: it holds wherever it is put):
 * its number; -2 when there is none, it is a clause, or it is too long
 * or its coefficients too large to be worth a row; -1 out of memory. */
int ilpm_cp_cuts_learn(ilpm_kern *e, cp_cuts *k);
/* Adds db->out as a learned clause (watching its first two literals);
 * its number, -1 out of memory. */
int ilpm_cp_db_add(ilpm_kern *e, int lbd);
/* Deletes half of the learned clauses, worst LBD and activity first,
 * keeping those that are a reason now; -1 out of memory. */
int ilpm_cp_db_reduce(ilpm_kern *e);
int ilpm_cp_heap_init(cp_heap *h, int nv);
void ilpm_cp_heap_free(cp_heap *h);
/* Puts v back (the kernel's heap_insert hook: heap is a cp_heap). */
void ilpm_cp_heap_insert(void *heap, int v);
/* The open variable of highest activity, 0 when none is left. */
int ilpm_cp_heap_pop_open(cp_heap *h, const uint8_t *val);

/* The kernel with every constraint of the model, redundant groups too,
 * numbered as in the model, learned clauses and the activity order
 * hooked in (set when a search uses them: e->db, e->heap), phases but
 * no reasons yet (the conflict-driven search makes them: the
 * depth-first search reads none); w (the time limit and stop flag) cuts
 * it short with err->rc set. */
static inline int ilpm_cp_kern_init(ilpm_kern *e, const ilpm_model *m,
                                    ilpm_watch *w, ilpm_err *err)
{
    if (ilpm_kern_init(e, m, ILPM_KERN_ALL_KINDS, w, err) != 0)
        return -1;
    /* the phases from the start: a learning turn of --learn auto starts
     * from the depth-first turn's last values */
    if (ilpm_kern_keep_phases(e) != 0) {
        ilpm_kern_free(e);
        return ilpm_err_nomem(err, "out of memory building the "
                                   "propagation kernel");
    }
    e->db_propagate = ilpm_cp_db_propagate;
    e->heap_insert = ilpm_cp_heap_insert;
    return 0;
}

/* ilpm_cp_kern_init with the reasons kept from the start (the tests
 * explain on the kernel by hand); the conflict-driven search makes them
 * itself when it starts (ilpm_kern_keep_reasons). */
static inline int ilpm_cp_kern_init_reasons(ilpm_kern *e, const ilpm_model *m,
                                            ilpm_watch *w, ilpm_err *err)
{
    if (ilpm_cp_kern_init(e, m, w, err) != 0)
        return -1;
    if (ilpm_kern_keep_reasons(e) != 0) {
        ilpm_kern_free(e);
        return ilpm_err_nomem(err, "out of memory building the "
                                   "propagation kernel");
    }
    return 0;
}

/* cp_driver.c: GLPK's LP relaxation of m (ilpm_glpk_lp_bound) as a row
 * of e over the reduced costs, for the objective's row obj (the LP's
 * values set as the first phases), into *lp.  lp->bound stays 0 when
 * GLPK gives no bound (time, memory, GLPK's failure): the search goes on
 * without it. */
void ilpm_cp_lp_row(ilpm_kern *e, const ilpm_model *m, const ilpm_options *o,
                    int obj, cp_lp *lp);

/* cp_hall.c: alldifferent's Hall sets on the model's matching groups
 * (ilpm_model_matching; --cp-alldiff on): at a node's fixpoint, each
 * group a literal on the trail touched since the last look keeps a
 * maximum matching of its cells to their open values; a cell left
 * unmatched is a conflict (its cells outnumber the values they can
 * take), and every open x[c][d] that no maximum matching uses (Régin's
 * rule: d not reaching a free value nor c's value, in the graph of
 * alternating paths) is set false, explained by its Hall set: the cells
 * C matched into D, the values d reaches, |C| = |D|, c not in C; the
 * clause "NOT x[c][d] OR some x[c'][d'] (c' in C, d' not in D)", whose
 * other literals are false now.  Learning, each clause goes into the
 * clause store as a learned one and is the literal's reason (on_learn
 * sees it); depth first, the literal is set alone. */
typedef struct cp_hgroup {
    const int *x; /* the model's x[i * nvals + j] */
    int nc, nvals;
    int *mc, *mv; /* the matching: cell -> value, value -> cell, -1 none */
} cp_hgroup;

typedef struct cp_hall {
    int checked; /* the trail up to here was looked at */
    int ng;
    cp_hgroup *g;
    int *vstart, *vgrp; /* per variable: its groups */
    uint8_t *dirty;
    int *queue, nq;
    int max;                          /* the largest side */
    int *adj, *deg, *stk, *pos, *via; /* scratch */
    int *vis, *inr, *comp, *low, *num, *tstk, *bfs, *pairs, stamp;
    uint64_t runs, pruned,
        fails; /* groups looked at, literals set, conflicts */
} cp_hall;

/* The groups of m (nv variables), NULL when it has none or out of
 * memory (*nomem set). */
cp_hall *ilpm_cp_hall_new(const ilpm_model *m, int nv, int *nomem);
void ilpm_cp_hall_free(cp_hall *h);
/* A search starts on e: every group to be looked at. */
void ilpm_cp_hall_start(cp_hall *h, const ilpm_kern *e);
/* The trail taken back to ntrail literals. */
static inline void ilpm_cp_hall_undo(cp_hall *h, int ntrail)
{
    if (h && h->checked > ntrail)
        h->checked = ntrail;
}
/* Looks at the groups touched since the last look, on s's kernel at a
 * fixpoint: -1 on a conflict (learning: e->conf its clause), 1 when it
 * set literals (to propagate), else 0. */
int ilpm_cp_hall_run(cp_hall *h, cp_search *s);

/* cp_cdcl.c: the conflict-driven search, as ilpm_cp_search_run. */
ilpm_status ilpm_cp_cdcl_run(cp_search *s, uint8_t *vals, ilpm_err *err);

#endif
