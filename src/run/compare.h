/* compare.h: one instance solved by every chosen formulation on both back
 * ends, with the sizes of both lowerings per group, and a check that the
 * back ends agree on what they answer. */
#ifndef ILPM_COMPARE_H
#define ILPM_COMPARE_H

#include "run.h"

typedef struct ilpm_cmp_form {
    char name[32];    /* formulation ("" for a puzzle with one)   */
    ilpm_stats stats; /* both lowerings, per group                */
    int have_stats;
    char **groups;   /* stats.ngroups group names                */
    char error[512]; /* why the model could not be built          */
} ilpm_cmp_form;

typedef struct ilpm_comparison {
    char instance[160];
    int nforms;
    ilpm_cmp_form *forms;
    int nresults; /* nforms * 2: ILP then SAT per formulation */
    ilpm_result *results;
    int disagree; /* a status, optimum or count differs, or a
                     solution failed verification             */
    char disagreement[512];
} ilpm_comparison;

/* Runs forms[0..nforms) (names of the puzzle's formulations; nforms 0
 * means the puzzle's single formulation) on both back ends. */
int ilpm_compare_instance(const ilpm_puzzle *pz, const void *inst,
                          const ilpm_params *p, const char *const *forms,
                          int nforms, const ilpm_run_opts *o,
                          ilpm_comparison *out);
void ilpm_comparison_free(ilpm_comparison *c);
/* The side-by-side table, then the per-group breakdown. */
void ilpm_comparison_text(const ilpm_comparison *c, ilpm_buf *out);

#endif
