/* The worker pool (src/run/pool.c) on jobs of its own, without a batch:
 * every job's row comes back to the job that asked for it, whichever
 * worker ran it; a worker that dies is reaped, its death said and its
 * place taken by a new worker while the other jobs go on; a stop reaches
 * the job that runs. */
#include "pool.h"

#include "testutil.h"
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NJOBS = 12, EXIT_JOB = 4, KILL_JOB = 7, STOP_JOB = 100 };

/* What the jobs share: a pipe on which a job that waits for its stop
 * says it runs. */
typedef struct jobs {
    int running[2];
    int fail; /* EXIT_JOB and KILL_JOB end their worker */
} jobs;

/* A worker's state: how many jobs it ran. */
static void *start(void *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(int));
}

static void end(void *ctx, void *state)
{
    (void)ctx;
    free(state);
}

static void run(void *ctx, void *state, long j, int worker, volatile int *stop,
                ilpm_buf *row, struct msg *m)
{
    jobs *js = ctx;
    int *ran = state;
    if (js->fail && j == EXIT_JOB)
        _exit(7);
    if (js->fail && j == KILL_JOB)
        raise(SIGKILL);
    if (j == STOP_JOB) {
        ssize_t w = write(js->running[1], "r", 1);
        (void)w;
        while (!*stop)
            poll(NULL, 0, 1);
        m->status = ILPM_STOPPED;
        return; /* no row */
    }
    ++*ran;
    ilpm_buf_printf(row, "job %ld by worker %d, its job %d", j, worker, *ran);
    m->status = (int32_t)(j % 3);
    m->solve_ms = (double)j;
}

/* What came back of each job. */
typedef struct outcome {
    char *row[NJOBS];
    int32_t status[NJOBS];
    char death[NJOBS][128]; /* a worker died with the job */
    const char *outside[NJOBS];
    int replaced;
} outcome;

/* Feeds jobs 0..NJOBS-1 to the idle workers, in order, until every one
 * came back or took its worker with it (which is then replaced). */
static void drive(struct pool *p, outcome *o)
{
    long next = 0, done = 0;
    memset(o, 0, sizeof *o);
    while (done < NJOBS) {
        for (int i = 0; i < p->n; i++)
            if (p->w[i].pid > 0 && p->w[i].job < 0 && next < NJOBS)
                ck_assert_int_eq(ilpm_pool_send(&p->w[i], next++), 0);
        ck_assert_int_le(ilpm_pool_busy(p), p->n);
        ck_assert_int_gt(ilpm_pool_poll(p, 30000), 0);
        for (int i = 0; i < p->n; i++) {
            if (!ilpm_pool_ready(p, i))
                continue;
            long j = p->w[i].job;
            struct msg m;
            char *text;
            done++;
            if (ilpm_pool_receive(&p->w[i], &m, &text)) {
                ck_assert_int_eq(m.job, j);
                ck_assert_int_eq(m.len, strlen(text));
                ck_assert_int_eq(p->w[i].job, -1);
                o->row[j] = text;
                o->status[j] = m.status;
                continue;
            }
            int status;
            ilpm_err err = {0};
            ilpm_pool_reap(&p->w[i], &status);
            o->outside[j] = ilpm_pool_death(&p->w[i], status, o->death[j],
                                            sizeof o->death[j]);
            ck_assert_msg(ilpm_pool_replace(p, i, &err) == 0, "%s", err.msg);
            o->replaced++;
        }
    }
}

static void free_outcome(outcome *o)
{
    for (int j = 0; j < NJOBS; j++)
        free(o->row[j]);
}

/* Each job's row and status come back to it, from whichever worker; each
 * worker keeps its state from job to job. */
START_TEST(test_rows_to_their_jobs)
{
    jobs js = {{-1, -1}, 0};
    struct pool_job job = {&js, start, run, end, 0};
    struct pool p;
    ilpm_err err = {0};
    ck_assert_msg(ilpm_pool_start(&p, &job, 3, &err) == 0, "%s", err.msg);
    outcome o;
    drive(&p, &o);
    ck_assert_int_eq(o.replaced, 0);
    int by_worker[4] = {0};
    for (int j = 0; j < NJOBS; j++) {
        long jj;
        int w, nth;
        ck_assert_ptr_nonnull(o.row[j]);
        ck_assert_int_eq(
            sscanf(o.row[j], "job %ld by worker %d, its job %d", &jj, &w, &nth),
            3);
        ck_assert_int_eq(jj, j);
        ck_assert_int_eq(o.status[j], j % 3);
        ck_assert(w >= 1 && w <= 3);
        /* A worker's jobs are numbered 1, 2, ... in the order sent. */
        ck_assert_int_eq(nth, ++by_worker[w]);
    }
    ck_assert_int_eq(by_worker[1] + by_worker[2] + by_worker[3], NJOBS);
    ck_assert_int_eq(ilpm_pool_busy(&p), 0);
    ilpm_pool_end(&p);
    free_outcome(&o);
}
END_TEST

/* A worker that exits or is killed inside its job: the job is recorded
 * with the death's reason (killed from outside or not), a new worker
 * with the next number takes its place and every other job is done. */
START_TEST(test_failure_recorded_rest_go_on)
{
    jobs js = {{-1, -1}, 1};
    struct pool_job job = {&js, start, run, end, 0};
    struct pool p;
    ilpm_err err = {0};
    ck_assert_msg(ilpm_pool_start(&p, &job, 2, &err) == 0, "%s", err.msg);
    outcome o;
    drive(&p, &o);
    ck_assert_int_eq(o.replaced, 2);
    for (int j = 0; j < NJOBS; j++) {
        if (j == EXIT_JOB) {
            ck_assert_ptr_null(o.row[j]);
            ck_assert_msg(strstr(o.death[j], " died: exit status 7"), "%s",
                          o.death[j]);
            ck_assert_ptr_null(o.outside[j]); /* the job's own failure */
        } else if (j == KILL_JOB) {
            ck_assert_ptr_null(o.row[j]);
            ck_assert_msg(strstr(o.death[j], "killed by signal 9"), "%s",
                          o.death[j]);
            ck_assert_str_eq(o.outside[j], "SIGKILL");
        } else {
            ck_assert_msg(o.row[j] != NULL, "job %d has no row", j);
            ck_assert_int_eq(o.status[j], j % 3);
        }
    }
    /* Workers 1 and 2, then 3 and 4 in the places of the dead. */
    ck_assert_int_eq(p.next_id, 5);
    ilpm_pool_end(&p);
    free_outcome(&o);
}
END_TEST

/* SIGTERM reaches the job that runs as its stop flag: it comes back
 * without a row, and the worker then ends (exit 0, which the pool says
 * as a stop from outside). */
START_TEST(test_stop)
{
    jobs js = {{-1, -1}, 0};
    ck_assert_int_eq(pipe(js.running), 0);
    struct pool_job job = {&js, start, run, end, 0};
    struct pool p;
    ilpm_err err = {0};
    ck_assert_msg(ilpm_pool_start(&p, &job, 2, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(ilpm_pool_send(&p.w[0], STOP_JOB), 0);
    ck_assert_int_eq(ilpm_pool_busy(&p), 1);
    char r;
    ck_assert_int_eq(read(js.running[0], &r, 1), 1); /* it runs */
    ilpm_pool_signal(&p, SIGTERM);                   /* the busy worker only */
    ck_assert_int_gt(ilpm_pool_poll(&p, 30000), 0);
    ck_assert(ilpm_pool_ready(&p, 0));
    struct msg m;
    char *text;
    ck_assert_int_eq(ilpm_pool_receive(&p.w[0], &m, &text), 1);
    ck_assert_int_eq(m.job, STOP_JOB);
    ck_assert_int_eq(m.status, ILPM_STOPPED);
    ck_assert_str_eq(text, "");
    free(text);
    int status;
    char why[128];
    ilpm_pool_reap(&p.w[0], &status);
    ck_assert_str_eq(ilpm_pool_death(&p.w[0], status, why, sizeof why),
                     "SIGTERM");
    ck_assert_str_eq(why, "worker 1 died: stopped by SIGTERM");
    /* The idle worker was not signalled: it still takes a job. */
    ck_assert_int_eq(ilpm_pool_send(&p.w[1], 0), 0);
    ck_assert_int_gt(ilpm_pool_poll(&p, 30000), 0);
    ck_assert_int_eq(ilpm_pool_receive(&p.w[1], &m, &text), 1);
    ck_assert_str_eq(text, "job 0 by worker 2, its job 1");
    free(text);
    ilpm_pool_end(&p);
    close(js.running[0]);
    close(js.running[1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_add_test(tc, test_rows_to_their_jobs);
    tcase_add_test(tc, test_failure_recorded_rest_go_on);
    tcase_add_test(tc, test_stop);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
