/* Sizes of a formulation: the part both lowerings share (variables, model
 * constraints per group) and the clock the drivers use for deadlines.
 * Each lowering adds its own counts (rows, clauses) on top. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif

#include "backend.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int ilpm_stats_prepare(const ilpm_model *m, ilpm_stats *s, ilpm_err *err)
{
    /* s is treated as uninitialised: a previously prepared one must go
     * through ilpm_stats_free first or its groups leak. */
    memset(s, 0, sizeof *s);
    int ng = ilpm_model_ngroups(m);
    if (ng > 0) {
        s->groups = calloc((size_t)ng, sizeof *s->groups);
        if (!s->groups)
            return ilpm_err_set(err,
                                "out of memory for the statistics of %d "
                                "groups",
                                ng);
    }
    s->ngroups = ng;
    int nv = ilpm_model_nvars(m);
    s->vars = nv;
    for (int v = 1; v <= nv; v++)
        s->aux_vars += ilpm_model_var_is_aux(m, v) != 0;
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (c.group >= 0 && c.group < ng)
            s->groups[c.group].cons++;
    }
    return 0;
}

void ilpm_stats_free(ilpm_stats *s)
{
    if (!s)
        return;
    free(s->groups);
    s->groups = NULL;
    s->ngroups = 0;
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

int ilpm_watch_poll(ilpm_watch *w, const char *what, ilpm_err *err)
{
    if (!w->status) {
        if (w->deadline <= 0 && !w->stop)
            return 0;
        /* Reading the clock costs tens of nanoseconds; polls come once
         * per constraint or clause, so look every 256th time. */
        if ((w->tick++ & 255u) != 0)
            return 0;
        if (w->stop && *w->stop)
            w->status = ILPM_STOPPED;
        else if (w->deadline > 0 && ilpm_now() >= w->deadline)
            w->status = ILPM_TIMEOUT;
        else
            return 0;
    }
    ilpm_err_set(err, "%s while %s",
                 w->status == ILPM_STOPPED ? "stopped" : "time limit reached",
                 what);
    if (err)
        err->status = w->status;
    return -1;
}
