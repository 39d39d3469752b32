/* Tests of cp's Hall sets on matching groups (cp_hall.c, --cp-alldiff):
 * every explanation clause implied by the model and every value left
 * supported (brute force over small matrices under random partial
 * assignments), a hidden pair of a 4x4 Sudoku that unit propagation
 * leaves and the Hall rule removes, and cp's answers and counts on
 * Sudoku with the rule on, learning on and off. */
#include "cp.h"
#include "ilpm_int.h"
#include "puzzle.h"
#include "puzzles.h"

#define ILPM_TESTUTIL_RANDOM
#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include <check.h>
#include <string.h>

/* Every solution of a model (at most 20 variables), one row of nv + 1
 * values each. */
struct sols {
    uint8_t *v;
    int n, nv;
    int checked; /* clauses checked */
};

/* The injections of nc cells into nvals values, as rows of x (row-major,
 * variables 1..nc * nvals), each checked against the model. */
static void injections(const ilpm_model *m, int nc, int nvals, int i,
                       uint8_t *row, struct sols *s)
{
    if (i == nc) {
        ck_assert(ilpm_model_check(m, row, NULL));
        memcpy(s->v + (size_t)s->n++ * (size_t)(s->nv + 1), row,
               (size_t)s->nv + 1);
        return;
    }
    for (int j = 0; j < nvals; j++) {
        int taken = 0;
        for (int k = 0; k < i && !taken; k++)
            taken = row[1 + k * nvals + j];
        if (taken)
            continue;
        row[1 + i * nvals + j] = 1;
        injections(m, nc, nvals, i + 1, row, s);
        row[1 + i * nvals + j] = 0;
    }
}

static void all_solutions(const ilpm_model *m, int nc, int nvals,
                          struct sols *s)
{
    s->nv = ilpm_model_nvars(m);
    s->n = 0;
    s->checked = 0;
    s->v = malloc(200 * (size_t)(s->nv + 1));
    uint8_t row[32] = {0};
    ck_assert_ptr_nonnull(s->v);
    injections(m, nc, nvals, 0, row, s);
}

static int holds(const uint8_t *row, int l)
{
    return l > 0 ? row[l] : !row[-l];
}

/* on_learn: every solution satisfies the clause. */
static void check_implied(void *ctx, const int *lits, int n)
{
    struct sols *s = ctx;
    for (int i = 0; i < s->n; i++) {
        const uint8_t *row = s->v + (size_t)i * (size_t)(s->nv + 1);
        int sat = 0;
        for (int k = 0; k < n && !sat; k++)
            sat = holds(row, lits[k]);
        ck_assert_msg(sat, "a Hall clause of %d literals cuts solution %d", n,
                      i);
    }
    s->checked++;
}

/* A solution that agrees with the decisions dec[0..nd) and, if l is not
 * 0, with l. */
static int supported(const struct sols *s, const int *dec, int nd, int l)
{
    for (int i = 0; i < s->n; i++) {
        const uint8_t *row = s->v + (size_t)i * (size_t)(s->nv + 1);
        int ok = !l || holds(row, l);
        for (int k = 0; k < nd && ok; k++)
            ok = holds(row, dec[k]);
        if (ok)
            return 1;
    }
    return 0;
}

/* nc cells x nv values: each cell exactly one value, each value at most
 * one cell, declared a matching group. */
static ilpm_model *matrix_model(int nc, int nvals)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {1, 1}, hi[2] = {nc, nvals};
    int X = ilpm_model_family(m, "x", 2, lo, hi, 0, &err);
    ck_assert_int_ge(X, 0);
    int x[32], l[8];
    for (int i = 0; i < nc; i++)
        for (int j = 0; j < nvals; j++)
            x[i * nvals + j] = ilpm_model_var(m, X, i + 1, j + 1, 0, 0);
    for (int i = 0; i < nc; i++)
        ck_assert_int_eq(ilpm_add_exo(m, x + i * nvals, nvals, &err), 0);
    for (int j = 0; j < nvals; j++) {
        for (int i = 0; i < nc; i++)
            l[i] = x[i * nvals + j];
        ck_assert_int_eq(ilpm_add_amo(m, l, nc, &err), 0);
    }
    ck_assert_int_eq(ilpm_model_matching(m, x, nc, nvals, &err), 0);
    return m;
}

/* The rule and propagation to their fixpoint: 1 on a conflict. */
static int hall_fixpoint(cp_hall *h, cp_search *cs, int *conflicts)
{
    int r;
    while ((r = ilpm_cp_hall_run(h, cs)) != 0) {
        *conflicts += r < 0;
        if (r < 0 || ilpm_kern_propagate(cs->e) != 0)
            return 1;
    }
    return 0;
}

/* Random partial assignments on random matrices, learning (clauses) and
 * not: each clause implied; a conflict only where no solution agrees
 * with the decisions; at the fixpoint every open variable true in some
 * solution that agrees with them (alldifferent's domain consistency). */
/* m's matching groups over kernel e, and a search *cs on e alone. */
static cp_hall *hall_on(const ilpm_model *m, ilpm_kern *e, cp_search *cs)
{
    int nomem;
    cp_hall *h = ilpm_cp_hall_new(m, e->nv, &nomem);
    ck_assert_ptr_nonnull(h);
    memset(cs, 0, sizeof *cs);
    cs->e = e;
    return h;
}

START_TEST(test_hall_brute_force)
{
    rng_state = 7;
    int pruned = 0, conflicts = 0, clauses = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int nc = 2 + (int)rnd(3), nvals = nc + (int)rnd(2);
        ilpm_model *m = matrix_model(nc, nvals);
        struct sols s;
        all_solutions(m, nc, nvals, &s);
        int learn = iter % 2;
        ilpm_err err;
        ilpm_watch w;
        ilpm_watch_until(&w, 0, NULL);
        ilpm_kern e;
        cp_db db;
        ck_assert_int_eq(ilpm_cp_kern_init_reasons(&e, m, &w, &err), 0);
        ck_assert_int_eq(ilpm_cp_db_init(&db, e.nv), 0);
        e.db = learn ? &db : NULL;
        int fail = 0;
        for (int c = 0; c < e.ncons && !fail; c++)
            fail = ilpm_kern_check(&e, c) != 0 || ilpm_kern_propagate(&e) != 0;
        ck_assert_int_eq(fail, 0);
        cp_search cs;
        cp_hall *h = hall_on(m, &e, &cs);
        cs.learn = learn;
        cs.on_learn = check_implied;
        cs.learn_ctx = &s;
        /* decisions at levels 1, 2, ...: mostly values ruled out */
        int dec[32], nd = 0;
        ilpm_cp_hall_start(h, &e);
        for (int k = 0; k < 3 + (int)rnd(10) && !fail; k++) {
            int v = 1 + (int)rnd((unsigned)e.nv);
            if (e.val[v] != ILPM_K_OPEN)
                continue;
            int l = rnd(6) || iter % 3 == 0 ? -v : v;
            e.lvl++;
            dec[nd++] = l;
            ilpm_kern_assign(&e, l);
            fail = ilpm_kern_propagate(&e) != 0;
            if (iter % 3)
                fail = fail || hall_fixpoint(h, &cs, &conflicts);
        }
        /* every third: the rule after the decisions alone (a conflict
         * needs two steps without it: it keeps every value supported) */
        fail = fail || hall_fixpoint(h, &cs, &conflicts);
        if (fail) {
            ck_assert_int_eq(supported(&s, dec, nd, 0), 0);
        } else {
            ck_assert(supported(&s, dec, nd, 0));
            for (int v = 1; v <= e.nv; v++)
                if (e.val[v] == ILPM_K_OPEN)
                    ck_assert_msg(supported(&s, dec, nd, v),
                                  "x%d is left open with no support", v);
        }
        pruned += (int)h->pruned;
        clauses += s.checked;
        ilpm_cp_hall_free(h);
        e.db = NULL;
        ilpm_cp_db_free(&db);
        ilpm_kern_free(&e);
        free(s.v);
        ilpm_model_free(m);
    }
    /* the test saw the rule at work, and its clauses */
    ck_assert_int_gt(pruned, 300);
    ck_assert_int_gt(conflicts, 3); /* 6 (propagation finds most) */
    ck_assert_int_gt(clauses, 100);
}
END_TEST

/* Row 1 of an empty 4x4 grid with its cells 1 and 2 kept to {1, 2}: unit
 * propagation leaves 1 and 2 open in cells 3 and 4, which the hidden
 * pair rules out (and then 3 and 4 are left to them). */
START_TEST(test_hall_hidden_pair_4x4)
{
    ilpm_params *p = ilpm_params_new();
    void *inst = parse_text(&ilpm_puzzle_sudoku, p, "................");
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_sudoku.build(inst, p, m, &err), 0);
    ck_assert_int_eq(ilpm_model_nmatchings(m), 12);
    int P = ilpm_model_family_find(m, "P");
    ilpm_watch w;
    ilpm_watch_until(&w, 0, NULL);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_cp_kern_init(&e, m, &w, &err), 0);
    for (int c = 1; c <= 2; c++)
        for (int v = 3; v <= 4; v++)
            ilpm_kern_assign(&e, -ilpm_model_var(m, P, 1, c, v, 0));
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    for (int c = 3; c <= 4; c++)
        for (int v = 1; v <= 2; v++)
            ck_assert_int_eq(e.val[ilpm_model_var(m, P, 1, c, v, 0)],
                             ILPM_K_OPEN);
    cp_search cs;
    cp_hall *h = hall_on(m, &e, &cs);
    ilpm_cp_hall_start(h, &e);
    ck_assert_int_eq(ilpm_cp_hall_run(h, &cs), 1);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    for (int c = 3; c <= 4; c++)
        for (int v = 1; v <= 4; v++)
            ck_assert_int_eq(
                ilpm_klval(e.val, ilpm_model_var(m, P, 1, c, v, 0)),
                v <= 2 ? ILPM_K_FALSE : ILPM_K_OPEN);
    /* and the pairs of box 1 and then box 2 likewise, in rows 2 */
    ck_assert_int_eq(h->pruned, 12);
    ilpm_cp_hall_free(h);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
    ilpm_puzzle_sudoku.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

struct verify_ctx {
    void *inst;
    const ilpm_params *p;
    const ilpm_model *m;
    int bad;
};

static int verify(void *vctx, const uint8_t *vals)
{
    struct verify_ctx *c = vctx;
    ilpm_err err;
    void *sol = ilpm_puzzle_sudoku.decode(c->inst, c->p, c->m, vals, &err);
    if (!sol || ilpm_puzzle_sudoku.verify(c->inst, c->p, sol, &err) != 0)
        c->bad++;
    if (sol)
        ilpm_puzzle_sudoku.free_solution(sol);
    return 0;
}

/* Solves (limit 0: one solution, verified) or counts grid inst on cp
 * with --cp-alldiff on and --learn learn. */
static uint64_t cp_run(void *inst, const ilpm_params *p, const char *learn,
                       uint64_t limit)
{
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_sudoku.build(inst, p, m, &err), 0);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = ILPM_BACKEND_CP;
    o.time_limit = 60;
    ck_assert_int_eq(ilpm_options_set(&o, "cp-alldiff", "on", &err), 0);
    ck_assert_int_eq(ilpm_options_set(&o, "learn", learn, &err), 0);
    ilpm_cp_opts_in(&o)->no_cover = 1; /* the search counts */
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    struct verify_ctx c = {inst, p, m, 0};
    uint64_t n = 1;
    if (limit == 0) {
        ck_assert_int_eq(ilpm_solver_solve(s, NULL, 0, &err), ILPM_SOLVED);
        verify(&c, ilpm_solver_values(s));
    } else
        ck_assert_int_eq(ilpm_solver_count(s, limit, &n, verify, &c, &err),
                         ILPM_SOLVED);
    ck_assert_int_eq(c.bad, 0);
    ilpm_solver_free(s);
    ilpm_model_free(m);
    return n;
}

/* Grids of the 9x9, 16x16 and 25x25 sets (25x25: the last two, which
 * take cp 0.1 s) solved and verified, learning on and off. */
START_TEST(test_hall_solves_sudoku)
{
    static const struct {
        const char *path;
        int skip, n;
    } sets[] = {{"data/sudoku/norvig_top95.txt", 0, 5},
                {"data/sudoku/norvig_hardest.txt", 0, 3},
                {"data/sudoku/gecode_16x16.txt", 0, 3},
                {"data/sudoku/gecode_25x25.txt", 16, 2}};
    ilpm_params *p = ilpm_params_new();
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        ilpm_err err;
        ilpm_reader *rd = ilpm_reader_open(sets[k].path, &err);
        ck_assert_ptr_nonnull(rd);
        for (int i = 0; i < sets[k].skip + sets[k].n; i++) {
            void *inst = NULL;
            ck_assert_int_eq(ilpm_puzzle_sudoku.parse(rd, p, &inst, &err), 1);
            if (i >= sets[k].skip) {
                cp_run(inst, p, "on", 0);
                cp_run(inst, p, "off", 0);
            }
            ilpm_puzzle_sudoku.free_instance(inst);
        }
        ilpm_reader_free(rd);
    }
    ilpm_params_free(p);
}
END_TEST

/* Counts unchanged: the 288 grids of 4x4. */
START_TEST(test_hall_counts)
{
    ilpm_params *p = ilpm_params_new();
    void *inst = parse_text(&ilpm_puzzle_sudoku, p, "................");
    ck_assert_uint_eq(cp_run(inst, p, "off", 1000), 288);
    ck_assert_uint_eq(cp_run(inst, p, "on", 1000), 288);
    ilpm_puzzle_sudoku.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hall");
    TCase *t = tcase_create("hall");
    tcase_add_test(t, test_hall_brute_force);
    tcase_add_test(t, test_hall_hidden_pair_4x4);
    tcase_add_test(t, test_hall_solves_sudoku);
    tcase_add_test(t, test_hall_counts);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
