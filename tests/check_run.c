/* Tests of the run layer (src/run/run.c, src/run/instances.c): one
 * instance from puzzle to verified result on both back ends, a solution
 * the puzzle's verifier rejects, limits, the result record as JSON, CSV
 * and text field by field, exit codes, the walk over a file's instances,
 * and runs that share one model per shape.  Runs from the source root
 * (paths data/...). */
#include "puzzles.h"
#include "run.h"

#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include "util.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const ilpm_puzzle *queens = &ilpm_puzzle_queens;

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static void *queens_n(ilpm_params *p, int n)
{
    char v[16];
    snprintf(v, sizeof v, "%d", n);
    ilpm_params_set(p, "n", v);
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(queens->from_params(p, &inst, &err), 1);
    return inst;
}

static void run(const ilpm_puzzle *pz, const void *inst, const ilpm_params *p,
                const ilpm_run_opts *o, ilpm_result *r)
{
    ilpm_result_init(r);
    ck_assert_msg(ilpm_run_instance(pz, inst, p, o, r) == 0, "%s", r->error);
}

/* Whether s is one JSON object on one line: braces and brackets nest
 * and close, strings end, nothing follows but the newline. */
static int json_line_ok(const char *s)
{
    int depth = 0, in_str = 0, closed = 0;
    if (*s != '{')
        return 0;
    for (; *s && *s != '\n'; s++) {
        if (closed)
            return 0;
        if (in_str) {
            if (*s == '\\' && s[1])
                s++;
            else if (*s == '"')
                in_str = 0;
            else if ((unsigned char)*s < 0x20)
                return 0;
            continue;
        }
        if (*s == '"')
            in_str = 1;
        else if (*s == '{' || *s == '[')
            depth++;
        else if (*s == '}' || *s == ']')
            closed = --depth == 0;
        if (depth < 0)
            return 0;
    }
    return closed && !in_str && s[0] == '\n' && s[1] == '\0';
}

/* Splits one CSV line (RFC 4180 quoting, no newline inside a field)
 * into fields, unquoted, each malloc'd; returns their number. */
static int csv_fields(const char *s, char **f, int max)
{
    int n = 0;
    for (;;) {
        ck_assert_int_lt(n, max);
        char *out = malloc(strlen(s) + 1), *w = out;
        if (*s == '"') {
            for (s++;; s++) {
                ck_assert_msg(*s != '\0', "unterminated quote");
                if (*s == '"' && s[1] == '"')
                    *w++ = *s++;
                else if (*s == '"')
                    break;
                else
                    *w++ = *s;
            }
            s++;
            ck_assert_msg(*s == ',' || *s == '\n' || !*s, "text after a quote");
        } else {
            while (*s && *s != ',' && *s != '\n')
                *w++ = *s++;
        }
        *w = '\0';
        f[n++] = out;
        if (*s != ',')
            return n;
        s++;
    }
}

static void free_fields(char **f, int n)
{
    for (int i = 0; i < n; i++)
        free(f[i]);
}

/* A result as a batch row could hold it: every field set. */
static void sample_result(ilpm_result *r)
{
    ilpm_result_init(r);
    snprintf(r->puzzle, sizeof r->puzzle, "queens");
    snprintf(r->instance, sizeof r->instance, "n=4 \"x\"");
    snprintf(r->file, sizeof r->file, "data/a,b.txt");
    r->index = 3;
    r->backend = ILPM_BACKEND_SAT;
    r->status = ILPM_SOLVED;
    r->verified = 1;
    r->build_ms = 1.5;
    r->solve_ms = 2.5;
    r->have_stats = 1;
    r->stats.vars = 16;
    r->stats.aux_vars = 2;
    r->stats.rows = 10;
    r->stats.nonzeros = 40;
    r->stats.clauses = 55;
    r->json = strdup("[2,4,1,3]");
    r->text = strdup(". Q . .\n");
    r->worker = 2;
}

/* ------------------------------------------------------------------ */
/* ilpm_run_instance                                                    */

/* Queens on both back ends: solved and verified with the solution
 * rendered, unsat without one, counts, and the record's frame. */
START_TEST(test_run_queens)
{
    ilpm_params *p = ilpm_params_new();
    void *six = queens_n(p, 6), *three = queens_n(p, 3);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        ilpm_result r;
        run(queens, six, p, &o, &r);
        ck_assert_str_eq(r.puzzle, "queens");
        ck_assert_str_eq(r.instance, "n=6");
        ck_assert_str_eq(r.formulation, "");
        ck_assert_int_eq(r.backend, b);
        ck_assert_int_eq(r.status, ILPM_SOLVED);
        ck_assert(r.verified);
        ck_assert(!r.has_count && !r.has_objective);
        ck_assert(r.have_stats);
        ck_assert_int_eq(r.stats.vars, 36);
        ck_assert_ptr_nonnull(r.text);
        ck_assert_int_eq(strlen(r.text), 6 * 12); /* six rows ". Q . . . .\n" */
        ck_assert_ptr_nonnull(r.json);
        ck_assert_int_eq(r.json[0], '[');
        ck_assert_str_eq(r.error, "");
        ilpm_result_free(&r);
        ilpm_result_free(&r); /* twice is harmless */

        run(queens, three, p, &o, &r);
        ck_assert_int_eq(r.status, ILPM_UNSAT);
        ck_assert(!r.verified);
        ck_assert_ptr_null(r.text);
        ilpm_result_free(&r);

        /* counting verifies every solution; render 0 renders none */
        o.count = 1;
        o.render = 0;
        run(queens, six, p, &o, &r);
        ck_assert_int_eq(r.status, ILPM_SOLVED);
        ck_assert(r.has_count && r.verified);
        ck_assert_uint_eq(r.count, 4);
        ck_assert_ptr_null(r.text);
        ilpm_result_free(&r);
        o.limit = 3;
        run(queens, six, p, &o, &r);
        ck_assert_uint_eq(r.count, 3);
        ilpm_result_free(&r);
        run(queens, three, p, &o, &r);
        ck_assert_int_eq(r.status, ILPM_UNSAT);
        ck_assert_uint_eq(r.count, 0);
        /* verified means a solution was reported and passed: an unsat
         * answer is never verified, counted or not */
        ck_assert(!r.verified);
        ilpm_result_free(&r);
    }
    queens->free_instance(six);
    queens->free_instance(three);
    ilpm_params_free(p);
}
END_TEST

/* A machiavelli play is optimised: the objective, in the puzzle's words
 * too, and the formulation named; an unsat table says why. */
START_TEST(test_run_play)
{
    const ilpm_puzzle *pz = &ilpm_puzzle_machiavelli;
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, ILPM_PARAM_PLAY, NULL);
    ilpm_params_set(p, "table", "AH 2H 3H");
    ilpm_params_set(p, "hand", "4H 5H 9S");
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    ilpm_params_free(p);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        for (int f = -1; f < 2; f++)
            for (int value = 0; value < 2; value++) {
                ilpm_run_opts o;
                ilpm_run_opts_init(&o);
                o.solver.backend = (ilpm_backend)b;
                p = ilpm_params_new();
                ilpm_params_set(p, ILPM_PARAM_PLAY, NULL);
                if (f >= 0)
                    ilpm_params_set(p, "formulation", pz->formulations[f]);
                if (value)
                    ilpm_params_set(p, "value", NULL);
                ilpm_result r;
                run(pz, inst, p, &o, &r);
                ck_assert_int_eq(r.status, ILPM_OPTIMAL);
                ck_assert(r.verified && r.has_objective);
                /* 4H 5H */
                ck_assert_int_eq(r.objective, value ? 9 : 2);
                ck_assert_str_eq(r.objective_text, value ? "lays 9 of 18 points"
                                                         : "lays 2 of 3 cards");
                ck_assert_str_eq(r.formulation,
                                 pz->formulations[f < 0 ? 0 : f]);
                ilpm_result_free(&r);
                ilpm_params_free(p);
            }
    pz->free_instance(inst);

    p = ilpm_params_new();
    inst = parse_text(pz, p, "table: AH 2H 3H KS\n");
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    ilpm_result r;
    run(pz, inst, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_UNSAT);
    ck_assert_msg(strstr(r.reason, "KS") != NULL, "%s", r.reason);
    ilpm_result_free(&r);
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* A time limit already spent, or the stop flag, cut the run short
 * however far it got (here: building the model). */
START_TEST(test_run_limits)
{
    ilpm_params *p = ilpm_params_new();
    void *inst = queens_n(p, 30);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        o.solver.time_limit = 1e-9;
        ilpm_result r;
        run(queens, inst, p, &o, &r);
        ck_assert_int_eq(r.status, ILPM_TIMEOUT);
        ilpm_result_free(&r);
        volatile int stop = 1;
        o.solver.time_limit = 0;
        o.solver.stop_flag = &stop;
        run(queens, inst, p, &o, &r);
        ck_assert_int_eq(r.status, ILPM_STOPPED);
        ilpm_result_free(&r);
        /* The one deadline the options carry is what every step
         * watches: one already past ends the run with no time limit
         * set, and one to come is kept over a spent time limit (the
         * seconds are turned into a deadline only when none is set). */
        o.solver.stop_flag = NULL;
        o.solver.deadline = ilpm_now() - 1;
        run(queens, inst, p, &o, &r);
        ck_assert_int_eq(r.status, ILPM_TIMEOUT);
        ilpm_result_free(&r);
        o.solver.deadline = ilpm_now() + 600;
        o.solver.time_limit = 1e-9;
        run(queens, inst, p, &o, &r);
        ck_assert_msg(r.status == ILPM_SOLVED, "%s: %s",
                      ilpm_backend_name(o.solver.backend),
                      ilpm_status_name(r.status));
        ilpm_result_free(&r);
    }
    queens->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

static int reject(const void *inst, const ilpm_params *p, const void *sol,
                  ilpm_err *why)
{
    (void)inst, (void)p, (void)sol;
    return ilpm_err_input(why, "rejected on purpose");
}

static void *no_decode(const void *inst, const ilpm_params *p,
                       const ilpm_model *m, const uint8_t *vals, ilpm_err *err)
{
    (void)inst, (void)p, (void)m, (void)vals;
    ilpm_err_input(err, "cannot decode");
    return NULL;
}

static int no_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                    ilpm_err *err)
{
    (void)inst, (void)p, (void)m;
    return ilpm_err_input(err, "no model for this one");
}

/* Every solution goes through the puzzle's verifier: one it rejects, or
 * one that does not decode, is an error, not a result; a model the
 * puzzle cannot build is an error row too (an input error: rc 0). */
START_TEST(test_run_checks_solutions)
{
    ilpm_params *p = ilpm_params_new();
    void *inst = queens_n(p, 5);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        for (int count = 0; count < 2; count++) {
            o.count = count;
            ilpm_puzzle fake = *queens;
            fake.verify = reject;
            ilpm_result r;
            ilpm_result_init(&r);
            ck_assert_int_eq(ilpm_run_instance(&fake, inst, p, &o, &r), -1);
            ck_assert_int_eq(r.status, ILPM_ERROR);
            ck_assert(!r.verified);
            ck_assert_str_eq(r.error,
                             "solution fails the rules: rejected on purpose");
            ck_assert_int_eq(r.error_kind, ILPM_E_FAIL);
            ilpm_result_free(&r);
            fake = *queens;
            fake.decode = no_decode;
            ilpm_result_init(&r);
            ck_assert_int_eq(ilpm_run_instance(&fake, inst, p, &o, &r), -1);
            ck_assert_int_eq(r.status, ILPM_ERROR);
            ck_assert_str_eq(r.error, "decode: cannot decode");
            ilpm_result_free(&r);
            fake = *queens;
            fake.build = no_build;
            ilpm_result_init(&r);
            ck_assert_int_eq(ilpm_run_instance(&fake, inst, p, &o, &r), 0);
            ck_assert_int_eq(r.status, ILPM_ERROR);
            ck_assert_str_eq(r.error, "no model for this one");
            ilpm_result_free(&r);
        }
    }
    queens->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* An allocation that fails is out of memory, not "your input is wrong":
 * under an address space only 32 MB larger than the test's, building
 * the 9 million variables of 3000 queens fails with kind ILPM_E_NOMEM
 * (exit 1), well inside --max-vars and --max-memory. */
START_TEST(test_error_kind_nomem)
{
    if (ILPM_UNDER_ASAN)
        return; /* the sanitizer reserves terabytes of address space */
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "n", "3000");
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(queens->from_params(p, &inst, &err), 1);
    ilpm_result r;
    ilpm_result_init(&r);
    long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%ld", &pages), 1);
    fclose(f);
    struct rlimit old, rl;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
    rl = old;
    rl.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (32u << 20);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
    ilpm_run_instance(queens, inst, p, &o, &r);
    setrlimit(RLIMIT_AS, &old);
    ck_assert_int_eq(r.status, ILPM_ERROR);
    ck_assert_msg(strstr(r.error, "out of memory"), "%s", r.error);
    ck_assert_int_eq(r.error_kind, ILPM_E_NOMEM);
    ilpm_result_free(&r);
    queens->free_instance(inst);
    ilpm_params_free(p);
    ilpm_err_nomem(&err, "out of memory %s", "here");
    ck_assert_int_eq(err.rc, ILPM_E_NOMEM);
    ck_assert_str_eq(err.msg, "out of memory here");
}
END_TEST

/* The kind comes from where the failure is: a limit when --max-vars
 * refuses the model, internal when a solution fails the rules. */
START_TEST(test_error_kinds)
{
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.max_vars = 10;
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "n", "8");
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_queens.from_params(p, &inst, &err), 1);
    ilpm_result r;
    ilpm_result_init(&r);
    ilpm_run_instance(&ilpm_puzzle_queens, inst, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_ERROR);
    ck_assert_int_eq(r.error_kind, ILPM_E_LIMIT);
    ilpm_result_free(&r);
    ilpm_puzzle_queens.free_instance(inst);
    ilpm_params_free(p);
    ck_assert_int_eq(ilpm_err_fail(&err, ILPM_E_FAIL, "x %d", 1), -1);
    ck_assert_int_eq(err.rc, ILPM_E_FAIL);
    ck_assert_str_eq(err.msg, "x 1");
    ilpm_err_input(&err, "y");
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_result_json, ilpm_result_csv, ilpm_result_text                  */

START_TEST(test_result_json)
{
    ilpm_result r;
    sample_result(&r);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_result_json(&r, &b);
    ck_assert_str_eq(
        ilpm_buf_str(&b),
        "{\"puzzle\":\"queens\",\"instance\":\"n=4 \\\"x\\\"\",\"file\":"
        "\"data/a,b.txt\",\"index\":3,\"backend\":\"sat\",\"status\":"
        "\"solved\",\"verified\":true,\"build_ms\":1.500,\"solve_ms\":2.500,"
        "\"vars\":16,\"aux_vars\":2,\"rows\":null,\"nonzeros\":null,"
        "\"clauses\":55,\"solution\":[2,4,1,3],\"worker\":2}\n");
    ck_assert(json_line_ok(ilpm_buf_str(&b)));

    /* ILP sizes, a formulation, a count and an objective; no file */
    r.file[0] = '\0';
    r.backend = ILPM_BACKEND_ILP;
    snprintf(r.formulation, sizeof r.formulation, "melds");
    r.has_count = 1;
    r.count = 7;
    r.count_complete = 1;
    r.has_objective = 1;
    r.objective = -4;
    r.worker = 0;
    ilpm_buf_clear(&b);
    ilpm_result_json(&r, &b);
    ck_assert_str_eq(
        ilpm_buf_str(&b),
        "{\"puzzle\":\"queens\",\"instance\":\"n=4 \\\"x\\\"\","
        "\"formulation\":\"melds\",\"backend\":\"ilp\",\"status\":"
        "\"solved\",\"verified\":true,\"count\":7,\"count_complete\":true,"
        "\"objective\":-4,"
        "\"build_ms\":1.500,\"solve_ms\":2.500,\"vars\":16,\"aux_vars\":2,"
        "\"rows\":10,\"nonzeros\":40,\"clauses\":null,\"solution\":"
        "[2,4,1,3]}\n");
    ck_assert(json_line_ok(ilpm_buf_str(&b)));
    /* a decimal objective: the model's own value, every place kept */
    r.objective = 1150;
    r.objective_scale = 100;
    ilpm_buf_clear(&b);
    ilpm_result_json(&r, &b);
    ck_assert_ptr_nonnull(strstr(ilpm_buf_str(&b), ",\"objective\":11.50,"));
    ck_assert(json_line_ok(ilpm_buf_str(&b)));
    r.objective_scale = 1;

    /* an error: no sizes, no solution (even if one was rendered), the
     * message escaped */
    r.status = ILPM_ERROR;
    r.verified = 0;
    r.have_stats = 0;
    r.has_count = r.has_objective = 0;
    snprintf(r.error, sizeof r.error, "bad \"input\"\n\tline 2\\");
    ilpm_buf_clear(&b);
    ilpm_result_json(&r, &b);
    ck_assert_ptr_nonnull(
        strstr(ilpm_buf_str(&b),
               ",\"vars\":null,\"aux_vars\":null,\"rows\":null,\"nonzeros\":"
               "null,\"clauses\":null,\"solution\":null,\"error\":\"bad "
               "\\\"input\\\"\\n\\tline 2\\\\\"}\n"));
    ck_assert(json_line_ok(ilpm_buf_str(&b)));
    /* a worker killed from outside: the signal, after the rest */
    r.worker = 3;
    snprintf(r.stopped_by, sizeof r.stopped_by, "SIGTERM");
    ilpm_buf_clear(&b);
    ilpm_result_json(&r, &b);
    ck_assert_ptr_nonnull(strstr(
        ilpm_buf_str(&b), ",\"worker\":3,\"stopped_by\":\"SIGTERM\"}\n"));
    ck_assert(json_line_ok(ilpm_buf_str(&b)));
    r.worker = 0;
    r.stopped_by[0] = '\0';

    /* unsat with a reason */
    r.status = ILPM_UNSAT;
    r.error[0] = '\0';
    snprintf(r.reason, sizeof r.reason, "no meld can hold KS");
    ilpm_buf_clear(&b);
    ilpm_result_json(&r, &b);
    ck_assert_ptr_nonnull(
        strstr(ilpm_buf_str(&b), "\"status\":\"unsat\",\"verified\":false,"));
    ck_assert_ptr_nonnull(
        strstr(ilpm_buf_str(&b),
               "\"solution\":null,\"reason\":\"no meld can hold KS\"}\n"));
    ck_assert_ptr_null(strstr(ilpm_buf_str(&b), "\"error\""));
    ck_assert(json_line_ok(ilpm_buf_str(&b)));
    ilpm_buf_free(&b);
    ilpm_result_free(&r);
}
END_TEST

START_TEST(test_result_csv)
{
    static const char *const names[] = {
        "puzzle",          "instance",       "file",      "index",
        "formulation",     "backend",        "status",    "verified",
        "count",           "count_complete", "objective", "build_ms",
        "solve_ms",        "vars",           "aux_vars",  "rows",
        "nonzeros",        "clauses",        "solution",  "error",
        "postsolve_error", "translate_ms",   "worker",    "stopped_by"};
    int ncols = (int)(sizeof names / sizeof *names);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_result_csv_header(&b);
    char *h[32];
    ck_assert_int_eq(csv_fields(ilpm_buf_str(&b), h, 32), ncols);
    for (int i = 0; i < ncols; i++)
        ck_assert_str_eq(h[i], names[i]);
    free_fields(h, ncols);
    ck_assert_int_eq(ilpm_buf_str(&b)[b.len - 1], '\n');

    ilpm_result r;
    sample_result(&r);
    static const char *const want[] = {"queens",    "n=4 \"x\"", "data/a,b.txt",
                                       "3",         "",          "sat",
                                       "solved",    "true",      "",
                                       "",          "",          "1.500",
                                       "2.500",     "16",        "2",
                                       "",          "",          "55",
                                       "[2,4,1,3]", "",          "",
                                       "",          "2",         ""};
    for (int v = 0; v < 4; v++) {
        ilpm_buf_clear(&b);
        if (v == 1) { /* a count, a decimal objective (MIPLIB's p0291
                       * scaled by 1000), ILP sizes, no file */
            r.file[0] = '\0';
            r.backend = ILPM_BACKEND_ILP;
            r.has_count = r.has_objective = 1;
            r.count = 7;
            r.count_complete = 1;
            r.objective = 5223749;
            r.objective_scale = 1000;
        }
        if (v == 2) { /* an error with quotes and a comma */
            r.status = ILPM_ERROR;
            snprintf(r.error, sizeof r.error, "x, \"y\"");
            r.have_stats = 0;
            r.worker = 0;
            snprintf(r.stopped_by, sizeof r.stopped_by, "SIGKILL");
        }
        if (v == 3) { /* a line end inside a field is quoted too */
            snprintf(r.error, sizeof r.error, "two\nlines");
            r.stopped_by[0] = '\0';
        }
        ilpm_result_csv(&r, &b);
        const char *row = ilpm_buf_str(&b);
        ck_assert_int_eq(row[b.len - 1], '\n');
        char *f[32];
        int n = v == 3 ? 0 : csv_fields(row, f, 32);
        if (v == 3) {
            ck_assert_ptr_nonnull(strstr(row, ",\"two\nlines\","));
            continue;
        }
        ck_assert_msg(n == ncols, "variant %d: %d fields: %s", v, n, row);
        for (int i = 0; i < ncols && v == 0; i++)
            ck_assert_msg(!strcmp(f[i], want[i]), "%s: '%s', not '%s'",
                          names[i], f[i], want[i]);
        if (v == 1) {
            ck_assert_str_eq(f[2], "");
            ck_assert_str_eq(f[3], ""); /* no file, no index */
            ck_assert_str_eq(f[5], "ilp");
            ck_assert_str_eq(f[8], "7");
            ck_assert_str_eq(f[9], "true");
            ck_assert_str_eq(f[10], "5223.749");
            ck_assert_str_eq(f[15], "10");
            ck_assert_str_eq(f[16], "40");
            ck_assert_str_eq(f[17], "");
        }
        if (v == 2) {
            ck_assert_str_eq(f[6], "error");
            ck_assert_str_eq(f[13], "");
            ck_assert_str_eq(f[18], ""); /* no solution for an error */
            ck_assert_str_eq(f[19], "x, \"y\"");
            ck_assert_str_eq(f[22], "");
            ck_assert_str_eq(f[23], "SIGKILL");
        }
        free_fields(f, n);
    }
    ilpm_buf_free(&b);
    ilpm_result_free(&r);
}
END_TEST

START_TEST(test_result_text)
{
    ilpm_result r;
    sample_result(&r);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (sat): solved, verified; build 1.5 ms, "
                     "solve 2.5 ms\n. Q . .\n");
    snprintf(r.formulation, sizeof r.formulation, "melds");
    r.status = ILPM_FEASIBLE;
    r.has_objective = 1;
    r.objective = 12;
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (melds, sat): feasible, verified, "
                     "objective 12 (not proven optimal); build 1.5 ms, solve "
                     "2.5 ms\n. Q . .\n");
    /* a model file's decimal objective: its own value, not the scaled
     * integer the model holds */
    r.objective = -75;
    r.objective_scale = 100;
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (melds, sat): feasible, verified, "
                     "objective -0.75 (not proven optimal); build 1.5 ms, "
                     "solve 2.5 ms\n. Q . .\n");
    r.objective = 12;
    r.objective_scale = 1;
    r.status = ILPM_OPTIMAL;
    snprintf(r.objective_text, sizeof r.objective_text, "lays 3 of 4 cards");
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (melds, sat): optimal, verified, lays 3 "
                     "of 4 cards; build 1.5 ms, solve 2.5 ms\n. Q . .\n");
    /* a count shows no board; cut short, it is a count so far */
    r.has_objective = 0;
    r.formulation[0] = '\0';
    r.has_count = 1;
    r.count = 5;
    r.status = ILPM_TIMEOUT;
    r.verified = 0;
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (sat): timeout, NOT verified, count at "
                     "least 5 (time limit); build 1.5 ms, solve 2.5 ms\n");
    /* a count of 0 reported no solution: nothing to call verified */
    r.count = 0;
    r.count_complete = 1;
    r.status = ILPM_UNSAT;
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (sat): unsat, count 0; build 1.5 ms, "
                     "solve 2.5 ms\n");
    r.count_complete = 0;
    r.has_count = 0;
    r.status = ILPM_ERROR;
    snprintf(r.error, sizeof r.error, "it broke");
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (sat): error; build 1.5 ms, solve "
                     "2.5 ms\nerror: it broke\n");
    r.status = ILPM_UNSAT;
    r.error[0] = '\0';
    snprintf(r.reason, sizeof r.reason, "no room");
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "queens n=4 \"x\" (sat): unsat; build 1.5 ms, solve "
                     "2.5 ms\nno room\n");
    ilpm_buf_free(&b);
    ilpm_result_free(&r);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_instances_init, ilpm_instances_next                             */

/* Every instance in order with its position; a reader opened where one
 * began reads that instance again (what a batch worker does). */
START_TEST(test_walk_file)
{
    static const char path[] = "data/queens/completion.txt";
    static const char *const labels[] = {
        "n=8 line 4 (1 placed)", "n=5 line 6 (2 placed)",
        "n=8 line 9 (2 placed)", "n=10 line 12 (3 placed)"};
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_ptr_nonnull(rd);
    ilpm_params *p = ilpm_params_new();
    ilpm_instances it;
    ilpm_instances_init(&it, queens, p, rd, 0);
    void *inst;
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 1);
        ck_assert_int_eq(it.index, i + 1);
        char d[64];
        queens->describe(inst, d, sizeof d);
        ck_assert_str_eq(d, labels[i]);
        queens->free_instance(inst);
        ilpm_reader *again =
            ilpm_reader_open_at(path, NULL, it.offset, it.lines, &err);
        ck_assert_ptr_nonnull(again);
        ck_assert_int_eq(queens->parse(again, p, &inst, &err), 1);
        queens->describe(inst, d, sizeof d);
        ck_assert_str_eq(d, labels[i]);
        queens->free_instance(inst);
        ilpm_reader_free(again);
    }
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
    ilpm_reader_free(rd);

    /* --index picks one */
    rd = ilpm_reader_open(path, &err);
    ilpm_instances_init(&it, queens, p, rd, 3);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 1);
    ck_assert_int_eq(it.index, 3);
    char d[64];
    queens->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, labels[2]);
    queens->free_instance(inst);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
    ilpm_reader_free(rd);

    /* past the end */
    rd = ilpm_reader_open(path, &err);
    ilpm_instances_init(&it, queens, p, rd, 9);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), -1);
    ck_assert(it.done);
    ck_assert_str_eq(err.msg, "data/queens/completion.txt: --index 9 is past "
                              "the last instance (the file holds 4)");
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
    ilpm_reader_free(rd);

    /* no instance at all */
    rd = ilpm_reader_open("data/bad/queens_empty.txt", &err);
    ilpm_instances_init(&it, queens, p, rd, 0);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), -1);
    ck_assert(it.done);
    ck_assert_str_eq(err.msg, "data/bad/queens_empty.txt: no instance in the "
                              "file");
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* A malformed instance is reported at its place and the walk goes on
 * after it; with --index it is the one answer. */
START_TEST(test_walk_malformed)
{
    static const char text[] = "4\n1 x\n5\n2 2\n";
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    void *inst;
    ilpm_instances it;
    for (long want = 0; want <= 2; want++) {
        ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
        ilpm_instances_init(&it, queens, p, rd, want);
        if (want != 2) {
            ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), -1);
            ck_assert_str_eq(err.msg, "mem:2:3: expected a number, got 'x'");
            ck_assert_int_eq(it.index, 1);
        }
        if (want != 1) {
            ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 1);
            ck_assert_int_eq(it.index, 2);
            ck_assert_int_eq(it.lines, 2);
            queens->free_instance(inst);
        }
        ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
        ilpm_reader_free(rd);
    }
    ilpm_params_free(p);
}
END_TEST

/* A parser that fails without reading on would fail the same way
 * forever: the walk ends there (-1 and it.done), with the parser's
 * message and rc. */
static int stuck_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                       ilpm_err *err)
{
    (void)rd, (void)p, (void)inst;
    return ilpm_err_fail(err, ILPM_E_TIMEOUT, "stuck");
}

/* Each instance's position, as the parser sees it. */
static long seen_index[8];
static int nseen;

static int index_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                       ilpm_err *err)
{
    if (nseen < 8)
        seen_index[nseen++] = ilpm_reader_index(rd);
    return ilpm_puzzle_queens.parse(rd, p, inst, err);
}

START_TEST(test_walk_stuck_parser)
{
    ilpm_puzzle fake = *queens;
    fake.parse = stuck_parse;
    static const char text[] = "4\n";
    ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
    ilpm_params *p = ilpm_params_new();
    ilpm_instances it;
    ilpm_instances_init(&it, &fake, p, rd, 0);
    ilpm_err err = {0};
    void *inst = NULL;
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), -1);
    ck_assert(it.done);
    ck_assert_str_eq(err.msg, "stuck");
    ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
    ilpm_reader_free(rd);

    fake.parse = index_parse;
    static const char three[] = "4\n5\n6\n";
    rd = ilpm_reader_mem("mem", three, strlen(three));
    ilpm_instances_init(&it, &fake, p, rd, 0);
    nseen = 0;
    while (ilpm_instances_next(&it, &inst, &err) == 1)
        queens->free_instance(inst);
    ck_assert_int_eq(nseen, 4); /* three instances and the end */
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(seen_index[i], i + 1);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_run_instance_cached, ilpm_shape_cache                           */

/* Completions of one size share a model, their queens passed as
 * assumptions: each answer is the one a run of its own gives, an unsat
 * one leaves nothing behind for the next, and the cache counts what it
 * reused.  Another size or back end builds anew; counting and no cache
 * fall back to a plain run. */
START_TEST(test_cached)
{
    /* n=6 has four solutions, none with a queen in a corner */
    static const char text[] = "6\n1 2\n6\n1 1\n6\n2 4\n5\n1 1\n5\n3 3\n";
    ilpm_params *p = ilpm_params_new();
    ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
    void *inst[5];
    ilpm_err err;
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(queens->parse(rd, p, &inst[i], &err), 1);
    ilpm_reader_free(rd);
    static const ilpm_status want[5] = {ILPM_SOLVED, ILPM_UNSAT, ILPM_SOLVED,
                                        ILPM_SOLVED, ILPM_SOLVED};
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        ilpm_shape_cache *c = ilpm_shape_cache_new();
        ck_assert_ptr_nonnull(c);
        for (int i = 0; i < 5; i++) {
            ilpm_result r, alone;
            ilpm_result_init(&r);
            ck_assert_int_eq(
                ilpm_run_instance_cached(queens, inst[i], p, &o, c, &r), 0);
            run(queens, inst[i], p, &o, &alone);
            ck_assert_int_eq(r.status, want[i]);
            ck_assert_int_eq(alone.status, want[i]);
            ck_assert_int_eq(r.verified, want[i] == ILPM_SOLVED);
            ck_assert_int_eq(r.backend, b);
            ck_assert_str_eq(r.instance, alone.instance);
            ilpm_result_free(&r);
            ilpm_result_free(&alone);
        }
        ck_assert_int_eq(ilpm_shape_cache_reused(c), 3);
        /* the other back end: a model of its own */
        o.solver.backend = (ilpm_backend)!b;
        ilpm_result r;
        ilpm_result_init(&r);
        ilpm_run_instance_cached(queens, inst[4], p, &o, c, &r);
        ck_assert_int_eq(r.status, ILPM_SOLVED);
        ilpm_result_free(&r);
        ck_assert_int_eq(ilpm_shape_cache_reused(c), 3);
        /* counting takes the plain path */
        o.count = 1;
        ilpm_result_init(&r);
        ilpm_run_instance_cached(queens, inst[4], p, &o, c, &r);
        ck_assert_int_eq(r.status, ILPM_SOLVED);
        ck_assert(r.has_count);
        ilpm_result_free(&r);
        ck_assert_int_eq(ilpm_shape_cache_reused(c), 3);
        o.count = 0;
        ilpm_result_init(&r);
        ilpm_run_instance_cached(queens, inst[4], p, &o, c, &r);
        ilpm_result_free(&r);
        ck_assert_int_eq(ilpm_shape_cache_reused(c), 4);
        ilpm_result_init(&r);
        ck_assert_int_eq(
            ilpm_run_instance_cached(queens, inst[1], p, &o, NULL, &r), 0);
        ck_assert_int_eq(r.status, ILPM_UNSAT);
        ilpm_result_free(&r);
        ilpm_shape_cache_free(c);
    }
    ilpm_shape_cache_free(NULL);
    ck_assert_int_eq(ilpm_shape_cache_reused(NULL), 0);
    for (int i = 0; i < 5; i++)
        queens->free_instance(inst[i]);
    ilpm_params_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("ilpm_run_instance");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_run_queens);
    tcase_add_test(tc, test_run_play);
    tcase_add_test(tc, test_run_limits);
    tcase_add_test(tc, test_run_checks_solutions);
    suite_add_tcase(s, tc);

    tc = tcase_create("error kinds");
    tcase_add_test(tc, test_error_kinds);
    tcase_add_test(tc, test_error_kind_nomem);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_result_json");
    tcase_add_test(tc, test_result_json);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_result_csv");
    tcase_add_test(tc, test_result_csv);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_result_text");
    tcase_add_test(tc, test_result_text);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_instances_next");
    tcase_add_test(tc, test_walk_file);
    tcase_add_test(tc, test_walk_malformed);
    tcase_add_test(tc, test_walk_stuck_parser);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_run_instance_cached");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cached);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
