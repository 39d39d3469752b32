/* The Machiavelli verifier: it judges a solution's melds by the rules of
 * the game alone and shares no code with the models that produced them
 * (solution.c decodes them). */
#include "machiavelli.h"

#include <stdlib.h>

/* A set: 3 or 4 cards of one rank, of different suits. */
static int check_set(const mach_meld *md, int idx, const char *text,
                     ilpm_err *why)
{
    if (md->n > 4)
        return ilpm_err_input(why, "meld %d (%s): a set has 3 or 4 cards", idx,
                              text);
    for (int i = 0; i < md->n; i++)
        for (int j = i + 1; j < md->n; j++)
            if (md->c[i].suit == md->c[j].suit)
                return ilpm_err_input(why,
                                      "meld %d (%s): a set needs "
                                      "different suits",
                                      idx, text);
    return 0;
}

/* A run: cards of one suit in rank order, each rank once; K then A only
 * under --wrap, or as the last card under --ace-high. */
static int check_run(const mach_meld *md, int idx, const char *text, int wrap,
                     int ace_high, ilpm_err *why)
{
    unsigned seen = 0;
    for (int i = 0; i < md->n; i++) {
        int r = md->c[i].rank;
        if (seen & (1u << r))
            return ilpm_err_input(why,
                                  "meld %d (%s): a run holds each rank "
                                  "once",
                                  idx, text);
        seen |= 1u << r;
        if (i == 0)
            continue;
        int prev = md->c[i - 1].rank;
        if (prev < NRANKS && r == prev + 1)
            continue;
        if (prev == NRANKS && r == 1) {
            if (wrap)
                continue;
            if (ace_high && i == md->n - 1)
                continue;
            return ilpm_err_input(why,
                                  ace_high ? "meld %d (%s): K A 2 needs --wrap"
                                           : "meld %d (%s): an ace after the "
                                             "king needs --ace-high or --wrap",
                                  idx, text);
        }
        return ilpm_err_input(why, "meld %d (%s): ranks not consecutive", idx,
                              text);
    }
    return 0;
}

int ilpm_mach_check_meld(const mach_meld *md, int idx, int wrap, int ace_high,
                         ilpm_err *why)
{
    char text[80];
    ilpm_mach_meld_text(md, text, sizeof text);
    if (md->n < 3)
        return ilpm_err_input(why,
                              "meld %d (%s): %d cards, a meld needs 3 "
                              "or more",
                              idx, text, md->n);
    for (int i = 0; i < md->n; i++)
        if (md->c[i].suit >= NSUITS || md->c[i].rank < 1 ||
            md->c[i].rank > NRANKS)
            return ilpm_err_input(why, "meld %d: card %d is not a card", idx,
                                  i + 1);
    int same_rank = 1, same_suit = 1;
    for (int i = 1; i < md->n; i++) {
        same_rank &= md->c[i].rank == md->c[0].rank;
        same_suit &= md->c[i].suit == md->c[0].suit;
    }
    if (same_rank)
        return check_set(md, idx, text, why);
    if (!same_suit)
        return ilpm_err_input(why,
                              "meld %d (%s): neither a set (one rank) "
                              "nor a run (one suit)",
                              idx, text);
    return check_run(md, idx, text, wrap, ace_high, why);
}

int ilpm_mach_verify(const void *vinst, const ilpm_params *p, const void *vsol,
                     ilpm_err *why)
{
    const mach_inst *in = vinst;
    const mach_sol *sol = vsol;
    int wrap = ilpm_mach_has(p, "wrap");
    int ace_high = ilpm_mach_has(p, "ace-high");
    int play = ilpm_mach_is_play(p) && in->has_hand;
    int used[NSUITS][NRANKS + 1] = {{0}}, marked[NSUITS][NRANKS + 1] = {{0}};
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        if (ilpm_mach_check_meld(md, i + 1, wrap, ace_high, why) != 0)
            return -1;
        for (int c = 0; c < md->n; c++) {
            used[md->c[c].suit][md->c[c].rank]++;
            marked[md->c[c].suit][md->c[c].rank] += md->c[c].played != 0;
        }
    }
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            char nm[4];
            ilpm_mach_card_name(s, r, nm);
            int pl = sol->played[s][r];
            if (pl < 0 || (!play && pl > 0))
                return ilpm_err_input(why, "card %s played without a hand", nm);
            if (pl > in->hand[s][r])
                return ilpm_err_input(why,
                                      "card %s: %d played, the hand "
                                      "holds %d",
                                      nm, pl, in->hand[s][r]);
            if (marked[s][r] != pl)
                return ilpm_err_input(why,
                                      "card %s: %d copies marked played, %d "
                                      "played",
                                      nm, marked[s][r], pl);
            if (used[s][r] != in->table[s][r] + pl)
                return ilpm_err_input(why,
                                      "card %s: the melds hold %d, the table "
                                      "has %d%s",
                                      nm, used[s][r], in->table[s][r],
                                      pl ? " plus the played ones" : "");
        }
    return 0;
}
