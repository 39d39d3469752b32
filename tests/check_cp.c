/* Tests of the cp back end's learning engine (cp_learn.c, cp_cdcl.c):
 * conflict analysis on small hand-made models, every learned clause of
 * random models implied (checked by brute force over all assignments),
 * and counts and optima with learning on and off against brute force. */
#include "cp.h"
#include "ilpm_int.h"
#include "puzzle.h"
#include "puzzles.h"

#define ILPM_TESTUTIL_RANDOM
#define ILPM_TESTUTIL_KERN
#include "testutil.h"
#include <check.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* cp's engine over model m with a clause store, as the conflict-driven
 * search sets it up; done() frees the three. */
static void open_engine(ilpm_model *m, ilpm_watch *w, ilpm_kern *e, cp_db *db)
{
    ilpm_err err;
    ilpm_watch_until(w, 0, NULL);
    ck_assert_int_eq(ilpm_cp_kern_init_reasons(e, m, w, &err), 0);
    ck_assert_int_eq(ilpm_cp_db_init(db, e->nv), 0);
    e->db = db;
}

static void done(ilpm_model *m, ilpm_kern *e, cp_db *db)
{
    e->db = NULL;
    ilpm_cp_db_free(db);
    ilpm_kern_free(e);
    ilpm_model_free(m);
}

/* x1 -> x2, x1 -> x3, and a weighted sum a2 x2 + 2 x3 + x4 <= 3:
 * deciding x4 (level 1), then x1 (level 2), propagates x2, and the sum
 * takes x3, so x1 -> x3 fails. */
static void hand_made(int64_t a2, int *lits, int *n, int *bj)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {4};
    ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, 1, 2, &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, 1, 3, &err), 0);
    int l[3] = {2, 3, 4};
    int64_t c[3] = {a2, 2, 1};
    ck_assert_int_eq(ilpm_add_linear(m, c, l, 3, ILPM_LE, 3, &err), 0);
    ilpm_watch w;
    ilpm_kern e;
    cp_db db;
    open_engine(m, &w, &e, &db);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    e.lvl = 1;
    ilpm_kern_assign(&e, 4);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    e.lvl = 2;
    ilpm_kern_assign(&e, 1);
    ck_assert_int_eq(ilpm_kern_propagate(&e), -1);
    ck_assert_int_eq(ilpm_cp_explain(&e, e.conf, 0, &db.confl), 0);
    int lbd;
    *bj = ilpm_cp_analyze(&e, &lbd);
    *n = db.out.n;
    memcpy(lits, db.out.v, (size_t)db.out.n * sizeof *lits);
    done(m, &e, &db);
}

START_TEST(test_analysis_takes_the_fewest_terms)
{
    /* x2 alone (2 > 3 - 2) explains x3 false: x4 is not in the reason,
     * so the learned clause is the unit -x1, asserted at level 0. */
    int lits[8], n, bj;
    hand_made(2, lits, &n, &bj);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(lits[0], -1);
    ck_assert_int_eq(bj, 0);
}
END_TEST

START_TEST(test_analysis_keeps_what_the_sum_needs)
{
    /* With x2's coefficient 1, x2 and x4 together explain x3 false: the
     * learned clause is -x1 or -x4, asserting -x1 at level 1. */
    int lits[8], n, bj;
    hand_made(1, lits, &n, &bj);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(lits[0], -1);
    ck_assert_int_eq(lits[1], -4);
    ck_assert_int_eq(bj, 1);
}
END_TEST

START_TEST(test_reason_takes_the_earliest_literals)
{
    /* x1 + x2 + 2 x3 <= 1 with x1, x2 set at level 1 and x3 at level 2:
     * x3 alone would do (2 > 1), but the reason takes x1 and x2, set
     * earlier, so that what is learned from it stays at level 1. */
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {3};
    ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int l[3] = {1, 2, 3};
    int64_t c[3] = {1, 1, 2};
    ck_assert_int_eq(ilpm_add_linear(m, c, l, 3, ILPM_LE, 1, &err), 0);
    ilpm_watch w;
    ilpm_kern e;
    cp_db db;
    open_engine(m, &w, &e, &db);
    e.lvl = 1;
    ilpm_kern_assign(&e, 1);
    ilpm_kern_assign(&e, 2);
    e.lvl = 2;
    ilpm_kern_assign(&e, 3);
    ck_assert_int_eq(ilpm_cp_explain(&e, 0 * 4 + ILPM_K_R_LE, 0, &db.confl), 0);
    ck_assert_int_eq(db.confl.n, 2);
    ck_assert_int_eq(db.confl.v[0], -1);
    ck_assert_int_eq(db.confl.v[1], -2);
    /* with x2 false, x1 is not enough: x3 joins, and x1 is then not
     * needed (2 > 1 alone), so it is dropped */
    ilpm_kern_undo(&e, 0);
    e.lvl = 1;
    ilpm_kern_assign(&e, 1);
    ilpm_kern_assign(&e, -2);
    e.lvl = 2;
    ilpm_kern_assign(&e, 3);
    ck_assert_int_eq(ilpm_cp_explain(&e, 0 * 4 + ILPM_K_R_LE, 0, &db.confl), 0);
    ck_assert_int_eq(db.confl.n, 1);
    ck_assert_int_eq(db.confl.v[0], -3);
    done(m, &e, &db);
}
END_TEST

/* Every solution of the model, for checking learned clauses. */
struct sols {
    uint8_t *v; /* n rows of nv + 1 values */
    int n, nv;
    int checked;
};

static void check_implied(void *ctx, const int *lits, int n)
{
    struct sols *s = ctx;
    for (int i = 0; i < s->n; i++) {
        const uint8_t *row = s->v + (size_t)i * (size_t)(s->nv + 1);
        int sat = 0;
        for (int j = 0; j < n && !sat; j++)
            sat = (lits[j] > 0) == (row[abs(lits[j])] != 0);
        ck_assert_msg(sat, "a learned clause of %d literals cuts a solution",
                      n);
    }
    s->checked++;
}

/* Every row's weights as the values on the trail make them, and the
 * number of entries in the occurrence lists. */
static size_t weights_and_occurrences(const ilpm_kern *e)
{
    size_t occ = 0;
    for (size_t i = 0; i < 2 * (size_t)e->nv + 2; i++)
        occ += (size_t)e->occ[i].n;
    for (int c = 0; c < e->ncons; c++) {
        const ilpm_kcon *x = &e->cons[c];
        int64_t st = 0, sf = 0;
        for (int i = 0; i < x->n; i++) {
            int v = ilpm_klval(e->val, e->lits[x->start + (size_t)i]);
            st += v == ILPM_K_TRUE ? ilpm_kcoefs(e, x)[i] : 0;
            sf += v == ILPM_K_FALSE ? ilpm_kcoefs(e, x)[i] : 0;
        }
        ck_assert_int_eq(x->st, st);
        ck_assert_int_eq(x->sf, sf);
    }
    return occ;
}

START_TEST(test_learned_clauses_are_implied)
{
    rng_state = 99;
    int checked = 0;
    for (int iter = 0; iter < 400; iter++) {
        int nx = 3 + (int)rnd(9), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, 0);
        int nv = ilpm_model_nvars(m);
        struct sols s = {malloc(((size_t)1 << nv) * (size_t)(nv + 1)), 0, nv,
                         0};
        ck_assert_ptr_nonnull(s.v);
        for (unsigned a = 0; a < (1u << nv); a++) {
            uint8_t *row = s.v + (size_t)s.n * (size_t)(nv + 1);
            for (int v = 1; v <= nv; v++)
                row[v] = (a >> (v - 1)) & 1;
            if (ilpm_model_check(m, row, NULL))
                s.n++;
        }
        for (int mode = 0; mode < 2; mode++) {
            ilpm_err err;
            ilpm_watch w;
            ilpm_watch_until(&w, 0, NULL);
            ilpm_kern e;
            ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
            int refuted = 0;
            for (int c = 0; c < e.ncons && !refuted; c++)
                refuted =
                    ilpm_kern_check(&e, c) != 0 || ilpm_kern_propagate(&e) != 0;
            if (refuted) {
                ck_assert_int_eq(s.n, 0);
                ilpm_kern_free(&e);
                continue;
            }
            uint8_t *aux = calloc((size_t)nv + 1, 1);
            for (int v = 1; v <= nv; v++)
                aux[v] = (uint8_t)ilpm_model_var_is_aux(m, v);
            cp_search cs;
            test_cp_search(&cs, &e, aux,
                           mode ? ILPM_SEARCH_INPUT : ILPM_SEARCH_ACTIVITY,
                           mode ? CP_COUNT : CP_SOLVE);
            cs.learn = 1;
            cs.on_learn = check_implied;
            cs.learn_ctx = &s;
            uint8_t vals[32];
            /* The search watches the clauses meanwhile, then gives them
             * back as rows with their weights. */
            size_t occ = weights_and_occurrences(&e);
            ilpm_status st = ilpm_cp_search_run(&cs, vals, &err);
            ck_assert_uint_eq(weights_and_occurrences(&e), occ);
            if (mode) {
                ck_assert_int_eq(st, ILPM_SOLVED);
            } else {
                ck_assert_int_eq(st, s.n ? ILPM_SOLVED : ILPM_UNSAT);
            }
            free(aux);
            ilpm_kern_free(&e);
        }
        checked += s.checked;
        free(s.v);
        ilpm_model_free(m);
    }
    ck_assert_int_gt(checked, 100); /* the test saw conflicts at all */
}
END_TEST

/* Brute force: distinct projections onto x, and the best objective. */
static void brute(const ilpm_model *m, int nx, uint64_t *count, int *feasible,
                  int64_t *best)
{
    int nv = ilpm_model_nvars(m);
    uint8_t vals[32];
    uint8_t *seen = calloc((size_t)1 << nx, 1);
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
    free(seen);
}

START_TEST(test_counts_and_optima_learn_on_and_off)
{
    rng_state = 2024;
    for (int iter = 0; iter < 300; iter++) {
        int nx = 1 + (int)rnd(10), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, (int)(iter & 1));
        uint64_t want;
        int feasible;
        int64_t best = 0;
        brute(m, nx, &want, &feasible, &best);
        for (int c = 0; c < 6; c++) {
            ilpm_options o;
            ilpm_options_init(&o);
            o.backend = ILPM_BACKEND_CP;
            ilpm_cp_opts_in(&o)->learn = c < 3 ? ILPM_LEARN_ON : ILPM_LEARN_OFF;
            ilpm_cp_opts_in(&o)->search = (ilpm_search)(c % 3);
            o.propagate = ILPM_PROP_NONE;
            ilpm_err err;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            uint64_t got;
            ilpm_status st = ilpm_solver_count(s, 0, &got, NULL, NULL, &err);
            ck_assert_int_eq(st, ILPM_SOLVED);
            ck_assert_msg(got == want,
                          "iter %d config %d: count %llu, want %llu", iter, c,
                          (unsigned long long)got, (unsigned long long)want);
            ilpm_solver_free(s);
            if (!(iter & 1))
                continue;
            /* optima under every learning setting, with and without the
             * LP bound */
            ilpm_cp_opts_in(&o)->learn = (ilpm_learn)(c % 3);
            ilpm_cp_opts_in(&o)->lp_bound = c / 3;
            s = ilpm_solver_new(m, &o, &err);
            st = ilpm_solver_optimize(s, NULL, 0, &err);
            ck_assert_int_eq(st, feasible ? ILPM_OPTIMAL : ILPM_UNSAT);
            if (feasible)
                ck_assert_msg(ilpm_solver_objective(s) == best,
                              "iter %d config %d: optimum %lld, want %lld",
                              iter, c, (long long)ilpm_solver_objective(s),
                              (long long)best);
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
    }
}
END_TEST

/* The solutions a learned clause of an optimisation must keep: those
 * better than the incumbent (every one before the first). */
struct opt_sols {
    struct sols all;
    int64_t *obj; /* per solution, in minimisation form */
    const cp_search *s;
};

static void check_implied_below(void *ctx, const int *lits, int n)
{
    struct opt_sols *o = ctx;
    for (int i = 0; i < o->all.n; i++) {
        if (o->s->found && o->obj[i] >= o->s->best)
            continue;
        const uint8_t *row = o->all.v + (size_t)i * (size_t)(o->all.nv + 1);
        int sat = 0;
        for (int j = 0; j < n && !sat; j++)
            sat = (lits[j] > 0) == (row[abs(lits[j])] != 0);
        ck_assert_msg(sat,
                      "a learned clause cuts a solution of %lld below "
                      "the incumbent %lld",
                      (long long)o->obj[i], (long long)o->s->best);
    }
    o->all.checked++;
}

/* Branch and bound with learning, the objective's row and the LP bound's
 * row (GLPK's reduced costs) in the kernel: every learned clause keeps
 * every solution better than the incumbent of its time, and the optimum
 * is brute force's. */
START_TEST(test_optimum_learned_clauses_are_implied)
{
    rng_state = 7;
    int checked = 0, with_lp = 0, rows = 0;
    for (int iter = 0; iter < 300; iter++) {
        int nx = 3 + (int)rnd(9), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, 1);
        ilpm_sense sense = ilpm_model_objective_get(m, NULL, NULL, NULL);
        int nv = ilpm_model_nvars(m);
        struct opt_sols os = {
            {malloc(((size_t)1 << nv) * (size_t)(nv + 1)), 0, nv, 0},
            malloc(((size_t)1 << nv) * sizeof(int64_t)),
            NULL};
        ck_assert_ptr_nonnull(os.all.v);
        ck_assert_ptr_nonnull(os.obj);
        int64_t want = INT64_MAX;
        for (unsigned a = 0; a < (1u << nv); a++) {
            uint8_t *row = os.all.v + (size_t)os.all.n * (size_t)(nv + 1);
            for (int v = 1; v <= nv; v++)
                row[v] = (a >> (v - 1)) & 1;
            if (!ilpm_model_check(m, row, NULL))
                continue;
            int64_t f = ilpm_model_objective_value(m, row);
            os.obj[os.all.n++] = sense == ILPM_MAXIMIZE ? -f : f;
            want = os.obj[os.all.n - 1] < want ? os.obj[os.all.n - 1] : want;
        }
        ilpm_err err;
        ilpm_watch w;
        ilpm_watch_until(&w, 0, NULL);
        ilpm_kern e;
        ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
        int refuted = 0;
        for (int c = 0; c < e.ncons && !refuted; c++)
            refuted =
                ilpm_kern_check(&e, c) != 0 || ilpm_kern_propagate(&e) != 0;
        cp_search cs;
        memset(&cs, 0, sizeof cs);
        if (!refuted) {
            cs.obj = test_objective_row(&e, m, &cs.obj_shift);
            ilpm_options o;
            ilpm_options_init(&o);
            ilpm_cp_lp_row(&e, m, &o, cs.obj, &cs.lp);
            with_lp += cs.lp.bound;
            rows += cs.lp.row != 0;
        }
        if (refuted) {
            ck_assert_int_eq(os.all.n, 0);
        } else {
            uint8_t aux[32] = {0};
            cs.e = &e;
            cs.aux = aux;
            cs.strategy = (ilpm_search)(iter % 3);
            cs.mode = CP_OPTIMIZE;
            cs.learn = 1;
            cs.on_learn = check_implied_below;
            cs.learn_ctx = &os;
            os.s = &cs;
            ilpm_watch_until(&cs.w, 0, NULL);
            uint8_t vals[32];
            ilpm_status st = ilpm_cp_search_run(&cs, vals, &err);
            ck_assert_int_eq(st, os.all.n ? ILPM_OPTIMAL : ILPM_UNSAT);
            if (os.all.n)
                ck_assert_int_eq(cs.best, want);
        }
        checked += os.all.checked;
        ilpm_kern_free(&e);
        free(os.all.v);
        free(os.obj);
        ilpm_model_free(m);
    }
    ck_assert_int_gt(checked, 100);
    ck_assert_int_gt(with_lp, 100);
    ck_assert_int_gt(rows, 50); /* reduced costs made a row */
}
END_TEST

/* The LP's rows saturated: "2 x1 + x2 >= 1" (or "-2 x1 - x2 <= -1") is
 * "x1 + x2 >= 1" on 0/1 points, so min 3 x1 + 2 x2 has the LP bound 2,
 * not 1.5 (x1 = 1/2); a row with the negations folded in likewise. */
START_TEST(test_lp_bound_saturates_rows)
{
    for (int form = 0; form < 3; form++) {
        ilpm_err err;
        ilpm_model *m = ilpm_model_new();
        int lo[1] = {1}, hi[1] = {2};
        ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
        int l[2] = {1, 2};
        int64_t c[2] = {2, 1}, neg[2] = {-2, -1}, obj[2] = {3, 2};
        int rc = form == 0   ? ilpm_add_linear(m, c, l, 2, ILPM_GE, 1, &err)
                 : form == 1 ? ilpm_add_linear(m, neg, l, 2, ILPM_LE, -1, &err)
                             : 0;
        if (form == 2) {
            /* 2 (1 - x1) + (1 - x2) <= 2: the same row over negations */
            int nl[2] = {-1, -2};
            rc = ilpm_add_linear(m, c, nl, 2, ILPM_LE, 2, &err);
        }
        ck_assert_int_eq(rc, 0);
        ck_assert_int_eq(
            ilpm_model_objective(m, ILPM_MINIMIZE, obj, l, 2, &err), 0);
        ilpm_options o;
        ilpm_options_init(&o);
        double rcs[3];
        ilpm_lp_bound b = {.rc = rcs};
        ck_assert_int_eq(ilpm_glpk_lp_bound(m, &o, &b, &err), ILPM_SOLVED);
        ck_assert_msg(fabs(b.z - 2.0) < 1e-9, "form %d: LP bound %g", form,
                      b.z);
        ilpm_model_free(m);
    }
}
END_TEST

/* What the cp search logs (--verbose): the failures of its last line. */
static void log_fails(void *ctx, const char *text)
{
    const char *f = strstr(text, " nodes, ");
    if (f)
        *(long *)ctx = strtol(f + 8, NULL, 10);
}

/* min sum x_i over 12 pairs, each "x_2i-1 + x_2i >= 1": the LP's value,
 * 12, is the optimum, so once GLPK is asked (after 1000 failures) the
 * search ends at once; without the LP bound, refuting 11 takes 2049. */
START_TEST(test_lp_bound_ends_the_search)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {24};
    ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int l[24];
    int64_t c[24];
    for (int i = 0; i < 24; i++) {
        l[i] = i + 1;
        c[i] = 1;
    }
    for (int i = 0; i < 24; i += 2)
        ck_assert_int_eq(ilpm_add_clause(m, l + i, 2, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, c, l, 24, &err), 0);
    long fails[2];
    for (int lp = 0; lp < 2; lp++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = ILPM_BACKEND_CP;
        o.propagate = ILPM_PROP_NONE;
        o.verbose = 1;
        o.log = log_fails;
        o.log_ctx = &fails[lp];
        ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_ON;
        ilpm_cp_opts_in(&o)->lp_bound = lp;
        fails[lp] = -1;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_msg(s != NULL, "%s", err.msg);
        ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
        ck_assert_int_eq(ilpm_solver_objective(s), 12);
        ilpm_solver_free(s);
    }
    ck_assert_int_le(fails[1], 1001);
    ck_assert_int_gt(fails[0], 2000);
    ilpm_model_free(m);
}
END_TEST

static void log_lp(void *ctx, const char *text)
{
    if (strstr(text, "LP bound"))
        *(int *)ctx = 1;
}

/* An optimisation that ends within 1000 failures does not ask GLPK (4
 * pairs: a few failures), one that does not (12 pairs) asks it once. */
START_TEST(test_lp_bound_asked_late)
{
    for (int pairs = 4; pairs <= 12; pairs += 8) {
        ilpm_err err;
        ilpm_model *m = ilpm_model_new();
        int lo[1] = {1}, hi[1] = {2 * pairs};
        ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
        int l[24];
        int64_t c[24];
        for (int i = 0; i < 2 * pairs; i++) {
            l[i] = i + 1;
            c[i] = 1;
        }
        for (int i = 0; i < 2 * pairs; i += 2)
            ck_assert_int_eq(ilpm_add_clause(m, l + i, 2, &err), 0);
        ck_assert_int_eq(
            ilpm_model_objective(m, ILPM_MINIMIZE, c, l, 2 * pairs, &err), 0);
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = ILPM_BACKEND_CP;
        o.propagate = ILPM_PROP_NONE;
        o.verbose = 1;
        o.log = log_lp;
        int asked = 0;
        o.log_ctx = &asked;
        ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_ON;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_msg(s != NULL, "%s", err.msg);
        ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
        ck_assert_int_eq(ilpm_solver_objective(s), pairs);
        ck_assert_int_eq(asked, pairs == 12);
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* What the cp search logs: the clauses learned, of its last line. */
static void log_learned(void *ctx, const char *text)
{
    const char *f = strstr(text, " restarts, ");
    if (f)
        *(long *)ctx = strtol(f + 11, NULL, 10);
}

/* --learn auto, optimising: a model of unit coefficients only (rows and
 * objective: the pairs of test_lp_bound_ends_the_search, a count to
 * minimise) is searched depth first, learning nothing; with one weight
 * of 2 in the objective it learns. */
START_TEST(test_auto_optimum_learns_with_weights)
{
    ilpm_err err;
    for (int weighted = 0; weighted < 2; weighted++) {
        ilpm_model *m = ilpm_model_new();
        int lo[1] = {1}, hi[1] = {24};
        ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
        int l[24];
        int64_t c[24];
        for (int i = 0; i < 24; i++) {
            l[i] = i + 1;
            c[i] = 1;
        }
        c[0] += weighted;
        for (int i = 0; i < 24; i += 2)
            ck_assert_int_eq(ilpm_add_clause(m, l + i, 2, &err), 0);
        ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, c, l, 24, &err),
                         0);
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = ILPM_BACKEND_CP;
        o.propagate = ILPM_PROP_NONE;
        o.verbose = 1;
        o.log = log_learned;
        long learned = -1;
        o.log_ctx = &learned;
        ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_AUTO;
        ilpm_cp_opts_in(&o)->lp_bound = 0;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_msg(s != NULL, "%s", err.msg);
        ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
        ck_assert_int_eq(ilpm_solver_objective(s), 12);
        if (weighted)
            ck_assert_int_gt(learned, 0);
        else
            ck_assert_int_eq(learned, 0);
        ilpm_solver_free(s);
        ilpm_model_free(m);
    }
}
END_TEST

/* p pigeons in h holes, each pigeon in one hole, each hole holding at
 * most one: variable (i - 1) * h + j puts pigeon i in hole j. */
static ilpm_model *pigeons(int p, int h)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {1, 1}, hi[2] = {p, h};
    ck_assert_int_eq(ilpm_model_family(m, "x", 2, lo, hi, 0, &err), 0);
    int l[16];
    for (int i = 0; i < p; i++) {
        for (int j = 0; j < h; j++)
            l[j] = i * h + j + 1;
        ck_assert_int_eq(ilpm_add_clause(m, l, h, &err), 0);
    }
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < p; i++)
            l[i] = i * h + j + 1;
        ck_assert_int_eq(ilpm_add_amo(m, l, p, &err), 0);
    }
    return m;
}

/* A depth-first search that found its solution leaves its trail when
 * asked (keep_trail: the driver takes it back when called again), else
 * undoes it; through the solver, solutions found one after another (each
 * blocked, the trail taken back before the block is added) are all of
 * them. */
START_TEST(test_solution_leaves_the_trail)
{
    ilpm_model *m = pigeons(4, 4);
    ilpm_err err;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    uint8_t aux[32] = {0}, vals[32];
    for (int keep = 0; keep < 2; keep++) {
        ilpm_kern e;
        ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
        cp_search cs;
        test_cp_search(&cs, &e, aux, ILPM_SEARCH_INPUT, CP_SOLVE);
        cs.keep_trail = keep;
        ck_assert_int_eq(ilpm_cp_search_run(&cs, vals, &err), ILPM_SOLVED);
        ck_assert_int_eq(e.ntrail, keep ? e.nv : 0);
        ilpm_kern_undo(&e, 0);
        weights_and_occurrences(&e);
        ilpm_kern_free(&e);
    }
    for (int learn = 0; learn < 2; learn++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = ILPM_BACKEND_CP;
        ilpm_cp_opts_in(&o)->learn = learn ? ILPM_LEARN_AUTO : ILPM_LEARN_OFF;
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        ck_assert_msg(s != NULL, "%s", err.msg);
        int n = 0;
        while (ilpm_solver_solve(s, NULL, 0, &err) == ILPM_SOLVED) {
            ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            ck_assert_int_eq(ilpm_solver_block(s, &err), 0);
            n++;
        }
        ck_assert_int_eq(n, 24); /* 4! */
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
}
END_TEST

/* The depth-first search stops at its failure budget, saying so; --learn
 * auto then answers through learning (and, when the depth-first search
 * finds a solution within the budget, through it). */
START_TEST(test_auto_turns_to_learning)
{
    ilpm_model *m = pigeons(8, 7);
    ilpm_err err;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
    uint8_t aux[64] = {0};
    cp_search cs;
    test_cp_search(&cs, &e, aux, ILPM_SEARCH_INPUT, CP_SOLVE);
    cs.fail_budget = 50;
    uint8_t vals[64];
    ck_assert_int_eq(ilpm_cp_search_run(&cs, vals, &err), ILPM_TIMEOUT);
    ck_assert_int_eq(cs.gave_up, 1);
    ck_assert_uint_eq(cs.fails, 50);
    ck_assert_int_eq(e.ntrail, 0); /* the engine is as it was */
    ilpm_kern_free(&e);

    for (int h = 7; h <= 8; h++) {
        ilpm_model *q = h == 7 ? m : pigeons(8, h);
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = ILPM_BACKEND_CP;
        ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_AUTO;
        o.propagate = ILPM_PROP_NONE;
        ilpm_solver *s = ilpm_solver_new(q, &o, &err);
        ck_assert_msg(s != NULL, "%s", err.msg);
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err),
                         h == 7 ? ILPM_UNSAT : ILPM_SOLVED);
        ilpm_solver_free(s);
        if (q != m)
            ilpm_model_free(q);
    }
    ilpm_model_free(m);
}
END_TEST

/* What --learn auto logs: the turns it took, the failures of its
 * depth-first turns, and the failures and clauses learned of the search
 * that answered (its last line). */
typedef struct auto_log {
    long turns, dfs_fails, fails, learned, fresh;
} auto_log;

static void log_auto(void *ctx, const char *text)
{
    auto_log *a = ctx;
    const char *t = strstr(text, "--learn auto, ");
    const char *d = t ? strstr(t, " turns, ") : NULL;
    if (t)
        a->turns = strtol(t + 14, NULL, 10);
    if (d)
        a->dfs_fails = strtol(d + 8, NULL, 10);
    const char *p = t ? strstr(t, " deep), ") : NULL;
    if (p && strstr(p, " from false phases"))
        a->fresh = strtol(p + 8, NULL, 10);
    const char *n = strstr(text, " nodes, ");
    const char *f = strstr(text, " restarts, ");
    if (n && f) {
        a->fails = strtol(n + 8, NULL, 10);
        a->learned = strtol(f + 11, NULL, 10);
    }
}

/* Solves m on cp under --learn auto, logging into a. */
static ilpm_status solve_auto(ilpm_model *m, auto_log *a)
{
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = ILPM_BACKEND_CP;
    o.verbose = 1;
    o.log = log_auto;
    o.log_ctx = a;
    ilpm_cp_opts_in(&o)->learn = ILPM_LEARN_AUTO;
    memset(a, 0, sizeof *a);
    a->fresh = -1; /* no try logged */
    ilpm_err err;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
    if (st == ILPM_SOLVED)
        ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
    ilpm_solver_free(s);
    return st;
}

/* --learn auto, one solution: L(2,124), which the depth-first search
 * solves just after its restart at 2000 failures in a tenth of a second
 * and learning after 687 conflicts in a second (about 70 in the time of
 * its first turn), is answered by the depth-first search in its second
 * turn (budgets 1000, 2500); a depth-first search of 1000 failures and
 * then learning for good answers by learning. */
START_TEST(test_auto_takes_turns)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "n", "124");
    ilpm_params_set(p, "k", "2");
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_langford.from_params(p, &inst, &err), 1);
    ilpm_model *m = ilpm_model_new();
    ck_assert_msg(ilpm_puzzle_langford.build(inst, p, m, &err) == 0, "%s",
                  err.msg);
    auto_log a;
    ck_assert_int_eq(solve_auto(m, &a), ILPM_SOLVED);
    ck_assert_int_eq(a.learned, 0);
    ck_assert_int_gt(a.fails, 1000);
    ck_assert_int_le(a.fails, 2500);
    ck_assert_int_eq(a.turns, 2);
    ilpm_model_free(m);
    ilpm_puzzle_langford.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* A deep search that fails little: d pairs "exactly one of a_i, b_i",
 * which first-fail decides first (a_i, the first of equals), d deep,
 * then 3 pigeons in 2 holes, each pigeon's clause also met by b_(d-k):
 * refuted below every choice of the last k pairs, in a dozen failures
 * each (the pairs above hold no choice the pigeons care about), before
 * the search flips b_(d-k) true. */
static ilpm_model *deep_pigeons(int d, int k)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {1, 1}, hi[2] = {d, 2}, phi[2] = {3, 2};
    int P = ilpm_model_family(m, "p", 2, lo, hi, 0, &err);
    int X = ilpm_model_family(m, "x", 2, lo, phi, 0, &err);
    ck_assert_int_ge(P, 0);
    ck_assert_int_ge(X, 0);
    int l[3];
    for (int i = 1; i <= d; i++) {
        l[0] = ilpm_model_var(m, P, i, 1, 0, 0);
        l[1] = ilpm_model_var(m, P, i, 2, 0, 0);
        ck_assert_int_eq(ilpm_add_exo(m, l, 2, &err), 0);
    }
    for (int i = 1; i <= 3; i++) {
        l[0] = ilpm_model_var(m, X, i, 1, 0, 0);
        l[1] = ilpm_model_var(m, X, i, 2, 0, 0);
        l[2] = ilpm_model_var(m, P, d - k, 2, 0, 0);
        ck_assert_int_eq(ilpm_add_clause(m, l, 3, &err), 0);
    }
    for (int j = 1; j <= 2; j++) {
        for (int i = 1; i <= 3; i++)
            l[i - 1] = ilpm_model_var(m, X, i, j, 0, 0);
        ck_assert_int_eq(ilpm_add_amo(m, l, 3, &err), 0);
    }
    return m;
}

/* --learn auto keeps the depth-first search while it fails less often
 * than it went deep (n-Queens 5000: 2000 failures 5000 decisions deep,
 * then its restart found it): deep_pigeons(1500, 9) is answered in its
 * first turn, nothing learned (a turn of 1000 failures then learning did
 * before).  The search 1500 decisions deep goes back 100 decisions after
 * 20 failures (CP_LOCAL_FAILS), past b_(d-9), and finds it within 100
 * failures, where exhausting the last 9 pairs took 1024. */
START_TEST(test_auto_keeps_a_deep_search)
{
    ilpm_model *m = deep_pigeons(1500, 9);
    auto_log a;
    ck_assert_int_eq(solve_auto(m, &a), ILPM_SOLVED);
    ck_assert_int_eq(a.turns, 1);
    ck_assert_int_eq(a.learned, 0);
    ck_assert_int_gt(a.dfs_fails, 20);
    ck_assert_int_lt(a.dfs_fails, 100);
    /* without going back part of the way, the turn is kept past its
     * 1000 failures (budget_by_depth) while it fails less often than it
     * went deep, and exhausts the last 9 pairs (1024 failures) */
    ilpm_cp_local_depth = INT_MAX;
    ck_assert_int_eq(solve_auto(m, &a), ILPM_SOLVED);
    ilpm_cp_local_depth = CP_LOCAL_DEPTH;
    ck_assert_int_eq(a.turns, 1);
    ck_assert_int_eq(a.learned, 0);
    ck_assert_int_gt(a.dfs_fails, 1000);
    ck_assert_int_lt(a.dfs_fails, 1500);
    ilpm_model_free(m);
}
END_TEST

/* --learn auto tries learning from false phases for 100 failures after
 * its first depth-first turn (cp_driver.c, AUTO_TRY): deep_pigeons(20,
 * 12), whose pigeons first-fail refutes under each of the 4096 choices
 * of the last 12 pairs (a_i first), is answered by that try without a
 * failure (a_i false, b_i true); from the depth-first turn's phases
 * (a_i true) the learning search failed twice. */
START_TEST(test_auto_tries_false_phases)
{
    ilpm_model *m = deep_pigeons(20, 12);
    auto_log a;
    ck_assert_int_eq(solve_auto(m, &a), ILPM_SOLVED);
    ck_assert_int_eq(a.turns, 1);
    ck_assert_int_ge(a.dfs_fails, 1000);
    /* the try answered, without a failure */
    ck_assert_int_eq(a.fresh, 0);
    ck_assert_int_eq(a.fails, 0);
    ilpm_model_free(m);
}
END_TEST

/* The depth-first search keeps no reasons (12 bytes a variable: 1.2 GB
 * on n-Queens 10,000): the kernel cp builds has none, a depth-first
 * search leaves it so, and the learning search makes them when it
 * starts, the trail it starts from counted as the model's (level 0,
 * a decision, its place). */
START_TEST(test_reasons_made_by_learning)
{
    ilpm_model *m = pigeons(4, 4);
    ilpm_err err;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_cp_kern_init(&e, m, &w, &err), 0);
    ck_assert_ptr_null(e.reason);
    ck_assert_ptr_nonnull(e.phase);
    uint8_t aux[32] = {0}, vals[32];
    cp_search cs;
    test_cp_search(&cs, &e, aux, ILPM_SEARCH_FIRST_FAIL, CP_SOLVE);
    ck_assert_int_eq(ilpm_cp_dfs_run(&cs, vals, &err), ILPM_SOLVED);
    ck_assert(ilpm_model_check(m, vals, NULL));
    ck_assert_ptr_null(e.reason);
    /* pigeon 1 in hole 2 and pigeon 2 in hole 3, assumed */
    ck_assert_int_eq(ilpm_kern_assign(&e, 2), 0);
    ck_assert_int_eq(ilpm_kern_assign(&e, 7), 0);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    int base = e.ntrail;
    ck_assert_int_gt(base, 2);
    test_cp_search(&cs, &e, aux, ILPM_SEARCH_ACTIVITY, CP_SOLVE);
    cs.learn = 1;
    ck_assert_int_eq(ilpm_cp_cdcl_run(&cs, vals, &err), ILPM_SOLVED);
    ck_assert(ilpm_model_check(m, vals, NULL));
    ck_assert(vals[2] && vals[7]);
    ck_assert_ptr_nonnull(e.reason);
    ck_assert_int_eq(e.ntrail, base);
    for (int t = 0; t < base; t++) {
        int v = abs(e.trail[t]);
        ck_assert_int_eq(e.reason[v], ILPM_K_DECIDED);
        ck_assert_int_eq(e.level[v], 0);
        ck_assert_int_eq(e.tpos[v], t);
    }
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* n-Queens 1..10 counted on cp, learning auto, off and on: the counts
 * of OEIS A000170, and one solution (auto's turns, which keep a deep
 * search) verified, whatever the size. */
START_TEST(test_queens_counts_on_cp)
{
    static const uint64_t want[11] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
    ilpm_err err;
    for (int n = 1; n <= 10; n++) {
        ilpm_params *p = ilpm_params_new();
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        ilpm_params_set(p, "n", v);
        void *inst = NULL;
        ck_assert_int_eq(ilpm_puzzle_queens.from_params(p, &inst, &err), 1);
        ilpm_model *m = ilpm_model_new();
        ck_assert_int_eq(ilpm_puzzle_queens.build(inst, p, m, &err), 0);
        for (int learn = 0; learn < 3; learn++) {
            ilpm_options o;
            ilpm_options_init(&o);
            o.backend = ILPM_BACKEND_CP;
            ilpm_cp_opts_in(&o)->learn = learn == 0   ? ILPM_LEARN_AUTO
                                         : learn == 1 ? ILPM_LEARN_OFF
                                                      : ILPM_LEARN_ON;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            uint64_t got = 0;
            ck_assert_int_eq(ilpm_solver_count(s, 0, &got, NULL, NULL, &err),
                             ILPM_SOLVED);
            ck_assert_msg(got == want[n], "queens %d, learn %d: %llu", n, learn,
                          (unsigned long long)got);
            ilpm_solver_free(s);
            s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
            ck_assert_int_eq(st, want[n] ? ILPM_SOLVED : ILPM_UNSAT);
            if (st == ILPM_SOLVED)
                ck_assert(ilpm_model_check(m, ilpm_solver_values(s), NULL));
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
        ilpm_puzzle_queens.free_instance(inst);
        ilpm_params_free(p);
    }
}
END_TEST

/* The learning search cut short by the time limit leaves its trail (up
 * to 25 million literals on n-Queens 5000: seconds past the limit), as
 * the depth-first search does; taken back, every constraint's weights
 * are 0 again. */
START_TEST(test_learning_cut_short_leaves_the_trail)
{
    ilpm_model *m = pigeons(11, 10);
    ilpm_err err;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_cp_kern_init(&e, m, &w, &err), 0);
    uint8_t aux[128] = {0}, vals[128];
    cp_search cs;
    memset(&cs, 0, sizeof cs);
    cs.e = &e;
    cs.aux = aux;
    cs.strategy = ILPM_SEARCH_ACTIVITY;
    cs.obj = -1;
    cs.mode = CP_SOLVE;
    cs.learn = 1;
    ilpm_watch_until(&cs.w, ilpm_now() + 0.3, NULL);
    ck_assert_int_eq(ilpm_cp_cdcl_run(&cs, vals, &err), ILPM_TIMEOUT);
    ck_assert_int_gt(e.ntrail, 0);
    ck_assert_ptr_null(e.db);
    ilpm_kern_undo(&e, 0);
    for (int c = 0; c < e.ncons; c++) {
        ck_assert_int_eq(e.cons[c].st, 0);
        ck_assert_int_eq(e.cons[c].sf, 0);
    }
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* The turns stay complete: 9 pigeons in 8 holes, which neither search
 * refutes in its first turn, are proved to have no place under --learn
 * auto; the learning search run alone in slices of 20 conflicts, kept in
 * between (the engine at its root each time, its clauses kept), proves
 * 7 pigeons in 6 holes the same. */
START_TEST(test_auto_turns_stay_complete)
{
    ilpm_model *m = pigeons(9, 8);
    auto_log a;
    ck_assert_int_eq(solve_auto(m, &a), ILPM_UNSAT);
    ck_assert_int_ge(a.turns, 2);
    ilpm_model_free(m);

    m = pigeons(7, 6);
    ilpm_err err;
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
    uint8_t aux[64] = {0}, vals[64];
    struct cdcl *kept = NULL;
    cp_search cs;
    test_cp_search(&cs, &e, aux, ILPM_SEARCH_ACTIVITY, CP_SOLVE);
    cs.learn = 1;
    cs.keep = &kept;
    ilpm_status st;
    int turns = 0;
    do {
        cs.fail_budget = cs.fails + 20;
        cs.gave_up = 0;
        st = ilpm_cp_search_run(&cs, vals, &err);
        for (int i = 0; i < e.ntrail; i++) /* what it fixed for good */
            ck_assert_int_eq(e.level[abs(e.trail[i])], 0);
        ck_assert_int_eq(e.lvl, 0);
        ck_assert_int_eq(kept != NULL, cs.gave_up);
        turns++;
    } while (cs.gave_up && turns < 100000);
    ck_assert_int_eq(st, ILPM_UNSAT);
    ck_assert_int_eq(e.ntrail, 0);
    ck_assert_int_gt(turns, 2);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* The literals ilpm_model_lowered's settled copy of m fixes (its group
 * "fixed"), as values in val[1..nv] (ILPM_K_*); 1 when that copy is the
 * refutation (x1 and -x1), else 0. */
static int copy_fixed(const ilpm_model *m, int level, uint8_t *val)
{
    ilpm_options o;
    ilpm_options_init(&o);
    o.propagate = level == 1 ? ILPM_PROP_UNITS : ILPM_PROP_AUTO;
    ilpm_err err;
    ilpm_model *own = NULL;
    const ilpm_model *low = ilpm_model_lowered(m, &o, &own, &err);
    ck_assert_msg(low != NULL, "%s", err.msg);
    memset(val, ILPM_K_OPEN, (size_t)ilpm_model_nvars(m) + 1);
    int refuted = 0;
    for (size_t i = 0; own && i < ilpm_model_ncons(own); i++) {
        ilpm_con c;
        ilpm_model_con(own, i, &c);
        if (c.n != 1 ||
            strcmp(ilpm_model_group_name(own, c.group), "fixed") != 0)
            continue;
        int v = abs(c.lits[0]), x = c.lits[0] > 0 ? ILPM_K_TRUE : ILPM_K_FALSE;
        refuted |= val[v] != ILPM_K_OPEN && val[v] != x;
        val[v] = (uint8_t)x;
    }
    ilpm_model_free(own);
    return refuted;
}

/* Compacts e (settled) and checks what it holds: open literals only, no
 * constraint that holds for good, the constraints kept renumbered in
 * order and the values unchanged. */
static void compacted(ilpm_kern *e)
{
    int ncons = e->ncons, ntrail = e->ntrail;
    int renum[64];
    ck_assert_int_le(ncons, 64);
    ilpm_kern_compact(e, renum);
    ck_assert_int_eq(e->ntrail, ntrail);
    int next = 0;
    for (int c = 0; c < ncons; c++)
        if (renum[c] >= 0)
            ck_assert_int_eq(renum[c], next++);
    ck_assert_int_eq(next, e->ncons);
    size_t terms = 0;
    for (int c = 0; c < e->ncons; c++) {
        const ilpm_kcon *x = &e->cons[c];
        ck_assert_int_gt(x->n, 0);
        ck_assert(x->st == 0 && x->sf == 0);
        ck_assert_msg(!((!x->ge || x->k <= 0) && (!x->le || x->total <= x->k)),
                      "constraint %d holds for good", c);
        for (int i = 0; i < x->n; i++)
            ck_assert_int_eq(ilpm_klval(e->val, e->lits[x->start + (size_t)i]),
                             ILPM_K_OPEN);
        ck_assert_uint_eq(x->start, terms);
        terms += (size_t)x->n;
    }
    ck_assert_uint_eq(e->nlits, terms);
    for (int v = 1; v <= e->nv; v++)
        for (int s = 0; s < 2; s++) {
            const ilpm_klist *p = &e->occ[ilpm_kidx(e, s ? -v : v)];
            ck_assert(e->val[v] == ILPM_K_OPEN || p->n == 0);
            for (int i = 0; i < p->n; i++)
                ck_assert_int_lt(ilpm_klist_v(e, *p)[i].c, e->ncons);
        }
}

/* cp settles a model's givens on the kernel it searches on: one kernel
 * per solver (the settled copy and a second kernel over it before),
 * fixing what the settled copy fixes, with the counts of brute force,
 * on random models of every kind with givens. */
/* A reduction of the clause store keeps the watch lists' room: the
 * clauses it keeps are watched again in the same lists, which neither
 * shrink nor move (it freed and grew every list again: a tenth of the
 * search's time on a model of 150,000 literals, docs/fzn.md). */
START_TEST(test_reduce_keeps_watch_room)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {20};
    ck_assert_int_eq(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    ilpm_watch w;
    ilpm_kern e;
    cp_db db;
    open_engine(m, &w, &e, &db);
    for (int k = 2; k <= 17; k++) { /* x1 or xk, deletable (LBD 5) */
        db.out.n = 0;
        ck_assert_int_eq(ilpm_cp_ivec_push(&db.out, 1), 0);
        ck_assert_int_eq(ilpm_cp_ivec_push(&db.out, k), 0);
        ck_assert_int_ge(ilpm_cp_db_add(&e, 5), 0);
    }
    const cp_ivec *x1 = &db.watch[ilpm_klix(1)];
    ck_assert_int_eq(x1->n, 32);
    const int *room = x1->v;
    int cap = x1->cap;
    ck_assert_int_eq(ilpm_cp_db_reduce(&e), 0);
    ck_assert_int_eq(db.ncl, 8);
    ck_assert_int_eq(x1->n, 16);
    ck_assert_int_eq(x1->cap, cap);
    ck_assert_ptr_eq(x1->v, room);
    done(m, &e, &db);
}
END_TEST

START_TEST(test_one_kernel_settles_and_searches)
{
    rng_state = 33;
    int compared = 0, fixed = 0;
    for (int iter = 0; iter < 300; iter++) {
        int nx = 2 + (int)rnd(9), na = (int)rnd(3);
        ilpm_model *m = random_model(nx, na, 0);
        ilpm_err err;
        ck_assert_int_eq(ilpm_model_group(m, "given", &err) >= 0, 1);
        for (int g = 0; g < 1 + (int)rnd(2); g++) {
            int l = rnd_lit(nx + na);
            ck_assert_int_eq(ilpm_add_clause(m, &l, 1, &err), 0);
        }
        uint64_t want;
        int feasible;
        int64_t best = 0;
        brute(m, nx, &want, &feasible, &best);
        for (int level = 1; level <= 2; level++) {
            /* What the kernel fixes is what the settled copy fixes. */
            uint8_t cval[32];
            int crefuted = copy_fixed(m, level, cval);
            ilpm_watch w;
            ilpm_watch_until(&w, 0, NULL);
            ilpm_kern e;
            ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
            int rc = ilpm_kern_settle_givens(&e, m, level, &w, &err);
            ck_assert_int_ge(rc, 0);
            if (rc == 0 && !crefuted) {
                for (int v = 1; v <= e.nv; v++)
                    ck_assert_msg(e.val[v] == cval[v],
                                  "iter %d level %d: x%d is %d, the copy's %d",
                                  iter, level, v, e.val[v], cval[v]);
                compared++;
                fixed += e.ntrail;
            }
            ck_assert(!(rc && want));
            if (rc == 0 && ilpm_kern_settle(&e, 0) == 0)
                compacted(&e);
            ilpm_kern_free(&e);

            ilpm_options o;
            ilpm_options_init(&o);
            o.backend = ILPM_BACKEND_CP;
            o.propagate = level == 1 ? ILPM_PROP_UNITS : ILPM_PROP_AUTO;
            uint64_t built = ilpm_kern_built;
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            uint64_t got;
            ck_assert_int_eq(ilpm_solver_count(s, 0, &got, NULL, NULL, &err),
                             ILPM_SOLVED);
            ck_assert_msg(got == want, "iter %d: count %llu, want %llu", iter,
                          (unsigned long long)got, (unsigned long long)want);
            ck_assert_uint_eq(ilpm_kern_built - built, 1);
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
    }
    ck_assert_int_gt(compared, 100);
    ck_assert_int_gt(fixed, 100);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cp");
    TCase *t = tcase_create("analysis");
    tcase_add_test(t, test_analysis_takes_the_fewest_terms);
    tcase_add_test(t, test_analysis_keeps_what_the_sum_needs);
    tcase_add_test(t, test_reason_takes_the_earliest_literals);
    tcase_add_test(t, test_learned_clauses_are_implied);
    tcase_add_test(t, test_counts_and_optima_learn_on_and_off);
    tcase_add_test(t, test_auto_turns_to_learning);
    tcase_add_test(t, test_auto_takes_turns);
    tcase_add_test(t, test_auto_turns_stay_complete);
    tcase_add_test(t, test_auto_keeps_a_deep_search);
    tcase_add_test(t, test_auto_tries_false_phases);
    tcase_add_test(t, test_reasons_made_by_learning);
    tcase_add_test(t, test_queens_counts_on_cp);
    tcase_add_test(t, test_learning_cut_short_leaves_the_trail);
    tcase_add_test(t, test_solution_leaves_the_trail);
    tcase_add_test(t, test_optimum_learned_clauses_are_implied);
    tcase_add_test(t, test_lp_bound_ends_the_search);
    tcase_add_test(t, test_lp_bound_saturates_rows);
    tcase_add_test(t, test_lp_bound_asked_late);
    tcase_add_test(t, test_auto_optimum_learns_with_weights);
    tcase_add_test(t, test_one_kernel_settles_and_searches);
    tcase_add_test(t, test_reduce_keeps_watch_room);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
