/* The Tetravex model.  Every formulation is over X(r,c,k) = a tile of
 * type k on cell (r,c) (identical tiles merged into types, tetravex.c):
 * each cell holds one type, each type k fills exactly mult(k) cells.  The
 * matching rule is stated three ways (--formulation):
 *  - assign (default): support clauses, X(c,k) -> OR of the compatible
 *    types on the neighbouring cell, in both directions;
 *  - conflict: X(c,k) + X(c',k') <= 1 for every incompatible pair, the
 *    direct SAT encoding;
 *  - edges: a digit per inner edge (AUX families EH, EV) channelled
 *    both ways to the tiles on its two cells; grows with the digits,
 *    not with pairs of tiles.
 * On GLPK, assign states the rule as a digit balance instead (balance
 * below), as the support clauses make a large, slow LP.
 * --diag adds a redundant rule over 2x2 blocks to any of them, --redundant
 * a digit balance across every column and row boundary.  How they
 * compare, and why each is stated as it is: docs/tetravex.md. */
#include "tetravex.h"

#include <stdlib.h>
#include <string.h>

const char *const ilpm_tvx_formulations[] = {"assign", "conflict", "edges",
                                             NULL};
enum { ASSIGN, CONFLICT, EDGES };

struct builder {
    const tetravex *tv;
    ilpm_model *m;
    int X;          /* X[r,c,k], all 1-based */
    int *lits;      /* room for max(ntiles, 2 ntypes) + 1 literals */
    int64_t *coefs; /* as many coefficients */
    ilpm_err *err;
    int EH, EV;   /* edges: the digit on each inner edge, E[r,c,d] */
    int dlo, dhi; /* the digits the tiles show                     */
};

static int xv(const struct builder *b, int cell, int k)
{
    int n = b->tv->n;
    return ilpm_model_var(b->m, b->X, cell / n + 1, cell % n + 1, k + 1, 0);
}

static int side_of(const tetravex *tv, int k, int s)
{
    return tv->side[tv->rep[k]][s];
}

/* Can a tile of type k sit next to one of type k2, with k's side s
 * against k2's opposite side?  Not a tile beside itself. */
static int fits(const tetravex *tv, int k, int s, int k2)
{
    if (k == k2 && tv->mult[k] < 2)
        return 0;
    return side_of(tv, k, s) == side_of(tv, k2, (s + 2) % 4);
}

/* Each cell one type; each type on mult(k) cells (the report's
 * all-different, counted per type). */
static int add_assignment(struct builder *b)
{
    const tetravex *tv = b->tv;
    int cells = tv->n * tv->n, rc = 0;
    rc = ilpm_model_group(b->m, "cell", b->err) < 0;
    for (int c = 0; c < cells && !rc; c++) {
        for (int k = 0; k < tv->ntypes; k++)
            b->lits[k] = xv(b, c, k);
        rc = ilpm_add_exo(b->m, b->lits, tv->ntypes, b->err);
    }
    rc = rc || ilpm_model_group(b->m, "tile", b->err) < 0;
    for (int k = 0; k < tv->ntypes && !rc; k++) {
        for (int c = 0; c < cells; c++)
            b->lits[c] = xv(b, c, k);
        rc = tv->mult[k] == 1 ? ilpm_add_exo(b->m, b->lits, cells, b->err)
                              : ilpm_add_card(b->m, b->lits, cells, ILPM_EQ,
                                              tv->mult[k], b->err);
    }
    return rc ? -1 : 0;
}

/* A rule on one pair of touching cells: c, and c2 beside it on its side
 * s (RIGHT or DOWN). */
typedef int pair_rule(struct builder *b, int c, int c2, int s);

/* Every pair of touching cells along side s (RIGHT or DOWN). */
static int add_pairs(struct builder *b, int s, pair_rule *rule)
{
    int n = b->tv->n, rc = 0;
    for (int c = 0; c < n * n && !rc; c++)
        if (s == RIGHT ? c % n < n - 1 : c / n < n - 1)
            rc = rule(b, c, s == RIGHT ? c + 1 : c + n, s);
    return rc ? -1 : 0;
}

/* assign: support clauses for the pair: X(c,k) -> OR of X(c2,k2) over
 * the types k2 that fit, a unit clause when none does; and the same from
 * c2 back to c.  The backward clauses follow from the forward ones and
 * exactly one type per cell, but they pay: measured on random boards,
 * both GLPK and CaDiCaL solve faster with them (figures in
 * docs/benchmarks.md). */
static int support(struct builder *b, int c, int c2, int s)
{
    const tetravex *tv = b->tv;
    int K = tv->ntypes, rc = 0;
    for (int dir = 0; dir < 2 && !rc; dir++) {
        int from = dir ? c2 : c, to = dir ? c : c2;
        int fs = dir ? (s + 2) % 4 : s;
        for (int k = 0; k < K && !rc; k++) {
            int len = 0;
            b->lits[len++] = -xv(b, from, k);
            for (int k2 = 0; k2 < K; k2++)
                if (fits(tv, k, fs, k2))
                    b->lits[len++] = xv(b, to, k2);
            rc = ilpm_add_clause(b->m, b->lits, len, b->err);
        }
    }
    return rc ? -1 : 0;
}

/* assign on GLPK: for every digit d, as many tiles showing d on c's side
 * s as tiles showing d on c2's opposite side.  With one type per cell
 * this is the matching rule itself, in 10 rows a pair where the support
 * clauses take 2 ntypes; measured on random boards, GLPK solves 6x6
 * boards in seconds with it and times out with the clauses (figures in
 * docs/benchmarks.md).  CaDiCaL keeps the clauses, which propagate. */
static int balance(struct builder *b, int c, int c2, int s)
{
    const tetravex *tv = b->tv;
    int K = tv->ntypes, rc = 0;
    for (int d = 0; d <= 9 && !rc; d++) {
        int len = 0;
        for (int k = 0; k < K; k++) {
            if (side_of(tv, k, s) == d) {
                b->lits[len] = xv(b, c, k);
                b->coefs[len++] = 1;
            }
            if (side_of(tv, k, (s + 2) % 4) == d) {
                b->lits[len] = xv(b, c2, k);
                b->coefs[len++] = -1;
            }
        }
        if (len)
            rc = ilpm_add_linear(b->m, b->coefs, b->lits, len, ILPM_EQ, 0,
                                 b->err);
    }
    return rc ? -1 : 0;
}

/* conflict: not both of an incompatible pair on the two cells. */
static int conflicts(struct builder *b, int c, int c2, int s)
{
    const tetravex *tv = b->tv;
    int K = tv->ntypes, rc = 0;
    for (int k = 0; k < K && !rc; k++)
        for (int k2 = 0; k2 < K && !rc; k2++) {
            /* k beside itself with one copy: the tile group forbids it
             * already. */
            if (fits(tv, k, s, k2) || (k == k2 && tv->mult[k] < 2))
                continue;
            int pair[2] = {xv(b, c, k), xv(b, c2, k2)};
            rc = ilpm_add_amo(b->m, pair, 2, b->err);
        }
    return rc ? -1 : 0;
}

/* edges: one digit per inner edge, from the digits the tiles show.  The
 * edge variables are AUX: the tiles fix them. */
static int add_edge_digits(struct builder *b)
{
    const tetravex *tv = b->tv;
    int n = tv->n, rc = 0;
    b->dlo = 9;
    b->dhi = 0;
    for (int t = 0; t < tv->ntiles; t++)
        for (int s = 0; s < 4; s++) {
            b->dlo = tv->side[t][s] < b->dlo ? tv->side[t][s] : b->dlo;
            b->dhi = tv->side[t][s] > b->dhi ? tv->side[t][s] : b->dhi;
        }
    int lo[3] = {1, 1, b->dlo}, hih[3] = {n, n - 1, b->dhi},
        hiv[3] = {n - 1, n, b->dhi};
    b->EH = ilpm_model_family(b->m, "EH", 3, lo, hih, ILPM_FAM_AUX, b->err);
    b->EV = b->EH < 0 ? -1
                      : ilpm_model_family(b->m, "EV", 3, lo, hiv, ILPM_FAM_AUX,
                                          b->err);
    if (b->EV < 0)
        return -1;
    rc = ilpm_model_group(b->m, "edge", b->err) < 0;
    for (int e = 0; e < 2 && !rc; e++) {
        int fam = e ? b->EV : b->EH, rows = e ? n - 1 : n, cols = e ? n : n - 1;
        for (int r = 1; r <= rows && !rc; r++)
            for (int c = 1; c <= cols && !rc; c++) {
                int len = 0;
                for (int d = b->dlo; d <= b->dhi; d++)
                    b->lits[len++] = ilpm_model_var(b->m, fam, r, c, d, 0);
                rc = ilpm_add_exo(b->m, b->lits, len, b->err);
            }
    }
    return rc ? -1 : 0;
}

/* edges: each tile's side channelled to the edge between the pair:
 * X(c,k) -> E(e, side of k), and back, E(e,d) -> OR of the X(c,k) whose
 * side shows d.  With exactly one digit per edge and one type per cell,
 * the LP relaxation of the pair is then the equality "sum of the X(c,k)
 * showing d = E(e,d)" on both cells; the implications alone leave it
 * loose.  Measured on random boards, the backward clauses make both GLPK
 * and CaDiCaL much faster (figures in docs/benchmarks.md). */
static int channel(struct builder *b, int c, int c2, int s)
{
    const tetravex *tv = b->tv;
    int n = tv->n, K = tv->ntypes, rc = 0;
    int fam = s == RIGHT ? b->EH : b->EV, r = c / n + 1, col = c % n + 1;
    for (int k = 0; k < K && !rc; k++) {
        int ev0 = ilpm_model_var(b->m, fam, r, col, side_of(tv, k, s), 0);
        int ev1 =
            ilpm_model_var(b->m, fam, r, col, side_of(tv, k, (s + 2) % 4), 0);
        rc = ilpm_add_impl(b->m, xv(b, c, k), ev0, b->err) ||
             ilpm_add_impl(b->m, xv(b, c2, k), ev1, b->err);
    }
    for (int d = b->dlo; d <= b->dhi && !rc; d++)
        for (int dir = 0; dir < 2 && !rc; dir++) {
            int len = 0, cell = dir ? c2 : c;
            int fs = dir ? (s + 2) % 4 : s;
            b->lits[len++] = -ilpm_model_var(b->m, fam, r, col, d, 0);
            for (int k = 0; k < K; k++)
                if (side_of(tv, k, fs) == d)
                    b->lits[len++] = xv(b, cell, k);
            rc = ilpm_add_clause(b->m, b->lits, len, b->err);
        }
    return rc ? -1 : 0;
}

/* Tile types by the digits on two of their sides: the types with digit
 * d on side s and e on side t are list[start[10d + e] ..
 * start[10d + e + 1]). */
struct by_sides {
    int start[101];
    int *list;
};

static int by_sides_init(struct by_sides *x, const tetravex *tv, int s, int t)
{
    int K = tv->ntypes;
    memset(x->start, 0, sizeof x->start);
    if (!(x->list = malloc((size_t)K * sizeof *x->list)))
        return -1;
    for (int k = 0; k < K; k++)
        x->start[10 * side_of(tv, k, s) + side_of(tv, k, t) + 1]++;
    for (int i = 0; i < 100; i++)
        x->start[i + 1] += x->start[i];
    int fill[100];
    memcpy(fill, x->start, sizeof fill);
    for (int k = 0; k < K; k++)
        x->list[fill[10 * side_of(tv, k, s) + side_of(tv, k, t)]++] = k;
    return 0;
}

/* Is there a 2x2 block with type a on one diagonal cell and b on the
 * other?  dir 0: a top-left, b bottom-right, completed by k1 top-right
 * (left = a's right, down = b's up) and k2 bottom-left (up = a's down,
 * right = b's left).  dir 1: a top-right, b bottom-left, completed by k1
 * top-left (right = a's left, down = b's up) and k2 bottom-right (up =
 * a's down, left = b's right).  Copies are counted: the four tiles of
 * the block must exist as distinct tiles.  m1 and m2 index the types by
 * the two sides k1 and k2 must match. */
static int diag_fits(const tetravex *tv, const struct by_sides *m1,
                     const struct by_sides *m2, int a, int b, int dir)
{
    int s1a = dir ? LEFT : RIGHT, s1b = UP;   /* a's and b's sides at k1 */
    int s2a = DOWN, s2b = dir ? RIGHT : LEFT; /* and at k2               */
    int i1 = 10 * side_of(tv, a, s1a) + side_of(tv, b, s1b);
    int i2 = 10 * side_of(tv, a, s2a) + side_of(tv, b, s2b);
    for (int p = m1->start[i1]; p < m1->start[i1 + 1]; p++)
        for (int q = m2->start[i2]; q < m2->start[i2 + 1]; q++) {
            int ks[4] = {a, b, m1->list[p], m2->list[q]}, ok = 1;
            for (int i = 0; i < 4 && ok; i++) {
                int used = 0;
                for (int j = 0; j < 4; j++)
                    used += ks[j] == ks[i];
                ok = used <= tv->mult[ks[i]];
            }
            if (ok)
                return 1;
        }
    return 0;
}

/* Diagonal supports: in every 2x2 block, a type on one cell of a
 * diagonal needs a type on the other cell that some block completes;
 * X(c,a) -> OR of those X(c'',b), both ways, both diagonals.  Redundant
 * (the tiles and their neighbours imply it), but unit propagation on
 * the binary supports alone does not see it. */
static int add_diag(struct builder *b)
{
    const tetravex *tv = b->tv;
    int n = tv->n, K = tv->ntypes, rc = 0;
    uint8_t *fit = malloc((size_t)K * (size_t)K * 2);
    /* k1 matches on its (opposite of s1a, DOWN), k2 on (UP, opposite of
     * s2b): see diag_fits */
    struct by_sides m1[2] = {{{0}, NULL}, {{0}, NULL}};
    struct by_sides m2[2] = {{{0}, NULL}, {{0}, NULL}};
    int oom = !fit;
    for (int dir = 0; dir < 2 && !oom; dir++)
        oom = by_sides_init(&m1[dir], tv, dir ? RIGHT : LEFT, DOWN) != 0 ||
              by_sides_init(&m2[dir], tv, UP, dir ? LEFT : RIGHT) != 0;
    if (oom) {
        for (int dir = 0; dir < 2; dir++) {
            free(m1[dir].list);
            free(m2[dir].list);
        }
        free(fit);
        return ilpm_err_nomem(b->err, "out of memory");
    }
    for (int dir = 0; dir < 2; dir++) {
        for (int a = 0; a < K; a++)
            for (int k = 0; k < K; k++)
                fit[(dir * K + a) * K + k] =
                    (uint8_t)diag_fits(tv, &m1[dir], &m2[dir], a, k, dir);
        free(m1[dir].list);
        free(m2[dir].list);
    }
    rc = ilpm_model_group(b->m, "diag", b->err) < 0;
    for (int r = 0; r + 1 < n && !rc; r++)
        for (int c = 0; c + 1 < n && !rc; c++)
            for (int dir = 0; dir < 2 && !rc; dir++) {
                int ca = dir ? r * n + c + 1 : r * n + c;
                int cb = dir ? (r + 1) * n + c : (r + 1) * n + c + 1;
                for (int back = 0; back < 2 && !rc; back++)
                    for (int k = 0; k < K && !rc; k++) {
                        int len = 0;
                        b->lits[len++] = -xv(b, back ? cb : ca, k);
                        for (int k2 = 0; k2 < K; k2++)
                            if (back ? fit[(dir * K + k2) * K + k]
                                     : fit[(dir * K + k) * K + k2])
                                b->lits[len++] = xv(b, back ? ca : cb, k2);
                        rc = ilpm_add_clause(b->m, b->lits, len, b->err);
                    }
            }
    free(fit);
    return rc ? -1 : 0;
}

/* --redundant: which line (column, or row) each tile lies on, as AUX
 * variables L(t,j) over the tiles' slots t: L(base(k)+m, j) says that
 * line j holds more than m tiles of type k (so that a board has one L),
 * and across every boundary between lines j and j+1, for
 * every digit d, as many tiles of line j show d on the boundary as tiles
 * of line j+1 do (the two sides are the same multiset of digits).  The
 * pairs imply it; stated over the lines it is a relaxation of its own
 * (which tiles go to which column) that propagation and search can
 * refute before any tile has its cell. */
struct lines {
    int fam, e;      /* L's family; e 0: columns, 1: rows */
    const int *base; /* base[k]: type k's first slot, 0-based */
};

static int lv(const struct builder *b, const struct lines *l, int slot, int j)
{
    return ilpm_model_var(b->m, l->fam, slot + 1, j + 1, 0, 0);
}

/* L channelled to X: the copies of type k on line j, counted. */
static int line_channel(struct builder *b, const struct lines *l, int k, int j)
{
    const tetravex *tv = b->tv;
    int n = tv->n, len = 0, rc = 0, base = l->base[k];
    for (int i = 0; i < n; i++) {
        b->lits[len] = xv(b, l->e ? j * n + i : i * n + j, k);
        b->coefs[len++] = 1;
    }
    for (int m = 0; m < tv->mult[k]; m++) {
        b->lits[len] = lv(b, l, base + m, j);
        b->coefs[len++] = -1;
        if (m)
            rc = rc || ilpm_add_impl(b->m, lv(b, l, base + m, j),
                                     lv(b, l, base + m - 1, j), b->err);
    }
    if (tv->mult[k] > 1)
        return rc || ilpm_add_linear(b->m, b->coefs, b->lits, len, ILPM_EQ, 0,
                                     b->err)
                   ? -1
                   : 0;
    /* one copy: X(c,k) -> L(k,j) on each cell of the line, and back */
    for (int i = 0; i < n && !rc; i++)
        rc = ilpm_add_impl(b->m, b->lits[i], b->lits[n], b->err);
    b->lits[n] = -b->lits[n];
    return rc || ilpm_add_clause(b->m, b->lits, n + 1, b->err) ? -1 : 0;
}

/* Each type's copies on the lines, n tiles a line. */
static int line_counts(struct builder *b, const struct lines *l)
{
    const tetravex *tv = b->tv;
    int n = tv->n, rc = 0;
    for (int k = 0; k < tv->ntypes && !rc; k++) {
        int len = 0, mult = tv->mult[k];
        for (int j = 0; j < n; j++)
            for (int m = 0; m < mult; m++)
                b->lits[len++] = lv(b, l, l->base[k] + m, j);
        rc = mult == 1
                 ? ilpm_add_exo(b->m, b->lits, len, b->err)
                 : ilpm_add_card(b->m, b->lits, len, ILPM_EQ, mult, b->err);
    }
    for (int j = 0; j < n && !rc; j++) {
        for (int t = 0; t < tv->ntiles; t++)
            b->lits[t] = lv(b, l, t, j);
        rc = ilpm_add_card(b->m, b->lits, tv->ntiles, ILPM_EQ, n, b->err);
    }
    return rc ? -1 : 0;
}

/* The digits across the boundary of lines j and j+1. */
static int line_balance(struct builder *b, const struct lines *l, int j, int d)
{
    const tetravex *tv = b->tv;
    int len = 0, s = l->e ? DOWN : RIGHT;
    for (int k = 0; k < tv->ntypes; k++)
        for (int m = 0; m < tv->mult[k]; m++) {
            if (side_of(tv, k, s) == d) {
                b->lits[len] = lv(b, l, l->base[k] + m, j);
                b->coefs[len++] = 1;
            }
            if (side_of(tv, k, (s + 2) % 4) == d) {
                b->lits[len] = lv(b, l, l->base[k] + m, j + 1);
                b->coefs[len++] = -1;
            }
        }
    return len ? ilpm_add_linear(b->m, b->coefs, b->lits, len, ILPM_EQ, 0,
                                 b->err)
               : 0;
}

static int add_lines(struct builder *b, const int *base, int e)
{
    const tetravex *tv = b->tv;
    int n = tv->n, rc = 0;
    int lo[2] = {1, 1}, hi[2] = {tv->ntiles, n};
    struct lines l = {-1, e, base};
    l.fam = ilpm_model_family(b->m, e ? "LR" : "LC", 2, lo, hi, ILPM_FAM_AUX,
                              b->err);
    int g = l.fam < 0 ? -1
                      : ilpm_model_group(b->m, e ? "row_digits" : "col_digits",
                                         b->err);
    if (g < 0)
        return -1;
    /* GLPK goes without: its LP has the balances of the pairs already */
    ilpm_model_set_redundant_in(b->m, g, ILPM_LOWER_ROWS);
    for (int k = 0; k < tv->ntypes && !rc; k++)
        for (int j = 0; j < n && !rc; j++)
            rc = line_channel(b, &l, k, j);
    rc = rc || line_counts(b, &l);
    for (int j = 0; j + 1 < n && !rc; j++)
        for (int d = 0; d <= 9 && !rc; d++)
            rc = line_balance(b, &l, j, d);
    return rc ? -1 : 0;
}

static int add_line_balances(struct builder *b)
{
    const tetravex *tv = b->tv;
    int *base = malloc((size_t)tv->ntypes * sizeof *base), rc = 0;
    if (!base)
        return ilpm_err_nomem(b->err, "out of memory");
    for (int k = 0, t = 0; k < tv->ntypes; t += tv->mult[k++])
        base[k] = t;
    for (int e = 0; e < 2 && !rc; e++)
        rc = add_lines(b, base, e);
    free(base);
    return rc ? -1 : 0;
}

int ilpm_tvx_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                   ilpm_err *err)
{
    const tetravex *tv = inst;
    int form;
    if (ilpm_params_choice(p, ilpm_tvx_opts, "formulation", &form, err) != 0)
        return -1;
    int n = tv->n;
    int lo[3] = {1, 1, 1}, hi[3] = {n, n, tv->ntypes};
    struct builder b = {.tv = tv, .m = m, .X = -1, .err = err};
    b.X = ilpm_model_family(m, "X", 3, lo, hi, 0, err);
    if (b.X < 0)
        return -1;
    /* GLPK: the LP's likeliest tile first; measured on random 6x6 boards
     * (docs/benchmarks.md), up to 10 times faster than most fractional. */
    ilpm_model_set_hint(m, ILPM_HINT_LIKELIEST);
    int cap = (tv->ntiles > 2 * tv->ntypes ? tv->ntiles : 2 * tv->ntypes) + 1;
    /* --redundant: a boundary's two lines, or a type's copies on n lines */
    if (cap < (n + 2) * tv->ntiles + 1)
        cap = (n + 2) * tv->ntiles + 1;
    if (cap < 12)
        cap = 12; /* a digit per edge plus one */
    b.lits = malloc((size_t)cap * sizeof *b.lits);
    b.coefs = malloc((size_t)cap * sizeof *b.coefs);
    if (!b.lits || !b.coefs) {
        free(b.lits);
        free(b.coefs);
        return ilpm_err_nomem(err, "out of memory");
    }
    int rc = add_assignment(&b);
    /* The matching rule, a group per direction.  edges adds nothing to a
     * 1x1 board, which has no inner edge to give a digit. */
    pair_rule *rule = form == ASSIGN     ? support
                      : form == CONFLICT ? conflicts
                                         : channel;
    int pairs = form != EDGES || n >= 2;
    if (!rc && form == EDGES && pairs)
        rc = add_edge_digits(&b);
    for (int e = 0; e < 2 && !rc && pairs; e++) {
        int g = ilpm_model_group(m, e ? "vert" : "horiz", err);
        rc = g < 0 || add_pairs(&b, e ? DOWN : RIGHT, rule);
        if (!rc && form == ASSIGN)
            ilpm_model_set_redundant_in(m, g, ILPM_LOWER_ROWS);
    }
    for (int e = 0; e < 2 && !rc && pairs && form == ASSIGN; e++) {
        int g = ilpm_model_group(m, e ? "vert_balance" : "horiz_balance", err);
        rc = g < 0 || add_pairs(&b, e ? DOWN : RIGHT, balance);
        if (!rc)
            ilpm_model_set_redundant_in(m, g, ILPM_LOWER_CNF);
    }
    if (!rc && ilpm_params_has(p, "diag") && tv->n >= 2)
        rc = add_diag(&b);
    if (!rc && ilpm_params_has(p, "redundant"))
        rc = add_line_balances(&b);
    if (!rc && tv->nfixed)
        rc = ilpm_model_group(m, "fixed", err) < 0;
    for (int t = 0; t < tv->ntiles && !rc; t++)
        if (tv->fixed[t] >= 0) {
            int v = xv(&b, tv->fixed[t], tv->type[t]);
            rc = ilpm_add_clause(m, &v, 1, err);
        }
    free(b.lits);
    free(b.coefs);
    return rc ? -1 : 0;
}
