/* Machiavelli solutions: the melds decoded from the 0/1 values (each
 * formulation reads its own variables, planes.c and melds.c), then laid
 * out as a player would (present.c); and the verifier, which judges the
 * melds by the rules of the game alone and shares no code with the
 * models that produced them. */
#include "machiavelli.h"

#include <stdlib.h>

void ilpm_mach_sol_free(void *p)
{
    mach_sol *s = p;
    if (s)
        free(s->melds);
    free(s);
}

/* A new empty meld at the end of sol. */
mach_meld *ilpm_mach_new_meld(mach_sol *sol, ilpm_err *err)
{
    if (sol->nmelds == sol->cap) {
        int c = sol->cap ? 2 * sol->cap : 16;
        mach_meld *q = realloc(sol->melds, (size_t)c * sizeof *q);
        if (!q) {
            ilpm_err_nomem(err, "out of memory");
            return NULL;
        }
        sol->melds = q;
        sol->cap = c;
    }
    mach_meld *md = &sol->melds[sol->nmelds++];
    md->n = 0;
    md->kept = 0;
    return md;
}

/* Appends card (s, r), the high ace (column ACE_HIGH) as an ace. */
void ilpm_mach_meld_push(mach_meld *md, int s, int r)
{
    if (md->n < MELD_MAX) {
        md->c[md->n].suit = (uint8_t)s;
        md->c[md->n].rank = (uint8_t)(r == ACE_HIGH ? 1 : r);
        md->c[md->n].played = 0;
        md->n++;
    }
}

/* The formulation's melds, laid out by ilpm_mach_present; in a play, the hand's
 * copies laid are counted and marked in the melds. */
void *ilpm_mach_decode(const void *vinst, const ilpm_params *p,
                       const ilpm_model *m, const uint8_t *vals, ilpm_err *err)
{
    const mach_inst *in = vinst;
    mach_settings st;
    if (ilpm_mach_read_settings(p, &st, err) != 0)
        return NULL;
    mach_sol *sol = calloc(1, sizeof *sol);
    if (!sol) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    st.play = st.play && in->has_hand;
    sol->play = st.play;
    int rc = st.form == FORM_MELDS
                 ? ilpm_mach_decode_melds(in, &st, m, vals, sol, err)
             : st.form == FORM_FLOW
                 ? ilpm_mach_decode_flow(in, &st, m, vals, sol, err)
                 : ilpm_mach_decode_planes(in, &st, m, vals, sol, err);
    if (rc != 0 || ilpm_mach_present(in, p, sol, err) != 0) {
        ilpm_mach_sol_free(sol);
        return NULL;
    }
    if (st.play) {
        ilpm_mach_hand_played(in, m, vals, sol->played);
        ilpm_mach_mark_played(sol);
    }
    return sol;
}

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
