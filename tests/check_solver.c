/* Tests of the public solver handle on both back ends: satisfiability,
 * projected counts and optima of random small models against brute force,
 * assumptions, time limits and stop requests. */
#include "cp_opts.h"
#include "ilpm_int.h"
#include "sat_int.h"

#define ILPM_TESTUTIL_RANDOM
#include "testutil.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Brute force: number of distinct projections onto x of the solutions,
 * and the best objective. */
static void brute(const ilpm_model *m, int nx, uint64_t *count, int *feasible,
                  int64_t *best)
{
    int nv = ilpm_model_nvars(m);
    uint8_t vals[32];
    uint8_t seen[1 << 8];
    memset(seen, 0, sizeof seen);
    *count = 0;
    *feasible = 0;
    ilpm_sense sense = ilpm_model_objective_get(m, NULL, NULL, NULL);
    for (unsigned a = 0; a < (1u << nv); a++) {
        for (int v = 1; v <= nv; v++)
            vals[v] = (a >> (v - 1)) & 1;
        if (!ilpm_model_check(m, vals, NULL))
            continue;
        unsigned px = a & ((1u << nx) - 1);
        if (!seen[px]) {
            seen[px] = 1;
            ++*count;
        }
        int64_t o = ilpm_model_objective_value(m, vals);
        if (!*feasible || (sense == ILPM_MAXIMIZE ? o > *best : o < *best))
            *best = o;
        *feasible = 1;
    }
}

static const struct {
    ilpm_backend b;
    ilpm_amo_enc amo;
    ilpm_card_enc card;
    ilpm_search search; /* cp's branching and lookahead */
    int64_t lookahead;
    ilpm_propagate prop; /* none: cp's engine sees the model whole */
} configs[] = {
#define F ILPM_SEARCH_FIRST_FAIL
    {ILPM_BACKEND_ILP, ILPM_AMO_AUTO, ILPM_CARD_SEQ, F, 0, ILPM_PROP_AUTO},
    {ILPM_BACKEND_SAT, ILPM_AMO_PAIRWISE, ILPM_CARD_SEQ, F, 0, ILPM_PROP_AUTO},
    {ILPM_BACKEND_SAT, ILPM_AMO_SEQ, ILPM_CARD_TOTALIZER, F, 0, ILPM_PROP_AUTO},
    {ILPM_BACKEND_SAT, ILPM_AMO_PRODUCT, ILPM_CARD_SEQ, F, 0, ILPM_PROP_AUTO},
    {ILPM_BACKEND_CP, ILPM_AMO_AUTO, ILPM_CARD_SEQ, F, 0, ILPM_PROP_AUTO},
    {ILPM_BACKEND_CP, ILPM_AMO_AUTO, ILPM_CARD_SEQ, ILPM_SEARCH_INPUT, 0,
     ILPM_PROP_AUTO},
    {ILPM_BACKEND_CP, ILPM_AMO_AUTO, ILPM_CARD_SEQ, F, 8, ILPM_PROP_AUTO},
    {ILPM_BACKEND_CP, ILPM_AMO_AUTO, ILPM_CARD_SEQ, F, 0, ILPM_PROP_NONE},
    {ILPM_BACKEND_CP, ILPM_AMO_AUTO, ILPM_CARD_SEQ, ILPM_SEARCH_INPUT, 4,
     ILPM_PROP_NONE},
#undef F
};

/* The options of configuration c: its back end and its encodings or
 * search. */
static void config_options(ilpm_options *o, size_t c)
{
    ilpm_options_init(o);
    o->backend = configs[c].b;
    ilpm_sat_opts_in(o)->amo = configs[c].amo;
    ilpm_sat_opts_in(o)->card = configs[c].card;
    ilpm_cp_opts_in(o)->search = configs[c].search;
    ilpm_cp_opts_in(o)->lookahead = configs[c].lookahead;
}

START_TEST(test_random_counts_agree_with_brute_force)
{
    rng_state = 777;
    for (int iter = 0; iter < 300; iter++) {
        int nx = 1 + (int)rnd(6), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, 0);
        uint64_t want;
        int feasible;
        int64_t best;
        brute(m, nx, &want, &feasible, &best);
        for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
            ilpm_options o;
            config_options(&o, c);
            o.propagate = configs[c].prop;
            ilpm_err err;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
            ck_assert_int_eq(st, feasible ? ILPM_SOLVED : ILPM_UNSAT);
            if (feasible)
                ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            ilpm_solver_free(s);
            s = ilpm_solver_new(m, &o, &err);
            uint64_t got;
            st = ilpm_solver_count(s, 0, &got, NULL, NULL, &err);
            ck_assert_int_eq(st, ILPM_SOLVED);
            ck_assert_msg(got == want,
                          "iter %d config %zu: count %llu, want %llu", iter, c,
                          (unsigned long long)got, (unsigned long long)want);
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
    }
}
END_TEST

START_TEST(test_random_optima_agree_with_brute_force)
{
    rng_state = 4242;
    for (int iter = 0; iter < 300; iter++) {
        int nx = 1 + (int)rnd(6), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, 1);
        uint64_t cnt;
        int feasible;
        int64_t best = 0;
        brute(m, nx, &cnt, &feasible, &best);
        for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
            ilpm_options o;
            config_options(&o, c);
            o.propagate = configs[c].prop;
            ilpm_err err;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
            if (!feasible) {
                ck_assert_int_eq(st, ILPM_UNSAT);
            } else {
                ck_assert_msg(st == ILPM_OPTIMAL, "iter %d: %s", iter,
                              ilpm_status_name(st));
                ck_assert_msg(ilpm_solver_objective(s) == best,
                              "iter %d config %zu: %lld, want %lld", iter, c,
                              (long long)ilpm_solver_objective(s),
                              (long long)best);
                ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
                /* The solver stays usable: a plain solve still works. */
                ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err),
                                 ILPM_SOLVED);
            }
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
    }
}
END_TEST

/* What an optimisation's incumbent hook saw. */
struct incumbents {
    const ilpm_model *m;
    int n, bad, worse, refuse;
    int64_t last;
};

static int on_incumbent(void *ctx, const uint8_t *vals)
{
    struct incumbents *in = ctx;
    int64_t o = ilpm_model_objective_value(in->m, vals);
    int max =
        ilpm_model_objective_get(in->m, NULL, NULL, NULL) == ILPM_MAXIMIZE;
    in->bad += !ilpm_model_check(in->m, vals, NULL);
    in->worse += in->n > 0 && (max ? o <= in->last : o >= in->last);
    in->last = o;
    in->n++;
    return in->refuse;
}

/* Every back end shows each improving solution to the hook as it finds
 * it: each a solution, each better than the one before, the last the
 * optimum; a hook that refuses one ends the search with ILPM_ERROR. */
START_TEST(test_incumbents)
{
    rng_state = 777;
    for (int iter = 0; iter < 100; iter++) {
        int nx = 1 + (int)rnd(6), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, 1);
        uint64_t cnt;
        int feasible;
        int64_t best = 0;
        brute(m, nx, &cnt, &feasible, &best);
        for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
            ilpm_options o;
            config_options(&o, c);
            ilpm_err err = {0};
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            struct incumbents in = {m, 0, 0, 0, 0, 0};
            ilpm_solver_on_incumbent(s, on_incumbent, &in);
            ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
            ck_assert_int_eq(st, feasible ? ILPM_OPTIMAL : ILPM_UNSAT);
            ck_assert_msg(in.bad == 0 && in.worse == 0,
                          "iter %d config %zu: %d not solutions, %d no better",
                          iter, c, in.bad, in.worse);
            if (feasible) {
                ck_assert_msg(in.n >= 1 && in.last == best,
                              "iter %d config %zu: %d incumbents, last %lld, "
                              "want %lld",
                              iter, c, in.n, (long long)in.last,
                              (long long)best);
                /* A satisfaction solve shows none. */
                in.n = 0;
                ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err),
                                 ILPM_SOLVED);
                ck_assert_int_eq(in.n, 0);
                in.refuse = 1;
                ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err),
                                 ILPM_ERROR);
                ck_assert_int_eq(in.n, 1);
                ck_assert(err.msg[0] != '\0');
            }
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
    }
}
END_TEST

/* x1..x4 with exactly-two: 6 solutions; assumptions pick among them. */
static ilpm_model *two_of_four(void)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {4};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int l[4] = {1, 2, 3, 4};
    ilpm_add_card(m, l, 4, ILPM_EQ, 2, &err);
    return m;
}

/* The same answers at every propagation level: with units and probing the
 * assumptions' consequences are settled by the model layer first (and a
 * contradiction there is UNSAT without the back end). */
START_TEST(test_assumptions)
{
    ilpm_model *m = two_of_four();
    for (int b = 0; b < 8; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)(b % 2);
        o.propagate = (ilpm_propagate)(b / 2);
        ilpm_err err;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        int a1[2] = {1, 3};
        ck_assert_int_eq(ilpm_solver_solve(s, a1, 2, &err), ILPM_SOLVED);
        const uint8_t *v = ilpm_solver_values(s);
        ck_assert(v[1] && v[3] && !v[2] && !v[4]);
        int a2[3] = {1, 2, 3};
        ck_assert_int_eq(ilpm_solver_solve(s, a2, 3, &err), ILPM_UNSAT);
        /* Assumptions hold for one call only. */
        int a3[2] = {-1, -2};
        ck_assert_int_eq(ilpm_solver_solve(s, a3, 2, &err), ILPM_SOLVED);
        v = ilpm_solver_values(s);
        ck_assert(v[3] && v[4]);
        int bad[1] = {9};
        ck_assert_int_eq(ilpm_solver_solve(s, bad, 1, &err), ILPM_ERROR);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_count_limit_and_callback)
{
    ilpm_model *m = two_of_four();
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        ilpm_err err;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        uint64_t n;
        ck_assert_int_eq(ilpm_solver_count(s, 4, &n, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_uint_eq(n, 4);
        ck_assert_int_eq(ilpm_solver_count_complete(s), 0);
        ilpm_solver_free(s);
        s = ilpm_solver_new(m, &o, &err);
        ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_uint_eq(n, 6);
        ck_assert_int_eq(ilpm_solver_count_complete(s), 1);
        ilpm_solver_free(s);
        /* Reaching the limit with the last solution does not tell that
         * none is left; a limit above the count does. */
        s = ilpm_solver_new(m, &o, &err);
        ilpm_solver_count(s, 6, &n, NULL, NULL, &err);
        ck_assert_int_eq(ilpm_solver_count_complete(s), 0);
        ilpm_solver_free(s);
        s = ilpm_solver_new(m, &o, &err);
        ilpm_solver_count(s, 7, &n, NULL, NULL, &err);
        ck_assert_uint_eq(n, 6);
        ck_assert_int_eq(ilpm_solver_count_complete(s), 1);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* n-Queens: an exactly-one a row and a column, an at-most-one a
 * diagonal, for counting. */
static ilpm_model *queens_count_model(int n)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {1, 1}, hi[2] = {n, n};
    int Q = ilpm_model_family(m, "Q", 2, lo, hi, 0, &err);
    int l[64];
    for (int r = 1; r <= n; r++) {
        for (int c = 1; c <= n; c++)
            l[c - 1] = ilpm_model_var(m, Q, r, c, 0, 0);
        ilpm_add_exo(m, l, n, &err);
    }
    for (int c = 1; c <= n; c++) {
        for (int r = 1; r <= n; r++)
            l[r - 1] = ilpm_model_var(m, Q, r, c, 0, 0);
        ilpm_add_exo(m, l, n, &err);
    }
    for (int d = -(n - 2); d <= n - 2; d++) {
        int k = 0;
        for (int r = 1; r <= n; r++)
            if (r + d >= 1 && r + d <= n)
                l[k++] = ilpm_model_var(m, Q, r, r + d, 0, 0);
        ilpm_add_amo(m, l, k, &err);
    }
    for (int a = 3; a <= 2 * n - 1; a++) {
        int k = 0;
        for (int r = 1; r <= n; r++)
            if (a - r >= 1 && a - r <= n)
                l[k++] = ilpm_model_var(m, Q, r, a - r, 0, 0);
        ilpm_add_amo(m, l, k, &err);
    }
    return m;
}

START_TEST(test_time_limit_reports_count_so_far)
{
    /* 16 queens have 14772512 solutions: far more than 0.3 s can count
     * (cp's count by exact cover does 14's 365596 within the limit under
     * valgrind). */
    ilpm_model *m = queens_count_model(16);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        o.time_limit = 0.3 * test_slowdown();
        ilpm_err err;
        double t0 = ilpm_now();
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        uint64_t n = 0;
        ilpm_status st = ilpm_solver_count(s, 0, &n, NULL, NULL, &err);
        double dt = ilpm_now() - t0;
        ck_assert_int_eq(st, ILPM_TIMEOUT);
        ck_assert_uint_gt(n, 0);
        ck_assert_uint_lt(n, 14772512);
        /* Generous: the limit is honoured, not overrun by seconds. */
        ck_assert_msg(dt < 3.0 * test_slowdown(), "took %.2f s", dt);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* What the log callback received. */
static struct {
    char s[16384];
    size_t len;
} log_text;

static void collect(void *ctx, const char *piece)
{
    (void)ctx;
    size_t n = strlen(piece), room = sizeof log_text.s - 1 - log_text.len;
    memcpy(log_text.s + log_text.len, piece, n < room ? n : room);
    log_text.len += n < room ? n : room;
    log_text.s[log_text.len] = '\0';
}

/* The solvers' messages go to the log callback under verbose, and nowhere
 * else: not to file descriptors 1 and 2, and not into stdout's buffer,
 * which the SAT back end borrows for each solve and gives back with what
 * the caller had left in it.  Counting 6 queens solves 5 times on SAT,
 * and is one branch-and-cut search on GLPK: its tree empties once. */
START_TEST(test_log)
{
    ilpm_model *m = queens_count_model(6);
    for (int b = 0; b < 2; b++)
        for (int verbose = 0; verbose < 2; verbose++) {
            fd_capture capture;
            capture_begin(&capture);
            FILE *before = stdout;
            fputs("kept", stdout); /* no newline: stays buffered */
            log_text.len = 0;
            log_text.s[0] = '\0';
            ilpm_options o;
            ilpm_options_init(&o);
            o.backend = (ilpm_backend)b;
            o.verbose = verbose;
            o.log = collect;
            ilpm_err err;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_ptr_nonnull(s);
            uint64_t n = 0;
            ilpm_status st = ilpm_solver_count(s, 0, &n, NULL, NULL, &err);
            ilpm_solver_free(s);
            int same = stdout == before;
            FILE *cap = capture_end(&capture);
            char printed[64] = "";
            size_t np = fread(printed, 1, sizeof printed - 1, cap);
            printed[np] = '\0';
            fclose(cap);
            ck_assert_int_eq(st, ILPM_SOLVED);
            ck_assert_uint_eq(n, 4);
            ck_assert(same);
            ck_assert_str_eq(printed, "kept");
            if (!verbose)
                ck_assert_uint_eq(log_text.len, 0);
            else if (b == ILPM_BACKEND_ILP) {
                const char *t = strstr(log_text.s, "tree is empty");
                ck_assert_msg(t && strstr(log_text.s, "mip =") &&
                                  !strstr(t + 1, "tree is empty"),
                              "log: %s", log_text.s);
            } else
                ck_assert_msg(strncmp(log_text.s, "c ", 2) == 0 &&
                                  strstr(log_text.s, "\nc 1 "),
                              "log: %s", log_text.s);
        }
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_stop_flag)
{
    ilpm_model *m = queens_count_model(8);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        volatile int stop = 1;
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        o.stop_flag = &stop;
        ilpm_err err = {0};
        /* Raised before: the lowering itself stops. */
        ck_assert_ptr_null(ilpm_solver_new(m, &o, &err));
        ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
        stop = 0;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        stop = 1;
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_STOPPED);
        stop = 0;
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_stats_per_group)
{
    ilpm_model *m = queens_count_model(4);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_sat_opts_in(&o)->amo = ILPM_AMO_PAIRWISE;
    ilpm_stats st;
    ilpm_err err;
    ck_assert_int_eq(ilpm_model_stats(m, &o, &st, &err), 0);
    ck_assert_int_eq(st.vars, 16);
    ck_assert_int_eq(st.aux_vars, 0);
    /* 8 exactly-one rows + 10 diagonal rows (lines of 2..4 cells). */
    ck_assert_int_eq(st.rows, 18);
    /* Rows and columns: 8 * (ALO + 6 pairs); diagonals of 2,3,4,3,2
     * cells, twice: 2 * (1 + 3 + 6 + 3 + 1) pairs. */
    ck_assert_int_eq(st.clauses, 8 * 7 + 2 * 14);
    ilpm_stats_free(&st);
    ilpm_model_free(m);
}
END_TEST

/* A group left out of one lowering binds in the other only: x1 in a
 * group the rows leave out, not x1 in one the clauses leave out, so GLPK
 * sees only "not x1" and CaDiCaL only "x1" (a model no puzzle would
 * build, as its two rules disagree, but it tells the lowerings apart). */
START_TEST(test_redundant_in_one_lowering)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = 1;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int pos = 1, neg = -1;
    int g = ilpm_model_group(m, "sat_rule", &err);
    ck_assert_int_eq(ilpm_add_clause(m, &pos, 1, &err), 0);
    ilpm_model_set_redundant_in(m, g, ILPM_LOWER_ROWS);
    g = ilpm_model_group(m, "ilp_rule", &err);
    ck_assert_int_eq(ilpm_add_clause(m, &neg, 1, &err), 0);
    ilpm_model_set_redundant_in(m, g, ILPM_LOWER_CNF);
    ck_assert_uint_eq(ilpm_model_group_redundant(m, g), ILPM_LOWER_CNF);
    for (int b = 0; b < 2; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)b;
        o.propagate = ILPM_PROP_NONE;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        ck_assert_int_eq(ilpm_solver_values(s)[1], b == ILPM_BACKEND_SAT);
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* --sat-option is checked on CaDiCaL's own table, before any model: an
 * unknown name (whatever its value: CaDiCaL reads 0 for one) and a value
 * out of the option's range are refused; other back ends check nothing
 * of it. */
START_TEST(test_check_options)
{
    static const struct {
        const char *list;
        const char *msg; /* NULL: accepted */
    } cases[] = {
        {"phase=0,seed=3", NULL},
        {"", NULL},
        {"nosuch=1", "--sat-option: CaDiCaL has no option 'nosuch'"},
        {"nosuch=0", "--sat-option: CaDiCaL has no option 'nosuch'"},
        {"phase=0,nosuch=1", "--sat-option: CaDiCaL has no option 'nosuch'"},
        {"phase=2", "--sat-option phase: '2' is too large (at most 1)"},
        {"phase=-1",
         "--sat-option phase: expected an integer from 0 to 1, got '-1'"},
        {"phase=x",
         "--sat-option phase: expected an integer from 0 to 1, got 'x'"},
        {"phase", "--sat-option: expected NAME=VALUE, got 'phase'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_options o;
        ilpm_options_init(&o);
        ilpm_sat_opts_in(&o)->sat_options = cases[i].list;
        ilpm_err err = {0};
        int rc = ilpm_backend_check_options(ILPM_BACKEND_SAT, &o, &err);
        ck_assert_msg(rc == (cases[i].msg ? -1 : 0), "%s", cases[i].list);
        if (cases[i].msg)
            ck_assert_str_eq(err.msg, cases[i].msg);
        ck_assert_int_eq(ilpm_backend_check_options(ILPM_BACKEND_ILP, &o, &err),
                         0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver");
    TCase *tc = tcase_create("solver");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_random_counts_agree_with_brute_force);
    tcase_add_test(tc, test_random_optima_agree_with_brute_force);
    tcase_add_test(tc, test_incumbents);
    tcase_add_test(tc, test_assumptions);
    tcase_add_test(tc, test_count_limit_and_callback);
    tcase_add_test(tc, test_time_limit_reports_count_so_far);
    tcase_add_test(tc, test_stop_flag);
    tcase_add_test(tc, test_log);
    tcase_add_test(tc, test_stats_per_group);
    tcase_add_test(tc, test_redundant_in_one_lowering);
    tcase_add_test(tc, test_check_options);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
