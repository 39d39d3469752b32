/* The answer as a card player lays it: runs joined end to end, then cut
 * again where that keeps a meld of the table as laid; sets of a rank
 * regrouped to keep laid sets; runs by suit and first rank, then sets by
 * rank.  Only melds ilpm_mach_check_meld accepts are touched, and joining,
 * cutting and regrouping keep them valid, so what verify rejects stays. */
#include "machiavelli.h"

#include <stdlib.h>
#include <string.h>

int ilpm_mach_meld_is_set(const mach_meld *md)
{
    return md->n >= 2 && md->c[0].rank == md->c[1].rank;
}

static int meld_ok(const mach_meld *md, int wrap, int ace_high)
{
    ilpm_err e;
    return ilpm_mach_check_meld(md, 0, wrap, ace_high, &e) == 0;
}

/* The same cards, in any order. */
static int same_cards(const mach_meld *a, const mach_meld *b)
{
    if (a->n != b->n)
        return 0;
    int cnt[NSUITS][NRANKS + 1] = {{0}};
    for (int i = 0; i < a->n; i++) {
        cnt[a->c[i].suit][a->c[i].rank]++;
        cnt[b->c[i].suit][b->c[i].rank]--;
    }
    for (int i = 0; i < a->n; i++)
        if (cnt[a->c[i].suit][a->c[i].rank] != 0)
            return 0;
    return 1;
}

/* An unused laid meld with the same cards as md: its index, or -1. */
static int find_laid(const mach_inst *in, const uint8_t *used,
                     const mach_meld *md)
{
    for (int g = 0; g < in->nlaid; g++)
        if (!used[g] && same_cards(&in->laid[g], md))
            return g;
    return -1;
}

/* The rank a run can go on with, 0 if none. */
static int next_rank(const mach_meld *md, int wrap)
{
    int last = md->c[md->n - 1].rank;
    if (wrap)
        return last % NRANKS + 1;
    if (last == 1) /* the high ace ends a run of two or more */
        return 0;
    return last < NRANKS ? last + 1 : 0;
}

static void remove_meld(mach_sol *sol, int j)
{
    memmove(&sol->melds[j], &sol->melds[j + 1],
            (size_t)(sol->nmelds - j - 1) * sizeof sol->melds[0]);
    sol->nmelds--;
}

/* Joins runs of a suit that follow each other, up to 13 cards. */
static void join_runs(mach_sol *sol, int wrap, int ace_high)
{
    for (int again = 1; again;) {
        again = 0;
        for (int i = 0; i < sol->nmelds && !again; i++) {
            mach_meld *a = &sol->melds[i];
            if (ilpm_mach_meld_is_set(a) || !meld_ok(a, wrap, ace_high))
                continue;
            int nx = next_rank(a, wrap);
            for (int j = 0; j < sol->nmelds && nx && !again; j++) {
                mach_meld *b = &sol->melds[j];
                if (j == i || ilpm_mach_meld_is_set(b) ||
                    b->c[0].suit != a->c[0].suit || b->c[0].rank != nx ||
                    a->n + b->n > NRANKS || !meld_ok(b, wrap, ace_high))
                    continue;
                memcpy(&a->c[a->n], b->c, (size_t)b->n * sizeof b->c[0]);
                a->n += b->n;
                remove_meld(sol, j);
                again = 1;
            }
        }
    }
}

/* Cuts run i into runs of 3 or more so as to keep the most laid runs,
 * then as few pieces as possible. */
static int cut_run(const mach_inst *in, uint8_t *used, mach_sol *sol, int i,
                   ilpm_err *err)
{
    mach_meld run = sol->melds[i];
    int n = run.n, kept[MELD_MAX + 1], parts[MELD_MAX + 1];
    if (n < 3 || n > MELD_MAX)
        return 0;
    int from[MELD_MAX + 1], laid[MELD_MAX + 1];
    for (int b = 0; b <= n; b++)
        kept[b] = b == 0 ? 0 : -1;
    parts[0] = 0;
    for (int b = 3; b <= n; b++)
        for (int a = 0; a + 3 <= b; a++) {
            if (kept[a] < 0)
                continue;
            mach_meld piece = {.n = b - a};
            memcpy(piece.c, &run.c[a], (size_t)(b - a) * sizeof run.c[0]);
            int g = find_laid(in, used, &piece);
            int k = kept[a] + (g >= 0), np = parts[a] + 1;
            if (k > kept[b] || (k == kept[b] && np < parts[b])) {
                kept[b] = k;
                parts[b] = np;
                from[b] = a;
                laid[b] = g;
            }
        }
    if (kept[n] <= 0)
        return 0;
    int first = 1;
    for (int b = n; b > 0; b = from[b]) {
        mach_meld *md = first ? &sol->melds[i] : ilpm_mach_new_meld(sol, err);
        if (!md)
            return -1;
        md->n = b - from[b];
        memcpy(md->c, &run.c[from[b]], (size_t)md->n * sizeof run.c[0]);
        md->kept = laid[b] >= 0 ? laid[b] + 1 : 0;
        if (laid[b] >= 0)
            used[laid[b]] = 1;
        first = 0;
    }
    return 0;
}

/* Whether cards of one rank, cnt[s] of suit s, split into sets: k sets
 * of 3 or 4 different suits with k >= every cnt[s] and 3k <= n <= 4k;
 * returns k (0 for no cards), or -1. */
static int sets_of(const int cnt[NSUITS])
{
    int n = 0, k = 0;
    for (int s = 0; s < NSUITS; s++) {
        n += cnt[s];
        if (cnt[s] > k)
            k = cnt[s];
    }
    if ((n + 3) / 4 > k)
        k = (n + 3) / 4;
    return 3 * k <= n ? k : -1;
}

/* Regroups the sets of each rank to keep laid sets where the rest still
 * splits into sets (dealt suit by suit, round robin, into k sets). */
static int regroup_sets(const mach_inst *in, uint8_t *used, mach_sol *sol,
                        int wrap, int ace_high, ilpm_err *err)
{
    for (int r = 1; r <= NRANKS; r++) {
        int pool[NSUITS] = {0}, take[MAX_LAID], ntake = 0;
        for (int i = 0; i < sol->nmelds; i++) {
            const mach_meld *md = &sol->melds[i];
            if (ilpm_mach_meld_is_set(md) && md->c[0].rank == r && !md->kept &&
                meld_ok(md, wrap, ace_high))
                for (int c = 0; c < md->n; c++)
                    pool[md->c[c].suit]++;
        }
        for (int g = 0; g < in->nlaid; g++) {
            const mach_meld *lm = &in->laid[g];
            if (used[g] || !ilpm_mach_meld_is_set(lm) || lm->c[0].rank != r)
                continue;
            int rest[NSUITS], fits = 1;
            memcpy(rest, pool, sizeof rest);
            for (int c = 0; c < lm->n; c++)
                fits &= --rest[lm->c[c].suit] >= 0;
            if (fits && sets_of(rest) >= 0) {
                memcpy(pool, rest, sizeof pool);
                take[ntake++] = g;
            }
        }
        if (ntake == 0)
            continue;
        for (int i = sol->nmelds - 1; i >= 0; i--) {
            const mach_meld *md = &sol->melds[i];
            if (ilpm_mach_meld_is_set(md) && md->c[0].rank == r && !md->kept &&
                meld_ok(md, wrap, ace_high))
                remove_meld(sol, i);
        }
        for (int t = 0; t < ntake; t++) {
            mach_meld *md = ilpm_mach_new_meld(sol, err);
            if (!md)
                return -1;
            *md = in->laid[take[t]];
            md->kept = take[t] + 1;
            used[take[t]] = 1;
        }
        int k = sets_of(pool), first = sol->nmelds, dealt = 0;
        for (int j = 0; j < k; j++)
            if (!ilpm_mach_new_meld(sol, err))
                return -1;
        for (int s = 0; s < NSUITS; s++)
            for (int j = 0; j < pool[s]; j++, dealt++) {
                mach_meld *md = &sol->melds[first + dealt % k];
                md->c[md->n].suit = (uint8_t)s;
                md->c[md->n].rank = (uint8_t)r;
                md->c[md->n].played = 0;
                md->n++;
            }
    }
    return 0;
}

static int meld_cmp(const void *va, const void *vb)
{
    const mach_meld *a = va, *b = vb;
    int sa = ilpm_mach_meld_is_set(a), sb = ilpm_mach_meld_is_set(b);
    if (sa != sb)
        return sa - sb; /* runs first */
    int ka = sa ? a->c[0].rank : a->c[0].suit * 16 + a->c[0].rank;
    int kb = sb ? b->c[0].rank : b->c[0].suit * 16 + b->c[0].rank;
    if (ka != kb)
        return ka - kb;
    if (a->n != b->n)
        return a->n - b->n;
    for (int i = 0; i < a->n; i++) {
        ka = a->c[i].suit * 16 + a->c[i].rank;
        kb = b->c[i].suit * 16 + b->c[i].rank;
        if (ka != kb)
            return ka - kb;
    }
    return a->kept - b->kept;
}

int ilpm_mach_present(const mach_inst *in, const ilpm_params *p, mach_sol *sol,
                      ilpm_err *err)
{
    int wrap = ilpm_mach_has(p, "wrap"),
        ace_high = ilpm_mach_has(p, "ace-high");
    uint8_t used[MAX_LAID + 1] = {0};
    join_runs(sol, wrap, ace_high);
    for (int i = 0; i < sol->nmelds; i++) {
        int g = find_laid(in, used, &sol->melds[i]);
        if (g >= 0 && meld_ok(&sol->melds[i], wrap, ace_high)) {
            sol->melds[i].kept = g + 1;
            used[g] = 1;
        }
    }
    for (int i = 0, n = sol->nmelds; i < n && in->nlaid > 0; i++) {
        const mach_meld *md = &sol->melds[i];
        if (!md->kept && !ilpm_mach_meld_is_set(md) &&
            meld_ok(md, wrap, ace_high) && cut_run(in, used, sol, i, err) != 0)
            return -1;
    }
    if (in->nlaid > 0 && regroup_sets(in, used, sol, wrap, ace_high, err) != 0)
        return -1;
    if (sol->nmelds > 1)
        qsort(sol->melds, (size_t)sol->nmelds, sizeof sol->melds[0], meld_cmp);
    return 0;
}

/* Marks the played copies for display, the first ones met outside the
 * laid melds kept: these hold table cards only, at most the table's
 * copies of a card, so the other melds hold every played copy. */
void ilpm_mach_mark_played(mach_sol *sol)
{
    int left[NSUITS][NRANKS + 1];
    memcpy(left, sol->played, sizeof left);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < sol->nmelds; i++)
            for (int c = 0; c < sol->melds[i].n; c++) {
                mach_card *cd = &sol->melds[i].c[c];
                if ((sol->melds[i].kept != 0) == pass &&
                    left[cd->suit][cd->rank] > 0) {
                    left[cd->suit][cd->rank]--;
                    cd->played = 1;
                }
            }
}
