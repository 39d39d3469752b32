/* check_sat.c: the SAT driver (src/backend/sat.c) through the solver
 * handle with --backend sat: solve, count and optimise small hand-made
 * and random models, every answer against brute force, under each CNF
 * encoding; assumptions that hold for one call only; objective bounds
 * that leave the model as it was; time limits, stop requests (the watch
 * behind CaDiCaL's terminate callback), --sat-option and the log. */
#include "ilpm_int.h"
#include "sat_int.h"
#include "util.h"

#define ILPM_TESTUTIL_RANDOM
#include "testutil.h"
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The SAT encodings, each run on the same models. */
static const struct {
    ilpm_amo_enc amo;
    ilpm_card_enc card;
} encs[] = {
    {ILPM_AMO_AUTO, ILPM_CARD_SEQ},
    {ILPM_AMO_PAIRWISE, ILPM_CARD_SEQ},
    {ILPM_AMO_SEQ, ILPM_CARD_TOTALIZER},
    {ILPM_AMO_PRODUCT, ILPM_CARD_TOTALIZER},
};
#define NENCS ((int)(sizeof encs / sizeof *encs))

static void sat_options(ilpm_options *o, int enc)
{
    ilpm_options_init(o);
    o->backend = ILPM_BACKEND_SAT;
    ilpm_sat_opts_in(o)->amo = encs[enc].amo;
    ilpm_sat_opts_in(o)->card = encs[enc].card;
}

/* Brute force over every assignment of m's variables that sets the
 * literals fix[0..nfix): whether one satisfies m, how many distinct
 * projections onto x1..xnx there are, and the best objective. */
static int brute(const ilpm_model *m, int nx, const int *fix, int nfix,
                 uint64_t *count, int64_t *best)
{
    int nv = ilpm_model_nvars(m), feasible = 0;
    uint8_t vals[32], seen[1 << 8];
    memset(seen, 0, sizeof seen);
    *count = 0;
    ilpm_sense sense = ilpm_model_objective_get(m, NULL, NULL, NULL);
    for (unsigned a = 0; a < (1u << nv); a++) {
        for (int v = 1; v <= nv; v++)
            vals[v] = (a >> (v - 1)) & 1;
        int ok = 1;
        for (int i = 0; i < nfix; i++) {
            int l = fix[i];
            ok &= l > 0 ? vals[l] : !vals[-l];
        }
        if (!ok || !ilpm_model_check(m, vals, NULL))
            continue;
        unsigned px = a & ((1u << nx) - 1);
        if (!seen[px]) {
            seen[px] = 1;
            ++*count;
        }
        int64_t o = ilpm_model_objective_value(m, vals);
        if (!feasible || (sense == ILPM_MAXIMIZE ? o > *best : o < *best))
            *best = o;
        feasible = 1;
    }
    return feasible;
}

static ilpm_solver *new_solver(const ilpm_model *m, const ilpm_options *o)
{
    ilpm_err err = {0};
    ilpm_solver *s = ilpm_solver_new(m, o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    return s;
}

/* ------------------------------------------------------------------ */
/* Hand-made models                                                     */

/* x1 | x2, x1 -> x3, -(x2 & x3): solutions 1,0,1 and 0,1,0. */
START_TEST(test_solve_clauses)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {3};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int c1[2] = {1, 2}, c2[2] = {-1, 3}, c3[2] = {-2, -3};
    ck_assert_int_eq(ilpm_add_clause(m, c1, 2, &err), 0);
    ck_assert_int_eq(ilpm_add_clause(m, c2, 2, &err), 0);
    ck_assert_int_eq(ilpm_add_clause(m, c3, 2, &err), 0);
    for (int e = 0; e < NENCS; e++) {
        ilpm_options o;
        sat_options(&o, e);
        ilpm_solver *s = new_solver(m, &o);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        const uint8_t *v = ilpm_solver_values(s);
        ck_assert(ilpm_model_check(m, v, NULL));
        ck_assert(v[2] == !v[1] && v[3] == v[1]);
        /* under x2 only 0,1,0; under x2 & x3 nothing, and after that the
         * model is as it was */
        int a1[1] = {2}, a2[2] = {2, 3};
        ck_assert_int_eq(ilpm_solver_solve(s, a1, 1, &err), ILPM_SOLVED);
        v = ilpm_solver_values(s);
        ck_assert(!v[1] && v[2] && !v[3]);
        ck_assert_int_eq(ilpm_solver_solve(s, a2, 2, &err), ILPM_UNSAT);
        int a3[1] = {1};
        ck_assert_int_eq(ilpm_solver_solve(s, a3, 1, &err), ILPM_SOLVED);
        ilpm_solver_free(s);
        s = new_solver(m, &o);
        uint64_t n = 0;
        ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_int_eq(n, 2);
        ck_assert(ilpm_solver_count_complete(s));
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* n+1 pigeons in n holes: each pigeon in exactly one hole, each hole at
 * most one pigeon. */
static ilpm_model *pigeons(int n)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {1, 1}, hi[2] = {n + 1, n};
    int f = ilpm_model_family(m, "P", 2, lo, hi, 0, &err);
    ck_assert_int_ge(f, 0);
    int lits[64];
    for (int p = 1; p <= n + 1; p++) {
        for (int h = 1; h <= n; h++)
            lits[h - 1] = ilpm_model_var(m, f, p, h, 0, 0);
        ck_assert_int_eq(ilpm_add_exo(m, lits, n, &err), 0);
    }
    for (int h = 1; h <= n; h++) {
        for (int p = 1; p <= n + 1; p++)
            lits[p - 1] = ilpm_model_var(m, f, p, h, 0, 0);
        ck_assert_int_eq(ilpm_add_amo(m, lits, n + 1, &err), 0);
    }
    return m;
}

START_TEST(test_unsat_pigeons)
{
    ilpm_err err = {0};
    ilpm_model *m = pigeons(4);
    for (int e = 0; e < NENCS; e++) {
        ilpm_options o;
        sat_options(&o, e);
        ilpm_solver *s = new_solver(m, &o);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_UNSAT);
        ilpm_solver_free(s);
        s = new_solver(m, &o);
        uint64_t n = 9;
        ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_int_eq(n, 0);
        ck_assert(ilpm_solver_count_complete(s));
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* Knapsack: maximise 5a + 4b + 3c + 2d with 4a + 3b + 2c + d <= 6 and
 * one item at least: 9 (b, c, d); minimise it: 2 (d alone). */
START_TEST(test_optimize_knapsack)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {4};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int lits[4] = {1, 2, 3, 4};
    int64_t w[4] = {4, 3, 2, 1}, v[4] = {5, 4, 3, 2};
    ck_assert_int_eq(ilpm_add_linear(m, w, lits, 4, ILPM_LE, 6, &err), 0);
    ck_assert_int_eq(ilpm_add_alo(m, lits, 4, &err), 0);
    for (int sense = 0; sense < 2; sense++) {
        ilpm_sense se = sense ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
        ck_assert_int_eq(ilpm_model_objective(m, se, v, lits, 4, &err), 0);
        uint64_t cnt;
        int64_t best = 0;
        ck_assert(brute(m, 4, NULL, 0, &cnt, &best));
        ck_assert_int_eq(best, sense ? 2 : 9);
        for (int e = 0; e < NENCS; e++) {
            ilpm_options o;
            sat_options(&o, e);
            ilpm_solver *s = new_solver(m, &o);
            ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err),
                             ILPM_OPTIMAL);
            ck_assert_int_eq(ilpm_solver_objective(s), best);
            ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            /* the bounds are gone: every solution is there again */
            uint64_t n = 0;
            ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                             ILPM_SOLVED);
            ck_assert_int_eq(n, cnt);
            ilpm_solver_free(s);
        }
    }
    ilpm_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Random models against brute force                                    */

START_TEST(test_random_against_brute_force)
{
    rng_state = 2024;
    ilpm_err err = {0};
    for (int iter = 0; iter < 150; iter++) {
        int nx = 1 + (int)rnd(6), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, iter % 2);
        uint64_t want;
        int64_t best = 0;
        int feasible = brute(m, nx, NULL, 0, &want, &best);
        int e = iter % NENCS;
        ilpm_options o;
        sat_options(&o, e);
        ilpm_solver *s = new_solver(m, &o);
        ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
        ck_assert_int_eq(st, feasible ? ILPM_SOLVED : ILPM_UNSAT);
        if (feasible)
            ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
        if (iter % 2) {
            st = ilpm_solver_optimize(s, NULL, 0, &err);
            ck_assert_int_eq(st, feasible ? ILPM_OPTIMAL : ILPM_UNSAT);
            if (feasible) {
                ck_assert_msg(ilpm_solver_objective(s) == best,
                              "iter %d: objective %lld, want %lld", iter,
                              (long long)ilpm_solver_objective(s),
                              (long long)best);
                ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            }
        }
        /* counting on the same solver, after solving (and optimising) */
        uint64_t got;
        ck_assert_int_eq(ilpm_solver_count(s, 0, &got, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_msg(got == want, "iter %d enc %d: count %llu, want %llu",
                      iter, e, (unsigned long long)got,
                      (unsigned long long)want);
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* Assumptions hold for one call: the answer under them is brute force's
 * with them fixed, and the call after sees the model whole. */
START_TEST(test_random_assumptions)
{
    rng_state = 99;
    ilpm_err err = {0};
    for (int iter = 0; iter < 150; iter++) {
        int nx = 2 + (int)rnd(5), na = (int)rnd(2);
        ilpm_model *m = random_model(nx, na, 1);
        uint64_t all, under;
        int64_t best_all = 0, best_under = 0;
        int feas_all = brute(m, nx, NULL, 0, &all, &best_all);
        int as[3], n = 1 + (int)rnd(3);
        for (int i = 0; i < n; i++)
            as[i] = rnd_lit(nx);
        int feas_under = brute(m, nx, as, n, &under, &best_under);
        ilpm_options o;
        sat_options(&o, iter % NENCS);
        ilpm_solver *s = new_solver(m, &o);
        for (int round = 0; round < 2; round++) {
            ilpm_status st = ilpm_solver_solve(s, as, n, &err);
            ck_assert_int_eq(st, feas_under ? ILPM_SOLVED : ILPM_UNSAT);
            if (feas_under) {
                const uint8_t *v = ilpm_solver_values(s);
                ck_assert(ilpm_model_check(m, v, NULL));
                for (int i = 0; i < n; i++)
                    ck_assert(as[i] > 0 ? v[as[i]] : !v[-as[i]]);
            }
            st = ilpm_solver_optimize(s, as, n, &err);
            ck_assert_int_eq(st, feas_under ? ILPM_OPTIMAL : ILPM_UNSAT);
            if (feas_under)
                ck_assert_int_eq(ilpm_solver_objective(s), best_under);
            st = ilpm_solver_optimize(s, NULL, 0, &err);
            ck_assert_int_eq(st, feas_all ? ILPM_OPTIMAL : ILPM_UNSAT);
            if (feas_all)
                ck_assert_int_eq(ilpm_solver_objective(s), best_all);
        }
        uint64_t got;
        ck_assert_int_eq(ilpm_solver_count(s, 0, &got, NULL, NULL, &err),
                         ILPM_SOLVED);
        ck_assert_int_eq(got, all);
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* Blocking solutions one by one finds brute force's count, each new. */
START_TEST(test_block_enumerates)
{
    rng_state = 7;
    ilpm_err err = {0};
    for (int iter = 0; iter < 60; iter++) {
        int nx = 1 + (int)rnd(6);
        ilpm_model *m = random_model(nx, 0, 0);
        uint64_t want;
        int64_t best;
        brute(m, nx, NULL, 0, &want, &best);
        ilpm_options o;
        sat_options(&o, iter % NENCS);
        ilpm_solver *s = new_solver(m, &o);
        uint8_t seen[1 << 6];
        memset(seen, 0, sizeof seen);
        uint64_t n = 0;
        while (ilpm_solver_solve(s, NULL, 0, &err) == ILPM_SOLVED) {
            const uint8_t *v = ilpm_solver_values(s);
            unsigned a = 0;
            for (int x = 1; x <= nx; x++)
                a |= (unsigned)v[x] << (x - 1);
            ck_assert_msg(!seen[a], "iter %d: solution %u twice", iter, a);
            seen[a] = 1;
            n++;
            ck_assert_int_eq(ilpm_solver_block(s, &err), 0);
        }
        ck_assert_int_eq(n, want);
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* A count stopped at its limit is complete only when nothing is left. */
START_TEST(test_count_limit)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {5};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int lits[5] = {1, 2, 3, 4, 5};
    ck_assert_int_eq(ilpm_add_card(m, lits, 5, ILPM_EQ, 2, &err), 0);
    ilpm_options o;
    sat_options(&o, 0);
    ilpm_solver *s = new_solver(m, &o);
    uint64_t n = 0;
    ck_assert_int_eq(ilpm_solver_count(s, 4, &n, NULL, NULL, &err),
                     ILPM_SOLVED);
    ck_assert_int_eq(n, 4);
    ck_assert(!ilpm_solver_count_complete(s));
    ilpm_solver_free(s);
    s = new_solver(m, &o);
    ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                     ILPM_SOLVED);
    ck_assert_int_eq(n, 10);
    ck_assert(ilpm_solver_count_complete(s));
    ilpm_solver_free(s);
    ilpm_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Limits and stops                                                     */

/* 11 pigeons in 10 holes is far beyond a fraction of a second for
 * CDCL: the time limit ends the solve, in time. */
START_TEST(test_time_limit)
{
    ilpm_err err = {0};
    ilpm_model *m = pigeons(10);
    ilpm_options o;
    sat_options(&o, 1);
    /* The limit counts from here: building the CNF (slow under
     * valgrind) is not what is timed. */
    ilpm_solver *s = new_solver(m, &o);
    double limit = 0.3;
    ilpm_solver_set_deadline(s, ilpm_now() + limit);
    double t0 = ilpm_now();
    ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
    double took = ilpm_now() - t0;
    ck_assert_int_eq(st, ILPM_TIMEOUT);
    ck_assert_msg(took < limit + 1.0 * test_slowdown(), "took %.2f s", took);
    /* the solver stays usable: a new limit, the same answer */
    ilpm_solver_set_deadline(s, ilpm_now() + 0.1);
    ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_TIMEOUT);
    ilpm_solver_free(s);
    ilpm_model_free(m);
}
END_TEST

static volatile int stop_now;

static void *raise_stop(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    stop_now = 1;
    return NULL;
}

/* The stop flag, polled through the watch by CaDiCaL's terminate
 * callback: set before a call, the call does not start; set during a
 * solve or a count, it ends them with ILPM_STOPPED. */
START_TEST(test_stop_flag)
{
    ilpm_err err = {0};
    ilpm_model *m = pigeons(10);
    ilpm_options o;
    sat_options(&o, 1);
    o.stop_flag = &stop_now;
    stop_now = 0;
    ilpm_solver *s = new_solver(m, &o);
    stop_now = 1;
    ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_STOPPED);
    stop_now = 0;
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, raise_stop, NULL), 0);
    double t0 = ilpm_now();
    ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_STOPPED);
    ck_assert_double_lt(ilpm_now() - t0, 5.0 * test_slowdown());
    pthread_join(t, NULL);
    ilpm_solver_free(s);
    ilpm_model_free(m);

    /* a count of many solutions (20 choose 10), stopped midway */
    ilpm_model *c = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {20}, lits[20];
    ck_assert_int_ge(ilpm_model_family(c, "x", 1, lo, hi, 0, &err), 0);
    for (int i = 0; i < 20; i++)
        lits[i] = i + 1;
    ck_assert_int_eq(ilpm_add_card(c, lits, 20, ILPM_EQ, 10, &err), 0);
    stop_now = 0;
    s = new_solver(c, &o);
    ck_assert_int_eq(pthread_create(&t, NULL, raise_stop, NULL), 0);
    uint64_t n = 0;
    ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                     ILPM_STOPPED);
    pthread_join(t, NULL);
    ck_assert_uint_lt(n, 184756);
    ck_assert(!ilpm_solver_count_complete(s));
    ilpm_solver_free(s);
    ilpm_model_free(c);
    stop_now = 0;
}
END_TEST

/* --max-memory bounds the CNF as it is built: a cardinality constraint
 * whose encoding needs more is refused as a limit, not a crash. */
START_TEST(test_memory_limit)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    enum { N = 10000 };
    int lo[1] = {1}, hi[1] = {N};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    static int lits[N];
    for (int i = 0; i < N; i++)
        lits[i] = i + 1;
    ck_assert_int_eq(ilpm_add_card(m, lits, N, ILPM_LE, N / 2, &err), 0);
    ilpm_options o;
    sat_options(&o, 0);
    o.max_memory_mb = 1;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(err.rc, ILPM_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "max-memory") != NULL, "%s", err.msg);
    ilpm_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Objectives of wide weights (cnf_obj.c)                               */

/* A random model over nv variables (nv <= 16): a few clauses and one
 * cardinality row, and an objective of nt terms with weights up to
 * 2^30 each way, whose bounds no small BDD encodes. */
static ilpm_model *wide_model(int nv, int nt, ilpm_sense sense)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {nv};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int l[64];
    int64_t w[64];
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++)
            l[j] = rnd_lit(nv);
        ck_assert_int_eq(ilpm_add_clause(m, l, 3, &err), 0);
    }
    for (int j = 0; j < nv; j++)
        l[j] = j + 1;
    ck_assert_int_eq(ilpm_add_card(m, l, nv, ILPM_GE, nv / 3, &err), 0);
    for (int j = 0; j < nt; j++) {
        l[j] = rnd_lit(nv);
        w[j] = ((int64_t)rnd(1u << 30) << 1) - ((int64_t)1 << 30);
    }
    ck_assert_int_eq(ilpm_model_objective(m, sense, w, l, nt, &err), 0);
    return m;
}

/* The best objective over every assignment (0 if none is feasible). */
static int brute_best(const ilpm_model *m, int64_t *best)
{
    int nv = ilpm_model_nvars(m), found = 0;
    int max = ilpm_model_objective_get(m, NULL, NULL, NULL) == ILPM_MAXIMIZE;
    uint8_t vals[32];
    for (unsigned a = 0; a < (1u << nv); a++) {
        for (int v = 1; v <= nv; v++)
            vals[v] = (a >> (v - 1)) & 1;
        if (!ilpm_model_check(m, vals, NULL))
            continue;
        int64_t o = ilpm_model_objective_value(m, vals);
        if (!found || (max ? o > *best : o < *best))
            *best = o;
        found = 1;
    }
    return found;
}

struct incs {
    const ilpm_model *m;
    int n, worse;
    int64_t last;
};

static int on_inc(void *ctx, const uint8_t *vals)
{
    struct incs *in = ctx;
    int64_t o = ilpm_model_objective_value(in->m, vals);
    int max =
        ilpm_model_objective_get(in->m, NULL, NULL, NULL) == ILPM_MAXIMIZE;
    in->worse += in->n > 0 && (max ? o <= in->last : o >= in->last);
    in->last = o;
    in->n++;
    return 0;
}

/* With --max-pb-nodes 5 no bound of these objectives fits one BDD (the
 * bounds used to be refused so); the adders prove the optimum, equal to
 * brute force's, through incumbents that strictly improve, and the model
 * is whole afterwards. */
START_TEST(test_optimize_wide_weights)
{
    rng_state = 4100 + (unsigned)_i;
    ilpm_err err = {0};
    for (int iter = 0; iter < 8; iter++) {
        int nv = 8 + (int)rnd(7), nt = nv + (int)rnd(8);
        ilpm_sense se = iter % 2 ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
        ilpm_model *m = wide_model(nv, nt, se);
        int64_t best = 0;
        int feasible = brute_best(m, &best);
        ilpm_options o;
        sat_options(&o, iter % NENCS);
        ilpm_sat_opts_in(&o)->max_pb_nodes = 5;
        ilpm_solver *s = new_solver(m, &o);
        struct incs in = {m, 0, 0, 0};
        ilpm_solver_on_incumbent(s, on_inc, &in);
        ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
        ck_assert_msg(st == (feasible ? ILPM_OPTIMAL : ILPM_UNSAT),
                      "iter %d: status %d (%s)", iter, (int)st, err.msg);
        if (feasible) {
            ck_assert_msg(ilpm_solver_objective(s) == best,
                          "iter %d: objective %lld, want %lld", iter,
                          (long long)ilpm_solver_objective(s), (long long)best);
            ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            ck_assert_int_ge(in.n, 1);
            ck_assert_int_eq(in.worse, 0);
            ck_assert(in.last == best);
            /* the bounds are retired: the worst solution is there again */
            ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        }
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Core-guided optimisation (sat_core.c), forced by --sat-search core   */

/* A random model as wide_model's with more clauses, its objective's nt
 * weights in [-wmax, wmax] (small ones: cores that share weights,
 * totalizers that grow and weights split); minimising, positive weights
 * on positive literals, which the cardinality row makes costly. */
static ilpm_model *core_model(int nv, int nt, int64_t wmax, ilpm_sense sense)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {nv};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int l[64];
    int64_t w[64];
    for (int k = 0; k < nv; k++) {
        for (int j = 0; j < 3; j++)
            l[j] = rnd_lit(nv);
        ck_assert_int_eq(ilpm_add_clause(m, l, 3, &err), 0);
    }
    for (int j = 0; j < nv; j++)
        l[j] = j + 1;
    ck_assert_int_eq(ilpm_add_card(m, l, nv, ILPM_GE, nv / 2, &err), 0);
    for (int j = 0; j < nt; j++) {
        l[j] = rnd_lit(nv);
        w[j] = (int64_t)rnd((unsigned)(2 * wmax + 1)) - wmax;
        if (sense == ILPM_MINIMIZE) /* costs on the positive literals */
            l[j] = abs(l[j]), w[j] = 1 + (w[j] < 0 ? -w[j] : w[j]);
    }
    ck_assert_int_eq(ilpm_model_objective(m, sense, w, l, nt, &err), 0);
    return m;
}

/* The core-guided search on random weighted models (small weights, then
 * wide ones: one stratum per weight), several seeds: the optimum is
 * brute force's, under assumptions too, through incumbents that
 * strictly improve; UNSAT when nothing is feasible; the solver whole
 * afterwards. */
START_TEST(test_core_against_brute_force)
{
    rng_state = 5200 + (unsigned)_i;
    ilpm_err err = {0};
    for (int iter = 0; iter < 12; iter++) {
        int nv = 6 + (int)rnd(9), nt = nv + (int)rnd(10);
        int64_t wmax = iter % 3 == 2 ? (int64_t)1 << 30 : 1 + (int)rnd(4);
        ilpm_sense se = iter % 2 ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
        ilpm_model *m = core_model(nv, nt, wmax, se);
        int as[2] = {rnd_lit(nv), rnd_lit(nv)}, nas = iter % 4 == 3 ? 2 : 0;
        uint64_t cnt;
        int64_t best = 0;
        int feasible = brute(m, 1, as, nas, &cnt, &best);
        ilpm_options o;
        sat_options(&o, iter % NENCS);
        ilpm_sat_opts_in(&o)->search = ILPM_SAT_SEARCH_CORE;
        ilpm_solver *s = new_solver(m, &o);
        struct incs in = {m, 0, 0, 0};
        ilpm_solver_on_incumbent(s, on_inc, &in);
        ilpm_status st = ilpm_solver_optimize(s, as, nas, &err);
        ck_assert_msg(st == (feasible ? ILPM_OPTIMAL : ILPM_UNSAT),
                      "iter %d: status %d (%s)", iter, (int)st, err.msg);
        if (feasible) {
            ck_assert_msg(ilpm_solver_objective(s) == best,
                          "iter %d: objective %lld, want %lld", iter,
                          (long long)ilpm_solver_objective(s), (long long)best);
            ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            ck_assert_int_ge(in.n, 1);
            ck_assert_int_eq(in.worse, 0);
            ck_assert(in.last == best);
            /* the totalizers bind nothing: the model is as it was */
            ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
            ck_assert_int_eq(ilpm_solver_optimize(s, as, nas, &err),
                             ILPM_OPTIMAL);
            ck_assert(ilpm_solver_objective(s) == best);
        }
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* A core of 10,000 literals (one clause over every cost literal): its
 * totalizer (about 180,000 literals) counts towards --max-memory: within
 * 16 MB the optimum 1, past 1 MB refused as a limit that names it. */
START_TEST(test_core_memory)
{
    ilpm_err err = {0};
    enum { N = 10000 };
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {N};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    static int l[N];
    static int64_t w[N];
    for (int i = 0; i < N; i++)
        l[i] = i + 1, w[i] = 1;
    ck_assert_int_eq(ilpm_add_clause(m, l, N, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, w, l, N, &err), 0);
    ilpm_options o;
    sat_options(&o, 0);
    ilpm_sat_opts_in(&o)->search = ILPM_SAT_SEARCH_CORE;
    o.max_memory_mb = 16;
    ilpm_solver *s = new_solver(m, &o);
    ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
    ck_assert_msg(st == ILPM_OPTIMAL, "status %d: %s", (int)st, err.msg);
    ck_assert_int_eq(ilpm_solver_objective(s), 1);
    ilpm_solver_free(s);
    o.max_memory_mb = 1;
    s = new_solver(m, &o);
    st = ilpm_solver_optimize(s, NULL, 0, &err);
    ck_assert_msg(st == ILPM_ERROR, "status %d", (int)st);
    ck_assert_int_eq(err.rc, ILPM_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "max-memory") != NULL, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "totalizer") != NULL, "%s", err.msg);
    ilpm_solver_free(s);
    ilpm_model_free(m);
}
END_TEST

/* The core-guided search's ends: an objective whose every term can be
 * 0 is optimal at the first stratum; pigeons in too few holes are
 * UNSAT with an objective too. */
START_TEST(test_core_trivial_and_unsat)
{
    ilpm_err err = {0};
    ilpm_options o;
    sat_options(&o, 0);
    ilpm_sat_opts_in(&o)->search = ILPM_SAT_SEARCH_CORE;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {6};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int l[6] = {1, 2, 3, -4, -5, -6};
    int64_t w[6] = {3, 1, 4, 1, 5, 9};
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, w, l, 6, &err), 0);
    ilpm_solver *s = new_solver(m, &o);
    ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
    ck_assert(ilpm_solver_objective(s) == 0);
    ilpm_solver_free(s);
    ilpm_model_free(m);

    m = pigeons(4);
    int nv = ilpm_model_nvars(m);
    int pl[64];
    int64_t pw[64];
    for (int v = 1; v <= nv && v <= 64; v++) {
        pl[v - 1] = v;
        pw[v - 1] = v % 3 + 1;
    }
    ck_assert_int_eq(
        ilpm_model_objective(m, ILPM_MINIMIZE, pw, pl, nv < 64 ? nv : 64, &err),
        0);
    s = new_solver(m, &o);
    ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_UNSAT);
    ilpm_solver_free(s);
    ilpm_model_free(m);
}
END_TEST

/* An objective over 300 variables with wide weights, all but 12 of them
 * fixed by unit clauses, under --max-memory 4: a bound as one BDD
 * needed more than the 2,000,000 nodes of --max-pb-nodes (and ended the
 * optimisation as an error); the adders (about 150,000 literals) fit in
 * the budget, and the optimum is brute force's over the 12. */
START_TEST(test_objective_memory)
{
    ilpm_err err = {0};
    enum { N = 300, FREE = 12 };
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {N};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    static int l[N];
    static int64_t w[N];
    rng_state = 77;
    for (int i = 0; i < N; i++) {
        l[i] = i + 1;
        w[i] = ((int64_t)rnd(1u << 20) << 1) - ((int64_t)1 << 20);
        int u = rnd(2) ? i + 1 : -(i + 1);
        if (i >= FREE)
            ck_assert_int_eq(ilpm_add_clause(m, &u, 1, &err), 0);
    }
    int c[3] = {1, -2, 3};
    ck_assert_int_eq(ilpm_add_clause(m, c, 3, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, w, l, N, &err), 0);
    /* brute force over the free 12, the others as their units say */
    int64_t want = INT64_MAX;
    uint8_t vals[N + 1];
    for (int i = FREE; i < N; i++) {
        ilpm_con con;
        ilpm_model_con(m, (size_t)(i - FREE), &con);
        vals[con.lits[0] > 0 ? con.lits[0] : -con.lits[0]] = con.lits[0] > 0;
    }
    for (unsigned a = 0; a < 1u << FREE; a++) {
        for (int v = 1; v <= FREE; v++)
            vals[v] = (a >> (v - 1)) & 1;
        if (ilpm_model_check(m, vals, NULL)) {
            int64_t o = ilpm_model_objective_value(m, vals);
            want = o < want ? o : want;
        }
    }
    ilpm_options o;
    sat_options(&o, 0);
    o.max_memory_mb = 4;
    ilpm_solver *s = new_solver(m, &o);
    ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
    ck_assert_msg(st == ILPM_OPTIMAL, "status %d: %s", (int)st, err.msg);
    ck_assert_int_eq(ilpm_solver_objective(s), want);
    ilpm_solver_free(s);
    /* a budget the objective's network does not fit either: refused as
     * a limit, as any constraint past it */
    o.max_memory_mb = 1;
    s = new_solver(m, &o);
    st = ilpm_solver_optimize(s, NULL, 0, &err);
    ck_assert_int_eq(st, ILPM_ERROR);
    ck_assert_int_eq(err.rc, ILPM_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "max-memory") != NULL, "%s", err.msg);
    ilpm_solver_free(s);
    ilpm_model_free(m);
}
END_TEST

/* A deadline that falls while the objective's network is built (half a
 * million terms, whose one BDD was refused outright): the optimisation
 * ends in time, with its first solution. */
START_TEST(test_objective_time_limit)
{
    ilpm_err err = {0};
    enum { N = 500000 };
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {N};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int *l = malloc(N * sizeof *l);
    int64_t *w = malloc(N * sizeof *w);
    ck_assert(l && w);
    rng_state = 78;
    for (int i = 0; i < N; i++) {
        l[i] = i + 1;
        w[i] = 1 + (int64_t)rnd(1u << 30);
    }
    int c[2] = {1, 2};
    ck_assert_int_eq(ilpm_add_clause(m, c, 2, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MAXIMIZE, w, l, N, &err), 0);
    ilpm_options o;
    sat_options(&o, 0);
    ilpm_solver *s = new_solver(m, &o);
    double limit = 0.3, t0 = ilpm_now();
    ilpm_solver_set_deadline(s, t0 + limit);
    ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
    double took = ilpm_now() - t0;
    ck_assert_msg(st == ILPM_FEASIBLE || st == ILPM_TIMEOUT, "status %d: %s",
                  (int)st, err.msg);
    ck_assert_msg(took < limit + 0.5 * test_slowdown(), "took %.2f s", took);
    ilpm_solver_free(s);
    free(l);
    free(w);
    ilpm_model_free(m);
}
END_TEST

/* The core-guided search's deadline among many quick calls: 20,000
 * disjoint pairs x | y, each pair a core of its own (20,000 calls under
 * up to 40,000 assumptions, seconds of work): it ends in time, with an
 * incumbent. */
START_TEST(test_core_time_limit)
{
    ilpm_err err = {0};
    enum { P = 20000 };
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {2 * P};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int *l = malloc(2 * P * sizeof *l);
    int64_t *w = malloc(2 * P * sizeof *w);
    ck_assert(l && w);
    for (int i = 0; i < 2 * P; i++) {
        l[i] = i + 1;
        w[i] = 1 + i % 7;
    }
    for (int i = 0; i < P; i++)
        ck_assert_int_eq(ilpm_add_clause(m, l + 2 * i, 2, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, w, l, 2 * P, &err),
                     0);
    ilpm_options o;
    sat_options(&o, 0);
    ilpm_sat_opts_in(&o)->search = ILPM_SAT_SEARCH_CORE;
    ilpm_solver *s = new_solver(m, &o);
    double limit = 0.3, t0 = ilpm_now();
    ilpm_solver_set_deadline(s, t0 + limit);
    ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
    double took = ilpm_now() - t0;
    ck_assert_msg(st == ILPM_FEASIBLE, "status %d: %s", (int)st, err.msg);
    ck_assert_msg(took < limit + 0.5 * test_slowdown(), "took %.2f s", took);
    ilpm_solver_free(s);
    free(l);
    free(w);
    ilpm_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------ */
/* --sat-option and the log                                             */

START_TEST(test_sat_options)
{
    static const struct {
        const char *list;
        const char *msg; /* NULL: accepted */
    } cases[] = {
        {"phase=0", NULL},
        {"phase=0,restart=0", NULL},
        {"nosuchoption=1", "CaDiCaL has no option 'nosuchoption'"},
        {"phase", "expected NAME=VALUE"},
        {"phase=x", "sat-option phase"},
        {"phase=7", "sat-option phase"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_options o;
        sat_options(&o, 0);
        ilpm_sat_opts_in(&o)->sat_options = cases[i].list;
        ilpm_err err = {0};
        int rc = ilpm_backend_check_options(ILPM_BACKEND_SAT, &o, &err);
        if (!cases[i].msg) {
            ck_assert_msg(rc == 0, "%s: %s", cases[i].list, err.msg);
            continue;
        }
        ck_assert_msg(rc != 0, "%s accepted", cases[i].list);
        ck_assert_int_eq(err.rc, ILPM_E_INPUT);
        ck_assert_msg(strstr(err.msg, cases[i].msg) != NULL, "%s: %s",
                      cases[i].list, err.msg);
    }
    /* accepted options are applied and the solver still answers */
    ilpm_err err = {0};
    ilpm_model *m = pigeons(3);
    ilpm_options o;
    sat_options(&o, 0);
    ilpm_sat_opts_in(&o)->sat_options = "phase=0";
    ilpm_solver *s = new_solver(m, &o);
    ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_UNSAT);
    ilpm_solver_free(s);
    ilpm_model_free(m);
}
END_TEST

static void collect_log(void *ctx, const char *text)
{
    ilpm_buf_puts(ctx, text);
}

/* With verbose and a log, CaDiCaL's messages reach the log (its "c"
 * lines), not standard output. */
START_TEST(test_log)
{
    ilpm_err err = {0};
    ilpm_model *m = pigeons(3);
    ilpm_buf log;
    ilpm_buf_init(&log);
    ilpm_options o;
    sat_options(&o, 0);
    o.verbose = 1;
    o.log = collect_log;
    o.log_ctx = &log;
    ilpm_solver *s = new_solver(m, &o);
    fflush(stdout);
    fd_capture cap;
    capture_begin(&cap);
    ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_UNSAT);
    fflush(stdout);
    FILE *out = capture_end(&cap);
    ck_assert_int_eq(fgetc(out), EOF);
    fclose(out);
    ck_assert_msg(strstr(ilpm_buf_str(&log), "c ") != NULL, "log: %s",
                  ilpm_buf_str(&log));
    ilpm_solver_free(s);
    ilpm_buf_free(&log);
    ilpm_model_free(m);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("sat");
    TCase *tc = tcase_create("solve");
    tcase_add_test(tc, test_solve_clauses);
    tcase_add_test(tc, test_unsat_pigeons);
    tcase_add_test(tc, test_optimize_knapsack);
    tcase_add_test(tc, test_random_against_brute_force);
    tcase_add_test(tc, test_random_assumptions);
    tcase_add_test(tc, test_block_enumerates);
    tcase_add_test(tc, test_count_limit);
    suite_add_tcase(su, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_time_limit);
    tcase_add_test(tc, test_stop_flag);
    tcase_add_test(tc, test_memory_limit);
    tcase_add_loop_test(tc, test_optimize_wide_weights, 0, 2);
    tcase_add_test(tc, test_objective_memory);
    tcase_add_test(tc, test_objective_time_limit);
    tcase_add_test(tc, test_core_time_limit);
    tcase_add_loop_test(tc, test_core_against_brute_force, 0, 4);
    tcase_add_test(tc, test_core_trivial_and_unsat);
    tcase_add_test(tc, test_core_memory);
    suite_add_tcase(su, tc);
    tc = tcase_create("options");
    tcase_add_test(tc, test_sat_options);
    tcase_add_test(tc, test_log);
    suite_add_tcase(su, tc);
    return run_suite(su);
}
