/* What the two formulations share: the cards available to the
 * arrangement and, in a play, the hand's variables, the rows that order
 * their copies and the objective.  ilpm_mach_build picks the formulation. */
#include "machiavelli.h"

#include <stdio.h>

/* Copies of a card available to the arrangement. */
int ilpm_mach_avail(const mach_inst *in, const mach_settings *st, int s, int r)
{
    return in->table[s][r] + (st->play ? in->hand[s][r] : 0);
}

static void hand_name(int s, int r, char *buf, size_t size)
{
    char card[4];
    ilpm_mach_card_name(s, r, card);
    snprintf(buf, size, "h_%s", card);
}

/* Hand variables h_<card>[1..copies]: the j-th copy of a hand card is
 * laid.  Copy j+1 only after copy j (the copies are interchangeable).
 * Fills hfam[s][r] (-1 when the card is not in the hand). */
int ilpm_mach_build_hand(const mach_inst *in, ilpm_model *m,
                         int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            hfam[s][r] = -1;
            if (!in->hand[s][r])
                continue;
            char name[16];
            hand_name(s, r, name, sizeof name);
            int lo = 1, hi = in->hand[s][r];
            hfam[s][r] = ilpm_model_family(m, name, 1, &lo, &hi, 0, err);
            if (hfam[s][r] < 0)
                return -1;
        }
    return 0;
}

static int hand_symmetry(const mach_inst *in, ilpm_model *m,
                         int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    if (ilpm_model_group(m, "hand", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 1; j < in->hand[s][r]; j++) {
                int a = ilpm_model_var(m, hfam[s][r], j + 1, 0, 0, 0);
                int b = ilpm_model_var(m, hfam[s][r], j, 0, 0, 0);
                if (ilpm_add_impl(m, a, b, err) != 0)
                    return -1;
            }
    return 0;
}

/* Play: maximise the cards laid, or with --value their value (A=1, 2-10
 * face value, J=11, Q=12, K=13: the rank number). */
static int hand_objective(const mach_inst *in, const mach_settings *st,
                          ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                          ilpm_err *err)
{
    int lits[MAX_CARDS];
    int64_t coefs[MAX_CARDS];
    int n = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 1; j <= in->hand[s][r]; j++) {
                lits[n] = ilpm_model_var(m, hfam[s][r], j, 0, 0, 0);
                coefs[n++] = st->value ? r : 1;
            }
    return ilpm_model_objective(m, ILPM_MAXIMIZE, coefs, lits, n, err);
}

/* Appends -h for every copy of card (s,r) in the hand: the consistency
 * and cover rows read sum(x) + sum(1 - h) = table + hand copies, i.e.
 * sum(x) = table + sum(h), and stay cardinality constraints. */
int ilpm_mach_hand_lits(const mach_inst *in, const mach_settings *st,
                        const ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                        int s, int r, int *lits, int n)
{
    if (!st->play)
        return n;
    for (int j = 1; j <= in->hand[s][r]; j++)
        lits[n++] = -ilpm_model_var(m, hfam[s][r], j, 0, 0, 0);
    return n;
}

/* Counts the hand's copies the values lay. */
void ilpm_mach_hand_played(const mach_inst *in, const ilpm_model *m,
                           const uint8_t *vals, int played[NSUITS][NRANKS + 1])
{
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            if (!in->hand[s][r])
                continue;
            char name[16];
            hand_name(s, r, name, sizeof name);
            int f = ilpm_model_family_find(m, name);
            for (int j = 1; j <= in->hand[s][r]; j++) {
                int v = ilpm_model_var(m, f, j, 0, 0, 0);
                if (v && vals[v])
                    played[s][r]++;
            }
        }
}

int ilpm_mach_build(const void *vinst, const ilpm_params *p, ilpm_model *m,
                    ilpm_err *err)
{
    const mach_inst *in = vinst;
    mach_settings st;
    if (ilpm_mach_read_settings(p, &st, err) != 0)
        return -1;
    if (st.play && !in->has_hand)
        return ilpm_err_input(err, "play needs a hand: write 'table: <cards> "
                                   "| hand: <cards>'");
    int hfam[NSUITS][NRANKS + 1];
    int rc =
        st.form == FORM_MELDS  ? ilpm_mach_build_melds(in, &st, m, hfam, err)
        : st.form == FORM_FLOW ? ilpm_mach_build_flow(in, &st, m, hfam, err)
                               : ilpm_mach_build_planes(in, &st, m, hfam, err);
    if (rc != 0)
        return -1;
    if (st.play && (hand_symmetry(in, m, hfam, err) != 0 ||
                    hand_objective(in, &st, m, hfam, err) != 0))
        return -1;
    return 0;
}
