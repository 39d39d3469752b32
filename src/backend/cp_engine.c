/* The cp back end's propagation engine (cp.h): constraints as weighted
 * sums with bounds reasoning, weights kept per constraint, a trail that
 * undoing takes back, and constraints added between searches (no-goods,
 * the objective's bound). */
#include "cp.h"

#include <string.h>

void ilpm_cp_eng_free(cp_eng *e)
{
    for (size_t i = 0; i < 2 * (size_t)e->nv + 2; i++) {
        if (e->occ) /* either may be missing after a failed allocation */
            free(e->occ[i].v);
        if (e->cocc)
            free(e->cocc[i].v);
    }
    free(e->occ);
    free(e->cocc);
    free(e->cons);
    free(e->dirty);
    free(e->lazy);
    free(e->lits);
    free(e->coefs);
    free(e->val);
    free(e->trail);
    free(e->reason);
    free(e->level);
    free(e->tpos);
    free(e->phase);
    memset(e, 0, sizeof *e);
}

static int push(cp_list *l, int c, int64_t a)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        cp_occ *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n].c = c;
    l->v[l->n++].a = a;
    return 0;
}

/* Terms by decreasing coefficient, so that propagation stops at the
 * first one that fits in the slack. */
struct term {
    int64_t a;
    int l;
};

static int by_coef(const void *x, const void *y)
{
    const struct term *p = x, *q = y;
    return (p->a < q->a) - (p->a > q->a);
}

int ilpm_cp_eng_add(cp_eng *e, const int64_t *coefs, const int *lits, int n,
                    ilpm_cmp cmp, int64_t k, int cond)
{
    if (e->ncons == e->capcons) {
        int cap = e->capcons ? 2 * e->capcons : 256;
        cp_con *v = realloc(e->cons, (size_t)cap * sizeof *v);
        if (v)
            e->cons = v;
        uint8_t *d = realloc(e->dirty, (size_t)cap);
        if (d)
            e->dirty = d;
        int *q = realloc(e->lazy, (size_t)cap * sizeof *q);
        if (q)
            e->lazy = q;
        if (!v || !d || !q)
            return -1;
        e->capcons = cap;
    }
    e->dirty[e->ncons] = 0;
    if (e->nlits + (size_t)n > e->caplits) {
        size_t cap = e->caplits ? 2 * e->caplits : 4096;
        while (cap < e->nlits + (size_t)n)
            cap *= 2;
        int *l = realloc(e->lits, cap * sizeof *l);
        if (l)
            e->lits = l;
        int64_t *a = realloc(e->coefs, cap * sizeof *a);
        if (a)
            e->coefs = a;
        if (!l || !a)
            return -1;
        e->caplits = cap;
    }
    struct term *t = malloc(((size_t)n + 1) * sizeof *t);
    if (!t)
        return -1;
    /* a l with a < 0 is a - a (-l): the term |a| (-l), k less by a. */
    int m = 0;
    for (int i = 0; i < n; i++) {
        int64_t a = coefs ? coefs[i] : 1;
        if (a == 0)
            continue;
        t[m].a = a < 0 ? -a : a;
        t[m].l = a < 0 ? -lits[i] : lits[i];
        k -= a < 0 ? a : 0;
        m++;
    }
    qsort(t, (size_t)m, sizeof *t, by_coef);
    int c = e->ncons;
    cp_con *x = &e->cons[c];
    memset(x, 0, sizeof *x);
    x->start = e->nlits;
    x->n = m;
    x->le = cmp != ILPM_GE;
    x->ge = cmp != ILPM_LE;
    x->k = k;
    x->cond = cond;
    x->unit = 1;
    for (int i = 0; i < m; i++) {
        e->lits[e->nlits + (size_t)i] = t[i].l;
        e->coefs[e->nlits + (size_t)i] = t[i].a;
        x->total += t[i].a;
        x->unit &= t[i].a == 1;
        /* The weights count every value on the trail. */
        int v = cp_lval(e->val, t[i].l);
        x->st += v == CP_TRUE ? t[i].a : 0;
        x->sf += v == CP_FALSE ? t[i].a : 0;
        if (push(&e->occ[cp_lix(t[i].l)], c, t[i].a) != 0) {
            free(t);
            return -1;
        }
    }
    free(t);
    if (cond && push(&e->cocc[cp_lix(cond)], c, 0) != 0)
        return -1;
    e->nlits += (size_t)m;
    e->ncons++;
    return c;
}

static const ilpm_cmp cmp_of[] = {ILPM_LE, ILPM_GE, ILPM_EQ};

int ilpm_cp_eng_add_con(cp_eng *e, const ilpm_con *c)
{
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        return ilpm_cp_eng_add(e, NULL, c->lits, c->n, ILPM_GE, 1, 0);
    case ILPM_AMO:
        return ilpm_cp_eng_add(e, NULL, c->lits, c->n, ILPM_LE, 1, 0);
    case ILPM_EXO:
        return ilpm_cp_eng_add(e, NULL, c->lits, c->n, ILPM_EQ, 1, 0);
    case ILPM_IMPL: {
        int l[2] = {-c->lits[0], c->lits[1]};
        return ilpm_cp_eng_add(e, NULL, l, 2, ILPM_GE, 1, 0);
    }
    default: /* cardinality, conditional cardinality, linear */
        return ilpm_cp_eng_add(e, c->coefs, c->lits, c->n, cmp_of[c->cmp],
                               c->rhs, c->kind == ILPM_CCARD ? c->cond : 0);
    }
}

int ilpm_cp_eng_init(cp_eng *e, const ilpm_model *m, ilpm_watch *w,
                     ilpm_err *err)
{
    memset(e, 0, sizeof *e);
    e->nv = ilpm_model_nvars(m);
    size_t nl = 2 * (size_t)e->nv + 2;
    e->occ = calloc(nl, sizeof *e->occ);
    e->cocc = calloc(nl, sizeof *e->cocc);
    e->val = calloc((size_t)e->nv + 1, 1);
    e->trail = malloc(((size_t)e->nv + 1) * sizeof *e->trail);
    e->reason = malloc(((size_t)e->nv + 1) * sizeof *e->reason);
    e->level = calloc((size_t)e->nv + 1, sizeof *e->level);
    e->tpos = calloc((size_t)e->nv + 1, sizeof *e->tpos);
    e->phase = calloc((size_t)e->nv + 1, 1);
    int rc = e->occ && e->cocc && e->val && e->trail && e->reason && e->level &&
                     e->tpos && e->phase
                 ? 0
                 : -1;
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc && rc >= 0; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (ilpm_watch_poll(w, "building the cp engine", err) != 0) {
            ilpm_cp_eng_free(e);
            return -1;
        }
        rc = ilpm_cp_eng_add_con(e, &c);
    }
    if (rc < 0) {
        ilpm_cp_eng_free(e);
        return ilpm_err_nomem(err, "out of memory building the cp engine");
    }
    return 0;
}

int ilpm_cp_eng_imply(cp_eng *e, int l, int r)
{
    int x = cp_lval(e->val, l);
    if (x == CP_TRUE)
        return 0;
    if (x == CP_FALSE)
        return -1;
    int v = abs(l);
    e->val[v] = l > 0 ? CP_TRUE : CP_FALSE;
    e->reason[v] = r;
    e->level[v] = e->lvl;
    e->tpos[v] = e->ntrail;
    e->trail[e->ntrail++] = l;
    /* The weights follow the values at once, so that every slack is
     * exact; the constraints are looked at when l is propagated. */
    const cp_list *p = &e->occ[cp_lix(l)], *q = &e->occ[cp_lix(-l)];
    for (int i = 0; i < p->n; i++)
        e->cons[p->v[i].c].st += p->v[i].a;
    for (int i = 0; i < q->n; i++)
        e->cons[q->v[i].c].sf += q->v[i].a;
    return 0;
}

int ilpm_cp_eng_assign(cp_eng *e, int l)
{
    return ilpm_cp_eng_imply(e, l, CP_DECIDED);
}

/* Looks at c for what its sides (1: <=, 2: >=, as far as c has them)
 * force: a side's slack moves only with its own weight, so a literal
 * that became false (true) leaves the <= (>=) side as it was. */
static int check_sides(cp_eng *e, int c, int sides)
{
    cp_con *x = &e->cons[c];
    int cv = x->cond ? cp_lval(e->val, x->cond) : CP_TRUE;
    if (cv == CP_FALSE)
        return 0;
    int64_t max = x->total - x->sf;
    if ((x->le && x->st > x->k) || (x->ge && max < x->k)) {
        /* The sum fails: so must its condition. */
        int le = x->le && x->st > x->k;
        if (cv == CP_TRUE) {
            e->conf = 4 * c + (le ? CP_R_LE : CP_R_GE);
            return -1;
        }
        return ilpm_cp_eng_imply(e, -x->cond,
                                 4 * c + (le ? CP_R_CLE : CP_R_CGE));
    }
    if (cv != CP_TRUE || x->st + x->sf == x->total)
        return 0;
    const int *lits = e->lits + x->start;
    const int64_t *a = e->coefs + x->start;
    if (x->le && (sides & 1)) {
        int64_t slack = x->k - x->st;
        for (int i = 0; i < x->n && a[i] > slack; i++)
            if (cp_lval(e->val, lits[i]) == CP_OPEN)
                ilpm_cp_eng_imply(e, -lits[i], 4 * c + CP_R_LE);
    }
    if (x->ge && (sides & 2)) {
        /* max moved if the loop above set something false */
        int64_t slack = x->total - x->sf - x->k;
        if (slack < 0) {
            e->conf = 4 * c + CP_R_GE;
            return -1;
        }
        for (int i = 0; i < x->n && a[i] > slack; i++)
            if (cp_lval(e->val, lits[i]) == CP_OPEN)
                ilpm_cp_eng_imply(e, lits[i], 4 * c + CP_R_GE);
    }
    return 0;
}

int ilpm_cp_eng_check(cp_eng *e, int c)
{
    return check_sides(e, c, 3);
}

/* Looks at c now, or, for a weighted constraint, once the cheap ones
 * have nothing left to say: their bounds reasoning scans terms, and a
 * long row (Langford's position sum) is touched by most literals. */
static int visit(cp_eng *e, int c, int sides)
{
    if (e->cons[c].unit)
        return check_sides(e, c, sides);
    if (!e->dirty[c]) {
        e->dirty[c] = 1;
        e->lazy[e->nlazy++] = c;
    }
    return 0;
}

static int drop_lazy(cp_eng *e)
{
    while (e->nlazy)
        e->dirty[e->lazy[--e->nlazy]] = 0;
    return -1;
}

int ilpm_cp_eng_propagate(cp_eng *e)
{
    for (;;) {
        while (e->qhead < e->ntrail) {
            int l = e->trail[e->qhead++];
            const cp_list *p = &e->occ[cp_lix(l)], *q = &e->occ[cp_lix(-l)];
            const cp_list *cp = &e->cocc[cp_lix(l)];
            e->props++;
            /* Learned clauses first: they are the cheapest. */
            if (e->db && ilpm_cp_db_propagate(e, l) != 0)
                return drop_lazy(e);
            for (int i = 0; i < p->n; i++)
                if (e->cons[p->v[i].c].le && visit(e, p->v[i].c, 1) != 0)
                    return drop_lazy(e);
            for (int i = 0; i < q->n; i++)
                if (e->cons[q->v[i].c].ge && visit(e, q->v[i].c, 2) != 0)
                    return drop_lazy(e);
            for (int i = 0; i < cp->n; i++)
                if (visit(e, cp->v[i].c, 3) != 0)
                    return drop_lazy(e);
        }
        if (e->nlazy == 0)
            return 0;
        int c = e->lazy[--e->nlazy];
        e->dirty[c] = 0;
        if (ilpm_cp_eng_check(e, c) != 0)
            return drop_lazy(e);
    }
}

void ilpm_cp_eng_undo(cp_eng *e, int mark)
{
    while (e->ntrail > mark) {
        int l = e->trail[--e->ntrail];
        const cp_list *p = &e->occ[cp_lix(l)], *q = &e->occ[cp_lix(-l)];
        for (int i = 0; i < p->n; i++)
            e->cons[p->v[i].c].st -= p->v[i].a;
        for (int i = 0; i < q->n; i++)
            e->cons[q->v[i].c].sf -= q->v[i].a;
        int v = abs(l);
        e->val[v] = CP_OPEN;
        e->phase[v] = l > 0;
        if (e->heap)
            ilpm_cp_heap_insert(e->heap, v);
    }
    if (e->qhead > mark)
        e->qhead = mark;
}

void ilpm_cp_eng_detach(cp_eng *e, const uint8_t *gone)
{
    for (size_t i = 0; i < 2 * (size_t)e->nv + 2; i++) {
        cp_list *p = &e->occ[i];
        int j = 0;
        for (int k = 0; k < p->n; k++)
            if (!gone[p->v[k].c])
                p->v[j++] = p->v[k];
        p->n = j;
    }
}

void ilpm_cp_eng_attach(cp_eng *e, const uint8_t *gone)
{
    for (int c = 0; c < e->ncons; c++) {
        if (!gone[c])
            continue;
        cp_con *x = &e->cons[c];
        x->st = x->sf = 0;
        for (int i = 0; i < x->n; i++) {
            int l = e->lits[x->start + (size_t)i];
            int64_t a = e->coefs[x->start + (size_t)i];
            int v = cp_lval(e->val, l);
            x->st += v == CP_TRUE ? a : 0;
            x->sf += v == CP_FALSE ? a : 0;
            push(&e->occ[cp_lix(l)], c, a); /* fits: detach made room */
        }
    }
}
