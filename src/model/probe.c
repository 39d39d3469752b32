/* Probing on the propagation kernel (kernel.h), for the settling of
 * givens before lowering (propagate.c): failed literals and short
 * at-least-one constraints tried within a work budget. */
#include "kernel.h"

#include <stdint.h>
#include <stdlib.h>

/* Fixes l for good and propagates; -1 when the model has no solution. */
static int fix(ilpm_kern *e, int l)
{
    return ilpm_kern_assign(e, l) != 0 || ilpm_kern_propagate(e) != 0 ? -1 : 0;
}

/* Tries l: 1 when its propagation fails, 0 otherwise with the trail
 * kept (the caller undoes it). */
static int try_lit(ilpm_kern *e, int l)
{
    return ilpm_kern_assign(e, l) != 0 || ilpm_kern_propagate(e) != 0;
}

/* The probing work allowed: a few passes over the model's occurrences,
 * at least enough for a 25x25 Sudoku, at most about a tenth of a second.
 * The occurrences counted are those in the lists (as many as the terms,
 * but for the constraints the settling of givens sets aside). */
static uint64_t probe_budget(const ilpm_kern *e)
{
    uint64_t occ = 0;
    for (size_t i = 0; i < 2 * (size_t)e->nv + 2; i++)
        occ += (uint64_t)e->occ[i].n;
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
static int probe_lits(ilpm_kern *e, const int *lits, int n, uint32_t *seen,
                      int *hits, uint32_t *stamp, int *both)
{
    ++*stamp;
    for (int i = 0; i < n; i++) {
        int mark = e->ntrail;
        if (try_lit(e, lits[i])) {
            ilpm_kern_undo(e, mark);
            return fix(e, -lits[i]) != 0 ? -1 : 1;
        }
        /* hits[x] = how many of lits[0..i] force x, counted while x has
         * been forced by every one so far */
        for (int t = mark; t < e->ntrail; t++) {
            size_t x = ilpm_klix(e->trail[t]);
            if (seen[x] != *stamp) {
                seen[x] = *stamp;
                hits[x] = 0;
            }
            if (hits[x] == i)
                hits[x] = i + 1;
        }
        if (i < n - 1) {
            ilpm_kern_undo(e, mark);
            continue;
        }
        int nboth = 0;
        for (int t = mark; t < e->ntrail; t++)
            if (hits[ilpm_klix(e->trail[t])] == n)
                both[nboth++] = e->trail[t];
        ilpm_kern_undo(e, mark);
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
static int clause_open(const ilpm_kern *e, int c, int *open)
{
    const ilpm_kcon *k = &e->cons[c];
    if (!k->ge || k->k != 1 || k->cond || !k->unit)
        return 0;
    int n = 0;
    for (size_t t = k->start; t < k->start + (size_t)k->n; t++) {
        int x = ilpm_klval(e->val, e->lits[t]);
        if (x == ILPM_K_TRUE)
            return 0;
        if (x == ILPM_K_OPEN) {
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
int ilpm_kern_probe(ilpm_kern *e, ilpm_watch *w)
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
            int occ_v = e->occ[ilpm_kidx(e, v)].n + e->occ[ilpm_kidx(e, -v)].n;
            if (e->val[v] != ILPM_K_OPEN || occ_v == 0)
                continue;
            int both_ways[2] = {v, -v};
            rc = probe_lits(e, both_ways, 2, seen, hits, &stamp, both);
            found += rc > 0 ? rc : 0;
        }
        if (found)
            continue; /* the cheap step first, until it finds nothing */
        for (int c = 0; c < e->ncons && rc >= 0 && e->work < budget &&
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
