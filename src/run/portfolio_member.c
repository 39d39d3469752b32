/* --backend auto's members (portfolio.h): a member's process, its solve
 * and its messages to the parent; and the first member's moment alone,
 * whose search goes on in the race as member 0 once the moment has come
 * (ilpm_pf_moment): the process forks where a watch of the search meets
 * the moment, the child searches on, the parent stops its copy and
 * forks the other members. */
#include "portfolio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A deadline for a moment's solve without one: only a watch with a
 * deadline reads the clock (a year; GLPK's tm_lim holds at most 24
 * days and is then no limit). */
#define FAR_S (365 * 86400.0)

static int send_incumbent(void *ctx, const uint8_t *vals)
{
    ilpm_pf_run *r = ctx;
    ilpm_pf_msg h;
    memset(&h, 0, sizeof h);
    h.type = ILPM_PF_INCUMBENT;
    h.status = ILPM_FEASIBLE;
    h.nvars = ilpm_model_nvars(r->m);
    h.objective = ilpm_model_objective_value(r->m, vals);
    int rc = ilpm_portfolio_send(r->fd, &h, NULL, vals);
    while (ilpm_portfolio_test_stall == r->index)
        pause(); /* until killed */
    return rc;
}

/* A member's final answer to the parent: s's status st (s NULL: no
 * solver, err says why), values and sizes. */
static void send_answer(ilpm_pf_run *r, ilpm_solver *s, ilpm_status st,
                        const ilpm_err *err)
{
    ilpm_pf_msg h;
    memset(&h, 0, sizeof h);
    h.type = ILPM_PF_FINAL;
    h.status = s ? st : (ilpm_status)ilpm_rc_outcome(err->rc);
    h.rc = err->rc;
    snprintf(h.error, sizeof h.error, "%s", err->msg);
    if (!s) {
        (void)ilpm_portfolio_send(r->fd, &h, NULL, NULL);
        return;
    }
    const uint8_t *vals = ilpm_solver_values(s);
    uint8_t *wrong = NULL;
    h.nvars = ilpm_model_nvars(r->m);
    if (st == ILPM_UNSAT && r->in.bounded) {
        h.bounded = 1; /* nothing better than told */
        h.objective = r->in.told;
    }
    if (vals &&
        (st == ILPM_SOLVED || st == ILPM_OPTIMAL || st == ILPM_FEASIBLE)) {
        h.objective = ilpm_solver_objective(s);
        if (ilpm_portfolio_test_corrupt == r->index && h.nvars > 0 &&
            (wrong = malloc((size_t)h.nvars + 1)) != NULL) {
            memcpy(wrong, vals, (size_t)h.nvars + 1);
            wrong[1] ^= 1;
            vals = wrong;
        }
    } else {
        vals = NULL;
    }
    (void)ilpm_portfolio_send(r->fd, &h, ilpm_solver_stats(s), vals);
    free(wrong);
}

void ilpm_pf_member_body(void *arg, int fd)
{
    ilpm_pf_run *r = arg;
    r->fd = fd;
    ilpm_options so = *r->so;
    ilpm_portfolio_member_options(r->mb, r->o, r->n, &so);
    ilpm_err err = {0};
    ilpm_solver *s = ilpm_solver_new(r->m, &so, &err);
    if (!s) {
        send_answer(r, NULL, ILPM_ERROR, &err);
        return;
    }
    int has_obj = ilpm_model_objective_get(r->m, NULL, NULL, NULL) != ILPM_NONE;
    ilpm_status st;
    if (has_obj) {
        ilpm_solver_on_incumbent(s, send_incumbent, r);
        ilpm_solver_on_bound(s, ilpm_pf_bound_read, &r->in);
        if (ilpm_portfolio_test_stall >= 0 &&
            ilpm_portfolio_test_stall != r->index)
            ilpm_pf_bound_wait(&r->in, 5);
        st = ilpm_solver_optimize(s, NULL, 0, &err);
    } else {
        st = ilpm_solver_solve(s, NULL, 0, &err);
    }
    send_answer(r, s, st, &err);
    ilpm_solver_free(s);
}

/* ------------------------------------------------------------------ */
/* The first member's moment                                            */

/* In the forked first member: its moment (NULL elsewhere). */
static ilpm_pf_moment *member0;

static void moment_log(void *ctx, const char *text)
{
    ilpm_pf_moment *mo = ctx;
    if (!mo->first.pid) /* the parent's copy of the search stays quiet */
        mo->log(mo->log_ctx, text);
}

/* The moment has come, in a watch of its solve: forks.  The child goes
 * on (0) as member 0 of the race; the parent stops its own search (and
 * races from there), as it does when the fork fails (and races from
 * scratch) or when the run was stopped. */
static int fire(void *ctx)
{
    ilpm_pf_moment *mo = ctx;
    volatile int *user = mo->run.o->solver.stop_flag;
    mo->stop = 1;
    if (user && *user)
        return ILPM_STOPPED;
    int has_obj =
        ilpm_model_objective_get(mo->run.m, NULL, NULL, NULL) != ILPM_NONE;
    ilpm_pf_bounds in;
    int back, fd, wfd;
    ilpm_pf_bound_pipe(has_obj, &in, &back);
    pid_t pid = ilpm_portfolio_fork(mo->run.n, &fd, &wfd);
    if (pid == 0) {
        if (back >= 0)
            close(back);
        mo->stop = 0;
        mo->run.fd = wfd;
        mo->run.in = in;
        member0 = mo;
        return 0;
    }
    if (in.fd >= 0)
        close(in.fd);
    if (pid < 0) {
        if (back >= 0)
            close(back);
        return ILPM_STOPPED;
    }
    mo->first.pid = pid;
    mo->first.fd = fd;
    mo->first.back = back;
    const ilpm_options *so = &mo->run.o->solver;
    if (so->verbose && so->log) {
        char line[160];
        snprintf(line, sizeof line,
                 "auto: %s goes on in the race after %.3f s alone\n",
                 mo->run.mb->name, ilpm_now() - mo->first.t0);
        so->log(so->log_ctx, line);
    }
    return ILPM_STOPPED;
}

void ilpm_pf_moment_arm(ilpm_pf_moment *mo, const ilpm_member *mb, int n,
                        const ilpm_run_opts *o, ilpm_model *m, ilpm_options *so,
                        double at)
{
    memset(mo, 0, sizeof *mo);
    mo->run = (ilpm_pf_run){mb, 0, n, o, NULL, m, -1, {-1, 0, 0, 0}};
    mo->first.fd = mo->first.back = -1;
    mo->first.t0 = ilpm_now();
    mo->log = so->log;
    mo->log_ctx = so->log_ctx;
    if (so->log) {
        so->log = moment_log;
        so->log_ctx = mo;
    }
    so->stop_flag = &mo->stop;
    if (so->deadline <= 0)
        so->deadline = mo->first.t0 + FAR_S;
    ilpm_watch_moment(at, fire, mo);
}

/* Before the fork: the last incumbent, for the race; after it, in the
 * child: to the parent, as a member's. */
static int moment_incumbent(void *ctx, const uint8_t *vals)
{
    ilpm_pf_moment *mo = ctx;
    if (member0 == mo)
        return send_incumbent(&mo->run, vals);
    int nv = ilpm_model_nvars(mo->run.m);
    if (!mo->first.incumbent)
        mo->first.incumbent = malloc((size_t)nv + 1);
    if (mo->first.incumbent) {
        memcpy(mo->first.incumbent, vals, (size_t)nv + 1);
        mo->first.objective = ilpm_model_objective_value(mo->run.m, vals);
    }
    return 0;
}

static int moment_bound(void *ctx, int64_t *obj)
{
    ilpm_pf_moment *mo = ctx;
    return member0 == mo ? ilpm_pf_bound_read(&mo->run.in, obj) : 0;
}

void ilpm_pf_moment_hooks(ilpm_pf_moment *mo, ilpm_solver *s)
{
    if (ilpm_model_objective_get(mo->run.m, NULL, NULL, NULL) == ILPM_NONE)
        return;
    ilpm_solver_on_incumbent(s, moment_incumbent, mo);
    ilpm_solver_on_bound(s, moment_bound, mo);
}

void ilpm_pf_moment_end(ilpm_solver *s, ilpm_status st, const ilpm_err *err)
{
    ilpm_watch_moment(0, NULL, NULL);
    if (!member0)
        return;
    send_answer(&member0->run, s, st, err);
    close(member0->run.fd);
    _exit(0);
}
