/* The verbs of the command line, one row each, and the puzzles each
 * takes: parsing, the usage, did-you-mean, the unknown-verb message and
 * the checks all read this table and the puzzle registry, so a new verb
 * is one row here (and its help in help.c), a new puzzle none. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int takes_play(const ilpm_puzzle *pz)
{
    return (pz->caps & ILPM_CAP_PLAY) != 0;
}

static int takes_gen(const ilpm_puzzle *pz)
{
    return pz->generate != NULL;
}

const cli_verb ilpm_cli_verbs[VERB_ALL] = {
    [VERB_SOLVE] = {"solve", "PUZZLE [FILE...]",
                    "solve (or --count) every instance", NULL, NULL},
    [VERB_PLAY] = {"play", "PUZZLE FILE...", "best play from a hand",
                   takes_play, "has no play: a play lays cards from a hand"},
    [VERB_STATS] = {"stats", "PUZZLE [FILE...]",
                    "sizes of the ILP and CNF lowerings per group", NULL, NULL},
    [VERB_EXPORT] = {"export", "PUZZLE [FILE] --FORMAT F...",
                     "write the model for other solvers", NULL, NULL},
    [VERB_GEN] = {"gen", "PUZZLE [OPTIONS]", "write random instances",
                  takes_gen, "has no generator"},
    [VERB_COMPARE] = {"compare", "PUZZLE [FILE...]",
                      "every formulation on every back end,\nside by side, "
                      "with a check that they agree",
                      NULL, NULL},
    [VERB_BATCH] = {"batch", "PUZZLE FILE... --out RESULTS",
                    "every instance on parallel workers, results\nas CSV or "
                    "JSON lines",
                    NULL, NULL},
    [VERB_MERGE] = {"merge", "--out RESULTS FILE...",
                    "combine the results of batch shards", NULL, NULL},
    [VERB_FZN] = {"fzn", "[FLAGS] FILE.fzn",
                  "a FlatZinc model, as MiniZinc's solver", NULL, NULL},
    [VERB_LIST] = {"list", "", "the puzzles and their formulations", NULL,
                   NULL},
    [VERB_HELP] = {"help", NULL, NULL, NULL, NULL},
};

int ilpm_cli_verb_find(const char *s)
{
    for (int i = 0; i < VERB_ALL; i++)
        if (strcmp(s, ilpm_cli_verbs[i].name) == 0)
            return i;
    return -1;
}

int ilpm_cli_verb_takes(int verb, const ilpm_puzzle *pz)
{
    const cli_verb *v = &ilpm_cli_verbs[verb];
    return !v->takes || v->takes(pz);
}

size_t ilpm_cli_puzzle_names(int verb, const char *sep, char *buf, size_t size)
{
    size_t n = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; ilpm_puzzles[i] && n < size; i++)
        if (ilpm_cli_verb_takes(verb, ilpm_puzzles[i]))
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  ilpm_puzzles[i]->name);
    return n < size ? n : size - 1;
}

size_t ilpm_cli_verb_names(const char *sep, char *buf, size_t size)
{
    size_t n = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; i < VERB_ALL && n < size; i++)
        if (ilpm_cli_verbs[i].synopsis)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  ilpm_cli_verbs[i].name);
    return n < size ? n : size - 1;
}
