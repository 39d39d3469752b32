/* Machiavelli: rearrange the cards on the table (one or more French decks
 * without jokers) into sets and runs, or lay the most cards of a hand.
 *
 * Two formulations of the same rules:
 *  - planes (default), from the Italian report: x(s,r,k) = 1 when card
 *    (suit s, rank r) lies in plane k; run planes forbid the row patterns
 *    010 and 0110, set planes hold 0, 3 or 4 cards per column;
 *  - melds, den Hertog and Hulshof (2006): set partitioning over every
 *    run of 3-5 cards and every set, one variable per copy of a meld.
 * Suits are 0..3 = H D S C, ranks 1..13 = A..K; column 14 is the ace
 * after the king under --ace-high. */
#include "puzzle.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSUITS 4
#define NRANKS 13
#define ACE_HIGH 14 /* the ace's second column, after the king */
#define MAX_DECKS 8
#define MELD_MAX 14 /* decoded blocks are split to 13 at most */
#define MAX_DEFS (NSUITS * NRANKS * 3 + NRANKS * 5)

static const char suit_letter[NSUITS] = {'H', 'D', 'S', 'C'};
static const char *const rank_text[ACE_HIGH + 1] = {
    "?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};

typedef struct mach_inst {
    int decks;
    int table[NSUITS][NRANKS + 1]; /* copies on the table, [s][rank]   */
    int hand[NSUITS][NRANKS + 1];  /* copies in the hand               */
    int ntable, nhand;
    int has_hand;
    long line; /* line in its file; 0 for --table */
} mach_inst;

typedef struct mach_card {
    uint8_t suit, rank; /* rank 1..13: a high ace is rank 1 too */
    uint8_t played;     /* this copy came from the hand          */
} mach_card;

typedef struct mach_meld {
    int n;
    mach_card c[MELD_MAX];
} mach_meld;

typedef struct mach_sol {
    mach_meld *melds;
    int nmelds, cap;
    int play; /* a play answer: render what was played */
    int played[NSUITS][NRANKS + 1];
} mach_sol;

enum { FORM_PLANES, FORM_MELDS };

typedef struct settings {
    int form;
    int wrap, ace_high; /* ace_high is off under wrap, which covers it */
    int strong, deck_rows, value;
    int play; /* verb "play": the hand takes part */
} settings;

static const ilpm_opt_spec mach_opts[] = {
    {"formulation", "F",
     "planes (default: the report's card planes) or melds (set "
     "partitioning over all melds, den Hertog and Hulshof 2006)"},
    {"decks", "D", "number of decks, 1-8 (default 2)"},
    {"ace-high", NULL, "also allow runs ending Q K A (never K A 2)"},
    {"wrap", NULL, "continuous runs through K A 2 (ranks modulo 13)"},
    {"strong", NULL,
     "planes: set rows y >= x for each suit instead of 4y >= sum x"},
    {"deck-rows", NULL,
     "planes, 1-2 decks: add the report's rows x(2m) + x(2m+1) <= 1 "
     "(they can cut off valid tables: data/machiavelli/README.md)"},
    {"value", NULL,
     "play: maximise the value laid (A=1, 2-10 face, J=11, Q=12, K=13) "
     "instead of the number of cards"},
    {"table", "CARDS", "the table itself, e.g. \"AH 2H 3H 7S 7D 7C\""},
    {"hand", "CARDS", "with --table: the hand, for play"},
    {NULL, NULL, NULL},
};

static const ilpm_opt_spec mach_gen_opts[] = {
    {"cards", "N",
     "about N cards per table, 3 to 52*D (default 20; 52*D: all)"},
    {"decks", "D", "number of decks, 1-8 (default 2)"},
    {"seed", "S", "random seed (default 1)"},
    {"count", "C", "number of tables (default 1)"},
    {"near-miss", NULL,
     "remove or add one random card (usually, not always, unsolvable)"},
    {"hand", "K",
     "also deal a hand of K cards from those the table leaves (play "
     "instances)"},
    {"ace-high", NULL, "deal runs ending Q K A too"},
    {"wrap", NULL, "deal runs through K A 2 too"},
    {NULL, NULL, NULL},
};

static void card_name(int s, int r, char *buf)
{
    snprintf(buf, 4, "%s%c", rank_text[r], suit_letter[s]);
}

static void mach_free(void *p)
{
    free(p);
}

static void mach_sol_free(void *p)
{
    mach_sol *s = p;
    if (s)
        free(s->melds);
    free(s);
}

static int param_int(const ilpm_params *p, const char *name, long def, long lo,
                     long hi, long *out, ilpm_err *err)
{
    if (!p) {
        *out = def;
        return 0;
    }
    return ilpm_params_int(p, name, def, lo, hi, out, err);
}

static int has(const ilpm_params *p, const char *name)
{
    return p && ilpm_params_has(p, name);
}

static int is_play(const ilpm_params *p)
{
    const char *verb = p ? ilpm_params_get(p, "verb") : NULL;
    return verb && strcmp(verb, "play") == 0;
}

/* In the order of FORM_*, the default first. */
static const char *const mach_forms[] = {"planes", "melds", NULL};

static int read_settings(const ilpm_params *p, settings *st, ilpm_err *err)
{
    memset(st, 0, sizeof *st);
    if (p && ilpm_params_choice(p, "formulation", mach_forms, FORM_PLANES,
                                &st->form, err) != 0)
        return -1;
    st->wrap = has(p, "wrap");
    st->ace_high = has(p, "ace-high") && !st->wrap;
    st->strong = has(p, "strong");
    st->deck_rows = has(p, "deck-rows");
    st->value = has(p, "value");
    st->play = is_play(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

/* Length of the valid UTF-8 sequence at s[0..n), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] < 0x80                    ? 1
               : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
               : s[0] >= 0xe0 && s[0] <= 0xef ? 3
               : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                              : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return k;
}

/* A token for a message: printable, escaped, cut after 24 bytes. */
static void show_token(const char *t, size_t n, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < size;) {
        const unsigned char *u = (const unsigned char *)t + i;
        size_t k = utf8_len(u, n - i);
        if (i >= 24) {
            o += (size_t)snprintf(out + o, size - o, "...");
            break;
        }
        if (k == 1 && u[0] >= 0x20 && u[0] < 0x7f) {
            out[o++] = (char)u[0];
        } else if (k > 1) {
            memcpy(out + o, u, k);
            o += k;
        } else {
            o += (size_t)snprintf(out + o, size - o, "\\x%02X", u[0]);
            k = 1;
        }
        i += k;
    }
    out[o] = '\0';
}

/* Suit of t[0..n): a letter or a card symbol (U+2660..U+2667), possibly
 * followed by the emoji selector U+FE0F.  -1 if it is none of those. */
static int parse_suit(const char *t, size_t n)
{
    const unsigned char *u = (const unsigned char *)t;
    if (n == 1) {
        switch (u[0]) {
        case 'H':
        case 'h':
            return 0;
        case 'D':
        case 'd':
            return 1;
        case 'S':
        case 's':
            return 2;
        case 'C':
        case 'c':
            return 3;
        default:
            return -1;
        }
    }
    if ((n == 3 || (n == 6 && u[3] == 0xef && u[4] == 0xb8 && u[5] == 0x8f)) &&
        u[0] == 0xe2 && u[1] == 0x99 && u[2] >= 0xa0 && u[2] <= 0xa7) {
        /* U+2660.. in order: spade, heart, diamond, club, white spade,
         * black heart, black diamond, white club. */
        static const int suit_of[8] = {2, 0, 1, 3, 2, 0, 1, 3};
        return suit_of[u[2] - 0xa0];
    }
    return -1;
}

/* Rank of a card token: sets *r (1..13) and the length of the rank
 * part, or returns -1. */
static int parse_rank(const char *t, size_t n, int *r, size_t *used)
{
    if (n >= 2 && t[0] == '1' && t[1] == '0') {
        *r = 10;
        *used = 2;
        return 0;
    }
    if (n < 1)
        return -1;
    static const char ranks[] = "A23456789TJQK";
    const char *q =
        strchr(ranks, t[0] >= 'a' && t[0] <= 'z' ? t[0] - 'a' + 'A' : t[0]);
    if (!q || t[0] == '\0')
        return -1;
    *r = (int)(q - ranks) + 1;
    *used = 1;
    return 0;
}

static int is_sep(char c)
{
    return c == ' ' || c == '\t' || c == ',';
}

static int starts_word_ci(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return 0;
    }
    return 1;
}

static void decks_phrase(int decks, char *buf, size_t size)
{
    if (decks == 1)
        snprintf(buf, size, "there is only 1 deck");
    else
        snprintf(buf, size, "there are only %d decks", decks);
}

/* Reads cards from s[*pos..n) up to the end or a '|' into counts.  For
 * the hand, table holds the table's counts for the deck limit.  On an
 * error returns -1 with the bare message in err and its offset in *at. */
static int parse_cards(const char *s, size_t n, size_t *pos,
                       int counts[NSUITS][NRANKS + 1],
                       int table[NSUITS][NRANKS + 1], int decks, int *total,
                       size_t *at, ilpm_err *err)
{
    size_t i = *pos;
    for (;;) {
        while (i < n && is_sep(s[i]))
            i++;
        if (i >= n || s[i] == '|')
            break;
        size_t b = i;
        while (i < n && !is_sep(s[i]) && s[i] != '|')
            i++;
        const char *t = s + b;
        size_t len = i - b;
        char shown[128];
        show_token(t, len, shown, sizeof shown);
        *at = b;
        if (starts_word_ci(t, len, "hand:") ||
            (len == 4 && starts_word_ci(t, len, "hand")))
            return ilpm_err_set(err, table ? "a second 'hand:'"
                                           : "expected '|' before 'hand:'");
        int r, su;
        size_t used;
        if (parse_rank(t, len, &r, &used) != 0)
            return ilpm_err_set(err,
                                "unknown card '%s': rank must be A, 2-10, "
                                "J, Q, K",
                                shown);
        su = parse_suit(t + used, len - used);
        if (su < 0)
            return ilpm_err_set(err,
                                "unknown card '%s': suit must be H, D, S, "
                                "C (or \u2665 \u2666 \u2660 \u2663)",
                                shown);
        char name[4], limit[40];
        card_name(su, r, name);
        decks_phrase(decks, limit, sizeof limit);
        int have = counts[su][r] + (table ? table[su][r] : 0);
        if (have + 1 > decks) {
            if (table)
                return ilpm_err_set(err,
                                    "card %s appears %d times on the table "
                                    "and in the hand together but %s",
                                    name, have + 1, limit);
            return ilpm_err_set(err, "card %s appears %d times but %s", name,
                                have + 1, limit);
        }
        counts[su][r]++;
        (*total)++;
    }
    *pos = i;
    return 0;
}

static size_t skip_blanks(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

/* "word:" with optional blanks before the colon; returns the offset past
 * the colon or 0 if absent. */
static size_t match_prefix(const char *s, size_t n, size_t i, const char *word)
{
    size_t k = strlen(word);
    if (!starts_word_ci(s + i, n - i, word))
        return 0;
    i = skip_blanks(s, n, i + k);
    return i < n && s[i] == ':' ? i + 1 : 0;
}

/* Parses one instance line; on an error returns -1 with a bare message
 * in err and its byte offset in *at. */
static int parse_line(const char *s, size_t n, int decks, int need_hand,
                      mach_inst *in, size_t *at, ilpm_err *err)
{
    memset(in, 0, sizeof *in);
    in->decks = decks;
    size_t i = skip_blanks(s, n, 0);
    size_t j = match_prefix(s, n, i, "table");
    if (!j) {
        *at = i;
        return ilpm_err_set(err, "expected 'table:' at the start of the "
                                 "line");
    }
    i = j;
    if (parse_cards(s, n, &i, in->table, NULL, decks, &in->ntable, at, err) !=
        0)
        return -1;
    if (in->ntable == 0) {
        *at = i;
        return ilpm_err_set(err, "empty table: no cards after 'table:'");
    }
    if (i < n && s[i] == '|') {
        size_t k = skip_blanks(s, n, i + 1);
        j = match_prefix(s, n, k, "hand");
        if (!j) {
            *at = k;
            return ilpm_err_set(err, "expected 'hand:' after '|'");
        }
        i = j;
        if (parse_cards(s, n, &i, in->hand, in->table, decks, &in->nhand, at,
                        err) != 0)
            return -1;
        if (i < n && s[i] == '|') {
            *at = i;
            return ilpm_err_set(err, "unexpected second '|'");
        }
        if (in->nhand == 0) {
            *at = i;
            return ilpm_err_set(err, "empty hand: no cards after 'hand:'");
        }
        in->has_hand = 1;
    }
    if (need_hand && !in->has_hand) {
        *at = n;
        return ilpm_err_set(err, "play needs a hand: write 'table: "
                                 "<cards> | hand: <cards>'");
    }
    return 0;
}

/* Columns count characters, so that a suit symbol is one column. */
static long column_of(const char *s, size_t off)
{
    long col = 1;
    for (size_t i = 0; i < off; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            col++;
    return col;
}

static int mach_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                      ilpm_err *err)
{
    long decks;
    if (param_int(p, "decks", 2, 1, MAX_DECKS, &decks, err) != 0)
        return -1;
    const char *line;
    size_t len;
    int rc;
    while ((rc = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        if (ilpm_line_is_blank_or_comment(line))
            continue;
        mach_inst *in = malloc(sizeof *in);
        if (!in)
            return ilpm_reader_error(rd, err, 0, "out of memory");
        size_t at = 0;
        ilpm_err e;
        if (parse_line(line, len, (int)decks, is_play(p), in, &at, &e) != 0) {
            free(in);
            return ilpm_reader_error(rd, err, column_of(line, at), "%s", e.msg);
        }
        in->line = ilpm_reader_lineno(rd);
        *inst = in;
        return 1;
    }
    return rc;
}

static int mach_from_params(const ilpm_params *p, void **inst, ilpm_err *err)
{
    const char *table = p ? ilpm_params_get(p, "table") : NULL;
    const char *hand = p ? ilpm_params_get(p, "hand") : NULL;
    if (!table) {
        if (hand)
            return ilpm_err_set(err, "--hand needs --table");
        return 0;
    }
    long decks;
    if (param_int(p, "decks", 2, 1, MAX_DECKS, &decks, err) != 0)
        return -1;
    mach_inst *in = calloc(1, sizeof *in);
    if (!in)
        return ilpm_err_set(err, "out of memory");
    in->decks = (int)decks;
    size_t pos = 0, at = 0;
    ilpm_err e;
    if (parse_cards(table, strlen(table), &pos, in->table, NULL, in->decks,
                    &in->ntable, &at, &e) != 0 ||
        (table[pos] == '|' &&
         ilpm_err_set(&e, "'|' in --table: give the hand with --hand"))) {
        free(in);
        return ilpm_err_set(err, "--table: %s", e.msg);
    }
    if (in->ntable == 0) {
        free(in);
        return ilpm_err_set(err, "--table: empty table");
    }
    if (hand) {
        pos = 0;
        if (parse_cards(hand, strlen(hand), &pos, in->hand, in->table,
                        in->decks, &in->nhand, &at, &e) != 0 ||
            (hand[pos] == '|' && ilpm_err_set(&e, "unexpected '|'"))) {
            free(in);
            return ilpm_err_set(err, "--hand: %s", e.msg);
        }
        if (in->nhand == 0) {
            free(in);
            return ilpm_err_set(err, "--hand: empty hand");
        }
        in->has_hand = 1;
    }
    if (is_play(p) && !in->has_hand) {
        free(in);
        return ilpm_err_set(err, "play needs a hand: add --hand \"CARDS\"");
    }
    *inst = in;
    return 1;
}

static void mach_describe(const void *vinst, char *buf, size_t size)
{
    const mach_inst *in = vinst;
    char where[32];
    if (in->line > 0)
        snprintf(where, sizeof where, "line %ld", in->line);
    else
        snprintf(where, sizeof where, "--table");
    if (in->has_hand)
        snprintf(buf, size, "%s (%d cards, hand %d)", where, in->ntable,
                 in->nhand);
    else
        snprintf(buf, size, "%s (%d cards)", where, in->ntable);
}

/* ------------------------------------------------------------------ */
/* Model: what both formulations share                                  */

/* Copies of a card available to the arrangement. */
static int avail(const mach_inst *in, const settings *st, int s, int r)
{
    return in->table[s][r] + (st->play ? in->hand[s][r] : 0);
}

/* Hand variables h_<card>[1..copies]: the j-th copy of a hand card is
 * laid.  Copy j+1 only after copy j (the copies are interchangeable).
 * Fills hfam[s][r] (-1 when the card is not in the hand). */
static int build_hand(const mach_inst *in, ilpm_model *m,
                      int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            hfam[s][r] = -1;
            if (!in->hand[s][r])
                continue;
            char name[16], card[4];
            card_name(s, r, card);
            snprintf(name, sizeof name, "h_%s", card);
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
static int hand_objective(const mach_inst *in, const settings *st,
                          ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                          ilpm_err *err)
{
    int lits[NSUITS * NRANKS * MAX_DECKS];
    int64_t coefs[NSUITS * NRANKS * MAX_DECKS];
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
static int add_hand_lits(const mach_inst *in, const settings *st,
                         const ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                         int s, int r, int *lits, int n)
{
    if (!st->play)
        return n;
    for (int j = 1; j <= in->hand[s][r]; j++)
        lits[n++] = -ilpm_model_var(m, hfam[s][r], j, 0, 0, 0);
    return n;
}

/* ------------------------------------------------------------------ */
/* Formulation 1: planes                                                */

/* Extra run planes under --wrap.  Runs of one suit are then arcs of a
 * circle, and D planes are not always enough: with two decks the runs
 * 2-4 4-6 6-8 8-J J-A-2 form an odd cycle, each overlapping the next, so
 * three planes are needed (an exhaustive check over all coverings of the
 * circle finds D + 1 planes enough for D <= 3; we know no proof for
 * larger D).  The bound used is proven: cut the circle at a rank p of
 * least coverage m; the m runs through p take a plane each and the
 * others are intervals of a line, which D planes hold.  m is at most
 * the least count of a rank in the suit, so a suit missing a rank, the
 * usual case, needs no extra plane. */
static int wrap_extra(const mach_inst *in, const settings *st)
{
    int extra = 0;
    for (int s = 0; s < NSUITS; s++) {
        int least = INT_MAX;
        for (int r = 1; r <= NRANKS; r++)
            if (avail(in, st, s, r) < least)
                least = avail(in, st, s, r);
        if (least > extra)
            extra = least;
    }
    return extra;
}

typedef struct planes {
    int xr, xs, y;  /* families                                   */
    int nrun, nset; /* planes of each kind                        */
    int ncol;       /* columns of a run row: 13, 14 with ace-high */
} planes;

static void planes_shape(const mach_inst *in, const settings *st, planes *pl)
{
    int d = in->decks;
    /* Runs of one suit on a line form an interval graph whose cliques
     * are at most D (no card more than D times), so D run planes hold
     * any set of runs; adjacent runs on one plane merge into a longer
     * run, which is still valid.  Sets: D planes.  The n cards of one
     * rank that can form sets, with m the most copies of one suit among
     * them, need at least m sets (a set holds one card per suit) and so
     * 3m <= n <= 4m; dealing them suit by suit round-robin into m sets
     * gives each set 3 or 4 cards of distinct suits.  m <= D. */
    pl->nrun = d + (st->wrap ? wrap_extra(in, st) : 0);
    pl->nset = d;
    pl->ncol = st->ace_high ? ACE_HIGH : NRANKS;
}

/* Column j of a run row, after wrap-around; 0 when outside the row. */
static int run_col(const settings *st, const planes *pl, int j)
{
    if (st->wrap)
        return (j - 1 + NRANKS) % NRANKS + 1;
    return j >= 1 && j <= pl->ncol ? j : 0;
}

static int build_planes(const mach_inst *in, const settings *st, ilpm_model *m,
                        int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
{
    planes pl;
    planes_shape(in, st, &pl);
    int lo[3] = {0, 1, 0}, hi[3] = {NSUITS - 1, pl.ncol, pl.nrun - 1};
    /* The report's plane 2m is xr[.,.,m] and plane 2m+1 is xs[.,.,m]:
     * two families because run planes have the extra ace column and
     * there are more set planes than run planes from 3 decks on. */
    if ((pl.xr = ilpm_model_family(m, "xr", 3, lo, hi, 0, err)) < 0)
        return -1;
    hi[1] = NRANKS;
    hi[2] = pl.nset - 1;
    if ((pl.xs = ilpm_model_family(m, "xs", 3, lo, hi, 0, err)) < 0)
        return -1;
    int ylo[2] = {1, 0}, yhi[2] = {NRANKS, pl.nset - 1};
    if ((pl.y = ilpm_model_family(m, "y", 2, ylo, yhi, ILPM_FAM_AUX, err)) < 0)
        return -1;
    if (st->play && build_hand(in, m, hfam, err) != 0)
        return -1;
#define XR(s, r, k) ilpm_model_var(m, pl.xr, s, r, k, 0)
#define XS(s, r, k) ilpm_model_var(m, pl.xs, s, r, k, 0)

    /* The report's deck rows: a card at most once in the planes 2m and
     * 2m+1.  No rule of the game implies them and they can cut off every
     * arrangement (data/machiavelli/deck_rows.txt and its README), hence
     * an option.  Without them the consistency rows alone bound each
     * card's use; from 3 decks on, run and set planes no longer pair up
     * and the rows are not defined. */
    if (st->deck_rows) {
        if (in->decks > 2)
            return ilpm_err_set(err, "--deck-rows: the report's deck rows "
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
    }

    /* Each column of a set plane holds 0, 3 or 4 cards: y(r,k) >= 1/4
     * sum_s x(s,r,k), scaled to 4y - sum x >= 0 (or, with --strong,
     * y >= x for each suit), and sum x >= 3y. */
    if (ilpm_model_group(m, "set", err) < 0)
        return -1;
    for (int k = 0; k < pl.nset; k++)
        for (int r = 1; r <= NRANKS; r++) {
            int y = ilpm_model_var(m, pl.y, r, k, 0, 0);
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

    /* Run rows: no pattern 010 (-x[j-1] + x[j] - x[j+1] <= 0) and no
     * 0110 (-x[j-1] + x[j] + x[j+1] - x[j+2] <= 1), terms outside the
     * row dropped.  Each is exactly a clause (x[j-1] or not x[j] or
     * x[j+1]; x[j-1] or not x[j] or not x[j+1] or x[j+2]): the ILP
     * lowering folds the negations back into the report's rows, and CNF
     * needs no encoding at all. */
    if (ilpm_model_group(m, "run", err) < 0)
        return -1;
    for (int k = 0; k < pl.nrun; k++)
        for (int s = 0; s < NSUITS; s++)
            for (int j = 1; j <= pl.ncol; j++) {
                int prev = run_col(st, &pl, j - 1);
                int next = run_col(st, &pl, j + 1);
                int next2 = run_col(st, &pl, j + 2);
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

    /* Every card on the table (and every card laid) in one plane. */
    if (ilpm_model_group(m, "consistency", err) < 0)
        return -1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            int lits[2 * MAX_DECKS + MAX_DECKS + MAX_DECKS * 2 + MAX_DECKS];
            int n = 0;
            for (int k = 0; k < pl.nrun; k++) {
                lits[n++] = XR(s, r, k);
                if (r == 1 && st->ace_high)
                    lits[n++] = XR(s, ACE_HIGH, k);
            }
            for (int k = 0; k < pl.nset; k++)
                lits[n++] = XS(s, r, k);
            int nh = st->play ? in->hand[s][r] : 0;
            n = add_hand_lits(in, st, m, hfam, s, r, lits, n);
            if (ilpm_add_card(m, lits, n, ILPM_EQ, in->table[s][r] + nh, err) !=
                0)
                return -1;
        }
#undef XR
#undef XS
    return 0;
}

/* ------------------------------------------------------------------ */
/* Formulation 2: melds                                                 */

typedef struct meld_def {
    int n;
    uint8_t suit[5], rank[5]; /* rank 1..13 */
    char name[16];
} meld_def;

/* Every meld the rules allow, in a fixed order (build and decode walk
 * the same list): runs of 3, 4 and 5 cards, which cover longer runs by
 * splitting them, then sets of 4 and of 3. */
static int meld_defs(const settings *st, meld_def *out)
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
                snprintf(d->name, sizeof d->name, "R_%c_%s_%s", suit_letter[s],
                         rank_text[d->rank[0]], rank_text[d->rank[len - 1]]);
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
                    suits[k++] = suit_letter[s];
                }
            suits[k] = '\0';
            d->n = k;
            snprintf(d->name, sizeof d->name, "S_%s_%s", rank_text[r], suits);
        }
    return n;
}

/* Copies of a meld the cards allow. */
static int meld_copies(const mach_inst *in, const settings *st,
                       const meld_def *d)
{
    int c = INT_MAX;
    for (int i = 0; i < d->n; i++) {
        int a = avail(in, st, d->suit[i], d->rank[i]);
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

static int build_melds(const mach_inst *in, const settings *st, ilpm_model *m,
                       int hfam[NSUITS][NRANKS + 1], ilpm_err *err)
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
        if ((fam[i] = ilpm_model_family(m, defs[i].name, 1, &lo, &hi, 0, err)) <
            0)
            return -1;
    }
    if (st->play && build_hand(in, m, hfam, err) != 0)
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
            if (avail(in, st, s, r) == 0)
                continue;
            int lits[MAX_DEFS * MAX_DECKS];
            int n = 0;
            for (int i = 0; i < nd; i++)
                if (copies[i] && meld_has(&defs[i], s, r))
                    for (int j = 1; j <= copies[i]; j++)
                        lits[n++] = ilpm_model_var(m, fam[i], j, 0, 0, 0);
            int nh = st->play ? in->hand[s][r] : 0;
            n = add_hand_lits(in, st, m, hfam, s, r, lits, n);
            if (n == 0) {
                uncovered = 1; /* a table card no meld can take */
                continue;
            }
            if (ilpm_add_card(m, lits, n, ILPM_EQ, in->table[s][r] + nh, err) !=
                0)
                return -1;
        }
    if (uncovered) {
        /* A table card in no possible meld: the model must be
         * infeasible, and a constraint cannot be empty. */
        int lo = 0, hi = 0;
        int f = ilpm_model_family(m, "no_meld", 1, &lo, &hi, ILPM_FAM_AUX, err);
        if (f < 0)
            return -1;
        int v = ilpm_model_var(m, f, 0, 0, 0, 0), nv = -v;
        if (ilpm_add_clause(m, &v, 1, err) != 0 ||
            ilpm_add_clause(m, &nv, 1, err) != 0)
            return -1;
    }
    return 0;
}

static int mach_build(const void *vinst, const ilpm_params *p, ilpm_model *m,
                      ilpm_err *err)
{
    const mach_inst *in = vinst;
    settings st;
    if (read_settings(p, &st, err) != 0)
        return -1;
    if (st.play && !in->has_hand)
        return ilpm_err_set(err, "play needs a hand: write 'table: <cards> "
                                 "| hand: <cards>'");
    int hfam[NSUITS][NRANKS + 1];
    int rc = st.form == FORM_MELDS ? build_melds(in, &st, m, hfam, err)
                                   : build_planes(in, &st, m, hfam, err);
    if (rc != 0)
        return -1;
    if (st.play && (hand_symmetry(in, m, hfam, err) != 0 ||
                    hand_objective(in, &st, m, hfam, err) != 0))
        return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Decoding                                                             */

static mach_meld *new_meld(mach_sol *sol, ilpm_err *err)
{
    if (sol->nmelds == sol->cap) {
        int c = sol->cap ? 2 * sol->cap : 16;
        mach_meld *q = realloc(sol->melds, (size_t)c * sizeof *q);
        if (!q) {
            ilpm_err_set(err, "out of memory");
            return NULL;
        }
        sol->melds = q;
        sol->cap = c;
    }
    mach_meld *md = &sol->melds[sol->nmelds++];
    md->n = 0;
    return md;
}

static void meld_push(mach_meld *md, int s, int r)
{
    if (md->n < MELD_MAX) {
        md->c[md->n].suit = (uint8_t)s;
        md->c[md->n].rank = (uint8_t)(r == ACE_HIGH ? 1 : r);
        md->c[md->n].played = 0;
        md->n++;
    }
}

/* One run row -> runs: maximal blocks of ones (circular under wrap).
 * A block of all 14 columns (A..K and the high ace) is split into
 * A..J and Q K A, since a run holds each rank once. */
static int decode_row(const uint8_t *bit, int ncol, int wrap, int s,
                      mach_sol *sol, ilpm_err *err)
{
    int ones = 0, zero = 0;
    for (int j = 1; j <= ncol; j++) {
        ones += bit[j];
        if (!bit[j])
            zero = j;
    }
    if (ones == 0)
        return 0;
    if (ones == ncol && ncol == ACE_HIGH) {
        mach_meld *a = new_meld(sol, err), *b;
        if (!a)
            return -1;
        for (int j = 1; j <= 11; j++)
            meld_push(a, s, j);
        if (!(b = new_meld(sol, err)))
            return -1;
        for (int j = 12; j <= ACE_HIGH; j++)
            meld_push(b, s, j);
        return 0;
    }
    if (ones == ncol) { /* a full circle under wrap, or A..K */
        mach_meld *a = new_meld(sol, err);
        if (!a)
            return -1;
        for (int j = 1; j <= ncol; j++)
            meld_push(a, s, j);
        return 0;
    }
    /* Start after a zero so that no block is cut by the scan. */
    int start = wrap ? zero : 0;
    mach_meld *cur = NULL;
    for (int t = 1; t <= ncol; t++) {
        int j = wrap ? (start + t - 1) % ncol + 1 : t;
        if (!bit[j]) {
            cur = NULL;
            continue;
        }
        if (!cur && !(cur = new_meld(sol, err)))
            return -1;
        meld_push(cur, s, j);
    }
    return 0;
}

static int decode_planes(const mach_inst *in, const settings *st,
                         const ilpm_model *m, const uint8_t *vals,
                         mach_sol *sol, ilpm_err *err)
{
    planes pl;
    planes_shape(in, st, &pl);
    pl.xr = ilpm_model_family_find(m, "xr");
    pl.xs = ilpm_model_family_find(m, "xs");
    if (pl.xr < 0 || pl.xs < 0)
        return ilpm_err_set(err, "not a planes model of this table");
    for (int k = 0; k < pl.nrun; k++)
        for (int s = 0; s < NSUITS; s++) {
            uint8_t bit[ACE_HIGH + 1] = {0};
            for (int j = 1; j <= pl.ncol; j++) {
                int v = ilpm_model_var(m, pl.xr, s, j, k, 0);
                if (!v)
                    return ilpm_err_set(err, "not a planes model of this "
                                             "table");
                bit[j] = vals[v] != 0;
            }
            if (decode_row(bit, pl.ncol, st->wrap, s, sol, err) != 0)
                return -1;
        }
    for (int k = 0; k < pl.nset; k++)
        for (int r = 1; r <= NRANKS; r++) {
            mach_meld *md = NULL;
            for (int s = 0; s < NSUITS; s++) {
                int v = ilpm_model_var(m, pl.xs, s, r, k, 0);
                if (!v)
                    return ilpm_err_set(err, "not a planes model of this "
                                             "table");
                if (!vals[v])
                    continue;
                if (!md && !(md = new_meld(sol, err)))
                    return -1;
                meld_push(md, s, r);
            }
        }
    return 0;
}

static int decode_melds(const mach_inst *in, const settings *st,
                        const ilpm_model *m, const uint8_t *vals, mach_sol *sol,
                        ilpm_err *err)
{
    meld_def defs[MAX_DEFS];
    int nd = meld_defs(st, defs);
    for (int i = 0; i < nd; i++) {
        int copies = meld_copies(in, st, &defs[i]);
        if (!copies)
            continue;
        int f = ilpm_model_family_find(m, defs[i].name);
        if (f < 0)
            return ilpm_err_set(err, "not a melds model of this table");
        for (int j = 1; j <= copies; j++) {
            int v = ilpm_model_var(m, f, j, 0, 0, 0);
            if (!v)
                return ilpm_err_set(err, "not a melds model of this table");
            if (!vals[v])
                continue;
            mach_meld *md = new_meld(sol, err);
            if (!md)
                return -1;
            for (int c = 0; c < defs[i].n; c++)
                meld_push(md, defs[i].suit[c], defs[i].rank[c]);
        }
    }
    return 0;
}

static void *mach_decode(const void *vinst, const ilpm_params *p,
                         const ilpm_model *m, const uint8_t *vals,
                         ilpm_err *err)
{
    const mach_inst *in = vinst;
    settings st;
    if (read_settings(p, &st, err) != 0)
        return NULL;
    mach_sol *sol = calloc(1, sizeof *sol);
    if (!sol) {
        ilpm_err_set(err, "out of memory");
        return NULL;
    }
    st.play = st.play && in->has_hand;
    sol->play = st.play;
    int rc = st.form == FORM_MELDS ? decode_melds(in, &st, m, vals, sol, err)
                                   : decode_planes(in, &st, m, vals, sol, err);
    if (rc != 0) {
        mach_sol_free(sol);
        return NULL;
    }
    if (st.play) {
        for (int s = 0; s < NSUITS; s++)
            for (int r = 1; r <= NRANKS; r++) {
                if (!in->hand[s][r])
                    continue;
                char name[16], card[4];
                card_name(s, r, card);
                snprintf(name, sizeof name, "h_%s", card);
                int f = ilpm_model_family_find(m, name);
                for (int j = 1; j <= in->hand[s][r]; j++) {
                    int v = ilpm_model_var(m, f, j, 0, 0, 0);
                    if (v && vals[v])
                        sol->played[s][r]++;
                }
            }
        /* Mark the played copies, the first ones met, for display. */
        int left[NSUITS][NRANKS + 1];
        memcpy(left, sol->played, sizeof left);
        for (int i = 0; i < sol->nmelds; i++)
            for (int c = 0; c < sol->melds[i].n; c++) {
                mach_card *cd = &sol->melds[i].c[c];
                if (left[cd->suit][cd->rank] > 0) {
                    left[cd->suit][cd->rank]--;
                    cd->played = 1;
                }
            }
    }
    return sol;
}

/* ------------------------------------------------------------------ */
/* Verification: the rules alone, sharing nothing with build and decode
 * but the card names. */

static void meld_text(const mach_meld *md, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < md->n && o + 5 < size; i++) {
        char nm[4];
        card_name(md->c[i].suit, md->c[i].rank, nm);
        o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? " " : "", nm);
    }
}

static int check_meld(const mach_meld *md, int idx, int wrap, int ace_high,
                      ilpm_err *why)
{
    char text[80];
    meld_text(md, text, sizeof text);
    if (md->n < 3)
        return ilpm_err_set(why,
                            "meld %d (%s): %d cards, a meld needs 3 "
                            "or more",
                            idx, text, md->n);
    for (int i = 0; i < md->n; i++)
        if (md->c[i].suit >= NSUITS || md->c[i].rank < 1 ||
            md->c[i].rank > NRANKS)
            return ilpm_err_set(why, "meld %d: card %d is not a card", idx,
                                i + 1);
    int same_rank = 1, same_suit = 1;
    for (int i = 1; i < md->n; i++) {
        same_rank &= md->c[i].rank == md->c[0].rank;
        same_suit &= md->c[i].suit == md->c[0].suit;
    }
    if (same_rank) {
        if (md->n > 4)
            return ilpm_err_set(why, "meld %d (%s): a set has 3 or 4 cards",
                                idx, text);
        for (int i = 0; i < md->n; i++)
            for (int j = i + 1; j < md->n; j++)
                if (md->c[i].suit == md->c[j].suit)
                    return ilpm_err_set(why,
                                        "meld %d (%s): a set needs "
                                        "different suits",
                                        idx, text);
        return 0;
    }
    if (!same_suit)
        return ilpm_err_set(why,
                            "meld %d (%s): neither a set (one rank) "
                            "nor a run (one suit)",
                            idx, text);
    unsigned seen = 0;
    for (int i = 0; i < md->n; i++) {
        int r = md->c[i].rank;
        if (seen & (1u << r))
            return ilpm_err_set(why,
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
            return ilpm_err_set(why,
                                ace_high ? "meld %d (%s): K A 2 needs --wrap"
                                         : "meld %d (%s): an ace after the "
                                           "king needs --ace-high or --wrap",
                                idx, text);
        }
        return ilpm_err_set(why, "meld %d (%s): ranks not consecutive", idx,
                            text);
    }
    return 0;
}

static int mach_verify(const void *vinst, const ilpm_params *p,
                       const void *vsol, ilpm_err *why)
{
    const mach_inst *in = vinst;
    const mach_sol *sol = vsol;
    int wrap = has(p, "wrap");
    int ace_high = has(p, "ace-high");
    int play = is_play(p) && in->has_hand;
    int used[NSUITS][NRANKS + 1] = {{0}}, marked[NSUITS][NRANKS + 1] = {{0}};
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        if (check_meld(md, i + 1, wrap, ace_high, why) != 0)
            return -1;
        for (int c = 0; c < md->n; c++) {
            used[md->c[c].suit][md->c[c].rank]++;
            marked[md->c[c].suit][md->c[c].rank] += md->c[c].played != 0;
        }
    }
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            char nm[4];
            card_name(s, r, nm);
            int pl = sol->played[s][r];
            if (pl < 0 || (!play && pl > 0))
                return ilpm_err_set(why, "card %s played without a hand", nm);
            if (pl > in->hand[s][r])
                return ilpm_err_set(why,
                                    "card %s: %d played, the hand "
                                    "holds %d",
                                    nm, pl, in->hand[s][r]);
            if (marked[s][r] != pl)
                return ilpm_err_set(why,
                                    "card %s: %d copies marked played, %d "
                                    "played",
                                    nm, marked[s][r], pl);
            if (used[s][r] != in->table[s][r] + pl)
                return ilpm_err_set(why,
                                    "card %s: the melds hold %d, the table "
                                    "has %d%s",
                                    nm, used[s][r], in->table[s][r],
                                    pl ? " plus the played ones" : "");
        }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                               */

static void mach_render(const void *vinst, const void *vsol, ilpm_buf *out)
{
    (void)vinst;
    const mach_sol *sol = vsol;
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        for (int c = 0; c < md->n; c++) {
            char nm[4];
            card_name(md->c[c].suit, md->c[c].rank, nm);
            ilpm_buf_printf(out, "%s%s%s", c ? " " : "", nm,
                            md->c[c].played ? "*" : "");
        }
        ilpm_buf_putc(out, '\n');
    }
    if (!sol->play)
        return;
    ilpm_buf_puts(out, "played:");
    int any = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 0; j < sol->played[s][r]; j++) {
                char nm[4];
                card_name(s, r, nm);
                ilpm_buf_printf(out, " %s", nm);
                any = 1;
            }
    ilpm_buf_puts(out, any ? " (marked *)\n" : " none\n");
}

static void mach_render_json(const void *vinst, const void *vsol, ilpm_buf *out)
{
    (void)vinst;
    const mach_sol *sol = vsol;
    char nm[4];
    ilpm_buf_puts(out, "{\"melds\": [");
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        ilpm_buf_puts(out, i ? ", [" : "[");
        for (int c = 0; c < md->n; c++) {
            card_name(md->c[c].suit, md->c[c].rank, nm);
            if (c)
                ilpm_buf_puts(out, ", ");
            ilpm_buf_json_str(out, nm);
        }
        ilpm_buf_putc(out, ']');
    }
    ilpm_buf_puts(out, "], \"played\": [");
    int first = 1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 0; j < sol->played[s][r]; j++) {
                card_name(s, r, nm);
                if (!first)
                    ilpm_buf_puts(out, ", ");
                ilpm_buf_json_str(out, nm);
                first = 0;
            }
    ilpm_buf_puts(out, "]}");
}

/* ------------------------------------------------------------------ */
/* Generator                                                            */

typedef struct deal {
    int decks, wrap, ace_high;
    int cnt[NSUITS][NRANKS + 1];
    int total;
} deal;

/* Adds the cards (s[i], r[i]) if every one is still available. */
static int deal_meld(deal *d, const int *s, const int *r, int n)
{
    for (int i = 0; i < n; i++)
        if (d->cnt[s[i]][r[i]] >= d->decks)
            return 0;
    for (int i = 0; i < n; i++)
        d->cnt[s[i]][r[i]]++;
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
        for (int s = 0; s < NSUITS; s++)
            for (int r = 1; r <= NRANKS; r++)
                d->cnt[s][r] = d->decks;
        d->total = NSUITS * NRANKS * d->decks;
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
    int list[NSUITS * NRANKS * MAX_DECKS], n = 0;
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
        card_name(list[i] / 16, list[i] % 16, nm);
        ilpm_buf_printf(out, " %s", nm);
    }
}

static int mach_generate(const ilpm_params *p, ilpm_buf *out, ilpm_err *err)
{
    long cards, decks, seed, count, hand;
    if (param_int(p, "decks", 2, 1, MAX_DECKS, &decks, err) != 0 ||
        param_int(p, "cards", 20, 3, NSUITS * NRANKS * MAX_DECKS, &cards,
                  err) != 0 ||
        param_int(p, "seed", 1, 0, LONG_MAX, &seed, err) != 0 ||
        param_int(p, "count", 1, 1, 1000000, &count, err) != 0 ||
        param_int(p, "hand", 0, 0, NSUITS * NRANKS * MAX_DECKS, &hand, err) !=
            0)
        return -1;
    /* What cannot be dealt is refused from the options alone, whatever
     * the seed: a table is dealt up to --cards (--near-miss may add one)
     * and the hand comes from the rest of the decks. */
    long all = NSUITS * NRANKS * decks;
    int near = has(p, "near-miss");
    if (cards > all)
        return ilpm_err_set(err,
                            "--cards: %ld is more than the %ld cards of %ld "
                            "deck%s",
                            cards, all, decks, decks > 1 ? "s" : "");
    long stock = all - cards - (near && cards < all);
    if (hand > stock)
        return ilpm_err_set(
            err,
            "--hand: cannot deal %ld: %ld deck%s hold%s %ld "
            "cards and the table may take %ld%s, which "
            "leaves %ld",
            hand, decks, decks > 1 ? "s" : "", decks > 1 ? "" : "s", all,
            all - stock,
            near && cards < all ? " (--near-miss may add one)" : "", stock);
    ilpm_rng rng;
    ilpm_rng_seed(&rng, (uint64_t)seed);
    int none[NSUITS][NRANKS + 1] = {{0}};
    for (long c = 0; c < count; c++) {
        deal d;
        memset(&d, 0, sizeof d);
        d.decks = (int)decks;
        d.wrap = has(p, "wrap");
        d.ace_high = has(p, "ace-high");
        deal_table(&d, &rng, (int)cards);
        if (has(p, "near-miss")) {
            int add = ilpm_rng_below(&rng, 2) == 0 || d.total <= 1;
            int card = add ? pick_card(&rng, d.cnt, none, d.decks) : -1;
            if (card < 0) { /* remove a random card */
                int k = (int)ilpm_rng_below(&rng, (uint64_t)d.total);
                for (int s = 0; s < NSUITS && card < 0; s++)
                    for (int r = 1; r <= NRANKS && card < 0; r++) {
                        k -= d.cnt[s][r];
                        if (k < 0)
                            card = s * 16 + r;
                    }
                add = 0;
            }
            d.cnt[card / 16][card % 16] += add ? 1 : -1;
            char nm[4];
            card_name(card / 16, card % 16, nm);
            ilpm_buf_printf(out, "# near miss: %s %s\n", nm,
                            add ? "added" : "removed");
        }
        ilpm_buf_puts(out, "table:");
        put_cards(out, &rng, d.cnt);
        if (hand > 0) {
            int h[NSUITS][NRANKS + 1] = {{0}};
            for (long i = 0; i < hand; i++) {
                int card = pick_card(&rng, d.cnt, h, d.decks);
                if (card < 0) /* the checks above rule this out */
                    return ilpm_err_set(err, "--hand: the stock ran out");
                h[card / 16][card % 16]++;
            }
            ilpm_buf_puts(out, " | hand:");
            put_cards(out, &rng, h);
        }
        ilpm_buf_putc(out, '\n');
    }
    if (out->oom)
        return ilpm_err_set(err, "out of memory");
    return 0;
}

const ilpm_puzzle ilpm_puzzle_machiavelli = {
    .name = "machiavelli",
    .summary = "rearrange a Machiavelli table into sets and runs, or lay "
               "the most cards of a hand",
    .opts = mach_opts,
    .formulations = mach_forms,
    .input_help =
        "One instance per line: 'table: <cards>' or 'table: <cards> | "
        "hand: <cards>'.\n"
        "A card is a rank (A, 2-10 or T, J, Q, K) and a suit (H D S C, "
        "or \u2665 \u2666 \u2660 \u2663\n"
        "and \u2661 \u2662 \u2664 \u2667), in any case: "
        "'table: AH 2H 3H 7s 7\u2666 7C | hand: 4H'.\n"
        "'#' starts a comment line; blank lines are skipped.  A card "
        "appears at most as\n"
        "many times as there are decks (--decks, default 2), table and "
        "hand together.\n"
        "solve rearranges the table alone (a hand is ignored); play needs "
        "a hand and\n"
        "lays the most of its cards (--value: the highest total value, "
        "A=1 .. K=13),\n"
        "keeping every table card in a meld.  Without a file: --table "
        "\"CARDS\" [--hand \"CARDS\"].",
    .from_params = mach_from_params,
    .parse = mach_parse,
    .free_instance = mach_free,
    .describe = mach_describe,
    .build = mach_build,
    .decode = mach_decode,
    .verify = mach_verify,
    .render = mach_render,
    .render_json = mach_render_json,
    .free_solution = mach_sol_free,
    .generate = mach_generate,
    .gen_opts = mach_gen_opts,
};
