/* The propagation kernel (kernel.h): constraints as weighted sums with
 * bounds reasoning, weights kept per constraint, a trail with reasons that
 * undoing takes back, and constraints added after the model's (no-goods,
 * an objective's bound).  The occurrence lists of the model's constraints
 * share one arena (kernel_load.c builds it), so that a model of millions
 * of literals is freed at once. */
#include "kernel.h"

#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A term, by decreasing coefficient, so that propagation stops at the
 * first one that fits in the slack; i keeps the sort stable. */
struct ilpm_kterm {
    int64_t a;
    int l, i;
};

/* Frees p unless it lies in the arena. */
static void drop(const ilpm_kern *e, void *p)
{
    if (!ilpm_kern_in_arena(e, p))
        free(p);
}

void ilpm_kern_free(ilpm_kern *e)
{
    for (size_t i = 0; i < e->nmoved; i++) {
        free(e->moved[i].v);
        free(e->moved[i].a);
    }
    free(e->moved);
    free(e->pa);
    drop(e, e->occ);
    drop(e, e->cocc);
    drop(e, e->cons);
    drop(e, e->dirty);
    drop(e, e->lazy);
    drop(e, e->lits);
    drop(e, e->coefs);
    free(e->trail);
    free(e->reason);
    free(e->level);
    free(e->tpos);
    free(e->val);
    free(e->phase);
    free(e->arena);
    free(e->scratch);
    free(e->ones);
    free(e->big);
    memset(e, 0, sizeof *e);
}

static int by_coef(const void *x, const void *y)
{
    const struct ilpm_kterm *p = x, *q = y;
    if (p->a != q->a)
        return (p->a < q->a) - (p->a > q->a);
    return (p->i > q->i) - (p->i < q->i);
}

/* *p (of old bytes) resized to new bytes: out of the arena onto the
 * heap, or on the heap; -1 (*p kept) when out of memory. */
static int regrow(ilpm_kern *e, void **p, size_t old, size_t new)
{
    void *q;
    if (ilpm_kern_in_arena(e, *p)) {
        q = malloc(new);
        if (q)
            memcpy(q, *p, old < new ? old : new);
    } else {
        q = realloc(*p, new);
    }
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* Room for need constraints in cons, dirty and lazy. */
static int grow_cons(ilpm_kern *e, int need)
{
    if (need <= e->capcons)
        return 0;
    int cap = e->capcons ? e->capcons : 256;
    while (cap < need)
        cap = cap > INT32_MAX / 2 ? need : 2 * cap;
    size_t o = (size_t)e->capcons, n = (size_t)cap;
    if (regrow(e, (void **)&e->cons, o * sizeof *e->cons,
               n * sizeof *e->cons) != 0 ||
        regrow(e, (void **)&e->dirty, o, n) != 0 ||
        regrow(e, (void **)&e->lazy, o * sizeof *e->lazy,
               n * sizeof *e->lazy) != 0)
        return -1;
    e->capcons = cap;
    return 0;
}

/* Room for need elements of elem bytes in *p, of *cap. */
static int grow_terms(ilpm_kern *e, void **p, size_t *cap, size_t need,
                      size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? 2 * *cap : 4096;
    while (n < need)
        n *= 2;
    if (regrow(e, p, *cap * elem, n * elem) != 0)
        return -1;
    *cap = n;
    return 0;
}

/* Room for n more terms in lits and, with coefficients (coefs), in
 * coefs; ones as long as n. */
static int grow_lits(ilpm_kern *e, size_t n, int coefs)
{
    if (grow_terms(e, (void **)&e->lits, &e->caplits, e->nlits + n,
                   sizeof *e->lits) != 0 ||
        (coefs && grow_terms(e, (void **)&e->coefs, &e->capcoefs, e->ncoefs + n,
                             sizeof *e->coefs) != 0))
        return -1;
    return ilpm_kern_ones(e, n);
}

int ilpm_kern_ones(ilpm_kern *e, size_t n)
{
    if (n <= e->nones)
        return 0;
    int64_t *o = realloc(e->ones, n * sizeof *o);
    if (!o)
        return -1;
    for (size_t i = e->nones; i < n; i++)
        o[i] = 1;
    e->ones = o;
    e->nones = n;
    return 0;
}

/* The terms of sum coefs[i] lits[i] into e's lits from nlits on and, with
 * coefficients, coefs from ncoefs on (kept unless all are 1), as
 * kernel.h has them: positive coefficients, decreasing.  Their number; k
 * less by what folding took out. */
static int terms(ilpm_kern *e, const int64_t *coefs, const int *lits, int n,
                 int64_t *k)
{
    int *ol = e->lits + e->nlits;
    int64_t *oa = e->coefs + e->ncoefs;
    if (!coefs) {
        memcpy(ol, lits, (size_t)n * sizeof *ol);
        return n;
    }
    struct ilpm_kterm *t = e->scratch;
    /* a l with a < 0 is a - a (-l): the term |a| (-l), k less by a. */
    int m = 0, sorted = 1;
    for (int i = 0; i < n; i++) {
        int64_t a = coefs[i];
        if (a == 0)
            continue;
        t[m].a = a < 0 ? -a : a;
        t[m].l = a < 0 ? -lits[i] : lits[i];
        t[m].i = m;
        sorted &= m == 0 || t[m - 1].a >= t[m].a;
        *k -= a < 0 ? a : 0;
        m++;
    }
    if (!sorted)
        qsort(t, (size_t)m, sizeof *t, by_coef);
    for (int i = 0; i < m; i++) {
        ol[i] = t[i].l;
        oa[i] = t[i].a;
    }
    return m;
}

int ilpm_kern_add(ilpm_kern *e, const int64_t *coefs, const int *lits, int n,
                  ilpm_cmp cmp, int64_t k, int cond)
{
    if (grow_cons(e, e->ncons + 1) != 0 ||
        grow_lits(e, (size_t)n, coefs != NULL) != 0 ||
        (coefs && ilpm_grow((void **)&e->scratch, &e->capscratch, (size_t)n + 1,
                            sizeof *e->scratch) != 0))
        return -1;
    int c = e->ncons;
    e->dirty[c] = 0;
    int m = terms(e, coefs, lits, n, &k);
    const int *ol = e->lits + e->nlits;
    const int64_t *oa = coefs ? e->coefs + e->ncoefs : e->ones;
    /* The sums in locals: the stores into the lists below would make
     * the compiler write them back for each term. */
    int64_t total = 0, st = 0, sf = 0;
    int unit = 1;
    for (int i = 0; i < m; i++) {
        total += oa[i];
        unit &= oa[i] == 1;
    }
    ilpm_klist *occ = e->occ;
    for (int i = 0; i < m; i++)
        if (ilpm_kern_push(e, &occ[ilpm_kidx(e, ol[i])], c, oa[i]) != 0)
            return -1;
    /* The weights count every value on the trail (none as the model's
     * constraints are loaded). */
    for (int i = 0; e->ntrail && i < m; i++) {
        int v = ilpm_klval(e->val, ol[i]);
        st += v == ILPM_K_TRUE ? oa[i] : 0;
        sf += v == ILPM_K_FALSE ? oa[i] : 0;
    }
    if (cond && ((!e->cocc && !(e->cocc = calloc(2 * (size_t)e->nv + 2,
                                                 sizeof *e->cocc))) ||
                 ilpm_kern_push(e, &e->cocc[ilpm_kidx(e, cond)], c, 0) != 0))
        return -1;
    ilpm_kcon *x = ilpm_kern_record(e, c, m, cmp, unit, cond, k, total);
    x->st = st;
    x->sf = sf;
    return c;
}

int ilpm_kern_add_con(ilpm_kern *e, const ilpm_con *c)
{
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        return ilpm_kern_add(e, NULL, c->lits, c->n, ILPM_GE, 1, 0);
    case ILPM_AMO:
        return ilpm_kern_add(e, NULL, c->lits, c->n, ILPM_LE, 1, 0);
    case ILPM_EXO:
        return ilpm_kern_add(e, NULL, c->lits, c->n, ILPM_EQ, 1, 0);
    case ILPM_IMPL: {
        int l[2] = {-c->lits[0], c->lits[1]};
        return ilpm_kern_add(e, NULL, l, 2, ILPM_GE, 1, 0);
    }
    default: /* cardinality, conditional cardinality, linear */
        /* the model's cardinality coefficients are all 1 */
        return ilpm_kern_add(e, c->kind == ILPM_LINEAR ? c->coefs : NULL,
                             c->lits, c->n, c->cmp, c->rhs,
                             c->kind == ILPM_CCARD ? c->cond : 0);
    }
}

/* Eager propagation's queue of unit rows to look at, at lazy's far end
 * (a row is in one of the two at most once: a weighted row in lazy, a
 * unit one here): its i-th row. */
static inline int *rq_at(ilpm_kern *e, int i)
{
    return &e->lazy[e->capcons - 1 - i];
}

/* Eager: row c (x) moved on side (1: its true weight, 2: its false one):
 * a failure noted at once (clash), else queued when that side is at its
 * bound (what visit would look at), a weighted row in lazy as visit
 * puts it. */
static inline void touched(ilpm_kern *e, const ilpm_kcon *x, int c, int side)
{
    if (!x->cond && (side == 1 ? x->st > x->k : x->total - x->sf < x->k)) {
        e->conf = 4 * c + (side == 1 ? ILPM_K_R_LE : ILPM_K_R_GE);
        e->clash = 1;
        return;
    }
    if (!x->unit) {
        if (!e->dirty[c]) {
            e->dirty[c] = 1;
            e->lazy[e->nlazy++] = c;
        }
        return;
    }
    if (!x->cond && (side == 1 ? x->st < x->k : x->total - x->sf > x->k))
        return;
    uint8_t d = e->dirty[c];
    e->dirty[c] = (uint8_t)(d | side);
    if (!d)
        *rq_at(e, e->nrq++) = c;
}

/* The weights of list l's constraints moved by sign (its coefficients,
 * or 1 each): their true weight (st) or false one. */
static inline void weigh(ilpm_kern *e, ilpm_klist l, int st, int64_t sign)
{
    int n = l.n;
    if (n == 0) /* (a negative literal's list, in most models) */
        return;
    const ilpm_kocc *v = ilpm_klist_v(e, l);
    const int32_t *a = ilpm_klist_a(e, l);
    ilpm_kcon *cons = e->cons;
    if (!a && st)
        for (int i = 0; i < n; i++)
            cons[v[i].c].st += sign;
    else if (!a)
        for (int i = 0; i < n; i++)
            cons[v[i].c].sf += sign;
    else if (st)
        for (int i = 0; i < n; i++)
            cons[v[i].c].st += sign * ilpm_kocc_a(e, a[i]);
    else
        for (int i = 0; i < n; i++)
            cons[v[i].c].sf += sign * ilpm_kocc_a(e, a[i]);
}

/* ilpm_kern_imply, inlined in the kernel's own loops. */
static inline int imply(ilpm_kern *e, int l, int r)
{
    int x = ilpm_klval(e->val, l);
    if (x == ILPM_K_TRUE)
        return 0;
    if (x == ILPM_K_FALSE)
        return -1;
    int v = abs(l);
    e->val[v] = l > 0 ? ILPM_K_TRUE : ILPM_K_FALSE;
    if (e->reason) {
        e->reason[v] = r;
        e->level[v] = e->lvl;
        e->tpos[v] = e->ntrail;
    }
    e->trail[e->ntrail++] = l;
    /* The weights follow the values at once, so that every slack is
     * exact; the constraints are looked at when l is propagated (eager:
     * those at a bound queued now). */
    ilpm_klist p = ilpm_klist_of(e, l), q = ilpm_klist_of(e, -l);
    if (e->eager) {
        const ilpm_kocc *pv = ilpm_klist_v(e, p), *qv = ilpm_klist_v(e, q);
        const int32_t *pa = ilpm_klist_a(e, p), *qa = ilpm_klist_a(e, q);
        for (int i = 0; i < p.n; i++) {
            ilpm_kcon *y = &e->cons[pv[i].c];
            y->st += pa ? ilpm_kocc_a(e, pa[i]) : 1;
            if (y->le)
                touched(e, y, pv[i].c, 1);
        }
        for (int i = 0; i < q.n; i++) {
            ilpm_kcon *y = &e->cons[qv[i].c];
            y->sf += qa ? ilpm_kocc_a(e, qa[i]) : 1;
            if (y->ge)
                touched(e, y, qv[i].c, 2);
        }
        return 0;
    }
    if (e->pa) {
        weigh(e, p, 1, 1);
        weigh(e, q, 0, 1);
        return 0;
    }
    /* unit rows alone (n-Queens): each weight moves by 1 */
    const ilpm_kocc *pv = ilpm_klist_v(e, p), *qv = ilpm_klist_v(e, q);
    for (int i = 0; i < p.n; i++)
        e->cons[pv[i].c].st++;
    for (int i = 0; i < q.n; i++)
        e->cons[qv[i].c].sf++;
    return 0;
}

int ilpm_kern_imply(ilpm_kern *e, int l, int r)
{
    return imply(e, l, r);
}

/* The work of a side of x that scanned i terms and implied m literals,
 * in the units of probing's budget (probe.c): the terms scanned, and the
 * whole constraint again for each implied literal but the last, as the
 * model layer's first engine, which settled a constraint again each time
 * one of its literals was propagated while it stood at its bound, spent
 * it.  Its budget was set in those units, so counting alike keeps what
 * probing fixes within it as it was. */
static inline void count_work(ilpm_kern *e, const ilpm_kcon *x, int i, int m)
{
    e->work += (uint64_t)i + (m > 1 ? (uint64_t)(m - 1) * (uint64_t)x->n : 0);
}

/* How many of x's first terms exceed slack: the terms a side at its
 * bound scans (the coefficients decrease; a unit row's are all 1). */
static inline int over(const ilpm_kern *e, const ilpm_kcon *x, int64_t slack)
{
    if (x->unit)
        return slack < 1 ? x->n : 0;
    const int64_t *a = e->coefs + x->cstart;
    int lo = 0, hi = x->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] > slack)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A side of x (number c) at its bound: each open literal among its
 * first cnt terms set, false for the <= side (neg), true for the >=
 * side, for reason r, in the row's order as a scan would.  Whether a
 * literal is open is a coin toss that the branch predictor loses (an
 * exactly-one's literal made true takes the rest of the row, part of it
 * set already): the open ones are gathered without a branch, a chunk at
 * a time, and then set. */
static void fill_side(ilpm_kern *e, const ilpm_kcon *x, int c, int cnt, int r,
                      int neg)
{
    enum { CHUNK = 64 };
    const int *lits = e->lits + x->start;
    const uint8_t *val = e->val;
    int buf[CHUNK], before = e->ntrail, sign = neg ? -1 : 1;
    /* A unit row's open terms are counted: the scan stops at the last */
    int left = x->unit ? (int)(x->total - x->st - x->sf) : cnt;
    if (x->unit && 4 * (int64_t)left >= 3 * (int64_t)cnt) {
        /* Mostly open (a queen's first row): the branch is foreseen */
        for (int i = 0; i < cnt && left > 0 && !e->clash; i++)
            if (val[abs(lits[i])] == ILPM_K_OPEN) {
                imply(e, sign * lits[i], 4 * c + r);
                left--;
            }
        count_work(e, x, cnt, e->ntrail - before);
        return;
    }
    for (int i = 0; i < cnt && left > 0 && !e->clash;) {
        int j = 0, end = cnt - i > CHUNK ? i + CHUNK : cnt;
        for (; i < end && j < left; i++) {
            int l = lits[i];
            buf[j] = sign * l;
            j += val[abs(l)] == ILPM_K_OPEN;
        }
        left -= j;
        for (int t = 0; t < j && !e->clash; t++)
            imply(e, buf[t], 4 * c + r);
    }
    count_work(e, x, cnt, e->ntrail - before);
}

/* Looks at c for what its sides (1: <=, 2: >=, as far as c has them)
 * force: a side's slack moves only with its own weight, so a literal
 * that became false (true) leaves the <= (>=) side as it was. */
static int check_sides(ilpm_kern *e, int c, int sides)
{
    ilpm_kcon *x = &e->cons[c];
    int cv = x->cond ? ilpm_klval(e->val, x->cond) : ILPM_K_TRUE;
    if (cv == ILPM_K_FALSE)
        return 0;
    int64_t max = x->total - x->sf;
    if ((x->le && x->st > x->k) || (x->ge && max < x->k)) {
        /* The sum fails: so must its condition. */
        int le = x->le && x->st > x->k;
        if (cv == ILPM_K_TRUE) {
            e->conf = 4 * c + (le ? ILPM_K_R_LE : ILPM_K_R_GE);
            return -1;
        }
        return imply(e, -x->cond, 4 * c + (le ? ILPM_K_R_CLE : ILPM_K_R_CGE));
    }
    if (cv != ILPM_K_TRUE || x->st + x->sf == x->total)
        return 0;
    if (x->le && (sides & 1))
        fill_side(e, x, c, over(e, x, x->k - x->st), ILPM_K_R_LE, 1);
    if (x->ge && (sides & 2)) {
        /* max moved if the side above set something false */
        int64_t slack = x->total - x->sf - x->k;
        if (slack < 0) {
            e->conf = 4 * c + ILPM_K_R_GE;
            return -1;
        }
        fill_side(e, x, c, over(e, x, slack), ILPM_K_R_GE, 0);
    }
    return 0;
}

int ilpm_kern_check(ilpm_kern *e, int c)
{
    return check_sides(e, c, 3);
}

/* Looks at c now, or, for a weighted constraint, once the cheap ones
 * have nothing left to say: their bounds reasoning scans terms, and a
 * long row (Langford's position sum) is touched by most literals. */
static inline int visit(ilpm_kern *e, int c, int sides)
{
    const ilpm_kcon *x = &e->cons[c];
    if (x->unit) {
        /* Most visits find room for a term on the side that moved and the
         * other side holding: check_sides would do nothing (the settling
         * of givens and probing visit little else). */
        if (!x->cond && sides == 1 && x->st < x->k &&
            (!x->ge || x->total - x->sf >= x->k))
            return 0;
        if (!x->cond && sides == 2 && x->total - x->sf > x->k &&
            (!x->le || x->st <= x->k))
            return 0;
        return check_sides(e, c, sides);
    }
    if (!e->dirty[c]) {
        e->dirty[c] = 1;
        e->lazy[e->nlazy++] = c;
    }
    return 0;
}

static int drop_lazy(ilpm_kern *e)
{
    e->clash = 0;
    while (e->nlazy)
        e->dirty[e->lazy[--e->nlazy]] = 0;
    while (e->nrq)
        e->dirty[*rq_at(e, --e->nrq)] = 0;
    return -1;
}

int ilpm_kern_propagate(ilpm_kern *e)
{
    const int eager = e->eager; /* (no constraint loops reload it) */
    for (;;) {
        if (eager && e->clash)
            return drop_lazy(e);
        /* Eager, the rows were queued as the literals were set: a
         * literal is left only the clause store and the constraints it
         * conditions, if any (and its lists are not counted as work:
         * probing, which reads it, never runs eager). */
        if (eager && !e->db && !e->cocc) {
            e->props += (uint64_t)(e->ntrail - e->qhead);
            e->qhead = e->ntrail;
        }
        while (e->qhead < e->ntrail) {
            int l = e->trail[e->qhead++];
            e->props++;
            /* The clause store first: its clauses are the cheapest. */
            if (e->db && e->db_propagate(e, l) != 0)
                return drop_lazy(e);
            if (!eager) {
                ilpm_klist p = ilpm_klist_of(e, l);
                ilpm_klist q = ilpm_klist_of(e, -l);
                const ilpm_kocc *pv = ilpm_klist_v(e, p);
                const ilpm_kocc *qv = ilpm_klist_v(e, q);
                e->work += (uint64_t)p.n + (uint64_t)q.n;
                for (int i = 0; i < p.n; i++)
                    if (e->cons[pv[i].c].le && visit(e, pv[i].c, 1) != 0)
                        return drop_lazy(e);
                for (int i = 0; i < q.n; i++)
                    if (e->cons[qv[i].c].ge && visit(e, qv[i].c, 2) != 0)
                        return drop_lazy(e);
            }
            if (e->cocc) {
                ilpm_klist cl = e->cocc[ilpm_kidx(e, l)];
                const ilpm_kocc *cv = ilpm_klist_v(e, cl);
                for (int i = 0; i < cl.n; i++)
                    if (visit(e, cv[i].c, 3) != 0)
                        return drop_lazy(e);
            }
        }
        /* The unit rows queued (eager), then the weighted ones. */
        int c, sides = 3;
        if (e->nrq) {
            c = *rq_at(e, --e->nrq);
            sides = e->dirty[c];
        } else if (e->nlazy) {
            c = e->lazy[--e->nlazy];
        } else {
            return 0;
        }
        e->dirty[c] = 0;
        if (check_sides(e, c, sides) != 0)
            return drop_lazy(e);
    }
}

/* Literal l, taken off the trail, open again: its phase kept, its
 * variable back among the branching candidates. */
static inline void reopen(ilpm_kern *e, int l)
{
    int v = abs(l);
    e->val[v] = ILPM_K_OPEN;
    if (e->phase)
        e->phase[v] = l > 0;
    if (e->heap)
        e->heap_insert(e->heap, v);
}

void ilpm_kern_undo(ilpm_kern *e, int mark)
{
    if (e->nrq || e->nlazy || e->clash) /* eager: what is undone did */
        drop_lazy(e);
    while (e->ntrail > mark) {
        int l = e->trail[--e->ntrail];
        ilpm_klist p = ilpm_klist_of(e, l), q = ilpm_klist_of(e, -l);
        weigh(e, p, 1, -1);
        weigh(e, q, 0, -1);
        reopen(e, l);
    }
    if (e->qhead > mark)
        e->qhead = mark;
}

int64_t *ilpm_kern_save(const ilpm_kern *e)
{
    int64_t *w = malloc(2 * ((size_t)e->ncons + 1) * sizeof *w);
    for (int c = 0; w && c < e->ncons; c++) {
        w[2 * c] = e->cons[c].st;
        w[2 * c + 1] = e->cons[c].sf;
    }
    return w;
}

void ilpm_kern_reset(ilpm_kern *e, int mark, const int64_t *w)
{
    if (e->nrq || e->nlazy || e->clash)
        drop_lazy(e);
    for (int c = 0; c < e->ncons; c++) {
        e->cons[c].st = w[2 * c];
        e->cons[c].sf = w[2 * c + 1];
    }
    while (e->ntrail > mark)
        reopen(e, e->trail[--e->ntrail]);
    if (e->qhead > mark)
        e->qhead = mark;
}

/* 1 when check_sides would find nothing in c: neither side fails, and
 * the largest term (the first) fits in each side's slack, so no literal
 * is implied (nor, with a condition, is the condition). */
static inline int idle(const ilpm_kern *e, const ilpm_kcon *x)
{
    int64_t a = x->n ? ilpm_kcoefs(e, x)[0] : 0;
    return (!x->le || x->st + a <= x->k) &&
           (!x->ge || x->total - x->sf - a >= x->k);
}

int ilpm_kern_settle(ilpm_kern *e, int from)
{
    /* Most constraints have room on both sides: skip them at no cost
     * (the settling of givens looks at every one of the model's). */
    for (int c = from; c < e->ncons; c++)
        if (!idle(e, &e->cons[c]) && (ilpm_kern_check(e, c) != 0 ||
                                      ((e->qhead < e->ntrail || e->nlazy) &&
                                       ilpm_kern_propagate(e) != 0)))
            return -1;
    return 0;
}

void ilpm_kern_detach(ilpm_kern *e, const uint8_t *gone)
{
    for (size_t i = 0; i < 2 * (size_t)e->nv + 2; i++) {
        ilpm_klist *p = &e->occ[i];
        ilpm_kocc *v = ilpm_klist_v(e, *p);
        int32_t *a = ilpm_klist_a(e, *p);
        int j = 0;
        for (int k = 0; k < p->n; k++)
            if (!gone[v[k].c]) {
                if (a)
                    a[j] = a[k];
                v[j++] = v[k];
            }
        if (p->n != j) /* (an empty list's record stays unwritten) */
            p->n = j;
    }
}

void ilpm_kern_attach(ilpm_kern *e, const uint8_t *gone)
{
    for (int c = 0; c < e->ncons; c++) {
        if (!gone[c])
            continue;
        ilpm_kcon *x = &e->cons[c];
        x->st = x->sf = 0;
        const int64_t *ca = ilpm_kcoefs(e, x);
        for (int i = 0; i < x->n; i++) {
            int l = e->lits[x->start + (size_t)i];
            int64_t a = ca[i];
            int v = ilpm_klval(e->val, l);
            x->st += v == ILPM_K_TRUE ? a : 0;
            x->sf += v == ILPM_K_FALSE ? a : 0;
            /* fits: detach made room, so push cannot fail */
            (void)ilpm_kern_push(e, &e->occ[ilpm_kidx(e, l)], c, a);
        }
    }
}
