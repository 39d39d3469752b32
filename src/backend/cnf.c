/* cnf.c: lowering of model constraints to CNF clauses for the SAT side.
 *
 * Each kind keeps its own encoding, chosen by the options: pairwise,
 * ladder or product at-most-one; sequential counter or totalizer for
 * cardinality; a reduced BDD for general linear constraints.  Every
 * encoding is exact on the model's variables (a model assignment extends
 * to the auxiliary variables iff the constraint holds), which
 * tests/check_cnf.c verifies against brute force.
 */
#include "backend.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Variable ids must stay clear of INT32_MAX so that negation and the
 * arithmetic of other layers never overflow. */
#define VAR_LIMIT (INT32_MAX / 2)
#define DEFAULT_MAX_PB_NODES 2000000
/* Up to this many literals the pairwise encoding is used by `auto` and at
 * the leaves of the product.  It needs no auxiliary variable and each
 * clause propagates directly: Sudoku's nine-literal groups solve top95 in
 * 0.30 s pairwise against 0.42 s with the ladder; from about a dozen
 * literals its quadratic size costs more than it gives. */
#define PAIRWISE_MAX 10
/* The product recurses down to groups of this many literals. */
#define PRODUCT_LEAF 6
/* Linear constraints are normalised in int64: keeping each input bounded
 * by 2^60 leaves room for every sum and difference below. */
#define PB_LIMIT ((int64_t)1 << 60)
/* Cardinality and at-most-one encodings have no option bounding them;
 * one constraint that would need more clauses than this (about 3 GB)
 * is refused before anything is allocated. */
#define CLAUSE_LIMIT ((int64_t)1 << 28)

/* Internal status codes; ilpm_cnf_encode turns them into messages. */
enum {
    E_NOMEM = -1,
    E_NOVARS = -2,
    E_PBSIZE = -3,
    E_BIGCOEF = -4,
    E_NESTED = -5,
    E_SHAPE = -6,
    E_TOOBIG = -7,
    E_WATCH = -8 /* the time limit or the stop flag: c->watch says which */
};

#define TRY(expr)                                                              \
    do {                                                                       \
        int try_st_ = (expr);                                                  \
        if (try_st_ != 0)                                                      \
            return try_st_;                                                    \
    } while (0)

/* ------------------------------------------------------------------ */
/* The clause store                                                     */

int ilpm_cnf_init(ilpm_cnf *c, const ilpm_model *m, const ilpm_options *o,
                  ilpm_err *err)
{
    memset(c, 0, sizeof *c);
    c->cur_group = -1;
    c->amo = o ? o->amo : ILPM_AMO_AUTO;
    c->card = o ? o->card : ILPM_CARD_SEQ;
    c->max_pb_nodes =
        o && o->max_pb_nodes > 0 ? o->max_pb_nodes : DEFAULT_MAX_PB_NODES;
    /* A literal costs 4 bytes here and about as much again, with clause
     * headers and watches, inside the solver: 12 bytes is the budget. */
    if (o && o->max_memory_mb > 0)
        c->max_lits = (size_t)(o->max_memory_mb * 1048576 / 12);
    if (o)
        ilpm_watch_init(&c->watch, o->time_limit, o->stop_flag);
    if ((unsigned)c->amo > ILPM_AMO_PRODUCT)
        return ilpm_err_set(err, "unknown at-most-one encoding %d",
                            (int)c->amo);
    if ((unsigned)c->card > ILPM_CARD_TOTALIZER)
        return ilpm_err_set(err, "unknown cardinality encoding %d",
                            (int)c->card);
    int nv = ilpm_model_nvars(m);
    if (nv < 0 || nv > VAR_LIMIT)
        return ilpm_err_set(err, "too many variables for CNF: %d (limit %d)",
                            nv, VAR_LIMIT);
    c->nvars = c->model_vars = nv;
    int ng = ilpm_model_ngroups(m);
    if (ng > 0) {
        c->groups = calloc((size_t)ng, sizeof *c->groups);
        if (!c->groups)
            return ilpm_err_set(err, "out of memory preparing the CNF");
        c->ngroups = ng;
    }
    return 0;
}

void ilpm_cnf_release(ilpm_cnf *c)
{
    if (!c)
        return;
    free(c->lits);
    free(c->groups);
    memset(c, 0, sizeof *c);
    c->cur_group = -1;
}

static ilpm_group_stats *cur_stats(ilpm_cnf *c)
{
    return c->cur_group >= 0 && c->cur_group < c->ngroups
               ? &c->groups[c->cur_group]
               : NULL;
}

/* Returns 0 when the variable space is exhausted: 0 is never a
 * variable, so callers can test it like a null pointer. */
int ilpm_cnf_new_var(ilpm_cnf *c)
{
    if (c->nvars >= VAR_LIMIT)
        return 0;
    ilpm_group_stats *g = cur_stats(c);
    if (g)
        g->aux_vars++;
    return ++c->nvars;
}

int ilpm_cnf_add(ilpm_cnf *c, const int *lits, int n)
{
    if (n < 0 || c->nguards < 0 || c->nguards > 4)
        return -1;
    size_t extra = (size_t)n + (size_t)c->nguards + 1;
    if (extra > SIZE_MAX / sizeof *c->lits - c->nlits)
        return -1;
    size_t need = c->nlits + extra;
    if (ilpm_watch_poll(&c->watch, "", NULL) != 0)
        return -1;
    if (c->max_lits && c->nfed + need > c->max_lits) {
        c->over_budget = 1;
        return -1;
    }
    if (need > c->cap) {
        size_t cap = c->cap ? c->cap : 1024;
        while (cap < need)
            cap = cap > SIZE_MAX / sizeof *c->lits / 2
                      ? SIZE_MAX / sizeof *c->lits
                      : 2 * cap;
        int *p = realloc(c->lits, cap * sizeof *p);
        if (!p)
            return -1;
        c->lits = p;
        c->cap = cap;
    }
    for (int i = 0; i < n; i++)
        c->lits[c->nlits++] = lits[i];
    for (int i = 0; i < c->nguards; i++)
        c->lits[c->nlits++] = -c->guards[i];
    c->lits[c->nlits++] = 0;
    c->nclauses++;
    ilpm_group_stats *g = cur_stats(c);
    if (g) {
        g->clauses++;
        g->literals += n + c->nguards;
    }
    return 0;
}

static int clause(ilpm_cnf *c, const int *l, int n)
{
    return ilpm_cnf_add(c, l, n) == 0 ? 0 : E_NOMEM;
}

static int empty(ilpm_cnf *c)
{
    return clause(c, NULL, 0);
}

static int unit(ilpm_cnf *c, int a)
{
    return clause(c, &a, 1);
}

static int bin(ilpm_cnf *c, int a, int b)
{
    int l[2] = {a, b};
    return clause(c, l, 2);
}

static int tern(ilpm_cnf *c, int a, int b, int d)
{
    int l[3] = {a, b, d};
    return clause(c, l, 3);
}

static int fresh(ilpm_cnf *c, int *v)
{
    *v = ilpm_cnf_new_var(c);
    return *v ? 0 : E_NOVARS;
}

static int units(ilpm_cnf *c, const int *x, int n, int sign)
{
    for (int i = 0; i < n; i++)
        TRY(unit(c, sign * x[i]));
    return 0;
}

static int clause_neg(ilpm_cnf *c, const int *x, int n)
{
    int *l = malloc((size_t)n * sizeof *l + 1);
    if (!l)
        return E_NOMEM;
    for (int i = 0; i < n; i++)
        l[i] = -x[i];
    int st = clause(c, l, n);
    free(l);
    return st;
}

static int *negated(const int *x, int n)
{
    int *l = malloc((size_t)n * sizeof *l + 1);
    if (l)
        for (int i = 0; i < n; i++)
            l[i] = -x[i];
    return l;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

/* Refuses an encoding before it starts if it cannot fit: past the
 * variable limit, or past CLAUSE_LIMIT clauses. */
static int fits(const ilpm_cnf *c, int64_t vars, int64_t clauses)
{
    if (vars > VAR_LIMIT - c->nvars)
        return E_NOVARS;
    return clauses > CLAUSE_LIMIT ? E_TOOBIG : 0;
}

/* ------------------------------------------------------------------ */
/* Sinz's sequential counter for x_1 + ... + x_n <= k, 1 <= k < n.      */

/* s(i,j) means "at least j of x_1..x_i are true" (forced upwards only).
 * Only j <= min(i, k) can be reached, and only j >= k + 1 - (n - i) can
 * still lead to k + 1 with the n - i literals left, so the counter keeps
 * that band: O(n * min(k, n - k)) variables instead of n * k.  Every
 * s(i,j) in the band has its predecessors s(i-1,j-1) and s(i-1,j) in the
 * band of row i-1 (or they are the constants s(.,0) = 1, s(i,j>i) = 0),
 * so the chain that counts a violating assignment is never cut. */
static int seq_le(ilpm_cnf *c, const int *x, int n, int k)
{
    assert(k >= 1 && k < n);
    int64_t vars = 0;
    for (int i = 1; i < n; i++)
        vars += imax(0, imin(i, k) - imax(1, k + 1 - (n - i)) + 1);
    TRY(fits(c, vars, 3 * vars + n));
    int *prev = calloc((size_t)(2 * (k + 2)), sizeof *prev);
    if (!prev)
        return E_NOMEM;
    int *cur = prev + k + 2;
    int st = 0;
    for (int i = 1; i <= n && !st; i++) {
        int xi = x[i - 1];
        /* x_i on top of k earlier ones would make k + 1. */
        if (prev[k])
            st = bin(c, -xi, -prev[k]);
        if (i == n || st)
            break;
        int lo = imax(1, k + 1 - (n - i)), hi = imin(i, k);
        memset(cur, 0, (size_t)(k + 2) * sizeof *cur);
        for (int j = lo; j <= hi && !st; j++)
            st = fresh(c, &cur[j]);
        for (int j = lo; j <= hi && !st; j++) {
            if (j == 1) {
                st = bin(c, -xi, cur[1]);
            } else {
                assert(prev[j - 1]);
                st = tern(c, -xi, -prev[j - 1], cur[j]);
            }
            if (!st && prev[j])
                st = bin(c, -prev[j], cur[j]);
        }
        int *t = prev;
        prev = cur;
        cur = t;
    }
    free(prev < cur ? prev : cur);
    return st;
}

/* ------------------------------------------------------------------ */
/* At most one                                                          */

static int amo_pairwise(ilpm_cnf *c, const int *l, int n)
{
    TRY(fits(c, 0, (int64_t)n * (n - 1) / 2));
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            TRY(bin(c, -l[i], -l[j]));
    return 0;
}

/* Chen's 2-product: literal i sits at row i / q, column i % q of a p x q
 * grid; it implies its row and its column variable, and at most one row
 * and one column may be true.  Those two AMOs recurse.  Each row and
 * column variable is also defined as the OR of its literals (one clause
 * more per grid line): the solver can then neither set a line true with
 * nothing under it nor keep one false that a literal needs, and learns
 * on the lines.  On queens (CaDiCaL, seeds 0-3) n = 200 fell from 3.0-4.6 s
 * to 0.5 s, n = 350 from 9.5-10.3 s to 2.7-3.0 s, n = 400 from 13-18 s
 * to 5.7-6.7 s; n = 300 rose from 3.8-4.9 s to 5.5-6.2 s. */
static int amo_product(ilpm_cnf *c, const int *l, int n)
{
    if (n <= PRODUCT_LEAF)
        return amo_pairwise(c, l, n);
    int q = 1;
    while ((int64_t)q * q < n)
        q++;
    int p = (n + q - 1) / q; /* no empty row */
    int *rc = malloc((size_t)(p + q) * sizeof *rc);
    if (!rc)
        return E_NOMEM;
    int st = 0;
    for (int i = 0; i < p + q && !st; i++)
        st = fresh(c, &rc[i]);
    for (int i = 0; i < n && !st; i++) {
        st = bin(c, -l[i], rc[i / q]);
        if (!st)
            st = bin(c, -l[i], rc[p + i % q]);
    }
    int *line = st ? NULL : malloc((size_t)(q + 1) * sizeof *line); /* q >= p */
    if (!st && !line)
        st = E_NOMEM;
    for (int a = 0; a < p && !st; a++) { /* row a -> OR of its literals */
        int k = 0;
        line[k++] = -rc[a];
        for (int i = a * q; i < n && i < (a + 1) * q; i++)
            line[k++] = l[i];
        st = clause(c, line, k);
    }
    for (int b = 0; b < q && !st; b++) { /* column b likewise */
        int k = 0;
        line[k++] = -rc[p + b];
        for (int i = b; i < n; i += q)
            line[k++] = l[i];
        st = clause(c, line, k);
    }
    free(line);
    if (!st)
        st = amo_product(c, rc, p);
    if (!st)
        st = amo_product(c, rc + p, q);
    free(rc);
    return st;
}

static int amo(ilpm_cnf *c, const int *l, int n)
{
    if (n <= 1)
        return 0;
    switch (c->amo) {
    case ILPM_AMO_PAIRWISE:
        return amo_pairwise(c, l, n);
    case ILPM_AMO_SEQ:
        /* The ladder over two literals resolves to their one clause. */
        return n == 2 ? amo_pairwise(c, l, n) : seq_le(c, l, n, 1);
    case ILPM_AMO_PRODUCT:
        return amo_product(c, l, n);
    case ILPM_AMO_AUTO:
    default:
        return n <= PAIRWISE_MAX ? amo_pairwise(c, l, n) : amo_product(c, l, n);
    }
}

/* ------------------------------------------------------------------ */
/* Totalizer (Bailleux and Boufkhad)                                    */

/* Fills out[0..min(n,K)) with unary count literals of x[0..n): with up,
 * "count >= s" forces out[s-1]; with down, out[s-1] forces "count >= s".
 * Counts above K are never needed, so every node is cut at K outputs
 * (the k-simplified totalizer); a leaf is its own literal. */
static int tot_build(ilpm_cnf *c, const int *x, int n, int K, int up, int down,
                     int *out)
{
    if (n == 1) {
        out[0] = x[0];
        return 0;
    }
    int na = n / 2, nb = n - na;
    int pa = imin(na, K), pb = imin(nb, K), m = imin(n, K);
    int *a = malloc((size_t)(pa + pb) * sizeof *a);
    if (!a)
        return E_NOMEM;
    int *b = a + pa;
    int st = tot_build(c, x, na, K, up, down, a);
    if (!st)
        st = tot_build(c, x + na, nb, K, up, down, b);
    for (int s = 0; s < m && !st; s++)
        st = fresh(c, &out[s]);
    /* a >= i and b >= j give out >= i + j. */
    for (int i = 0; up && i <= pa && !st; i++)
        for (int j = 0; j <= pb && i + j <= m && !st; j++) {
            if (i + j == 0)
                continue;
            int l[3], k = 0;
            if (i)
                l[k++] = -a[i - 1];
            if (j)
                l[k++] = -b[j - 1];
            l[k++] = out[i + j - 1];
            st = clause(c, l, k);
        }
    /* out >= s needs, for every split i + j = s - 1, a > i or b > j.  A
     * missing a[i] is a count beyond the subtree: that side is false. */
    for (int s = 1; down && s <= m && !st; s++)
        for (int i = 0; i < s && !st; i++) {
            int j = s - 1 - i, l[3], k = 0;
            if (i < pa)
                l[k++] = a[i];
            if (j < pb)
                l[k++] = b[j];
            l[k++] = -out[s - 1];
            st = clause(c, l, k);
        }
    free(a);
    return st;
}

/* What tot_build will add, counted by the same recursion. */
static void tot_cost(int n, int K, int64_t *vars, int64_t *clauses)
{
    if (n == 1)
        return;
    int na = n / 2, nb = n - na;
    int64_t pa = imin(na, K), pb = imin(nb, K), m = imin(n, K);
    tot_cost(na, K, vars, clauses);
    tot_cost(nb, K, vars, clauses);
    *vars += m;
    /* Both directions, each at most (pa + 1) * (pb + 1) clauses. */
    *clauses += 2 * (pa + 1) * (pb + 1);
}

/* Outputs needed to decide cmp k directly. */
static int tot_width(ilpm_cmp cmp, int k)
{
    return cmp == ILPM_GE ? k : k + 1;
}

/* x cmp k with 1 <= k < n.  The same constraint over the negations is
 * sum(-x) cmp' n - k; the tree is built on whichever side needs fewer
 * outputs, and for EQ one tree with both directions serves both bounds. */
static int totalizer(ilpm_cnf *c, const int *x, int n, ilpm_cmp cmp, int k)
{
    ilpm_cmp ncmp = cmp == ILPM_LE   ? ILPM_GE
                    : cmp == ILPM_GE ? ILPM_LE
                                     : ILPM_EQ;
    int *neg = NULL;
    if (tot_width(ncmp, n - k) < tot_width(cmp, k)) {
        neg = negated(x, n);
        if (!neg)
            return E_NOMEM;
        x = neg;
        cmp = ncmp;
        k = n - k;
    }
    int K = tot_width(cmp, k);
    int64_t vars = 0, clauses = 0;
    tot_cost(n, K, &vars, &clauses);
    int st = fits(c, vars, clauses);
    int *out = st ? NULL : malloc((size_t)imin(n, K) * sizeof *out);
    if (!st && !out)
        st = E_NOMEM;
    if (!st)
        st = tot_build(c, x, n, K, cmp != ILPM_GE, cmp != ILPM_LE, out);
    if (!st && cmp != ILPM_GE)
        st = unit(c, -out[k]);
    if (!st && cmp != ILPM_LE)
        st = unit(c, out[k - 1]);
    free(out);
    free(neg);
    return st;
}

/* ------------------------------------------------------------------ */
/* Cardinality                                                          */

/* sum of x[0..n) cmp k, counting a repeated literal as often as it
 * appears (the model's reading).  The trivial bounds become nothing, the
 * empty clause, units or one clause; the rest goes to the encoder. */
static int card(ilpm_cnf *c, const int *x, int n, ilpm_cmp cmp, int64_t k)
{
    switch (cmp) {
    case ILPM_LE:
        if (k < 0)
            return empty(c);
        if (k >= n)
            return 0;
        if (k == 0)
            return units(c, x, n, -1);
        if (k == n - 1)
            return clause_neg(c, x, n);
        break;
    case ILPM_GE:
        if (k <= 0)
            return 0;
        if (k > n)
            return empty(c);
        if (k == n)
            return units(c, x, n, 1);
        if (k == 1)
            return clause(c, x, n);
        break;
    case ILPM_EQ:
        if (k < 0 || k > n)
            return empty(c);
        if (k == 0)
            return units(c, x, n, -1);
        if (k == n)
            return units(c, x, n, 1);
        break;
    default:
        return E_SHAPE;
    }
    /* Now 1 <= k <= n - 1. */
    if (c->card == ILPM_CARD_TOTALIZER)
        return totalizer(c, x, n, cmp, (int)k);
    if (cmp == ILPM_EQ) {
        TRY(card(c, x, n, ILPM_LE, k));
        return card(c, x, n, ILPM_GE, k);
    }
    if (cmp == ILPM_LE)
        return seq_le(c, x, n, (int)k);
    int *neg = negated(x, n);
    if (!neg)
        return E_NOMEM;
    int st = seq_le(c, neg, n, n - (int)k);
    free(neg);
    return st;
}

/* ------------------------------------------------------------------ */
/* Linear constraints: normalisation and a reduced BDD                  */

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

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
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
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : 64;
    while (c < need) {
        if (c > INT_MAX / 2)
            return E_NOMEM;
        c *= 2;
    }
    if ((size_t)c > SIZE_MAX / elem)
        return E_NOMEM;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q)
        return E_NOMEM;
    *p = q;
    *cap = c;
    return 0;
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
        g = gcd64(t[i].w, g);
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
        int st = card(c, x, m, ILPM_LE, r);
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

static int linear(ilpm_cnf *c, const ilpm_con *con)
{
    int n = con->n;
    int64_t abs_sum = 0;
    for (int i = 0; i < n; i++) {
        int64_t a = con->coefs[i];
        if (a < -PB_LIMIT || a > PB_LIMIT)
            return E_BIGCOEF;
        abs_sum += a < 0 ? -a : a;
        if (abs_sum > PB_LIMIT)
            return E_BIGCOEF;
    }
    if (con->rhs < -PB_LIMIT || con->rhs > PB_LIMIT)
        return E_BIGCOEF;

    struct term *t = malloc((size_t)n * sizeof *t + sizeof *t);
    if (!t)
        return E_NOMEM;
    /* a * (-x) = a - a * x: move everything onto positive variables,
     * then merge repeats of a variable. */
    int64_t r = con->rhs;
    for (int i = 0; i < n; i++) {
        int l = con->lits[i];
        int64_t a = con->coefs[i];
        if (l > 0) {
            t[i] = (struct term){l, a};
        } else {
            t[i] = (struct term){-l, -a};
            r -= a;
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
            r -= a;
        }
    }
    qsort(t, (size_t)m, sizeof *t, by_weight);
    int64_t W = 0;
    for (int i = 0; i < m; i++)
        W += t[i].w;

    int64_t budget = c->max_pb_nodes;
    int st = 0;
    struct term *u = NULL;
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
    case ILPM_EQ: {
        int64_t g = 0;
        for (int i = 0; i < m; i++)
            g = gcd64(t[i].w, g);
        if (r < 0 || r > W || (g > 0 && r % g != 0)) {
            st = empty(c);
            break;
        }
        if (m == 0)
            break;
        if (t[0].w == t[m - 1].w) {
            int *x = malloc((size_t)m * sizeof *x);
            if (!x) {
                st = E_NOMEM;
                break;
            }
            for (int i = 0; i < m; i++)
                x[i] = t[i].lit;
            st = card(c, x, m, ILPM_EQ, r / g);
            free(x);
            break;
        }
        u = malloc((size_t)m * sizeof *u);
        if (!u) {
            st = E_NOMEM;
            break;
        }
        for (int i = 0; i < m; i++)
            u[i] = (struct term){-t[i].lit, t[i].w};
        st = pb_le(c, t, m, r, &budget);
        if (!st)
            st = pb_le(c, u, m, W - r, &budget);
        break;
    }
    default:
        st = E_SHAPE;
        break;
    }
    free(u);
    free(t);
    return st;
}

/* ------------------------------------------------------------------ */
/* Constraints                                                          */

static int encode(ilpm_cnf *c, const ilpm_con *con)
{
    switch (con->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        return clause(c, con->lits, con->n);
    case ILPM_IMPL:
        if (con->n != 2)
            return E_SHAPE;
        return bin(c, -con->lits[0], con->lits[1]);
    case ILPM_AMO:
        return amo(c, con->lits, con->n);
    case ILPM_EXO:
        TRY(amo(c, con->lits, con->n));
        return clause(c, con->lits, con->n);
    case ILPM_CARD:
        return card(c, con->lits, con->n, con->cmp, con->rhs);
    case ILPM_CCARD: {
        /* The guard turns the empty clause of an infeasible bound into
         * the unit -cond, and every other clause into its conditional
         * form. */
        if (c->nguards >= 4)
            return E_NESTED;
        c->guards[c->nguards++] = con->cond;
        int st = card(c, con->lits, con->n, con->cmp, con->rhs);
        c->nguards--;
        return st;
    }
    case ILPM_LINEAR:
        if (!con->coefs)
            return E_SHAPE;
        return linear(c, con);
    default:
        return E_SHAPE;
    }
}

/* Local names: ilpm_amo_name and ilpm_card_name live with the options,
 * which this file does not depend on. */
static const char *amo_label(ilpm_amo_enc e)
{
    static const char *const names[] = {"auto", "pairwise", "seq", "product"};
    return (unsigned)e <= ILPM_AMO_PRODUCT ? names[e] : "unknown";
}

static const char *card_label(ilpm_card_enc e)
{
    return e == ILPM_CARD_TOTALIZER ? "totalizer" : "seq";
}

static int bad_lit(const ilpm_cnf *c, int l)
{
    return l == 0 || l == INT_MIN || abs(l) > c->nvars;
}

/* gname names the group in messages when the caller knows it. */
static int encode_named(ilpm_cnf *c, const ilpm_con *con, const char *gname,
                        ilpm_err *err)
{
    const char *kind = ilpm_kind_name(con->kind);
    char where[96] = "";
    if (gname)
        snprintf(where, sizeof where, " in group '%s'", gname);
    else if (con->group >= 0)
        snprintf(where, sizeof where, " in group %d", con->group);

    if (con->n < 0 || (con->n > 0 && !con->lits))
        return ilpm_err_set(err, "a %s constraint%s has no literals", kind,
                            where);
    for (int i = 0; i < con->n; i++)
        if (bad_lit(c, con->lits[i]))
            return ilpm_err_set(err,
                                "a %s constraint%s has literal %d, not a "
                                "variable of the CNF (1..%d)",
                                kind, where, con->lits[i], c->nvars);
    if (con->kind == ILPM_CCARD && bad_lit(c, con->cond))
        return ilpm_err_set(err,
                            "a %s constraint%s has condition %d, not a "
                            "variable of the CNF (1..%d)",
                            kind, where, con->cond, c->nvars);

    /* A failed encoding leaves the CNF as it was, so the caller may go
     * on (or report) without half a constraint in the clause store. */
    size_t nlits = c->nlits;
    int64_t nclauses = c->nclauses;
    int nvars = c->nvars, nguards = c->nguards;
    ilpm_group_stats *g = cur_stats(c), saved = {0};
    if (g)
        saved = *g;
    int st = encode(c, con);
    if (st == 0)
        return 0;
    c->nlits = nlits;
    c->nclauses = nclauses;
    c->nvars = nvars;
    c->nguards = nguards;
    if (g)
        *g = saved;

    if (c->watch.status)
        st = E_WATCH; /* however the encoder reported it */
    switch (st) {
    case E_WATCH: {
        char what[160];
        snprintf(what, sizeof what, "encoding a %s constraint%s as CNF", kind,
                 where);
        return ilpm_watch_poll(&c->watch, what, err); /* sticky: -1 */
    }
    case E_NOVARS:
        return ilpm_err_set(err,
                            "a %s constraint%s needs more CNF variables "
                            "than the limit of %d",
                            kind, where, VAR_LIMIT);
    case E_PBSIZE:
        return ilpm_err_set(err,
                            "a linear constraint%s needs more than %" PRId64
                            " BDD nodes to encode as CNF (raise "
                            "--max-pb-nodes)",
                            where, c->max_pb_nodes);
    case E_BIGCOEF:
        return ilpm_err_set(err,
                            "a linear constraint%s has a coefficient, a "
                            "bound or a sum beyond 2^60, too large for "
                            "the CNF encoding",
                            where);
    case E_TOOBIG:
        return ilpm_err_set(err,
                            "a %s constraint%s over %d literals needs more "
                            "than %" PRId64 " clauses with the %s encoding "
                            "(choose another encoding)",
                            kind, where, con->n, CLAUSE_LIMIT,
                            con->kind == ILPM_AMO || con->kind == ILPM_EXO
                                ? amo_label(c->amo)
                                : card_label(c->card));
    case E_NESTED:
        return ilpm_err_set(err,
                            "a %s constraint%s is nested under more than "
                            "4 conditions",
                            kind, where);
    case E_SHAPE:
        return ilpm_err_set(err,
                            "a %s constraint%s is malformed (kind %d, "
                            "comparison %d, %d literals)",
                            kind, where, (int)con->kind, (int)con->cmp, con->n);
    case E_NOMEM:
    default:
        if (c->over_budget)
            return ilpm_err_set(err,
                                "the CNF outgrows --max-memory%s (%zu "
                                "literals so far, encoding a constraint of "
                                "kind %s); raise --max-memory or pick a "
                                "more compact --amo/--card encoding",
                                where, c->nfed + c->nlits, kind);
        return ilpm_err_set(err,
                            "out of memory encoding a %s constraint%s "
                            "as CNF",
                            kind, where);
    }
}

int ilpm_cnf_encode(ilpm_cnf *c, const ilpm_con *con, ilpm_err *err)
{
    return encode_named(c, con, NULL, err);
}

int ilpm_cnf_from_model(ilpm_cnf *c, const ilpm_model *m, const ilpm_options *o,
                        ilpm_err *err)
{
    if (ilpm_cnf_init(c, m, o, err) != 0) {
        ilpm_cnf_release(c);
        return -1;
    }
    size_t ncons = ilpm_model_ncons(m);
    for (size_t i = 0; i < ncons; i++) {
        ilpm_con con;
        ilpm_model_con(m, i, &con);
        if (ilpm_model_group_redundant(m, con.group))
            continue;
        c->cur_group =
            con.group >= 0 && con.group < c->ngroups ? con.group : -1;
        if (encode_named(c, &con, ilpm_model_group_name(m, con.group), err) !=
            0) {
            ilpm_cnf_release(c);
            return -1;
        }
    }
    c->cur_group = -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* DIMACS                                                               */

/* Formatting numbers by hand keeps a many-million-clause export from
 * spending its time in fprintf. */
struct out {
    FILE *f;
    size_t len;
    int failed;
    char buf[1 << 15];
};

static void out_flush(struct out *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = 1;
    o->len = 0;
}

static void out_str(struct out *o, const char *s)
{
    for (; *s; s++) {
        if (o->len == sizeof o->buf)
            out_flush(o);
        o->buf[o->len++] = *s;
    }
}

static void out_i64(struct out *o, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[n++] = '-';
    if (o->len + (size_t)n > sizeof o->buf)
        out_flush(o);
    while (n)
        o->buf[o->len++] = tmp[--n];
}

int ilpm_cnf_write_dimacs(const ilpm_cnf *c, const ilpm_model *m, FILE *f,
                          ilpm_err *err)
{
    errno = 0;
    struct out *o = malloc(sizeof *o);
    if (!o)
        return ilpm_err_set(err, "out of memory writing DIMACS");
    o->f = f;
    o->len = 0;
    o->failed = 0;
    out_str(o, "c ilpm DIMACS export\n");
    if (m) {
        char name[256];
        for (int v = 1; v <= c->model_vars && !o->failed; v++) {
            out_str(o, "c ");
            out_str(o, ilpm_model_var_name(m, v, name, sizeof name));
            out_str(o, " ");
            out_i64(o, v);
            out_str(o, "\n");
        }
    }
    out_str(o, "p cnf ");
    out_i64(o, c->nvars);
    out_str(o, " ");
    out_i64(o, c->nclauses);
    out_str(o, "\n");
    int first = 1;
    for (size_t i = 0; i < c->nlits && !o->failed; i++) {
        if (!first)
            out_str(o, " ");
        out_i64(o, c->lits[i]);
        first = c->lits[i] == 0;
        if (first)
            out_str(o, "\n");
    }
    out_flush(o);
    int failed = o->failed;
    free(o);
    if (failed || fflush(f) != 0 || ferror(f))
        return ilpm_err_set(err, "error writing DIMACS: %s",
                            errno ? strerror(errno) : "write failed");
    return 0;
}
