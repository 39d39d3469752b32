/* Tests of the propagation kernel's storage (src/model/kernel*.c): the
 * occurrences of 4 bytes (their coefficients apart, none in a kernel of
 * unit rows; beyond 31 bits in a side table), no stored coefficient for
 * a unit row, the negative literals' records unwritten in a model
 * without negative terms, and on random models of every
 * kind (coefficients up to 2^40 among them) the same literals fixed as
 * bounds propagation straight over the model's constraints fixes, after
 * each of a few decisions, with every weight back at 0 once undone (or
 * reset from the weights saved before), both plain and eager (rows queued
 * as they are moved). */
#define _DEFAULT_SOURCE /* mincore */
#include "kernel.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#define ILPM_TESTUTIL_RANDOM
#include "testutil.h"
#include <check.h>
#include <string.h>

/* l's value under val (ILPM_K_*). */
static int lv(const uint8_t *val, int l)
{
    return ilpm_klval(val, l);
}

/* Makes l true in val: 1 when it changed, 0 when it was, -1 when it is
 * false. */
static int ref_set(uint8_t *val, int l)
{
    int x = lv(val, l);
    if (x != ILPM_K_OPEN)
        return x == ILPM_K_TRUE ? 0 : -1;
    val[abs(l)] = l > 0 ? ILPM_K_TRUE : ILPM_K_FALSE;
    return 1;
}

/* Model constraint c as "cond -> sum a_i l_i cmp k" with a_i > 0, into
 * a, l (room for c->n); its length. */
static int as_sum(const ilpm_con *c, int64_t *a, int *l, int *le, int *ge,
                  int64_t *k)
{
    ilpm_cmp cmp = c->cmp;
    *k = c->rhs;
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
    case ILPM_IMPL:
        cmp = ILPM_GE;
        *k = 1;
        break;
    case ILPM_AMO:
        cmp = ILPM_LE;
        *k = 1;
        break;
    case ILPM_EXO:
        cmp = ILPM_EQ;
        *k = 1;
        break;
    default:
        break;
    }
    *le = cmp != ILPM_GE;
    *ge = cmp != ILPM_LE;
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        int64_t x = c->kind == ILPM_LINEAR ? c->coefs[i] : 1;
        int lit = c->kind == ILPM_IMPL && i == 0 ? -c->lits[0] : c->lits[i];
        if (x == 0)
            continue;
        a[n] = x < 0 ? -x : x;
        l[n] = x < 0 ? -lit : lit;
        *k -= x < 0 ? x : 0;
        n++;
    }
    return n;
}

/* One pass of bounds propagation over c: 1 when it fixed something, 0
 * when not, -1 on a conflict. */
static int ref_con(const ilpm_con *c, uint8_t *val)
{
    int64_t a[16], k, st = 0, sf = 0, total = 0;
    int l[16], le, ge;
    int n = as_sum(c, a, l, &le, &ge, &k);
    int cv = c->cond ? lv(val, c->cond) : ILPM_K_TRUE;
    if (cv == ILPM_K_FALSE)
        return 0;
    for (int i = 0; i < n; i++) {
        total += a[i];
        st += lv(val, l[i]) == ILPM_K_TRUE ? a[i] : 0;
        sf += lv(val, l[i]) == ILPM_K_FALSE ? a[i] : 0;
    }
    if ((le && st > k) || (ge && total - sf < k))
        return cv == ILPM_K_TRUE ? -1 : ref_set(val, -c->cond);
    if (cv != ILPM_K_TRUE)
        return 0;
    int changed = 0;
    for (int i = 0; i < n; i++) {
        if (lv(val, l[i]) != ILPM_K_OPEN)
            continue;
        int f = le && st + a[i] > k, t = ge && total - sf - a[i] < k;
        if (f && t)
            return -1;
        if (f || t) {
            val[abs(l[i])] =
                (uint8_t)((l[i] > 0) == t ? ILPM_K_TRUE : ILPM_K_FALSE);
            changed = 1;
        }
    }
    return changed;
}

/* Bounds propagation to its fixpoint: 0, or -1 on a conflict. */
static int ref_propagate(const ilpm_model *m, uint8_t *val)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < ilpm_model_ncons(m); i++) {
            ilpm_con c;
            ilpm_model_con(m, i, &c);
            int rc = ref_con(&c, val);
            if (rc < 0)
                return -1;
            changed |= rc;
        }
    }
    return 0;
}

/* A coefficient: small, or beyond 31 bits (up to 2^40), either sign. */
static int64_t rnd_coef(void)
{
    int64_t a = rnd(2) ? 1 + (int64_t)rnd(5)
                       : ((int64_t)1 << 31) +
                             (int64_t)rnd(1u << 30) * (int64_t)(1 + rnd(512));
    return rnd(3) == 0 ? -a : a;
}

/* A random model over nv variables, of every constraint kind. */
static ilpm_model *mixed_model(int nv)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = nv;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int nc = 1 + (int)rnd(6);
    for (int c = 0; c < nc; c++) {
        int l[8], n = 1 + (int)rnd(6);
        int64_t a[8], sum = 0;
        for (int i = 0; i < n; i++) {
            l[i] = rnd_lit(nv);
            a[i] = rnd_coef();
            sum += rnd(2) ? a[i] : 0;
        }
        int rc = 0;
        ilpm_cmp cmp = (ilpm_cmp)rnd(3);
        switch (rnd(8)) {
        case 0:
            rc = ilpm_add_clause(m, l, n, &err);
            break;
        case 1:
            rc = ilpm_add_amo(m, l, n, &err);
            break;
        case 2:
            rc = ilpm_add_exo(m, l, n, &err);
            break;
        case 3:
            rc = ilpm_add_impl(m, l[0], rnd_lit(nv), &err);
            break;
        case 4:
            rc = ilpm_add_card(m, l, n, cmp, (int)rnd(4), &err);
            break;
        case 5:
            rc = ilpm_add_ccard(m, rnd_lit(nv), l, n, cmp, (int)rnd(4), &err);
            break;
        default:
            rc = ilpm_add_linear(m, a, l, n, cmp, sum + (int64_t)rnd(3) - 1,
                                 &err);
        }
        ck_assert_int_eq(rc, 0);
    }
    return m;
}

/* The kernel's values against val; the weights as the values make them. */
static void same(const ilpm_kern *e, const uint8_t *val)
{
    for (int v = 1; v <= e->nv; v++)
        ck_assert_int_eq(e->val[v], val[v]);
    for (int c = 0; c < e->ncons; c++) {
        const ilpm_kcon *x = &e->cons[c];
        const int64_t *a = ilpm_kcoefs(e, x);
        int64_t st = 0, sf = 0;
        for (int i = 0; i < x->n; i++) {
            int y = lv(e->val, e->lits[x->start + (size_t)i]);
            st += y == ILPM_K_TRUE ? a[i] : 0;
            sf += y == ILPM_K_FALSE ? a[i] : 0;
        }
        ck_assert_int_eq(x->st, st);
        ck_assert_int_eq(x->sf, sf);
    }
}

/* The kernel, plain or eager (_i), against bounds propagation. */
START_TEST(test_same_propagation_as_bounds)
{
    int eager = _i;
    rng_state = 7;
    int conflicts = 0, fixed = 0, bigs = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int nv = 3 + (int)rnd(8);
        ilpm_model *m = mixed_model(nv);
        ilpm_err err;
        ilpm_kern e;
        ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err),
                         0);
        bigs += e.nbig > 0;
        int64_t *w = ilpm_kern_save(&e); /* the weights with nothing set */
        ck_assert_ptr_nonnull(w);
        uint8_t val[16] = {0};
        int kc = ilpm_kern_settle(&e, 0) != 0, rc = ref_propagate(m, val) != 0;
        ilpm_kern_eager(&e, eager); /* after the settling, a fixpoint */
        for (int d = 0; d < 3 && !kc; d++) {
            ck_assert_int_eq(rc, 0);
            same(&e, val);
            int v = 1 + (int)rnd((unsigned)nv);
            if (val[v] != ILPM_K_OPEN)
                continue;
            int l = rnd(2) ? v : -v;
            ck_assert_int_eq(ilpm_kern_assign(&e, l), 0);
            ck_assert_int_eq(ref_set(val, l), 1);
            kc = ilpm_kern_propagate(&e) != 0;
            rc = ref_propagate(m, val) != 0;
        }
        ck_assert_int_eq(kc, rc);
        conflicts += kc;
        if (!kc) {
            same(&e, val);
            fixed += e.ntrail;
        }
        /* undone, every weight is 0 again, nothing queued: literal by
         * literal, or reset from the weights saved at the start */
        if (iter % 2)
            ilpm_kern_reset(&e, 0, w);
        else
            ilpm_kern_undo(&e, 0);
        free(w);
        ck_assert_int_eq(e.nrq + e.nlazy + e.clash, 0);
        memset(val, 0, sizeof val);
        same(&e, val);
        ilpm_kern_free(&e);
        ilpm_model_free(m);
    }
    /* the test saw each case */
    ck_assert_int_gt(conflicts, 100);
    ck_assert_int_gt(fixed, 1000);
    ck_assert_int_gt(bigs, 100);
}
END_TEST

START_TEST(test_compact_storage)
{
    /* 4 bytes an occurrence; unit rows store no coefficient, and a
     * kernel of unit rows none for its occurrences either (pa); a
     * weighted row stores its own, those beyond 31 bits once more
     * aside. */
    ck_assert_uint_eq(sizeof(ilpm_kocc), 4);
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = 6;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int l[6] = {1, 2, 3, 4, 5, 6};
    ck_assert_int_eq(ilpm_add_exo(m, l, 6, &err), 0);
    ck_assert_int_eq(ilpm_add_card(m, l + 1, 4, ILPM_LE, 2, &err), 0);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_uint_eq(e.ncoefs, 0);
    ck_assert_uint_eq(e.nbig, 0);
    ck_assert_ptr_null(e.pa);
    ck_assert_ptr_null(ilpm_klist_a(&e, e.occ[ilpm_kidx(&e, 2)]));
    /* a weighted row added later: every list's coefficients then, 1 for
     * those of the unit rows, the moved list's too */
    int64_t w[2] = {2, 1};
    int wl[2] = {2, 3};
    ck_assert_int_ge(ilpm_kern_add(&e, w, wl, 2, ILPM_LE, 2, 0), 0);
    ck_assert_ptr_nonnull(e.pa);
    ilpm_klist p2 = e.occ[ilpm_kidx(&e, 2)], p3 = e.occ[ilpm_kidx(&e, 3)];
    ck_assert_int_eq(p2.n, 3);
    ck_assert_uint_ne(p2.at & ILPM_KMOVED, 0);
    ck_assert_int_eq(ilpm_klist_a(&e, p2)[0], 1);
    ck_assert_int_eq(ilpm_klist_a(&e, p2)[1], 1);
    ck_assert_int_eq(ilpm_klist_a(&e, p2)[2], 2);
    ck_assert_int_eq(ilpm_klist_a(&e, p3)[2], 1);
    ck_assert_int_eq(ilpm_kern_assign(&e, 2), 0);
    ck_assert_int_eq(e.cons[2].st, 2);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    ck_assert_int_eq(e.val[3], ILPM_K_FALSE);
    ilpm_kern_undo(&e, 0);
    ck_assert_int_eq(e.cons[2].st + e.cons[2].sf + e.cons[0].st, 0);
    ilpm_kern_free(&e);
    int64_t a[3] = {(int64_t)1 << 35, 3, -((int64_t)1 << 33)};
    ck_assert_int_eq(ilpm_add_linear(m, a, l, 3, ILPM_LE, 5, &err), 0);
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_uint_eq(e.ncoefs, 3);
    ck_assert_uint_eq(e.nbig, 2);
    /* x1 true weighs 2^35 > 5 + 2^33: it cannot be */
    ck_assert_int_eq(ilpm_kern_settle(&e, 0), 0);
    ck_assert_int_eq(e.val[1], ILPM_K_FALSE);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* A model of unit rows lends the kernel its literals (no copy): the
 * kernel's are the model's, and stay so as it propagates and undoes; a
 * row added, or compaction, first gives the kernel its own copy, the
 * model's left as they were; a kernel of some kinds only, or of a model
 * with a weighted row, copies from the start. */
START_TEST(test_unit_model_lends_its_literals)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = 6;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int l[6] = {1, 2, 3, 4, 5, 6};
    ck_assert_int_eq(ilpm_add_exo(m, l, 3, &err), 0);
    ck_assert_int_eq(ilpm_add_amo(m, l + 2, 4, &err), 0);
    ilpm_con c;
    ilpm_model_con(m, 0, &c);
    const int *own = c.lits;
    for (int add = 0; add < 2; add++) {
        ilpm_kern e;
        ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err),
                         0);
        ck_assert_ptr_eq(e.lits, own);
        ck_assert_ptr_eq(e.lent, own);
        ck_assert_int_eq(ilpm_kern_assign(&e, 1), 0);
        ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
        ck_assert_int_eq(e.val[2], ILPM_K_FALSE);
        ck_assert_int_eq(e.val[3], ILPM_K_FALSE);
        if (add) {
            int two[2] = {1, 6};
            ck_assert_int_eq(ilpm_kern_add(&e, NULL, two, 2, ILPM_LE, 1, 0), 2);
            ck_assert_int_eq(e.lits[7], 1);
        } else {
            int renum[2];
            ilpm_kern_compact(&e, renum);
            ck_assert_int_eq(renum[0], -1);   /* x3 met it for good */
            ck_assert_int_eq(e.cons[0].n, 3); /* the AMO's x4, x5, x6 */
        }
        ck_assert_ptr_ne(e.lits, own);
        for (int i = 0; i < 7; i++)
            ck_assert_int_eq(own[i], i < 3 ? i + 1 : i);
        ilpm_kern_free(&e);
    }
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_CARD_KINDS, NULL, &err),
                     0);
    ck_assert_ptr_null(e.lent);
    ilpm_kern_free(&e);
    int64_t a[2] = {2, 1};
    ck_assert_int_eq(ilpm_add_linear(m, a, l, 2, ILPM_LE, 2, &err), 0);
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_ptr_null(e.lent);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* A row at its bound sets its open literals in the row's order, each
 * with that row's side as its reason, and counts as work the terms a
 * scan passes (probing's budget): an exactly-one of 150 literals (more
 * than one chunk of the gathering) with a third set already, and a weighted
 * row whose <= side takes only its terms above the slack. */
START_TEST(test_side_fills_in_row_order)
{
    enum { N = 150 };
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = N + 4;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int l[N];
    for (int i = 0; i < N; i++)
        l[i] = N - i; /* the row's order is not the variables' */
    ck_assert_int_eq(ilpm_add_exo(m, l, N, &err), 0);
    int w[4] = {N + 1, N + 2, N + 3, N + 4};
    int64_t a[4] = {2, 9, 5, 7}; /* sorted 9 7 5 2: x152 x154 x153 x151 */
    ck_assert_int_eq(ilpm_add_linear(m, a, w, 4, ILPM_LE, 10, &err), 0);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_int_eq(ilpm_kern_keep_reasons(&e), 0);
    for (int v = 3; v <= N; v += 3) /* a third set: gathered */
        ck_assert_int_eq(ilpm_kern_assign(&e, -v), 0);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    int mark = e.ntrail;
    uint64_t work = e.work;
    ck_assert_int_eq(ilpm_kern_assign(&e, 40), 0);
    ck_assert_int_eq(ilpm_kern_check(&e, 0), 0);
    int t = mark + 1;
    for (int i = 0; i < N; i++) {
        if (l[i] == 40 || (l[i] >= 3 && (l[i] - 3) % 3 == 0))
            continue;
        ck_assert_int_lt(t, e.ntrail);
        ck_assert_int_eq(e.trail[t], -l[i]);
        ck_assert_int_eq(e.reason[l[i]], 4 * 0 + ILPM_K_R_LE);
        t++;
    }
    ck_assert_int_eq(t, e.ntrail);
    /* the <= side: the whole row scanned, and again per literal set but
     * the last (count_work); the >= side, at its bound now, once more */
    uint64_t set = (uint64_t)(e.ntrail - mark - 1);
    ck_assert_uint_eq(e.work - work, N + (set - 1) * N + N);
    /* x151 (2) true leaves a slack of 8: 9 goes, 7 and 5 stay */
    mark = e.ntrail;
    work = e.work;
    ck_assert_int_eq(ilpm_kern_assign(&e, N + 1), 0);
    ck_assert_int_eq(ilpm_kern_check(&e, 1), 0);
    ck_assert_int_eq(e.ntrail, mark + 2);
    ck_assert_int_eq(e.trail[mark + 1], -(N + 2));
    ck_assert_int_eq(e.reason[N + 2], 4 * 1 + ILPM_K_R_LE);
    ck_assert_uint_eq(e.work - work, 1);
    ilpm_kern_undo(&e, 0);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* A list's room in the pool: up to the next list's place (a moved
 * neighbour's base), occ_end after the last (the last positive one's
 * when the negative ones are unplaced, which have none). */
static uint32_t pool_room(const ilpm_kern *e, size_t i)
{
    uint32_t end = e->occ_end;
    size_t nl = e->neg_unplaced ? (size_t)e->nv + 1 : 2 * (size_t)e->nv + 2;
    if (i >= nl)
        return 0;
    if (i + 1 < nl) {
        end = e->occ[i + 1].at;
        if (end & ILPM_KMOVED)
            end = e->moved[end & ~ILPM_KMOVED].base;
    }
    return end - e->occ[i].at;
}

/* The lists' records are 8 bytes (a place in the pool and a count),
 * the positive literals' (ilpm_kidx: v) before the negative ones' (nv +
 * 1 + v): for a model of 5000 variables and for one of 3, with a
 * negative term, each list holds its terms, its room as counted. */
START_TEST(test_lists_at_a_cache_line)
{
    ilpm_err err;
    ck_assert_uint_eq(sizeof(ilpm_klist), 8);
    int sizes[2] = {5000, 3};
    for (int s = 0; s < 2; s++) {
        ilpm_model *m = ilpm_model_new();
        int lo = 1, hi = sizes[s];
        ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
        int l[2] = {1, -2};
        ck_assert_int_eq(ilpm_add_clause(m, l, 2, &err), 0);
        ilpm_kern e;
        ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err),
                         0);
        ck_assert_int_eq(e.neg_unplaced, 0);
        ck_assert_uint_eq(ilpm_kidx(&e, -2), (size_t)sizes[s] + 3);
        for (int v = 1; v <= sizes[s]; v++) {
            const ilpm_klist *p = &e.occ[ilpm_kidx(&e, v)],
                             *q = &e.occ[ilpm_kidx(&e, -v)];
            ck_assert_int_eq(p->n, v == 1);
            ck_assert_int_eq(q->n, v == 2);
            ck_assert_uint_eq(pool_room(&e, ilpm_kidx(&e, v)), v == 1);
            ck_assert_uint_eq(pool_room(&e, ilpm_kidx(&e, -v)), v == 2);
        }
        ilpm_kern_free(&e);
        ilpm_model_free(m);
    }
}
END_TEST

/* A list that a later row outgrows moves to the heap (its record then
 * names moved[i]), its neighbours keep their room; a row taken out and
 * put back (detach, attach) stays in the room it left, moving nothing;
 * compaction keeps the moved lists and packs the others. */
START_TEST(test_lists_move_out_of_the_pool)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = 4;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int a[2] = {1, -2}, b[2] = {-2, 3};
    ck_assert_int_eq(ilpm_add_clause(m, a, 2, &err), 0);
    ck_assert_int_eq(ilpm_add_clause(m, b, 2, &err), 0);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_uint_eq(pool_room(&e, ilpm_kidx(&e, -2)), 2);
    int r[3] = {1, 3, 4};
    for (int k = 0; k < 5; k++) /* x1's list: 6 terms, room 1 at first */
        ck_assert_int_eq(ilpm_kern_add(&e, NULL, r, 3, ILPM_GE, 1, 0), 2 + k);
    ilpm_klist p = e.occ[ilpm_kidx(&e, 1)];
    ck_assert(p.at & ILPM_KMOVED);
    ck_assert_int_eq(p.n, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(ilpm_klist_v(&e, p)[i].c, i ? i + 1 : 0);
    ck_assert_uint_eq(pool_room(&e, ilpm_kidx(&e, -2)), 2);
    ck_assert_uint_eq(pool_room(&e, 0) + pool_room(&e, (size_t)e.nv + 1), 0);
    size_t moved = e.nmoved;
    uint8_t gone[7] = {1, 1, 0, 0, 0, 0, 0};
    ilpm_kern_detach(&e, gone);
    ck_assert_int_eq(e.occ[ilpm_kidx(&e, -2)].n, 0);
    ilpm_kern_attach(&e, gone);
    ck_assert_int_eq(e.occ[ilpm_kidx(&e, -2)].n, 2);
    ck_assert_uint_eq(e.nmoved, moved);
    ck_assert(!(e.occ[ilpm_kidx(&e, -2)].at & ILPM_KMOVED));
    /* x4 true: rows 2-6 satisfied and dropped; x1's list (moved) and
     * -2's (packed) keep rows 0 and 1, renumbered the same */
    ilpm_kern_keep_reasons(&e);
    ck_assert_int_eq(ilpm_kern_assign(&e, 4), 0);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    int renum[7];
    ilpm_kern_compact(&e, renum);
    p = e.occ[ilpm_kidx(&e, 1)];
    ck_assert(p.at & ILPM_KMOVED);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(ilpm_klist_v(&e, p)[0].c, renum[0]);
    ilpm_klist q = e.occ[ilpm_kidx(&e, -2)];
    ck_assert_int_eq(q.n, 2);
    ck_assert_uint_eq(pool_room(&e, ilpm_kidx(&e, -2)), 2);
    ck_assert_int_eq(ilpm_klist_v(&e, q)[1].c, renum[1]);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* A model of nvars variables x[1..nvars] and one clause over the first
 * n of them (x1 + ... + xn >= 1): large lists from little text. */
static ilpm_model *wide_clause(int nvars, int n)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = nvars;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int *l = malloc((size_t)n * sizeof *l);
    ck_assert_ptr_nonnull(l);
    for (int i = 0; i < n; i++)
        l[i] = i + 1;
    ck_assert_int_eq(ilpm_add_clause(m, l, n, &err), 0);
    free(l);
    return m;
}

/* A model without negative terms (n-Queens) leaves the negative
 * literals' records unwritten (neg_unplaced): 4.2 million variables,
 * records of 67 MB, calloc's fresh pages, whose negative half mincore
 * finds not resident (every page of it written, before); their lists
 * have no room, the last positive one's ends at occ_end, propagation
 * reads none of them (neg_none), and a negative term added later moves
 * its list out and is read (the rest as they were).
 * Skipped under valgrind and AddressSanitizer (their allocators write
 * what they give). */
START_TEST(test_negative_records_unwritten)
{
    if (test_slowdown() > 1 || ILPM_UNDER_ASAN)
        return;
#ifdef M_PERTURB
    mallopt(M_PERTURB, 0); /* (meson test sets MALLOC_PERTURB_) */
#endif
    ilpm_err err;
    int n = 4200000;
    ilpm_model *m = wide_clause(4200000, n);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    ck_assert_int_eq(e.neg_unplaced, 1);
    ck_assert_int_eq(e.neg_none, 1);
    /* The pages wholly within the negative half, and not in a 2 MB
     * huge page that also holds the positive half's or what follows
     * (transparent huge pages set to "always" back such a page whole). */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), huge = 2u << 20;
    uintptr_t lo_at = ((uintptr_t)&e.occ[e.nv + 1] + huge - 1) & ~(huge - 1);
    uintptr_t hi_at = (uintptr_t)&e.occ[2 * (size_t)e.nv + 2] & ~(huge - 1);
    size_t np = (hi_at - lo_at) / page, resident = 0;
    unsigned char *in = malloc(np);
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(mincore((void *)lo_at, hi_at - lo_at, in), 0);
    for (size_t i = 0; i < np; i++)
        resident += in[i] & 1;
    free(in);
    ck_assert_uint_gt(np, 4000);
    ck_assert_uint_eq(resident, 0);
    ck_assert_uint_eq(pool_room(&e, (size_t)e.nv), 1);
    ck_assert_uint_eq(pool_room(&e, ilpm_kidx(&e, -7)), 0);
    int c[2] = {-7, 9};
    ck_assert_int_eq(ilpm_kern_add(&e, NULL, c, 2, ILPM_GE, 1, 0), 1);
    ck_assert_int_eq(e.neg_none, 0);
    ck_assert(e.occ[ilpm_kidx(&e, -7)].at & ILPM_KMOVED);
    ck_assert_int_eq(e.occ[ilpm_kidx(&e, -7)].n, 1);
    ck_assert_int_eq(e.occ[ilpm_kidx(&e, 9)].n, 2);
    ck_assert_int_eq(e.occ[ilpm_kidx(&e, n)].n, 1);
    ck_assert_int_eq(ilpm_kern_assign(&e, 7), 0);
    ck_assert_int_eq(ilpm_kern_propagate(&e), 0);
    ck_assert_int_eq(e.val[9], ILPM_K_TRUE);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* The kernel's values ask for huge pages (ilpm_mem_huge): read at random
 * by every row propagation visits, 4.2 MB for a model of 4.2 million
 * variables.  Skipped where the system has no transparent huge pages,
 * and under valgrind, whose allocator is not glibc's (and slow at this
 * size). */
START_TEST(test_values_ask_for_huge_pages)
{
    if (!test_thp_on() || test_slowdown() > 1)
        return;
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = 4200000;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int l[2] = {1, -2};
    ck_assert_int_eq(ilpm_add_clause(m, l, 2, &err), 0);
    ilpm_kern e;
    ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err), 0);
    uintptr_t page = (uintptr_t)2 << 20;
    uintptr_t mid = ((uintptr_t)e.val + page - 1) & ~(page - 1);
    ck_assert(test_thp_marked((const void *)mid));
    ck_assert_int_eq(e.val[1], ILPM_K_OPEN);
    ck_assert_int_eq(e.val[hi], ILPM_K_OPEN);
    ilpm_kern_free(&e);
    ilpm_model_free(m);
}
END_TEST

/* The lists' records and the arena of occurrences ask for huge pages
 * from ilpm_kern_huge_min on (1 GB; n-Queens 10,000: 1.6 and 3.2 GB):
 * lowered to 4 MB, a model of 4.2 million variables (records of 67 MB)
 * and a clause over 1.2 million of them (an arena of 4.8 MB) has both
 * marked; at the default, neither.  Skipped as the values' test. */
START_TEST(test_big_lists_ask_for_huge_pages)
{
    if (!test_thp_on() || test_slowdown() > 1)
        return;
    ilpm_err err;
    int n = 1200000;
    ilpm_model *m = wide_clause(4200000, n);
    uintptr_t page = (uintptr_t)2 << 20;
    size_t keep = ilpm_kern_huge_min;
    for (int low = 0; low < 2; low++) {
        ilpm_kern_huge_min = low ? (size_t)4 << 20 : keep;
        ilpm_kern e;
        ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, NULL, &err),
                         0);
        uintptr_t occ = ((uintptr_t)e.occ + page - 1) & ~(page - 1);
        uintptr_t pool = ((uintptr_t)e.pool + page - 1) & ~(page - 1);
        ck_assert_int_eq(test_thp_marked((const void *)occ), low);
        ck_assert_int_eq(test_thp_marked((const void *)pool), low);
        ck_assert_int_eq(e.occ[ilpm_kidx(&e, n)].n, 1);
        ilpm_kern_free(&e);
    }
    ilpm_kern_huge_min = keep;
    ilpm_model_free(m);
}
END_TEST

/* A board of n x n cells with its rows and columns (exactly-one),
 * diagonals (at-most-one), long clauses of both signs and an
 * implication and a conditional row, each row's literals ascending;
 * with swap, one column out of order. */
static ilpm_model *board_model(int n, int swap)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo = 1, hi = n * n;
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, &lo, &hi, 0, &err), 0);
    int *l = malloc((size_t)n * n * sizeof *l), k;
    ck_assert_ptr_nonnull(l);
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++)
            l[c] = r * n + c + 1;
        ck_assert_int_eq(ilpm_add_exo(m, l, n, &err), 0);
    }
    for (int c = 0; c < n; c++) {
        for (int r = 0; r < n; r++)
            l[r] = r * n + c + 1;
        if (swap && c == n / 2) {
            int x = l[0];
            l[0] = l[n - 1];
            l[n - 1] = x;
        }
        ck_assert_int_eq(ilpm_add_exo(m, l, n, &err), 0);
    }
    for (int d = -(n - 2); d <= n - 2; d++) {
        k = 0;
        for (int r = 0; r < n; r++)
            if (r + d >= 0 && r + d < n)
                l[k++] = r * n + r + d + 1;
        ck_assert_int_eq(ilpm_add_amo(m, l, k, &err), 0);
    }
    for (int s = 0; s < 3; s++) { /* 2n cells, every other one negated */
        k = 0; /* (the positive ones first: ascending by ilpm_kidx) */
        for (int neg = 0; neg < 2; neg++)
            for (int i = s, j = 0; i < n * n && j < 2 * n; i += 3 + s, j++)
                if (j % 2 == neg)
                    l[k++] = neg ? -(i + 1) : i + 1;
        ck_assert_int_eq(ilpm_add_clause(m, l, k, &err), 0);
    }
    /* (-2 | -(n+1)): ascending by ilpm_kidx, as (-2 | n+1) is not */
    ck_assert_int_eq(ilpm_add_impl(m, 2, -(n + 1), &err), 0);
    ck_assert_int_eq(ilpm_add_ccard(m, 1, l, n, ILPM_LE, 2, &err), 0);
    free(l);
    return m;
}

/* A model of unit rows whose literals ascend, from
 * ilpm_kern_scatter_min terms on, has its occurrences counted and put
 * by blocks of lists (long rows counted after the others, every row's
 * occurrences put after the rows): the same lists, in the same order,
 * as one row after the other (the default on a small model); a row out
 * of order keeps the model as before. */
START_TEST(test_scatter_by_blocks_keeps_the_lists)
{
    ilpm_err err;
    size_t keep_min = ilpm_kern_scatter_min;
    size_t keep_block = ilpm_kern_scatter_block;
    for (int swap = 0; swap < 2; swap++) {
        ilpm_model *m = board_model(70, swap);
        ilpm_kern a, b;
        uint64_t before = ilpm_kern_scattered;
        ck_assert_int_eq(ilpm_kern_init(&a, m, ILPM_KERN_ALL_KINDS, NULL, &err),
                         0);
        ck_assert_uint_eq(ilpm_kern_scattered, before);
        ilpm_kern_scatter_min = 0;
        ilpm_kern_scatter_block = 64;
        ck_assert_int_eq(ilpm_kern_init(&b, m, ILPM_KERN_ALL_KINDS, NULL, &err),
                         0);
        ilpm_kern_scatter_min = keep_min;
        ilpm_kern_scatter_block = keep_block;
        ck_assert_uint_eq(ilpm_kern_scattered, before + !swap);
        ck_assert_int_eq(a.ncons, b.ncons);
        ck_assert_uint_eq(a.occ_end, b.occ_end);
        ck_assert_uint_eq(a.cocc_end, b.cocc_end);
        for (size_t x = 0; x < 2 * (size_t)a.nv + 2; x++) {
            ck_assert_int_eq(a.occ[x].n, b.occ[x].n);
            ck_assert_uint_eq(a.occ[x].at, b.occ[x].at);
            const ilpm_kocc *u = ilpm_klist_v(&a, a.occ[x]);
            const ilpm_kocc *v = ilpm_klist_v(&b, b.occ[x]);
            const int32_t *ua = ilpm_klist_a(&a, a.occ[x]);
            const int32_t *va = ilpm_klist_a(&b, b.occ[x]);
            ck_assert_int_eq(ua == NULL, va == NULL);
            for (int i = 0; i < a.occ[x].n; i++) {
                ck_assert_int_eq(u[i].c, v[i].c);
                ck_assert_int_eq(ua ? ua[i] : 1, va ? va[i] : 1);
            }
            if (a.cocc)
                ck_assert_int_eq(a.cocc[x].n, b.cocc[x].n);
        }
        ck_assert_int_eq(b.occ[ilpm_kidx(&b, -4)].n, 1); /* a clause's */
        ck_assert_int_eq(b.occ[ilpm_kidx(&b, 1)].n, 4);  /* and the cond's */
        ck_assert_int_eq(b.cocc[ilpm_kidx(&b, 1)].n, 1);
        ck_assert_int_eq(ilpm_kern_assign(&a, 72), 0);
        ck_assert_int_eq(ilpm_kern_assign(&b, 72), 0);
        ck_assert_int_eq(ilpm_kern_propagate(&a), ilpm_kern_propagate(&b));
        ck_assert_int_eq(b.val[73], ILPM_K_FALSE);
        ck_assert_int_eq(b.val[2], ILPM_K_FALSE);
        ck_assert_mem_eq(a.val, b.val, (size_t)a.nv + 1);
        ilpm_kern_free(&a);
        ilpm_kern_free(&b);
        ilpm_model_free(m);
    }
}
END_TEST

/* The count pass's blocks (and the scatter's) read the clock after each
 * block: a watch past its deadline, whose polls would not read the
 * clock for a million calls, stops a build by blocks of the board model
 * with a timeout (before, the build went on to its end: at n-Queens
 * 10,000 the blocks took 0.8 s past the limit). */
START_TEST(test_blocks_read_the_clock)
{
    ilpm_err err;
    ilpm_model *m = board_model(70, 0);
    size_t keep_min = ilpm_kern_scatter_min,
           keep_block = ilpm_kern_scatter_block;
    for (int scatter = 0; scatter < 2; scatter++) {
        ilpm_kern_scatter_min = scatter ? 0 : keep_min;
        ilpm_kern_scatter_block = 64;
        ilpm_watch w;
        ilpm_watch_until(&w, ilpm_now() - 1, NULL);
        w.tick = 1;
        w.every = 1000000;
        w.read_at = ilpm_now();
        ilpm_kern e;
        ck_assert_int_eq(ilpm_kern_init(&e, m, ILPM_KERN_ALL_KINDS, &w, &err),
                         -1);
        ck_assert_int_eq(err.rc, ILPM_E_TIMEOUT);
        ck_assert_int_eq(w.status, ILPM_TIMEOUT);
    }
    ilpm_kern_scatter_min = keep_min;
    ilpm_kern_scatter_block = keep_block;
    ilpm_model_free(m);
}
END_TEST

static Suite *kernel_suite(void)
{
    Suite *s = suite_create("kernel");
    TCase *t = tcase_create("core");
    tcase_add_loop_test(t, test_same_propagation_as_bounds, 0, 2);
    tcase_add_test(t, test_compact_storage);
    tcase_add_test(t, test_unit_model_lends_its_literals);
    tcase_add_test(t, test_side_fills_in_row_order);
    tcase_add_test(t, test_lists_at_a_cache_line);
    tcase_add_test(t, test_lists_move_out_of_the_pool);
    tcase_add_test(t, test_negative_records_unwritten);
    tcase_add_test(t, test_values_ask_for_huge_pages);
    tcase_add_test(t, test_big_lists_ask_for_huge_pages);
    tcase_add_test(t, test_scatter_by_blocks_keeps_the_lists);
    tcase_add_test(t, test_blocks_read_the_clock);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(kernel_suite());
}
