/* cnf_obj.c: the objective's cost encoded once for solution-improving
 * search (cnf_obj.h).  Equal weights: a totalizer (Bailleux and
 * Boufkhad) cut at the first bound plus one, whose outputs only grow
 * with the count, so that "cost <= K" is the unit -out[K] and every
 * tightening a new unit under a new guard.  Other weights: the weighted
 * literals go into buckets by the bits of their weights and are summed
 * by full and half adders (Een and Sorensson's adder network for
 * MiniSat+), bit by bit, carries into the next bucket; "cost <= K" is
 * then a lexicographic comparison of the output bits with K, at most one
 * clause per bit.  Both stay the size of the objective whatever the
 * bound, where a BDD of each bound grew with the spread of the weights
 * (p0282's needed more than two million nodes, mod008's a gigabyte). */
#include "cnf_obj.h"

#include "cnf_enc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Weights, their sum and the shift within 2^60, as the linear rows. */
#define OBJ_LIMIT ((int64_t)1 << 60)
/* Bounds encoded each on its own (a BDD, a counter) while they stay
 * below these sizes; past them the network. */
#define DIRECT_NODES 50000
#define DIRECT_LITS 4000000
/* A totalizer past this many clauses gives way to the adders. */
#define UNARY_MAX_CLAUSES ((int64_t)1 << 22)

struct oterm {
    int var;
    int64_t a; /* the cost's coefficient on the positive variable */
};

static int by_var(const void *pa, const void *pb)
{
    const struct oterm *a = pa, *b = pb;
    return (a->var > b->var) - (a->var < b->var);
}

void ilpm_cnf_obj_release(ilpm_cnf_obj *o)
{
    free(o->lits);
    free(o->w);
    free(o->out);
    memset(o, 0, sizeof *o);
}

/* Maximising sum c_i [l_i] is minimising sum -c_i [l_i]; a negative
 * coefficient a on x is a + (-a) [-x], its constant moved into shift
 * (times sign, +1 or -1, on every coefficient).  0, E_NOMEM or
 * E_BIGCOEF (o released). */
static int setup(ilpm_cnf_obj *o, int n, const int *lits, const int64_t *coefs,
                 int sign)
{
    memset(o, 0, sizeof *o);
    struct oterm *t = malloc((size_t)n * sizeof *t + sizeof *t);
    o->lits = malloc((size_t)n * sizeof *o->lits + sizeof *o->lits);
    o->w = malloc((size_t)n * sizeof *o->w + sizeof *o->w);
    if (!t || !o->lits || !o->w) {
        free(t);
        ilpm_cnf_obj_release(o);
        return E_NOMEM;
    }
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        int64_t a = coefs[i];
        if (a < -OBJ_LIMIT || a > OBJ_LIMIT ||
            (sum += a < 0 ? -a : a) > OBJ_LIMIT) {
            free(t);
            ilpm_cnf_obj_release(o);
            return E_BIGCOEF;
        }
        a *= sign;
        int l = lits[i];
        /* cost term -a [l]; on -x: -a (1 - [x]) = -a + a [x] */
        t[i] = l > 0 ? (struct oterm){l, -a} : (struct oterm){-l, a};
        if (l < 0)
            o->shift += a; /* constant -a: cost <= K - (-a) */
    }
    qsort(t, (size_t)n, sizeof *t, by_var);
    int m = 0;
    for (int i = 0; i < n;) {
        int v = t[i].var;
        int64_t a = 0;
        for (; i < n && t[i].var == v; i++)
            a += t[i].a;
        if (a > 0) {
            o->lits[m] = v;
            o->w[m++] = a;
        } else if (a < 0) { /* a [x] = a + (-a) [-x] */
            o->lits[m] = -v;
            o->w[m++] = -a;
            o->shift -= a;
        }
    }
    free(t);
    o->n = m;
    o->g = 1;
    int64_t g = 0;
    for (int i = 0; i < m; i++)
        g = ilpm_gcd64(o->w[i], g);
    if (g > 1) {
        o->g = g;
        for (int i = 0; i < m; i++)
            o->w[i] /= g;
    }
    o->unary = 1;
    for (int i = 0; i < m; i++)
        o->unary &= o->w[i] == 1;
    return 0;
}

int ilpm_cnf_obj_init(ilpm_cnf_obj *o, int n, const int *lits,
                      const int64_t *coefs, ilpm_err *err)
{
    int st = setup(o, n, lits, coefs, 1);
    if (st == E_NOMEM)
        return ilpm_err_nomem(err, "out of memory for the objective");
    if (st)
        return ilpm_err_input(err, "the objective's coefficients add up to "
                                   "more than 2^60, too large for the CNF "
                                   "encoding");
    o->direct = 1;
    o->on = n;
    o->olits = lits;
    o->ocoefs = coefs;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The totalizer, cut at cap outputs                                    */

/* Clauses of a totalizer over len inputs cut at cap (the merge of each
 * node), to choose between it and the adders before building. */
static int64_t unary_clauses(int len, int cap)
{
    if (len <= 1)
        return 0;
    int a = len / 2, b = len - a;
    int64_t here = (int64_t)(imin(a, cap) + 1) * (imin(b, cap) + 1);
    return here + unary_clauses(a, cap) + unary_clauses(b, cap);
}

/* The outputs of x[0..len) into r[0..min(len, cap)): r[k] is true when
 * at least k + 1 inputs are; scratch holds 2 * len ints. */
static int unary_node(ilpm_cnf *c, const int *x, int len, int cap, int *r,
                      int *scratch)
{
    if (len == 1) {
        r[0] = x[0];
        return 0;
    }
    int a = len / 2, b = len - a;
    int na = imin(a, cap), nb = imin(b, cap), nr = imin(len, cap);
    int *A = scratch, *B = scratch + na;
    TRY(unary_node(c, x, a, cap, A, scratch + na + nb));
    TRY(unary_node(c, x + a, b, cap, B, scratch + na + nb));
    for (int k = 0; k < nr; k++)
        TRY(fresh(c, &r[k]));
    /* A_i and B_j (i + j <= cap, A_0 = B_0 = true) give r_{i+j}. */
    for (int i = 0; i <= na; i++)
        for (int j = i == 0; j <= nb && i + j <= nr; j++) {
            int l[3], k = 0;
            if (i)
                l[k++] = -A[i - 1];
            if (j)
                l[k++] = -B[j - 1];
            l[k++] = r[i + j - 1];
            TRY(clause(c, l, k));
        }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The adder network                                                    */

/* The buckets: literals of weight 2^j for each bit j, consumed in order
 * (first in, first out keeps the adder tree shallow). */
struct bucket {
    int *l;
    int n, head, cap;
};

static int push(struct bucket *b, int l)
{
    if (ilpm_grow_int((void **)&b->l, &b->cap, b->n + 1, sizeof *b->l))
        return E_NOMEM;
    b->l[b->n++] = l;
    return 0;
}

/* s <-> x[0] xor ... xor x[k-1] (k = 2 or 3): one clause per assignment
 * of the inputs. */
static int xor_def(ilpm_cnf *c, const int *x, int k, int s)
{
    for (int m = 0; m < 1 << k; m++) {
        int l[4], p = 0;
        for (int i = 0; i < k; i++) {
            int v = (m >> i) & 1;
            l[i] = v ? -x[i] : x[i];
            p ^= v;
        }
        l[k] = p ? s : -s;
        TRY(clause(c, l, k + 1));
    }
    return 0;
}

/* co <-> at least two of x[0..k) (k = 3), or x[0] & x[1] (k = 2). */
static int carry_def(ilpm_cnf *c, const int *x, int k, int co)
{
    if (k == 2) {
        TRY(tern(c, -x[0], -x[1], co));
        TRY(bin(c, x[0], -co));
        return bin(c, x[1], -co);
    }
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) {
            TRY(tern(c, -x[i], -x[j], co));
            TRY(tern(c, x[i], x[j], -co));
        }
    return 0;
}

/* Sums bucket j down to one literal (or none), carries into j + 1. */
static int add_bit(ilpm_cnf *c, struct bucket *bk, int j, int *bit)
{
    struct bucket *b = &bk[j];
    while (b->n - b->head >= 2) {
        int k = b->n - b->head >= 3 ? 3 : 2, x[3], s, co;
        for (int i = 0; i < k; i++)
            x[i] = b->l[b->head++];
        TRY(fresh(c, &s));
        TRY(fresh(c, &co));
        TRY(xor_def(c, x, k, s));
        TRY(carry_def(c, x, k, co));
        TRY(push(b, s));
        TRY(push(&bk[j + 1], co));
    }
    *bit = b->n > b->head ? b->l[b->head] : 0;
    return 0;
}

/* Bits enough for the sum of the weights (below 2^60) and the carries. */
#define OBJ_BITS 64

static int adders(ilpm_cnf *c, ilpm_cnf_obj *o)
{
    struct bucket bk[OBJ_BITS + 1];
    memset(bk, 0, sizeof bk);
    int st = 0, top = -1;
    for (int i = 0; i < o->n && !st; i++)
        for (int j = 0; j < OBJ_BITS && !st; j++)
            if ((o->w[i] >> j) & 1) {
                st = push(&bk[j], o->lits[i]);
                top = imax(top, j);
            }
    o->out = calloc(OBJ_BITS, sizeof *o->out);
    if (!o->out && !st)
        st = E_NOMEM;
    for (int j = 0; j < OBJ_BITS && !st; j++) {
        if (j > top && bk[j].n == 0)
            break;
        st = add_bit(c, bk, j, &o->out[j]);
        o->nout = j + 1;
    }
    for (int j = 0; j <= OBJ_BITS; j++)
        free(bk[j].l);
    return st;
}

/* ------------------------------------------------------------------ */
/* Building and bounding                                                */

struct job {
    ilpm_cnf_obj *o;
    int64_t K; /* cost <= K, in units of g */
};

static int build(ilpm_cnf *c, void *arg)
{
    struct job *jb = arg;
    ilpm_cnf_obj *o = jb->o;
    int cap = (int)(jb->K + 1); /* K < n here when unary */
    if (o->unary && unary_clauses(o->n, cap) <= UNARY_MAX_CLAUSES) {
        TRY(fits(c, unary_clauses(o->n, cap), unary_clauses(o->n, cap)));
        o->out = malloc((size_t)cap * sizeof *o->out);
        int *scratch = malloc((size_t)(2 * o->n + 2) * sizeof *scratch);
        int st = o->out && scratch ? 0 : E_NOMEM;
        if (!st)
            st = unary_node(c, o->lits, o->n, cap, o->out, scratch);
        free(scratch);
        o->nout = cap;
        return st;
    }
    o->unary = 0;
    return adders(c, o);
}

/* cost <= K over the binary outputs: for every bit j where K has 0,
 * -out[j] or one of the higher bits where K has 1 is false. */
static int compare(ilpm_cnf *c, void *arg)
{
    struct job *jb = arg;
    const ilpm_cnf_obj *o = jb->o;
    int64_t K = jb->K;
    if (K < 0)
        return empty(c);
    if (o->unary)
        return K < o->nout ? unit(c, -o->out[K]) : 0;
    if (o->nout < 63 && (K >> o->nout) != 0)
        return 0; /* past every sum the outputs can make */
    int l[OBJ_BITS + 1];
    for (int j = 0; j < o->nout; j++) {
        if (((K >> j) & 1) || !o->out[j])
            continue;
        int k = 0, skip = 0;
        l[k++] = -o->out[j];
        for (int i = j + 1; i < o->nout && !skip; i++)
            if ((K >> i) & 1) {
                if (!o->out[i])
                    skip = 1; /* that bit is 0 < 1: below K already */
                else
                    l[k++] = -o->out[i];
            }
        if (!skip)
            TRY(clause(c, l, k));
    }
    return 0;
}

/* "objective >= b" as one linear constraint under the guard, within
 * DIRECT_NODES BDD nodes and DIRECT_LITS literals over all the bounds:
 * 0 done, 1 too large (o->direct cleared, nothing added), -1 with err. */
static int bound_direct(ilpm_cnf *c, ilpm_cnf_obj *o, int64_t b, int guard,
                        ilpm_err *err)
{
    ilpm_con con = {ILPM_LINEAR, ILPM_GE,   -1, 0,   o->on,
                    o->olits,    o->ocoefs, b,  NULL};
    int64_t saved_nodes = c->max_pb_nodes;
    size_t before = c->nfed + c->nlits;
    ilpm_err e = {0};
    int64_t saved_row = c->row_nodes;
    c->max_pb_nodes = saved_nodes < DIRECT_NODES ? saved_nodes : DIRECT_NODES;
    c->row_nodes = 0; /* past DIRECT_NODES: the network, not a row's adders */
    c->guards[c->nguards++] = guard;
    int rc = ilpm_cnf_encode_as(c, &con, "the objective's bound", &e);
    c->nguards--;
    c->max_pb_nodes = saved_nodes;
    c->row_nodes = saved_row;
    if (rc == 0) {
        o->direct_lits += (int64_t)(c->nfed + c->nlits - before);
        if (o->direct_lits > DIRECT_LITS)
            o->direct = 0; /* the next bounds on the network */
        return 0;
    }
    if (e.rc == ILPM_E_LIMIT && !c->watch.status) {
        /* Past DIRECT_NODES or --max-memory: the network from now on,
         * which --max-memory bounds in its turn. */
        c->over_budget = 0;
        o->direct = 0;
        return 1;
    }
    if (err)
        *err = e;
    return -1;
}

int ilpm_cnf_obj_bound(ilpm_cnf *c, ilpm_cnf_obj *o, int64_t b, int guard,
                       ilpm_err *err)
{
    if (o->direct) {
        int rc = bound_direct(c, o, b, guard, err);
        if (rc <= 0)
            return rc;
    }
    /* g * cost <= shift - b: cost <= floor((shift - b) / g). */
    int64_t r = o->shift - b, K = r >= 0 ? r / o->g : -((-r + o->g - 1) / o->g);
    struct job jb = {o, K};
    if (!o->built && K >= 0 && (!o->unary || K < o->n)) {
        int saved = c->nguards;
        c->nguards = 0; /* the network holds whatever the bound */
        int rc = ilpm_cnf_encode_with(c, build, &jb, "the objective", err);
        c->nguards = saved;
        if (rc != 0) {
            free(o->out);
            o->out = NULL;
            o->nout = 0;
            return -1;
        }
        o->built = 1;
    }
    if (!o->built && K >= 0)
        return 0; /* the bound holds for every assignment */
    int saved = c->nguards;
    c->guards[saved] = guard;
    c->nguards = saved + 1;
    int rc =
        ilpm_cnf_encode_with(c, compare, &jb, "the objective's bound", err);
    c->nguards = saved;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Linear rows too large for a BDD                                      */

/* sign * sum coefs[i] [lits[i]] >= b through a network of its own. */
static int row_ge(ilpm_cnf *c, const ilpm_con *con, int sign, int64_t b)
{
    ilpm_cnf_obj o;
    TRY(setup(&o, con->n, con->lits, con->coefs, sign));
    int64_t r = o.shift - b;
    int64_t K = r >= 0 ? r / o.g : -((-r + o.g - 1) / o.g);
    struct job jb = {&o, K};
    int st = 0;
    if (K < 0)
        st = empty(c);
    else if (!o.unary || K < o.n)
        st = build(c, &jb);
    if (!st && K >= 0 && (!o.unary || K < o.n))
        st = compare(c, &jb);
    ilpm_cnf_obj_release(&o);
    return st;
}

int ilpm_enc_linear_adders(ilpm_cnf *c, const ilpm_con *con)
{
    if (con->cmp != ILPM_GE) /* <= r: -sum >= -r */
        TRY(row_ge(c, con, -1, -con->rhs));
    if (con->cmp != ILPM_LE)
        TRY(row_ge(c, con, 1, con->rhs));
    return 0;
}
