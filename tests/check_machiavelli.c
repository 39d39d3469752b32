/* Machiavelli: parsing (every malformed input's own message), the verifier
 * on broken arrangements, hand-made tables with known answers, and
 * generated tables checked against a brute-force splitter, for both
 * formulations on both back ends.  Runs from the source root (data/...).
 *
 * The puzzle's private header gives the verifier tests its types, so
 * that they can build broken solutions. */
#include "machiavelli/machiavelli.h"
#include "puzzles.h"

#include "testutil.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_puzzle *pz = &ilpm_puzzle_machiavelli;

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

/* Parameters for verb from "name=value" / "flag" words separated by
 * spaces: what the command line passes. */
static ilpm_params *params(const char *verb, const char *words)
{
    ilpm_params *p = ilpm_params_new();
    ck_assert_ptr_nonnull(p);
    if (strcmp(verb, "play") == 0)
        ilpm_params_set(p, ILPM_PARAM_PLAY, NULL);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", words ? words : "");
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        char *eq = strchr(w, '=');
        if (eq) {
            *eq = '\0';
            ilpm_params_set(p, w, eq + 1);
        } else {
            ilpm_params_set(p, w, NULL);
        }
    }
    return p;
}

/* The first instance of text, which must parse. */
static mach_inst *parse_text(const char *text, const ilpm_params *p)
{
    ilpm_reader *rd = ilpm_reader_mem("test", text, strlen(text));
    ilpm_err err;
    void *inst = NULL;
    int rc = pz->parse(rd, p, &inst, &err);
    ck_assert_msg(rc == 1, "'%s': %s", text, rc < 0 ? err.msg : "no line");
    ilpm_reader_free(rd);
    return inst;
}

/* What one solve found. */
typedef struct outcome {
    ilpm_status status;
    int64_t objective; /* play: from the solver                  */
    int played, value; /* play: recounted from the decoded answer */
    int nmelds;
} outcome;

/* Builds, solves (or optimises), checks the 0/1 values against the model,
 * decodes and verifies.  Fails the test on any error. */
static outcome solve(const mach_inst *in, const ilpm_params *p, ilpm_backend b)
{
    outcome out = {ILPM_ERROR, 0, 0, 0, 0};
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    ck_assert_msg(pz->build(in, p, m, &err) == 0, "build: %s", err.msg);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = b;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "solver: %s", err.msg);
    int opt = ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE;
    out.status = opt ? ilpm_solver_optimize(s, NULL, 0, &err)
                     : ilpm_solver_solve(s, NULL, 0, &err);
    ck_assert_msg(out.status != ILPM_ERROR, "solve: %s", err.msg);
    if (out.status == ILPM_SOLVED || out.status == ILPM_OPTIMAL) {
        const uint8_t *vals = ilpm_solver_values(s);
        ck_assert_msg(ilpm_model_check(m, vals, NULL),
                      "values break the model");
        mach_sol *sol = pz->decode(in, p, m, vals, &err);
        ck_assert_msg(sol != NULL, "decode: %s", err.msg);
        ilpm_err why;
        ck_assert_msg(pz->verify(in, p, sol, &why) == 0, "verify (%s): %s",
                      ilpm_backend_name(b), why.msg);
        out.nmelds = sol->nmelds;
        for (int su = 0; su < NSUITS; su++)
            for (int r = 1; r <= NRANKS; r++) {
                out.played += sol->played[su][r];
                out.value += sol->played[su][r] * r;
            }
        if (opt)
            out.objective = ilpm_solver_objective(s);
        pz->free_solution(sol);
    }
    ilpm_solver_free(s);
    ilpm_model_free(m);
    return out;
}

static int found(ilpm_status st)
{
    return st == ILPM_SOLVED || st == ILPM_OPTIMAL;
}

/* Solves one table with both formulations on both back ends (plus the
 * --strong set rows) and checks that all agree with want (1 solvable,
 * 0 not).  extra: more parameters ("wrap", "decks=3" ...). */
static void expect_table(const char *table, const char *extra, int want)
{
    static const char *const forms[] = {
        "formulation=planes", "formulation=planes strong", "formulation=melds",
        "formulation=flow"};
    for (int f = 0; f < 4; f++) {
        char words[200];
        snprintf(words, sizeof words, "%s %s", forms[f], extra ? extra : "");
        ilpm_params *p = params("solve", words);
        mach_inst *in = parse_text(table, p);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            outcome o = solve(in, p, (ilpm_backend)b);
            ck_assert_msg(
                found(o.status) == want, "'%s' [%s] %s: %s, expected %s", table,
                words, ilpm_backend_name((ilpm_backend)b),
                ilpm_status_name(o.status), want ? "solvable" : "unsolvable");
        }
        pz->free_instance(in);
        ilpm_params_free(p);
    }
}

/* ------------------------------------------------------------------ */
/* Brute force, independent of both formulations: the first card left
 * must lie in a set or in a run of 3-5 cards (longer runs split). */

typedef int counts[NSUITS][NRANKS + 1];

static int bf_split_sets(counts c, int wrap, int ace_high, int sets);

static int bf_split(counts c, int wrap, int ace_high)
{
    return bf_split_sets(c, wrap, ace_high, 1);
}

/* sets = 0: runs alone. */
static int bf_split_sets(counts c, int wrap, int ace_high, int sets)
{
    int s0 = -1, r0 = 0;
    for (int s = 0; s < NSUITS && s0 < 0; s++)
        for (int r = 1; r <= NRANKS; r++)
            if (c[s][r] > 0) {
                s0 = s;
                r0 = r;
                break;
            }
    if (s0 < 0)
        return 1;
    /* Sets with (s0, r0): two or three of the other suits. */
    int other[3], k = 0;
    for (int s = 0; s < NSUITS; s++)
        if (s != s0)
            other[k++] = s;
    for (int mask = 1; mask < 8 && sets; mask++) {
        int bits = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1);
        if (bits < 2)
            continue;
        int ok = 1;
        for (int i = 0; i < 3; i++)
            if (mask >> i & 1 && c[other[i]][r0] == 0)
                ok = 0;
        if (!ok)
            continue;
        c[s0][r0]--;
        for (int i = 0; i < 3; i++)
            if (mask >> i & 1)
                c[other[i]][r0]--;
        int res = bf_split_sets(c, wrap, ace_high, sets);
        c[s0][r0]++;
        for (int i = 0; i < 3; i++)
            if (mask >> i & 1)
                c[other[i]][r0]++;
        if (res)
            return 1;
    }
    /* Runs of s0 through r0: positions 1..13, 14 = the high ace. */
    int top = wrap ? NRANKS + 4 : ace_high ? 14 : NRANKS;
    for (int len = 3; len <= 5; len++)
        for (int first = 1; first + len - 1 <= top; first++) {
            if (wrap && first > NRANKS)
                break;
            int rk[5], has = 0, ok = 1;
            for (int i = 0; i < len; i++) {
                int q = first + i;
                rk[i] = q > NRANKS ? q - NRANKS : q;
                has |= rk[i] == r0;
                if (c[s0][rk[i]] == 0)
                    ok = 0;
            }
            if (!has || !ok)
                continue;
            for (int i = 0; i < len; i++)
                c[s0][rk[i]]--;
            int res = bf_split_sets(c, wrap, ace_high, sets);
            for (int i = 0; i < len; i++)
                c[s0][rk[i]]++;
            if (res)
                return 1;
        }
    return 0;
}

/* Arrangements by brute force, as the README defines one: a multiset of
 * sets (each rank's sets, pattern by pattern: all four suits or all but
 * one) such that the cards left split into runs, however they are cut. */
static int64_t bf_count_rank(counts c, int r, int p, int wrap, int ace_high)
{
    if (r > NRANKS)
        return bf_split_sets(c, wrap, ace_high, 0);
    if (p == NSUITS + 1)
        return bf_count_rank(c, r + 1, 0, wrap, ace_high);
    int64_t total = 0;
    int n = 0;
    for (;;) {
        total += bf_count_rank(c, r, p + 1, wrap, ace_high);
        int ok = 1; /* one more set of pattern p */
        for (int s = 0; s < NSUITS; s++)
            ok &= s == p - 1 || c[s][r] > 0;
        if (!ok)
            break;
        for (int s = 0; s < NSUITS; s++)
            c[s][r] -= s != p - 1;
        n++;
    }
    for (int s = 0; s < NSUITS; s++)
        c[s][r] += s != p - 1 ? n : 0;
    return total;
}

/* Play by brute force: the best count (or value) over every part of the
 * hand with which the table splits; -1 when none does. */
static int bf_play(const mach_inst *in, int wrap, int ace_high, int value)
{
    int cards[64], n = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 0; j < in->hand[s][r]; j++)
                cards[n++] = s * 16 + r;
    ck_assert_int_le(n, 12);
    int best = -1;
    for (int mask = 0; mask < 1 << n; mask++) {
        counts c;
        memcpy(c, in->table, sizeof c);
        int score = 0;
        for (int i = 0; i < n; i++)
            if (mask >> i & 1) {
                c[cards[i] / 16][cards[i] % 16]++;
                score += value ? cards[i] % 16 : 1;
            }
        if (score > best && bf_split(c, wrap, ace_high))
            best = score;
    }
    return best;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

START_TEST(test_parse_cards)
{
    ilpm_params *p = params("solve", NULL);
    mach_inst *in = parse_text(
        "# comment\n\n  TABLE : ah 10s tS qd 7c 7\xe2\x99\xa5 7\xe2\x99\xa6 "
        "7\xe2\x99\xa0 7\xe2\x99\xa3 8\xe2\x99\xa1 8\xe2\x99\xa2,"
        "8\xe2\x99\xa4\t8\xe2\x99\xa7 9\xe2\x99\xa5\xef\xb8\x8f | Hand: KH\n",
        p);
    ck_assert_int_eq(in->line, 3);
    ck_assert_int_eq(in->ntable, 14);
    ck_assert_int_eq(in->table[0][1], 1);  /* AH          */
    ck_assert_int_eq(in->table[2][10], 2); /* 10S and TS  */
    ck_assert_int_eq(in->table[1][12], 1); /* QD          */
    for (int s = 0; s < NSUITS; s++) {
        ck_assert_int_eq(in->table[s][7], 1 + (s == 3));
        ck_assert_int_eq(in->table[s][8], 1);
    }
    ck_assert_int_eq(in->table[0][9], 1); /* 9 heart + emoji selector */
    ck_assert_int_eq(in->nhand, 1);
    ck_assert_int_eq(in->hand[0][13], 1);
    char d[64];
    pz->describe(in, d, sizeof d);
    ck_assert_str_eq(d, "line 3 (14 cards, hand 1)");
    pz->free_instance(in);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_parse_decks)
{
    ilpm_params *p = params("solve", "decks=1");
    ilpm_reader *rd = ilpm_reader_mem("d1", "table: 7H 7S 7H\n", 16);
    ilpm_err err;
    void *inst;
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "d1:1:14: card 7H appears 2 times but there "
                              "is only 1 deck");
    ilpm_reader_free(rd);
    ilpm_params_free(p);

    p = params("solve", "decks=3");
    mach_inst *in = parse_text("table: 7H 7H 7H 7S 7S 7S\n", p);
    ck_assert_int_eq(in->table[0][7], 3);
    ck_assert_int_eq(in->decks, 3);
    pz->free_instance(in);
    ilpm_params_free(p);

    p = params("solve", "decks=9");
    rd = ilpm_reader_mem("d9", "table: 7H\n", 10);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
    ck_assert_msg(strstr(err.msg, "--decks") != NULL, "%s", err.msg);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

static const struct bad_case {
    const char *file, *verb, *want;
} bad_cases[] = {
    {"unknown_rank", "solve",
     ":3:14: unknown card 'XH': rank must be A, 2-10, J, Q, K"},
    {"unknown_suit", "solve",
     ":1:11: unknown card '7X': suit must be H, D, S, C"},
    {"unknown_symbol", "solve",
     ":1:11: unknown card '7\xe2\x98\x85': suit must be"},
    {"invalid_utf8", "solve", ":1:8: unknown card '7\\xff': suit must be"},
    {"too_many_copies", "solve",
     ":2:26: card 7H appears 3 times but there are only 2 decks"},
    {"empty_table", "solve", ":3:10: empty table"},
    {"missing_table_prefix", "solve",
     ":1:1: expected 'table:' at the start of the line"},
    {"hand_too_many", "solve",
     ":1:37: card 7H appears 3 times on the table and in the hand "
     "together but there are only 2 decks"},
    {"missing_hand_prefix", "solve", ":1:19: expected 'hand:' after '|'"},
    {"empty_hand", "solve", ":1:24: empty hand"},
    {"second_bar", "solve", ":1:28: unexpected second '|'"},
    {"hand_without_bar", "solve", ":1:17: expected '|' before 'hand:'"},
    {"play_without_hand", "play", ":3:16: play needs a hand"},
    {"nul_byte", "solve", ":1:13: NUL byte"},
    {"empty_meld", "solve", ":3:18: empty meld before '/'"},
    {"empty_last_meld", "solve", ":1:19: empty meld after the last '/'"},
    {"meld_too_short", "solve",
     ":1:19: meld 2 (7D 7S): 2 cards, a meld needs 3 or more"},
    {"meld_mixed", "solve",
     ":1:19: meld 2 (7S 8D 9C): neither a set (one rank) nor a run (one "
     "suit)"},
    {"meld_not_consecutive", "solve",
     ":1:8: meld 1 (7H 8H 10H): ranks not consecutive"},
    {"meld_ace_after_king", "solve",
     ":1:19: meld 2 (QH KH AH): an ace after the king needs --ace-high or "
     "--wrap"},
    {"meld_repeated_rank", "solve",
     ":1:8: meld 1 (7H 8H 8H 9H): a run holds each rank once"},
    {"meld_repeated_suit", "solve",
     ":1:8: meld 1 (7H 7H 7S): a set needs different suits"},
    {"meld_five_of_a_rank", "solve",
     ":1:19: meld 2 (7H 7H 7D 7S 7C): a set has 3 or 4 cards"},
    {"meld_too_long", "solve",
     ":1:8: meld 1: 14 cards, more than a meld holds (13)"},
    {"meld_in_hand", "play",
     ":1:42: '/' in the hand: only the table is laid out in melds"},
};

START_TEST(test_bad_files)
{
    const struct bad_case *bc = &bad_cases[_i];
    char path[256];
    snprintf(path, sizeof path, "data/bad/machiavelli_%s.txt", bc->file);
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    ilpm_params *p = params(bc->verb, NULL);
    void *inst;
    int rc, good = 0;
    while ((rc = pz->parse(rd, p, &inst, &err)) == 1) {
        pz->free_instance(inst);
        good++;
    }
    ck_assert_msg(rc == -1, "%s: no error", path);
    char want[512];
    snprintf(want, sizeof want, "%s%s", path, bc->want);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0,
                  "%s:\n got  %s\n want %s...", path, err.msg, want);
    /* The reader stands past the bad line: the file has nothing more. */
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* The laid melds of a table, as text: "7H 8H 9H / 7D 7S 7C". */
static const char *laid_text(const mach_inst *in)
{
    static char out[512];
    size_t o = 0;
    out[0] = '\0';
    for (int g = 0; g < in->nlaid; g++) {
        char t[80];
        ilpm_mach_meld_text(&in->laid[g], t, sizeof t);
        o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", g ? " / " : "",
                              t);
    }
    return out;
}

START_TEST(test_parse_laid)
{
    ilpm_params *p = params("solve", NULL);
    /* A jumble has no laid melds. */
    mach_inst *in = parse_text("table: 7H 8H 9H 7S 7D 7C\n", p);
    ck_assert_int_eq(in->nlaid, 0);
    pz->free_instance(in);
    /* '/' and ';' with or without blanks; each meld put in order. */
    in = parse_text("table: 9H 7H 8H/7C,7S 7D ;JS 10S QS 9S | hand: 2C\n", p);
    ck_assert_int_eq(in->ntable, 10);
    ck_assert_int_eq(in->nlaid, 3);
    ck_assert_str_eq(laid_text(in), "7H 8H 9H / 7D 7S 7C / 9S 10S JS QS");
    ck_assert_int_eq(in->nhand, 1);
    char d[64];
    pz->describe(in, d, sizeof d);
    ck_assert_str_eq(d, "line 1 (10 cards in 3 melds, hand 1)");
    pz->free_instance(in);
    ilpm_params_free(p);
    /* The ace goes after the king where the rules allow it. */
    p = params("solve", "ace-high");
    in = parse_text("table: AH KH QH / 3S AS 2S\n", p);
    ck_assert_str_eq(laid_text(in), "QH KH AH / AS 2S 3S");
    pz->free_instance(in);
    ilpm_params_free(p);
    p = params("solve", "wrap");
    in = parse_text("table: 2C AC KC QC / AD 2D 3D\n", p);
    ck_assert_str_eq(laid_text(in), "QC KC AC 2C / AD 2D 3D");
    pz->free_instance(in);
    ilpm_params_free(p);
    /* --table lays melds the same way; --hand cannot. */
    p = params("play", NULL);
    ilpm_params_set(p, "table", "AH 2H 3H / 7S 7D 7C");
    ilpm_params_set(p, "hand", "4H");
    void *inst;
    ilpm_err err;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    ck_assert_str_eq(laid_text(inst), "AH 2H 3H / 7D 7S 7C");
    pz->free_instance(inst);
    ilpm_params_set(p, "table", "AH 2H 3H / 7S 7D");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--table: meld 2 (7D 7S): 2 cards, a meld "
                              "needs 3 or more");
    ilpm_params_set(p, "table", "AH 2H 3H / 7S 7D 7C");
    ilpm_params_set(p, "hand", "4H / 5H");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--hand: '/' in the hand: only the table is "
                              "laid out in melds");
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_from_params)
{
    ilpm_err err;
    void *inst = NULL;
    ilpm_params *p = params("solve", NULL);
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 0);
    ilpm_params_set(p, "table", "AH 2H 3H 7s 7d 7c");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    mach_inst *in = inst;
    ck_assert_int_eq(in->ntable, 6);
    char d[64];
    pz->describe(in, d, sizeof d);
    ck_assert_str_eq(d, "--table (6 cards)");
    ck_assert(found(solve(in, p, ILPM_BACKEND_SAT).status));
    pz->free_instance(in);

    ilpm_params_set(p, "table", "AH 2H ZH");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--table: unknown card 'ZH': rank must be A, "
                              "2-10, J, Q, K");
    ilpm_params_set(p, "table", "  ");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--table: empty table");
    ilpm_params_set(p, "table", "AH 2H 3H | hand: 4H");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_msg(strstr(err.msg, "--hand") != NULL, "%s", err.msg);
    ilpm_params_set(p, "table", "AH 2H 3H 3H");
    ilpm_params_set(p, "hand", "3H 4H");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--hand: card 3H appears 3 times on the "
                              "table and in the hand together but there "
                              "are only 2 decks");
    ilpm_params_free(p);

    p = params("play", "table=AH");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_msg(strstr(err.msg, "play needs a hand") != NULL, "%s", err.msg);
    ilpm_params_set(p, "hand", "2H 3H");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    outcome o = solve(inst, p, ILPM_BACKEND_ILP);
    ck_assert_int_eq(o.status, ILPM_OPTIMAL);
    ck_assert_int_eq(o.objective, 2);
    pz->free_instance(inst);
    ilpm_params_free(p);

    p = params("solve", "hand=2H");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--hand needs --table");
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The verifier                                                         */

static mach_meld meld_of(const char *cards)
{
    mach_meld md = {0};
    char buf[128];
    snprintf(buf, sizeof buf, "%s", cards);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        int r;
        size_t used;
        size_t n = strlen(t);
        int played = t[n - 1] == '*';
        n -= (size_t)played;
        ck_assert_int_eq(ilpm_mach_parse_rank(t, n, &r, &used), 0);
        int s = ilpm_mach_parse_suit(t + used, n - used);
        ck_assert_int_ge(s, 0);
        md.c[md.n].suit = (uint8_t)s;
        md.c[md.n].rank = (uint8_t)r;
        md.c[md.n].played = (uint8_t)played;
        md.n++;
    }
    return md;
}

/* Verifies melds (separated by '/') against a table under params words;
 * returns the verifier's message, "" when it accepts. */
static const char *check_answer(const char *table, const char *melds,
                                const char *verb, const char *words)
{
    static ilpm_err why;
    ilpm_params *p = params(verb, words);
    mach_inst *in = parse_text(table, p);
    mach_sol sol = {0};
    mach_meld buf[16];
    sol.melds = buf;
    sol.play = strcmp(verb, "play") == 0;
    char text[256];
    snprintf(text, sizeof text, "%s", melds);
    char *save = NULL;
    for (char *t = strtok_r(text, "/", &save); t;
         t = strtok_r(NULL, "/", &save)) {
        buf[sol.nmelds] = meld_of(t);
        for (int c = 0; c < buf[sol.nmelds].n; c++)
            if (buf[sol.nmelds].c[c].played)
                sol.played[buf[sol.nmelds].c[c].suit]
                          [buf[sol.nmelds].c[c].rank]++;
        sol.nmelds++;
    }
    why.msg[0] = '\0';
    pz->verify(in, p, &sol, &why);
    pz->free_instance(in);
    ilpm_params_free(p);
    return why.msg;
}

START_TEST(test_verify)
{
    const char *t = "table: AH 2H 3H 7H 7S 7C";
    ck_assert_str_eq(check_answer(t, "AH 2H 3H/7H 7S 7C", "solve", NULL), "");
    ck_assert_str_eq(check_answer(t, "7C 7H 7S/AH 2H 3H", "solve", NULL), "");
    ck_assert_str_eq(check_answer(t, "AH 2H 3S/7H 7S 7C", "solve", NULL),
                     "meld 1 (AH 2H 3S): neither a set (one rank) nor a "
                     "run (one suit)");
    ck_assert_str_eq(check_answer("table: 7H 7H 7S 8H 9H 10H",
                                  "7H 7H 7S/8H 9H 10H", "solve", NULL),
                     "meld 1 (7H 7H 7S): a set needs different suits");
    ck_assert_str_eq(check_answer(t, "AH 2H 3H", "solve", NULL),
                     "card 7H: the melds hold 0, the table has 1");
    ck_assert_str_eq(
        check_answer(t, "AH 2H 3H/7H 7S 7C/7H 7S 7C", "solve", NULL),
        "card 7H: the melds hold 2, the table has 1");
    ck_assert_str_eq(check_answer(t, "AH 3H 2H/7H 7S 7C", "solve", NULL),
                     "meld 1 (AH 3H 2H): ranks not consecutive");
    ck_assert_str_eq(check_answer(t, "AH 2H/3H 7H 7S 7C", "solve", NULL),
                     "meld 1 (AH 2H): 2 cards, a meld needs 3 or more");
    ck_assert_str_eq(
        check_answer("table: 7H 7S 7C 7D 7H", "7H 7S 7C 7D 7H", "solve", NULL),
        "meld 1 (7H 7S 7C 7D 7H): a set has 3 or 4 cards");
    /* Ace after the king: only with --ace-high (at the end) or --wrap. */
    const char *qka = "table: QH KH AH";
    ck_assert_str_eq(check_answer(qka, "QH KH AH", "solve", NULL),
                     "meld 1 (QH KH AH): an ace after the king needs "
                     "--ace-high or --wrap");
    ck_assert_str_eq(check_answer(qka, "QH KH AH", "solve", "ace-high"), "");
    ck_assert_str_eq(check_answer(qka, "QH KH AH", "solve", "wrap"), "");
    const char *ka2 = "table: KH AH 2H";
    ck_assert_str_eq(check_answer(ka2, "KH AH 2H", "solve", "ace-high"),
                     "meld 1 (KH AH 2H): K A 2 needs --wrap");
    ck_assert_str_eq(check_answer(ka2, "KH AH 2H", "solve", "wrap"), "");
    ck_assert_str_eq(
        check_answer("table: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
                     "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "solve",
                     "ace-high"),
        "meld 1 (AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH): a run "
        "holds each rank once");
    /* Play: played cards must come from the hand. */
    const char *pl = "table: AH 2H 3H | hand: 4H 9S";
    ck_assert_str_eq(check_answer(pl, "AH 2H 3H 4H*", "play", NULL), "");
    ck_assert_str_eq(check_answer(pl, "AH 2H 3H 4H", "play", NULL),
                     "card 4H: the melds hold 1, the table has 0");
    ck_assert_str_eq(
        check_answer("table: AH 2H 3H | hand: 3H", "AH 2H 3H*", "play", NULL),
        "card 3H: the melds hold 1, the table has 1 plus the "
        "played ones");
    ck_assert_str_eq(check_answer("table: AH 2H 3H 5H | hand: 4H",
                                  "AH 2H 3H 4H* 5H*", "play", NULL),
                     "card 5H: 1 played, the hand holds 0");
    ck_assert_str_eq(check_answer(pl, "AH 2H 3H 4H*", "solve", NULL),
                     "card 4H played without a hand");
}
END_TEST

/* Decoding a planes answer by hand: blocks become runs, columns sets. */
START_TEST(test_decode_planes)
{
    ilpm_params *p = params("solve", "ace-high formulation=planes");
    mach_inst *in = parse_text(
        "table: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 5S 5D 5C\n", p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(in, p, m, &err), 0);
    uint8_t *vals = calloc((size_t)ilpm_model_nvars(m) + 1, 1);
    int xr = ilpm_model_family_find(m, "xr");
    int xs = ilpm_model_family_find(m, "xs");
    int y = ilpm_model_family_find(m, "y");
    for (int j = 1; j <= ACE_HIGH; j++) /* A..K and the high ace */
        vals[ilpm_model_var(m, xr, 0, j, 0, 0)] = 1;
    vals[ilpm_model_var(m, xr, 0, 5, 0, 0)] = 0; /* 5H in the set */
    for (int s = 0; s < NSUITS; s++)
        vals[ilpm_model_var(m, xs, s, 5, 0, 0)] = 1;
    vals[ilpm_model_var(m, y, 5, 0, 0, 0)] = 1;
    /* One set of all four suits: the count that answers are read by. */
    vals[ilpm_model_var(m, ilpm_model_family_find(m, "sets"), 5, 0, 1, 0)] = 1;
    /* The runs' counts: A-4 and 6-A cover all but the 5. */
    int fc = ilpm_model_family_find(m, "run_cover");
    int fs = ilpm_model_family_find(m, "run_start");
    int fe = ilpm_model_family_find(m, "run_end");
    for (int j = 1; j <= ACE_HIGH; j++)
        vals[ilpm_model_var(m, fc, 0, j, 1, 0)] = j != 5;
    vals[ilpm_model_var(m, fs, 0, 1, 1, 0)] = 1;
    vals[ilpm_model_var(m, fs, 0, 6, 1, 0)] = 1;
    vals[ilpm_model_var(m, fe, 0, 4, 1, 0)] = 1;
    vals[ilpm_model_var(m, fe, 0, ACE_HIGH, 1, 0)] = 1;
    ck_assert(ilpm_model_check(m, vals, NULL));
    mach_sol *sol = pz->decode(in, p, m, vals, &err);
    ck_assert_ptr_nonnull(sol);
    ilpm_buf b;
    ilpm_buf_init(&b);
    pz->render(in, sol, &b);
    ck_assert_str_eq(ilpm_buf_str(&b), "AH 2H 3H 4H\n"
                                       "6H 7H 8H 9H 10H JH QH KH AH\n"
                                       "5H 5D 5S 5C\n");
    ck_assert_int_eq(pz->verify(in, p, sol, &err), 0);
    pz->free_solution(sol);

    /* A whole row of 14 is split into A..J and Q K A. */
    vals[ilpm_model_var(m, xr, 0, 5, 0, 0)] = 1;
    vals[ilpm_model_var(m, xs, 0, 5, 0, 0)] = 0;
    sol = pz->decode(in, p, m, vals, &err);
    ilpm_buf_clear(&b);
    pz->render(in, sol, &b);
    ck_assert_str_eq(ilpm_buf_str(&b), "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH\n"
                                       "QH KH AH\n"
                                       "5D 5S 5C\n");
    ck_assert_int_eq(pz->verify(in, p, sol, &err), 0);
    pz->free_solution(sol);

    /* 5H in the run and in the set: decoded as it is, caught by verify. */
    vals[ilpm_model_var(m, xs, 0, 5, 0, 0)] = 1;
    sol = pz->decode(in, p, m, vals, &err);
    ck_assert_int_eq(pz->verify(in, p, sol, &err), -1);
    ck_assert_str_eq(err.msg, "card 5H: the melds hold 2, the table has 1");
    pz->free_solution(sol);

    /* A column of two is decoded as a meld of two, and rejected. */
    vals[ilpm_model_var(m, xs, 0, 5, 0, 0)] = 0;
    vals[ilpm_model_var(m, xs, 1, 5, 0, 0)] = 0;
    sol = pz->decode(in, p, m, vals, &err);
    ck_assert_int_eq(pz->verify(in, p, sol, &err), -1);
    ck_assert_str_eq(err.msg, "meld 3 (5S 5C): 2 cards, a meld needs 3 or "
                              "more");
    pz->free_solution(sol);
    ilpm_buf_free(&b);
    free(vals);
    ilpm_model_free(m);
    pz->free_instance(in);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_render)
{
    ilpm_params *p = params("play", "formulation=melds");
    mach_inst *in = parse_text("table: AH 2H 3H | hand: 4H 5H 9S\n", p);
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(in, p, m, &err), 0);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
    ck_assert_int_eq(ilpm_solver_objective(s), 2);
    mach_sol *sol = pz->decode(in, p, m, ilpm_solver_values(s), &err);
    ck_assert_ptr_nonnull(sol);
    ilpm_buf b;
    ilpm_buf_init(&b);
    pz->render(in, sol, &b);
    /* However the melds formulation splits the run, it is shown whole,
     * the played cards marked, the hand's rest listed. */
    ck_assert_str_eq(ilpm_buf_str(&b), "AH 2H 3H 4H* 5H*\n"
                                       "played: 4H 5H (marked *)\n"
                                       "hand left: 9S\n");
    ilpm_buf_clear(&b);
    pz->render_json(in, sol, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "{\"melds\":[{\"type\":\"run\",\"cards\":[\"AH\",\"2H\","
                     "\"3H\",\"4H\",\"5H\"]}],\"played\":[\"4H\",\"5H\"],"
                     "\"hand_left\":[\"9S\"]}");
    ilpm_buf_free(&b);
    pz->free_solution(sol);
    ilpm_solver_free(s);
    ilpm_model_free(m);
    pz->free_instance(in);
    ilpm_params_free(p);

    /* Nothing playable: "played: none". */
    p = params("play", NULL);
    in = parse_text("table: AH 2H 3H | hand: 9S\n", p);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(in, p, m, &err), 0);
    s = ilpm_solver_new(m, &o, &err);
    ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
    sol = pz->decode(in, p, m, ilpm_solver_values(s), &err);
    ilpm_buf_init(&b);
    pz->render(in, sol, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "AH 2H 3H\nplayed: none\nhand left: 9S\n");
    ilpm_buf_free(&b);
    pz->free_solution(sol);
    ilpm_solver_free(s);
    ilpm_model_free(m);
    pz->free_instance(in);
    ilpm_params_free(p);
}
END_TEST

/* An answer (melds separated by '/', hand cards marked '*') as decode
 * leaves it: presented, played copies marked again, verified.  Returns
 * its text, or its verifier's message when verify rejects it. */
static const char *shown(const char *table, const char *melds, const char *verb,
                         const char *words, int json)
{
    static char out[2048];
    ilpm_params *p = params(verb, words);
    mach_inst *in = parse_text(table, p);
    mach_sol *sol = calloc(1, sizeof *sol);
    ilpm_err err;
    sol->play = strcmp(verb, "play") == 0;
    char text[512];
    snprintf(text, sizeof text, "%s", melds);
    char *save = NULL;
    for (char *t = strtok_r(text, "/", &save); t;
         t = strtok_r(NULL, "/", &save)) {
        mach_meld *md = ilpm_mach_new_meld(sol, &err);
        *md = meld_of(t);
        for (int c = 0; c < md->n; c++) {
            sol->played[md->c[c].suit][md->c[c].rank] += md->c[c].played;
            md->c[c].played = 0;
        }
    }
    ck_assert_int_eq(ilpm_mach_present(in, p, sol, &err), 0);
    ilpm_mach_mark_played(sol);
    if (pz->verify(in, p, sol, &err) != 0) {
        snprintf(out, sizeof out, "%s", err.msg);
    } else {
        ilpm_buf b;
        ilpm_buf_init(&b);
        (json ? pz->render_json : pz->render)(in, sol, &b);
        snprintf(out, sizeof out, "%s", ilpm_buf_str(&b));
        ilpm_buf_free(&b);
    }
    pz->free_solution(sol);
    pz->free_instance(in);
    ilpm_params_free(p);
    return out;
}

START_TEST(test_present)
{
    /* Runs that follow each other are joined; runs first, by suit and
     * first rank, then sets by rank. */
    ck_assert_str_eq(shown("table: AH 2H 3H 4H 5H 6H 7S 7D 7C 9C 10C JC 2D "
                           "3D 4D KH KD KS",
                           "KH KD KS/9C 10C JC/7D 7S 7C/4H 5H 6H/2D 3D 4D/"
                           "AH 2H 3H",
                           "solve", NULL, 0),
                     "AH 2H 3H 4H 5H 6H\n2D 3D 4D\n9C 10C JC\n7D 7S 7C\n"
                     "KH KD KS\n");
    /* ... and cut again where that keeps the melds as laid. */
    ck_assert_str_eq(shown("table: AH 2H 3H / 4H 5H 6H / 7S 7D 7C",
                           "AH 2H 3H 4H 5H 6H/7D 7S 7C", "solve", NULL, 0),
                     "AH 2H 3H\n4H 5H 6H\n7D 7S 7C\n"
                     "table melds changed: none\n");
    ck_assert_str_eq(shown("table: AH 2H 3H 4H 5H 6H 7H / 8H 9H 10H",
                           "AH 2H 3H 4H 5H/6H 7H 8H 9H 10H", "solve", NULL, 0),
                     "AH 2H 3H 4H 5H 6H 7H\n8H 9H 10H\n"
                     "table melds changed: none\n");
    /* Q K A joins 2 3 4 under --wrap only. */
    ck_assert_str_eq(shown("table: QH KH AH 2H 3H 4H", "QH KH AH/2H 3H 4H",
                           "solve", "wrap", 0),
                     "QH KH AH 2H 3H 4H\n");
    ck_assert_str_eq(shown("table: QH KH AH 2H 3H 4H", "QH KH AH/2H 3H 4H",
                           "solve", "ace-high", 0),
                     "2H 3H 4H\nQH KH AH\n");
    /* A broken answer is left as it is for verify to reject. */
    ck_assert_str_eq(
        shown("table: AH 2H 3H 4H 5H", "AH 2H/3H 4H 5H", "solve", NULL, 0),
        "meld 1 (AH 2H): 2 cards, a meld needs 3 or more");
    /* Play against the table as laid: changed and new melds marked, the
     * laid melds changed listed, the hand's rest too. */
    const char *t = "table: 7H 8H 9H / 7S 7D 7C | hand: 10H JS QS KS 2C";
    const char *a = "7H 8H 9H 10H*/JS* QS* KS*/7D 7S 7C";
    ck_assert_str_eq(shown(t, a, "play", NULL, 0),
                     "7H 8H 9H 10H*  (changed)\n"
                     "JS* QS* KS*    (new)\n"
                     "7D 7S 7C\n"
                     "table melds changed: 7H 8H 9H\n"
                     "played: 10H JS QS KS (marked *)\n"
                     "hand left: 2C\n");
    ck_assert_str_eq(
        shown(t, a, "play", NULL, 1),
        "{\"melds\":[{\"type\":\"run\",\"cards\":[\"7H\",\"8H\",\"9H\","
        "\"10H\"],\"state\":\"changed\"},{\"type\":\"run\",\"cards\":["
        "\"JS\",\"QS\",\"KS\"],\"state\":\"new\"},{\"type\":\"set\","
        "\"cards\":[\"7D\",\"7S\",\"7C\"],\"state\":\"kept\"}],"
        "\"played\":[\"10H\",\"JS\",\"QS\",\"KS\"],\"hand_left\":["
        "\"2C\"],\"table_changed\":[[\"7H\",\"8H\",\"9H\"]]}");
    /* A played copy of a card is shown outside the laid meld kept. */
    ck_assert_str_eq(shown("table: 7H 8H 9H / 7S 7D 7C | hand: 7H",
                           "7H* 8H 9H/7H 7D 7S 7C", "play", NULL, 0),
                     "7H 8H 9H\n"
                     "7H* 7D 7S 7C  (changed)\n"
                     "table melds changed: 7D 7S 7C\n"
                     "played: 7H (marked *)\n"
                     "hand left: none\n");
    /* Sets of a rank are regrouped to keep the laid ones. */
    ck_assert_str_eq(shown("table: 7H 7S 7D 7C / 7H 7S 7D 7C / 7H 7S 7D 7C",
                           "7H 7D 7S/7H 7S 7C/7H 7D 7C/7D 7S 7C", "solve",
                           "decks=3", 0),
                     "7H 7D 7S 7C\n7H 7D 7S 7C\n7H 7D 7S 7C\n"
                     "table melds changed: none\n");
    /* ... where the rest still makes sets: here keeping 7H 7D 7S 7C
     * would leave 7H 7S alone. */
    ck_assert_str_eq(shown("table: 7H 7D 7S 7C / 4H 5H 6H 7H / 4S 5S 6S 7S",
                           "4H 5H 6H/4S 5S 6S/7H 7D 7S/7H 7S 7C", "solve", NULL,
                           0),
                     "4H 5H 6H  (changed)\n"
                     "4S 5S 6S  (changed)\n"
                     "7H 7D 7S  (changed)\n"
                     "7H 7S 7C  (changed)\n"
                     "table melds changed: 7H 7D 7S 7C / 4H 5H 6H 7H / "
                     "4S 5S 6S 7S\n");
}
END_TEST

/* The result line's words for a play and the reason for an unsat. */
START_TEST(test_hooks)
{
    char buf[256];
    ilpm_params *p = params("play", NULL);
    mach_inst *in = parse_text("table: AH 2H 3H | hand: 4H 5H 9S", p);
    buf[0] = '\0';
    pz->describe_objective(in, p, 2, buf, sizeof buf);
    ck_assert_str_eq(buf, "lays 2 of 3 cards");
    ilpm_params_set(p, "value", NULL);
    pz->describe_objective(in, p, 9, buf, sizeof buf);
    ck_assert_str_eq(buf, "lays 9 of 18 points");
    pz->free_instance(in);
    ilpm_params_free(p);
    p = params("solve", NULL);
    in = parse_text("table: AH 2H 3H | hand: 4H", p);
    buf[0] = '\0';
    pz->describe_objective(in, p, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    pz->free_instance(in);

    /* Cards that fit no meld of the cards available, by suit and rank. */
    in = parse_text("table: 7S 9C 10C JC 7H 5H 5D", p);
    buf[0] = '\0';
    pz->explain_unsat(in, p, buf, sizeof buf);
    ck_assert_str_eq(buf, "no meld can hold 5H, 7H, 5D, 7S: no run or set "
                          "of the cards on the table contains them");
    pz->free_instance(in);
    /* Every card fits some meld, just not all at once: no reason. */
    in = parse_text("table: 7H 7S 7D 8H 9H", p);
    buf[0] = '\0';
    pz->explain_unsat(in, p, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    pz->free_instance(in);
    ilpm_params_free(p);
    /* play counts the hand's cards as available. */
    p = params("play", NULL);
    in = parse_text("table: 7H 8S | hand: 9H 8H", p);
    pz->explain_unsat(in, p, buf, sizeof buf);
    ck_assert_str_eq(buf, "no meld can hold 8S: no run or set of the cards "
                          "on the table and in the hand contains it");
    pz->free_instance(in);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Hand-made tables with known answers                                  */

START_TEST(test_known_tables)
{
    expect_table("table: AH 2H 3H", NULL, 1);
    expect_table("table: 7H 7S 7C", NULL, 1);
    expect_table("table: 7H 7S 7D 7C", NULL, 1);
    expect_table("table: 7H 7S 7H", NULL, 0);
    expect_table("table: AH 2H", NULL, 0);
    expect_table("table: AH 2H 3H 5H", NULL, 0);
    expect_table("table: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", NULL, 1);
    expect_table("table: 9C 10C JC QC 9D 9S 9H 10S 10H", NULL, 0);
    expect_table("table: 9C 10C JC QC 9D 9S 9H 10S 10H 10D", NULL, 1);
    /* A card split between a set and a run: two copies of 7H ... */
    expect_table("table: 5H 6H 7H 7H 7S 7D", NULL, 1);
    /* ... or the 6H taken out of the run 3-6 into the set of sixes. */
    expect_table("table: 3H 4H 5H 6H 6S 6D", NULL, 1);
    /* Both copies of cards in play: two equal runs, two equal sets. */
    expect_table("table: AH 2H 3H AH 2H 3H", NULL, 1);
    expect_table("table: 7H 7H 7S 7S 7D 7D", NULL, 1);
    expect_table("table: 7H 7H 7S 7S 7D", NULL, 0);
    /* A full two-deck table. */
    expect_table("table: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH "
                 "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD "
                 "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS "
                 "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC "
                 "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH "
                 "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD "
                 "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS "
                 "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
                 NULL, 1);
}
END_TEST

START_TEST(test_variants)
{
    /* Q K A: only with --ace-high or --wrap. */
    expect_table("table: QH KH AH", NULL, 0);
    expect_table("table: QH KH AH", "ace-high", 1);
    expect_table("table: QH KH AH", "wrap", 1);
    /* K A 2: only with --wrap. */
    expect_table("table: KH AH 2H", NULL, 0);
    expect_table("table: KH AH 2H", "ace-high", 0);
    expect_table("table: KH AH 2H", "wrap", 1);
    /* A..K plus a second ace: the high ace takes it. */
    const char *a14 = "table: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH";
    expect_table(a14, NULL, 0);
    expect_table(a14, "ace-high", 1);
    expect_table(a14, "wrap", 1);
    /* Five runs in an odd cycle around the circle (2-4, 4-6, 6-8, 8-J,
     * J-A-2): three run planes are needed with two decks. */
    const char *cyc = "table: 2H 3H 4H 4H 5H 6H 6H 7H 8H 8H 9H 10H JH "
                      "JH QH KH AH 2H";
    expect_table(cyc, NULL, 0);
    expect_table(cyc, "ace-high", 0);
    expect_table(cyc, "wrap", 1);
    /* The same shape with the odd cycle A23 345 567 78910 10JQKA. */
    const char *cyc2 = "table: AH 2H 3H 3H 4H 5H 5H 6H 7H 7H 8H 9H 10H "
                       "10H JH QH KH AH";
    expect_table(cyc2, NULL, 0);
    expect_table(cyc2, "ace-high", 1);
    expect_table(cyc2, "wrap", 1);
    /* Three decks: twelve sevens are 4 sets of 3 or 3 sets of 4. */
    expect_table("table: 7H 7H 7H 7S 7S 7S 7D 7D 7D 7C 7C 7C", "decks=3", 1);
    expect_table("table: 7H 7H 7H 7S 7S 7S 7D 7D 7D 7C 7C", "decks=3", 1);
    expect_table("table: 7H 7H 7H 7S 7S 7S 7D 7D 7D 8H 9H 10H 8H 9H 10H "
                 "8H 9H 10H",
                 "decks=3", 1);
    expect_table("table: 7H 7H 7H 7S 7S 7S 7D 7D", "decks=3", 0);
    /* Eight decks: eight runs of hearts on top of each other. */
    expect_table("table: 2H 3H 4H 2H 3H 4H 2H 3H 4H 2H 3H 4H 2H 3H 4H "
                 "2H 3H 4H 2H 3H 4H 2H 3H 4H 5H 5H 5H 5H 5H 5H 5H 5H",
                 "decks=8", 1);
}
END_TEST

/* The report's deck rows cut off this table: R1 = 7H 8H 9H and
 * R2 = 7S 8S 9S, S1 = 7H 7D 7C, S2 = 7S 7D 7C, S3 = 9H 9S 9D is its only
 * arrangement, and R1-S1-S2-R2-S3-R1 is an odd cycle of "not in the same
 * deck" pairs. */
START_TEST(test_deck_rows)
{
    const char *t = "table: 7H 8H 9H 7S 8S 9S 7H 7D 7C 7S 7D 7C 9H 9S 9D";
    expect_table(t, NULL, 1);
    ilpm_params *p = params("solve", "deck-rows");
    mach_inst *in = parse_text(t, p);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        ck_assert_int_eq(solve(in, p, (ilpm_backend)b).status, ILPM_UNSAT);
    pz->free_instance(in);
    ilpm_params_free(p);
    /* On an ordinary table the deck rows change nothing. */
    p = params("solve", "deck-rows ace-high");
    in = parse_text("table: AH 2H 3H QH KH AH 7S 7D 7C", p);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        ck_assert(found(solve(in, p, (ilpm_backend)b).status));
    pz->free_instance(in);
    ilpm_params_free(p);
    /* From three decks on they do not exist. */
    p = params("solve", "deck-rows decks=3");
    in = parse_text("table: AH 2H 3H", p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(in, p, m, &err), -1);
    ck_assert_msg(strstr(err.msg, "--deck-rows") != NULL, "%s", err.msg);
    ilpm_model_free(m);
    pz->free_instance(in);
    ilpm_params_free(p);
}
END_TEST

/* Play: known optima by number and by value, on both formulations and
 * back ends. */
static void expect_play(const char *line, const char *extra, int best)
{
    static const char *const forms[] = {
        "formulation=planes", "formulation=melds", "formulation=flow"};
    for (int f = 0; f < 3; f++) {
        char words[200];
        snprintf(words, sizeof words, "%s %s", forms[f], extra ? extra : "");
        ilpm_params *p = params("play", words);
        mach_inst *in = parse_text(line, p);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            outcome o = solve(in, p, (ilpm_backend)b);
            if (best < 0) {
                ck_assert_msg(o.status == ILPM_UNSAT, "'%s' [%s] %s: %s", line,
                              words, ilpm_backend_name(b),
                              ilpm_status_name(o.status));
                continue;
            }
            ck_assert_msg(o.status == ILPM_OPTIMAL, "'%s' [%s] %s: %s", line,
                          words, ilpm_backend_name(b),
                          ilpm_status_name(o.status));
            ck_assert_msg(o.objective == best, "'%s' [%s] %s: %lld, not %d",
                          line, words, ilpm_backend_name(b),
                          (long long)o.objective, best);
            int mine = strstr(words, "value") ? o.value : o.played;
            ck_assert_int_eq(mine, best);
        }
        pz->free_instance(in);
        ilpm_params_free(p);
    }
}

START_TEST(test_play)
{
    expect_play("table: AH 2H 3H | hand: 4H 5H 9S", NULL, 2);
    expect_play("table: AH 2H 3H | hand: 4H 5H 9S", "value", 9);
    expect_play("table: 7H 7S 7D | hand: 7C 8C 9C", NULL, 3);
    expect_play("table: 5H 6H 7H | hand: KS", NULL, 0);
    /* One deck: 5H 6H with the 7H (value 11) or 7S 7D (value 14). */
    expect_play("table: 7H | hand: 5H 6H 7S 7D", "decks=1", 2);
    expect_play("table: 7H | hand: 5H 6H 7S 7D", "decks=1 value", 14);
    /* The table alone is broken and the hand cannot mend it. */
    expect_play("table: 7H | hand: KS", NULL, -1);
    /* Taking table cards apart: 3H-6H gives its 6H to 6S 6D. */
    expect_play("table: 3H 4H 5H 6H | hand: 6S 6D", NULL, 2);
    /* Wrap lets the whole hand go down. */
    expect_play("table: QH KH AH | hand: 2H 3H", NULL, -1);
    expect_play("table: QH KH AH | hand: 2H 3H", "ace-high", 0);
    expect_play("table: QH KH AH | hand: 2H 3H", "wrap", 2);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Generated tables                                                     */

static char *gen_text(const char *words)
{
    ilpm_params *p = params("gen", words);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_err err;
    ck_assert_msg(pz->generate(p, NULL, &b, &err) == 0, "%s", err.msg);
    ilpm_params_free(p);
    return ilpm_buf_take(&b);
}

START_TEST(test_generate)
{
    char *a = gen_text("cards=30 seed=7 count=5");
    char *b = gen_text("cards=30 seed=7 count=5");
    ck_assert_str_eq(a, b); /* same seed, same tables */
    char *c = gen_text("cards=30 seed=8 count=5");
    ck_assert_str_ne(a, c);
    ilpm_params *p = params("solve", NULL);
    ilpm_reader *rd = ilpm_reader_mem("gen", a, strlen(a));
    ilpm_err err;
    void *inst;
    int n = 0;
    while (pz->parse(rd, p, &inst, &err) == 1) {
        mach_inst *in = inst;
        ck_assert_int_ge(in->ntable, 28);
        ck_assert_int_le(in->ntable, 30);
        ck_assert(found(solve(in, p, ILPM_BACKEND_SAT).status));
        pz->free_instance(in);
        n++;
    }
    ck_assert_int_eq(n, 5);
    ilpm_reader_free(rd);
    free(a);
    free(b);
    free(c);

    /* All the cards of two decks, and a near miss that says what. */
    a = gen_text("cards=104 seed=1 near-miss");
    ck_assert_msg(strncmp(a, "# near miss: ", 13) == 0, "%s", a);
    rd = ilpm_reader_mem("gen", a, strlen(a));
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    ck_assert_int_eq(((mach_inst *)inst)->ntable, 103);
    pz->free_instance(inst);
    ilpm_reader_free(rd);
    free(a);

    /* Hands and more decks stay within the deck limit. */
    ilpm_params_set(p, "decks", "5");
    a = gen_text("cards=150 decks=5 hand=14 seed=3 count=3");
    rd = ilpm_reader_mem("gen", a, strlen(a));
    n = 0;
    while (pz->parse(rd, p, &inst, &err) == 1) {
        ck_assert_int_eq(((mach_inst *)inst)->nhand, 14);
        pz->free_instance(inst);
        n++;
    }
    ck_assert_msg(n == 3, "%s", err.msg);
    ilpm_reader_free(rd);
    free(a);
    ilpm_params_free(p);
}
END_TEST

/* The generator's message for words, which it must refuse. */
static const char *gen_refusal(const char *words)
{
    static ilpm_err err;
    ilpm_params *p = params("gen", words);
    ilpm_buf b;
    ilpm_buf_init(&b);
    err.msg[0] = '\0';
    ck_assert_msg(pz->generate(p, NULL, &b, &err) == -1, "'%s' accepted",
                  words);
    ilpm_buf_free(&b);
    ilpm_params_free(p);
    return err.msg;
}

START_TEST(test_generate_limits)
{
    ck_assert_str_eq(gen_refusal("cards=200 decks=2"),
                     "--cards: 200 is more than the 104 cards of 2 decks");
    ck_assert_str_eq(gen_refusal("cards=53 decks=1"),
                     "--cards: 53 is more than the 52 cards of 1 deck");
    ck_assert_msg(strstr(gen_refusal("cards=2"), "--cards") != NULL, "2");
    ck_assert_str_eq(gen_refusal("cards=104 hand=5"),
                     "--hand: cannot deal 5: 2 decks hold 104 cards and the "
                     "table may take 104, which leaves 0");
    ck_assert_str_eq(gen_refusal("cards=100 hand=5"),
                     "--hand: cannot deal 5: 2 decks hold 104 cards and the "
                     "table may take 100, which leaves 4");
    ck_assert_str_eq(gen_refusal("cards=100 hand=4 near-miss"),
                     "--hand: cannot deal 4: 2 decks hold 104 cards and the "
                     "table may take 101 (--near-miss may add one), which "
                     "leaves 3");
    ck_assert_str_eq(gen_refusal("laid near-miss"),
                     "--laid: a near miss breaks a meld, so its table cannot "
                     "be written as laid; drop --near-miss or --laid");
    /* Tables as laid: every meld valid under the rules dealt with. */
    static const char *const laid[] = {
        "cards=40 laid seed=5 count=5", "cards=40 laid seed=5 count=5 wrap",
        "cards=40 laid seed=5 count=5 ace-high", "cards=104 laid",
        "cards=416 laid decks=8"};
    for (size_t i = 0; i < sizeof laid / sizeof laid[0]; i++) {
        char *text = gen_text(laid[i]);
        char words[64];
        snprintf(words, sizeof words, "%s %s",
                 strstr(laid[i], "decks=8") ? "decks=8" : "",
                 strstr(laid[i], "wrap")       ? "wrap"
                 : strstr(laid[i], "ace-high") ? "ace-high"
                                               : "");
        ilpm_params *p = params("solve", words);
        ilpm_reader *rd = ilpm_reader_mem("gen", text, strlen(text));
        ilpm_err err;
        void *inst;
        int rc, n = 0;
        while ((rc = pz->parse(rd, p, &inst, &err)) == 1) {
            mach_inst *in = inst;
            int cards = 0;
            for (int g = 0; g < in->nlaid; g++)
                cards += in->laid[g].n;
            ck_assert_int_gt(in->nlaid, 1);
            ck_assert_int_eq(cards, in->ntable);
            pz->free_instance(in);
            n++;
        }
        ck_assert_msg(rc == 0, "'%s': %s", laid[i], err.msg);
        ck_assert_int_gt(n, 0);
        ilpm_reader_free(rd);
        ilpm_params_free(p);
        free(text);
    }
    /* Right at the limits: every line parses with its whole hand. */
    static const char *const ok[] = {
        "cards=100 hand=4 count=20",    "cards=100 hand=3 near-miss count=20",
        "cards=3 hand=101 count=5",     "cards=52 decks=1 count=3 near-miss",
        "cards=3 decks=8 hand=413",     "cards=416 decks=8 near-miss",
        "cards=51 decks=1 hand=1 wrap", "cards=3 decks=1 hand=49 ace-high",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char *text = gen_text(ok[i]);
        const char *d = strstr(ok[i], "decks=");
        char words[32];
        snprintf(words, sizeof words, "decks=%d", d ? atoi(d + 6) : 2);
        ilpm_params *p = params("solve", words);
        ilpm_reader *rd = ilpm_reader_mem("gen", text, strlen(text));
        ilpm_err err;
        void *inst;
        int rc, n = 0;
        const char *h = strstr(ok[i], "hand=");
        while ((rc = pz->parse(rd, p, &inst, &err)) == 1) {
            ck_assert_int_eq(((mach_inst *)inst)->nhand, h ? atoi(h + 5) : 0);
            pz->free_instance(inst);
            n++;
        }
        ck_assert_msg(rc == 0, "'%s': %s", ok[i], err.msg);
        ck_assert_int_gt(n, 0);
        ilpm_reader_free(rd);
        ilpm_params_free(p);
        free(text);
    }
}
END_TEST

/* Many small generated tables: every formulation on every back end
 * agrees with the brute force, and every answer verifies. */
START_TEST(test_random_tables)
{
    static const char *const variants[] = {"", "ace-high", "wrap"};
    int solvable = 0, total = 0;
    for (int seed = 1; seed <= test_seeds(600); seed++) {
        int decks = 1 + seed % 4;
        int cards = 6 + seed % 13;
        const char *var = variants[seed / 3 % 3];
        char words[160];
        /* Deal with one variant, solve with another now and then, so that
         * the variants' rules meet tables that need the others. */
        snprintf(words, sizeof words, "cards=%d decks=%d seed=%d %s %s", cards,
                 decks, seed, seed % 2 ? "near-miss" : "", variants[seed % 3]);
        char *text = gen_text(words);
        static const char *const forms[] = {
            "formulation=planes", "formulation=melds", "formulation=flow",
            "formulation=planes strong"};
        int want = -1;
        for (int f = 0; f < (seed % 5 ? 3 : 4); f++) {
            snprintf(words, sizeof words, "%s decks=%d %s", forms[f], decks,
                     var);
            ilpm_params *p = params("solve", words);
            mach_inst *in = parse_text(text, p);
            if (want < 0) {
                counts c;
                memcpy(c, in->table, sizeof c);
                want = bf_split(c, strcmp(var, "wrap") == 0,
                                strcmp(var, "ace-high") == 0);
            }
            for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
                outcome o = solve(in, p, (ilpm_backend)b);
                ck_assert_msg(found(o.status) == want,
                              "seed %d [%s] %s: %s, brute force says %s\n%s",
                              seed, words, ilpm_backend_name(b),
                              ilpm_status_name(o.status),
                              want ? "solvable" : "unsolvable", text);
            }
            pz->free_instance(in);
            ilpm_params_free(p);
        }
        solvable += want;
        total++;
        free(text);
    }
    /* The near misses make a mix, not all one answer. */
    ck_assert_int_gt(solvable, total / 4);
    ck_assert_int_lt(solvable, total * 9 / 10);
}
END_TEST

/* Every solution a count meets decodes and verifies. */
typedef struct count_ctx {
    const mach_inst *in;
    const ilpm_params *p;
    const ilpm_model *m;
} count_ctx;

static int count_one(void *vctx, const uint8_t *vals)
{
    count_ctx *c = vctx;
    ilpm_err err, why;
    mach_sol *sol = pz->decode(c->in, c->p, c->m, vals, &err);
    ck_assert_msg(sol != NULL, "decode: %s", err.msg);
    ck_assert_msg(pz->verify(c->in, c->p, sol, &why) == 0, "verify: %s",
                  why.msg);
    pz->free_solution(sol);
    return 0;
}

static uint64_t count_arrangements(const mach_inst *in, const ilpm_params *p,
                                   ilpm_backend b)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    ck_assert_msg(pz->build(in, p, m, &err) == 0, "build: %s", err.msg);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = b;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "solver: %s", err.msg);
    count_ctx ctx = {in, p, m};
    uint64_t n = 0;
    ilpm_status st = ilpm_solver_count(s, 0, &n, count_one, &ctx, &err);
    ck_assert_msg(st == ILPM_SOLVED || st == ILPM_UNSAT, "count: %s %s",
                  ilpm_status_name(st), err.msg);
    ck_assert(ilpm_solver_count_complete(s));
    ilpm_solver_free(s);
    ilpm_model_free(m);
    return n;
}

/* Counts: every formulation on every back end counts the arrangements
 * of the README's definition, as the brute force enumerates them, on
 * small random tables (dealt melds, which have many, and uniform
 * draws) with each run variant. */
START_TEST(test_random_counts)
{
    static const char *const variants[] = {"", "ace-high", "wrap"};
    static const char *const forms[] = {"flow", "planes", "melds"};
    uint64_t most = 0, several = 0;
    for (int seed = 1; seed <= test_seeds(90); seed++) {
        int decks = 1 + seed % 3;
        const char *var = variants[seed / 2 % 3];
        char words[160];
        snprintf(words, sizeof words, "cards=%d decks=%d seed=%d %s %s",
                 6 + seed % 8 * 3, decks, 500 + seed, seed % 2 ? "uniform" : "",
                 var);
        char *text = gen_text(words);
        int64_t want = -1;
        for (int f = 0; f < 3; f++) {
            snprintf(words, sizeof words, "formulation=%s decks=%d %s",
                     forms[f], decks, var);
            ilpm_params *p = params("solve", words);
            mach_inst *in = parse_text(text, p);
            if (want < 0) {
                counts c;
                memcpy(c, in->table, sizeof c);
                want = bf_count_rank(c, 1, 0, strcmp(var, "wrap") == 0,
                                     strcmp(var, "ace-high") == 0);
            }
            for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
                uint64_t got = count_arrangements(in, p, (ilpm_backend)b);
                ck_assert_msg(got == (uint64_t)want,
                              "seed %d [%s] %s: %llu, brute force %lld\n%s",
                              seed, words, ilpm_backend_name(b),
                              (unsigned long long)got, (long long)want, text);
            }
            pz->free_instance(in);
            ilpm_params_free(p);
        }
        most = (uint64_t)want > most ? (uint64_t)want : most;
        several += want > 1;
        free(text);
    }
    /* Tables with more than one arrangement, not only 0 and 1 (more
     * than 5 of the 90). */
    ck_assert_uint_gt(several, (uint64_t)test_seeds(90) / 18);
    ck_assert_uint_gt(most, 3);
}
END_TEST

/* The example: planes counted plane orders, melds the splits of
 * a run. */
START_TEST(test_count_example)
{
    static const char *const forms[] = {"flow", "planes", "melds"};
    for (int f = 0; f < 3; f++) {
        char words[64];
        snprintf(words, sizeof words, "formulation=%s", forms[f]);
        ilpm_params *p = params("solve", words);
        mach_inst *one = parse_text("table: 7H 8H 9H 7S 7D 7C 9H 9S 9D\n", p);
        /* 5H in a set of four, or the run A-9 whole and 5S 5D 5C. */
        mach_inst *two =
            parse_text("table: AH 2H 3H 4H 5H 6H 7H 8H 9H 5S 5D 5C\n", p);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            ck_assert_uint_eq(count_arrangements(one, p, (ilpm_backend)b), 1);
            ck_assert_uint_eq(count_arrangements(two, p, (ilpm_backend)b), 2);
        }
        pz->free_instance(one);
        pz->free_instance(two);
        ilpm_params_free(p);
        /* Three of each suit: three sets of four, or four of three. */
        snprintf(words, sizeof words, "formulation=%s decks=3", forms[f]);
        p = params("solve", words);
        mach_inst *twelve =
            parse_text("table: 7H 7H 7H 7D 7D 7D 7S 7S 7S 7C 7C 7C\n", p);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
            ck_assert_uint_eq(count_arrangements(twelve, p, (ilpm_backend)b),
                              2);
        pz->free_instance(twelve);
        ilpm_params_free(p);
    }
}
END_TEST

START_TEST(test_random_play)
{
    static const char *const variants[] = {"", "ace-high", "wrap"};
    for (int seed = 1; seed <= test_seeds(200); seed++) {
        int decks = 1 + seed % 2;
        const char *var = variants[seed % 3];
        int value = seed % 4 == 0;
        char words[160];
        snprintf(words, sizeof words, "cards=%d decks=%d hand=%d seed=%d %s %s",
                 6 + seed % 7, decks, 2 + seed % 4, 1000 + seed,
                 seed % 3 == 0 ? "near-miss" : "", var);
        char *text = gen_text(words);
        int want = -2, got = -2;
        static const char *const forms[] = {"planes", "melds", "flow"};
        for (int f = 0; f < 3; f++) {
            snprintf(words, sizeof words, "formulation=%s decks=%d %s %s",
                     forms[f], decks, var, value ? "value" : "");
            ilpm_params *p = params("play", words);
            mach_inst *in = parse_text(text, p);
            if (want == -2)
                want = bf_play(in, strcmp(var, "wrap") == 0,
                               strcmp(var, "ace-high") == 0, value);
            for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
                outcome o = solve(in, p, (ilpm_backend)b);
                got = o.status == ILPM_OPTIMAL ? (int)o.objective
                      : o.status == ILPM_UNSAT ? -1
                                               : -3;
                ck_assert_msg(got == want,
                              "seed %d [%s] %s: %s %d, brute force %d\n%s",
                              seed, words, ilpm_backend_name(b),
                              ilpm_status_name(o.status), got, want, text);
                if (got >= 0)
                    ck_assert_int_eq(value ? o.value : o.played, got);
            }
            pz->free_instance(in);
            ilpm_params_free(p);
        }
        free(text);
    }
}
END_TEST

/* Dense tables of one suit under --wrap: random runs around the circle,
 * the case where D run planes are not enough, with a card taken out or
 * put in now and then. */
START_TEST(test_random_circles)
{
    ilpm_rng rng;
    ilpm_rng_seed(&rng, 2024);
    int solvable = 0;
    for (int t = 0; t < test_seeds(150); t++) {
        int decks = 2 + (int)ilpm_rng_below(&rng, 2);
        int cnt[NRANKS + 1] = {0};
        if (t % 2 == 0) {
            /* A chain of 3 or 5 runs around the circle, each sharing one
             * card with the next: an odd cycle of overlapping arcs. */
            int k = ilpm_rng_below(&rng, 2) ? 5 : 3;
            int len[5], sum = 0;
            for (int i = 0; i < k; i++)
                sum += len[i] = 3;
            while (sum < NRANKS + k) { /* lengths add up to 13 + k */
                int i = (int)ilpm_rng_below(&rng, (uint64_t)k);
                if (len[i] < 6) {
                    len[i]++;
                    sum++;
                }
            }
            int at = (int)ilpm_rng_below(&rng, NRANKS);
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < len[i]; j++)
                    cnt[(at + j) % NRANKS + 1]++;
                at += len[i] - 1;
            }
        }
        int runs = (t % 2 == 0 ? 0 : 3) + (int)ilpm_rng_below(&rng, 4);
        for (int k = 0; k < runs; k++) {
            int len = 3 + (int)ilpm_rng_below(&rng, 4);
            int start = (int)ilpm_rng_below(&rng, NRANKS);
            int ok = 1;
            for (int i = 0; i < len; i++)
                ok &= cnt[(start + i) % NRANKS + 1] < decks;
            for (int i = 0; ok && i < len; i++)
                cnt[(start + i) % NRANKS + 1]++;
        }
        int r = 1 + (int)ilpm_rng_below(&rng, NRANKS);
        switch (t % 5) {
        case 1:
            if (cnt[r] > 0)
                cnt[r]--;
            break;
        case 2:
            if (cnt[r] < decks)
                cnt[r]++;
            break;
        }
        char line[512] = "table:";
        int n = 0;
        for (int k = 1; k <= NRANKS; k++)
            for (int j = 0; j < cnt[k]; j++, n++)
                snprintf(line + strlen(line), sizeof line - strlen(line),
                         " %sH", ilpm_mach_rank_text[k]);
        if (n == 0)
            continue;
        counts c = {{0}};
        memcpy(c[0], cnt, sizeof cnt);
        int want = bf_split(c, 1, 0);
        solvable += want;
        char words[64];
        snprintf(words, sizeof words, "wrap decks=%d", decks);
        expect_table(line, words, want);
    }
    /* Both answers, each often (of 150: over 30 and under 140). */
    ck_assert_int_gt(solvable, test_seeds(150) / 5);
    ck_assert_int_lt(solvable, test_seeds(150) - test_seeds(150) / 15);
}
END_TEST

/* The data files parse and give the answers their README states. */
START_TEST(test_data_files)
{
    static const struct {
        const char *file, *words;
        int solvable; /* per line: 1 all solvable, 0 none */
    } files[] = {
        {"data/machiavelli/basic.txt", "", 1},
        {"data/machiavelli/unsolvable.txt", "", 0},
        {"data/machiavelli/wrap.txt", "", 0},
        {"data/machiavelli/wrap.txt", "wrap", 1},
        {"data/machiavelli/ace_high.txt", "", 0},
        {"data/machiavelli/ace_high.txt", "ace-high", 1},
        {"data/machiavelli/split.txt", "", 1},
        {"data/machiavelli/both_copies.txt", "", 1},
        {"data/machiavelli/full.txt", "", 1},
        {"data/machiavelli/three_decks.txt", "decks=3", 1},
        {"data/machiavelli/deck_rows.txt", "", 1},
        {"data/machiavelli/deck_rows.txt", "deck-rows", 0},
        {"data/machiavelli/laid.txt", "", 1},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        ilpm_err err;
        ilpm_reader *rd = ilpm_reader_open(files[i].file, &err);
        ck_assert_msg(rd != NULL, "%s", err.msg);
        ilpm_params *p = params("solve", files[i].words);
        void *inst;
        int rc, n = 0;
        while ((rc = pz->parse(rd, p, &inst, &err)) == 1) {
            for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
                outcome o = solve(inst, p, (ilpm_backend)b);
                ck_assert_msg(found(o.status) == files[i].solvable,
                              "%s line %ld [%s] %s: %s", files[i].file,
                              ((mach_inst *)inst)->line, files[i].words,
                              ilpm_backend_name(b), ilpm_status_name(o.status));
            }
            pz->free_instance(inst);
            n++;
        }
        ck_assert_msg(rc == 0, "%s", err.msg);
        ck_assert_int_gt(n, 0);
        ilpm_reader_free(rd);
        ilpm_params_free(p);
    }
}
END_TEST

/* play.txt and laid.txt: "# best N, value V" comment lines give each
 * line's optima. */
START_TEST(test_data_play)
{
    static const char *const files[] = {"data/machiavelli/play.txt",
                                        "data/machiavelli/laid.txt"};
    FILE *f = fopen(files[_i], "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    int best = -9, value = -9, n = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "# best %d, value %d", &best, &value) == 2)
            continue;
        if (strncmp(line, "table:", 6) != 0)
            continue;
        ck_assert_msg(best > -9, "%s: no '# best' before %s", files[_i], line);
        expect_play(line, NULL, best);
        expect_play(line, "value", value);
        best = value = -9;
        n++;
    }
    fclose(f);
    ck_assert_int_gt(n, 0);
}
END_TEST

/* A play is asked for by ILPM_PARAM_PLAY alone, never by a verb's name,
 * and no puzzle's option can take that name. */
START_TEST(test_play_param)
{
    ilpm_params *p = params("solve", "verb=play");
    mach_inst *in = parse_text("table: AH 2H 3H | hand: 4H\n", p);
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(in, p, m, &err), 0);
    ck_assert_int_eq(ilpm_model_objective_get(m, NULL, NULL, NULL), ILPM_NONE);
    ilpm_model_free(m);
    ilpm_params_set(p, ILPM_PARAM_PLAY, NULL);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(in, p, m, &err), 0);
    ck_assert_int_eq(ilpm_model_objective_get(m, NULL, NULL, NULL),
                     ILPM_MAXIMIZE);
    ilpm_model_free(m);
    pz->free_instance(in);
    ilpm_params_free(p);
    for (int i = 0; ilpm_puzzles[i]; i++) {
        ck_assert_ptr_null(
            ilpm_opt_find(ilpm_puzzles[i]->opts, ILPM_PARAM_PLAY));
        ck_assert_ptr_null(
            ilpm_opt_find(ilpm_puzzles[i]->gen_opts, ILPM_PARAM_PLAY));
    }
}
END_TEST

/* --strong and --deck-rows are the planes' rows: alone they choose the
 * planes (so that results and batch keys say so), with flow or melds
 * they are refused. */
START_TEST(test_planes_options)
{
    static const char *const opts[] = {"strong", "deck-rows"};
    for (int i = 0; i < 2; i++) {
        ilpm_params *p = ilpm_params_new();
        ilpm_err err = {0};
        ilpm_params_set(p, opts[i], NULL);
        ck_assert_int_eq(ilpm_puzzle_check_params(&ilpm_puzzle_machiavelli,
                                                  ILPM_USE_SOLVE, p, 1, &err),
                         0);
        ck_assert_str_eq(ilpm_params_get(p, "formulation"), "planes");
        ilpm_params_set(p, "formulation", "flow");
        ck_assert_int_eq(ilpm_puzzle_check_params(&ilpm_puzzle_machiavelli,
                                                  ILPM_USE_SOLVE, p, 1, &err),
                         -1);
        char want[96];
        snprintf(want, sizeof want,
                 "--%s applies to --formulation planes, not flow", opts[i]);
        ck_assert_str_eq(err.msg, want);
        ilpm_params_set(p, "formulation", "flow,planes");
        ck_assert_int_eq(ilpm_puzzle_check_params(&ilpm_puzzle_machiavelli,
                                                  ILPM_USE_COMPARE, p, 1, &err),
                         -1);
        ilpm_params_free(p);
    }
}
END_TEST

static Suite *machiavelli_suite(void)
{
    Suite *s = suite_create("machiavelli");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_parse_cards);
    tcase_add_test(tc, test_parse_decks);
    tcase_add_loop_test(tc, test_bad_files, 0,
                        (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_test(tc, test_from_params);
    tcase_add_test(tc, test_parse_laid);
    tcase_add_test(tc, test_planes_options);
    suite_add_tcase(s, tc);

    tc = tcase_create("verify");
    tcase_add_test(tc, test_verify);
    tcase_add_test(tc, test_decode_planes);
    tcase_add_test(tc, test_render);
    tcase_add_test(tc, test_present);
    tcase_add_test(tc, test_hooks);
    suite_add_tcase(s, tc);

    tc = tcase_create("known");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_known_tables);
    tcase_add_test(tc, test_variants);
    tcase_add_test(tc, test_deck_rows);
    tcase_add_test(tc, test_play);
    tcase_add_test(tc, test_play_param);
    tcase_add_test(tc, test_data_files);
    tcase_add_loop_test(tc, test_data_play, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("generated");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_generate);
    tcase_add_test(tc, test_generate_limits);
    tcase_add_test(tc, test_random_tables);
    tcase_add_test(tc, test_random_counts);
    tcase_add_test(tc, test_count_example);
    tcase_add_test(tc, test_random_play);
    tcase_add_test(tc, test_random_circles);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(machiavelli_suite());
}
