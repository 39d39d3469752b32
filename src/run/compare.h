/* compare.h: one instance solved by every chosen formulation on every
 * back end of the registry, with the sizes of both lowerings (rows, CNF)
 * per group, and a check that the back ends agree on what they answer. */
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
    int nresults; /* nforms * ILPM_BACKEND_COUNT: every back end per form */
    ilpm_result *results;
    /* The last not_run results were never started: a stop (stop_flag)
     * came first.  They are no outcome and count in no total. */
    int not_run;
    int disagree; /* a status, optimum or count differs, or a
                     solution failed verification             */
    char disagreement[512];
} ilpm_comparison;

/* Runs forms[0..nforms) (names of the puzzle's formulations; nforms 0
 * means the puzzle's single formulation) on every back end. */
int ilpm_compare_instance(const ilpm_puzzle *pz, const void *inst,
                          const ilpm_params *p, const char *const *forms,
                          int nforms, const ilpm_run_opts *o,
                          ilpm_comparison *out);
void ilpm_comparison_free(ilpm_comparison *c);
/* The runs that finished with an answer (solved, optimal, unsat). */
int ilpm_comparison_answered(const ilpm_comparison *c);
/* "no" when the runs disagree, "n/a" when fewer than two finished with
 * an answer (nothing to compare), else "yes". */
const char *ilpm_comparison_agreement(const ilpm_comparison *c);
/* The side-by-side table, then the per-group breakdown. */
void ilpm_comparison_text(const ilpm_comparison *c, ilpm_buf *out);
/* One record per run that was started, as ilpm_result_json and _csv
 * write it plus fixed_before (the variables settled before the back end:
 * stats.fixed) and agreement (of the whole comparison); the CSV header
 * has the two fields last. */
void ilpm_comparison_json(const ilpm_comparison *c, ilpm_buf *out);
void ilpm_comparison_csv_header(ilpm_buf *out);
void ilpm_comparison_csv(const ilpm_comparison *c, ilpm_buf *out);

/* What many comparisons add up to: one row per formulation and back end,
 * in the order they first appear. */
typedef struct ilpm_cmp_total {
    char formulation[32];
    ilpm_backend backend;
    long runs;
    long solved;     /* solved or optimal                             */
    long unsat;      /* unsatisfiable (with --count: no solution)     */
    long timeout;    /* timeout, or feasible (optimum not proven)     */
    long other;      /* error or stopped                              */
    double total_ms; /* solve times of all the runs, timed-out ones  */
    double *ms;      /* included; ms[0..runs) sorted, for the median */
    long sized;      /* runs whose formulation was built              */
    /* The size columns (ilpm_size_columns) and fixed (the variables
     * settled before the back end) summed over the sized runs, without
     * groups; the writers print their means, of the columns the back
     * end fills. */
    ilpm_stats sum;
} ilpm_cmp_total;

typedef struct ilpm_cmp_summary {
    char puzzle[32];
    long instances;
    long disagree; /* instances whose runs disagree */
    long na;       /* instances with fewer than two answers to compare */
    int n;
    ilpm_cmp_total *rows;
} ilpm_cmp_summary;

void ilpm_cmp_summary_init(ilpm_cmp_summary *s);
void ilpm_cmp_summary_free(ilpm_cmp_summary *s);
/* Adds every run of c; -1 when out of memory (the summary is then
 * incomplete). */
int ilpm_cmp_summary_add(ilpm_cmp_summary *s, const ilpm_comparison *c);
double ilpm_cmp_total_median_ms(const ilpm_cmp_total *t);
/* The table for people; the rows as CSV (with its own header) or as JSON
 * lines marked "summary":true. */
void ilpm_cmp_summary_text(const ilpm_cmp_summary *s, ilpm_buf *out);
void ilpm_cmp_summary_csv_header(ilpm_buf *out);
void ilpm_cmp_summary_csv(const ilpm_cmp_summary *s, ilpm_buf *out);
void ilpm_cmp_summary_json(const ilpm_cmp_summary *s, ilpm_buf *out);

#endif
