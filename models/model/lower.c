/* From a file's rows to an ilpm_model: integer columns made of 0/1
 * variables (--int-encoding), negative coefficients folded into negated
 * literals (a x = a + |a| (1 - x) for a < 0), and each row given the
 * strongest kind the model layer has, each kind a group:
 *   clause  sum >= 1 with a negated literal, or of one literal
 *   alo     sum >= 1 over plain literals
 *   amo     sum <= 1        exo  sum = 1
 *   card    sum cmp k       linear  unequal coefficients
 * A row true whatever the values is left out; one that no values satisfy
 * makes the model the contradiction x and -x (group "infeasible"). */
#include "mdl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The variables of column j, from *nv on. */
static int place(mdl *d, int j, int64_t *nv, ilpm_err *err)
{
    int64_t lo = d->lo[j], hi = d->hi[j], bits;
    char b[32];
    if (lo > hi) {
        if (d->infeasible_col < 0)
            d->infeasible_col = j;
        return 0;
    }
    if (lo == hi)
        return 0; /* a constant */
    if (lo == 0 && hi == 1) {
        bits = 1;
    } else if (d->enc == MDL_ENC_NONE) {
        return ilpm_err_input(err,
                              "%s: column '%s' is an integer in [%lld, "
                              "%lld], not 0/1: give --int-encoding binary "
                              "or unary to make it of 0/1 variables",
                              d->file, ilpm_mdl_col_label(d, j, b, sizeof b),
                              (long long)lo, (long long)hi);
    } else if (d->enc == MDL_ENC_BINARY) {
        uint64_t r = (uint64_t)(hi - lo);
        for (bits = 0; r; r >>= 1)
            bits++;
    } else {
        bits = hi - lo;
        if (bits > (1 << 20))
            return ilpm_err_input(err,
                                  "%s: column '%s' spans %lld values, too "
                                  "many for --int-encoding unary (at most "
                                  "2^20): use binary",
                                  d->file,
                                  ilpm_mdl_col_label(d, j, b, sizeof b),
                                  (long long)bits + 1);
    }
    d->first[j] = (int)*nv + 1;
    d->nbits[j] = (int)bits;
    *nv += bits;
    if (*nv > (1 << 30))
        return ilpm_err_fail(err, ILPM_E_LIMIT, "%s: more than 2^30 variables",
                             d->file);
    return 0;
}

/* Column j and, when it is given by value indicators, those columns,
 * whose variables it takes (mdl.direct). */
static int place_with(mdl *d, int j, int64_t *nv, ilpm_err *err)
{
    int k = d->direct ? d->direct[j] - 1 : -1;
    if (k < 0)
        return place(d, j, nv, err);
    int n = (int)(d->hi[j] - d->lo[j] + 1), v0 = (int)*nv + 1;
    if (d->first[k] > 0) /* placed with another column made of them */
        v0 = d->first[k], n = 0;
    for (int i = 0; i < n; i++)
        if (place(d, k + i, nv, err) != 0)
            return -1;
    d->first[j] = v0;
    d->nbits[j] = (int)(d->hi[j] - d->lo[j] + 1);
    return 0;
}

int ilpm_mdl_layout(mdl *d, mdl_enc enc, ilpm_err *err)
{
    d->enc = enc;
    free(d->first);
    free(d->nbits);
    d->first = calloc((size_t)d->ncols + 1, sizeof *d->first);
    d->nbits = calloc((size_t)d->ncols + 1, sizeof *d->nbits);
    if (!d->first || !d->nbits)
        return ilpm_err_nomem(err, "out of memory");
    int64_t nv = 0;
    d->infeasible_col = -1;
    /* The answer's columns first, then the aux ones: two families. */
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < d->ncols; j++)
            if ((d->aux && d->aux[j]) == pass &&
                !(d->direct && d->direct[j] < 0) &&
                !(d->same && d->same[j] > 0) && place_with(d, j, &nv, err) != 0)
                return -1;
        if (pass == 0)
            d->nmain = (int)nv;
    }
    d->nvars = (int)nv;
    for (int j = 0; d->same && j < d->ncols; j++)
        if (d->same[j] > 0) {
            d->first[j] = d->first[d->same[j] - 1];
            d->nbits[j] = 1;
        }
    return 0;
}

/* Weight of the i-th variable of column j. */
static int64_t weight(const mdl *d, int j, int i)
{
    if (d->direct && d->direct[j] > 0)
        return i;
    return d->enc == MDL_ENC_BINARY ? (int64_t)1 << i : 1;
}

int64_t ilpm_mdl_col_value(const mdl *d, int j, const uint8_t *vals)
{
    int64_t v = d->lo[j];
    for (int i = 0; i < d->nbits[j]; i++)
        if (vals[d->first[j] + i])
            v += d->nbits[j] == 1 ? 1 : weight(d, j, i);
    return v;
}

typedef struct lower {
    const mdl *d;
    ilpm_model *m;
    ilpm_err *err;
    int base;     /* model id of variable 0 of the columns, minus 1 */
    int64_t *acc; /* coefficient of each variable in the row       */
    int *touched; /* variables in the row, each once               */
    uint8_t *in;  /* in touched                                    */
    int ntouched;
    int *lits;
    int64_t *coefs;
    int contradiction;     /* added already */
    const char *where;     /* what is lowered, for messages, or NULL: */
    const mdl_row *row;    /* the row (named only for a message) */
    const char *kind;      /* group of the last constraint added */
    const char *row_group; /* the row's own group (mdl_row.group) */
} lower;

static int oom(lower *w)
{
    return ilpm_err_nomem(w->err, "out of memory");
}

/* What is lowered, for a message: written into buf when it is a row
 * (only then: a name per row took a sixth of a large model's build). */
static const char *where(const lower *w, char *buf, size_t size)
{
    if (w->where || !w->row)
        return w->where ? w->where : "";
    if (w->row->name >= 0)
        snprintf(buf, size, "row '%s'", w->d->row_name[w->row->name]);
    else
        snprintf(buf, size, "line %ld", w->row->line);
    return buf;
}

static int too_large(lower *w)
{
    char buf[160];
    return ilpm_err_input(w->err,
                          "%s: %s: numbers past int64 once its integers are "
                          "made of 0/1 variables",
                          w->d->file, where(w, buf, sizeof buf));
}

/* The group of what comes next: the row's own when it has one, the
 * kind's (name) else; kinds records the kind either way. */
static int group(lower *w, const char *name)
{
    w->kind = name;
    if (w->row_group)
        name = w->row_group;
    return ilpm_model_group(w->m, name, w->err) < 0 ? -1 : 0;
}

static int contradiction(lower *w)
{
    if (w->contradiction)
        return 0;
    w->contradiction = 1;
    int v = w->base + 1;
    int neg = -v;
    /* "infeasible" whatever row found it. */
    const char *own = w->row_group;
    w->row_group = NULL;
    int rc = group(w, "infeasible") != 0 ||
             ilpm_add_clause(w->m, &v, 1, w->err) ||
             ilpm_add_clause(w->m, &neg, 1, w->err);
    w->row_group = own;
    return rc ? -1 : 0;
}

/* Adds a * column j to the row being gathered; the constant part goes to
 * *cst (the row's left side). */
static int gather(lower *w, int j, int64_t a, int64_t *cst)
{
    const mdl *d = w->d;
    int64_t c;
    if (__builtin_mul_overflow(a, d->lo[j], &c) ||
        __builtin_add_overflow(*cst, c, cst))
        return too_large(w);
    for (int i = 0; i < d->nbits[j]; i++) {
        int v = d->first[j] + i;
        if (d->nbits[j] > 1 && __builtin_mul_overflow(a, weight(d, j, i), &c))
            return too_large(w);
        if (d->nbits[j] == 1)
            c = a;
        if (!w->in[v]) {
            w->in[v] = 1;
            w->touched[w->ntouched++] = v;
        }
        if (__builtin_add_overflow(w->acc[v], c, &w->acc[v]))
            return too_large(w);
    }
    return 0;
}

/* The gathered terms as literals with positive coefficients; the
 * constant of each folded negative term moves into *cst. */
static int fold(lower *w, int *n, int64_t *cst)
{
    int k = 0;
    for (int t = 0; t < w->ntouched; t++) {
        int v = w->touched[t];
        int64_t a = w->acc[v];
        w->acc[v] = 0;
        w->in[v] = 0;
        if (a == 0)
            continue;
        if (a > 0) {
            w->lits[k] = w->base + v;
            w->coefs[k++] = a;
        } else {
            if (__builtin_add_overflow(*cst, a, cst) || a == INT64_MIN)
                return too_large(w);
            w->lits[k] = -(w->base + v);
            w->coefs[k++] = -a;
        }
    }
    w->ntouched = 0;
    *n = k;
    return 0;
}

static int units(lower *w, const int *lits, int n, int sign)
{
    if (group(w, "clause") != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        int l = sign * lits[i];
        if (ilpm_add_clause(w->m, &l, 1, w->err) != 0)
            return -1;
    }
    return 0;
}

static int all_equal(const int64_t *c, int n)
{
    for (int i = 1; i < n; i++)
        if (c[i] != c[0])
            return 0;
    return 1;
}

static int linear(lower *w, int n, ilpm_cmp cmp, int64_t b)
{
    return group(w, "linear") ||
           ilpm_add_linear(w->m, w->coefs, w->lits, n, cmp, b, w->err);
}

/* sum c_i l_i >= b, c_i > 0. */
static int at_least(lower *w, int n, int64_t b, int64_t total)
{
    if (b <= 0)
        return 0;
    if (total < b)
        return contradiction(w);
    if (total == b) /* every literal is needed */
        return units(w, w->lits, n, 1);
    for (int i = 0; i < n; i++) /* a literal worth more than b is worth b */
        if (w->coefs[i] > b)
            w->coefs[i] = b;
    if (!all_equal(w->coefs, n))
        return linear(w, n, ILPM_GE, b);
    int64_t k = (b + w->coefs[0] - 1) / w->coefs[0];
    if (k == n)
        return units(w, w->lits, n, 1);
    if (k == 1) {
        int neg = 0;
        for (int i = 0; i < n; i++)
            neg |= w->lits[i] < 0;
        return group(w, neg ? "clause" : "alo") ||
               (neg ? ilpm_add_clause : ilpm_add_alo)(w->m, w->lits, n, w->err);
    }
    return group(w, "card") ||
           ilpm_add_card(w->m, w->lits, n, ILPM_GE, k, w->err);
}

/* sum c_i l_i <= b, c_i > 0. */
static int at_most(lower *w, int n, int64_t b, int64_t total)
{
    if (b < 0)
        return contradiction(w);
    if (total <= b)
        return 0;
    /* A literal worth more than b is false. */
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (w->coefs[i] > b) {
            int l = -w->lits[i];
            if (group(w, "clause") || ilpm_add_clause(w->m, &l, 1, w->err))
                return -1;
            total -= w->coefs[i];
            continue;
        }
        w->lits[kept] = w->lits[i];
        w->coefs[kept++] = w->coefs[i];
    }
    n = kept;
    if (total <= b)
        return 0;
    if (!all_equal(w->coefs, n))
        return linear(w, n, ILPM_LE, b);
    int64_t k = b / w->coefs[0];
    if (k == 0)
        return units(w, w->lits, n, -1);
    if (k == 1)
        return group(w, "amo") || ilpm_add_amo(w->m, w->lits, n, w->err);
    return group(w, "card") ||
           ilpm_add_card(w->m, w->lits, n, ILPM_LE, k, w->err);
}

static int equal(lower *w, int n, int64_t b, int64_t total)
{
    if (b < 0 || b > total)
        return contradiction(w);
    if (n == 0)
        return 0;
    if (b == 0 || b == total)
        return units(w, w->lits, n, b == 0 ? -1 : 1);
    if (!all_equal(w->coefs, n))
        return linear(w, n, ILPM_EQ, b);
    if (b % w->coefs[0] != 0)
        return contradiction(w);
    int64_t k = b / w->coefs[0];
    if (k == 0)
        return units(w, w->lits, n, -1);
    if (k == n)
        return units(w, w->lits, n, 1);
    if (k == 1)
        return group(w, "exo") || ilpm_add_exo(w->m, w->lits, n, w->err);
    return group(w, "card") ||
           ilpm_add_card(w->m, w->lits, n, ILPM_EQ, k, w->err);
}

static int add_row(lower *w, const mdl_row *r)
{
    const mdl *d = w->d;
    int64_t cst = 0;
    for (int t = 0; t < r->n; t++)
        if (gather(w, d->col[r->start + t], d->coef[r->start + t], &cst) != 0)
            return -1;
    int n = 0;
    if (fold(w, &n, &cst) != 0)
        return -1;
    int64_t b, total = 0;
    if (__builtin_sub_overflow(r->rhs, cst, &b))
        return too_large(w);
    for (int i = 0; i < n; i++)
        if (__builtin_add_overflow(total, w->coefs[i], &total))
            return too_large(w);
    switch (r->cmp) {
    case ILPM_GE:
        return at_least(w, n, b, total);
    case ILPM_LE:
        return at_most(w, n, b, total);
    default:
        return equal(w, n, b, total);
    }
}

/* x = lo + sum of the column's variables, weighted: binary needs the
 * sum bounded by hi - lo unless every pattern is a value; unary orders
 * its variables, so that each value has one pattern (counts stay
 * counts of the file's solutions). */
static int encodings(lower *w)
{
    const mdl *d = w->d;
    for (int j = 0; j < d->ncols; j++) {
        int nb = d->nbits[j];
        if (nb <= 1 || (d->direct && d->direct[j] > 0))
            continue; /* exactly one indicator: a row of the file's */
        int64_t r = d->hi[j] - d->lo[j];
        if (d->enc == MDL_ENC_BINARY) {
            if (nb < 63 && r == ((int64_t)1 << nb) - 1)
                continue;
            for (int i = 0; i < nb; i++) {
                w->lits[i] = w->base + d->first[j] + i;
                w->coefs[i] = weight(d, j, i);
            }
            if (group(w, "int_bounds") ||
                ilpm_add_linear(w->m, w->coefs, w->lits, nb, ILPM_LE, r,
                                w->err))
                return -1;
        } else {
            if (group(w, "int_order") != 0)
                return -1;
            for (int i = 1; i < nb; i++)
                if (ilpm_add_impl(w->m, w->base + d->first[j] + i,
                                  w->base + d->first[j] + i - 1, w->err))
                    return -1;
        }
    }
    return 0;
}

static int objective(lower *w)
{
    const mdl *d = w->d;
    if (d->sense == ILPM_NONE)
        return 0;
    w->where = "the objective";
    int64_t cst = 0;
    for (int j = 0; j < d->ncols; j++)
        if (d->obj[j] != 0 && gather(w, j, d->obj[j], &cst) != 0)
            return -1;
    int n = 0;
    for (int t = 0; t < w->ntouched; t++) {
        int v = w->touched[t];
        if (w->acc[v] != 0) {
            w->lits[n] = w->base + v;
            w->coefs[n++] = w->acc[v];
        }
        w->acc[v] = 0;
        w->in[v] = 0;
    }
    w->ntouched = 0;
    if (__builtin_add_overflow(cst, d->obj_const, &cst))
        return too_large(w);
    if (cst != 0) {
        /* The model's objective has no constant: it rides on a variable
         * held true, outside the answer (an aux family). */
        int lo = 1, hi = 1;
        int one =
            ilpm_model_family(w->m, "one", 1, &lo, &hi, ILPM_FAM_AUX, w->err);
        if (one < 0)
            return -1;
        int v = ilpm_model_var(w->m, one, 1, 0, 0, 0);
        if (group(w, "obj_constant") || ilpm_add_clause(w->m, &v, 1, w->err))
            return -1;
        w->lits[n] = v;
        w->coefs[n++] = cst;
    }
    if (n == 0)
        return 0; /* a constant 0: nothing to optimise */
    return ilpm_model_objective(w->m, d->sense, w->coefs, w->lits, n, w->err);
}

/* The columns keep the file's names (an integer column's variables are
 * NAME.0, NAME.1, ...), so that exports and solutions speak of the
 * user's own names. */
static int var_names(const mdl *d, ilpm_model *m, ilpm_err *err)
{
    for (int j = 0; d->col_name && j < d->ncols; j++) {
        char name[300];
        for (int i = 0; i < d->nbits[j]; i++) {
            const char *as = name;
            if (d->nbits[j] == 1 && strlen(d->col_name[j]) < sizeof name)
                as = d->col_name[j]; /* as it is: no copy */
            else if (d->nbits[j] == 1)
                snprintf(name, sizeof name, "%.299s", d->col_name[j]);
            else
                snprintf(name, sizeof name, "%s.%d", d->col_name[j], i);
            if (ilpm_model_set_var_name(m, d->first[j] + i, as, err) != 0)
                return -1;
        }
    }
    return 0;
}

int ilpm_mdl_build(const mdl *d, ilpm_model *m, const char **kinds,
                   ilpm_err *err)
{
    lower w = {.d = d, .m = m, .err = err};
    /* Variables 1..nmain are the answer's ("x"), the rest aux; a model
     * needs a variable for its contradiction, so a file without one gets
     * an aux variable that counts do not see. */
    int lo = 1, hi = d->nmain, naux = d->nvars - d->nmain;
    if (d->nvars == 0)
        naux = 1;
    if (hi > 0 && ilpm_model_family(m, "x", 1, &lo, &hi, 0, err) < 0)
        return -1;
    if (naux > 0 &&
        ilpm_model_family(m, "aux", 1, &lo, &naux, ILPM_FAM_AUX, err) < 0)
        return -1;
    /* Families take ids in order from the first: variable v is id v. */
    w.base = 0;
    if (var_names(d, m, err) != 0)
        return -1;
    size_t nv = (size_t)d->nmain + (size_t)naux + 2;
    w.acc = calloc(nv, sizeof *w.acc);
    w.touched = malloc(nv * sizeof *w.touched);
    w.in = calloc(nv, 1);
    /* The objective may add the constant's variable. */
    w.lits = malloc((nv + 1) * sizeof *w.lits);
    w.coefs = malloc((nv + 1) * sizeof *w.coefs);
    int rc = 0;
    if (!w.acc || !w.touched || !w.in || !w.lits || !w.coefs)
        rc = oom(&w);
    if (rc == 0 && d->infeasible_col >= 0)
        rc = contradiction(&w);
    if (rc == 0)
        rc = encodings(&w);
    char at[160];
    for (int i = 0; i < d->nrows && rc == 0; i++) {
        const mdl_row *r = &d->rows[i];
        w.where = NULL;
        w.row = r;
        w.kind = "none"; /* true whatever the values: left out */
        w.row_group = r->group ? d->groups[r->group - 1] : NULL;
        rc = ilpm_model_set_con_name(
            m, r->name >= 0 ? d->row_name[r->name] : NULL, err);
        if (rc == 0)
            rc = add_row(&w, r);
        if (kinds)
            kinds[i] = w.kind;
        if (rc != 0 && ilpm_rc_outcome(err->rc) == ILPM_ERROR &&
            strncmp(err->msg, d->file, strlen(d->file)) != 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            ilpm_err_fail(err, err->rc, "%s: %s: %s", d->file,
                          where(&w, at, sizeof at), msg);
        }
    }
    w.row_group = NULL;
    if (rc == 0)
        rc = ilpm_model_set_con_name(m, NULL, err);
    if (rc == 0)
        rc = objective(&w);
    free(w.acc);
    free(w.touched);
    free(w.in);
    free(w.lits);
    free(w.coefs);
    return rc ? -1 : 0;
}
