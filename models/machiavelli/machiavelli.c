/* Machiavelli: rearrange the cards on the table (one or more French decks
 * without jokers) into sets and runs, or lay the most cards of a hand.
 * This file holds the descriptor, the options and the instance; the rest
 * of the puzzle is in the files that machiavelli.h names.
 *
 * Three formulations of the same rules:
 *  - flow (default, flow.c): sets counted per rank and suit pattern, runs
 *    as starts and ends along each suit, without the planes' symmetry
 *    the best on GLPK (docs/benchmarks.md);
 *  - planes (planes.c), from the Italian report: x(s,r,k) = 1
 *    when card (suit s, rank r) lies in plane k; run planes forbid the
 *    row patterns 010 and 0110, set planes hold 0, 3 or 4 cards per
 *    column;
 *  - melds (melds.c), den Hertog and Hulshof (2006): set partitioning
 *    over every run of 3-5 cards and every set, one variable per copy of
 *    a meld.
 * Suits are 0..3 = H D S C, ranks 1..13 = A..K; column 14 is the ace
 * after the king under --ace-high. */
#include "machiavelli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* In the order of FORM_*, the default first. */
static const char *const mach_forms[] = {"flow", "planes", "melds", NULL};

const ilpm_opt ilpm_mach_opts[] = {
    {.name = "formulation",
     .arg = "F",
     .type = ILPM_OPT_CHOICE,
     .def = "flow",
     .choices = mach_forms,
     .help = "flow (sets per rank and suit pattern, runs as starts and "
             "ends), planes (the report's card planes) or melds (set "
             "partitioning over all melds, den Hertog and Hulshof 2006)"},
    ILPM_MACH_DECKS_ROW,
    {.name = "ace-high",
     .type = ILPM_OPT_FLAG,
     .help = "also allow runs ending Q K A (never K A 2)"},
    {.name = "wrap",
     .type = ILPM_OPT_FLAG,
     .help = "continuous runs through K A 2 (ranks modulo 13)"},
    {.name = "strong",
     .type = ILPM_OPT_FLAG,
     .help = "planes (implied without --formulation): set rows y >= x for "
             "each suit instead of 4y >= sum x"},
    {.name = "deck-rows",
     .type = ILPM_OPT_FLAG,
     .help = "planes (implied without --formulation), 1-2 decks: add the "
             "report's rows x(2m) + x(2m+1) <= 1 (they can cut off valid "
             "tables: data/machiavelli/README.md)"},
    {.name = "value",
     .type = ILPM_OPT_FLAG,
     .flags = ILPM_OPT_PLAY,
     .help = "play: maximise the value laid (A=1, 2-10 face, J=11, Q=12, "
             "K=13) instead of the number of cards"},
    {.name = "table",
     .arg = "CARDS",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_INSTANCE,
     .help = "the table itself, e.g. \"AH 2H 3H 7S 7D 7C\""},
    {.name = "hand",
     .arg = "CARDS",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_INSTANCE | ILPM_OPT_PLAY,
     .help = "with --table: the hand, for play"},
    {.name = NULL},
};

/* The planes' own rows: alone, they choose the planes. */
static const ilpm_form_opt mach_form_opts[] = {
    {"strong", "planes", 1},
    {"deck-rows", "planes", 1},
    {NULL, NULL, 0},
};

int ilpm_mach_has(const ilpm_params *p, const char *name)
{
    return p && ilpm_params_has(p, name);
}

int ilpm_mach_is_play(const ilpm_params *p)
{
    return ilpm_mach_has(p, ILPM_PARAM_PLAY);
}

int ilpm_mach_read_settings(const ilpm_params *p, mach_settings *st,
                            ilpm_err *err)
{
    memset(st, 0, sizeof *st);
    if (ilpm_params_choice(p, ilpm_mach_opts, "formulation", &st->form, err) !=
        0)
        return -1;
    st->wrap = ilpm_mach_has(p, "wrap");
    st->ace_high = ilpm_mach_has(p, "ace-high") && !st->wrap;
    st->strong = ilpm_mach_has(p, "strong");
    st->deck_rows = ilpm_mach_has(p, "deck-rows");
    /* Options of the planes alone choose them. */
    if ((st->strong || st->deck_rows) && !ilpm_mach_has(p, "formulation"))
        st->form = FORM_PLANES;
    st->value = ilpm_mach_has(p, "value");
    st->play = ilpm_mach_is_play(p);
    return 0;
}

void ilpm_mach_free(void *p)
{
    mach_inst *in = p;
    if (in)
        free(in->laid);
    free(in);
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

/* ilpm solve machiavelli --help: examples (see puzzle.h). */
static const char *const machiavelli_examples[] = {
    "data/machiavelli/basic.txt",
    "data/machiavelli/basic.txt --formulation melds --backend cp",
    "data/machiavelli/three_decks.txt --decks 3 --backend sat", NULL};

const ilpm_puzzle ilpm_puzzle_machiavelli = {
    .name = "machiavelli",
    .caps = ILPM_CAP_PLAY,
    .summary = "rearrange a Machiavelli table into sets and runs, or lay "
               "the most cards of a hand",
    .opts = ilpm_mach_opts,
    .formulations = mach_forms,
    .form_opts = mach_form_opts,
    .input_help =
        "One instance per line: 'table: <cards>' or 'table: <cards> | "
        "hand: <cards>'.\n"
        "A card is a rank (A, 2-10 or T, J, Q, K) and a suit (H D S C, "
        "or \u2665 \u2666 \u2660 \u2663\n"
        "and \u2661 \u2662 \u2664 \u2667), in any case, apart by spaces or "
        "commas: "
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
    .examples = machiavelli_examples,
    .from_params = ilpm_mach_from_params,
    .parse = ilpm_mach_parse,
    .free_instance = ilpm_mach_free,
    .describe = mach_describe,
    .build = ilpm_mach_build,
    .decode = ilpm_mach_decode,
    .verify = ilpm_mach_verify,
    .render = ilpm_mach_render,
    .render_json = ilpm_mach_render_json,
    .describe_objective = ilpm_mach_describe_objective,
    .explain_unsat = ilpm_mach_explain_unsat,
    .free_solution = ilpm_mach_sol_free,
    .generate = ilpm_mach_generate,
    .gen_opts = ilpm_mach_gen_opts,
};
