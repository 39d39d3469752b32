/* The cp back end's depth-first search (cp.h), with chronological
 * backtracking over the kernel's trail.  A decision is a literal, tried
 * true and then false, so that the two subtrees share no solution and a
 * count needs no blocking (a decision may be a negative literal, tried
 * false first); the branching rules are cp_branch.c's.  A count takes
 * the puzzle's variables before the auxiliary ones, so that, projected
 * onto them, it stops at the first completion of each assignment of
 * them, and checks each node with a search for one solution
 * (find_witness).  Optimisation is branch and bound: the objective is a
 * constraint whose bound each solution tightens. */
#include "cp.h"

#include <string.h>

struct dec {
    int lit;
    int mark;   /* the trail before the decision */
    int second; /* now in its second branch (lit false) */
};

/* A probe can cost as much as a node: the clock is read at each
 * (ilpm_watch_check), not at every 256th as ilpm_watch_poll does; the
 * status sticks for the search loop's poll. */
static int out_of_time(cp_search *s)
{
    return ilpm_watch_check(&s->w) != 0;
}

/* Probes the open literals of constraint c: one whose propagation fails
 * is ruled out.  1 when something was, -1 when the node has no solution,
 * else 0; *budget counts the tries down. */
static int probe_con(cp_search *s, int c, int64_t *budget)
{
    ilpm_kern *e = s->e;
    const ilpm_kcon *x = &e->cons[c];
    int narrowed = 0;
    for (int i = 0; i<x->n && * budget> 0; i++) {
        int l = e->lits[x->start + (size_t)i];
        if (ilpm_klval(e->val, l) != ILPM_K_OPEN)
            continue;
        if (out_of_time(s)) {
            *budget = 0;
            break;
        }
        int mark = e->ntrail;
        ilpm_kern_assign(e, l);
        int failed = ilpm_kern_propagate(e) != 0;
        ilpm_kern_undo(e, mark);
        --*budget;
        s->probes++;
        if (failed) {
            if (ilpm_kern_assign(e, -l) != 0 || ilpm_kern_propagate(e) != 0)
                return -1;
            narrowed = 1;
        }
    }
    return narrowed;
}

static int by_open(const void *x, const void *y)
{
    const int64_t *p = x, *q = y;
    return (p[0] > q[0]) - (p[0] < q[0]);
}

/* Failed-literal probing at a node: the open literals of the first-fail
 * constraints are tried, the smallest constraints first, within
 * s->lookahead tries; what fails is ruled out, and the round starts again
 * while that narrows something.  -1 when the node has no solution. */
static int lookahead(cp_search *s)
{
    ilpm_kern *e = s->e;
    int64_t budget = s->lookahead;
    int narrowed = 1;
    while (narrowed && budget > 0) {
        narrowed = 0;
        int n = 0;
        for (int i = 0; i < s->ncand; i++) {
            const ilpm_kcon *x = &e->cons[s->cand[i]];
            if (x->st == 0) {
                s->order[2 * n] = x->total - x->sf;
                s->order[2 * n++ + 1] = s->cand[i];
            }
        }
        qsort(s->order, (size_t)n, 2 * sizeof *s->order, by_open);
        for (int i = 0; i < n && budget > 0 && !narrowed; i++) {
            int rc = probe_con(s, (int)s->order[2 * i + 1], &budget);
            if (rc < 0)
                return -1;
            narrowed = rc;
        }
    }
    return 0;
}

/* A count decides the puzzle's variables first, and propagation alone
 * may not see that an assignment of them has no completion; a search for
 * one solution, free to branch on anything, then tells.  Its solution
 * stays good below every decision that agrees with it (propagation is
 * sound), so the count branches its way first and searches again only
 * after taking the other way.  1: s->wit holds a solution; 0: the node
 * has none; -1: cut short (st set). */
static int find_witness(cp_search *s, ilpm_status *st, ilpm_err *err)
{
    cp_search sub;
    memset(&sub, 0, sizeof sub);
    sub.e = s->e;
    sub.aux = s->aux;
    sub.cand = s->cand;
    sub.ncand = s->ncand;
    sub.strategy = s->strategy;
    sub.obj = -1;
    sub.mode = CP_SOLVE;
    sub.w = s->w;
    sub.hall = s->hall;
    uint8_t *vals = malloc((size_t)s->e->nv + 1);
    if (!vals) {
        ilpm_err_nomem(err, "out of memory for the cp search");
        *st = ILPM_ERROR;
        return -1;
    }
    ilpm_status r = ilpm_cp_dfs_run(&sub, vals, err);
    s->w = sub.w;
    s->nodes += sub.nodes;
    s->fails += sub.fails;
    if (r == ILPM_SOLVED) {
        for (int v = 1; v <= s->e->nv; v++)
            s->wit[v] = vals[v] ? ILPM_K_TRUE : ILPM_K_FALSE;
        s->wit_ok = 1;
    }
    free(vals);
    if (r == ILPM_SOLVED || r == ILPM_UNSAT)
        return r == ILPM_SOLVED;
    *st = r;
    return -1;
}

/* The search's state: the decisions on the trail above root. */
typedef struct dfs {
    cp_search *s;
    ilpm_kern *e;
    struct dec *d;
    int nd;
    int root;
    uint64_t interval, restart_at; /* see dfs_open */
    int64_t *root_w; /* the rows' weights at root (root_reset), or NULL */
    int root_ncons;
    uint64_t local_at, local_gap; /* see go_back */
    int local_jump;
} dfs;

static int dfs_open(dfs *f, cp_search *s, ilpm_err *err)
{
    ilpm_kern *e = s->e;
    memset(f, 0, sizeof *f);
    f->s = s;
    f->e = e;
    f->root = e->ntrail;
    f->d = malloc(((size_t)e->nv + 1) * sizeof *f->d);
    s->order = s->lookahead > 0
                   ? malloc(((size_t)s->ncand + 1) * 2 * sizeof *s->order)
                   : NULL;
    int has_aux = 0;
    for (int v = 1; v <= e->nv && s->mode == CP_COUNT; v++)
        has_aux |= s->aux[v] != 0;
    s->wit = has_aux ? malloc((size_t)e->nv + 1) : NULL;
    s->wit_ok = 0;
    if (!f->d || (s->lookahead > 0 && !s->order) || (has_aux && !s->wit)) {
        free(f->d);
        free(s->order);
        free(s->wit);
        s->order = NULL;
        s->wit = NULL;
        return ilpm_err_nomem(err, "out of memory for the cp search");
    }
    s->complete = 0;
    if (s->hall)
        ilpm_cp_hall_start(s->hall, e);
    /* A search for one solution restarts after a growing number of
     * failures, ties broken at random from then on: first solutions are
     * heavy-tailed without (n-Queens 800, L(2,35)); the limit grows by
     * half each time, so the search stays complete. */
    f->interval = 2000;
    f->restart_at = s->mode == CP_SOLVE ? f->interval : UINT64_MAX;
    s->rng = 2463534242u;
    /* (without room for it, restarts undo) */
    f->root_w = s->root_reset && s->mode == CP_SOLVE ? ilpm_kern_save(e) : NULL;
    f->root_ncons = e->ncons;
    f->local_gap = CP_LOCAL_FAILS;
    f->local_at = s->mode == CP_SOLVE ? f->local_gap : UINT64_MAX;
    f->local_jump = CP_LOCAL_JUMP;
    return 0;
}

static ilpm_status dfs_close(dfs *f, ilpm_status st)
{
    cp_search *s = f->s;
    st = ilpm_cp_cut_short(s, st);
    /* Cut short or kept, the trail stays: the driver takes it back when
     * it is used again (cp_driver.c's take_back), outside the time
     * limit. */
    if (!s->w.status && !(s->keep_trail && s->found))
        ilpm_kern_undo(f->e, f->root);
    ilpm_cp_hall_undo(s->hall, f->e->ntrail);
    free(f->d);
    free(f->root_w);
    free(s->order);
    free(s->wit);
    s->order = NULL;
    s->wit = NULL;
    return st;
}

/* What a node must pass before it branches: the objective's bound,
 * lookahead and, for a count over auxiliary variables, a witness.  1
 * when it fails, 0 when it passes, -1 when the search ends (*st set). */
static int node_fails(cp_search *s, ilpm_status *st, ilpm_err *err)
{
    if (ilpm_cp_bound_fails(s))
        return 1;
    int r;
    while (s->hall && (r = ilpm_cp_hall_run(s->hall, s)) != 0)
        if (r < 0 || ilpm_kern_propagate(s->e) != 0)
            return 1;
    if (s->lookahead > 0 && lookahead(s) != 0)
        return 1;
    if (s->wit && !s->wit_ok) {
        int rc = find_witness(s, st, err);
        return rc < 0 ? -1 : rc == 0;
    }
    return 0;
}

/* A node that passed its checks: a decision taken (1 on a conflict, 0
 * without) or, with every variable set, a solution (2: the search goes
 * on from it); -1 when the search ends (*st set). */
static int dfs_node(dfs *f, uint8_t *vals, ilpm_status *st)
{
    cp_search *s = f->s;
    ilpm_kern *e = f->e;
    ilpm_cp_undo_due(s);
    if (ilpm_watch_poll(&s->w, "searching", NULL) != 0) {
        *st = (ilpm_status)s->w.status;
        return -1;
    }
    s->nodes++;
    int l = ilpm_cp_pick(s);
    if (l) {
        f->d[f->nd].lit = l;
        f->d[f->nd].mark = e->ntrail;
        f->d[f->nd++].second = 0;
        s->deepest = f->nd > s->deepest ? f->nd : s->deepest;
        ilpm_kern_assign(e, l);
        return ilpm_kern_propagate(e) != 0;
    }
    /* A solution: every variable has a value, nothing failed. */
    if (ilpm_cp_solution(s, vals, st))
        return -1;
    if (s->mode == CP_COUNT) {
        /* Another completion of the auxiliary variables is the same
         * projected solution. */
        while (f->nd && s->aux[abs(f->d[f->nd - 1].lit)])
            f->nd--;
    }
    return 2;
}

/* The search back at its root: the rows' weights reset where they were
 * saved, else the trail undone. */
static void to_root(dfs *f)
{
    f->nd = 0;
    if (f->root_w && f->e->ncons == f->root_ncons)
        ilpm_kern_reset(f->e, f->root, f->root_w);
    else
        ilpm_kern_undo(f->e, f->root);
    ilpm_cp_hall_undo(f->s->hall, f->root);
}

int ilpm_cp_local_depth = CP_LOCAL_DEPTH;

/* A search for one solution CP_LOCAL_DEPTH decisions deep that failed
 * local_gap times since it last went back drops its last local_jump
 * decisions (and with them what their second branches had ruled out)
 * and descends again from there, ties then going by a coin: the bottom
 * of a deep descent (n-Queens 10,000: 8000 decisions deep) can be a
 * sub-board with no completion that chronological backtracking would
 * exhaust, and a restart from the root costs a whole descent.  Both
 * the gap and the jump grow each time (by half, twice), so that the
 * search stays complete: a jump past the root is a restart.  1 when it
 * went back. */
static int go_back(dfs *f)
{
    cp_search *s = f->s;
    if (s->fails < f->local_at || f->nd < ilpm_cp_local_depth)
        return 0;
    f->local_gap += f->local_gap / 2;
    f->local_at = s->fails + f->local_gap;
    int to = f->nd - f->local_jump;
    f->local_jump =
        f->local_jump < INT32_MAX / 2 ? 2 * f->local_jump : INT32_MAX;
    s->local++;
    if (to <= 0) {
        to_root(f);
        return 1;
    }
    ilpm_kern_undo(f->e, f->d[to].mark);
    ilpm_cp_hall_undo(s->hall, f->d[to].mark);
    f->nd = to;
    return 1;
}

/* A failure, counted: 1 when the search gives up (its failure budget),
 * -1 when it goes back (to the root, or part of the way), else 0. */
static int dfs_failed(dfs *f, ilpm_status *st)
{
    cp_search *s = f->s;
    s->fails++;
    if (s->fail_budget && s->fails >= s->fail_budget &&
        (!s->budget_by_depth || s->fails >= (uint64_t)s->deepest)) {
        s->gave_up = 1;
        *st = ILPM_TIMEOUT;
        return 1;
    }
    if (go_back(f))
        return -1;
    if (s->fails >= f->restart_at) {
        f->interval += f->interval / 2;
        f->restart_at = s->fails + f->interval;
        s->restarts++;
        to_root(f);
        return -1;
    }
    return 0;
}

/* Takes the deepest decision still in its first branch into its second:
 * 1 on a conflict, 0 without; -1 when none is left (the search is
 * complete, *st its outcome). */
static int dfs_flip(dfs *f, ilpm_status *st)
{
    cp_search *s = f->s;
    while (f->nd && f->d[f->nd - 1].second)
        f->nd--;
    if (f->nd == 0) {
        s->complete = 1;
        *st = ilpm_cp_exhausted(s);
        return -1;
    }
    struct dec *t = &f->d[f->nd - 1];
    ilpm_kern_undo(f->e, t->mark);
    ilpm_cp_hall_undo(s->hall, t->mark);
    t->second = 1;
    s->wit_ok = 0;
    ilpm_kern_assign(f->e, -t->lit);
    return ilpm_kern_propagate(f->e) != 0;
}

ilpm_status ilpm_cp_dfs_run(cp_search *s, uint8_t *vals, ilpm_err *err)
{
    dfs f;
    if (dfs_open(&f, s, err) != 0)
        return ILPM_ERROR;
    ilpm_status st = ILPM_UNSAT;
    int conflict = ilpm_kern_propagate(s->e) != 0;
    /* A count reads the values alone (kernel.h) */
    int eager = s->e->eager;
    if (s->mode == CP_COUNT)
        ilpm_kern_eager(s->e, 1);
    for (;;) {
        if (!conflict && (conflict = node_fails(s, &st, err)) < 0)
            break;
        if (!conflict) {
            int rc = dfs_node(&f, vals, &st);
            if (rc < 0)
                break;
            if (rc < 2) {
                conflict = rc;
                continue;
            }
        } else {
            int rc = dfs_failed(&f, &st);
            if (rc > 0)
                break;
            if (rc < 0) {
                conflict = 0;
                continue;
            }
        }
        if ((conflict = dfs_flip(&f, &st)) < 0)
            break;
    }
    st = dfs_close(&f, st);
    ilpm_kern_eager(s->e, eager);
    return st;
}
