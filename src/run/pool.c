/* The batch's worker pool: forked processes that each take a run at a
 * time over a pipe, parse its instance again from where the parent found
 * it, and send back the result row.  A worker that dies or overruns is
 * reaped and replaced by the scheduler (batch.c) through these calls. */
#include "batch_int.h"
#include "util.h"

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

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads exactly n bytes; 0 on success, -1 on EOF or error. */
static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
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

static void worker_main(const struct batch *b, int id, int in, int out)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_worker_term;
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C does */
    if (b->o->memory_limit_mb > 0 && !ILPM_UNDER_ASAN) {
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max =
            (rlim_t)(b->o->memory_limit_mb * 1024.0 * 1024.0);
        setrlimit(RLIMIT_AS, &rl);
    }
#ifdef ILPM_TEST_HOOKS
    /* Test hooks: make the worker die or hang on one instance index. */
    const char *crash = getenv("ILPM_TEST_CRASH_INDEX");
    const char *hang = getenv("ILPM_TEST_HANG_INDEX");
#endif
    ilpm_shape_cache *cache[ILPM_BACKEND_COUNT] = {NULL};
    for (int k = 0; b->o->incremental && k < ILPM_BACKEND_COUNT; k++)
        cache[k] = ilpm_shape_cache_new();
    ilpm_run_opts ro = b->o->run;
    ro.solver.stop_flag = &worker_stop;
    ilpm_buf row;
    ilpm_buf_init(&row);
    int32_t j;
    while (!worker_stop && read_all(in, &j, sizeof j) == 0) {
        const struct job *jb = &b->jobs[j];
        const struct task *t = &b->tasks[jb->task];
#ifdef ILPM_TEST_HOOKS
        if (crash && atol(crash) == t->index)
            abort();
        if (hang && atol(hang) == t->index)
            for (;;)
                pause();
#endif
        ilpm_result r;
        ilpm_result_init(&r);
        ilpm_batch_fill_key(b, j, &r);
        ro.solver.backend = jb->backend;
        void *inst = NULL;
        ilpm_err e = {0};
        long reused = ilpm_shape_cache_reused(cache[jb->backend]);
        if (load(b, t, &inst, &e) == 0) {
            ilpm_run_instance_cached(b->pz, inst, b->p, &ro, cache[jb->backend],
                                     &r);
            b->pz->free_instance(inst);
        } else {
            r.status = ILPM_ERROR;
            snprintf(r.error, sizeof r.error, "%s", e.msg);
        }
        r.worker = id;
        ilpm_buf_clear(&row);
        ilpm_batch_format_row(b, &r, &row);
        struct msg m;
        memset(&m, 0, sizeof m); /* no uninitialised padding down the pipe */
        m.job = j;
        m.status = (int32_t)r.status;
        m.reused = ilpm_shape_cache_reused(cache[jb->backend]) > reused;
        m.solve_ms = r.solve_ms;
        m.len = (uint32_t)row.len;
        if (r.status == ILPM_STOPPED)
            m.len = 0; /* an interrupted run is not a result */
        ilpm_result_free(&r);
        if (write_all(out, &m, sizeof m) != 0 ||
            write_all(out, ilpm_buf_str(&row), m.len) != 0)
            break;
    }
    ilpm_buf_free(&row);
    for (int k = 0; k < ILPM_BACKEND_COUNT; k++)
        ilpm_shape_cache_free(cache[k]);
    _exit(0);
}

static int spawn(const struct batch *b, struct worker *w, int id,
                 struct worker *all, int nall, ilpm_err *err)
{
    int down[2], up[2];
    if (pipe(down) != 0)
        return ilpm_err_fail(err, ILPM_ERR_INTERNAL, "pipe: %s",
                             strerror(errno));
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return ilpm_err_fail(err, ILPM_ERR_INTERNAL, "pipe: %s",
                             strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        return ilpm_err_fail(err, ILPM_ERR_INTERNAL, "fork: %s",
                             strerror(errno));
    }
    if (pid == 0) {
        for (int i = 0; i < nall; i++)
            if (all[i].pid > 0) {
                close(all[i].to);
                close(all[i].from);
            }
        close(down[1]);
        close(up[0]);
        worker_main(b, id, down[0], up[1]);
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

int ilpm_pool_start(struct pool *p, const struct batch *b, int n, ilpm_err *err)
{
    memset(p, 0, sizeof *p);
    p->b = b;
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
    return spawn(p->b, &p->w[i], p->next_id++, p->w, p->n, err);
}

int ilpm_pool_send(struct worker *w, long j)
{
    int32_t jj = (int32_t)j;
    if (write_all(w->to, &jj, sizeof jj) != 0)
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
    int ok = read_all(w->from, m, sizeof *m) == 0;
    if (ok) {
        *text = malloc((size_t)m->len + 1);
        ok = *text && read_all(w->from, *text, m->len) == 0;
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

void ilpm_pool_death(const struct worker *w, int status, char *msg, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(msg, size, "worker %d died: killed by signal %d%s", w->id,
                 WTERMSIG(status),
                 WTERMSIG(status) == SIGKILL ? " (out of memory?)" : "");
    else if (WEXITSTATUS(status) == 0)
        /* It exits 0 only when SIGTERM stops it: from outside, as the
         * batch itself never stops one that holds a run. */
        snprintf(msg, size, "worker %d died: stopped by SIGTERM", w->id);
    else
        snprintf(msg, size, "worker %d died: exit status %d", w->id,
                 WEXITSTATUS(status));
}

int ilpm_pool_death_outside(const char *msg)
{
    static const char died[] = " died: killed by signal ";
    if (strncmp(msg, "worker ", 7) != 0)
        return 0;
    if (strstr(msg, " died: stopped by SIGTERM"))
        return 1;
    const char *d = strstr(msg, died);
    if (!d)
        return 0;
    int sig = atoi(d + sizeof died - 1);
    return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
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
