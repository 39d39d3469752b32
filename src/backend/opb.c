/* OPB export: the linear pseudo-Boolean format of the PB competitions.
 * Variables are x1..xN (the model's ids) with a "* NAME = xV" dictionary;
 * each constraint becomes one or two lines "+a xI -b xJ >= c ;" (or "="):
 * the rows of the GLPK lowering, from the same code (rows.c). */
#include "backend.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

struct opb {
    FILE *f;      /* NULL on the counting pass */
    int64_t rows; /* constraint lines (to be) written */
    int io_error;
    volatile int *stop; /* Ctrl-C's flag, or NULL: ends the writing */
    ilpm_rows r;
};

static void put(struct opb *w, int rc)
{
    if (rc < 0)
        w->io_error = 1;
}

/* One line for the row; OPB has >= and =, so a <= row goes negated. */
static int put_row(void *ctx, const ilpm_row *row, int group)
{
    struct opb *w = ctx;
    (void)group;
    if (w->stop && *w->stop)
        return 1;
    w->rows++;
    if (!w->f)
        return 0;
    if (row->len == 0) {
        /* A false constant.  The format wants a term, and x1 >= 2 is as
         * false as 0 >= 1 (a constraint has literals: x1 exists). */
        put(w, fputs("+1 x1 >= 2 ;\n", w->f));
        return 0;
    }
    int64_t sign = row->cmp == ILPM_LE ? -1 : 1;
    for (int i = 0; i < row->len; i++)
        put(w, fprintf(w->f, "%+" PRId64 " x%d ", sign * row->coefs[i],
                       row->vars[i]));
    put(w, fprintf(w->f, "%s %" PRId64 " ;\n",
                   row->cmp == ILPM_EQ ? "=" : ">=", sign * row->rhs));
    return 0;
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
    ilpm_row row;
    /* the model's constant, unnegated */
    int64_t cst = sign * ilpm_rows_sum(&w->r, coefs, lits, n, sign, &row);
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
    if (row.len == 0) {
        put(w, fprintf(w->f, "* the objective is the constant %" PRId64 "\n",
                       cst));
    } else {
        put(w, fputs("min:", w->f));
        for (int i = 0; i < row.len; i++)
            put(w,
                fprintf(w->f, " %+" PRId64 " x%d", row.coefs[i], row.vars[i]));
        put(w, fputs(" ;\n", w->f));
    }
}

int ilpm_opb_write(const ilpm_model *m, FILE *f, ilpm_err *err)
{
    return ilpm_opb_write_until(m, f, NULL, err);
}

int ilpm_opb_write_until(const ilpm_model *m, FILE *f, volatile int *stop,
                         ilpm_err *err)
{
    int nv = ilpm_model_nvars(m);
    struct opb w;
    memset(&w, 0, sizeof w);
    w.stop = stop;
    if (ilpm_rows_init(&w.r, nv) != 0)
        return ilpm_err_nomem(err, "out of memory writing OPB for %d variables",
                              nv);
    /* The header announces the number of lines: count them first. */
    ilpm_rows_model(&w.r, m, put_row, &w);
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
    ilpm_rows_model(&w.r, m, put_row, &w);
    if (fflush(f) != 0 || ferror(f))
        w.io_error = 1;
    int rc = 0;
    if (stop && *stop)
        rc =
            ilpm_err_fail(err, ILPM_E_INTERRUPTED, "stopped while writing OPB");
    else if (w.io_error)
        rc = ilpm_err_input(err, "cannot write OPB: %s",
                            errno ? strerror(errno) : "output error");
    ilpm_rows_release(&w.r);
    return rc;
}
