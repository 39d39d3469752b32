/* n-Queens end to end through the run layer: counts against OEIS A000170
 * on both back ends (every solution verified), completion instances, every
 * malformed input's own message, and the verifier on broken boards.
 * Runs from the source root (paths data/...). */
#include "puzzles.h"
#include "run.h"

#include <check.h>
#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_puzzle *pz = &ilpm_puzzle_queens;

/* Known counts from data/known_counts.csv (queens rows). */
static long known_count(int n)
{
    FILE *f = fopen("data/known_counts.csv", "r");
    ck_assert_msg(f != NULL, "data/known_counts.csv missing");
    char line[256];
    long found = -1;
    while (fgets(line, sizeof line, f)) {
        int k;
        long c;
        if (sscanf(line, "queens,%d,%ld,", &k, &c) == 2 && k == n)
            found = c;
    }
    fclose(f);
    ck_assert_msg(found >= 0, "no known count for n=%d", n);
    return found;
}

static void run_count(const void *inst, ilpm_params *p, ilpm_backend b,
                      ilpm_result *r)
{
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.backend = b;
    o.count = 1;
    ilpm_result_init(r);
    ck_assert_int_eq(ilpm_run_instance(pz, inst, p, &o, r), 0);
}

START_TEST(test_counts_match_oeis)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    for (int n = 1; n <= 8; n++) {
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        ilpm_params_set(p, "n", v);
        void *inst;
        ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            ilpm_result r;
            run_count(inst, p, (ilpm_backend)b, &r);
            long want = known_count(n);
            ck_assert_msg(r.status == (want ? ILPM_SOLVED : ILPM_UNSAT),
                          "n=%d %s: %s %s", n, ilpm_backend_name(b),
                          ilpm_status_name(r.status), r.error);
            ck_assert_uint_eq(r.count, (uint64_t)want);
            /* verified: solutions were reported and all passed */
            ck_assert_msg(r.verified == (want > 0), "n=%d: %s", n, r.error);
            ilpm_result_free(&r);
        }
        pz->free_instance(inst);
    }
    ilpm_params_free(p);
}
END_TEST

/* What the progress hook of ilpm_run_opts saw. */
struct seen {
    int begins;
    uint64_t counts[16];
    int ncounts;
    char backend[8];
};

static void on_progress(void *ctx, const ilpm_result *r)
{
    struct seen *s = ctx;
    if (!r->has_count) {
        s->begins++;
        snprintf(s->backend, sizeof s->backend, "%s",
                 ilpm_backend_name(r->backend));
    } else if (s->ncounts < 16) {
        s->counts[s->ncounts++] = r->count;
    }
}

/* The run layer calls the hook as a run begins and after each solution
 * counted; count_complete tells a full count from one cut at the limit. */
START_TEST(test_progress_hook_and_count_complete)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "n", "6");
    ilpm_err err;
    void *inst;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        for (uint64_t limit = 0; limit <= 4; limit += 2) {
            ilpm_run_opts o;
            ilpm_run_opts_init(&o);
            o.solver.backend = (ilpm_backend)b;
            o.count = 1;
            o.limit = limit;
            struct seen s = {0};
            o.progress = on_progress;
            o.progress_ctx = &s;
            ilpm_result r;
            ilpm_result_init(&r);
            ck_assert_int_eq(ilpm_run_instance(pz, inst, p, &o, &r), 0);
            uint64_t want = limit ? limit : 4; /* n = 6 has 4 solutions */
            ck_assert_uint_eq(r.count, want);
            /* Stopping at the 4th of 4 does not tell that none is left. */
            ck_assert_int_eq(r.count_complete, limit == 0);
            ck_assert_int_eq(s.begins, 1);
            ck_assert_str_eq(s.backend, ilpm_backend_name(b));
            ck_assert_int_eq(s.ncounts, (int)want);
            for (int i = 0; i < s.ncounts; i++)
                ck_assert_uint_eq(s.counts[i], (uint64_t)i + 1);
            ilpm_result_free(&r);
        }
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_completion_file)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open("data/queens/completion.txt", &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    ilpm_params *p = ilpm_params_new();
    void *inst[4];
    for (int i = 0; i < 4; i++)
        ck_assert_msg(pz->parse(rd, p, &inst[i], &err) == 1, "%s", err.msg);
    void *none;
    ck_assert_int_eq(pz->parse(rd, p, &none, &err), 0);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_result r;
        run_count(inst[0], p, (ilpm_backend)b, &r);
        ck_assert_uint_eq(r.count, 4); /* 8 queens with a corner queen */
        ck_assert(r.verified);
        ilpm_result_free(&r);
        run_count(inst[2], p, (ilpm_backend)b, &r);
        ck_assert_int_eq(r.status, ILPM_UNSAT);
        ilpm_result_free(&r);
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        for (int i = 1; i < 4; i += 2) {
            ilpm_result_init(&r);
            ilpm_run_instance(pz, inst[i], p, &o, &r);
            ck_assert_int_eq(r.status, ILPM_SOLVED);
            ck_assert(r.verified);
            ck_assert_ptr_nonnull(r.text);
            ilpm_result_free(&r);
        }
    }
    for (int i = 0; i < 4; i++)
        pz->free_instance(inst[i]);
    ilpm_params_free(p);
    ilpm_reader_free(rd);
}
END_TEST

static const struct {
    const char *file;
    const char *msg;
} bad_files[] = {
    {"queens_expected_size.txt",
     "queens_expected_size.txt:1:1: expected the board size n alone on the "
     "first line"},
    {"queens_size_range.txt",
     "queens_size_range.txt:2:1: board size 0 is outside 1..1000000"},
    {"queens_row_range.txt",
     "queens_row_range.txt:2:1: row 5 is too large (at most 4)"},
    {"queens_column_range.txt",
     "queens_column_range.txt:2:3: column 9 is too large (at most 4)"},
    {"queens_not_a_number.txt",
     "queens_not_a_number.txt:2:3: expected a number, got 'x'"},
    {"queens_third_field.txt",
     "queens_third_field.txt:2:5: expected 'row col', found a third field"},
    {"queens_placed_twice.txt",
     "queens_placed_twice.txt:3:1: queen at row 1, column 2 is placed twice"},
    {"queens_too_many.txt",
     "queens_too_many.txt:4:1: more than 2 pre-placed queens on a 2x2 board"},
    {"queens_nul_byte.txt", "queens_nul_byte.txt:2:3: NUL byte in a text line"},
    {"queens_bad_separator.txt",
     "queens_bad_separator.txt:2:2: expected a number, got '-'"},
};

START_TEST(test_bad_files)
{
    ilpm_params *p = ilpm_params_new();
    for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
        ilpm_reader *rd =
            check_bad_file(pz, p, bad_files[i].file, bad_files[i].msg);
        ilpm_reader_free(rd);
    }
    /* An empty file holds no instance. */
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open("data/bad/queens_empty.txt", &err);
    void *inst;
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
    ilpm_reader_free(rd);
    /* A long number is named whole, as given, not cut to its first ten
     * digits nor read as the largest long. */
    static const char *const big[][2] = {
        {"123456789012\n",
         "mem:1:1: board size 123456789012 is too large (at most 1000000)"},
        {"99999999999999999999\n",
         "mem:1:1: board size 99999999999999999999 is too large (at most "
         "1000000)"},
        {"4\n1 99999999999999999999\n",
         "mem:2:3: column 99999999999999999999 is too large (at most 4)"},
        /* A control byte is shown escaped, never raw. */
        {"8\n1 \033[31mRED\n", "mem:2:3: expected a number, got '\\x1b'"},
        {"8\n1\0332\n", "mem:2:2: expected a number, got '\\x1b'"},
    };
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        rd = ilpm_reader_mem("mem", big[i][0], strlen(big[i][0]));
        ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
        ck_assert_str_eq(err.msg, big[i][1]);
        ilpm_reader_free(rd);
    }
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_bad_params)
{
    static const char *const bad[][2] = {
        {"0", "--n: expected an integer from 1 to 1000000, got '0'"},
        {"abc", "--n: expected an integer from 1 to 1000000, got 'abc'"},
        {"2000000", "--n: '2000000' is too large (at most 1000000)"},
        {"99999999999999999999",
         "--n: '99999999999999999999' is too large (at most 1000000)"},
        {"", "--n: expected an integer from 1 to 1000000, got ''"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ilpm_params *p = ilpm_params_new();
        ilpm_params_set(p, "n", bad[i][0]);
        ilpm_err err;
        void *inst;
        ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
        ck_assert_str_eq(err.msg, bad[i][1]);
        ilpm_params_free(p);
    }
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    void *inst;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 0);
    ilpm_params_free(p);
}
END_TEST

/* A hand-made board given to the verifier through a one-solution file. */
START_TEST(test_verifier_rejects_broken_boards)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "n", "4");
    ilpm_err err;
    void *inst;
    pz->from_params(p, &inst, &err);
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    int Q = ilpm_model_family_find(m, "Q");
    uint8_t vals[17];
    static const int boards[][4] = {
        {2, 4, 1, 3}, /* valid */
        {1, 1, 4, 2}, /* shared column */
        {1, 2, 4, 3}, /* diagonal */
        {2, 4, 1, 0}, /* empty row */
    };
    for (int b = 0; b < 4; b++) {
        memset(vals, 0, sizeof vals);
        for (int r = 1; r <= 4; r++)
            if (boards[b][r - 1])
                vals[ilpm_model_var(m, Q, r, boards[b][r - 1], 0, 0)] = 1;
        void *sol = pz->decode(inst, p, m, vals, &err);
        ck_assert_ptr_nonnull(sol);
        int rc = pz->verify(inst, p, sol, &err);
        ck_assert_int_eq(rc, b == 0 ? 0 : -1);
        if (b == 1)
            ck_assert_ptr_nonnull(strstr(err.msg, "share column 1"));
        if (b == 2)
            ck_assert_ptr_nonnull(strstr(err.msg, "share a diagonal"));
        if (b == 3) {
            ck_assert_ptr_nonnull(strstr(err.msg, "row 4 has no queen"));
            ilpm_buf out; /* a row without its queen renders empty */
            ilpm_buf_init(&out);
            pz->render(inst, sol, &out);
            ck_assert_str_eq(ilpm_buf_str(&out),
                             ". Q . .\n. . . Q\nQ . . .\n. . . .\n");
            ilpm_buf_free(&out);
        }
        if (b == 0) {
            ilpm_buf out;
            ilpm_buf_init(&out);
            pz->render_json(inst, sol, &out);
            ck_assert_str_eq(ilpm_buf_str(&out), "[2,4,1,3]");
            ilpm_buf_clear(&out);
            pz->render(inst, sol, &out);
            ck_assert_str_eq(ilpm_buf_str(&out),
                             ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
            ilpm_buf_free(&out);
        }
        pz->free_solution(sol);
    }
    ilpm_model_free(m);
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* --symmetry keeps one board of each mirror pair: half the count for
 * n >= 2 (n = 1 is its own mirror), on every back end but auto (its cubes
 * are tested in check_portfolio.c); the verifier refuses the mirror it
 * dropped, and a board with pre-placed queens is refused. */
START_TEST(test_symmetry_halves_counts)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "symmetry", "");
    ilpm_err err;
    for (int n = 1; n <= 10; n++) {
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        ilpm_params_set(p, "n", v);
        void *inst;
        ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
        long want = n == 1 ? 1 : known_count(n) / 2;
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            if (b == ILPM_BACKEND_AUTO || (b == ILPM_BACKEND_ILP && n > 8))
                continue;
            ilpm_result r;
            run_count(inst, p, (ilpm_backend)b, &r);
            ck_assert_msg(r.count == (uint64_t)want, "n=%d %s: %llu", n,
                          ilpm_backend_name(b), (unsigned long long)r.count);
            ck_assert(r.verified == (want > 0));
            ilpm_result_free(&r);
        }
        pz->free_instance(inst);
    }
    /* n = 5: [1,3,5,2,4] is kept, its mirror [5,3,1,4,2] is not; with row
     * 1 in the middle, [3,1,4,2,5] is kept, [3,5,2,4,1] is not */
    ilpm_params_set(p, "n", "5");
    void *inst;
    pz->from_params(p, &inst, &err);
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    int Q = ilpm_model_family_find(m, "Q");
    static const int boards[][5] = {
        {1, 3, 5, 2, 4}, {5, 3, 1, 4, 2}, {3, 1, 4, 2, 5}, {3, 5, 2, 4, 1}};
    for (int b = 0; b < 4; b++) {
        uint8_t vals[26] = {0};
        for (int r = 1; r <= 5; r++)
            vals[ilpm_model_var(m, Q, r, boards[b][r - 1], 0, 0)] = 1;
        ck_assert_int_eq(ilpm_model_check(m, vals, NULL), b % 2 == 0);
        void *sol = pz->decode(inst, p, m, vals, &err);
        ck_assert_int_eq(pz->verify(inst, p, sol, &err), b % 2 ? -1 : 0);
        pz->free_solution(sol);
    }
    ilpm_model_free(m);
    pz->free_instance(inst);
    /* pre-placed queens: refused, naming the option */
    ilpm_reader *rd = ilpm_reader_mem("board", "4\n1 2\n", 6);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "--symmetry"));
    ilpm_model_free(m);
    ilpm_reader_free(rd);
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("queens");
    TCase *tc = tcase_create("queens");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_counts_match_oeis);
    tcase_add_test(tc, test_progress_hook_and_count_complete);
    tcase_add_test(tc, test_completion_file);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_bad_params);
    tcase_add_test(tc, test_verifier_rejects_broken_boards);
    tcase_add_test(tc, test_symmetry_halves_counts);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
