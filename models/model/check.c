/* The `model` puzzle's verifier: the file is read again and each of its
 * rows, bounds and its objective evaluated on the solution's column
 * values, as written (no folding, no kinds, no encoding).  LP and MPS
 * rows are checked in GLPK's own doubles (exact here: integer values,
 * sums below 2^53), OPB and DIMACS rows in 128-bit integers. */
#include "fzn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int outside(double s, int has_lo, double lo, int has_hi, double hi)
{
    return (has_lo && s < lo - 1e-6 * (1 + fabs(lo))) ||
           (has_hi && s > hi + 1e-6 * (1 + fabs(hi)));
}

static int check_lp(const ilpm_lp *lp, const mdl *d, const int64_t *x,
                    int has_obj, int64_t obj, ilpm_err *why)
{
    int rc = 0;
    if (lp->ncols != d->ncols)
        rc = ilpm_err_input(why, "the file now has %d columns, not %d",
                            lp->ncols, d->ncols);
    for (int j = 0; j < lp->ncols && rc == 0; j++)
        if (!lp->col_int[j] ||
            outside((double)x[j], lp->col_has_lo[j], lp->col_lo[j],
                    lp->col_has_hi[j], lp->col_hi[j]))
            rc = ilpm_err_input(why, "column '%s' = %lld is outside its bounds",
                                lp->col_name[j], (long long)x[j]);
    for (int i = 0; i < lp->nrows && rc == 0; i++) {
        double s = 0;
        for (size_t t = lp->row_start[i]; t < lp->row_start[i + 1]; t++)
            s += lp->val[t] * (double)x[lp->ind[t]];
        if (outside(s, lp->row_has_lo[i], lp->row_lo[i], lp->row_has_hi[i],
                    lp->row_hi[i]))
            rc = ilpm_err_input(why, "row '%s' is broken: its sum is %.17g",
                                lp->row_name[i], s);
    }
    if (rc == 0 && has_obj) {
        double s = lp->obj_const;
        for (int j = 0; j < lp->ncols; j++)
            s += lp->obj[j] * (double)x[j];
        if (d->negated) /* the file minimises the negation (its note) */
            s = -s;
        s *= (double)d->obj_scale; /* the model's objective is scaled */
        if (fabs(s - (double)obj) > 1e-6 * (1 + fabs(s)))
            rc = ilpm_err_input(why,
                                "the objective is %.17g by the file, %lld by "
                                "the model",
                                s, (long long)obj);
    }
    return rc;
}

static int check_rows(const mdl *e, const int64_t *x, int has_obj, int64_t obj,
                      ilpm_err *why)
{
    char b[32];
    for (int j = 0; j < e->ncols; j++)
        if (x[j] < e->lo[j] || x[j] > e->hi[j])
            return ilpm_err_input(why, "variable %s = %lld is not 0 or 1",
                                  ilpm_mdl_col_label(e, j, b, sizeof b),
                                  (long long)x[j]);
    for (int i = 0; i < e->nrows; i++) {
        const mdl_row *r = &e->rows[i];
        __int128 s = 0;
        for (int t = 0; t < r->n; t++)
            s += (__int128)e->coef[r->start + t] * x[e->col[r->start + t]];
        int ok = r->cmp == ILPM_GE   ? s >= r->rhs
                 : r->cmp == ILPM_LE ? s <= r->rhs
                                     : s == r->rhs;
        if (!ok)
            return ilpm_err_input(why, "the constraint of line %ld is broken",
                                  r->line);
    }
    if (has_obj && e->sense != ILPM_NONE) {
        __int128 s = e->obj_const;
        for (int j = 0; j < e->ncols; j++)
            s += (__int128)e->obj[j] * x[j];
        if (s != obj)
            return ilpm_err_input(why,
                                  "the objective is %lld by the file, %lld by "
                                  "the model",
                                  (long long)s, (long long)obj);
    }
    return 0;
}

int ilpm_mdl_check(const mdl *d, mdl_again *again, const int64_t *x,
                   int has_obj, int64_t obj, ilpm_err *why)
{
    /* FlatZinc: the constraints as the file states them, each evaluated
     * by its own meaning (fzn_eval.c), never through the rows. */
    if (d->fmt == MDL_FZN)
        return ilpm_fzn_check(d, x, has_obj, obj, why);
    /* Read once, then kept for the next solutions of a count. */
    if (d->fmt == MDL_GMPL) {
        /* The rows GLPK generated, kept as they came (gmpl.c). */
        if (!again->lp)
            return ilpm_err_fail(why, ILPM_E_FAIL,
                                 "%s: the generated rows are gone", d->file);
        return check_lp(again->lp, d, x, has_obj, obj, why);
    }
    if (d->fmt == MDL_LP || d->fmt == MDL_MPS) {
        if (!again->lp &&
            ilpm_lp_read(d->path, d->file,
                         d->fmt == MDL_LP ? ILPM_FMT_LP : ILPM_FMT_MPS,
                         &again->lp, why) != 0)
            return -1;
        return check_lp(again->lp, d, x, has_obj, obj, why);
    }
    if (!again->rows &&
        !(again->rows = ilpm_mdl_read(d->fmt, d->path, d->file, d->text,
                                      d->textlen, why)))
        return -1;
    const mdl *e = again->rows;
    return e->ncols != d->ncols
               ? ilpm_err_input(why, "the file now has %d variables, not %d",
                                e->ncols, d->ncols)
               : check_rows(e, x, has_obj, obj, why);
}

void ilpm_mdl_again_free(mdl_again *again)
{
    ilpm_lp_free(again->lp);
    ilpm_mdl_free(again->rows);
    again->lp = NULL;
    again->rows = NULL;
}
