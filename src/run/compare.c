/* The compare verb's work: each formulation of one instance on both back
 * ends, the per-group sizes of both lowerings, and the agreement check
 * (satisfiability, optimum, count and verification). */
#include "compare.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The per-group sizes of what `backend` lowers for the built model m. */
static int lowered_stats(const ilpm_model *m, const ilpm_options *so,
                         ilpm_backend backend, ilpm_stats *st, char ***groups,
                         ilpm_err *err)
{
    ilpm_options o = *so;
    o.backend = backend;
    ilpm_model *pm = NULL;
    const ilpm_model *low = ilpm_model_lowered(m, &o, &pm, err);
    if (!low || ilpm_model_stats(low, &o, st, err) != 0) {
        ilpm_model_free(pm);
        return -1;
    }
    *groups = calloc((size_t)st->ngroups + 1, sizeof **groups);
    for (int g = 0; *groups && g < st->ngroups; g++)
        (*groups)[g] = strdup(ilpm_model_group_name(low, g));
    ilpm_model_free(pm);
    return 0;
}

static void free_groups(char **groups)
{
    for (int g = 0; groups && groups[g]; g++)
        free(groups[g]);
    free(groups);
}

static void form_stats(const ilpm_puzzle *pz, const void *inst,
                       const ilpm_params *p, const ilpm_options *so,
                       ilpm_cmp_form *f)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_run_model_new(so);
    if (!m) {
        snprintf(f->error, sizeof f->error, "out of memory");
        return;
    }
    /* The groups of what each back end lowered: after propagation, as the
     * sizes of the runs are, with the forced variables in "fixed".  The
     * ILP side may be propagated further (probing), so its groups are
     * the table's and the CNF columns are matched to them by name; a
     * group the CNF side lacks ("fixed") has no clauses there. */
    ilpm_stats sat = {0};
    char **sat_groups = NULL;
    if (pz->build(inst, p, m, &err) != 0 ||
        lowered_stats(m, so, ILPM_BACKEND_ILP, &f->stats, &f->groups, &err) !=
            0 ||
        lowered_stats(m, so, ILPM_BACKEND_SAT, &sat, &sat_groups, &err) != 0) {
        snprintf(f->error, sizeof f->error, "%s", err.msg);
        ilpm_stats_free(&sat);
        free_groups(sat_groups);
        ilpm_model_free(m);
        return;
    }
    f->have_stats = 1;
    f->stats.clauses = sat.clauses;
    f->stats.literals = sat.literals;
    f->stats.aux_vars = sat.aux_vars;
    for (int g = 0; g < f->stats.ngroups; g++) {
        ilpm_group_stats *x = &f->stats.groups[g];
        x->clauses = x->literals = x->aux_vars = 0;
        for (int h = 0; f->groups && sat_groups && h < sat.ngroups; h++)
            if (f->groups[g] && sat_groups[h] &&
                strcmp(f->groups[g], sat_groups[h]) == 0) {
                x->clauses = sat.groups[h].clauses;
                x->literals = sat.groups[h].literals;
                x->aux_vars = sat.groups[h].aux_vars;
            }
    }
    ilpm_stats_free(&sat);
    free_groups(sat_groups);
    ilpm_model_free(m);
}

static int has_answer(const ilpm_result *r)
{
    return r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
           r->status == ILPM_UNSAT;
}

static int feasible(const ilpm_result *r)
{
    return r->status != ILPM_UNSAT && (r->has_count ? r->count > 0 : 1);
}

static void check_agreement(ilpm_comparison *c, const ilpm_run_opts *o)
{
    const ilpm_result *ref = NULL;
    const char *ref_form = "";
    for (int i = 0; i < c->nresults; i++) {
        const ilpm_result *r = &c->results[i];
        const char *form = c->forms[i / 2].name;
        if ((r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
             r->status == ILPM_FEASIBLE) &&
            !r->verified) {
            c->disagree = 1;
            snprintf(c->disagreement, sizeof c->disagreement,
                     "%s%s%s: a solution fails the rules: %.300s", form,
                     *form ? " " : "", ilpm_backend_name(r->backend), r->error);
            return;
        }
        if (r->status == ILPM_ERROR) {
            c->disagree = 1;
            snprintf(c->disagreement, sizeof c->disagreement,
                     "%s%s%s: error: %.300s", form, *form ? " " : "",
                     ilpm_backend_name(r->backend), r->error);
            return;
        }
        if (!has_answer(r))
            continue;
        if (!ref) {
            ref = r;
            ref_form = form;
            continue;
        }
        const char *what = NULL;
        char a[64], b[64];
        if (feasible(ref) != feasible(r)) {
            what = "satisfiability";
            snprintf(a, sizeof a, "%s", feasible(ref) ? "solvable" : "unsat");
            snprintf(b, sizeof b, "%s", feasible(r) ? "solvable" : "unsat");
        } else if (ref->has_objective && r->has_objective &&
                   ref->status == ILPM_OPTIMAL && r->status == ILPM_OPTIMAL &&
                   ref->objective != r->objective) {
            what = "optimum";
            snprintf(a, sizeof a, "%" PRId64, ref->objective);
            snprintf(b, sizeof b, "%" PRId64, r->objective);
        } else if (o->count && ref->count != r->count) {
            what = "count";
            snprintf(a, sizeof a, "%" PRIu64, ref->count);
            snprintf(b, sizeof b, "%" PRIu64, r->count);
        }
        if (what) {
            c->disagree = 1;
            snprintf(c->disagreement, sizeof c->disagreement,
                     "%s differs: %s%s%s says %s, %s%s%s says %s", what,
                     ref_form, *ref_form ? " " : "",
                     ilpm_backend_name(ref->backend), a, form, *form ? " " : "",
                     ilpm_backend_name(r->backend), b);
            return;
        }
    }
}

int ilpm_compare_instance(const ilpm_puzzle *pz, const void *inst,
                          const ilpm_params *p, const char *const *forms,
                          int nforms, const ilpm_run_opts *o,
                          ilpm_comparison *out)
{
    memset(out, 0, sizeof *out);
    pz->describe(inst, out->instance, sizeof out->instance);
    int nf = nforms > 0 ? nforms : 1;
    out->forms = calloc((size_t)nf, sizeof *out->forms);
    out->results = calloc((size_t)nf * 2, sizeof *out->results);
    ilpm_params *q = ilpm_params_copy(p);
    if (!out->forms || !out->results || !q) {
        ilpm_params_free(q);
        return -1;
    }
    out->nforms = nf;
    out->nresults = nf * 2;
    for (int f = 0; f < nf; f++) {
        ilpm_cmp_form *cf = &out->forms[f];
        if (nforms > 0) {
            snprintf(cf->name, sizeof cf->name, "%s", forms[f]);
            ilpm_params_set(q, "formulation", forms[f]);
        }
        form_stats(pz, inst, q, &o->solver, cf);
        for (int b = 0; b < 2; b++) {
            ilpm_result *r = &out->results[2 * f + b];
            ilpm_result_init(r);
            ilpm_run_opts ro = *o;
            ro.solver.backend = (ilpm_backend)b;
            ilpm_run_instance(pz, inst, q, &ro, r);
            snprintf(r->formulation, sizeof r->formulation, "%s", cf->name);
        }
    }
    ilpm_params_free(q);
    check_agreement(out, o);
    return 0;
}

void ilpm_comparison_free(ilpm_comparison *c)
{
    for (int f = 0; f < c->nforms; f++) {
        ilpm_stats_free(&c->forms[f].stats);
        free_groups(c->forms[f].groups);
    }
    for (int i = 0; i < c->nresults; i++)
        ilpm_result_free(&c->results[i]);
    free(c->forms);
    free(c->results);
    memset(c, 0, sizeof *c);
}

static void dash_or_int(ilpm_buf *b, const char *fmt, int have, int64_t v)
{
    char t[32];
    if (have)
        snprintf(t, sizeof t, "%" PRId64, v);
    else
        snprintf(t, sizeof t, "-");
    ilpm_buf_printf(b, fmt, t);
}

void ilpm_comparison_text(const ilpm_comparison *c, ilpm_buf *b)
{
    ilpm_buf_printf(b, "%s %s\n", c->results[0].puzzle, c->instance);
    ilpm_buf_printf(b,
                    "  %-12s %-4s %-8s %-8s %12s %10s %10s %9s %9s %9s "
                    "%10s %10s\n",
                    "formulation", "back", "status", "verified", "obj/count",
                    "build_ms", "solve_ms", "vars", "aux", "rows", "nonzeros",
                    "clauses");
    for (int i = 0; i < c->nresults; i++) {
        const ilpm_result *r = &c->results[i];
        int ilp = r->backend == ILPM_BACKEND_ILP;
        char oc[32] = "-";
        if (r->has_count)
            snprintf(oc, sizeof oc, "%s%" PRIu64,
                     r->count_complete ? "" : ">=", r->count);
        else if (r->has_objective)
            snprintf(oc, sizeof oc, "%" PRId64, r->objective);
        ilpm_buf_printf(b, "  %-12s %-4s %-8s %-8s %12s %10.1f %10.1f",
                        c->forms[i / 2].name[0] ? c->forms[i / 2].name : "-",
                        ilpm_backend_name(r->backend),
                        ilpm_status_name(r->status), r->verified ? "yes" : "no",
                        oc, r->build_ms, r->solve_ms);
        dash_or_int(b, " %9s", r->have_stats, r->stats.vars);
        dash_or_int(b, " %9s", r->have_stats, r->stats.aux_vars);
        dash_or_int(b, " %9s", r->have_stats && ilp, r->stats.rows);
        dash_or_int(b, " %10s", r->have_stats && ilp, r->stats.nonzeros);
        dash_or_int(b, " %10s", r->have_stats && !ilp, r->stats.clauses);
        ilpm_buf_putc(b, '\n');
        if (r->status == ILPM_ERROR)
            ilpm_buf_printf(b, "    error: %s\n", r->error);
    }
    for (int f = 0; f < c->nforms; f++) {
        const ilpm_cmp_form *cf = &c->forms[f];
        if (!cf->have_stats) {
            ilpm_buf_printf(b, "  %s: %s\n", cf->name, cf->error);
            continue;
        }
        char label[64];
        snprintf(label, sizeof label, "groups%s%s", cf->name[0] ? " of " : "",
                 cf->name);
        ilpm_buf_printf(b, "  %-26s | %9s %10s | %10s %9s\n", label, "ILP rows",
                        "nonzeros", "clauses", "CNF aux");
        for (int g = 0; g < cf->stats.ngroups; g++) {
            const ilpm_group_stats *x = &cf->stats.groups[g];
            ilpm_buf_printf(b,
                            "    %-24s | %9" PRId64 " %10" PRId64
                            " | %10" PRId64 " %9" PRId64 "\n",
                            cf->groups && cf->groups[g] ? cf->groups[g] : "?",
                            x->rows, x->nonzeros, x->clauses, x->aux_vars);
        }
    }
    if (c->disagree)
        ilpm_buf_printf(b, "  DISAGREEMENT: %s\n", c->disagreement);
    else
        ilpm_buf_puts(b, "  agreement: yes\n");
}
