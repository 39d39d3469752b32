/* What a FlatZinc solution means: each builtin evaluated on the
 * variables' values as the FlatZinc specification defines it (never
 * through the rows it was lowered into), the domains, and the objective;
 * and the solution printed in FlatZinc's output format. */
#include "fzn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t val(fz_term t, const int64_t *x)
{
    return t.var ? x[t.v] : t.v;
}

static int rel(int op, __int128 a, __int128 b)
{
    if (op & FZ_STRICT)
        return a < b;
    switch (op) {
    case FZ_LE:
        return a <= b;
    case FZ_GE:
        return a >= b;
    case FZ_EQ:
        return a == b;
    default:
        return a != b;
    }
}

/* A reified builtin holds when its last argument equals the relation. */
static int reified(const fz_con *c, int nplain, int truth, const int64_t *x)
{
    if (c->nargs == nplain)
        return truth;
    return val(c->args[nplain].t[0], x) == truth;
}

int ilpm_fzh_lin(const fz_con *c, const int64_t *x)
{
    __int128 s = 0;
    for (int i = 0; i < c->args[1].n; i++)
        s += (__int128)val(c->args[0].t[i], x) * val(c->args[1].t[i], x);
    return reified(c, 3, rel(c->b->op, s, val(c->args[2].t[0], x)), x);
}

int ilpm_fzh_cmp(const fz_con *c, const int64_t *x)
{
    return reified(
        c, 2, rel(c->b->op, val(c->args[0].t[0], x), val(c->args[1].t[0], x)),
        x);
}

int ilpm_fzh_not(const fz_con *c, const int64_t *x)
{
    return val(c->args[0].t[0], x) != val(c->args[1].t[0], x);
}

int ilpm_fzh_andor(const fz_con *c, const int64_t *x)
{
    int any = 0, all = 1;
    for (int a = 0; a < c->nargs - 1; a++)
        for (int i = 0; i < c->args[a].n; i++) {
            int v = val(c->args[a].t[i], x) != 0;
            any |= v;
            all &= v;
        }
    return val(c->args[c->nargs - 1].t[0], x) == (c->b->op ? any : all);
}

int ilpm_fzh_clause(const fz_con *c, const int64_t *x)
{
    int any = 0;
    for (int i = 0; i < c->args[0].n; i++)
        any |= val(c->args[0].t[i], x) != 0;
    for (int i = 0; i < c->args[1].n; i++)
        any |= val(c->args[1].t[i], x) == 0;
    return reified(c, 2, any, x);
}

int ilpm_fzh_xor(const fz_con *c, const int64_t *x)
{
    int odd = 0;
    for (int i = 0; i < c->args[0].n; i++)
        odd ^= val(c->args[0].t[i], x) != 0;
    return odd;
}

/* ilpm_all_different_int(xs): the values differ two by two. */
int ilpm_fzh_alldiff(const fz_con *c, const int64_t *x)
{
    const fz_arg *a = &c->args[0];
    for (int i = 0; i < a->n; i++)
        for (int j = i + 1; j < a->n; j++)
            if (val(a->t[i], x) == val(a->t[j], x))
                return 0;
    return 1;
}

int ilpm_fzh_plus(const fz_con *c, const int64_t *x)
{
    return (__int128)val(c->args[0].t[0], x) + val(c->args[1].t[0], x) ==
           val(c->args[2].t[0], x);
}

int ilpm_fzh_abs(const fz_con *c, const int64_t *x)
{
    __int128 a = val(c->args[0].t[0], x);
    return (a < 0 ? -a : a) == val(c->args[1].t[0], x);
}

int ilpm_fzh_minmax(const fz_con *c, const int64_t *x)
{
    int64_t a = val(c->args[0].t[0], x), b = val(c->args[1].t[0], x);
    int64_t m = c->b->op ? (a > b ? a : b) : (a < b ? a : b);
    return m == val(c->args[2].t[0], x);
}

int ilpm_fzh_times(const fz_con *c, const int64_t *x)
{
    return (__int128)val(c->args[0].t[0], x) * val(c->args[1].t[0], x) ==
           val(c->args[2].t[0], x);
}

int ilpm_fz_pow(int64_t x, int64_t y, int64_t *z)
{
    if (y < 0) { /* 1 div x^-y */
        *z = x == 1 ? 1 : x == -1 ? (y % 2 ? -1 : 1) : 0;
        return x != 0;
    }
    __int128 p = 1;
    for (int64_t i = 0; i < y && p != 0; i++) {
        if (x == 1 || x == -1) { /* no loop of y steps for these */
            p = x == 1 || y % 2 == 0 ? 1 : -1;
            break;
        }
        p *= x;
        if (p > ((__int128)1 << 60) || p < -((__int128)1 << 60))
            return 0;
    }
    *z = (int64_t)p;
    return 1;
}

/* int_div(a, b, q) and int_mod(a, b, m) (op 1): the quotient truncated
 * toward zero, the remainder of the dividend's sign; none for b = 0. */
int ilpm_fzh_divmod(const fz_con *c, const int64_t *x)
{
    __int128 a = val(c->args[0].t[0], x), b = val(c->args[1].t[0], x);
    if (b == 0)
        return 0;
    return (c->b->op ? a % b : a / b) == val(c->args[2].t[0], x);
}

/* int_pow(x, y, z): z = x^y; for y < 0, 1 div x^-y (none for x = 0). */
int ilpm_fzh_pow(const fz_con *c, const int64_t *x)
{
    int64_t z;
    return ilpm_fz_pow(val(c->args[0].t[0], x), val(c->args[1].t[0], x), &z) &&
           z == val(c->args[2].t[0], x);
}

/* array_int_maximum(m, xs) (op 1) and array_int_minimum(m, xs): none for
 * an empty xs. */
int ilpm_fzh_extremum(const fz_con *c, const int64_t *x)
{
    const fz_arg *xs = &c->args[1];
    if (xs->n == 0)
        return 0;
    int64_t m = val(xs->t[0], x);
    for (int i = 1; i < xs->n; i++) {
        int64_t v = val(xs->t[i], x);
        if (c->b->op ? v > m : v < m)
            m = v;
    }
    return m == val(c->args[0].t[0], x);
}

int ilpm_fzh_element(const fz_con *c, const int64_t *x)
{
    int64_t i = val(c->args[0].t[0], x);
    return i >= 1 && i <= c->args[1].n &&
           val(c->args[1].t[i - 1], x) == val(c->args[2].t[0], x);
}

static int in_set(const fz_arg *s, int64_t v)
{
    if (!s->elems)
        return v >= s->lo && v <= s->hi;
    int lo = 0, hi = s->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (s->elems[mid] == v)
            return 1;
        if (s->elems[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

int ilpm_fzh_set_in(const fz_con *c, const int64_t *x)
{
    return reified(c, 2, in_set(&c->args[1], val(c->args[0].t[0], x)), x);
}

/* ilpm_regular(x, Q, S, d, q0, F): the automaton, run on x's values,
 * ends in F (d[q, v] at d[(q-1)*S + v-1], 0: no transition). */
int ilpm_fzh_regular(const fz_con *c, const int64_t *x)
{
    const fz_arg *xs = &c->args[0], *tr = &c->args[3];
    int64_t nq = val(c->args[1].t[0], x), ns = val(c->args[2].t[0], x);
    int64_t q = val(c->args[4].t[0], x);
    for (int i = 0; i < xs->n; i++) {
        int64_t v = val(xs->t[i], x);
        if (q < 1 || q > nq || v < 1 || v > ns || (q - 1) * ns + v > tr->n)
            return 0;
        q = val(tr->t[(q - 1) * ns + (v - 1)], x);
    }
    return q >= 1 && q <= nq && in_set(&c->args[5], q);
}

int ilpm_fzn_check(const mdl *d, const int64_t *x, int has_obj, int64_t obj,
                   ilpm_err *why)
{
    const fzn *z = d->more;
    char b[40];
    for (int j = 0; j < z->ncols_read; j++)
        if (x[j] < d->lo[j] || x[j] > d->hi[j])
            return ilpm_err_input(why,
                                  "variable '%s' = %lld is outside its "
                                  "domain %lld..%lld",
                                  ilpm_mdl_col_label(d, j, b, sizeof b),
                                  (long long)x[j], (long long)d->lo[j],
                                  (long long)d->hi[j]);
    for (int i = 0; i < z->ncons; i++) {
        const fz_con *c = &z->cons[i];
        if (!c->b->holds(c, x))
            return ilpm_err_input(why, "line %ld: constraint %s is broken",
                                  c->line, c->b->name);
    }
    if (has_obj && z->sense != ILPM_NONE && val(z->obj, x) != obj)
        return ilpm_err_input(why,
                              "the objective is %lld by the file, %lld by "
                              "the model",
                              (long long)val(z->obj, x), (long long)obj);
    return 0;
}

static void value(ilpm_buf *out, int isbool, int64_t v)
{
    if (isbool)
        ilpm_buf_puts(out, v ? "true" : "false");
    else
        ilpm_buf_printf(out, "%lld", (long long)v);
}

void ilpm_fzn_render(const mdl *d, const int64_t *x, ilpm_buf *out)
{
    const fzn *z = d->more;
    for (int i = 0; i < z->nouts; i++) {
        const fz_out *o = &z->outs[i];
        ilpm_buf_printf(out, "%s = ", o->name);
        if (o->dims == 0) {
            value(out, o->isbool, val(o->t[0], x));
            ilpm_buf_puts(out, ";\n");
            continue;
        }
        ilpm_buf_printf(out, "array%dd(", o->dims);
        for (int k = 0; k < o->dims; k++)
            ilpm_buf_printf(out, "%lld..%lld, ", (long long)o->lo[k],
                            (long long)o->hi[k]);
        ilpm_buf_putc(out, '[');
        for (int k = 0; k < o->n; k++) {
            if (k)
                ilpm_buf_puts(out, ", ");
            value(out, o->isbool, val(o->t[k], x));
        }
        ilpm_buf_puts(out, "]);\n");
    }
}

void ilpm_fzn_render_json(const mdl *d, const int64_t *x, ilpm_buf *out)
{
    const fzn *z = d->more;
    ilpm_buf_putc(out, '{');
    for (int i = 0; i < z->nouts; i++) {
        const fz_out *o = &z->outs[i];
        if (i)
            ilpm_buf_putc(out, ',');
        ilpm_buf_json_str(out, o->name);
        ilpm_buf_putc(out, ':');
        if (o->dims)
            ilpm_buf_putc(out, '[');
        for (int k = 0; k < o->n; k++) {
            if (k)
                ilpm_buf_putc(out, ',');
            value(out, o->isbool, val(o->t[k], x));
        }
        if (o->dims)
            ilpm_buf_putc(out, ']');
    }
    ilpm_buf_putc(out, '}');
}
