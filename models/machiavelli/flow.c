/* The flow formulation: the planes formulation without its planes.  Sets
 * are counted per rank and suit pattern, y(r,p,j) = 1 when at least j
 * sets of rank r have pattern p (all four suits, or all but one).  Runs
 * of a suit are a flow along its ranks: st(s,c,j) and en(s,c,j) say that
 * at least j runs start, or end, at column c, and cv(s,c,j) that at least
 * j runs cover it.  A run ending at column c must have started at c - 2
 * or earlier: ends(c) + starts(c) + starts(c - 1) <= cover(c), and
 * cover(c) = cover(c - 1) + starts(c) - ends(c - 1).  Pairing starts and
 * ends first in, first out then gives runs of 3 cards or more, so any
 * arrangement has a point and nothing is interchangeable but equal
 * melds, which the unary counts order.  Under --wrap the ranks are laid
 * twice, columns 1..25 (column c > 13 is rank c - 13): a run starts in
 * the first lap and holds 13 cards at most, so the runs that start by
 * column c - 13 have all ended by c - 1. */
#include "machiavelli.h"

/* The five set patterns: p = 0 holds the four suits, p = 1..4 all but
 * suit p - 1. */
#define NPAT 5

static int pat_has(int p, int s)
{
    return p == 0 || s != p - 1;
}

typedef struct flow {
    int cv, st, en, y; /* families                                   */
    int ncol; /* columns of a suit: 13, 14 with ace-high, 25 under wrap */
} flow;

#define WRAP_COLS (2 * NRANKS - 1)

static int col_rank(int c)
{
    return (c - 1) % NRANKS + 1; /* the high ace is the ace */
}

static int flow_cols(const mach_settings *st)
{
    return st->wrap ? WRAP_COLS : st->ace_high ? ACE_HIGH : NRANKS;
}

/* Copies of the card in column c. */
static int col_avail(const mach_inst *in, const mach_settings *st, int s, int c)
{
    return ilpm_mach_avail(in, st, s, col_rank(c));
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

/* How many of each unary count can be 1: runs covering column c, and runs
 * starting (ending) there, which need the next (last) three columns. */
static int cover_max(const mach_inst *in, const mach_settings *st,
                     const flow *fl, int s, int c)
{
    return c >= 1 && c <= fl->ncol ? col_avail(in, st, s, c) : 0;
}

static int start_max(const mach_inst *in, const mach_settings *st,
                     const flow *fl, int s, int c)
{
    if (c < 1 || c + 2 > fl->ncol || (st->wrap && c > NRANKS))
        return 0;
    return min3(col_avail(in, st, s, c), col_avail(in, st, s, c + 1),
                col_avail(in, st, s, c + 2));
}

static int end_max(const mach_inst *in, const mach_settings *st, const flow *fl,
                   int s, int c)
{
    if (c < 3 || c > fl->ncol)
        return 0;
    return min3(col_avail(in, st, s, c), col_avail(in, st, s, c - 1),
                col_avail(in, st, s, c - 2));
}

static int set_max(const mach_inst *in, const mach_settings *st, int r, int p)
{
    int m = MAX_DECKS;
    for (int s = 0; s < NSUITS; s++)
        if (pat_has(p, s) && ilpm_mach_avail(in, st, s, r) < m)
            m = ilpm_mach_avail(in, st, s, r);
    return m;
}

/* The unary count of family f at (a, b): its first `max` literals are
 * appended to lits (negated when neg), the rest of the family is fixed
 * to 0 elsewhere.  Returns the new length. */
static int push_count(const ilpm_model *m, int f, int a, int b, int max,
                      int neg, int *lits, int n)
{
    for (int j = 1; j <= max; j++) {
        int v = ilpm_model_var(m, f, a, b, j, 0);
        lits[n++] = neg ? -v : v;
    }
    return n;
}

/* Orders each unary count (copy j + 1 only after copy j) and fixes the
 * copies past its largest value to 0. */
static int order_count(ilpm_model *m, int f, int a, int b, int max, int decks,
                       ilpm_err *err)
{
    for (int j = 1; j <= decks; j++) {
        int v = ilpm_model_var(m, f, a, b, j, 0);
        if (j > max) {
            int nv = -v;
            if (ilpm_add_clause(m, &nv, 1, err) != 0)
                return -1;
        } else if (j > 1 &&
                   ilpm_add_impl(m, v, ilpm_model_var(m, f, a, b, j - 1, 0),
                                 err) != 0)
            return -1;
    }
    return 0;
}

static int flow_vars(const mach_inst *in, const mach_settings *st, flow *fl,
                     ilpm_model *m, int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    int d = in->decks;
    /* cover first: GLPK branches on the first fractional column (the
     * model's hint), and the covers settle the rest: with them integral,
     * the LP's sets and its starts and ends have an integral point
     * (docs/benchmarks.md, Machiavelli on ILP). */
    int rlo[3] = {0, 1, 1}, rhi[3] = {NSUITS - 1, fl->ncol, d};
    if ((fl->cv =
             ilpm_model_family(m, "cover", 3, rlo, rhi, ILPM_FAM_AUX, err)) < 0)
        return -1;
    /* y is what an answer is (the runs follow from the cards the sets
     * leave), so counting projects onto it. */
    int lo[3] = {1, 0, 1}, hi[3] = {NRANKS, NPAT - 1, d};
    if ((fl->y = ilpm_model_family(m, "y", 3, lo, hi, 0, err)) < 0 ||
        (fl->st = ilpm_model_family(m, "start", 3, rlo, rhi, ILPM_FAM_AUX,
                                    err)) < 0 ||
        (fl->en = ilpm_model_family(m, "end", 3, rlo, rhi, ILPM_FAM_AUX, err)) <
            0)
        return -1;
    if (st->play && ilpm_mach_build_hand(in, m, hfam, err) != 0)
        return -1;
    if (ilpm_model_group(m, "copies", err) < 0)
        return -1;
    for (int r = 1; r <= NRANKS; r++)
        for (int p = 0; p < NPAT; p++)
            if (order_count(m, fl->y, r, p, set_max(in, st, r, p), d, err) != 0)
                return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int c = 1; c <= fl->ncol; c++)
            if (order_count(m, fl->cv, s, c, cover_max(in, st, fl, s, c), d,
                            err) != 0 ||
                order_count(m, fl->st, s, c, start_max(in, st, fl, s, c), d,
                            err) != 0 ||
                order_count(m, fl->en, s, c, end_max(in, st, fl, s, c), d,
                            err) != 0)
                return -1;
    return 0;
}

/* Each card's copies: in runs (the cover of its column, and of the high
 * ace's) and in sets, all of them laid. */
static int card_rows(const mach_inst *in, const mach_settings *st,
                     const flow *fl, ilpm_model *m,
                     int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    if (ilpm_model_group(m, "cards", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            int lits[3 * MAX_DECKS + NPAT * MAX_DECKS + MAX_DECKS];
            int n = push_count(m, fl->cv, s, r, cover_max(in, st, fl, s, r), 0,
                               lits, 0);
            if (r + NRANKS <= fl->ncol) /* the high ace, or the second lap */
                n = push_count(m, fl->cv, s, r + NRANKS,
                               cover_max(in, st, fl, s, r + NRANKS), 0, lits,
                               n);
            for (int p = 0; p < NPAT; p++)
                if (pat_has(p, s))
                    n = push_count(m, fl->y, r, p, set_max(in, st, r, p), 0,
                                   lits, n);
            int nh = st->play ? in->hand[s][r] : 0;
            n = ilpm_mach_hand_lits(in, st, m, hfam, s, r, lits, n);
            if (n == 0)
                continue; /* no copy: every count is fixed to 0 */
            if (ilpm_add_card(m, lits, n, ILPM_EQ, in->table[s][r] + nh, err) !=
                0)
                return -1;
        }
    return 0;
}

/* --wrap: no run longer than 13 cards, i.e. (first in, first out) the
 * starts up to column c - 13 <= the ends up to column c - 1, written as
 * starts + (not ends) <= the ends' literals. */
static int wrap_rows(const mach_inst *in, const mach_settings *st,
                     const flow *fl, ilpm_model *m, ilpm_err *err)
{
    if (ilpm_model_group(m, "wrap", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int c = NRANKS + 1; c <= fl->ncol; c++) {
            int lits[(NRANKS + WRAP_COLS) * MAX_DECKS], n = 0, k = 0;
            for (int a = 1; a <= c - NRANKS; a++)
                n = push_count(m, fl->st, s, a, start_max(in, st, fl, s, a), 0,
                               lits, n);
            if (n == 0)
                continue;
            for (int a = 1; a < c; a++) {
                int ke = end_max(in, st, fl, s, a);
                n = push_count(m, fl->en, s, a, ke, 1, lits, n);
                k += ke;
            }
            if (ilpm_add_card(m, lits, n, ILPM_LE, k, err) != 0)
                return -1;
        }
    return 0;
}

/* Per suit and column c = 1..ncol+1 (cover 0 past either end):
 * cover(c) - cover(c-1) - starts(c) + ends(c-1) = 0, written with
 * negated literals as a cardinality row; and ends(c) + starts(c) +
 * starts(c-1) - cover(c) <= 0. */
static int run_rows(const mach_inst *in, const mach_settings *st,
                    const flow *fl, ilpm_model *m, ilpm_err *err)
{
    if (ilpm_model_group(m, "flow", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int c = 1; c <= fl->ncol + 1; c++) {
            int lits[4 * MAX_DECKS], n = 0, k;
            n = push_count(m, fl->cv, s, c, cover_max(in, st, fl, s, c), 0,
                           lits, n);
            k = cover_max(in, st, fl, s, c - 1);
            n = push_count(m, fl->cv, s, c - 1, k, 1, lits, n);
            int ks = start_max(in, st, fl, s, c);
            n = push_count(m, fl->st, s, c, ks, 1, lits, n);
            n = push_count(m, fl->en, s, c - 1, end_max(in, st, fl, s, c - 1),
                           0, lits, n);
            if (n > 0 && ilpm_add_card(m, lits, n, ILPM_EQ, k + ks, err) != 0)
                return -1;
        }
    if (ilpm_model_group(m, "length", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int c = 3; c <= fl->ncol; c++) {
            int lits[4 * MAX_DECKS], n = 0;
            int ke = end_max(in, st, fl, s, c);
            if (ke == 0)
                continue; /* no run can end here */
            n = push_count(m, fl->en, s, c, ke, 0, lits, n);
            n = push_count(m, fl->st, s, c, start_max(in, st, fl, s, c), 0,
                           lits, n);
            n = push_count(m, fl->st, s, c - 1, start_max(in, st, fl, s, c - 1),
                           0, lits, n);
            int k = cover_max(in, st, fl, s, c);
            n = push_count(m, fl->cv, s, c, k, 1, lits, n);
            if (ilpm_add_card(m, lits, n, ILPM_LE, k, err) != 0)
                return -1;
        }
    return st->wrap ? wrap_rows(in, st, fl, m, err) : 0;
}

int ilpm_mach_build_flow(const mach_inst *in, const mach_settings *st,
                         ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                         ilpm_err *err)
{
    flow fl;
    fl.ncol = flow_cols(st);
    if (flow_vars(in, st, &fl, m, hfam, err) != 0 ||
        card_rows(in, st, &fl, m, hfam, err) != 0 ||
        run_rows(in, st, &fl, m, err) != 0)
        return -1;
    ilpm_model_set_hint(m, ILPM_HINT_INPUT);
    return 0;
}

/* The value of a unary count; -1 when the model has no such family. */
static int count_of(const ilpm_model *m, int f, int a, int b, int decks,
                    const uint8_t *vals)
{
    int n = 0;
    for (int j = 1; j <= decks; j++) {
        int v = ilpm_model_var(m, f, a, b, j, 0);
        if (!v)
            return -1;
        n += vals[v] != 0;
    }
    return n;
}

/* A run from column a to column b of suit s; a run of all 14 columns
 * (A..K and the high ace) is cut before the queen, as the planes do. */
static int add_run(mach_sol *sol, int s, int a, int b, ilpm_err *err)
{
    int cut = a == 1 && b == ACE_HIGH ? 12 : 0;
    mach_meld *md = NULL;
    for (int c = a; c <= b; c++) {
        if (c == a || c == cut)
            if (!(md = ilpm_mach_new_meld(sol, err)))
                return -1;
        ilpm_mach_meld_push(md, s, c > ACE_HIGH ? col_rank(c) : c);
    }
    return 0;
}

int ilpm_mach_decode_flow(const mach_inst *in, const mach_settings *st,
                          const ilpm_model *m, const uint8_t *vals,
                          mach_sol *sol, ilpm_err *err)
{
    flow fl;
    fl.ncol = flow_cols(st);
    fl.y = ilpm_model_family_find(m, "y");
    fl.st = ilpm_model_family_find(m, "start");
    fl.en = ilpm_model_family_find(m, "end");
    if (fl.y < 0 || fl.st < 0 || fl.en < 0)
        return ilpm_err_input(err, "not a flow model of this table");
    int d = in->decks;
    for (int s = 0; s < NSUITS; s++) {
        /* Starts waiting for their end, first in, first out. */
        int open[MAX_DECKS * WRAP_COLS], head = 0, tail = 0;
        for (int c = 1; c <= fl.ncol; c++) {
            int ns = count_of(m, fl.st, s, c, d, vals);
            int ne = count_of(m, fl.en, s, c, d, vals);
            if (ns < 0 || ne < 0)
                return ilpm_err_input(err, "not a flow model of this table");
            for (int j = 0; j < ns; j++)
                open[tail++] = c;
            for (int j = 0; j < ne; j++) {
                if (head == tail)
                    return ilpm_err_input(err,
                                          "flow: a run of %c ends at "
                                          "column %d without a start",
                                          ilpm_mach_suit_letter[s], c);
                if (add_run(sol, s, open[head++], c, err) != 0)
                    return -1;
            }
        }
        if (head != tail)
            return ilpm_err_input(err, "flow: a run of %c has no end",
                                  ilpm_mach_suit_letter[s]);
    }
    for (int r = 1; r <= NRANKS; r++)
        for (int p = 0; p < NPAT; p++) {
            int n = count_of(m, fl.y, r, p, d, vals);
            if (n < 0)
                return ilpm_err_input(err, "not a flow model of this table");
            for (int j = 0; j < n; j++) {
                mach_meld *md = ilpm_mach_new_meld(sol, err);
                if (!md)
                    return -1;
                for (int s = 0; s < NSUITS; s++)
                    if (pat_has(p, s))
                        ilpm_mach_meld_push(md, s, r);
            }
        }
    return 0;
}
