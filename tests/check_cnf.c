/* check_cnf.c: the CNF lowering against brute force.
 *
 * For random small constraints of every kind and under every encoding,
 * each assignment of the model's variables must extend to the auxiliary
 * variables exactly when ilpm_model_check accepts it.  The existential
 * check is a small DPLL below, so no SAT solver is trusted here.
 */
#include "backend.h"
#include "cnf_obj.h"
#include "ilpm_int.h"

#include "testutil.h"
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Random numbers (splitmix64, fixed seed per test)                     */

static uint64_t rng;

static void seed(uint64_t s)
{
    rng = s;
}

static uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int rnd(int lo, int hi)
{
    return lo + (int)(next() % (uint64_t)(hi - lo + 1));
}

static int rnd_lit(int nv)
{
    int v = rnd(1, nv);
    return rnd(0, 1) ? v : -v;
}

/* ------------------------------------------------------------------ */
/* A small DPLL: unit propagation by scanning, then branching.          */

struct sat {
    const int *lits;
    size_t nlits;
    signed char *val; /* 1 true, -1 false, 0 free, per variable */
    int *trail;
    int ntrail;
};

static int lit_val(const struct sat *s, int l)
{
    int v = s->val[abs(l)];
    return l > 0 ? v : -v;
}

static void assign(struct sat *s, int l)
{
    s->val[abs(l)] = l > 0 ? 1 : -1;
    s->trail[s->ntrail++] = abs(l);
}

static void undo(struct sat *s, int mark)
{
    while (s->ntrail > mark)
        s->val[s->trail[--s->ntrail]] = 0;
}

/* 0 on a conflict. */
static int propagate(struct sat *s)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        size_t i = 0;
        while (i < s->nlits) {
            int sat = 0, nfree = 0, last = 0;
            for (; s->lits[i] != 0; i++) {
                int v = lit_val(s, s->lits[i]);
                if (v > 0)
                    sat = 1;
                else if (v == 0)
                    nfree++, last = s->lits[i];
            }
            i++; /* the 0 */
            if (sat)
                continue;
            if (nfree == 0)
                return 0;
            if (nfree == 1) {
                assign(s, last);
                changed = 1;
            }
        }
    }
    return 1;
}

static int dpll(struct sat *s)
{
    int mark = s->ntrail;
    if (!propagate(s)) {
        undo(s, mark);
        return 0;
    }
    /* Branch on a free literal of a clause not yet satisfied. */
    int pick = 0;
    size_t i = 0;
    while (i < s->nlits && !pick) {
        int sat = 0, cand = 0;
        for (; s->lits[i] != 0; i++) {
            int v = lit_val(s, s->lits[i]);
            if (v > 0)
                sat = 1;
            else if (v == 0 && !cand)
                cand = s->lits[i];
        }
        i++;
        if (!sat)
            pick = cand;
    }
    if (!pick)
        return 1;
    int mark2 = s->ntrail;
    assign(s, pick);
    if (dpll(s))
        return 1;
    undo(s, mark2);
    assign(s, -pick);
    if (dpll(s))
        return 1;
    undo(s, mark);
    return 0;
}

enum { DPLL, UNITS };

/* With vals[1..nmodel] assigned: DPLL, 1 if the CNF has a model agreeing
 * with them; UNITS, 1 if unit propagation alone assigns every variable
 * without a conflict (the auxiliaries are defined by the model's). */
static int under(const ilpm_cnf *c, const uint8_t *vals, int nmodel, int how)
{
    signed char *val = calloc((size_t)c->nvars + 1, 1);
    int *trail = malloc(((size_t)c->nvars + 1) * sizeof *trail);
    ck_assert(val && trail);
    struct sat s = {c->lits, c->nlits, val, trail, 0};
    for (int v = 1; v <= nmodel; v++)
        assign(&s, vals[v] ? v : -v);
    int r = how == DPLL ? dpll(&s) : propagate(&s);
    for (int v = 1; v <= c->nvars && r && how == UNITS; v++)
        r = val[v] != 0;
    free(val);
    free(trail);
    return r;
}

static int sat_under(const ilpm_cnf *c, const uint8_t *vals, int nmodel)
{
    return under(c, vals, nmodel, DPLL);
}

/* ------------------------------------------------------------------ */
/* Building blocks                                                      */

static ilpm_options opts(ilpm_amo_enc amo, ilpm_card_enc card)
{
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_sat_opts_in(&o)->amo = amo;
    ilpm_sat_opts_in(&o)->card = card;
    return o;
}

static ilpm_model *model_with(int nv)
{
    ilpm_model *m = ilpm_model_new();
    ck_assert_ptr_nonnull(m);
    int lo = 1, hi = nv;
    ilpm_err err;
    ck_assert_int_eq(ilpm_model_family(m, "X", 1, &lo, &hi, 0, &err), 0);
    return m;
}

static void describe(const ilpm_con *con, char *buf, size_t size)
{
    static const char *const cmp[] = {"<=", ">=", "="};
    size_t len = (size_t)snprintf(buf, size, "%s%s", ilpm_kind_name(con->kind),
                                  con->kind == ILPM_CCARD ? " if " : "");
    if (con->kind == ILPM_CCARD && len < size)
        len += (size_t)snprintf(buf + len, size - len, "%d:", con->cond);
    for (int i = 0; i < con->n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, " %+lld*%d",
                                (long long)con->coefs[i], con->lits[i]);
    if (len < size)
        snprintf(buf + len, size - len, " %s %lld", cmp[con->cmp % 3],
                 (long long)con->rhs);
}

/* Every assignment of the nv model variables: the CNF extends it iff
 * the model accepts it (or, with a guard, iff the guard literal is false
 * or the model accepts it). */
static void check_all(const ilpm_model *m, const ilpm_cnf *c, int guard)
{
    int nv = ilpm_model_nvars(m);
    uint8_t vals[32];
    for (uint32_t a = 0; a < (1u << nv); a++) {
        for (int v = 1; v <= nv; v++)
            vals[v] = (uint8_t)((a >> (v - 1)) & 1);
        int holds = ilpm_model_check(m, vals, NULL);
        if (guard) {
            int g = guard > 0 ? vals[guard] : !vals[-guard];
            holds = holds || !g;
        }
        int sat = sat_under(c, vals, nv);
        if (sat != holds) {
            char buf[512];
            ilpm_con con;
            ilpm_model_con(m, 0, &con);
            describe(&con, buf, sizeof buf);
            ck_abort_msg("amo %d card %d: %s, assignment %#x: model says "
                         "%d, CNF says %d",
                         (int)c->amo, (int)c->card, buf, (unsigned)a, holds,
                         sat);
        }
    }
}

/* One random constraint of the given kind over variables 1..nv. */
static void add_random(ilpm_model *m, int nv, ilpm_kind kind)
{
    ilpm_err err;
    int lits[64];
    int64_t coefs[64];
    int n;
    switch (kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        n = rnd(1, 6);
        break;
    case ILPM_IMPL:
        n = 2;
        break;
    case ILPM_AMO:
    case ILPM_EXO:
        /* Some long ones reach the ladder, the product's recursion and
         * repeated literals in every position. */
        n = rnd(0, 5) ? rnd(1, 12) : rnd(13, 45);
        break;
    default:
        n = rnd(1, 10);
        break;
    }
    for (int i = 0; i < n; i++) {
        lits[i] = rnd_lit(nv);
        coefs[i] = rnd(-7, 7);
    }
    ilpm_cmp cmp = (ilpm_cmp)rnd(0, 2);
    int r;
    switch (kind) {
    case ILPM_CLAUSE:
        r = ilpm_add_clause(m, lits, n, &err);
        break;
    case ILPM_ALO:
        r = ilpm_add_alo(m, lits, n, &err);
        break;
    case ILPM_AMO:
        r = ilpm_add_amo(m, lits, n, &err);
        break;
    case ILPM_EXO:
        r = ilpm_add_exo(m, lits, n, &err);
        break;
    case ILPM_IMPL:
        r = ilpm_add_impl(m, lits[0], lits[1], &err);
        break;
    case ILPM_CARD:
        r = ilpm_add_card(m, lits, n, cmp, rnd(-1, n + 1), &err);
        break;
    case ILPM_CCARD:
        r = ilpm_add_ccard(m, rnd_lit(nv), lits, n, cmp, rnd(-1, n + 1), &err);
        break;
    case ILPM_LINEAR:
    default: {
        int s = 0;
        for (int i = 0; i < n; i++)
            s += coefs[i] < 0 ? (int)-coefs[i] : (int)coefs[i];
        r = ilpm_add_linear(m, coefs, lits, n, cmp, rnd(-s - 2, s + 2), &err);
        break;
    }
    }
    ck_assert_msg(r == 0, "%s", err.msg);
}

/* n random constraints of one kind, each checked exhaustively. */
static void run_random(ilpm_kind kind, ilpm_amo_enc amo, ilpm_card_enc card,
                       int count)
{
    ilpm_options o = opts(amo, card);
    for (int it = 0; it < count; it++) {
        int nv = rnd(1, 8);
        ilpm_model *m = model_with(nv);
        add_random(m, nv, kind);
        ilpm_cnf c;
        ilpm_err err;
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        ilpm_con con;
        ilpm_model_con(m, 0, &con);
        c.cur_group = con.group;
        ck_assert_msg(ilpm_cnf_encode(&c, &con, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(c.nguards, 0);
        check_all(m, &c, 0);
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}

/* ------------------------------------------------------------------ */
/* Kinds                                                                */

START_TEST(test_clause_kinds)
{
    static const ilpm_kind kinds[] = {ILPM_CLAUSE, ILPM_ALO, ILPM_IMPL};
    seed(100 + (uint64_t)_i);
    run_random(kinds[_i], ILPM_AMO_AUTO, ILPM_CARD_SEQ, 300);
}
END_TEST

START_TEST(test_amo)
{
    seed(200 + (uint64_t)_i);
    run_random(ILPM_AMO, (ilpm_amo_enc)_i, ILPM_CARD_SEQ, 300);
}
END_TEST

START_TEST(test_exo)
{
    seed(300 + (uint64_t)_i);
    run_random(ILPM_EXO, (ilpm_amo_enc)_i, ILPM_CARD_SEQ, 300);
}
END_TEST

/* AMO/EXO over many distinct variables: every assignment of weight 0, 1
 * and 2 (the weights that decide), which 2^n could not reach. */
START_TEST(test_amo_wide)
{
    static const int sizes[] = {7, 12, 20, 37, 50};
    ilpm_options o = opts((ilpm_amo_enc)_i, ILPM_CARD_SEQ);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        int n = sizes[si];
        for (int exo = 0; exo <= 1; exo++) {
            ilpm_model *m = model_with(n);
            int lits[64];
            for (int i = 0; i < n; i++)
                lits[i] = i % 3 ? i + 1 : -(i + 1);
            ilpm_err err;
            ck_assert_int_eq(exo ? ilpm_add_exo(m, lits, n, &err)
                                 : ilpm_add_amo(m, lits, n, &err),
                             0);
            ilpm_cnf c;
            ilpm_con con;
            ilpm_model_con(m, 0, &con);
            ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
            ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), 0);
            uint8_t vals[64];
            for (int a = -1; a < n; a++)
                for (int b = a; b < n; b++) {
                    if (a == -1 && b != -1)
                        continue; /* weight 0 once */
                    /* Literal i true exactly at positions a and b. */
                    for (int i = 0; i < n; i++) {
                        int t = i == a || i == b;
                        vals[i + 1] = (uint8_t)(lits[i] > 0 ? t : !t);
                    }
                    int w = (a >= 0) + (b > a);
                    int want = exo ? w == 1 : w <= 1;
                    ck_assert_int_eq(ilpm_model_check(m, vals, NULL), want);
                    ck_assert_msg(sat_under(&c, vals, n) == want,
                                  "amo enc %d n %d exo %d positions %d %d", _i,
                                  n, exo, a, b);
                    /* The product's line variables are each the OR of
                     * their literals, down every level. */
                    if (want && _i == ILPM_AMO_PRODUCT)
                        ck_assert_msg(under(&c, vals, n, UNITS),
                                      "product n %d: aux left open", n);
                }
            ilpm_cnf_release(&c);
            ilpm_model_free(m);
        }
    }
}
END_TEST

START_TEST(test_card)
{
    seed(400 + (uint64_t)_i);
    run_random(ILPM_CARD, ILPM_AMO_AUTO, (ilpm_card_enc)_i, 400);
}
END_TEST

START_TEST(test_ccard)
{
    seed(500 + (uint64_t)_i);
    run_random(ILPM_CCARD, ILPM_AMO_AUTO, (ilpm_card_enc)_i, 300);
}
END_TEST

/* Cardinality over 20 distinct variables, every bound and comparison,
 * sampled assignments of every weight. */
START_TEST(test_card_wide)
{
    seed(600 + (uint64_t)_i);
    const int n = 20;
    ilpm_options o = opts(ILPM_AMO_AUTO, (ilpm_card_enc)_i);
    for (int cmp = 0; cmp < 3; cmp++)
        for (int k = -1; k <= n + 1; k++) {
            ilpm_model *m = model_with(n);
            int lits[32];
            for (int i = 0; i < n; i++)
                lits[i] = rnd(0, 1) ? i + 1 : -(i + 1);
            ilpm_err err;
            ck_assert_int_eq(ilpm_add_card(m, lits, n, (ilpm_cmp)cmp, k, &err),
                             0);
            ilpm_cnf c;
            ilpm_con con;
            ilpm_model_con(m, 0, &con);
            ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
            ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), 0);
            uint8_t vals[32];
            for (int s = 0; s < 60; s++) {
                /* Weight near k most of the time: that is where the
                 * encodings can go wrong. */
                int w = rnd(0, 2) ? k + rnd(-2, 2) : rnd(0, n);
                for (int i = 0; i < n; i++)
                    vals[i + 1] = (uint8_t)(rnd(0, n - 1) < w);
                int want = ilpm_model_check(m, vals, NULL);
                ck_assert_msg(sat_under(&c, vals, n) == want,
                              "card enc %d cmp %d k %d sample %d", _i, cmp, k,
                              s);
            }
            ilpm_cnf_release(&c);
            ilpm_model_free(m);
        }
}
END_TEST

START_TEST(test_linear)
{
    seed(700 + (uint64_t)_i);
    run_random(ILPM_LINEAR, ILPM_AMO_AUTO, (ilpm_card_enc)_i, 700);
}
END_TEST

/* Wider linear constraints with larger coefficients: deeper BDDs,
 * sampled assignments. */
START_TEST(test_linear_wide)
{
    seed(800 + (uint64_t)_i);
    ilpm_options o = opts(ILPM_AMO_AUTO, (ilpm_card_enc)_i);
    for (int it = 0; it < 60; it++) {
        const int nv = 14;
        ilpm_model *m = model_with(nv);
        int n = rnd(8, 24), lits[32];
        int64_t coefs[32], s = 0;
        int scale = rnd(0, 1) ? 3 : 60;
        for (int i = 0; i < n; i++) {
            lits[i] = rnd_lit(nv);
            coefs[i] = rnd(-scale, scale);
            s += coefs[i] < 0 ? -coefs[i] : coefs[i];
        }
        ilpm_err err;
        ilpm_cmp cmp = (ilpm_cmp)rnd(0, 2);
        ck_assert_int_eq(ilpm_add_linear(m, coefs, lits, n, cmp,
                                         rnd(-(int)s / 2, (int)s / 2), &err),
                         0);
        ilpm_cnf c;
        ilpm_con con;
        ilpm_model_con(m, 0, &con);
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        ck_assert_msg(ilpm_cnf_encode(&c, &con, &err) == 0, "%s", err.msg);
        uint8_t vals[32];
        for (int smp = 0; smp < 40; smp++) {
            for (int v = 1; v <= nv; v++)
                vals[v] = (uint8_t)rnd(0, 1);
            int want = ilpm_model_check(m, vals, NULL);
            if (!sat_under(&c, vals, nv) != !want) {
                char buf[1024];
                describe(&con, buf, sizeof buf);
                ck_abort_msg("%s: sample %d, model says %d", buf, smp, want);
            }
        }
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}
END_TEST

/* The equality path and normalisation corner cases, by hand. */
/* Linear rows past row_nodes BDD nodes (here every one that needs a
 * node) go to the adders of cnf_obj.c: still exact, for <=, >= and =,
 * under a guard too, and the count of nodes decides (a row of equal
 * weights stays a counter). */
START_TEST(test_linear_adders)
{
    seed(1300);
    for (int it = 0; it < 300; it++) {
        int nv = rnd(2, 7);
        ilpm_model *m = model_with(nv);
        add_random(m, nv, ILPM_LINEAR);
        ilpm_options o =
            opts((ilpm_amo_enc)rnd(0, 3), (ilpm_card_enc)rnd(0, 1));
        ilpm_cnf c;
        ilpm_err err;
        ilpm_con con;
        ilpm_model_con(m, 0, &con);
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        c.row_nodes = 1;
        int g = it % 2 ? rnd_lit(nv) : 0;
        if (g)
            c.guards[c.nguards++] = g;
        ck_assert_msg(ilpm_cnf_encode(&c, &con, &err) == 0, "%s", err.msg);
        check_all(m, &c, g);
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}
END_TEST

START_TEST(test_linear_cases)
{
    ilpm_options o = opts(ILPM_AMO_AUTO, ILPM_CARD_SEQ);
    struct {
        int n;
        int64_t coefs[4];
        int lits[4];
        ilpm_cmp cmp;
        int64_t rhs;
        int64_t clauses; /* expected, -1: not checked */
    } cases[] = {
        {2, {2, 2}, {1, 2}, ILPM_EQ, 1, 1},  /* gcd: UNSAT */
        {2, {0, 0}, {1, 2}, ILPM_LE, -1, 1}, /* 0 <= -1 */
        {2, {0, 0}, {1, 2}, ILPM_GE, 0, 0},  /* 0 >= 0 */
        {2, {3, -3}, {1, 1}, ILPM_EQ, 0, 0}, /* cancels out */
        {2, {3, 3}, {1, -1}, ILPM_EQ, 3, 0}, /* x + (1-x) */
        {2, {5, 1}, {1, 2}, ILPM_LE, 4, 1},  /* x1 too heavy: unit */
        {3, {2, 4, 6}, {1, 2, 3}, ILPM_LE, 7, -1},
        {4, {1, -2, 3, -4}, {1, 2, 3, 4}, ILPM_GE, -2, -1},
        {3, {4, 4, 4}, {1, -2, 3}, ILPM_GE, 5, -1}, /* ceil: >= 2 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_model *m = model_with(4);
        ilpm_err err;
        ck_assert_int_eq(ilpm_add_linear(m, cases[i].coefs, cases[i].lits,
                                         cases[i].n, cases[i].cmp, cases[i].rhs,
                                         &err),
                         0);
        ilpm_cnf c;
        ilpm_con con;
        ilpm_model_con(m, 0, &con);
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), 0);
        if (cases[i].clauses >= 0)
            ck_assert_msg(c.nclauses == cases[i].clauses,
                          "case %zu: %lld clauses", i, (long long)c.nclauses);
        check_all(m, &c, 0);
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Guards, groups, limits, the empty clause, DIMACS                     */

START_TEST(test_guards)
{
    static const ilpm_kind kinds[] = {ILPM_CLAUSE, ILPM_AMO,  ILPM_EXO,
                                      ILPM_IMPL,   ILPM_CARD, ILPM_CCARD,
                                      ILPM_LINEAR};
    seed(900);
    for (int it = 0; it < 300; it++) {
        int nv = rnd(2, 7);
        ilpm_model *m = model_with(nv);
        ilpm_kind kind = kinds[rnd(0, 6)];
        add_random(m, nv, kind);
        ilpm_options o =
            opts((ilpm_amo_enc)rnd(0, 3), (ilpm_card_enc)rnd(0, 1));
        ilpm_cnf c;
        ilpm_err err;
        ilpm_con con;
        ilpm_model_con(m, 0, &con);
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        int g = rnd_lit(nv);
        c.guards[c.nguards++] = g;
        ck_assert_msg(ilpm_cnf_encode(&c, &con, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(c.nguards, 1);
        /* Every clause carries -g (before a CCARD's own -cond). */
        int seen = 0;
        for (size_t i = 0; i < c.nlits; i++) {
            if (c.lits[i] == 0) {
                ck_assert_msg(seen, "clause ending at %zu lacks -g", i);
                seen = 0;
            }
            seen |= c.lits[i] == -g;
        }
        check_all(m, &c, g);
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}
END_TEST

/* Per-group counts: each group's clauses, literals and auxiliary
 * variables are those of its own constraints, and they add up. */
START_TEST(test_group_stats)
{
    ilpm_model *m = model_with(20);
    ilpm_err err;
    int a[4] = {1, 2, 3, 4}, b[10];
    for (int i = 0; i < 10; i++)
        b[i] = i + 5;
    ck_assert_int_eq(ilpm_model_group(m, "pairs", &err), 0);
    ck_assert_int_eq(ilpm_add_amo(m, a, 4, &err), 0); /* pairwise: 6 */
    ck_assert_int_eq(ilpm_model_group(m, "ten", &err), 1);
    /* auto: still pairwise at 10 literals, 45 clauses */
    ck_assert_int_eq(ilpm_add_amo(m, b, 10, &err), 0);
    ck_assert_int_eq(ilpm_model_group(m, "plain", &err), 2);
    ck_assert_int_eq(ilpm_add_clause(m, b, 3, &err), 0);
    ck_assert_int_eq(ilpm_model_group(m, "pairs", &err), 0);
    ck_assert_int_eq(ilpm_add_impl(m, 1, -20, &err), 0);
    ck_assert_int_eq(ilpm_model_group(m, "empty", &err), 3);

    ilpm_options o = opts(ILPM_AMO_AUTO, ILPM_CARD_SEQ);
    ilpm_cnf c;
    ck_assert_int_eq(ilpm_cnf_from_model(&c, m, &o, &err), 0);
    ck_assert_int_eq(c.ngroups, 4);
    ck_assert_int_eq(c.cur_group, -1);
    ck_assert_int_eq(c.groups[0].clauses, 6 + 1);
    ck_assert_int_eq(c.groups[0].literals, 12 + 2);
    ck_assert_int_eq(c.groups[0].aux_vars, 0);
    ck_assert_int_eq(c.groups[1].clauses, 10 * 9 / 2);
    ck_assert_int_eq(c.groups[1].literals, 10 * 9);
    ck_assert_int_eq(c.groups[1].aux_vars, 0);
    ck_assert_int_eq(c.groups[2].clauses, 1);
    ck_assert_int_eq(c.groups[2].literals, 3);
    ck_assert_int_eq(c.groups[2].aux_vars, 0);
    ck_assert_int_eq(c.groups[3].clauses, 0);
    int64_t cl = 0, li = 0, aux = 0;
    for (int g = 0; g < c.ngroups; g++) {
        cl += c.groups[g].clauses;
        li += c.groups[g].literals;
        aux += c.groups[g].aux_vars;
    }
    ck_assert_int_eq(cl, c.nclauses);
    ck_assert_int_eq(li, (int64_t)c.nlits - c.nclauses);
    ck_assert_int_eq(aux, c.nvars - c.model_vars);
    ck_assert_int_eq(c.model_vars, 20);
    ilpm_cnf_release(&c);

    /* No group current: nothing counted, nothing broken.  No options
     * means ilpm_options_init's. */
    ilpm_options d;
    ilpm_options_init(&d);
    ck_assert_int_eq(ilpm_cnf_init(&c, m, NULL, &err), 0);
    ck_assert_int_eq(c.amo, ilpm_sat_opts_in(&d)->amo);
    ck_assert_int_eq(c.card, ilpm_sat_opts_in(&d)->card);
    ck_assert_int_eq(c.max_pb_nodes, ilpm_sat_opts_in(&d)->max_pb_nodes);
    ck_assert_uint_eq(c.max_lits, (size_t)(d.max_memory_mb * 1048576 / 12));
    ck_assert_int_eq(c.cur_group, -1);
    ck_assert_int_eq(ilpm_cnf_add(&c, a, 4), 0);
    ck_assert_int_gt(ilpm_cnf_new_var(&c), 20);
    for (int g = 0; g < c.ngroups; g++)
        ck_assert_int_eq(c.groups[g].clauses + c.groups[g].aux_vars, 0);
    ilpm_cnf_release(&c);

    /* Options without a node bound take the default one. */
    ilpm_sat_opts_in(&d)->max_pb_nodes = 0;
    ck_assert_int_eq(ilpm_cnf_init(&c, m, &d, &err), 0);
    ilpm_options_init(&d);
    ck_assert_int_eq(c.max_pb_nodes, ilpm_sat_opts_in(&d)->max_pb_nodes);
    ilpm_cnf_release(&c);
    ilpm_model_free(m);
}
END_TEST

/* A constraint whose BDD is large: scattered coefficients make many
 * distinct sub-sums around half their total. */
static ilpm_model *big_pb_model(void)
{
    ilpm_model *m = model_with(24);
    ilpm_err err;
    int lits[24];
    int64_t coefs[24], sum = 0;
    for (int i = 0; i < 24; i++) {
        lits[i] = i + 1;
        coefs[i] = (int64_t)1000003 * (i + 1) % 99991 + 7 * i;
        sum += coefs[i];
    }
    ck_assert_int_eq(ilpm_model_group(m, "consistency", &err), 0);
    ck_assert_int_eq(
        ilpm_add_linear(m, coefs, lits, 24, ILPM_LE, sum / 2, &err), 0);
    return m;
}

START_TEST(test_pb_too_large)
{
    ilpm_model *m = big_pb_model();
    ilpm_options o = opts(ILPM_AMO_AUTO, ILPM_CARD_SEQ);
    ilpm_sat_opts_in(&o)->max_pb_nodes = 50;
    ilpm_cnf c;
    ilpm_err err;
    memset(&c, 0xff, sizeof c); /* from_model must not need a clean c */
    ck_assert_int_eq(ilpm_cnf_from_model(&c, m, &o, &err), -1);
    ck_assert_msg(strstr(err.msg, "group 'consistency'") &&
                      strstr(err.msg, "more than 50 BDD nodes") &&
                      strstr(err.msg, "--max-pb-nodes"),
                  "%s", err.msg);
    ck_assert_ptr_null(c.lits); /* released on failure */
    ilpm_cnf_release(&c);       /* and releasing again is harmless */

    /* ilpm_cnf_encode leaves the CNF as it was. */
    ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
    int pre[2] = {1, 2};
    ck_assert_int_eq(ilpm_cnf_add(&c, pre, 2), 0);
    ilpm_con con;
    ilpm_model_con(m, 0, &con);
    c.cur_group = con.group;
    ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "BDD nodes"));
    ck_assert_int_eq(c.nclauses, 1);
    ck_assert_uint_eq(c.nlits, 3);
    ck_assert_int_eq(c.nvars, 24);
    ck_assert_int_eq(c.groups[0].clauses, 0);
    ck_assert_int_eq(c.groups[0].aux_vars, 0);

    /* With the default limit it encodes. */
    ilpm_options def = opts(ILPM_AMO_AUTO, ILPM_CARD_SEQ);
    c.max_pb_nodes = ilpm_sat_opts_of(&def)->max_pb_nodes;
    ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), 0);
    ck_assert_int_gt(c.nvars, 24);
    ilpm_cnf_release(&c);
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_empty_clause)
{
    ilpm_model *m = model_with(3);
    ilpm_err err;
    int l[3] = {1, -2, 3};
    int64_t z[1] = {0};
    ck_assert_int_eq(ilpm_add_card(m, l, 3, ILPM_LE, -1, &err), 0);
    ck_assert_int_eq(ilpm_add_card(m, l, 3, ILPM_GE, 4, &err), 0);
    ck_assert_int_eq(ilpm_add_linear(m, z, l, 1, ILPM_EQ, 1, &err), 0);
    ck_assert_int_eq(ilpm_add_ccard(m, -2, l, 3, ILPM_EQ, 5, &err), 0);
    ilpm_cnf c;
    ck_assert_int_eq(ilpm_cnf_from_model(&c, m, NULL, &err), 0);
    /* Three empty clauses, then the unit 2 (cond -2 cannot hold). */
    ck_assert_int_eq(c.nclauses, 4);
    ck_assert_uint_eq(c.nlits, 5);
    int want[5] = {0, 0, 0, 2, 0};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(c.lits[i], want[i]);
    ck_assert_int_eq(c.groups[0].literals, 1);
    /* The raw empty clause through ilpm_cnf_add. */
    ck_assert_int_eq(ilpm_cnf_add(&c, NULL, 0), 0);
    ck_assert_int_eq(c.nclauses, 5);
    ilpm_cnf_release(&c);
    ilpm_model_free(m);
}
END_TEST

START_TEST(test_var_limit)
{
    ilpm_model *m = model_with(10);
    ilpm_err err;
    int l[10];
    for (int i = 0; i < 10; i++)
        l[i] = i + 1;
    ck_assert_int_eq(ilpm_add_amo(m, l, 10, &err), 0);
    ilpm_options o = opts(ILPM_AMO_SEQ, ILPM_CARD_SEQ);
    ilpm_cnf c;
    ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
    c.nvars = INT32_MAX / 2 - 3;
    ilpm_con con;
    ilpm_model_con(m, 0, &con);
    ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "CNF variables"));
    ck_assert_int_eq(c.nvars, INT32_MAX / 2 - 3);
    ck_assert_int_eq(c.nclauses, 0);
    ck_assert_int_eq(ilpm_cnf_new_var(&c), INT32_MAX / 2 - 2);
    c.nvars = INT32_MAX / 2;
    ck_assert_int_eq(ilpm_cnf_new_var(&c), 0);
    ilpm_cnf_release(&c);

    /* A literal the CNF does not know is an error, not a crash. */
    ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
    int bad[2] = {3, -11};
    ilpm_con b = {ILPM_CLAUSE, ILPM_GE, -1, 0, 2, bad, NULL, 1, NULL};
    ck_assert_int_eq(ilpm_cnf_encode(&c, &b, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "-11"));
    ilpm_cnf_release(&c);
    ilpm_model_free(m);
}
END_TEST

/* Encodings that cannot fit are refused before they allocate. */
START_TEST(test_too_big)
{
    const int n = 100000;
    ilpm_model *m = model_with(n);
    ilpm_err err;
    int *l = malloc((size_t)n * sizeof *l);
    ck_assert_ptr_nonnull(l);
    for (int i = 0; i < n; i++)
        l[i] = i + 1;
    ck_assert_int_eq(ilpm_add_card(m, l, n, ILPM_EQ, 20000, &err), 0);
    ck_assert_int_eq(ilpm_add_amo(m, l, 40000, &err), 0);
    ck_assert_int_eq(ilpm_add_card(m, l, n, ILPM_LE, 1000, &err), 0);
    static const struct {
        ilpm_amo_enc amo;
        ilpm_card_enc card;
        size_t con;
        const char *msg;
    } cases[] = {
        {ILPM_AMO_AUTO, ILPM_CARD_SEQ, 0, "more CNF variables"},
        {ILPM_AMO_AUTO, ILPM_CARD_TOTALIZER, 0, "with the totalizer encoding"},
        {ILPM_AMO_PAIRWISE, ILPM_CARD_SEQ, 1, "with the pairwise encoding"},
        {ILPM_AMO_AUTO, ILPM_CARD_SEQ, 2, "with the seq encoding"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_options o = opts(cases[i].amo, cases[i].card);
        ilpm_cnf c;
        ilpm_con con;
        ilpm_model_con(m, cases[i].con, &con);
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), -1);
        ck_assert_msg(strstr(err.msg, cases[i].msg), "%s", err.msg);
        ck_assert_int_eq(c.nclauses, 0);
        ck_assert_int_eq(c.nvars, n);
        ilpm_cnf_release(&c);
    }
    /* The same AMO is fine as a ladder or a product. */
    ilpm_options o = opts(ILPM_AMO_PRODUCT, ILPM_CARD_SEQ);
    ilpm_cnf c;
    ilpm_con con;
    ilpm_model_con(m, 1, &con);
    ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
    ck_assert_int_eq(ilpm_cnf_encode(&c, &con, &err), 0);
    ilpm_cnf_release(&c);
    free(l);
    ilpm_model_free(m);
}
END_TEST

/* Random models of several constraints in two groups, lowered whole. */
START_TEST(test_from_model)
{
    seed(1000);
    ilpm_err err;
    for (int it = 0; it < 150; it++) {
        int nv = rnd(2, 7);
        ilpm_model *m = model_with(nv);
        int ncons = rnd(1, 4);
        for (int k = 0; k < ncons; k++) {
            ck_assert_int_ge(
                ilpm_model_group(m, rnd(0, 1) ? "left" : "right", &err), 0);
            add_random(m, nv, (ilpm_kind)rnd(0, ILPM_KIND_COUNT - 1));
        }
        ilpm_options o =
            opts((ilpm_amo_enc)rnd(0, 3), (ilpm_card_enc)rnd(0, 1));
        ilpm_cnf c;
        ck_assert_msg(ilpm_cnf_from_model(&c, m, &o, &err) == 0, "%s", err.msg);
        uint8_t vals[16];
        for (uint32_t a = 0; a < (1u << nv); a++) {
            for (int v = 1; v <= nv; v++)
                vals[v] = (uint8_t)((a >> (v - 1)) & 1);
            ck_assert_int_eq(sat_under(&c, vals, nv),
                             ilpm_model_check(m, vals, NULL));
        }
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}
END_TEST

START_TEST(test_dimacs)
{
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    int lo[3] = {1, 1, 1}, hi[3] = {2, 3, 2};
    ck_assert_int_eq(ilpm_model_family(m, "X", 3, lo, hi, 0, &err), 0);
    ck_assert_int_eq(ilpm_model_family(m, "Y", 1, lo, hi, 0, &err), 1);
    int nv = ilpm_model_nvars(m);
    ck_assert_int_eq(nv, 14);
    int l[14];
    for (int i = 0; i < nv; i++)
        l[i] = i % 2 ? i + 1 : -(i + 1);
    ck_assert_int_eq(ilpm_add_card(m, l, nv, ILPM_EQ, 5, &err), 0);
    ck_assert_int_eq(ilpm_add_amo(m, l, 8, &err), 0);
    ck_assert_int_eq(ilpm_add_card(m, l, 2, ILPM_LE, -3, &err), 0);
    ilpm_cnf c;
    ck_assert_int_eq(ilpm_cnf_from_model(&c, m, NULL, &err), 0);

    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ilpm_cnf_write_dimacs(&c, m, f, &err), 0);
    ck_assert_int_eq(fclose(f), 0);

    /* Dictionary lines, the p line, then exactly the stored clauses. */
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    ck_assert_str_eq(line, "c ilpm DIMACS export");
    int ndict = 0;
    size_t li = 0;
    int64_t nclauses = 0;
    int pvars = -1;
    long long pclauses = -1;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        if (line[0] == 'c') {
            ck_assert_int_lt(pvars, 0);
            char name[64], want[64];
            int v;
            ck_assert_int_eq(sscanf(line, "c %63s %d", name, &v), 2);
            ck_assert_int_eq(v, ++ndict);
            ilpm_model_var_name(m, v, want, sizeof want);
            ck_assert_str_eq(name, want);
        } else if (line[0] == 'p') {
            ck_assert_int_eq(sscanf(line, "p cnf %d %lld", &pvars, &pclauses),
                             2);
        } else {
            ck_assert_int_ge(pvars, 0);
            char *p = line, *end;
            for (;;) {
                long v = strtol(p, &end, 10);
                ck_assert_ptr_ne(end, p);
                ck_assert_int_le(labs(v), pvars);
                ck_assert_int_eq(v, c.lits[li++]);
                p = end;
                if (v == 0)
                    break;
            }
            ck_assert_str_eq(p, "");
            nclauses++;
        }
    }
    ck_assert_int_eq(ndict, nv);
    ck_assert_int_eq(pvars, c.nvars);
    ck_assert_int_eq(pclauses, c.nclauses);
    ck_assert_int_eq(nclauses, c.nclauses);
    ck_assert_uint_eq(li, c.nlits);
    ck_assert_int_gt(c.nvars, nv);
    free(text);

    /* The names look as the export promises. */
    char name[64];
    ck_assert_str_eq(ilpm_model_var_name(m, 6, name, sizeof name), "X[1,3,2]");

    /* A full disk is an error, not silence. */
    f = fopen("/dev/full", "w");
    if (f) {
        ck_assert_int_eq(ilpm_cnf_write_dimacs(&c, m, f, &err), -1);
        ck_assert_ptr_nonnull(strstr(err.msg, "DIMACS"));
        fclose(f);
    }
    ilpm_cnf_release(&c);
    ilpm_model_free(m);
}
END_TEST

/* ------------------------------------------------------------------ */

/* The objective of an optimisation (cnf_obj.c): for random objectives
 * (equal, small and wide weights, repeated variables, negations) and a
 * rising sequence of bounds b, each under its own guard, the CNF with
 * the guard set extends an assignment iff its objective is >= b; the
 * bounds before, retired by -guard, no longer bind.  Both the bounds
 * encoded on their own (direct) and the network built once. */
static int64_t obj_value(const int *l, const int64_t *w, int n,
                         const uint8_t *vals)
{
    int64_t v = 0;
    for (int i = 0; i < n; i++)
        v += (l[i] > 0 ? vals[l[i]] : !vals[-l[i]]) ? w[i] : 0;
    return v;
}

START_TEST(test_objective_bounds)
{
    seed(1200 + (uint64_t)_i);
    for (int it = 0; it < 60; it++) {
        int nv = rnd(2, 7), n = rnd(1, 10), shape = it % 3;
        ilpm_model *m = model_with(nv);
        int l[10];
        int64_t w[10];
        for (int i = 0; i < n; i++) {
            l[i] = rnd_lit(nv);
            w[i] = shape == 0 ? 3
                   : shape == 1
                       ? rnd(-9, 9)
                       : (int64_t)(next() % (1ull << 41)) - ((int64_t)1 << 40);
        }
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint8_t vals[16];
        for (uint32_t a = 0; a < (1u << nv); a++) {
            for (int v = 1; v <= nv; v++)
                vals[v] = (uint8_t)((a >> (v - 1)) & 1);
            int64_t x = obj_value(l, w, n, vals);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        ilpm_options o = opts(ILPM_AMO_AUTO, ILPM_CARD_SEQ);
        ilpm_cnf c;
        ilpm_err err;
        ilpm_cnf_obj ob;
        ck_assert_int_eq(ilpm_cnf_init(&c, m, &o, &err), 0);
        ck_assert_int_eq(ilpm_cnf_obj_init(&ob, n, l, w, &err), 0);
        ob.direct = _i == 0;
        /* lo - 1, then bounds up to hi + 1, by steps of the spread */
        int64_t step = (hi - lo) / 5 + 1;
        for (int64_t b = lo - 1; b <= hi + step; b += step) {
            int64_t bb = b > hi ? hi + 1 : b;
            int g = ilpm_cnf_new_var(&c);
            ck_assert_msg(ilpm_cnf_obj_bound(&c, &ob, bb, g, &err) == 0, "%s",
                          err.msg);
            size_t mark = c.nlits;
            ck_assert_int_eq(ilpm_cnf_add(&c, &g, 1), 0);
            for (uint32_t a = 0; a < (1u << nv); a++) {
                for (int v = 1; v <= nv; v++)
                    vals[v] = (uint8_t)((a >> (v - 1)) & 1);
                int want = obj_value(l, w, n, vals) >= bb;
                ck_assert_msg(sat_under(&c, vals, nv) == want,
                              "it %d shape %d bound %lld assignment %#x: "
                              "want %d",
                              it, shape, (long long)bb, (unsigned)a, want);
            }
            c.nlits = mark;
            int ng = -g;
            ck_assert_int_eq(ilpm_cnf_add(&c, &ng, 1), 0);
            if (bb > hi)
                break;
        }
        ilpm_cnf_obj_release(&ob);
        ilpm_cnf_release(&c);
        ilpm_model_free(m);
    }
}
END_TEST

static Suite *cnf_suite(void)
{
    Suite *s = suite_create("cnf");
    TCase *tc;

    tc = tcase_create("kinds");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_clause_kinds, 0, 3);
    tcase_add_loop_test(tc, test_amo, ILPM_AMO_AUTO, ILPM_AMO_PRODUCT + 1);
    tcase_add_loop_test(tc, test_exo, ILPM_AMO_AUTO, ILPM_AMO_PRODUCT + 1);
    tcase_add_loop_test(tc, test_amo_wide, ILPM_AMO_AUTO, ILPM_AMO_PRODUCT + 1);
    tcase_add_loop_test(tc, test_card, ILPM_CARD_SEQ, ILPM_CARD_TOTALIZER + 1);
    tcase_add_loop_test(tc, test_ccard, ILPM_CARD_SEQ, ILPM_CARD_TOTALIZER + 1);
    tcase_add_loop_test(tc, test_card_wide, ILPM_CARD_SEQ,
                        ILPM_CARD_TOTALIZER + 1);
    tcase_add_loop_test(tc, test_linear, ILPM_CARD_SEQ,
                        ILPM_CARD_TOTALIZER + 1);
    tcase_add_loop_test(tc, test_linear_wide, ILPM_CARD_SEQ,
                        ILPM_CARD_TOTALIZER + 1);
    tcase_add_test(tc, test_linear_cases);
    tcase_add_test(tc, test_linear_adders);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_cnf_add");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_guards);
    tcase_add_test(tc, test_empty_clause);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_cnf_new_var");
    tcase_add_test(tc, test_var_limit);
    tcase_add_test(tc, test_too_big);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_cnf_from_model");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_group_stats);
    tcase_add_test(tc, test_pb_too_large);
    tcase_add_test(tc, test_from_model);
    tcase_add_loop_test(tc, test_objective_bounds, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_cnf_write_dimacs");
    tcase_add_test(tc, test_dimacs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(cnf_suite());
}
