/* An LP or MPS problem (as GLPK's readers give it, ilpm_lp_read) made
 * into integer rows.  A row whose coefficients are decimals is scaled by
 * the power of ten that makes all of them integers; what no such scaling
 * makes exact, continuous columns and integers without finite bounds are
 * refused, naming the row or column: nothing is relaxed.  Here too the
 * rows of the two formats GLPK reads and writes, LP and MPS (format.h). */
#include "formats.h"
#include "mdl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIGITS 9             /* places after the decimal point */
#define EXACT 9007199254740992.0 /* 2^53: doubles are exact integers below */

static int is_int(double x, double scale)
{
    double v = x * scale;
    /* What the decimal's double and the product round away, no more. */
    return fabs(v) < EXACT &&
           fabs(v - nearbyint(v)) <= fmin(1e-6, 1e-12 * fmax(1, fabs(v)));
}

/* The smallest 10^k (k <= MAX_DIGITS) that makes every value of v[0..n)
 * an integer, or 0. */
static double scale_of(const double *v, int n)
{
    double s = 1;
    for (int k = 0; k <= MAX_DIGITS; k++, s *= 10) {
        int ok = 1;
        for (int i = 0; i < n && ok; i++)
            ok = is_int(v[i], s);
        if (ok)
            return s;
    }
    return 0;
}

static int columns(const ilpm_lp *lp, mdl *d, ilpm_err *err)
{
    for (int j = 0; j < lp->ncols; j++) {
        const char *name = lp->col_name[j];
        if (!lp->col_int[j])
            return ilpm_err_input(err,
                                  d->fmt->reader->model_vars
                                      ? "%s: variable %s is continuous; ilpm "
                                        "solves 0/1 and bounded integer models "
                                        "and relaxes nothing"
                                      : "%s: column '%s' is continuous; ilpm "
                                        "solves 0/1 and bounded integer models "
                                        "and relaxes nothing",
                                  d->file, name);
        if (!lp->col_has_lo[j] || !lp->col_has_hi[j])
            return ilpm_err_input(err,
                                  "%s: column '%s' is an integer without a "
                                  "finite %s bound; only bounded integers can "
                                  "be made of 0/1 variables",
                                  d->file, name,
                                  lp->col_has_lo[j] ? "upper" : "lower");
        double lo = ceil(lp->col_lo[j] - 1e-9),
               hi = floor(lp->col_hi[j] + 1e-9);
        if (fabs(lo) > 1e15 || fabs(hi) > 1e15)
            return ilpm_err_input(err, "%s: column '%s' has a bound past 10^15",
                                  d->file, name);
        if (ilpm_mdl_add_col(d, name, (int64_t)lo, (int64_t)hi) < 0)
            return ilpm_err_nomem(err, "out of memory");
    }
    return 0;
}

static int objective(const ilpm_lp *lp, mdl *d, ilpm_err *err)
{
    int any = lp->obj_const != 0;
    for (int j = 0; j < lp->ncols; j++)
        any |= lp->obj[j] != 0;
    if (!any)
        return 0; /* a constant 0: a satisfaction problem */
    if (!(d->obj = calloc((size_t)lp->ncols + 1, sizeof *d->obj)))
        return ilpm_err_nomem(err, "out of memory");
    /* Decimals are scaled as a row's are: by the power of ten that makes
     * every coefficient and the constant an integer, exactly. */
    double *v = malloc(((size_t)lp->ncols + 1) * sizeof *v);
    if (!v)
        return ilpm_err_nomem(err, "out of memory");
    for (int j = 0; j < lp->ncols; j++)
        v[j] = lp->obj[j];
    v[lp->ncols] = lp->obj_const;
    double s = scale_of(v, lp->ncols + 1);
    free(v);
    if (s == 0)
        return ilpm_err_input(err,
                              "%s: the objective has a number that no power "
                              "of ten up to 10^%d makes an integer (or past "
                              "2^53); ilpm keeps coefficients exact",
                              d->file, MAX_DIGITS);
    double sum = fabs(lp->obj_const * s);
    for (int j = 0; j < lp->ncols; j++) {
        d->obj[j] = (int64_t)nearbyint(lp->obj[j] * s);
        sum += fabs(lp->obj[j] * s);
    }
    if (sum > (double)MDL_MAX_SUM)
        return ilpm_err_input(
            err, "%s: the objective's coefficients sum past 2^61", d->file);
    d->obj_const = (int64_t)nearbyint(lp->obj_const * s);
    d->obj_scale = (int64_t)s;
    d->sense = lp->sense;
    return 0;
}

/* One row of the file: lo <= a x <= hi as one or two integer rows. */
static int row(const ilpm_lp *lp, int i, double *buf, mdl *d, ilpm_err *err)
{
    size_t b = lp->row_start[i], e = lp->row_start[i + 1];
    int k = 0;
    if (!lp->row_has_lo[i] && !lp->row_has_hi[i])
        return 0; /* a free row (MathProg's objective) holds nothing */
    for (size_t t = b; t < e; t++)
        buf[k++] = lp->val[t];
    if (lp->row_has_lo[i])
        buf[k++] = lp->row_lo[i];
    if (lp->row_has_hi[i])
        buf[k++] = lp->row_hi[i];
    double s = scale_of(buf, k);
    if (s == 0)
        return ilpm_err_input(err,
                              "%s: row '%s' has a number that no power of ten "
                              "up to 10^%d makes an integer (or past 2^53); "
                              "ilpm keeps coefficients exact",
                              d->file, lp->row_name[i], MAX_DIGITS);
    double sum = 0;
    for (int t = 0; t < k; t++)
        sum += fabs(buf[t] * s);
    if (sum > (double)MDL_MAX_SUM)
        return ilpm_err_input(err,
                              "%s: the numbers of row '%s' sum past 2^61, too "
                              "large to handle exactly",
                              d->file, lp->row_name[i]);
    int64_t lo = lp->row_has_lo[i] ? (int64_t)nearbyint(lp->row_lo[i] * s) : 0;
    int64_t hi = lp->row_has_hi[i] ? (int64_t)nearbyint(lp->row_hi[i] * s) : 0;
    /* A ranged row is two rows of one name; lo = hi is one equation. */
    int sides[2] = {lp->row_has_lo[i], lp->row_has_hi[i]};
    if (sides[0] && sides[1] && lo == hi)
        sides[1] = 0;
    for (int side = 0; side < 2; side++) {
        if (!sides[side])
            continue;
        for (size_t t = b; t < e; t++)
            if (ilpm_mdl_add_term(d, lp->ind[t],
                                  (int64_t)nearbyint(lp->val[t] * s)))
                return ilpm_err_nomem(err, "out of memory");
        ilpm_cmp cmp = side == 1                       ? ILPM_LE
                       : lp->row_has_hi[i] && lo == hi ? ILPM_EQ
                                                       : ILPM_GE;
        if (ilpm_mdl_end_row(d, cmp, side ? hi : lo, 0, i) != 0)
            return ilpm_err_nomem(err, "out of memory");
    }
    return 0;
}

int ilpm_mdl_from_lp(const ilpm_lp *lp, mdl *d, ilpm_err *err)
{
    if (columns(lp, d, err) != 0 || objective(lp, d, err) != 0)
        return -1;
    if (!(d->row_name = calloc((size_t)lp->nrows + 1, sizeof *d->row_name)))
        return ilpm_err_nomem(err, "out of memory");
    d->nnames = lp->nrows;
    double *buf = malloc(((size_t)lp->ncols + 3) * sizeof *buf);
    if (!buf)
        return ilpm_err_nomem(err, "out of memory");
    int rc = 0;
    for (int i = 0; i < lp->nrows && rc == 0; i++) {
        if (!(d->row_name[i] = strdup(lp->row_name[i])))
            rc = ilpm_err_nomem(err, "out of memory");
        else
            rc = row(lp, i, buf, d, err);
    }
    free(buf);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The rows of LP and MPS: GLPK reads them (by the file's name) and
 * writes them (ilpm_export); a solution is checked against the file read
 * again by GLPK. */

static int read_glpk(ilpm_format f, const char *path, mdl *d, ilpm_err *err)
{
    ilpm_lp *lp = NULL;
    int rc = ilpm_lp_read(path, d->file, f, &lp, err) == 0 &&
                     ilpm_mdl_from_lp(lp, d, err) == 0
                 ? 0
                 : -1;
    ilpm_lp_free(lp);
    return rc;
}

static int check_glpk(ilpm_format f, const mdl *d, mdl_again *again,
                      const int64_t *x, int has_obj, int64_t obj, ilpm_err *why)
{
    /* Read once, then kept for the next solutions of a count. */
    if (!again->lp && ilpm_lp_read(d->path, d->file, f, &again->lp, why) != 0)
        return -1;
    return ilpm_mdl_check_lp(again->lp, d, x, has_obj, obj, why);
}

static int read_lp(const char *path, mdl *d, ilpm_err *err)
{
    return read_glpk(ILPM_FMT_LP, path, d, err);
}

static int check_lp(const mdl *d, mdl_again *again, const int64_t *x,
                    int has_obj, int64_t obj, ilpm_err *why)
{
    return check_glpk(ILPM_FMT_LP, d, again, x, has_obj, obj, why);
}

static int write_lp(const ilpm_model *m, const ilpm_options *o,
                    const char *path, ilpm_err *err)
{
    return ilpm_export(m, o, ILPM_FMT_LP, path, err);
}

static int read_mps(const char *path, mdl *d, ilpm_err *err)
{
    return read_glpk(ILPM_FMT_MPS, path, d, err);
}

static int check_mps(const mdl *d, mdl_again *again, const int64_t *x,
                     int has_obj, int64_t obj, ilpm_err *why)
{
    return check_glpk(ILPM_FMT_MPS, d, again, x, has_obj, obj, why);
}

static int write_mps(const ilpm_model *m, const ilpm_options *o,
                     const char *path, ilpm_err *err)
{
    return ilpm_export(m, o, ILPM_FMT_MPS, path, err);
}

static const struct ilpm_mdl_reader lp_reader = {
    .read_path = read_lp,
    .check = check_lp,
};

const ilpm_file_format ilpm_format_lp = {
    .name = "lp",
    .exts = (const char *const[]){"lp", NULL},
    .help = "CPLEX LP (GLPK's reader and writer)",
    .carries = ILPM_CARRIES_OBJECTIVE | ILPM_CARRIES_INTEGERS |
               ILPM_CARRIES_NAMES | ILPM_CARRIES_GZIP,
    .reader = &lp_reader,
    .write = write_lp,
};

/* The note ilpm's MPS writer puts before NAME when the model maximises
 * (src/backend/glpk_write.c): the file minimises the negation. */
static const struct ilpm_mdl_reader mps_reader = {
    .read_path = read_mps,
    .check = check_mps,
    .max_note = "* ilpm: the model maximises; MPS has no objective sense, "
                "so this file",
};

const ilpm_file_format ilpm_format_mps = {
    .name = "mps",
    .exts = (const char *const[]){"mps", NULL},
    .help = "free MPS (GLPK's reader and writer)",
    .carries = ILPM_CARRIES_OBJECTIVE | ILPM_CARRIES_INTEGERS |
               ILPM_CARRIES_NAMES | ILPM_CARRIES_GZIP,
    .reader = &mps_reader,
    .write = write_mps,
};
