/* ilpm: the command line.  The only part of ilpm that prints to the
 * terminal or chooses an exit status; everything else reports through
 * return values and ilpm_err. */
#include "batch.h"
#include "cli.h"
#include "compare.h"
#include "plot.h"
#include "progress.h"
#include "run.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int stop_requested;

/* The solvers' messages under --verbose, as they come. */
static void log_to_stderr(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stderr);
}

/* Seconds a verb that solves in this process gets to stop after the
 * first signal; 0 for batch, whose parent never sits inside a solver. */
static unsigned stop_grace;

#define HARD_STOP_MSG                                                          \
    "ilpm: the solver did not stop in time (GLPK polls for a stop only "       \
    "between its search steps); exiting\n"

/* The grace period ran out: end the process at once.  Every result
 * printed so far was flushed when it was printed. */
static void hard_stop(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, HARD_STOP_MSG, sizeof HARD_STOP_MSG - 1);
    (void)w;
    _exit(130);
}

static void on_signal(int sig)
{
    (void)sig;
    if (!stop_requested && stop_grace)
        alarm(stop_grace); /* repeated signals do not postpone it */
    stop_requested = 1;
}

static void install_signals(unsigned grace)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = hard_stop;
    sigaction(SIGALRM, &sa, NULL);
    stop_grace = grace;
}

/* ------------------------------------------------------------------ */
/* Instances: from parameters or from every file, in order.             */

typedef int (*instance_fn)(cli *c, const void *inst, const char *file,
                           long index, void *ctx);

typedef struct tally {
    int worst; /* exit status so far */
    long instances;
} tally;

/* The first reason a write to standard output failed; 0 while none has. */
static int stdout_errno;

/* Writes s to standard output and pushes it out: 0 if everything
 * written there so far arrived, else -1 (main reports the reason). */
static int put_stdout(const char *s)
{
    errno = 0;
    if (fputs(s, stdout) == EOF || fflush(stdout) != 0 || ferror(stdout)) {
        if (!stdout_errno)
            stdout_errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

static void note_exit(tally *t, int code)
{
    /* Severity: internal error > usage/input error > signal > time limit
     * > unsatisfiable > success. */
    static const int order[] = {EXIT_OK,     EXIT_UNSAT, EXIT_TIMEOUT,
                                EXIT_SIGNAL, EXIT_USAGE, EXIT_INTERNAL};
    int a = 0, b = 0;
    for (int i = 0; i < 6; i++) {
        if (order[i] == t->worst)
            a = i;
        if (order[i] == code)
            b = i;
    }
    if (b > a)
        t->worst = code;
}

static int for_each_instance(cli *c, tally *t, instance_fn fn, void *ctx)
{
    ilpm_err err = {0};
    if (c->nfiles == 0) {
        void *inst = NULL;
        int r =
            c->pz->from_params ? c->pz->from_params(c->params, &inst, &err) : 0;
        if (r < 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            note_exit(t, EXIT_USAGE);
            return 0;
        }
        if (r == 0) {
            fprintf(stderr,
                    "ilpm: %s needs an instance: give a FILE or the "
                    "parameters (see 'ilpm %s %s --help')\n",
                    c->pz->name, c->verb_name, c->pz->name);
            note_exit(t, EXIT_USAGE);
            return 0;
        }
        t->instances++;
        int rc = fn(c, inst, "", 0, ctx);
        c->pz->free_instance(inst);
        return rc;
    }
    for (int i = 0; i < c->nfiles && !stop_requested; i++) {
        ilpm_reader *rd = ilpm_reader_open(c->files[i], &err);
        if (!rd) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            note_exit(t, EXIT_USAGE);
            continue;
        }
        ilpm_instances it;
        ilpm_instances_init(&it, c->pz, c->params, rd, c->index);
        int rc = 0;
        while (rc == 0 && !stop_requested) {
            void *inst = NULL;
            int r = ilpm_instances_next(&it, &inst, &err);
            if (r == 0)
                break;
            if (r < 0) {
                fprintf(stderr, "ilpm: %s\n", err.msg);
                note_exit(t, EXIT_USAGE);
                if (r == -2)
                    break;
                continue;
            }
            t->instances++;
            rc = fn(c, inst, c->files[i], it.index, ctx);
            c->pz->free_instance(inst);
        }
        ilpm_reader_free(rd);
        if (rc != 0)
            break;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* solve / play                                                          */

/* The progress line on a terminal (not with --verbose, whose solver
 * output shares stderr), fed by the run layer's hook; NULL otherwise. */
static progress *progress_for(cli *c)
{
    progress *pg = c->run.solver.verbose ? NULL : progress_start();
    c->run.progress = pg ? progress_run : NULL;
    c->run.progress_ctx = pg;
    return pg;
}

static void progress_instance_of(progress *pg, const ilpm_puzzle *pz,
                                 const void *inst)
{
    if (!pg)
        return;
    char label[200];
    int n = snprintf(label, sizeof label, "%s ", pz->name);
    pz->describe(inst, label + n, sizeof label - (size_t)n);
    progress_instance(pg, label);
}

static int solve_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    tally *t = ctx;
    progress *pg = c->run.progress_ctx;
    progress_instance_of(pg, c->pz, inst);
    ilpm_result r;
    ilpm_result_init(&r);
    snprintf(r.file, sizeof r.file, "%s", file);
    r.index = index;
    ilpm_run_instance(c->pz, inst, c->params, &c->run, &r);
    ilpm_buf b;
    ilpm_buf_init(&b);
    /* Tools get a record for every instance, errors included; people
     * read an error on stderr alone. */
    if (c->format == FMT_JSON)
        ilpm_result_json(&r, &b);
    else if (c->format == FMT_CSV)
        ilpm_result_csv(&r, &b);
    else if (r.status != ILPM_ERROR)
        ilpm_result_text(&r, &b);
    progress_done(pg);
    /* Once standard output fails, solving on would only lose results. */
    int lost = put_stdout(ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    int code = ilpm_result_exit_code(&r);
    /* An instance whose model cannot be built is an input error. */
    if (r.status == ILPM_ERROR && !r.have_stats)
        code = EXIT_USAGE;
    if (r.status == ILPM_ERROR)
        fprintf(stderr, "ilpm: %s %s: %s\n", r.puzzle, r.instance, r.error);
    note_exit(t, lost ? EXIT_INTERNAL : code);
    ilpm_result_free(&r);
    return lost;
}

static int cmd_solve(cli *c)
{
    tally t = {EXIT_OK, 0};
    if (c->format == FMT_CSV) {
        ilpm_buf b;
        ilpm_buf_init(&b);
        ilpm_result_csv_header(&b);
        fputs(ilpm_buf_str(&b), stdout);
        ilpm_buf_free(&b);
    }
    progress *pg = progress_for(c);
    for_each_instance(c, &t, solve_one, &t);
    progress_stop(pg);
    if (stop_requested)
        note_exit(&t, EXIT_SIGNAL);
    return t.worst;
}

/* ------------------------------------------------------------------ */
/* stats / export                                                        */

static ilpm_model *build_model(cli *c, const void *inst, tally *t)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_run_model_new(&c->run.solver);
    if (!m) {
        fprintf(stderr, "ilpm: out of memory\n");
        note_exit(t, EXIT_INTERNAL);
        return NULL;
    }
    if (c->pz->build(inst, c->params, m, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        note_exit(t, EXIT_USAGE);
        ilpm_model_free(m);
        return NULL;
    }
    return m;
}

static int stats_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    (void)file;
    (void)index;
    tally *t = ctx;
    ilpm_model *m = build_model(c, inst, t);
    if (!m)
        return 0;
    ilpm_err err = {0};
    ilpm_stats s;
    char label[160];
    c->pz->describe(inst, label, sizeof label);
    if (ilpm_model_stats(m, &c->run.solver, &s, &err) != 0) {
        fprintf(stderr, "ilpm: %s %s: %s\n", c->pz->name, label, err.msg);
        note_exit(t, EXIT_USAGE);
        ilpm_model_free(m);
        return 0;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (c->format == FMT_JSON) {
        ilpm_stats_json(m, &s, c->pz->name, label, &b);
    } else {
        ilpm_buf_printf(&b, "%s %s: CNF with --amo %s --card %s\n", c->pz->name,
                        label, ilpm_amo_name(c->run.solver.amo),
                        ilpm_card_name(c->run.solver.card));
        ilpm_stats_text(m, &s, &b);
    }
    fputs(ilpm_buf_str(&b), stdout);
    ilpm_buf_free(&b);
    ilpm_stats_free(&s);
    ilpm_model_free(m);
    return 0;
}

static int cmd_stats(cli *c)
{
    tally t = {EXIT_OK, 0};
    for_each_instance(c, &t, stats_one, &t);
    return t.worst;
}

/* export writes one model: the instance is built when it is read, and
 * written only once the file has shown no second one, so that a file of
 * many instances writes nothing. */
typedef struct export_ctx {
    tally t;
    ilpm_model *m;
    long instances;
} export_ctx;

static int export_one(cli *c, const void *inst, const char *file, long index,
                      void *vctx)
{
    (void)index;
    export_ctx *x = vctx;
    if (++x->instances > 1) {
        fprintf(stderr,
                "ilpm: %s holds more than one instance and export writes "
                "one: pick it with --index I\n",
                file);
        note_exit(&x->t, EXIT_USAGE);
        return 1;
    }
    x->m = build_model(c, inst, &x->t);
    return 0;
}

static int cmd_export(cli *c)
{
    export_ctx x = {{EXIT_OK, 0}, NULL, 0};
    for_each_instance(c, &x.t, export_one, &x);
    /* Each format is tried even after another failed. */
    int built = x.m && x.t.worst == EXIT_OK;
    for (int f = 0; f < 4 && built; f++) {
        if (!c->export_path[f])
            continue;
        ilpm_err err = {0};
        int rc = ilpm_export(x.m, &c->run.solver, (ilpm_format)f,
                             c->export_path[f], &err);
        if (rc != 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            /* -2: the file could not be written, not the model. */
            note_exit(&x.t, rc == -2 ? EXIT_INTERNAL : EXIT_USAGE);
        }
    }
    ilpm_model_free(x.m);
    return x.t.worst;
}

/* ------------------------------------------------------------------ */
/* compare                                                               */

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
    progress_instance_of(pg, c->pz, inst);
    ilpm_comparison cmp;
    int rc = ilpm_compare_instance(c->pz, inst, c->params, x->forms, x->nforms,
                                   &c->run, &cmp);
    progress_done(pg);
    if (rc != 0 || ilpm_cmp_summary_add(&x->sum, &cmp) != 0) {
        fprintf(stderr, "ilpm: out of memory\n");
        note_exit(&x->t, EXIT_INTERNAL);
        ilpm_comparison_free(&cmp);
        return 1;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    for (int i = 0; i < cmp.nresults; i++) {
        ilpm_result *r = &cmp.results[i];
        snprintf(r->file, sizeof r->file, "%s", file);
        r->index = index;
        if (c->summary)
            ; /* the totals alone, at the end */
        else if (c->format == FMT_JSON)
            ilpm_result_json(r, &b);
        else if (c->format == FMT_CSV)
            ilpm_result_csv(r, &b);
        if (x->npts == x->cap) {
            int nc = x->cap ? 2 * x->cap : 64;
            plot_point *np = realloc(x->pts, (size_t)nc * sizeof *np);
            if (!np)
                break;
            x->pts = np;
            x->cap = nc;
        }
        plot_point *p = &x->pts[x->npts++];
        p->instance = x->t.instances;
        p->formulation = x->nforms > 0 ? x->forms[i / 2] : "";
        p->backend = r->backend == ILPM_BACKEND_SAT;
        p->answered = r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
                      r->status == ILPM_UNSAT;
        p->solve_ms = r->solve_ms;
        int code = ilpm_result_exit_code(r);
        if (code != EXIT_INTERNAL)
            note_exit(&x->t, code);
    }
    if (c->format == FMT_TEXT && !c->summary)
        ilpm_comparison_text(&cmp, &b);
    int lost = put_stdout(ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    if (lost)
        note_exit(&x->t, EXIT_INTERNAL);
    if (cmp.disagree) {
        fprintf(stderr, "ilpm: %s %s: DISAGREEMENT: %s\n", c->pz->name,
                cmp.instance, cmp.disagreement);
        note_exit(&x->t, EXIT_INTERNAL);
    }
    ilpm_comparison_free(&cmp);
    return lost;
}

/* The formulations to run: --formulation A,B or all the puzzle has. */
static int compare_forms(cli *c, compare_ctx *x, char **owned)
{
    const char *given = ilpm_params_get(c->params, "formulation");
    if (!c->pz->formulations)
        return 0;
    if (!given) {
        while (c->pz->formulations[x->nforms])
            x->nforms++;
        x->forms = calloc((size_t)x->nforms, sizeof *x->forms);
        if (!x->forms)
            return -1;
        for (int i = 0; i < x->nforms; i++)
            x->forms[i] = c->pz->formulations[i];
        return 0;
    }
    *owned = strdup(given);
    size_t n = strlen(given) + 1;
    x->forms = calloc(n, sizeof *x->forms);
    if (!*owned || !x->forms)
        return -1;
    for (char *tok = strtok(*owned, ","); tok; tok = strtok(NULL, ",")) {
        int ok = 0;
        for (int i = 0; c->pz->formulations[i]; i++)
            ok |= strcmp(c->pz->formulations[i], tok) == 0;
        if (!ok) {
            fprintf(stderr,
                    "ilpm: --formulation: %s has no formulation '%s' "
                    "(it has",
                    c->pz->name, tok);
            for (int i = 0; c->pz->formulations[i]; i++)
                fprintf(stderr, " %s", c->pz->formulations[i]);
            fprintf(stderr, ")\n");
            return -2;
        }
        x->forms[x->nforms++] = tok;
    }
    if (x->nforms == 0) {
        fprintf(stderr, "ilpm: --formulation: no formulation named\n");
        return -2;
    }
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
    if (put_stdout(ilpm_buf_str(&b)))
        note_exit(&x->t, EXIT_INTERNAL);
    ilpm_buf_free(&b);
}

static int cmd_compare(cli *c)
{
    compare_ctx x;
    memset(&x, 0, sizeof x);
    x.t.worst = EXIT_OK;
    char *owned = NULL;
    int rc = compare_forms(c, &x, &owned);
    if (rc != 0) {
        if (rc == -1)
            fprintf(stderr, "ilpm: out of memory\n");
        free(owned);
        free(x.forms);
        return rc == -1 ? EXIT_INTERNAL : EXIT_USAGE;
    }
    char perr[512];
    if (c->plot_path && plot_check_path(c->plot_path, perr, sizeof perr)) {
        fprintf(stderr, "ilpm: %s\n", perr);
        free(owned);
        free(x.forms);
        return EXIT_USAGE;
    }
    ilpm_cmp_summary_init(&x.sum);
    if (c->format == FMT_CSV) {
        ilpm_buf b;
        ilpm_buf_init(&b);
        if (c->summary)
            ilpm_cmp_summary_csv_header(&b);
        else
            ilpm_result_csv_header(&b);
        fputs(ilpm_buf_str(&b), stdout);
        ilpm_buf_free(&b);
    }
    progress *pg = progress_for(c);
    for_each_instance(c, &x.t, compare_one, &x);
    progress_stop(pg);
    print_summary(c, &x);
    if (c->plot_path && x.npts > 0 &&
        plot_write(c->plot_path, x.pts, x.npts, c->run.solver.time_limit, perr,
                   sizeof perr) != 0) {
        fprintf(stderr, "ilpm: %s\n", perr);
        note_exit(&x.t, EXIT_INTERNAL);
    }
    if (stop_requested)
        note_exit(&x.t, EXIT_SIGNAL);
    free(x.pts);
    free(x.forms);
    free(owned);
    ilpm_cmp_summary_free(&x.sum);
    return x.t.worst;
}

/* ------------------------------------------------------------------ */
/* batch / merge                                                         */

static void progress_line(void *ctx, const ilpm_batch_summary *s)
{
    (void)ctx;
    double rate = s->elapsed_s > 0 ? s->done / s->elapsed_s : 0;
    double eta = rate > 0 ? (s->total - s->done) / rate : 0;
    fprintf(stderr,
            "\r%ld/%ld done, %ld solved, %ld unsat, %ld timeout, %ld error, "
            "%.1f/s, ETA %.0f s   ",
            s->done, s->total,
            s->by_status[ILPM_SOLVED] + s->by_status[ILPM_OPTIMAL] +
                s->by_status[ILPM_FEASIBLE],
            s->by_status[ILPM_UNSAT], s->by_status[ILPM_TIMEOUT],
            s->by_status[ILPM_ERROR], rate, eta);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int cmd_batch(cli *c)
{
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    o.run = c->run;
    o.run.solver.stop_flag = NULL; /* workers install their own */
    o.both = c->both;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = c->jobs > 0 ? (int)c->jobs : (int)(cores > 0 ? cores : 1);
    o.memory_limit_mb = c->memory_limit;
    o.json = c->format_set ? c->format == FMT_JSON
                           : ends_with(c->out_path, ".json") ||
                                 ends_with(c->out_path, ".jsonl");
    o.index = c->index;
    o.resume = c->resume;
    o.shard_i = c->shard_n ? c->shard_i : 0;
    o.shard_n = c->shard_n ? c->shard_n : 1;
    o.incremental = !c->no_incremental;
    o.stop = &stop_requested;
    if (isatty(STDERR_FILENO))
        o.progress = progress_line;
    ilpm_batch_summary s;
    ilpm_err err = {0};
    int rc = ilpm_batch_run(c->pz, c->files, c->nfiles, c->params, &o,
                            c->out_path, &s, &err);
    if (o.progress)
        fputc('\n', stderr);
    if (rc != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        /* -2: the results file failed, not the input. */
        return rc == -2 ? EXIT_INTERNAL : EXIT_USAGE;
    }
    printf("%s: %ld runs", c->out_path, s.done);
    if (s.skipped)
        printf(" (%ld already there)", s.skipped);
    printf(" in %.1f s:", s.elapsed_s);
    for (int st = 0; st < 7; st++)
        if (s.by_status[st])
            printf(" %ld %s", s.by_status[st],
                   ilpm_status_name((ilpm_status)st));
    printf("\n");
    for (int b = 0; b < 2; b++)
        if (s.runs[b])
            printf("  %s: %ld runs, solve ms median %.2f, total %.1f\n",
                   ilpm_backend_name((ilpm_backend)b), s.runs[b],
                   s.median_ms[b], s.total_ms[b]);
    if (s.reused)
        printf("  %ld runs reused a model of their shape\n", s.reused);
    if (s.replaced)
        printf("  %ld worker(s) replaced after a crash or overrun\n",
               s.replaced);
    if (s.input_errors)
        printf("  %ld run(s) of input that did not parse (see the error "
               "rows)\n",
               s.input_errors);
    /* The rows' statuses, by solve's severity order. */
    tally t = {EXIT_OK, 0};
    if (stop_requested) {
        printf("  interrupted: %ld of %ld runs done; --resume goes on\n",
               s.done, s.total);
        note_exit(&t, EXIT_SIGNAL);
    }
    if (s.by_status[ILPM_ERROR] > s.input_errors)
        note_exit(&t, EXIT_INTERNAL);
    if (s.input_errors)
        note_exit(&t, EXIT_USAGE);
    if (s.by_status[ILPM_TIMEOUT] || s.by_status[ILPM_FEASIBLE])
        note_exit(&t, EXIT_TIMEOUT);
    if (s.by_status[ILPM_UNSAT])
        note_exit(&t, EXIT_UNSAT);
    return t.worst;
}

static int cmd_merge(cli *c)
{
    ilpm_err err = {0};
    int rc = ilpm_batch_merge(c->files, c->nfiles, c->out_path, &err);
    if (rc != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        return rc == -2 ? EXIT_INTERNAL : EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* gen / list                                                             */

static int cmd_gen(cli *c)
{
    ilpm_buf b;
    ilpm_err err = {0};
    ilpm_buf_init(&b);
    if (c->pz->generate(c->params, &b, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        ilpm_buf_free(&b);
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    if (c->out_path) {
        ilpm_out *out = ilpm_out_open(c->out_path, ILPM_OUT_REPLACE, &err);
        if (out) /* a failed write is reported by the commit */
            ilpm_out_write(out, b.s, b.len);
        if (!out || ilpm_out_commit(out, &err) != 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            rc = EXIT_INTERNAL;
        }
    } else {
        fputs(ilpm_buf_str(&b), stdout);
    }
    ilpm_buf_free(&b);
    return rc;
}

static int cmd_list(void)
{
    for (int i = 0; ilpm_puzzles[i]; i++) {
        const ilpm_puzzle *pz = ilpm_puzzles[i];
        printf("%-12s %s", pz->name, pz->summary);
        for (int f = 0; pz->formulations && pz->formulations[f]; f++)
            printf("%s%s", f ? ", " : "; formulations: ", pz->formulations[f]);
        putchar('\n');
    }
    return EXIT_OK;
}

static int run_verb(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        cli_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("ilpm %s\n", ILPM_VERSION);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "list") == 0) {
        if (argc > 2) {
            fprintf(stderr, "ilpm: list takes no arguments\n");
            return EXIT_USAGE;
        }
        return cmd_list();
    }
    int verb = cli_verb_find(argv[1]);
    if (verb < 0) {
        fprintf(stderr,
                "ilpm: unknown verb '%s' (the verbs: solve, play, stats, "
                "export, gen, compare, batch, merge, list; see ilpm "
                "--help)\n",
                argv[1]);
        return EXIT_USAGE;
    }
    cli c;
    memset(&c, 0, sizeof c);
    c.verb = (verb_id)verb;
    ilpm_run_opts_init(&c.run);
    c.run.solver.stop_flag = &stop_requested;
    c.run.solver.log = log_to_stderr;
    c.params = ilpm_params_new();
    int rc;
    if (!c.params) {
        fprintf(stderr, "ilpm: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (cli_parse(&c, argc, argv) != 0) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (c.help) {
        cli_help(stdout, &c);
        rc = EXIT_OK;
        goto done;
    }
    /* GLPK checks for a stop only between its steps (an LP solve, a cut
     * round), which can take minutes on a large model: after a signal,
     * solve, play and compare get 5 s to stop cleanly. */
    install_signals(c.verb == VERB_BATCH ? 0 : 5);
    switch (c.verb) {
    case VERB_SOLVE:
    case VERB_PLAY:
        rc = cmd_solve(&c);
        break;
    case VERB_STATS:
        rc = cmd_stats(&c);
        break;
    case VERB_EXPORT:
        rc = cmd_export(&c);
        break;
    case VERB_COMPARE:
        rc = cmd_compare(&c);
        break;
    case VERB_BATCH:
        rc = cmd_batch(&c);
        break;
    case VERB_MERGE:
        rc = cmd_merge(&c);
        break;
    default:
        rc = cmd_gen(&c);
        break;
    }
done:
    ilpm_params_free(c.params);
    free(c.files);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = run_verb(argc, argv);
    /* A result that never arrived (a full disk, a closed pipe) fails the
     * run, like any write error.  fclose reports EBADF when standard
     * output was closed and nothing was written to it: that is no loss. */
    if (put_stdout("") != 0 || (fclose(stdout) != 0 && errno != EBADF)) {
        fprintf(stderr, "ilpm: standard output: %s\n",
                strerror(stdout_errno ? stdout_errno : errno));
        tally t = {rc, 0};
        note_exit(&t, EXIT_INTERNAL);
        rc = t.worst;
    }
    return rc;
}
