/* The planes formulation, from the Italian report: x(s,r,k) = 1 when
 * card (suit s, rank r) lies in plane k.  Run planes forbid the row
 * patterns 010 and 0110, so that every block of ones is a run of 3 or
 * more; set planes hold 0, 3 or 4 cards per column.  Decoding reads the
 * blocks of the run planes and the columns of the set planes. */
#include "machiavelli.h"

#include <limits.h>

/* Extra run planes under --wrap.  Runs of one suit are then arcs of a
 * circle, and D planes are not always enough: with two decks the runs
 * 2-4 4-6 6-8 8-J J-A-2 form an odd cycle, each overlapping the next, so
 * three planes are needed (an exhaustive check over all coverings of the
 * circle finds D + 1 planes enough for D <= 3; we know no proof for
 * larger D: data/machiavelli/README.md).  The bound used is proven: cut
 * the circle at a rank p of least coverage m; the m runs through p take a
 * plane each and the others are intervals of a line, which D planes hold.
 * m is at most the least count of a rank in the suit, so a suit missing a
 * rank, the usual case, needs no extra plane. */
static int wrap_extra(const mach_inst *in, const mach_settings *st)
{
    int extra = 0;
    for (int s = 0; s < NSUITS; s++) {
        int least = INT_MAX;
        for (int r = 1; r <= NRANKS; r++)
            if (ilpm_mach_avail(in, st, s, r) < least)
                least = ilpm_mach_avail(in, st, s, r);
        if (least > extra)
            extra = least;
    }
    return extra;
}

#define MAX_SET_PLANES (MAX_DECKS * NSUITS / 3)

typedef struct planes {
    int xr, xs, y;  /* families                                   */
    int sets;       /* the sets' counts by pattern, for counting  */
    int nrun, nset; /* planes of each kind                        */
    int ncol;       /* columns of a run row: 13, 14 with ace-high */
} planes;

static void planes_shape(const mach_inst *in, const mach_settings *st,
                         planes *pl)
{
    int d = in->decks;
    /* Runs of one suit on a line form an interval graph whose cliques
     * are at most D (no card more than D times), so D run planes hold
     * any set of runs; adjacent runs on one plane merge into a longer
     * run, which is still valid.  Sets: the n cards of one rank that
     * form sets, with m the most copies of one suit among them, make
     * between m and n/3 sets (each holds one card per suit, and 3 or 4
     * cards), so D planes would hold some grouping of them; but an
     * answer is the sets themselves (README, "one solution"): 12 cards
     * of 3 decks are three sets of four or four sets of three, two
     * answers.  So 4D/3 planes, the most sets of one rank (D for 1 or 2
     * decks, as in the report). */
    pl->nrun = d + (st->wrap ? wrap_extra(in, st) : 0);
    pl->nset = d * NSUITS / 3;
    pl->ncol = st->ace_high ? ACE_HIGH : NRANKS;
}

/* Column j of a run row, after wrap-around; 0 when outside the row. */
static int run_col(const mach_settings *st, const planes *pl, int j)
{
    if (st->wrap)
        return (j - 1 + NRANKS) % NRANKS + 1;
    return j >= 1 && j <= pl->ncol ? j : 0;
}

#define XR(s, r, k) ilpm_model_var(m, pl->xr, s, r, k, 0)
#define XS(s, r, k) ilpm_model_var(m, pl->xs, s, r, k, 0)

/* The families, then the hand's in a play. */
static int plane_vars(const mach_inst *in, const mach_settings *st, planes *pl,
                      ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                      ilpm_err *err)
{
    int lo[3] = {0, 1, 0}, hi[3] = {NSUITS - 1, pl->ncol, pl->nrun - 1};
    /* The report's plane 2m is xr[.,.,m] and plane 2m+1 is xs[.,.,m]:
     * two families because run planes have the extra ace column and
     * there are more set planes than run planes from 3 decks on. */
    /* The planes are auxiliary: an answer is its sets, the runs hold the
     * cards they leave however those are cut into runs (README, "one
     * solution"), so counting projects onto the sets' counts. */
    if ((pl->xr = ilpm_model_family(m, "xr", 3, lo, hi, ILPM_FAM_AUX, err)) < 0)
        return -1;
    hi[1] = NRANKS;
    hi[2] = pl->nset - 1;
    if ((pl->xs = ilpm_model_family(m, "xs", 3, lo, hi, ILPM_FAM_AUX, err)) < 0)
        return -1;
    int ylo[2] = {1, 0}, yhi[2] = {NRANKS, pl->nset - 1};
    if ((pl->y = ilpm_model_family(m, "y", 2, ylo, yhi, ILPM_FAM_AUX, err)) < 0)
        return -1;
    if (st->play && ilpm_mach_build_hand(in, m, hfam, err) != 0)
        return -1;
    return 0;
}

/* The report's deck rows: a card at most once in the planes 2m and 2m+1.
 * No rule of the game implies them and they can cut off every
 * arrangement (data/machiavelli/deck_rows.txt and its README), hence an
 * option.  Without them the consistency rows alone bound each card's use;
 * from 3 decks on, run and set planes no longer pair up and the rows are
 * not defined. */
static int deck_rows(const mach_inst *in, const mach_settings *st,
                     const planes *pl, ilpm_model *m, ilpm_err *err)
{
    if (in->decks > 2)
        return ilpm_err_input(err, "--deck-rows: the report's deck rows "
                                   "pair planes for 1 or 2 decks only");
    if (ilpm_model_group(m, "deck", err) < 0)
        return -1;
    for (int k = 0; k < in->decks; k++)
        for (int s = 0; s < NSUITS; s++)
            for (int r = 1; r <= NRANKS; r++) {
                int lits[3] = {XR(s, r, k), XS(s, r, k), 0};
                int n = 2;
                if (r == 1 && st->ace_high)
                    lits[n++] = XR(s, ACE_HIGH, k);
                if (ilpm_add_amo(m, lits, n, err) != 0)
                    return -1;
            }
    return 0;
}

/* Each column of a set plane holds 0, 3 or 4 cards: y(r,k) >= 1/4
 * sum_s x(s,r,k), scaled to 4y - sum x >= 0 (or, with --strong, y >= x
 * for each suit), and sum x >= 3y. */
static int set_rows(const mach_settings *st, const planes *pl, ilpm_model *m,
                    ilpm_err *err)
{
    if (ilpm_model_group(m, "set", err) < 0)
        return -1;
    for (int k = 0; k < pl->nset; k++)
        for (int r = 1; r <= NRANKS; r++) {
            int y = ilpm_model_var(m, pl->y, r, k, 0, 0);
            int lits[5];
            int64_t coefs[5];
            for (int s = 0; s < NSUITS; s++) {
                lits[s] = XS(s, r, k);
                coefs[s] = 1;
            }
            lits[4] = y;
            coefs[4] = -3;
            if (st->strong) {
                for (int s = 0; s < NSUITS; s++)
                    if (ilpm_add_impl(m, lits[s], y, err) != 0)
                        return -1;
            } else {
                int64_t up[5] = {-1, -1, -1, -1, 4};
                if (ilpm_add_linear(m, up, lits, 5, ILPM_GE, 0, err) != 0)
                    return -1;
            }
            if (ilpm_add_linear(m, coefs, lits, 5, ILPM_GE, 0, err) != 0)
                return -1;
        }
    return 0;
}

/* The set planes of a rank are interchangeable, so an answer is read
 * from what they hold, not from where: sets(r,p,j) = 1 when at least j
 * sets of rank r have suit pattern p (0: all four suits, 1..4: all but
 * suit p - 1).  With T(s) the cards of suit s in the rank's set planes
 * and Y the sets (the y of the rank), Y - T(s) sets omit suit s and the
 * other sum_s T(s) - 3Y hold all four: two linear rows per pattern, which
 * fix the counts from the planes and leave the planes free.  Counting
 * projects onto these counts (the planes themselves are auxiliary). */
static int set_count_rows(const mach_inst *in, planes *pl, ilpm_model *m,
                          ilpm_err *err)
{
    int d = in->decks;
    int lo[3] = {1, 0, 1}, hi[3] = {NRANKS, NSUITS, d};
    if ((pl->sets = ilpm_model_family(m, "sets", 3, lo, hi, 0, err)) < 0 ||
        ilpm_model_group(m, "set_count", err) < 0)
        return -1;
    for (int r = 1; r <= NRANKS; r++)
        for (int p = 0; p <= NSUITS; p++) {
            int lits[MAX_DECKS + MAX_SET_PLANES * (NSUITS + 1)];
            int64_t coefs[MAX_DECKS + MAX_SET_PLANES * (NSUITS + 1)];
            int n = 0;
            for (int j = 1; j <= d; j++) {
                lits[n] = ilpm_model_var(m, pl->sets, r, p, j, 0);
                coefs[n++] = 1;
                if (j > 1 &&
                    ilpm_add_impl(m, lits[n - 1], lits[n - 2], err) != 0)
                    return -1;
            }
            for (int k = 0; k < pl->nset; k++) {
                lits[n] = ilpm_model_var(m, pl->y, r, k, 0, 0);
                coefs[n++] = p == 0 ? 3 : -1;
                for (int s = 0; s < NSUITS; s++)
                    if (p == 0 || s == p - 1) {
                        lits[n] = XS(s, r, k);
                        coefs[n++] = p == 0 ? -1 : 1;
                    }
            }
            if (ilpm_add_linear(m, coefs, lits, n, ILPM_EQ, 0, err) != 0)
                return -1;
        }
    return 0;
}

/* Valid rows from the flow formulation (flow.c) over the run planes'
 * sums, which the LP of the planes alone lacks: per suit and column c,
 * unary auxiliary counts of the blocks that start and end at column c,
 * and of the cards in runs, run_cover(c) = sum_k xr(s,c,k); with
 * cover(c) read as that sum, cover(c) - cover(c-1) - starts(c) +
 * ends(c-1) = 0 and, as a block holds 3 cards or more, ends(c) +
 * starts(c) + starts(c-1) <= cover(c).  Not
 * under --wrap, where blocks go round.  The counts come last, and the
 * model asks GLPK to branch on the last fractional column
 * (docs/benchmarks.md, Machiavelli on ILP). */
static int flow_rows(const planes *pl, ilpm_model *m, ilpm_err *err)
{
    int d = pl->nrun;
    int lo[3] = {0, 1, 1}, hi[3] = {NSUITS - 1, pl->ncol, d};
    int fs = ilpm_model_family(m, "run_start", 3, lo, hi, ILPM_FAM_AUX, err);
    int fe = ilpm_model_family(m, "run_end", 3, lo, hi, ILPM_FAM_AUX, err);
    int fc = ilpm_model_family(m, "run_cover", 3, lo, hi, ILPM_FAM_AUX, err);
    if (fs < 0 || fe < 0 || fc < 0 || ilpm_model_group(m, "run_flow", err) < 0)
        return -1;
#define FS(s, c, j) ilpm_model_var(m, fs, s, c, j, 0)
#define FE(s, c, j) ilpm_model_var(m, fe, s, c, j, 0)
#define FC(s, c, j) ilpm_model_var(m, fc, s, c, j, 0)
    for (int s = 0; s < NSUITS; s++)
        for (int c = 1; c <= pl->ncol + 1; c++) {
            int lits[4 * MAX_DECKS];
            int64_t coefs[4 * MAX_DECKS];
            int n = 0;
            for (int j = 1; j <= d && c <= pl->ncol; j++) {
                lits[n] = XR(s, c, j - 1);
                coefs[n++] = 1;
                lits[n] = FC(s, c, j);
                coefs[n++] = -1;
                if (j > 1 &&
                    ilpm_add_impl(m, FC(s, c, j), FC(s, c, j - 1), err) != 0)
                    return -1;
            }
            if (n > 0 &&
                ilpm_add_linear(m, coefs, lits, n, ILPM_EQ, 0, err) != 0)
                return -1;
            n = 0;
            for (int j = 1; j <= d; j++) {
                if (c <= pl->ncol) {
                    lits[n] = XR(s, c, j - 1);
                    coefs[n++] = 1;
                    lits[n] = FS(s, c, j);
                    coefs[n++] = -1;
                }
                if (c > 1) {
                    lits[n] = XR(s, c - 1, j - 1);
                    coefs[n++] = -1;
                    lits[n] = FE(s, c - 1, j);
                    coefs[n++] = 1;
                }
            }
            if (ilpm_add_linear(m, coefs, lits, n, ILPM_EQ, 0, err) != 0)
                return -1;
            if (c > pl->ncol)
                continue;
            n = 0;
            for (int j = 1; j <= d; j++) {
                lits[n] = XR(s, c, j - 1);
                coefs[n++] = -1;
                lits[n] = FE(s, c, j);
                coefs[n++] = 1;
                lits[n] = FS(s, c, j);
                coefs[n++] = 1;
                if (c > 1) {
                    lits[n] = FS(s, c - 1, j);
                    coefs[n++] = 1;
                }
            }
            if (ilpm_add_linear(m, coefs, lits, n, ILPM_LE, 0, err) != 0)
                return -1;
        }
#undef FS
#undef FE
#undef FC
    ilpm_model_set_hint(m, ILPM_HINT_REVERSE);
    return 0;
}

/* Run rows: no pattern 010 (-x[j-1] + x[j] - x[j+1] <= 0) and no 0110
 * (-x[j-1] + x[j] + x[j+1] - x[j+2] <= 1), terms outside the row
 * dropped.  Each is exactly a clause (x[j-1] or not x[j] or x[j+1];
 * x[j-1] or not x[j] or not x[j+1] or x[j+2]): the ILP lowering folds
 * the negations back into the report's rows, and CNF needs no encoding
 * at all. */
static int run_rows(const mach_settings *st, const planes *pl, ilpm_model *m,
                    ilpm_err *err)
{
    if (ilpm_model_group(m, "run", err) < 0)
        return -1;
    for (int k = 0; k < pl->nrun; k++)
        for (int s = 0; s < NSUITS; s++)
            for (int j = 1; j <= pl->ncol; j++) {
                int prev = run_col(st, pl, j - 1);
                int next = run_col(st, pl, j + 1);
                int next2 = run_col(st, pl, j + 2);
                int lits[4], n = 0;
                if (prev)
                    lits[n++] = XR(s, prev, k);
                lits[n++] = -XR(s, j, k);
                if (next)
                    lits[n++] = XR(s, next, k);
                if (ilpm_add_clause(m, lits, n, err) != 0)
                    return -1;
                if (!next)
                    continue; /* 0110 with x[j+1] = 0 always holds */
                n = 0;
                if (prev)
                    lits[n++] = XR(s, prev, k);
                lits[n++] = -XR(s, j, k);
                lits[n++] = -XR(s, next, k);
                if (next2)
                    lits[n++] = XR(s, next2, k);
                if (ilpm_add_clause(m, lits, n, err) != 0)
                    return -1;
            }
    return 0;
}

/* Every card on the table (and every card laid) in one plane. */
static int consistency_rows(const mach_inst *in, const mach_settings *st,
                            const planes *pl, ilpm_model *m,
                            int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    if (ilpm_model_group(m, "consistency", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            /* run planes (2D at most, ace-high doubles only D of
             * them), set planes and the hand's copies */
            int lits[2 * MAX_DECKS + MAX_SET_PLANES + MAX_DECKS];
            int n = 0;
            for (int k = 0; k < pl->nrun; k++) {
                lits[n++] = XR(s, r, k);
                if (r == 1 && st->ace_high)
                    lits[n++] = XR(s, ACE_HIGH, k);
            }
            for (int k = 0; k < pl->nset; k++)
                lits[n++] = XS(s, r, k);
            int nh = st->play ? in->hand[s][r] : 0;
            n = ilpm_mach_hand_lits(in, st, m, hfam, s, r, lits, n);
            if (ilpm_add_card(m, lits, n, ILPM_EQ, in->table[s][r] + nh, err) !=
                0)
                return -1;
        }
    return 0;
}
#undef XR
#undef XS

int ilpm_mach_build_planes(const mach_inst *in, const mach_settings *st,
                           ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                           ilpm_err *err)
{
    planes pl;
    planes_shape(in, st, &pl);
    if (plane_vars(in, st, &pl, m, hfam, err) != 0 ||
        (st->deck_rows && deck_rows(in, st, &pl, m, err) != 0) ||
        set_rows(st, &pl, m, err) != 0 ||
        set_count_rows(in, &pl, m, err) != 0 ||
        run_rows(st, &pl, m, err) != 0 ||
        (!st->wrap && flow_rows(&pl, m, err) != 0) ||
        consistency_rows(in, st, &pl, m, hfam, err) != 0)
        return -1;
    return 0;
}

/* x(s,r,k) of family f: 0 or 1, or -1 when the model has no such
 * variable (it is not a planes model of this table). */
static int plane_bit(const ilpm_model *m, int f, int s, int r, int k,
                     const uint8_t *vals)
{
    int v = ilpm_model_var(m, f, s, r, k, 0);
    return v ? vals[v] != 0 : -1;
}

/* Card (s, r) into *md, a new meld when *md is NULL. */
static int add_card(mach_sol *sol, mach_meld **md, int s, int r, ilpm_err *err)
{
    if (!*md && !(*md = ilpm_mach_new_meld(sol, err)))
        return -1;
    ilpm_mach_meld_push(*md, s, r);
    return 0;
}

/* One run row -> runs: maximal blocks of ones, circular under wrap, where
 * the scan starts after a zero so that it cuts no block.  A block of all
 * 14 columns (A..K and the high ace) is cut before the queen, into A..J
 * and Q K A, since a run holds each rank once. */
static int decode_row(const uint8_t *bit, int ncol, int wrap, int s,
                      mach_sol *sol, ilpm_err *err)
{
    int ones = 0, zero = 0;
    for (int j = 1; j <= ncol; j++) {
        ones += bit[j];
        if (!bit[j])
            zero = j;
    }
    int start = wrap ? zero : 0;
    mach_meld *cur = NULL;
    for (int t = 1; t <= ncol; t++) {
        int j = wrap ? (start + t - 1) % ncol + 1 : t;
        if (!bit[j] || (ones == ACE_HIGH && j == 12))
            cur = NULL;
        if (bit[j] && add_card(sol, &cur, s, j, err) != 0)
            return -1;
    }
    return 0;
}

int ilpm_mach_decode_planes(const mach_inst *in, const mach_settings *st,
                            const ilpm_model *m, const uint8_t *vals,
                            mach_sol *sol, ilpm_err *err)
{
    planes pl;
    planes_shape(in, st, &pl);
    pl.xr = ilpm_model_family_find(m, "xr");
    pl.xs = ilpm_model_family_find(m, "xs");
    if (pl.xr < 0 || pl.xs < 0)
        return ilpm_err_input(err, "not a planes model of this table");
    for (int k = 0; k < pl.nrun; k++)
        for (int s = 0; s < NSUITS; s++) {
            uint8_t bit[ACE_HIGH + 1] = {0};
            for (int j = 1; j <= pl.ncol; j++) {
                int b = plane_bit(m, pl.xr, s, j, k, vals);
                if (b < 0)
                    return ilpm_err_input(err, "not a planes model of this "
                                               "table");
                bit[j] = (uint8_t)b;
            }
            if (decode_row(bit, pl.ncol, st->wrap, s, sol, err) != 0)
                return -1;
        }
    for (int k = 0; k < pl.nset; k++)
        for (int r = 1; r <= NRANKS; r++) {
            mach_meld *md = NULL;
            for (int s = 0; s < NSUITS; s++) {
                int b = plane_bit(m, pl.xs, s, r, k, vals);
                if (b < 0)
                    return ilpm_err_input(err, "not a planes model of this "
                                               "table");
                if (b && add_card(sol, &md, s, r, err) != 0)
                    return -1;
            }
        }
    return 0;
}
