/* The progress line of solve and compare.  A thread of its own draws it,
 * four times a second: a single GLPK or CaDiCaL call can run for minutes
 * without returning to ilpm, and a thread needs neither the solvers'
 * callbacks nor a timer signal (SIGALRM is the hard stop's).  The solving
 * thread only names the instance and the run and stores the count. */
#include "progress.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define SHOW_AFTER_S 1.0 /* work shorter than this shows no line */
#define TICK_NS 250000000L

struct progress {
    pthread_t thread;
    pthread_mutex_t mu; /* everything but count and counting */
    pthread_cond_t wake;
    int quit;
    int active; /* an instance is under way */
    int shown;  /* the line is on the screen */
    double t_start, t_inst, t_run;
    char label[160];
    char run[80];
    long done;
    /* Stored for every solution counted: no lock on that path. */
    _Atomic uint64_t count;
    atomic_int counting;
};

/* Erases the line; with the lock held. */
static void erase(progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}

/* With the lock held. */
static void draw(progress *p)
{
    double now = ilpm_now();
    char line[512];
    int n = snprintf(line, sizeof line, "%s%s%s:", p->label,
                     p->run[0] ? " " : "", p->run);
    if (n > 0 && (size_t)n < sizeof line && atomic_load(&p->counting)) {
        uint64_t c = atomic_load(&p->count);
        double dt = now - p->t_run;
        n += snprintf(line + n, sizeof line - (size_t)n,
                      " count %" PRIu64 " (%.0f/s),", c, dt > 0 ? c / dt : 0);
    }
    if (n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, " %.1f s",
                      now - p->t_inst);
    if (n > 0 && (size_t)n < sizeof line && p->done > 0)
        snprintf(line + n, sizeof line - (size_t)n, "; %ld done in %.1f s",
                 p->done, now - p->t_start);
    /* A line longer than the terminal wraps, and \r then goes back to the
     * start of its last row only: cut it to the width. */
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 &&
        strlen(line) >= ws.ws_col) {
        size_t cut = ws.ws_col - 1;
        while (cut > 0 && ((unsigned char)line[cut] & 0xc0) == 0x80)
            cut--; /* not inside a UTF-8 character */
        line[cut] = '\0';
    }
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    p->shown = 1;
}

static void *ticker(void *arg)
{
    progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->quit) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += TICK_NS;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->mu, &ts);
        if (!p->quit && p->active && ilpm_now() - p->t_start >= SHOW_AFTER_S)
            draw(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

progress *ilpm_progress_start(void)
{
    if (!isatty(STDERR_FILENO))
        return NULL;
    progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, &ca);
    pthread_condattr_destroy(&ca);
    atomic_init(&p->count, 0);
    atomic_init(&p->counting, 0);
    p->t_start = ilpm_now();
    /* Signals stay with the main thread, whose handlers stop the solver;
     * the new thread inherits this mask. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&p->thread, NULL, ticker, p);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

void ilpm_progress_stop(progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    erase(p);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

void ilpm_progress_instance(progress *p, const char *label)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    snprintf(p->label, sizeof p->label, "%s", label);
    p->run[0] = '\0';
    p->t_inst = p->t_run = ilpm_now();
    atomic_store(&p->counting, 0);
    p->active = 1;
    pthread_mutex_unlock(&p->mu);
}

void ilpm_progress_step(progress *p, const char *what)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    snprintf(p->run, sizeof p->run, "%s", what);
    p->t_run = ilpm_now();
    pthread_mutex_unlock(&p->mu);
}

void ilpm_progress_run(void *ctx, const ilpm_result *r)
{
    progress *p = ctx;
    if (!p)
        return;
    if (r->has_count) {
        atomic_store(&p->count, r->count);
        atomic_store(&p->counting, 1);
        return;
    }
    /* A run begins. */
    pthread_mutex_lock(&p->mu);
    snprintf(p->run, sizeof p->run, "(%s%s%s)", r->formulation,
             r->formulation[0] ? ", " : "", ilpm_backend_name(r->backend));
    p->t_run = ilpm_now();
    atomic_store(&p->counting, 0);
    pthread_mutex_unlock(&p->mu);
}

void ilpm_progress_done(progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    erase(p);
    p->active = 0;
    p->done++;
    pthread_mutex_unlock(&p->mu);
}
