/* The back-end registry: every back end of backends.h's ILPM_BACKENDS has
 * its name both ways, its help, a complete driver, its own option rows, and
 * solves, counts and stops through the one solver handle.  A back end added to
 * the table is tested here without a word added to this file. */
#include "backend.h"
#include "cp_opts.h"
#include "glpk_int.h"
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
    int owner = 0;
    const ilpm_opt *row = ilpm_option_find("backend", &owner);
    ck_assert_ptr_nonnull(row);
    ck_assert_int_eq(owner, -1);
    const char *const *names = row->choices;
    ck_assert_ptr_nonnull(names);
    ck_assert_int_eq(ilpm_backend_count(), ILPM_BACKEND_COUNT);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        const char *name = ilpm_backend_name((ilpm_backend)b);
        ck_assert_str_eq(names[b], name);
        ck_assert_int_eq(ilpm_backend_find(name), b);
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
        /* Its own rows, which the command line walks. */
        ck_assert_ptr_eq(ilpm_backend_options(b), d->opts);
        for (int c = 0; c < b; c++)
            ck_assert_str_ne(name, ilpm_backend_name((ilpm_backend)c));
    }
    /* then auto, the run layer's portfolio, which is no back end */
    ck_assert_str_eq(names[ILPM_BACKEND_COUNT], "auto");
    ck_assert_ptr_null(names[ILPM_BACKEND_COUNT + 1]);
    ck_assert_str_eq(ilpm_backend_name(ILPM_BACKEND_COUNT), "auto");
    ck_assert_int_eq(ilpm_backend_find("auto"), -1);
    ck_assert_str_eq(ilpm_backend_name(ILPM_BACKEND_COUNT + 1), "unknown");
    ck_assert_int_eq(ilpm_backend_find("both"), -1);
    ck_assert_ptr_null(ilpm_backend_options(ILPM_BACKEND_COUNT));
    ck_assert_uint_eq(ilpm_backend_set_parse("both"), ILPM_BACKENDS_BOTH);
    ck_assert_uint_eq(ilpm_backend_set_parse("all"), ILPM_BACKENDS_ALL);
    ck_assert_uint_eq(ilpm_backend_set_parse("none"), 0);
    ck_assert_str_eq(ilpm_backend_set_name(ILPM_BACKENDS_ALL), "all");
    ck_assert_int_eq(__builtin_popcount(ILPM_BACKENDS_ALL), ILPM_BACKEND_COUNT);
}
END_TEST

/* A back end's option is set by name, as a shared one is, into that
 * back end's own area of ilpm_options; the others' areas stay as they
 * were; a bad value leaves o unchanged. */
START_TEST(test_backend_options_by_name)
{
    ilpm_options o, def;
    ilpm_options_init(&def);
    o = def;
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_options_set(&o, "cuts", "all", &err), 0);
    ck_assert_int_eq(ilpm_glpk_opts_of(&o)->cuts, ILPM_CUTS_ALL);
    ck_assert_int_eq(ilpm_options_set(&o, "no-presolve", NULL, &err), 0);
    ck_assert_int_eq(ilpm_glpk_opts_of(&o)->presolve, 0);
    ck_assert_int_eq(ilpm_options_set(&o, "amo", "seq", &err), 0);
    ck_assert_int_eq(ilpm_sat_opts_of(&o)->amo, ILPM_AMO_SEQ);
    ck_assert_int_eq(ilpm_options_set(&o, "sat-option", "phase=0", &err), 0);
    ck_assert_str_eq(ilpm_sat_opts_of(&o)->sat_options, "phase=0");
    ck_assert_int_eq(ilpm_options_set(&o, "lookahead", "5", &err), 0);
    ck_assert_int_eq(ilpm_cp_opts_of(&o)->lookahead, 5);
    ck_assert_int_eq(ilpm_options_set(&o, "search", "input", &err), 0);
    ck_assert_int_eq(ilpm_cp_opts_of(&o)->search, ILPM_SEARCH_INPUT);
    ck_assert_int_eq(ilpm_options_set(&o, "backend", "cp", &err), 0);
    ck_assert_int_eq(o.backend, ILPM_BACKEND_CP);
    ck_assert_int_eq(o.backend, ilpm_backend_find("cp"));
    /* The shared part is untouched by the back ends' options. */
    ck_assert(o.time_limit == def.time_limit);
    ck_assert_int_eq(o.max_vars, def.max_vars);
    char got[32];
    ck_assert_int_eq(ilpm_options_get(&o, "cuts", got, sizeof got), 0);
    ck_assert_str_eq(got, "all");
    ck_assert_int_eq(ilpm_options_get(&o, "lookahead", got, sizeof got), 0);
    ck_assert_str_eq(got, "5");
    ck_assert_int_eq(ilpm_options_get(&o, "no-presolve", got, sizeof got), 0);
    ck_assert_str_eq(got, "1");
    /* Refused: a bad value (o unchanged) and a name no table has. */
    ilpm_options before = o;
    ck_assert_int_eq(ilpm_options_set(&o, "card", "ladder", &err), -1);
    ck_assert_str_eq(err.msg,
                     "--card: expected one of seq, totalizer, got 'ladder'");
    ck_assert_int_eq(ilpm_options_set(&o, "lookahead", "-1", &err), -1);
    ck_assert_int_eq(memcmp(&o, &before, sizeof o), 0);
    ck_assert_int_eq(ilpm_options_set(&o, "gomory", "1", &err), -1);
    ck_assert_str_eq(err.msg, "unknown option '--gomory'");
    /* Each row is found in its own back end's table alone. */
    int owner;
    ck_assert_ptr_nonnull(ilpm_option_find("cuts", &owner));
    ck_assert_int_eq(owner, ILPM_BACKEND_ILP);
    ck_assert_ptr_nonnull(ilpm_option_find("max-pb-nodes", &owner));
    ck_assert_int_eq(owner, ILPM_BACKEND_SAT);
    ck_assert_ptr_nonnull(ilpm_option_find("learn", &owner));
    ck_assert_int_eq(owner, ILPM_BACKEND_CP);
    ck_assert_ptr_null(
        ilpm_opt_find(ilpm_backend_options(ILPM_BACKEND_SAT), "cuts"));
    ck_assert_ptr_null(ilpm_opt_find(ilpm_options_table(), "amo"));
    /* A copy carries the back ends' options (drivers copy them). */
    ilpm_options copy = o;
    ck_assert_int_eq(ilpm_glpk_opts_of(&copy)->cuts, ILPM_CUTS_ALL);
    ck_assert_str_eq(ilpm_sat_opts_of(&copy)->sat_options, "phase=0");
}
END_TEST

/* Each back end's defaults, as ilpm_options_init sets them from its
 * rows. */
START_TEST(test_backend_defaults)
{
    ilpm_options o;
    ilpm_options_init(&o);
    ck_assert_int_eq(o.backend, ILPM_BACKEND_ILP);
    const ilpm_glpk_opts *g = ilpm_glpk_opts_of(&o);
    ck_assert_int_eq(g->cuts, ILPM_CUTS_DEFAULT);
    ck_assert_int_eq(g->branch, ILPM_BRANCH_AUTO);
    ck_assert_int_eq(g->backtrack, ILPM_BACKTRACK_AUTO);
    ck_assert_int_eq(g->presolve, 1);
    const ilpm_sat_opts *t = ilpm_sat_opts_of(&o);
    ck_assert_int_eq(t->amo, ILPM_AMO_AUTO);
    ck_assert_int_eq(t->card, ILPM_CARD_SEQ);
    ck_assert_int_eq(t->max_pb_nodes, 2000000);
    ck_assert_ptr_null(t->sat_options);
    const ilpm_cp_opts *c = ilpm_cp_opts_of(&o);
    ck_assert_int_eq(c->search, ILPM_SEARCH_ACTIVITY);
    ck_assert_int_eq(c->learn, ILPM_LEARN_AUTO);
    ck_assert_int_eq(c->lookahead, 0);
    /* Every back end's area holds what its rows' defaults give. */
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_backend_opts area;
        memset(&area, 0, sizeof area);
        ilpm_err err = {0};
        ck_assert_int_eq(
            ilpm_opt_defaults(ilpm_backend_options(b), &area, &err), 0);
        ck_assert_msg(memcmp(&area, ilpm_backend_area(&o, b), sizeof area) == 0,
                      "%s: defaults differ", ilpm_backend_name(b));
    }
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
 * promptly: counting the 14772512 placements of 16 queens takes each of
 * them far longer than the limit (cp's count by exact cover does 14
 * queens' 365596 in about 0.5 s). */
START_TEST(test_every_backend_stops_at_the_deadline)
{
    ilpm_model *m = queens(16);
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
        ck_assert(n < 14772512);
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
    tcase_add_test(tc, test_backend_options_by_name);
    tcase_add_test(tc, test_backend_defaults);
    tcase_add_test(tc, test_every_backend_solves);
    tcase_add_test(tc, test_every_backend_counts);
    tcase_add_test(tc, test_every_backend_stops);
    tcase_add_test(tc, test_every_backend_stops_at_the_deadline);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
