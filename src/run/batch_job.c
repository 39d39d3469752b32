/* What a batch's worker does with a run (the jobs batch.c hands its
 * worker pool, pool.c): parse the instance again from where the parent
 * found it, solve it, on the worker's own model per shape, and write its
 * result row. */
#include "batch_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ilpm_batch_format_row(const struct batch *b, const ilpm_result *r,
                           ilpm_buf *out)
{
    if (b->o->json)
        ilpm_result_json(r, out);
    else
        ilpm_result_csv(r, out);
}

void ilpm_batch_fill_key(const struct batch *b, long j, ilpm_result *r)
{
    const struct task *t = &b->tasks[b->jobs[j].task];
    snprintf(r->file, sizeof r->file, "%s", b->src[t->src].file);
    r->index = t->index;
    r->backend = b->jobs[j].backend;
    snprintf(r->puzzle, sizeof r->puzzle, "%s", b->pz->name);
    if (b->pz->formulations) {
        const char *f = ilpm_params_get(b->p, "formulation");
        snprintf(r->formulation, sizeof r->formulation, "%s",
                 f ? f : b->pz->formulations[0]);
    }
    /* The label describe() gave when the parent parsed the file in order:
     * a parse started in mid-file may not know it (a Sudoku's number). */
    if (!t->bad)
        snprintf(r->instance, sizeof r->instance, "%s",
                 ilpm_batch_task_text(b, t));
    else
        snprintf(r->instance, sizeof r->instance, "#%ld", t->index);
}

ilpm_reader *ilpm_batch_open_source(const struct source *s, int64_t offset,
                                    long lines, ilpm_err *err)
{
    if (!s->copy)
        return ilpm_reader_open_at(s->file, NULL, offset, lines, err);
    /* Messages name the input, not the copy. */
    const char *name = strcmp(s->file, "-") == 0 ? ILPM_STDIN_NAME : s->file;
    return ilpm_reader_open_at(s->copy, name, offset, lines, err);
}

/* A task's instance, parsed again from where the parent found it. */
static int load(const struct batch *b, const struct task *t, void **inst,
                ilpm_err *err)
{
    ilpm_reader *rd =
        ilpm_batch_open_source(&b->src[t->src], t->offset, t->lines, err);
    if (!rd)
        return -1;
    ilpm_reader_set_index(rd, t->index);
    int r = b->pz->parse(rd, b->p, inst, err);
    if (r == 0)
        ilpm_err_input(err,
                       "%s: instance %ld is gone (the file changed during the "
                       "batch?)",
                       ilpm_reader_name(rd), t->index);
    ilpm_reader_free(rd);
    return r > 0 ? 0 : -1;
}

/* A worker's models, one cache per back end (--incremental). */
struct worker_state {
    ilpm_shape_cache *cache[ILPM_BACKEND_COUNT];
};

static void *job_start(void *ctx)
{
    const struct batch *b = ctx;
    struct worker_state *ws = calloc(1, sizeof *ws);
    /* Without memory, each run builds its own model (a NULL cache). */
    for (int k = 0; ws && b->o->incremental && k < ILPM_BACKEND_COUNT; k++)
        ws->cache[k] = ilpm_shape_cache_new();
    return ws;
}

static void job_end(void *ctx, void *state)
{
    (void)ctx;
    struct worker_state *ws = state;
    for (int k = 0; ws && k < ILPM_BACKEND_COUNT; k++)
        ilpm_shape_cache_free(ws->cache[k]);
    free(ws);
}

static void job_run(void *ctx, void *state, long j, int worker,
                    volatile int *stop, ilpm_buf *row, struct msg *m)
{
    const struct batch *b = ctx;
    struct worker_state *ws = state;
    const struct job *jb = &b->jobs[j];
    const struct task *t = &b->tasks[jb->task];
#ifdef ILPM_TEST_HOOKS
    /* Test hooks: make the worker die or hang on one instance index. */
    const char *crash = getenv("ILPM_TEST_CRASH_INDEX");
    const char *hang = getenv("ILPM_TEST_HANG_INDEX");
    if (crash && atol(crash) == t->index)
        abort();
    if (hang && atol(hang) == t->index)
        for (;;)
            pause();
#endif
    /* auto (the portfolio) forks its members on a model of each run */
    ilpm_shape_cache *cache =
        ws && jb->backend < ILPM_BACKEND_COUNT ? ws->cache[jb->backend] : NULL;
    ilpm_run_opts ro = b->o->run;
    ro.solver.stop_flag = stop;
    ro.solver.backend = jb->backend;
    ilpm_result r;
    ilpm_result_init(&r);
    ilpm_batch_fill_key(b, j, &r);
    void *inst = NULL;
    ilpm_err e = {0};
    long reused = ilpm_shape_cache_reused(cache);
    if (load(b, t, &inst, &e) == 0) {
        ilpm_run_instance_cached(b->pz, inst, b->p, &ro, cache, &r);
        b->pz->free_instance(inst);
    } else {
        r.status = ILPM_ERROR;
        r.error_kind = e.rc;
        snprintf(r.error, sizeof r.error, "%s", e.msg);
    }
    r.worker = worker;
    /* A row of auto says so (its member, in JSON, who answered): --resume
     * finds it by the back end asked for. */
    if (jb->backend == ILPM_BACKEND_AUTO)
        r.backend = ILPM_BACKEND_AUTO;
    /* Out of memory under the worker's limit is the limit's doing, as
     * `solve` says it: the user can raise it. */
    double limit = b->o->memory_limit_mb;
    int over = r.status == ILPM_ERROR && r.error_kind == ILPM_E_NOMEM &&
               limit > 0 && !ILPM_UNDER_ASAN;
    if (over) {
        size_t n = strlen(r.error);
        snprintf(r.error + n, sizeof r.error - n,
                 " (--memory-limit %g MB reached: raise it to go on)", limit);
    }
    /* An interrupted run is not a result: no row. */
    if (r.status != ILPM_STOPPED)
        ilpm_batch_format_row(b, &r, row);
    m->status = (int32_t)r.status;
    m->input = over || (r.status == ILPM_ERROR && ilpm_rc_users(r.error_kind));
    m->post = r.postsolve_error[0] != 0;
    m->reused = ilpm_shape_cache_reused(cache) > reused;
    m->solve_ms = r.solve_ms;
    ilpm_result_free(&r);
}

struct pool_job ilpm_batch_pool_job(const struct batch *b)
{
    struct pool_job pj = {(void *)b, job_start, job_run, job_end,
                          b->o->memory_limit_mb};
    return pj;
}
