/* --help: the top-level usage and each verb's own help (what it does, its
 * options as the options table gives them for that verb, its exit
 * statuses and examples).  Every example line runs as shown from the
 * source root (tests/help_commands.sh runs them all); "# exit N" says
 * the status it ends with when it is not 0. */
#include "cli.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef struct verb_help {
    const char *usage; /* after "ilpm VERB" */
    const char *about;
    const char *exits;
    const char *examples[5];
} verb_help;

/* The statuses of the verbs that solve, over several instances. */
#define SOLVING_EXITS                                                          \
    "0 solved, counted or optimal; 10 unsatisfiable; 3 a time limit hit\n"     \
    "(an optimum not proven in time too); 2 usage or input error; 1\n"         \
    "internal error; 130 interrupted (SIGINT, SIGTERM).  Over several\n"       \
    "instances the most severe: 1, 2, 130, 3, 10, 0."
/* solve model's --format dimacs (the other verbs refuse it). */
#define DIMACS_EXITS                                                           \
    "\nWith --format dimacs (solve model), the SAT competition's: 10\n"        \
    "SATISFIABLE, 20 UNSATISFIABLE, 30 OPTIMUM FOUND, 0 UNKNOWN."

static const verb_help helps[VERB_COUNT] = {
    [VERB_SOLVE] = {"PUZZLE [FILE...] [OPTIONS]",
                    "Solves (or with --count counts) every instance of every "
                    "FILE, or the\none the puzzle's options describe, and "
                    "checks every solution against\nthe puzzle's rules.",
                    SOLVING_EXITS DIMACS_EXITS,
                    {"ilpm solve queens --n 8",
                     "ilpm solve sudoku data/sudoku/norvig_top95.txt --index 1 "
                     "--backend sat --format json",
                     "ilpm solve queens data/queens/completion.txt --count   "
                     "# exit 10",
                     NULL}},
    [VERB_PLAY] = {"PUZZLE FILE... [OPTIONS]",
                   "The best play from a hand: the most cards (or with "
                   "--value the most\npoints) laid from the hand so that "
                   "table and play form valid melds.",
                   SOLVING_EXITS,
                   {"ilpm play machiavelli data/machiavelli/play.txt",
                    "ilpm play machiavelli data/machiavelli/play.txt --backend "
                    "sat --format csv",
                    NULL}},
    [VERB_STATS] = {"PUZZLE [FILE...] [OPTIONS]",
                    "The sizes of the ILP and CNF lowerings per constraint "
                    "group: model\nconstraints, ILP rows and nonzeros, CNF "
                    "clauses, literals and auxiliary\nvariables, for every "
                    "instance of every FILE.  Nothing is solved.",
                    "0 done; 2 usage or input error; 1 internal error.",
                    {"ilpm stats sudoku data/sudoku/norvig_top95.txt --index 1",
                     "ilpm stats langford --n 7 --k 2 --format json",
                     "ilpm stats model data/models/knapsack.lp "
                     "data/models/setcover.mps --format csv",
                     NULL}},
    [VERB_EXPORT] = {"PUZZLE [FILE] --FORMAT F [--FORMAT F...] [OPTIONS]",
                     "Writes one instance's model for other solvers, in each "
                     "format asked\n(--FORMAT F, one option per format "
                     "written, listed below).  F '-'\nis standard output.",
                     "0 written; 2 usage or input error; 1 internal error or "
                     "a write that\nfailed.",
                     {"ilpm export queens --n 8 --lp queens8.lp",
                      "ilpm export sudoku data/sudoku/norvig_top95.txt "
                      "--index 1 --cnf grid1.cnf --opb grid1.opb",
                      NULL}},
    [VERB_GEN] = {"PUZZLE [OPTIONS] [--out FILE]",
                  "Writes random instances of a puzzle with a generator, in "
                  "the format\n'ilpm solve PUZZLE FILE' reads, to standard "
                  "output or --out FILE.",
                  "0 written; 3 a time limit hit by the generator's "
                  "solver calls (nothing\nwritten); 2 usage error or "
                  "--memory-limit reached; 1 internal error or\na write "
                  "that failed; 130 interrupted (SIGINT, SIGTERM).",
                  {"ilpm gen tetravex --n 4 --seed 3 --count 2",
                   "ilpm gen machiavelli --decks 2 --cards 20 --count 3 --out "
                   "tables.txt",
                   NULL}},
    [VERB_COMPARE] =
        {"PUZZLE [FILE...] [OPTIONS]",
         "Every formulation (or those of --formulation A,B) on every back "
         "end\n(ilp, sat, cp), side by side: status, times, sizes, the "
         "variables fixed\nbefore the back ends ran, and whether the runs "
         "agree (n/a with fewer\nthan two answers).  --propagate none hands "
         "the back ends the givens\nalone, to compare their own work.",
         SOLVING_EXITS "\nA DISAGREEMENT between runs is 1.",
         {"ilpm compare queens --n 8 --count",
          "ilpm compare sudoku data/sudoku/norvig_top95.txt --index 1 "
          "--propagate none",
          "ilpm compare langford --n 12 --k 2 --format csv", NULL}},
    [VERB_BATCH] =
        {"PUZZLE FILE... --out RESULTS [OPTIONS]",
         "Runs every instance of every file on worker processes and writes "
         "one\nrow per instance and back end to RESULTS, in input order, "
         "flushed as\nrows complete.  A worker that crashes, runs out of "
         "memory or overruns\nthe time limit is recorded ('error' or "
         "'timeout') and replaced.  Ctrl-C\nkeeps every finished row.  "
         "--time-limit is enforced in the solver and,\nas a last resort, by "
         "killing the worker at 1.5 S + 5 s.",
         "the most severe over the rows, in solve's order: 1 a run failed\n"
         "inside ilpm (a crash, an error that is not the input's), 2 an "
         "instance\nor file did not parse, 130 interrupted, 3 a time limit, "
         "10 some\ninstance is unsatisfiable, 0 otherwise.",
         {"ilpm batch queens data/queens/completion.txt --out results.csv "
          "--jobs 2   # exit 10",
          "ilpm batch sudoku data/sudoku/norvig_top95.txt --out top95.jsonl "
          "--backend all --time-limit 10",
          NULL}},
    [VERB_MERGE] = {"--out RESULTS FILE...",
                    "Combines the results of batch shards (CSV or JSON "
                    "lines) into one\nfile sorted by file, index, "
                    "formulation and back end, in the format\nRESULTS's "
                    "name asks for (.csv, .json or .jsonl; rows of the "
                    "other\nformat converted), else in the inputs'.",
                    "0 merged; 2 usage error or a file that cannot be read "
                    "or merged; 1\ninternal error or a write that failed.",
                    {"ilpm batch queens data/queens/completion.txt --out "
                     "part0.csv --shard 0/2   # exit 10",
                     "ilpm batch queens data/queens/completion.txt --out "
                     "part1.csv --shard 1/2",
                     "ilpm merge --out results.csv part0.csv part1.csv",
                     "ilpm merge --out results.jsonl part0.csv part1.csv",
                     NULL}},
};

void ilpm_cli_opt_help(const ilpm_opt *r, const char *more, char *buf,
                       size_t size)
{
    char range[80] = "", def[80] = "";
    int unbounded = r->hi == INT64_MAX || r->hi == LONG_MAX;
    if (r->type == ILPM_OPT_INT && unbounded)
        snprintf(range, sizeof range, "at least %" PRId64, r->lo);
    else if (r->type == ILPM_OPT_INT)
        snprintf(range, sizeof range, "%" PRId64 " to %" PRId64, r->lo, r->hi);
    else if (r->type == ILPM_OPT_REAL && r->lo > 0)
        snprintf(range, sizeof range, "at least %" PRId64, r->lo);
    if (r->def && r->type != ILPM_OPT_FLAG)
        snprintf(def, sizeof def, "%sdefault %s", *range ? ", " : "", r->def);
    snprintf(buf, size, "%s%s%s%s%s%s", r->help, more ? more : "",
             r->flags & (ILPM_OPT_LIST | ILPM_OPT_REPEAT) ? " (repeatable)"
                                                          : "",
             *range || *def ? " (" : "", range, def);
    if (*range || *def) {
        size_t n = strlen(buf);
        if (n + 1 < size)
            buf[n] = ')', buf[n + 1] = '\0';
    }
}

/* "--name VALUE  help": the value as the row names it (a choice's names
 * joined by '|' unless it names them itself; none for a flag). */
static void print_row(FILE *f, const ilpm_opt *r, const char *help)
{
    char left[160];
    size_t n = (size_t)snprintf(left, sizeof left, "--%s", r->name);
    if (r->type == ILPM_OPT_FLAG)
        ;
    else if (r->arg || r->type != ILPM_OPT_CHOICE)
        snprintf(left + n, sizeof left - n, " %s", r->arg ? r->arg : "");
    else
        for (int i = 0; r->choices[i] && n < sizeof left; i++)
            n += (size_t)snprintf(left + n, sizeof left - n, "%c%s",
                                  i ? '|' : ' ', r->choices[i]);
    if (strlen(left) > 28)
        fprintf(f, "  %s\n  %-28s %s\n", left, "", help);
    else
        fprintf(f, "  %-28s %s\n", left, help);
}

static void print_puzzle_opts(FILE *f, const ilpm_opt *o)
{
    char help[640];
    for (; o && o->name; o++) {
        ilpm_cli_opt_help(o, NULL, help, sizeof help);
        print_row(f, o, help);
    }
}

/* Every row of the options table that goes with verb v, in its order. */
static void print_opts(FILE *f, verb_id v)
{
    cli_row r;
    for (int i = 0; ilpm_cli_option_row(i, &r); i++)
        if (r.verbs & (1u << v))
            print_row(f, r.row, r.help);
}

/* The verb's examples; solve's with a puzzle, the puzzle's own. */
static void print_examples(FILE *f, const cli *c, const verb_help *h)
{
    fprintf(f, "\nexamples (from the source folder):\n");
    const ilpm_puzzle *pz = c->pz;
    if (c->verb == VERB_SOLVE && pz && pz->examples) {
        for (int i = 0; pz->examples[i]; i++)
            fprintf(f, "  ilpm solve %s %s\n", pz->name, pz->examples[i]);
        return;
    }
    for (int i = 0; h->examples[i]; i++)
        fprintf(f, "  %s\n", h->examples[i]);
}

/* The puzzles verb v takes, each after a space. */
static void print_puzzles(FILE *f, int v)
{
    for (int i = 0; ilpm_puzzles[i]; i++)
        if (ilpm_cli_verb_takes(v, ilpm_puzzles[i]))
            fprintf(f, " %s", ilpm_puzzles[i]->name);
}

/* "  solve PUZZLE [FILE...]   what it does": a synopsis too long for its
 * column stands on a line of its own; a verb that takes some puzzles
 * only names them. */
static void print_verb(FILE *f, int v)
{
    const cli_verb *r = &ilpm_cli_verbs[v];
    char left[96];
    snprintf(left, sizeof left, "%s%s%s", r->name, *r->synopsis ? " " : "",
             r->synopsis);
    if (strlen(left) > 24)
        fprintf(f, "  %s\n  %-24s ", left, "");
    else
        fprintf(f, "  %-24s ", left);
    for (const char *p = r->line; *p;) {
        size_t k = strcspn(p, "\n");
        fprintf(f, "%.*s", (int)k, p);
        p += k;
        if (*p)
            fprintf(f, "\n%27s", ""), p++;
    }
    if (r->takes) {
        fprintf(f, " (");
        char names[256];
        ilpm_cli_puzzle_names(v, ", ", names, sizeof names);
        fprintf(f, "%s)", names);
    }
    fprintf(f, "\n");
}

void ilpm_cli_usage(FILE *f)
{
    fprintf(f, "usage: ilpm VERB PUZZLE [FILE...] [OPTIONS]\n"
               "\n"
               "Models puzzles as 0/1 integer linear programs and solves them\n"
               "with GLPK's branch-and-cut (the default, --backend ilp), with\n"
               "CaDiCaL as SAT (--backend sat) or by ilpm's own search "
               "(--backend cp).\n"
               "\n"
               "verbs:\n");
    for (int v = 0; v < VERB_ALL; v++)
        if (ilpm_cli_verbs[v].synopsis)
            print_verb(f, v);
    fprintf(f, "\n"
               "puzzles:");
    print_puzzles(f, VERB_SOLVE);
    fprintf(f,
            "\n\n"
            "Run 'ilpm VERB --help' for a verb's options, exit statuses and "
            "examples,\n'ilpm VERB PUZZLE --help' for a puzzle's options and "
            "input format too.\n"
            "Exit status: 0 solved or counted, 10 unsatisfiable, 2 usage or "
            "input\nerror, 3 time limit, 1 internal error, 130 interrupted; "
            "over several\ninstances (or batch rows) the most severe: 1, 2, "
            "130, 3, 10, 0.\nWith --format dimacs, the SAT competition's: "
            "10 SATISFIABLE, 20 UNSATISFIABLE,\n30 OPTIMUM FOUND, 0 UNKNOWN.\n"
            "Each option is given once, but for lists marked (repeatable).\n");
}

void ilpm_cli_list_help(FILE *f)
{
    fprintf(f, "usage: ilpm list\n\n"
               "The puzzles, what each models, and its formulations (the "
               "first is the\ndefault).  No options.\n\n"
               "exit status: 0.\n\n"
               "examples (from the source folder):\n"
               "  ilpm list\n");
}

void ilpm_cli_help(FILE *f, const cli *c)
{
    const verb_help *h = &helps[c->verb];
    const ilpm_puzzle *pz = c->pz;
    if (c->verb == VERB_MERGE || !pz)
        fprintf(f, "usage: ilpm %s %s\n\n%s\n", c->verb_name, h->usage,
                h->about);
    else
        fprintf(f, "usage: ilpm %s %s %s\n\n%s\n\n%s: %s.\n", c->verb_name,
                pz->name, strchr(h->usage, ' ') + 1, h->about, pz->name,
                pz->summary);
    if (c->verb == VERB_GEN) {
        for (int i = 0; ilpm_puzzles[i]; i++) {
            const ilpm_puzzle *g = ilpm_puzzles[i];
            if (g->generate && (!pz || pz == g)) {
                fprintf(f, "\noptions of gen %s:\n", g->name);
                print_puzzle_opts(f, g->gen_opts);
            }
        }
    } else if (c->verb != VERB_MERGE && pz) {
        fprintf(f, "\ninput:\n%s\n\npuzzle options:\n", pz->input_help);
        print_puzzle_opts(f, pz->opts);
    } else if (c->verb != VERB_MERGE) {
        fprintf(f, "\nPUZZLE, one of:");
        print_puzzles(f, c->verb);
        fprintf(f,
                "\n('ilpm %s PUZZLE --help' adds its input format and "
                "options)\n",
                c->verb_name);
    }
    fprintf(f, "\n%s options:\n", c->verb_name);
    print_opts(f, c->verb);
    static const ilpm_opt formulations = {
        .name = "formulation",
        .arg = "A,B",
        .type = ILPM_OPT_TEXT,
        .help = "the formulations to run (default: all the puzzle has)"};
    if (c->verb == VERB_COMPARE && (!pz || pz->formulations))
        print_row(f, &formulations, formulations.help);
    fprintf(f, "\nexit status:\n%s\n", h->exits);
    print_examples(f, c, h);
}
