/* The LP relaxation of a model solved by GLPK for another back end's
 * branch and bound (backend.h: ilpm_glpk_lp_bound): its value and its
 * reduced costs, in minimisation form. */
#include "glpk_int.h"

#include <math.h>

struct lp_ctx {
    ilpm_glpk *d;
    ilpm_lp_bound *b;
    ilpm_status st;
};

/* Reads the optimal basis: the value, and each column's reduced cost
 * where it is of the sign its bound allows (at 0: >= 0, at 1: <= 0); a
 * reduced cost of the other sign, or of a basic column, is left out and
 * its size added to the slack, as GLPK's tolerances allow it. */
static int lp_body(void *ctx, ilpm_err *err)
{
    struct lp_ctx *c = ctx;
    ilpm_glpk *d = c->d;
    ilpm_lp_bound *b = c->b;
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
