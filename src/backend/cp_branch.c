/* The cp back end's branching and solutions (cp.h), shared by both of
 * its searches, the depth-first one (cp_search.c) and the conflict-driven
 * one (cp_cdcl.c), which call these and not each other.  Branching
 * follows the model's structure: first-fail takes the open at-least-one
 * (exactly-one, clause) over puzzle variables with the fewest open
 * literals, as DLX and Gecode's first-fail do, and the literal in it that
 * narrows the rest least; input takes the first open variable.  A count
 * takes the puzzle's variables before the auxiliary ones. */
#include "cp.h"

#include <math.h>

/* The first-fail constraint: open (no literal true yet) with the fewest
 * open literals; -1 when there is none. */
static int smallest(const cp_search *s)
{
    const ilpm_kern *e = s->e;
    int best = -1;
    int64_t bo = INT64_MAX;
    for (int i = 0; i < s->ncand; i++) {
        const ilpm_kcon *x = &e->cons[s->cand[i]];
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
static int64_t impact(const ilpm_kern *e, int l)
{
    ilpm_klist p = ilpm_klist_of(e, l);
    const ilpm_kocc *v = ilpm_klist_v(e, p);
    int64_t sum = 0;
    for (int i = 0; i < p.n; i++) {
        const ilpm_kcon *x = &e->cons[v[i].c];
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
 * what is left to place (the centre of a large n-Queens board).  Its
 * ties go to the first, or in a long row (CP_LONG_ROW) to one drawn
 * uniformly at random (the k-th tie kept with odds 1/k). */
static int choose(cp_search *s, int c)
{
    const ilpm_kern *e = s->e;
    const ilpm_kcon *x = &e->cons[c];
    int best = 0;
    int64_t bi = INT64_MAX;
    uint32_t ties = x->n >= CP_LONG_ROW ? 1 : 0;
    for (int i = 0; i < x->n; i++) {
        int l = e->lits[x->start + (size_t)i];
        if (ilpm_klval(e->val, l) != ILPM_K_OPEN)
            continue;
        if (s->mode == CP_COUNT && !s->wit_ok)
            return l;
        if (s->mode == CP_COUNT) {
            if (ilpm_klval(s->wit, l) == ILPM_K_TRUE)
                return l;
            continue;
        }
        int64_t im = impact(e, l);
        if (ties && im == bi) {
            if (next_rand(s) % ++ties == 0)
                best = l;
            continue;
        }
        /* After a restart, ties go by a coin, so that the search takes
         * another path each time. */
        if (im < bi ||
            (im == bi && (s->restarts || s->local) && (next_rand(s) & 1))) {
            bi = im;
            best = l;
            ties = ties ? 1 : 0;
        }
    }
    return best;
}

/* The next decision, or 0 when every variable has a value. */
int ilpm_cp_pick(cp_search *s)
{
    const ilpm_kern *e = s->e;
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
     * own.  Each variable is on the trail at most once: a full trail is
     * a solution, found without the scan (a count's every leaf). */
    if (e->ntrail == e->nv)
        return 0;
    for (int pass = s->mode == CP_COUNT ? 0 : 1; pass < 2; pass++)
        for (int v = 1; v <= e->nv; v++)
            if (e->val[v] == ILPM_K_OPEN &&
                (s->mode != CP_COUNT || (s->aux[v] != 0) == pass))
                return s->wit_ok && s->wit[v] != ILPM_K_TRUE ? -v : v;
    return 0;
}

static void take(const ilpm_kern *e, uint8_t *vals)
{
    for (int v = 1; v <= e->nv; v++)
        vals[v] = e->val[v] == ILPM_K_TRUE;
}

int ilpm_cp_solution(cp_search *s, uint8_t *vals, ilpm_status *st)
{
    ilpm_kern *e = s->e;
    s->found = 1;
    if (s->mode == CP_SOLVE) {
        take(e, vals);
        *st = ILPM_SOLVED;
        return 1;
    }
    if (s->mode == CP_OPTIMIZE) {
        take(e, vals);
        s->best = e->cons[s->obj].st + s->obj_shift;
        s->ext = 0;
        ilpm_cp_bound(s);
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

void ilpm_cp_bound(cp_search *s)
{
    ilpm_kern *e = s->e;
    e->cons[s->obj].k = s->best - s->obj_shift - 1;
    if (s->lp.bound && (double)(s->best - 1) < s->lp.z)
        e->cons[s->obj].k = -1; /* the LP's bound is met: optimal */
    if (s->lp.row) {
        /* past the row's total (never binding) when that is less */
        double k = floor(s->lp.scale * ((double)(s->best - 1) - s->lp.z));
        ilpm_kcon *x = &e->cons[s->lp.row - 1];
        x->k = k < 0 ? -1 : k < (double)x->total ? (int64_t)k : x->total;
    }
}

/* A bound from outside better than best becomes best (the rows
 * tightened as for a solution found here). */
static void outside(cp_search *s)
{
    int64_t b;
    if (ilpm_driver_bound(s->drv, s->max, &b) &&
        (!(s->found || s->ext) || b < s->best)) {
        s->best = b;
        s->ext = 1;
        ilpm_cp_bound(s);
    }
}

int ilpm_cp_bound_fails(cp_search *s)
{
    ilpm_kern *e = s->e;
    if (s->obj < 0)
        return 0;
    if (s->drv && (++s->tick & 511) == 1)
        outside(s);
    return ilpm_kern_check(e, s->obj) != 0 ||
           (s->lp.row && ilpm_kern_check(e, s->lp.row - 1) != 0) ||
           ilpm_kern_propagate(e) != 0;
}

ilpm_status ilpm_cp_exhausted(const cp_search *s)
{
    if (s->mode == CP_COUNT)
        return ILPM_SOLVED;
    return s->mode == CP_OPTIMIZE && s->found && !s->ext ? ILPM_OPTIMAL
                                                         : ILPM_UNSAT;
}

ilpm_status ilpm_cp_cut_short(const cp_search *s, ilpm_status st)
{
    if (s->mode == CP_OPTIMIZE && s->found &&
        (st == ILPM_TIMEOUT || st == ILPM_STOPPED))
        return ILPM_FEASIBLE;
    return st;
}
