/* sat_core.c: OLL (Morgado, Dodaro and Marques-Silva; as RC2 runs it)
 * for the SAT driver's optimisation (sat_core.h).  The cost's literals
 * are soft: each is assumed false, and those of weight at least the
 * stratum's threshold are assumed together.  A core (the failed
 * assumptions of an UNSAT call) says one of its literals is true: the
 * lower bound rises by its least weight, which every literal of the core
 * loses (weights split), and a totalizer over the core's literals, its
 * outputs built one at a time as the cores reach them, makes "at least
 * two of them" the next soft literal of that weight.  A solution raises
 * nothing but may improve the upper bound (an incumbent), and lowers
 * the threshold to the next weight; the search ends when the bounds
 * meet, or the last stratum is satisfied (its solution then costs the
 * lower bound).  A first call with no soft literal assumed gives an
 * incumbent from the start. */
#include "sat_core.h"

#include "cnf_enc.h"
#include "ilpm_int.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A totalizer node: out[k] true when at least k + 1 of its nin inputs
 * are (implied upwards only), nout outputs built so far; a leaf is its
 * input. */
struct tnode {
    int left, right; /* children, -1 for a leaf */
    int nin, nout, cap;
    int *out;
};

/* A soft literal: assumed false, weight w while it is true; tot >= 0
 * when it is output b of that totalizer. */
struct soft {
    int lit;
    int64_t w;
    int tot, b;
};

/* A totalizer over a core: its root node and, per output, its soft
 * literal's index (-1: none yet). */
struct tot {
    int root;
    int *soft;
};

typedef struct core_state {
    ilpm_cnf *c;
    const ilpm_core_io *io;
    struct tnode *nodes;
    int nnodes, cap_nodes;
    struct tot *tots;
    int ntots, cap_tots;
    struct soft *softs;
    int nsofts, cap_softs;
    int *a, cap_a;              /* assumptions of a call */
    int *core, ncore, cap_core; /* soft indices of the last core */
    int64_t lb, ub;             /* cost bounds (ub valid when found) */
    int found;
} core_state;

static void state_free(core_state *s)
{
    for (int i = 0; i < s->nnodes; i++)
        free(s->nodes[i].out);
    for (int i = 0; i < s->ntots; i++)
        free(s->tots[i].soft);
    free(s->nodes);
    free(s->tots);
    free(s->softs);
    free(s->a);
    free(s->core);
}

static int add_soft(core_state *s, int lit, int64_t w, int tot, int b)
{
    if (ilpm_grow_int((void **)&s->softs, &s->cap_softs, s->nsofts + 1,
                      sizeof *s->softs))
        return E_NOMEM;
    s->softs[s->nsofts++] = (struct soft){lit, w, tot, b};
    return 0;
}

/* The tree of a totalizer over x[0..n): its node's index, or E_NOMEM. */
static int tree(core_state *s, const int *x, int n)
{
    int l = -1, r = -1;
    if (n > 1) {
        l = tree(s, x, n / 2);
        r = l < 0 ? l : tree(s, x + n / 2, n - n / 2);
        if (r < 0)
            return r;
    }
    if (ilpm_grow_int((void **)&s->nodes, &s->cap_nodes, s->nnodes + 1,
                      sizeof *s->nodes))
        return E_NOMEM;
    struct tnode *t = &s->nodes[s->nnodes];
    *t = (struct tnode){l, r, n, 0, 0, NULL};
    if (n == 1) {
        t->out = malloc(sizeof *t->out);
        if (!t->out)
            return E_NOMEM;
        t->out[0] = x[0];
        t->nout = t->cap = 1;
    }
    return s->nnodes++;
}

/* Builds node i's outputs up to k (at most its inputs), its children's
 * first: the clauses A_a & B_b -> out_{a+b} of the sums a + b that were
 * past the outputs built before. */
static int extend(core_state *s, int i, int k)
{
    struct tnode *t = &s->nodes[i];
    k = imin(k, t->nin);
    if (t->left < 0 || k <= t->nout)
        return 0;
    TRY(extend(s, t->left, k));
    TRY(extend(s, t->right, k));
    if (ilpm_grow_int((void **)&t->out, &t->cap, k, sizeof *t->out))
        return E_NOMEM;
    int old = t->nout;
    for (int r = old; r < k; r++)
        TRY(fresh(s->c, &t->out[r]));
    const struct tnode *A = &s->nodes[t->left], *B = &s->nodes[t->right];
    for (int a = 0; a <= A->nout; a++)
        for (int b = imax(0, old + 1 - a); b <= B->nout && a + b <= k; b++) {
            int l[3], n = 0;
            if (a + b == 0)
                continue;
            if (a)
                l[n++] = -A->out[a - 1];
            if (b)
                l[n++] = -B->out[b - 1];
            l[n++] = t->out[a + b - 1];
            TRY(clause(s->c, l, n));
        }
    t->nout = k;
    return 0;
}

struct ext {
    core_state *s;
    int node, k;
};

static int extend_enc(ilpm_cnf *c, void *arg)
{
    (void)c;
    struct ext *e = arg;
    return extend(e->s, e->node, e->k);
}

/* Node i's outputs up to k in the CNF and handed to the solver; 0, or
 * -1 with err (the watch, --max-memory). */
static int extend_fed(core_state *s, int i, int k, ilpm_err *err)
{
    struct ext e = {s, i, k};
    int group = s->c->cur_group, guards = s->c->nguards;
    s->c->cur_group = -1;
    s->c->nguards = 0; /* the totalizers hold whatever the bound */
    int rc =
        ilpm_cnf_encode_with(s->c, extend_enc, &e, "a core's totalizer", err);
    s->c->cur_group = group;
    s->c->nguards = guards;
    if (rc == 0 && s->io->feed(s->io->ctx, err) != 0)
        rc = -1;
    return rc;
}

/* Soft b of totalizer t gains w (made when it is new). */
static int tot_soft(core_state *s, int t, int b, int64_t w, ilpm_err *err)
{
    int root = s->tots[t].root;
    if (b >= s->nodes[root].nin)
        return 0; /* "more than all of them": never true */
    if (extend_fed(s, root, b + 1, err) != 0)
        return -1;
    int k = s->tots[t].soft[b];
    if (k >= 0) {
        s->softs[k].w += w;
        return 0;
    }
    s->tots[t].soft[b] = s->nsofts;
    if (add_soft(s, s->nodes[root].out[b], w, t, b) != 0)
        return ilpm_err_nomem(err, "out of memory for a core");
    return 0;
}

/* A totalizer over the literals of the last core (two or more), its
 * soft "at least two" of weight w. */
static int new_tot(core_state *s, int64_t w, ilpm_err *err)
{
    int *x = malloc((size_t)s->ncore * sizeof *x);
    int *soft = malloc((size_t)s->ncore * sizeof *soft);
    int root = -1;
    if (x && soft) {
        for (int i = 0; i < s->ncore; i++) {
            x[i] = s->softs[s->core[i]].lit;
            soft[i] = -1;
        }
        root = tree(s, x, s->ncore);
    }
    free(x);
    if (root < 0 || ilpm_grow_int((void **)&s->tots, &s->cap_tots, s->ntots + 1,
                                  sizeof *s->tots)) {
        free(soft);
        return ilpm_err_nomem(err, "out of memory for a core");
    }
    s->tots[s->ntots++] = (struct tot){root, soft};
    return tot_soft(s, s->ntots - 1, 1, w, err);
}

/* The last core relaxed: the lower bound up by its least weight, which
 * each of its literals loses; a totalizer's output passes the weight
 * on to the next output, and a new totalizer takes the core. */
static int relax(core_state *s, ilpm_err *err)
{
    int64_t w = INT64_MAX;
    for (int i = 0; i < s->ncore; i++)
        if (s->softs[s->core[i]].w < w)
            w = s->softs[s->core[i]].w;
    s->lb += w;
    for (int i = 0; i < s->ncore; i++) {
        struct soft *f = &s->softs[s->core[i]];
        f->w -= w;
        if (f->tot >= 0 && tot_soft(s, f->tot, f->b + 1, w, err) != 0)
            return -1;
    }
    return s->ncore > 1 ? new_tot(s, w, err) : 0;
}

/* The assumptions of a call: the soft literals of weight thr or more,
 * each false; their count, or -1. */
static int assumptions(core_state *s, int64_t thr)
{
    if (ilpm_grow_int((void **)&s->a, &s->cap_a, s->nsofts + 1, sizeof *s->a))
        return -1;
    int n = 0;
    for (int i = 0; i < s->nsofts; i++)
        if (s->softs[i].w > 0 && s->softs[i].w >= thr)
            s->a[n++] = -s->softs[i].lit;
    return n;
}

/* The soft literals of the failed assumptions into s->core; -1 when out
 * of memory. */
static int read_core(core_state *s, int64_t thr)
{
    if (ilpm_grow_int((void **)&s->core, &s->cap_core, s->nsofts + 1,
                      sizeof *s->core))
        return -1;
    s->ncore = 0;
    for (int i = 0; i < s->nsofts; i++)
        if (s->softs[i].w > 0 && s->softs[i].w >= thr &&
            s->io->failed(s->io->ctx, -s->softs[i].lit))
            s->core[s->ncore++] = i;
    return 0;
}

/* Trimming: the core's literals alone assumed again, while the core
 * shrinks (at most TRIM_ROUNDS calls, which are quick on a core);
 * ILPM_UNSAT, or why a call ended. */
#define TRIM_ROUNDS 3

static ilpm_status trim(core_state *s)
{
    for (int round = 0; round < TRIM_ROUNDS && s->ncore > 1; round++) {
        int n = 0;
        for (int i = 0; i < s->ncore; i++)
            s->a[n++] = -s->softs[s->core[i]].lit;
        ilpm_status st = s->io->solve(s->io->ctx, s->a, n);
        if (st != ILPM_UNSAT)
            return st; /* a core is unsatisfiable whatever else holds */
        int before = s->ncore;
        s->ncore = 0;
        for (int i = 0; i < before; i++) {
            int k = s->core[i];
            if (s->io->failed(s->io->ctx, -s->softs[k].lit))
                s->core[s->ncore++] = k;
        }
        if (s->ncore == 0 || s->ncore == before)
            break;
    }
    return ILPM_UNSAT;
}

/* The next threshold below thr (0: none left): the largest weight of a
 * soft literal at most half of thr, or when none is, the smallest weight
 * below thr, so that at most about 2 log2(thr) strata come (one per
 * weight made p0201's calls many thousands). */
static int64_t next_stratum(const core_state *s, int64_t thr)
{
    int64_t half = 0, least = 0;
    for (int i = 0; i < s->nsofts; i++) {
        int64_t w = s->softs[i].w;
        if (w > 0 && w <= thr / 2 && w > half)
            half = w;
        if (w > 0 && w < thr && (!least || w < least))
            least = w;
    }
    return half ? half : least;
}

/* A solution of the last call: the upper bound when it improves; 0, or
 * -1 with err.  No bound "cost <= ub - 1" joins the assumptions: on
 * lseu and p0201 the calls under it took the time the cores needed
 * (docs/benchmarks.md, "Core-guided optimisation on sat"). */
static int on_solution(core_state *s, const ilpm_cnf_obj *o, ilpm_err *err)
{
    int64_t v = 0;
    for (int i = 0; i < o->n; i++)
        if (s->io->value(s->io->ctx, o->lits[i]))
            v += o->w[i];
    if (s->found && v >= s->ub)
        return 0;
    s->found = 1;
    s->ub = v;
    return s->io->improved(s->io->ctx, err);
}

/* The search of ilpm_sat_core on s; its outcome. */
static ilpm_status search(core_state *s, const ilpm_cnf_obj *o, ilpm_err *err)
{
    int64_t thr = next_stratum(s, INT64_MAX);
    /* A first solution, with no soft literal assumed: an upper bound
     * (and an incumbent) from the start. */
    ilpm_status st0 = s->io->solve(s->io->ctx, NULL, 0);
    if (st0 != ILPM_SOLVED)
        return st0;
    if (on_solution(s, o, err) != 0)
        return ILPM_ERROR;
    for (;;) {
        if (s->found && s->lb >= s->ub)
            return ILPM_OPTIMAL;
        /* Between calls too: a stratum of quick answers may not stop. */
        if (ilpm_watch_poll(&s->c->watch, "the core-guided search", err))
            return (ilpm_status)s->c->watch.status;
        int n = assumptions(s, thr);
        if (n < 0) {
            ilpm_err_nomem(err, "out of memory for the assumptions");
            return ILPM_ERROR;
        }
        ilpm_status st = s->io->solve(s->io->ctx, s->a, n);
        if (st == ILPM_SOLVED) {
            if (on_solution(s, o, err) != 0)
                return ILPM_ERROR;
            int64_t next = next_stratum(s, thr);
            if (next == 0 && s->lb < s->ub) {
                /* Every soft literal held: the solution costs lb. */
                ilpm_err_fail(err, ILPM_E_FAIL,
                              "the core-guided search lost its lower bound "
                              "(%lld above %lld)",
                              (long long)s->ub, (long long)s->lb);
                return ILPM_ERROR;
            }
            thr = next;
            continue;
        }
        if (st != ILPM_UNSAT)
            return st;
        if (read_core(s, thr) != 0) {
            ilpm_err_nomem(err, "out of memory for a core");
            return ILPM_ERROR;
        }
        if (s->ncore == 0) /* the caller's assumptions alone conflict */
            return ILPM_UNSAT;
        st = trim(s);
        if (st != ILPM_UNSAT)
            return st;
        if (relax(s, err) != 0)
            return ILPM_ERROR;
    }
}

ilpm_status ilpm_sat_core(ilpm_cnf *c, const ilpm_cnf_obj *o,
                          const ilpm_core_io *io, ilpm_err *err)
{
    core_state s = {.c = c, .io = io};
    ilpm_status st = ILPM_ERROR;
    for (int i = 0; i < o->n; i++)
        if (add_soft(&s, o->lits[i], o->w[i], -1, 0) != 0) {
            ilpm_err_nomem(err, "out of memory for the soft literals");
            goto done;
        }
    st = search(&s, o, err);
    if (st == ILPM_ERROR && err && err->rc)
        st = (ilpm_status)ilpm_rc_outcome(err->rc); /* a limit */
done:
    state_free(&s);
    if (st == ILPM_OPTIMAL || st == ILPM_UNSAT)
        return st;
    return s.found && st != ILPM_ERROR ? ILPM_FEASIBLE : st;
}
