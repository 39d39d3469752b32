/* What every floor of ilpm reports and polls with: the caller-owned
 * error, the monotonic clock, and the deadline watch that long work
 * (building, lowering, feeding a solver) checks as it goes.  They live at
 * the bottom so that the model layer needs nothing of the back ends. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif

#include "ilpm.h"

#include "util.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void fill(ilpm_err *err, ilpm_rc rc, const char *fmt, va_list ap)
{
    err->rc = rc;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

int ilpm_err_fail(ilpm_err *err, ilpm_rc rc, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, rc, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ilpm_err_input(ilpm_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, ILPM_E_INPUT, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ilpm_err_nomem(ilpm_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, ILPM_E_NOMEM, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ilpm_err_io(ilpm_err *err)
{
    if (err)
        err->rc = ILPM_E_IO;
    return -1;
}

int ilpm_rc_users(ilpm_rc rc)
{
    return rc == ILPM_OK || rc == ILPM_E_INPUT || rc == ILPM_E_LIMIT ||
           rc == ILPM_E_TIMEOUT || rc == ILPM_E_INTERRUPTED;
}

int ilpm_rc_outcome(ilpm_rc rc)
{
    return rc == ILPM_E_TIMEOUT       ? ILPM_TIMEOUT
           : rc == ILPM_E_INTERRUPTED ? ILPM_STOPPED
                                      : ILPM_ERROR;
}

double ilpm_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0; /* cannot happen for CLOCK_MONOTONIC on POSIX */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The kernel takes a process's pages back at 0.15-0.27 s a gigabyte on
 * the 2-core machine under load (queens 4000 cut short: 0.23-0.37 s for
 * the 1.5-2 GB of GLPK's problem, 0.5 s for the 1.9 GB of the cp
 * engine), whether they are freed or the process exits.  The low end:
 * 0.25 s a gigabyte ended those runs up to 0.6 s before the limit. */
#define FREE_S_PER_BYTE 1.5e-10

double ilpm_free_time(void)
{
    /* The resident size, from /proc/self/statm (Linux; 0 elsewhere),
     * read at most every 10 ms of each thread: a read is a few
     * microseconds and watches look at the clock far more often. */
    static _Thread_local double last, seconds;
    double now = ilpm_now();
    if (last > 0 && now - last < 0.01)
        return seconds;
    last = now;
    int fd = open("/proc/self/statm", O_RDONLY);
    if (fd < 0)
        return seconds = 0;
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return seconds = 0;
    buf[n] = '\0';
    char *p = buf;
    strtoul(p, &p, 10);                       /* the total size */
    unsigned long pages = strtoul(p, &p, 10); /* resident */
    long page = sysconf(_SC_PAGESIZE);
    return seconds = (double)pages * (double)(page > 0 ? page : 4096) *
                     FREE_S_PER_BYTE;
}

/* The calling thread's CPU time in seconds (0 where it cannot be read:
 * the moment then comes by the wall clock alone). */
static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A moment comes when the thread has had as much CPU time as the wall
 * time it was set for: on a machine whose cores are busy, 0.05 s of wall
 * time can be 0.01 s of search, and a member that answers in its moment
 * on a quiet machine would not under load.  The wall time of the moment
 * (at) is when it is looked for first. */
static _Thread_local struct {
    double at, cpu_at;
    int (*fn)(void *);
    void *ctx;
} moment;

void ilpm_watch_moment(double at, int (*fn)(void *ctx), void *ctx)
{
    moment.at = at > 0 && fn ? at : 0.0;
    moment.cpu_at =
        moment.at > 0 ? thread_cpu() + (moment.at - ilpm_now()) : 0.0;
    moment.fn = fn;
    moment.ctx = ctx;
}

double ilpm_watch_moment_left(void)
{
    if (moment.at <= 0)
        return 1e300;
    double wall = moment.at - ilpm_now(), cpu = moment.cpu_at - thread_cpu();
    return wall > cpu ? wall : cpu;
}

/* The moment, when now has reached it: disarmed, then called; its
 * status (0: go on) set on w. */
static int at_moment(ilpm_watch *w, double now)
{
    if (moment.at <= 0 || now < moment.at || thread_cpu() < moment.cpu_at)
        return 0;
    int (*fn)(void *) = moment.fn;
    moment.at = 0;
    int st = fn(moment.ctx);
    if (st)
        w->status = st;
    return st;
}

/* The deadline has come when what is left would not cover freeing what
 * the process holds. */
static int past(ilpm_watch *w)
{
    double now = ilpm_now();
    if (at_moment(w, now))
        return 0;
    return now + ilpm_free_time() >= w->deadline;
}

#define POLL_EVERY 256u

void ilpm_watch_until(ilpm_watch *w, double deadline, volatile int *stop)
{
    w->deadline = deadline > 0 ? deadline : 0.0;
    w->stop = stop;
    w->tick = 0;
    /* While a moment is set, the clock is read at every poll at first,
     * as when polls are slow (poll_clock), so that a poll of much work
     * meets the moment in time. */
    w->every = moment.at > 0 ? 1 : POLL_EVERY;
    w->read_at = 0;
    w->status = 0;
}

/* The one place where a time limit in seconds becomes a deadline. */
double ilpm_options_deadline(const ilpm_options *o)
{
    if (!o)
        return 0;
    if (o->deadline > 0)
        return o->deadline;
    return o->time_limit > 0 ? ilpm_now() + o->time_limit : 0;
}

double ilpm_options_kill_after(const ilpm_options *o)
{
    return o && o->time_limit > 0 ? o->time_limit * 1.5 + 5.0 : 0;
}

double ilpm_watch_left(const ilpm_watch *w)
{
    if (w->deadline <= 0)
        return 1e300;
    return w->deadline - ilpm_now();
}

/* Reads the clock for ilpm_watch_poll, and sets how many polls go by
 * until the next read: a poll can stand for a little work (a row, a
 * clause) or for much (a search node of n-Queens 4000, whose 256 took
 * 0.5 s): when the polls between two reads took more than 2 ms, the
 * clock is read 8 times as often, down to every poll; under 0.25 ms,
 * half as often again, up to every 256th.  1 once the deadline has
 * come. */
static int poll_clock(ilpm_watch *w)
{
    double now = ilpm_now();
    if (w->read_at > 0) {
        double dt = now - w->read_at;
        if (dt > 2e-3)
            w->every = w->every > 8 ? w->every / 8 : 1;
        else if (dt < 2.5e-4 && w->every < POLL_EVERY)
            w->every *= 2;
    }
    w->read_at = now;
    w->tick = 1;
    if (at_moment(w, now))
        return 0;
    return now + ilpm_free_time() >= w->deadline;
}

int ilpm_watch_check(ilpm_watch *w)
{
    if (!w->status && w->stop && *w->stop)
        w->status = ILPM_STOPPED;
    if (!w->status && w->deadline > 0 && past(w))
        w->status = ILPM_TIMEOUT;
    return w->status;
}

int ilpm_watch_poll(ilpm_watch *w, const char *what, ilpm_err *err)
{
    if (!w->status) {
        /* The stop flag is one load: looked at every time, so that a
         * small search stops at once.  Reading the clock costs tens of
         * nanoseconds; polls come once per constraint or clause, so it is
         * read every 256th time, or more often while polls are slow
         * (poll_clock). */
        if (w->stop && *w->stop)
            w->status = ILPM_STOPPED;
        else if (w->deadline <= 0)
            return 0;
        else if (w->tick > 0 && w->tick < w->every)
            w->tick++;
        else if (poll_clock(w))
            w->status = ILPM_TIMEOUT;
        if (!w->status)
            return 0;
    }
    int stopped = w->status == ILPM_STOPPED;
    return ilpm_err_fail(err, stopped ? ILPM_E_INTERRUPTED : ILPM_E_TIMEOUT,
                         "%s while %s",
                         stopped ? "stopped" : "time limit reached", what);
}
