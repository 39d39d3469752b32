/* Tests of the constraint-builder layer (src/model): families, names,
 * groups, constraint storage, misuse reported as errors, the checker. */
#include "ilpm.h"

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
    ck_assert_int_eq(ilpm_model_interrupted(m), 0);
    ilpm_model_set_deadline(m, 1e-9, NULL);
    ck_assert_int_eq(ilpm_add_exo(m, l, 4, &err), -1);
    ck_assert_int_eq(err.status, ILPM_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "time limit reached while building"));
    ck_assert_int_eq(ilpm_model_interrupted(m), ILPM_TIMEOUT);
    /* Sticky: the next call fails at once, clock or not. */
    ck_assert_int_eq(ilpm_add_clause(m, l, 2, &err), -1);
    ck_assert_int_eq(ilpm_model_ncons(m), 1);
    /* An ordinary error afterwards carries no status. */
    ilpm_err_set(&err, "plain");
    ck_assert_int_eq(err.status, 0);

    volatile int stop = 0;
    ilpm_model_set_deadline(m, 0, &stop);
    ck_assert_int_eq(ilpm_add_amo(m, l, 4, &err), 0);
    stop = 1;
    for (int i = 0; i < 300 && ilpm_add_amo(m, l, 4, &err) == 0; i++)
        ;
    ck_assert_int_eq(err.status, ILPM_STOPPED);
    ck_assert_int_eq(ilpm_model_interrupted(m), ILPM_STOPPED);
}
END_TEST

/* Lowering a model past the deadline: both back ends give up with
 * err.status ILPM_TIMEOUT, and a stop flag gives ILPM_STOPPED. */
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
    for (int b = 0; b < 2; b++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = b ? ILPM_BACKEND_SAT : ILPM_BACKEND_ILP;
        o.time_limit = 1e-9;
        ilpm_err e = {0};
        ck_assert_ptr_null(ilpm_solver_new(m, &o, &e));
        ck_assert_msg(e.status == ILPM_TIMEOUT, "%s: status %d, %s",
                      ilpm_backend_name(o.backend), e.status, e.msg);
        volatile int stop = 1;
        o.time_limit = 0;
        o.stop_flag = &stop;
        memset(&e, 0, sizeof e);
        ck_assert_ptr_null(ilpm_solver_new(m, &o, &e));
        ck_assert_int_eq(e.status, ILPM_STOPPED);
        /* Without limits the same model lowers and solves. */
        o.stop_flag = NULL;
        ilpm_solver *s = ilpm_solver_new(m, &o, &e);
        ck_assert_msg(s != NULL, "%s", e.msg);
        ilpm_solver_free(s);
    }
}
END_TEST

/* Propagation keeps exactly the solutions: random small models of every
 * kind with a few unit clauses, compared assignment by assignment. */
static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int rlit(uint64_t *s, int nv)
{
    int v = 1 + (int)(rnd(s) % (uint64_t)nv);
    return rnd(s) & 1 ? v : -v;
}

START_TEST(test_propagate_keeps_solutions)
{
    uint64_t seed = 7;
    int models = 0, reduced = 0;
    for (int t = 0; t < 400; t++) {
        ilpm_model *a = ilpm_model_new();
        int nv = 3 + (int)(rnd(&seed) % 7);
        int lo[1] = {1}, hi[1] = {nv};
        ck_assert_int_eq(ilpm_model_family(a, "x", 1, lo, hi, 0, &err), 0);
        int ncons = 1 + (int)(rnd(&seed) % 6);
        for (int i = 0; i < ncons; i++) {
            ilpm_model_group(a, i % 2 ? "odd" : "even", &err);
            int l[6], n = 1 + (int)(rnd(&seed) % 5);
            int64_t c[6];
            for (int j = 0; j < n; j++) {
                l[j] = rlit(&seed, nv);
                c[j] = (int64_t)(rnd(&seed) % 7) - 3;
            }
            int64_t k = (int64_t)(rnd(&seed) % 4);
            ilpm_cmp cmp = (ilpm_cmp)(rnd(&seed) % 3);
            /* clang-format off */
            switch (rnd(&seed) % 8) {
            case 0: ilpm_add_clause(a, l, n, &err); break;
            case 1: ilpm_add_alo(a, l, n, &err); break;
            case 2: ilpm_add_amo(a, l, n, &err); break;
            case 3: ilpm_add_exo(a, l, n, &err); break;
            case 4: ilpm_add_impl(a, l[0], rlit(&seed, nv), &err); break;
            case 5: ilpm_add_card(a, l, n, cmp, k, &err); break;
            case 6: ilpm_add_ccard(a, rlit(&seed, nv), l, n, cmp, k, &err); break;
            default: ilpm_add_linear(a, c, l, n, cmp, k - 1, &err); break;
            }
            /* clang-format on */
        }
        ilpm_model_group(a, "givens", &err);
        int nunits = (int)(rnd(&seed) % 3);
        for (int i = 0; i < nunits; i++) {
            int l = rlit(&seed, nv);
            ilpm_add_clause(a, &l, 1, &err);
        }
        int unchanged = -1;
        ilpm_model *b = ilpm_model_propagate(a, 1 + t % 2, &unchanged, &err);
        ck_assert_msg(b || unchanged == 1, "model %d: %s", t, err.msg);
        if (b) {
            reduced++;
            ck_assert_int_eq(ilpm_model_nvars(b), nv);
            ck_assert_int_ge(ilpm_model_family_find(b, "x"), 0);
            for (unsigned mask = 0; mask < (1u << nv); mask++) {
                uint8_t v[16] = {0};
                for (int i = 1; i <= nv; i++)
                    v[i] = (uint8_t)((mask >> (i - 1)) & 1);
                ck_assert_msg(ilpm_model_check(a, v, NULL) ==
                                  ilpm_model_check(b, v, NULL),
                              "model %d, assignment %#x", t, mask);
            }
            ilpm_model_free(b);
        }
        models++;
        ilpm_model_free(a);
    }
    ck_assert_int_gt(reduced, 50);
    ck_assert_int_eq(models, 400);
}
END_TEST

/* A Sudoku-like cell: the given forces its peers, the exactly-ones it
 * settles disappear, and the forced values become unit clauses. */
START_TEST(test_propagate_shape)
{
    int lo[1] = {1}, hi[1] = {4};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_model_group(m, "cell", &err);
    int l[4] = {1, 2, 3, 4};
    ck_assert_int_eq(ilpm_add_exo(m, l, 4, &err), 0);
    ilpm_model_group(m, "pair", &err);
    int p[2] = {3, 4};
    ck_assert_int_eq(ilpm_add_amo(m, p, 2, &err), 0);
    int one = 2;
    ck_assert_int_eq(ilpm_add_clause(m, &one, 1, &err), 0);
    int64_t c[2] = {1, 1};
    ilpm_model_objective(m, ILPM_MAXIMIZE, c, l, 2, &err);
    int unchanged = -1;
    ilpm_model *b = ilpm_model_propagate(m, 2, &unchanged, &err);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(unchanged, 0);
    /* every constraint satisfied: only the four unit clauses remain */
    ck_assert_int_eq(ilpm_model_ncons(b), 4);
    ilpm_con k;
    for (size_t i = 0; i < 4; i++) {
        ilpm_model_con(b, i, &k);
        ck_assert_int_eq(k.n, 1);
        ck_assert_int_eq(k.lits[0], (int)i + 1 == 2 ? 2 : -((int)i + 1));
        ck_assert_str_eq(ilpm_model_group_name(b, k.group), "fixed");
    }
    ck_assert_int_eq(ilpm_model_objective_get(b, NULL, NULL, NULL),
                     ILPM_MAXIMIZE);
    ilpm_model_free(b);
    /* No unit clause: nothing to do. */
    ilpm_model *e = ilpm_model_new();
    ilpm_model_family(e, "x", 1, lo, hi, 0, &err);
    ilpm_add_exo(e, l, 4, &err);
    ck_assert_ptr_null(ilpm_model_propagate(e, 2, &unchanged, &err));
    ck_assert_int_eq(unchanged, 1);
    ilpm_model_free(e);
}
END_TEST

/* The value a propagated model forces on variable v: 1, -1, or 0 when v
 * is left open (no unit clause). */
static int forced(const ilpm_model *b, int v)
{
    for (size_t i = 0; i < ilpm_model_ncons(b); i++) {
        ilpm_con k;
        ilpm_model_con(b, i, &k);
        if (k.kind == ILPM_CLAUSE && k.n == 1 && abs(k.lits[0]) == v)
            return k.lits[0] > 0 ? 1 : -1;
    }
    return 0;
}

/* Probing finds what unit propagation cannot: x1 fails (it implies x2
 * and not x2), and x5 follows from both values of x4. */
START_TEST(test_probe)
{
    int lo[1] = {1}, hi[1] = {6};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ck_assert_int_eq(ilpm_add_impl(m, 1, 2, &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, 1, -2, &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, 4, 5, &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, -4, 5, &err), 0);
    int l[3] = {3, 4, 6};
    ck_assert_int_eq(ilpm_add_card(m, l, 3, ILPM_LE, 1, &err), 0);
    int one = 3;
    ck_assert_int_eq(ilpm_add_clause(m, &one, 1, &err), 0);
    int unchanged = -1;
    ilpm_model *u = ilpm_model_propagate(m, 1, &unchanged, &err);
    ck_assert_ptr_nonnull(u);
    /* units: x3, and the cardinality row makes x4 and x6 false */
    ck_assert_int_eq(forced(u, 3), 1);
    ck_assert_int_eq(forced(u, 4), -1);
    ck_assert_int_eq(forced(u, 6), -1);
    ck_assert_int_eq(forced(u, 5), 1); /* through -x4 -> x5 */
    ck_assert_int_eq(forced(u, 1), 0);
    ilpm_model_set_branch_hint(m, ILPM_BRANCH_FIRST);
    ilpm_model *p = ilpm_model_propagate(m, 2, &unchanged, &err);
    ck_assert_ptr_nonnull(p);
    /* the search hint travels with the propagated copy */
    ck_assert_int_eq(ilpm_model_branch_hint(p), ILPM_BRANCH_FIRST);
    ck_assert_int_eq(forced(p, 1), -1);
    ck_assert_int_eq(forced(p, 2), 0);
    ilpm_model_free(u);
    ilpm_model_free(p);
    /* The run's stop flag (or time limit) cuts probing short; the unit
     * propagation stands. */
    ilpm_options o;
    ilpm_options_init(&o);
    o.propagate = ILPM_PROP_PROBE;
    volatile int stop = 1;
    o.stop_flag = &stop;
    ilpm_model *own = NULL;
    const ilpm_model *low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_nonnull(own);
    ck_assert_ptr_eq(low, own);
    ck_assert_int_eq(forced(own, 3), 1);
    ck_assert_int_eq(forced(own, 1), 0);
    ilpm_model_free(own);
    stop = 0;
    low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_int_eq(forced(own, 1), -1);
    ilpm_model_free(own);
    /* auto probes on both back ends; units leaves x1 open */
    for (int be = 0; be < 2; be++) {
        o.backend = (ilpm_backend)be;
        o.propagate = ILPM_PROP_AUTO;
        /* assumptions: settled for GLPK, left to CaDiCaL */
        ck_assert_int_eq(ilpm_propagate_assumed_level(&o),
                         o.backend == ILPM_BACKEND_ILP ? 2 : 0);
        low = ilpm_model_lowered(m, &o, &own, &err);
        ck_assert_int_eq(forced(own, 1), -1);
        ilpm_model_free(own);
        o.propagate = ILPM_PROP_UNITS;
        low = ilpm_model_lowered(m, &o, &own, &err);
        ck_assert_int_eq(forced(own, 1), 0);
        ilpm_model_free(own);
    }
    /* Both ways: with the cardinality row gone, x4 stays open and x5 is
     * still forced by probing alone. */
    ilpm_model *b = ilpm_model_new();
    ilpm_model_family(b, "x", 1, lo, hi, 0, &err);
    ilpm_add_impl(b, 4, 5, &err);
    ilpm_add_impl(b, -4, 5, &err);
    ilpm_add_clause(b, &one, 1, &err);
    u = ilpm_model_propagate(b, 1, &unchanged, &err);
    ck_assert_int_eq(forced(u, 5), 0);
    p = ilpm_model_propagate(b, 2, &unchanged, &err);
    ck_assert_int_eq(forced(p, 5), 1);
    ck_assert_int_eq(forced(p, 4), 0);
    ilpm_model_free(u);
    ilpm_model_free(p);
    ilpm_model_free(b);
    /* Clause probing: each literal of x1 | x2 | x4 implies x5, through
     * two side literals that only together give x5, so that neither -x5
     * nor any single variable's two values shows it. */
    b = ilpm_model_new();
    int hi2[1] = {11};
    ilpm_model_family(b, "x", 1, lo, hi2, 0, &err);
    int cl[3] = {1, 2, 4};
    ilpm_add_clause(b, cl, 3, &err);
    for (int i = 0; i < 3; i++) {
        int e = 6 + 2 * i, f = 7 + 2 * i;
        ilpm_add_impl(b, cl[i], e, &err);
        ilpm_add_impl(b, cl[i], f, &err);
        int t[3] = {-e, -f, 5};
        ilpm_add_clause(b, t, 3, &err);
    }
    ilpm_add_clause(b, &one, 1, &err);
    p = ilpm_model_propagate(b, 2, &unchanged, &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(forced(p, 5), 1);
    ck_assert_int_eq(forced(p, 1), 0);
    ilpm_model_free(p);
    ilpm_model_free(b);
}
END_TEST

/* The propagator settles what assumptions force, probing included, and
 * takes it back before the next call; the model's own units are left
 * out of what it returns. */
START_TEST(test_propagator)
{
    int lo[1] = {1}, hi[1] = {7};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_add_impl(m, 1, 2, &err);
    ilpm_add_impl(m, 1, -3, &err);
    ilpm_add_impl(m, 4, 5, &err);
    ilpm_add_impl(m, -4, 5, &err);
    int ex[3] = {2, 3, 6};
    ilpm_add_exo(m, ex, 3, &err);
    int seven = 7;
    ilpm_add_clause(m, &seven, 1, &err);
    ilpm_propagator *p = ilpm_propagator_new(m, &err);
    ck_assert_ptr_nonnull(p);
    int *out, n;
    int a[1] = {1};
    /* units: x1 gives x2, -x3, then -x6 through the exactly-one */
    ck_assert_int_eq(ilpm_propagator_run(p, a, 1, 1, NULL, &out, &n, &err), 0);
    ck_assert_int_eq(n, 4);
    int want[4] = {1, 2, -3, -6};
    for (int i = 0; i < 4; i++) {
        int found = 0;
        for (int j = 0; j < n; j++)
            found |= out[j] == want[i];
        ck_assert_msg(found, "literal %d not forced", want[i]);
    }
    free(out);
    /* probing adds x5 (both values of x4 give it) */
    ck_assert_int_eq(ilpm_propagator_run(p, a, 1, 2, NULL, &out, &n, &err), 0);
    int has5 = 0;
    for (int j = 0; j < n; j++)
        has5 |= out[j] == 5;
    ck_assert(has5);
    free(out);
    /* x1 and x3 contradict; the next call starts afresh */
    int b[2] = {1, 3};
    ck_assert_int_eq(ilpm_propagator_run(p, b, 2, 1, NULL, &out, &n, &err), 1);
    ck_assert_ptr_null(out);
    int c[1] = {3};
    ck_assert_int_eq(ilpm_propagator_run(p, c, 1, 1, NULL, &out, &n, &err), 0);
    ck_assert_int_eq(n, 4); /* 3, -2, -6, -1 */
    free(out);
    /* x7 holds in the model itself: not returned */
    ck_assert_int_eq(ilpm_propagator_run(p, &seven, 1, 1, NULL, &out, &n, &err),
                     0);
    ck_assert_int_eq(n, 0);
    free(out);
    int bad[1] = {8};
    ck_assert_int_eq(ilpm_propagator_run(p, bad, 1, 1, NULL, &out, &n, &err),
                     -1);
    ilpm_propagator_free(p);
}
END_TEST

/* A redundant group is left out of both lowerings, yet its equality row
 * 2x1 + 2x2 + 2x3 = 3 (no 0/1 point: the gcd 2 does not divide 3)
 * refutes the model before either back end searches. */
START_TEST(test_redundant_group)
{
    int lo[1] = {1}, hi[1] = {3};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_model_group(m, "pick", &err);
    int l[3] = {1, 2, 3};
    ck_assert_int_eq(ilpm_add_alo(m, l, 3, &err), 0);
    int g = ilpm_model_group(m, "sum", &err);
    ilpm_model_set_redundant(m, g);
    ck_assert(ilpm_model_group_redundant(m, g));
    ck_assert(!ilpm_model_group_redundant(m, 0));
    int64_t c[3] = {2, 2, 2};
    ck_assert_int_eq(ilpm_add_linear(m, c, l, 3, ILPM_EQ, 4, &err), 0);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_stats st;
    ck_assert_int_eq(ilpm_model_stats(m, &o, &st, &err), 0);
    ck_assert_int_eq(st.groups[g].cons, 1);
    ck_assert_int_eq(st.groups[g].rows, 0);
    ck_assert_int_eq(st.groups[g].clauses, 0);
    ck_assert_int_eq(st.rows, 1);
    ilpm_stats_free(&st);
    /* = 4 has solutions (two of three): nothing to refute */
    int unchanged = -1;
    ck_assert_ptr_null(ilpm_model_propagate(m, 2, &unchanged, &err));
    ck_assert_int_eq(unchanged, 1);
    ilpm_add_linear(m, c, l, 3, ILPM_EQ, 3, &err);
    ilpm_model *r = ilpm_model_propagate(m, 1, &unchanged, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(unchanged, 0);
    ck_assert(ilpm_model_group_redundant(r, g));
    ilpm_model_free(r);
    for (int b = 0; b < 2; b++) {
        o.backend = (ilpm_backend)b;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_UNSAT);
        ilpm_solver_free(s);
        /* without propagation the lowerings alone find a solution */
        o.propagate = ILPM_PROP_NONE;
        s = ilpm_solver_new(m, &o, &err);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        ilpm_solver_free(s);
        o.propagate = ILPM_PROP_AUTO;
    }
}
END_TEST


/* The options table is the one description of ilpm_options: every row's
 * default, written out and read back, is what ilpm_options_init sets;
 * every enum name sets its own value; bad values leave o as it was. */
START_TEST(test_options_table)
{
    ilpm_options def, o;
    ilpm_options_init(&def);
    int rows = 0;
    for (const ilpm_option_info *r = ilpm_options_table(); r->name; r++) {
        rows++;
        ck_assert_ptr_eq(ilpm_option_find(r->name), r);
        o = def;
        char text[64];
        ilpm_option_default(r, text, sizeof text);
        ilpm_err err;
        if (r->type == ILPM_OPTION_ENUM || r->type == ILPM_OPTION_INT) {
            ck_assert_msg(ilpm_options_set(&o, r->name, text, &err) == 0,
                          "%s", err.msg);
            ck_assert_msg(memcmp(&o, &def, sizeof o) == 0,
                          "--%s %s is not the default", r->name, text);
            ck_assert_int_eq(ilpm_options_set(&o, r->name, "bogus", &err), -1);
            ck_assert_msg(memcmp(&o, &def, sizeof o) == 0,
                          "a bad --%s changed the options", r->name);
            ck_assert_ptr_nonnull(strstr(err.msg, "got 'bogus'"));
        }
        if (r->type == ILPM_OPTION_ENUM) {
            ck_assert_ptr_eq(ilpm_enum_names(r->name), r->names);
            for (int i = 0; r->names[i]; i++) {
                ck_assert_int_eq(ilpm_options_set(&o, r->name, r->names[i],
                                                  &err),
                                 0);
                ck_assert_int_eq(*(int *)((char *)&o + r->offset), i);
            }
        }
        if (r->type == ILPM_OPTION_ON || r->type == ILPM_OPTION_OFF) {
            ck_assert_int_eq(ilpm_options_set(&o, r->name, "1", &err), -1);
            ck_assert_int_eq(ilpm_options_set(&o, r->name, NULL, &err), 0);
            ck_assert_int_eq(*(int *)((char *)&o + r->offset),
                             r->type == ILPM_OPTION_ON);
        }
    }
    ck_assert_int_ge(rows, 14);
    /* The names that JSON and CSV print are the table's. */
    ck_assert_str_eq(ilpm_amo_name(ILPM_AMO_PRODUCT),
                     ilpm_enum_names("amo")[ILPM_AMO_PRODUCT]);
    ck_assert_int_eq(ilpm_options_set(&o, "max-vars", "0", NULL), -1);
    ck_assert_int_eq(ilpm_options_set(&o, "time-limit", "-1", NULL), -1);
    ck_assert_int_eq(ilpm_options_set(&o, "nonsense", "1", NULL), -1);
    ck_assert_ptr_null(ilpm_enum_names("time-limit"));
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
    tcase_add_test(tc, test_propagate_keeps_solutions);
    tcase_add_test(tc, test_propagate_shape);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_propagator);
    tcase_add_test(tc, test_redundant_group);
    tcase_add_test(tc, test_options_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
