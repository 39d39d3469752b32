/* OPB export: the linear pseudo-Boolean format of the PB competitions.
 * Variables are x1..xN (the model's ids) with a "* NAME = xV" dictionary;
 * each constraint becomes one or two lines "+a xI -b xJ >= c ;" (or "="),
 * the same rows as the GLPK lowering: negative literals folded into the
 * right-hand side, CCARD by big-M.  The standard has only >= and =, so a
 * <= row is written negated. */
#include "backend.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct opb {
    FILE *f;      /* NULL on the counting pass */
    int64_t rows; /* constraint lines (to be) written */
    int io_error;
    /* Dense accumulator over the variables, zero between rows. */
    int64_t *acc;
    uint8_t *inrow;
    int *touched;
    int ntouched;
    int64_t cst;
};

static void row_begin(struct opb *w)
{
    w->ntouched = 0;
    w->cst = 0;
}

/* a * (1 - x) goes in as a - a * x. */
static void row_term(struct opb *w, int64_t a, int lit)
{
    if (a == 0)
        return;
    int v = lit < 0 ? -lit : lit;
    if (lit < 0) {
        w->cst += a;
        a = -a;
    }
    if (!w->inrow[v]) {
        w->inrow[v] = 1;
        w->touched[w->ntouched++] = v;
    }
    w->acc[v] += a;
}

static void put(struct opb *w, int rc)
{
    if (rc < 0)
        w->io_error = 1;
}

static void row_clear(struct opb *w)
{
    for (int i = 0; i < w->ntouched; i++) {
        w->acc[w->touched[i]] = 0;
        w->inrow[w->touched[i]] = 0;
    }
    w->ntouched = 0;
}

/* Ends the row sum(terms) cmp rhs. */
static void row_end(struct opb *w, ilpm_cmp cmp, int64_t rhs)
{
    int64_t sign = cmp == ILPM_LE ? -1 : 1;
    int len = 0;
    for (int i = 0; i < w->ntouched; i++)
        len += w->acc[w->touched[i]] != 0;
    rhs -= w->cst;
    if (len == 0) {
        int holds = cmp == ILPM_LE   ? 0 <= rhs
                    : cmp == ILPM_GE ? 0 >= rhs
                                     : rhs == 0;
        if (!holds) {
            /* A false constant.  The format wants a term, and x1 >= 2 is
             * as false as 0 >= 1 (a constraint has literals: x1 exists). */
            w->rows++;
            if (w->f)
                put(w, fputs("+1 x1 >= 2 ;\n", w->f));
        }
        row_clear(w);
        return;
    }
    w->rows++;
    if (w->f) {
        for (int i = 0; i < w->ntouched; i++) {
            int64_t a = sign * w->acc[w->touched[i]];
            if (a != 0)
                put(w, fprintf(w->f, "%+" PRId64 " x%d ", a, w->touched[i]));
        }
        put(w, fprintf(w->f, "%s %" PRId64 " ;\n",
                       cmp == ILPM_EQ ? "=" : ">=", sign * rhs));
    }
    row_clear(w);
}

static void sum_row(struct opb *w, const ilpm_con *c, ilpm_cmp cmp, int64_t rhs)
{
    row_begin(w);
    for (int i = 0; i < c->n; i++)
        row_term(w, 1, c->lits[i]);
    row_end(w, cmp, rhs);
}

/* cond -> (S cmp k), the big-M rows of the GLPK lowering (see glpk.c). */
static void ccard_rows(struct opb *w, const ilpm_con *c)
{
    int64_t n = c->n, k = c->rhs;
    if ((c->cmp == ILPM_GE || c->cmp == ILPM_EQ) && k > 0) {
        row_begin(w);
        for (int i = 0; i < c->n; i++)
            row_term(w, 1, c->lits[i]);
        row_term(w, -(k > n ? n + 1 : k), c->cond);
        row_end(w, ILPM_GE, 0);
    }
    if ((c->cmp == ILPM_LE || c->cmp == ILPM_EQ) && k < n) {
        row_begin(w);
        for (int i = 0; i < c->n; i++)
            row_term(w, 1, c->lits[i]);
        row_term(w, n - (k < 0 ? -1 : k), c->cond);
        row_end(w, ILPM_LE, n);
    }
}

static void con_rows(struct opb *w, const ilpm_con *c)
{
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        sum_row(w, c, ILPM_GE, 1);
        break;
    case ILPM_AMO:
        sum_row(w, c, ILPM_LE, 1);
        break;
    case ILPM_EXO:
        sum_row(w, c, ILPM_EQ, 1);
        break;
    case ILPM_IMPL:
        row_begin(w);
        row_term(w, 1, -c->lits[0]);
        row_term(w, 1, c->lits[1]);
        row_end(w, ILPM_GE, 1);
        break;
    case ILPM_CARD:
        sum_row(w, c, c->cmp, c->rhs);
        break;
    case ILPM_CCARD:
        ccard_rows(w, c);
        break;
    case ILPM_LINEAR:
        row_begin(w);
        for (int i = 0; i < c->n; i++)
            row_term(w, c->coefs[i], c->lits[i]);
        row_end(w, c->cmp, c->rhs);
        break;
    default:
        break;
    }
}

static void all_rows(struct opb *w, const ilpm_model *m)
{
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (!ilpm_model_group_redundant(m, c.group))
            con_rows(w, &c);
    }
}

/* "min:" line and the comments that say how it relates to the model's
 * objective (OPB has neither maximisation nor a constant term). */
static void objective(struct opb *w, const ilpm_model *m)
{
    int n;
    const int *lits;
    const int64_t *coefs;
    ilpm_sense sense = ilpm_model_objective_get(m, &n, &lits, &coefs);
    if (sense != ILPM_MINIMIZE && sense != ILPM_MAXIMIZE)
        return;
    int64_t sign = sense == ILPM_MAXIMIZE ? -1 : 1;
    row_begin(w);
    for (int i = 0; i < n; i++)
        row_term(w, sign * coefs[i], lits[i]);
    int64_t cst = sign * w->cst; /* the model's constant, unnegated */
    int len = 0;
    for (int i = 0; i < w->ntouched; i++)
        len += w->acc[w->touched[i]] != 0;
    if (sense == ILPM_MAXIMIZE)
        put(w, fprintf(w->f,
                       "* objective: maximise; min: below is its "
                       "negation, objective = %" PRId64 " - (min: value)\n",
                       cst));
    else if (cst != 0)
        put(w, fprintf(w->f,
                       "* objective: minimise; objective = (min: value) "
                       "%+" PRId64 "\n",
                       cst));
    if (len == 0) {
        put(w, fprintf(w->f, "* the objective is the constant %" PRId64 "\n",
                       cst));
    } else {
        put(w, fputs("min:", w->f));
        for (int i = 0; i < w->ntouched; i++) {
            int64_t a = w->acc[w->touched[i]];
            if (a != 0)
                put(w, fprintf(w->f, " %+" PRId64 " x%d", a, w->touched[i]));
        }
        put(w, fputs(" ;\n", w->f));
    }
    row_clear(w);
}

int ilpm_opb_write(const ilpm_model *m, FILE *f, ilpm_err *err)
{
    int nv = ilpm_model_nvars(m);
    struct opb w;
    memset(&w, 0, sizeof w);
    size_t nv1 = (size_t)nv + 1;
    w.acc = calloc(nv1, sizeof *w.acc);
    w.inrow = calloc(nv1, sizeof *w.inrow);
    w.touched = malloc(nv1 * sizeof *w.touched);
    int rc = 0;
    if (!w.acc || !w.inrow || !w.touched) {
        rc =
            ilpm_err_set(err, "out of memory writing OPB for %d variables", nv);
        goto done;
    }
    /* The header announces the number of lines: count them first. */
    all_rows(&w, m);
    w.f = f;
    errno = 0;
    put(&w,
        fprintf(f, "* #variable= %d #constraint= %" PRId64 "\n", nv, w.rows));
    char name[256];
    for (int v = 1; v <= nv; v++)
        put(&w, fprintf(f, "* %s = x%d\n",
                        ilpm_model_var_name(m, v, name, sizeof name), v));
    objective(&w, m);
    w.rows = 0;
    all_rows(&w, m);
    if (fflush(f) != 0 || ferror(f))
        w.io_error = 1;
    if (w.io_error)
        rc = ilpm_err_set(err, "cannot write OPB: %s",
                          errno ? strerror(errno) : "output error");
done:
    free(w.acc);
    free(w.inrow);
    free(w.touched);
    return rc;
}
