/* Sizes of a formulation: the part both lowerings share (variables, model
 * constraints per group).  Each lowering adds its own counts (rows,
 * clauses) on top. */
#include "backend.h"

#include <stdint.h>
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
    s->aux_vars += ilpm_model_aux_mark(m, NULL);
    size_t nc = ilpm_model_ncons(m);
    /* A variable is counted once however many unit clauses name it. */
    uint8_t *seen = calloc((size_t)nv + 1, 1);
    if (!seen) {
        ilpm_stats_free(s);
        return ilpm_err_nomem(err,
                              "out of memory for the statistics of %d "
                              "variables",
                              nv);
    }
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (c.group >= 0 && c.group < ng)
            s->groups[c.group].cons++;
        int unit = c.n == 1 && (c.kind == ILPM_CLAUSE || c.kind == ILPM_ALO ||
                                c.kind == ILPM_EXO);
        int v = unit ? abs(c.lits[0]) : 0;
        if (v >= 1 && v <= nv && !seen[v]) {
            seen[v] = 1;
            s->fixed++;
        }
    }
    free(seen);
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

void ilpm_cnf_stats(const ilpm_cnf *c, ilpm_stats *s)
{
    s->clauses = c->nclauses;
    s->aux_vars += c->nvars - c->model_vars;
    s->literals = 0;
    for (int g = 0; g < s->ngroups && g < c->ngroups; g++) {
        s->groups[g].clauses = c->groups[g].clauses;
        s->groups[g].literals = c->groups[g].literals;
        s->groups[g].aux_vars = c->groups[g].aux_vars;
        s->literals += c->groups[g].literals;
    }
}
