/* Tests of cp's cutting-planes conflict analysis (cp_cuts.c, --cp-analysis
 * cuts): on small random pseudo-Boolean models (weighted rows with
 * coefficients up to 15, clauses, an objective), every sum the analysis
 * derives and every clause learned holds on every solution (under an
 * optimisation: on every solution better than the incumbent of its
 * time), checked by brute force over all assignments; counts and optima
 * are brute force's. */
#include "cp.h"
#include "ilpm_int.h"

#define ILPM_TESTUTIL_RANDOM
#define ILPM_TESTUTIL_KERN
#include "testutil.h"
#include <check.h>
#include <string.h>

/* nv variables, 3 to 6 weighted rows (and a clause now and then), an
 * objective when with_obj. */
static ilpm_model *random_pb(int nv, int with_obj)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {nv};
    ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int ncons = 3 + (int)rnd(6);
    for (int i = 0; i < ncons; i++) {
        int n = 2 + (int)rnd((unsigned)nv - 1), l[16];
        int64_t c[16], sum = 0;
        for (int j = 0; j < n; j++) {
            l[j] = rnd_lit(nv);
            c[j] = 1 + (int64_t)rnd(15);
            sum += c[j];
        }
        int rc;
        if (rnd(6) == 0)
            rc = ilpm_add_clause(m, l, n < 3 ? n : 3, &err);
        else
            rc = ilpm_add_linear(m, c, l, n, rnd(2) ? ILPM_LE : ILPM_GE,
                                 (int64_t)rnd((unsigned)sum + 1), &err);
        ck_assert_msg(rc == 0, "%s", err.msg);
    }
    if (with_obj) {
        int l[16];
        int64_t c[16];
        for (int j = 0; j < nv; j++) {
            l[j] = 1 + j;
            c[j] = (int64_t)rnd(21) - 10;
        }
        ilpm_sense sense = rnd(2) ? ILPM_MAXIMIZE : ILPM_MINIMIZE;
        ck_assert_int_eq(ilpm_model_objective(m, sense, c, l, nv, &err), 0);
    }
    return m;
}

/* Every solution (rows of nv + 1 values), its objective in minimisation
 * form; what a learned sum or clause must keep: those better than the
 * incumbent when optimising (every one before the first). */
struct sols {
    uint8_t *v;
    int64_t *obj;
    int n, nv;
    const cp_search *s;
    int sums, clauses;
};

static int keeps(const struct sols *o, int i)
{
    return !o->s || !o->s->found || o->obj[i] < o->s->best;
}

static void check_sum(void *ctx, const cp_pb *pb)
{
    struct sols *o = ctx;
    ck_assert_int_gt(pb->d, 0);
    for (int i = 0; i < o->n; i++) {
        if (!keeps(o, i))
            continue;
        const uint8_t *row = o->v + (size_t)i * (size_t)(o->nv + 1);
        int64_t lhs = 0;
        for (int j = 0; j < pb->n; j++) {
            int v = pb->vars[j];
            if (pb->a[v] > 0 && row[v])
                lhs += pb->a[v];
            else if (pb->a[v] < 0 && !row[v])
                lhs -= pb->a[v];
        }
        ck_assert_msg(lhs >= pb->d,
                      "a derived sum (%d terms, degree %lld) cuts a "
                      "solution: %lld",
                      pb->n, (long long)pb->d, (long long)lhs);
    }
    o->sums++;
}

static void check_clause(void *ctx, const int *lits, int n)
{
    struct sols *o = ctx;
    for (int i = 0; i < o->n; i++) {
        if (!keeps(o, i))
            continue;
        const uint8_t *row = o->v + (size_t)i * (size_t)(o->nv + 1);
        int sat = 0;
        for (int j = 0; j < n && !sat; j++)
            sat = (lits[j] > 0) == (row[abs(lits[j])] != 0);
        ck_assert_msg(sat, "a learned clause of %d literals cuts a solution",
                      n);
    }
    o->clauses++;
}

static void enumerate(const ilpm_model *m, struct sols *o, int64_t *best)
{
    int nv = ilpm_model_nvars(m);
    ilpm_sense sense = ilpm_model_objective_get(m, NULL, NULL, NULL);
    o->nv = nv;
    o->n = 0;
    o->v = malloc(((size_t)1 << nv) * (size_t)(nv + 1));
    o->obj = malloc(((size_t)1 << nv) * sizeof *o->obj);
    ck_assert_ptr_nonnull(o->v);
    ck_assert_ptr_nonnull(o->obj);
    *best = INT64_MAX;
    for (unsigned a = 0; a < (1u << nv); a++) {
        uint8_t *row = o->v + (size_t)o->n * (size_t)(nv + 1);
        for (int v = 1; v <= nv; v++)
            row[v] = (a >> (v - 1)) & 1;
        if (!ilpm_model_check(m, row, NULL))
            continue;
        int64_t f = sense == ILPM_NONE ? 0 : ilpm_model_objective_value(m, row);
        o->obj[o->n] = sense == ILPM_MAXIMIZE ? -f : f;
        *best = o->obj[o->n] < *best ? o->obj[o->n] : *best;
        o->n++;
    }
}

/* One search with learning and --cp-analysis cuts over m in mode; its
 * status, *tried, *taken and *rows counting the analyses, the clauses
 * and the rows learned from them. */
static ilpm_status search(ilpm_model *m, cp_mode mode, ilpm_search strategy,
                          int cuts, struct sols *o, uint64_t *tried,
                          uint64_t *taken, uint64_t *rows, int64_t *best,
                          uint64_t *count)
{
    ilpm_err err;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_cp_kern_init(&e, m, &w, &err), 0);
    int refuted = 0;
    for (int c = 0; c < e.ncons && !refuted; c++)
        refuted = ilpm_kern_check(&e, c) != 0 || ilpm_kern_propagate(&e) != 0;
    cp_search cs;
    memset(&cs, 0, sizeof cs);
    cs.obj = -1;
    if (!refuted && mode == CP_OPTIMIZE)
        cs.obj = test_objective_row(&e, m, &cs.obj_shift);
    if (!refuted && cs.obj >= 0)
        refuted = ilpm_kern_check(&e, cs.obj) != 0;
    ilpm_status st = ILPM_UNSAT;
    if (!refuted) {
        uint8_t aux[32] = {0};
        cs.e = &e;
        cs.aux = aux;
        cs.strategy = strategy;
        cs.mode = mode;
        cs.learn = 1;
        cs.cuts = cuts;
        cs.on_cut = check_sum;
        cs.cut_ctx = o;
        cs.on_learn = check_clause;
        cs.learn_ctx = o;
        o->s = mode == CP_OPTIMIZE ? &cs : NULL;
        ilpm_watch_until(&cs.w, 0, NULL);
        uint8_t vals[32];
        int ncons = e.ncons;
        size_t nlits = e.nlits;
        st = ilpm_cp_search_run(&cs, vals, &err);
        /* the learned rows left the kernel with the search */
        ck_assert_int_eq(e.ncons, ncons);
        ck_assert_uint_eq(e.nlits, nlits);
        *rows += cs.cut_rows;
        *best = cs.best;
        *count = cs.count;
        *tried += cs.cut_tried;
        *taken += cs.cut_taken;
    }
    ilpm_kern_free(&e);
    return st;
}

START_TEST(test_cuts_are_implied)
{
    rng_state = 35;
    uint64_t tried = 0, taken = 0, rows = 0;
    int sums = 0;
    for (int iter = 0; iter < 300; iter++) {
        int nv = 6 + (int)rnd(7);
        ilpm_model *m = random_pb(nv, 0);
        struct sols o = {0};
        int64_t want, best;
        enumerate(m, &o, &want);
        for (int mode = 0; mode < 2; mode++) {
            uint64_t count = 0;
            ilpm_status st = search(
                m, mode ? CP_COUNT : CP_SOLVE,
                mode ? ILPM_SEARCH_INPUT : ILPM_SEARCH_ACTIVITY, 1 + (iter & 1),
                &o, &tried, &taken, &rows, &best, &count);
            if (mode)
                ck_assert_int_eq(count, (uint64_t)o.n);
            else
                ck_assert_int_eq(st, o.n ? ILPM_SOLVED : ILPM_UNSAT);
        }
        sums += o.sums;
        free(o.v);
        free(o.obj);
        ilpm_model_free(m);
    }
    /* the analysis ran, and its clauses were learned */
    ck_assert_uint_gt(tried, 200);
    ck_assert_uint_gt(taken, 50);
    ck_assert_uint_gt(rows, 50);
    ck_assert_int_gt(sums, 250);
}
END_TEST

START_TEST(test_cuts_keep_the_optimum)
{
    rng_state = 36;
    uint64_t tried = 0, taken = 0, rows = 0;
    int sums = 0, solved = 0;
    for (int iter = 0; iter < 300; iter++) {
        int nv = 6 + (int)rnd(7);
        ilpm_model *m = random_pb(nv, 1);
        struct sols o = {0};
        int64_t want, best;
        uint64_t count;
        enumerate(m, &o, &want);
        ilpm_status st =
            search(m, CP_OPTIMIZE, (ilpm_search)(iter % 3), 1 + (iter & 1), &o,
                   &tried, &taken, &rows, &best, &count);
        ck_assert_int_eq(st, o.n ? ILPM_OPTIMAL : ILPM_UNSAT);
        if (o.n) {
            ck_assert_int_eq(best, want);
            solved++;
        }
        sums += o.sums;
        free(o.v);
        free(o.obj);
        ilpm_model_free(m);
    }
    ck_assert_int_gt(solved, 100);
    ck_assert_uint_gt(tried, 200);
    ck_assert_uint_gt(taken, 50);
    ck_assert_uint_gt(rows, 50);
    ck_assert_int_gt(sums, 500);
}
END_TEST

/* The option through the solver: the optimum of each random model with
 * cuts as with clauses. */
START_TEST(test_option_keeps_optima)
{
    rng_state = 37;
    for (int iter = 0; iter < 100; iter++) {
        ilpm_model *m = random_pb(4 + (int)rnd(9), 1);
        int64_t got[2] = {0, 0};
        ilpm_status st[2];
        for (int cuts = 0; cuts < 2; cuts++) {
            ilpm_options o;
            ilpm_options_init(&o);
            o.backend = ILPM_BACKEND_CP;
            ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_ON;
            ilpm_cp_opts_in(&o)->analysis = cuts;
            ilpm_err err;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            st[cuts] = ilpm_solver_optimize(s, NULL, 0, &err);
            if (st[cuts] == ILPM_OPTIMAL)
                got[cuts] = ilpm_solver_objective(s);
            ilpm_solver_free(s);
        }
        ck_assert_int_eq(st[0], st[1]);
        if (st[0] == ILPM_OPTIMAL)
            ck_assert_int_eq(got[0], got[1]);
        ilpm_model_free(m);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cp_cuts");
    TCase *t = tcase_create("cuts");
    tcase_add_test(t, test_cuts_are_implied);
    tcase_add_test(t, test_cuts_keep_the_optimum);
    tcase_add_test(t, test_option_keeps_optima);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
