/* The value indicators of FlatZinc's integer variables, made once per
 * variable and shared by the builtins that take them (int_eq_reif,
 * int_ne_reif, element, set_in): exactly one per value, and the variable
 * made of them (mdl.direct, fzn_builtins.c).  A 0/1 column outside the
 * answer stated equal to another (bool2int, bool_eq, int_eq_reif on a
 * value) takes that column's variable (mdl.same): one column per value,
 * as ilpm's MiniZinc library (models/mznlib/ilpm) leaves them. */
#include "fzn_lin.h"

#include <stdlib.h>
#include <string.h>

/* The most values of a column whose indicators are shared: a larger
 * one takes indicators of the values a builtin needs, for it alone. */
#define FZ_SHARED_IND 1024

/* Whether x is a variable whose indicators are shared. */
int shared_ind(const mdl *d, fz_term x)
{
    return x.var && d->hi[x.v] - d->lo[x.v] < FZ_SHARED_IND;
}

/* The indicators of column x's values lo..hi (its range), made once and
 * shared by every builtin that takes them (element, set_in, int_eq_reif):
 * the first into *first.  Their rows go to the group int_values. */
/* Room in fzn.ind for column x: 0, or -1 out of memory. */
static int ind_room(mdl *d, int x)
{
    fzn *z = d->more;
    int cap = z->indcap;
    if (x < cap)
        return 0;
    if (ilpm_grow_int((void **)&z->ind, &cap, x + 1, sizeof *z->ind) != 0)
        return -1;
    memset(z->ind + z->indcap, 0, (size_t)(cap - z->indcap) * sizeof *z->ind);
    z->indcap = cap;
    return 0;
}

int value_ind(mdl *d, const fz_con *c, int x, int *first, ilpm_err *err)
{
    fzn *z = d->more;
    if (x < z->indcap && z->ind[x] > 0) {
        *first = z->ind[x] - 1;
        return 0;
    }
    if (ind_room(d, x) != 0)
        return nomem(d, err);
    if (ilpm_mdl_row_group(d, "int_values") != 0)
        return nomem(d, err);
    /* Three values or more: x is made of them (fzn_builtins.c's
     * direct_columns), no row ties them. */
    if (indicators_link(d, c, (fz_term){x, 1}, NULL, d->lo[x], d->hi[x], first,
                        d->hi[x] - d->lo[x] < 2, err) != 0)
        return -1;
    z->ind[x] = *first + 1;
    return ilpm_mdl_row_group(d, c->domain ? "domain" : c->b->name) != 0
               ? nomem(d, err)
               : 0;
}

/* Column a takes b's variable (fzn.same), when a is a 0/1 column of
 * the file outside the answer with no indicators and b another 0/1
 * column: 1 if so, 0 if not, -1 out of memory. */
int same_col(mdl *d, int a, int b)
{
    fzn *z = d->more;
    while (b < z->samecap && z->same[b] > 0)
        b = z->same[b] - 1;
    if (a == b || a >= z->ncols_read || !d->aux || !d->aux[a] ||
        d->lo[a] != 0 || d->hi[a] != 1 || d->lo[b] != 0 || d->hi[b] != 1 ||
        (a < z->samecap && z->same[a] > 0) || (a < z->indcap && z->ind[a]))
        return 0;
    int cap = z->samecap;
    if (ilpm_grow_int((void **)&z->same, &cap, a + 1, sizeof *z->same) != 0)
        return -1;
    memset(z->same + z->samecap, 0,
           (size_t)(cap - z->samecap) * sizeof *z->same);
    z->samecap = cap;
    z->same[a] = b + 1;
    return 1;
}

/* r <-> (x = v) (rel R_EQ) or (x != v): r is the indicator of v (the
 * same column when it can be, else an equality of the two), or its
 * negation. */
int eq_value(mdl *d, const fz_con *c, int x, int64_t v, int rel, fz_term r,
             ilpm_err *err)
{
    int first;
    if (value_ind(d, c, x, &first, err) != 0)
        return -1;
    int ind = first + (int)(v - d->lo[x]), same = 0;
    if (rel == R_EQ && r.var && (same = same_col(d, (int)r.v, ind)) != 0)
        return same < 0 ? nomem(d, err) : 0;
    lin l = {0};
    lin_add(&l, 1, (fz_term){ind, 1});
    lin_add(&l, rel == R_EQ ? -1 : 1, r);
    int rc = emit_rel(d, c, NULL, 0, &l, R_EQ, rel == R_EQ ? 0 : 1, err);
    lin_free(&l);
    return rc;
}

static int constants(const fz_arg *xs)
{
    for (int k = 0; k < xs->n; k++)
        if (xs->t[k].var)
            return 0;
    return 1;
}

/* r = xs[i] over constants, on the indicators of i (from first, for the
 * indices lo..hi) and of r: i = k implies r = xs[k], and r = w implies i
 * is one of the k with xs[k] = w (clauses both). */
static int element_values(mdl *d, const fz_con *c, int first, int64_t lo,
                          int64_t hi, const fz_arg *xs, int r, ilpm_err *err)
{
    int rfirst, rc = 0;
    if (value_ind(d, c, r, &rfirst, err) != 0)
        return -1;
    int64_t rlo = d->lo[r], rhi = d->hi[r];
    for (int64_t k = lo; k <= hi && rc == 0; k++) {
        lin l = {0};
        int64_t w = xs->t[k - 1].v;
        lin_add(&l, 1, (fz_term){first + (int)(k - lo), 1});
        if (w >= rlo && w <= rhi)
            lin_add(&l, -1, (fz_term){rfirst + (int)(w - rlo), 1});
        rc = emit_rel(d, c, NULL, 0, &l, R_LE, 0, err);
        lin_free(&l);
    }
    for (int64_t w = rlo; w <= rhi && rc == 0; w++) {
        lin l = {0};
        lin_add(&l, 1, (fz_term){rfirst + (int)(w - rlo), 1});
        for (int64_t k = lo; k <= hi; k++)
            if (xs->t[k - 1].v == w)
                lin_add(&l, -1, (fz_term){first + (int)(k - lo), 1});
        rc = emit_rel(d, c, NULL, 0, &l, R_LE, 0, err);
        lin_free(&l);
    }
    return rc;
}

/* array_[var_]{int,bool}_element(i, xs, r): r = xs[i], the index's
 * indicators over 1..n choosing the element. */
int ilpm_fzl_element(mdl *d, const fz_con *c, ilpm_err *err)
{
    fz_term i = c->args[0].t[0], r = c->args[2].t[0];
    const fz_arg *xs = &c->args[1];
    int64_t lo, hi;
    ilpm_fz_range(d, i, &lo, &hi);
    if (lo < 1)
        lo = 1;
    if (hi > xs->n)
        hi = xs->n;
    if (lo > hi) { /* no index is in the array: no solution */
        lin none = {0};
        return emit_rel(d, c, NULL, 0, &none, R_GE, 1, err);
    }
    int first;
    if (shared_ind(d, i)) { /* x's own, those past the array excluded */
        lin out = {0};
        if (value_ind(d, c, (int)i.v, &first, err) != 0)
            return -1;
        for (int64_t v = d->lo[i.v]; v <= d->hi[i.v]; v++)
            if (v < lo || v > hi)
                lin_add(&out, 1, (fz_term){first + (int)(v - d->lo[i.v]), 1});
        first += (int)(lo - d->lo[i.v]);
        int rc = emit_rel(d, c, NULL, 0, &out, R_LE, 0, err);
        lin_free(&out);
        if (rc != 0)
            return -1;
    } else if (indicators(d, c, i, NULL, lo, hi, &first, err) != 0)
        return -1;
    if (shared_ind(d, r) && constants(xs))
        return element_values(d, c, first, lo, hi, xs, (int)r.v, err);
    for (int64_t k = lo; k <= hi; k++) {
        lit on = {first + (int)(k - lo), 0};
        if (rel2(d, c, &on, 1, 1, r, -1, xs->t[k - 1], R_EQ, err) != 0)
            return -1;
    }
    return 0;
}

static int pair_ind(const mdl *d, int x);

/* set_in(x, S) and set_in_reif(x, S, r). */
int ilpm_fzl_set_in(mdl *d, const fz_con *c, ilpm_err *err)
{
    fz_term x = c->args[0].t[0];
    const fz_arg *s = &c->args[1];
    int64_t lo, hi;
    ilpm_fz_range(d, x, &lo, &hi);
    fz_term one = {1, 0}, r = c->nargs == 3 ? c->args[2].t[0] : one;
    /* A range: both bounds, or r <-> within both, unless x's values
     * have indicators to sum. */
    if (!s->elems && ((!r.var && r.v) || !x.var || !pair_ind(d, (int)x.v))) {
        fz_term slo = {s->lo, 0}, shi = {s->hi, 0};
        if (!r.var && r.v)
            return rel2(d, c, NULL, 0, 1, x, -1, slo, R_GE, err) ||
                   rel2(d, c, NULL, 0, 1, x, -1, shi, R_LE, err);
        lin in = {0};
        /* in: r <-> (x >= lo) and (x <= hi), the two as 0/1 columns. */
        int ge = aux_col(d, err), le = ge < 0 ? -1 : aux_col(d, err);
        if (le < 0)
            return -1;
        lin lx = {0};
        lin_add(&lx, 1, x);
        int rc = emit_reif(d, c, (fz_term){ge, 1}, &lx, R_GE, s->lo, err) ||
                 emit_reif(d, c, (fz_term){le, 1}, &lx, R_LE, s->hi, err);
        lin_add(&in, 1, (fz_term){ge, 1});
        lin_add(&in, 1, (fz_term){le, 1});
        rc = rc || emit_reif(d, c, r, &in, R_GE, 2, err);
        lin_free(&lx);
        lin_free(&in);
        return rc;
    }
    /* The indicators of x's values, r the sum of those in S. */
    int first;
    if (shared_ind(d, x) ? value_ind(d, c, (int)x.v, &first, err)
                         : indicators(d, c, x, NULL, lo, hi, &first, err))
        return -1;
    lin in = {0};
    for (int64_t k = 0; k < (s->elems ? s->n : s->hi - s->lo + 1); k++) {
        int64_t v = s->elems ? s->elems[k] : s->lo + k;
        if (v >= lo && v <= hi)
            lin_add(&in, 1, (fz_term){first + (int)(v - lo), 1});
    }
    lin_add(&in, -1, r);
    int rc = emit_rel(d, c, NULL, 0, &in, R_EQ, 0, err);
    lin_free(&in);
    return rc;
}

/* The most values of a variable whose indicators a pair relation makes
 * (pair_values); one with them already takes them at any size.  More
 * would make the variable of its indicators in every linear row it is
 * in: Golomb's marks (50 values) in sums of four took 65 million
 * clauses. */
#define FZ_PAIR_VALUES 16

/* Whether x's indicators may carry a relation of x and another. */
static int pair_ind(const mdl *d, int x)
{
    const fzn *z = d->more;
    int64_t n = d->hi[x] - d->lo[x] + 1;
    return n >= 3 && n <= FZ_SHARED_IND &&
           ((x < z->indcap && z->ind[x] > 0) || n <= FZ_PAIR_VALUES);
}

/* For each value v of x (from xf, its first indicator), the value w of
 * y (from yf) with a v + b w = k: "x = v implies y = w" (no such w: x !=
 * v) for R_EQ, "not both" for R_NE. */
static int pair_rows(mdl *d, const fz_con *c, int64_t a, int x, int xf,
                     int64_t b, int y, int yf, __int128 k, int rel,
                     ilpm_err *err)
{
    int rc = 0;
    for (int64_t v = d->lo[x]; v <= d->hi[x] && rc == 0; v++) {
        __int128 w = (k - (__int128)a * v) * b; /* b = +-1 */
        int in = w >= d->lo[y] && w <= d->hi[y];
        if (rel == R_NE && !in)
            continue;
        lin l = {0};
        lin_add(&l, 1, (fz_term){xf + (int)(v - d->lo[x]), 1});
        if (in)
            lin_add(&l, rel == R_EQ ? -1 : 1,
                    (fz_term){yf + (int)(w - d->lo[y]), 1});
        rc = emit_rel(d, c, NULL, 0, &l, R_LE, rel == R_EQ || !in ? 0 : 1, err);
        lin_free(&l);
    }
    return rc;
}

/* x = y + k where y has value indicators and x has none, over y's
 * values shifted: x takes y's (both are made of them, mdl.direct), no
 * row needed; 1 if so. */
static int shift(mdl *d, const fz_con *c, int x, int y, __int128 k,
                 ilpm_err *err)
{
    fzn *z = d->more;
    int first;
    if ((x < z->indcap && z->ind[x] > 0) || d->hi[y] - d->lo[y] < 2 ||
        d->lo[x] != d->lo[y] + k || d->hi[x] != d->hi[y] + k)
        return 0;
    if (value_ind(d, c, y, &first, err) != 0 || ind_room(d, x) != 0)
        return -1;
    z->ind[x] = first + 1;
    return 1;
}

int pair_values(mdl *d, const fz_con *c, int64_t a, int x, int64_t b, int y,
                __int128 k, int rel, ilpm_err *err)
{
    if ((rel != R_EQ && rel != R_NE) || x == y || (a != 1 && a != -1) ||
        (b != 1 && b != -1) || !pair_ind(d, x) || !pair_ind(d, y))
        return 1;
    int rc = rel == R_EQ && a == -b ? shift(d, c, x, y, k * a, err) : 0;
    if (rc == 0 && rel == R_EQ && a == -b)
        rc = shift(d, c, y, x, -k * a, err);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    int xf, yf;
    if (value_ind(d, c, x, &xf, err) != 0 || value_ind(d, c, y, &yf, err) != 0)
        return -1;
    if (pair_rows(d, c, a, x, xf, b, y, yf, k, rel, err) != 0)
        return -1;
    /* Each value of y has its support among x's too (the rows for x
     * alone say it for !=). */
    return rel == R_EQ ? pair_rows(d, c, b, y, yf, a, x, xf, k, rel, err) : 0;
}

/* The terms' values all differ two by two (pair_values, else a row and a
 * side column each, as int_ne). */
static int pairwise(mdl *d, const fz_con *c, const fz_arg *a, ilpm_err *err)
{
    for (int i = 0; i < a->n; i++)
        for (int j = i + 1; j < a->n; j++) {
            fz_term x = a->t[i], y = a->t[j];
            int rc = x.var && y.var ? pair_values(d, c, 1, (int)x.v, -1,
                                                  (int)y.v, 0, R_NE, err)
                                    : 1;
            if (rc == 1)
                rc = rel2(d, c, NULL, 0, 1, x, -1, y, R_NE, err);
            if (rc != 0)
                return -1;
        }
    return 0;
}

/* ilpm_all_different_int(xs): over few values (at most twice as many as
 * terms), at most one term per value on the variables' value indicators,
 * exactly one when there are as many values as terms; over more, the
 * pairs differ. */
int ilpm_fzl_alldiff(mdl *d, const fz_con *c, ilpm_err *err)
{
    const fz_arg *a = &c->args[0];
    int64_t lo = INT64_MAX, hi = INT64_MIN, tlo, thi;
    for (int i = 0; i < a->n; i++) {
        ilpm_fz_range(d, a->t[i], &tlo, &thi);
        lo = tlo < lo ? tlo : lo;
        hi = thi > hi ? thi : hi;
    }
    if (a->n < 2)
        return 0;
    __int128 nv = (__int128)hi - lo + 1;
    int ok = nv <= 2 * (__int128)a->n && nv <= FZ_SHARED_IND;
    for (int i = 0; i < a->n && ok; i++)
        ok = !a->t[i].var || shared_ind(d, a->t[i]);
    if (!ok)
        return pairwise(d, c, a, err);
    int *first = malloc((size_t)a->n * sizeof *first), rc = 0;
    if (!first)
        return nomem(d, err);
    for (int i = 0; i < a->n && rc == 0; i++)
        if (a->t[i].var)
            rc = value_ind(d, c, (int)a->t[i].v, &first[i], err);
    for (int64_t v = lo; v <= hi && rc == 0; v++) {
        lin l = {0};
        int64_t k = 0; /* the constants equal to v */
        for (int i = 0; i < a->n; i++) {
            fz_term t = a->t[i];
            if (!t.var)
                k += t.v == v;
            else if (v >= d->lo[t.v] && v <= d->hi[t.v])
                lin_add(&l, 1, (fz_term){first[i] + (int)(v - d->lo[t.v]), 1});
        }
        rc = emit_rel(d, c, NULL, 0, &l, nv == a->n ? R_EQ : R_LE, 1 - k, err);
        lin_free(&l);
    }
    free(first);
    return rc;
}
