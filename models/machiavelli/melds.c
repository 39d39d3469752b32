/* The melds formulation, den Hertog and Hulshof (2006): set partitioning
 * over every meld the rules allow, one variable per copy of a meld the
 * cards allow, and every card covered as many times as it has copies.
 * Decoding lists the melds whose copies are chosen. */
#include "machiavelli.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEFS (NSUITS * NRANKS * 3 + NRANKS * 5)

typedef struct meld_def {
    int n;
    uint8_t suit[5], rank[5]; /* rank 1..13 */
    char name[16];
} meld_def;

/* Every meld the rules allow, in a fixed order (build and decode walk
 * the same list): runs of 3, 4 and 5 cards, which cover longer runs by
 * splitting them, then sets of 4 and of 3. */
static int meld_defs(const mach_settings *st, meld_def *out)
{
    int n = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int len = 3; len <= 5; len++) {
            /* Starts: A..(14-len) on a line; ace-high adds the run
             * ending on the high ace; wrap allows every start. */
            int last = st->wrap       ? NRANKS
                       : st->ace_high ? ACE_HIGH - len + 1
                                      : NRANKS - len + 1;
            for (int start = 1; start <= last; start++) {
                meld_def *d = &out[n++];
                d->n = len;
                for (int i = 0; i < len; i++) {
                    int r = start + i;
                    d->suit[i] = (uint8_t)s;
                    d->rank[i] = (uint8_t)(r > NRANKS ? r - NRANKS : r);
                }
                snprintf(d->name, sizeof d->name, "R_%c_%s_%s",
                         ilpm_mach_suit_letter[s],
                         ilpm_mach_rank_text[d->rank[0]],
                         ilpm_mach_rank_text[d->rank[len - 1]]);
            }
        }
    for (int r = 1; r <= NRANKS; r++)
        for (int omit = -1; omit < NSUITS; omit++) {
            meld_def *d = &out[n++];
            int k = 0;
            char suits[5];
            for (int s = 0; s < NSUITS; s++)
                if (s != omit) {
                    d->suit[k] = (uint8_t)s;
                    d->rank[k] = (uint8_t)r;
                    suits[k++] = ilpm_mach_suit_letter[s];
                }
            suits[k] = '\0';
            d->n = k;
            snprintf(d->name, sizeof d->name, "S_%s_%s", ilpm_mach_rank_text[r],
                     suits);
        }
    return n;
}

/* Copies of a meld the cards allow. */
static int meld_copies(const mach_inst *in, const mach_settings *st,
                       const meld_def *d)
{
    int c = INT_MAX;
    for (int i = 0; i < d->n; i++) {
        int a = ilpm_mach_avail(in, st, d->suit[i], d->rank[i]);
        if (a < c)
            c = a;
    }
    return c;
}

static int meld_has(const meld_def *d, int s, int r)
{
    for (int i = 0; i < d->n; i++)
        if (d->suit[i] == s && d->rank[i] == r)
            return 1;
    return 0;
}

/* A table card in no possible meld: the model must be infeasible, and a
 * constraint cannot be empty, so a variable must be both 0 and 1. */
static int no_meld(ilpm_model *m, ilpm_err *err)
{
    int lo = 0, hi = 0;
    int f = ilpm_model_family(m, "no_meld", 1, &lo, &hi, ILPM_FAM_AUX, err);
    if (f < 0)
        return -1;
    int v = ilpm_model_var(m, f, 0, 0, 0, 0), nv = -v;
    if (ilpm_add_clause(m, &v, 1, err) != 0 ||
        ilpm_add_clause(m, &nv, 1, err) != 0)
        return -1;
    return 0;
}

int ilpm_mach_build_melds(const mach_inst *in, const mach_settings *st,
                          ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                          ilpm_err *err)
{
    meld_def defs[MAX_DEFS];
    int fam[MAX_DEFS], copies[MAX_DEFS];
    int nd = meld_defs(st, defs);
    for (int i = 0; i < nd; i++) {
        fam[i] = -1;
        copies[i] = meld_copies(in, st, &defs[i]);
        if (copies[i] == 0)
            continue;
        int lo = 1, hi = copies[i];
        /* Runs are auxiliary: an answer is its sets, the runs hold the
         * cards they leave however those are cut into runs (README, "one
         * solution"), so counting projects onto the sets. */
        unsigned aux = defs[i].suit[0] == defs[i].suit[1] ? ILPM_FAM_AUX : 0;
        if ((fam[i] =
                 ilpm_model_family(m, defs[i].name, 1, &lo, &hi, aux, err)) < 0)
            return -1;
    }
    if (st->play && ilpm_mach_build_hand(in, m, hfam, err) != 0)
        return -1;

    /* Copies are interchangeable: copy j+1 only after copy j. */
    if (ilpm_model_group(m, "copies", err) < 0)
        return -1;
    for (int i = 0; i < nd; i++)
        for (int j = 1; j < copies[i]; j++)
            if (ilpm_add_impl(m, ilpm_model_var(m, fam[i], j + 1, 0, 0, 0),
                              ilpm_model_var(m, fam[i], j, 0, 0, 0), err) != 0)
                return -1;

    if (ilpm_model_group(m, "cover", err) < 0)
        return -1;
    int uncovered = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            if (ilpm_mach_avail(in, st, s, r) == 0)
                continue;
            int lits[MAX_DEFS * MAX_DECKS];
            int n = 0;
            for (int i = 0; i < nd; i++)
                if (copies[i] && meld_has(&defs[i], s, r))
                    for (int j = 1; j <= copies[i]; j++)
                        lits[n++] = ilpm_model_var(m, fam[i], j, 0, 0, 0);
            int nh = st->play ? in->hand[s][r] : 0;
            n = ilpm_mach_hand_lits(in, st, m, hfam, s, r, lits, n);
            if (n == 0) {
                uncovered = 1; /* a table card no meld can take */
                continue;
            }
            if (ilpm_add_card(m, lits, n, ILPM_EQ, in->table[s][r] + nh, err) !=
                0)
                return -1;
        }
    return uncovered ? no_meld(m, err) : 0;
}

int ilpm_mach_decode_melds(const mach_inst *in, const mach_settings *st,
                           const ilpm_model *m, const uint8_t *vals,
                           mach_sol *sol, ilpm_err *err)
{
    meld_def defs[MAX_DEFS];
    int nd = meld_defs(st, defs);
    for (int i = 0; i < nd; i++) {
        int copies = meld_copies(in, st, &defs[i]);
        if (!copies)
            continue;
        int f = ilpm_model_family_find(m, defs[i].name);
        if (f < 0)
            return ilpm_err_input(err, "not a melds model of this table");
        for (int j = 1; j <= copies; j++) {
            int v = ilpm_model_var(m, f, j, 0, 0, 0);
            if (!v)
                return ilpm_err_input(err, "not a melds model of this table");
            if (!vals[v])
                continue;
            mach_meld *md = ilpm_mach_new_meld(sol, err);
            if (!md)
                return -1;
            for (int c = 0; c < defs[i].n; c++)
                ilpm_mach_meld_push(md, defs[i].suit[c], defs[i].rank[c]);
        }
    }
    return 0;
}

/* The melds formulation's own test for a table card left out of every
 * meld: its cover row would be empty. */
void ilpm_mach_unmeldable(const mach_inst *in, const mach_settings *st,
                          uint8_t out[NSUITS][NRANKS + 1])
{
    meld_def defs[MAX_DEFS];
    int nd = meld_defs(st, defs), copies[MAX_DEFS];
    for (int i = 0; i < nd; i++)
        copies[i] = meld_copies(in, st, &defs[i]);
    memset(out, 0, NSUITS * (NRANKS + 1) * sizeof out[0][0]);
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            if (!in->table[s][r])
                continue;
            int fits = 0;
            for (int i = 0; i < nd && !fits; i++)
                fits = copies[i] > 0 && meld_has(&defs[i], s, r);
            out[s][r] = !fits;
        }
}
