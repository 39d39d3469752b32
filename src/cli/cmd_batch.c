/* batch and merge: the library's batch runner on the command line, its
 * progress line, summary and exit status. */
#include "batch.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int ilpm_cli_batch_writes_json(const cli *c)
{
    if (ilpm_cli_given(c, "format"))
        return c->format == FMT_JSON;
    /* --resume adds rows in the format of the rows there, whatever the
     * file's name (outputs.c refuses a --format that differs). */
    int json = 0;
    ilpm_err err = {0};
    if (c->resume && !c->slurm_n &&
        ilpm_results_probe(c->out_path, &json, &err) == 1)
        return json;
    return ilpm_results_name_format(c->out_path) == 1;
}

int ilpm_cmd_batch(cli *c)
{
    if (c->slurm_n)
        return ilpm_cmd_slurm(c);
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    o.run = c->run;
    o.run.solver.stop_flag = NULL; /* workers install their own */
    o.backends = c->backends;
    /* One worker per core, each run on one thread unless --threads says */
    o.run.threads = c->run.threads > 0 ? c->run.threads : 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = c->jobs > 0 ? (int)c->jobs : (int)(cores > 0 ? cores : 1);
    o.memory_limit_mb = c->memory_limit;
    o.json = ilpm_cli_batch_writes_json(c);
    o.index = c->index;
    o.resume = c->resume;
    o.shard_i = c->shard_n ? c->shard_i : 0;
    o.shard_n = c->shard_n ? c->shard_n : 1;
    o.incremental = !c->no_incremental;
    o.stop = &cli_stop_requested;
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
        /* ILPM_E_IO, the results file failed (not the input): exit 1 */
        return ilpm_cli_err_exit(c, &err);
    }
    /* With --out -, the rows are standard output: the summary goes to
     * stderr, beside the progress line. */
    FILE *f = strcmp(c->out_path, "-") == 0 ? stderr : stdout;
    fprintf(f, "%s: %ld runs", f == stderr ? "standard output" : c->out_path,
            s.done);
    if (s.skipped)
        fprintf(f, " (%ld already there)", s.skipped);
    fprintf(f, " in %.1f s%s", s.elapsed_s, s.done ? ":" : "");
    for (int st = 0; st < ILPM_STATUS_COUNT; st++)
        if (s.by_status[st])
            fprintf(f, " %ld %s", s.by_status[st],
                    ilpm_status_name((ilpm_status)st));
    fprintf(f, "\n");
    for (int b = 0; b < ILPM_RUN_BACKENDS; b++)
        if (s.runs[b])
            fprintf(f, "  %s: %ld runs, solve ms median %.2f, total %.1f\n",
                    ilpm_backend_name((ilpm_backend)b), s.runs[b],
                    s.median_ms[b], s.total_ms[b]);
    if (s.reused)
        fprintf(f, "  %ld runs reused a model of their shape\n", s.reused);
    if (s.replaced)
        fprintf(f, "  %ld worker(s) replaced after a crash or overrun\n",
                s.replaced);
    if (s.input_errors)
        fprintf(f,
                "  %ld run(s) of input that did not parse or translate (see "
                "the error rows)\n",
                s.input_errors);
    if (s.postsolve_errors)
        fprintf(f,
                "  %ld answer(s) whose model's statements after solve failed "
                "(a MathProg check: see the postsolve_error column)\n",
                s.postsolve_errors);
    if (cli_stop_requested)
        fprintf(f, "  interrupted: %ld of %ld runs done; --resume goes on\n",
                s.done, s.total);
    return ilpm_cli_batch_exit(&s, cli_stop_requested);
}

int ilpm_cmd_merge(cli *c)
{
    ilpm_err err = {0};
    int rc = ilpm_batch_merge(c->files, c->nfiles, c->out_path, &err);
    if (rc != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        return ilpm_cli_err_exit(c, &err);
    }
    return EXIT_OK;
}
