/* Tests of propagation (src/model/propagate.c): ilpm_model_propagate at
 * levels 1 and 2 on each constraint kind, the gcd refutation of equality
 * rows and the form of a refuted model, redundant groups, the lowered
 * model the back ends take, and the propagator that settles assumptions
 * (with the watch that cuts its probing short).  Random small models are
 * held against brute force over every assignment.  The kernel under it
 * (src/model/kernel.c): constraints added past what its arena holds,
 * weights taken back by undo, the clause-store hook. */
#include "ilpm_int.h"
#include "ilpm_int.h"
#include "kernel.h"

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

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

/* A random model over x[1..nv] (3 <= nv <= 9, in *nv_out): one to six
 * constraints of every kind in groups "even" and "odd", then fewer than
 * units_mod unit clauses in group "givens". */
static ilpm_model *random_model(uint64_t *seed, int *nv_out, int units_mod)
{
    ilpm_model *a = ilpm_model_new();
    int nv = 3 + (int)(test_rnd(seed) % 7);
    int lo[1] = {1}, hi[1] = {nv};
    ck_assert_int_eq(ilpm_model_family(a, "x", 1, lo, hi, 0, &err), 0);
    int ncons = 1 + (int)(test_rnd(seed) % 6);
    for (int i = 0; i < ncons; i++) {
        ilpm_model_group(a, i % 2 ? "odd" : "even", &err);
        int l[6], n = 1 + (int)(test_rnd(seed) % 5);
        int64_t c[6];
        for (int j = 0; j < n; j++) {
            l[j] = test_rlit(seed, nv);
            c[j] = (int64_t)(test_rnd(seed) % 7) - 3;
        }
        int64_t k = (int64_t)(test_rnd(seed) % 4);
        ilpm_cmp cmp = (ilpm_cmp)(test_rnd(seed) % 3);
        /* clang-format off */
        switch (test_rnd(seed) % 8) {
        case 0: ilpm_add_clause(a, l, n, &err); break;
        case 1: ilpm_add_alo(a, l, n, &err); break;
        case 2: ilpm_add_amo(a, l, n, &err); break;
        case 3: ilpm_add_exo(a, l, n, &err); break;
        case 4: ilpm_add_impl(a, l[0], test_rlit(seed, nv), &err); break;
        case 5: ilpm_add_card(a, l, n, cmp, k, &err); break;
        case 6: ilpm_add_ccard(a, test_rlit(seed, nv), l, n, cmp, k, &err); break;
        default: ilpm_add_linear(a, c, l, n, cmp, k - 1, &err); break;
        }
        /* clang-format on */
    }
    ilpm_model_group(a, "givens", &err);
    int nunits = (int)(test_rnd(seed) % (uint64_t)units_mod);
    for (int i = 0; i < nunits; i++) {
        int l = test_rlit(seed, nv);
        ilpm_add_clause(a, &l, 1, &err);
    }
    *nv_out = nv;
    return a;
}

/* Assignment number mask: x_i = bit i - 1. */
static void assignment(uint8_t *v, int nv, unsigned mask)
{
    v[0] = 0;
    for (int i = 1; i <= nv; i++)
        v[i] = (uint8_t)((mask >> (i - 1)) & 1);
}

static int lit_holds(const uint8_t *v, int l)
{
    return l > 0 ? v[l] == 1 : v[-l] == 0;
}

/* sol[mask] = 1 for the assignments that satisfy a (nv <= 12); returns
 * how many do. */
static int solutions(const ilpm_model *a, int nv, uint8_t *sol)
{
    int count = 0;
    for (unsigned mask = 0; mask < (1u << nv); mask++) {
        uint8_t v[16];
        assignment(v, nv, mask);
        sol[mask] = (uint8_t)ilpm_model_check(a, v, NULL);
        count += sol[mask];
    }
    return count;
}

/* Whether b is the proof that its model has no solution: the clauses x1
 * and -x1 in group "fixed", nothing else. */
static int is_refuted(const ilpm_model *b)
{
    if (ilpm_model_ncons(b) != 2)
        return 0;
    for (size_t i = 0; i < 2; i++) {
        ilpm_con k;
        ilpm_model_con(b, i, &k);
        if (k.kind != ILPM_CLAUSE || k.n != 1 || k.lits[0] != (i ? -1 : 1) ||
            strcmp(ilpm_model_group_name(b, k.group), "fixed") != 0)
            return 0;
    }
    return 1;
}

/* The literals b fixes (its one-literal clauses in group "fixed") into
 * lits; returns how many. */
static int fixed_lits(const ilpm_model *b, int *lits)
{
    int n = 0;
    for (size_t i = 0; i < ilpm_model_ncons(b); i++) {
        ilpm_con k;
        ilpm_model_con(b, i, &k);
        if (k.kind == ILPM_CLAUSE && k.n == 1 &&
            strcmp(ilpm_model_group_name(b, k.group), "fixed") == 0)
            lits[n++] = k.lits[0];
    }
    return n;
}

static int has_lit(const int *lits, int n, int l)
{
    for (int i = 0; i < n; i++)
        if (lits[i] == l)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* ilpm_model_propagate                                                 */

/* Propagation keeps exactly the solutions: random small models of every
 * kind with a few unit clauses, compared assignment by assignment. */
START_TEST(test_propagate_keeps_solutions)
{
    uint64_t seed = 7;
    int models = 0, reduced = 0;
    for (int t = 0; t < 400; t++) {
        int nv;
        ilpm_model *a = random_model(&seed, &nv, 3);
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

/* Every literal propagation fixes holds in every solution (brute force
 * over random small models), a refuted model has none, the model's own
 * units are among the fixed literals, and probing fixes all that unit
 * propagation does and perhaps more. */
START_TEST(test_fixed_hold_in_every_solution)
{
    uint64_t seed = 2024;
    int nfixed = 0, nrefuted = 0, probed_more = 0;
    for (int t = 0; t < 600; t++) {
        int nv;
        ilpm_model *a = random_model(&seed, &nv, 5);
        uint8_t sol[1 << 9];
        int nsol = solutions(a, nv, sol);
        int fixed[2][32], nf[2] = {0, 0}, refuted[2] = {0, 0};
        for (int level = 1; level <= 2; level++) {
            int unchanged = -1;
            ilpm_model *b = ilpm_model_propagate(a, level, &unchanged, &err);
            ck_assert_msg(b || unchanged == 1, "model %d: %s", t, err.msg);
            if (!b)
                continue;
            ck_assert_int_eq(unchanged, 0);
            if (is_refuted(b)) {
                ck_assert_msg(nsol == 0,
                              "model %d refuted at level %d with "
                              "%d solutions",
                              t, level, nsol);
                refuted[level - 1] = 1;
                nrefuted++;
                ilpm_model_free(b);
                continue;
            }
            int *f = fixed[level - 1];
            nf[level - 1] = fixed_lits(b, f);
            for (int i = 0; i < nf[level - 1]; i++)
                for (unsigned mask = 0; mask < (1u << nv); mask++) {
                    uint8_t v[16];
                    assignment(v, nv, mask);
                    ck_assert_msg(!sol[mask] || lit_holds(v, f[i]),
                                  "model %d, level %d: fixed %d fails in "
                                  "solution %#x",
                                  t, level, f[i], mask);
                }
            nfixed += nf[level - 1];
            /* the model's own units are fixed */
            for (size_t i = 0; i < ilpm_model_ncons(a); i++) {
                ilpm_con k;
                ilpm_model_con(a, i, &k);
                if (k.kind == ILPM_CLAUSE && k.n == 1)
                    ck_assert_msg(has_lit(f, nf[level - 1], k.lits[0]),
                                  "model %d: unit %d not fixed", t, k.lits[0]);
            }
            ilpm_model_free(b);
        }
        /* probing starts where unit propagation stops */
        ck_assert_msg(!refuted[0] || refuted[1], "model %d", t);
        if (!refuted[0] && !refuted[1]) {
            for (int i = 0; i < nf[0]; i++)
                ck_assert_msg(has_lit(fixed[1], nf[1], fixed[0][i]),
                              "model %d: level 2 lost %d", t, fixed[0][i]);
            probed_more += nf[1] > nf[0];
        }
        ilpm_model_free(a);
    }
    /* the draw exercises all three outcomes */
    ck_assert_int_gt(nfixed, 500);
    ck_assert_int_gt(nrefuted, 20);
    ck_assert_int_gt(probed_more, 5);
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
    ilpm_model_set_hint(m, ILPM_HINT_INPUT);
    ilpm_model *p = ilpm_model_propagate(m, 2, &unchanged, &err);
    ck_assert_ptr_nonnull(p);
    /* the search hint travels with the propagated copy */
    ck_assert_int_eq(ilpm_model_hint(p), ILPM_HINT_INPUT);
    ck_assert_int_eq(forced(p, 1), -1);
    ck_assert_int_eq(forced(p, 2), 0);
    ilpm_model_free(u);
    ilpm_model_free(p);
    /* The run's stop flag (or deadline) stops the settling too (see
     * test_settle_watched); without it, probing forces x1. */
    ilpm_options o;
    ilpm_options_init(&o);
    o.propagate = ILPM_PROP_PROBE;
    volatile int stop = 1;
    o.stop_flag = &stop;
    ilpm_model *own = NULL;
    const ilpm_model *low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_null(low);
    ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
    stop = 0;
    low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_int_eq(forced(own, 1), -1);
    ilpm_model_free(own);
    /* auto probes on both back ends; units leaves x1 open */
    for (int be = 0; be < ILPM_BACKEND_COUNT; be++) {
        o.backend = (ilpm_backend)be;
        o.propagate = ILPM_PROP_AUTO;
        /* assumptions: settled for GLPK, left to CaDiCaL */
        ck_assert_int_eq(
            ilpm_propagate_assumed_level(&o, o.backend == ILPM_BACKEND_ILP),
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

/* One constraint, as the kind tests write it. */
typedef struct spec {
    ilpm_kind kind;
    int n;
    int lits[6];
    int64_t coefs[6]; /* LINEAR */
    ilpm_cmp cmp;     /* CARD, CCARD, LINEAR */
    int64_t k;
    int cond; /* CCARD */
} spec;

static void add_spec(ilpm_model *a, const spec *s)
{
    int rc = -1;
    switch (s->kind) {
    case ILPM_CLAUSE:
        rc = ilpm_add_clause(a, s->lits, s->n, &err);
        break;
    case ILPM_ALO:
        rc = ilpm_add_alo(a, s->lits, s->n, &err);
        break;
    case ILPM_AMO:
        rc = ilpm_add_amo(a, s->lits, s->n, &err);
        break;
    case ILPM_EXO:
        rc = ilpm_add_exo(a, s->lits, s->n, &err);
        break;
    case ILPM_IMPL:
        rc = ilpm_add_impl(a, s->lits[0], s->lits[1], &err);
        break;
    case ILPM_CARD:
        rc = ilpm_add_card(a, s->lits, s->n, s->cmp, s->k, &err);
        break;
    case ILPM_CCARD:
        rc = ilpm_add_ccard(a, s->cond, s->lits, s->n, s->cmp, s->k, &err);
        break;
    default:
        rc = ilpm_add_linear(a, s->coefs, s->lits, s->n, s->cmp, s->k, &err);
        break;
    }
    ck_assert_msg(rc == 0, "%s", err.msg);
}

/* The level-1 propagation of the model over x[1..nv] holding s (group
 * "con") and the unit clauses given[0..ng) (group "givens"); checked to
 * keep the solutions. */
static ilpm_model *propagated(int nv, const spec *s, const int *given, int ng)
{
    ilpm_model *a = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {nv};
    ck_assert_int_eq(ilpm_model_family(a, "x", 1, lo, hi, 0, &err), 0);
    ilpm_model_group(a, "con", &err);
    add_spec(a, s);
    ilpm_model_group(a, "givens", &err);
    for (int i = 0; i < ng; i++)
        ck_assert_int_eq(ilpm_add_clause(a, &given[i], 1, &err), 0);
    int unchanged = -1;
    ilpm_model *b = ilpm_model_propagate(a, 1, &unchanged, &err);
    ck_assert_msg(b != NULL, "%s", unchanged ? "unchanged" : err.msg);
    for (unsigned mask = 0; mask < (1u << nv); mask++) {
        uint8_t v[16];
        assignment(v, nv, mask);
        ck_assert_int_eq(ilpm_model_check(a, v, NULL),
                         ilpm_model_check(b, v, NULL));
    }
    ilpm_model_free(a);
    return b;
}

/* How many constraints of b are not in group "fixed"; the first of them
 * into *c. */
static int rest(const ilpm_model *b, ilpm_con *c)
{
    int n = 0;
    for (size_t i = 0; i < ilpm_model_ncons(b); i++) {
        ilpm_con k;
        ilpm_model_con(b, i, &k);
        if (strcmp(ilpm_model_group_name(b, k.group), "fixed") == 0)
            continue;
        if (n++ == 0)
            *c = k;
    }
    return n;
}

/* b keeps one constraint besides the fixed literals: of kind, in group
 * "con", over lits[0..n) with cmp and k (unchecked for the kinds that
 * have neither). */
static void check_rest(const ilpm_model *b, ilpm_kind kind, int n,
                       const int *lits, ilpm_cmp cmp, int64_t k)
{
    ilpm_con c;
    ck_assert_int_eq(rest(b, &c), 1);
    ck_assert_int_eq(c.kind, kind);
    ck_assert_str_eq(ilpm_model_group_name(b, c.group), "con");
    ck_assert_int_eq(c.n, n);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(c.lits[i], lits[i]);
    if (kind == ILPM_CARD || kind == ILPM_CCARD || kind == ILPM_LINEAR) {
        ck_assert_int_eq(c.cmp, cmp);
        ck_assert_int_eq(c.rhs, k);
    }
}

/* Clauses and at-least-ones: the last open literal is forced, a
 * satisfied one is dropped, the others lose their false literals and
 * keep their kind. */
START_TEST(test_kind_clause_alo)
{
    ilpm_kind kinds[2] = {ILPM_CLAUSE, ILPM_ALO};
    for (int i = 0; i < 2; i++) {
        ilpm_con c;
        spec s = {.kind = kinds[i], .n = 3, .lits = {1, 2, 3}};
        ilpm_model *b = propagated(5, &s, (int[]){-1, -2}, 2);
        ck_assert_int_eq(forced(b, 3), 1);
        ck_assert_int_eq(rest(b, &c), 0);
        ilpm_model_free(b);
        s = (spec){.kind = kinds[i], .n = 3, .lits = {-1, 4, 5}};
        b = propagated(5, &s, (int[]){1}, 1);
        ck_assert_int_eq(forced(b, 4), 0);
        ck_assert_int_eq(forced(b, 5), 0);
        check_rest(b, kinds[i], 2, (int[]){4, 5}, 0, 0);
        ilpm_model_free(b);
        s = (spec){.kind = kinds[i], .n = 2, .lits = {1, 4}};
        b = propagated(5, &s, (int[]){1}, 1);
        ck_assert_int_eq(rest(b, &c), 0);
        ck_assert_int_eq(forced(b, 4), 0);
        ilpm_model_free(b);
        s = (spec){.kind = kinds[i], .n = 2, .lits = {1, 2}};
        b = propagated(5, &s, (int[]){-1, -2}, 2);
        ck_assert(is_refuted(b));
        ilpm_model_free(b);
    }
}
END_TEST

/* At-most-one: a true literal makes the others false; a false one
 * leaves the rest, or nothing once fewer than two are open. */
START_TEST(test_kind_amo)
{
    ilpm_con c;
    spec s = {.kind = ILPM_AMO, .n = 3, .lits = {1, 2, 3}};
    ilpm_model *b = propagated(5, &s, (int[]){1}, 1);
    ck_assert_int_eq(forced(b, 2), -1);
    ck_assert_int_eq(forced(b, 3), -1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    s = (spec){.kind = ILPM_AMO, .n = 3, .lits = {2, 4, 5}};
    b = propagated(5, &s, (int[]){-2}, 1);
    check_rest(b, ILPM_AMO, 2, (int[]){4, 5}, 0, 0);
    ilpm_model_free(b);
    s = (spec){.kind = ILPM_AMO, .n = 2, .lits = {2, 4}};
    b = propagated(5, &s, (int[]){-2}, 1);
    ck_assert_int_eq(rest(b, &c), 0);
    ck_assert_int_eq(forced(b, 4), 0);
    ilpm_model_free(b);
    /* negative literals: -x1 false makes -x2 false */
    s = (spec){.kind = ILPM_AMO, .n = 2, .lits = {-1, -2}};
    b = propagated(5, &s, (int[]){-1}, 1);
    ck_assert_int_eq(forced(b, 2), 1);
    ilpm_model_free(b);
    s = (spec){.kind = ILPM_AMO, .n = 3, .lits = {1, 2, 3}};
    b = propagated(5, &s, (int[]){1, 2}, 2);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);
}
END_TEST

/* Exactly-one: both directions; an exactly-one of one literal is a unit
 * of its own and starts propagation. */
START_TEST(test_kind_exo)
{
    ilpm_con c;
    spec s = {.kind = ILPM_EXO, .n = 3, .lits = {1, 2, 3}};
    ilpm_model *b = propagated(4, &s, (int[]){-1, -2}, 2);
    ck_assert_int_eq(forced(b, 3), 1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(4, &s, (int[]){2}, 1);
    ck_assert_int_eq(forced(b, 1), -1);
    ck_assert_int_eq(forced(b, 3), -1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(4, &s, (int[]){-1}, 1);
    check_rest(b, ILPM_EXO, 2, (int[]){2, 3}, 0, 0);
    ilpm_model_free(b);
    b = propagated(4, &s, (int[]){-1, -2, -3}, 3);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);
    s = (spec){.kind = ILPM_EXO, .n = 1, .lits = {-2}};
    b = propagated(4, &s, NULL, 0);
    ck_assert_int_eq(forced(b, 2), -1);
    ilpm_model_free(b);
}
END_TEST

/* a -> b forward and backward (-b gives -a); a false or b true drops
 * it; with neither side known it stays as it was. */
START_TEST(test_kind_impl)
{
    ilpm_con c;
    spec s = {.kind = ILPM_IMPL, .n = 2, .lits = {1, -2}};
    ilpm_model *b = propagated(3, &s, (int[]){1}, 1);
    ck_assert_int_eq(forced(b, 2), -1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(3, &s, (int[]){2}, 1);
    ck_assert_int_eq(forced(b, 1), -1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(3, &s, (int[]){-1}, 1);
    ck_assert_int_eq(forced(b, 2), 0);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(3, &s, (int[]){3}, 1);
    check_rest(b, ILPM_IMPL, 2, (int[]){1, -2}, 0, 0);
    ilpm_model_free(b);
    b = propagated(3, &s, (int[]){1, 2}, 2);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);
}
END_TEST

/* Cardinality <=, >= and =: a bound met settles the open literals; else
 * the constraint goes on over the open ones with its bound lowered by
 * the true ones.  k = 0 and k = n settle at once. */
START_TEST(test_kind_card)
{
    ilpm_con c;
    int four[4] = {1, 2, 3, 4};
    spec s = {.kind = ILPM_CARD,
              .n = 4,
              .lits = {1, 2, 3, 4},
              .cmp = ILPM_LE,
              .k = 2};
    ilpm_model *b = propagated(5, &s, (int[]){1, 2}, 2);
    ck_assert_int_eq(forced(b, 3), -1);
    ck_assert_int_eq(forced(b, 4), -1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){1}, 1);
    check_rest(b, ILPM_CARD, 3, four + 1, ILPM_LE, 1);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){1, 2, 3}, 3);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);

    s.cmp = ILPM_GE;
    b = propagated(5, &s, (int[]){-1, -2}, 2);
    ck_assert_int_eq(forced(b, 3), 1);
    ck_assert_int_eq(forced(b, 4), 1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){1}, 1);
    check_rest(b, ILPM_CARD, 3, four + 1, ILPM_GE, 1);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){-1, -2, -3}, 3);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);

    s.cmp = ILPM_EQ;
    b = propagated(5, &s, (int[]){1, -2}, 2);
    check_rest(b, ILPM_CARD, 2, four + 2, ILPM_EQ, 1);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){1, 2}, 2);
    ck_assert_int_eq(forced(b, 3), -1);
    ck_assert_int_eq(forced(b, 4), -1);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){-1, -2}, 2);
    ck_assert_int_eq(forced(b, 3), 1);
    ck_assert_int_eq(forced(b, 4), 1);
    ilpm_model_free(b);

    /* a unit elsewhere starts propagation; k = 0 and k = n need no more */
    s = (spec){
        .kind = ILPM_CARD, .n = 3, .lits = {1, -2, 3}, .cmp = ILPM_LE, .k = 0};
    b = propagated(5, &s, (int[]){5}, 1);
    ck_assert_int_eq(forced(b, 1), -1);
    ck_assert_int_eq(forced(b, 2), 1);
    ck_assert_int_eq(forced(b, 3), -1);
    ilpm_model_free(b);
    s = (spec){
        .kind = ILPM_CARD, .n = 3, .lits = {1, -2, 3}, .cmp = ILPM_GE, .k = 3};
    b = propagated(5, &s, (int[]){5}, 1);
    ck_assert_int_eq(forced(b, 1), 1);
    ck_assert_int_eq(forced(b, 2), -1);
    ck_assert_int_eq(forced(b, 3), 1);
    ilpm_model_free(b);
}
END_TEST

/* Conditional cardinality does not propagate: its fixed literals are
 * substituted, a true condition leaves the plain cardinality, a false
 * one drops it, and a sum that can no longer hold leaves the condition's
 * negation as a clause. */
START_TEST(test_kind_ccard)
{
    ilpm_con c;
    spec s = {.kind = ILPM_CCARD,
              .n = 3,
              .lits = {1, 2, 3},
              .cmp = ILPM_GE,
              .k = 2,
              .cond = 5};
    ilpm_model *b = propagated(5, &s, (int[]){-1}, 1);
    check_rest(b, ILPM_CCARD, 2, (int[]){2, 3}, ILPM_GE, 2);
    rest(b, &c);
    ck_assert_int_eq(c.cond, 5);
    ck_assert_int_eq(forced(b, 5), 0);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){5, -1}, 2);
    check_rest(b, ILPM_CARD, 2, (int[]){2, 3}, ILPM_GE, 2);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){-5}, 1);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){-1, -2, -3}, 3);
    check_rest(b, ILPM_CLAUSE, 1, (int[]){-5}, 0, 0);
    ilpm_model_free(b);
    b = propagated(5, &s, (int[]){5, -1, -2, -3}, 4);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);
}
END_TEST

/* Weighted linear rows do not propagate either: the fixed literals go
 * into the right-hand side; a row left without literals is a constant,
 * dropped when it holds and a refutation when it fails. */
START_TEST(test_kind_linear)
{
    ilpm_con c;
    spec s = {.kind = ILPM_LINEAR,
              .n = 3,
              .lits = {1, -2, 3},
              .coefs = {2, 3, 1},
              .cmp = ILPM_GE,
              .k = 3};
    ilpm_model *b = propagated(3, &s, (int[]){1}, 1);
    check_rest(b, ILPM_LINEAR, 2, (int[]){-2, 3}, ILPM_GE, 1);
    rest(b, &c);
    ck_assert_int_eq(c.coefs[0], 3);
    ck_assert_int_eq(c.coefs[1], 1);
    ilpm_model_free(b);
    b = propagated(3, &s, (int[]){-1, -2, -3}, 3);
    ck_assert_int_eq(rest(b, &c), 0);
    ilpm_model_free(b);
    b = propagated(3, &s, (int[]){1, 2, -3}, 3);
    ck_assert(is_refuted(b));
    ilpm_model_free(b);
}
END_TEST

/* An equality row that the gcd of its open coefficients does not
 * divide has no 0/1 point: it refutes the model with no unit clause at
 * all, or once the fixed literals have moved its right-hand side. */
START_TEST(test_gcd_refutes_equality_rows)
{
    static const struct {
        int n;
        int64_t coefs[3];
        ilpm_cmp cmp;
        int64_t rhs;
        int given; /* a unit clause, or 0 */
        int refuted;
    } rows[] = {
        {3, {2, 2, 2}, ILPM_EQ, 3, 0, 1},
        {2, {3, -6, 0}, ILPM_EQ, 2, 0, 1},
        {2, {4, 6, 0}, ILPM_EQ, 5, 0, 1},
        {3, {2, 2, 2}, ILPM_EQ, 4, 0, 0},  /* two of three */
        {3, {2, 2, 2}, ILPM_LE, 3, 0, 0},  /* only = rows */
        {3, {2, 2, 3}, ILPM_EQ, 4, 3, 1},  /* 2x1 + 2x2 = 1 */
        {3, {2, 2, 3}, ILPM_EQ, 4, -3, 0}, /* 2x1 + 2x2 = 4 */
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        ilpm_model *a = ilpm_model_new();
        int lo[1] = {1}, hi[1] = {3}, l[3] = {1, 2, 3};
        ilpm_model_family(a, "x", 1, lo, hi, 0, &err);
        ck_assert_int_eq(ilpm_add_linear(a, rows[i].coefs, l, rows[i].n,
                                         rows[i].cmp, rows[i].rhs, &err),
                         0);
        if (rows[i].given)
            ilpm_add_clause(a, &rows[i].given, 1, &err);
        uint8_t sol[8];
        int nsol = solutions(a, 3, sol);
        for (int level = 1; level <= 2; level++) {
            int unchanged = -1;
            ilpm_model *b = ilpm_model_propagate(a, level, &unchanged, &err);
            ck_assert_msg((b && is_refuted(b)) == rows[i].refuted,
                          "row %zu, level %d", i, level);
            ck_assert_int_eq(unchanged, b == NULL);
            if (rows[i].refuted)
                ck_assert_int_eq(nsol, 0);
            ilpm_model_free(b);
        }
        ilpm_model_free(a);
    }
}
END_TEST

/* A refuted model keeps its frame (families with their ranges and
 * flags, groups with their redundancy, objective, search hint) and holds
 * nothing but x1 and -x1 in group "fixed", whatever refuted it: a gcd, a
 * conflict among units, a constraint broken by them. */
START_TEST(test_refuted_form)
{
    for (int why = 0; why < 4; why++) {
        ilpm_model *a = ilpm_model_new();
        int lo[2] = {1, 0}, hi[2] = {3, 1};
        ck_assert_int_eq(ilpm_model_family(a, "x", 1, lo, hi, 0, &err), 0);
        ck_assert_int_eq(
            ilpm_model_family(a, "y", 2, lo, hi, ILPM_FAM_AUX, &err), 1);
        int g = ilpm_model_group(a, "spare", &err);
        ilpm_model_set_redundant(a, g);
        ilpm_model_group(a, "main", &err);
        int l[3] = {1, 2, 3};
        int64_t c[3] = {2, 2, 2};
        int64_t oc[2] = {5, -1};
        int ol[2] = {2, -4};
        ilpm_model_objective(a, ILPM_MAXIMIZE, oc, ol, 2, &err);
        ilpm_model_set_hint(a, ILPM_HINT_REVERSE);
        int u1 = 1, u2 = -1, u3 = 2;
        switch (why) {
        case 0:
            ilpm_add_linear(a, c, l, 3, ILPM_EQ, 5, &err);
            break;
        case 1:
            ilpm_add_clause(a, &u1, 1, &err);
            ilpm_add_clause(a, &u2, 1, &err);
            break;
        case 2:
            ilpm_add_amo(a, l, 3, &err);
            ilpm_add_clause(a, &u1, 1, &err);
            ilpm_add_clause(a, &u3, 1, &err);
            break;
        default: { /* a ccard, which does not propagate, broken */
            int u[3] = {-1, -2, 3};
            ilpm_add_ccard(a, 3, l, 2, ILPM_GE, 1, &err);
            for (int i = 0; i < 3; i++)
                ilpm_add_clause(a, &u[i], 1, &err);
            break;
        }
        }
        int unchanged = -1;
        ilpm_model *b = ilpm_model_propagate(a, 1, &unchanged, &err);
        ck_assert_msg(b != NULL, "case %d: %s", why, err.msg);
        ck_assert_int_eq(unchanged, 0);
        ck_assert_msg(is_refuted(b), "case %d", why);
        ck_assert_int_eq(ilpm_model_nvars(b), ilpm_model_nvars(a));
        ck_assert_int_eq(ilpm_model_nfamilies(b), 2);
        int blo[ILPM_MAX_DIMS], bhi[ILPM_MAX_DIMS];
        unsigned flags;
        ck_assert_int_eq(ilpm_model_family_info(b, 1, blo, bhi, &flags), 2);
        ck_assert_str_eq(ilpm_model_family_name(b, 1), "y");
        ck_assert_int_eq(blo[0], 1);
        ck_assert_int_eq(bhi[1], 1);
        ck_assert_uint_eq(flags, ILPM_FAM_AUX);
        ck_assert_int_eq(ilpm_model_ngroups(b), 3);
        ck_assert_str_eq(ilpm_model_group_name(b, 0), "spare");
        ck_assert(ilpm_model_group_redundant(b, 0));
        ck_assert(!ilpm_model_group_redundant(b, 1));
        ck_assert_str_eq(ilpm_model_group_name(b, 2), "fixed");
        int on;
        const int *olits;
        const int64_t *ocoefs;
        ck_assert_int_eq(ilpm_model_objective_get(b, &on, &olits, &ocoefs),
                         ILPM_MAXIMIZE);
        ck_assert_int_eq(on, 2);
        ck_assert_int_eq(olits[1], -4);
        ck_assert_int_eq(ocoefs[0], 5);
        ck_assert_int_eq(ilpm_model_hint(b), ILPM_HINT_REVERSE);
        uint8_t sol[1 << 9];
        ck_assert_int_eq(solutions(b, ilpm_model_nvars(b), sol), 0);
        ck_assert_int_eq(solutions(a, ilpm_model_nvars(a), sol), 0);
        ilpm_model_free(b);
        ilpm_model_free(a);
    }
}
END_TEST

/* Propagation reasons with redundant constraints too, and what is left
 * of one stays in its group, still redundant. */
START_TEST(test_redundant_group_propagates)
{
    int lo[1] = {1}, hi[1] = {4};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int g = ilpm_model_group(m, "extra", &err);
    ilpm_model_set_redundant(m, g);
    int l[2] = {1, 2}, k[3] = {2, 3, 4};
    ilpm_add_amo(m, l, 2, &err);
    ilpm_add_amo(m, k, 3, &err);
    ilpm_model_group(m, "givens", &err);
    int one = 1;
    ilpm_add_clause(m, &one, 1, &err);
    int unchanged = -1;
    ilpm_model *b = ilpm_model_propagate(m, 1, &unchanged, &err);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(forced(b, 2), -1);
    ilpm_con c;
    ck_assert_int_eq(rest(b, &c), 1);
    ck_assert_int_eq(c.kind, ILPM_AMO);
    ck_assert_int_eq(c.n, 2);
    ck_assert_str_eq(ilpm_model_group_name(b, c.group), "extra");
    ck_assert(ilpm_model_group_redundant(b, c.group));
    ilpm_model_free(b);
}
END_TEST

/* Each constraint that propagation keeps keeps its group and its name,
 * with groups and names changing from one constraint to the next in
 * every way (propagate.c sets them only when they change). */
START_TEST(test_propagate_keeps_names)
{
    int lo[1] = {1}, hi[1] = {6};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    static const struct {
        const char *group, *name;
        int n, lits[3];
    } in[] = {
        {"a", "r", 2, {1, 2}}, {"a", "r", 2, {2, 3}},
        {"b", "r", 2, {3, 4}}, {"b", NULL, 2, {-1, -4}},
        {"a", "s", 2, {6, 1}}, {"a", "s", 3, {-6, 5, 1}},
        {"b", "s", 2, {4, 5}}, {"b", "t", 2, {4, 2}},
        {"g", NULL, 1, {6}},
    };
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
        ck_assert_int_ge(ilpm_model_group(m, in[i].group, &err), 0);
        ck_assert_int_eq(ilpm_model_set_con_name(m, in[i].name, &err), 0);
        ck_assert_int_eq(ilpm_add_clause(m, in[i].lits, in[i].n, &err), 0);
    }
    int unchanged = -1;
    ilpm_model *b = ilpm_model_propagate(m, 1, &unchanged, &err);
    ck_assert_ptr_nonnull(b);
    /* x6 is fixed: {6, 1} and the unit go, {-6, 5, 1} is {5, 1} */
    static const struct {
        const char *group, *name;
        int n;
    } want[] = {
        {"a", "r", 2}, {"a", "r", 2}, {"b", "r", 2}, {"b", NULL, 2},
        {"a", "s", 2}, {"b", "s", 2}, {"b", "t", 2}, {"fixed", NULL, 1},
    };
    size_t nw = sizeof want / sizeof *want;
    ck_assert_uint_eq(ilpm_model_ncons(b), nw);
    for (size_t i = 0; i < nw; i++) {
        ilpm_con c;
        ilpm_model_con(b, i, &c);
        ck_assert_str_eq(ilpm_model_group_name(b, c.group), want[i].group);
        if (want[i].name)
            ck_assert_str_eq(c.name ? c.name : "(none)", want[i].name);
        else
            ck_assert_ptr_null(c.name);
        ck_assert_int_eq(c.n, want[i].n);
    }
    ilpm_model_free(b);
}
END_TEST

/* Nothing to do: no variables, or no unit clause. */
START_TEST(test_propagate_unchanged)
{
    int unchanged = -1;
    ck_assert_ptr_null(ilpm_model_propagate(m, 2, &unchanged, &err));
    ck_assert_int_eq(unchanged, 1);
    int lo[1] = {1}, hi[1] = {3}, l[3] = {1, 2, 3};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_add_clause(m, l, 3, &err);
    ilpm_add_amo(m, l, 3, &err);
    unchanged = -1;
    ck_assert_ptr_null(ilpm_model_propagate(m, 2, &unchanged, &err));
    ck_assert_int_eq(unchanged, 1);
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
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        o.backend = (ilpm_backend)b;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_UNSAT);
        ilpm_solver_free(s);
        /* without propagation the lowerings alone find a solution; cp
         * propagates redundant groups itself and refutes the model */
        o.propagate = ILPM_PROP_NONE;
        s = ilpm_solver_new(m, &o, &err);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err),
                         b == ILPM_BACKEND_CP ? ILPM_UNSAT : ILPM_SOLVED);
        ilpm_solver_free(s);
        o.propagate = ILPM_PROP_AUTO;
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_model_lowered, ilpm_propagate_level                             */

/* The model a back end lowers: m itself when propagation is off or
 * finds nothing to do, else the propagated copy, the caller's to free. */
START_TEST(test_lowered)
{
    int lo[1] = {1}, hi[1] = {3}, l[3] = {1, 2, 3};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_add_exo(m, l, 3, &err);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_model *own = m;
    const ilpm_model *low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_eq(low, m);
    ck_assert_ptr_null(own);
    int two = 2;
    ilpm_add_clause(m, &two, 1, &err);
    o.propagate = ILPM_PROP_NONE;
    own = m;
    low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_eq(low, m);
    ck_assert_ptr_null(own);
    o.propagate = ILPM_PROP_UNITS;
    low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_nonnull(own);
    ck_assert_ptr_eq(low, own);
    ck_assert_int_eq(forced(own, 1), -1);
    ck_assert_int_eq(forced(own, 3), -1);
    ilpm_model_free(own);
    /* no options: the default, probing */
    low = ilpm_model_lowered(m, NULL, &own, &err);
    ck_assert_ptr_nonnull(own);
    ck_assert_int_eq(forced(own, 2), 1);
    ilpm_model_free(own);
    int not_two = -2;
    ilpm_add_clause(m, &not_two, 1, &err);
    low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_eq(low, own);
    ck_assert(is_refuted(own));
    ilpm_model_free(own);
}
END_TEST

/* The settling before lowering (ilpm_model_lowered) and the propagator a
 * batch keeps build their kernel under the run's watch: a stop or a
 * deadline that has come ends them with its status, at every level,
 * rather than the work going on unwatched. */
START_TEST(test_settle_watched)
{
    int lo[1] = {1}, hi[1] = {40};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    for (int v = 1; v < 40; v++)
        ilpm_add_impl(m, v, v + 1, &err);
    int one = 1;
    ilpm_add_clause(m, &one, 1, &err);
    ilpm_options o;
    ilpm_options_init(&o);
    o.propagate = ILPM_PROP_UNITS;
    volatile int stop = 1;
    o.stop_flag = &stop;
    ilpm_model *own = NULL;
    memset(&err, 0, sizeof err);
    ck_assert_ptr_null(ilpm_model_lowered(m, &o, &own, &err));
    ck_assert_ptr_null(own);
    ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "stopped while"));
    /* a time limit that has run out: the same with ILPM_TIMEOUT */
    stop = 0;
    o.time_limit = 1e-9;
    memset(&err, 0, sizeof err);
    ck_assert_ptr_null(ilpm_model_lowered(m, &o, &own, &err));
    ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
    /* with time to spare, all 40 are forced */
    o.time_limit = 60;
    const ilpm_model *low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_ptr_nonnull(low);
    ck_assert_int_eq(forced(own, 40), 1);
    ilpm_model_free(own);
}
END_TEST

/* The levels each setting asks for; assumptions under auto are left to
 * CaDiCaL, and to cp, alone. */
START_TEST(test_levels)
{
    static const int level[] = {
        [ILPM_PROP_AUTO] = 2,
        [ILPM_PROP_NONE] = 0,
        [ILPM_PROP_UNITS] = 1,
        [ILPM_PROP_PROBE] = 2,
    };
    ck_assert_int_eq(ilpm_propagate_level(NULL), 2);
    ck_assert_int_eq(ilpm_propagate_assumed_level(NULL, 0), 0);
    ilpm_options o;
    ilpm_options_init(&o);
    ck_assert_int_eq(o.propagate, ILPM_PROP_AUTO);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        for (int p = 0; p < 4; p++) {
            o.backend = (ilpm_backend)b;
            o.propagate = (ilpm_propagate)p;
            ck_assert_int_eq(ilpm_propagate_level(&o), level[p]);
            int assumed =
                p == ILPM_PROP_AUTO && b != ILPM_BACKEND_ILP ? 0 : level[p];
            ck_assert_int_eq(
                ilpm_propagate_assumed_level(&o, b == ILPM_BACKEND_ILP),
                assumed);
        }
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_propagator_new, _run, _free                                     */

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
    ilpm_propagator *p = ilpm_propagator_new(m, NULL, &err);
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

/* Against brute force on random small models and assumptions: what the
 * propagator returns holds in every solution under the assumptions, a
 * conflict means there is none, each assumption comes back unless it
 * holds in every solution (the model may fix it alone), probing adds to unit
 * propagation, and every run leaves the propagator as it found it. */
START_TEST(test_propagator_brute_force)
{
    uint64_t seed = 99;
    int conflicts = 0, forcing = 0;
    for (int t = 0; t < 300; t++) {
        int nv;
        ilpm_model *a = random_model(&seed, &nv, 3);
        uint8_t sol[1 << 9];
        solutions(a, nv, sol);
        /* the literals that hold in every solution: the model may fix
         * them alone (its own forced literals are not returned) */
        int backbone[32], nbackbone = 0;
        for (int l = -nv; l <= nv; l++) {
            int all = l != 0;
            for (unsigned mask = 0; all && mask < (1u << nv); mask++) {
                uint8_t v[16];
                assignment(v, nv, mask);
                all = !sol[mask] || lit_holds(v, l);
            }
            if (all)
                backbone[nbackbone++] = l;
        }
        ilpm_propagator *p = ilpm_propagator_new(a, NULL, &err);
        ck_assert_ptr_nonnull(p);
        for (int q = 0; q < 5; q++) {
            int as[3], n = 1 + (int)(test_rnd(&seed) % 3);
            for (int i = 0; i < n; i++)
                as[i] = test_rlit(&seed, nv);
            int *out[3], nout[3], rc[3];
            for (int r = 0; r < 3; r++) {
                int level = r == 1 ? 2 : 1; /* 1, 2, then 1 again */
                rc[r] = ilpm_propagator_run(p, as, n, level, NULL, &out[r],
                                            &nout[r], &err);
                ck_assert_msg(rc[r] == 0 || rc[r] == 1, "%s", err.msg);
                if (rc[r] == 1) {
                    ck_assert_ptr_null(out[r]);
                    ck_assert_int_eq(nout[r], 0);
                }
            }
            for (unsigned mask = 0; mask < (1u << nv); mask++) {
                uint8_t v[16];
                assignment(v, nv, mask);
                int under = sol[mask];
                for (int i = 0; i < n; i++)
                    under &= lit_holds(v, as[i]);
                if (!under)
                    continue;
                for (int r = 0; r < 2; r++) {
                    ck_assert_msg(rc[r] == 0,
                                  "model %d: level %d conflict "
                                  "with solution %#x",
                                  t, r + 1, mask);
                    for (int i = 0; i < nout[r]; i++)
                        ck_assert_msg(lit_holds(v, out[r][i]),
                                      "model %d: %d fails in %#x", t, out[r][i],
                                      mask);
                }
            }
            if (rc[0] == 0)
                for (int i = 0; i < n; i++)
                    ck_assert(has_lit(out[0], nout[0], as[i]) ||
                              has_lit(backbone, nbackbone, as[i]));
            ck_assert(!rc[0] || rc[1]);
            if (!rc[1])
                for (int i = 0; i < nout[0]; i++)
                    ck_assert(has_lit(out[1], nout[1], out[0][i]));
            /* the same call again, the same answer */
            ck_assert_int_eq(rc[2], rc[0]);
            ck_assert_int_eq(nout[2], nout[0]);
            for (int i = 0; i < nout[0]; i++)
                ck_assert_int_eq(out[2][i], out[0][i]);
            conflicts += rc[0];
            forcing += nout[0] > n;
            for (int r = 0; r < 3; r++)
                free(out[r]);
        }
        ilpm_propagator_free(p);
        ilpm_model_free(a);
    }
    ck_assert_int_gt(conflicts, 50);
    ck_assert_int_gt(forcing, 50);
}
END_TEST

/* A watch that has fired (stop flag, deadline passed) cuts probing
 * short: unit propagation stands, what only probing finds is missing,
 * and the next run with a quiet watch probes in full again. */
START_TEST(test_propagator_watch)
{
    int lo[1] = {1}, hi[1] = {6};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_add_impl(m, 1, 2, &err);
    ilpm_add_impl(m, 4, 5, &err);
    ilpm_add_impl(m, -4, 5, &err);
    int six = 6;
    ilpm_add_clause(m, &six, 1, &err);
    ilpm_propagator *p = ilpm_propagator_new(m, NULL, &err);
    ck_assert_ptr_nonnull(p);
    int a[1] = {1}, *out, n;
    volatile int stop = 1;
    ilpm_watch w;
    for (int i = 0; i < 4; i++) {
        switch (i) {
        case 0:
            ilpm_watch_until(&w, 0, NULL);
            break;
        case 1:
            ilpm_watch_until(&w, 0, &stop);
            break;
        case 2:
            ilpm_watch_until(&w, ilpm_now() + 1e-9, NULL);
            while (ilpm_now() <= w.deadline)
                ;
            break;
        default:
            stop = 0;
            ilpm_watch_until(&w, 0, &stop);
            break;
        }
        ck_assert_int_eq(ilpm_propagator_run(p, a, 1, 2, &w, &out, &n, &err),
                         0);
        ck_assert_msg(has_lit(out, n, 1) && has_lit(out, n, 2), "watch %d", i);
        ck_assert_int_eq(has_lit(out, n, 5), (i == 0 || i == 3));
        free(out);
    }
    ilpm_propagator_free(p);
}
END_TEST

/* A model that refutes itself: every run reports the conflict. */
START_TEST(test_propagator_refuted_model)
{
    int lo[1] = {1}, hi[1] = {3};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    int l[2] = {1, 2}, u[2] = {1, 2};
    ilpm_add_amo(m, l, 2, &err);
    ilpm_add_clause(m, &u[0], 1, &err);
    ilpm_add_clause(m, &u[1], 1, &err);
    ilpm_propagator *p = ilpm_propagator_new(m, NULL, &err);
    ck_assert_ptr_nonnull(p);
    int *out = &u[0], n = -1, three = 3;
    ck_assert_int_eq(ilpm_propagator_run(p, NULL, 0, 1, NULL, &out, &n, &err),
                     1);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(ilpm_propagator_run(p, &three, 1, 2, NULL, &out, &n, &err),
                     1);
    ilpm_propagator_free(p);
    ilpm_propagator_free(NULL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The kernel (kernel.h) */

static int hook_calls;
static int count_hook(ilpm_kern *e, int l)
{
    (void)e, (void)l;
    hook_calls++;
    return 0;
}

START_TEST(test_kernel_grows_past_arena)
{
    /* x1..x8; the model: x1 -> x2 and an at-most-one over x3..x8 */
    int lo[1] = {1}, hi[1] = {8}, v[8];
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    ilpm_model_group(m, "g", &err);
    for (int i = 0; i < 8; i++)
        v[i] = i + 1;
    ck_assert_int_eq(ilpm_add_impl(m, v[0], v[1], &err), 0);
    ck_assert_int_eq(ilpm_add_amo(m, v + 2, 6, &err), 0);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_ptr_null(e.reason); /* the settling of givens needs none */
    ck_assert_int_eq(ilpm_kern_keep_reasons(&e), 0);
    ck_assert_int_eq(e.ncons, 2);
    /* 300 more constraints: the lists of x2, the constraints and their
     * terms all outgrow their room in the arena */
    for (int i = 0; i < 300; i++) {
        int l[2] = {-v[1], v[2 + i % 6]};
        int64_t a[2] = {3, 2};
        ck_assert_int_eq(ilpm_kern_add(&e, a, l, 2, ILPM_GE, 2, 0), 2 + i);
    }
    ck_assert_int_gt((int)e.nmoved, 0);
    ck_assert_int_eq(ilpm_kern_settle(&e, 0), 0);
    ck_assert_int_eq(e.ntrail, 0);
    hook_calls = 0;
    e.db_propagate = count_hook;
    e.db = (void *)&hook_calls; /* any non-NULL store */
    /* x1 forces x2, which forces each of x3..x8 (3(-x2) + 2 x >= 2):
     * more than one of them true fails the at-most-one */
    ck_assert_int_eq(ilpm_kern_assign(&e, v[0]), 0);
    ck_assert_int_eq(ilpm_kern_propagate(&e), -1);
    ck_assert_int_ge(hook_calls, 2);
    ilpm_kern_undo(&e, 0);
    for (int c = 0; c < e.ncons; c++)
        ck_assert(e.cons[c].st == 0 && e.cons[c].sf == 0);
    /* x2 false alone leaves the others open */
    e.db = NULL;
    ck_assert_int_eq(ilpm_kern_assign(&e, -v[1]), 0);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    ck_assert_int_eq(ilpm_klval(e.val, v[0]), ILPM_K_FALSE);
    ck_assert_int_eq(ilpm_klval(e.val, v[2]), ILPM_K_OPEN);
    ck_assert_int_eq(e.reason[v[0]], 4 * 0 + ILPM_K_R_GE);
    ilpm_kern_free(&e);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("propagate");
    TCase *tc = tcase_create("ilpm_model_propagate");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_propagate_keeps_solutions);
    tcase_add_test(tc, test_fixed_hold_in_every_solution);
    tcase_add_test(tc, test_propagate_shape);
    tcase_add_test(tc, test_propagate_unchanged);
    tcase_add_test(tc, test_propagate_keeps_names);
    tcase_add_test(tc, test_kind_clause_alo);
    tcase_add_test(tc, test_kind_amo);
    tcase_add_test(tc, test_kind_exo);
    tcase_add_test(tc, test_kind_impl);
    tcase_add_test(tc, test_kind_card);
    tcase_add_test(tc, test_kind_ccard);
    tcase_add_test(tc, test_kind_linear);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_gcd_refutes_equality_rows);
    tcase_add_test(tc, test_refuted_form);
    tcase_add_test(tc, test_redundant_group);
    tcase_add_test(tc, test_redundant_group_propagates);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_kern");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_kernel_grows_past_arena);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_model_lowered");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_lowered);
    tcase_add_test(tc, test_settle_watched);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_propagate_level");
    tcase_add_test(tc, test_levels);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_propagator");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_propagator);
    tcase_add_test(tc, test_propagator_brute_force);
    tcase_add_test(tc, test_propagator_watch);
    tcase_add_test(tc, test_propagator_refuted_model);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
