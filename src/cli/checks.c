/* The checks that tie a command line's options together, and those of
 * values that need more than their own row (CaDiCaL's option names, a
 * back end's options against the back ends chosen): all run once, after
 * the parse and before the first instance, so that a mistake is one
 * message and exit 2. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define FAIL(...) return ilpm_err_input(err, __VA_ARGS__)

/* The back ends the verb runs, ILPM_BACKEND_BIT each; 0 for a verb that
 * solves nothing (stats and export read --amo for the CNF they size or
 * write). */
static unsigned chosen(const cli *c)
{
    unsigned one = ILPM_BACKEND_BIT(c->run.solver.backend);
    switch (c->verb) {
    case VERB_SOLVE:
    case VERB_PLAY:
        return one;
    case VERB_BATCH:
        return c->backends ? c->backends : one;
    case VERB_COMPARE:
        return ILPM_BACKENDS_ALL;
    default:
        return 0;
    }
}

/* "ilp", "ilp or sat", ...; "auto" for the portfolio's bit. */
static void names_of(unsigned mask, const char *sep, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int b = 0; b <= ILPM_BACKEND_AUTO && n < size; b++)
        if (mask & ILPM_BACKEND_BIT(b))
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  ilpm_backend_name((ilpm_backend)b));
}

/* An option of one back end given to another is refused (under batch's
 * both or all, or compare, each goes to its own); then what the chosen
 * back ends check of their options before any model (--sat-option on
 * CaDiCaL's own table). */
static int check_backends(cli *c, ilpm_err *err)
{
    unsigned run = chosen(c);
    int both = c->verb == VERB_BATCH && c->backends == ILPM_BACKENDS_BOTH;
    if (!run)
        return 0;
    for (int k = 0; k < c->argc; k++) {
        const char *name = c->argv_opt[k];
        int b = -1;
        const ilpm_opt *r = name ? ilpm_cli_opt_owner(name, &b) : NULL;
        unsigned own = r && b >= 0 ? ILPM_BACKEND_BIT(b) : 0;
        if (!own || (own & run))
            continue;
        char want[64], got[64];
        names_of(own, " or ", want, sizeof want);
        names_of(run, " and ", got, sizeof got);
        FAIL("--%s applies to --backend %s, not %s%s%s%s", name, want,
             both ? "both (" : "", got, both ? ")" : "",
             run == ILPM_BACKEND_BIT(ILPM_BACKEND_AUTO)
                 ? " (auto's members run settings of their own)"
                 : "");
    }
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        if ((run & ILPM_BACKEND_BIT(b)) &&
            ilpm_backend_check_options(b, &c->run.solver, err) != 0)
            return -1;
    return 0;
}

/* --format dimacs: the puzzles that print v lines (ILPM_CAP_DIMACS). */
static int dimacs_refused(ilpm_err *err)
{
    char names[sizeof err->msg];
    size_t n = 0;
    names[0] = '\0';
    for (int i = 0; ilpm_puzzles[i] && n < sizeof names; i++)
        if (ilpm_puzzles[i]->caps & ILPM_CAP_DIMACS)
            n += (size_t)snprintf(names + n, sizeof names - n,
                                  "%s'ilpm solve %s'", n ? " or " : "",
                                  ilpm_puzzles[i]->name);
    FAIL("--format dimacs (the SAT competition's s/v lines) goes with %s only",
         names);
}

/* --threads and --seed set --backend auto's members: with one back end
 * they would do nothing.  fzn's -p N with --ilpm-backend B leaves N
 * unused (docs/fzn.md), as MiniZinc may pass -p to any solver. */
static int auto_options(const cli *c, ilpm_err *err)
{
    if (c->fzn || c->run.solver.backend == ILPM_BACKEND_AUTO)
        return 0;
    if (ilpm_cli_given(c, "threads"))
        FAIL("--threads goes with --backend auto (the members it runs at "
             "once)");
    if (ilpm_cli_given(c, "seed"))
        FAIL("--seed goes with --backend auto (the seed of its members that "
             "take one)");
    return 0;
}

/* What the options say together, checked once. */
int ilpm_cli_check(cli *c, ilpm_err *err)
{
    int format_set = ilpm_cli_given(c, "format");
    if (c->run.limit && !c->run.count)
        FAIL("--limit goes with --count");
    if (auto_options(c, err) != 0)
        return -1;
    /* A FILE given twice: standard input can be read once; a batch's
     * rows are found by file and index, so a file twice would make two
     * rows of one key, one run to --resume and merge. */
    for (int i = 1; i < c->nfiles; i++)
        for (int j = 0; j < i; j++) {
            if (strcmp(c->files[i], c->files[j]) != 0)
                continue;
            if (strcmp(c->files[i], "-") == 0)
                FAIL("standard input (-) is given twice as a FILE; it can be "
                     "read once");
            if (c->verb == VERB_BATCH)
                FAIL("batch: FILE %s is given twice (its rows would share "
                     "their keys, one run each to --resume and merge)",
                     c->files[i]);
        }
    if (c->index && c->nfiles == 0)
        FAIL("--index picks an instance of a FILE; no FILE was given");
    if (format_set && c->verb == VERB_BATCH && c->format == FMT_TEXT)
        FAIL("batch writes csv or json, not text");
    if (c->format == FMT_DIMACS &&
        (c->verb != VERB_SOLVE || !c->pz || !(c->pz->caps & ILPM_CAP_DIMACS)))
        return dimacs_refused(err);
    if (c->verb == VERB_MERGE) {
        if (!c->out_path || c->nfiles == 0)
            FAIL("usage: ilpm merge --out RESULTS FILE...");
        return 0;
    }
    if (!c->pz) {
        char names[sizeof err->msg];
        ilpm_cli_puzzle_names(c->verb, " ", names, sizeof names);
        FAIL("%s needs a puzzle: one of %s", c->verb_name, names);
    }
    if (c->verb == VERB_GEN && c->nfiles > 0)
        FAIL("gen takes no FILE (write with --out FILE)");
    int exports = 0;
    for (int f = 0; f < ILPM_MAX_FORMATS; f++)
        exports += c->export_path[f] != NULL;
    if (c->verb == VERB_EXPORT && !exports) {
        char names[256];
        ilpm_format_names(ILPM_FORMATS_WRITE, 0, "--", ", ", names,
                          sizeof names);
        FAIL("export needs a format to write: one or more of %s FILE", names);
    }
    if (c->verb == VERB_EXPORT && c->nfiles > 1)
        FAIL("export writes one instance: give one FILE (and --index I "
             "for one of its instances)");
    if (c->verb == VERB_BATCH && !c->out_path)
        FAIL("batch needs --out RESULTS");
    if (c->verb == VERB_BATCH && strcmp(c->out_path, "-") == 0 &&
        (c->resume || c->slurm_n))
        FAIL("batch --out -: %s needs a results file",
             c->resume ? "--resume reads back" : "--slurm merges into");
    if (c->force && c->resume)
        FAIL("--force replaces RESULTS and --resume adds to it: give one");
    if (c->verb == VERB_BATCH && c->nfiles == 0)
        FAIL("batch needs at least one FILE of instances");
    if (!c->slurm_n && (c->submit || c->slurm_script || c->partition ||
                        c->account || c->sbatch))
        FAIL("--submit, --slurm-script, --partition, --account and --sbatch "
             "go with --slurm N");
    if (c->slurm_n && c->shard_n)
        FAIL("--slurm N makes the shards itself; drop --shard");
    if (check_backends(c, err) != 0)
        return -1;
    ilpm_puzzle_use use = c->verb == VERB_PLAY      ? ILPM_USE_PLAY
                          : c->verb == VERB_COMPARE ? ILPM_USE_COMPARE
                          : c->verb == VERB_GEN     ? ILPM_USE_GEN
                                                    : ILPM_USE_SOLVE;
    return ilpm_puzzle_check_params(c->pz, use, c->params, c->nfiles > 0, err);
}
