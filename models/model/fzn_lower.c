/* FlatZinc's builtins lowered into linear rows over the columns (mdl.h).
 * Every builtin becomes a relation of a linear sum, possibly under
 * conditions: "if these literals hold, sum rel rhs", written as one row
 * with a big-M taken from the columns' bounds (so never larger than
 * the sum's own range).  A reified relation r <-> (sum rel rhs) is two
 * such rows, one under r and one, negated, under not r; "sum != rhs"
 * takes an auxiliary 0/1 column choosing the side.  Auxiliary columns
 * are outside the answer: counts are projected onto the output
 * variables. */
#include "fzn_lin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest magnitude a sum, a bound or a big-M may reach. */
#define FZ_BIG ((__int128)1 << 60)

void ilpm_fz_range(const mdl *d, fz_term t, int64_t *lo, int64_t *hi)
{
    *lo = t.var ? d->lo[t.v] : t.v;
    *hi = t.var ? d->hi[t.v] : t.v;
}

void lin_add(lin *l, int64_t a, fz_term t)
{
    if (!t.var) {
        l->k += (__int128)a * t.v;
        return;
    }
    if (a == 0)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        lin_term *nt = realloc(l->t, (size_t)cap * sizeof *nt);
        if (!nt) {
            l->oom = 1;
            return;
        }
        l->t = nt;
        l->cap = cap;
    }
    l->t[l->n++] = (lin_term){(int)t.v, a};
}

static int by_col(const void *a, const void *b)
{
    int x = ((const lin_term *)a)->col, y = ((const lin_term *)b)->col;
    return (x > y) - (x < y);
}

/* One term per column (coefficients summed, zeros dropped); -1 when a
 * sum leaves the 64-bit range. */
static int lin_merge(lin *l)
{
    if (l->n < 2)
        return 0;
    if (l->n <= 16) /* a clause's few terms: by insertion, no qsort */
        for (int i = 1; i < l->n; i++) {
            lin_term t = l->t[i];
            int j = i;
            for (; j > 0 && l->t[j - 1].col > t.col; j--)
                l->t[j] = l->t[j - 1];
            l->t[j] = t;
        }
    else
        qsort(l->t, (size_t)l->n, sizeof *l->t, by_col);
    int k = 0;
    for (int i = 0; i < l->n;) {
        __int128 a = 0;
        int j = i;
        for (; j < l->n && l->t[j].col == l->t[i].col; j++)
            a += l->t[j].coef;
        if (a < INT64_MIN || a > INT64_MAX)
            return -1;
        if (a != 0)
            l->t[k++] = (lin_term){l->t[i].col, (int64_t)a};
        i = j;
    }
    l->n = k;
    return 0;
}

void lin_free(lin *l)
{
    free(l->t);
    memset(l, 0, sizeof *l);
}

static void lin_range(const mdl *d, const lin *l, __int128 *lo, __int128 *hi)
{
    *lo = *hi = l->k;
    for (int i = 0; i < l->n; i++) {
        __int128 a = (__int128)l->t[i].coef * d->lo[l->t[i].col];
        __int128 b = (__int128)l->t[i].coef * d->hi[l->t[i].col];
        *lo += a < b ? a : b;
        *hi += a < b ? b : a;
    }
}

static int too_big(const mdl *d, const fz_con *c, ilpm_err *err)
{
    return ilpm_err_input(err,
                          "%s:%ld:%ld: '%s': its sums reach past 2^60, more "
                          "than ilpm's rows hold",
                          d->file, c->line, c->col, c->b->name);
}

int nomem(const mdl *d, ilpm_err *err)
{
    return ilpm_err_nomem(err, "%s: out of memory", d->file);
}

/* A 0/1 column outside the answer. */
int aux_col(mdl *d, ilpm_err *err)
{
    char name[40];
    fzn *z = d->more;
    snprintf(name, sizeof name, "fzn_aux_%d", d->ncols - z->ncols_read + 1);
    int j = ilpm_mdl_add_col(d, name, 0, 1);
    if (j < 0)
        return nomem(d, err), -1;
    int cap = z->flagcap;
    if (ilpm_grow_int((void **)&z->flag, &cap, j + 1, 1) != 0)
        return nomem(d, err), -1;
    memset(z->flag + z->flagcap, 0, (size_t)(cap - z->flagcap));
    z->flagcap = cap;
    z->flag[j] = FZ_BOOL;
    return j;
}

/* If every literal of cond holds: l <= rhs (ge 0) or l >= rhs (ge 1). */
static int emit_if(mdl *d, const fz_con *c, const lit *cond, int nc, lin *l,
                   int ge, __int128 rhs, ilpm_err *err)
{
    __int128 lo, hi;
    if (l->oom)
        return nomem(d, err);
    if (lin_merge(l) != 0)
        return too_big(d, c, err);
    lin_range(d, l, &lo, &hi);
    if (ge ? lo >= rhs : hi <= rhs)
        return 0; /* holds whatever the values */
    __int128 m = ge ? rhs - lo : hi - rhs, r = rhs - l->k;
    if (lo < -FZ_BIG || hi > FZ_BIG || rhs < -FZ_BIG || rhs > FZ_BIG)
        return too_big(d, c, err);
    for (int i = 0; i < l->n; i++)
        if (ilpm_mdl_add_term(d, l->t[i].col, l->t[i].coef) != 0)
            return nomem(d, err);
    /* l <= rhs + m * (number of conditions that fail), and the mirror. */
    for (int i = 0; i < nc; i++) {
        int64_t a = (int64_t)(cond[i].neg ? -m : m);
        if (ilpm_mdl_add_term(d, cond[i].col, ge ? -a : a) != 0)
            return nomem(d, err);
        if (!cond[i].neg)
            r += ge ? -m : m;
    }
    if (r < -FZ_BIG || r > FZ_BIG)
        return too_big(d, c, err);
    if (ilpm_mdl_end_row(d, ge ? ILPM_GE : ILPM_LE, (int64_t)r, c->line, -1) !=
        0)
        return nomem(d, err);
    return 0;
}

/* If cond: l rel rhs. */
int emit_rel(mdl *d, const fz_con *c, const lit *cond, int nc, lin *l, int rel,
             __int128 rhs, ilpm_err *err)
{
    if (rel == R_LE || rel == R_GE)
        return emit_if(d, c, cond, nc, l, rel == R_GE, rhs, err);
    if (rel == R_EQ)
        return emit_if(d, c, cond, nc, l, 0, rhs, err) ||
               emit_if(d, c, cond, nc, l, 1, rhs, err);
    /* !=: a new b picks the side, b: l <= rhs - 1, not b: l >= rhs + 1. */
    __int128 lo, hi;
    if (lin_merge(l) != 0)
        return too_big(d, c, err);
    lin_range(d, l, &lo, &hi);
    if (rhs < lo || rhs > hi)
        return 0;
    lit more[8];
    if (nc > 6)
        return ilpm_err_fail(err, ILPM_E_FAIL, "too many conditions");
    if (nc > 0)
        memcpy(more, cond, (size_t)nc * sizeof *cond);
    int b = aux_col(d, err);
    if (b < 0)
        return -1;
    more[nc] = (lit){b, 0};
    if (emit_if(d, c, more, nc + 1, l, 0, rhs - 1, err) != 0)
        return -1;
    more[nc].neg = 1;
    return emit_if(d, c, more, nc + 1, l, 1, rhs + 1, err);
}

/* r <-> (l rel rhs); r a term (a constant r drops a side). */
int emit_reif(mdl *d, const fz_con *c, fz_term r, lin *l, int rel, __int128 rhs,
              ilpm_err *err)
{
    static const int neg_rel[] = {R_GE, R_LE, R_NE, R_EQ};
    __int128 neg_rhs = rel == R_LE ? rhs + 1 : rel == R_GE ? rhs - 1 : rhs;
    if (!r.var)
        return r.v ? emit_rel(d, c, NULL, 0, l, rel, rhs, err)
                   : emit_rel(d, c, NULL, 0, l, neg_rel[rel], neg_rhs, err);
    lit on = {(int)r.v, 0}, off = {(int)r.v, 1};
    return emit_rel(d, c, &on, 1, l, rel, rhs, err) ||
           emit_rel(d, c, &off, 1, l, neg_rel[rel], neg_rhs, err);
}

/* The terms of args[0..k): scalars and array elements in order. */
static int terms(const fz_con *c, int k, fz_term *buf, int cap)
{
    int n = 0;
    for (int a = 0; a < k; a++)
        for (int i = 0; i < c->args[a].n && c->args[a].kind != FZ_SET; i++)
            if (n < cap)
                buf[n++] = c->args[a].t[i];
            else
                n++;
    return n;
}

static int rel_of(const fz_con *c)
{
    return c->b->op & 3;
}

/* x_lin(as, xs, c) and x_lin_reif(as, xs, c, r): sum as[i] xs[i] rel c. */
int ilpm_fzl_lin(mdl *d, const fz_con *c, ilpm_err *err)
{
    const fz_arg *as = &c->args[0], *xs = &c->args[1];
    if (as->kind != FZ_ARRAY || xs->kind != FZ_ARRAY || as->n != xs->n)
        return ilpm_err_input(err,
                              "%s:%ld:%ld: '%s': its coefficients and "
                              "variables differ in number",
                              d->file, c->line, c->col, c->b->name);
    lin l = {0};
    for (int i = 0; i < as->n; i++) {
        if (as->t[i].var) {
            lin_free(&l);
            return ilpm_err_input(err,
                                  "%s:%ld:%ld: '%s': the coefficients must "
                                  "be numbers",
                                  d->file, c->line, c->col, c->b->name);
        }
        lin_add(&l, as->t[i].v, xs->t[i]);
    }
    lin_add(&l, -1, c->args[2].t[0]);
    int rc = c->nargs == 3 && l.n == 2 && !l.oom
                 ? pair_values(d, c, l.t[0].coef, l.t[0].col, l.t[1].coef,
                               l.t[1].col, -l.k, rel_of(c), err)
                 : 1;
    if (rc != 1) {
        lin_free(&l);
        return rc;
    }
    rc = c->nargs == 4 ? emit_reif(d, c, c->args[3].t[0], &l, rel_of(c), 0, err)
                       : emit_rel(d, c, NULL, 0, &l, rel_of(c), 0, err);
    lin_free(&l);
    return rc;
}

/* x_cmp(a, b) and x_cmp_reif(a, b, r): a - b rel 0 (op 4: a < b). */
int ilpm_fzl_cmp(mdl *d, const fz_con *c, ilpm_err *err)
{
    int rel = rel_of(c);
    fz_term a = c->args[0].t[0], b = c->args[1].t[0];
    if (c->nargs == 3 && (rel == R_EQ || rel == R_NE) && !b.var &&
        shared_ind(d, a) && d->hi[a.v] - d->lo[a.v] >= 2 && b.v >= d->lo[a.v] &&
        b.v <= d->hi[a.v])
        return eq_value(d, c, (int)a.v, b.v, rel, c->args[2].t[0], err);
    if (c->nargs == 2 && rel == R_EQ && a.var && b.var) { /* bool2int */
        int same = same_col(d, (int)b.v, (int)a.v);
        if (same == 0)
            same = same_col(d, (int)a.v, (int)b.v);
        if (same != 0)
            return same < 0 ? nomem(d, err) : 0;
    }
    if (c->nargs == 2 && a.var && b.var) {
        int rc = pair_values(d, c, 1, (int)a.v, -1, (int)b.v, 0, rel, err);
        if (rc != 1)
            return rc;
    }
    lin l = {0};
    lin_add(&l, 1, c->args[0].t[0]);
    lin_add(&l, -1, c->args[1].t[0]);
    __int128 rhs = c->b->op & FZ_STRICT ? -1 : 0;
    int rc = c->nargs == 3
                 ? emit_reif(d, c, c->args[2].t[0], &l, rel_of(c), rhs, err)
                 : emit_rel(d, c, NULL, 0, &l, rel_of(c), rhs, err);
    lin_free(&l);
    return rc;
}

/* bool_not(a, b), bool_xor(a, b): a + b = 1. */
int ilpm_fzl_not(mdl *d, const fz_con *c, ilpm_err *err)
{
    lin l = {0};
    lin_add(&l, 1, c->args[0].t[0]);
    lin_add(&l, 1, c->args[1].t[0]);
    int rc = emit_rel(d, c, NULL, 0, &l, R_EQ, 1, err);
    lin_free(&l);
    return rc;
}

/* r <-> and (op 0) or or (op 1) of the terms before r. */
int ilpm_fzl_andor(mdl *d, const fz_con *c, ilpm_err *err)
{
    int n = terms(c, c->nargs - 1, NULL, 0);
    fz_term *t = malloc((size_t)(n ? n : 1) * sizeof *t);
    if (!t)
        return nomem(d, err);
    terms(c, c->nargs - 1, t, n);
    lin l = {0};
    for (int i = 0; i < n; i++)
        lin_add(&l, 1, t[i]);
    int rc = emit_reif(d, c, c->args[c->nargs - 1].t[0], &l, R_GE,
                       c->b->op ? 1 : n, err);
    free(t);
    lin_free(&l);
    return rc;
}

/* bool_clause(as, bs) and its _reif: sum as + sum (1 - bs) >= 1. */
int ilpm_fzl_clause(mdl *d, const fz_con *c, ilpm_err *err)
{
    lin l = {0};
    for (int i = 0; i < c->args[0].n; i++)
        lin_add(&l, 1, c->args[0].t[i]);
    for (int i = 0; i < c->args[1].n; i++)
        lin_add(&l, -1, c->args[1].t[i]);
    __int128 rhs = 1 - (__int128)c->args[1].n;
    int rc = c->nargs == 3
                 ? emit_reif(d, c, c->args[2].t[0], &l, R_GE, rhs, err)
                 : emit_rel(d, c, NULL, 0, &l, R_GE, rhs, err);
    lin_free(&l);
    return rc;
}

/* An integer column of range lo..hi outside the answer. */
static int aux_int(mdl *d, int64_t lo, int64_t hi, ilpm_err *err)
{
    int j = aux_col(d, err);
    if (j >= 0) {
        d->lo[j] = lo;
        d->hi[j] = hi;
        ((fzn *)d->more)->flag[j] = 0;
    }
    return j;
}

/* array_bool_xor(as): an odd number of as hold, sum as - 2 t = 1. */
int ilpm_fzl_xor(mdl *d, const fz_con *c, ilpm_err *err)
{
    const fz_arg *as = &c->args[0];
    int t = aux_int(d, 0, as->n / 2, err);
    if (t < 0)
        return -1;
    lin l = {0};
    for (int i = 0; i < as->n; i++)
        lin_add(&l, 1, as->t[i]);
    lin_add(&l, -2, (fz_term){t, 1});
    int rc = emit_rel(d, c, NULL, 0, &l, R_EQ, 1, err);
    lin_free(&l);
    return rc;
}

/* int_plus(a, b, c): a + b = c. */
int ilpm_fzl_plus(mdl *d, const fz_con *c, ilpm_err *err)
{
    lin l = {0};
    lin_add(&l, 1, c->args[0].t[0]);
    lin_add(&l, 1, c->args[1].t[0]);
    lin_add(&l, -1, c->args[2].t[0]);
    int rc = emit_rel(d, c, NULL, 0, &l, R_EQ, 0, err);
    lin_free(&l);
    return rc;
}

/* If cond: a1 x + a2 y rel 0. */
int rel2(mdl *d, const fz_con *c, const lit *cond, int nc, int64_t a1,
         fz_term x, int64_t a2, fz_term y, int rel, ilpm_err *err)
{
    lin l = {0};
    lin_add(&l, a1, x);
    lin_add(&l, a2, y);
    int rc = emit_rel(d, c, cond, nc, &l, rel, 0, err);
    lin_free(&l);
    return rc;
}

/* b = |a|; s picks the sign where a may take both. */
static int absval(mdl *d, const fz_con *c, fz_term a, fz_term b, ilpm_err *err)
{
    int64_t lo, hi;
    ilpm_fz_range(d, a, &lo, &hi);
    if (lo >= 0 || hi <= 0)
        return rel2(d, c, NULL, 0, 1, b, lo >= 0 ? -1 : 1, a, R_EQ, err);
    int s = aux_col(d, err);
    if (s < 0)
        return -1;
    lit pos = {s, 0}, neg = {s, 1};
    fz_term zero = {0, 0};
    return rel2(d, c, &pos, 1, 1, b, -1, a, R_EQ, err) ||
           rel2(d, c, &pos, 1, 1, a, 0, zero, R_GE, err) ||
           rel2(d, c, &neg, 1, 1, b, 1, a, R_EQ, err) ||
           rel2(d, c, &neg, 1, 1, a, 0, zero, R_LE, err);
}

/* int_abs(a, b): b = |a|. */
int ilpm_fzl_abs(mdl *d, const fz_con *c, ilpm_err *err)
{
    return absval(d, c, c->args[0].t[0], c->args[1].t[0], err);
}

/* m the largest (max 1) or smallest of xs[0..n): on that side of each,
 * and equal to the one the auxiliary columns pick (for two, one column
 * and its negation). */
static int extremum(mdl *d, const fz_con *c, fz_term m, const fz_term *xs,
                    int n, int max, ilpm_err *err)
{
    int rel = max ? R_GE : R_LE, first = -1;
    lin pick = {0};
    if (n == 0) /* no element: no solution */
        return emit_rel(d, c, NULL, 0, &pick, R_GE, 1, err);
    for (int i = 0; i < n; i++)
        if (rel2(d, c, NULL, 0, 1, m, -1, xs[i], rel, err) != 0)
            return -1;
    if (n == 1)
        return rel2(d, c, NULL, 0, 1, m, -1, xs[0], R_EQ, err);
    for (int i = 0; i < (n == 2 ? 1 : n); i++) {
        int s = aux_col(d, err);
        if (s < 0)
            return lin_free(&pick), -1;
        first = i == 0 ? s : first;
        lin_add(&pick, 1, (fz_term){s, 1});
    }
    int rc = n > 2 ? emit_rel(d, c, NULL, 0, &pick, R_EQ, 1, err) : 0;
    lin_free(&pick);
    for (int i = 0; i < n && rc == 0; i++) {
        lit on = n == 2 ? (lit){first, i} : (lit){first + i, 0};
        rc = rel2(d, c, &on, 1, 1, m, -1, xs[i], R_EQ, err);
    }
    return rc;
}

/* int_min(a, b, m) (op 0) and int_max (op 1). */
int ilpm_fzl_minmax(mdl *d, const fz_con *c, ilpm_err *err)
{
    fz_term xs[2] = {c->args[0].t[0], c->args[1].t[0]};
    return extremum(d, c, c->args[2].t[0], xs, 2, c->b->op, err);
}

/* array_int_maximum(m, xs) (op 1) and array_int_minimum(m, xs). */
int ilpm_fzl_extremum(mdl *d, const fz_con *c, ilpm_err *err)
{
    return extremum(d, c, c->args[0].t[0], c->args[1].t, c->args[1].n, c->b->op,
                    err);
}

/* The most values one indicator set may have. */
#define FZ_MAX_IND (1 << 16)

/* Indicators d_v for the values of x in vals (n of them, or the range
 * lo..hi when vals is NULL): exactly one holds and (link) x = sum v d_v.  The
 * first column is *first, the others follow. */
int indicators_link(mdl *d, const fz_con *c, fz_term x, const int64_t *vals,
                    int64_t lo, int64_t hi, int *first, int link, ilpm_err *err)
{
    int64_t n = vals ? lo : hi - lo + 1; /* with vals, lo is their count */
    if (n > FZ_MAX_IND)
        return ilpm_err_input(err,
                              "%s:%ld:%ld: '%s': %lld values are more than "
                              "the %d one variable may take here",
                              d->file, c->line, c->col, c->b->name,
                              (long long)n, FZ_MAX_IND);
    lin one = {0}, sum = {0};
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++) {
        int j = aux_col(d, err);
        if (j < 0) {
            rc = -1;
            break;
        }
        if (i == 0)
            *first = j;
        lin_add(&one, 1, (fz_term){j, 1});
        lin_add(&sum, vals ? vals[i] : lo + i, (fz_term){j, 1});
    }
    lin_add(&sum, -1, x);
    if (rc == 0)
        rc = emit_rel(d, c, NULL, 0, &one, R_EQ, 1, err) ||
             (link && emit_rel(d, c, NULL, 0, &sum, R_EQ, 0, err));
    lin_free(&one);
    lin_free(&sum);
    return rc;
}

/* The same, tied to x by the row x = sum v d_v. */
int indicators(mdl *d, const fz_con *c, fz_term x, const int64_t *vals,
               int64_t lo, int64_t hi, int *first, ilpm_err *err)
{
    return indicators_link(d, c, x, vals, lo, hi, first, 1, err);
}

/* p = a b: p = v b under the indicator of a = v, over the factor with
 * fewer values. */
static int product(mdl *d, const fz_con *c, fz_term a, fz_term b, fz_term p,
                   ilpm_err *err)
{
    int64_t alo, ahi, blo, bhi;
    ilpm_fz_range(d, a, &alo, &ahi);
    ilpm_fz_range(d, b, &blo, &bhi);
    if ((__int128)bhi - blo < (__int128)ahi - alo) {
        fz_term t = a;
        a = b;
        b = t;
        alo = blo;
        ahi = bhi;
    }
    if (!a.var)
        return rel2(d, c, NULL, 0, 1, p, -a.v, b, R_EQ, err);
    int first;
    if (indicators(d, c, a, NULL, alo, ahi, &first, err) != 0)
        return -1;
    for (int64_t v = alo; v <= ahi; v++) {
        lit on = {first + (int)(v - alo), 0};
        if (rel2(d, c, &on, 1, 1, p, -v, b, R_EQ, err) != 0)
            return -1;
    }
    return 0;
}

/* int_times(a, b, p): p = a b. */
int ilpm_fzl_times(mdl *d, const fz_con *c, ilpm_err *err)
{
    return product(d, c, c->args[0].t[0], c->args[1].t[0], c->args[2].t[0],
                   err);
}

/* If cond: sum of a_i t_i (n terms) rel rhs. */
static int rel_n(mdl *d, const fz_con *c, const lit *cond, int nc,
                 const int64_t *a, const fz_term *t, int n, int rel,
                 __int128 rhs, ilpm_err *err)
{
    lin l = {0};
    for (int i = 0; i < n; i++)
        lin_add(&l, a[i], t[i]);
    int rc = emit_rel(d, c, cond, nc, &l, rel, rhs, err);
    lin_free(&l);
    return rc;
}

/* int_div(a, b, q) and int_mod(a, b, r) (op 1): a = q b + r with b != 0,
 * |r| < |b| and r of a's sign; the one of q, r not an argument an
 * auxiliary column.  As int_times: the indicators of b's values (0 left
 * out) and a = v q + r under that of v; |r| <= sum (|v| - 1) d_v. */
int ilpm_fzl_divmod(mdl *d, const fz_con *c, ilpm_err *err)
{
    fz_term a = c->args[0].t[0], b = c->args[1].t[0], q = c->args[2].t[0];
    fz_term r = q, zero = {0, 0};
    int64_t alo, ahi, blo, bhi, lo, hi;
    ilpm_fz_range(d, a, &alo, &ahi);
    ilpm_fz_range(d, b, &blo, &bhi);
    int first = 0, rc = 0;
    if (!ilpm_fz_divmod_range(alo, ahi, blo, bhi, !c->b->op, &lo, &hi)) {
        lin none = {0}; /* b = 0: no solution */
        return emit_rel(d, c, NULL, 0, &none, R_GE, 1, err);
    }
    if ((__int128)bhi - blo >= FZ_MAX_IND) /* indicators' own message */
        return indicators(d, c, b, NULL, blo, bhi, &first, err);
    int aux = aux_int(d, lo, hi, err), n = 0;
    int64_t *vals = malloc((size_t)(bhi - blo + 1) * sizeof *vals);
    if (aux < 0 || !vals)
        return free(vals), aux < 0 ? -1 : nomem(d, err);
    *(c->b->op ? &q : &r) = (fz_term){aux, 1};
    for (int64_t v = blo; v <= bhi; v++)
        if (v != 0)
            vals[n++] = v;
    if (b.var)
        rc = indicators(d, c, b, vals, n, 0, &first, err);
    lin up = {0}, down = {0};
    lin_add(&up, 1, r);
    lin_add(&down, -1, r);
    for (int i = 0; i < n && rc == 0; i++) {
        fz_term dv = b.var ? (fz_term){first + i, 1} : (fz_term){1, 0};
        lit on = {first + i, 0};
        int64_t k[3] = {1, -vals[i], -1};
        fz_term t[3] = {a, q, r};
        int64_t m = vals[i] < 0 ? -vals[i] : vals[i];
        lin_add(&up, 1 - m, dv);
        lin_add(&down, 1 - m, dv);
        rc = rel_n(d, c, &on, b.var, k, t, 3, R_EQ, 0, err);
    }
    rc = rc || emit_rel(d, c, NULL, 0, &up, R_LE, 0, err) ||
         emit_rel(d, c, NULL, 0, &down, R_LE, 0, err);
    free(vals);
    lin_free(&up);
    lin_free(&down);
    if (rc || alo >= 0 || ahi <= 0) /* r of a's sign */
        return rc ||
               rel2(d, c, NULL, 0, 1, r, 0, zero, alo >= 0 ? R_GE : R_LE, err);
    int s = aux_col(d, err); /* s: a >= 0 and r >= 0, else both <= 0 */
    lit pos = {s, 0}, neg = {s, 1};
    return s < 0 || rel2(d, c, &pos, 1, 1, a, 0, zero, R_GE, err) ||
           rel2(d, c, &pos, 1, 1, r, 0, zero, R_GE, err) ||
           rel2(d, c, &neg, 1, 1, a, 0, zero, R_LE, err) ||
           rel2(d, c, &neg, 1, 1, r, 0, zero, R_LE, err);
}

/* int_pow(x, y, z): under the indicator of y = k, z = sum of x^k over the
 * indicators of x's values, those where x^k is undefined excluded. */
int ilpm_fzl_pow(mdl *d, const fz_con *c, ilpm_err *err)
{
    fz_term x = c->args[0].t[0], y = c->args[1].t[0], z = c->args[2].t[0];
    int64_t xlo, xhi, ylo, yhi;
    ilpm_fz_range(d, x, &xlo, &xhi);
    ilpm_fz_range(d, y, &ylo, &yhi);
    int fx = 0, fy = 0, rc = 0;
    if (((__int128)xhi - xlo + 1) * ((__int128)yhi - ylo + 1) > FZ_MAX_IND)
        return ilpm_err_input(err,
                              "%s:%ld:%ld: '%s': more than %d pairs of "
                              "values of base and exponent",
                              d->file, c->line, c->col, c->b->name, FZ_MAX_IND);
    if ((x.var && indicators(d, c, x, NULL, xlo, xhi, &fx, err) != 0) ||
        (y.var && indicators(d, c, y, NULL, ylo, yhi, &fy, err) != 0))
        return -1;
    for (int64_t k = ylo; k <= yhi && rc == 0; k++) {
        lin l = {0}, none = {0};
        lin_add(&l, -1, z);
        for (int64_t v = xlo; v <= xhi; v++) {
            fz_term dv = x.var ? (fz_term){fx + (v - xlo), 1} : (fz_term){1, 0};
            int64_t pw;
            if (ilpm_fz_pow(v, k, &pw))
                lin_add(&l, pw, dv);
            else
                lin_add(&none, 1, dv);
        }
        lit on = {fy + (int)(k - ylo), 0};
        rc = emit_rel(d, c, &on, y.var, &l, R_EQ, 0, err) ||
             emit_rel(d, c, &on, y.var, &none, R_LE, 0, err);
        lin_free(&l);
        lin_free(&none);
    }
    return rc;
}
