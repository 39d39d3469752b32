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

typedef struct mach_card {
    uint8_t suit, rank; /* rank 1..13: a high ace is rank 1 too */
    uint8_t played;     /* this copy came from the hand          */
} mach_card;

typedef struct mach_meld {
    int n;
    int kept; /* answer: 1 + index of the identical laid meld, 0: none */
    mach_card c[MELD_MAX];
} mach_meld;

typedef struct mach_inst {
    int decks;
    int table[NSUITS][NRANKS + 1]; /* copies on the table, [s][rank]   */
    int hand[NSUITS][NRANKS + 1];  /* copies in the hand               */
    int ntable, nhand;
    int has_hand;
    long line; /* line in its file; 0 for --table */
    /* The table as laid, when the input separates its melds: used only
     * to show what an answer keeps and changes, never by the model. */
    mach_meld *laid;
    int nlaid;
} mach_inst;

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

/* In the order of FORM_*, the default first. */
static const char *const mach_forms[] = {"planes", "melds", NULL};

static const ilpm_opt_spec mach_opts[] = {
    {"formulation", "F",
     "planes (default: the report's card planes) or melds (set "
     "partitioning over all melds, den Hertog and Hulshof 2006)",
     ILPM_OPT_CHOICE, 0, 0, mach_forms, 0},
    {"decks", "D", "number of decks, 1-8 (default 2)", ILPM_OPT_INT, 1,
     MAX_DECKS, NULL, 0},
    {"ace-high", NULL, "also allow runs ending Q K A (never K A 2)",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {"wrap", NULL, "continuous runs through K A 2 (ranks modulo 13)",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {"strong", NULL,
     "planes: set rows y >= x for each suit instead of 4y >= sum x",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {"deck-rows", NULL,
     "planes, 1-2 decks: add the report's rows x(2m) + x(2m+1) <= 1 "
     "(they can cut off valid tables: data/machiavelli/README.md)",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {"value", NULL,
     "play: maximise the value laid (A=1, 2-10 face, J=11, Q=12, K=13) "
     "instead of the number of cards",
     ILPM_OPT_FLAG, 0, 0, NULL, ILPM_OPT_PLAY},
    {"table", "CARDS", "the table itself, e.g. \"AH 2H 3H 7S 7D 7C\"",
     ILPM_OPT_TEXT, 0, 0, NULL, ILPM_OPT_INSTANCE},
    {"hand", "CARDS", "with --table: the hand, for play", ILPM_OPT_TEXT, 0, 0,
     NULL, ILPM_OPT_INSTANCE | ILPM_OPT_PLAY},
    {NULL, NULL, NULL, 0, 0, 0, NULL, 0},
};

static const ilpm_opt_spec mach_gen_opts[] = {
    {"cards", "N",
     "about N cards per table, 3 to 52*D (default 20; 52*D: all)",
     ILPM_OPT_INT, 3, NSUITS * NRANKS * MAX_DECKS, NULL, 0},
    {"decks", "D", "number of decks, 1-8 (default 2)", ILPM_OPT_INT, 1,
     MAX_DECKS, NULL, 0},
    {"seed", "S", "random seed (default 1)", ILPM_OPT_INT, 0, LONG_MAX, NULL,
     0},
    {"count", "C", "number of tables (default 1)", ILPM_OPT_INT, 1, 1000000,
     NULL, 0},
    {"near-miss", NULL,
     "remove or add one random card (usually, not always, unsolvable)",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {"hand", "K",
     "also deal a hand of K cards from those the table leaves (play "
     "instances)",
     ILPM_OPT_INT, 0, NSUITS * NRANKS * MAX_DECKS, NULL, 0},
    {"ace-high", NULL, "deal runs ending Q K A too", ILPM_OPT_FLAG, 0, 0, NULL,
     0},
    {"wrap", NULL, "deal runs through K A 2 too", ILPM_OPT_FLAG, 0, 0, NULL,
     0},
    {"laid", NULL,
     "write the table as dealt, '/' between its melds (not with "
     "--near-miss)",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {NULL, NULL, NULL, 0, 0, 0, NULL, 0},
};

static void card_name(int s, int r, char *buf)
{
    snprintf(buf, 4, "%s%c", rank_text[r], suit_letter[s]);
}

static void mach_free(void *p)
{
    mach_inst *in = p;
    if (in)
        free(in->laid);
    free(in);
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

static int is_meld_sep(char c)
{
    return c == '/' || c == ';';
}

static int check_meld(const mach_meld *md, int idx, int wrap, int ace_high,
                      ilpm_err *why);

/* The table's melds as the input lays them out, read between '/' (or
 * ';') separators, and the rules each of them must follow. */
typedef struct laid_reader {
    int wrap, ace_high;
    mach_meld *melds;
    int n, cap;
    int seps;      /* separators seen: none means a jumble      */
    char sep;      /* the last one                              */
    mach_meld cur; /* the meld being read                       */
    int ncur;      /* its cards, counted on past what cur holds */
    size_t at;     /* offset of its first card                  */
} laid_reader;

/* A laid meld in the order the verifier reads: a set by suit, a run by
 * rank from just after its widest gap (so Q K A and K A 2 come out in
 * that order and A 2 3 stays as it is).  A meld that is neither is left
 * for check_meld to name. */
static void order_meld(mach_meld *md)
{
    int one_rank = 1;
    for (int i = 1; i < md->n; i++)
        one_rank &= md->c[i].rank == md->c[0].rank;
    for (int i = 1; i < md->n; i++) /* insertion sort: suit or rank */
        for (int j = i; j > 0; j--) {
            mach_card *a = &md->c[j - 1], *b = &md->c[j];
            int ka = one_rank ? a->suit : a->rank * NSUITS + a->suit;
            int kb = one_rank ? b->suit : b->rank * NSUITS + b->suit;
            if (ka <= kb)
                break;
            mach_card t = *a;
            *a = *b;
            *b = t;
        }
    if (md->n < 2 || one_rank)
        return;
    int widest = md->c[0].rank + NRANKS - md->c[md->n - 1].rank, start = 0;
    for (int i = 1; i < md->n; i++)
        if (md->c[i].rank - md->c[i - 1].rank > widest) {
            widest = md->c[i].rank - md->c[i - 1].rank;
            start = i;
        }
    mach_card rot[MELD_MAX];
    for (int i = 0; i < md->n; i++)
        rot[i] = md->c[(start + i) % md->n];
    memcpy(md->c, rot, (size_t)md->n * sizeof rot[0]);
}

/* Ends the meld being read at offset end; a separator ends one that
 * must not be empty. */
static int close_meld(laid_reader *lr, const char *s, size_t n, size_t end,
                      size_t *at, ilpm_err *err)
{
    int idx = lr->n + 1;
    if (lr->ncur == 0) {
        *at = end;
        return end < n && is_meld_sep(s[end])
                   ? ilpm_err_set(err, "empty meld before '%c'", s[end])
                   : ilpm_err_set(err, "empty meld after the last '%c'",
                                  lr->sep);
    }
    *at = lr->at;
    if (lr->ncur > NRANKS)
        return ilpm_err_set(err,
                            "meld %d: %d cards, more than a meld holds "
                            "(%d)",
                            idx, lr->ncur, NRANKS);
    lr->cur.n = lr->ncur;
    lr->cur.kept = 0;
    order_meld(&lr->cur);
    if (check_meld(&lr->cur, idx, lr->wrap, lr->ace_high, err) != 0)
        return -1;
    if (lr->n == lr->cap) {
        int c = lr->cap ? 2 * lr->cap : 16;
        mach_meld *q = realloc(lr->melds, (size_t)c * sizeof *q);
        if (!q)
            return ilpm_err_set(err, "out of memory");
        lr->melds = q;
        lr->cap = c;
    }
    lr->melds[lr->n++] = lr->cur;
    lr->ncur = 0;
    return 0;
}

/* Reads cards from s[*pos..n) up to the end or a '|' into counts.  For
 * the hand, table holds the table's counts for the deck limit and lr is
 * NULL; for the table, lr collects the melds if the input lays them out.
 * On an error returns -1 with the bare message in err and its offset in
 * *at. */
static int parse_cards(const char *s, size_t n, size_t *pos,
                       int counts[NSUITS][NRANKS + 1],
                       int table[NSUITS][NRANKS + 1], laid_reader *lr,
                       int decks, int *total, size_t *at, ilpm_err *err)
{
    size_t i = *pos;
    for (;;) {
        while (i < n && is_sep(s[i]))
            i++;
        if (i < n && is_meld_sep(s[i])) {
            *at = i;
            if (!lr)
                return ilpm_err_set(err,
                                    "'%c' in the hand: only the table "
                                    "is laid out in melds",
                                    s[i]);
            if (close_meld(lr, s, n, i, at, err) != 0)
                return -1;
            lr->seps++;
            lr->sep = s[i];
            i++;
            continue;
        }
        if (i >= n || s[i] == '|')
            break;
        size_t b = i;
        while (i < n && !is_sep(s[i]) && s[i] != '|' && !is_meld_sep(s[i]))
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
        if (lr) {
            if (lr->ncur == 0)
                lr->at = b;
            if (lr->ncur < NRANKS) {
                lr->cur.c[lr->ncur].suit = (uint8_t)su;
                lr->cur.c[lr->ncur].rank = (uint8_t)r;
                lr->cur.c[lr->ncur].played = 0;
            }
            lr->ncur++;
        }
    }
    if (lr && lr->seps > 0 && close_meld(lr, s, n, i, at, err) != 0)
        return -1;
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
                      laid_reader *lr, mach_inst *in, size_t *at, ilpm_err *err)
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
    if (parse_cards(s, n, &i, in->table, NULL, lr, decks, &in->ntable, at,
                    err) != 0)
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
        if (parse_cards(s, n, &i, in->hand, in->table, NULL, decks, &in->nhand,
                        at, err) != 0)
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

/* The melds read become the instance's when the input laid them out. */
static void take_laid(mach_inst *in, laid_reader *lr)
{
    if (lr->seps > 0) {
        in->laid = lr->melds;
        in->nlaid = lr->n;
    } else {
        free(lr->melds);
    }
    lr->melds = NULL;
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
        laid_reader lr = {.wrap = has(p, "wrap"),
                          .ace_high = has(p, "ace-high")};
        if (parse_line(line, len, (int)decks, is_play(p), &lr, in, &at, &e) !=
            0) {
            free(lr.melds);
            free(in);
            return ilpm_reader_error(rd, err, column_of(line, at), "%s", e.msg);
        }
        take_laid(in, &lr);
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
    laid_reader lr = {.wrap = has(p, "wrap"), .ace_high = has(p, "ace-high")};
    if (parse_cards(table, strlen(table), &pos, in->table, NULL, &lr, in->decks,
                    &in->ntable, &at, &e) != 0 ||
        (table[pos] == '|' &&
         ilpm_err_set(&e, "'|' in --table: give the hand with --hand"))) {
        free(lr.melds);
        free(in);
        return ilpm_err_set(err, "--table: %s", e.msg);
    }
    take_laid(in, &lr);
    if (in->ntable == 0) {
        mach_free(in);
        return ilpm_err_set(err, "--table: empty table");
    }
    if (hand) {
        pos = 0;
        if (parse_cards(hand, strlen(hand), &pos, in->hand, in->table, NULL,
                        in->decks, &in->nhand, &at, &e) != 0 ||
            (hand[pos] == '|' && ilpm_err_set(&e, "unexpected '|'"))) {
            mach_free(in);
            return ilpm_err_set(err, "--hand: %s", e.msg);
        }
        if (in->nhand == 0) {
            mach_free(in);
            return ilpm_err_set(err, "--hand: empty hand");
        }
        in->has_hand = 1;
    }
    if (is_play(p) && !in->has_hand) {
        mach_free(in);
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
    char melds[24] = "";
    if (in->nlaid > 0)
        snprintf(melds, sizeof melds, " in %d meld%s", in->nlaid,
                 in->nlaid > 1 ? "s" : "");
    if (in->has_hand)
        snprintf(buf, size, "%s (%d cards%s, hand %d)", where, in->ntable,
                 melds, in->nhand);
    else
        snprintf(buf, size, "%s (%d cards%s)", where, in->ntable, melds);
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
    md->kept = 0;
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

/* ------------------------------------------------------------------ */
/* The answer as a card player lays it: runs joined end to end, then cut
 * again where that keeps a meld of the table as laid; sets of a rank
 * regrouped to keep laid sets; runs by suit and first rank, then sets by
 * rank.  Only melds check_meld accepts are touched, and joining, cutting
 * and regrouping keep them valid, so what verify rejects stays. */

/* At most this many melds of 3 cards or more in 8 decks. */
#define MAX_LAID (NSUITS * NRANKS * MAX_DECKS / 3)

static int meld_is_set(const mach_meld *md)
{
    return md->n >= 2 && md->c[0].rank == md->c[1].rank;
}

static int meld_ok(const mach_meld *md, int wrap, int ace_high)
{
    ilpm_err e;
    return check_meld(md, 0, wrap, ace_high, &e) == 0;
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
            if (meld_is_set(a) || !meld_ok(a, wrap, ace_high))
                continue;
            int nx = next_rank(a, wrap);
            for (int j = 0; j < sol->nmelds && nx && !again; j++) {
                mach_meld *b = &sol->melds[j];
                if (j == i || meld_is_set(b) || b->c[0].suit != a->c[0].suit ||
                    b->c[0].rank != nx || a->n + b->n > NRANKS ||
                    !meld_ok(b, wrap, ace_high))
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
        mach_meld *md = first ? &sol->melds[i] : new_meld(sol, err);
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
            if (meld_is_set(md) && md->c[0].rank == r && !md->kept &&
                meld_ok(md, wrap, ace_high))
                for (int c = 0; c < md->n; c++)
                    pool[md->c[c].suit]++;
        }
        for (int g = 0; g < in->nlaid; g++) {
            const mach_meld *lm = &in->laid[g];
            if (used[g] || !meld_is_set(lm) || lm->c[0].rank != r)
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
            if (meld_is_set(md) && md->c[0].rank == r && !md->kept &&
                meld_ok(md, wrap, ace_high))
                remove_meld(sol, i);
        }
        for (int t = 0; t < ntake; t++) {
            mach_meld *md = new_meld(sol, err);
            if (!md)
                return -1;
            *md = in->laid[take[t]];
            md->kept = take[t] + 1;
            used[take[t]] = 1;
        }
        int k = sets_of(pool), first = sol->nmelds, dealt = 0;
        for (int j = 0; j < k; j++)
            if (!new_meld(sol, err))
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
    int sa = meld_is_set(a), sb = meld_is_set(b);
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

static int present(const mach_inst *in, const ilpm_params *p, mach_sol *sol,
                   ilpm_err *err)
{
    int wrap = has(p, "wrap"), ace_high = has(p, "ace-high");
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
        if (!md->kept && !meld_is_set(md) && meld_ok(md, wrap, ace_high) &&
            cut_run(in, used, sol, i, err) != 0)
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
static void mark_played(mach_sol *sol)
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
    if (rc != 0 || present(in, p, sol, err) != 0) {
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
        mark_played(sol);
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

/* A meld as text, played cards marked '*'. */
static int meld_marked(const mach_meld *md, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int c = 0; c < md->n && o + 6 < size; c++) {
        char nm[4];
        card_name(md->c[c].suit, md->c[c].rank, nm);
        o += (size_t)snprintf(buf + o, size - o, "%s%s%s", c ? " " : "", nm,
                              md->c[c].played ? "*" : "");
    }
    return (int)o;
}

/* Against the table as laid: NULL for a meld kept as it was, "new" for
 * one of hand cards alone, else "changed". */
static const char *meld_change(const mach_meld *md)
{
    if (md->kept)
        return NULL;
    for (int c = 0; c < md->n; c++)
        if (!md->c[c].played)
            return "changed";
    return "new";
}

/* Which laid melds some answer meld keeps. */
static void laid_kept(const mach_inst *in, const mach_sol *sol, uint8_t *kept)
{
    memset(kept, 0, (size_t)in->nlaid);
    for (int i = 0; i < sol->nmelds; i++)
        if (sol->melds[i].kept > 0 && sol->melds[i].kept <= in->nlaid)
            kept[sol->melds[i].kept - 1] = 1;
}

/* The hand cards not laid. */
static void hand_left(const mach_inst *in, const mach_sol *sol,
                      int left[NSUITS][NRANKS + 1])
{
    for (int s = 0; s < NSUITS; s++)
        for (int r = 0; r <= NRANKS; r++)
            left[s][r] = sol->play ? in->hand[s][r] - sol->played[s][r] : 0;
}

/* Lists the cards counted, by suit and rank; " none" in text when there
 * are none. */
static void put_counts(ilpm_buf *out, int cnt[NSUITS][NRANKS + 1], int json)
{
    int first = 1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 0; j < cnt[s][r]; j++) {
                char nm[4];
                card_name(s, r, nm);
                if (json) {
                    ilpm_buf_puts(out, first ? "" : ",");
                    ilpm_buf_json_str(out, nm);
                } else {
                    ilpm_buf_printf(out, " %s", nm);
                }
                first = 0;
            }
    if (first && !json)
        ilpm_buf_puts(out, " none");
}

/* The played cards in the order the melds show them; returns how many. */
static int put_played(ilpm_buf *out, const mach_sol *sol, int json)
{
    int n = 0;
    for (int i = 0; i < sol->nmelds; i++)
        for (int c = 0; c < sol->melds[i].n; c++) {
            const mach_card *cd = &sol->melds[i].c[c];
            if (!cd->played)
                continue;
            char nm[4];
            card_name(cd->suit, cd->rank, nm);
            if (json) {
                ilpm_buf_puts(out, n ? "," : "");
                ilpm_buf_json_str(out, nm);
            } else {
                ilpm_buf_printf(out, " %s", nm);
            }
            n++;
        }
    return n;
}

static void mach_render(const void *vinst, const void *vsol, ilpm_buf *out)
{
    const mach_inst *in = vinst;
    const mach_sol *sol = vsol;
    char text[MELD_MAX * 5 + 1];
    int width = 0;
    for (int i = 0; i < sol->nmelds && in->nlaid > 0; i++) {
        int w = meld_marked(&sol->melds[i], text, sizeof text);
        if (w > width)
            width = w;
    }
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        meld_marked(md, text, sizeof text);
        const char *change = in->nlaid > 0 ? meld_change(md) : NULL;
        if (change)
            ilpm_buf_printf(out, "%-*s  (%s)\n", width, text, change);
        else
            ilpm_buf_printf(out, "%s\n", text);
    }
    if (in->nlaid > 0) {
        uint8_t kept[MAX_LAID + 1];
        laid_kept(in, sol, kept);
        ilpm_buf_puts(out, "table melds changed:");
        int any = 0;
        for (int g = 0; g < in->nlaid; g++) {
            if (kept[g])
                continue;
            meld_text(&in->laid[g], text, sizeof text);
            ilpm_buf_printf(out, "%s %s", any ? " /" : "", text);
            any = 1;
        }
        ilpm_buf_puts(out, any ? "\n" : " none\n");
    }
    if (!sol->play)
        return;
    ilpm_buf_puts(out, "played:");
    if (put_played(out, sol, 0) > 0)
        ilpm_buf_puts(out, " (marked *)");
    else
        ilpm_buf_puts(out, " none");
    ilpm_buf_puts(out, "\nhand left:");
    int cnt[NSUITS][NRANKS + 1];
    hand_left(in, sol, cnt);
    put_counts(out, cnt, 0);
    ilpm_buf_putc(out, '\n');
}

static void json_cards(ilpm_buf *out, const mach_meld *md)
{
    ilpm_buf_putc(out, '[');
    for (int c = 0; c < md->n; c++) {
        char nm[4];
        card_name(md->c[c].suit, md->c[c].rank, nm);
        if (c)
            ilpm_buf_putc(out, ',');
        ilpm_buf_json_str(out, nm);
    }
    ilpm_buf_putc(out, ']');
}

static void mach_render_json(const void *vinst, const void *vsol, ilpm_buf *out)
{
    const mach_inst *in = vinst;
    const mach_sol *sol = vsol;
    ilpm_buf_puts(out, "{\"melds\":[");
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        ilpm_buf_printf(out, "%s{\"type\":\"%s\",\"cards\":", i ? "," : "",
                        meld_is_set(md) ? "set" : "run");
        json_cards(out, md);
        if (in->nlaid > 0) {
            const char *change = meld_change(md);
            ilpm_buf_printf(out, ",\"state\":\"%s\"", change ? change : "kept");
        }
        ilpm_buf_putc(out, '}');
    }
    ilpm_buf_puts(out, "],\"played\":[");
    put_played(out, sol, 1);
    ilpm_buf_puts(out, "],\"hand_left\":[");
    int cnt[NSUITS][NRANKS + 1];
    hand_left(in, sol, cnt);
    put_counts(out, cnt, 1);
    ilpm_buf_putc(out, ']');
    if (in->nlaid > 0) {
        uint8_t kept[MAX_LAID + 1];
        laid_kept(in, sol, kept);
        ilpm_buf_puts(out, ",\"table_changed\":[");
        int any = 0;
        for (int g = 0; g < in->nlaid; g++)
            if (!kept[g]) {
                if (any)
                    ilpm_buf_putc(out, ',');
                json_cards(out, &in->laid[g]);
                any = 1;
            }
        ilpm_buf_putc(out, ']');
    }
    ilpm_buf_putc(out, '}');
}

/* play: "lays 3 of 6 cards" (--value: "lays 25 of 40 points"). */
static void mach_describe_objective(const void *vinst, const ilpm_params *p,
                                    int64_t objective, char *buf, size_t size)
{
    const mach_inst *in = vinst;
    if (!is_play(p) || !in->has_hand)
        return;
    int value = has(p, "value"), total = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            total += in->hand[s][r] * (value ? r : 1);
    snprintf(buf, size, "lays %lld of %d %s", (long long)objective, total,
             value        ? "points"
             : total == 1 ? "card"
                          : "cards");
}

/* After an unsat answer: the table cards that no meld of the cards
 * available can hold (the melds formulation's own test for a card left
 * out of every meld), where there are such cards. */
static void mach_explain_unsat(const void *vinst, const ilpm_params *p,
                               char *buf, size_t size)
{
    const mach_inst *in = vinst;
    settings st;
    ilpm_err e;
    if (read_settings(p, &st, &e) != 0)
        return;
    st.play = st.play && in->has_hand;
    meld_def defs[MAX_DEFS];
    int nd = meld_defs(&st, defs), copies[MAX_DEFS];
    for (int i = 0; i < nd; i++)
        copies[i] = meld_copies(in, &st, &defs[i]);
    size_t o = 0;
    int found = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            if (!in->table[s][r])
                continue;
            int fits = 0;
            for (int i = 0; i < nd && !fits; i++)
                fits = copies[i] > 0 && meld_has(&defs[i], s, r);
            if (fits || o + 32 > size)
                continue;
            char nm[4];
            card_name(s, r, nm);
            o += (size_t)snprintf(buf + o, size - o, "%s%s",
                                  found ? ", " : "no meld can hold ", nm);
            found++;
        }
    if (found)
        snprintf(buf + o, size - o,
                 ": no run or set of the cards on the %s "
                 "contains %s",
                 st.play ? "table and in the hand" : "table",
                 found > 1 ? "them" : "it");
}

/* ------------------------------------------------------------------ */
/* Generator                                                            */

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
        meld_text(&d->melds[i], text, sizeof text);
        ilpm_buf_printf(out, "%s %s", i ? " /" : "", text);
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
    int near = has(p, "near-miss"), laid = has(p, "laid");
    if (near && laid)
        return ilpm_err_set(err, "--laid: a near miss breaks a meld, so its "
                                 "table cannot be written as laid; drop "
                                 "--near-miss or --laid");
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
        if (laid)
            put_laid(out, &rng, &d);
        else
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
    .caps = ILPM_CAP_PLAY,
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
        "A table as laid puts '/' (or ';') between its melds, each a valid "
        "meld:\n"
        "'table: 7H 8H 9H / 7S 7D 7C | hand: 10H'; answers then mark the "
        "melds they change.\n"
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
    .describe_objective = mach_describe_objective,
    .explain_unsat = mach_explain_unsat,
    .free_solution = mach_sol_free,
    .generate = mach_generate,
    .gen_opts = mach_gen_opts,
};
