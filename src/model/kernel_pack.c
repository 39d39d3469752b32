/* The propagation kernel's rows packed (kernel.h): what the trail fixed
 * taken out of every row for good (ilpm_kern_compact, after the givens
 * settled), and the rows added last taken off again (ilpm_kern_truncate,
 * the learned rows of cp's cutting-planes analysis). */
#include "kernel.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 1 when x holds whatever its open literals become: its condition false,
 * or its >= side met and its <= side unable to fail. */
static int holds_for_good(const ilpm_kern *e, const ilpm_kcon *x)
{
    if (x->cond && ilpm_klval(e->val, x->cond) == ILPM_K_FALSE)
        return 1;
    return (!x->ge || x->st >= x->k) && (!x->le || x->total - x->sf <= x->k);
}

/* Constraint x without the terms the trail fixed, k moved by the weight
 * of the true ones; with no term at all when it holds for good. */
static void compact_con(ilpm_kern *e, ilpm_kcon *x)
{
    int gone = holds_for_good(e, x), n = 0;
    int *l = e->lits + x->start;
    int64_t *a = x->unit ? NULL : e->coefs + x->cstart;
    for (int i = 0; i < x->n && !gone; i++)
        if (ilpm_klval(e->val, l[i]) == ILPM_K_OPEN) {
            l[n] = l[i];
            if (a)
                a[n] = a[i];
            n++;
        }
    x->n = n;
    x->k = gone ? 0 : x->k - x->st;
    x->total = gone ? 0 : x->total - x->st - x->sf;
    x->cond = gone ? 0 : x->cond;
    x->st = x->sf = 0;
}

/* The constraints kept, numbered anew in their order (renum), their
 * terms packed at the front of lits and coefs. */
static void pack_cons(ilpm_kern *e, int *renum)
{
    int j = 0;
    size_t at = 0, cat = 0;
    for (int c = 0; c < e->ncons; c++) {
        ilpm_kcon x = e->cons[c];
        renum[c] = x.n > 0 ? j : -1;
        if (x.n == 0)
            continue;
        memmove(e->lits + at, e->lits + x.start, (size_t)x.n * sizeof *e->lits);
        if (!x.unit) {
            memmove(e->coefs + cat, e->coefs + x.cstart,
                    (size_t)x.n * sizeof *e->coefs);
            x.cstart = cat;
            cat += (size_t)x.n;
        }
        x.start = at;
        at += (size_t)x.n;
        e->cons[j++] = x;
    }
    e->ncons = j;
    e->nlits = at;
    e->ncoefs = cat;
}

/* List p with the occurrences of the constraints kept, renumbered; a
 * list in the arena moves to *at, where the lists before it ended (they
 * were laid out in this order, so it only moves down). */
static void pack_list(ilpm_kern *e, ilpm_klist *p, const int *renum,
                      ilpm_kocc **at)
{
    ilpm_kocc *v = ilpm_klist_v(e, *p);
    int32_t *a = ilpm_klist_a(e, *p);
    int j = 0;
    for (int i = 0; i < p->n; i++)
        if (renum[v[i].c] >= 0) {
            if (a)
                a[j] = a[i];
            v[j++].c = renum[v[i].c];
        }
    p->n = j;
    if (!at)
        return;
    /* a moved list's base follows, so that its neighbour's room ends
     * where that neighbour's own occurrences now do */
    uint32_t here = (uint32_t)(*at - e->pool);
    if (p->at & ILPM_KMOVED) {
        e->moved[p->at & ~ILPM_KMOVED].base = here;
        return;
    }
    memmove(*at, v, (size_t)j * sizeof **at);
    if (a)
        memmove(e->pa + here, a, (size_t)j * sizeof *a);
    p->at = here;
    *at += j;
}

/* lits made the kernel's own (a copy of the model's, lent): 0, or -1
 * when out of memory. */
static int own_lits(ilpm_kern *e)
{
    if (e->lits != e->lent)
        return 0;
    int *l = malloc((e->nlits + 1) * sizeof *l);
    if (!l)
        return -1;
    memcpy(l, e->lits, e->nlits * sizeof *l);
    e->lits = l;
    e->caplits = e->nlits + 1;
    return 0;
}

void ilpm_kern_compact(ilpm_kern *e, int *renum)
{
    /* (out of memory for its own literals, nothing is compacted) */
    if (e->ntrail == 0 || own_lits(e) != 0) {
        for (int c = 0; c < e->ncons; c++)
            renum[c] = c;
        return;
    }
    for (int c = 0; c < e->ncons; c++)
        compact_con(e, &e->cons[c]);
    size_t nl = 2 * (size_t)e->nv + 2;
    for (int v = 1; v <= e->nv; v++)
        if (e->val[v] != ILPM_K_OPEN) { /* never assigned again */
            e->occ[ilpm_kidx(e, v)].n = 0;
            e->occ[ilpm_kidx(e, -v)].n = 0;
        }
    /* The lists first: pack_cons reuses the old numbers' places. */
    int ncons = e->ncons;
    for (int c = 0, j = 0; c < ncons; c++)
        renum[c] = e->cons[c].n > 0 ? j++ : -1;
    ilpm_kocc *at = e->pool;
    for (size_t i = 0; i < nl; i++)
        pack_list(e, &e->occ[i], renum, &at);
    e->neg_unplaced = 0; /* (every list placed anew, in order) */
    for (size_t i = 0; e->cocc && i < nl; i++)
        pack_list(e, &e->cocc[i], renum, NULL);
    pack_cons(e, renum);
    /* What the trail holds is the model's, no constraint's any more. */
    for (int t = 0; e->reason && t < e->ntrail; t++)
        e->reason[abs(e->trail[t])] = ILPM_K_DECIDED;
}

void ilpm_kern_truncate(ilpm_kern *e, int n)
{
    while (e->ncons > n) {
        int c = e->ncons - 1;
        const ilpm_kcon *x = &e->cons[c];
        const int *l = e->lits + x->start;
        /* c's occurrences are the last of their lists: added last */
        for (int i = 0; i < x->n; i++) {
            ilpm_klist *p = &e->occ[ilpm_kidx(e, l[i])];
            const ilpm_kocc *v = ilpm_klist_v(e, *p);
            const int32_t *a = ilpm_klist_a(e, *p);
            while (p->n > 0 && v[p->n - 1].c == c) {
                if (a && a[p->n - 1] < 0)
                    e->nbig--;
                p->n--;
            }
        }
        e->nlits = x->start;
        if (!x->unit)
            e->ncoefs = x->cstart;
        e->dirty[c] = 0;
        e->ncons--;
    }
}
