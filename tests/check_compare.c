/* The compare verb's library side: the totals over many comparisons
 * (counts by status, total and median solve times, mean sizes) on
 * comparisons made by hand, on real ones, and their three renderings.
 * Runs from the source root. */
#include "compare.h"
#include "puzzles.h"

#include <check.h>
#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A comparison of nforms formulations (names a, b, ...), ILP then SAT
 * for each, with the given statuses and solve times; every run is sized
 * with vars = 10 * (run + 1), rows on ILP and clauses on SAT. */
static void fake(ilpm_comparison *c, int nforms, const ilpm_status *st,
                 const double *ms)
{
    memset(c, 0, sizeof *c);
    snprintf(c->instance, sizeof c->instance, "fake");
    c->nforms = nforms;
    c->nresults = 2 * nforms;
    c->forms = calloc((size_t)nforms, sizeof *c->forms);
    c->results = calloc((size_t)c->nresults, sizeof *c->results);
    ck_assert_ptr_nonnull(c->forms);
    ck_assert_ptr_nonnull(c->results);
    for (int f = 0; f < nforms; f++)
        snprintf(c->forms[f].name, sizeof c->forms[f].name, "%c", 'a' + f);
    for (int i = 0; i < c->nresults; i++) {
        ilpm_result *r = &c->results[i];
        ilpm_result_init(r);
        snprintf(r->puzzle, sizeof r->puzzle, "fake");
        r->backend = i % 2 ? ILPM_BACKEND_SAT : ILPM_BACKEND_ILP;
        r->status = st[i];
        r->solve_ms = ms[i];
        r->have_stats = st[i] != ILPM_ERROR;
        r->stats.vars = 10 * (i + 1);
        if (i % 2)
            r->stats.clauses = 100;
        else
            r->stats.rows = 7;
    }
}

START_TEST(test_summary_counts_times_and_sizes)
{
    ilpm_cmp_summary s;
    ilpm_cmp_summary_init(&s);
    ilpm_comparison c;
    const double ms[3][4] = {{1, 10, 2, 20}, {3, 30, 4, 40}, {5, 50, 6, 60}};
    const ilpm_status st[3][4] = {
        {ILPM_SOLVED, ILPM_SOLVED, ILPM_OPTIMAL, ILPM_UNSAT},
        {ILPM_TIMEOUT, ILPM_FEASIBLE, ILPM_ERROR, ILPM_STOPPED},
        {ILPM_UNSAT, ILPM_SOLVED, ILPM_SOLVED, ILPM_SOLVED},
    };
    for (int k = 0; k < 3; k++) {
        fake(&c, 2, st[k], ms[k]);
        c.disagree = k == 1;
        ck_assert_int_eq(ilpm_cmp_summary_add(&s, &c), 0);
        ilpm_comparison_free(&c);
    }
    ck_assert_str_eq(s.puzzle, "fake");
    ck_assert_int_eq(s.instances, 3);
    ck_assert_int_eq(s.disagree, 1);
    ck_assert_int_eq(s.n, 4);
    /* Rows in the order they came: a ilp, a sat, b ilp, b sat. */
    const char *form[4] = {"a", "a", "b", "b"};
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(s.rows[i].formulation, form[i]);
        ck_assert_int_eq(s.rows[i].backend,
                         i % 2 ? ILPM_BACKEND_SAT : ILPM_BACKEND_ILP);
        ck_assert_int_eq(s.rows[i].runs, 3);
    }
    const ilpm_cmp_total *ailp = &s.rows[0], *asat = &s.rows[1],
                         *bilp = &s.rows[2], *bsat = &s.rows[3];
    ck_assert_int_eq(ailp->solved, 1);
    ck_assert_int_eq(ailp->timeout, 1);
    ck_assert_int_eq(ailp->unsat, 1);
    ck_assert_int_eq(asat->solved, 2);
    ck_assert_int_eq(asat->timeout, 1); /* feasible: optimum not proven */
    ck_assert_int_eq(bilp->solved, 2);
    ck_assert_int_eq(bilp->other, 1); /* error */
    ck_assert_int_eq(bsat->unsat, 1);
    ck_assert_int_eq(bsat->other, 1); /* stopped */
    ck_assert_int_eq(bsat->solved, 1);
    /* Total and median over every run, timed-out ones included. */
    ck_assert_double_eq_tol(ailp->total_ms, 9, 1e-9);
    ck_assert_double_eq_tol(ilpm_cmp_total_median_ms(ailp), 3, 1e-9);
    ck_assert_double_eq_tol(asat->total_ms, 90, 1e-9);
    ck_assert_double_eq_tol(ilpm_cmp_total_median_ms(asat), 30, 1e-9);
    /* Sizes of the runs that were built: b ilp failed once. */
    ck_assert_int_eq(ailp->sized, 3);
    ck_assert_int_eq(bilp->sized, 2);
    ck_assert_int_eq(bilp->sum.vars, 60);
    ck_assert_int_eq(bilp->sum.rows, 14);
    ck_assert_int_eq(bsat->sum.clauses, 300);

    /* An even number of runs: the median is the mean of the middle two,
     * whatever order the times came in. */
    const ilpm_status solved[4] = {ILPM_SOLVED, ILPM_SOLVED, ILPM_SOLVED,
                                   ILPM_SOLVED};
    const double early[4] = {0.5, 0.5, 0.5, 0.5};
    fake(&c, 2, solved, early);
    ck_assert_int_eq(ilpm_cmp_summary_add(&s, &c), 0);
    ilpm_comparison_free(&c);
    ck_assert_double_eq_tol(ilpm_cmp_total_median_ms(&s.rows[0]), 2, 1e-9);
    for (long i = 1; i < s.rows[0].runs; i++)
        ck_assert(s.rows[0].ms[i - 1] <= s.rows[0].ms[i]);
    ilpm_cmp_summary_free(&s);
    ilpm_cmp_summary_free(&s); /* harmless twice */
    ilpm_cmp_summary_free(NULL);
}
END_TEST

START_TEST(test_summary_renderings)
{
    ilpm_cmp_summary s;
    ilpm_cmp_summary_init(&s);
    ilpm_comparison c;
    const ilpm_status st[2] = {ILPM_SOLVED, ILPM_UNSAT};
    const double ms[2] = {1.5, 2.5};
    fake(&c, 1, st, ms);
    ck_assert_int_eq(ilpm_cmp_summary_add(&s, &c), 0);
    ilpm_comparison_free(&c);
    ilpm_buf b;
    ilpm_buf_init(&b);

    ilpm_cmp_summary_csv_header(&b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "puzzle,formulation,backend,instances,runs,solved,unsat,"
                     "timeout,other,total_solve_ms,median_solve_ms,mean_vars,"
                     "mean_aux_vars,mean_rows,mean_nonzeros,mean_clauses,"
                     "mean_fixed_before\n");
    ilpm_buf_clear(&b);
    ilpm_cmp_summary_csv(&s, &b);
    ck_assert_str_eq(ilpm_buf_str(&b),
                     "fake,a,ilp,1,1,1,0,0,0,1.500,1.500,10.000,0.000,7.000,"
                     "0.000,,0.000\n"
                     "fake,a,sat,1,1,0,1,0,0,2.500,2.500,20.000,0.000,,,"
                     "100.000,0.000\n");
    ilpm_buf_clear(&b);
    ilpm_cmp_summary_json(&s, &b);
    ck_assert_str_eq(
        ilpm_buf_str(&b),
        "{\"summary\":true,\"puzzle\":\"fake\",\"formulation\":\"a\","
        "\"backend\":\"ilp\",\"instances\":1,\"runs\":1,\"solved\":1,"
        "\"unsat\":0,\"timeout\":0,\"other\":0,\"total_solve_ms\":1.500,"
        "\"median_solve_ms\":1.500,\"mean_vars\":10.000,"
        "\"mean_aux_vars\":0.000,\"mean_rows\":7.000,\"mean_nonzeros\":0.000,"
        "\"mean_clauses\":null,\"mean_fixed_before\":0.000}\n"
        "{\"summary\":true,\"puzzle\":\"fake\",\"formulation\":\"a\","
        "\"backend\":\"sat\",\"instances\":1,\"runs\":1,\"solved\":0,"
        "\"unsat\":1,\"timeout\":0,\"other\":0,\"total_solve_ms\":2.500,"
        "\"median_solve_ms\":2.500,\"mean_vars\":20.000,"
        "\"mean_aux_vars\":0.000,\"mean_rows\":null,\"mean_nonzeros\":null,"
        "\"mean_clauses\":100.000,\"mean_fixed_before\":0.000}\n");
    ilpm_buf_clear(&b);
    ilpm_cmp_summary_text(&s, &b);
    const char *t = ilpm_buf_str(&b);
    ck_assert_ptr_nonnull(strstr(t, "summary: fake, 1 instance "));
    ck_assert_ptr_nonnull(strstr(t, "\n  a            ilp      1      1"));
    ck_assert_ptr_nonnull(strstr(t, "agreement: yes on all 1\n"));
    ilpm_buf_free(&b);
    ilpm_cmp_summary_free(&s);
}
END_TEST

/* Real comparisons: n-Queens 4 (two solutions) and 3 (none), counted. */
START_TEST(test_summary_of_real_comparisons)
{
    const ilpm_puzzle *pz = &ilpm_puzzle_queens;
    ilpm_cmp_summary s;
    ilpm_cmp_summary_init(&s);
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.count = 1;
    for (int n = 4; n >= 3; n--) {
        ilpm_params *p = ilpm_params_new();
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        ilpm_params_set(p, "n", v);
        void *inst = NULL;
        ilpm_err err;
        ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
        ilpm_comparison c;
        ck_assert_int_eq(ilpm_compare_instance(pz, inst, p, NULL, 0, &o, &c),
                         0);
        ck_assert_int_eq(c.disagree, 0);
        ck_assert_int_eq(ilpm_cmp_summary_add(&s, &c), 0);
        ilpm_comparison_free(&c);
        pz->free_instance(inst);
        ilpm_params_free(p);
    }
    ck_assert_str_eq(s.puzzle, "queens");
    ck_assert_int_eq(s.n, ILPM_BACKEND_COUNT);
    for (int i = 0; i < ILPM_BACKEND_COUNT; i++) {
        ck_assert_str_eq(s.rows[i].formulation, "");
        ck_assert_int_eq(s.rows[i].runs, 2);
        ck_assert_int_eq(s.rows[i].solved, 1);
        ck_assert_int_eq(s.rows[i].unsat, 1);
        ck_assert_int_eq(s.rows[i].sized, 2);
        ck_assert_int_eq(s.rows[i].sum.vars, 16 + 9);
    }
    ck_assert_int_eq(s.rows[0].backend, ILPM_BACKEND_ILP);
    ck_assert_int_eq(s.rows[1].backend, ILPM_BACKEND_SAT);
    ck_assert_int_eq(s.rows[2].backend, ILPM_BACKEND_CP);
    ilpm_cmp_summary_free(&s);
}
END_TEST

/* The progress hook is called as each run begins: the first one asks
 * for a stop, as Ctrl-C during the first run does. */
static void stop_at_first_run(void *ctx, const ilpm_result *r)
{
    (void)r;
    *(volatile int *)ctx = 1;
}

/* A stop during the first run: the others are never started and say
 * so ("not run", no record, no total), and with fewer than two answers
 * there is nothing to agree on ("n/a", never "yes"). */
START_TEST(test_stop_leaves_runs_not_run)
{
    const ilpm_puzzle *pz = &ilpm_puzzle_langford;
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "n", "12");
    ilpm_params_set(p, "k", "2");
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    volatile int stop = 0;
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.stop_flag = &stop;
    o.progress = stop_at_first_run;
    o.progress_ctx = (void *)&stop;
    const char *forms[2] = {"positions", "cards"};
    ilpm_comparison c;
    ck_assert_int_eq(ilpm_compare_instance(pz, inst, p, forms, 2, &o, &c), 0);
    ck_assert_int_eq(c.nresults, 2 * ILPM_BACKEND_COUNT);
    ck_assert_int_eq(c.not_run, 2 * ILPM_BACKEND_COUNT - 1);
    ck_assert_int_eq(c.results[0].status, ILPM_STOPPED);
    ck_assert_int_eq(ilpm_comparison_answered(&c), 0);
    ck_assert_int_eq(c.disagree, 0);
    ck_assert_str_eq(ilpm_comparison_agreement(&c), "n/a");
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_comparison_text(&c, &b);
    const char *t = ilpm_buf_str(&b);
    ck_assert_ptr_null(strstr(t, "agreement: yes"));
    ck_assert_ptr_nonnull(strstr(t, "agreement: n/a"));
    ck_assert_ptr_nonnull(strstr(t, "  positions    sat  not run\n"));
    ck_assert_ptr_nonnull(strstr(t, "  cards        cp   not run\n"));
    ck_assert_ptr_nonnull(strstr(t, "  cards: not run\n"));
    ck_assert_ptr_null(strstr(t, "building"));
    /* One record, the run that began. */
    ilpm_buf_clear(&b);
    ilpm_comparison_json(&c, &b);
    t = ilpm_buf_str(&b);
    ck_assert_ptr_nonnull(strstr(t, "\"status\":\"stopped\""));
    ck_assert_ptr_nonnull(strstr(t, "\"agreement\":\"n/a\"}\n"));
    ck_assert_ptr_eq(strchr(t, '\n'), t + strlen(t) - 1);
    ilpm_buf_clear(&b);
    ilpm_comparison_csv(&c, &b);
    t = ilpm_buf_str(&b);
    ck_assert_ptr_eq(strchr(t, '\n'), t + strlen(t) - 1);
    ck_assert_ptr_nonnull(strstr(t, ",n/a\n"));
    ilpm_cmp_summary s;
    ilpm_cmp_summary_init(&s);
    ck_assert_int_eq(ilpm_cmp_summary_add(&s, &c), 0);
    ck_assert_int_eq(s.n, 1);
    ck_assert_int_eq(s.rows[0].runs, 1);
    ck_assert_int_eq(s.na, 1);
    ilpm_buf_clear(&b);
    ilpm_cmp_summary_text(&s, &b);
    ck_assert_ptr_nonnull(strstr(ilpm_buf_str(&b), "n/a on 1"));
    ilpm_cmp_summary_free(&s);
    ilpm_buf_free(&b);
    ilpm_comparison_free(&c);

    /* Without the stop: every run finished, and they agree. */
    stop = 0;
    o.progress = NULL;
    ck_assert_int_eq(ilpm_compare_instance(pz, inst, p, forms, 2, &o, &c), 0);
    ck_assert_int_eq(c.not_run, 0);
    ck_assert_int_eq(ilpm_comparison_answered(&c), 2 * ILPM_BACKEND_COUNT);
    ck_assert_str_eq(ilpm_comparison_agreement(&c), "yes");
    ilpm_comparison_free(&c);
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* The first grid of top95 (17 clues): probing settles all 729 cells
 * before any back end runs, and the comparison says so; with
 * --propagate none the back ends receive the 17 givens alone. */
START_TEST(test_fixed_before_the_back_ends)
{
    const ilpm_puzzle *pz = &ilpm_puzzle_sudoku;
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open("data/sudoku/norvig_top95.txt", &err);
    ck_assert_ptr_nonnull(rd);
    ilpm_instances it;
    ilpm_instances_init(&it, pz, p, rd, 1);
    void *inst;
    ck_assert_int_eq(ilpm_instances_next(&it, &inst, &err), 1);
    ilpm_reader_free(rd);
    const char *forms[1] = {"exact"};
    for (int none = 0; none < 2; none++) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.propagate = none ? ILPM_PROP_NONE : ILPM_PROP_AUTO;
        ilpm_comparison c;
        ck_assert_int_eq(ilpm_compare_instance(pz, inst, p, forms, 1, &o, &c),
                         0);
        int64_t want = none ? 17 : 729;
        ck_assert_int_eq(c.forms[0].stats.fixed, want);
        for (int i = 0; i < c.nresults; i++) {
            ck_assert_int_eq(c.results[i].status, ILPM_SOLVED);
            ck_assert_int_eq(c.results[i].stats.fixed, want);
        }
        ilpm_buf b;
        ilpm_buf_init(&b);
        ilpm_comparison_text(&c, &b);
        const char *t = ilpm_buf_str(&b);
        ck_assert_ptr_nonnull(
            strstr(t, none ? "exact: 17 of 729 variables fixed before"
                           : "exact: 729 of 729 variables fixed before"));
        ck_assert((strstr(t, "nothing was left to search") == NULL) == none);
        ilpm_buf_clear(&b);
        ilpm_comparison_json(&c, &b);
        ck_assert_ptr_nonnull(
            strstr(ilpm_buf_str(&b),
                   none ? "\"fixed_before\":17," : "\"fixed_before\":729,"));
        ilpm_buf_free(&b);
        ilpm_comparison_free(&c);
    }
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("summary");
    tcase_add_test(tc, test_summary_counts_times_and_sizes);
    tcase_add_test(tc, test_summary_renderings);
    tcase_add_test(tc, test_summary_of_real_comparisons);
    tcase_add_test(tc, test_stop_leaves_runs_not_run);
    tcase_add_test(tc, test_fixed_before_the_back_ends);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
