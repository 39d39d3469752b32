/* What every floor of ilpm reports and polls with: the caller-owned
 * error, the monotonic clock, and the deadline watch that long work
 * (building, lowering, feeding a solver) checks as it goes.  They live at
 * the bottom so that the model layer needs nothing of the back ends. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif

#include "ilpm.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static void fill(ilpm_err *err, ilpm_err_kind kind, const char *fmt, va_list ap)
{
    err->status = 0;
    err->kind = kind;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

int ilpm_err_fail(ilpm_err *err, ilpm_err_kind kind, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, kind, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ilpm_err_input(ilpm_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, ILPM_ERR_INPUT, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ilpm_err_nomem(ilpm_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, ILPM_ERR_NOMEM, fmt, ap);
        va_end(ap);
    }
    return -1;
}

double ilpm_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0; /* cannot happen for CLOCK_MONOTONIC on POSIX */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ilpm_watch_init(ilpm_watch *w, double seconds, volatile int *stop)
{
    w->deadline = seconds > 0 ? ilpm_now() + seconds : 0.0;
    w->stop = stop;
    w->tick = 0;
    w->status = 0;
}

void ilpm_watch_until(ilpm_watch *w, double deadline, volatile int *stop)
{
    w->deadline = deadline > 0 ? deadline : 0.0;
    w->stop = stop;
    w->tick = 0;
    w->status = 0;
}

int ilpm_watch_check(ilpm_watch *w)
{
    if (!w->status && w->stop && *w->stop)
        w->status = ILPM_STOPPED;
    if (!w->status && w->deadline > 0 && ilpm_now() >= w->deadline)
        w->status = ILPM_TIMEOUT;
    return w->status;
}

int ilpm_watch_poll(ilpm_watch *w, const char *what, ilpm_err *err)
{
    if (!w->status) {
        /* The stop flag is one load: looked at every time, so that a
         * small search stops at once.  Reading the clock costs tens of
         * nanoseconds; polls come once per constraint or clause, so look
         * every 256th time. */
        if (w->stop && *w->stop)
            w->status = ILPM_STOPPED;
        else if (w->deadline <= 0 || (w->tick++ & 255u) != 0)
            return 0;
        else if (ilpm_now() >= w->deadline)
            w->status = ILPM_TIMEOUT;
        else
            return 0;
    }
    ilpm_err_fail(err, ILPM_ERR_LIMIT, "%s while %s",
                  w->status == ILPM_STOPPED ? "stopped" : "time limit reached",
                  what);
    if (err)
        err->status = w->status;
    return -1;
}
