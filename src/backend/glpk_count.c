/* Counting on GLPK in one branch-and-cut search.  At every node whose LP
 * solution is integral the callback records the point, projected onto
 * the model's non-aux variables, and cuts it off with a no-good row
 * added as a lazy constraint (GLP_IROWGEN), so that GLPK never sees an
 * integer solution and the search goes on over the whole tree.
 *
 * GLPK keeps a lazy row only in the subtree of the node that added it:
 * a sibling subtree may reach a point with the same projection again
 * (through other aux values), so the points met are kept in a hash set
 * and each is reported once; its no-good is added again all the same. */
#include "glpk_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The projected points met: each a row of `words` 64-bit words in
 * store, found through an open-addressing table of indices + 1. */
struct pointset {
    int words;
    uint64_t *store;
    size_t n, cap;
    size_t *slot;
    size_t nslot; /* a power of two, at least twice n */
};

static uint64_t point_hash(const uint64_t *p, int words)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < words; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static int set_grow(struct pointset *s)
{
    size_t nslot = s->nslot ? s->nslot * 2 : 1024;
    size_t *slot = calloc(nslot, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t h = (size_t)point_hash(s->store + i * s->words, s->words);
        size_t k = h & (nslot - 1);
        while (slot[k])
            k = (k + 1) & (nslot - 1);
        slot[k] = i + 1;
    }
    free(s->slot);
    s->slot = slot;
    s->nslot = nslot;
    return 0;
}

/* 1 when p is new (and now stored), 0 when met before, -1 out of
 * memory. */
static int set_add(struct pointset *s, const uint64_t *p)
{
    if (2 * (s->n + 1) > s->nslot && set_grow(s) != 0)
        return -1;
    size_t k = (size_t)point_hash(p, s->words) & (s->nslot - 1);
    size_t bytes = (size_t)s->words * sizeof *p;
    for (; s->slot[k]; k = (k + 1) & (s->nslot - 1))
        if (memcmp(s->store + (s->slot[k] - 1) * s->words, p, bytes) == 0)
            return 0;
    if (ilpm_grow((void **)&s->store, &s->cap, s->n + 1, bytes) != 0)
        return -1;
    memcpy(s->store + s->n * s->words, p, bytes);
    s->slot[k] = ++s->n;
    return 1;
}

struct count_ctx {
    ilpm_glpk *d;
    const uint8_t *aux; /* aux[v]: projected away */
    int nproj;          /* non-aux variables */
    int short_block;
    uint64_t limit;
    double tol_int; /* GLPK's own integrality tolerance */
    int dive;       /* branch by ilpm_glpk_dive */
    uint8_t *vals;
    uint64_t *count;
    ilpm_solution_fn fn;
    void *fn_ctx;
    struct pointset seen;
    uint64_t *point;
    int *ind;
    double *val;
    /* Why the search ended early, if it did (else d's watch says). */
    int limit_hit, done, fn_failed, oom, escaped;
};

/* The no-good of the point in vals: at least one variable differs. */
static void add_nogood(glp_prob *P, struct count_ctx *c)
{
    int len = 0, ntrue = 0;
    for (int v = 1; v <= c->d->nvars; v++) {
        if (c->aux[v])
            continue;
        if (c->vals[v]) {
            ntrue++;
            c->ind[++len] = v;
            c->val[len] = 1.0;
        } else if (!c->short_block) {
            c->ind[++len] = v;
            c->val[len] = -1.0;
        }
    }
    int i = glp_add_rows(P, 1);
    glp_set_mat_row(P, i, len, c->ind, c->val);
    /* sum(true) - sum(false) <= ntrue - 1; the false ones are absent
     * when the exactly-one rows make a short no-good suffice. */
    glp_set_row_bnds(P, i, GLP_UP, 0.0, (double)(ntrue - 1));
}

static void on_integral(glp_tree *T, struct count_ctx *c)
{
    glp_prob *P = glp_ios_get_prob(T);
    int n = c->d->nvars;
    for (int v = 1; v <= n; v++) {
        double x = glp_get_col_prim(P, v);
        if (fabs(x - floor(x + 0.5)) > c->tol_int)
            return; /* fractional: GLPK branches on */
    }
    memset(c->point, 0, (size_t)c->seen.words * sizeof *c->point);
    for (int v = 1, k = 0; v <= n; v++) {
        c->vals[v] = glp_get_col_prim(P, v) > 0.5;
        if (c->aux[v])
            continue;
        if (c->vals[v])
            c->point[k / 64] |= (uint64_t)1 << (k % 64);
        k++;
    }
    int fresh = set_add(&c->seen, c->point);
    if (fresh < 0) {
        c->oom = 1;
        glp_ios_terminate(T);
        return;
    }
    if (fresh) {
        ++*c->count;
        if (c->fn && c->fn(c->fn_ctx, c->vals) != 0) {
            c->fn_failed = 1;
            glp_ios_terminate(T);
            return;
        }
        if (c->nproj == 0) {
            /* Nothing tells solutions apart: this one is all there is. */
            c->done = 1;
            glp_ios_terminate(T);
            return;
        }
        if (c->limit && *c->count >= c->limit) {
            c->limit_hit = 1;
            glp_ios_terminate(T);
            return;
        }
    }
    add_nogood(P, c);
}

static void on_count_tree(glp_tree *T, void *info)
{
    struct count_ctx *c = info;
    if (ilpm_glpk_watch(c->d, T))
        return;
    switch (glp_ios_reason(T)) {
    case GLP_IROWGEN:
        on_integral(T, c);
        break;
    case GLP_IBRANCH:
        if (c->dive)
            ilpm_glpk_dive(T);
        break;
    case GLP_IBINGO:
        /* An integer point GLPK accepted: as an incumbent it would prune
         * the rest of the tree, so the count could not be trusted. */
        c->escaped = 1;
        glp_ios_terminate(T);
        break;
    default:
        break;
    }
}

struct count_run {
    struct count_ctx *c;
    ilpm_status st;
    int *complete;
};

static int count_body(void *ctx, ilpm_err *err)
{
    struct count_run *r = ctx;
    struct count_ctx *c = r->c;
    ilpm_glpk *d = c->d;
    int msg_lev = ilpm_reports(&d->base.o) ? GLP_MSG_ON : GLP_MSG_OFF;
    ilpm_glpk_objective(d, 0);
    /* No presolve: the callback reads and extends the problem by the
     * model's own column numbers, which presolve would renumber. */
    r->st = ilpm_glpk_relaxation(d, msg_lev, err);
    if (r->st != ILPM_SOLVED) {
        ilpm_glpk_objective(d, 1);
        if (r->st == ILPM_UNSAT) { /* not even a fractional point */
            *r->complete = 1;
            r->st = ILPM_SOLVED;
        }
        return 0;
    }
    glp_iocp p;
    c->dive = ilpm_glpk_iocp(d, 1, &p);
    p.presolve = GLP_OFF;
    /* A heuristic's solution would become GLPK's incumbent, and with a
     * constant objective every other node would then look hopeless. */
    p.sr_heur = GLP_OFF;
    p.fp_heur = GLP_OFF;
    p.ps_heur = GLP_OFF;
    p.cb_func = on_count_tree;
    p.cb_info = c;
    c->tol_int = p.tol_int;
    /* glp_intopt drops the lazy rows when its tree goes. */
    int rc = ilpm_glpk_intopt(d, &p, NULL);
    ilpm_glpk_objective(d, 1);
    if (rc < 0) {
        r->st = ILPM_TIMEOUT;
        return 0;
    }
    if (c->oom) {
        ilpm_err_nomem(err, "out of memory recording solutions");
        r->st = ILPM_ERROR;
    } else if (c->escaped) {
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "GLPK: an integer solution escaped the count's "
                      "no-good rows");
        r->st = ILPM_ERROR;
    } else if (c->fn_failed) {
        r->st = ILPM_ERROR;
    } else if (c->done || c->limit_hit) {
        *r->complete = c->done;
        r->st = ILPM_SOLVED;
    } else if (d->base.watch.status == ILPM_STOPPED) {
        r->st = ILPM_STOPPED;
    } else if (d->base.watch.status == ILPM_TIMEOUT || rc == GLP_ETMLIM) {
        r->st = ILPM_TIMEOUT;
    } else if (rc == 0) {
        *r->complete = 1;
        r->st = ILPM_SOLVED;
    } else {
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "GLPK: glp_intopt returned code %d (%s) while "
                      "counting",
                      rc, ilpm_glpk_code_name(rc));
        r->st = ILPM_ERROR;
    }
    return 0;
}

ilpm_status ilpm_glpk_count(ilpm_driver *base, const ilpm_model *m,
                            int short_block, uint64_t limit, uint8_t *vals,
                            uint64_t *count, int *complete, ilpm_solution_fn fn,
                            void *ctx, ilpm_err *err)
{
    ilpm_glpk *d = (ilpm_glpk *)base;
    *count = 0;
    *complete = 0;
    if (ilpm_glpk_alive(d, err) != 0)
        return ILPM_ERROR;
    if (d->infeasible) {
        *complete = 1;
        return ILPM_SOLVED;
    }
    int n = d->nvars;
    if (n == 0) { /* no columns: the one empty solution */
        *count = 1;
        if (fn && fn(ctx, vals) != 0)
            return ILPM_ERROR;
        *complete = 1;
        return ILPM_SOLVED;
    }
    struct count_ctx c = {.d = d,
                          .short_block = short_block,
                          .limit = limit,
                          .vals = vals,
                          .count = count,
                          .fn = fn,
                          .fn_ctx = ctx};
    uint8_t *aux = calloc((size_t)n + 1, 1);
    for (int v = 1; aux && v <= n; v++)
        if (!(aux[v] = (uint8_t)ilpm_model_var_is_aux(m, v)))
            c.nproj++;
    c.aux = aux;
    c.seen.words = c.nproj / 64 + 1;
    c.point = malloc((size_t)c.seen.words * sizeof *c.point);
    c.ind = malloc(((size_t)n + 1) * sizeof *c.ind);
    c.val = malloc(((size_t)n + 1) * sizeof *c.val);
    ilpm_status st = ILPM_ERROR;
    if (!aux || !c.point || !c.ind || !c.val) {
        ilpm_err_nomem(err, "out of memory preparing the count");
        goto out;
    }
    struct count_run r = {&c, ILPM_ERROR, complete};
    ilpm_glpk_guard g;
    if (ilpm_glpk_run(&g, &d->base.o, count_body, &r, "counting", err) != 0) {
        d->P = NULL;
        goto out;
    }
    st = r.st;
out:
    free(aux);
    free(c.point);
    free(c.ind);
    free(c.val);
    free(c.seen.store);
    free(c.seen.slot);
    return st;
}
