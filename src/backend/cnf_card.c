/* cnf_card.c: cardinality constraints (sum of literals cmp k): Sinz's
 * sequential counter, the totalizer of Bailleux and Boufkhad, and the
 * front that settles the trivial bounds before choosing between them. */
#include "cnf_enc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

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

/* ------------------------------------------------------------------ */
/* Sinz's sequential counter for x_1 + ... + x_n <= k, 1 <= k < n.      */

/* s(i,j) means "at least j of x_1..x_i are true" (forced upwards only).
 * Only j <= min(i, k) can be reached, and only j >= k + 1 - (n - i) can
 * still lead to k + 1 with the n - i literals left, so the counter keeps
 * that band: O(n * min(k, n - k)) variables instead of n * k.  Every
 * s(i,j) in the band has its predecessors s(i-1,j-1) and s(i-1,j) in the
 * band of row i-1 (or they are the constants s(.,0) = 1, s(i,j>i) = 0),
 * so the chain that counts a violating assignment is never cut. */
int ilpm_enc_seq_le(ilpm_cnf *c, const int *x, int n, int k)
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
int ilpm_enc_card(ilpm_cnf *c, const int *x, int n, ilpm_cmp cmp, int64_t k)
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
        TRY(ilpm_enc_card(c, x, n, ILPM_LE, k));
        return ilpm_enc_card(c, x, n, ILPM_GE, k);
    }
    if (cmp == ILPM_LE)
        return ilpm_enc_seq_le(c, x, n, (int)k);
    int *neg = negated(x, n);
    if (!neg)
        return E_NOMEM;
    int st = ilpm_enc_seq_le(c, neg, n, n - (int)k);
    free(neg);
    return st;
}
