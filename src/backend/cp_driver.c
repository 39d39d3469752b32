/* The cp driver: ilpm's own propagation engine and depth-first search
 * (src/model/kernel.c, cp_search.c, cp_cdcl.c) behind ilpm_driver_ops.  One
 * engine lives as long as the driver: what the model alone forces stays on its
 * trail (the base), each call adds its assumptions above it and takes them
 * back, and a constraint added between calls joins the engine for good.
 * Counting runs in one exhaustive search, without blocking clauses. */
#include "cp.h"
#include "ilpm_int.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct cp_drv {
    ilpm_driver base; /* first: m, o and the watch (backend.h) */
    ilpm_kern e;
    uint8_t *aux;
    int naux; /* how many variables aux marks */
    int *cand, ncand;
    int refuted; /* the model (and what was added) has no solution */
    int obj;     /* the objective's bound constraint, or -1 */
    int64_t obj_shift;
    int undo_to; /* -1, or where a search cut short left the trail */
    cp_lp lp;    /* the LP bound's row, asked of GLPK once (lp_tried) */
    int lp_tried;
    uint8_t *implied; /* per row < nimplied: of a redundant group */
    int nimplied;
    cp_hall *hall; /* --cp-alldiff on, with matching groups: their Hall sets */
} cp_drv;

/* A bound that never binds, with room for the coefficients folded in. */
#define NO_BOUND (INT64_MAX / 4)

static void cp_destroy(ilpm_driver *drv)
{
    cp_drv *d = (cp_drv *)drv;
    if (!d)
        return;
    ilpm_kern_free(&d->e);
    free(d->aux);
    free(d->cand);
    free(d->implied);
    ilpm_cp_hall_free(d->hall);
    free(d);
}

/* First-fail's constraints: the exactly-ones and at-least-ones over
 * puzzle variables, by their number in the engine; clauses only when the
 * model states none (a CNF read from a file).  A puzzle's clauses are
 * mostly supports (x -> one of y1..yk), and branching on them first
 * would take a literal's negation before the choices the puzzle is
 * made of (Tetravex's tile per cell). */
static int find_candidates(cp_drv *d)
{
    size_t nc = ilpm_model_ncons(d->base.m);
    d->cand = malloc((nc + 1) * sizeof *d->cand);
    if (!d->cand)
        return -1;
    for (int clauses = 0; clauses < 2 && d->ncand == 0; clauses++)
        for (size_t i = 0; i < nc; i++) {
            ilpm_con c;
            ilpm_model_con(d->base.m, i, &c);
            if (clauses ? c.kind != ILPM_CLAUSE
                        : c.kind != ILPM_EXO && c.kind != ILPM_ALO)
                continue;
            int ok = c.n >= 2;
            /* (a column of n-Queens 5000: 5000 misses, none to find) */
            for (int j = 0; j < c.n && ok && d->naux; j++)
                ok = !d->aux[abs(c.lits[j])];
            if (ok)
                d->cand[d->ncand++] = (int)i;
        }
    return 0;
}

/* The objective in minimisation form as a constraint "sum <= bound"
 * whose bound the search tightens; obj_shift is what folding negative
 * coefficients took out of the sum. */
static int add_objective(cp_drv *d)
{
    int n;
    const int *lits;
    const int64_t *coefs;
    ilpm_sense sense = ilpm_model_objective_get(d->base.m, &n, &lits, &coefs);
    d->obj = -1;
    if (sense == ILPM_NONE)
        return 0;
    int64_t *c = malloc(((size_t)n + 1) * sizeof *c);
    if (!c)
        return -1;
    d->obj_shift = 0;
    for (int i = 0; i < n; i++) {
        c[i] = sense == ILPM_MAXIMIZE ? -coefs[i] : coefs[i];
        d->obj_shift += c[i] < 0 ? c[i] : 0;
    }
    d->obj = ilpm_kern_add(&d->e, c, lits, n, ILPM_LE, NO_BOUND, 0);
    free(c);
    return d->obj < 0 ? -1 : 0;
}

/* The LP relaxation's bound as a row over the reduced costs, "sum rc_v
 * x_v + sum -rc_v (1 - x_v) <= best - 1 - z", scaled by lp->scale and
 * rounded down (which keeps it implied): what the LP's reduced costs
 * fix, and a proof at once when the incumbent meets the LP's value. */
void ilpm_cp_lp_row(ilpm_kern *e, const ilpm_model *m, const ilpm_options *o,
                    int obj, cp_lp *lp)
{
    memset(lp, 0, sizeof *lp);
    int nv = ilpm_model_nvars(m);
    double *rc = calloc(2 * (size_t)nv + 2, sizeof *rc);
    int64_t *c = malloc(((size_t)nv + 1) * sizeof *c);
    int *lits = malloc(((size_t)nv + 1) * sizeof *lits);
    ilpm_lp_bound b = {.rc = rc, .x = rc ? rc + nv + 1 : NULL};
    ilpm_err err;
    int n = 0;
    double t0 = ilpm_now();
    /* GLPK gets half the time left at most: the search, the rest */
    ilpm_options lo = *o;
    if (lo.deadline > 0)
        lo.deadline = t0 + (lo.deadline - t0) / 2;
    if (!rc || !c || !lits ||
        ilpm_glpk_lp_bound(m, &lo, &b, &err) != ILPM_SOLVED)
        goto out;
    /* room for the scaled row and the objective's range */
    double sum = fabs(b.z) + 1;
    for (int v = 1; v <= nv; v++)
        sum += fabs(rc[v]);
    const int64_t *oc = ilpm_kcoefs(e, &e->cons[obj]);
    for (int i = 0; i < e->cons[obj].n; i++)
        sum += (double)oc[i];
    double scale = ldexp(1.0, 52) / sum;
    scale = scale > 1048576.0 ? 1048576.0 : scale;
    for (int v = 1; v <= nv; v++) {
        /* the LP's values at 1 are the first true phases (rounding at
         * 0.5: p0282 1.5 s against 0.13 s, lseu 3.0 against 4.2 s) */
        if (e->phase)
            e->phase[v] = b.x[v] > 0.999;
        int64_t a = (int64_t)floor(scale * fabs(rc[v]));
        if (a > 0) {
            c[n] = a;
            lits[n++] = rc[v] > 0 ? v : -v;
        }
    }
    lp->bound = 1;
    lp->z = b.z - b.slack;
    lp->scale = scale;
    int r = n > 0 ? ilpm_kern_add(e, c, lits, n, ILPM_LE, NO_BOUND, 0) : -1;
    lp->row = r + 1;
    if (ilpm_reports(o)) {
        char line[160];
        snprintf(line, sizeof line,
                 "cp: LP bound %.6g (slack %.3g), %d reduced costs, %.3f s\n",
                 b.z, b.slack, n, ilpm_now() - t0);
        o->log(o->log_ctx, line);
    }
out:
    free(rc);
    free(c);
    free(lits);
}

/* Looks at every constraint once (unit clauses, bounds met already) and
 * propagates; sets refuted on a conflict. */
static void settle(cp_drv *d, int from)
{
    if (!d->refuted)
        d->refuted = ilpm_kern_settle(&d->e, from) != 0;
}

/* What the model forces, settled for good: the kernel compacted as a
 * kernel over the settled copy of the model would be (when there is room
 * for the numbering), first-fail's constraints that hold at the base left
 * out. */
static void settle_base(cp_drv *d)
{
    settle(d, 0);
    int *renum = malloc(((size_t)d->e.ncons + 1) * sizeof *renum);
    if (d->refuted || !renum) {
        free(renum);
        return;
    }
    int nc = d->e.ncons;
    ilpm_kern_compact(&d->e, renum);
    int n = 0;
    for (int i = 0; i < d->ncand; i++)
        if (renum[d->cand[i]] >= 0)
            d->cand[n++] = renum[d->cand[i]];
    d->ncand = n;
    /* The rows of redundant groups (implied by the others, as the model
     * declares: Langford's position sum), which a count by exact cover
     * leaves out; the kernel's rows are the model's, in its order, until
     * compacted.  Only the groups that the CNF lowering leaves out: each
     * lowering's set is implied by what that lowering keeps, not the
     * union of both (Tetravex's assign formulation leaves its support
     * clauses out of the rows, its balance rows out of the CNF).
     * Without the room, none is left out; without such a group, no row
     * is looked at (a Sudoku's 400 rows: 0.7% of solving top95's
     * instructions). */
    const ilpm_model *m = d->base.m;
    int any = 0;
    for (int g = 0; g < ilpm_model_ngroups(m) && !any; g++)
        any = (ilpm_model_group_redundant(m, g) & ILPM_LOWER_CNF) != 0;
    size_t mc = ilpm_model_ncons(m);
    d->implied = any ? calloc((size_t)d->e.ncons + 1, 1) : NULL;
    for (int r = 0; d->implied && r < nc && (size_t)r < mc; r++) {
        ilpm_con c;
        ilpm_model_con(m, (size_t)r, &c);
        if (renum[r] >= 0 &&
            (ilpm_model_group_redundant(m, c.group) & ILPM_LOWER_CNF))
            d->implied[renum[r]] = 1;
    }
    d->nimplied = d->implied ? d->e.ncons : 0;
    free(renum);
}

static ilpm_driver *cp_create(const ilpm_model *m, const ilpm_options *o,
                              ilpm_stats *stats, ilpm_err *err)
{
    cp_drv *d = calloc(1, sizeof *d);
    if (!d) {
        ilpm_err_nomem(err, "out of memory creating the cp driver");
        return NULL;
    }
    ilpm_driver_init(&d->base, m, o, stats);
    d->obj = -1;
    d->undo_to = -1;
    /* The model as given (ilpm_cp_ops.settles): its givens are settled
     * on the kernel the search runs on, built once. */
    int rc = ilpm_cp_kern_init(&d->e, m, &d->base.watch, err);
    if (rc == 0)
        rc = ilpm_kern_settle_givens(&d->e, m, ilpm_propagate_level(o),
                                     &d->base.watch, err);
    d->refuted = rc > 0;
    if (rc < 0 || ilpm_stats_prepare(m, stats, err) != 0) {
        cp_destroy(&d->base);
        return NULL;
    }
    int nv = ilpm_model_nvars(m);
    d->aux = calloc((size_t)nv + 1, 1);
    if (d->aux)
        d->naux = (int)ilpm_model_aux_mark(m, d->aux);
    int nomem = 0;
    if (ilpm_cp_opts_of(o)->alldiff)
        d->hall = ilpm_cp_hall_new(m, nv, &nomem);
    if (!d->aux || nomem || find_candidates(d) != 0) {
        ilpm_err_nomem(err, "out of memory creating the cp driver");
        cp_destroy(&d->base);
        return NULL;
    }
    settle_base(d);
    /* What the settling fixed, as the settled copy's unit clauses say it
     * for the other back ends (stats.fixed). */
    if (stats && !d->refuted && ilpm_propagate_level(o) > 0) {
        int64_t fixed = 0;
        for (int v = 1; v <= nv; v++)
            fixed += ilpm_klval(d->e.val, v) != ILPM_K_OPEN;
        stats->fixed = fixed;
    }
    /* The objective after: its value counts the fixed literals. */
    if (add_objective(d) != 0) {
        ilpm_err_nomem(err, "out of memory creating the cp driver");
        cp_destroy(&d->base);
        return NULL;
    }
    if (d->obj >= 0)
        settle(d, d->obj);
    return &d->base;
}

/* A search for one solution, or one cut short by the time limit or a
 * stop, leaves its trail (on queens 5000, up to 25 million literals:
 * seconds to take back, past the limit); the next call takes it back
 * first, and freeing needs nothing of it. */
static void take_back(cp_drv *d)
{
    if (d->undo_to >= 0)
        ilpm_kern_undo(&d->e, d->undo_to);
    d->undo_to = -1;
}

/* The trail back to base after search s, or left for take_back. */
static void undo_after(cp_drv *d, const cp_search *s, int base)
{
    if (s->w.status || s->keep_trail)
        d->undo_to = base;
    else
        ilpm_kern_undo(&d->e, base);
}

ilpm_status ilpm_cp_search_run(cp_search *s, uint8_t *vals, ilpm_err *err)
{
    return s->learn ? ilpm_cp_cdcl_run(s, vals, err)
                    : ilpm_cp_dfs_run(s, vals, err);
}

/* --learn auto, one solution: the depth-first search and the learning
 * search take turns, the depth-first search for AUTO_FAILS failures, then
 * 5/2 times that each turn (from the root each time: its restarts, at
 * 2000, 5000, 9500 failures, fall inside), the learning search for
 * AUTO_SHARE times the time the depth-first turn before it took, twice
 * that each turn.  The learning search is kept between its turns and
 * stops at a restart (at a conflict only past AUTO_HARD times its time:
 * on L(2,500) a restart is seconds away), so that it runs as it would
 * alone: where learning answers, auto costs the depth-first turns, a
 * share that shrinks turn after turn.  A depth-first turn goes on past
 * its budget while it fails less often than it went deep
 * (budget_by_depth: n-Queens 5000, 2000 failures 5000 deep; docs/cp.md). */
#define AUTO_FAILS 1000
#define AUTO_SHARE 4
#define AUTO_HARD 2

/* --learn auto, one solution: after the first depth-first turn, a
 * learning search of at most AUTO_TRY failures and AUTO_TRY_SHARE times
 * that turn's time, from false phases (as --learn on starts), then
 * thrown away, the depth-first turn's phases back: the 29x29 domino
 * nonogram takes it 11 failures (0.01-0.02 s, the turn 0.04 s), and none
 * within 20 s from the depth-first turn's values, which Tetravex 8x8
 * needs (0.7 s from them, 3-9 s from false phases: docs/fzn.md). */
#define AUTO_TRY 100
#define AUTO_TRY_SHARE 1.0

/* --learn auto, optimising: every row and the objective of unit
 * coefficients (a covering or packing with a count as its objective,
 * stein45).  What learning derives there is resolution, weak at counting:
 * stein45 proved in 1.3 s by the depth-first search, in 28 s with
 * learning (which spends 7x the time per failure), while every weighted
 * file of the bench learns faster (docs/cp.md). */
static int counts_only(const cp_drv *d)
{
    for (int r = 0; r < d->e.ncons; r++)
        if (!d->e.cons[r].unit && r != d->lp.row - 1)
            return 0;
    return 1;
}

static void search_init(cp_drv *d, cp_search *s, cp_mode mode)
{
    memset(s, 0, sizeof *s);
    s->e = &d->e;
    s->aux = d->aux;
    s->cand = d->cand;
    s->ncand = d->ncand;
    const ilpm_cp_opts *co = ilpm_cp_opts_of(&d->base.o);
    s->strategy = co->search;
    s->lookahead = co->lookahead;
    s->learn = co->learn == ILPM_LEARN_ON ||
               (co->learn == ILPM_LEARN_AUTO && mode != CP_COUNT &&
                (mode != CP_OPTIMIZE || !counts_only(d)));
    /* Without learning, activity has nothing to go by. */
    if (!s->learn && s->strategy == ILPM_SEARCH_ACTIVITY)
        s->strategy = ILPM_SEARCH_FIRST_FAIL;
    s->cuts = co->analysis;
    s->hall = d->hall;
    s->obj = mode == CP_OPTIMIZE ? d->obj : -1;
    if (mode == CP_OPTIMIZE) {
        s->lp = d->lp;
        s->drv = &d->base;
        s->max = ilpm_model_objective_get(d->base.m, NULL, NULL, NULL) ==
                 ILPM_MAXIMIZE;
    }
    s->obj_shift = d->obj_shift;
    s->mode = mode;
    s->root_reset = mode == CP_SOLVE;
    s->w = d->base.watch;
}

/* The failures an optimisation searches before it asks GLPK for the LP
 * bound: what ends sooner does not pay for the LP (Machiavelli's `play
 * --value`, 65-400 failures a table, 0.05 s for three tables; with the
 * LP first 0.21 s, 20 ms of it GLPK's per table). */
#define LP_FAILS 1000

/* An optimisation: LP_FAILS failures without the LP bound, then, when
 * --lp-bound is on and the search did not end, the LP's row added and the
 * search run again from the root under its incumbent's bound. */
static ilpm_status optimize_run(cp_drv *d, cp_search *s, uint8_t *vals,
                                int base, ilpm_err *err)
{
    int ask = !d->lp_tried && ilpm_cp_opts_of(&d->base.o)->lp_bound;
    s->fail_budget = ask ? LP_FAILS : 0;
    ilpm_status st = ilpm_cp_search_run(s, vals, err);
    if (!ask || !s->gave_up)
        return st;
    d->lp_tried = 1;
    ilpm_kern_undo(&d->e, base); /* what a kept trail left (keep_trail) */
    ilpm_cp_lp_row(&d->e, d->base.m, &d->base.o, d->obj, &d->lp);
    s->lp = d->lp;
    s->fail_budget = 0;
    s->gave_up = 0;
    if (s->found || s->ext)
        ilpm_cp_bound(s);
    return ilpm_cp_search_run(s, vals, err);
}

static void report(cp_drv *d, const cp_search *s, double t0)
{
    if (!ilpm_reports(&d->base.o))
        return;
    char line[256];
    snprintf(line, sizeof line,
             "cp: %" PRIu64 " nodes, %" PRIu64 " failures, %" PRIu64
             " restarts, %" PRIu64 " learned, %" PRIu64 " probes, %" PRIu64
             " propagations, %.3f s\n",
             s->nodes, s->fails, s->restarts, s->learned, s->probes, d->e.props,
             ilpm_now() - t0);
    d->base.o.log(d->base.o.log_ctx, line);
    if (s->hall) {
        snprintf(line, sizeof line,
                 "cp: Hall sets: %" PRIu64 " groups looked at, %" PRIu64
                 " values ruled out, %" PRIu64 " conflicts\n",
                 s->hall->runs, s->hall->pruned, s->hall->fails);
        d->base.o.log(d->base.o.log_ctx, line);
    }
    if (s->local) {
        snprintf(line, sizeof line,
                 "cp: went back part of the way %" PRIu64 " times\n", s->local);
        d->base.o.log(d->base.o.log_ctx, line);
    }
    if (s->cut_tried) {
        snprintf(line, sizeof line,
                 "cp: cutting planes on %" PRIu64 " conflicts, %" PRIu64
                 " of their clauses learned, %" PRIu64 " rows\n",
                 s->cut_tried, s->cut_taken, s->cut_rows);
        d->base.o.log(d->base.o.log_ctx, line);
    }
}

/* The try of AUTO_TRY failures from false phases (s: the learning
 * search's settings) as the search *fresh; 1 when it answered or was cut
 * short (*st set), else 0 with the kernel and the phases as they were;
 * -1 when out of memory (err set). */
static int auto_try(cp_drv *d, const cp_search *s, cp_search *fresh,
                    double secs, uint8_t *vals, ilpm_status *st, ilpm_err *err)
{
    ilpm_kern *e = &d->e;
    uint8_t *phase = malloc((size_t)e->nv + 1);
    if (!phase)
        return ilpm_err_nomem(err, "out of memory for the cp search");
    memcpy(phase, e->phase, (size_t)e->nv + 1);
    memset(e->phase, 0, (size_t)e->nv + 1);
    *fresh = *s;
    fresh->keep = NULL;
    fresh->fail_budget = AUTO_TRY;
    fresh->until_hard = ilpm_now() + secs;
    *st = ilpm_cp_search_run(fresh, vals, err);
    memcpy(e->phase, phase, (size_t)e->nv + 1);
    free(phase);
    if (fresh->gave_up && !fresh->w.status)
        return 0;
    return 1;
}

/* --learn auto, one solution: the turns of AUTO_FAILS, from the kernel
 * as cp_solve leaves it (base: its trail before the assumptions), s the
 * learning search. */
static ilpm_status auto_run(cp_drv *d, cp_search *s, uint8_t *vals, int base,
                            ilpm_err *err)
{
    double t0 = ilpm_now();
    struct cdcl *kept = NULL;
    s->keep = &kept;
    uint64_t dfs_budget = AUTO_FAILS, dfs_fails = 0, turns = 0;
    int deepest = 0;
    double share = AUTO_SHARE;
    cp_search dfs, fresh, *last = &dfs;
    fresh.fails = 0;
    ilpm_status st;
    for (;; dfs_budget = dfs_budget * 5 / 2, share *= 2) {
        search_init(d, &dfs, CP_SOLVE);
        dfs.learn = 0;
        dfs.strategy = ILPM_SEARCH_FIRST_FAIL;
        dfs.fail_budget = dfs_budget;
        dfs.budget_by_depth = 1;
        dfs.keep_trail = 1;
        dfs.w = s->w;
        turns++;
        double t1 = ilpm_now();
        st = ilpm_cp_search_run(&dfs, vals, err);
        s->w = dfs.w;
        dfs_fails += dfs.fails;
        deepest = dfs.deepest > deepest ? dfs.deepest : deepest;
        last = &dfs;
        if (!dfs.gave_up)
            break;
        double took = ilpm_now() - t1; /* the depth-first turn's time */
        if (turns == 1) {
            int rc =
                auto_try(d, s, &fresh, took * AUTO_TRY_SHARE, vals, &st, err);
            s->w = fresh.w;
            if (rc != 0) {
                last = &fresh;
                st = rc < 0 ? ILPM_ERROR : st;
                break;
            }
        }
        double now = ilpm_now();
        s->until = now + share * took;
        s->until_hard = now + AUTO_HARD * share * took;
        s->gave_up = 0;
        st = ilpm_cp_search_run(s, vals, err);
        last = s;
        if (!s->gave_up)
            break;
    }
    ilpm_cp_cdcl_drop(kept); /* NULL when the learning search ended */
    undo_after(d, last, base);
    if (ilpm_reports(&d->base.o)) {
        char line[200];
        snprintf(line, sizeof line,
                 "cp: --learn auto, %" PRIu64 " turns, %" PRIu64
                 " failures depth first (%d decisions deep), %" PRIu64
                 " from false phases, %" PRIu64 " learning\n",
                 turns, dfs_fails, deepest, fresh.fails, s->fails);
        d->base.o.log(d->base.o.log_ctx, line);
    }
    report(d, last, t0);
    return st;
}

static ilpm_status cp_solve(ilpm_driver *drv, const int *assume, int n,
                            int optimize, uint8_t *vals, int64_t *obj,
                            ilpm_err *err)
{
    cp_drv *d = (cp_drv *)drv;
    take_back(d);
    if (d->refuted)
        return ILPM_UNSAT;
    ilpm_kern *e = &d->e;
    int base = e->ntrail;
    int conflict = 0;
    for (int i = 0; i < n && !conflict; i++)
        conflict = ilpm_kern_assign(e, assume[i]) != 0;
    if (conflict || ilpm_kern_propagate(e) != 0) {
        ilpm_kern_undo(e, base);
        return ILPM_UNSAT;
    }
    optimize = optimize && d->obj >= 0;
    if (optimize)
        e->cons[d->obj].k = NO_BOUND;
    if (d->lp.row)
        e->cons[d->lp.row - 1].k = NO_BOUND;
    cp_search s;
    search_init(d, &s, optimize ? CP_OPTIMIZE : CP_SOLVE);
    s.keep_trail = 1;
    if (optimize) {
        s.fn = d->base.incumbent;
        s.ctx = d->base.incumbent_ctx;
    }
    double t0 = ilpm_now();
    ilpm_status st;
    if (s.learn && !optimize &&
        ilpm_cp_opts_of(&d->base.o)->learn == ILPM_LEARN_AUTO)
        return auto_run(d, &s, vals, base, err);
    st = optimize ? optimize_run(d, &s, vals, base, err)
                  : ilpm_cp_search_run(&s, vals, err);
    undo_after(d, &s, base);
    if (optimize) {
        e->cons[d->obj].k = NO_BOUND;
        if (d->lp.row)
            e->cons[d->lp.row - 1].k = NO_BOUND;
        if (s.found) {
            ilpm_sense sense =
                ilpm_model_objective_get(d->base.m, NULL, NULL, NULL);
            *obj = sense == ILPM_MAXIMIZE ? -s.best : s.best;
        }
    }
    report(d, &s, t0);
    return st;
}

static ilpm_status cp_count(ilpm_driver *drv, const ilpm_model *m,
                            int short_block, uint64_t limit, uint8_t *vals,
                            uint64_t *count, int *complete, ilpm_solution_fn fn,
                            void *ctx, ilpm_err *err)
{
    cp_drv *d = (cp_drv *)drv;
    /* The search branches on the lowered model's own non-aux variables
     * and blocks nothing: neither is needed here. */
    (void)m, (void)short_block;
    *count = 0;
    *complete = 0;
    take_back(d);
    if (d->refuted) {
        *complete = 1;
        return ILPM_SOLVED;
    }
    cp_search s;
    search_init(d, &s, CP_COUNT);
    s.limit = limit;
    s.fn = fn;
    s.ctx = ctx;
    s.live = count;
    double t0 = ilpm_now();
    int base = d->e.ntrail;
    ilpm_status st;
    /* The plain count of a model that is an exact cover, by Algorithm X
     * (cp_cover.c); anything else by the search --learn chooses. */
    int cover = !s.learn && !ilpm_cp_opts_of(&d->base.o)->no_cover &&
                ilpm_cp_cover_count(&s, d->implied, d->nimplied, vals, &st);
    if (!cover) {
        st = ilpm_cp_search_run(&s, vals, err);
        if (s.w.status)
            d->undo_to = base; /* what the count left, as undo_after */
    }
    *count = s.count;
    *complete = s.complete;
    if (cover && ilpm_reports(&d->base.o))
        d->base.o.log(d->base.o.log_ctx, "cp: counted by exact cover\n");
    report(d, &s, t0);
    return st;
}

static int cp_add(ilpm_driver *drv, const ilpm_con *con, ilpm_err *err)
{
    cp_drv *d = (cp_drv *)drv;
    take_back(d);
    int c = ilpm_kern_add_con(&d->e, con);
    if (c < 0)
        return ilpm_err_nomem(err, "out of memory adding a constraint");
    settle(d, c);
    return 0;
}

static const char *const search_names[] = {ILPM_SEARCHES(ILPM_ENUM_NAME_) NULL};
static const char *const learn_names[] = {ILPM_LEARNS(ILPM_ENUM_NAME_) NULL};
static const char *const lp_bound_names[] = {"off", "on", NULL};
static const char *const analysis_names[] = {"clause", "cuts", NULL};
static const char *const alldiff_names[] = {"off", "on", NULL};

#define FIELD(f) offsetof(ilpm_cp_opts, f)

/* cp's own options (cp_opts.h), as the command line shows them. */
static const ilpm_opt cp_opts[] = {
    {.name = "search",
     .type = ILPM_OPT_CHOICE,
     .def = "activity",
     .choices = search_names,
     .offset = FIELD(search),
     .help = "cp branching: first-fail = the open exactly-one or "
             "at-least-one with the fewest open literals; input = the first "
             "open variable; activity = the variable most involved in recent "
             "conflicts, its last value (with --learn on; counting takes "
             "first-fail)"},
    {.name = "learn",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = learn_names,
     .offset = FIELD(learn),
     .help = "cp: learn a clause from each conflict and jump back; off: the "
             "plain depth-first search; auto: for one solution the "
             "depth-first search and learning in turns (1000 failures, more "
             "while fewer than the decisions deep, then growing budgets); "
             "learning "
             "for an optimum with weights; none when counting"},
    {.name = "lookahead",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 0,
     .hi = INT64_MAX,
     .def = "0",
     .offset = FIELD(lookahead),
     .help = "cp: up to N failed-literal probes at every node (0: none)"},
    {.name = "lp-bound",
     .type = ILPM_OPT_CHOICE,
     .def = "on",
     .choices = lp_bound_names,
     .offset = FIELD(lp_bound),
     .help = "cp, optimising: GLPK's LP relaxation solved once, its value "
             "and reduced costs a row that bounds the search (off: none)"},
    {.name = "cp-analysis",
     .type = ILPM_OPT_CHOICE,
     .def = "clause",
     .choices = analysis_names,
     .offset = FIELD(analysis),
     .help = "cp, learning: a conflict on a weighted row analysed by "
             "resolution over clauses (clause), or by cutting planes over "
             "the rows (cuts: added, divided, saturated), its clause "
             "learned when better"},
    {.name = "cp-alldiff",
     .type = ILPM_OPT_CHOICE,
     .def = "off",
     .choices = alldiff_names,
     .offset = FIELD(alldiff),
     .help = "cp: Hall sets of the model's matching groups (Sudoku's "
             "houses) at every node, each value they rule out explained "
             "by a clause (on), or none (off)"},
    {.name = NULL},
};

/* The model's search hint (ilpm_model_hint) is left alone: the activity
 * of conflicts and first-fail choose better than the order the
 * variables were made in. */
const ilpm_driver_ops ilpm_cp_ops = {
    .opts = cp_opts,
    .create = cp_create,
    .destroy = cp_destroy,
    .solve = cp_solve,
    .add = cp_add,
    .count = cp_count,
    .reports = ILPM_REPORTS_NONE,
    .fix_assumed = 0, /* its search starts by propagating them */
    .settles = 1,
};
