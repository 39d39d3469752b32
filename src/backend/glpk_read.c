/* Reading CPLEX LP and MPS files with GLPK's own readers, into the plain
 * arrays of an ilpm_lp, so that no layer above GLPK needs glpk.h.  GLPK
 * reports a bad file on its terminal and aborts on trouble of its own:
 * both go through the guard (glpk_guard.c), and its "file:line: message"
 * becomes the error. */
#include "glpk_int.h"

#include <stdlib.h>
#include <string.h>

struct read_ctx {
    const char *path, *name;
    ilpm_format f;
    ilpm_glpk_guard *g;
    ilpm_lp *lp;
};

/* The line of GLPK's output that names the file, with name for path:
 * GLPK's readers say "path:line: message". */
static void reader_message(const struct read_ctx *r, ilpm_err *err)
{
    char msg[sizeof r->g->log + 64];
    ilpm_glpk_log_tail(r->g, 1, msg, sizeof msg);
    size_t pl = strlen(r->path);
    if (strncmp(msg, r->path, pl) == 0 && msg[pl] == ':')
        ilpm_err_input(err, "%s%s", r->name, msg + pl);
    else
        ilpm_err_input(err, "%s: %s", r->name, msg);
}

static char *dup_name(const char *s)
{
    return strdup(s ? s : "");
}

int ilpm_glpk_fill_lp(glp_prob *P, ilpm_lp *lp, ilpm_err *err)
{
    int nc = glp_get_num_cols(P), nr = glp_get_num_rows(P);
    size_t nnz = (size_t)glp_get_num_nz(P);
    lp->ncols = nc;
    lp->nrows = nr;
    size_t c = (size_t)nc + 1, r = (size_t)nr + 1;
    lp->col_name = calloc(c, sizeof *lp->col_name);
    lp->col_int = calloc(c, 1);
    lp->col_has_lo = calloc(c, 1);
    lp->col_has_hi = calloc(c, 1);
    lp->col_lo = calloc(c, sizeof(double));
    lp->col_hi = calloc(c, sizeof(double));
    lp->obj = calloc(c, sizeof(double));
    lp->row_name = calloc(r, sizeof *lp->row_name);
    lp->row_has_lo = calloc(r, 1);
    lp->row_has_hi = calloc(r, 1);
    lp->row_lo = calloc(r, sizeof(double));
    lp->row_hi = calloc(r, sizeof(double));
    lp->row_start = calloc(r, sizeof *lp->row_start);
    lp->ind = calloc(nnz + 1, sizeof *lp->ind);
    lp->val = calloc(nnz + 1, sizeof *lp->val);
    int *ind = calloc(c, sizeof *ind);
    double *val = calloc(c, sizeof *val);
    if (!lp->col_name || !lp->col_int || !lp->col_has_lo || !lp->col_has_hi ||
        !lp->col_lo || !lp->col_hi || !lp->obj || !lp->row_name ||
        !lp->row_has_lo || !lp->row_has_hi || !lp->row_lo || !lp->row_hi ||
        !lp->row_start || !lp->ind || !lp->val || !ind || !val) {
        free(ind);
        free(val);
        return ilpm_err_nomem(err, "out of memory");
    }
    lp->sense = glp_get_obj_dir(P) == GLP_MAX ? ILPM_MAXIMIZE : ILPM_MINIMIZE;
    lp->obj_const = glp_get_obj_coef(P, 0);
    for (int j = 1; j <= nc; j++) {
        int t = glp_get_col_type(P, j);
        lp->col_int[j - 1] = glp_get_col_kind(P, j) != GLP_CV;
        lp->col_has_lo[j - 1] = t == GLP_LO || t == GLP_DB || t == GLP_FX;
        lp->col_has_hi[j - 1] = t == GLP_UP || t == GLP_DB || t == GLP_FX;
        lp->col_lo[j - 1] = glp_get_col_lb(P, j);
        lp->col_hi[j - 1] = glp_get_col_ub(P, j);
        lp->obj[j - 1] = glp_get_obj_coef(P, j);
        if (!(lp->col_name[j - 1] = dup_name(glp_get_col_name(P, j))))
            goto oom;
    }
    size_t at = 0;
    for (int i = 1; i <= nr; i++) {
        int t = glp_get_row_type(P, i);
        lp->row_has_lo[i - 1] = t == GLP_LO || t == GLP_DB || t == GLP_FX;
        lp->row_has_hi[i - 1] = t == GLP_UP || t == GLP_DB || t == GLP_FX;
        lp->row_lo[i - 1] = glp_get_row_lb(P, i);
        lp->row_hi[i - 1] = glp_get_row_ub(P, i);
        if (!(lp->row_name[i - 1] = dup_name(glp_get_row_name(P, i))))
            goto oom;
        lp->row_start[i - 1] = at;
        int len = glp_get_mat_row(P, i, ind, val);
        for (int k = 1; k <= len; k++, at++) {
            lp->ind[at] = ind[k] - 1;
            lp->val[at] = val[k];
        }
    }
    lp->row_start[nr] = at;
    free(ind);
    free(val);
    return 0;
oom:
    free(ind);
    free(val);
    return ilpm_err_nomem(err, "out of memory");
}

static int read_body(void *ctx, ilpm_err *err)
{
    struct read_ctx *r = ctx;
    glp_prob *P = glp_create_prob();
    int rc = r->f == ILPM_FMT_LP ? glp_read_lp(P, NULL, r->path)
                                 : glp_read_mps(P, GLP_MPS_FILE, NULL, r->path);
    if (rc != 0) {
        glp_delete_prob(P);
        reader_message(r, err);
        return -1;
    }
    rc = ilpm_glpk_fill_lp(P, r->lp, err);
    glp_delete_prob(P);
    return rc;
}

int ilpm_lp_read(const char *path, const char *name, ilpm_format f,
                 ilpm_lp **out, ilpm_err *err)
{
    *out = NULL;
    if (f != ILPM_FMT_LP && f != ILPM_FMT_MPS)
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "ilpm_lp_read reads LP and MPS only");
    ilpm_lp *lp = calloc(1, sizeof *lp);
    if (!lp)
        return ilpm_err_nomem(err, "out of memory");
    ilpm_glpk_guard g;
    struct read_ctx r = {path, name ? name : path, f, &g, lp};
    if (ilpm_glpk_run(&g, NULL, read_body, &r, "reading a model", err) != 0) {
        ilpm_lp_free(lp);
        return -1;
    }
    *out = lp;
    return 0;
}

void ilpm_lp_free(ilpm_lp *lp)
{
    if (!lp)
        return;
    for (int j = 0; lp->col_name && j < lp->ncols; j++)
        free(lp->col_name[j]);
    for (int i = 0; lp->row_name && i < lp->nrows; i++)
        free(lp->row_name[i]);
    free(lp->col_name);
    free(lp->col_int);
    free(lp->col_has_lo);
    free(lp->col_has_hi);
    free(lp->col_lo);
    free(lp->col_hi);
    free(lp->obj);
    free(lp->row_name);
    free(lp->row_has_lo);
    free(lp->row_has_hi);
    free(lp->row_lo);
    free(lp->row_hi);
    free(lp->row_start);
    free(lp->ind);
    free(lp->val);
    free(lp);
}
