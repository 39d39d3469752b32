/* The cp back end's cutting-planes conflict analysis (cp.h,
 * --cp-analysis cuts): the conflict and the reasons of the literals at
 * the conflict's level are read as pseudo-Boolean rows "sum a_i l_i >= d"
 * and added up as RoundingSat does, instead of being explained as clauses
 * and resolved:
 *
 * - the conflict's row is taken whole (a <= side as its negations), its
 *   coefficients saturated (none above the degree);
 * - going back along the trail, a true literal p whose negation is in the
 *   sum is resolved: its reason, weakened on the literals that were not
 *   false before p (their coefficients leave the sum and the degree), is
 *   divided by p's coefficient (rounding up: p's coefficient becomes 1,
 *   the reason still propagates p), saturated, multiplied by the sum's
 *   coefficient of -p and added, which cancels p; the sum is saturated;
 * - it stops when the sum asserts: with the false literals of the
 *   conflict's level counted as open, its slack is below the coefficient
 *   of one of them (u), which the sum then propagates one level lower.
 *
 * Every step keeps the sum implied by the rows added (weakening, division
 * with rounding up and saturation are sound on 0/1 points), so the sum is
 * implied by the model (under an optimisation's bound: by the model and
 * the bound, as the rows it reads are).  Two things are learned from it:
 * the clause that explains u's propagation by the sum (u or the sum's
 * false literals set earliest that take away enough, as ilpm_cp_explain
 * reads a row), which the search takes instead of the first-UIP clause
 * when it is better, and the sum itself as a row of the kernel
 * (ilpm_cp_cuts_learn) when it is short and not a clause.  A sum that
 * grows past CP_CUTS_MAX_TERMS terms, a coefficient past
 * CP_CUTS_MAX_COEF, or a conflict that holds one level down already gives
 * up (the caller keeps the first-UIP clause: a clause is always sound). */
#include "cp.h"
#include "util.h"

#include <string.h>

#define CP_CUTS_MAX_TERMS 4096
#define CP_CUTS_MAX_COEF ((int64_t)1 << 50)
/* A sum learned as a row of the kernel: its terms, its degree at most. */
#define CP_CUTS_MAX_ROW 30
#define CP_CUTS_MAX_ROW_COEF ((int64_t)1 << 30)

static int pb_init(cp_pb *s, int nv)
{
    memset(s, 0, sizeof *s);
    s->a = calloc((size_t)nv + 1, sizeof *s->a);
    s->vars = malloc(((size_t)nv + 1) * sizeof *s->vars);
    s->in = calloc((size_t)nv + 1, 1);
    return s->a && s->vars && s->in ? 0 : -1;
}

static void pb_free(cp_pb *s)
{
    free(s->a);
    free(s->vars);
    free(s->in);
    memset(s, 0, sizeof *s);
}

static void pb_clear(cp_pb *s)
{
    for (int i = 0; i < s->n; i++) {
        s->a[s->vars[i]] = 0;
        s->in[s->vars[i]] = 0;
    }
    s->n = 0;
    s->d = 0;
    s->big = 0;
}

/* Adds a l (a > 0); l and -l cancel: a l + b (1 - l) = (a - b) l + b. */
static void pb_add(cp_pb *s, int l, int64_t a)
{
    int v = abs(l);
    int64_t old = s->a[v], add = l > 0 ? a : -a;
    if (!s->in[v]) {
        s->in[v] = 1;
        s->vars[s->n++] = v;
    }
    if (old != 0 && (old > 0) != (add > 0)) {
        int64_t m = llabs(old) < a ? llabs(old) : a;
        s->d -= m;
    }
    s->a[v] = old + add;
    if (llabs(s->a[v]) > CP_CUTS_MAX_COEF)
        s->big = 1;
}

/* The literal of v in s (0: none) and its coefficient. */
static inline int pb_lit(const cp_pb *s, int v)
{
    return s->a[v] > 0 ? v : s->a[v] < 0 ? -v : 0;
}

/* Reason r (a row 4c + kind, or a learned clause -2 - i) as a sum >= d
 * into s: a <= side as its negations ("sum a (1 - l) >= total - k"), a
 * condition as its negation with the degree for coefficient. */
static void pb_load(const ilpm_kern *e, int r, cp_pb *s)
{
    pb_clear(s);
    if (r <= -2) {
        const cp_db *db = e->db;
        const cp_clause *c = &db->cl[-2 - r];
        const int *l = db->lits + c->start;
        for (int i = 0; i < c->n; i++)
            pb_add(s, l[i], 1);
        s->d = 1;
        return;
    }
    const ilpm_kcon *x = &e->cons[r / 4];
    int kind = r % 4, le = kind == ILPM_K_R_LE || kind == ILPM_K_R_CLE;
    const int *lits = e->lits + x->start;
    const int64_t *a = ilpm_kcoefs(e, x);
    int64_t d = le ? x->total - x->k : x->k;
    s->d = d;
    for (int i = 0; i < x->n; i++)
        pb_add(s, le ? -lits[i] : lits[i], a[i]);
    if (x->cond && d > 0)
        pb_add(s, -x->cond, d);
    if (x->total > CP_CUTS_MAX_COEF || llabs(x->k) > CP_CUTS_MAX_COEF)
        s->big = 1;
}

/* Drops the terms whose literal is not false before trail place pos
 * (except variable keep), their weight off the degree. */
static void pb_weaken(const ilpm_kern *e, cp_pb *s, int pos, int keep)
{
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        int v = s->vars[i], l = pb_lit(s, v);
        if (l && (v == keep || (ilpm_klval(e->val, l) == ILPM_K_FALSE &&
                                e->tpos[v] < pos))) {
            s->vars[n++] = v;
            continue;
        }
        s->d -= llabs(s->a[v]);
        s->a[v] = 0;
        s->in[v] = 0;
    }
    s->n = n;
}

/* v's coefficient at most the degree (saturation). */
static inline void pb_cap(cp_pb *s, int v)
{
    if (s->a[v] > s->d)
        s->a[v] = s->d;
    else if (s->a[v] < -s->d)
        s->a[v] = -s->d;
}

static void pb_saturate(cp_pb *s)
{
    for (int i = 0; i < s->n; i++)
        pb_cap(s, s->vars[i]);
}

static inline int64_t ceil_div(int64_t x, int64_t y)
{
    return x / y + (x % y > 0);
}

/* One pass over the sum: the terms that cancelled dropped, the others
 * saturated, and the sum's slack with the false literals of level lv
 * counted as open (its slack one level down) returned, the largest
 * coefficient among those into *max: the sum asserts at a lower level
 * when 0 <= slack < max. */
static int64_t pb_tidy(const ilpm_kern *e, cp_pb *s, int lv, int64_t *max)
{
    int64_t sum = 0;
    int n = 0;
    *max = 0;
    for (int i = 0; i < s->n; i++) {
        int v = s->vars[i], l = pb_lit(s, v);
        if (!l) {
            s->in[v] = 0;
            continue;
        }
        s->vars[n++] = v;
        pb_cap(s, v);
        int64_t a = llabs(s->a[v]);
        if (ilpm_klval(e->val, l) != ILPM_K_FALSE) {
            sum += a;
        } else if (e->level[v] >= lv) {
            sum += a;
            *max = a > *max ? a : *max;
        }
    }
    s->n = n;
    return sum - s->d;
}

/* Resolves p (true, -p in the sum with coefficient c) with its reason.
 * 0, or 1 when the sum cannot go on (too large, a reason that does not
 * read as one). */
static int resolve(ilpm_kern *e, cp_cuts *k, int p, int64_t c)
{
    cp_pb *r = &k->r, *s = &k->sum;
    int v = abs(p);
    pb_load(e, e->reason[v], r);
    int64_t rp = r->a[v] * (p > 0 ? 1 : -1);
    if (rp <= 0 || r->big)
        return 1;
    pb_weaken(e, r, e->tpos[v], v);
    if (r->d <= 0)
        return 1;
    if (rp > 1) {
        for (int i = 0; i < r->n; i++) {
            int u = r->vars[i];
            int64_t a = ceil_div(llabs(r->a[u]), rp);
            r->a[u] = r->a[u] > 0 ? a : -a;
        }
        r->d = ceil_div(r->d, rp);
    }
    pb_saturate(r);
    if (k->on_cut)
        k->on_cut(k->cut_ctx, r);
    if (c > CP_CUTS_MAX_COEF / (r->d + 1))
        return 1;
    for (int i = 0; i < r->n; i++) {
        int u = r->vars[i], l = pb_lit(r, u);
        if (l)
            pb_add(s, l, c * llabs(r->a[u]));
    }
    s->d += c * r->d;
    return s->big || s->d <= 0 || s->n > CP_CUTS_MAX_TERMS;
}

/* The clause that explains u's propagation by the sum into db->out (u
 * first), the rest marked seen; 1 when one of them is at the conflict's
 * level (the sum did not assert after all). */
static int to_clause(ilpm_kern *e, const cp_pb *s, int u)
{
    cp_db *db = e->db;
    int64_t total = 0;
    int nk = 0;
    for (int i = 0; i < s->n; i++) {
        int v = s->vars[i];
        total += llabs(s->a[v]);
        if (v == abs(u) || ilpm_klval(e->val, pb_lit(s, v)) != ILPM_K_FALSE)
            continue;
        if (nk == db->capkeys && ilpm_grow_int((void **)&db->keys, &db->capkeys,
                                               nk + 1, sizeof *db->keys) != 0)
            return -1;
        db->keys[nk++] = (int64_t)e->tpos[v] << 32 | (uint32_t)v;
    }
    /* the chosen literals false, the rest at most total - taken < d */
    int64_t need = total - llabs(s->a[abs(u)]) - s->d, sum;
    int m = ilpm_cp_earliest(db->keys, nk, s->a, need, &sum);
    if (sum <= need)
        return 1;
    db->out.n = 0;
    if (ilpm_cp_ivec_push(&db->out, u) != 0)
        return -1;
    for (int j = 0; j < m; j++) {
        if (db->keys[j] < 0)
            continue;
        int v = (int)(uint32_t)db->keys[j];
        if (e->level[v] >= e->lvl)
            return 1;
        if (ilpm_cp_ivec_push(&db->out, pb_lit(s, v)) != 0)
            return -1;
    }
    for (int j = 1; j < db->out.n; j++)
        db->seen[abs(db->out.v[j])] = 1;
    return 0;
}

/* The sum derived from the conflict e->conf, asserting; its asserting
 * literal into *u.  0, 1 when it gives up. */
static int derive(ilpm_kern *e, cp_cuts *k, int *u)
{
    cp_pb *s = &k->sum;
    pb_load(e, e->conf, s);
    if (s->big)
        return 1;
    int idx = e->ntrail - 1;
    for (;;) {
        int64_t max;
        int64_t slack = pb_tidy(e, s, e->lvl, &max);
        if (k->on_cut)
            k->on_cut(k->cut_ctx, s);
        if (slack < 0 || s->d <= 0)
            return 1; /* false one level down already */
        if (max > slack)
            break;
        int p = 0, v = 0;
        while (idx >= 0) {
            p = e->trail[idx--];
            v = abs(p);
            if (e->level[v] < e->lvl)
                return 1;
            if (pb_lit(s, v) == -p)
                break;
        }
        if (idx < 0 && pb_lit(s, v) != -p)
            return 1;
        if (e->reason[v] == ILPM_K_DECIDED)
            return 1;
        if (resolve(e, k, p, llabs(s->a[v])) != 0)
            return 1;
        k->steps++;
    }
    int64_t best = 0;
    for (int i = 0; i < s->n; i++) {
        int v = s->vars[i];
        if (ilpm_klval(e->val, pb_lit(s, v)) == ILPM_K_FALSE &&
            e->level[v] == e->lvl && llabs(s->a[v]) > best) {
            best = llabs(s->a[v]);
            *u = pb_lit(s, v);
        }
    }
    return 0;
}

int ilpm_cp_cuts_init(cp_cuts *k, int nv)
{
    memset(k, 0, sizeof *k);
    if (pb_init(&k->sum, nv) != 0 || pb_init(&k->r, nv) != 0) {
        ilpm_cp_cuts_free(k);
        return -1;
    }
    return 0;
}

void ilpm_cp_cuts_free(cp_cuts *k)
{
    pb_free(&k->sum);
    pb_free(&k->r);
    free(k->first.v);
    free(k->lits.v);
    free(k->coefs);
}

int ilpm_cp_cuts_learn(ilpm_kern *e, cp_cuts *k)
{
    const cp_pb *s = &k->sum;
    if (!k->ok || s->n > CP_CUTS_MAX_ROW || s->d > CP_CUTS_MAX_ROW_COEF)
        return -2;
    int clause = 1;
    for (int i = 0; i < s->n && clause; i++)
        clause = llabs(s->a[s->vars[i]]) >= s->d;
    if (clause)
        return -2; /* learned as one already */
    if (ilpm_grow((void **)&k->coefs, &k->capcoefs, (size_t)s->n + 1,
                  sizeof *k->coefs) != 0)
        return -1;
    k->lits.n = 0;
    for (int i = 0; i < s->n; i++) {
        int v = s->vars[i];
        k->coefs[k->lits.n] = llabs(s->a[v]);
        if (ilpm_cp_ivec_push(&k->lits, pb_lit(s, v)) != 0)
            return -1;
    }
    return ilpm_kern_add(e, k->coefs, k->lits.v, k->lits.n, ILPM_GE, s->d, 0);
}

int ilpm_cp_cuts_analyze(ilpm_kern *e, cp_cuts *k, int *lbd)
{
    int u = 0;
    pb_clear(&k->sum);
    int rc = derive(e, k, &u);
    if (rc == 0)
        rc = to_clause(e, &k->sum, u);
    k->ok = rc == 0;
    pb_clear(&k->r);
    if (rc != 0) {
        cp_db *db = e->db;
        for (int j = 1; j < db->out.n; j++)
            db->seen[abs(db->out.v[j])] = 0;
        db->out.n = 0;
        return rc < 0 ? -1 : -2;
    }
    return ilpm_cp_conclude(e, lbd);
}
