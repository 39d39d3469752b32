/* Sizes of a formulation: the part both lowerings share (variables, model
 * constraints per group).  Each lowering adds its own counts (rows,
 * clauses) on top. */
#include "backend.h"

#include <stdlib.h>
#include <string.h>

int ilpm_stats_prepare(const ilpm_model *m, ilpm_stats *s, ilpm_err *err)
{
    /* s is treated as uninitialised: a previously prepared one must go
     * through ilpm_stats_free first or its groups leak. */
    memset(s, 0, sizeof *s);
    int ng = ilpm_model_ngroups(m);
    if (ng > 0) {
        s->groups = calloc((size_t)ng, sizeof *s->groups);
        if (!s->groups)
            return ilpm_err_nomem(err,
                                  "out of memory for the statistics of %d "
                                  "groups",
                                  ng);
    }
    s->ngroups = ng;
    int nv = ilpm_model_nvars(m);
    s->vars = nv;
    for (int v = 1; v <= nv; v++)
        s->aux_vars += ilpm_model_var_is_aux(m, v) != 0;
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (c.group >= 0 && c.group < ng)
            s->groups[c.group].cons++;
    }
    return 0;
}

void ilpm_stats_free(ilpm_stats *s)
{
    if (!s)
        return;
    free(s->groups);
    s->groups = NULL;
    s->ngroups = 0;
}
