/* A pool of forked workers (pool.h): each takes a job at a time over a
 * pipe, runs it through the callbacks its user handed in, and sends back
 * a message and a row.  A worker that dies or overruns is reaped and
 * replaced by the user's scheduler (batch.c) through these calls. */
#include "pool.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t worker_stop_sig;
static volatile int worker_stop;

static void on_worker_term(int sig)
{
    (void)sig;
    worker_stop_sig = 1;
    worker_stop = 1;
}

static void worker_main(const struct pool_job *job, int id, int in, int out)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_worker_term;
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C does */
    if (job->memory_limit_mb > 0 && !ILPM_UNDER_ASAN) {
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max =
            (rlim_t)(job->memory_limit_mb * 1024.0 * 1024.0);
        setrlimit(RLIMIT_AS, &rl);
    }
    void *state = job->start ? job->start(job->ctx) : NULL;
    ilpm_buf row;
    ilpm_buf_init(&row);
    int32_t j;
    while (!worker_stop && ilpm_fd_read_all(in, &j, sizeof j) == 0) {
        struct msg m;
        memset(&m, 0, sizeof m); /* no uninitialised padding down the pipe */
        ilpm_buf_clear(&row);
        job->run(job->ctx, state, j, id, &worker_stop, &row, &m);
        m.job = j;
        m.len = (uint32_t)row.len;
        if (ilpm_fd_write_all(out, &m, sizeof m, 0) != 0 ||
            ilpm_fd_write_all(out, ilpm_buf_str(&row), m.len, 0) != 0)
            break;
    }
    ilpm_buf_free(&row);
    if (job->end)
        job->end(job->ctx, state);
    _exit(0);
}

static int spawn(const struct pool_job *job, struct worker *w, int id,
                 struct worker *all, int nall, ilpm_err *err)
{
    int down[2], up[2];
    if (pipe(down) != 0)
        return ilpm_err_fail(err, ILPM_E_FAIL, "pipe: %s", strerror(errno));
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return ilpm_err_fail(err, ILPM_E_FAIL, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        return ilpm_err_fail(err, ILPM_E_FAIL, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        for (int i = 0; i < nall; i++)
            if (all[i].pid > 0) {
                close(all[i].to);
                close(all[i].from);
            }
        close(down[1]);
        close(up[0]);
        worker_main(job, id, down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    w->pid = pid;
    w->to = down[1];
    w->from = up[0];
    w->job = -1;
    w->id = id;
    return 0;
}

void ilpm_pool_reap(struct worker *w, int *status)
{
    close(w->to);
    close(w->from);
    while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
        ;
    w->pid = -1;
}

int ilpm_pool_start(struct pool *p, const struct pool_job *job, int n,
                    ilpm_err *err)
{
    memset(p, 0, sizeof *p);
    p->job = job;
    p->next_id = 1;
    p->w = calloc((size_t)n + 1, sizeof *p->w);
    p->pfd = calloc((size_t)n + 1, sizeof *p->pfd);
    if (!p->w || !p->pfd)
        return ilpm_err_nomem(err, "out of memory");
    p->n = n;
    for (int i = 0; i < n; i++)
        p->w[i].pid = -1;
    for (int i = 0; i < n; i++)
        if (ilpm_pool_replace(p, i, err) != 0)
            return -1;
    return 0;
}

int ilpm_pool_replace(struct pool *p, int i, ilpm_err *err)
{
    return spawn(p->job, &p->w[i], p->next_id++, p->w, p->n, err);
}

int ilpm_pool_send(struct worker *w, long j)
{
    int32_t jj = (int32_t)j;
    if (ilpm_fd_write_all(w->to, &jj, sizeof jj, 0) != 0)
        return -1;
    w->job = j;
    w->started = ilpm_now();
    return 0;
}

void ilpm_pool_signal(struct pool *p, int sig)
{
    for (int i = 0; i < p->n; i++)
        if (p->w[i].pid > 0 && p->w[i].job >= 0)
            kill(p->w[i].pid, sig);
}

int ilpm_pool_busy(const struct pool *p)
{
    int busy = 0;
    for (int i = 0; i < p->n; i++)
        busy += p->w[i].pid > 0 && p->w[i].job >= 0;
    return busy;
}

int ilpm_pool_poll(struct pool *p, int timeout_ms)
{
    for (int i = 0; i < p->n; i++) {
        p->pfd[i].fd = p->w[i].pid > 0 ? p->w[i].from : -1;
        p->pfd[i].events = POLLIN;
        p->pfd[i].revents = 0;
    }
    return poll(p->pfd, (nfds_t)p->n, timeout_ms);
}

int ilpm_pool_ready(const struct pool *p, int i)
{
    return (p->pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}

int ilpm_pool_receive(struct worker *w, struct msg *m, char **text)
{
    *text = NULL;
    int ok = ilpm_fd_read_all(w->from, m, sizeof *m) == 0;
    if (ok) {
        *text = malloc((size_t)m->len + 1);
        ok = *text && ilpm_fd_read_all(w->from, *text, m->len) == 0;
        if (*text)
            (*text)[ok ? m->len : 0] = '\0';
    }
    if (ok && m->job == w->job) {
        w->job = -1;
        return 1;
    }
    free(*text);
    *text = NULL;
    return 0;
}

void ilpm_pool_kill(struct worker *w)
{
    int status;
    kill(w->pid, SIGKILL);
    ilpm_pool_reap(w, &status);
}

const char *ilpm_pool_outside_signal(int sig)
{
    switch (sig) {
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGHUP:
        return "SIGHUP";
    default:
        return NULL;
    }
}

const char *ilpm_pool_death(const struct worker *w, int status, char *msg,
                            size_t size)
{
    if (WIFSIGNALED(status)) {
        snprintf(msg, size, "worker %d died: killed by signal %d%s", w->id,
                 WTERMSIG(status),
                 WTERMSIG(status) == SIGKILL ? " (out of memory?)" : "");
        return ilpm_pool_outside_signal(WTERMSIG(status));
    }
    if (WEXITSTATUS(status) == 0) {
        /* It exits 0 only when SIGTERM stops it: from outside, as the
         * pool's user never stops one that holds a job. */
        snprintf(msg, size, "worker %d died: stopped by SIGTERM", w->id);
        return ilpm_pool_outside_signal(SIGTERM);
    }
    snprintf(msg, size, "worker %d died: exit status %d", w->id,
             WEXITSTATUS(status));
    return NULL;
}

void ilpm_pool_end(struct pool *p)
{
    for (int i = 0; p->w && i < p->n; i++)
        if (p->w[i].pid > 0) {
            int status;
            if (p->w[i].job >= 0)
                kill(p->w[i].pid, SIGKILL);
            ilpm_pool_reap(&p->w[i], &status);
        }
    free(p->w);
    free(p->pfd);
    memset(p, 0, sizeof *p);
}
