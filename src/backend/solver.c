/* The public solver handle: one lowered model behind the driver of its
 * back end (registry.c), plus what every back end shares: the deadline
 * and stop flag set on the driver's watch before each call, counting by
 * blocking the last solution (a clause on SAT, a no-good row on GLPK,
 * built here once as a model constraint) for a driver without its own
 * count, model statistics and export. */
#include "backend.h"
#include "ilpm_int.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ilpm_solver {
    const ilpm_model *m;
    ilpm_model *own; /* the propagated model the driver lowered, or NULL */
    const ilpm_model *low; /* what the driver lowered: own or m        */
    /* Propagation of assumptions (made when first needed), and its last
     * answer: the assumptions it was for and the literals they force. */
    ilpm_propagator *prop;
    int *last, nlast;
    int *forced, nforced;
    int last_rc;
    ilpm_options o;
    const ilpm_driver_ops *ops;
    ilpm_driver *d;
    ilpm_stats stats;
    uint8_t *vals;
    int have_vals;
    int64_t obj;
    double deadline;
    /* 1 when every non-aux variable sits in an all-positive exactly-one
     * constraint over non-aux variables (or an at-least-one and an
     * at-most-one over the same ones): then two solutions cannot have
     * nested sets of true variables, and a no-good over the true
     * variables alone blocks exactly one solution.  -1 until a count or
     * a block needs it (a solve does not pay for finding out). */
    int short_block;
    int *block;
    int64_t *block_coefs;
    int count_complete;         /* the last count ran out of solutions */
    ilpm_solution_fn incumbent; /* ilpm_solver_on_incumbent */
    void *incumbent_ctx;
    ilpm_bound_fn bound; /* ilpm_solver_on_bound */
    void *bound_ctx;
};

/* Literal sets of all-positive, non-aux constraints, sorted, for telling
 * an at-least-one and an at-most-one over the same variables (an
 * exactly-one stated in two parts, as seed formulations do). */
struct litset {
    const int *lits;
    int n;
    uint64_t hash;
};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_set(const void *a, const void *b)
{
    const struct litset *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    if (x->n != y->n)
        return x->n - y->n;
    return memcmp(x->lits, y->lits, (size_t)x->n * sizeof *x->lits);
}

static int plain_positive(const ilpm_model *m, const ilpm_con *c)
{
    for (int j = 0; j < c->n; j++)
        if (c->lits[j] <= 0 || ilpm_model_var_is_aux(m, c->lits[j]))
            return 0;
    return 1;
}

/* 0 (the long no-good, always right) when w cuts the look short. */
static int detect_short_block(const ilpm_model *m, ilpm_watch *w)
{
    int n = ilpm_model_nvars(m);
    size_t nc = ilpm_model_ncons(m);
    uint8_t *covered = calloc((size_t)n + 1, 1);
    struct litset *amo = calloc(nc + 1, sizeof *amo);
    int *store = NULL;
    size_t namo = 0, nstore = 0, cap = 0;
    int all = 0;
    if (!covered || !amo)
        goto out;
    for (size_t i = 0; i < nc; i++) {
        if (ilpm_watch_poll(w, "", NULL) != 0)
            goto out;
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (!plain_positive(m, &c))
            continue;
        if (c.kind == ILPM_EXO) {
            for (int j = 0; j < c.n; j++)
                covered[c.lits[j]] = 1;
        } else if (c.kind == ILPM_AMO) {
            if (ilpm_grow((void **)&store, &cap, nstore + (size_t)c.n,
                          sizeof *store) != 0)
                goto out;
            memcpy(store + nstore, c.lits, (size_t)c.n * sizeof *store);
            qsort(store + nstore, (size_t)c.n, sizeof *store, cmp_int);
            amo[namo].lits = (const int *)(uintptr_t)nstore; /* fixed below */
            amo[namo].n = c.n;
            nstore += (size_t)c.n;
            namo++;
        }
    }
    /* Offsets become pointers once the store stops moving. */
    for (size_t i = 0; i < namo; i++) {
        size_t off = (size_t)(uintptr_t)amo[i].lits;
        amo[i].lits = store + off;
        uint64_t h = 1469598103934665603ull;
        for (int j = 0; j < amo[i].n; j++)
            h = (h ^ (uint64_t)amo[i].lits[j]) * 1099511628211ull;
        amo[i].hash = h;
    }
    if (ilpm_watch_poll(w, "", NULL) != 0)
        goto out;
    qsort(amo, namo, sizeof *amo, cmp_set);
    int *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!tmp)
        goto out;
    for (size_t i = 0; i < nc && namo; i++) {
        if (ilpm_watch_poll(w, "", NULL) != 0) {
            free(tmp);
            goto out;
        }
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if ((c.kind != ILPM_ALO && c.kind != ILPM_CLAUSE) || c.n > n ||
            !plain_positive(m, &c))
            continue;
        memcpy(tmp, c.lits, (size_t)c.n * sizeof *tmp);
        qsort(tmp, (size_t)c.n, sizeof *tmp, cmp_int);
        struct litset key = {tmp, c.n, 1469598103934665603ull};
        for (int j = 0; j < c.n; j++)
            key.hash = (key.hash ^ (uint64_t)tmp[j]) * 1099511628211ull;
        if (bsearch(&key, amo, namo, sizeof *amo, cmp_set))
            for (int j = 0; j < c.n; j++)
                covered[c.lits[j]] = 1;
    }
    free(tmp);
    all = 1;
    for (int v = 1; v <= n && all; v++)
        all = covered[v] || ilpm_model_var_is_aux(m, v);
out:
    free(covered);
    free(amo);
    free(store);
    return all;
}

/* A driver's own count (cp's exhaustive search) branches on the answer's
 * variables first and is exact without blocking; where the auxiliary
 * variables outnumber the answer's, as in a FlatZinc model whose output
 * integers are defined by 0/1 indicators, that search meets the answer
 * bits long before the propagation that decides them (queens 8 from
 * MiniZinc: 92 solutions in 160 s).  There a search per solution, each
 * solution blocked, does better (0.1 s), when the driver takes new
 * constraints. */
static int count_by_blocking(const ilpm_solver *s)
{
    int nv = ilpm_model_nvars(s->m), naux = 0;
    for (int v = 1; v <= nv; v++)
        naux += ilpm_model_var_is_aux(s->m, v) != 0;
    return s->ops->add && 2 * naux > nv;
}

static int short_block(ilpm_solver *s)
{
    if (s->short_block < 0) {
        ilpm_watch w;
        ilpm_watch_until(&w, s->deadline, s->o.stop_flag);
        s->short_block = detect_short_block(s->m, &w);
    }
    return s->short_block;
}

/* The options with the solver's deadline, for a step of building it
 * (propagation, lowering): every step counts against the one deadline.
 * 0, or -1 with err once it has passed. */
static int time_left(const ilpm_solver *s, ilpm_options *o, const char *what,
                     ilpm_err *err)
{
    *o = s->o;
    o->deadline = s->deadline;
    ilpm_watch w; /* its first poll reads the clock */
    ilpm_watch_until(&w, s->deadline, s->o.stop_flag);
    return ilpm_watch_poll(&w, what, err);
}

/* The driver's watch over the run's deadline and stop flag, looked at
 * before the driver starts: 0, or ILPM_TIMEOUT or ILPM_STOPPED. */
static int arm(ilpm_solver *s)
{
    ilpm_watch_until(&s->d->watch, s->deadline, s->o.stop_flag);
    return ilpm_watch_check(&s->d->watch);
}

ilpm_solver *ilpm_solver_new(const ilpm_model *m, const ilpm_options *o,
                             ilpm_err *err)
{
    ilpm_solver *s = calloc(1, sizeof *s);
    int n = ilpm_model_nvars(m);
    if (!s || !(s->vals = calloc((size_t)n + 1, 1)) ||
        !(s->block = malloc(((size_t)n + 1) * sizeof *s->block)) ||
        !(s->block_coefs = malloc(((size_t)n + 1) * sizeof(int64_t)))) {
        ilpm_solver_free(s);
        ilpm_err_nomem(err, "out of memory creating the solver");
        return NULL;
    }
    s->m = m;
    if (o)
        s->o = *o;
    else
        ilpm_options_init(&s->o);
    if ((unsigned)s->o.backend >= ILPM_BACKEND_COUNT) {
        /* auto is the run layer's portfolio, not one solver. */
        ilpm_solver_free(s);
        ilpm_err_input(err, "--backend: a solver is one of the back ends "
                            "(auto runs several: ilpm solve)");
        return NULL;
    }
    s->ops = ilpm_backend_driver(s->o.backend);
    ilpm_solver_set_deadline(s, ilpm_options_deadline(&s->o));
    s->short_block = -1;
    ilpm_options left;
    const ilpm_model *low = NULL;
    if (time_left(s, &left, "propagating the model", err) == 0)
        low = s->ops->settles ? m : ilpm_model_lowered(m, &left, &s->own, err);
    if (!low) {
        ilpm_solver_free(s);
        return NULL;
    }
    s->low = low;
    if (time_left(s, &left, "lowering the model", err) == 0)
        s->d = s->ops->create(low, &left, &s->stats, err);
    if (!s->d) {
        ilpm_solver_free(s);
        return NULL;
    }
    return s;
}

void ilpm_solver_free(ilpm_solver *s)
{
    if (!s)
        return;
    if (s->d)
        s->ops->destroy(s->d);
    ilpm_model_free(s->own);
    ilpm_propagator_free(s->prop);
    free(s->last);
    free(s->forced);
    ilpm_stats_free(&s->stats);
    free(s->vals);
    free(s->block);
    free(s->block_coefs);
    free(s);
}

void ilpm_solver_set_deadline(ilpm_solver *s, double deadline)
{
    s->deadline = deadline > 0 ? deadline : 0;
    s->o.deadline = s->deadline;
}

/* What assume[0..n) force in the lowered model, as the model layer
 * propagates givens before lowering (a batch passes its givens as
 * assumptions to a model built once): into s->forced, the assumptions
 * included.  1 when they contradict the model, -1 on failure.  Counting
 * asks again under the same assumptions: the last answer is kept. */
static int forced_by(ilpm_solver *s, const int *assume, int n, ilpm_err *err)
{
    if (s->last && n == s->nlast &&
        memcmp(assume, s->last, (size_t)n * sizeof *assume) == 0)
        return s->last_rc;
    free(s->last);
    free(s->forced);
    s->forced = NULL;
    s->nforced = 0;
    s->nlast = 0;
    ilpm_watch w;
    ilpm_watch_until(&w, s->deadline, s->o.stop_flag); /* the run's own */
    if (!s->prop && !(s->prop = ilpm_propagator_new(s->low, &w, err)))
        return -1;
    if (!(s->last = malloc((size_t)n * sizeof *s->last)))
        return ilpm_err_nomem(err, "out of memory propagating assumptions");
    int rc = ilpm_propagator_run(
        s->prop, assume, n,
        ilpm_propagate_assumed_level(&s->o, s->ops->fix_assumed), &w,
        &s->forced, &s->nforced, err);
    if (rc < 0) {
        free(s->last);
        s->last = NULL;
        return -1;
    }
    memcpy(s->last, assume, (size_t)n * sizeof *assume);
    s->nlast = n;
    s->last_rc = rc;
    return rc;
}

static ilpm_status run(ilpm_solver *s, const int *assume, int n, int optimize,
                       ilpm_err *err)
{
    int nv = ilpm_model_nvars(s->m);
    for (int i = 0; i < n; i++)
        if (assume[i] == 0 || assume[i] < -nv || assume[i] > nv) {
            ilpm_err_input(err, "assumption %d is not a model literal",
                           assume[i]);
            return ILPM_ERROR;
        }
    int why = arm(s);
    if (why != 0)
        return (ilpm_status)why;
    if (n > 0 && ilpm_propagate_assumed_level(&s->o, s->ops->fix_assumed) > 0) {
        int rc = forced_by(s, assume, n, err);
        if (rc != 0) {
            s->have_vals = 0;
            return rc > 0 ? ILPM_UNSAT : ILPM_ERROR;
        }
        assume = s->forced;
        n = s->nforced;
    }
    s->d->incumbent = optimize ? s->incumbent : NULL;
    s->d->incumbent_ctx = s->incumbent_ctx;
    s->d->bound = optimize ? s->bound : NULL;
    s->d->bound_ctx = s->bound_ctx;
    ilpm_status st =
        s->ops->solve(s->d, assume, n, optimize, s->vals, &s->obj, err);
    s->d->incumbent = NULL;
    s->d->bound = NULL;
    if (st == ILPM_ERROR && err && !err->msg[0])
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "the optimisation's incumbent was refused");
    s->have_vals =
        st == ILPM_SOLVED || st == ILPM_OPTIMAL || st == ILPM_FEASIBLE;
    if (s->have_vals)
        s->obj = ilpm_model_objective_value(s->m, s->vals);
    return st;
}

ilpm_status ilpm_solver_solve(ilpm_solver *s, const int *assume, int n,
                              ilpm_err *err)
{
    return run(s, assume, n, 0, err);
}

ilpm_status ilpm_solver_optimize(ilpm_solver *s, const int *assume, int n,
                                 ilpm_err *err)
{
    if (ilpm_model_objective_get(s->m, NULL, NULL, NULL) == ILPM_NONE)
        return run(s, assume, n, 0, err);
    return run(s, assume, n, 1, err);
}

void ilpm_solver_on_incumbent(ilpm_solver *s, ilpm_solution_fn fn, void *ctx)
{
    s->incumbent = fn;
    s->incumbent_ctx = ctx;
}

void ilpm_solver_on_bound(ilpm_solver *s, ilpm_bound_fn fn, void *ctx)
{
    s->bound = fn;
    s->bound_ctx = ctx;
}

const uint8_t *ilpm_solver_values(const ilpm_solver *s)
{
    return s->have_vals ? s->vals : NULL;
}

int64_t ilpm_solver_objective(const ilpm_solver *s)
{
    return s->obj;
}

const ilpm_stats *ilpm_solver_stats(const ilpm_solver *s)
{
    return &s->stats;
}

int ilpm_solver_block(ilpm_solver *s, ilpm_err *err)
{
    if (!s->have_vals)
        return ilpm_err_fail(err, ILPM_E_FAIL, "no solution to block");
    int nv = ilpm_model_nvars(s->m), n = 0;
    for (int v = 1; v <= nv; v++) {
        if (ilpm_model_var_is_aux(s->m, v))
            continue;
        if (short_block(s)) {
            if (s->vals[v])
                s->block[n++] = -v;
        } else {
            s->block[n++] = s->vals[v] ? -v : v;
        }
    }
    if (n == 0) {
        /* Nothing tells solutions apart: blocking the one there is blocks
         * everything, which x_1 + (1 - x_1) <= 0 says. */
        s->block[0] = 1;
        s->block[1] = -1;
        s->block_coefs[0] = s->block_coefs[1] = 1;
        ilpm_con c = {ILPM_LINEAR, ILPM_LE,        -1, 0,   2,
                      s->block,    s->block_coefs, 0,  NULL};
        s->have_vals = 0;
        return s->ops->add(s->d, &c, err);
    }
    for (int i = 0; i < n; i++)
        s->block_coefs[i] = 1;
    ilpm_con c = {ILPM_CLAUSE, ILPM_GE,        -1, 0,   n,
                  s->block,    s->block_coefs, 1,  NULL};
    s->have_vals = 0;
    return s->ops->add(s->d, &c, err);
}

ilpm_status ilpm_solver_count(ilpm_solver *s, uint64_t limit, uint64_t *count,
                              ilpm_solution_fn fn, void *ctx, ilpm_err *err)
{
    *count = 0;
    s->count_complete = 0;
    if (s->ops->count && !count_by_blocking(s)) {
        int why = arm(s);
        if (why != 0)
            return (ilpm_status)why;
        s->have_vals = 0;
        int sb = short_block(s);
        return s->ops->count(s->d, s->m, sb, limit, s->vals, count,
                             &s->count_complete, fn, ctx, err);
    }
    for (;;) {
        ilpm_status st = run(s, NULL, 0, 0, err);
        if (st == ILPM_UNSAT) {
            s->count_complete = 1;
            return ILPM_SOLVED;
        }
        if (st != ILPM_SOLVED)
            return st;
        ++*count;
        if (fn) {
            int rc = fn(ctx, s->vals);
            if (rc != 0)
                return ILPM_ERROR;
        }
        if (limit && *count >= limit)
            return ILPM_SOLVED;
        if (ilpm_solver_block(s, err) != 0)
            return ILPM_ERROR;
    }
}

int ilpm_solver_count_complete(const ilpm_solver *s)
{
    return s->count_complete;
}

/* ------------------------------------------------------------------ */
/* Statistics and export without solving                                */

int ilpm_model_stats(const ilpm_model *m, const ilpm_options *o,
                     ilpm_stats *out, ilpm_err *err)
{
    memset(out, 0, sizeof *out);
    if (ilpm_glpk_stats(m, o, out, err) != 0)
        return -1;
    ilpm_cnf c;
    if (ilpm_cnf_from_model(&c, m, o, err) != 0) {
        ilpm_cnf_release(&c);
        ilpm_stats_free(out);
        return -1;
    }
    ilpm_cnf_stats(&c, out);
    ilpm_cnf_release(&c);
    return 0;
}

/* The text formats ilpm's own code writes to an open file: c is the
 * model's CNF for a writer that asks for one (writer.cnf). */
static int write_cnf(const ilpm_model *m, const ilpm_cnf *c,
                     const ilpm_options *o, FILE *f, ilpm_err *why)
{
    (void)o; /* c's watch holds the stop flag */
    return ilpm_cnf_write_dimacs(c, m, f, why);
}

static int write_opb(const ilpm_model *m, const ilpm_cnf *c,
                     const ilpm_options *o, FILE *f, ilpm_err *why)
{
    (void)c;
    return ilpm_opb_write_until(m, f, o ? o->stop_flag : NULL, why);
}

typedef struct writer {
    /* GLPK's (LP, MPS), which open the output themselves; or */
    int (*glpk)(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                const char *path, ilpm_err *err);
    /* a text writer to an open file, which sees the model's CNF when
     * cnf is set (encoded before the file is opened). */
    int (*text)(const ilpm_model *m, const ilpm_cnf *c, const ilpm_options *o,
                FILE *f, ilpm_err *why);
    int cnf;
} writer;

/* The writer of each ilpm_format (the table of model files' formats,
 * src/run/format.h, reaches them through ilpm_export). */
static const writer writers[ILPM_FMT_COUNT] = {
    [ILPM_FMT_LP] = {.glpk = ilpm_glpk_write},
    [ILPM_FMT_MPS] = {.glpk = ilpm_glpk_write},
    [ILPM_FMT_CNF] = {.text = write_cnf, .cnf = 1},
    [ILPM_FMT_OPB] = {.text = write_opb},
};

/* A text writer's file, replaced once whole; a stop (o's stop flag)
 * while it is written leaves it as it was. */
static int write_text(const writer *w, const ilpm_model *m, const ilpm_cnf *c,
                      const ilpm_options *o, const char *path, ilpm_err *err)
{
    ilpm_out *out = ilpm_out_open(path, ILPM_OUT_REPLACE, err);
    if (!out)
        return ilpm_err_io(err);
    ilpm_err why = {0};
    int rc = w->text(m, c, o, ilpm_out_file(out), &why);
    if (rc == 0 && o && o->stop_flag && *o->stop_flag)
        rc = ilpm_err_fail(&why, ILPM_E_INTERRUPTED, "stopped while writing");
    if (rc != 0) {
        ilpm_err_fail(
            err, why.rc == ILPM_E_INTERRUPTED ? ILPM_E_INTERRUPTED : ILPM_E_IO,
            "%s: %s", ilpm_out_path(out), why.msg);
        ilpm_out_abort(out);
        return -1;
    }
    return ilpm_out_commit(out, err) != 0 ? ilpm_err_io(err) : 0;
}

int ilpm_export(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                const char *path, ilpm_err *err)
{
    if ((unsigned)f >= ILPM_FMT_COUNT)
        return ilpm_err_input(err, "no format %d to export to", (int)f);
    const writer *w = &writers[f];
    if (w->glpk)
        return w->glpk(m, o, f, path, err);
    ilpm_cnf c;
    if (w->cnf && ilpm_cnf_from_model(&c, m, o, err) != 0) {
        ilpm_cnf_release(&c);
        return -1;
    }
    int rc = write_text(w, m, w->cnf ? &c : NULL, o, path, err);
    if (w->cnf)
        ilpm_cnf_release(&c);
    return rc;
}
