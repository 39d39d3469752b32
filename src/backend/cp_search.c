/* The cp back end's search (cp.h): depth first with chronological
 * backtracking over the engine's trail.  A decision is a literal, tried
 * true and then false, so that the two subtrees share no solution and a
 * count needs no blocking (a decision may be a negative literal,
 * tried false first).  Branching follows the model's structure:
 * first-fail takes the open at-least-one (exactly-one, clause) over puzzle
 * variables with the fewest open literals, as DLX and Gecode's first-fail
 * do, and its first open literal; input takes the first open variable.
 * A count takes the puzzle's variables before the auxiliary ones, so
 * that, projected onto them, it stops at the first completion of each
 * assignment of them, and checks each node with a search for one
 * solution (find_witness).  Optimisation is branch and bound: the objective is
 * a constraint whose bound each solution tightens. */
#include "cp.h"

#include <string.h>

struct dec {
    int lit;
    int mark;   /* the trail before the decision */
    int second; /* now in its second branch (lit false) */
};

/* The first-fail constraint: open (no literal true yet) with the fewest
 * open literals; -1 when there is none. */
static int smallest(const cp_search *s)
{
    const cp_eng *e = s->e;
    int best = -1;
    int64_t bo = INT64_MAX;
    for (int i = 0; i < s->ncand; i++) {
        const cp_con *x = &e->cons[s->cand[i]];
        if (x->st != 0)
            continue;
        int64_t open = x->total - x->sf;
        if (open < bo) {
            bo = open;
            best = s->cand[i];
            if (open <= 2)
                break; /* none smaller survives propagation */
        }
    }
    return best;
}

/* How much making l true narrows the rest: the open weight of the
 * at-most constraints it sits in, whose other literals it would take. */
static int64_t impact(const cp_eng *e, int l)
{
    const cp_list *p = &e->occ[cp_lix(l)];
    int64_t sum = 0;
    for (int i = 0; i < p->n; i++) {
        const cp_con *x = &e->cons[p->v[i].c];
        if (x->le && x->k - x->st < x->total - x->st - x->sf)
            sum += x->total - x->st - x->sf;
    }
    return sum;
}

static uint32_t next_rand(cp_search *s)
{
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 17;
    s->rng ^= s->rng << 5;
    return s->rng;
}

/* The value to try first within constraint c: its first open literal
 * when every branch must be explored anyway (counting), else the open
 * literal that narrows the rest least, which keeps the most room for
 * what is left to place (the centre of a large n-Queens board). */
static int choose(cp_search *s, int c)
{
    const cp_eng *e = s->e;
    const cp_con *x = &e->cons[c];
    int best = 0;
    int64_t bi = INT64_MAX;
    for (int i = 0; i < x->n; i++) {
        int l = e->lits[x->start + (size_t)i];
        if (cp_lval(e->val, l) != CP_OPEN)
            continue;
        if (s->mode == CP_COUNT && !s->wit_ok)
            return l;
        if (s->mode == CP_COUNT) {
            if (cp_lval(s->wit, l) == CP_TRUE)
                return l;
            continue;
        }
        int64_t im = impact(e, l);
        /* After a restart, ties go by a coin, so that the search takes
         * another path each time. */
        if (im < bi || (im == bi && s->restarts && (next_rand(s) & 1))) {
            bi = im;
            best = l;
        }
    }
    return best;
}

/* The next decision, or 0 when every variable has a value. */
int ilpm_cp_pick(cp_search *s)
{
    const cp_eng *e = s->e;
    if (s->strategy == ILPM_SEARCH_FIRST_FAIL) {
        int c = smallest(s);
        int l = c >= 0 ? choose(s, c) : 0;
        if (l)
            return l;
    }
    /* Only a count, projected onto the puzzle's variables, needs them
     * first; a search for one solution takes the model's order, in which
     * the puzzle's variables may be counts that the auxiliary ones fix
     * (Machiavelli's planes), so that deciding them first would try
     * every assignment of the counts, each refuted by a search of its
     * own. */
    for (int pass = s->mode == CP_COUNT ? 0 : 1; pass < 2; pass++)
        for (int v = 1; v <= e->nv; v++)
            if (e->val[v] == CP_OPEN &&
                (s->mode != CP_COUNT || (s->aux[v] != 0) == pass))
                return s->wit_ok && s->wit[v] != CP_TRUE ? -v : v;
    return 0;
}

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
    cp_eng *e = s->e;
    const cp_con *x = &e->cons[c];
    int narrowed = 0;
    for (int i = 0; i<x->n && * budget> 0; i++) {
        int l = e->lits[x->start + (size_t)i];
        if (cp_lval(e->val, l) != CP_OPEN)
            continue;
        if (out_of_time(s)) {
            *budget = 0;
            break;
        }
        int mark = e->ntrail;
        ilpm_cp_eng_assign(e, l);
        int failed = ilpm_cp_eng_propagate(e) != 0;
        ilpm_cp_eng_undo(e, mark);
        --*budget;
        s->probes++;
        if (failed) {
            if (ilpm_cp_eng_assign(e, -l) != 0 || ilpm_cp_eng_propagate(e) != 0)
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
    cp_eng *e = s->e;
    int64_t budget = s->lookahead;
    int narrowed = 1;
    while (narrowed && budget > 0) {
        narrowed = 0;
        int n = 0;
        for (int i = 0; i < s->ncand; i++) {
            const cp_con *x = &e->cons[s->cand[i]];
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

static void take(const cp_eng *e, uint8_t *vals)
{
    for (int v = 1; v <= e->nv; v++)
        vals[v] = e->val[v] == CP_TRUE;
}

int ilpm_cp_solution(cp_search *s, uint8_t *vals, ilpm_status *st)
{
    cp_eng *e = s->e;
    s->found = 1;
    if (s->mode == CP_SOLVE) {
        take(e, vals);
        *st = ILPM_SOLVED;
        return 1;
    }
    if (s->mode == CP_OPTIMIZE) {
        take(e, vals);
        s->best = e->cons[s->obj].st + s->obj_shift;
        e->cons[s->obj].k = e->cons[s->obj].st - 1;
        if (s->fn && s->fn(s->ctx, vals) != 0) {
            *st = ILPM_ERROR;
            return 1;
        }
        return 0;
    }
    s->count++;
    if (s->live)
        *s->live = s->count;
    if (s->fn) {
        take(e, vals);
        if (s->fn(s->ctx, vals) != 0) {
            *st = ILPM_ERROR;
            return 1;
        }
    }
    if (s->limit && s->count >= s->limit) {
        *st = ILPM_SOLVED;
        return 1;
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
    uint8_t *vals = malloc((size_t)s->e->nv + 1);
    if (!vals) {
        ilpm_err_nomem(err, "out of memory for the cp search");
        *st = ILPM_ERROR;
        return -1;
    }
    ilpm_status r = ilpm_cp_search_run(&sub, vals, err);
    s->w = sub.w;
    s->nodes += sub.nodes;
    s->fails += sub.fails;
    if (r == ILPM_SOLVED) {
        for (int v = 1; v <= s->e->nv; v++)
            s->wit[v] = vals[v] ? CP_TRUE : CP_FALSE;
        s->wit_ok = 1;
    }
    free(vals);
    if (r == ILPM_SOLVED || r == ILPM_UNSAT)
        return r == ILPM_SOLVED;
    *st = r;
    return -1;
}

ilpm_status ilpm_cp_search_run(cp_search *s, uint8_t *vals, ilpm_err *err)
{
    if (s->learn)
        return ilpm_cp_cdcl_run(s, vals, err);
    cp_eng *e = s->e;
    int root = e->ntrail;
    struct dec *d = malloc(((size_t)e->nv + 1) * sizeof *d);
    s->order = s->lookahead > 0
                   ? malloc(((size_t)s->ncand + 1) * 2 * sizeof *s->order)
                   : NULL;
    int has_aux = 0;
    for (int v = 1; v <= e->nv && s->mode == CP_COUNT; v++)
        has_aux |= s->aux[v] != 0;
    s->wit = has_aux ? malloc((size_t)e->nv + 1) : NULL;
    s->wit_ok = 0;
    if (!d || (s->lookahead > 0 && !s->order) || (has_aux && !s->wit)) {
        free(d);
        free(s->order);
        free(s->wit);
        s->wit = NULL;
        ilpm_err_nomem(err, "out of memory for the cp search");
        return ILPM_ERROR;
    }
    int nd = 0;
    ilpm_status st = ILPM_UNSAT;
    int conflict = ilpm_cp_eng_propagate(e) != 0;
    s->complete = 0;
    /* A search for one solution restarts after a growing number of
     * failures, ties broken at random from then on: first solutions are
     * heavy-tailed without (n-Queens 800, L(2,35)); the limit grows by
     * half each time, so the search stays complete. */
    uint64_t interval = 2000;
    uint64_t restart_at = s->mode == CP_SOLVE ? interval : UINT64_MAX;
    s->rng = 2463534242u;
    for (;;) {
        if (!conflict && s->obj >= 0)
            conflict = ilpm_cp_eng_check(e, s->obj) != 0 ||
                       ilpm_cp_eng_propagate(e) != 0;
        if (!conflict && s->lookahead > 0)
            conflict = lookahead(s) != 0;
        if (!conflict && s->wit && !s->wit_ok) {
            int rc = find_witness(s, &st, err);
            if (rc < 0)
                break;
            conflict = rc == 0;
        }
        if (!conflict) {
            ilpm_cp_undo_due(s);
            if (ilpm_watch_poll(&s->w, "searching", NULL) != 0) {
                st = (ilpm_status)s->w.status;
                break;
            }
            s->nodes++;
            int l = ilpm_cp_pick(s);
            if (l) {
                d[nd].lit = l;
                d[nd].mark = e->ntrail;
                d[nd++].second = 0;
                ilpm_cp_eng_assign(e, l);
                conflict = ilpm_cp_eng_propagate(e) != 0;
                continue;
            }
            /* A solution: every variable has a value, nothing failed. */
            if (ilpm_cp_solution(s, vals, &st))
                break;
            if (s->mode == CP_COUNT) {
                /* Another completion of the auxiliary variables is the
                 * same projected solution. */
                while (nd && s->aux[abs(d[nd - 1].lit)])
                    nd--;
            }
        } else {
            s->fails++;
            if (s->fail_budget && s->fails >= s->fail_budget) {
                s->gave_up = 1;
                st = ILPM_TIMEOUT;
                break;
            }
            if (s->fails >= restart_at) {
                interval += interval / 2;
                restart_at = s->fails + interval;
                s->restarts++;
                nd = 0;
                ilpm_cp_eng_undo(e, root);
                conflict = 0;
                continue;
            }
        }
        while (nd && d[nd - 1].second)
            nd--;
        if (nd == 0) {
            s->complete = 1;
            st = s->mode == CP_COUNT ? ILPM_SOLVED
                 : s->mode == CP_OPTIMIZE
                     ? (s->found ? ILPM_OPTIMAL : ILPM_UNSAT)
                     : ILPM_UNSAT;
            break;
        }
        struct dec *t = &d[nd - 1];
        ilpm_cp_eng_undo(e, t->mark);
        t->second = 1;
        s->wit_ok = 0;
        ilpm_cp_eng_assign(e, -t->lit);
        conflict = ilpm_cp_eng_propagate(e) != 0;
    }
    if (s->mode == CP_OPTIMIZE && s->found &&
        (st == ILPM_TIMEOUT || st == ILPM_STOPPED))
        st = ILPM_FEASIBLE;
    ilpm_cp_eng_undo(e, root);
    free(d);
    free(s->order);
    free(s->wit);
    s->order = NULL;
    s->wit = NULL;
    return st;
}
