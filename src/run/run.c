/* One instance from puzzle to verified result record (its renderings
 * are output.c's).  Every solution a back end returns is decoded and
 * checked by the puzzle's own verifier before it is reported. */
#include "run.h"
#include "portfolio.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ilpm_run_opts_init(ilpm_run_opts *o)
{
    memset(o, 0, sizeof *o);
    ilpm_options_init(&o->solver);
    o->render = 1;
    o->seed = -1;
}

void ilpm_result_init(ilpm_result *r)
{
    memset(r, 0, sizeof *r);
}

void ilpm_result_free(ilpm_result *r)
{
    if (!r)
        return;
    ilpm_stats_free(&r->stats);
    free(r->text);
    free(r->json);
    r->text = r->json = NULL;
}

static double ms_since(double t0)
{
    return (ilpm_now() - t0) * 1000.0;
}

ilpm_model *ilpm_run_model_new(const ilpm_options *o)
{
    ilpm_model *m = ilpm_model_new();
    if (m) {
        ilpm_model_set_limits(m, o->max_vars, o->max_memory_mb * 1048576);
        ilpm_model_set_deadline(m, ilpm_options_deadline(o), o->stop_flag);
    }
    return m;
}

/* 1 once the run's deadline (0: none) has come: a step that cannot be
 * cut short (a load, a build) may end past it; the run then stops. */
static int passed(double deadline)
{
    return deadline > 0 && ilpm_now() >= deadline;
}

/* A deadline that ended the run (timeout, or feasible: the optimum not
 * proven) before it came: a step that cannot be cut short would have
 * ended past it, and the back end gave up early.  The result says so
 * (reason: one line below the text line, a JSON field). */
static void gave_up_early(ilpm_result *res, const ilpm_err *err,
                          double deadline)
{
    if ((res->status != ILPM_TIMEOUT && res->status != ILPM_FEASIBLE) ||
        err->rc != ILPM_E_TIMEOUT || !err->msg[0] || deadline <= 0 ||
        res->reason[0])
        return;
    ilpm_watch w;
    ilpm_watch_until(&w, deadline, NULL);
    /* Under 0.05 s is the margin a watch keeps for freeing (it stops
     * that much ahead, ilpm_free_time), not a step given up: no reason
     * ("gave up 0.0 s"). */
    double left = ilpm_watch_left(&w);
    if (left >= 0.05)
        snprintf(res->reason, sizeof res->reason,
                 "gave up %.1f s before the time limit: %.200s", left,
                 err->msg);
}

/* A build or lowering that failed: an error, or a timeout or stop when
 * a watch cut it short (the model's, even when a puzzle reported it in a
 * message of its own). */
static void build_failed(ilpm_result *res, const ilpm_model *m, ilpm_err *err,
                         double deadline, double t0)
{
    res->build_ms = ms_since(t0);
    if (ilpm_rc_outcome(err->rc) == ILPM_ERROR)
        ilpm_model_cut_short(m, err);
    int st = ilpm_rc_outcome(err->rc);
    if (st != ILPM_ERROR)
        res->status = (ilpm_status)st;
    else {
        snprintf(res->error, sizeof res->error, "%s", err->msg);
        res->error_kind = err->rc;
    }
    gave_up_early(res, err, deadline);
}

static void copy_stats(ilpm_result *r, const ilpm_stats *s)
{
    r->stats = *s;
    r->stats.groups = NULL;
    if (s->ngroups > 0) {
        r->stats.groups = malloc((size_t)s->ngroups * sizeof *s->groups);
        if (r->stats.groups)
            memcpy(r->stats.groups, s->groups,
                   (size_t)s->ngroups * sizeof *s->groups);
        else
            r->stats.ngroups = 0;
    }
    r->have_stats = 1;
}

struct check_ctx {
    const ilpm_puzzle *pz;
    const void *inst;
    const ilpm_params *p;
    const ilpm_model *m;
    ilpm_result *res;
    int render;
    int count;   /* counting: no text, no statements about the answer */
    int no_post; /* ilpm_run_opts no_post */
    volatile int *stop;
    int failed;
    const ilpm_run_opts *progress;   /* counting with a progress hook */
    const ilpm_run_opts *each;       /* counting with a solution hook */
    const ilpm_run_opts *incumbents; /* optimising with a solution hook */
};

/* Decodes and verifies one solution; renders it when asked and none has
 * been rendered yet.  Returns 0 when the solution passes. */
static int check_solution(void *vctx, const uint8_t *vals)
{
    struct check_ctx *c = vctx;
    ilpm_err e = {0};
    void *sol = c->pz->decode(c->inst, c->p, c->m, vals, &e);
    if (!sol) {
        snprintf(c->res->error, sizeof c->res->error, "decode: %.480s", e.msg);
        c->res->error_kind = ILPM_E_FAIL;
        c->failed = 1;
        return -1;
    }
    if (c->pz->verify(c->inst, c->p, sol, &e) != 0) {
        snprintf(c->res->error, sizeof c->res->error,
                 "solution fails the rules: %.480s", e.msg);
        c->res->error_kind = ILPM_E_FAIL;
        c->failed = 1;
        c->pz->free_solution(sol);
        return -1;
    }
    if (c->render && !c->res->json) {
        ilpm_buf b;
        ilpm_buf_init(&b);
        if (!c->count && c->pz->post && !c->no_post) {
            ilpm_err pe = {0};
            if (c->pz->post(c->inst, sol, c->stop, &b, &pe) != 0)
                snprintf(c->res->postsolve_error,
                         sizeof c->res->postsolve_error, "%s", pe.msg);
            c->res->text = ilpm_buf_take(&b);
        } else if (!c->count) {
            c->pz->render(c->inst, sol, &b);
            c->res->text = ilpm_buf_take(&b);
        }
        c->pz->render_json(c->inst, sol, &b);
        c->res->json = ilpm_buf_take(&b);
    }
    int rc = 0;
    if (c->each) {
        ilpm_buf b;
        ilpm_buf_init(&b);
        c->pz->render(c->inst, sol, &b);
        rc = c->each->on_solution(c->each->solution_ctx, ilpm_buf_str(&b));
        ilpm_buf_free(&b);
    }
    c->pz->free_solution(sol);
    if (c->progress)
        c->progress->progress(c->progress->progress_ctx, c->res);
    return rc;
}

/* An incumbent of an optimisation: verified and shown to the solution
 * hook, the result's text left to the final solution. */
static int check_incumbent(void *vctx, const uint8_t *vals)
{
    struct check_ctx *c = vctx;
    int render = c->render;
    c->render = 0;
    c->each = c->incumbents;
    int rc = check_solution(c, vals);
    c->render = render;
    c->each = NULL;
    return rc;
}

static void begin(const ilpm_puzzle *pz, const void *inst, const ilpm_params *p,
                  const ilpm_run_opts *o, ilpm_result *res)
{
    snprintf(res->puzzle, sizeof res->puzzle, "%s", pz->name);
    if (!res->instance[0])
        pz->describe(inst, res->instance, sizeof res->instance);
    res->backend = o->solver.backend;
    res->status = ILPM_ERROR;
    if (!res->formulation[0] && pz->formulations) {
        const char *f = ilpm_params_get(p, "formulation");
        snprintf(res->formulation, sizeof res->formulation, "%s",
                 f ? f : pz->formulations[0]);
    }
    if (o->progress)
        o->progress(o->progress_ctx, res);
}

/* Solves (counts, optimises) with s under the assumptions, then decodes
 * and verifies; fills res from solve_ms on. */
static int solve_and_check(const ilpm_puzzle *pz, const void *inst,
                           const ilpm_params *p, const ilpm_run_opts *o,
                           ilpm_model *m, ilpm_solver *s, const int *assume,
                           int nassume, double deadline, ilpm_result *res)
{
    ilpm_err err = {0};
    copy_stats(res, ilpm_solver_stats(s));
    int has_obj = ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE;
    int counting = o->count && !(o->count_satisfaction_only && has_obj);
    struct check_ctx ctx = {pz,       inst,       p,
                            m,        res,        o->render,
                            counting, o->no_post, o->solver.stop_flag,
                            0,        NULL,       NULL,
                            NULL};
    double t1 = ilpm_now();
    ilpm_status st;
    if (counting) {
        /* The count grows in res as solutions come: the hook sees it. */
        res->has_count = 1;
        ctx.progress = o->progress ? o : NULL;
        ctx.each = o->on_solution ? o : NULL;
        st = ilpm_solver_count(s, o->limit, &res->count, check_solution, &ctx,
                               &err);
        res->count_complete = ilpm_solver_count_complete(s);
        if (pz->count_note)
            pz->count_note(inst, res->count_note, sizeof res->count_note);
        /* Verified: solutions were reported and every one passed (an
         * answer with none, as unsat, has nothing verified). */
        res->verified = res->count > 0 && !ctx.failed;
        if (st == ILPM_SOLVED && res->count == 0)
            st = ILPM_UNSAT;
    } else {
        if (has_obj && o->incumbents && o->on_solution) {
            ctx.incumbents = o;
            ilpm_solver_on_incumbent(s, check_incumbent, &ctx);
        }
        st = has_obj ? ilpm_solver_optimize(s, assume, nassume, &err)
                     : ilpm_solver_solve(s, assume, nassume, &err);
        ilpm_pf_moment_end(s, st, &err); /* auto's forked member 0 ends */
        ilpm_solver_on_incumbent(s, NULL, NULL);
        const uint8_t *vals = ilpm_solver_values(s);
        if (vals) {
            res->verified = check_solution(&ctx, vals) == 0;
            if (has_obj) {
                res->has_objective = 1;
                res->objective = ilpm_solver_objective(s);
                res->objective_scale =
                    pz->objective_scale ? pz->objective_scale(inst, p) : 1;
                if (pz->describe_objective)
                    pz->describe_objective(inst, p, res->objective,
                                           res->objective_text,
                                           sizeof res->objective_text);
            }
        }
    }
    res->solve_ms = ms_since(t1);
    if (st == ILPM_ERROR && !ctx.failed) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        res->error_kind = err.rc;
    }
    if (ctx.failed)
        st = ILPM_ERROR;
    /* A stop that came during the run may have cut a step short whose
     * caller went on: what fails its check then is not a result. */
    if (st == ILPM_ERROR && o->solver.stop_flag && *o->solver.stop_flag) {
        st = ILPM_STOPPED;
        ctx.failed = 0;
        res->verified = 0;
        res->error[0] = '\0';
    }
    res->status = st;
    gave_up_early(res, &err, deadline);
    if (st == ILPM_UNSAT && pz->explain_unsat)
        pz->explain_unsat(inst, p, res->reason, sizeof res->reason);
    return st == ILPM_ERROR && ctx.failed ? -1 : 0;
}

int ilpm_run_accept(const ilpm_puzzle *pz, const void *inst,
                    const ilpm_params *p, const ilpm_run_opts *o,
                    const ilpm_model *m, const uint8_t *vals, int incumbent,
                    ilpm_result *res)
{
    size_t bad = 0;
    if (!ilpm_model_check(m, vals, &bad)) {
        snprintf(res->error, sizeof res->error,
                 "the answer breaks constraint %zu of the model", bad + 1);
        res->error_kind = ILPM_E_FAIL;
        return -1;
    }
    struct check_ctx ctx = {
        pz, inst, p,    m,   res, o->render, 0, o->no_post, o->solver.stop_flag,
        0,  NULL, NULL, NULL};
    if (incumbent) {
        ctx.incumbents = o->incumbents && o->on_solution ? o : NULL;
        return check_incumbent(&ctx, vals);
    }
    if (check_solution(&ctx, vals) != 0)
        return -1;
    if (ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE) {
        res->has_objective = 1;
        res->objective = ilpm_model_objective_value(m, vals);
        res->objective_scale =
            pz->objective_scale ? pz->objective_scale(inst, p) : 1;
        if (pz->describe_objective)
            pz->describe_objective(inst, p, res->objective, res->objective_text,
                                   sizeof res->objective_text);
    }
    return 0;
}

int ilpm_run_count_model(const ilpm_puzzle *pz, const void *inst,
                         const ilpm_params *p, const ilpm_run_opts *o,
                         ilpm_model *m, const ilpm_options *so,
                         ilpm_result *res)
{
    ilpm_err err = {0};
    ilpm_solver *s = ilpm_solver_new(m, so, &err);
    if (!s) {
        build_failed(res, m, &err, so->deadline, ilpm_now());
        return 0;
    }
    int rc = solve_and_check(pz, inst, p, o, m, s, NULL, 0, so->deadline, res);
    ilpm_solver_free(s);
    return rc;
}

/* The moment's answer r, when it settles the run: into res (1); else
 * r is freed (0). */
static int quick_answered(const ilpm_run_opts *o, int counting,
                          const ilpm_member *mb, ilpm_backend backend,
                          ilpm_result *r, ilpm_result *res)
{
    int done =
        counting
            ? r->status == ILPM_UNSAT || (r->status == ILPM_SOLVED &&
                                          (r->count_complete || o->limit > 0))
            : r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
                  r->status == ILPM_UNSAT;
    if (!done) {
        ilpm_result_free(r);
        return 0;
    }
    *res = *r;
    res->backend = backend;
    /* the moment runs on the run's model, whatever mb's formulation */
    if (mb)
        ilpm_pf_member_name(mb, NULL, res->member, sizeof res->member);
    else
        snprintf(res->member, sizeof res->member, "cp");
    if (o->solver.verbose && o->solver.log) {
        char line[128];
        snprintf(line, sizeof line, "auto: %s answered (%s) alone\n",
                 res->member, ilpm_status_name(res->status));
        o->solver.log(o->solver.log_ctx, line);
    }
    return 1;
}

/* The end of a moment alone whose member is not the race's first: its
 * search stops (the race starts afresh). */
static int moment_stop(void *ctx)
{
    (void)ctx;
    return ILPM_STOPPED;
}

/* auto: the first member alone in this process for a moment, so that an
 * easy instance (a grid settled by probing, a small count) is answered
 * without a fork.  1 when it answered (res filled), else 0 (res as it
 * was).  When the member is the race's first too, its search goes on in
 * the race from the moment (*first: that process), else it is lost. */
static int quick_try(const ilpm_puzzle *pz, const void *inst,
                     const ilpm_params *p, const ilpm_run_opts *o,
                     ilpm_model *m, const ilpm_options *so, int counting,
                     ilpm_result *res, ilpm_pf_first *first)
{
    int has_obj = ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE;
    /* its incumbents would come again from the race */
    if (has_obj && !counting && o->incumbents && o->on_solution)
        return 0;
    const ilpm_member *mb = NULL, *list = NULL;
    int n = 1; /* the race's members, when mb is its first */
    ilpm_run_opts ro = *o;
    ro.solver = *so;
    if (counting) {
        ro.solver.backend = ILPM_BACKEND_CP;
    } else {
        int vars = ilpm_model_nvars(m);
        mb = ilpm_portfolio_first(pz, p, res->file, has_obj, vars);
        if (ilpm_pf_form_of(mb, pz, p))
            return 0; /* it races on a model of its own */
        n = ilpm_portfolio_members(pz, p, res->file, has_obj, vars,
                                   ilpm_portfolio_threads(o), &list);
        n = mb == list ? n : 1;
        ilpm_portfolio_member_options(mb, o, n, &ro.solver);
        ro.solver.stop_flag = so->stop_flag;
    }
    if (ilpm_portfolio_quick_s <= 0)
        return 0;
    double end = ilpm_now() + ilpm_portfolio_quick_s;
    ilpm_pf_moment mo;
    if (n > 1) {
        ilpm_pf_moment_arm(&mo, mb, n, o, m, &ro.solver, end);
    } else {
        /* by the thread's CPU time too, as the race's (ilpm_watch_moment);
         * watches without a deadline read no clock */
        ilpm_watch_moment(end, moment_stop, NULL);
        if (ro.solver.deadline <= 0)
            ro.solver.deadline = end + 365 * 86400.0;
    }
    ilpm_err err = {0};
    ilpm_solver *s = ilpm_solver_new(m, &ro.solver, &err);
    ilpm_result r = *res; /* its identity; nothing allocated yet */
    if (s) {
        if (n > 1)
            ilpm_pf_moment_hooks(&mo, s);
        solve_and_check(pz, inst, p, &ro, m, s, NULL, 0, ro.solver.deadline,
                        &r);
        if (n == 1)
            ilpm_watch_moment(0, NULL, NULL);
        ilpm_solver_free(s);
    } else {
        ilpm_pf_moment_end(NULL, ILPM_ERROR, &err); /* disarms it */
        r.status = ILPM_ERROR;
    }
    if (n > 1 && mo.first.pid > 0) { /* member 0 of the race, from here */
        ilpm_result_free(&r);
        *first = mo.first;
        return 0;
    }
    if (n > 1)
        free(mo.first.incumbent);
    return quick_answered(o, counting, mb, ro.solver.backend, &r, res);
}

int ilpm_run_load(const ilpm_puzzle *pz, void *inst, const ilpm_params *p,
                  const ilpm_options *o, double *ms, ilpm_err *err)
{
    *ms = 0;
    return pz->load ? pz->load(inst, p, o, ms, err) : 0;
}

/* The load step, first under the run's deadline (so->deadline), which
 * the rest of the run shares.  0 to go on; else res is complete. */
static int load_step(const ilpm_puzzle *pz, const void *inst,
                     const ilpm_params *p, ilpm_options *so, ilpm_result *res)
{
    if (!pz->load)
        return 0;
    ilpm_err err = {0};
    res->has_translate = 1;
    /* The instance is read-only but for this cache, filled once by the
     * one thread that runs it (as the verifier's copy, model.c). */
    int rc = ilpm_run_load(pz, (void *)inst, p, so, &res->translate_ms, &err);
    if (rc == 0 && passed(so->deadline)) {
        res->status = ILPM_TIMEOUT;
        return -1;
    }
    if (rc == 0)
        return 0;
    if (ilpm_rc_outcome(err.rc) != ILPM_ERROR) {
        res->status = (ilpm_status)ilpm_rc_outcome(err.rc);
    } else {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        res->error_kind = err.rc;
    }
    return -1;
}

int ilpm_run_instance(const ilpm_puzzle *pz, const void *inst,
                      const ilpm_params *p, const ilpm_run_opts *o,
                      ilpm_result *res)
{
    ilpm_err err = {0};
    ilpm_run_opts single;
    if (o->solver.backend == ILPM_BACKEND_AUTO &&
        ilpm_portfolio_single(o) != ILPM_BACKEND_AUTO) {
        single = *o;
        single.solver.backend = ilpm_portfolio_single(o);
        o = &single;
    }
    begin(pz, inst, p, o, res);
    if (o == &single) /* auto on one thread: this back end alone */
        snprintf(res->member, sizeof res->member, "%s",
                 ilpm_backend_name(o->solver.backend));
    ilpm_options so = o->solver;
    /* The run's one deadline: loading, building, lowering and solving
     * all watch it. */
    so.deadline = ilpm_options_deadline(&so);
    if (load_step(pz, inst, p, &so, res) != 0)
        return 0;
    double t0 = ilpm_now();
    ilpm_model *m = ilpm_run_model_new(&so);
    if (!m) {
        snprintf(res->error, sizeof res->error, "out of memory");
        res->error_kind = ILPM_E_NOMEM;
        return -1;
    }
    /* A build cut short by the watch may have been reported as done by a
     * puzzle that went on after a constraint was refused: the model's
     * own status says so. */
    if (pz->build(inst, p, m, &err) != 0 || ilpm_model_cut_short(m, &err)) {
        build_failed(res, m, &err, so.deadline, t0);
        ilpm_model_free(m);
        return 0; /* a model the input cannot make is an input error */
    }
    if (passed(so.deadline)) {
        res->build_ms = ms_since(t0);
        res->status = ILPM_TIMEOUT;
        ilpm_model_free(m);
        return 0;
    }
    if (so.backend == ILPM_BACKEND_AUTO) {
        res->build_ms = ms_since(t0);
        int has_obj =
            ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE;
        int counting = o->count && !(o->count_satisfaction_only && has_obj);
        ilpm_pf_first first = {0};
        int rc = quick_try(pz, inst, p, o, m, &so, counting, res, &first) ? 0
                 : counting
                     ? ilpm_portfolio_count(pz, inst, p, o, m, &so, res)
                     : ilpm_portfolio_solve(pz, inst, p, o, m, &so,
                                            first.pid > 0 ? &first : NULL, res);
        free(first.incumbent);
        ilpm_model_free(m);
        return rc;
    }
    ilpm_solver *s = ilpm_solver_new(m, &so, &err);
    res->build_ms = ms_since(t0);
    if (!s) {
        build_failed(res, m, &err, so.deadline, t0);
        ilpm_model_free(m);
        return 0;
    }
    int rc = solve_and_check(pz, inst, p, o, m, s, NULL, 0, so.deadline, res);
    ilpm_solver_free(s);
    ilpm_model_free(m);
    return rc;
}

/* ------------------------------------------------------------------ */
/* One model per shape, reused across instances                         */

struct ilpm_shape_cache {
    char key[256];
    ilpm_backend backend;
    ilpm_model *m;
    ilpm_solver *s;
    long reused;
};

ilpm_shape_cache *ilpm_shape_cache_new(void)
{
    return calloc(1, sizeof(ilpm_shape_cache));
}

static void cache_drop(ilpm_shape_cache *c)
{
    ilpm_solver_free(c->s);
    ilpm_model_free(c->m);
    c->s = NULL;
    c->m = NULL;
    c->key[0] = '\0';
}

void ilpm_shape_cache_free(ilpm_shape_cache *c)
{
    if (!c)
        return;
    cache_drop(c);
    free(c);
}

long ilpm_shape_cache_reused(const ilpm_shape_cache *c)
{
    return c ? c->reused : 0;
}

int ilpm_run_instance_cached(const ilpm_puzzle *pz, const void *inst,
                             const ilpm_params *p, const ilpm_run_opts *o,
                             ilpm_shape_cache *c, ilpm_result *res)
{
    char key[256];
    /* Counting adds blocking clauses for good: it needs its own model. */
    if (!c || o->count || o->solver.backend == ILPM_BACKEND_AUTO ||
        !pz->shape || !pz->build_shape || !pz->givens ||
        pz->shape(inst, p, key, sizeof key) != 0)
        return ilpm_run_instance(pz, inst, p, o, res);
    ilpm_err err = {0};
    begin(pz, inst, p, o, res);
    double t0 = ilpm_now();
    ilpm_options so = o->solver;
    so.deadline = ilpm_options_deadline(&so);
    if (!c->s || strcmp(c->key, key) != 0 ||
        (int)c->backend != o->solver.backend) {
        cache_drop(c);
        c->m = ilpm_run_model_new(&so);
        if (!c->m) {
            snprintf(res->error, sizeof res->error, "out of memory");
            res->error_kind = ILPM_E_NOMEM;
            return -1;
        }
        if (pz->build_shape(inst, p, c->m, &err) != 0 ||
            ilpm_model_cut_short(c->m, &err) ||
            !(c->s = ilpm_solver_new(c->m, &so, &err))) {
            build_failed(res, c->m, &err, so.deadline, t0);
            cache_drop(c);
            return 0;
        }
        /* The model outlives this instance's time limit. */
        ilpm_model_set_deadline(c->m, 0, NULL);
        snprintf(c->key, sizeof c->key, "%s", key);
        c->backend = o->solver.backend;
    } else {
        c->reused++;
    }
    if (passed(so.deadline)) {
        res->build_ms = ms_since(t0);
        res->status = ILPM_TIMEOUT;
        return 0;
    }
    ilpm_solver_set_deadline(c->s, so.deadline);
    int *lits = NULL, n = 0;
    if (pz->givens(inst, c->m, &lits, &n, &err) != 0) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        res->error_kind = err.rc;
        res->build_ms = ms_since(t0);
        return 0;
    }
    res->build_ms = ms_since(t0);
    int rc =
        solve_and_check(pz, inst, p, o, c->m, c->s, lits, n, so.deadline, res);
    free(lits);
    return rc;
}
