/* The LP relaxation of a model solved by GLPK for another back end's
 * branch and bound (backend.h: ilpm_glpk_lp_bound): its value and its
 * reduced costs, in minimisation form. */
#include "glpk_int.h"

#include <math.h>
#include <stdlib.h>

struct lp_ctx {
    ilpm_glpk *d;
    ilpm_lp_bound *b;
    ilpm_status st;
};

/* Row i of P, one-sided over binary columns, with its coefficients
 * saturated: read as "sum a_j l_j >= d" over literals (a_j > 0), no a_j
 * needs to pass d, so each is cut to d (as the pseudo-Boolean solvers
 * do).  Every 0/1 point keeps its side and the LP gets tighter (p0201:
 * 6875 against 7125, its OPB twin's, whose reader saturates).  ind and
 * val have room for every column. */
static void saturate(glp_prob *P, int i, int *ind, double *val)
{
    int type = glp_get_row_type(P, i);
    if (type != GLP_UP && type != GLP_LO)
        return;
    double sign = type == GLP_LO ? 1.0 : -1.0; /* as ">=" */
    int n = glp_get_mat_row(P, i, ind, val);
    double d =
        sign * (type == GLP_LO ? glp_get_row_lb(P, i) : glp_get_row_ub(P, i));
    for (int j = 1; j <= n; j++)
        d -= sign * val[j] < 0 ? sign * val[j] : 0; /* a negation's 1 */
    if (d <= 0 || d != floor(d))
        return;
    int cut = 0;
    double shift = 0;
    for (int j = 1; j <= n; j++) {
        double a = sign * val[j];
        if (fabs(a) > d) {
            a = a < 0 ? -d : d;
            val[j] = sign * a;
            cut = 1;
        }
        shift += a < 0 ? a : 0;
    }
    if (!cut)
        return;
    glp_set_mat_row(P, i, n, ind, val);
    if (type == GLP_LO)
        glp_set_row_bnds(P, i, GLP_LO, d + shift, 0.0);
    else
        glp_set_row_bnds(P, i, GLP_UP, 0.0, -(d + shift));
}

/* Reads the optimal basis: the value, and each column's reduced cost
 * where it is of the sign its bound allows (at 0: >= 0, at 1: <= 0); a
 * reduced cost of the other sign, or of a basic column, is left out and
 * its size added to the slack, as GLPK's tolerances allow it. */
static int lp_body(void *ctx, ilpm_err *err)
{
    struct lp_ctx *c = ctx;
    ilpm_glpk *d = c->d;
    ilpm_lp_bound *b = c->b;
    int nc = glp_get_num_cols(d->P);
    int *ind = malloc(((size_t)nc + 1) * sizeof *ind);
    double *val = malloc(((size_t)nc + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        return ilpm_err_nomem(err, "out of memory for the LP relaxation");
    }
    for (int i = 1; i <= glp_get_num_rows(d->P); i++)
        saturate(d->P, i, ind, val);
    free(ind);
    free(val);
    c->st = ilpm_glpk_relaxation(d, GLP_MSG_OFF, err);
    if (c->st != ILPM_SOLVED)
        return 0;
    double sign = d->sense == ILPM_MAXIMIZE ? -1.0 : 1.0;
    b->z = sign * glp_get_obj_val(d->P);
    b->slack = 1e-6 * (1.0 + fabs(b->z));
    for (int v = 1; v <= d->nvars; v++) {
        int stat = glp_get_col_stat(d->P, v);
        double dj = sign * glp_get_col_dual(d->P, v);
        if (b->x)
            b->x[v] = glp_get_col_prim(d->P, v);
        b->rc[v] = 0;
        if ((stat == GLP_NL && dj > 0) || (stat == GLP_NU && dj < 0))
            b->rc[v] = dj;
        else
            b->slack += fabs(dj);
    }
    return 0;
}

ilpm_status ilpm_glpk_lp_bound(const ilpm_model *m, const ilpm_options *o,
                               ilpm_lp_bound *b, ilpm_err *err)
{
    ilpm_glpk *d = ilpm_glpk_build(m, o, NULL, 1, ILPM_GLPK_SOLVE, err);
    if (!d)
        return ILPM_ERROR;
    if (d->sense == ILPM_NONE) {
        ilpm_glpk_destroy(d);
        return ILPM_ERROR;
    }
    ilpm_glpk_guard g;
    struct lp_ctx c = {.d = d, .b = b, .st = ILPM_ERROR};
    if (ilpm_glpk_run(&g, &d->base.o, lp_body, &c, "solving the LP relaxation",
                      err) != 0) {
        d->P = NULL; /* freed with GLPK's environment */
        c.st = ILPM_ERROR;
    }
    ilpm_glpk_destroy(d);
    return c.st;
}
