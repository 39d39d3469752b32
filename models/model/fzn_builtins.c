/* The FlatZinc builtins ilpm takes, one row each (name, lowering,
 * meaning, relation, the kinds of its arguments), and the lowering of a whole
 * file: the bounds of `var int` declared without a domain, taken from the
 * equalities that define them; every constraint into rows; the answer's
 * columns (the output variables) and the objective. */
#include "fzn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// clang-format off
#define ROW(name, impl, op, shape)                                             \
    {#name, ilpm_fzl_##impl, ilpm_fzh_##impl, op, shape}
// clang-format on

static const fz_builtin builtins[] = {
    ROW(int_lin_eq, lin, FZ_EQ, "aas"),
    ROW(int_lin_le, lin, FZ_LE, "aas"),
    ROW(int_lin_ne, lin, FZ_NE, "aas"),
    ROW(int_lin_eq_reif, lin, FZ_EQ, "aass"),
    ROW(int_lin_le_reif, lin, FZ_LE, "aass"),
    ROW(int_lin_ne_reif, lin, FZ_NE, "aass"),
    ROW(bool_lin_eq, lin, FZ_EQ, "aas"),
    ROW(bool_lin_le, lin, FZ_LE, "aas"),
    ROW(int_eq, cmp, FZ_EQ, "ss"),
    ROW(int_le, cmp, FZ_LE, "ss"),
    ROW(int_lt, cmp, FZ_LE | FZ_STRICT, "ss"),
    ROW(int_ne, cmp, FZ_NE, "ss"),
    ROW(int_eq_reif, cmp, FZ_EQ, "sss"),
    ROW(int_le_reif, cmp, FZ_LE, "sss"),
    ROW(int_lt_reif, cmp, FZ_LE | FZ_STRICT, "sss"),
    ROW(int_ne_reif, cmp, FZ_NE, "sss"),
    ROW(bool2int, cmp, FZ_EQ, "ss"),
    ROW(bool_eq, cmp, FZ_EQ, "ss"),
    ROW(bool_le, cmp, FZ_LE, "ss"),
    ROW(bool_lt, cmp, FZ_LE | FZ_STRICT, "ss"),
    ROW(bool_eq_reif, cmp, FZ_EQ, "sss"),
    ROW(bool_le_reif, cmp, FZ_LE, "sss"),
    ROW(bool_lt_reif, cmp, FZ_LE | FZ_STRICT, "sss"),
    ROW(bool_xor, cmp, FZ_NE, "sss"),
    ROW(bool_not, not, 0, "ss"),
    ROW(bool_xor, not, 0, "ss"),
    ROW(bool_and, andor, 0, "sss"),
    ROW(bool_or, andor, 1, "sss"),
    ROW(array_bool_and, andor, 0, "as"),
    ROW(array_bool_or, andor, 1, "as"),
    ROW(bool_clause, clause, 0, "aa"),
    ROW(bool_clause_reif, clause, 0, "aas"),
    ROW(array_bool_xor, xor, 0, "a"),
    ROW(int_plus, plus, 0, "sss"),
    ROW(int_abs, abs, 0, "ss"),
    ROW(int_min, minmax, 0, "sss"),
    ROW(int_max, minmax, 1, "sss"),
    ROW(int_times, times, 0, "sss"),
    ROW(int_div, divmod, 0, "sss"),
    ROW(int_mod, divmod, 1, "sss"),
    ROW(int_pow, pow, 0, "sss"),
    ROW(array_int_maximum, extremum, 1, "sa"),
    ROW(array_int_minimum, extremum, 0, "sa"),
    ROW(array_int_element, element, 0, "sas"),
    ROW(array_var_int_element, element, 0, "sas"),
    ROW(array_bool_element, element, 0, "sas"),
    ROW(array_var_bool_element, element, 0, "sas"),
    ROW(set_in, set_in, 0, "sS"),
    ROW(set_in_reif, set_in, 0, "sSs"),
    /* ilpm's MiniZinc library's (models/mznlib/ilpm). */
    ROW(ilpm_all_different_int, alldiff, 0, "a"),
    ROW(ilpm_regular, regular, 0, "assasS"),
};

const fz_builtin *ilpm_fzn_builtin(const char *name, int nargs, int *known)
{
    if (known)
        *known = 0;
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        if (strcmp(builtins[i].name, name) == 0) {
            if (known)
                *known = 1;
            if (strlen(builtins[i].shape) == (size_t)nargs)
                return &builtins[i];
        }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Bounds of `var int` declared without a domain.                       */

static int unbounded(const mdl *d, fz_term t)
{
    const fzn *z = d->more;
    return t.var && (z->flag[t.v] & FZ_UNBOUNDED);
}

#define FZ_LIMIT ((__int128)1 << 60)

static int tighten(mdl *d, fz_term t, __int128 lo, __int128 hi)
{
    if (lo < -FZ_LIMIT || hi > FZ_LIMIT || lo > hi)
        return 0;
    d->lo[t.v] = (int64_t)lo;
    d->hi[t.v] = (int64_t)hi;
    ((fzn *)d->more)->flag[t.v] &= (unsigned char)~FZ_UNBOUNDED;
    return 1;
}

/* sum a_i t_i = 0 with one unbounded term: its range.  1 if found. */
static int from_sum(mdl *d, const int64_t *a, const fz_term *t, int n)
{
    int u = -1;
    __int128 lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        if (unbounded(d, t[i])) {
            if (u >= 0 || a[i] == 0)
                return 0;
            u = i;
            continue;
        }
        int64_t l, h;
        ilpm_fz_range(d, t[i], &l, &h);
        __int128 x = (__int128)a[i] * l, y = (__int128)a[i] * h;
        lo += x < y ? x : y;
        hi += x < y ? y : x;
        if (lo < -FZ_LIMIT || hi > FZ_LIMIT)
            return 0;
    }
    if (u < 0)
        return 0;
    /* a_u t_u = -(rest): t_u within [-hi, -lo] / a_u, rounded inward. */
    __int128 m = a[u] > 0 ? a[u] : -a[u], l = a[u] > 0 ? -hi : lo,
             h = a[u] > 0 ? -lo : hi;
    __int128 ql = l >= 0 ? (l + m - 1) / m : -((-l) / m);
    __int128 qh = h >= 0 ? h / m : -((-h + m - 1) / m);
    return tighten(d, t[u], ql, qh);
}

int ilpm_fz_divmod_range(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi,
                         int mod, int64_t *lo, int64_t *hi)
{
    /* b's values other than 0: the ends of its negative and positive
     * parts, where a / b is extreme */
    int64_t bs[4] = {blo, bhi < 0 ? bhi : -1, blo > 0 ? blo : 1, bhi};
    __int128 qlo = FZ_LIMIT, qhi = -FZ_LIMIT, m = 0;
    for (int k = 0; k < 4; k++) {
        if (bs[k] == 0 || bs[k] < blo || bs[k] > bhi || (k < 2) != (bs[k] < 0))
            continue;
        __int128 b = bs[k], q1 = alo / b, q2 = ahi / b;
        if (q1 > q2) {
            __int128 t = q1;
            q1 = q2;
            q2 = t;
        }
        qlo = q1 < qlo ? q1 : qlo;
        qhi = q2 > qhi ? q2 : qhi;
        m = (b < 0 ? -b : b) > m ? (b < 0 ? -b : b) : m;
    }
    if (m == 0)
        return 0;
    /* |r| < |b| and |r| <= |a|, r of a's sign */
    __int128 am = -(__int128)alo > ahi ? -(__int128)alo : ahi;
    __int128 r = am < m - 1 ? am : m - 1;
    *lo = (int64_t)(mod ? (alo >= 0 ? 0 : -r) : qlo);
    *hi = (int64_t)(mod ? (ahi <= 0 ? 0 : r) : qhi);
    return 1;
}

/* The result's range of int_div, int_mod, int_pow (args[2]) and
 * array_int_maximum, _minimum (args[0]); 0 when an argument it
 * depends on is unbounded or the values are too many to try. */
static int result_range(mdl *d, const fz_con *c, __int128 *lo, __int128 *hi)
{
    const fz_builtin *b = c->b;
    int ext = b->lower == ilpm_fzl_extremum;
    const fz_arg *in = ext ? &c->args[1] : c->args;
    int64_t l[2], h[2];
    *lo = FZ_LIMIT;
    *hi = -FZ_LIMIT;
    for (int k = 0; k < (ext ? in->n : 2); k++) {
        fz_term t = ext ? in->t[k] : c->args[k].t[0];
        if (unbounded(d, t))
            return 0;
        ilpm_fz_range(d, t, &l[k & 1], &h[k & 1]);
        *lo = l[k & 1] < *lo ? l[k & 1] : *lo;
        *hi = h[k & 1] > *hi ? h[k & 1] : *hi;
    }
    int64_t ql = 0, qh = 0;
    if (b->lower == ilpm_fzl_divmod)
        ilpm_fz_divmod_range(l[0], h[0], l[1], h[1], b->op, &ql, &qh);
    if (b->lower == ilpm_fzl_divmod || (ext && in->n == 0))
        *lo = ql, *hi = qh; /* no value at all: 0..0, and no solution */
    if (b->lower != ilpm_fzl_pow)
        return 1;
    if (((__int128)h[0] - l[0] + 1) * ((__int128)h[1] - l[1] + 1) > 1 << 16)
        return 0;
    *lo = FZ_LIMIT;
    *hi = -FZ_LIMIT;
    for (int64_t x = l[0]; x <= h[0]; x++)
        for (int64_t y = l[1]; y <= h[1]; y++) {
            int64_t z;
            if (ilpm_fz_pow(x, y, &z)) {
                *lo = z < *lo ? z : *lo;
                *hi = z > *hi ? z : *hi;
            }
        }
    if (*lo > *hi)
        *lo = *hi = 0;
    return 1;
}

/* The result of int_div, int_mod, int_pow or an array extremum bounded:
 * 1 if it was unbounded and is now. */
static int from_result(mdl *d, const fz_con *c)
{
    const fz_builtin *b = c->b;
    if (b->lower != ilpm_fzl_divmod && b->lower != ilpm_fzl_pow &&
        b->lower != ilpm_fzl_extremum)
        return 0;
    fz_term r = c->args[b->lower == ilpm_fzl_extremum ? 0 : 2].t[0];
    __int128 lo, hi;
    return unbounded(d, r) && result_range(d, c, &lo, &hi) &&
           tighten(d, r, lo, hi);
}

/* One pass over the equalities; the number of columns bounded. */
static int bound_pass(mdl *d)
{
    const fzn *z = d->more;
    int found = 0;
    for (int i = 0; i < z->ncons; i++) {
        const fz_con *c = &z->cons[i];
        const fz_builtin *b = c->b;
        if (b->lower == ilpm_fzl_lin && b->op == FZ_EQ && c->nargs == 3 &&
            c->args[0].n == c->args[1].n && c->args[1].n < (1 << 20)) {
            int n = c->args[1].n;
            int64_t *a = malloc((size_t)(n + 1) * sizeof *a);
            fz_term *t = malloc((size_t)(n + 1) * sizeof *t);
            if (a && t) {
                for (int k = 0; k < n; k++) {
                    a[k] = c->args[0].t[k].var ? 0 : c->args[0].t[k].v;
                    t[k] = c->args[1].t[k];
                }
                a[n] = -1;
                t[n] = c->args[2].t[0];
                found += from_sum(d, a, t, n + 1);
            }
            free(a);
            free(t);
        } else if ((b->lower == ilpm_fzl_cmp && b->op == FZ_EQ &&
                    c->nargs == 2) ||
                   b->lower == ilpm_fzl_plus) {
            int64_t a[3] = {1, -1, -1};
            fz_term t[3] = {c->args[0].t[0], c->args[1].t[0], {0, 0}};
            if (b->lower == ilpm_fzl_plus) {
                a[1] = 1; /* x + y - z = 0 */
                t[2] = c->args[2].t[0];
            }
            found += from_sum(d, a, t, 3);
        } else if (b->lower == ilpm_fzl_abs && unbounded(d, c->args[1].t[0]) &&
                   !unbounded(d, c->args[0].t[0])) {
            int64_t l, h;
            ilpm_fz_range(d, c->args[0].t[0], &l, &h);
            __int128 m = -(__int128)l > h ? -(__int128)l : h;
            found += tighten(d, c->args[1].t[0], 0, m);
        } else if (b->lower == ilpm_fzl_times &&
                   unbounded(d, c->args[2].t[0]) &&
                   !unbounded(d, c->args[0].t[0]) &&
                   !unbounded(d, c->args[1].t[0])) {
            int64_t al, ah, bl, bh;
            ilpm_fz_range(d, c->args[0].t[0], &al, &ah);
            ilpm_fz_range(d, c->args[1].t[0], &bl, &bh);
            __int128 p[4] = {(__int128)al * bl, (__int128)al * bh,
                             (__int128)ah * bl, (__int128)ah * bh};
            __int128 lo = p[0], hi = p[0];
            for (int k = 1; k < 4; k++) {
                lo = p[k] < lo ? p[k] : lo;
                hi = p[k] > hi ? p[k] : hi;
            }
            found += tighten(d, c->args[2].t[0], lo, hi);
        } else if ((b->lower == ilpm_fzl_minmax ||
                    b->lower == ilpm_fzl_element) &&
                   unbounded(d, c->args[2].t[0])) {
            /* the result is one of the others: their hull */
            const fz_arg *xs =
                b->lower == ilpm_fzl_element ? &c->args[1] : &c->args[0];
            __int128 lo = FZ_LIMIT, hi = -FZ_LIMIT;
            int ok = 1;
            for (int k = 0; k < (b->lower == ilpm_fzl_element ? xs->n : 2);
                 k++) {
                fz_term t =
                    b->lower == ilpm_fzl_element ? xs->t[k] : c->args[k].t[0];
                int64_t l, h;
                ok &= !unbounded(d, t);
                ilpm_fz_range(d, t, &l, &h);
                lo = l < lo ? l : lo;
                hi = h > hi ? h : hi;
            }
            if (ok)
                found += tighten(d, c->args[2].t[0], lo, hi);
        } else
            found += from_result(d, c);
    }
    return found;
}

static int derive_bounds(mdl *d, ilpm_err *err)
{
    const fzn *z = d->more;
    while (bound_pass(d) > 0)
        ;
    char b[40];
    for (int j = 0; j < d->ncols; j++)
        if (z->flag[j] & FZ_UNBOUNDED)
            return ilpm_err_input(err,
                                  "%s: variable '%s' is a var int with no "
                                  "bounds, and none follow from the "
                                  "constraints: give it a domain (var lo..hi)",
                                  d->file,
                                  ilpm_mdl_col_label(d, j, b, sizeof b));
    return 0;
}

/* The builtins that make value indicators (fzn_values.c), lowered
 * before the others (int_lin_ne of two terms, ...), so that those find
 * them whatever the file's order. */
static int makes_indicators(const fz_con *c)
{
    return c->b->lower == ilpm_fzl_element || c->b->lower == ilpm_fzl_set_in ||
           c->b->lower == ilpm_fzl_alldiff ||
           (c->b->lower == ilpm_fzl_cmp && c->nargs == 3);
}

/* Which pass lowers c: 0 the equalities of two variables (x = y + k,
 * whose x may take y's indicators, fzn_values.c's shift), 1 the
 * builtins that make indicators, 2 the rest. */
static int pass_of(const fz_con *c)
{
    if (c->nargs == 3 && c->b->lower == ilpm_fzl_lin && c->b->op == FZ_EQ &&
        c->args[1].n == 2)
        return 0;
    return makes_indicators(c) ? 1 : 2;
}

/* d->aux: every column outside the answer but the output variables. */
static int mark_answer(mdl *d)
{
    const fzn *z = d->more;
    unsigned char *aux = realloc(d->aux, (size_t)d->ncols + 1);
    if (!aux)
        return -1;
    d->aux = aux;
    memset(d->aux, 1, (size_t)d->ncols + 1);
    for (int i = 0; i < z->nouts; i++)
        for (int k = 0; k < z->outs[i].n; k++)
            if (z->outs[i].t[k].var)
                d->aux[z->outs[i].t[k].v] = 0;
    return 0;
}

/* The integer columns (of three values or more) that have value
 * indicators take them as their variables (mdl.direct): no bits of
 * their own, no rows tying bits to indicators. */
static int direct_columns(mdl *d)
{
    const fzn *z = d->more;
    for (int j = 0; j < z->samecap && j < d->ncols; j++) {
        if (z->same[j] == 0)
            continue;
        if (!d->same &&
            !(d->same = calloc((size_t)d->ncols + 1, sizeof *d->same)))
            return -1;
        int r = z->same[j] - 1;
        while (r < z->samecap && z->same[r] > 0)
            r = z->same[r] - 1;
        d->same[j] = r + 1;
    }
    for (int x = 0; x < z->indcap && x < d->ncols; x++) {
        if (z->ind[x] == 0 || d->hi[x] - d->lo[x] < 2)
            continue;
        if (!d->direct &&
            !(d->direct = calloc((size_t)d->ncols + 1, sizeof *d->direct)))
            return -1;
        d->direct[x] = z->ind[x];
        for (int64_t i = 0; i <= d->hi[x] - d->lo[x]; i++)
            d->direct[z->ind[x] - 1 + i] = -1;
    }
    return 0;
}

int ilpm_fzn_lower(mdl *d, ilpm_err *err)
{
    fzn *z = d->more;
    if (d->ncols > z->flagcap) /* every column has its flag */
        return ilpm_err_fail(err, ILPM_E_FAIL, "flags missing");
    if (derive_bounds(d, err) != 0)
        return -1;
    /* The answer's columns known while lowering (fzn_lower.c's
     * same_col leaves them their own variables). */
    if (z->nouts > 0 && mark_answer(d) != 0)
        return ilpm_err_nomem(err, "%s: out of memory", d->file);
    /* Each builtin's rows in a group of its name (stats and compare show
     * sizes per builtin); a domain with holes in "domain". */
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < z->ncons; i++) {
            if (pass_of(&z->cons[i]) != pass)
                continue;
            if (ilpm_mdl_row_group(d, z->cons[i].domain ? "domain"
                                                        : z->cons[i].b->name))
                return ilpm_err_nomem(err, "%s: out of memory", d->file);
            if (z->cons[i].b->lower(d, &z->cons[i], err) != 0)
                return -1;
        }
    ilpm_mdl_row_group(d, NULL);
    if (direct_columns(d) != 0 || (z->nouts > 0 && mark_answer(d) != 0))
        return ilpm_err_nomem(err, "%s: out of memory", d->file);
    d->sense = z->sense;
    if (z->sense != ILPM_NONE) {
        if (!(d->obj = calloc((size_t)d->ncols + 1, sizeof *d->obj)))
            return ilpm_err_nomem(err, "%s: out of memory", d->file);
        if (z->obj.var)
            d->obj[z->obj.v] = 1;
        else
            d->obj_const = z->obj.v;
    }
    return 0;
}
