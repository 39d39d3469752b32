/* The linear rows of a constraint: the one lowering that the GLPK problem
 * and the OPB file share, so that a solve and an export cannot disagree
 * on what a constraint means.  Each kind is a sum of literals against a
 * bound, a conditional cardinality is two big-M rows; a negative literal
 * folds (1 - x) into the bound and a column met twice is merged, since
 * GLPK aborts on a repeated index. */
#include "backend.h"

#include <stdlib.h>
#include <string.h>

int ilpm_rows_init(ilpm_rows *r, int nvars)
{
    size_t nv1 = (size_t)nvars + 1;
    r->nvars = nvars;
    r->n = 0;
    r->cst = 0;
    r->acc = calloc(nv1, sizeof *r->acc);
    r->inrow = calloc(nv1, sizeof *r->inrow);
    r->vars = malloc(nv1 * sizeof *r->vars);
    r->coefs = malloc(nv1 * sizeof *r->coefs);
    if (!r->acc || !r->inrow || !r->vars || !r->coefs) {
        ilpm_rows_release(r);
        return -1;
    }
    return 0;
}

void ilpm_rows_release(ilpm_rows *r)
{
    if (!r)
        return;
    free(r->acc);
    free(r->inrow);
    free(r->vars);
    free(r->coefs);
    memset(r, 0, sizeof *r); /* released twice is harmless */
}

static void begin(ilpm_rows *r)
{
    r->n = 0;
    r->cst = 0;
}

/* Adds a * lit; a * (1 - x) goes in as a - a * x. */
static void term(ilpm_rows *r, int64_t a, int lit)
{
    if (a == 0)
        return;
    int v = lit < 0 ? -lit : lit;
    if (lit < 0) {
        r->cst += a;
        a = -a;
    }
    if (!r->inrow[v]) {
        r->inrow[v] = 1;
        r->vars[r->n++] = v;
    }
    r->acc[v] += a;
}

/* The merged terms, in the order their variables first came, into out;
 * the accumulator is zero again after. */
static void collect(ilpm_rows *r, ilpm_row *out)
{
    int len = 0;
    for (int i = 0; i < r->n; i++) {
        int v = r->vars[i];
        if (r->acc[v] != 0) {
            r->vars[len] = v; /* len <= i: compacts in place */
            r->coefs[len++] = r->acc[v];
        }
        r->acc[v] = 0;
        r->inrow[v] = 0;
    }
    r->n = 0;
    out->len = len;
    out->vars = r->vars;
    out->coefs = r->coefs;
}

/* Ends the row sum(terms) cmp rhs: 0 when no term is left and the
 * constant row holds, else 1. */
static int end(ilpm_rows *r, ilpm_cmp cmp, int64_t rhs, ilpm_row *out)
{
    collect(r, out);
    out->cmp = cmp;
    out->rhs = rhs - r->cst;
    if (out->len > 0)
        return 1;
    int holds = cmp == ILPM_LE   ? 0 <= out->rhs
                : cmp == ILPM_GE ? 0 >= out->rhs
                                 : out->rhs == 0;
    return !holds;
}

/* The sum of c's literals, plus big * cond (big = 0: none), cmp rhs. */
static int sum_row(ilpm_rows *r, const ilpm_con *c, int64_t big, int cond,
                   ilpm_cmp cmp, int64_t rhs, ilpm_row *out)
{
    begin(r);
    for (int i = 0; i < c->n; i++)
        term(r, 1, c->lits[i]);
    term(r, big, cond);
    return end(r, cmp, rhs, out);
}

/* cond -> (S cmp k), S the sum of n literals, 0 <= S <= n, has a row
 * for each side that some S can break (k > 0 for >=, k < n for <=). */
static int ccard_ge(const ilpm_con *c)
{
    return (c->cmp == ILPM_GE || c->cmp == ILPM_EQ) && c->rhs > 0;
}

static int ccard_le(const ilpm_con *c)
{
    return (c->cmp == ILPM_LE || c->cmp == ILPM_EQ) && c->rhs < c->n;
}

/* Side k of cond -> (S cmp k) by big-M, with the smallest M that leaves
 * the row free when cond is false:
 *   S >= k:  S - M*cond >= 0      with M = k, or n + 1 when k > n
 *   S <= k:  S + M*cond <= n      with M = n - k, or n + 1 when k < 0
 * so an impossible side (k > n, resp. k < 0) forces cond false. */
static int ccard_row(ilpm_rows *r, const ilpm_con *c, int k, ilpm_row *out)
{
    int64_t n = c->n, b = c->rhs;
    if (k == 0 && ccard_ge(c))
        return sum_row(r, c, -(b > n ? n + 1 : b), c->cond, ILPM_GE, 0, out);
    return sum_row(r, c, n - (b < 0 ? -1 : b), c->cond, ILPM_LE, n, out);
}

/* How many rows c lowers to: 1, or for a conditional cardinality one
 * per side that can fail (0 to 2). */
static int nrows(const ilpm_con *c)
{
    if ((unsigned)c->kind >= ILPM_KIND_COUNT)
        return 0;
    return c->kind == ILPM_CCARD ? ccard_ge(c) + ccard_le(c) : 1;
}

/* Row k (0 <= k < nrows(c)) of c into *out.  Returns 1, or 0 when the
 * row reduces to a constant that holds (nothing to add); a row with len
 * 0 and 1 returned is a constant that fails. */
static int con_row(ilpm_rows *r, const ilpm_con *c, int k, ilpm_row *out)
{
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        return sum_row(r, c, 0, 0, ILPM_GE, 1, out);
    case ILPM_AMO:
        return sum_row(r, c, 0, 0, ILPM_LE, 1, out);
    case ILPM_EXO:
        return sum_row(r, c, 0, 0, ILPM_EQ, 1, out);
    case ILPM_IMPL: /* the clause (-a, b) */
        begin(r);
        term(r, 1, -c->lits[0]);
        term(r, 1, c->lits[1]);
        return end(r, ILPM_GE, 1, out);
    case ILPM_CARD:
        return sum_row(r, c, 0, 0, c->cmp, c->rhs, out);
    case ILPM_CCARD:
        return ccard_row(r, c, k, out);
    case ILPM_LINEAR:
        begin(r);
        for (int i = 0; i < c->n; i++)
            term(r, c->coefs[i], c->lits[i]);
        return end(r, c->cmp, c->rhs, out);
    default:
        return 0;
    }
}

int ilpm_rows_con(ilpm_rows *r, const ilpm_con *c, ilpm_row_fn fn, void *ctx)
{
    ilpm_row row;
    for (int k = 0; k < nrows(c); k++) {
        row.name = c->name;
        int rc = con_row(r, c, k, &row) ? fn(ctx, &row, c->group) : 0;
        if (rc != 0)
            return rc;
    }
    return 0;
}

int ilpm_rows_model(ilpm_rows *r, const ilpm_model *m, ilpm_row_fn fn,
                    void *ctx)
{
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        int rc = 0;
        if (!(ilpm_model_group_redundant(m, c.group) & ILPM_LOWER_ROWS))
            rc = ilpm_rows_con(r, &c, fn, ctx);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int64_t ilpm_rows_sum(ilpm_rows *r, const int64_t *coefs, const int *lits,
                      int n, int64_t sign, ilpm_row *out)
{
    begin(r);
    for (int i = 0; i < n; i++)
        term(r, sign * coefs[i], lits[i]);
    collect(r, out);
    out->cmp = ILPM_EQ;
    out->rhs = 0;
    out->name = NULL;
    return r->cst;
}
