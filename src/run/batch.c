/* Batches: the parent parses every instance once, to find where it starts
 * and whether it is sound, and keeps only that position (a file may hold
 * millions of instances); it forks worker processes (pool.c), hands them
 * runs over pipes, and writes the result rows in input order, flushed as
 * they complete.  A worker parses its instance again from the position.
 * A worker that crashes, runs out of memory or overruns its time limit is
 * recorded and replaced; an interrupted batch keeps every finished row,
 * and --resume skips the rows already in the results file (results.c). */
#include "batch_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ilpm_batch_opts_init(ilpm_batch_opts *o)
{
    memset(o, 0, sizeof *o);
    ilpm_run_opts_init(&o->run);
    o->jobs = 1;
    o->shard_n = 1;
    o->incremental = 1;
}

const char *ilpm_batch_task_text(const struct batch *b, const struct task *t)
{
    return ilpm_buf_str(&b->text) + t->text;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ */
/* The parent                                                            */

struct outq {
    ilpm_out *out;
    const struct batch *b;
    char **rows; /* by job; NULL until done */
    long next;   /* first job not yet written in order */
    long njobs;
};

struct times {
    double *v[ILPM_RUN_BACKENDS];
    long n[ILPM_RUN_BACKENDS];
};

static void record(ilpm_batch_summary *s, struct times *tm, ilpm_backend b,
                   ilpm_status st, double ms)
{
    s->done++;
    if ((unsigned)st < ILPM_STATUS_COUNT)
        s->by_status[st]++;
    s->runs[b]++;
    s->total_ms[b] += ms;
    if (tm->v[b])
        tm->v[b][tm->n[b]++] = ms;
}

/* A row for a run the worker could not report (death, overrun);
 * stopped_by names the signal that cut it off from outside, or is NULL. */
static char *parent_row(const struct batch *b, long j, ilpm_status st,
                        const char *msg, const char *stopped_by, int worker,
                        double ms)
{
    ilpm_result r;
    ilpm_result_init(&r);
    ilpm_batch_fill_key(b, j, &r);
    r.status = st;
    r.solve_ms = ms;
    r.worker = worker;
    snprintf(r.error, sizeof r.error, "%s", msg);
    if (stopped_by)
        snprintf(r.stopped_by, sizeof r.stopped_by, "%s", stopped_by);
    ilpm_buf row;
    ilpm_buf_init(&row);
    ilpm_batch_format_row(b, &r, &row);
    ilpm_result_free(&r);
    return ilpm_buf_take(&row);
}

/* An instance that did not parse is a result already. */
static int job_bad(const struct batch *b, long j)
{
    return b->tasks[b->jobs[j].task].bad;
}

/* Writes job j's row, if it has one: a worker's, or for an instance that
 * did not parse, one made now (not before: millions of bad instances would
 * wait in memory). */
static int out_row(struct outq *q, long j)
{
    char *row = q->rows[j];
    q->rows[j] = NULL;
    if (!row && !job_bad(q->b, j))
        return 0;
    if (!row) {
        const struct task *t = &q->b->tasks[q->b->jobs[j].task];
        row = parent_row(q->b, j, ILPM_ERROR, ilpm_batch_task_text(q->b, t),
                         NULL, 0, 0);
    }
    if (row)
        ilpm_out_write(q->out, row, strlen(row));
    free(row);
    return 1;
}

/* Writes the rows now in order; -1 with err once the file fails. */
static int out_flush_ordered(struct outq *q, ilpm_err *err)
{
    while (q->next < q->njobs && out_row(q, q->next))
        q->next++;
    return ilpm_out_flush(q->out, err);
}

/* Writes every finished row (the ones after a missing row, too). */
static void out_flush_all(struct outq *q)
{
    out_flush_ordered(q, NULL);
    for (long j = q->next; j < q->njobs; j++)
        out_row(q, j);
}

/* Copies a file that cannot be read twice (standard input, a pipe) to a
 * temporary file, since workers read their instances again by offset.
 * 0 when copied or when the file needs no copy (or will not open: the
 * reader then says why, as for any file), -1 with err. */
static int spool(struct source *s, ilpm_err *err)
{
    FILE *in = stdin;
    if (strcmp(s->file, "-") != 0) {
        struct stat st;
        if (stat(s->file, &st) != 0 ||
            !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
              S_ISSOCK(st.st_mode)))
            return 0;
        if (!(in = fopen(s->file, "rb")))
            return 0;
    }
    const char *dir = getenv("TMPDIR");
    ilpm_buf path;
    ilpm_buf_init(&path);
    ilpm_buf_printf(&path, "%s/ilpm-batch-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = path.oom ? -1 : mkstemp(path.s);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!out) {
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "%s: cannot make a temporary copy in %s: %s", s->file,
                      dir && *dir ? dir : "/tmp", strerror(errno));
        if (fd >= 0) {
            close(fd);
            remove(path.s);
        }
        ilpm_buf_free(&path);
        if (in != stdin)
            fclose(in);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    int rerr = 0, werr = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            werr = errno;
            break;
        }
    if (ferror(in))
        rerr = errno ? errno : EIO;
    if (in != stdin)
        fclose(in);
    if (fclose(out) != 0 && !werr)
        werr = errno ? errno : EIO;
    if (rerr || werr) {
        if (rerr)
            ilpm_err_fail(err, ILPM_E_FAIL, "%s: read error: %s", s->file,
                          strerror(rerr));
        else
            ilpm_err_fail(err, ILPM_E_FAIL, "%s: cannot write: %s", path.s,
                          strerror(werr));
        remove(path.s);
        ilpm_buf_free(&path);
        return -1;
    }
    s->copy = ilpm_buf_take(&path);
    return 0;
}

/* Keeps an instance as a task with a job per back end, leaving out the
 * runs --resume finds done (a task with none is not kept). */
static int add_task(struct batch *b, const struct doneset *done,
                    const char *form, int src, long index, int64_t offset,
                    long lines, int bad, const char *text,
                    ilpm_batch_summary *sum, ilpm_err *err)
{
    const ilpm_batch_opts *o = b->o;
    unsigned set =
        o->backends ? o->backends : ILPM_BACKEND_BIT(o->run.solver.backend);
    int added = 0;
    for (int k = 0; k < ILPM_RUN_BACKENDS; k++) {
        if (!(set & ILPM_BACKEND_BIT(k)))
            continue;
        ilpm_backend be = (ilpm_backend)k;
        const rowkey *k = ilpm_results_doneset_has(
            done, b->src[src].file, index, form, ilpm_backend_name(be));
        if (k) {
            /* Its row stays a result of this batch: its status counts
             * in the exit status as a new row's would. */
            sum->skipped++;
            if (k->status >= 0)
                sum->kept_by_status[k->status]++;
            if (k->status == ILPM_ERROR && bad)
                sum->kept_input_errors++;
            continue;
        }
        /* Jobs go to the workers as int32. */
        if (b->njobs >= INT32_MAX - 1 || b->ntasks >= INT32_MAX - 1)
            return ilpm_err_input(err,
                                  "more than %d runs in one batch "
                                  "(--shard divides them)",
                                  INT32_MAX - 2);
        if (ilpm_grow((void **)&b->jobs, &b->cap_jobs, (size_t)b->njobs + 1,
                      sizeof *b->jobs) != 0)
            return ilpm_err_nomem(err, "out of memory");
        b->jobs[b->njobs].task = b->ntasks;
        b->jobs[b->njobs].backend = be;
        b->njobs++;
        added++;
    }
    if (!added)
        return 0;
    if (ilpm_grow_int((void **)&b->tasks, &b->cap_tasks, b->ntasks + 1,
                      sizeof *b->tasks) != 0)
        return ilpm_err_nomem(err, "out of memory");
    struct task *t = &b->tasks[b->ntasks++];
    t->offset = offset;
    t->lines = lines;
    t->index = index;
    t->text = b->text.len;
    t->bad = bad;
    t->src = src;
    ilpm_buf_put(&b->text, text, strlen(text) + 1);
    return b->text.oom ? ilpm_err_nomem(err, "out of memory") : 0;
}

/* A run's key goes into its row's columns (ilpm_result): one that would
 * not fit there could not be found again by --resume, so it is refused
 * before any run. */
static int keys_fit(const char *const *files, int nfiles, const char *form,
                    ilpm_err *err)
{
    size_t fmax = sizeof((ilpm_result *)0)->file - 1;
    size_t omax = sizeof((ilpm_result *)0)->formulation - 1;
    for (int i = 0; i < nfiles; i++)
        if (strlen(files[i]) > fmax)
            return ilpm_err_input(err,
                                  "%.60s...: a FILE name of more than %zu "
                                  "bytes does not fit the results' file "
                                  "column",
                                  files[i], fmax);
    if (strlen(form) > omax)
        return ilpm_err_input(err,
                              "--formulation %.60s...: more than %zu bytes "
                              "do not fit the results' formulation column",
                              form, omax);
    return 0;
}

/* Reads every file once.  Each instance is parsed to find where the next
 * one starts and whether it is sound, and freed at once: what is kept is
 * its position and label, or why it did not parse. */
static int index_all(struct batch *b, const char *const *files, int nfiles,
                     const struct doneset *done, const char *form,
                     ilpm_batch_summary *sum, ilpm_err *err)
{
    const ilpm_batch_opts *o = b->o;
    long seen = 0; /* instances of the files so far, for --shard */
    b->src = calloc((size_t)nfiles + 1, sizeof *b->src);
    if (!b->src)
        return ilpm_err_nomem(err, "out of memory");
    for (int i = 0; i < nfiles; i++) {
        struct source *s = &b->src[i];
        s->file = files[i];
        b->nsrc = i + 1;
        if (spool(s, err) != 0)
            return -1;
        ilpm_err oerr = {0};
        ilpm_reader *rd = ilpm_batch_open_source(s, 0, 0, &oerr);
        if (!rd) {
            /* One error row stands for the file. */
            if (seen++ % o->shard_n == o->shard_i &&
                add_task(b, done, form, i, 1, 0, 0, 1, oerr.msg, sum, err) != 0)
                return -1;
            continue;
        }
        ilpm_instances it;
        ilpm_instances_init(&it, b->pz, b->p, rd, o->index);
        for (;;) {
            void *inst = NULL;
            ilpm_err perr = {0};
            int r = ilpm_instances_next(&it, &inst, &perr);
            if (r == 0)
                break;
            char label[sizeof((ilpm_result *)0)->instance] = "";
            int mine = seen++ % o->shard_n == o->shard_i;
            if (r > 0) {
                if (mine)
                    b->pz->describe(inst, label, sizeof label);
                b->pz->free_instance(inst);
            }
            /* What ends the walk (nothing more to read) is one error
             * row too: at the index asked for, or the first of an empty
             * file. */
            int over = r < 0 && it.done;
            long at = !over                ? it.index
                      : it.want > it.index ? it.want
                      : it.index == 0      ? 1
                                           : it.index;
            int bad = r < 0;
            if (mine && add_task(b, done, form, i, at, it.offset, it.lines, bad,
                                 bad ? perr.msg : label, sum, err) != 0) {
                ilpm_reader_free(rd);
                return -1;
            }
            if (over)
                break;
        }
        ilpm_reader_free(rd);
    }
    return 0;
}

/* Finds the runs to do: every instance of the files, less those a
 * --resume finds in the results.  *upgrade tells that the results are of
 * an older ilpm and need the current columns. */
static int find_runs(struct batch *b, const char *const *files, int nfiles,
                     const char *out_path, int *upgrade, int64_t *cut_at,
                     ilpm_batch_summary *sum, ilpm_err *err)
{
    const ilpm_batch_opts *o = b->o;
    struct keyset done = {0};
    struct doneset dset = {0};
    int rc = -1;
    if (o->resume && ilpm_results_read(out_path, &done, 0, 0, err) != 0)
        goto out;
    if (o->resume && ilpm_results_doneset_build(&dset, &done) != 0) {
        ilpm_err_nomem(err, "out of memory");
        goto out;
    }
    const char *form = "";
    if (b->pz->formulations) {
        const char *f = ilpm_params_get(b->p, "formulation");
        form = f ? f : b->pz->formulations[0];
    }
    if (keys_fit(files, nfiles, form, err) != 0 ||
        index_all(b, files, nfiles, &dset, form, sum, err) != 0)
        goto out;
    *upgrade = done.upgraded && !done.json;
    *cut_at = done.cut ? done.cut_at : -1;
    sum->total = b->njobs;
    rc = 0;
out:
    /* Done with the old rows: the workers need not inherit them. */
    free(dset.slot);
    ilpm_results_keyset_free(&done);
    return rc;
}

/* Opens the results file: appended to on resume, else started anew.
 * A row cut off at its end (cut_at >= 0: a batch stopped while writing
 * it) goes first: its run is done again.  0, or -1 or -2 with err as
 * ilpm_batch_run returns them. */
static int open_results(struct outq *q, const ilpm_batch_opts *o,
                        const char *out_path, int upgrade, int64_t cut_at,
                        ilpm_err *err)
{
    int fresh = 1;
    if (cut_at >= 0 && truncate(out_path, (off_t)cut_at) != 0) {
        ilpm_err_fail(err, ILPM_E_IO, "%s: cannot cut its last row off: %s",
                      out_path, strerror(errno));
        return -1;
    }
    if (o->resume) {
        FILE *f = fopen(out_path, "r");
        if (f) {
            fresh = fgetc(f) == EOF;
            fclose(f);
        }
    }
    /* Rows of an older ilpm take the current columns first, so that the
     * file keeps one header. */
    if (!fresh && upgrade && !o->json) {
        int up = ilpm_results_rewrite(out_path, err);
        if (up != 0)
            return up;
    }
    /* Written in place as rows complete, so that a stopped batch keeps
     * them; a failed write (a full disk) ends the batch (ILPM_E_IO). */
    q->out = ilpm_out_open(out_path,
                           fresh ? ILPM_OUT_IN_PLACE : ILPM_OUT_APPEND, err);
    if (!q->out)
        return ilpm_err_io(err);
    if (fresh && !o->json) {
        ilpm_buf h;
        ilpm_buf_init(&h);
        ilpm_result_csv_header(&h);
        ilpm_out_write(q->out, h.s, h.len);
        ilpm_buf_free(&h);
        if (ilpm_out_flush(q->out, err) != 0)
            return ilpm_err_io(err);
    }
    return 0;
}

/* Makes room for the rows and times of every job, and writes the rows of
 * the instances that did not parse that come first. */
static int start_queue(struct outq *q, const struct batch *b, struct times *tm,
                       ilpm_batch_summary *sum, ilpm_err *err)
{
    q->rows = calloc((size_t)b->njobs + 1, sizeof *q->rows);
    long per[ILPM_RUN_BACKENDS] = {0};
    for (long j = 0; j < b->njobs; j++)
        per[b->jobs[j].backend]++;
    int oom = !q->rows;
    for (int k = 0; k < ILPM_RUN_BACKENDS; k++)
        oom |= !(tm->v[k] = malloc(((size_t)per[k] + 1) * sizeof(double)));
    if (oom)
        return ilpm_err_nomem(err, "out of memory");
    q->b = b;
    q->njobs = b->njobs;
    /* Instances that did not parse are results already (their rows are
     * made as they are written). */
    for (long j = 0; j < b->njobs; j++)
        if (job_bad(b, j)) {
            record(sum, tm, b->jobs[j].backend, ILPM_ERROR, 0);
            sum->input_errors++;
        }
    return out_flush_ordered(q, err) != 0 ? ilpm_err_io(err) : 0;
}

/* What the scheduler's steps share. */
struct sched {
    const struct batch *b;
    struct outq *q;
    struct times *tm;
    struct pool *pool;
    ilpm_batch_summary *sum;
    double hard; /* when the parent stops waiting for a run, 0: never */
    int stopping;
};

/* Hands the next runs to the idle workers. */
static void hand_out(struct sched *s, long *next)
{
    const struct batch *b = s->b;
    for (int i = 0; i < s->pool->n; i++) {
        while (*next < b->njobs && job_bad(b, *next))
            (*next)++; /* parse errors are done */
        struct worker *w = &s->pool->w[i];
        if (w->pid > 0 && w->job < 0 && *next < b->njobs &&
            ilpm_pool_send(w, *next) == 0)
            (*next)++;
    }
}

/* Takes what worker i has to say (ready: it said something): its row, or
 * its death; or, silent past the hard limit, kills it.  A worker that
 * died or was killed is recorded with its run and replaced. */
static int collect(struct sched *s, int i, int ready, double now, ilpm_err *err)
{
    struct worker *w = &s->pool->w[i];
    const struct batch *b = s->b;
    long j = w->job;
    if (ready) {
        struct msg m;
        char *text;
        if (ilpm_pool_receive(w, &m, &text)) {
            if (m.len > 0) {
                s->q->rows[j] = text;
                text = NULL;
                record(s->sum, s->tm, b->jobs[j].backend, (ilpm_status)m.status,
                       m.solve_ms);
                s->sum->reused += m.reused;
                s->sum->input_errors += m.input;
                s->sum->postsolve_errors += m.post;
            }
            free(text);
            return 0;
        }
        int status = 0;
        ilpm_pool_reap(w, &status);
        if (j >= 0 && !s->stopping) {
            char msg[160];
            const char *by = ilpm_pool_death(w, status, msg, sizeof msg);
            s->q->rows[j] = parent_row(b, j, ILPM_ERROR, msg, by, w->id, 0);
            record(s->sum, s->tm, b->jobs[j].backend, ILPM_ERROR, 0);
        }
        if (s->stopping)
            return 0; /* it exited as asked */
        s->sum->replaced++;
        return ilpm_pool_replace(s->pool, i, err);
    }
    if (j >= 0 && s->hard > 0 && now - w->started > s->hard && !s->stopping) {
        ilpm_pool_kill(w);
        char msg[160];
        snprintf(msg, sizeof msg,
                 "worker %d overran the time limit and was killed "
                 "after %.1f s",
                 w->id, now - w->started);
        s->q->rows[j] = parent_row(b, j, ILPM_TIMEOUT, msg, NULL, w->id,
                                   (now - w->started) * 1000.0);
        record(s->sum, s->tm, b->jobs[j].backend, ILPM_TIMEOUT,
               (now - w->started) * 1000.0);
        s->sum->replaced++;
        return ilpm_pool_replace(s->pool, i, err);
    }
    return 0;
}

/* Runs the jobs on the pool until all are done or the caller stops the
 * batch, writing their rows in order. */
static int schedule(struct sched *s, const ilpm_batch_opts *o, double t0,
                    ilpm_err *err)
{
    long next = 0;
    double last_progress = 0, stop_at = 0;
    for (;;) {
        s->stopping = o->stop && *o->stop;
        if (s->stopping && !stop_at) {
            stop_at = ilpm_now();
            ilpm_pool_signal(s->pool, SIGTERM);
        }
        if (!s->stopping)
            hand_out(s, &next);
        if (!ilpm_pool_busy(s->pool) && (s->stopping || next >= s->b->njobs))
            return 0;
        if (s->stopping && ilpm_now() - stop_at > 5.0)
            ilpm_pool_signal(s->pool, SIGKILL);
        int pr = ilpm_pool_poll(s->pool, 200);
        if (pr < 0 && errno != EINTR)
            return ilpm_err_fail(err, ILPM_E_FAIL, "poll: %s", strerror(errno));
        double now = ilpm_now();
        for (int i = 0; i < s->pool->n; i++)
            if (s->pool->w[i].pid > 0 &&
                collect(s, i, pr > 0 && ilpm_pool_ready(s->pool, i), now,
                        err) != 0)
                return -1;
        if (out_flush_ordered(s->q, err) != 0)
            return ilpm_err_io(err);
        if (o->progress && now - last_progress > 0.2) {
            last_progress = now;
            s->sum->elapsed_s = now - t0;
            o->progress(o->progress_ctx, s->sum);
        }
    }
}

/* The median solve time of each back end, from the times recorded. */
static void medians(ilpm_batch_summary *sum, struct times *tm)
{
    for (int k = 0; k < ILPM_RUN_BACKENDS; k++) {
        if (tm->v[k] && tm->n[k] > 0) {
            qsort(tm->v[k], (size_t)tm->n[k], sizeof(double), cmp_double);
            sum->median_ms[k] =
                tm->n[k] % 2
                    ? tm->v[k][tm->n[k] / 2]
                    : (tm->v[k][tm->n[k] / 2 - 1] + tm->v[k][tm->n[k] / 2]) / 2;
        }
        free(tm->v[k]);
        tm->v[k] = NULL;
    }
}

static void batch_free(struct batch *b)
{
    free(b->tasks);
    free(b->jobs);
    ilpm_buf_free(&b->text);
    for (int i = 0; i < b->nsrc; i++)
        if (b->src[i].copy) {
            remove(b->src[i].copy);
            free(b->src[i].copy);
        }
    free(b->src);
}

int ilpm_batch_run(const ilpm_puzzle *pz, const char *const *files, int nfiles,
                   const ilpm_params *p, const ilpm_batch_opts *o,
                   const char *out_path, ilpm_batch_summary *sum, ilpm_err *err)
{
    memset(sum, 0, sizeof *sum);
    double t0 = ilpm_now();
    struct batch b;
    memset(&b, 0, sizeof b);
    b.pz = pz;
    b.p = p;
    b.o = o;
    ilpm_buf_init(&b.text);
    struct outq q = {0};
    struct pool pool = {0};
    struct pool_job job = ilpm_batch_pool_job(&b);
    struct times tm = {{NULL, NULL}, {0, 0}};
    int upgrade = 0, rc;
    int64_t cut_at = -1;
    if (o->jobs < 1 || o->shard_n < 1 || o->shard_i < 0 ||
        o->shard_i >= o->shard_n)
        return ilpm_err_fail(err, ILPM_E_FAIL, "bad jobs or shard numbers");
    rc = find_runs(&b, files, nfiles, out_path, &upgrade, &cut_at, sum, err);
    if (rc == 0)
        rc = open_results(&q, o, out_path, upgrade, cut_at, err);
    if (rc == 0)
        rc = start_queue(&q, &b, &tm, sum, err);
    if (rc == 0)
        rc = ilpm_pool_start(&pool, &job,
                             o->jobs < b.njobs ? o->jobs : (int)b.njobs, err);
    if (rc == 0) {
        struct sched s = {&b, &q, &tm, &pool, sum, 0, 0};
        s.hard = ilpm_options_kill_after(&o->run.solver);
        rc = schedule(&s, o, t0, err);
    }
    if (q.out) {
        out_flush_all(&q);
        if (ilpm_out_commit(q.out, rc == 0 ? err : NULL) != 0 && rc == 0)
            rc = ilpm_err_io(err);
    }
    ilpm_pool_end(&pool);
    medians(sum, &tm);
    sum->elapsed_s = ilpm_now() - t0;
    if (o->progress)
        o->progress(o->progress_ctx, sum);
    for (long j = 0; q.rows && j < q.njobs; j++)
        free(q.rows[j]);
    free(q.rows);
    batch_free(&b);
    return rc;
}
