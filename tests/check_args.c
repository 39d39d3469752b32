/* The command line's parser (src/cli/args.c, checks.c) on whole command
 * lines: every option by its row (the command line's own, the solver's,
 * the puzzle's), the words of its mistakes, the defaults the rows give,
 * and the options that go with one verb or back end only. */
#include "cli.h"

#include "cp_opts.h"
#include "glpk_int.h"
#include "sat_int.h"
#include "testutil.h"
#include <check.h>
#include <stdarg.h>
#include <string.h>

/* What main.c defines; the parser never reads it. */
volatile int cli_stop_requested;

static cli c;
static ilpm_err err;
static char *words[64];

/* Parses "ilpm VERB ARGS..." (NULL-ended) into c as main does: the rc of
 * ilpm_cli_parse, its message in err. */
static int parse(const char *verb, ...)
{
    va_list ap;
    int argc = 0;
    memset(&c, 0, sizeof c);
    memset(&err, 0, sizeof err);
    words[argc++] = "ilpm";
    words[argc++] = (char *)verb;
    va_start(ap, verb);
    for (const char *w; (w = va_arg(ap, const char *)) != NULL;)
        words[argc++] = (char *)w;
    va_end(ap);
    words[argc] = NULL;
    int v = ilpm_cli_verb_find(verb);
    ck_assert_int_ge(v, 0);
    c.verb = (verb_id)v;
    ilpm_run_opts_init(&c.run);
    c.params = ilpm_params_new();
    ck_assert_ptr_nonnull(c.params);
    return ilpm_cli_parse(&c, argc, words, &err);
}

static void teardown(void)
{
    ilpm_params_free(c.params);
    free(c.files);
    free(c.argv_opt);
    for (int i = 0; i < c.nowned; i++)
        free(c.owned[i]);
    free(c.owned);
    memset(&c, 0, sizeof c);
}

/* The parse fails with exactly this message, of the input's kind. */
#define REFUSED(want, ...)                                                     \
    do {                                                                       \
        ck_assert_int_eq(parse(__VA_ARGS__, NULL), -1);                        \
        ck_assert_str_eq(err.msg, want);                                       \
        ck_assert_int_eq(err.rc, ILPM_E_INPUT);                                \
        teardown();                                                            \
    } while (0)
#define PARSED(...)                                                            \
    ck_assert_msg(parse(__VA_ARGS__, NULL) == 0, "refused: %s", err.msg)

#define QUEENS "data/queens/completion.txt"

START_TEST(test_unknown_options)
{
    REFUSED("unknown option '--bakend'; did you mean '--backend'?", "solve",
            "queens", "--n", "4", "--bakend", "sat");
    /* A puzzle's option is suggested too, and only that verb's. */
    REFUSED("unknown option '--formulaton'; did you mean '--formulation'?",
            "solve", "sudoku", "--formulaton", "exact");
    REFUSED("unknown option '--frobnicate' for solve queens (see 'ilpm solve "
            "queens --help')",
            "solve", "queens", "--frobnicate");
    REFUSED("unknown option '--frobnicate' (see 'ilpm merge --help')", "merge",
            "--frobnicate");
    REFUSED("unknown option '-n' (options start with --)", "solve", "queens",
            "-n", "4");
    /* An unknown puzzle: every puzzle is named. */
    ck_assert_int_eq(parse("solve", "queen", NULL), -1);
    const char *lead = "unknown puzzle 'queen'; the puzzles are ";
    ck_assert_int_eq(strncmp(err.msg, lead, strlen(lead)), 0);
    for (int i = 0; ilpm_puzzles[i]; i++)
        ck_assert_ptr_nonnull(strstr(err.msg, ilpm_puzzles[i]->name));
    teardown();
}
END_TEST

/* export's options are the table of formats' writers, each with its
 * own help; without one, the message names them all. */
START_TEST(test_export_formats)
{
    ck_assert_int_eq(parse("export", "queens", "--n", "4", NULL), -1);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    const char *lead = "export needs a format to write: one or more of ";
    ck_assert_int_eq(strncmp(err.msg, lead, strlen(lead)), 0);
    char msg[sizeof err.msg];
    snprintf(msg, sizeof msg, "%s", err.msg);
    teardown();
    int writers = 0;
    for (int f = 0; ilpm_file_formats[f]; f++) {
        const ilpm_file_format *ff = ilpm_file_formats[f];
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", ff->name);
        ck_assert_msg(!ff->write == !strstr(msg, opt), "%s: %s", opt, msg);
        const ilpm_opt *r = ilpm_cli_opt_find(ff->name);
        ck_assert_msg(!ff->write == !r, "%s", ff->name);
        if (!ff->write)
            continue;
        writers++;
        ck_assert_str_eq(r->help, ff->help);
        char path[64];
        snprintf(path, sizeof path, "q.%s", ff->exts[0]);
        PARSED("export", "queens", "--n", "4", opt, path);
        ck_assert_str_eq(c.export_path[f], path);
        teardown();
    }
    ck_assert_int_ge(writers, 4);
}
END_TEST

START_TEST(test_given_twice)
{
    REFUSED("--n given twice", "solve", "queens", "--n", "8", "--n", "9");
    REFUSED("--backend given twice", "solve", "queens", "--n", "8", "--backend",
            "sat", "--backend=cp");
    REFUSED("--out given twice", "batch", "queens", QUEENS, "--out", "a.csv",
            "--out", "b.csv");
    REFUSED("--propagate given twice (--no-propagate is --propagate none)",
            "solve", "queens", "--n", "8", "--no-propagate", "--propagate",
            "units");
    REFUSED("option --count takes no value", "solve", "queens", "--n", "8",
            "--count=3");
    REFUSED("option --time-limit needs a value", "solve", "queens", "--n", "8",
            "--time-limit");
}
END_TEST

/* A list adds up, with commas; a repeatable option keeps each value. */
START_TEST(test_lists_add_up)
{
    PARSED("solve", "queens", "--n", "4", "--backend", "sat", "--sat-option",
           "phase=0", "--sat-option=seed=3");
    ck_assert_str_eq(ilpm_sat_opts_in(&c.run.solver)->sat_options,
                     "phase=0,seed=3");
    teardown();
    PARSED("solve", "gmpl", "--model", "m.mod", "--data", "a.dat", "--data",
           "b.dat");
    ck_assert_str_eq(ilpm_params_get(c.params, "data"), "a.dat\nb.dat");
    teardown();
    PARSED("batch", "queens", QUEENS, "--out", "r.csv", "--slurm", "2",
           "--sbatch", "--qos=short", "--sbatch", "--time=5");
    ck_assert_str_eq(c.sbatch, "--qos=short\n--time=5");
    teardown();
    /* Each value of a repeatable option is checked alone. */
    REFUSED("--sbatch: expected one line without quotes, got 'a'b'", "batch",
            "queens", QUEENS, "--out", "r.csv", "--slurm", "2", "--sbatch",
            "--qos=x", "--sbatch", "a'b");
}
END_TEST

START_TEST(test_ranges)
{
    REFUSED("--time-limit: expected seconds > 0, got '0'", "solve", "queens",
            "--n", "4", "--time-limit", "0");
    REFUSED("--time-limit: '1e10' is too large (at most 1000000000)", "solve",
            "queens", "--n", "4", "--time-limit", "1e10");
    REFUSED("--memory-limit: expected megabytes >= 16, got '8'", "solve",
            "queens", "--n", "4", "--memory-limit", "8");
    REFUSED("--jobs: '2000' is too large (at most 1024)", "batch", "queens",
            QUEENS, "--out", "r.csv", "--jobs", "2000");
    REFUSED("--limit: expected an integer from 1 to 9223372036854775807, got "
            "'0'",
            "solve", "queens", QUEENS, "--count", "--limit", "0");
    REFUSED("--max-vars: '99999999999999999999' is too large (at most "
            "1073741823)",
            "solve", "queens", "--n", "4", "--max-vars",
            "99999999999999999999");
    REFUSED("--amo: expected one of auto, pairwise, seq, product, got 'x'",
            "stats", "queens", "--n", "4", "--amo", "x");
    REFUSED("--format: expected one of text, json, csv, dimacs, got 'xml'",
            "solve", "queens", "--n", "4", "--format", "xml");
    /* A puzzle's option by its row, once the parse is done. */
    REFUSED("--n: expected an integer from 1 to 1000000, got '0'", "solve",
            "queens", "--n", "0");
    REFUSED("--decks: expected an integer from 1 to 8, got '0'", "gen",
            "machiavelli", "--decks", "0");
    REFUSED("--shard: expected I/N with 0 <= I < N, got '3'", "batch", "queens",
            QUEENS, "--out", "r.csv", "--shard", "3");
    REFUSED("--shard: '3' is too large (at most 2)", "batch", "queens", QUEENS,
            "--out", "r.csv", "--shard", "3/3");
}
END_TEST

/* What is not given is the rows' default; what is given, its value. */
START_TEST(test_defaults_from_rows)
{
    PARSED("solve", "queens", "--n", "4");
    ilpm_options def;
    memset(&def, 0, sizeof def);
    ck_assert_int_eq(ilpm_opt_defaults(ilpm_options_table(), &def, &err), 0);
    for (const ilpm_opt *r = ilpm_options_table(); r->name; r++)
        if (r->def)
            ck_assert_msg(memcmp((char *)&def + r->offset,
                                 (char *)&c.run.solver + r->offset,
                                 r->type == ILPM_OPT_INT ? 8 : sizeof(int)) ==
                              0,
                          "--%s is not its row's default %s", r->name, r->def);
    ck_assert_int_eq(c.run.solver.backend, ILPM_BACKEND_ILP);
    ck_assert_int_eq(ilpm_sat_opts_in(&c.run.solver)->max_pb_nodes, 2000000);
    ck_assert_int_eq(ilpm_glpk_opts_in(&c.run.solver)->presolve, 1);
    ck_assert_int_eq(c.format, FMT_TEXT);
    ck_assert_int_eq(c.index, 0);
    teardown();
    PARSED("solve", "queens", QUEENS, "--index", "2", "--backend", "cp",
           "--lookahead", "5", "--format", "json", "--count", "--limit", "3",
           "--time-limit", "1.5", "--no-propagate");
    ck_assert_int_eq(c.index, 2);
    ck_assert_int_eq(c.run.solver.backend, ILPM_BACKEND_CP);
    ck_assert_int_eq(ilpm_cp_opts_in(&c.run.solver)->lookahead, 5);
    ck_assert_int_eq(c.run.solver.propagate, ILPM_PROP_NONE);
    ck_assert_int_eq(c.format, FMT_JSON);
    ck_assert_int_eq(c.run.count, 1);
    ck_assert_uint_eq(c.run.limit, 3);
    ck_assert(c.run.solver.time_limit == 1.5);
    ck_assert(ilpm_cli_given(&c, "format"));
    ck_assert(!ilpm_cli_given(&c, "propagate"));
    teardown();
    PARSED("solve", "queens", "--n", "4", "--no-presolve");
    ck_assert_int_eq(ilpm_glpk_opts_in(&c.run.solver)->presolve, 0);
    teardown();
    PARSED("export", "queens", "--n", "4", "--lp", "q.lp", "--opb=q.opb");
    /* Each at its format's place in the table of formats. */
    for (int f = 0; ilpm_file_formats[f]; f++) {
        const char *name = ilpm_file_formats[f]->name;
        if (strcmp(name, "lp") == 0)
            ck_assert_str_eq(c.export_path[f], "q.lp");
        else if (strcmp(name, "opb") == 0)
            ck_assert_str_eq(c.export_path[f], "q.opb");
        else
            ck_assert_ptr_null(c.export_path[f]);
    }
    /* The outputs a run checks before it starts are those rows'. */
    const ilpm_opt *rows[8];
    const char *paths[8];
    ck_assert_int_eq(ilpm_cli_files(&c, OPT_OUTPUT, rows, paths, 8), 2);
    ck_assert_str_eq(rows[0]->name, "lp");
    ck_assert_str_eq(paths[0], "q.lp");
    ck_assert_str_eq(rows[1]->name, "opb");
    ck_assert_str_eq(paths[1], "q.opb");
    teardown();
    PARSED("batch", "queens", QUEENS, "--out", "r.csv", "--backend", "both",
           "--shard", "1/3", "--jobs", "2");
    ck_assert_uint_eq(c.backends, ILPM_BACKENDS_BOTH);
    ck_assert_int_eq(c.shard_i, 1);
    ck_assert_int_eq(c.shard_n, 3);
    ck_assert_int_eq(c.jobs, 2);
    teardown();
    /* gen's --count is the generator's (a number of instances). */
    PARSED("gen", "machiavelli", "--count", "3", "--time-limit", "2");
    ck_assert_int_eq(c.run.count, 0);
    ck_assert_str_eq(ilpm_params_get(c.params, "count"), "3");
    teardown();
}
END_TEST

/* The inputs a run's outputs are checked against come from one list:
 * the FILEs, then every option that names a file to read (each value of
 * a repeated one), whichever way the command line gave them. */
START_TEST(test_inputs_listed)
{
    int n = -1;
    PARSED("export", "gmpl", "--model", "m.mod", "x.dat", "--data", "a.dat",
           "--data", "b.dat", "--lp", "out.lp");
    const char **in = ilpm_cli_inputs(&c, &n);
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(in[0], "x.dat");
    ck_assert_str_eq(in[1], "a.dat");
    ck_assert_str_eq(in[2], "b.dat");
    ck_assert_str_eq(in[3], "m.mod");
    ck_assert_ptr_null(in[4]);
    free(in);
    teardown();
    /* gmpl MODEL D1 D2: the first FILE is the model, an input still. */
    PARSED("solve", "gmpl", "m.mod", "d1.dat", "-");
    in = ilpm_cli_inputs(&c, &n);
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(in[0], "d1.dat");
    ck_assert_str_eq(in[1], "-");
    ck_assert_str_eq(in[2], "m.mod");
    free(in);
    teardown();
    PARSED("solve", "queens", "--n", "4");
    in = ilpm_cli_inputs(&c, &n);
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(n, 0);
    free(in);
    teardown();
}
END_TEST

/* --help shows each row with its range and default from the row. */
START_TEST(test_help_rows)
{
    cli_row r;
    int n = 0, backend = 0;
    for (int i = 0; ilpm_cli_option_row(i, &r); i++, n++) {
        ck_assert_ptr_nonnull(r.row->help);
        ck_assert_msg(r.verbs != 0, "--%s goes with no verb", r.row->name);
        char def[96];
        snprintf(def, sizeof def, "default %s)", r.row->def);
        if (r.row->def)
            ck_assert_msg(strstr(r.help, def), "--%s: %s", r.row->name, r.help);
        if (strcmp(r.row->name, "backend") == 0) {
            backend = 1;
            ck_assert_ptr_nonnull(strstr(r.help, "both = ilp and sat"));
            ck_assert_uint_eq(r.verbs & V_COMPARE, 0);
            ck_assert_uint_ne(r.verbs & V_GEN, 0);
        }
        if (strcmp(r.row->name, "amo") == 0)
            ck_assert_uint_eq(r.verbs, V_MODEL);
        if (strcmp(r.row->name, "time-limit") == 0)
            ck_assert_uint_eq(r.verbs, V_RUN | V_GEN);
    }
    ck_assert(backend);
    ck_assert_int_ge(n, 40);
    char help[640];
    ilpm_cli_opt_help(ilpm_option_find("max-vars", NULL), NULL, help,
                      sizeof help);
    ck_assert_str_eq(help, "refuse models of more than N variables (1 to "
                           "1073741823, default 50000000)");
    ilpm_cli_opt_help(ilpm_option_find("sat-option", NULL), NULL, help,
                      sizeof help);
    ck_assert_str_eq(help, "CaDiCaL options by CaDiCaL's names (e.g. "
                           "phase=0) (repeatable)");
}
END_TEST

/* A back end's own option is a row of its driver's table, which the
 * command line walks as it walks a puzzle's: found there with its owner,
 * set into that back end's area, refused for another back end with the
 * same words as before, and listed in --help. */
START_TEST(test_backend_rows)
{
    int b = -2;
    ck_assert_ptr_nonnull(ilpm_cli_opt_owner("cuts", &b));
    ck_assert_int_eq(b, ILPM_BACKEND_ILP);
    ck_assert_ptr_nonnull(ilpm_cli_opt_owner("sat-option", &b));
    ck_assert_int_eq(b, ILPM_BACKEND_SAT);
    ck_assert_ptr_nonnull(ilpm_cli_opt_owner("lookahead", &b));
    ck_assert_int_eq(b, ILPM_BACKEND_CP);
    ck_assert_ptr_nonnull(ilpm_cli_opt_owner("time-limit", &b));
    ck_assert_int_eq(b, -1);
    ck_assert_ptr_nonnull(ilpm_cli_opt_owner("count", &b));
    ck_assert_int_eq(b, -1);
    ck_assert_ptr_null(ilpm_cli_opt_owner("gomory", &b));
    /* Every back end's rows are among the command line's rows. */
    for (int k = 0; k < ilpm_backend_count(); k++)
        for (const ilpm_opt *r = ilpm_backend_options(k); r && r->name; r++) {
            int found = 0;
            cli_row row;
            for (int i = 0; ilpm_cli_option_row(i, &row); i++)
                found += row.row == r;
            ck_assert_msg(found == 1, "--%s: %d rows", r->name, found);
        }
    PARSED("solve", "queens", "--n", "4", "--backend", "sat", "--card",
           "totalizer", "--max-pb-nodes", "7");
    ck_assert_int_eq(ilpm_sat_opts_of(&c.run.solver)->card,
                     ILPM_CARD_TOTALIZER);
    ck_assert_int_eq(ilpm_sat_opts_of(&c.run.solver)->max_pb_nodes, 7);
    ck_assert_int_eq(ilpm_glpk_opts_of(&c.run.solver)->cuts, ILPM_CUTS_DEFAULT);
    teardown();
    REFUSED("--cuts applies to --backend ilp, not sat", "solve", "queens",
            "--n", "4", "--cuts", "all", "--backend", "sat");
    REFUSED("--learn applies to --backend cp, not ilp", "solve", "queens",
            "--n", "4", "--learn", "on");
}
END_TEST

/* An option of another verb, or of a back end not chosen, is refused. */
START_TEST(test_wrong_verb_or_backend)
{
    REFUSED("--count does not go with play (it is for solve, compare, batch)",
            "play", "machiavelli", "data/machiavelli/play.txt", "--count");
    REFUSED("--backend does not go with compare (it is for solve, play, gen, "
            "batch)",
            "compare", "queens", "--n", "6", "--backend", "ilp");
    REFUSED("--jobs does not go with solve (it is for batch)", "solve",
            "queens", "--n", "4", "--jobs", "2");
    REFUSED("--cuts applies to --backend ilp, not sat", "solve", "queens",
            "--n", "4", "--backend", "sat", "--cuts", "all");
    REFUSED("--amo applies to --backend sat, not ilp", "solve", "queens", "--n",
            "4", "--amo", "seq");
    REFUSED("--search applies to --backend cp, not both (ilp and sat)", "batch",
            "queens", QUEENS, "--out", "r.csv", "--backend", "both", "--search",
            "input");
    REFUSED("--backend: expected ilp, sat, cp, auto, both or all, got 'x'",
            "batch", "queens", QUEENS, "--out", "r.csv", "--backend", "x");
    REFUSED("--value goes with 'ilpm play machiavelli' only", "solve",
            "machiavelli", "data/machiavelli/play.txt", "--value");
    REFUSED("--n gives the instance itself; it does not go with a FILE of "
            "instances",
            "solve", "queens", QUEENS, "--n", "4");
    /* stats and export read --amo for the CNF they size or write. */
    PARSED("stats", "queens", "--n", "4", "--amo", "seq");
    ck_assert_int_eq(ilpm_sat_opts_in(&c.run.solver)->amo, ILPM_AMO_SEQ);
    teardown();
}
END_TEST

/* What ilpm_cli_usage or ilpm_cli_help writes, in a buffer the caller
 * frees. */
static char *usage_text(const cli *of)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(f);
    if (of)
        ilpm_cli_help(f, of);
    else
        ilpm_cli_usage(f);
    fclose(f);
    return text;
}

/* Verbs and the puzzles they take come from the tables: every verb row
 * is found by its name, suggested when misspelt and shown in the usage;
 * a verb that takes some puzzles names just those, in its usage line,
 * its help and its mistakes. */
START_TEST(test_verbs_from_tables)
{
    char *usage = usage_text(NULL);
    for (int v = 0; v < VERB_ALL; v++) {
        const cli_verb *r = &ilpm_cli_verbs[v];
        char typo[32], line[64];
        ck_assert_int_eq(ilpm_cli_verb_find(r->name), v);
        snprintf(typo, sizeof typo, "%sx", r->name);
        ck_assert_str_eq(ilpm_cli_verb_closest(typo), r->name);
        snprintf(line, sizeof line, "\n  %s ", r->name);
        if (r->synopsis)
            ck_assert_msg(strstr(usage, line), "%s not in the usage", r->name);
    }
    /* The puzzles of play and gen, as the registry has them. */
    char play[256] = "", gen[256] = "", want[512];
    for (int i = 0; ilpm_puzzles[i]; i++) {
        const ilpm_puzzle *pz = ilpm_puzzles[i];
        if (pz->caps & ILPM_CAP_PLAY)
            snprintf(play + strlen(play), sizeof play - strlen(play), "%s%s",
                     *play ? " " : "", pz->name);
        if (pz->generate)
            snprintf(gen + strlen(gen), sizeof gen - strlen(gen), "%s%s",
                     *gen ? ", " : "", pz->name);
    }
    snprintf(want, sizeof want, "write random instances (%s)\n", gen);
    ck_assert_msg(strstr(usage, want), "no '%s' in the usage", want);
    free(usage);
    snprintf(want, sizeof want, "play needs a puzzle: one of %s", play);
    REFUSED(want, "play");
    snprintf(want, sizeof want, "queens has no generator (ilpm gen takes %s)",
             gen);
    REFUSED(want, "gen", "queens");
    /* play --help lists the puzzles play takes, and no other. */
    PARSED("play", "--help");
    char *help = usage_text(&c);
    snprintf(want, sizeof want, "PUZZLE, one of: %s\n", play);
    ck_assert_msg(strstr(help, want), "no '%s' in %s", want, help);
    free(help);
    teardown();
}
END_TEST

/* --format dimacs goes with a puzzle that says it prints v lines, by its
 * capability, not by its name. */
START_TEST(test_dimacs_by_capability)
{
    static const ilpm_puzzle own = {.name = "mine", .caps = ILPM_CAP_DIMACS};
    static const ilpm_puzzle other = {.name = "theirs"};
    PARSED("solve", "queens", "--n", "4");
    c.format = FMT_DIMACS;
    c.pz = &own;
    ck_assert_msg(ilpm_cli_check(&c, &err) == 0, "refused: %s", err.msg);
    c.pz = &other;
    ck_assert_int_eq(ilpm_cli_check(&c, &err), -1);
    ck_assert_str_eq(err.msg, "--format dimacs (the SAT competition's s/v "
                              "lines) goes with 'ilpm solve model' only");
    teardown();
}
END_TEST

/* `ilpm fzn` runs cp with --propagate units unless told otherwise (no
 * probing at the build: the 55x55 nonogram's start 0.4 -> 0.15 s,
 * docs/fzn.md); another back end, the portfolio, or a --propagate given
 * keep the solver's default or the given one. */
static int fzn_words(const char *want, const char *want_val, int n, ...)
{
    char *argv[8] = {"ilpm", "fzn"};
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        argv[2 + i] = va_arg(ap, char *);
    va_end(ap);
    cli_fzn fz;
    int nargc = 0;
    char **nargv = NULL;
    ck_assert_int_eq(ilpm_cli_fzn_args(n + 2, argv, &fz, &nargc, &nargv, &err),
                     0);
    int found = 0;
    for (int i = 0; i + 1 < nargc; i++)
        found +=
            strcmp(nargv[i], want) == 0 && strcmp(nargv[i + 1], want_val) == 0;
    free(nargv);
    return found;
}

START_TEST(test_fzn_propagates_units_on_cp)
{
    ck_assert_int_eq(fzn_words("--propagate", "units", 1, "a.fzn"), 1);
    ck_assert_int_eq(fzn_words("--backend", "cp", 1, "a.fzn"), 1);
    ck_assert_int_eq(
        fzn_words("--propagate", "units", 3, "--ilpm-backend", "cp", "a.fzn"),
        1);
    ck_assert_int_eq(
        fzn_words("--propagate", "units", 3, "--ilpm-backend", "sat", "a.fzn"),
        0);
    ck_assert_int_eq(fzn_words("--propagate", "units", 3, "-p", "2", "a.fzn"),
                     0);
    ck_assert_int_eq(
        fzn_words("--propagate", "units", 3, "--propagate", "auto", "a.fzn"),
        0);
    ck_assert_int_eq(
        fzn_words("--propagate", "units", 2, "--no-propagate", "a.fzn"), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("args");
    TCase *tc = tcase_create("args");
    tcase_add_test(tc, test_unknown_options);
    tcase_add_test(tc, test_export_formats);
    tcase_add_test(tc, test_given_twice);
    tcase_add_test(tc, test_lists_add_up);
    tcase_add_test(tc, test_ranges);
    tcase_add_test(tc, test_defaults_from_rows);
    tcase_add_test(tc, test_inputs_listed);
    tcase_add_test(tc, test_help_rows);
    tcase_add_test(tc, test_backend_rows);
    tcase_add_test(tc, test_wrong_verb_or_backend);
    tcase_add_test(tc, test_verbs_from_tables);
    tcase_add_test(tc, test_dimacs_by_capability);
    tcase_add_test(tc, test_fzn_propagates_units_on_cp);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
