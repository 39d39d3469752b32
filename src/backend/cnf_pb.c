/* cnf_pb.c: linear constraints with coefficients: normalised onto
 * positive weights, then a reduced BDD (Abio et al., 2012) built with an
 * interval memo in treaps; constraints that turn out to be cardinality
 * ones go to cnf_card.c. */
#include "cnf_enc.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>

/* Linear constraints are normalised in int64: keeping each input bounded
 * by 2^60 leaves room for every sum and difference below. */
#define PB_LIMIT ((int64_t)1 << 60)

struct term {
    int lit;
    int64_t w;
};

static int by_var(const void *pa, const void *pb)
{
    const struct term *a = pa, *b = pb;
    return (a->lit > b->lit) - (a->lit < b->lit);
}

/* Heaviest first: the BDD of Abio et al. stays smallest that way.  Ties
 * by literal keep the output identical on every platform. */
static int by_weight(const void *pa, const void *pb)
{
    const struct term *a = pa, *b = pb;
    if (a->w != b->w)
        return a->w > b->w ? -1 : 1;
    return (a->lit > b->lit) - (a->lit < b->lit);
}

#define BDD_FALSE 0
#define BDD_TRUE 1

struct bnode {
    int level, lo, hi; /* lo: x = 0, hi: x = 1 */
};

/* A memo entry: the constraint of one level for every bound in
 * [beta, gamma] is the same function, node id.  The entries of a level
 * are disjoint intervals kept in a treap. */
struct mentry {
    int64_t beta, gamma;
    int id;
    int left, right;
    uint32_t prio;
};

struct bdd {
    struct bnode *nodes;
    int nnodes, capn;
    struct mentry *e;
    int ne, cape;
    int *root; /* treap root per level, -1 when empty */
    uint32_t rng;
    int64_t budget; /* memo entries still allowed */
    ilpm_watch *watch;
};

static int memo_find(const struct bdd *b, int level, int64_t K)
{
    int t = b->root[level];
    while (t >= 0) {
        const struct mentry *e = &b->e[t];
        if (K < e->beta)
            t = e->left;
        else if (K > e->gamma)
            t = e->right;
        else
            return t;
    }
    return -1;
}

static int rot_right(struct mentry *e, int t)
{
    int l = e[t].left;
    e[t].left = e[l].right;
    e[l].right = t;
    return l;
}

static int rot_left(struct mentry *e, int t)
{
    int r = e[t].right;
    e[t].right = e[r].left;
    e[r].left = t;
    return r;
}

static int treap_insert(struct mentry *e, int t, int x)
{
    if (t < 0)
        return x;
    if (e[x].beta < e[t].beta) {
        e[t].left = treap_insert(e, e[t].left, x);
        if (e[e[t].left].prio > e[t].prio)
            t = rot_right(e, t);
    } else {
        e[t].right = treap_insert(e, e[t].right, x);
        if (e[e[t].right].prio > e[t].prio)
            t = rot_left(e, t);
    }
    return t;
}

static int grow_array(void **p, int *cap, int need, size_t elem)
{
    return ilpm_grow_int(p, cap, need, elem) != 0 ? E_NOMEM : 0;
}

static int memo_insert(struct bdd *b, int level, int64_t beta, int64_t gamma,
                       int id)
{
    if (b->budget <= 0)
        return E_PBSIZE;
    if (ilpm_watch_poll(b->watch, "", NULL) != 0)
        return E_WATCH;
    b->budget--;
    TRY(grow_array((void **)&b->e, &b->cape, b->ne + 1, sizeof *b->e));
    /* xorshift32: any fixed sequence balances the treap. */
    b->rng ^= b->rng << 13;
    b->rng ^= b->rng >> 17;
    b->rng ^= b->rng << 5;
    int x = b->ne++;
    b->e[x] = (struct mentry){beta, gamma, id, -1, -1, b->rng};
    b->root[level] = treap_insert(b->e, b->root[level], x);
    return 0;
}

struct frame {
    int i, phase;
    int64_t K;
    int64_t b0, g0;
    int id0;
};

#define NEG_INF INT64_MIN
#define POS_INF INT64_MAX

/* Builds the reduced BDD of t[0].w y_0 + ... + t[n-1].w y_{n-1} <= K
 * (weights positive, heaviest first) by the interval algorithm of Abio,
 * Nieuwenhuis, Oliveras and Rodriguez-Carbonell (2012): the call for
 * (i, K) returns the largest interval of bounds with the same function,
 * so later calls anywhere in it are answered from the memo.  The
 * recursion is an explicit stack because n may be in the thousands. */
static int bdd_build(struct bdd *b, const struct term *t, int n, int64_t K,
                     const int64_t *S, int *root)
{
    struct frame *st = malloc((size_t)(n + 1) * sizeof *st);
    if (!st)
        return E_NOMEM;
    int top = 0, status = 0;
    int64_t rb = 0, rg = 0; /* result of the call that returned last */
    int rid = BDD_FALSE;
    st[0] = (struct frame){0, 0, K, 0, 0, 0};
    while (top >= 0 && !status) {
        struct frame *f = &st[top];
        if (f->phase == 0) {
            int i = f->i;
            int64_t k = f->K;
            int hit;
            if (k < 0) {
                rb = NEG_INF, rg = -1, rid = BDD_FALSE;
                top--;
            } else if (S[i] <= k) {
                rb = S[i], rg = POS_INF, rid = BDD_TRUE;
                top--;
            } else if ((hit = memo_find(b, i, k)) >= 0) {
                rb = b->e[hit].beta, rg = b->e[hit].gamma;
                rid = b->e[hit].id;
                top--;
            } else {
                /* i < n here: level n is always terminal (S[n] = 0). */
                f->phase = 1;
                st[top + 1] = (struct frame){i + 1, 0, k, 0, 0, 0};
                top++;
            }
        } else if (f->phase == 1) {
            f->b0 = rb, f->g0 = rg, f->id0 = rid;
            f->phase = 2;
            st[top + 1] =
                (struct frame){f->i + 1, 0, f->K - t[f->i].w, 0, 0, 0};
            top++;
        } else {
            int64_t w = t[f->i].w;
            int64_t b1 = rb == NEG_INF ? NEG_INF : rb + w;
            int64_t g1 = rg == POS_INF ? POS_INF : rg + w;
            int64_t beta = f->b0 > b1 ? f->b0 : b1;
            int64_t gamma = f->g0 < g1 ? f->g0 : g1;
            int id = rid;
            if (f->id0 != rid) {
                status = grow_array((void **)&b->nodes, &b->capn, b->nnodes + 1,
                                    sizeof *b->nodes);
                if (status)
                    break;
                id = b->nnodes++;
                b->nodes[id] = (struct bnode){f->i, f->id0, rid};
            }
            status = memo_insert(b, f->i, beta, gamma, id);
            rb = beta, rg = gamma, rid = id;
            top--;
        }
    }
    free(st);
    *root = rid;
    return status;
}

/* Clauses of Abio et al.: node v over y with children lo, hi gets
 * v -> lo and v & y -> hi.  For a monotone (<=) constraint that is enough
 * both ways, and unit propagation keeps arc consistency.  The root is
 * asserted, so its own variable is left out of its clauses. */
static int bdd_emit(ilpm_cnf *c, const struct bdd *b, const struct term *t,
                    int root)
{
    if (root == BDD_FALSE)
        return empty(c);
    if (root == BDD_TRUE)
        return 0;
    int *var = calloc((size_t)b->nnodes, sizeof *var);
    if (!var)
        return E_NOMEM;
    int st = 0;
    for (int id = 2; id < b->nnodes && !st; id++)
        if (id != root)
            st = fresh(c, &var[id]);
    for (int id = 2; id < b->nnodes && !st; id++) {
        const struct bnode *nd = &b->nodes[id];
        int l[3], k = 0;
        if (var[id])
            l[k++] = -var[id];
        if (nd->lo != BDD_TRUE) {
            int k0 = k;
            if (nd->lo != BDD_FALSE)
                l[k0++] = var[nd->lo];
            st = clause(c, l, k0);
        }
        if (!st && nd->hi != BDD_TRUE) {
            int k1 = k;
            l[k1++] = -t[nd->level].lit;
            if (nd->hi != BDD_FALSE)
                l[k1++] = var[nd->hi];
            st = clause(c, l, k1);
        }
    }
    free(var);
    return st;
}

/* Encodes sum t[i].w * t[i].lit <= r over distinct variables with
 * positive weights, heaviest first.  t is modified. */
static int pb_le(ilpm_cnf *c, struct term *t, int n, int64_t r, int64_t *budget)
{
    if (r < 0)
        return empty(c);
    /* A term heavier than the bound must be false; the rest stays. */
    int m = 0;
    int64_t W = 0;
    for (int i = 0; i < n; i++) {
        if (t[i].w > r) {
            TRY(unit(c, -t[i].lit));
        } else {
            t[m++] = t[i];
            W += t[i].w;
        }
    }
    if (W <= r)
        return 0;
    int64_t g = 0;
    for (int i = 0; i < m; i++)
        g = ilpm_gcd64(t[i].w, g);
    for (int i = 0; i < m; i++)
        t[i].w /= g;
    r /= g; /* r >= 0: floor is the right rounding for <= */
    if (t[0].w == t[m - 1].w) {
        /* All weights 1 now: a cardinality constraint. */
        int *x = malloc((size_t)m * sizeof *x);
        if (!x)
            return E_NOMEM;
        for (int i = 0; i < m; i++)
            x[i] = t[i].lit;
        int st = ilpm_enc_card(c, x, m, ILPM_LE, r);
        free(x);
        return st;
    }
    int64_t *S = malloc((size_t)(m + 1) * sizeof *S);
    int *roots = malloc((size_t)m * sizeof *roots);
    struct bdd b = {0};
    b.watch = &c->watch;
    int st = S && roots ? 0 : E_NOMEM;
    if (!st) {
        S[m] = 0;
        for (int i = m - 1; i >= 0; i--)
            S[i] = S[i + 1] + t[i].w;
        for (int i = 0; i < m; i++)
            roots[i] = -1;
        b.root = roots;
        b.rng = 2463534242u;
        b.budget = *budget;
        /* Ids 0 and 1 are the terminals. */
        st = grow_array((void **)&b.nodes, &b.capn, 2, sizeof *b.nodes);
    }
    int root = BDD_FALSE;
    if (!st) {
        b.nnodes = 2;
        st = bdd_build(&b, t, m, r, S, &root);
        *budget = b.budget;
    }
    if (!st)
        st = bdd_emit(c, &b, t, root);
    free(b.nodes);
    free(b.e);
    free(roots);
    free(S);
    return st;
}

/* Coefficients, their sum and the bound within PB_LIMIT: 0, or
 * E_BIGCOEF. */
static int pb_in_range(const ilpm_con *con)
{
    int64_t abs_sum = 0;
    for (int i = 0; i < con->n; i++) {
        int64_t a = con->coefs[i];
        if (a < -PB_LIMIT || a > PB_LIMIT)
            return E_BIGCOEF;
        abs_sum += a < 0 ? -a : a;
        if (abs_sum > PB_LIMIT)
            return E_BIGCOEF;
    }
    if (con->rhs < -PB_LIMIT || con->rhs > PB_LIMIT)
        return E_BIGCOEF;
    return 0;
}

/* The constraint's terms into t as positive weights on distinct
 * literals, heaviest first, with *r the bound moved accordingly; their
 * count. */
static int pb_terms(const ilpm_con *con, struct term *t, int64_t *r)
{
    int n = con->n;
    /* a * (-x) = a - a * x: move everything onto positive variables,
     * then merge repeats of a variable. */
    *r = con->rhs;
    for (int i = 0; i < n; i++) {
        int l = con->lits[i];
        int64_t a = con->coefs[i];
        if (l > 0) {
            t[i] = (struct term){l, a};
        } else {
            t[i] = (struct term){-l, -a};
            *r -= a;
        }
    }
    qsort(t, (size_t)n, sizeof *t, by_var);
    int m = 0;
    for (int i = 0; i < n;) {
        int v = t[i].lit;
        int64_t a = 0;
        for (; i < n && t[i].lit == v; i++)
            a += t[i].w;
        /* A negative weight goes onto the negated literal:
         * a * x = a + (-a) * (-x). */
        if (a > 0) {
            t[m++] = (struct term){v, a};
        } else if (a < 0) {
            t[m++] = (struct term){-v, -a};
            *r -= a;
        }
    }
    qsort(t, (size_t)m, sizeof *t, by_weight);
    return m;
}

/* sum t[i].w * t[i].lit = r, of total weight W: as a cardinality
 * constraint when the weights are equal, else as <= r and >= r. */
static int pb_eq(ilpm_cnf *c, struct term *t, int m, int64_t r, int64_t W,
                 int64_t *budget)
{
    int64_t g = 0;
    for (int i = 0; i < m; i++)
        g = ilpm_gcd64(t[i].w, g);
    if (r < 0 || r > W || (g > 0 && r % g != 0))
        return empty(c);
    if (m == 0)
        return 0;
    if (t[0].w == t[m - 1].w) {
        int *x = malloc((size_t)m * sizeof *x);
        if (!x)
            return E_NOMEM;
        for (int i = 0; i < m; i++)
            x[i] = t[i].lit;
        int st = ilpm_enc_card(c, x, m, ILPM_EQ, r / g);
        free(x);
        return st;
    }
    struct term *u = malloc((size_t)m * sizeof *u);
    if (!u)
        return E_NOMEM;
    for (int i = 0; i < m; i++)
        u[i] = (struct term){-t[i].lit, t[i].w};
    int st = pb_le(c, t, m, r, budget);
    if (!st)
        st = pb_le(c, u, m, W - r, budget);
    free(u);
    return st;
}

int ilpm_enc_linear(ilpm_cnf *c, const ilpm_con *con)
{
    int st = pb_in_range(con);
    if (st)
        return st;
    struct term *t = malloc((size_t)con->n * sizeof *t + sizeof *t);
    if (!t)
        return E_NOMEM;
    int64_t r, W = 0;
    int m = pb_terms(con, t, &r);
    for (int i = 0; i < m; i++)
        W += t[i].w;
    /* A BDD past c->row_nodes (below --max-pb-nodes) gives way to the
     * adders of cnf_obj.c: smaller, though they propagate less. */
    int64_t budget = c->max_pb_nodes;
    int adders = c->row_nodes > 0 && c->row_nodes < budget;
    if (adders)
        budget = c->row_nodes;
    switch (con->cmp) {
    case ILPM_LE:
        st = pb_le(c, t, m, r, &budget);
        break;
    case ILPM_GE:
        /* sum w y >= r  <=>  sum w (-y) <= W - r */
        for (int i = 0; i < m; i++)
            t[i].lit = -t[i].lit;
        st = pb_le(c, t, m, W - r, &budget);
        break;
    case ILPM_EQ:
        st = pb_eq(c, t, m, r, W, &budget);
        break;
    default:
        st = E_SHAPE;
        break;
    }
    free(t);
    if (st == E_PBSIZE && adders)
        st = ilpm_enc_linear_adders(c, con);
    return st;
}
