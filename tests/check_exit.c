/* The exit statuses (src/cli/exit.c) against the table README.md
 * documents: every status of a result and every kind of failure maps to
 * its code, under --format dimacs too, and over several outcomes the most
 * severe wins in the order the README gives, which this test reads from
 * README.md itself. */
#include "batch.h"
#include "cli.h"

#include "testutil.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

/* What main.c defines; exit.c never reads it. */
volatile int cli_stop_requested;

/* README's code for each status of a result (an error by its kind
 * below), ilpm's and under --format dimacs. */
static const struct {
    ilpm_status st;
    int code, dimacs;
} by_status[] = {
    {ILPM_SOLVED, 0, 10}, {ILPM_OPTIMAL, 0, 30}, {ILPM_FEASIBLE, 3, 10},
    {ILPM_UNSAT, 10, 20}, {ILPM_TIMEOUT, 3, 0},  {ILPM_STOPPED, 130, 130},
    {ILPM_ERROR, -1, -1}, /* by its kind */
};

/* Errors, by kind: a result's and a failure's (without and with
 * --memory-limit, which out of memory is then blamed on). */
static const struct {
    ilpm_rc kind;
    int code, limited;
} by_kind[] = {
    {ILPM_E_INPUT, 2, 2},
    {ILPM_E_LIMIT, 2, 2},
    {ILPM_E_NOMEM, 1, 2},
    {ILPM_E_FAIL, 1, 1},
};

START_TEST(test_result_codes)
{
    ck_assert_int_eq(sizeof by_status / sizeof *by_status, ILPM_STATUS_COUNT);
    for (size_t i = 0; i < sizeof by_status / sizeof *by_status; i++) {
        ilpm_result r;
        ilpm_result_init(&r);
        r.status = by_status[i].st;
        for (size_t k = 0; k < sizeof by_kind / sizeof *by_kind; k++) {
            r.error_kind = by_kind[k].kind;
            int want =
                by_status[i].code < 0 ? by_kind[k].code : by_status[i].code;
            int dimacs =
                by_status[i].dimacs < 0 ? by_kind[k].code : by_status[i].dimacs;
            ck_assert_int_eq(ilpm_cli_exit_code(&r, FMT_TEXT), want);
            ck_assert_int_eq(ilpm_cli_exit_code(&r, FMT_JSON), want);
            ck_assert_int_eq(ilpm_cli_exit_code(&r, FMT_DIMACS), dimacs);
            /* A MathProg check that failed on the answer: the input's. */
            snprintf(r.postsolve_error, sizeof r.postsolve_error, "x");
            ck_assert_int_eq(ilpm_cli_exit_code(&r, FMT_TEXT), 2);
            ck_assert_int_eq(ilpm_cli_exit_code(&r, FMT_DIMACS), 2);
            r.postsolve_error[0] = '\0';
        }
        ilpm_result_free(&r);
    }
}
END_TEST

START_TEST(test_failure_codes)
{
    cli c;
    memset(&c, 0, sizeof c);
    for (size_t k = 0; k < sizeof by_kind / sizeof *by_kind; k++) {
        ilpm_err e = {0};
        e.rc = by_kind[k].kind;
        c.memory_limit = 0;
        ck_assert_int_eq(ilpm_cli_err_exit(&c, &e), by_kind[k].code);
        c.memory_limit = 100;
        ck_assert_int_eq(ilpm_cli_err_exit(&c, &e), by_kind[k].limited);
    }
    /* Cut short by a time limit or a stop; an output that could not be
     * written is not the input's. */
    ilpm_err e = {0};
    e.rc = ILPM_E_TIMEOUT;
    ck_assert_int_eq(ilpm_cli_err_exit(&c, &e), 3);
    e.rc = ILPM_E_INTERRUPTED;
    ck_assert_int_eq(ilpm_cli_err_exit(&c, &e), 130);
    e.rc = ILPM_E_IO;
    ck_assert_int_eq(ilpm_cli_err_exit(&c, &e), 1);
    /* A failure that names no rc is the input's. */
    e.rc = ILPM_OK;
    ck_assert_int_eq(ilpm_cli_err_exit(&c, &e), 2);
    ck_assert_str_eq(ilpm_cli_err_note(&c, ILPM_E_INPUT), "");
    ck_assert_str_ne(ilpm_cli_err_note(&c, ILPM_E_NOMEM), "");
    c.memory_limit = 0;
    ck_assert_str_eq(ilpm_cli_err_note(&c, ILPM_E_NOMEM), "");
}
END_TEST

/* "the most severe status wins, in the order 1, 2, 130, 3, 10, 0", as
 * README.md says it: the codes, most severe first. */
static int readme_order(int *order, int max)
{
    FILE *f = fopen("README.md", "rb");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *p = strstr(text, "most severe status wins, in");
    ck_assert_ptr_nonnull(p);
    p = strstr(p, "the order ");
    ck_assert_ptr_nonnull(p);
    p += strlen("the order ");
    int k = 0;
    for (char *end; k < max && *p != '.'; p = end) {
        order[k++] = (int)strtol(p, &end, 10);
        ck_assert_ptr_ne(end, p);
        end += strspn(end, ", ");
    }
    return k;
}

START_TEST(test_most_severe)
{
    int order[8];
    int n = readme_order(order, 8);
    ck_assert_int_eq(n, 6);
    /* Every pair, either way round: the one earlier in the order. */
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            tally t = {order[a], 0};
            ilpm_cli_note_exit(&t, order[b]);
            ck_assert_int_eq(t.worst, order[a < b ? a : b]);
        }
    /* Under dimacs: unknown, then unsatisfiable, then satisfiable, then
     * optimum found. */
    static const int dimacs[4] = {0, 20, 10, 30};
    for (int a = 0; a < 4; a++) {
        ck_assert_int_eq(ilpm_cli_dimacs_worse(-1, dimacs[a]), dimacs[a]);
        for (int b = 0; b < 4; b++)
            ck_assert_int_eq(ilpm_cli_dimacs_worse(dimacs[a], dimacs[b]),
                             dimacs[a < b ? a : b]);
    }
}
END_TEST

/* A batch: its rows' statuses, new and kept by --resume, the input
 * errors among its errors, and an interruption. */
START_TEST(test_batch_codes)
{
    ilpm_batch_summary s;
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 0), 0);
    s.kept_by_status[ILPM_UNSAT] = 1;
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 0), 10);
    s.by_status[ILPM_FEASIBLE] = 1;
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 0), 3);
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 1), 130);
    s.postsolve_errors = 1;
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 1), 2);
    s.postsolve_errors = 0;
    /* An error row of a bad input is the input's; any other, ilpm's. */
    s.by_status[ILPM_ERROR] = 1;
    s.input_errors = 1;
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 1), 2);
    s.kept_by_status[ILPM_ERROR] = 1;
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 0), 1);
    s.kept_input_errors = 1;
    ck_assert_int_eq(ilpm_cli_batch_exit(&s, 0), 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("exit");
    TCase *tc = tcase_create("exit");
    tcase_add_test(tc, test_result_codes);
    tcase_add_test(tc, test_failure_codes);
    tcase_add_test(tc, test_most_severe);
    tcase_add_test(tc, test_batch_codes);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
