/* The compare verb's work: each formulation of one instance on every back
 * end of the registry, the per-group sizes of both lowerings, and the
 * agreement check (satisfiability, optimum, count and verification). */
#include "compare.h"
#include "ilpm_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The per-group sizes of both lowerings (rows, CNF) of what the back
 * ends receive for the built model m: after propagation, which is the
 * same for every back end. */
static int lowered_stats(const ilpm_model *m, const ilpm_options *o,
                         ilpm_stats *st, char ***groups, ilpm_err *err)
{
    ilpm_model *pm = NULL;
    const ilpm_model *low = ilpm_model_lowered(m, o, &pm, err);
    if (!low || ilpm_model_stats(low, o, st, err) != 0) {
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
                       const ilpm_params *p, const ilpm_options *o,
                       ilpm_cmp_form *f)
{
    ilpm_err err = {0};
    ilpm_options one = *o; /* one deadline for load, build, settling */
    one.deadline = ilpm_options_deadline(&one);
    const ilpm_options *so = &one;
    ilpm_model *m = ilpm_run_model_new(so);
    if (!m) {
        snprintf(f->error, sizeof f->error, "out of memory");
        return;
    }
    /* The groups of what the back ends receive: after propagation, as the
     * sizes of the runs are, with the forced variables in "fixed".  The
     * puzzle's load step (a MathProg translation) comes first, under the
     * limits; the runs find it done. */
    double ms;
    if (ilpm_run_load(pz, (void *)inst, p, so, &ms, &err) != 0 ||
        pz->build(inst, p, m, &err) != 0 ||
        lowered_stats(m, so, &f->stats, &f->groups, &err) != 0) {
        snprintf(f->error, sizeof f->error, "%s", err.msg);
        ilpm_model_free(m);
        return;
    }
    f->have_stats = 1;
    ilpm_model_free(m);
}

/* Results per formulation: one per back end. */
static int per_form(const ilpm_comparison *c)
{
    return c->nforms > 0 ? c->nresults / c->nforms : 1;
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
    for (int i = 0; i < c->nresults - c->not_run; i++) {
        const ilpm_result *r = &c->results[i];
        const char *form = c->forms[i / per_form(c)].name;
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
                   !ilpm_scaled_equal(ref->objective, ref->objective_scale,
                                      r->objective, r->objective_scale)) {
            what = "optimum";
            ilpm_result_objective(ref, a, sizeof a);
            ilpm_result_objective(r, b, sizeof b);
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
    out->results =
        calloc((size_t)nf * ILPM_BACKEND_COUNT, sizeof *out->results);
    ilpm_params *q = ilpm_params_copy(p);
    if (!out->forms || !out->results || !q) {
        ilpm_params_free(q);
        return -1;
    }
    out->nforms = nf;
    out->nresults = nf * ILPM_BACKEND_COUNT;
    /* After a stop nothing more is started: the runs left are marked as
     * never run, not as stopped (they did not begin). */
    volatile int *stop = o->solver.stop_flag;
    for (int f = 0; f < nf; f++) {
        ilpm_cmp_form *cf = &out->forms[f];
        if (nforms > 0) {
            snprintf(cf->name, sizeof cf->name, "%s", forms[f]);
            ilpm_params_set(q, "formulation", forms[f]);
        }
        if (stop && *stop)
            snprintf(cf->error, sizeof cf->error, "not run");
        else
            form_stats(pz, inst, q, &o->solver, cf);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            ilpm_result *r = &out->results[ILPM_BACKEND_COUNT * f + b];
            ilpm_result_init(r);
            ilpm_run_opts ro = *o;
            ro.solver.backend = (ilpm_backend)b;
            /* No answer is shown: the input's statements about it (a
             * MathProg model's after solve) are not run. */
            ro.no_post = 1;
            if (stop && *stop) {
                snprintf(r->puzzle, sizeof r->puzzle, "%s", pz->name);
                snprintf(r->instance, sizeof r->instance, "%s", out->instance);
                r->backend = ro.solver.backend;
                r->status = ILPM_STOPPED;
                out->not_run++;
            } else {
                ilpm_run_instance(pz, inst, q, &ro, r);
            }
            snprintf(r->formulation, sizeof r->formulation, "%s", cf->name);
        }
    }
    ilpm_params_free(q);
    check_agreement(out, o);
    return 0;
}

int ilpm_comparison_answered(const ilpm_comparison *c)
{
    int n = 0;
    for (int i = 0; i < c->nresults - c->not_run; i++)
        n += has_answer(&c->results[i]);
    return n;
}

const char *ilpm_comparison_agreement(const ilpm_comparison *c)
{
    return c->disagree ? "no" : ilpm_comparison_answered(c) < 2 ? "n/a" : "yes";
}

void ilpm_comparison_free(ilpm_comparison *c)
{
    if (!c)
        return;
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

static void dash_or_int(ilpm_buf *b, int width, int have, int64_t v)
{
    char t[32];
    if (have)
        snprintf(t, sizeof t, "%" PRId64, v);
    else
        snprintf(t, sizeof t, "-");
    ilpm_buf_printf(b, " %*s", width, t);
}

/* Whether run i was started. */
static int ran(const ilpm_comparison *c, int i)
{
    return i < c->nresults - c->not_run;
}

/* The width of a size column in the text tables. */
static int width(const char *name)
{
    int n = (int)strlen(name) + 1;
    return n > 9 ? n : 9;
}

/* The text table's row of run i. */
static void text_run(const ilpm_comparison *c, int i, ilpm_buf *b)
{
    const ilpm_result *r = &c->results[i];
    const char *form = c->forms[i / per_form(c)].name;
    if (!ran(c, i)) {
        ilpm_buf_printf(b, "  %-12s %-4s not run\n", form[0] ? form : "-",
                        ilpm_backend_name(r->backend));
        return;
    }
    char oc[32] = "-";
    if (r->has_count)
        snprintf(oc, sizeof oc, "%s%" PRIu64,
                 r->count_complete ? "" : ">=", r->count);
    else if (r->has_objective)
        ilpm_result_objective(r, oc, sizeof oc);
    ilpm_buf_printf(b, "  %-12s %-4s %-8s %-8s %12s %10.1f %10.1f",
                    form[0] ? form : "-", ilpm_backend_name(r->backend),
                    ilpm_status_name(r->status), r->verified ? "yes" : "no", oc,
                    r->build_ms, r->solve_ms);
    for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
        dash_or_int(b, width(col->name),
                    r->have_stats && ilpm_backend_fills(r->backend, col),
                    ilpm_size_value(&r->stats, col));
    dash_or_int(b, 9, r->have_stats, r->stats.fixed);
    ilpm_buf_putc(b, '\n');
    if (r->status == ILPM_ERROR)
        ilpm_buf_printf(b, "    error: %s\n", r->error);
}

/* The sizes of formulation f by group, and what propagation fixed. */
static void text_form(const ilpm_comparison *c, int f, ilpm_buf *b)
{
    const ilpm_cmp_form *cf = &c->forms[f];
    const char *name = cf->name[0] ? cf->name : c->results[0].puzzle;
    if (!cf->have_stats) {
        ilpm_buf_printf(b, "  %s: %s\n", name, cf->error);
        return;
    }
    char label[64];
    snprintf(label, sizeof label, "groups%s%s", cf->name[0] ? " of " : "",
             cf->name);
    ilpm_buf_printf(b, "  %-26s | %9s %10s | %10s %9s\n", label, "ILP rows",
                    "nonzeros", "clauses", "CNF aux");
    for (int g = 0; g < cf->stats.ngroups; g++) {
        const ilpm_group_stats *x = &cf->stats.groups[g];
        ilpm_buf_printf(b,
                        "    %-24s | %9" PRId64 " %10" PRId64 " | %10" PRId64
                        " %9" PRId64 "\n",
                        cf->groups && cf->groups[g] ? cf->groups[g] : "?",
                        x->rows, x->nonzeros, x->clauses, x->aux_vars);
    }
    /* What the back ends got to decide: a grid that propagation
     * settled leaves them nothing, and their times then say so. */
    ilpm_buf_printf(b,
                    "  %s: %" PRId64 " of %" PRId64
                    " variables fixed before the back ends ran (givens "
                    "and propagation)%s\n",
                    name, cf->stats.fixed, cf->stats.vars,
                    cf->stats.vars > 0 && cf->stats.fixed == cf->stats.vars
                        ? "; nothing was left to search: --propagate "
                          "none compares the back ends' own work"
                        : "");
}

/* Whether the runs agree. */
static void text_agreement(const ilpm_comparison *c, ilpm_buf *b)
{
    int answered = ilpm_comparison_answered(c);
    if (c->disagree)
        ilpm_buf_printf(b, "  DISAGREEMENT: %s\n", c->disagreement);
    else if (answered < 2)
        ilpm_buf_printf(b,
                        "  agreement: n/a (%d run%s of %d finished with an "
                        "answer%s)\n",
                        answered, answered == 1 ? "" : "s", c->nresults,
                        c->not_run ? "; the others were stopped or not run"
                                   : "");
    else
        ilpm_buf_printf(b,
                        "  agreement: yes (%d runs finished with an "
                        "answer)\n",
                        answered);
}

void ilpm_comparison_text(const ilpm_comparison *c, ilpm_buf *b)
{
    ilpm_buf_printf(b, "%s %s\n", c->results[0].puzzle, c->instance);
    ilpm_buf_printf(b, "  %-12s %-4s %-8s %-8s %12s %10s %10s", "formulation",
                    "back", "status", "verified", "obj/count", "build_ms",
                    "solve_ms");
    for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
        ilpm_buf_printf(b, " %*s", width(col->name), col->name);
    ilpm_buf_printf(b, " %9s\n", "fixed");
    for (int i = 0; i < c->nresults; i++)
        text_run(c, i, b);
    for (int f = 0; f < c->nforms; f++)
        text_form(c, f, b);
    text_agreement(c, b);
}

/* A record of one run with the comparison's own fields after the
 * result's: its last characters (the closing brace, or none for CSV, and
 * the newline) are taken off and put back after them. */
static void with_fields(const ilpm_comparison *c, const ilpm_result *r,
                        int json, ilpm_buf *b)
{
    ilpm_buf one;
    ilpm_buf_init(&one);
    if (json)
        ilpm_result_json(r, &one);
    else
        ilpm_result_csv(r, &one);
    const char *s = ilpm_buf_str(&one);
    size_t n = strlen(s), cut = json ? 2 : 1; /* "}\n" or "\n" */
    if (n >= cut)
        ilpm_buf_put(b, s, n - cut);
    if (json) {
        if (r->have_stats)
            ilpm_buf_printf(b, ",\"fixed_before\":%" PRId64, r->stats.fixed);
        else
            ilpm_buf_puts(b, ",\"fixed_before\":null");
        ilpm_buf_printf(b, ",\"agreement\":\"%s\"}\n",
                        ilpm_comparison_agreement(c));
    } else {
        if (r->have_stats)
            ilpm_buf_printf(b, ",%" PRId64, r->stats.fixed);
        else
            ilpm_buf_putc(b, ',');
        ilpm_buf_printf(b, ",%s\n", ilpm_comparison_agreement(c));
    }
    ilpm_buf_free(&one);
}

void ilpm_comparison_json(const ilpm_comparison *c, ilpm_buf *out)
{
    for (int i = 0; ran(c, i); i++)
        with_fields(c, &c->results[i], 1, out);
}

void ilpm_comparison_csv_header(ilpm_buf *out)
{
    ilpm_buf one;
    ilpm_buf_init(&one);
    ilpm_result_csv_header(&one);
    const char *s = ilpm_buf_str(&one);
    ilpm_buf_put(out, s, strlen(s) - 1); /* without its newline */
    ilpm_buf_puts(out, ",fixed_before,agreement\n");
    ilpm_buf_free(&one);
}

void ilpm_comparison_csv(const ilpm_comparison *c, ilpm_buf *out)
{
    for (int i = 0; ran(c, i); i++)
        with_fields(c, &c->results[i], 0, out);
}

/* ------------------------------------------------------------------ */
/* The summary over many instances                                      */

void ilpm_cmp_summary_init(ilpm_cmp_summary *s)
{
    memset(s, 0, sizeof *s);
}

void ilpm_cmp_summary_free(ilpm_cmp_summary *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        free(s->rows[i].ms);
    free(s->rows);
    memset(s, 0, sizeof *s);
}

static ilpm_cmp_total *total_for(ilpm_cmp_summary *s, const char *form,
                                 ilpm_backend b)
{
    for (int i = 0; i < s->n; i++)
        if (s->rows[i].backend == b &&
            strcmp(s->rows[i].formulation, form) == 0)
            return &s->rows[i];
    ilpm_cmp_total *nr = realloc(s->rows, (size_t)(s->n + 1) * sizeof *nr);
    if (!nr)
        return NULL;
    s->rows = nr;
    ilpm_cmp_total *t = &s->rows[s->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->formulation, sizeof t->formulation, "%s", form);
    t->backend = b;
    return t;
}

/* Adds one solve time to t->ms, kept sorted: an insertion costs a shift,
 * and the median is there whenever it is asked for. */
static int add_ms(ilpm_cmp_total *t, double ms)
{
    long n = t->runs;
    if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4, ...: grow at powers of 2 */
        double *nm = realloc(t->ms, (size_t)(n ? 2 * n : 1) * sizeof *nm);
        if (!nm)
            return -1;
        t->ms = nm;
    }
    long i = n;
    while (i > 0 && t->ms[i - 1] > ms) {
        t->ms[i] = t->ms[i - 1];
        i--;
    }
    t->ms[i] = ms;
    return 0;
}

int ilpm_cmp_summary_add(ilpm_cmp_summary *s, const ilpm_comparison *c)
{
    for (int i = 0; ran(c, i); i++) {
        ilpm_cmp_total *t =
            total_for(s, c->forms[i / per_form(c)].name, c->results[i].backend);
        if (!t || add_ms(t, c->results[i].solve_ms) != 0)
            return -1;
        const ilpm_result *r = &c->results[i];
        t->runs++;
        t->total_ms += r->solve_ms;
        switch (r->status) {
        case ILPM_SOLVED:
        case ILPM_OPTIMAL:
            t->solved++;
            break;
        case ILPM_UNSAT:
            t->unsat++;
            break;
        case ILPM_TIMEOUT:
        case ILPM_FEASIBLE:
            t->timeout++;
            break;
        default:
            t->other++;
        }
        if (r->have_stats) {
            t->sized++;
            for (const ilpm_size_column *col = ilpm_size_columns; col->name;
                 col++)
                *ilpm_size_field(&t->sum, col) +=
                    ilpm_size_value(&r->stats, col);
            t->sum.fixed += r->stats.fixed;
        }
    }
    if (c->nresults > 0 && !s->puzzle[0])
        snprintf(s->puzzle, sizeof s->puzzle, "%s", c->results[0].puzzle);
    s->instances++;
    s->disagree += c->disagree != 0;
    s->na += !c->disagree && ilpm_comparison_answered(c) < 2;
    return 0;
}

double ilpm_cmp_total_median_ms(const ilpm_cmp_total *t)
{
    if (t->runs == 0)
        return 0;
    long h = t->runs / 2;
    return t->runs % 2 ? t->ms[h] : (t->ms[h - 1] + t->ms[h]) / 2;
}

/* The mean of column col (NULL: fixed), -1 when no run was built or the
 * back end has no such size. */
static double mean(const ilpm_cmp_total *t, const ilpm_size_column *col)
{
    if (t->sized == 0 || (col && !ilpm_backend_fills(t->backend, col)))
        return -1;
    int64_t sum = col ? ilpm_size_value(&t->sum, col) : t->sum.fixed;
    return (double)sum / (double)t->sized;
}

static void mean_text(ilpm_buf *b, int width, double v)
{
    char t[32];
    if (v < 0)
        snprintf(t, sizeof t, "-");
    else
        snprintf(t, sizeof t, "%.1f", v);
    ilpm_buf_printf(b, " %*s", width, t);
}

void ilpm_cmp_summary_text(const ilpm_cmp_summary *s, ilpm_buf *b)
{
    ilpm_buf_printf(b,
                    "summary: %s, %ld instance%s (solve times in ms; sizes "
                    "are means per run)\n",
                    s->puzzle, s->instances, s->instances == 1 ? "" : "s");
    ilpm_buf_printf(b, "  %-12s %-4s %5s %6s %5s %7s %5s %10s %9s",
                    "formulation", "back", "runs", "solved", "unsat", "timeout",
                    "other", "total_ms", "median_ms");
    for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
        ilpm_buf_printf(b, " %*s", width(col->name), col->name);
    ilpm_buf_printf(b, " %9s\n", "fixed");
    for (int i = 0; i < s->n; i++) {
        const ilpm_cmp_total *t = &s->rows[i];
        ilpm_buf_printf(b, "  %-12s %-4s %5ld %6ld %5ld %7ld %5ld %10.1f %9.1f",
                        t->formulation[0] ? t->formulation : "-",
                        ilpm_backend_name(t->backend), t->runs, t->solved,
                        t->unsat, t->timeout, t->other, t->total_ms,
                        ilpm_cmp_total_median_ms(t));
        for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
            mean_text(b, width(col->name), mean(t, col));
        mean_text(b, 9, mean(t, NULL));
        ilpm_buf_putc(b, '\n');
    }
    if (s->disagree)
        ilpm_buf_printf(b, "  DISAGREEMENT on %ld of %ld instances\n",
                        s->disagree, s->instances);
    else if (s->na)
        ilpm_buf_printf(b,
                        "  agreement: yes on %ld, n/a on %ld (fewer than two "
                        "runs finished with an answer)\n",
                        s->instances - s->na, s->na);
    else
        ilpm_buf_printf(b, "  agreement: yes on all %ld\n", s->instances);
}

void ilpm_cmp_summary_csv_header(ilpm_buf *out)
{
    ilpm_buf_puts(out, "puzzle,formulation,backend,instances,runs,solved,"
                       "unsat,timeout,other,total_solve_ms,median_solve_ms");
    for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
        ilpm_buf_printf(out, ",mean_%s", col->name);
    ilpm_buf_puts(out, ",mean_fixed_before\n");
}

static void mean_csv(ilpm_buf *b, double v)
{
    if (v < 0)
        ilpm_buf_putc(b, ',');
    else
        ilpm_buf_printf(b, ",%.3f", v);
}

void ilpm_cmp_summary_csv(const ilpm_cmp_summary *s, ilpm_buf *b)
{
    for (int i = 0; i < s->n; i++) {
        const ilpm_cmp_total *t = &s->rows[i];
        ilpm_buf_csv_str(b, s->puzzle);
        ilpm_buf_putc(b, ',');
        ilpm_buf_csv_str(b, t->formulation);
        ilpm_buf_printf(b, ",%s,%ld,%ld,%ld,%ld,%ld,%ld,%.3f,%.3f",
                        ilpm_backend_name(t->backend), s->instances, t->runs,
                        t->solved, t->unsat, t->timeout, t->other, t->total_ms,
                        ilpm_cmp_total_median_ms(t));
        for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
            mean_csv(b, mean(t, col));
        mean_csv(b, mean(t, NULL));
        ilpm_buf_putc(b, '\n');
    }
}

/* "mean_" key: value. */
static void mean_json(ilpm_buf *b, const char *key, double v)
{
    if (v < 0)
        ilpm_buf_printf(b, ",\"mean_%s\":null", key);
    else
        ilpm_buf_printf(b, ",\"mean_%s\":%.3f", key, v);
}

void ilpm_cmp_summary_json(const ilpm_cmp_summary *s, ilpm_buf *b)
{
    for (int i = 0; i < s->n; i++) {
        const ilpm_cmp_total *t = &s->rows[i];
        ilpm_buf_puts(b, "{\"summary\":true,\"puzzle\":");
        ilpm_buf_json_str(b, s->puzzle);
        if (t->formulation[0]) {
            ilpm_buf_puts(b, ",\"formulation\":");
            ilpm_buf_json_str(b, t->formulation);
        }
        ilpm_buf_printf(b,
                        ",\"backend\":\"%s\",\"instances\":%ld,\"runs\":%ld,"
                        "\"solved\":%ld,\"unsat\":%ld,\"timeout\":%ld,"
                        "\"other\":%ld,\"total_solve_ms\":%.3f,"
                        "\"median_solve_ms\":%.3f",
                        ilpm_backend_name(t->backend), s->instances, t->runs,
                        t->solved, t->unsat, t->timeout, t->other, t->total_ms,
                        ilpm_cmp_total_median_ms(t));
        for (const ilpm_size_column *col = ilpm_size_columns; col->name; col++)
            mean_json(b, col->name, mean(t, col));
        mean_json(b, "fixed_before", mean(t, NULL));
        ilpm_buf_puts(b, "}\n");
    }
}
