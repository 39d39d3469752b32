/* ilpm_regular(x, Q, S, d, q0, F) (ilpm's MiniZinc library's regular):
 * the word x is accepted by the automaton of states 1..Q over the letters
 * 1..S, transitions d[q, v] (0: none; d flattened row by row), start q0
 * and final states F.  Lowered as the layered automaton: a 0/1 column per
 * position i (0..n) and state q alive there (reachable from q0 forward
 * and reaching F backward), exactly one per layer, and clauses over x's
 * value indicators (shared with the other builtins, fzn_values.c):
 *   state(i,q) & x[i]=v -> state(i+1,d[q,v])      (or false when dead)
 *   state(i+1,q') -> OR of the values v leading into q'
 *   state(i+1,q') & x[i]=v -> OR of the q with d[q,v] = q'
 *   x[i]=v -> OR of the q alive at i with d[q,v] alive at i+1
 * (the usual CNF encoding of regular: unit propagation keeps every
 * letter and state that some accepted word takes).  Letters no
 * transition takes are excluded. */
#include "fzn_lin.h"

#include <stdlib.h>
#include <string.h>

/* The automaton and the columns of one constraint. */
typedef struct dfa {
    mdl *d;
    const fz_con *c;
    ilpm_err *err;
    int n, nq, ns;       /* positions, states, letters */
    const fz_term *tr;   /* d[q, v] at tr[(q-1)*ns + v-1] */
    int *st;             /* state(i,q): st[i*(nq+1)+q], -1 if dead */
    int *xf;             /* x[i]'s indicator of letter v: xf[i*(ns+1)+v] */
    unsigned char *live; /* alive(i,q), as st before columns */
    lin cl;              /* a clause's sum, its room kept between them */
} dfa;

enum { LIT_FALSE = -1, LIT_TRUE = -2 };

static int next(const dfa *a, int q, int v)
{
    int64_t t = a->tr[(size_t)(q - 1) * a->ns + (v - 1)].v;
    return t >= 1 && t <= a->nq ? (int)t : 0;
}

/* The literal x[i] = v: a column, LIT_FALSE or LIT_TRUE. */
static int xlit(const dfa *a, int i, int v)
{
    return a->xf[(size_t)i * (a->ns + 1) + v];
}

static int *stp(const dfa *a, int i, int q)
{
    return &a->st[(size_t)i * (a->nq + 1) + q];
}

/* The clause OR pos OR NOT neg over literals (constants folded), its
 * sum written in a->cl, whose room serves every clause of the
 * constraint (a sum allocated and freed per clause took a tenth of
 * the 55x55 nonogram's lowering). */
static int clause(dfa *a, const int *pos, int np, const int *neg, int nn)
{
    lin *l = &a->cl;
    int64_t rhs = 1;
    l->n = 0;
    l->k = 0;
    for (int k = 0; k < np; k++) {
        if (pos[k] == LIT_TRUE)
            return 0;
        if (pos[k] >= 0)
            lin_add(l, 1, (fz_term){pos[k], 1});
    }
    for (int k = 0; k < nn; k++) {
        if (neg[k] == LIT_FALSE)
            return 0;
        if (neg[k] >= 0)
            lin_add(l, -1, (fz_term){neg[k], 1}), rhs--;
    }
    return emit_rel(a->d, a->c, NULL, 0, l, R_GE, rhs, a->err);
}

/* x[i]'s letters: its indicators (shared when they can be), constants
 * for a constant; letters outside x's range LIT_FALSE. */
static int letters(dfa *a, int i)
{
    fz_term x = a->c->args[0].t[i];
    int *f = &a->xf[(size_t)i * (a->ns + 1)];
    for (int v = 0; v <= a->ns; v++)
        f[v] = LIT_FALSE;
    if (!x.var) {
        if (x.v >= 1 && x.v <= a->ns)
            f[x.v] = LIT_TRUE;
        return 0;
    }
    int64_t lo = a->d->lo[x.v], hi = a->d->hi[x.v], ilo = lo;
    int first;
    if (shared_ind(a->d, x)) {
        if (value_ind(a->d, a->c, (int)x.v, &first, a->err) != 0)
            return -1;
    } else {
        ilo = lo < 1 ? 1 : lo; /* x in 1..S: indicators of those alone */
        if (hi > a->ns)
            hi = a->ns;
        if (ilo > hi) {
            lin none = {0};
            return emit_rel(a->d, a->c, NULL, 0, &none, R_GE, 1, a->err);
        }
        if (indicators(a->d, a->c, x, NULL, ilo, hi, &first, a->err) != 0)
            return -1;
    }
    for (int64_t v = lo > 1 ? lo : 1; v <= hi && v <= a->ns; v++)
        f[v] = first + (int)(v - ilo);
    /* x's other values (outside 1..S) excluded */
    lin out = {0};
    for (int64_t v = ilo; v <= hi; v++)
        if (v < 1 || v > a->ns)
            lin_add(&out, 1, (fz_term){first + (int)(v - ilo), 1});
    int rc = out.n ? emit_rel(a->d, a->c, NULL, 0, &out, R_LE, 0, a->err) : 0;
    lin_free(&out);
    return rc;
}

/* alive(i,q): reachable from q0 over x's letters and reaching F. */
static void reach(dfa *a, int64_t q0, const fz_arg *fin)
{
    unsigned char *L = a->live;
    int w = a->nq + 1;
    if (q0 >= 1 && q0 <= a->nq)
        L[q0] = 1;
    for (int i = 0; i < a->n; i++)
        for (int q = 1; q <= a->nq; q++)
            for (int v = 1; L[(size_t)i * w + q] && v <= a->ns; v++)
                if (xlit(a, i, v) != LIT_FALSE && next(a, q, v))
                    L[(size_t)(i + 1) * w + next(a, q, v)] = 1;
    for (int q = 1; q <= a->nq; q++) {
        int in = 0;
        if (!fin->elems)
            in = q >= fin->lo && q <= fin->hi;
        for (int k = 0; fin->elems && k < fin->n; k++)
            in |= fin->elems[k] == q;
        L[(size_t)a->n * w + q] &= (unsigned char)in;
    }
    for (int i = a->n - 1; i >= 0; i--)
        for (int q = 1; q <= a->nq; q++) {
            int ok = 0;
            for (int v = 1; v <= a->ns && !ok; v++)
                ok = xlit(a, i, v) != LIT_FALSE && next(a, q, v) &&
                     L[(size_t)(i + 1) * w + next(a, q, v)];
            L[(size_t)i * w + q] &= (unsigned char)ok;
        }
}

/* Layer i's state columns, exactly one of them. */
static int layer(dfa *a, int i)
{
    lin l = {0};
    for (int q = 1; q <= a->nq; q++) {
        *stp(a, i, q) = -1;
        if (!a->live[(size_t)i * (a->nq + 1) + q])
            continue;
        int j = aux_col(a->d, a->err);
        if (j < 0)
            return lin_free(&l), -1;
        *stp(a, i, q) = j;
        lin_add(&l, 1, (fz_term){j, 1});
    }
    int rc = emit_rel(a->d, a->c, NULL, 0, &l, R_EQ, 1, a->err);
    lin_free(&l);
    return rc;
}

/* The state after q on v at i+1: its column, or LIT_FALSE if dead. */
static int to(const dfa *a, int i, int q, int v)
{
    int t = next(a, q, v);
    return t ? (*stp(a, i + 1, t) >= 0 ? *stp(a, i + 1, t) : LIT_FALSE)
             : LIT_FALSE;
}

/* The clauses between layers i and i+1 (buf: room for nq + ns). */
static int step(dfa *a, int i, int *buf)
{
    for (int q = 1; q <= a->nq; q++)
        for (int v = 1; v <= a->ns && *stp(a, i, q) >= 0; v++) {
            int neg[2] = {*stp(a, i, q), xlit(a, i, v)}, t = to(a, i, q, v);
            if (clause(a, &t, 1, neg, 2) != 0)
                return -1;
        }
    for (int t = 1; t <= a->nq; t++) {
        int s = *stp(a, i + 1, t), nv = 0;
        if (s < 0)
            continue;
        for (int v = 1; v <= a->ns; v++) {
            int np = 0, neg[2] = {s, xlit(a, i, v)};
            for (int q = 1; q <= a->nq; q++)
                if (*stp(a, i, q) >= 0 && next(a, q, v) == t)
                    buf[np++] = *stp(a, i, q);
            if (np && neg[1] != LIT_FALSE)
                buf[a->nq + nv++] = neg[1];
            if (clause(a, buf, np, neg, 2) != 0)
                return -1;
        }
        if (clause(a, buf + a->nq, nv, &s, 1) != 0)
            return -1;
    }
    for (int v = 1; v <= a->ns; v++) {
        int np = 0, x = xlit(a, i, v);
        for (int q = 1; q <= a->nq; q++)
            if (*stp(a, i, q) >= 0 && to(a, i, q, v) != LIT_FALSE)
                buf[np++] = *stp(a, i, q);
        if (clause(a, buf, np, &x, 1) != 0)
            return -1;
    }
    return 0;
}

static int bad(dfa *a, const char *what)
{
    return ilpm_err_input(a->err, "%s:%ld:%ld: '%s': %s", a->d->file,
                          a->c->line, a->c->col, a->c->b->name, what);
}

static int lower(dfa *a)
{
    int rc = 0;
    for (int i = 0; i < a->n && rc == 0; i++)
        rc = letters(a, i);
    if (rc != 0)
        return -1;
    reach(a, a->c->args[4].t[0].v, &a->c->args[5]);
    for (int i = 0; i <= a->n && rc == 0; i++)
        rc = layer(a, i);
    int *buf = malloc(((size_t)a->nq + a->ns + 1) * sizeof *buf);
    if (!buf)
        return nomem(a->d, a->err);
    for (int i = 0; i < a->n && rc == 0; i++)
        rc = step(a, i, buf);
    free(buf);
    return rc;
}

int ilpm_fzl_regular(mdl *d, const fz_con *c, ilpm_err *err)
{
    dfa a = {d,    c,    err,  c->args[0].n, 0, 0, c->args[3].t,
             NULL, NULL, NULL, {0}};
    fz_term q = c->args[1].t[0], s = c->args[2].t[0], q0 = c->args[4].t[0];
    if (q.var || s.var || q0.var)
        return bad(&a, "Q, S and q0 must be numbers");
    if (q.v < 1 || s.v < 1 || q.v > 1 << 20 || s.v > 1 << 20 ||
        q.v * s.v != c->args[3].n)
        return bad(&a, "d must hold Q * S transitions (Q, S >= 1)");
    for (int k = 0; k < c->args[3].n; k++)
        if (c->args[3].t[k].var)
            return bad(&a, "the transitions must be numbers");
    a.nq = (int)q.v, a.ns = (int)s.v;
    size_t w = (size_t)(a.n + 1) * (size_t)(a.nq + 1);
    a.st = malloc(w * sizeof *a.st);
    a.xf = malloc((size_t)(a.n + 1) * (size_t)(a.ns + 1) * sizeof *a.xf);
    a.live = calloc(w, 1);
    int rc = a.st && a.xf && a.live ? lower(&a) : nomem(d, err);
    free(a.st);
    free(a.xf);
    free(a.live);
    lin_free(&a.cl);
    return rc;
}
