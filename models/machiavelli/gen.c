/* The generator: random valid tables of runs and sets dealt within the
 * deck limit, written as a jumble or as laid, optionally a near miss (one
 * card added or removed) and a hand dealt from the cards left; or, with
 * --uniform, cards drawn at random from the decks, which may or may not
 * form melds. */
#include "machiavelli.h"

#include <limits.h>
#include <string.h>

const ilpm_opt ilpm_mach_gen_opts[] = {
    {.name = "cards",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 3,
     .hi = MAX_CARDS,
     .def = "20",
     .help = "N-2 to N cards per table, at most 52*D: melds of 3 to 6 are "
             "dealt while 3 or more places are left (--uniform: exactly N; "
             "52*D: all)"},
    ILPM_MACH_DECKS_ROW,
    {.name = "seed",
     .arg = "S",
     .type = ILPM_OPT_INT,
     .lo = 0,
     .hi = LONG_MAX,
     .def = "1",
     .help = "random seed"},
    {.name = "count",
     .arg = "C",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 1000000,
     .def = "1",
     .help = "number of tables"},
    {.name = "near-miss",
     .type = ILPM_OPT_FLAG,
     .help = "remove or add one random card (usually, not always, "
             "unsolvable)"},
    {.name = "hand",
     .arg = "K",
     .type = ILPM_OPT_INT,
     .lo = 0,
     .hi = MAX_CARDS,
     .def = "0",
     .help = "also deal a hand of K cards from those the table leaves (play "
             "instances)"},
    {.name = "ace-high",
     .type = ILPM_OPT_FLAG,
     .help = "deal runs ending Q K A too"},
    {.name = "wrap",
     .type = ILPM_OPT_FLAG,
     .help = "deal runs through K A 2 too"},
    {.name = "laid",
     .type = ILPM_OPT_FLAG,
     .help = "write the table as dealt, '/' between its melds (not with "
             "--near-miss)"},
    {.name = "uniform",
     .type = ILPM_OPT_FLAG,
     .help = "draw exactly N cards uniformly at random from the D decks "
             "instead of dealing melds (most such tables lie near the line "
             "between solvable and unsolvable)"},
    {.name = NULL},
};

typedef struct deal {
    int decks, wrap, ace_high;
    int cnt[NSUITS][NRANKS + 1];
    int total;
    mach_meld melds[MAX_LAID]; /* as dealt, for --laid */
    int nmelds;
} deal;

/* Adds the cards (s[i], r[i]) if every one is still available. */
static int deal_meld(deal *d, const int *s, const int *r, int n)
{
    for (int i = 0; i < n; i++)
        if (d->cnt[s[i]][r[i]] >= d->decks)
            return 0;
    mach_meld *md = &d->melds[d->nmelds++];
    md->n = n;
    for (int i = 0; i < n; i++) {
        d->cnt[s[i]][r[i]]++;
        md->c[i].suit = (uint8_t)s[i];
        md->c[i].rank = (uint8_t)r[i];
    }
    d->total += n;
    return 1;
}

/* A random valid table of about n cards: random runs of 3-6 and sets of
 * 3-4 within the deck limit, until n is reached or nothing more fits.
 * A table of every card is dealt directly (it is always valid: each
 * suit is one run per deck). */
static void deal_table(deal *d, ilpm_rng *rng, int n)
{
    if (n >= NSUITS * NRANKS * d->decks) {
        int s[NRANKS], r[NRANKS];
        for (int k = 0; k < d->decks; k++)
            for (int su = 0; su < NSUITS; su++) {
                for (int i = 0; i < NRANKS; i++) {
                    s[i] = su;
                    r[i] = i + 1;
                }
                deal_meld(d, s, r, NRANKS);
            }
        return;
    }
    for (int fails = 0; fails < 500;) {
        int room = n - d->total;
        if (room < 3)
            break;
        int s[6], r[6], len;
        if (ilpm_rng_below(rng, 2) == 0) {
            int maxlen = room < 6 ? room : 6;
            len = 3 + (int)ilpm_rng_below(rng, (uint64_t)(maxlen - 2));
            int starts = d->wrap       ? NRANKS
                         : d->ace_high ? ACE_HIGH - len + 1
                                       : NRANKS - len + 1;
            int start = 1 + (int)ilpm_rng_below(rng, (uint64_t)starts);
            int suit = (int)ilpm_rng_below(rng, NSUITS);
            for (int i = 0; i < len; i++) {
                s[i] = suit;
                r[i] = start + i > NRANKS ? start + i - NRANKS : start + i;
            }
        } else {
            len = room < 4 ? 3 : 3 + (int)ilpm_rng_below(rng, 2);
            int rank = 1 + (int)ilpm_rng_below(rng, NRANKS);
            int perm[NSUITS] = {0, 1, 2, 3};
            for (int i = NSUITS - 1; i > 0; i--) {
                int j = (int)ilpm_rng_below(rng, (uint64_t)i + 1);
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (int i = 0; i < len; i++) {
                s[i] = perm[i];
                r[i] = rank;
            }
        }
        if (!deal_meld(d, s, r, len))
            fails++;
    }
}

/* A uniformly random copy among those left by both counts, or -1. */
static int pick_card(ilpm_rng *rng, int a[NSUITS][NRANKS + 1],
                     int b[NSUITS][NRANKS + 1], int decks)
{
    int left = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            left += decks - a[s][r] - b[s][r];
    if (left <= 0)
        return -1;
    int k = (int)ilpm_rng_below(rng, (uint64_t)left);
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            k -= decks - a[s][r] - b[s][r];
            if (k < 0)
                return s * 16 + r;
        }
    return -1;
}

static void put_cards(ilpm_buf *out, ilpm_rng *rng, int cnt[NSUITS][NRANKS + 1])
{
    int list[MAX_CARDS], n = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 0; j < cnt[s][r]; j++)
                list[n++] = s * 16 + r;
    for (int i = n - 1; i > 0; i--) { /* the table is a jumble */
        int j = (int)ilpm_rng_below(rng, (uint64_t)i + 1);
        int t = list[i];
        list[i] = list[j];
        list[j] = t;
    }
    for (int i = 0; i < n; i++) {
        char nm[4];
        ilpm_mach_card_name(list[i] / 16, list[i] % 16, nm);
        ilpm_buf_printf(out, " %s", nm);
    }
}

/* The table as laid: its melds in a random order, '/' between them. */
static void put_laid(ilpm_buf *out, ilpm_rng *rng, deal *d)
{
    for (int i = d->nmelds - 1; i > 0; i--) {
        int j = (int)ilpm_rng_below(rng, (uint64_t)i + 1);
        mach_meld t = d->melds[i];
        d->melds[i] = d->melds[j];
        d->melds[j] = t;
    }
    for (int i = 0; i < d->nmelds; i++) {
        char text[MELD_MAX * 5 + 1];
        ilpm_mach_meld_text(&d->melds[i], text, sizeof text);
        ilpm_buf_printf(out, "%s %s", i ? " /" : "", text);
    }
}

/* --uniform: n cards drawn without replacement from the decks, every
 * copy left equally likely at each draw. */
static void draw_table(deal *d, ilpm_rng *rng, int n)
{
    int none[NSUITS][NRANKS + 1] = {{0}};
    for (int i = 0; i < n; i++) {
        int card = pick_card(rng, d->cnt, none, d->decks);
        if (card < 0) /* refuse rules this out */
            break;
        d->cnt[card / 16][card % 16]++;
        d->total++;
    }
}

/* What cannot be dealt is refused from the options alone, whatever the
 * seed: a table is dealt up to --cards (--near-miss may add one) and the
 * hand comes from the rest of the decks. */
static int refuse(long cards, long decks, long hand, int near, int laid,
                  int uniform, ilpm_err *err)
{
    long all = NSUITS * NRANKS * decks;
    if (uniform && (near || laid))
        return ilpm_err_input(err,
                              "--uniform: a table drawn at random has no "
                              "melds to %s; drop %s",
                              laid ? "write as laid" : "miss",
                              laid ? "--laid" : "--near-miss");
    if (near && laid)
        return ilpm_err_input(err, "--laid: a near miss breaks a meld, so its "
                                   "table cannot be written as laid; drop "
                                   "--near-miss or --laid");
    if (cards > all)
        return ilpm_err_input(err,
                              "--cards: %ld is more than the %ld cards of %ld "
                              "deck%s",
                              cards, all, decks, decks > 1 ? "s" : "");
    long stock = all - cards - (near && cards < all);
    if (hand > stock)
        return ilpm_err_input(
            err,
            "--hand: cannot deal %ld: %ld deck%s hold%s %ld "
            "cards and the table may take %ld%s, which "
            "leaves %ld",
            hand, decks, decks > 1 ? "s" : "", decks > 1 ? "" : "s", all,
            all - stock,
            near && cards < all ? " (--near-miss may add one)" : "", stock);
    return 0;
}

/* --near-miss: one random card added, or removed when the coin says so
 * or none is left to add; a comment line says which. */
static void near_miss(deal *d, ilpm_rng *rng, ilpm_buf *out)
{
    int none[NSUITS][NRANKS + 1] = {{0}};
    int add = ilpm_rng_below(rng, 2) == 0 || d->total <= 1;
    int card = add ? pick_card(rng, d->cnt, none, d->decks) : -1;
    if (card < 0) { /* remove a random card */
        int k = (int)ilpm_rng_below(rng, (uint64_t)d->total);
        for (int s = 0; s < NSUITS && card < 0; s++)
            for (int r = 1; r <= NRANKS && card < 0; r++) {
                k -= d->cnt[s][r];
                if (k < 0)
                    card = s * 16 + r;
            }
        add = 0;
    }
    d->cnt[card / 16][card % 16] += add ? 1 : -1;
    char nm[4];
    ilpm_mach_card_name(card / 16, card % 16, nm);
    ilpm_buf_printf(out, "# near miss: %s %s\n", nm, add ? "added" : "removed");
}

/* A hand of n cards from those the table leaves. */
static int put_hand(ilpm_buf *out, ilpm_rng *rng, deal *d, long n,
                    ilpm_err *err)
{
    int h[NSUITS][NRANKS + 1] = {{0}};
    for (long i = 0; i < n; i++) {
        int card = pick_card(rng, d->cnt, h, d->decks);
        if (card < 0) /* refuse rules this out */
            return ilpm_err_input(err, "--hand: the stock ran out");
        h[card / 16][card % 16]++;
    }
    ilpm_buf_puts(out, " | hand:");
    put_cards(out, rng, h);
    return 0;
}

int ilpm_mach_generate(const ilpm_params *p, const ilpm_gen_opts *g,
                       ilpm_buf *out, ilpm_err *err)
{
    (void)g; /* draws without solving */
    long cards, decks, seed, count, hand;
    const ilpm_opt *t = ilpm_mach_gen_opts;
    if (ilpm_params_int(p, t, "decks", &decks, err) != 0 ||
        ilpm_params_int(p, t, "cards", &cards, err) != 0 ||
        ilpm_params_int(p, t, "seed", &seed, err) != 0 ||
        ilpm_params_int(p, t, "count", &count, err) != 0 ||
        ilpm_params_int(p, t, "hand", &hand, err) != 0)
        return -1;
    int near = ilpm_mach_has(p, "near-miss"), laid = ilpm_mach_has(p, "laid");
    int uniform = ilpm_mach_has(p, "uniform");
    if (refuse(cards, decks, hand, near, laid, uniform, err) != 0)
        return -1;
    ilpm_rng rng;
    ilpm_rng_seed(&rng, (uint64_t)seed);
    for (long c = 0; c < count; c++) {
        deal d;
        memset(&d, 0, sizeof d);
        d.decks = (int)decks;
        d.wrap = ilpm_mach_has(p, "wrap");
        d.ace_high = ilpm_mach_has(p, "ace-high");
        if (uniform)
            draw_table(&d, &rng, (int)cards);
        else
            deal_table(&d, &rng, (int)cards);
        if (near)
            near_miss(&d, &rng, out);
        ilpm_buf_puts(out, "table:");
        if (laid)
            put_laid(out, &rng, &d);
        else
            put_cards(out, &rng, d.cnt);
        if (hand > 0 && put_hand(out, &rng, &d, hand, err) != 0)
            return -1;
        ilpm_buf_putc(out, '\n');
    }
    if (out->oom)
        return ilpm_err_nomem(err, "out of memory");
    return 0;
}
