/* The command line's parser (src/cli/args.c, checks.c) on whole command
 * lines: every option by its row (the command line's own, the solver's,
 * the puzzle's), the words of its mistakes, the defaults the rows give,
 * and the options that go with one verb or back end only. */
#include "cli.h"

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
    ck_assert_str_eq(c.run.solver.sat_options, "phase=0,seed=3");
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
    ck_assert_int_eq(c.run.solver.max_pb_nodes, 2000000);
    ck_assert_int_eq(c.run.solver.presolve, 1);
    ck_assert_int_eq(c.format, FMT_TEXT);
    ck_assert_int_eq(c.index, 0);
    teardown();
    PARSED("solve", "queens", QUEENS, "--index", "2", "--backend", "cp",
           "--lookahead", "5", "--format", "json", "--count", "--limit", "3",
           "--time-limit", "1.5", "--no-propagate");
    ck_assert_int_eq(c.index, 2);
    ck_assert_int_eq(c.run.solver.backend, ILPM_BACKEND_CP);
    ck_assert_int_eq(c.run.solver.lookahead, 5);
    ck_assert_int_eq(c.run.solver.propagate, ILPM_PROP_NONE);
    ck_assert_int_eq(c.format, FMT_JSON);
    ck_assert_int_eq(c.run.count, 1);
    ck_assert_uint_eq(c.run.limit, 3);
    ck_assert(c.run.solver.time_limit == 1.5);
    ck_assert(ilpm_cli_given(&c, "format"));
    ck_assert(!ilpm_cli_given(&c, "propagate"));
    teardown();
    PARSED("solve", "queens", "--n", "4", "--no-presolve");
    ck_assert_int_eq(c.run.solver.presolve, 0);
    teardown();
    PARSED("export", "queens", "--n", "4", "--lp", "q.lp", "--opb=q.opb");
    ck_assert_str_eq(c.export_path[ILPM_FMT_LP], "q.lp");
    ck_assert_str_eq(c.export_path[ILPM_FMT_OPB], "q.opb");
    ck_assert_ptr_null(c.export_path[ILPM_FMT_CNF]);
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
    ilpm_cli_opt_help(ilpm_option_find("max-vars"), NULL, help, sizeof help);
    ck_assert_str_eq(help, "refuse models of more than N variables (1 to "
                           "1073741823, default 50000000)");
    ilpm_cli_opt_help(ilpm_option_find("sat-option"), NULL, help, sizeof help);
    ck_assert_str_eq(help, "CaDiCaL options by CaDiCaL's names (e.g. "
                           "phase=0) (repeatable)");
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
    REFUSED("--backend: expected ilp, sat, cp, both or all, got 'x'", "batch",
            "queens", QUEENS, "--out", "r.csv", "--backend", "x");
    REFUSED("--value goes with 'ilpm play machiavelli' only", "solve",
            "machiavelli", "data/machiavelli/play.txt", "--value");
    REFUSED("--n gives the instance itself; it does not go with a FILE of "
            "instances",
            "solve", "queens", QUEENS, "--n", "4");
    /* stats and export read --amo for the CNF they size or write. */
    PARSED("stats", "queens", "--n", "4", "--amo", "seq");
    ck_assert_int_eq(c.run.solver.amo, ILPM_AMO_SEQ);
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("args");
    TCase *tc = tcase_create("args");
    tcase_add_test(tc, test_unknown_options);
    tcase_add_test(tc, test_given_twice);
    tcase_add_test(tc, test_lists_add_up);
    tcase_add_test(tc, test_ranges);
    tcase_add_test(tc, test_defaults_from_rows);
    tcase_add_test(tc, test_inputs_listed);
    tcase_add_test(tc, test_help_rows);
    tcase_add_test(tc, test_wrong_verb_or_backend);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
