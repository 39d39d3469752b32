/* Tests of the GLPK lowering and driver (src/backend/glpk.c), the OPB
 * writer (opb.c) and the statistics helpers (stats.c).  The lowering is
 * checked against ilpm_model_check on every assignment of small random
 * constraints, optimisation against brute force, and the exported files
 * against GLPK's own readers and, when installed, glpsol and cbc. */
#include "backend.h"
#include "glpk_int.h"
#include "ilpm_int.h"

#include "testutil.h"
#include <check.h>
#include <glpk.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

/* The library's defaults, on the ILP back end. */
static void test_options(ilpm_options *o)
{
    ilpm_options_init(o);
    o->backend = ILPM_BACKEND_ILP;
}

/* splitmix64: the same sequence everywhere. */
typedef struct {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int below(rng *r, int n)
{
    return (int)(rng_next(r) % (uint64_t)n);
}

/* ilpm_status_name belongs to the solver layer, not linked here. */
static const char *status_name(ilpm_status s)
{
    static const char *const names[] = {"solved", "optimal", "feasible",
                                        "unsat",  "timeout", "stopped",
                                        "error"};
    return (unsigned)s <= ILPM_ERROR ? names[s] : "unknown";
}

static int lit_true(const uint8_t *vals, int l)
{
    return l > 0 ? vals[l] != 0 : vals[-l] == 0;
}

static void set_mask(uint8_t *vals, int nv, unsigned mask)
{
    for (int v = 1; v <= nv; v++)
        vals[v] = (mask >> (v - 1)) & 1u;
}

/* A model with one family X[1..nv] and group "g". */
static ilpm_model *small_model(int nv)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    ck_assert_ptr_nonnull(m);
    int lo = 1, hi = nv;
    ck_assert_int_eq(ilpm_model_family(m, "X", 1, &lo, &hi, 0, &err), 0);
    ck_assert_int_ge(ilpm_model_group(m, "g", &err), 0);
    return m;
}

static int random_lit(rng *r, int nv)
{
    int v = 1 + below(r, nv);
    return below(r, 2) ? v : -v;
}

/* Adds one random constraint of the given kind over X[1..nv]: up to 7
 * literals, random signs, repeated (and complementary) literals on
 * purpose, bounds just outside the possible range included. */
static void add_random_con(ilpm_model *m, rng *r, ilpm_kind kind, int nv)
{
    ilpm_err err;
    int lits[8];
    int64_t coefs[8];
    int n = kind == ILPM_IMPL ? 2 : 1 + below(r, 7);
    int64_t abs_sum = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && below(r, 4) == 0) /* repeat an earlier variable */
            lits[i] = (below(r, 2) ? 1 : -1) * lits[below(r, i)];
        else
            lits[i] = random_lit(r, nv);
        coefs[i] = below(r, 15) - 7;
        abs_sum += coefs[i] < 0 ? -coefs[i] : coefs[i];
    }
    ilpm_cmp cmp = (ilpm_cmp)below(r, 3);
    int64_t k = below(r, n + 3) - 1; /* -1 .. n+1 */
    int rc = -1;
    switch (kind) {
    case ILPM_CLAUSE:
        rc = ilpm_add_clause(m, lits, n, &err);
        break;
    case ILPM_ALO:
        rc = ilpm_add_alo(m, lits, n, &err);
        break;
    case ILPM_AMO:
        rc = ilpm_add_amo(m, lits, n, &err);
        break;
    case ILPM_EXO:
        rc = ilpm_add_exo(m, lits, n, &err);
        break;
    case ILPM_IMPL:
        rc = ilpm_add_impl(m, lits[0], lits[1], &err);
        break;
    case ILPM_CARD:
        rc = ilpm_add_card(m, lits, n, cmp, k, &err);
        break;
    case ILPM_CCARD:
        rc = ilpm_add_ccard(m, random_lit(r, nv), lits, n, cmp, k, &err);
        break;
    case ILPM_LINEAR: {
        int64_t rhs = below(r, (int)(2 * abs_sum + 3)) - abs_sum - 1;
        rc = ilpm_add_linear(m, coefs, lits, n, cmp, rhs, &err);
        break;
    }
    default:
        break;
    }
    ck_assert_msg(rc == 0, "adding a %s: %s", ilpm_kind_name(kind), err.msg);
}

static void random_objective(ilpm_model *m, rng *r, int nv)
{
    ilpm_err err;
    int lits[12];
    int64_t coefs[12];
    int n = 1 + below(r, nv + 2);
    for (int i = 0; i < n; i++) {
        lits[i] = random_lit(r, nv);
        coefs[i] = below(r, 13) - 6;
    }
    ilpm_sense s = below(r, 2) ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
    ck_assert_int_eq(ilpm_model_objective(m, s, coefs, lits, n, &err), 0);
}

/* Brute force: 1 and the best objective for sense (or any value without
 * objective) if some assignment satisfies the model, else 0. */
static int brute_force_sense(const ilpm_model *m, ilpm_sense s, int64_t *best)
{
    int nv = ilpm_model_nvars(m);
    uint8_t vals[32];
    int found = 0;
    for (unsigned mask = 0; mask < (1u << nv); mask++) {
        set_mask(vals, nv, mask);
        if (!ilpm_model_check(m, vals, NULL))
            continue;
        int64_t z = ilpm_model_objective_value(m, vals);
        if (!found || (s == ILPM_MINIMIZE && z < *best) ||
            (s == ILPM_MAXIMIZE && z > *best))
            *best = z;
        found = 1;
    }
    return found;
}

static int brute_force(const ilpm_model *m, int64_t *best)
{
    return brute_force_sense(m, ilpm_model_objective_get(m, NULL, NULL, NULL),
                             best);
}

static ilpm_driver *create(const ilpm_model *m, const ilpm_options *o,
                           ilpm_stats *st)
{
    ilpm_err err = {0};
    ilpm_driver *d = ilpm_glpk_ops.create(m, o, st, &err);
    ck_assert_msg(d != NULL, "create: %s", err.msg);
    return d;
}

/* ------------------------------------------------------------------ */
/* Every kind, every assignment                                         */

/* For one random constraint at a time: solving with a full assignment
 * as assumptions is feasible exactly when the model says it holds. */
START_TEST(test_kind_exhaustive)
{
    ilpm_kind kind = (ilpm_kind)_i;
    rng r = {0x1234u + (uint64_t)kind};
    int models = 150, solves = 0;
    for (int t = 0; t < models; t++) {
        int nv = 1 + below(&r, 7);
        ilpm_model *m = small_model(nv);
        add_random_con(m, &r, kind, nv);
        ilpm_options o;
        test_options(&o);
        /* Every third model goes through the LP relaxation path. */
        if (t % 3 == 1) {
            ilpm_glpk_opts_in(&o)->presolve = 0;
            ilpm_glpk_opts_in(&o)->cuts =
                t % 2 ? ILPM_CUTS_ALL : ILPM_CUTS_NONE;
        }
        ilpm_stats st;
        memset(&st, 0, sizeof st);
        ilpm_driver *d = create(m, &o, &st);
        ck_assert_int_le(st.rows, kind == ILPM_CCARD ? 2 : 1);
        ck_assert_int_eq(st.groups[0].rows, st.rows);
        int assume[8];
        uint8_t want[8], got[8];
        for (unsigned mask = 0; mask < (1u << nv); mask++) {
            set_mask(want, nv, mask);
            for (int v = 1; v <= nv; v++)
                assume[v - 1] = want[v] ? v : -v;
            memset(got, 0xff, sizeof got);
            ilpm_err err = {0};
            ilpm_status s =
                ilpm_glpk_ops.solve(d, assume, nv, 0, got, NULL, &err);
            int holds = ilpm_model_check(m, want, NULL);
            ilpm_con c;
            ilpm_model_con(m, 0, &c);
            ck_assert_msg(s == (holds ? ILPM_SOLVED : ILPM_UNSAT),
                          "%s #%d (n=%d, rhs=%" PRId64 ", cmp=%d), "
                          "assignment %#x: status %s, model says %d; %s",
                          ilpm_kind_name(kind), t, c.n, c.rhs, (int)c.cmp, mask,
                          status_name(s), holds, err.msg);
            if (holds)
                ck_assert_int_eq(memcmp(got + 1, want + 1, (size_t)nv), 0);
            solves++;
        }
        ilpm_glpk_ops.destroy(d);
        ilpm_stats_free(&st);
        ilpm_model_free(m);
    }
    ck_assert_int_gt(solves, models);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Optimisation against brute force                                     */

START_TEST(test_optimum_brute_force)
{
    rng r = {42};
    for (int t = 0; t < 150; t++) {
        int nv = 2 + below(&r, 9);
        ilpm_model *m = small_model(nv);
        int ncons = 1 + below(&r, 5);
        for (int i = 0; i < ncons; i++)
            add_random_con(m, &r, (ilpm_kind)below(&r, ILPM_KIND_COUNT), nv);
        random_objective(m, &r, nv);
        ilpm_options o;
        test_options(&o);
        if (t % 4 == 3)
            ilpm_glpk_opts_in(&o)->presolve = 0;
        /* Every branching and backtracking rule, auto included. */
        ilpm_glpk_opts_in(&o)->branch = (ilpm_branch)(t % 6);
        ilpm_glpk_opts_in(&o)->backtrack = (ilpm_backtrack)(t / 6 % 5);
        ilpm_driver *d = create(m, &o, NULL);
        int64_t best = 0, z = -999;
        int feasible = brute_force(m, &best);
        uint8_t vals[16];
        ilpm_err err = {0};
        ilpm_status s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
        if (!feasible) {
            ck_assert_msg(s == ILPM_UNSAT, "model %d: %s, expected unsat; %s",
                          t, status_name(s), err.msg);
        } else {
            ck_assert_msg(s == ILPM_OPTIMAL, "model %d: %s; %s", t,
                          status_name(s), err.msg);
            ck_assert_msg(z == best,
                          "model %d: optimum %" PRId64 ", brute force %" PRId64,
                          t, z, best);
            ck_assert(ilpm_model_check(m, vals, NULL));
            ck_assert_int_eq(ilpm_model_objective_value(m, vals), z);
        }
        /* Satisfaction ignores the objective and still finds a model. */
        s = ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err);
        ck_assert_int_eq(s, feasible ? ILPM_SOLVED : ILPM_UNSAT);
        if (feasible)
            ck_assert(ilpm_model_check(m, vals, NULL));
        /* The objective is restored: optimising again agrees. */
        if (feasible) {
            s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
            ck_assert_int_eq(s, ILPM_OPTIMAL);
            ck_assert_int_eq(z, best);
        }
        /* Assumptions hold for one call only: fix X[1] both ways. */
        for (int sign = -1; feasible && sign <= 1; sign += 2) {
            int a = sign;
            s = ilpm_glpk_ops.solve(d, &a, 1, 1, vals, &z, &err);
            ck_assert(s == ILPM_OPTIMAL || s == ILPM_UNSAT);
            if (s == ILPM_OPTIMAL)
                ck_assert(lit_true(vals, a));
        }
        if (feasible) {
            s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
            ck_assert_int_eq(z, best);
        }
        ilpm_glpk_ops.destroy(d);
        ilpm_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Driver behaviour                                                     */

/* Counting by no-good cuts, the way the solver enumerates. */
START_TEST(test_add_nogoods)
{
    ilpm_model *m = small_model(4);
    ilpm_err err = {0};
    int lits[4] = {1, 2, 3, 4};
    ck_assert_int_eq(ilpm_add_exo(m, lits, 4, &err), 0);
    ilpm_options o;
    test_options(&o);
    ilpm_stats st;
    memset(&st, 0, sizeof st);
    ilpm_driver *d = create(m, &o, &st);
    ck_assert_int_eq(st.rows, 1);
    uint8_t vals[5];
    int count = 0;
    for (;;) {
        ilpm_status s = ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err);
        if (s == ILPM_UNSAT)
            break;
        ck_assert_int_eq(s, ILPM_SOLVED);
        ck_assert(ilpm_model_check(m, vals, NULL));
        ck_assert_int_lt(++count, 5);
        int cut[4];
        for (int v = 1; v <= 4; v++)
            cut[v - 1] = vals[v] ? -v : v;
        /* Alternate between a grouped and an ungrouped cut. */
        ilpm_con c = {ILPM_CLAUSE, ILPM_GE, count % 2 ? 0 : -1, 0, 4, cut, NULL,
                      1,           NULL};
        ck_assert_int_eq(ilpm_glpk_ops.add(d, &c, &err), 0);
    }
    ck_assert_int_eq(count, 4);
    ck_assert_int_eq(st.rows, 5);
    ck_assert_int_eq(st.nonzeros, 4 + 4 * 4);
    ck_assert_int_eq(st.groups[0].rows, 3); /* the EXO and two cuts */
    /* A bad literal is refused without touching the problem. */
    int bad[1] = {5};
    ilpm_con c = {ILPM_CLAUSE, ILPM_GE, 0, 0, 1, bad, NULL, 1, NULL};
    ck_assert_int_eq(ilpm_glpk_ops.add(d, &c, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "literal 5"));
    ck_assert_int_eq(st.rows, 5);
    ilpm_glpk_ops.destroy(d);
    ilpm_stats_free(&st);
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_assumption_edges)
{
    ilpm_model *m = small_model(3);
    ilpm_err err = {0};
    int lits[2] = {1, -2};
    ck_assert_int_eq(ilpm_add_clause(m, lits, 2, &err), 0);
    /* The options are copied: freeing them right away must be safe. */
    ilpm_options *o = malloc(sizeof *o);
    test_options(o);
    ilpm_driver *d = create(m, o, NULL);
    free(o);
    uint8_t vals[4];
    int conflict[3] = {3, 1, -3};
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, conflict, 3, 0, vals, NULL, &err),
                     ILPM_UNSAT);
    int out_of_range[1] = {4};
    ck_assert_int_eq(
        ilpm_glpk_ops.solve(d, out_of_range, 1, 0, vals, NULL, &err),
        ILPM_ERROR);
    ck_assert_ptr_nonnull(strstr(err.msg, "assumption 4"));
    int unsat[2] = {-1, 2};
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, unsat, 2, 0, vals, NULL, &err),
                     ILPM_UNSAT);
    int dup[3] = {-1, -1, -2};
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, dup, 3, 0, vals, NULL, &err),
                     ILPM_SOLVED);
    ck_assert(vals[1] == 0 && vals[2] == 0);
    /* No objective: optimising is satisfaction with a proof for free. */
    int64_t z = -1;
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err),
                     ILPM_OPTIMAL);
    ck_assert_int_eq(z, 0);
    ilpm_glpk_ops.destroy(d);
    ilpm_model_free(m);
}
END_TEST

/* A row that folds to a false constant makes the model infeasible; one
 * that folds to a true constant disappears. */
START_TEST(test_constant_rows)
{
    ilpm_model *m = small_model(2);
    ilpm_err err = {0};
    int lits[2] = {1, -1};
    int64_t coefs[2] = {3, 3};
    /* 3x + 3(1-x) = 3 >= 3 holds */
    ck_assert_int_eq(ilpm_add_linear(m, coefs, lits, 2, ILPM_GE, 3, &err), 0);
    ilpm_options o;
    test_options(&o);
    ilpm_stats st;
    memset(&st, 0, sizeof st);
    ilpm_driver *d = create(m, &o, &st);
    ck_assert_int_eq(st.rows, 0);
    ck_assert_int_eq(st.groups[0].cons, 1);
    uint8_t vals[3];
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err),
                     ILPM_SOLVED);
    ilpm_glpk_ops.destroy(d);
    ilpm_stats_free(&st);
    /* 3x + 3(1-x) = 3 <= 2 cannot hold */
    ck_assert_int_eq(ilpm_add_linear(m, coefs, lits, 2, ILPM_LE, 2, &err), 0);
    memset(&st, 0, sizeof st);
    d = create(m, &o, &st);
    ck_assert_int_eq(st.rows, 1);
    ck_assert_int_eq(st.nonzeros, 0);
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err),
                     ILPM_UNSAT);
    ilpm_glpk_ops.destroy(d);
    ilpm_stats_free(&st);
    ilpm_model_free(m);

    /* A model without variables. */
    m = ilpm_model_new();
    d = create(m, &o, NULL);
    int64_t z = -1;
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err),
                     ILPM_OPTIMAL);
    ck_assert_int_eq(z, 0);
    ilpm_glpk_ops.destroy(d);
    ilpm_model_free(m);
}
END_TEST

static ilpm_model *stats_model(void);

/* GLPK 5.0 aborts in its cover cut generator when the presolver fixes
 * every column but keeps a row (here: the two rows below); the driver
 * searches again without cover cuts instead. */
START_TEST(test_presolve_leaves_no_column)
{
    ilpm_model *m = small_model(7);
    ilpm_err err = {0};
    int l1[4] = {1, 6, 7, 5}, l2[3] = {6, 2, 3}, ol[2] = {3, 5};
    int64_t k1[4] = {5, 6, -5, 6}, k2[3] = {-1, 6, -9}, oc[2] = {6, -5};
    ck_assert_int_eq(ilpm_add_linear(m, k1, l1, 4, ILPM_LE, -4, &err), 0);
    ck_assert_int_eq(ilpm_add_linear(m, k2, l2, 3, ILPM_LE, -9, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MAXIMIZE, oc, ol, 2, &err),
                     0);
    for (int cuts = ILPM_CUTS_NONE; cuts <= ILPM_CUTS_ALL; cuts++) {
        ilpm_options o;
        test_options(&o);
        ilpm_glpk_opts_in(&o)->cuts = (ilpm_cuts)cuts;
        ilpm_driver *d = create(m, &o, NULL);
        uint8_t vals[8];
        int64_t z = 0;
        ilpm_status s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
        ck_assert_msg(s == ILPM_OPTIMAL, "cuts %d: %s; %s", cuts,
                      status_name(s), err.msg);
        ck_assert_int_eq(z, 6);
        ck_assert(ilpm_model_check(m, vals, NULL));
        ilpm_glpk_ops.destroy(d);
    }
    ilpm_model_free(m);
}
END_TEST

/* What the log callback received. */
struct text {
    char s[8192];
    size_t len;
};

static void collect(void *ctx, const char *piece)
{
    struct text *t = ctx;
    size_t n = strlen(piece);
    if (n > sizeof t->s - 1 - t->len)
        n = sizeof t->s - 1 - t->len;
    memcpy(t->s + t->len, piece, n);
    t->len += n;
    t->s[t->len] = '\0';
}

/* Library code never prints: GLPK's chatter (including its "Unable to
 * create" on a failed write) goes to the log callback when verbose, else
 * nowhere.  Returns what reached file descriptors 1 and 2. */
static size_t output_of_run(int verbose, struct text *log)
{
    fd_capture capture;
    capture_begin(&capture);
    ilpm_model *m = stats_model();
    ilpm_options o;
    test_options(&o);
    o.verbose = verbose;
    if (log) {
        log->len = 0;
        log->s[0] = '\0';
        o.log = collect;
        o.log_ctx = log;
    }
    ilpm_err err = {0};
    ilpm_driver *d = ilpm_glpk_ops.create(m, &o, NULL, &err);
    uint8_t vals[9];
    int64_t z;
    ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
    ilpm_glpk_ops.destroy(d);
    ilpm_glpk_write(m, &o, ILPM_FMT_LP, "/nonexistent-dir/x.lp", &err);
    ilpm_model_free(m);
    FILE *cap = capture_end(&capture);
    fseek(cap, 0, SEEK_END);
    long n = ftell(cap);
    fclose(cap);
    return (size_t)n;
}

START_TEST(test_quiet_unless_verbose)
{
    struct text log;
    ck_assert_int_eq(output_of_run(0, &log), 0);
    ck_assert_uint_eq(log.len, 0);
    ck_assert_int_eq(output_of_run(1, NULL), 0);
    ck_assert_int_eq(output_of_run(1, &log), 0);
    /* The failed write is refused before GLPK sees it (ilpm_out), so
     * only the solve speaks. */
    ck_assert_msg(strstr(log.s, "mip =") != NULL, "log: %s", log.s);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Statistics                                                           */

/* X[1..6], AUX A[1..2]; known rows and nonzeros per group. */
static ilpm_model *stats_model(void)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = 6, ahi = 2;
    ck_assert_int_eq(ilpm_model_family(m, "X", 1, &lo, &hi, 0, &err), 0);
    ck_assert_int_eq(
        ilpm_model_family(m, "A", 1, &lo, &ahi, ILPM_FAM_AUX, &err), 1);
    int r1[3] = {1, 2, 3}, r2[3] = {4, 5, 6};
    ck_assert_int_eq(ilpm_model_group(m, "rows", &err), 0);
    ck_assert_int_eq(ilpm_add_exo(m, r1, 3, &err), 0); /* 1 row, 3 nz */
    ck_assert_int_eq(ilpm_add_exo(m, r2, 3, &err), 0); /* 1 row, 3 nz */
    ck_assert_int_eq(ilpm_model_group(m, "cols", &err), 1);
    int a[2] = {1, 4}, cl[3] = {2, 2, -3};
    ck_assert_int_eq(ilpm_add_amo(m, a, 2, &err), 0);     /* 1, 2 */
    ck_assert_int_eq(ilpm_add_impl(m, 1, -5, &err), 0);   /* 1, 2 */
    ck_assert_int_eq(ilpm_add_clause(m, cl, 3, &err), 0); /* 1, 2 merged */
    ck_assert_int_eq(ilpm_model_group(m, "card", &err), 2);
    int c4[4] = {1, 2, 3, 4};
    /* A[1] -> exactly 2 of 4: two rows of 5 */
    ck_assert_int_eq(ilpm_add_ccard(m, 7, c4, 4, ILPM_EQ, 2, &err), 0);
    ck_assert_int_eq(ilpm_add_card(m, r1, 3, ILPM_LE, 2, &err), 0); /* 1, 3 */
    ck_assert_int_eq(ilpm_model_group(m, "7lin", &err), 3);
    int l3[3] = {1, 1, 2};
    int64_t k3[3] = {3, -3, 2}; /* 2 x2 >= 1: 1 row, 1 nz */
    ck_assert_int_eq(ilpm_add_linear(m, k3, l3, 3, ILPM_GE, 1, &err), 0);
    int l2[2] = {8, -8};
    int64_t k2[2] = {1, 1}; /* the constant 1 >= 1: no row */
    ck_assert_int_eq(ilpm_add_linear(m, k2, l2, 2, ILPM_GE, 1, &err), 0);
    int ol[2] = {-1, 6};
    int64_t oc[2] = {5, 2}; /* 5 - 5 x1 + 2 x6 */
    ck_assert_int_eq(ilpm_model_objective(m, ILPM_MINIMIZE, oc, ol, 2, &err),
                     0);
    return m;
}

static void check_known_stats(const ilpm_stats *st)
{
    static const int64_t cons[4] = {2, 3, 2, 2}, rows[4] = {2, 3, 3, 1},
                         nz[4] = {6, 6, 13, 1};
    ck_assert_int_eq(st->vars, 8);
    ck_assert_int_eq(st->aux_vars, 2);
    ck_assert_int_eq(st->ngroups, 4);
    for (int g = 0; g < 4; g++) {
        ck_assert_int_eq(st->groups[g].cons, cons[g]);
        ck_assert_int_eq(st->groups[g].rows, rows[g]);
        ck_assert_int_eq(st->groups[g].nonzeros, nz[g]);
    }
    ck_assert_int_eq(st->rows, 9);
    ck_assert_int_eq(st->nonzeros, 26);
}

START_TEST(test_stats_groups)
{
    ilpm_model *m = stats_model();
    ilpm_options o;
    test_options(&o);
    ilpm_err err = {0};
    ilpm_stats st;
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(ilpm_glpk_stats(m, &o, &st, &err), 0);
    check_known_stats(&st);
    /* Counting again into prepared stats replaces the GLPK counts. */
    ck_assert_int_eq(ilpm_glpk_stats(m, &o, &st, &err), 0);
    check_known_stats(&st);
    ilpm_stats_free(&st);
    ck_assert_ptr_null(st.groups);
    ilpm_stats_free(&st); /* harmless twice */

    /* The driver counts the same rows it builds. */
    memset(&st, 0, sizeof st);
    ilpm_driver *d = create(m, &o, &st);
    check_known_stats(&st);
    uint8_t vals[9];
    int64_t z;
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err),
                     ILPM_OPTIMAL);
    int64_t best;
    ck_assert(brute_force(m, &best));
    ck_assert_int_eq(z, best);
    ilpm_glpk_ops.destroy(d);
    ilpm_stats_free(&st);

    /* ilpm_stats_prepare alone: no rows yet. */
    ck_assert_int_eq(ilpm_stats_prepare(m, &st, &err), 0);
    ck_assert_int_eq(st.groups[2].cons, 2);
    ck_assert_int_eq(st.groups[2].rows, 0);
    ck_assert_int_eq(st.rows, 0);
    ilpm_stats_free(&st);
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_now)
{
    double a = ilpm_now();
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
    double b = ilpm_now();
    ck_assert(a > 0 && b - a >= 0.0015 && b - a < 1.0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Export                                                               */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/check_glpk.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A model whose names need every rule: negative indices, a family and a
 * group starting with a digit, an objective with a constant. */
static ilpm_model *export_model(ilpm_sense sense, uint64_t seed)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_model_new();
    int lo[2] = {-1, 1}, hi[2] = {1, 2}, qlo = 0, qhi = 3;
    ck_assert_int_eq(ilpm_model_family(m, "X", 2, lo, hi, 0, &err), 0);
    ck_assert_int_eq(ilpm_model_family(m, "9q", 1, &qlo, &qhi, 0, &err), 1);
    int nv = ilpm_model_nvars(m); /* 6 + 4 */
    rng r = {seed};
    const char *groups[3] = {"rows", "7g", "e"};
    for (int g = 0; g < 3; g++) {
        ck_assert_int_eq(ilpm_model_group(m, groups[g], &err), g);
        for (int i = 0; i < 1 + (g == 0); i++)
            add_random_con(m, &r, (ilpm_kind)below(&r, ILPM_KIND_COUNT), nv);
    }
    int ol[4] = {-1, 2, -7, 10};
    int64_t oc[4] = {4, -3, 2, 1};
    ck_assert_int_eq(ilpm_model_objective(m, sense, oc, ol, 4, &err), 0);
    return m;
}

static void path_in_tmp(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* Reads an LP or MPS file with GLPK and solves it: 1 and *z, or 0 when
 * infeasible. */
static int solve_file(const char *path, int mps, double *z)
{
    int old = glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    int rc = mps ? glp_read_mps(P, GLP_MPS_FILE, NULL, path)
                 : glp_read_lp(P, NULL, path);
    ck_assert_msg(rc == 0, "GLPK cannot read back %s", path);
    glp_iocp p;
    glp_init_iocp(&p);
    p.presolve = GLP_ON;
    p.msg_lev = GLP_MSG_OFF;
    rc = glp_intopt(P, &p);
    int st = glp_mip_status(P);
    int found = rc == 0 && st == GLP_OPT;
    ck_assert(found || rc == GLP_ENOPFS || st == GLP_NOFEAS);
    if (found)
        *z = glp_mip_obj_val(P);
    glp_delete_prob(P);
    glp_term_out(old);
    return found;
}

static int file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The LP file keeps the sense; an MPS file has none, so a maximisation is
 * written as min of the negation (the optimum read back is -z). */
START_TEST(test_export_read_back)
{
    make_tmpdir();
    int telling = 0; /* instances whose min and max differ */
    for (int t = 0; t < 12; t++) {
        ilpm_sense sense = t % 2 ? ILPM_MAXIMIZE : ILPM_MINIMIZE;
        ilpm_model *m = export_model(sense, 7 + t);
        ilpm_options o;
        test_options(&o);
        ilpm_driver *d = create(m, &o, NULL);
        uint8_t vals[16];
        int64_t z = 0;
        ilpm_err err = {0};
        ilpm_status s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
        ck_assert(s == ILPM_OPTIMAL || s == ILPM_UNSAT);
        int64_t best = 0, lo = 0, hi = 0;
        ck_assert_int_eq(brute_force(m, &best), s == ILPM_OPTIMAL);
        if (s == ILPM_OPTIMAL) {
            ck_assert_int_eq(z, best);
            brute_force_sense(m, ILPM_MINIMIZE, &lo);
            brute_force_sense(m, ILPM_MAXIMIZE, &hi);
            telling += lo != hi;
        }
        ilpm_glpk_ops.destroy(d);
        char lp[128], mps[128], tmp[140];
        path_in_tmp(lp, sizeof lp, "m.lp");
        path_in_tmp(mps, sizeof mps, "m.mps");
        ck_assert_msg(ilpm_glpk_write(m, &o, ILPM_FMT_LP, lp, &err) == 0, "%s",
                      err.msg);
        ck_assert_msg(ilpm_glpk_write(m, &o, ILPM_FMT_MPS, mps, &err) == 0,
                      "%s", err.msg);
        snprintf(tmp, sizeof tmp, "%s.tmp", lp);
        ck_assert(!file_exists(tmp));
        for (int f = 0; f < 2; f++) {
            double zf = 0;
            int found = solve_file(f ? mps : lp, f, &zf);
            ck_assert_int_eq(found, s == ILPM_OPTIMAL);
            int64_t want = f && sense == ILPM_MAXIMIZE ? -z : z;
            if (found)
                ck_assert_msg((int64_t)(zf + (zf < 0 ? -0.5 : 0.5)) == want,
                              "%s: optimum %g, expected %" PRId64,
                              f ? "MPS" : "LP", zf, want);
        }
        ilpm_model_free(m);
    }
    ck_assert_int_ge(telling, 3);
    remove_tmpdir();
}
END_TEST

/* The names a user sees in the files: X[-1,2] is X(m1,2), digits first
 * get a prefix, rows are GROUP_K. */
START_TEST(test_export_names)
{
    make_tmpdir();
    ilpm_model *m = stats_model();
    int lo = 1, hi = 2;
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_model_family(m, "5z", 1, &lo, &hi, 0, &err), 2);
    ilpm_model *m2 = export_model(ILPM_MINIMIZE, 3);
    char lp[128], mps[128];
    path_in_tmp(lp, sizeof lp, "names.lp");
    path_in_tmp(mps, sizeof mps, "names.mps");
    ck_assert_int_eq(ilpm_glpk_write(m, NULL, ILPM_FMT_LP, lp, &err), 0);
    ck_assert_int_eq(ilpm_glpk_write(m2, NULL, ILPM_FMT_MPS, mps, &err), 0);
    int old = glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    ck_assert_int_eq(glp_read_lp(P, NULL, lp), 0);
    glp_create_index(P);
    static const char *const rows[] = {"rows_1", "rows_2", "cols_3", "card_3",
                                       "r.7lin_1"};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        ck_assert_msg(glp_find_row(P, rows[i]) > 0, "no row %s", rows[i]);
    ck_assert_int_eq(glp_find_row(P, "card_4"), 0);
    static const char *const cols[] = {"X(1)", "X(6)", "A(2)", "ONE"};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        ck_assert_msg(glp_find_col(P, cols[i]) > 0, "no column %s", cols[i]);
    ck_assert_int_eq(glp_get_num_rows(P), 9);
    ck_assert_int_gt(glp_find_col(P, "v.5z(2)"), 0);
    glp_delete_prob(P);
    P = glp_create_prob();
    ck_assert_int_eq(glp_read_mps(P, GLP_MPS_FILE, NULL, mps), 0);
    glp_create_index(P);
    static const char *const cols2[] = {"X(m1,1)", "X(0,2)",  "X(1,1)",
                                        "v.9q(0)", "v.9q(3)", "ONE"};
    for (size_t i = 0; i < sizeof cols2 / sizeof *cols2; i++)
        ck_assert_msg(glp_find_col(P, cols2[i]) > 0, "no column %s", cols2[i]);
    ck_assert_int_eq(glp_get_num_cols(P), 11);
    ck_assert_int_gt(glp_find_row(P, "r.7g_1"), 0);
    ck_assert_int_gt(glp_find_row(P, "e_1"), 0);
    glp_delete_prob(P);
    glp_term_out(old);
    ilpm_model_free(m);
    ilpm_model_free(m2);
    remove_tmpdir();
}
END_TEST

START_TEST(test_export_errors)
{
    ilpm_model *m = stats_model();
    ilpm_err err = {0};
    const char *bad = "/nonexistent-dir/sub/m.lp";
    /* ILPM_E_IO: the output failed, not the model. */
    ck_assert_int_eq(ilpm_glpk_write(m, NULL, ILPM_FMT_LP, bad, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_IO);
    ck_assert_msg(strstr(err.msg, bad) != NULL, "message: %s", err.msg);
    ck_assert_int_eq(ilpm_export(m, NULL, ILPM_FMT_OPB, bad, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_IO);
    ck_assert_int_eq(ilpm_glpk_write(m, NULL, ILPM_FMT_CNF, "x", &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    /* OPB to a stream that cannot be written. */
    FILE *f = fopen("/dev/full", "w");
    if (f) {
        ck_assert_int_eq(ilpm_opb_write(m, f, &err), -1);
        ck_assert_ptr_nonnull(strstr(err.msg, "OPB"));
        fclose(f);
    }
    ilpm_model_free(m);
}
END_TEST

/* A stop (Ctrl-C: the options' stop flag) during an export writes
 * nothing: each format fails as interrupted, the file is not made and
 * one that was there stays as it was (it was written whole, exit 0). */
START_TEST(test_export_stopped)
{
    make_tmpdir();
    ilpm_model *m = stats_model();
    ilpm_options o;
    ilpm_options_init(&o);
    volatile int stop = 1;
    o.stop_flag = &stop;
    static const ilpm_format fmts[] = {ILPM_FMT_LP, ILPM_FMT_MPS, ILPM_FMT_CNF,
                                       ILPM_FMT_OPB};
    for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
        char path[128], old[128];
        path_in_tmp(path, sizeof path, "stopped.out");
        path_in_tmp(old, sizeof old, "kept.out");
        FILE *f = fopen(old, "w");
        ck_assert_ptr_nonnull(f);
        fputs("old\n", f);
        fclose(f);
        ilpm_err err = {0};
        ck_assert_int_eq(ilpm_export(m, &o, fmts[i], path, &err), -1);
        ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
        ck_assert_int_ne(access(path, F_OK), 0);
        ck_assert_int_eq(ilpm_export(m, &o, fmts[i], old, &err), -1);
        char line[16] = "";
        f = fopen(old, "r");
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        fclose(f);
        ck_assert_str_eq(line, "old\n");
    }
    ilpm_model_free(m);
    remove_tmpdir();
}
END_TEST

/* Only regular files are replaced by rename: a symbolic link stays a
 * link (its target gets the text) and a FIFO stays a FIFO. */
START_TEST(test_export_special_files)
{
    make_tmpdir();
    ilpm_model *m = stats_model();
    ilpm_err err = {0};
    char target[128], link[128], fifo[128], cmd[300];
    path_in_tmp(target, sizeof target, "target.mps");
    path_in_tmp(link, sizeof link, "link.mps");
    path_in_tmp(fifo, sizeof fifo, "fifo");
    FILE *f = fopen(target, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(symlink(target, link), 0);
    ck_assert_msg(ilpm_glpk_write(m, NULL, ILPM_FMT_MPS, link, &err) == 0, "%s",
                  err.msg);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(stat(target, &st), 0);
    ck_assert_int_gt(st.st_size, 100);
    for (int fmt = 0; fmt < 2; fmt++) {
        ck_assert_int_eq(mkfifo(fifo, 0600), 0);
        snprintf(cmd, sizeof cmd, "cat '%s'", fifo);
        FILE *p = popen(cmd, "r");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(ilpm_glpk_write(m, NULL,
                                         fmt ? ILPM_FMT_MPS : ILPM_FMT_LP, fifo,
                                         &err),
                         0);
        char buf[256];
        size_t got = 0, n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0)
            got += n;
        pclose(p);
        ck_assert_int_gt(got, 100);
        ck_assert_int_eq(lstat(fifo, &st), 0);
        ck_assert(S_ISFIFO(st.st_mode));
        ck_assert_int_eq(remove(fifo), 0);
    }
    ilpm_model_free(m);
    remove_tmpdir();
}
END_TEST

/* ------------------------------------------------------------------ */
/* OPB                                                                  */

struct opb_row {
    int n;
    int64_t a[64];
    int x[64];
    int eq;
    int64_t rhs;
};

struct opb_file {
    int nvars, ncons, dict;
    struct opb_row rows[64];
    int nrows;
    int has_min;
    struct opb_row min;
    int maximise;
    int64_t cst;
};

/* Parses what ilpm_opb_write writes (a strict subset of OPB). */
static void parse_opb(FILE *f, struct opb_file *o)
{
    char line[4096];
    memset(o, 0, sizeof *o);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(
        sscanf(line, "* #variable= %d #constraint= %d", &o->nvars, &o->ncons),
        2);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '*') {
            int64_t c;
            if (strstr(line, " = x"))
                o->dict++;
            else if (sscanf(line,
                            "* objective: maximise; min: below is its "
                            "negation, objective = %" SCNd64,
                            &c) == 1) {
                o->maximise = 1;
                o->cst = c;
            } else if (sscanf(line,
                              "* objective: minimise; objective = (min: "
                              "value) %" SCNd64,
                              &c) == 1)
                o->cst = c;
            continue;
        }
        int is_min = strncmp(line, "min:", 4) == 0;
        struct opb_row *r = is_min ? &o->min : &o->rows[o->nrows++];
        ck_assert_int_le(o->nrows, 64);
        o->has_min |= is_min;
        char *p = line + (is_min ? 4 : 0);
        for (;;) {
            int64_t a;
            int x, used;
            while (*p == ' ')
                p++;
            if (sscanf(p, "%" SCNd64 " x%d%n", &a, &x, &used) == 2 &&
                (*p == '+' || *p == '-')) {
                ck_assert(x >= 1 && x <= o->nvars);
                r->a[r->n] = a;
                r->x[r->n++] = x;
                p += used;
                continue;
            }
            break;
        }
        if (is_min) {
            ck_assert_int_eq(strcmp(p, ";\n"), 0);
            continue;
        }
        char op[3];
        ck_assert_int_eq(sscanf(p, "%2s %" SCNd64 " ;", op, &r->rhs), 2);
        ck_assert(strcmp(op, ">=") == 0 || strcmp(op, "=") == 0);
        r->eq = op[0] == '=';
    }
}

static int64_t opb_sum(const struct opb_row *r, const uint8_t *vals)
{
    int64_t s = 0;
    for (int i = 0; i < r->n; i++)
        s += r->a[i] * vals[r->x[i]];
    return s;
}

START_TEST(test_opb)
{
    rng r = {99};
    for (int t = 0; t < 60; t++) {
        int nv = 2 + below(&r, 7);
        ilpm_model *m = small_model(nv);
        int ncons = 1 + below(&r, 5);
        for (int i = 0; i < ncons; i++)
            add_random_con(m, &r, (ilpm_kind)below(&r, ILPM_KIND_COUNT), nv);
        if (t % 3)
            random_objective(m, &r, nv);
        FILE *f = tmpfile();
        ck_assert_ptr_nonnull(f);
        ilpm_err err = {0};
        ck_assert_int_eq(ilpm_opb_write(m, f, &err), 0);
        rewind(f);
        struct opb_file o;
        parse_opb(f, &o);
        fclose(f);
        ck_assert_int_eq(o.nvars, nv);
        ck_assert_int_eq(o.dict, nv);
        ck_assert_int_eq(o.ncons, o.nrows);
        ilpm_sense s = ilpm_model_objective_get(m, NULL, NULL, NULL);
        uint8_t vals[16];
        for (unsigned mask = 0; mask < (1u << nv); mask++) {
            set_mask(vals, nv, mask);
            int ok = 1;
            for (int i = 0; i < o.nrows; i++) {
                int64_t lhs = opb_sum(&o.rows[i], vals);
                ok &=
                    o.rows[i].eq ? lhs == o.rows[i].rhs : lhs >= o.rows[i].rhs;
            }
            ck_assert_int_eq(ok, ilpm_model_check(m, vals, NULL));
            if (s != ILPM_NONE) {
                ck_assert_int_eq(o.maximise, s == ILPM_MAXIMIZE);
                int64_t v = o.has_min ? opb_sum(&o.min, vals) : 0;
                int64_t z = o.maximise ? o.cst - v : v + o.cst;
                ck_assert_int_eq(z, ilpm_model_objective_value(m, vals));
            }
        }
        ilpm_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* glpsol and cbc on the exported files                                 */

static int have_program(const char *name)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
    return system(cmd) == 0;
}

/* Runs cmd and finds the objective value in its output: returns 1 and
 * *z, 0 for a reported infeasibility, -1 when neither is found. */
static int run_solver(const char *cmd, double *z)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char line[1024];
    int res = -1;
    while (fgets(line, sizeof line, p)) {
        double v;
        char name[64];
        if (sscanf(line, "Objective: %63s = %lf", name, &v) == 2 ||
            sscanf(line, "Objective value: %lf", &v) == 1) {
            if (res != 0) {
                *z = v;
                res = 1;
            }
        }
        if (strstr(line, "INTEGER EMPTY") ||
            strstr(line, "PROBLEM HAS NO PRIMAL FEASIBLE") ||
            strstr(line, "Problem is infeasible") ||
            strstr(line, "Problem proven infeasible") ||
            strstr(line, "Pre-processing says infeasible"))
            res = 0;
    }
    pclose(p);
    return res;
}

START_TEST(test_external_solvers)
{
    int glpsol = have_program("glpsol"), cbc = have_program("cbc");
    if (!glpsol || !cbc)
        fprintf(stderr,
                "check_glpk: %s%s%snot installed: skipping their "
                "part of test_external_solvers\n",
                !glpsol ? "glpsol " : "", !glpsol && !cbc ? "and " : "",
                !cbc ? "cbc " : "");
    if (!glpsol && !cbc)
        return;
    make_tmpdir();
    for (int t = 0; t < 5; t++) {
        ilpm_model *m =
            export_model(t % 2 ? ILPM_MAXIMIZE : ILPM_MINIMIZE, 100 + t);
        ilpm_err err = {0};
        if (t == 4) { /* a row that folds to 2 <= 1 */
            int l[2] = {1, -1};
            int64_t k[2] = {2, 2};
            ck_assert_int_eq(ilpm_add_linear(m, k, l, 2, ILPM_LE, 1, &err), 0);
        }
        int64_t best = 0;
        int feasible = brute_force(m, &best);
        char lp[128], mps[128], cmd[512];
        path_in_tmp(lp, sizeof lp, "t.lp");
        path_in_tmp(mps, sizeof mps, "t.mps");
        ck_assert_int_eq(ilpm_glpk_write(m, NULL, ILPM_FMT_LP, lp, &err), 0);
        ck_assert_int_eq(ilpm_glpk_write(m, NULL, ILPM_FMT_MPS, mps, &err), 0);
        const char *cmds[4][2] = {
            /* glpsol's report goes to a file beside the model and then
             * to the pipe: GLPK replaces the file it is given, and run
             * as root it would replace /dev/stdout itself. */
            {"glpsol --lp '%1$s' -o '%1$s.out' 2>&1; cat '%1$s.out'", lp},
            {"glpsol --freemps '%1$s' -o '%1$s.out' 2>&1; cat '%1$s.out'", mps},
            {"cbc '%s' solve 2>&1", lp},
            {"cbc '%s' solve 2>&1", mps}};
        for (int c = 0; c < 4; c++) {
            if ((c < 2 && !glpsol) || (c >= 2 && !cbc))
                continue;
            snprintf(cmd, sizeof cmd, cmds[c][0], cmds[c][1]);
            double z = 0;
            int res = run_solver(cmd, &z);
            ck_assert_msg(res == feasible, "%s: %s, expected %s", cmd,
                          res < 0 ? "no answer"
                          : res   ? "a solution"
                                  : "unsat",
                          feasible ? "a solution" : "unsat");
            /* MPS has no sense: a maximisation is exported negated. */
            int64_t want = c % 2 && t % 2 ? -best : best;
            if (feasible)
                ck_assert_msg((int64_t)(z + (z < 0 ? -0.5 : 0.5)) == want,
                              "%s: optimum %g, expected %" PRId64, cmd, z,
                              want);
        }
        ilpm_model_free(m);
    }
    remove_tmpdir();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Limits                                                               */

/* A market split instance (Cornuejols and Dawande): a few dense equality
 * knapsacks that branch and bound cannot finish in a second. */
static ilpm_model *hard_model(void)
{
    ilpm_err err = {0};
    int nv = 36, lo = 1, hi = nv;
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    rng r = {2024};
    int lits[64];
    int64_t coefs[64];
    for (int i = 0; i < nv; i++)
        lits[i] = i + 1;
    for (int row = 0; row < 4; row++) {
        int64_t sum = 0;
        for (int i = 0; i < nv; i++)
            sum += coefs[i] = below(&r, 100);
        ck_assert_int_eq(
            ilpm_add_linear(m, coefs, lits, nv, ILPM_EQ, sum / 2, &err), 0);
    }
    for (int i = 0; i < nv; i++)
        coefs[i] = below(&r, 20) - 10;
    ck_assert_int_eq(
        ilpm_model_objective(m, ILPM_MINIMIZE, coefs, lits, nv, &err), 0);
    return m;
}

START_TEST(test_deadline)
{
    ilpm_model *m = hard_model();
    for (int presolve = 0; presolve <= 1; presolve++) {
        ilpm_options o;
        test_options(&o);
        ilpm_glpk_opts_in(&o)->presolve = presolve;
        ilpm_driver *d = create(m, &o, NULL);
        uint8_t vals[40];
        int64_t z;
        ilpm_err err = {0};
        double t0 = ilpm_now();
        /* The driver stops at its watch (solver.c sets it per call). */
        ilpm_watch_until(&d->watch, t0 + 0.2, NULL);
        ilpm_status s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
        double t = ilpm_now() - t0;
        ck_assert_msg(s == ILPM_TIMEOUT || s == ILPM_FEASIBLE, "status %s: %s",
                      status_name(s), err.msg);
        ck_assert_msg(t < 3.0, "a 0.2 s deadline took %.2f s", t);
        if (s == ILPM_FEASIBLE)
            ck_assert(ilpm_model_check(m, vals, NULL));
        /* A deadline in the past: no search at all. */
        ilpm_watch_until(&d->watch, ilpm_now() - 1.0, NULL);
        s = ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err);
        ck_assert_int_eq(s, ILPM_TIMEOUT);
        ilpm_glpk_ops.destroy(d);
    }
    ilpm_model_free(m);
}
END_TEST

static volatile int stop_flag;

static void on_alarm(int sig)
{
    (void)sig;
    stop_flag = 1;
}

START_TEST(test_stop_flag)
{
    ilpm_model *m = hard_model();
    ilpm_options o;
    test_options(&o);
    o.stop_flag = &stop_flag;
    ilpm_driver *d = create(m, &o, NULL);
    uint8_t vals[40];
    int64_t z;
    ilpm_err err = {0};
    /* Set beforehand: the search stops at its first look at the watch. */
    stop_flag = 1;
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 1, vals, &z, &err),
                     ILPM_STOPPED);
    /* Set during the search (by a timer), with no deadline at all. */
    stop_flag = 0;
    signal(SIGALRM, on_alarm);
    struct itimerval it = {{0, 0}, {0, 150000}};
    setitimer(ITIMER_REAL, &it, NULL);
    double t0 = ilpm_now();
    ilpm_status s = ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, &z, &err);
    double t = ilpm_now() - t0;
    ck_assert_msg(s == ILPM_STOPPED || s == ILPM_SOLVED, "status %s: %s",
                  status_name(s), err.msg);
    ck_assert_msg(t < 3.0, "stopping took %.2f s", t);
    ilpm_glpk_ops.destroy(d);
    ilpm_model_free(m);
}
END_TEST

/* Branching and backtracking rules out of range are refused before GLPK
 * sees them. */
START_TEST(test_bad_rules)
{
    ilpm_model *m = small_model(2);
    ilpm_options o;
    test_options(&o);
    ilpm_glpk_opts_in(&o)->branch = (ilpm_branch)(ILPM_BRANCH_DIVE + 1);
    ilpm_err err = {0};
    ck_assert_ptr_null(ilpm_glpk_ops.create(m, &o, NULL, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "branching"));
    ilpm_glpk_opts_in(&o)->branch = ILPM_BRANCH_AUTO;
    ilpm_glpk_opts_in(&o)->backtrack = (ilpm_backtrack)-1;
    ck_assert_ptr_null(ilpm_glpk_ops.create(m, &o, NULL, &err));
    /* Set by name, as a library user sets them. */
    char got[16];
    ck_assert_int_eq(ilpm_options_set(&o, "branch", "drtom", &err), 0);
    ck_assert_int_eq(ilpm_glpk_opts_of(&o)->branch, ILPM_BRANCH_DRTOM);
    ilpm_glpk_opts_in(&o)->branch = ILPM_BRANCH_DIVE;
    ilpm_options_get(&o, "branch", got, sizeof got);
    ck_assert_str_eq(got, "dive");
    ck_assert_int_eq(ilpm_options_set(&o, "backtrack", "bestp", &err), 0);
    ck_assert_int_eq(ilpm_glpk_opts_of(&o)->backtrack, ILPM_BACKTRACK_BESTP);
    ck_assert_int_eq(ilpm_options_set(&o, "branch", "fastest", &err), -1);
    ck_assert_int_eq(ilpm_glpk_opts_of(&o)->branch, ILPM_BRANCH_DIVE);
    ilpm_model_free(m);
}
END_TEST

/* The model's neutral search hint, as GLPK maps it under --branch auto:
 * input order -> first fractional column, reverse -> last, likeliest ->
 * dive (largest value, up first); none -> most fractional when looking
 * for a solution.  --branch given wins over the hint. */
START_TEST(test_hint_maps_to_branching)
{
    static const struct {
        ilpm_hint hint;
        int br, dive;
    } cases[] = {{ILPM_HINT_NONE, GLP_BR_MFV, 0},
                 {ILPM_HINT_INPUT, GLP_BR_FFV, 0},
                 {ILPM_HINT_REVERSE, GLP_BR_LFV, 0},
                 {ILPM_HINT_LIKELIEST, GLP_BR_MFV, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_model *m = small_model(2);
        ilpm_model_set_hint(m, cases[i].hint);
        ck_assert_int_eq(ilpm_model_hint(m), cases[i].hint);
        ilpm_options o;
        test_options(&o);
        ilpm_err err = {0};
        ilpm_driver *d = ilpm_glpk_ops.create(m, &o, NULL, &err);
        ck_assert_msg(d != NULL, "%s", err.msg);
        glp_iocp p;
        int dive = ilpm_glpk_iocp((ilpm_glpk *)d, 1, &p);
        ck_assert_int_eq(p.br_tech, cases[i].br);
        ck_assert_int_eq(dive, cases[i].dive);
        ilpm_glpk_ops.destroy(d);
        ck_assert_int_eq(ilpm_options_set(&o, "branch", "last", &err), 0);
        d = ilpm_glpk_ops.create(m, &o, NULL, &err);
        ck_assert_int_eq(ilpm_glpk_iocp((ilpm_glpk *)d, 1, &p), 0);
        ck_assert_int_eq(p.br_tech, GLP_BR_LFV);
        ilpm_glpk_ops.destroy(d);
        ilpm_model_free(m);
    }
}
END_TEST

#ifdef ILPM_TEST_HOOKS
/* A GLPK abort becomes ILPM_ERROR; drivers whose problems went with
 * GLPK's environment say so instead of crashing, and new ones work. */
START_TEST(test_glpk_failure)
{
    ilpm_model *m = small_model(3);
    ilpm_err err = {0};
    int lits[3] = {1, 2, 3};
    ck_assert_int_eq(ilpm_add_exo(m, lits, 3, &err), 0);
    ilpm_options o;
    test_options(&o);
    ilpm_driver *other = create(m, &o, NULL);
    ilpm_driver *d = create(m, &o, NULL);
    uint8_t vals[4];
    ilpm_glpk_fault = 1;
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err),
                     ILPM_ERROR);
    ck_assert_msg(strstr(err.msg, "GLPK failed while solving") &&
                      strstr(err.msg, "out of range"),
                  "message: %s", err.msg);
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err),
                     ILPM_ERROR);
    ck_assert_ptr_nonnull(strstr(err.msg, "create the solver again"));
    ck_assert_int_eq(ilpm_glpk_ops.solve(other, NULL, 0, 0, vals, NULL, &err),
                     ILPM_ERROR);
    ilpm_con c = {ILPM_CLAUSE, ILPM_GE, 0, 0, 1, lits, NULL, 1};
    ck_assert_int_eq(ilpm_glpk_ops.add(other, &c, &err), -1);
    ilpm_glpk_ops.destroy(d);
    ilpm_glpk_ops.destroy(other);
    d = create(m, &o, NULL);
    ck_assert_int_eq(ilpm_glpk_ops.solve(d, NULL, 0, 0, vals, NULL, &err),
                     ILPM_SOLVED);
    ilpm_glpk_ops.destroy(d);
    ilpm_model_free(m);
}
END_TEST
#endif

/* ------------------------------------------------------------------ */

/* ilpm_lp_read: GLPK's reader into plain arrays, and its errors as
 * "name:line: message" without a word on the terminal. */
START_TEST(test_lp_read)
{
    ilpm_err err = {0};
    ilpm_lp *lp = NULL;
    ck_assert_int_eq(
        ilpm_lp_read("data/models/knapsack.lp", NULL, ILPM_FMT_LP, &lp, &err),
        0);
    ck_assert_int_eq(lp->ncols, 6);
    ck_assert_int_eq(lp->nrows, 3);
    ck_assert_int_eq(lp->sense, ILPM_MAXIMIZE);
    ck_assert_str_eq(lp->row_name[0], "capacity");
    ck_assert(lp->row_has_hi[0] && !lp->row_has_lo[0]);
    ck_assert(lp->row_hi[0] == 26);
    ck_assert_int_eq((int)(lp->row_start[1] - lp->row_start[0]), 6);
    ck_assert_str_eq(lp->col_name[lp->ind[0]], "a");
    ck_assert(lp->val[0] == 12 && lp->obj[0] == 24);
    ck_assert(lp->col_int[0] && lp->col_has_lo[0] && lp->col_hi[0] == 1);
    ilpm_lp_free(lp);
    ilpm_lp_free(NULL);

    ck_assert_int_eq(
        ilpm_lp_read("data/models/setcover.mps", "sc", ILPM_FMT_MPS, &lp, &err),
        0);
    ck_assert_int_eq(lp->ncols, 5);
    ck_assert_int_eq(lp->sense, ILPM_MINIMIZE);
    ilpm_lp_free(lp);

    fd_capture cap;
    capture_begin(&cap);
    int rc = ilpm_lp_read("data/bad/model_syntax.lp", "shown.lp", ILPM_FMT_LP,
                          &lp, &err);
    FILE *said = capture_end(&cap);
    ck_assert_int_eq(fgetc(said), EOF); /* GLPK printed nothing */
    fclose(said);
    ck_assert_int_eq(rc, -1);
    ck_assert_ptr_null(lp);
    ck_assert_str_eq(err.msg, "shown.lp:5: missing constraint sense");
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
}
END_TEST

/* ilpm_gmpl_translate and ilpm_gmpl_postsolve: GLPK's translator (in
 * its own process) into plain arrays, a solution handed back to the
 * model's output, and its errors as "file:line: message" without a word
 * on the terminal. */
START_TEST(test_gmpl)
{
    const char *data[] = {"models/gmpl/queens8.dat"};
    ilpm_gmpl_src src = {"models/gmpl/queens.mod", data, 1, NULL, 0};
    ilpm_err err = {0};
    ilpm_lp *lp = NULL;
    ilpm_gmpl *keep = NULL;
    fd_capture cap;
    capture_begin(&cap);
    int rc = ilpm_gmpl_translate(&src, NULL, &lp, &keep, &err);
    FILE *said = capture_end(&cap);
    ck_assert_int_eq(fgetc(said), EOF);
    fclose(said);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(lp->ncols, 64);
    ck_assert_int_eq(lp->nrows, 42);
    ck_assert_str_eq(lp->col_name[0], "q[1,1]");
    ck_assert_str_eq(lp->row_name[0], "row[1]");
    /* A solution of 8 queens: the model's board; the translation is used
     * up by it. */
    static const int col[8] = {1, 5, 8, 6, 3, 7, 2, 4};
    double x[64] = {0};
    for (int i = 0; i < 8; i++)
        x[i * 8 + col[i] - 1] = 1;
    char *text = NULL;
    ck_assert_int_eq(ilpm_gmpl_postsolve(&keep, x, 64, NULL, &text, &err), 0);
    ck_assert_ptr_null(keep);
    ck_assert_ptr_nonnull(strstr(text, "Q.......\n....Q...\n"));
    free(text);
    ck_assert_int_eq(ilpm_gmpl_postsolve(&keep, x, 64, NULL, &text, &err), -1);
    ck_assert_ptr_null(text);
    ilpm_lp_free(lp);
    ilpm_gmpl_free(NULL);

    ilpm_gmpl_src bare = {"models/gmpl/queens.mod", NULL, 0, NULL, 0};
    ck_assert_int_eq(ilpm_gmpl_read(&bare, &lp, &err), -1);
    ck_assert_ptr_null(lp);
    ck_assert_str_eq(err.msg, "models/gmpl/queens.mod:5: no value for n");
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
}
END_TEST

/* A model whose generation takes minutes in GLPK's translator. */
static void slow_model(char *path, size_t size)
{
    snprintf(path, size, "%s/ilpm-slow-%d.mod",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("set I := 1..1000;\nvar x{I, I} binary;\n"
          "s.t. d{k in 2..2000}: sum{i in I, j in I: i + j = k} x[i,j] <= 1;\n"
          "end;\n",
          f);
    fclose(f);
}

/* The translation stops at the deadline and at a stop, at once. */
START_TEST(test_gmpl_limits)
{
    char mod[300];
    slow_model(mod, sizeof mod);
    ilpm_gmpl_src src = {mod, NULL, 0, NULL, 0};
    ilpm_lp *lp = NULL;
    ilpm_err err = {0};
    ilpm_gmpl_opts o = {0};
    o.deadline = ilpm_now() + 0.3;
    double t0 = ilpm_now();
    ck_assert_int_eq(ilpm_gmpl_translate(&src, &o, &lp, NULL, &err), -1);
    double took = ilpm_now() - t0;
    ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
    ck_assert_msg(took >= 0.3 && took < 1.5, "took %.2f s", took);
    ck_assert_ptr_null(lp);
    volatile int stop = 1;
    o.deadline = 0;
    o.stop = &stop;
    t0 = ilpm_now();
    ck_assert_int_eq(ilpm_gmpl_translate(&src, &o, &lp, NULL, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_INTERRUPTED);
    ck_assert(ilpm_now() - t0 < 1.0);
    remove(mod);
}
END_TEST

/* A check after solve that fails: an input error naming the line, and
 * the output before it. */
START_TEST(test_gmpl_check)
{
    char mod[300];
    snprintf(mod, sizeof mod, "%s/ilpm-check-%d.mod",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    FILE *f = fopen(mod, "w");
    ck_assert_ptr_nonnull(f);
    fputs("var x{1..3} binary;\ns.t. c: sum{i in 1..3} x[i] = 1;\nsolve;\n"
          "printf \"before\\n\";\ncheck x[2] = 1;\nprintf \"after\\n\";\n"
          "end;\n",
          f);
    fclose(f);
    ilpm_gmpl_src src = {mod, NULL, 0, NULL, 0};
    ilpm_lp *lp = NULL;
    ilpm_gmpl *keep = NULL;
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_gmpl_translate(&src, NULL, &lp, &keep, &err), 0);
    double x[3] = {1, 0, 0};
    char *text = NULL;
    ck_assert_int_eq(ilpm_gmpl_postsolve(&keep, x, 3, NULL, &text, &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    char want[320];
    snprintf(want, sizeof want, "%s:5: check failed", mod);
    ck_assert_str_eq(err.msg, want);
    ck_assert_str_eq(text, "before\n");
    free(text);
    ilpm_lp_free(lp);
    remove(mod);
}
END_TEST

static Suite *glpk_suite(void)
{
    Suite *s = suite_create("glpk");
    TCase *tc = tcase_create("lowering");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_kind_exhaustive, 0, ILPM_KIND_COUNT);
    tcase_add_test(tc, test_optimum_brute_force);
    tcase_add_test(tc, test_constant_rows);
    tcase_add_test(tc, test_presolve_leaves_no_column);
    suite_add_tcase(s, tc);

    tc = tcase_create("driver");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_add_nogoods);
    tcase_add_test(tc, test_assumption_edges);
    tcase_add_test(tc, test_deadline);
    tcase_add_test(tc, test_stop_flag);
    tcase_add_test(tc, test_quiet_unless_verbose);
    tcase_add_test(tc, test_gmpl_limits);
    tcase_add_test(tc, test_gmpl_check);
    tcase_add_test(tc, test_bad_rules);
    tcase_add_test(tc, test_hint_maps_to_branching);
#ifdef ILPM_TEST_HOOKS
    tcase_add_test(tc, test_glpk_failure);
#endif
    suite_add_tcase(s, tc);

    tc = tcase_create("stats");
    tcase_add_test(tc, test_stats_groups);
    tcase_add_test(tc, test_now);
    suite_add_tcase(s, tc);

    tc = tcase_create("export");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_export_read_back);
    tcase_add_test(tc, test_export_names);
    tcase_add_test(tc, test_export_errors);
    tcase_add_test(tc, test_export_stopped);
    tcase_add_test(tc, test_export_special_files);
    tcase_add_test(tc, test_opb);
    tcase_add_test(tc, test_external_solvers);
    tcase_add_test(tc, test_lp_read);
    tcase_add_test(tc, test_gmpl);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(glpk_suite());
}
