/* Reading instances: a line "table: <cards> [| hand: <cards>]" of a file,
 * or --table and --hand.  A table may come as laid, its melds separated
 * by '/' or ';'; each laid meld must then follow the rules. */
#include "machiavelli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * for ilpm_mach_check_meld to name. */
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
                   ? ilpm_err_input(err, "empty meld before '%c'", s[end])
                   : ilpm_err_input(err, "empty meld after the last '%c'",
                                    lr->sep);
    }
    *at = lr->at;
    if (lr->ncur > NRANKS)
        return ilpm_err_input(err,
                              "meld %d: %d cards, more than a meld holds "
                              "(%d)",
                              idx, lr->ncur, NRANKS);
    lr->cur.n = lr->ncur;
    lr->cur.kept = 0;
    order_meld(&lr->cur);
    if (ilpm_mach_check_meld(&lr->cur, idx, lr->wrap, lr->ace_high, err) != 0)
        return -1;
    if (ilpm_grow_int((void **)&lr->melds, &lr->cap, lr->n + 1,
                      sizeof *lr->melds) != 0)
        return ilpm_err_nomem(err, "out of memory");
    lr->melds[lr->n++] = lr->cur;
    lr->ncur = 0;
    return 0;
}

/* The card of token t[0..len) in *su and *r, or -1 with the message in
 * err; in_hand: the token follows 'hand:'. */
static int read_card(const char *t, size_t len, int in_hand, int *su, int *r,
                     ilpm_err *err)
{
    char shown[ILPM_SHOW_SIZE];
    ilpm_show(t, len, shown, sizeof shown);
    if (starts_word_ci(t, len, "hand:") ||
        (len == 4 && starts_word_ci(t, len, "hand")))
        return ilpm_err_input(err, in_hand ? "a second 'hand:'"
                                           : "expected '|' before 'hand:'");
    size_t used;
    if (ilpm_mach_parse_rank(t, len, r, &used) != 0)
        return ilpm_err_input(err,
                              "unknown card '%s': rank must be A, 2-10, "
                              "J, Q, K",
                              shown);
    *su = ilpm_mach_parse_suit(t + used, len - used);
    if (*su < 0)
        return ilpm_err_input(err,
                              "unknown card '%s': suit must be H, D, S, "
                              "C (or \u2665 \u2666 \u2660 \u2663)",
                              shown);
    return 0;
}

/* Whether one more copy of (su, r) stays within the decks, counting the
 * table's copies too when table is given (for the hand). */
static int deck_limit(int counts[NSUITS][NRANKS + 1],
                      int table[NSUITS][NRANKS + 1], int decks, int su, int r,
                      ilpm_err *err)
{
    int have = counts[su][r] + (table ? table[su][r] : 0);
    if (have + 1 <= decks)
        return 0;
    char name[4], limit[40];
    ilpm_mach_card_name(su, r, name);
    decks_phrase(decks, limit, sizeof limit);
    if (table)
        return ilpm_err_input(err,
                              "card %s appears %d times on the table "
                              "and in the hand together but %s",
                              name, have + 1, limit);
    return ilpm_err_input(err, "card %s appears %d times but %s", name,
                          have + 1, limit);
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
                return ilpm_err_input(err,
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
        *at = b;
        int su = 0, r = 0;
        if (read_card(t, len, table != NULL, &su, &r, err) != 0 ||
            deck_limit(counts, table, decks, su, r, err) != 0)
            return -1;
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
        return ilpm_err_input(err, "expected 'table:' at the start of the "
                                   "line");
    }
    i = j;
    if (parse_cards(s, n, &i, in->table, NULL, lr, decks, &in->ntable, at,
                    err) != 0)
        return -1;
    if (in->ntable == 0) {
        *at = i;
        return ilpm_err_input(err, "empty table: no cards after 'table:'");
    }
    if (i < n && s[i] == '|') {
        size_t k = skip_blanks(s, n, i + 1);
        j = match_prefix(s, n, k, "hand");
        if (!j) {
            *at = k;
            return ilpm_err_input(err, "expected 'hand:' after '|'");
        }
        i = j;
        if (parse_cards(s, n, &i, in->hand, in->table, NULL, decks, &in->nhand,
                        at, err) != 0)
            return -1;
        if (i < n && s[i] == '|') {
            *at = i;
            return ilpm_err_input(err, "unexpected second '|'");
        }
        if (in->nhand == 0) {
            *at = i;
            return ilpm_err_input(err, "empty hand: no cards after 'hand:'");
        }
        in->has_hand = 1;
    }
    if (need_hand && !in->has_hand) {
        *at = n;
        return ilpm_err_input(err, "play needs a hand: write 'table: "
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

int ilpm_mach_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                    ilpm_err *err)
{
    long decks;
    if (ilpm_params_int(p, ilpm_mach_opts, "decks", &decks, err) != 0)
        return -1;
    const char *line;
    size_t len;
    int rc;
    while ((rc = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        if (ilpm_line_is_blank_or_comment(line))
            continue;
        mach_inst *in = malloc(sizeof *in);
        if (!in)
            return ilpm_err_nomem(err, "%s: out of memory",
                                  ilpm_reader_name(rd));
        size_t at = 0;
        ilpm_err e;
        laid_reader lr = {.wrap = ilpm_mach_has(p, "wrap"),
                          .ace_high = ilpm_mach_has(p, "ace-high")};
        if (parse_line(line, len, (int)decks, ilpm_mach_is_play(p), &lr, in,
                       &at, &e) != 0) {
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

int ilpm_mach_from_params(const ilpm_params *p, void **inst, ilpm_err *err)
{
    const char *table = p ? ilpm_params_get(p, "table") : NULL;
    const char *hand = p ? ilpm_params_get(p, "hand") : NULL;
    if (!table) {
        if (hand)
            return ilpm_err_input(err, "--hand needs --table");
        return 0;
    }
    long decks;
    if (ilpm_params_int(p, ilpm_mach_opts, "decks", &decks, err) != 0)
        return -1;
    mach_inst *in = calloc(1, sizeof *in);
    if (!in)
        return ilpm_err_nomem(err, "out of memory");
    in->decks = (int)decks;
    size_t pos = 0, at = 0;
    ilpm_err e;
    laid_reader lr = {.wrap = ilpm_mach_has(p, "wrap"),
                      .ace_high = ilpm_mach_has(p, "ace-high")};
    if (parse_cards(table, strlen(table), &pos, in->table, NULL, &lr, in->decks,
                    &in->ntable, &at, &e) != 0 ||
        (table[pos] == '|' &&
         ilpm_err_input(&e, "'|' in --table: give the hand with --hand"))) {
        free(lr.melds);
        free(in);
        return ilpm_err_input(err, "--table: %s", e.msg);
    }
    take_laid(in, &lr);
    if (in->ntable == 0) {
        ilpm_mach_free(in);
        return ilpm_err_input(err, "--table: empty table");
    }
    if (hand) {
        pos = 0;
        if (parse_cards(hand, strlen(hand), &pos, in->hand, in->table, NULL,
                        in->decks, &in->nhand, &at, &e) != 0 ||
            (hand[pos] == '|' && ilpm_err_input(&e, "unexpected '|'"))) {
            ilpm_mach_free(in);
            return ilpm_err_input(err, "--hand: %s", e.msg);
        }
        if (in->nhand == 0) {
            ilpm_mach_free(in);
            return ilpm_err_input(err, "--hand: empty hand");
        }
        in->has_hand = 1;
    }
    if (ilpm_mach_is_play(p) && !in->has_hand) {
        ilpm_mach_free(in);
        return ilpm_err_input(err, "play needs a hand: add --hand \"CARDS\"");
    }
    *inst = in;
    return 1;
}
