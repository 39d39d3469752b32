/* Sudoku (models/sudoku.c): the public sets solved on both back ends and
 * compared with their computed solutions (every grid decoded and
 * verified), uniqueness and non-proper puzzles by counting, model sizes
 * against the seed report, the input format with --index, every
 * malformed input's own message, and the verifier.  Runs from the source
 * root (paths data/...). */
#include "puzzle.h"
#include "puzzles.h"
#include "run.h"

#include <check.h>
#define ILPM_TESTUTIL_PUZZLES
#include "sat_int.h"
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_puzzle *pz = &ilpm_puzzle_sudoku;

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

/* The puzzles of a file, in order (at most max). */
/* Up to max instances of a file (only the want-th if want > 0), read by
 * the walk every verb uses. */
static int load(const char *path, const ilpm_params *p, long want, void **inst,
                int max)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    ilpm_instances it;
    ilpm_instances_init(&it, pz, p, rd, want);
    int n = 0, r;
    while (n < max && (r = ilpm_instances_next(&it, &inst[n], &err)) != 0) {
        ck_assert_msg(r == 1, "%s", err.msg);
        n++;
    }
    ilpm_reader_free(rd);
    return n;
}

/* Line i (0-based) of a solutions file, the part after ':'. */
static char *expected(const char *path, int i)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s missing", path);
    static char line[2048];
    for (int j = 0; j <= i; j++)
        ck_assert_msg(fgets(line, sizeof line, f) != NULL, "%s: no line %d",
                      path, i + 1);
    fclose(f);
    line[strcspn(line, "\r\n")] = '\0';
    char *colon = strchr(line, ':');
    ck_assert_ptr_nonnull(colon);
    return colon + 1;
}

struct check_ctx {
    const void *inst;
    const ilpm_params *p;
    const ilpm_model *m;
    char json[1024];
    char error[600];
};

static int decode_verify(void *vctx, const uint8_t *vals)
{
    struct check_ctx *c = vctx;
    void *sol = decode_checked(pz, c->inst, c->p, c->m, vals, c->error,
                               sizeof c->error);
    if (!sol)
        return -1;
    ilpm_buf b;
    ilpm_buf_init(&b);
    pz->render_json(c->inst, sol, &b);
    snprintf(c->json, sizeof c->json, "%s", ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    pz->free_solution(sol);
    return 0;
}

/* Solves (limit 0) or counts up to limit; every solution is verified.
 * want, if given, is the expected grid; returns the count (1 when
 * solving). */
static uint64_t run(const void *inst, const ilpm_params *p, ilpm_backend b,
                    uint64_t limit, const char *want)
{
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    char d[64];
    pz->describe(inst, d, sizeof d);
    ck_assert_msg(pz->build(inst, p, m, &err) == 0, "%s: %s", d, err.msg);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = b;
    o.time_limit = 60;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    struct check_ctx c = {inst, p, m, "", ""};
    uint64_t n = 1;
    if (limit == 0) {
        ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
        ck_assert_msg(st == ILPM_SOLVED, "%s %s: %s %s", d,
                      ilpm_backend_name(b), ilpm_status_name(st), err.msg);
        ck_assert_msg(decode_verify(&c, ilpm_solver_values(s)) == 0,
                      "%s %s: %s", d, ilpm_backend_name(b), c.error);
    } else {
        ilpm_status st =
            ilpm_solver_count(s, limit, &n, decode_verify, &c, &err);
        ck_assert_msg(st == ILPM_SOLVED, "%s %s: %s %s %s", d,
                      ilpm_backend_name(b), ilpm_status_name(st), err.msg,
                      c.error);
    }
    if (want) {
        char q[1024];
        snprintf(q, sizeof q, "\"%s\"", want);
        ck_assert_msg(strcmp(c.json, q) == 0, "%s %s: %s, expected %s", d,
                      ilpm_backend_name(b), c.json, q);
    }
    ilpm_solver_free(s);
    ilpm_model_free(m);
    return n;
}

/* Solves puzzles [0, n) of a set on both back ends and compares each
 * grid with its solutions file. */
static void solve_set(const char *name, int n, const ilpm_params *p)
{
    char path[256], sols[256];
    snprintf(path, sizeof path, "data/sudoku/%s.txt", name);
    snprintf(sols, sizeof sols, "data/sudoku/solutions_computed/%s.sol.txt",
             name);
    void **inst = calloc((size_t)n, sizeof *inst);
    ck_assert_int_eq(load(path, p, 0, inst, n), n);
    for (int i = 0; i < n; i++) {
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
            run(inst[i], p, (ilpm_backend)b, 0, expected(sols, i));
        pz->free_instance(inst[i]);
    }
    free(inst);
}

/* ------------------------------------------------------------------ */
/* Solving                                                              */

START_TEST(test_top95_first10)
{
    ilpm_params *p = ilpm_params_new();
    solve_set("norvig_top95", 10, p);
    /* the seed report's formulation, alone and with the house ALO rows,
     * gives the same grids */
    ilpm_params_set(p, "formulation", "atmost");
    solve_set("norvig_top95", 5, p);
    ilpm_params_set(p, "redundant", NULL);
    solve_set("norvig_top95", 3, p);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_hardest)
{
    ilpm_params *p = ilpm_params_new();
    solve_set("norvig_hardest", 11, p);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_16x16)
{
    ilpm_params *p = ilpm_params_new();
    solve_set("gecode_16x16", 5, p);
    /* lines 29 and 39, marked "problems" in Gecode */
    static const int lines[] = {29, 39};
    for (int i = 0; i < 2; i++) {
        void *inst;
        ck_assert_int_eq(
            load("data/sudoku/gecode_16x16.txt", p, lines[i], &inst, 1), 1);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
            run(inst, p, (ilpm_backend)b, 0,
                expected("data/sudoku/solutions_computed/gecode_16x16.sol.txt",
                         lines[i] - 1));
        pz->free_instance(inst);
    }
    ilpm_params_free(p);
}
END_TEST

/* The minimal 25x25 puzzles of the set are beyond GLPK in minutes and
 * take CaDiCaL seconds to tens of seconds, so the test uses line 18
 * with every 8th blank cell filled in from its solution: more givens
 * of the same unique solution, hence still that solution. */
START_TEST(test_25x25)
{
    const char *sols = "data/sudoku/solutions_computed/gecode_25x25.sol.txt";
    char line[2048];
    snprintf(line, sizeof line, "%s", expected(sols, 17) - 626);
    char *want = line + 626;
    line[625] = '\0';
    int filled = 0;
    for (int i = 0; i < 625; i++)
        if (line[i] == '.' && i % 8 == 0) {
            line[i] = want[i];
            filled++;
        }
    ck_assert_int_gt(filled, 20);
    line[625] = ':'; /* parse the puzzle:solution form too */
    ilpm_reader *rd = ilpm_reader_mem("gecode_25x25_18", line, strlen(line));
    ilpm_params *p = ilpm_params_new();
    void *inst;
    ilpm_err err;
    ck_assert_msg(pz->parse(rd, p, &inst, &err) == 1, "%s", err.msg);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        run(inst, p, (ilpm_backend)b, 0, want);
    pz->free_instance(inst);
    ilpm_params_free(p);
    ilpm_reader_free(rd);
}
END_TEST

/* Proper puzzles have one solution; the serg benchmark's have two or
 * more (counted up to 2). */
START_TEST(test_counts)
{
    ilpm_params *p = ilpm_params_new();
    if (_i)
        ilpm_params_set(p, "formulation", "atmost");
    void *inst[3];
    ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, inst, 3), 3);
    for (int i = 0; i < 3; i++) {
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
            ck_assert_uint_eq(run(inst[i], p, (ilpm_backend)b, 2, NULL), 1);
        pz->free_instance(inst[i]);
    }
    ck_assert_int_eq(
        load("data/sudoku/serg_benchmark_first20.txt", p, 0, inst, 3), 3);
    for (int i = 0; i < 3; i++) {
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
            ck_assert_uint_eq(run(inst[i], p, (ilpm_backend)b, 2, NULL), 2);
        pz->free_instance(inst[i]);
    }
    ilpm_params_free(p);
}
END_TEST

/* In a batch, 9x9 puzzles share one model per back end, the givens
 * passed as assumptions (on GLPK settled by propagation first); 16x16
 * puzzles each get their own model. */
START_TEST(test_shared_model)
{
    const char *sols = "data/sudoku/solutions_computed/norvig_top95.sol.txt";
    ilpm_params *p = ilpm_params_new();
    void *inst[10];
    ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, inst, 10), 10);
    void *big[2];
    ck_assert_int_eq(load("data/sudoku/gecode_16x16.txt", p, 0, big, 2), 2);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        o.render = 1;
        ilpm_shape_cache *c = ilpm_shape_cache_new();
        for (int i = 0; i < 12; i++) {
            ilpm_result r;
            ilpm_result_init(&r);
            const void *x = i < 10 ? inst[i] : big[i - 10];
            ck_assert_int_eq(ilpm_run_instance_cached(pz, x, p, &o, c, &r), 0);
            ck_assert_msg(r.status == ILPM_SOLVED && r.verified, "%d %s: %s", i,
                          ilpm_backend_name(o.solver.backend), r.error);
            if (i < 10) {
                char q[128];
                snprintf(q, sizeof q, "\"%s\"", expected(sols, i));
                ck_assert_str_eq(r.json, q);
            }
            ilpm_result_free(&r);
        }
        ck_assert_int_eq(ilpm_shape_cache_reused(c), 9);
        ilpm_shape_cache_free(c);
    }
    for (int i = 0; i < 10; i++)
        pz->free_instance(inst[i]);
    for (int i = 0; i < 2; i++)
        pz->free_instance(big[i]);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Model sizes                                                          */

static const ilpm_group_stats *group(const ilpm_model *m, const ilpm_stats *st,
                                     const char *name)
{
    for (int g = 0; g < st->ngroups; g++)
        if (strcmp(ilpm_model_group_name(m, g), name) == 0)
            return &st->groups[g];
    ck_abort_msg("no group %s", name);
    return NULL;
}

/* Constraints of a kind in the named group. */
static int count_kind(const ilpm_model *m, const char *group, ilpm_kind kind)
{
    int n = 0;
    for (size_t i = 0; i < ilpm_model_ncons(m); i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        n += c.kind == kind &&
             strcmp(ilpm_model_group_name(m, c.group), group) == 0;
    }
    return n;
}

/* Three models: exact (the default), atmost, atmost with --redundant. */
START_TEST(test_sizes)
{
    ilpm_params *p = ilpm_params_new();
    void *inst;
    ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, &inst, 1), 1);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_sat_opts_in(&o)->amo = ILPM_AMO_PAIRWISE;
    ilpm_err err;
    for (int form = 0; form < 3; form++) {
        int exact = form == 0, red = form == 2;
        if (form == 1)
            ilpm_params_set(p, "formulation", "atmost");
        if (red)
            ilpm_params_set(p, "redundant", NULL);
        ilpm_model *m = ilpm_model_new();
        ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
        ilpm_stats st;
        ck_assert_int_eq(ilpm_model_stats(m, &o, &st, &err), 0);
        ck_assert_int_eq(st.vars, 729);
        ck_assert_int_eq(st.aux_vars, 0);
        /* GLPK fills the grid in reading order (see build) */
        ck_assert_int_eq(ilpm_model_hint(m), ILPM_HINT_INPUT);
        ck_assert_int_eq(st.ngroups, red ? 8 : 5);
        /* 81 exactly-one rows: 81 * (1 + C(9,2)) clauses */
        ck_assert_int_eq(group(m, &st, "cell")->rows, 81);
        ck_assert_int_eq(group(m, &st, "cell")->clauses, 81 * 37);
        static const char *const houses[] = {"row", "col", "box"};
        for (int h = 0; h < 3; h++) {
            ck_assert_int_eq(group(m, &st, houses[h])->rows, 81);
            ck_assert_int_eq(group(m, &st, houses[h])->nonzeros, 729);
            /* exactly-one: the pairs and one clause of all nine */
            ck_assert_int_eq(group(m, &st, houses[h])->clauses,
                             81 * (exact ? 37 : 36));
            ck_assert_int_eq(count_kind(m, houses[h], ILPM_EXO),
                             exact ? 81 : 0);
            ck_assert_int_eq(count_kind(m, houses[h], ILPM_AMO),
                             exact ? 0 : 81);
            if (red) {
                char alo[16];
                snprintf(alo, sizeof alo, "%s_alo", houses[h]);
                ck_assert_int_eq(group(m, &st, alo)->rows, 81);
                ck_assert_int_eq(group(m, &st, alo)->clauses, 81);
            }
        }
        ck_assert_int_eq(group(m, &st, "givens")->clauses, 17);
        /* The report's 10287 leaves out the 81 * 18 box pairs that share
         * a row or a column; the box AMO repeats them. */
        ck_assert_int_eq(st.clauses - 17 - (exact || red ? 243 : 0) - 81 * 18,
                         10287);
        ilpm_stats_free(&st);
        ilpm_model_free(m);
    }
    pz->free_instance(inst);
    /* exact already holds what --redundant would add */
    ilpm_params_set(p, "formulation", "exact");
    ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, &inst, 1), 1);
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "--redundant adds at-least-once"));
    ilpm_model_free(m);
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* --segments: the houses through a variable per value and row-box
 * (column-box) intersection, exactly one per house.  The counts are those
 * without it on every back end (the segment variables are auxiliary: projected
 * away), and the stats show the two new groups. */
START_TEST(test_segments)
{
    const char *text = "1200000000000000\n1000000200400001\n";
    ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
    ilpm_params *p = ilpm_params_new(), *ps = ilpm_params_new();
    ilpm_params_set(ps, "segments", NULL);
    ilpm_err err;
    void *inst[4];
    ilpm_instances it;
    ilpm_instances_init(&it, pz, p, rd, 0);
    for (int i = 0; i < 2; i++)
        ck_assert_msg(ilpm_instances_next(&it, &inst[i], &err) == 1, "%s",
                      err.msg);
    ilpm_reader_free(rd);
    ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, inst + 2, 1),
                     1);
    ck_assert_int_eq(
        load("data/sudoku/serg_benchmark_first20.txt", p, 2, inst + 3, 1), 1);
    /* GLPK counts the 83 grids slowly (under valgrind): its first 10 */
    static const uint64_t want[4] = {24, 2, 1, 83};
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            uint64_t lim = i == 3 && b == ILPM_BACKEND_ILP ? 10 : 100;
            for (int seg = 0; seg < 2; seg++)
                ck_assert_msg(run(inst[i], seg ? ps : p, (ilpm_backend)b, lim,
                                  NULL) == (want[i] < lim ? want[i] : lim),
                              "grid %d %s segments %d", i,
                              ilpm_backend_name((ilpm_backend)b), seg);
        }
    /* 9x9: 2 * 81 * 3 segment variables, each with 3 implications, one
     * clause back and an at-most-one over its cells; an exactly-one of 3
     * per value and row, column, and box twice (by its rows' and by its
     * columns' segments), in place of the row, col and box groups */
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst[2], ps, m, &err), 0);
    ck_assert_int_eq(ilpm_model_nvars(m), 729 + 2 * 243);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_stats st;
    ck_assert_int_eq(ilpm_model_stats(m, &o, &st, &err), 0);
    ck_assert_int_eq(group(m, &st, "segment")->rows, 2 * 243 * 5);
    ck_assert_int_eq(group(m, &st, "seg_house")->rows, 4 * 81);
    ck_assert_int_eq(count_kind(m, "seg_house", ILPM_EXO), 4 * 81);
    ck_assert_int_eq(st.ngroups, 4); /* cell, segment, seg_house, givens */
    ilpm_stats_free(&st);
    ilpm_model_free(m);
    /* the segments state the houses exactly once: not with atmost */
    ilpm_params_set(ps, "formulation", "atmost");
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst[2], ps, m, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "--segments states the houses"));
    ilpm_model_free(m);
    for (int i = 0; i < 4; i++)
        pz->free_instance(inst[i]);
    ilpm_params_free(p);
    ilpm_params_free(ps);
}
END_TEST

/* Why exact is the default: a value with one place left in a house is
 * placed by propagation alone (a hidden single), which "at most once"
 * cannot see.  On top95's first grid unit propagation fixes more of the
 * 729 variables with exact rows. */
START_TEST(test_exact_propagates_more)
{
    ilpm_params *p = ilpm_params_new();
    int fixed[2];
    for (int form = 0; form < 2; form++) {
        if (form)
            ilpm_params_set(p, "formulation", "atmost");
        void *inst;
        ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, &inst, 1),
                         1);
        ilpm_model *m = ilpm_model_new();
        ilpm_err err;
        ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
        int unchanged;
        ilpm_model *r = ilpm_model_propagate(m, 1, &unchanged, &err);
        ck_assert_ptr_nonnull(r);
        fixed[form] = count_kind(r, "fixed", ILPM_CLAUSE);
        ilpm_model_free(r);
        ilpm_model_free(m);
        pz->free_instance(inst);
    }
    ck_assert_int_gt(fixed[1], 17);
    ck_assert_int_gt(fixed[0], fixed[1]);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Input                                                                */

START_TEST(test_parse_forms)
{
    /* 4x4 with '0' blanks, a comment, blanks, spaces around the cells,
     * CRLF, then Gecode's first 16x16 in lower case and a 9x9
     * puzzle:solution after a tab. */
    char sol16[300], line9[200], lower16[300];
    const char *e16 =
        expected("data/sudoku/solutions_computed/gecode_16x16.sol.txt", 0);
    snprintf(sol16, sizeof sol16, "%s", e16);
    snprintf(lower16, sizeof lower16, "%.256s", e16 - 257);
    for (char *c = lower16; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    const char *sol9 =
        expected("data/sudoku/solutions_computed/norvig_top95.sol.txt", 0);
    snprintf(line9, sizeof line9, "%s", sol9 - 82);
    char text[4096];
    snprintf(text, sizeof text,
             "# three orders\n"
             "\n"
             "  1000000200400001 \r\n"
             "%s\n"
             "\t%s\n",
             lower16, line9);
    ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    void *inst[3];
    char d[32];
    ilpm_instances it;
    ilpm_instances_init(&it, pz, p, rd, 0);
    for (int i = 0; i < 3; i++) {
        ck_assert_msg(ilpm_instances_next(&it, &inst[i], &err) == 1, "%s",
                      err.msg);
        pz->describe(inst[i], d, sizeof d);
        char want[16];
        snprintf(want, sizeof want, "#%d", i + 1);
        ck_assert_str_eq(d, want);
    }
    void *none;
    ck_assert_int_eq(ilpm_instances_next(&it, &none, &err), 0);
    ilpm_reader_free(rd);
    /* sizes follow the length */
    static const int vars[] = {64, 4096, 729};
    for (int i = 0; i < 3; i++) {
        ilpm_model *m = ilpm_model_new();
        ck_assert_int_eq(pz->build(inst[i], p, m, &err), 0);
        ck_assert_int_eq(ilpm_model_nvars(m), vars[i]);
        ilpm_model_free(m);
    }
    for (int b = 0; b < 2; b++)
        ck_assert_uint_ge(run(inst[0], p, (ilpm_backend)b, 2, NULL), 1);
    /* upper case in the output */
    run(inst[1], p, ILPM_BACKEND_SAT, 0, sol16);
    run(inst[2], p, ILPM_BACKEND_SAT, 0, line9 + 82);
    for (int i = 0; i < 3; i++)
        pz->free_instance(inst[i]);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_files_and_index)
{
    static const struct {
        const char *file;
        int n;
    } files[] = {
        {"norvig_top95.txt", 95},
        {"norvig_hardest.txt", 11},
        {"gecode_16x16.txt", 55},
        {"gecode_25x25.txt", 18},
        {"magictour_top1465.txt", 1465},
        {"serg_benchmark_first20.txt", 20},
        {"solutions_computed/norvig_top95.sol.txt", 95},
        {"solutions_computed/norvig_hardest.sol.txt", 11},
        {"solutions_computed/gecode_16x16.sol.txt", 55},
        {"solutions_computed/gecode_25x25.sol.txt", 18},
        {"solutions_computed/magictour_top1465.sol.txt", 1465},
    };
    ilpm_params *p = ilpm_params_new();
    void **inst = calloc(2000, sizeof *inst);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[256];
        snprintf(path, sizeof path, "data/sudoku/%s", files[i].file);
        int n = load(path, p, 0, inst, 2000);
        ck_assert_msg(n == files[i].n, "%s: %d puzzles", path, n);
        char d[32];
        pz->describe(inst[n - 1], d, sizeof d);
        char want[32];
        snprintf(want, sizeof want, "#%d", n);
        ck_assert_str_eq(d, want);
        for (int j = 0; j < n; j++)
            pz->free_instance(inst[j]);
    }
    free(inst);

    /* --index picks one puzzle and then the file ends */
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open("data/sudoku/norvig_top95.txt", &err);
    ilpm_instances it;
    ilpm_instances_init(&it, pz, p, rd, 12);
    void *one;
    ck_assert_int_eq(ilpm_instances_next(&it, &one, &err), 1);
    ck_assert_int_eq(it.index, 12);
    char d[32];
    pz->describe(one, d, sizeof d);
    ck_assert_str_eq(d, "#12");
    void *none;
    ck_assert_int_eq(ilpm_instances_next(&it, &none, &err), 0);
    ilpm_reader_free(rd);
    run(one, p, ILPM_BACKEND_SAT, 0,
        expected("data/sudoku/solutions_computed/norvig_top95.sol.txt", 11));
    pz->free_instance(one);

    /* comments and blank lines do not count as puzzles */
    static const char text[] = "# c\n\n" /* lines 1-2 */
                               "1000000200300004\n"
                               "# c\n"
                               "0200000000000010\n";
    rd = ilpm_reader_mem("mem", text, sizeof text - 1);
    ilpm_instances_init(&it, pz, p, rd, 2);
    ck_assert_int_eq(ilpm_instances_next(&it, &one, &err), 1);
    pz->describe(one, d, sizeof d);
    ck_assert_str_eq(d, "#2");
    pz->free_instance(one);
    ilpm_reader_free(rd);

    /* two files read in turns keep their own numbers */
    ilpm_reader *ra = ilpm_reader_open("data/sudoku/norvig_top95.txt", &err);
    ilpm_reader *rb = ilpm_reader_open("data/sudoku/norvig_hardest.txt", &err);
    ilpm_instances ia, ib;
    ilpm_instances_init(&ia, pz, p, ra, 0);
    ilpm_instances_init(&ib, pz, p, rb, 0);
    static const int order[] = {0, 1, 1, 0, 1};
    static const char *const labels[] = {"#1", "#1", "#2", "#2", "#3"};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(ilpm_instances_next(order[i] ? &ib : &ia, &one, &err),
                         1);
        pz->describe(one, d, sizeof d);
        ck_assert_str_eq(d, labels[i]);
        pz->free_instance(one);
    }
    ilpm_reader_free(rb);
    ilpm_reader_free(ra);

    /* past the end: one error, and the walk is over */
    rd = ilpm_reader_open("data/sudoku/norvig_top95.txt", &err);
    ilpm_instances_init(&it, pz, p, rd, 96);
    ck_assert_int_eq(ilpm_instances_next(&it, &one, &err), -1);
    ck_assert(it.done);
    ck_assert_str_eq(err.msg, "data/sudoku/norvig_top95.txt: --index 96 is "
                              "past the last instance (the file holds 95)");
    ck_assert_int_eq(ilpm_instances_next(&it, &one, &err), 0);
    ilpm_reader_free(rd);
    /* a file of comments holds no instance */
    rd = ilpm_reader_mem("mem", "# c\n\n", 5);
    ilpm_instances_init(&it, pz, p, rd, 0);
    ck_assert_int_eq(ilpm_instances_next(&it, &one, &err), -1);
    ck_assert(it.done);
    ck_assert_str_eq(err.msg, "mem: no instance in the file");
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

static const struct {
    const char *file;
    const char *msg;
} bad_files[] = {
    {"sudoku_wrong_length.txt",
     "sudoku_wrong_length.txt:2:81: expected 16, 81, 256 or 625 cells, got "
     "80"},
    {"sudoku_bad_character.txt",
     "sudoku_bad_character.txt:2:40: expected a digit 1-9, A-P or '.', got "
     "'x'"},
    {"sudoku_value_out_of_range.txt",
     "sudoku_value_out_of_range.txt:2:21: value 'A' (10) is out of range "
     "for a 9x9 grid (1-9)"},
    {"sudoku_repeated_in_row.txt",
     "sudoku_repeated_in_row.txt:2:7: given 8 at r1c7 repeats the 8 at "
     "r1c2 (same row)"},
    {"sudoku_repeated_in_column.txt",
     "sudoku_repeated_in_column.txt:2:10: given 4 at r2c1 repeats the 4 at "
     "r1c1 (same column)"},
    {"sudoku_repeated_in_box.txt",
     "sudoku_repeated_in_box.txt:2:12: given 4 at r2c3 repeats the 4 at "
     "r1c1 (same box)"},
    {"sudoku_solution_length.txt",
     "sudoku_solution_length.txt:1:163: expected 81 cells after ':', got "
     "80"},
    {"sudoku_solution_blank.txt",
     "sudoku_solution_blank.txt:1:93: blank cell r2c2 in the solution: a "
     "solution fills every cell"},
    {"sudoku_solution_contradicts_given.txt",
     "sudoku_solution_contradicts_given.txt:1:83: the solution puts 1 at "
     "r1c1 where the puzzle gives 4"},
    {"sudoku_nul_byte.txt", "sudoku_nul_byte.txt:1:6: NUL byte in a text line"},
};

START_TEST(test_bad_files)
{
    ilpm_params *p = ilpm_params_new();
    for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
        /* good instances before the bad one are skipped */
        ilpm_reader *rd =
            check_bad_file(pz, p, bad_files[i].file, bad_files[i].msg);
        ilpm_err err;
        void *inst = NULL;
        /* the reader stands past the bad instance: the file just ends */
        ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
        ilpm_reader_free(rd);
    }
    /* more, from memory: every order's range, odd bytes, the solution's
     * alphabet; a batch goes on after a bad line */
    static const char *const more[][2] = {
        {"1000000200300005\n",
         "mem:1:16: value '5' (5) is out of range for a 4x4 grid (1-4)"},
        {"1000000200400001:2234341221434321\n",
         "mem:1:18: the solution puts 2 at r1c1 where the puzzle gives 1"},
        {"1000000200400001:12x4341221434321\n",
         "mem:1:20: expected a digit 1-9 or A-P in the solution, got 'x'"},
        {"10000002003 0004\n",
         "mem:1:12: expected a digit 1-9, A-P or '.', got ' '"},
        {"100000020030000\xe9\n",
         "mem:1:16: expected a digit 1-9, A-P or '.', got '\\xe9'"},
        {"100000020030000'\n",
         "mem:1:16: expected a digit 1-9, A-P or '.', got '\\x27'"},
        {"\n\n   \n123\n", "mem:4:4: expected 16, 81, 256 or 625 cells, got 3"},
        {":\n", "mem:1:1: expected 16, 81, 256 or 625 cells, got 0"},
    };
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
        ilpm_reader *rd =
            ilpm_reader_mem("mem", more[i][0], strlen(more[i][0]));
        ilpm_err err;
        void *inst;
        ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
        ck_assert_str_eq(err.msg, more[i][1]);
        ilpm_reader_free(rd);
    }
    static const char batch[] = "1000000200300004\n"
                                "1100000200300004\n"
                                "1000000200300004\n";
    ilpm_reader *rd = ilpm_reader_mem("mem", batch, sizeof batch - 1);
    ilpm_err err;
    void *inst;
    ilpm_instances it;
    ilpm_instances_init(&it, pz, p, rd, 0);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 1);
    pz->free_instance(inst);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "mem:2:2: given 1 at r1c2 repeats the 1 at "
                              "r1c1 (same row)");
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 1);
    char d[32];
    pz->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, "#3");
    pz->free_instance(inst);
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 0);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Decoding, verifier, output                                           */

static void *grid_solution(const void *inst, const ilpm_params *p,
                           ilpm_model *m, const char *grid, ilpm_err *err)
{
    int n = 1;
    while (n * n < (int)strlen(grid))
        n++;
    int P = ilpm_model_family_find(m, "P");
    uint8_t *vals = calloc((size_t)ilpm_model_nvars(m) + 1, 1);
    for (int i = 0; i < n * n; i++) {
        char ch = grid[i];
        int v = ch <= '9' ? ch - '0' : ch - 'A' + 10;
        if (v > 0)
            vals[ilpm_model_var(m, P, i / n + 1, i % n + 1, v, 0)] = 1;
    }
    void *sol = pz->decode(inst, p, m, vals, err);
    free(vals);
    return sol;
}

START_TEST(test_verifier)
{
    const char *S = "417369825632158947958724316825437169791586432"
                    "346912758289643571573291684164875293";
    ilpm_params *p = ilpm_params_new();
    void *inst;
    ck_assert_int_eq(load("data/sudoku/norvig_top95.txt", p, 0, &inst, 1), 1);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);

    void *sol = grid_solution(inst, p, m, S, &err);
    ck_assert_ptr_nonnull(sol);
    ck_assert_int_eq(pz->verify(inst, p, sol, &err), 0);
    ilpm_buf out;
    ilpm_buf_init(&out);
    pz->render(inst, sol, &out);
    ck_assert_str_eq(ilpm_buf_str(&out), "4 1 7 | 3 6 9 | 8 2 5\n"
                                         "6 3 2 | 1 5 8 | 9 4 7\n"
                                         "9 5 8 | 7 2 4 | 3 1 6\n"
                                         "------+-------+------\n"
                                         "8 2 5 | 4 3 7 | 1 6 9\n"
                                         "7 9 1 | 5 8 6 | 4 3 2\n"
                                         "3 4 6 | 9 1 2 | 7 5 8\n"
                                         "------+-------+------\n"
                                         "2 8 9 | 6 4 3 | 5 7 1\n"
                                         "5 7 3 | 2 9 1 | 6 8 4\n"
                                         "1 6 4 | 8 7 5 | 2 9 3\n");
    ilpm_buf_clear(&out);
    pz->render_json(inst, sol, &out);
    char q[128];
    snprintf(q, sizeof q, "\"%s\"", S);
    ck_assert_str_eq(ilpm_buf_str(&out), q);
    pz->free_solution(sol);

    /* broken grids, each caught by its own rule */
    static const struct {
        int a, b; /* cells swapped, or a set to b + '0' when b < 0 */
        const char *why;
    } broken[] = {
        {0, -1, "r1c1 is 1 but the puzzle gives 4"},
        {1, 2, "column 2 holds 7 twice (r1c2 and r8c2)"},
        {2, 11, "row 1 holds 2 twice (r1c3 and r1c8)"},
    };
    for (int i = 0; i < 3; i++) {
        char g[82];
        memcpy(g, S, 82);
        if (broken[i].b < 0) {
            g[broken[i].a] = (char)('0' - broken[i].b);
        } else {
            char t = g[broken[i].a];
            g[broken[i].a] = g[broken[i].b];
            g[broken[i].b] = t;
        }
        sol = grid_solution(inst, p, m, g, &err);
        ck_assert_ptr_nonnull(sol);
        ck_assert_int_eq(pz->verify(inst, p, sol, &err), -1);
        ck_assert_str_eq(err.msg, broken[i].why);
        pz->free_solution(sol);
    }
    /* a cell with no value or two values cannot be decoded */
    char g[82];
    memcpy(g, S, 82);
    g[40] = '0';
    ck_assert_ptr_null(grid_solution(inst, p, m, g, &err));
    ck_assert_str_eq(err.msg, "cell r5c5 has 0 values");
    ilpm_model_free(m);
    pz->free_instance(inst);

    /* rows and columns fine, boxes not: a cyclic Latin square */
    ilpm_reader *rd = ilpm_reader_mem(
        "mem",
        ".................................................................."
        "...............",
        81);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    ilpm_reader_free(rd);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    for (int i = 0; i < 81; i++)
        g[i] = (char)('1' + (i / 9 + i % 9) % 9);
    g[81] = '\0';
    sol = grid_solution(inst, p, m, g, &err);
    ck_assert_int_eq(pz->verify(inst, p, sol, &err), -1);
    ck_assert_str_eq(err.msg, "box 1 holds 2 twice (r1c2 and r2c1)");
    pz->free_solution(sol);
    ilpm_model_free(m);
    pz->free_instance(inst);

    /* a 4x4 grid: boxes two wide */
    rd = ilpm_reader_mem("mem", "1000000200400001", 16);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    ilpm_reader_free(rd);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    sol = grid_solution(inst, p, m, "1234341221434321", &err);
    ck_assert_int_eq(pz->verify(inst, p, sol, &err), 0);
    ilpm_buf_clear(&out);
    pz->render(inst, sol, &out);
    ck_assert_str_eq(ilpm_buf_str(&out), "1 2 | 3 4\n"
                                         "3 4 | 1 2\n"
                                         "----+----\n"
                                         "2 1 | 4 3\n"
                                         "4 3 | 2 1\n");
    pz->free_solution(sol);
    ilpm_model_free(m);
    pz->free_instance(inst);
    ilpm_buf_free(&out);
    ilpm_params_free(p);
}
END_TEST

/* --redundant belongs to atmost: refused from the parameters alone, for
 * the default formulation as for exact, and for compare's default (all);
 * with atmost (or a compare of atmost alone) it stands. */
START_TEST(test_redundant_params)
{
    static const struct {
        ilpm_puzzle_use use;
        const char *form; /* form NULL: not given */
        const char *msg;  /* NULL: accepted */
    } cases[] = {
        {ILPM_USE_SOLVE, NULL,
         "--redundant applies to --formulation atmost, not exact (the "
         "default)"},
        {ILPM_USE_SOLVE, "exact",
         "--redundant applies to --formulation atmost, not exact"},
        {ILPM_USE_SOLVE, "atmost", NULL},
        {ILPM_USE_COMPARE, NULL,
         "--redundant applies to --formulation atmost, not all (compare's "
         "default)"},
        {ILPM_USE_COMPARE, "atmost,exact",
         "--redundant applies to --formulation atmost, not atmost,exact"},
        {ILPM_USE_COMPARE, "atmost", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_params *p = ilpm_params_new();
        ilpm_params_set(p, "redundant", NULL);
        if (cases[i].form)
            ilpm_params_set(p, "formulation", cases[i].form);
        ilpm_err err = {0};
        int rc = ilpm_puzzle_check_params(&ilpm_puzzle_sudoku, cases[i].use, p,
                                          1, &err);
        ck_assert_int_eq(rc, cases[i].msg ? -1 : 0);
        if (cases[i].msg)
            ck_assert_str_eq(err.msg, cases[i].msg);
        ilpm_params_free(p);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sudoku");
    TCase *tc = tcase_create("sudoku");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_top95_first10);
    tcase_add_test(tc, test_hardest);
    tcase_add_test(tc, test_16x16);
    tcase_add_test(tc, test_25x25);
    tcase_add_loop_test(tc, test_counts, 0, 2);
    tcase_add_test(tc, test_exact_propagates_more);
    tcase_add_test(tc, test_shared_model);
    tcase_add_test(tc, test_sizes);
    tcase_add_test(tc, test_parse_forms);
    tcase_add_test(tc, test_files_and_index);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_verifier);
    tcase_add_test(tc, test_redundant_params);
    tcase_add_test(tc, test_segments);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
