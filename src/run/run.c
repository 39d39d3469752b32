/* One instance from puzzle to verified result record, and the record's
 * three renderings (text, JSON line, CSV row).  Every solution a back end
 * returns is decoded and checked by the puzzle's own verifier before it is
 * reported. */
#include "run.h"

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
        ilpm_model_set_deadline(m, o->time_limit, o->stop_flag);
    }
    return m;
}

/* A time limit that ended the run (timeout, or feasible: the optimum
 * not proven) before it ran out: a step that cannot be cut short would
 * have ended past it, and the back end gave up early.  The result says
 * so (reason: one line below the text line, a JSON field). */
static void gave_up_early(ilpm_result *res, const ilpm_err *err,
                          const ilpm_run_opts *o)
{
    double spent = (res->build_ms + res->solve_ms) / 1000.0;
    if ((res->status == ILPM_TIMEOUT || res->status == ILPM_FEASIBLE) &&
        err->status == ILPM_TIMEOUT && err->msg[0] &&
        o->solver.time_limit > 0 && spent < o->solver.time_limit &&
        !res->reason[0])
        snprintf(res->reason, sizeof res->reason,
                 "gave up %.1f s before the time limit: %.200s",
                 o->solver.time_limit - spent, err->msg);
}

/* A build or lowering that failed: an error, or a timeout or stop when
 * a watch cut it short (the model's, even when a puzzle reported it in a
 * message of its own). */
static void build_failed(ilpm_result *res, const ilpm_model *m,
                         const ilpm_err *err, const ilpm_run_opts *o, double t0)
{
    res->build_ms = ms_since(t0);
    int st = err->status ? err->status : ilpm_model_interrupted(m);
    if (st == ILPM_TIMEOUT || st == ILPM_STOPPED)
        res->status = (ilpm_status)st;
    else {
        snprintf(res->error, sizeof res->error, "%s", err->msg);
        res->error_kind = err->kind;
    }
    gave_up_early(res, err, o);
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
    const ilpm_run_opts *progress; /* counting with a progress hook */
    const ilpm_run_opts *each;     /* counting with a solution hook */
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
        c->res->error_kind = ILPM_ERR_INTERNAL;
        c->failed = 1;
        return -1;
    }
    if (c->pz->verify(c->inst, c->p, sol, &e) != 0) {
        snprintf(c->res->error, sizeof c->res->error,
                 "solution fails the rules: %.480s", e.msg);
        c->res->error_kind = ILPM_ERR_INTERNAL;
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
                           int nassume, ilpm_result *res)
{
    ilpm_err err = {0};
    copy_stats(res, ilpm_solver_stats(s));
    int has_obj = ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE;
    int counting = o->count && !(o->count_satisfaction_only && has_obj);
    struct check_ctx ctx = {pz,       inst,       p,
                            m,        res,        o->render,
                            counting, o->no_post, o->solver.stop_flag,
                            0,        NULL,       NULL};
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
        st = has_obj ? ilpm_solver_optimize(s, assume, nassume, &err)
                     : ilpm_solver_solve(s, assume, nassume, &err);
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
        res->error_kind = err.kind;
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
    gave_up_early(res, &err, o);
    if (st == ILPM_UNSAT && pz->explain_unsat)
        pz->explain_unsat(inst, p, res->reason, sizeof res->reason);
    return st == ILPM_ERROR && ctx.failed ? -1 : 0;
}

int ilpm_run_load(const ilpm_puzzle *pz, void *inst, const ilpm_params *p,
                  const ilpm_options *o, double *ms, ilpm_err *err)
{
    *ms = 0;
    return pz->load ? pz->load(inst, p, o, ms, err) : 0;
}

/* The load step, first under the time limit: the rest of the run gets
 * what it leaves (so->time_limit).  0 to go on; else res is complete. */
static int load_step(const ilpm_puzzle *pz, const void *inst,
                     const ilpm_params *p, ilpm_options *so, ilpm_result *res)
{
    if (!pz->load)
        return 0;
    ilpm_err err = {0};
    double t0 = ilpm_now();
    res->has_translate = 1;
    /* The instance is read-only but for this cache, filled once by the
     * one thread that runs it (as the verifier's copy, model.c). */
    int rc = ilpm_run_load(pz, (void *)inst, p, so, &res->translate_ms, &err);
    if (rc == 0 && so->time_limit > 0) {
        so->time_limit -= ilpm_now() - t0;
        if (so->time_limit <= 0) {
            res->status = ILPM_TIMEOUT;
            return -1;
        }
    }
    if (rc == 0)
        return 0;
    if (err.status == ILPM_TIMEOUT || err.status == ILPM_STOPPED) {
        res->status = (ilpm_status)err.status;
    } else {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        res->error_kind = err.kind;
    }
    return -1;
}

int ilpm_run_instance(const ilpm_puzzle *pz, const void *inst,
                      const ilpm_params *p, const ilpm_run_opts *o,
                      ilpm_result *res)
{
    ilpm_err err = {0};
    begin(pz, inst, p, o, res);
    ilpm_options so = o->solver;
    if (load_step(pz, inst, p, &so, res) != 0)
        return 0;
    double t0 = ilpm_now();
    ilpm_model *m = ilpm_run_model_new(&so);
    if (!m) {
        snprintf(res->error, sizeof res->error, "out of memory");
        res->error_kind = ILPM_ERR_NOMEM;
        return -1;
    }
    /* A build cut short by the watch may have been reported as done by a
     * puzzle that went on after a constraint was refused: the model's
     * own status says so. */
    if (pz->build(inst, p, m, &err) != 0 || ilpm_model_interrupted(m)) {
        build_failed(res, m, &err, o, t0);
        ilpm_model_free(m);
        return 0; /* a model the input cannot make is an input error */
    }
    /* The time limit covers building and lowering the model too: the
     * solver gets what is left. */
    if (so.time_limit > 0) {
        so.time_limit -= ilpm_now() - t0;
        if (so.time_limit <= 0) {
            res->build_ms = ms_since(t0);
            res->status = ILPM_TIMEOUT;
            ilpm_model_free(m);
            return 0;
        }
    }
    ilpm_solver *s = ilpm_solver_new(m, &so, &err);
    res->build_ms = ms_since(t0);
    if (!s) {
        build_failed(res, m, &err, o, t0);
        ilpm_model_free(m);
        return 0;
    }
    int rc = solve_and_check(pz, inst, p, o, m, s, NULL, 0, res);
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
    if (!c || o->count || !pz->shape || !pz->build_shape || !pz->givens ||
        pz->shape(inst, p, key, sizeof key) != 0)
        return ilpm_run_instance(pz, inst, p, o, res);
    ilpm_err err = {0};
    begin(pz, inst, p, o, res);
    double t0 = ilpm_now();
    if (!c->s || strcmp(c->key, key) != 0 || c->backend != o->solver.backend) {
        cache_drop(c);
        c->m = ilpm_run_model_new(&o->solver);
        if (!c->m) {
            snprintf(res->error, sizeof res->error, "out of memory");
            res->error_kind = ILPM_ERR_NOMEM;
            return -1;
        }
        if (pz->build_shape(inst, p, c->m, &err) != 0 ||
            ilpm_model_interrupted(c->m) ||
            !(c->s = ilpm_solver_new(c->m, &o->solver, &err))) {
            build_failed(res, c->m, &err, o, t0);
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
    if (o->solver.time_limit > 0) {
        double left = o->solver.time_limit - (ilpm_now() - t0);
        if (left <= 0) {
            res->build_ms = ms_since(t0);
            res->status = ILPM_TIMEOUT;
            return 0;
        }
        ilpm_solver_set_time_limit(c->s, left);
    } else {
        ilpm_solver_set_time_limit(c->s, 0);
    }
    int *lits = NULL, n = 0;
    if (pz->givens(inst, c->m, &lits, &n, &err) != 0) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        res->error_kind = err.kind;
        res->build_ms = ms_since(t0);
        return 0;
    }
    res->build_ms = ms_since(t0);
    int rc = solve_and_check(pz, inst, p, o, c->m, c->s, lits, n, res);
    free(lits);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Output                                                               */

static int has_solution(const ilpm_result *r)
{
    return r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
           r->status == ILPM_FEASIBLE;
}

const ilpm_size_column ilpm_size_columns[] = {
    {"vars", offsetof(ilpm_stats, vars), 0},
    {"aux_vars", offsetof(ilpm_stats, aux_vars), 0},
    {"rows", offsetof(ilpm_stats, rows), ILPM_REPORTS_ROWS},
    {"nonzeros", offsetof(ilpm_stats, nonzeros), ILPM_REPORTS_ROWS},
    {"clauses", offsetof(ilpm_stats, clauses), ILPM_REPORTS_CLAUSES},
    {NULL, 0, 0}};

int ilpm_backend_fills(ilpm_backend b, const ilpm_size_column *c)
{
    return ((unsigned)ilpm_backend_report(b) & c->needs) == c->needs;
}

int64_t *ilpm_size_field(ilpm_stats *s, const ilpm_size_column *c)
{
    return (int64_t *)(void *)((char *)s + c->offset);
}

int64_t ilpm_size_value(const ilpm_stats *s, const ilpm_size_column *c)
{
    return *(const int64_t *)(const void *)((const char *)s + c->offset);
}

/* Whether r has column c: its formulation was built and its back end
 * fills c. */
static int has_size(const ilpm_result *r, const ilpm_size_column *c)
{
    return r->have_stats && ilpm_backend_fills(r->backend, c);
}

static void json_int_or_null(ilpm_buf *b, const char *key, int have, int64_t v)
{
    if (have)
        ilpm_buf_printf(b, ",\"%s\":%" PRId64, key, v);
    else
        ilpm_buf_printf(b, ",\"%s\":null", key);
}

const char *ilpm_result_objective(const ilpm_result *r, char *buf, size_t size)
{
    return ilpm_fmt_scaled(r->objective, r->objective_scale, buf, size);
}

void ilpm_result_json(const ilpm_result *r, ilpm_buf *b)
{
    ilpm_buf_puts(b, "{\"puzzle\":");
    ilpm_buf_json_str(b, r->puzzle);
    ilpm_buf_puts(b, ",\"instance\":");
    ilpm_buf_json_str(b, r->instance);
    if (r->file[0]) {
        ilpm_buf_puts(b, ",\"file\":");
        ilpm_buf_json_str(b, r->file);
        ilpm_buf_printf(b, ",\"index\":%ld", r->index);
    }
    if (r->formulation[0]) {
        ilpm_buf_puts(b, ",\"formulation\":");
        ilpm_buf_json_str(b, r->formulation);
    }
    ilpm_buf_printf(b, ",\"backend\":\"%s\",\"status\":\"%s\"",
                    ilpm_backend_name(r->backend), ilpm_status_name(r->status));
    ilpm_buf_printf(b, ",\"verified\":%s", r->verified ? "true" : "false");
    if (r->has_count)
        ilpm_buf_printf(b, ",\"count\":%" PRIu64 ",\"count_complete\":%s",
                        r->count, r->count_complete ? "true" : "false");
    char obj[32];
    if (r->has_objective)
        ilpm_buf_printf(b, ",\"objective\":%s",
                        ilpm_result_objective(r, obj, sizeof obj));
    if (r->has_translate) /* a puzzle with a load step (gmpl) */
        ilpm_buf_printf(b, ",\"translate_ms\":%.3f", r->translate_ms);
    ilpm_buf_printf(b, ",\"build_ms\":%.3f,\"solve_ms\":%.3f", r->build_ms,
                    r->solve_ms);
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        json_int_or_null(b, c->name, has_size(r, c),
                         ilpm_size_value(&r->stats, c));
    ilpm_buf_puts(b, ",\"solution\":");
    if (r->json && has_solution(r))
        ilpm_buf_puts(b, r->json);
    else
        ilpm_buf_puts(b, "null");
    if (r->status == ILPM_ERROR || r->error[0]) {
        ilpm_buf_puts(b, ",\"error\":");
        ilpm_buf_json_str(b, r->error);
    }
    if (r->postsolve_error[0]) {
        ilpm_buf_puts(b, ",\"postsolve_error\":");
        ilpm_buf_json_str(b, r->postsolve_error);
    }
    if (r->count_note[0]) {
        ilpm_buf_puts(b, ",\"count_note\":");
        ilpm_buf_json_str(b, r->count_note);
    }
    if (r->reason[0]) {
        ilpm_buf_puts(b, ",\"reason\":");
        ilpm_buf_json_str(b, r->reason);
    }
    if (r->worker > 0)
        ilpm_buf_printf(b, ",\"worker\":%d", r->worker);
    if (r->stopped_by[0]) {
        ilpm_buf_puts(b, ",\"stopped_by\":");
        ilpm_buf_json_str(b, r->stopped_by);
    }
    ilpm_buf_puts(b, "}\n");
}

void ilpm_result_csv_header(ilpm_buf *out)
{
    ilpm_buf_puts(out, "puzzle,instance,file,index,formulation,backend,status,"
                       "verified,count,count_complete,objective,build_ms,"
                       "solve_ms");
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        ilpm_buf_printf(out, ",%s", c->name);
    ilpm_buf_puts(out, ",solution,error,postsolve_error,translate_ms,worker,"
                       "stopped_by\n");
}

static void csv_int(ilpm_buf *b, int have, int64_t v)
{
    if (have)
        ilpm_buf_printf(b, ",%" PRId64, v);
    else
        ilpm_buf_putc(b, ',');
}

void ilpm_result_csv(const ilpm_result *r, ilpm_buf *b)
{
    ilpm_buf_csv_str(b, r->puzzle);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->instance);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->file);
    csv_int(b, r->file[0] != 0, r->index);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->formulation);
    ilpm_buf_printf(b, ",%s,%s,%s", ilpm_backend_name(r->backend),
                    ilpm_status_name(r->status),
                    r->verified ? "true" : "false");
    csv_int(b, r->has_count, (int64_t)r->count);
    ilpm_buf_printf(b, ",%s",
                    !r->has_count       ? ""
                    : r->count_complete ? "true"
                                        : "false");
    char obj[32];
    ilpm_buf_printf(b, ",%s",
                    r->has_objective ? ilpm_result_objective(r, obj, sizeof obj)
                                     : "");
    ilpm_buf_printf(b, ",%.3f,%.3f", r->build_ms, r->solve_ms);
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        csv_int(b, has_size(r, c), ilpm_size_value(&r->stats, c));
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->json && has_solution(r) ? r->json : "");
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->error);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->postsolve_error);
    if (r->has_translate)
        ilpm_buf_printf(b, ",%.3f", r->translate_ms);
    else
        ilpm_buf_putc(b, ',');
    csv_int(b, r->worker > 0, r->worker);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->stopped_by);
    ilpm_buf_putc(b, '\n');
}

void ilpm_result_text(const ilpm_result *r, ilpm_buf *b)
{
    char obj[32];
    ilpm_buf_printf(b, "%s %s (%s%s%s): %s", r->puzzle, r->instance,
                    r->formulation, r->formulation[0] ? ", " : "",
                    ilpm_backend_name(r->backend), ilpm_status_name(r->status));
    if (has_solution(r) || (r->has_count && r->count > 0))
        ilpm_buf_puts(b, r->verified ? ", verified" : ", NOT verified");
    if (r->has_count && r->count_complete)
        ilpm_buf_printf(b, ", count %" PRIu64, r->count);
    else if (r->has_count)
        ilpm_buf_printf(b, ", count at least %" PRIu64 "%s", r->count,
                        r->status == ILPM_SOLVED    ? " (stopped at --limit)"
                        : r->status == ILPM_TIMEOUT ? " (time limit)"
                        : r->status == ILPM_STOPPED ? " (interrupted)"
                                                    : "");
    if (r->has_objective && r->objective_text[0])
        ilpm_buf_printf(b, ", %s", r->objective_text);
    else if (r->has_objective)
        ilpm_buf_printf(b, ", objective %s",
                        ilpm_result_objective(r, obj, sizeof obj));
    if (r->has_objective && r->status == ILPM_FEASIBLE)
        ilpm_buf_puts(b, " (not proven optimal)");
    if (r->has_translate)
        ilpm_buf_printf(b, "; translate %.1f ms,", r->translate_ms);
    else
        ilpm_buf_putc(b, ';');
    ilpm_buf_printf(b, " build %.1f ms, solve %.1f ms\n", r->build_ms,
                    r->solve_ms);
    if (r->status == ILPM_ERROR)
        ilpm_buf_printf(b, "error: %s\n", r->error);
    if (r->reason[0])
        ilpm_buf_printf(b, "%s\n", r->reason);
    if (r->count_note[0] && r->has_count)
        ilpm_buf_printf(b, "%s\n", r->count_note);
    if (r->text && has_solution(r) && !r->has_count)
        ilpm_buf_puts(b, r->text);
}

/* ------------------------------------------------------------------ */
/* The stats verb                                                       */

void ilpm_stats_text(const ilpm_model *m, const ilpm_stats *s, ilpm_buf *out)
{
    ilpm_buf_printf(out, "%-14s %9s | %9s %10s | %10s %11s %9s\n", "group",
                    "cons", "ILP rows", "nonzeros", "clauses", "literals",
                    "aux vars");
    for (int g = 0; g < s->ngroups; g++) {
        const ilpm_group_stats *x = &s->groups[g];
        ilpm_buf_printf(out,
                        "%-14s %9" PRId64 " | %9" PRId64 " %10" PRId64
                        " | %10" PRId64 " %11" PRId64 " %9" PRId64 "\n",
                        ilpm_model_group_name(m, g), x->cons, x->rows,
                        x->nonzeros, x->clauses, x->literals, x->aux_vars);
    }
    int64_t cons = 0;
    for (int g = 0; g < s->ngroups; g++)
        cons += s->groups[g].cons;
    ilpm_buf_printf(out,
                    "%-14s %9" PRId64 " | %9" PRId64 " %10" PRId64
                    " | %10" PRId64 " %11" PRId64 " %9" PRId64 "\n",
                    "total", cons, s->rows, s->nonzeros, s->clauses,
                    s->literals, s->aux_vars);
    ilpm_buf_printf(out,
                    "variables: %" PRId64 " (ILP columns); CNF variables: "
                    "%" PRId64 "\n",
                    s->vars, s->vars + s->aux_vars);
}

void ilpm_stats_json(const ilpm_model *m, const ilpm_stats *s,
                     const char *puzzle, const char *instance, ilpm_buf *out)
{
    ilpm_buf_puts(out, "{\"puzzle\":");
    ilpm_buf_json_str(out, puzzle);
    ilpm_buf_puts(out, ",\"instance\":");
    ilpm_buf_json_str(out, instance);
    ilpm_buf_printf(
        out,
        ",\"vars\":%" PRId64 ",\"aux_vars\":%" PRId64 ",\"rows\":%" PRId64
        ",\"nonzeros\":%" PRId64 ",\"clauses\":%" PRId64
        ",\"literals\":%" PRId64 ",\"groups\":{",
        s->vars, s->aux_vars, s->rows, s->nonzeros, s->clauses, s->literals);
    for (int g = 0; g < s->ngroups; g++) {
        const ilpm_group_stats *x = &s->groups[g];
        if (g)
            ilpm_buf_putc(out, ',');
        ilpm_buf_json_str(out, ilpm_model_group_name(m, g));
        ilpm_buf_printf(out,
                        ":{\"cons\":%" PRId64 ",\"rows\":%" PRId64
                        ",\"nonzeros\":%" PRId64 ",\"clauses\":%" PRId64
                        ",\"literals\":%" PRId64 ",\"aux_vars\":%" PRId64 "}",
                        x->cons, x->rows, x->nonzeros, x->clauses, x->literals,
                        x->aux_vars);
    }
    ilpm_buf_puts(out, "}}\n");
}

void ilpm_stats_csv_header(ilpm_buf *out)
{
    ilpm_buf_puts(out, "puzzle,instance,group,cons,rows,nonzeros,clauses,"
                       "literals,aux_vars,vars\n");
}

/* One row of ilpm_stats_csv: vars < 0 for none. */
static void stats_csv_row(ilpm_buf *out, const char *puzzle,
                          const char *instance, const char *group,
                          const ilpm_group_stats *x, int64_t vars)
{
    ilpm_buf_csv_str(out, puzzle);
    ilpm_buf_putc(out, ',');
    ilpm_buf_csv_str(out, instance);
    ilpm_buf_putc(out, ',');
    ilpm_buf_csv_str(out, group);
    ilpm_buf_printf(out,
                    ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
                    ",%" PRId64 ",",
                    x->cons, x->rows, x->nonzeros, x->clauses, x->literals,
                    x->aux_vars);
    if (vars >= 0)
        ilpm_buf_printf(out, "%" PRId64, vars);
    ilpm_buf_putc(out, '\n');
}

void ilpm_stats_csv(const ilpm_model *m, const ilpm_stats *s,
                    const char *puzzle, const char *instance, ilpm_buf *out)
{
    ilpm_group_stats total = {0,          s->rows,     s->nonzeros,
                              s->clauses, s->literals, s->aux_vars};
    for (int g = 0; g < s->ngroups; g++) {
        total.cons += s->groups[g].cons;
        stats_csv_row(out, puzzle, instance, ilpm_model_group_name(m, g),
                      &s->groups[g], -1);
    }
    stats_csv_row(out, puzzle, instance, "total", &total, s->vars);
}
