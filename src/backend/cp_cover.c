/* The cp back end's count by exact cover (cp.h;
 * docs/cp.md#counting-by-exact-cover): Knuth's Algorithm X over bitsets, for a
 * count whose open rows, once the root is propagated, are all "sum = 1"
 * (primary columns) and "sum <= 1" (secondary columns) over positive literals
 * of open puzzle variables. The candidates are the open variables, a set of
 * them w words; a node takes the open primary column with the fewest live
 * candidates (first fail, as the depth-first search does over its
 * exactly-ones), and each live candidate of it in turn: live' = live &
 * ~conf(i), where conf(i) holds the candidates that share a column with i (i
 * too), and its primary columns covered.  A primary column open with no live
 * candidate is a failure; every primary covered is a solution: the candidates
 * taken are true, every other open variable false.  Every solution is
 * shown to s->fn (decoded and verified) as the depth-first search's are. */
#include "cp.h"

#include <limits.h>
#include <string.h>

_Thread_local uint64_t ilpm_cp_cover_runs;

typedef uint64_t word;

/* Above this many words of candidate sets ((candidates + primary
 * columns) x words a set), or words in one set, the depth-first search
 * counts: a node here costs a word per primary column and word, the
 * propagation kernel's a few words per literal it sets.  At the cap, an
 * empty 16x16 Sudoku (4096 candidates, 64 words) counts its first
 * 100,000 grids in 2.50 s CPU, the depth-first search in 2.78 s. */
#define MAX_WORDS (1u << 22)
#define MAX_SET_WORDS 64
/* At most this many clauses checked at each solution (side). */
#define MAX_SIDE 64

enum { ROW_SKIP, ROW_EXO, ROW_AMO, ROW_CLAUSE };

typedef struct cover {
    int n, w;   /* candidates; words in a set of them */
    int np, pw; /* primary columns; words in a set of them */
    int *var;   /* candidate i's variable */
    int *idx;   /* variable v's candidate, or -1 */
    word *col;  /* np sets: primary column c's candidates */
    int *lo;    /* column c's candidates lie in words [lo[c], lo[np + c]) */
    word *conf; /* n sets: the candidates sharing a column with i, i too */
    word *pc;   /* n column sets: i's primary columns */
    int *npc;   /* how many */
    uint8_t *kind;
    word *root; /* the candidates live at the root */
    /* clauses that neither a primary column implies nor narrows the
     * root with, checked at each solution: side[2j] their positive
     * literals' candidates, side[2j + 1] their negative ones' */
    word *side, *taken;
    int nside;
    /* the search's stack, a level per candidate taken (np + 1) */
    word *live, *cov, *untried;
    int *chosen, *ncov, *tlo, *thi;
} cover;

static void cover_free(cover *c)
{
    free(c->var);
    free(c->idx);
    free(c->col);
    free(c->lo);
    free(c->conf);
    free(c->pc);
    free(c->npc);
    free(c->kind);
    free(c->root);
    free(c->side);
    free(c->taken);
    free(c->live);
    free(c->cov);
    free(c->untried);
    free(c->chosen);
    free(c->ncov);
    free(c->tlo);
    free(c->thi);
}

/* Row r as the cover sees it: skipped (it holds whatever the open
 * variables become), a primary or secondary column, a clause, or -1 when
 * the cover cannot take it (a weight, a condition, a bound other than 1,
 * a negative open literal but in a clause, an open auxiliary
 * variable). */
static int classify(const cp_search *s, int r)
{
    const ilpm_kern *e = s->e;
    const ilpm_kcon *x = &e->cons[r];
    /* the weights of the open terms, and the bound left */
    int64_t open = x->total - x->st - x->sf, k = x->k - x->st;
    int le = x->le && k < open, ge = x->ge && k > 0;
    if (!le && !ge) /* met whatever the rest becomes (an objective) */
        return ROW_SKIP;
    if (!x->unit || x->cond)
        return -1;
    const int *lits = e->lits + x->start;
    int neg = 0;
    for (int i = 0; i < x->n; i++)
        if (e->val[abs(lits[i])] == ILPM_K_OPEN) {
            if (s->aux[abs(lits[i])])
                return -1;
            neg |= lits[i] < 0;
        }
    if (k != 1)
        return -1;
    if (le)
        return neg ? -1 : ge ? ROW_EXO : ROW_AMO;
    return ge ? ROW_CLAUSE : ROW_SKIP;
}

/* The candidates of row r's open positive literals as a set into out,
 * its negative ones' into neg unless NULL (w words each, zeroed first);
 * 1 when a variable occurs twice (x + x <= 1 is no column), else 0. */
static int row_set(const cover *c, const ilpm_kern *e, int r, word *out,
                   word *neg)
{
    int twice = 0;
    const ilpm_kcon *x = &e->cons[r];
    memset(out, 0, (size_t)c->w * sizeof *out);
    if (neg)
        memset(neg, 0, (size_t)c->w * sizeof *neg);
    for (int i = 0; i < x->n; i++) {
        int l = e->lits[x->start + (size_t)i], v = abs(l);
        if (e->val[v] != ILPM_K_OPEN)
            continue;
        word *set = l < 0 && neg ? neg : out, bit = (word)1 << (c->idx[v] & 63);
        twice |= (set[c->idx[v] >> 6] & bit) != 0;
        set[c->idx[v] >> 6] |= bit;
    }
    return twice;
}

/* The rows classified, the candidates numbered: 0 when the cover takes
 * the model, -1 when not (or out of memory). */
static int cover_scan(cover *c, const cp_search *s, const uint8_t *implied,
                      int nimplied)
{
    const ilpm_kern *e = s->e;
    c->kind = malloc((size_t)e->ncons + 1);
    c->idx = malloc(((size_t)e->nv + 1) * sizeof *c->idx);
    c->var = malloc(((size_t)e->nv + 1) * sizeof *c->var);
    if (!c->kind || !c->idx || !c->var)
        return -1;
    for (int r = 0; r < e->ncons; r++) {
        int k = r < nimplied && implied[r] ? ROW_SKIP : classify(s, r);
        if (k < 0)
            return -1;
        c->kind[r] = (uint8_t)k;
        c->np += k == ROW_EXO;
    }
    for (int v = 1; v <= e->nv; v++) {
        c->idx[v] = e->val[v] == ILPM_K_OPEN ? c->n : -1;
        if (c->idx[v] >= 0)
            c->var[c->n++] = v;
    }
    c->w = (c->n + 63) / 64;
    c->pw = (c->np + 63) / 64;
    if (c->np == 0 || c->w > MAX_SET_WORDS ||
        (uint64_t)(c->n + c->np) * (uint64_t)c->w > MAX_WORDS)
        return -1;
    return 0;
}

static int cover_alloc(cover *c)
{
    size_t w = (size_t)c->w, pw = (size_t)c->pw, n = (size_t)c->n;
    size_t np = (size_t)c->np, lv = np + 1;
    c->col = calloc(np * w, sizeof *c->col);
    c->lo = malloc(2 * np * sizeof *c->lo);
    c->conf = calloc(n * w, sizeof *c->conf);
    c->pc = calloc(n * pw, sizeof *c->pc);
    c->npc = calloc(n, sizeof *c->npc);
    c->root = malloc(w * sizeof *c->root);
    c->taken = malloc(w * sizeof *c->taken);
    c->live = malloc(lv * w * sizeof *c->live);
    c->cov = malloc(lv * pw * sizeof *c->cov);
    c->untried = malloc(lv * w * sizeof *c->untried);
    c->chosen = malloc(lv * sizeof *c->chosen);
    c->ncov = malloc(lv * sizeof *c->ncov);
    c->tlo = malloc(lv * sizeof *c->tlo);
    c->thi = malloc(lv * sizeof *c->thi);
    return c->col && c->lo && c->conf && c->pc && c->npc && c->root &&
                   c->taken && c->live && c->cov && c->untried && c->chosen &&
                   c->ncov && c->tlo && c->thi
               ? 0
               : -1;
}

/* Every column into the candidates' conflicts, the primary ones into
 * col and pc.  0, or -1 when the cover does not take the model (a
 * candidate in no primary column is free of the exactly-ones: the cover
 * would count it false only). */
static int fill_columns(cover *c, const ilpm_kern *e, word *set)
{
    size_t w = (size_t)c->w, pw = (size_t)c->pw;
    for (int r = 0, p = 0; r < e->ncons; r++) {
        if (c->kind[r] != ROW_EXO && c->kind[r] != ROW_AMO)
            continue;
        int prim = c->kind[r] == ROW_EXO;
        word *cs = prim ? c->col + (size_t)p * w : set;
        if (row_set(c, e, r, cs, NULL))
            return -1;
        for (size_t j = 0; j < w; j++)
            for (word b = cs[j]; b; b &= b - 1) {
                size_t i = j * 64 + (size_t)__builtin_ctzll(b);
                for (size_t t = 0; t < w; t++)
                    c->conf[i * w + t] |= cs[t];
                if (prim) {
                    c->pc[i * pw + (size_t)p / 64] |= (word)1 << (p & 63);
                    c->npc[i]++;
                }
            }
        if (prim) {
            int lo = 0, hi = c->w;
            while (lo < hi && !cs[lo])
                lo++;
            while (hi > lo && !cs[hi - 1])
                hi--;
            c->lo[p] = lo;
            c->lo[c->np + p++] = hi;
        }
    }
    for (int i = 0; i < c->n; i++)
        if (c->npc[i] == 0)
            return -1;
    return 0;
}

/* How a clause over positive literals pos meets primary column q: 2
 * when q lies within it (q's exactly-one implies it), 1 when it lies
 * within q (q's candidates outside it are false), else 0. */
static int meets(const cover *c, int q, const word *pos)
{
    const word *cm = c->col + (size_t)q * (size_t)c->w;
    word out = 0, in = 0;
    for (int t = 0; t < c->w; t++) {
        out |= cm[t] & ~pos[t];
        in |= pos[t] & ~cm[t];
    }
    return !out ? 2 : !in ? 1 : 0;
}

/* The clauses: implied by a primary column within them (Langford's
 * symmetry clause for odd n, once the root is propagated), or, within
 * a primary column, the rest of it false at the root (n-Queens' for even
 * n), or else checked at each solution (at most MAX_SIDE).  0, or -1
 * out of memory or past MAX_SIDE. */
static int fill_clauses(cover *c, const ilpm_kern *e, word *pos, word *neg)
{
    size_t w = (size_t)c->w;
    memset(c->root, 0, w * sizeof *c->root);
    for (int i = 0; i < c->n; i++)
        c->root[i >> 6] |= (word)1 << (i & 63);
    for (int r = 0; r < e->ncons; r++) {
        if (c->kind[r] != ROW_CLAUSE)
            continue;
        (void)row_set(c, e, r, pos, neg); /* a clause: x | x is x */
        int how = 0, q = 0, any = 0;
        for (size_t t = 0; t < w; t++)
            any |= neg[t] != 0;
        for (; q < c->np && !any && how < 2; q++) {
            int h = meets(c, q, pos);
            if (h == 1 && how == 0) {
                const word *cm = c->col + (size_t)q * w;
                for (size_t t = 0; t < w; t++)
                    c->root[t] &= ~(cm[t] & ~pos[t]);
            }
            how = h > how ? h : how;
        }
        if (how)
            continue;
        if (c->nside == MAX_SIDE)
            return -1;
        if (!c->side && !(c->side = malloc(2 * MAX_SIDE * w * sizeof *pos)))
            return -1;
        memcpy(c->side + 2 * (size_t)c->nside * w, pos, w * sizeof *pos);
        memcpy(c->side + (2 * (size_t)c->nside++ + 1) * w, neg,
               w * sizeof *neg);
    }
    return 0;
}

static int cover_fill(cover *c, const ilpm_kern *e)
{
    word *set = malloc(2 * (size_t)c->w * sizeof *set);
    int rc = !set || fill_columns(c, e, set) != 0 ||
                     fill_clauses(c, e, set, set + c->w) != 0
                 ? -1
                 : 0;
    free(set);
    return rc;
}

/* Where the machine may lack the instruction, pick comes in two builds,
 * one with popcnt (the library's own popcount, a call, took a third of
 * L(2,12)'s time), chosen as the program loads. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef POPCNT_CLONES
#define POPCNT_CLONES
#endif

/* The open primary column with the fewest live candidates at level d,
 * their number into *cnt (0: a failure). */
POPCNT_CLONES static int pick(const cover *c, int d, int *cnt)
{
    const word *live = c->live + (size_t)d * (size_t)c->w;
    const word *cov = c->cov + (size_t)d * (size_t)c->pw;
    int best = -1, bc = INT_MAX;
    for (int j = 0; j < c->pw; j++)
        for (word open = ~cov[j]; open; open &= open - 1) {
            int q = j * 64 + __builtin_ctzll(open);
            const word *cm = c->col + (size_t)q * (size_t)c->w;
            int k = 0;
            for (int t = c->lo[q]; t < c->lo[c->np + q]; t++)
                k += __builtin_popcountll(live[t] & cm[t]);
            if (k < bc) {
                bc = k;
                best = q;
                if (k <= 1)
                    goto out;
            }
        }
out:
    *cnt = bc;
    return best;
}

/* 1 when the candidates taken at levels 0..d-1 satisfy every clause
 * checked at the solutions. */
static int sides_hold(const cover *c, int d)
{
    size_t w = (size_t)c->w;
    memset(c->taken, 0, w * sizeof *c->taken);
    for (int j = 0; j < d; j++)
        c->taken[c->chosen[j] >> 6] |= (word)1 << (c->chosen[j] & 63);
    for (int k = 0; k < c->nside; k++) {
        const word *pos = c->side + 2 * (size_t)k * w, *neg = pos + w;
        word sat = 0;
        for (size_t t = 0; t < w; t++)
            sat |= (pos[t] & c->taken[t]) | (neg[t] & ~c->taken[t]);
        if (!sat)
            return 0;
    }
    return 1;
}

/* A solution: the candidates taken at levels 0..d-1 true.  1 when the
 * count ends (the limit, or fn failed: *st), else 0. */
static int solution(const cover *c, cp_search *s, int d, uint8_t *vals,
                    ilpm_status *st)
{
    if (c->nside && !sides_hold(c, d)) {
        s->fails++;
        return 0;
    }
    s->count++;
    if (s->live)
        *s->live = s->count;
    if (s->fn) {
        for (int j = 0; j < d; j++)
            vals[c->var[c->chosen[j]]] = 1;
        int rc = s->fn(s->ctx, vals);
        for (int j = 0; j < d; j++)
            vals[c->var[c->chosen[j]]] = 0;
        if (rc != 0) {
            *st = ILPM_ERROR;
            return 1;
        }
    }
    if (s->limit && s->count >= s->limit) {
        *st = ILPM_SOLVED;
        return 1;
    }
    return 0;
}

/* The next candidate of level d's column (back to the levels below when
 * it has none left) taken into level d + 1: its new level, -1 when the
 * search is done. */
static int advance(cover *c, int d)
{
    size_t w = (size_t)c->w, pw = (size_t)c->pw;
    for (; d >= 0; d--) {
        word *untried = c->untried + (size_t)d * w;
        int t = c->tlo[d];
        while (t < c->thi[d] && !untried[t])
            t++;
        c->tlo[d] = t;
        if (t == c->thi[d])
            continue;
        int i = t * 64 + __builtin_ctzll(untried[t]);
        untried[t] &= untried[t] - 1;
        c->chosen[d] = i;
        const word *live = c->live + (size_t)d * w, *cf = c->conf + i * w;
        word *nl = c->live + (size_t)(d + 1) * w;
        for (size_t j = 0; j < w; j++)
            nl[j] = live[j] & ~cf[j];
        const word *cov = c->cov + (size_t)d * pw, *p = c->pc + i * pw;
        word *nc = c->cov + (size_t)(d + 1) * pw;
        for (size_t j = 0; j < pw; j++)
            nc[j] = cov[j] | p[j];
        c->ncov[d + 1] = c->ncov[d] + c->npc[i];
        return d + 1;
    }
    return -1;
}

/* The depth-first search over the cover from level 0. */
static ilpm_status cover_search(cover *c, cp_search *s, uint8_t *vals)
{
    size_t w = (size_t)c->w;
    memcpy(c->live, c->root, w * sizeof *c->live);
    memset(c->cov, 0, (size_t)c->pw * sizeof *c->cov);
    if (c->np & 63) /* the last word's bits past np: no column */
        c->cov[c->pw - 1] = ~(word)0 << (c->np & 63);
    c->ncov[0] = 0;
    ilpm_status st = ILPM_SOLVED;
    for (int d = 0; d >= 0;) {
        if ((++s->nodes & 15) == 0 &&
            ilpm_watch_poll(&s->w, "counting", NULL) != 0)
            return (ilpm_status)s->w.status;
        int cnt = 0;
        if (c->ncov[d] == c->np) {
            if (solution(c, s, d, vals, &st))
                return st;
        } else {
            int q = pick(c, d, &cnt);
            if (cnt == 0) {
                s->fails++;
            } else {
                const word *live = c->live + (size_t)d * w;
                const word *cm = c->col + (size_t)q * w;
                word *untried = c->untried + (size_t)d * w;
                c->tlo[d] = c->lo[q];
                c->thi[d] = c->lo[c->np + q];
                for (int t = c->tlo[d]; t < c->thi[d]; t++)
                    untried[t] = live[t] & cm[t];
                d = advance(c, d);
                continue;
            }
        }
        d = advance(c, d - 1);
    }
    s->complete = 1;
    return st;
}

int ilpm_cp_cover_count(cp_search *s, const uint8_t *implied, int nimplied,
                        uint8_t *vals, ilpm_status *st)
{
    cover c;
    memset(&c, 0, sizeof c);
    if (cover_scan(&c, s, implied, nimplied) != 0 || cover_alloc(&c) != 0 ||
        cover_fill(&c, s->e) != 0) {
        cover_free(&c);
        return 0;
    }
    ilpm_cp_cover_runs++;
    const ilpm_kern *e = s->e;
    for (int v = 1; v <= e->nv; v++)
        vals[v] = e->val[v] == ILPM_K_TRUE;
    *st = cover_search(&c, s, vals);
    cover_free(&c);
    return 1;
}
