/* Tests of cp's count by exact cover (src/backend/cp_cover.c): random
 * exact-cover models (exactly-ones, at-most-ones, clauses, fixed
 * variables as a cube's) counted by the cover against brute force and
 * against the depth-first search; models the cover must refuse (a
 * weight, a negative literal, an auxiliary variable) counted as before;
 * Langford, n-Queens and Sudoku counted on both paths, on cp and on auto
 * with 1 and 2 threads, every solution decoded and verified; and a count
 * cut short by the time limit. */
#include "cp.h"
#include "ilpm_int.h"
#include "puzzle.h"
#include "puzzles.h"
#include "run.h"

#define ILPM_TESTUTIL_RANDOM
#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include <check.h>
#include <stdio.h>
#include <string.h>

/* Brute force: the assignments of m's first nx variables (of at most
 * 20) that some solution of m takes. */
static uint64_t brute_onto(const ilpm_model *m, int nx)
{
    int nv = ilpm_model_nvars(m);
    uint8_t vals[32];
    uint8_t *seen = calloc((size_t)1 << nx, 1);
    uint64_t count = 0;
    for (unsigned a = 0; a < (1u << nv); a++) {
        for (int v = 1; v <= nv; v++)
            vals[v] = (a >> (v - 1)) & 1;
        unsigned x = a & ((1u << nx) - 1);
        if (!seen[x] && ilpm_model_check(m, vals, NULL))
            count += seen[x] = 1;
    }
    free(seen);
    return count;
}

static uint64_t brute(const ilpm_model *m)
{
    return brute_onto(m, ilpm_model_nvars(m));
}

struct seen {
    const ilpm_model *m;
    uint64_t bad;
};

static int check_each(void *ctx, const uint8_t *vals)
{
    struct seen *s = ctx;
    s->bad += !ilpm_model_check(s->m, vals, NULL);
    return 0;
}

/* m counted on cp with learning off, by the cover unless no_cover
 * (propagate: the settling level); *by_cover: whether the cover
 * counted.  Every solution must satisfy m. */
static uint64_t cp_count(const ilpm_model *m, int no_cover,
                         ilpm_propagate propagate, int *by_cover)
{
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = ILPM_BACKEND_CP;
    o.propagate = propagate;
    ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_OFF;
    ilpm_cp_opts_in(&o)->no_cover = no_cover;
    ilpm_err err;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    uint64_t got = 0, runs = ilpm_cp_cover_runs;
    struct seen seen = {m, 0};
    ck_assert_int_eq(ilpm_solver_count(s, 0, &got, check_each, &seen, &err),
                     ILPM_SOLVED);
    ck_assert(ilpm_solver_count_complete(s));
    ck_assert_uint_eq(seen.bad, 0);
    *by_cover = ilpm_cp_cover_runs != runs;
    ilpm_solver_free(s);
    return got;
}

/* A random exact cover over nv variables: np exactly-ones (every
 * variable in one or two of them), a few at-most-ones, and sometimes a
 * clause (positive, or with a negative literal) and fixed variables. */
static ilpm_model *random_cover(int nv, int np)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {nv};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int in[8][32], cnt[8] = {0};
    for (int v = 1; v <= nv; v++) {
        int a = (int)rnd((unsigned)np), b = (int)rnd((unsigned)np);
        in[a][cnt[a]++] = v;
        if (b != a && rnd(2))
            in[b][cnt[b]++] = v;
    }
    for (int c = 0; c < np; c++)
        if (cnt[c])
            ck_assert_int_eq(ilpm_add_exo(m, in[c], cnt[c], &err), 0);
    for (int k = (int)rnd(4); k > 0; k--) {
        int l[32], n = 2 + (int)rnd(4);
        for (int j = 0; j < n; j++)
            l[j] = 1 + (int)rnd((unsigned)nv);
        ck_assert_int_eq(ilpm_add_amo(m, l, n, &err), 0);
    }
    for (int k = (int)rnd(3); k > 0; k--) {
        int l[32], n = 1 + (int)rnd(4);
        for (int j = 0; j < n; j++)
            l[j] = 1 + (int)rnd((unsigned)nv);
        if (rnd(3) == 0 && cnt[0]) /* an exactly-one's literals, or some */
            for (n = 0; n < cnt[0]; n++)
                l[n] = in[0][n];
        if (rnd(2) == 0 && n > 1)
            n--;
        if (rnd(3) == 0)
            l[0] = -l[0];
        ck_assert_int_eq(ilpm_add_clause(m, l, n, &err), 0);
    }
    if (rnd(4) == 0) { /* an objective: a weighted row that never binds */
        int64_t w[32];
        int l[32];
        for (int v = 1; v <= nv; v++)
            w[v - 1] = (int64_t)rnd(7) - 3, l[v - 1] = v;
        ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, w, l, nv, &err),
                         0);
    }
    if (rnd(4) == 0) { /* a cube's literal */
        int l = rnd_lit(nv);
        ck_assert_int_eq(ilpm_add_clause(m, &l, 1, &err), 0);
    }
    return m;
}

START_TEST(test_random_covers_against_brute_force)
{
    rng_state = 35;
    int covered = 0;
    int iters = test_seeds(1000);
    for (int iter = 0; iter < iters; iter++) {
        int nv = 2 + (int)rnd(13), np = 1 + (int)rnd(5);
        ilpm_model *m = random_cover(nv, np);
        uint64_t want = brute(m);
        for (int prop = 0; prop < 2; prop++) {
            ilpm_propagate level = prop ? ILPM_PROP_AUTO : ILPM_PROP_NONE;
            int by_cover, by_dfs;
            uint64_t got = cp_count(m, 0, level, &by_cover);
            uint64_t dfs = cp_count(m, 1, level, &by_dfs);
            ck_assert_msg(got == want && dfs == want,
                          "iter %d: cover %llu, dfs %llu, brute force %llu",
                          iter, (unsigned long long)got,
                          (unsigned long long)dfs, (unsigned long long)want);
            ck_assert(!by_dfs);
            covered += by_cover;
        }
        ilpm_model_free(m);
    }
    /* most of them are covers the path takes (two counts each) */
    ck_assert_int_gt(covered, iters * 6 / 10);
}
END_TEST

/* Models whose rows the cover cannot take: a weighted row, an
 * at-most-one over a negative literal, an open auxiliary variable (x7 in
 * an exactly-one: the count is over x1..x6); each counted by the
 * depth-first search, as brute force counts. */
START_TEST(test_refused_models_count_as_before)
{
    for (int c = 0; c < 3; c++) {
        ilpm_err err;
        ilpm_model *m = ilpm_model_new();
        int lo[1] = {1}, hi[1] = {6};
        ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
        hi[0] = 1;
        ilpm_model_family(m, "y", 1, lo, hi, ILPM_FAM_AUX, &err);
        int a[4] = {1, 2, 3, 7}, b[3] = {4, 5, 6}, d[3] = {1, 4, 6};
        ck_assert_int_eq(ilpm_add_exo(m, a, 3 + (c == 2), &err), 0);
        ck_assert_int_eq(ilpm_add_exo(m, b, 3, &err), 0);
        if (c == 0) {
            int64_t w[3] = {2, 1, 1};
            ck_assert_int_eq(ilpm_add_linear(m, w, d, 3, ILPM_LE, 2, &err), 0);
        } else if (c == 1) {
            d[0] = -1;
            ck_assert_int_eq(ilpm_add_amo(m, d, 3, &err), 0);
        }
        int by_cover;
        uint64_t want = brute_onto(m, 6);
        ck_assert_uint_eq(cp_count(m, 0, ILPM_PROP_NONE, &by_cover), want);
        ck_assert_msg(!by_cover, "model %d counted by the cover", c);
        ilpm_model_free(m);
    }
}
END_TEST

/* x1..x6 in two primary columns, {1, 2, 3} and {4, 5, 6}. */
static ilpm_model *two_columns(void)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {6};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
    ck_assert_int_eq(ilpm_add_exo(m, a, 3, &err), 0);
    ck_assert_int_eq(ilpm_add_exo(m, b, 3, &err), 0);
    return m;
}

/* A row that binds on no side whatever the open variables become (an
 * objective's, weighted) leaves the model an exact cover. */
START_TEST(test_objective_leaves_a_cover)
{
    ilpm_err err;
    ilpm_model *m = two_columns();
    int d[2] = {1, 4};
    ck_assert_int_eq(ilpm_add_amo(m, d, 2, &err), 0);
    int64_t w[6] = {3, -1, 2, 5, 1, -4};
    int l[6] = {1, 2, 3, 4, 5, 6};
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MAXIMIZE, w, l, 6, &err), 0);
    int by_cover;
    ck_assert_uint_eq(cp_count(m, 0, ILPM_PROP_NONE, &by_cover), 8);
    ck_assert(by_cover);
    ilpm_model_free(m);
}
END_TEST

/* Groups that one lowering leaves out are implied by what that lowering
 * keeps, not by the other's: a rule stated as clauses the rows leave out
 * and as a weighted row the CNF leaves out (as Tetravex's assign
 * formulation does) must still bind the count. */
START_TEST(test_groups_redundant_in_one_lowering)
{
    ilpm_err err;
    ilpm_model *m = two_columns();
    int d[2] = {1, 4};
    int g = ilpm_model_group(m, "support", &err);
    ck_assert_int_ge(g, 0);
    ck_assert_int_eq(ilpm_add_clause(m, d, 2, &err), 0);
    ilpm_model_set_redundant_in(m, g, ILPM_LOWER_ROWS);
    g = ilpm_model_group(m, "balance", &err);
    ck_assert_int_ge(g, 0);
    int64_t w[2] = {2, 2};
    ck_assert_int_eq(ilpm_add_linear(m, w, d, 2, ILPM_GE, 2, &err), 0);
    ilpm_model_set_redundant_in(m, g, ILPM_LOWER_CNF);
    int by_cover;
    ck_assert_uint_eq(brute_onto(m, 6), 5);
    ck_assert_uint_eq(cp_count(m, 0, ILPM_PROP_NONE, &by_cover), 5);
    ck_assert(by_cover);
    ck_assert_uint_eq(cp_count(m, 1, ILPM_PROP_NONE, &by_cover), 5);
    ilpm_model_free(m);
}
END_TEST

/* The instance of pz from parameters "name value ..." (NULL-ended), or
 * from the one grid of text (Sudoku). */
static void *instance(const ilpm_puzzle *pz, ilpm_params *p,
                      const char *const *kv, const char *grid)
{
    ilpm_err err;
    void *inst = NULL;
    for (int i = 0; kv && kv[i]; i += 2)
        ilpm_params_set(p, kv[i], kv[i + 1]);
    if (!grid) {
        ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
        return inst;
    }
    return parse_text(pz, p, grid);
}

/* The count of an instance on cp (by the cover, or not: no_cover) with
 * every solution decoded and verified, and on auto with threads (each
 * cube's process counts as no_cover says). */
static uint64_t puzzle_count(const ilpm_puzzle *pz, const void *inst,
                             const ilpm_params *p, int no_cover,
                             int64_t threads)
{
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.count = 1;
    o.solver.backend = threads ? ILPM_BACKEND_AUTO : ILPM_BACKEND_CP;
    o.threads = threads;
    ilpm_cp_opts_in(&o.solver)->no_cover = no_cover;
    uint64_t runs = ilpm_cp_cover_runs;
    ilpm_result r;
    ilpm_result_init(&r);
    ck_assert_int_eq(ilpm_run_instance(pz, inst, p, &o, &r), 0);
    ck_assert_msg((r.status == ILPM_SOLVED && r.count_complete && r.verified) ||
                      (r.status == ILPM_UNSAT && r.count == 0),
                  "%s: %s %s", r.instance, ilpm_status_name(r.status), r.error);
    if (!threads && r.count > 1)
        ck_assert_msg((ilpm_cp_cover_runs != runs) == !no_cover,
                      "%s: counted %s", r.instance,
                      no_cover ? "by the cover" : "without the cover");
    uint64_t n = r.count;
    ilpm_result_free(&r);
    return n;
}

/* One instance's count, the same on cp by both paths and, with on_auto,
 * on auto with 1 and 2 threads (by both paths again; with 1, auto is
 * GLPK alone, which counts by blocking clauses: small counts only; each
 * of 2 threads' cubes is a process, slow under the sanitizers: a few
 * instances only): want. */
static void same_counts(const ilpm_puzzle *pz, const char *const *kv,
                        const char *grid, int sym, int on_auto, uint64_t want)
{
    ilpm_params *p = ilpm_params_new();
    if (sym)
        ilpm_params_set(p, "symmetry", "1");
    void *inst = instance(pz, p, kv, grid);
    for (int t = 0; t < (on_auto ? 3 : 1); t++)
        for (int no_cover = 0; no_cover < 2 && (t != 1 || want <= 100);
             no_cover++) {
            uint64_t got = puzzle_count(pz, inst, p, no_cover, t);
            char d[160];
            pz->describe(inst, d, sizeof d);
            ck_assert_msg(got == want,
                          "%s%s, threads %d, no_cover %d: %llu, want %llu", d,
                          sym ? " --symmetry" : "", t, no_cover,
                          (unsigned long long)got, (unsigned long long)want);
        }
    pz->free_instance(inst);
    ilpm_params_free(p);
}

/* L(2,3..11), reversals counted and not (OEIS A014552). */
START_TEST(test_langford_counts)
{
    static const uint64_t half[12] = {0, 0,  0,   1, 1, 0,
                                      0, 26, 150, 0, 0, 17792};
    for (int n = 3; n <= 11; n++) {
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        const char *kv[] = {"k", "2", "n", v, NULL};
        int on_auto = n == 7 || n == 11;
        same_counts(&ilpm_puzzle_langford, kv, NULL, 0, on_auto, 2 * half[n]);
        same_counts(&ilpm_puzzle_langford, kv, NULL, 1, on_auto, half[n]);
    }
}
END_TEST

/* n-Queens 1..10 (OEIS A000170), and one of each mirror pair. */
START_TEST(test_queens_counts)
{
    static const uint64_t all[11] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
    for (int n = 1; n <= 10; n++) {
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        const char *kv[] = {"n", v, NULL};
        int on_auto = n == 6 || n == 9;
        same_counts(&ilpm_puzzle_queens, kv, NULL, 0, on_auto, all[n]);
        same_counts(&ilpm_puzzle_queens, kv, NULL, 1, on_auto,
                    n < 2 ? 1 : all[n] / 2);
    }
}
END_TEST

/* The 288 4x4 grids, and three 9x9 puzzles of the serg benchmark with
 * more than one solution, in both formulations. */
START_TEST(test_sudoku_counts)
{
    static const struct {
        const char *grid;
        uint64_t count;
    } g[] = {
        {"................", 288},
        {"8.........95.......76.........426798...571243...893165......916....3."
         "487....1.532",
         872},
        {"8.........95.......76.........428967...573412...691583.....4196....3."
         "748...8..235",
         83},
        {"8.........95.......76.........426798...571432...893165....5.916...9."
         "8247......583",
         148},
    };
    for (int form = 0; form < 2; form++) {
        const char *kv[] = {"formulation", form ? "atmost" : "exact", NULL};
        for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
            same_counts(&ilpm_puzzle_sudoku, kv, g[i].grid, 0, i < 2,
                        g[i].count);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cover");
    TCase *t = tcase_create("cover");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, test_random_covers_against_brute_force);
    tcase_add_test(t, test_refused_models_count_as_before);
    tcase_add_test(t, test_objective_leaves_a_cover);
    tcase_add_test(t, test_groups_redundant_in_one_lowering);
    tcase_add_test(t, test_langford_counts);
    tcase_add_test(t, test_queens_counts);
    tcase_add_test(t, test_sudoku_counts);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
