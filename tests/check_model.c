/* Tests of the constraint-builder layer (src/model): families, names,
 * groups, constraint storage, misuse reported as errors, the checker. */
#include "ilpm_int.h"

#include "testutil.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ilpm_model *m;
static ilpm_err err;

static void setup(void)
{
    m = ilpm_model_new();
    memset(&err, 0, sizeof err);
}

static void teardown(void)
{
    ilpm_model_free(m);
}

START_TEST(test_family_ids_and_names)
{
    int lo[3] = {1, 1, 1}, hi[3] = {4, 2, 8};
    int X = ilpm_model_family(m, "X", 3, lo, hi, 0, &err);
    ck_assert_int_eq(X, 0);
    ck_assert_int_eq(ilpm_model_nvars(m), 64);
    int lo2[1] = {-2}, hi2[1] = {2};
    int Y = ilpm_model_family(m, "Y", 1, lo2, hi2, ILPM_FAM_AUX, &err);
    ck_assert_int_eq(Y, 1);
    ck_assert_int_eq(ilpm_model_nvars(m), 69);
    ck_assert_int_eq(ilpm_model_var(m, X, 1, 1, 1, 0), 1);
    ck_assert_int_eq(ilpm_model_var(m, X, 4, 2, 8, 0), 64);
    ck_assert_int_eq(ilpm_model_var(m, Y, -2, 0, 0, 0), 65);
    ck_assert_int_eq(ilpm_model_var(m, X, 5, 1, 1, 0), 0);
    char buf[64];
    ck_assert_str_eq(ilpm_model_var_name(m, ilpm_model_var(m, X, 1, 2, 3, 0),
                                         buf, sizeof buf),
                     "X[1,2,3]");
    ck_assert_str_eq(ilpm_model_var_name(m, 65, buf, sizeof buf), "Y[-2]");
    ck_assert_int_eq(ilpm_model_var_is_aux(m, 65), 1);
    ck_assert_int_eq(ilpm_model_var_is_aux(m, 64), 0);
    /* the aux marks a family at a time: the same as per variable, and
     * a third family (not aux) after Y left unmarked */
    int lo3[1] = {1}, hi3[1] = {3};
    ck_assert_int_eq(ilpm_model_family(m, "W", 1, lo3, hi3, 0, &err), 2);
    uint8_t mark[73] = {0};
    ck_assert_int_eq(ilpm_model_aux_mark(m, mark), 5);
    ck_assert_int_eq(ilpm_model_aux_mark(m, NULL), 5);
    for (int v = 1; v <= 72; v++)
        ck_assert_int_eq(mark[v], ilpm_model_var_is_aux(m, v));
    ck_assert_int_eq(mark[0], 0);
    ck_assert_int_eq(ilpm_model_family_find(m, "Y"), Y);
    ck_assert_int_eq(ilpm_model_family_find(m, "Z"), -1);
    /* Every variable's name maps back to itself. */
    for (int v = 1; v <= 64; v++) {
        int i, j, k;
        ilpm_model_var_name(m, v, buf, sizeof buf);
        ck_assert_int_eq(sscanf(buf, "X[%d,%d,%d]", &i, &j, &k), 3);
        ck_assert_int_eq(ilpm_model_var(m, X, i, j, k, 0), v);
    }
}
END_TEST

START_TEST(test_family_misuse)
{
    int lo[1] = {1}, hi[1] = {0};
    ck_assert_int_eq(ilpm_model_family(m, "E", 1, lo, hi, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "empty range"));
    int hi2[1] = {3};
    ck_assert_int_eq(ilpm_model_family(m, "bad name", 1, lo, hi2, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "family name"));
    ck_assert_int_eq(ilpm_model_family(m, "A", 5, lo, hi2, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "dimensions"));
    ck_assert_int_eq(ilpm_model_family(m, "A", 1, lo, hi2, 0, &err), 0);
    ck_assert_int_eq(ilpm_model_family(m, "A", 1, lo, hi2, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "twice"));
    int big_lo[4] = {1, 1, 1, 1}, big_hi[4] = {100000, 100000, 10, 10};
    ck_assert_int_eq(ilpm_model_family(m, "B", 4, big_lo, big_hi, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "too large"));
    int idx[1] = {7};
    ck_assert_int_eq(ilpm_model_var_checked(m, 0, idx, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "outside 1..3"));
}
END_TEST

START_TEST(test_constraints_and_groups)
{
    int lo[1] = {1}, hi[1] = {5};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ck_assert_int_eq(ilpm_model_group(m, "first", &err), 0);
    int l[3] = {1, -2, 3};
    ck_assert_int_eq(ilpm_add_clause(m, l, 3, &err), 0);
    ck_assert_int_eq(ilpm_model_group(m, "second", &err), 1);
    int64_t c[3] = {2, -3, 5};
    ck_assert_int_eq(ilpm_add_linear(m, c, l, 3, ILPM_LE, 4, &err), 0);
    ck_assert_int_eq(ilpm_add_ccard(m, -4, l, 3, ILPM_GE, 2, &err), 0);
    ck_assert_int_eq(ilpm_model_group(m, "first", &err), 0);
    /* The current group again (its fast path), then a bad name and
     * none, refused while a group is current. */
    ck_assert_int_eq(ilpm_model_group(m, "first", &err), 0);
    ck_assert_int_lt(ilpm_model_group(m, "no such", &err), 0);
    ck_assert_int_lt(ilpm_model_group(m, NULL, &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, 4, -5, &err), 0);
    ck_assert_int_eq((int)ilpm_model_ncons(m), 4);
    ck_assert_int_eq(ilpm_model_ngroups(m), 2);
    ilpm_con con;
    ilpm_model_con(m, 1, &con);
    ck_assert_int_eq(con.kind, ILPM_LINEAR);
    ck_assert_int_eq(con.group, 1);
    ck_assert_int_eq(con.n, 3);
    ck_assert_int_eq((int)con.coefs[1], -3);
    ck_assert_int_eq((int)con.rhs, 4);
    ilpm_model_con(m, 2, &con);
    ck_assert_int_eq(con.kind, ILPM_CCARD);
    ck_assert_int_eq(con.cond, -4);
    ck_assert_int_eq((int)con.coefs[2], 1);
    ilpm_model_con(m, 3, &con);
    ck_assert_int_eq(con.kind, ILPM_IMPL);
    ck_assert_int_eq(con.group, 0);
    ck_assert_str_eq(ilpm_model_group_name(m, 1), "second");
}
END_TEST

START_TEST(test_constraint_misuse)
{
    int lo[1] = {1}, hi[1] = {3};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int l[2] = {1, 4};
    ck_assert_int_eq(ilpm_add_clause(m, l, 2, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "literal 4"));
    int z[1] = {0};
    ck_assert_int_eq(ilpm_add_amo(m, z, 1, &err), -1);
    ck_assert_int_eq(ilpm_add_exo(m, l, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "empty"));
    int ok[2] = {1, 2};
    int64_t big[2] = {(int64_t)1 << 45, 1};
    ck_assert_int_eq(ilpm_add_linear(m, big, ok, 2, ILPM_LE, 1, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "overflows"));
    ck_assert_int_eq(ilpm_add_ccard(m, 0, ok, 2, ILPM_LE, 1, &err), -1);
    ck_assert_int_eq(ilpm_add_card(m, ok, 2, (ilpm_cmp)7, 1, &err), -1);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MAXIMIZE, NULL, l, 2, &err),
                     -1);
    ck_assert_int_eq((int)ilpm_model_ncons(m), 0);
}
END_TEST

START_TEST(test_check_and_objective)
{
    int lo[1] = {1}, hi[1] = {3};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int l[3] = {1, 2, 3};
    ilpm_add_card(m, l, 3, ILPM_EQ, 2, &err);
    int64_t c[3] = {1, 2, 4};
    ilpm_model_objective(m, ILPM_MAXIMIZE, c, l, 3, &err);
    uint8_t v[4] = {0, 1, 1, 0};
    ck_assert_int_eq(ilpm_model_check(m, v, NULL), 1);
    ck_assert_int_eq((int)ilpm_model_objective_value(m, v), 3);
    uint8_t w[4] = {0, 1, 1, 1};
    ck_assert_int_eq(ilpm_model_check(m, w, NULL), 0);
    /* ilpm.h: *bad is the first constraint broken. */
    int l2[2] = {-1, -2};
    ilpm_add_clause(m, l2, 2, &err);
    size_t bad = 9;
    ck_assert_int_eq(ilpm_model_check(m, v, &bad), 0);
    ck_assert_int_eq((int)bad, 1);
    ck_assert_int_eq(ilpm_model_check(m, w, &bad), 0);
    ck_assert_int_eq((int)bad, 0);
    uint8_t y[4] = {0, 0, 1, 1};
    ck_assert_int_eq(ilpm_model_check(m, y, &bad), 1);
}
END_TEST

/* A model whose deadline has passed refuses every further constraint,
 * and says it was cut short rather than failing. */
START_TEST(test_interrupted_build)
{
    int lo[1] = {1}, hi[1] = {4};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int l[4] = {1, 2, 3, 4};
    ck_assert_int_eq(ilpm_add_exo(m, l, 4, &err), 0);
    ilpm_err e2 = {0};
    ck_assert_int_eq(ilpm_model_cut_short(m, &e2), 0);
    ck_assert_int_eq(e2.rc, ILPM_OK);
    ilpm_model_set_deadline(m, ilpm_now() + 1e-9, NULL);
    ck_assert_int_eq(ilpm_add_exo(m, l, 4, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "time limit reached while building"));
    ck_assert_int_eq(ilpm_model_cut_short(m, &e2), -1);
    ck_assert_int_eq(e2.rc, ILPM_E_TIMEOUT);
    /* Sticky: the next call fails at once, clock or not. */
    ck_assert_int_eq(ilpm_add_clause(m, l, 2, &err), -1);
    ck_assert_int_eq(ilpm_model_ncons(m), 1);
    /* An ordinary error afterwards is of its own kind. */
    ilpm_err_input(&err, "plain");
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);

    volatile int stop = 0;
    ilpm_model_set_deadline(m, 0, &stop);
    ck_assert_int_eq(ilpm_add_amo(m, l, 4, &err), 0);
    stop = 1;
    for (int i = 0; i < 300 && ilpm_add_amo(m, l, 4, &err) == 0; i++)
        ;
    ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
    ck_assert_int_eq(ilpm_model_cut_short(m, &e2), -1);
    ck_assert_int_eq(e2.rc, ILPM_E_INTERRUPTED);
    ck_assert_ptr_nonnull(strstr(e2.msg, "stopped while building"));
}
END_TEST

/* Lowering a model past the deadline: both back ends give up with
 * err.rc ILPM_E_TIMEOUT, and a stop flag gives ILPM_E_INTERRUPTED. */
START_TEST(test_interrupted_lowering)
{
    int n = 300;
    int lo[2] = {1, 1}, hi[2] = {n, n};
    ilpm_model_family(m, "q", 2, lo, hi, 0, &err);
    int *l = malloc((size_t)n * sizeof *l);
    for (int r = 1; r <= n; r++) {
        for (int c = 1; c <= n; c++)
            l[c - 1] = ilpm_model_var(m, 0, r, c, 0, 0);
        ck_assert_int_eq(ilpm_add_exo(m, l, n, &err), 0);
        for (int c = 1; c <= n; c++)
            l[c - 1] = ilpm_model_var(m, 0, c, r, 0, 0);
        ck_assert_int_eq(ilpm_add_exo(m, l, n, &err), 0);
    }
    free(l);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        o.time_limit = 1e-9;
        ilpm_err e = {0};
        ck_assert_ptr_null(ilpm_solver_new(m, &o, &e));
        ck_assert_msg(e.rc == ILPM_E_TIMEOUT, "%s: status %d, %s",
                      ilpm_backend_name(o.backend), (int)e.rc, e.msg);
        volatile int stop = 1;
        o.time_limit = 0;
        o.stop_flag = &stop;
        memset(&e, 0, sizeof e);
        ck_assert_ptr_null(ilpm_solver_new(m, &o, &e));
        ck_assert_int_eq(e.rc, ILPM_E_INTERRUPTED);
        /* Without limits the same model lowers and solves. */
        o.stop_flag = NULL;
        ilpm_solver *s = ilpm_solver_new(m, &o, &e);
        ck_assert_msg(s != NULL, "%s", e.msg);
        ilpm_solver_free(s);
    }
}
END_TEST

/* The option rows are the one description of ilpm_options: the shared
 * table and each back end's own (backend->opts, their fields in its area
 * of ilpm_options).  Every row's default, given as the option by name, is
 * what ilpm_options_init sets; every choice sets its own value; bad
 * values leave o as it was; ilpm_options_get gives back what was set. */
static void check_rows(const ilpm_opt *table, int backend, int *rows)
{
    ilpm_options def, o;
    ilpm_options_init(&def);
    for (const ilpm_opt *r = table; r && r->name; r++) {
        (*rows)++;
        int owner = -2;
        ck_assert_ptr_eq(ilpm_option_find(r->name, &owner), r);
        ck_assert_int_eq(owner, backend);
        o = def;
        char *base =
            backend < 0 ? (char *)&o : (char *)ilpm_backend_area(&o, backend);
        ilpm_err err;
        char got[64];
        if (r->def) {
            ck_assert_msg(ilpm_options_set(&o, r->name, r->def, &err) == 0,
                          "%s", err.msg);
            ck_assert_msg(memcmp(&o, &def, sizeof o) == 0,
                          "--%s %s is not the default", r->name, r->def);
            ck_assert_int_eq(ilpm_options_get(&o, r->name, got, sizeof got), 0);
            if (r->type == ILPM_OPT_CHOICE || r->type == ILPM_OPT_INT)
                ck_assert_str_eq(got, r->def);
        }
        if (r->type == ILPM_OPT_CHOICE || r->type == ILPM_OPT_INT ||
            r->type == ILPM_OPT_REAL) {
            ck_assert_msg(r->type != ILPM_OPT_CHOICE || r->def,
                          "--%s has no default", r->name);
            ck_assert_int_eq(ilpm_options_set(&o, r->name, "bogus", &err), -1);
            ck_assert_msg(memcmp(&o, &def, sizeof o) == 0,
                          "a bad --%s changed the options", r->name);
            ck_assert_ptr_nonnull(strstr(err.msg, "got 'bogus'"));
        }
        if (r->type == ILPM_OPT_CHOICE) {
            for (int i = 0; r->choices[i]; i++) {
                ck_assert_int_eq(
                    ilpm_options_set(&o, r->name, r->choices[i], &err), 0);
                ck_assert_int_eq(*(int *)(base + r->offset), i);
                ilpm_options_get(&o, r->name, got, sizeof got);
                ck_assert_str_eq(got, r->choices[i]);
            }
        }
        if (r->type == ILPM_OPT_FLAG) {
            int off = (r->flags & ILPM_OPT_OFF) != 0;
            ck_assert_int_eq(*(int *)(base + r->offset), off);
            ck_assert_int_eq(ilpm_options_set(&o, r->name, "1", &err), -1);
            char want[96];
            snprintf(want, sizeof want, "option --%s takes no value", r->name);
            ck_assert_str_eq(err.msg, want);
            ilpm_options_get(&o, r->name, got, sizeof got);
            ck_assert_str_eq(got, "0");
            ck_assert_int_eq(ilpm_options_set(&o, r->name, NULL, &err), 0);
            ck_assert_int_eq(*(int *)(base + r->offset), !off);
            ilpm_options_get(&o, r->name, got, sizeof got);
            ck_assert_str_eq(got, "1");
        }
    }
}

START_TEST(test_options_table)
{
    ilpm_options def, o;
    ilpm_options_init(&def);
    o = def;
    int rows = 0;
    check_rows(ilpm_options_table(), -1, &rows);
    for (int b = 0; b < ilpm_backend_count(); b++)
        check_rows(ilpm_backend_options(b), b, &rows);
    ck_assert_int_ge(rows, 17);
    ck_assert_str_eq(ilpm_status_name(ILPM_ERROR), "error");
    ck_assert_str_eq(ilpm_status_name(ILPM_STATUS_COUNT), "unknown");
    ck_assert_int_eq(ilpm_options_set(&o, "max-vars", "0", NULL), -1);
    ck_assert_int_eq(ilpm_options_set(&o, "time-limit", "-1", NULL), -1);
    ck_assert_int_eq(ilpm_options_set(&o, "nonsense", "1", NULL), -1);
    char got[16];
    ck_assert_int_eq(ilpm_options_get(&o, "nonsense", got, sizeof got), -1);
    ck_assert_ptr_null(ilpm_option_find("nonsense", NULL));
    /* A machine's default, not a row's. */
    ck_assert_ptr_null(ilpm_option_find("max-memory", NULL)->def);
    ck_assert_int_ge(def.max_memory_mb, 16);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("model");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_family_ids_and_names);
    tcase_add_test(tc, test_family_misuse);
    tcase_add_test(tc, test_constraints_and_groups);
    tcase_add_test(tc, test_constraint_misuse);
    tcase_add_test(tc, test_check_and_objective);
    tcase_add_test(tc, test_interrupted_build);
    tcase_add_test(tc, test_interrupted_lowering);
    tcase_add_test(tc, test_options_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
