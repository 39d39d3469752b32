/* The propagation engine (engine.h): assignment, propagation through
 * the counters, undo, and probing within a work budget. */
#include "engine.h"

#include <string.h>

void ilpm_eng_free(engine *e)
{
    free(e->start);
    free(e->lits);
    free(e->cmp);
    free(e->k);
    free(e->ntrue);
    free(e->nfalse);
    free(e->occ_start);
    free(e->occ);
    free(e->val);
    free(e->trail);
}

/* The constraint c as a cardinality constraint; 0 when it does not
 * propagate here. */
static int as_card(const ilpm_con *c, ilpm_cmp *cmp, int64_t *k)
{
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        *cmp = ILPM_GE, *k = 1;
        return 1;
    case ILPM_AMO:
        *cmp = ILPM_LE, *k = 1;
        return 1;
    case ILPM_EXO:
        *cmp = ILPM_EQ, *k = 1;
        return 1;
    case ILPM_IMPL: /* a -> b is the clause (-a | b) */
        *cmp = ILPM_GE, *k = 1;
        return 1;
    case ILPM_CARD:
        *cmp = c->cmp, *k = c->rhs;
        return 1;
    default:
        return 0;
    }
}

static int con_lit(const ilpm_con *c, int i)
{
    return c->kind == ILPM_IMPL && i == 0 ? -c->lits[0] : c->lits[i];
}

int ilpm_eng_init(engine *e, const ilpm_model *m, ilpm_err *err)
{
    memset(e, 0, sizeof *e);
    e->nv = ilpm_model_nvars(m);
    size_t nc = ilpm_model_ncons(m), nlits = 0, ncons = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_cmp cmp;
        int64_t k;
        ilpm_model_con(m, i, &c);
        if (as_card(&c, &cmp, &k)) {
            ncons++;
            nlits += (size_t)c.n;
        }
    }
    size_t nl = 2 * (size_t)e->nv + 2;
    e->ncons = ncons;
    e->start = malloc((ncons + 1) * sizeof *e->start);
    e->lits = malloc((nlits + 1) * sizeof *e->lits);
    e->cmp = malloc(ncons + 1);
    e->k = malloc((ncons + 1) * sizeof *e->k);
    e->ntrue = calloc(ncons + 1, sizeof *e->ntrue);
    e->nfalse = calloc(ncons + 1, sizeof *e->nfalse);
    e->occ_start = calloc(nl + 1, sizeof *e->occ_start);
    e->occ = malloc((nlits + 1) * sizeof *e->occ);
    e->val = calloc((size_t)e->nv + 1, 1);
    e->trail = malloc(((size_t)e->nv + 1) * sizeof *e->trail);
    if (!e->start || !e->lits || !e->cmp || !e->k || !e->ntrue || !e->nfalse ||
        !e->occ_start || !e->occ || !e->val || !e->trail) {
        ilpm_eng_free(e);
        return ilpm_err_nomem(err,
                              "out of memory propagating the fixed literals");
    }
    size_t j = 0, at = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_cmp cmp;
        int64_t k;
        ilpm_model_con(m, i, &c);
        if (!as_card(&c, &cmp, &k))
            continue;
        e->start[j] = at;
        e->cmp[j] = (uint8_t)cmp;
        e->k[j] = k;
        for (int t = 0; t < c.n; t++) {
            int l = con_lit(&c, t);
            e->lits[at++] = l;
            e->occ_start[lix(l) + 1]++;
        }
        j++;
    }
    e->start[ncons] = at;
    for (size_t l = 0; l < nl; l++)
        e->occ_start[l + 1] += e->occ_start[l];
    size_t *fill = malloc((nl + 1) * sizeof *fill);
    if (!fill) {
        ilpm_eng_free(e);
        return ilpm_err_nomem(err,
                              "out of memory propagating the fixed literals");
    }
    memcpy(fill, e->occ_start, (nl + 1) * sizeof *fill);
    for (size_t c = 0; c < ncons; c++)
        for (size_t t = e->start[c]; t < e->start[c + 1]; t++)
            e->occ[fill[lix(e->lits[t])]++] = c;
    free(fill);
    return 0;
}

/* Makes literal l true; -1 when it is false already (a conflict). */
int ilpm_eng_assign(engine *e, int l)
{
    int x = lval(e->val, l);
    if (x == ILPM_LTRUE)
        return 0;
    if (x == ILPM_LFALSE)
        return -1;
    e->val[abs(l)] = l > 0 ? ILPM_LTRUE : ILPM_LFALSE;
    e->trail[e->ntrail++] = l;
    return 0;
}

/* Sets every open literal of constraint c to `to` (ILPM_LTRUE or ILPM_LFALSE).
 */
static int settle(engine *e, size_t c, int to)
{
    for (size_t t = e->start[c]; t < e->start[c + 1]; t++) {
        int l = e->lits[t];
        if (lval(e->val, l) == ILPM_LUNDEF &&
            ilpm_eng_assign(e, to == ILPM_LTRUE ? l : -l) != 0)
            return -1;
    }
    e->work += e->start[c + 1] - e->start[c];
    return 0;
}

/* Checks c after its counters moved: a conflict gives -1; a bound met
 * exactly settles the open literals. */
static int check(engine *e, size_t c)
{
    int64_t n = (int64_t)(e->start[c + 1] - e->start[c]);
    int64_t t = e->ntrue[c], f = e->nfalse[c], k = e->k[c];
    int le = e->cmp[c] != ILPM_GE, ge = e->cmp[c] != ILPM_LE;
    if ((le && t > k) || (ge && n - f < k))
        return -1;
    if (le && t == k && t + f < n)
        return settle(e, c, ILPM_LFALSE);
    if (ge && n - f == k && t + f < n)
        return settle(e, c, ILPM_LTRUE);
    return 0;
}

/* Propagates the trail from qhead; -1 on a conflict. */
int ilpm_eng_propagate(engine *e)
{
    while (e->qhead < e->ntrail) {
        int l = e->trail[e->qhead++];
        size_t p = lix(l), q = lix(-l);
        e->work += e->occ_start[p + 1] - e->occ_start[p] + e->occ_start[q + 1] -
                   e->occ_start[q];
        for (size_t i = e->occ_start[p]; i < e->occ_start[p + 1]; i++)
            e->ntrue[e->occ[i]]++;
        for (size_t i = e->occ_start[q]; i < e->occ_start[q + 1]; i++)
            e->nfalse[e->occ[i]]++;
        for (size_t i = e->occ_start[p]; i < e->occ_start[p + 1]; i++)
            if (check(e, e->occ[i]) != 0)
                return -1;
        for (size_t i = e->occ_start[q]; i < e->occ_start[q + 1]; i++)
            if (check(e, e->occ[i]) != 0)
                return -1;
    }
    return 0;
}

/* Takes back the trail down to mark. */
void ilpm_eng_undo(engine *e, int mark)
{
    while (e->ntrail > mark) {
        int l = e->trail[--e->ntrail];
        if (e->ntrail < e->qhead) {
            size_t p = lix(l), q = lix(-l);
            for (size_t i = e->occ_start[p]; i < e->occ_start[p + 1]; i++)
                e->ntrue[e->occ[i]]--;
            for (size_t i = e->occ_start[q]; i < e->occ_start[q + 1]; i++)
                e->nfalse[e->occ[i]]--;
        }
        e->val[abs(l)] = ILPM_LUNDEF;
    }
    if (e->qhead > mark)
        e->qhead = mark;
}

/* Fixes l for good and propagates; -1 when the model has no solution. */
static int fix(engine *e, int l)
{
    return ilpm_eng_assign(e, l) != 0 || ilpm_eng_propagate(e) != 0 ? -1 : 0;
}

/* Tries l: 1 when its propagation fails, 0 otherwise with the trail
 * kept (the caller undoes it). */
static int try_lit(engine *e, int l)
{
    return ilpm_eng_assign(e, l) != 0 || ilpm_eng_propagate(e) != 0;
}

/* The probing work allowed: a few passes over the model's occurrences,
 * at least enough for a 25x25 Sudoku, at most about a tenth of a second. */
static uint64_t probe_budget(const engine *e)
{
    uint64_t occ = e->start[e->ncons];
    uint64_t b = 64 * occ;
    if (b < 4000000u)
        b = 4000000u;
    return b > 40000000u ? 40000000u : b;
}

/* Tries each of the open literals lits[0..n), one of which holds in
 * every solution: a literal whose propagation fails is ruled out, and a
 * literal that all of them force is fixed.  Failed-literal probing of a
 * variable v is the case (v, -v); clause probing passes the open
 * literals of an at-least-one constraint (on Sudoku's houses, the
 * reasoning of forcing chains).  Returns the number of literals fixed,
 * -1 when the model has no solution. */
static int probe_lits(engine *e, const int *lits, int n, uint32_t *seen,
                      int *hits, uint32_t *stamp, int *both)
{
    ++*stamp;
    for (int i = 0; i < n; i++) {
        int mark = e->ntrail;
        if (try_lit(e, lits[i])) {
            ilpm_eng_undo(e, mark);
            return fix(e, -lits[i]) != 0 ? -1 : 1;
        }
        /* hits[x] = how many of lits[0..i] force x, counted while x has
         * been forced by every one so far */
        for (int t = mark; t < e->ntrail; t++) {
            size_t x = lix(e->trail[t]);
            if (seen[x] != *stamp) {
                seen[x] = *stamp;
                hits[x] = 0;
            }
            if (hits[x] == i)
                hits[x] = i + 1;
        }
        if (i < n - 1) {
            ilpm_eng_undo(e, mark);
            continue;
        }
        int nboth = 0;
        for (int t = mark; t < e->ntrail; t++)
            if (hits[lix(e->trail[t])] == n)
                both[nboth++] = e->trail[t];
        ilpm_eng_undo(e, mark);
        for (int j = 0; j < nboth; j++)
            if (fix(e, both[j]) != 0)
                return -1;
        return nboth;
    }
    return 0;
}

/* Clause probing is tried on at-least-one constraints (clause, ALO, EXO)
 * with up to this many open literals. */
#define MAX_CLAUSE_PROBE 8

/* The open literals of constraint c into open[], when c is an unsatisfied
 * at-least-one with 2..MAX_CLAUSE_PROBE of them; else 0. */
static int clause_open(const engine *e, size_t c, int *open)
{
    if (e->cmp[c] == ILPM_LE || e->k[c] != 1)
        return 0;
    int n = 0;
    for (size_t t = e->start[c]; t < e->start[c + 1]; t++) {
        int x = lval(e->val, e->lits[t]);
        if (x == ILPM_LTRUE)
            return 0;
        if (x == ILPM_LUNDEF) {
            if (n == MAX_CLAUSE_PROBE)
                return 0;
            open[n++] = e->lits[t];
        }
    }
    return n >= 2 ? n : 0;
}

/* Failed-literal probing of every open variable, then, once that finds
 * nothing more, clause probing, in rounds until neither finds anything;
 * -1 when the model has no solution.  It stops early at the work budget
 * or when w (the run's time limit and stop flag, or NULL) fires: what
 * was fixed so far holds all the same. */
int ilpm_eng_probe(engine *e, ilpm_watch *w)
{
    size_t nl = 2 * (size_t)e->nv + 2;
    uint32_t *seen = calloc(nl, sizeof *seen);
    int *hits = calloc(nl, sizeof *hits);
    int *both = malloc(((size_t)e->nv + 1) * sizeof *both);
    if (!seen || !hits || !both) {
        free(seen);
        free(hits);
        free(both);
        return 0; /* probing is optional */
    }
    uint64_t budget = e->work + probe_budget(e);
    uint32_t stamp = 0;
    int rc = 0, found = 1;
    for (int round = 0; found && rc >= 0 && e->work < budget; round++) {
        found = 0;
        for (int v = 1; v <= e->nv && rc >= 0 && e->work < budget &&
                        !(w && ilpm_watch_poll(w, "", NULL));
             v++) {
            size_t occ_v = e->occ_start[lix(-v) + 1] - e->occ_start[lix(v)];
            if (e->val[v] != ILPM_LUNDEF || occ_v == 0)
                continue;
            int both_ways[2] = {v, -v};
            rc = probe_lits(e, both_ways, 2, seen, hits, &stamp, both);
            found += rc > 0 ? rc : 0;
        }
        if (found)
            continue; /* the cheap step first, until it finds nothing */
        for (size_t c = 0; c < e->ncons && rc >= 0 && e->work < budget &&
                           !(w && ilpm_watch_poll(w, "", NULL));
             c++) {
            int open[MAX_CLAUSE_PROBE];
            int n = clause_open(e, c, open);
            rc = n ? probe_lits(e, open, n, seen, hits, &stamp, both) : 0;
            found += rc > 0 ? rc : 0;
        }
    }
    free(seen);
    free(hits);
    free(both);
    return rc < 0 ? -1 : 0;
}

/* The counters start at zero: each constraint is looked at once, which
 * settles the unit clauses (and any cardinality constraint with k = 0 or
 * k = n); propagation goes on from there.  1 on a conflict. */
int ilpm_eng_settle(engine *e)
{
    for (size_t c = 0; c < e->ncons; c++)
        if (check(e, c) != 0 || ilpm_eng_propagate(e) != 0)
            return 1;
    return 0;
}
