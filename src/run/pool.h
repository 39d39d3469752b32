/* pool.h: a pool of forked worker processes, each taking a job at a time
 * over a pipe and sending back a message and a row of text.  What a job
 * is, the pool's user hands in (struct pool_job): the pool forks, feeds,
 * watches and reaps workers and knows nothing of batches.  Private to
 * src/run. */
#ifndef ILPM_POOL_H
#define ILPM_POOL_H

#include "util.h"

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct worker {
    pid_t pid;
    int to, from;
    long job; /* -1 when idle */
    double started;
    int id;
};

/* A worker's report of its job, followed by len bytes of row. */
struct msg {
    int32_t job;
    int32_t status;
    int32_t reused; /* the job reused what its worker kept */
    int32_t input;  /* an error of the input (its kind input or limit) */
    int32_t post;   /* the input's statements about the answer failed */
    double solve_ms;
    uint32_t len;
};

/* The jobs, as the pool's user defines them.  Each callback runs in a
 * worker process. */
struct pool_job {
    void *ctx;
    /* Once in each new worker, before its first job: the worker's own
     * state (NULL is fine). */
    void *(*start)(void *ctx);
    /* Runs job j in worker number `worker`; stop is set once the worker
     * is asked to stop (SIGTERM).  Writes the row the parent receives
     * into row (left empty: no row, as for an interrupted run) and fills
     * m's status, reused and solve_ms. */
    void (*run)(void *ctx, void *state, long j, int worker, volatile int *stop,
                ilpm_buf *row, struct msg *m);
    /* Once as the worker ends: frees its state. */
    void (*end)(void *ctx, void *state);
    double memory_limit_mb; /* each worker's address space, 0: none */
};

struct pool {
    const struct pool_job *job;
    struct worker *w; /* pid -1 for a slot without a worker */
    struct pollfd *pfd;
    int n;
    int next_id; /* workers are numbered from 1, replacements too */
};

/* Forks n workers that run job's callbacks; -1 with err. */
int ilpm_pool_start(struct pool *p, const struct pool_job *job, int n,
                    ilpm_err *err);
/* Forks a worker in the place of worker i (dead or reaped); -1 with err. */
int ilpm_pool_replace(struct pool *p, int i, ilpm_err *err);
/* Hands job j to an idle worker; -1 when the worker cannot take it. */
int ilpm_pool_send(struct worker *w, long j);
/* Sends sig to the workers that have a job. */
void ilpm_pool_signal(struct pool *p, int sig);
/* How many workers have a job. */
int ilpm_pool_busy(const struct pool *p);
/* Waits for the workers' messages; poll's return and errno. */
int ilpm_pool_poll(struct pool *p, int timeout_ms);
/* Worker i has something to say (or died) after ilpm_pool_poll. */
int ilpm_pool_ready(const struct pool *p, int i);
/* Reads the worker's message: 1 when it reports its job (which it no
 * longer has; *text, m->len bytes, is the caller's), 0 when the worker is
 * dead or talks nonsense. */
int ilpm_pool_receive(struct worker *w, struct msg *m, char **text);
/* Waits for a worker that ended (its pipes closed); its status. */
void ilpm_pool_reap(struct worker *w, int *status);
/* Kills and reaps a worker. */
void ilpm_pool_kill(struct worker *w);
/* Why a reaped worker died, from its wait status, for people in msg.
 * Returns the name of the signal ("SIGKILL") when the worker was killed
 * or stopped from outside (ilpm_pool_outside_signal): its job did not
 * fail, it was cut off; else NULL. */
const char *ilpm_pool_death(const struct worker *w, int status, char *msg,
                            size_t size);
/* The name of sig when it is one that comes from outside (SIGKILL,
 * SIGTERM, SIGINT or SIGHUP: the out-of-memory killer, or the whole run
 * being cancelled a moment later, as Slurm's scancel does); else NULL. */
const char *ilpm_pool_outside_signal(int sig);
/* Kills the workers that have a job, reaps all, frees the pool. */
void ilpm_pool_end(struct pool *p);

#endif
