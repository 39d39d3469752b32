/* The back-end registry: every back end of ilpm.h's ILPM_BACKENDS has its
 * name both ways, its help, a complete driver, and solves, counts and
 * stops through the one solver handle.  A back end added to the table is
 * tested here without a word added to this file. */
#include "backend.h"
#include "ilpm.h"
#include "ilpm_int.h"
#include "run.h"

#include "testutil.h"
#include <check.h>
#include <string.h>

static int Q; /* the family of the queens */

/* n queens: one per row and column, at most one per diagonal. */
static ilpm_model *queens(int n)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {1, 1}, hi[2] = {n, n};
    Q = ilpm_model_family(m, "Q", 2, lo, hi, 0, &err);
    int l[32];
    for (int r = 1; r <= n; r++) {
        for (int c = 1; c <= n; c++)
            l[c - 1] = ilpm_model_var(m, Q, r, c, 0, 0);
        ck_assert_int_eq(ilpm_add_exo(m, l, n, &err), 0);
    }
    for (int c = 1; c <= n; c++) {
        for (int r = 1; r <= n; r++)
            l[r - 1] = ilpm_model_var(m, Q, r, c, 0, 0);
        ck_assert_int_eq(ilpm_add_exo(m, l, n, &err), 0);
    }
    for (int d = -(n - 2); d <= n - 2; d++) {
        int k = 0;
        for (int r = 1; r <= n; r++)
            if (r + d >= 1 && r + d <= n)
                l[k++] = ilpm_model_var(m, Q, r, r + d, 0, 0);
        ck_assert_int_eq(ilpm_add_amo(m, l, k, &err), 0);
    }
    for (int a = 3; a <= 2 * n - 1; a++) {
        int k = 0;
        for (int r = 1; r <= n; r++)
            if (a - r >= 1 && a - r <= n)
                l[k++] = ilpm_model_var(m, Q, r, a - r, 0, 0);
        ck_assert_int_eq(ilpm_add_amo(m, l, k, &err), 0);
    }
    return m;
}

START_TEST(test_names_and_drivers)
{
    const ilpm_opt *row = ilpm_option_find("backend");
    const char *const *names = ilpm_enum_names("backend");
    ck_assert_ptr_nonnull(row);
    ck_assert_ptr_nonnull(names);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        const char *name = ilpm_backend_name((ilpm_backend)b);
        ck_assert_str_eq(names[b], name);
        ck_assert_int_eq(ilpm_backend_parse(name), b);
        ck_assert_uint_eq(ilpm_backend_set_parse(name), ILPM_BACKEND_BIT(b));
        ck_assert_str_eq(ilpm_backend_set_name(ILPM_BACKEND_BIT(b)), name);
        char paren[32];
        snprintf(paren, sizeof paren, "(%s)", name);
        ck_assert_msg(strstr(row->help, paren), "help lacks %s", paren);
        const ilpm_driver_ops *d = ilpm_backend_driver((ilpm_backend)b);
        ck_assert_ptr_nonnull(d);
        ck_assert_ptr_nonnull(d->create);
        ck_assert_ptr_nonnull(d->destroy);
        ck_assert_ptr_nonnull(d->solve);
        ck_assert_ptr_nonnull(d->add);
        ck_assert_int_eq(ilpm_backend_report((ilpm_backend)b), d->reports);
        for (int c = 0; c < b; c++)
            ck_assert_str_ne(name, ilpm_backend_name((ilpm_backend)c));
    }
    ck_assert_ptr_null(names[ILPM_BACKEND_COUNT]);
    ck_assert_str_eq(ilpm_backend_name(ILPM_BACKEND_COUNT), "unknown");
    ck_assert_int_eq(ilpm_backend_parse("both"), -1);
    ck_assert_uint_eq(ilpm_backend_set_parse("both"), ILPM_BACKENDS_BOTH);
    ck_assert_uint_eq(ilpm_backend_set_parse("all"), ILPM_BACKENDS_ALL);
    ck_assert_uint_eq(ilpm_backend_set_parse("none"), 0);
    ck_assert_str_eq(ilpm_backend_set_name(ILPM_BACKENDS_ALL), "all");
    ck_assert_int_eq(__builtin_popcount(ILPM_BACKENDS_ALL), ILPM_BACKEND_COUNT);
}
END_TEST

/* The propagation policy reaches the model layer from the driver. */
START_TEST(test_propagation_policy)
{
    ilpm_options o;
    ilpm_options_init(&o);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        int fix = ilpm_backend_driver((ilpm_backend)b)->fix_assumed;
        o.backend = (ilpm_backend)b;
        o.propagate = ILPM_PROP_AUTO;
        ck_assert_int_eq(ilpm_propagate_assumed_level(&o, fix),
                         fix ? ilpm_propagate_level(&o) : 0);
        o.propagate = ILPM_PROP_UNITS;
        ck_assert_int_eq(ilpm_propagate_assumed_level(&o, fix), 1);
    }
}
END_TEST

START_TEST(test_every_backend_solves)
{
    ilpm_model *m = queens(6);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        ilpm_err err = {0};
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_msg(s, "%s: %s", ilpm_backend_name(o.backend), err.msg);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        const uint8_t *v = ilpm_solver_values(s);
        ck_assert_ptr_nonnull(v);
        ck_assert_int_eq(ilpm_model_check(m, v, NULL), 1);
        /* The size columns its row says it fills (ilpm_size_columns) are
         * what it counted; the others stay out of its records. */
        const ilpm_stats *st = ilpm_solver_stats(s);
        ck_assert_int_eq(st->vars, 36);
        for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
            if (c->needs && ilpm_backend_fills(o.backend, c))
                ck_assert_msg(ilpm_size_value(st, c) > 0,
                              "%s reports %s but counted none",
                              ilpm_backend_name(o.backend), c->name);
        /* Under an assumption that leaves no 6-queens placement: queen
         * (1,1) is in none of the four. */
        int a = ilpm_model_var(m, Q, 1, 1, 0, 0);
        ck_assert_int_eq(ilpm_solver_solve(s, &a, 1, &err), ILPM_UNSAT);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_every_backend_counts)
{
    ilpm_model *m = queens(6);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        ilpm_err err = {0};
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        uint64_t n = 0;
        ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_msg(n == 4, "%s counted %llu", ilpm_backend_name(o.backend),
                      (unsigned long long)n);
        ck_assert_int_eq(ilpm_solver_count_complete(s), 1);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* Sets the stop flag from inside the search (a solution found). */
static int stop_now(void *ctx, const uint8_t *vals)
{
    (void)vals;
    *(volatile int *)ctx = 1;
    return 0;
}

START_TEST(test_every_backend_stops)
{
    ilpm_model *m = queens(6);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        const char *name = ilpm_backend_name((ilpm_backend)b);
        volatile int stop = 1;
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        o.stop_flag = &stop;
        ilpm_err err = {0};
        /* Stopped before anything is built. */
        ck_assert_ptr_null(ilpm_solver_new(m, &o, &err));
        ck_assert_msg(err.rc == ILPM_E_INTERRUPTED, "%s: %d", name,
                      (int)err.rc);
        /* Stopped before a solve and before a count. */
        stop = 0;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        stop = 1;
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_STOPPED);
        uint64_t n = 9;
        ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                         ILPM_STOPPED);
        ck_assert_uint_eq(n, 0);
        ilpm_solver_free(s);
        /* Stopped in the middle of a count: after the first solution. */
        stop = 0;
        s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        ck_assert_msg(ilpm_solver_count(s, 0, &n, stop_now, (void *)&stop,
                                        &err) == ILPM_STOPPED,
                      "%s went on counting", name);
        ck_assert_msg(n >= 1 && n < 4, "%s: %llu", name, (unsigned long long)n);
        ilpm_solver_free(s);
        /* A time limit that has passed before the driver starts. */
        o.stop_flag = NULL;
        o.time_limit = 1e-9;
        err.rc = ILPM_OK;
        s = ilpm_solver_new(m, &o, &err);
        if (s) {
            ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_TIMEOUT);
            ilpm_solver_free(s);
        } else {
            ck_assert_msg(err.rc == ILPM_E_TIMEOUT, "%s: %d", name,
                          (int)err.rc);
        }
    }
    ilpm_model_free(m);
}
END_TEST

/* Every back end stops at a deadline in the middle of a long search,
 * promptly: counting the 365596 placements of 14 queens takes each of
 * them far longer than the limit. */
START_TEST(test_every_backend_stops_at_the_deadline)
{
    ilpm_model *m = queens(14);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        const char *name = ilpm_backend_name((ilpm_backend)b);
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        o.time_limit = 0.3;
        ilpm_err err = {0};
        double t0 = ilpm_now();
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_msg(s, "%s: %s", name, err.msg);
        uint64_t n = 0;
        ilpm_status st = ilpm_solver_count(s, 0, &n, NULL, NULL, &err);
        double t = ilpm_now() - t0;
        ck_assert_msg(st == ILPM_TIMEOUT, "%s: %s after %llu", name,
                      ilpm_status_name(st), (unsigned long long)n);
        ck_assert_int_eq(ilpm_solver_count_complete(s), 0);
        ck_assert(n < 365596);
        /* Generous: the machine may be loaded; a search that did not
         * stop would run for minutes. */
        ck_assert_msg(t < 5.0, "%s stopped after %.2f s", name, t);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_names_and_drivers);
    tcase_add_test(tc, test_propagation_policy);
    tcase_add_test(tc, test_every_backend_solves);
    tcase_add_test(tc, test_every_backend_counts);
    tcase_add_test(tc, test_every_backend_stops);
    tcase_add_test(tc, test_every_backend_stops_at_the_deadline);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
