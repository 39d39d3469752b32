/* compare: every formulation on every back end (ilp, sat, cp), side by
 * side, the agreement check, the summary and the plot. */
#include "cli.h"
#include "compare.h"
#include "plot.h"
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct compare_ctx {
    tally t;
    const char **forms;
    int nforms;
    plot_point *pts;
    int npts, cap;
    char **labels; /* formulation names kept for the plot */
    ilpm_cmp_summary sum;
} compare_ctx;

static int compare_one(cli *c, const void *inst, const char *file, long index,
                       void *vctx)
{
    compare_ctx *x = vctx;
    progress *pg = c->run.progress_ctx;
    ilpm_comparison cmp;
    int rc = ilpm_compare_instance(c->pz, inst, c->params, x->forms, x->nforms,
                                   &c->run, &cmp);
    ilpm_progress_done(pg);
    if (rc != 0 || ilpm_cmp_summary_add(&x->sum, &cmp) != 0) {
        fprintf(stderr, "ilpm: out of memory\n");
        ilpm_cli_note_exit(&x->t, EXIT_INTERNAL);
        ilpm_comparison_free(&cmp);
        return 1;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    /* The runs a stop kept from starting have no outcome: no record, no
     * point, no exit status of their own. */
    int started = cmp.nresults - cmp.not_run;
    for (int i = 0; i < started; i++) {
        ilpm_result *r = &cmp.results[i];
        snprintf(r->file, sizeof r->file, "%s", file);
        r->index = index;
        if (ilpm_grow_int((void **)&x->pts, &x->cap, x->npts + 1,
                          sizeof *x->pts) != 0)
            break;
        plot_point *p = &x->pts[x->npts++];
        p->instance = x->t.instances;
        p->formulation = x->nforms > 0 ? x->forms[i / ILPM_BACKEND_COUNT] : "";
        p->backend = (int)r->backend;
        p->answered = r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
                      r->status == ILPM_UNSAT;
        p->solve_ms = r->solve_ms;
        int code = ilpm_cli_exit_code(r, FMT_TEXT);
        if (code != EXIT_INTERNAL)
            ilpm_cli_note_exit(&x->t, code);
    }
    if (c->summary)
        ; /* the totals alone, at the end */
    else if (c->format == FMT_JSON)
        ilpm_comparison_json(&cmp, &b);
    else if (c->format == FMT_CSV)
        ilpm_comparison_csv(&cmp, &b);
    else
        ilpm_comparison_text(&cmp, &b);
    int lost = ilpm_cli_put_stdout(ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    if (lost)
        ilpm_cli_note_exit(&x->t, EXIT_INTERNAL);
    if (cmp.disagree) {
        fprintf(stderr, "ilpm: %s %s: DISAGREEMENT: %s\n", c->pz->name,
                cmp.instance, cmp.disagreement);
        ilpm_cli_note_exit(&x->t, EXIT_INTERNAL);
    }
    ilpm_comparison_free(&cmp);
    return lost;
}

/* The formulations to run: --formulation A,B or all the puzzle has.  0,
 * or -1 with err. */
static int compare_forms(cli *c, compare_ctx *x, char **owned, ilpm_err *err)
{
    const char *given = ilpm_params_get(c->params, "formulation");
    if (!c->pz->formulations)
        return 0;
    if (!given) {
        while (c->pz->formulations[x->nforms])
            x->nforms++;
        x->forms = calloc((size_t)x->nforms, sizeof *x->forms);
        if (!x->forms)
            return ilpm_err_nomem(err, "out of memory");
        for (int i = 0; i < x->nforms; i++)
            x->forms[i] = c->pz->formulations[i];
        return 0;
    }
    *owned = strdup(given);
    size_t n = strlen(given) + 1;
    x->forms = calloc(n, sizeof *x->forms);
    if (!*owned || !x->forms)
        return ilpm_err_nomem(err, "out of memory");
    for (char *tok = *owned, *end; tok; tok = end) {
        if ((end = strchr(tok, ',')))
            *end++ = '\0';
        if (!*tok)
            return ilpm_err_input(err,
                                  "--formulation: an empty name in '%s' "
                                  "(give A or A,B)",
                                  given);
        for (int i = 0; i < x->nforms; i++)
            if (strcmp(x->forms[i], tok) == 0)
                return ilpm_err_input(err, "--formulation: '%s' given twice",
                                      tok);
        int ok = 0;
        for (int i = 0; c->pz->formulations[i]; i++)
            ok |= strcmp(c->pz->formulations[i], tok) == 0;
        if (!ok) {
            ilpm_buf b;
            ilpm_buf_init(&b);
            ilpm_buf_printf(&b,
                            "--formulation: %s has no formulation '%s' "
                            "(it has",
                            c->pz->name, tok);
            for (int i = 0; c->pz->formulations[i]; i++)
                ilpm_buf_printf(&b, " %s", c->pz->formulations[i]);
            ilpm_err_input(err, "%s)", ilpm_buf_str(&b));
            ilpm_buf_free(&b);
            return -1;
        }
        x->forms[x->nforms++] = tok;
    }
    if (x->nforms == 0)
        return ilpm_err_input(err, "--formulation: no formulation named");
    return 0;
}

/* The totals: alone with --summary, in the chosen format; else after the
 * tables of two or more instances (CSV and JSON records stay one kind). */
static void print_summary(cli *c, compare_ctx *x)
{
    const ilpm_cmp_summary *sum = &x->sum;
    if (sum->instances == 0 ||
        (!c->summary && (c->format != FMT_TEXT || sum->instances < 2)))
        return;
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (!c->summary)
        ilpm_buf_putc(&b, '\n');
    if (c->format == FMT_JSON)
        ilpm_cmp_summary_json(sum, &b);
    else if (c->format == FMT_CSV)
        ilpm_cmp_summary_csv(sum, &b);
    else
        ilpm_cmp_summary_text(sum, &b);
    if (ilpm_cli_put_stdout(ilpm_buf_str(&b)))
        ilpm_cli_note_exit(&x->t, EXIT_INTERNAL);
    ilpm_buf_free(&b);
}

int ilpm_cmd_compare(cli *c)
{
    compare_ctx x;
    memset(&x, 0, sizeof x);
    x.t.worst = EXIT_OK;
    char *owned = NULL;
    ilpm_err ferr = {0};
    if (compare_forms(c, &x, &owned, &ferr) != 0) {
        fprintf(stderr, "ilpm: %s\n", ferr.msg);
        free(owned);
        free(x.forms);
        return ilpm_cli_err_exit(c, &ferr);
    }
    char perr[512];
    if (c->plot_path && ilpm_plot_check_path(c->plot_path, perr, sizeof perr)) {
        fprintf(stderr, "ilpm: %s\n", perr);
        free(owned);
        free(x.forms);
        return EXIT_USAGE;
    }
    ilpm_cmp_summary_init(&x.sum);
    if (c->format == FMT_CSV &&
        ilpm_cli_put_made(c->summary ? ilpm_cmp_summary_csv_header
                                     : ilpm_comparison_csv_header) != 0)
        ilpm_cli_note_exit(&x.t, EXIT_INTERNAL);
    progress *pg = ilpm_progress_for(c);
    ilpm_cli_for_each_instance(c, &x.t, compare_one, &x);
    ilpm_progress_stop(pg);
    print_summary(c, &x);
    if (c->plot_path && x.npts > 0 &&
        ilpm_plot_write(c->plot_path, x.pts, x.npts, c->run.solver.time_limit,
                        perr, sizeof perr) != 0) {
        fprintf(stderr, "ilpm: %s\n", perr);
        ilpm_cli_note_exit(&x.t, EXIT_INTERNAL);
    }
    if (cli_stop_requested)
        ilpm_cli_note_exit(&x.t, EXIT_SIGNAL);
    free(x.pts);
    free(x.forms);
    free(owned);
    ilpm_cmp_summary_free(&x.sum);
    return x.t.worst;
}
