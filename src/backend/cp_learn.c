/* The cp back end's learning (cp.h): a propagation's reason explained as
 * a clause when conflict analysis asks for it, first-UIP analysis with
 * local minimisation, learned clauses on two watched literals, their
 * reduction by LBD and activity, and the variables' activity heap. */
#include "cp.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void cp_heap_bump(cp_heap *h, int v);

static int by_place(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Short lists by insertion: qsort's calls alone made the knapsack
 * bench's seed 1 17 % slower (1.85 against 1.58 s). */
static void sort_keys(int64_t *keys, int nk)
{
    if (nk > 16) {
        qsort(keys, (size_t)nk, sizeof *keys, by_place);
        return;
    }
    for (int i = 1; i < nk; i++) {
        int64_t t = keys[i];
        int j = i;
        for (; j > 0 && keys[j - 1] > t; j--)
            keys[j] = keys[j - 1];
        keys[j] = t;
    }
}

/* The keys (trail place << 32 | i) sorted, the earliest taken until
 * their weights |w[i]| sum past need, then each of those the rest need
 * not (last first) set to -1: how many were taken (m), their sum into
 * *sum (at most need when all of them were not enough). */
static inline int earliest(int64_t *keys, int nk, const int64_t *w,
                           int64_t need, int64_t *sum)
{
    sort_keys(keys, nk);
    int64_t t = 0;
    int m = 0;
    for (; m < nk && t <= need; m++)
        t += llabs(w[(uint32_t)keys[m]]);
    for (int j = m - 1; j >= 0; j--) {
        int64_t a = llabs(w[(uint32_t)keys[j]]);
        if (t - a > need) {
            t -= a;
            keys[j] = -1;
        }
    }
    *sum = t;
    return m;
}

int ilpm_cp_earliest(int64_t *keys, int nk, const int64_t *w, int64_t need,
                     int64_t *sum)
{
    return earliest(keys, nk, w, need, sum);
}

/* A weighted sum "sum a_i l_i <= k" took -l_j because the true literals
 * before it weigh more than k - a_j (>=: the false ones more than
 * total - k - a_j).  Of those literals the reason takes the ones set
 * earliest on the trail until they weigh enough, then drops the latest
 * of them that the sum does not need: a reason from low levels makes
 * learned clauses that jump further back and hold in more places (on
 * the bench's knapsacks up to 4.5x fewer conflicts than taking the
 * largest coefficients first, docs/benchmarks.md). */
int ilpm_cp_explain(ilpm_kern *e, int r, int p, cp_ivec *out)
{
    out->n = 0;
    if (p && ilpm_cp_ivec_push(out, p) != 0)
        return -1;
    if (r <= -2) {
        const cp_db *db = e->db;
        const cp_clause *c = &db->cl[-2 - r];
        const int *l = db->lits + c->start;
        for (int i = 0; i < c->n; i++)
            if (l[i] != p && ilpm_cp_ivec_push(out, l[i]) != 0)
                return -1;
        return 0;
    }
    if (r < 0)
        return 0;
    const ilpm_kcon *x = &e->cons[r / 4];
    int kind = r % 4;
    const int *lits = e->lits + x->start;
    const int64_t *a = ilpm_kcoefs(e, x);
    int limit = p ? e->tpos[abs(p)] : INT_MAX;
    if (x->cond && p != -x->cond && ilpm_cp_ivec_push(out, -x->cond) != 0)
        return -1;
    int le = kind == ILPM_K_R_LE || kind == ILPM_K_R_CLE;
    int64_t need = le ? x->k : x->total - x->k;
    if (p && kind <= ILPM_K_R_GE) {
        int64_t aj = 0;
        for (int i = 0; i < x->n; i++)
            if (lits[i] == (le ? -p : p) && a[i] > aj)
                aj = a[i];
        need -= aj;
    }
    /* <=: true literals with more than need; >=: false ones, each as
     * its trail place and term number. */
    cp_db *db = e->db;
    int nk = 0;
    for (int i = 0; i < x->n; i++) {
        int l = lits[i];
        if (ilpm_klval(e->val, l) != (le ? ILPM_K_TRUE : ILPM_K_FALSE) ||
            e->tpos[abs(l)] >= limit)
            continue;
        if (nk == db->capkeys && ilpm_grow_int((void **)&db->keys, &db->capkeys,
                                               nk + 1, sizeof *db->keys) != 0)
            return -1;
        db->keys[nk++] = (int64_t)e->tpos[abs(l)] << 32 | (uint32_t)i;
    }
    int64_t sum;
    int m = earliest(db->keys, nk, a, need, &sum);
    for (int j = 0; j < m; j++)
        if (db->keys[j] >= 0 &&
            ilpm_cp_ivec_push(out, le ? -lits[(uint32_t)db->keys[j]]
                                      : lits[(uint32_t)db->keys[j]]) != 0)
            return -1;
    return 0;
}

int ilpm_cp_db_init(cp_db *db, int nv)
{
    memset(db, 0, sizeof *db);
    db->watch = calloc(2 * (size_t)nv + 2, sizeof *db->watch);
    db->seen = calloc((size_t)nv + 1, 1);
    db->stamp = calloc((size_t)nv + 2, sizeof *db->stamp);
    db->inc = 1;
    db->nv = nv;
    db->max_learnt = 2000;
    return db->watch && db->seen && db->stamp ? 0 : -1;
}

static void free_watches(cp_db *db, int nv)
{
    for (size_t i = 0; db->watch && i < 2 * (size_t)nv + 2; i++) {
        free(db->watch[i].v);
        db->watch[i].v = NULL;
        db->watch[i].n = db->watch[i].cap = 0;
    }
}

/* Empties the watch lists, keeping their room for the clauses watched
 * again (a reduction freed and grew them again: a tenth of the search's
 * time on the 55x55 nonogram's 150,000 lists). */
static void clear_watches(cp_db *db, int nv)
{
    for (size_t i = 0; db->watch && i < 2 * (size_t)nv + 2; i++)
        db->watch[i].n = 0;
}

void ilpm_cp_db_free(cp_db *db)
{
    free_watches(db, db->nv);
    free(db->lits);
    free(db->cl);
    free(db->units.v);
    free(db->confl.v);
    free(db->out.v);
    free(db->buf.v);
    free(db->keys);
    free(db->seen);
    free(db->stamp);
    free(db->watch);
    memset(db, 0, sizeof *db);
}

/* A watch is two ints: the clause and a literal of it (the blocker)
 * whose truth spares looking at the clause. */
static int watch(cp_db *db, int l, int cid, int blocker)
{
    cp_ivec *w = &db->watch[ilpm_klix(l)];
    return ilpm_cp_ivec_push(w, cid) != 0 || ilpm_cp_ivec_push(w, blocker) != 0
               ? -1
               : 0;
}

int ilpm_cp_db_propagate(ilpm_kern *e, int l)
{
    cp_db *db = e->db;
    cp_ivec *ws = &db->watch[ilpm_klix(-l)];
    int i = 0, j = 0;
    while (i < ws->n) {
        int cid = ws->v[i], blocker = ws->v[i + 1];
        i += 2;
        if (ilpm_klval(e->val, blocker) == ILPM_K_TRUE) {
            ws->v[j++] = cid;
            ws->v[j++] = blocker;
            continue;
        }
        cp_clause *c = &db->cl[cid];
        int *cl = db->lits + c->start;
        if (cl[0] == -l) {
            cl[0] = cl[1];
            cl[1] = -l;
        }
        if (ilpm_klval(e->val, cl[0]) == ILPM_K_TRUE) {
            ws->v[j++] = cid;
            ws->v[j++] = cl[0];
            continue;
        }
        int k = 2;
        while (k < c->n && ilpm_klval(e->val, cl[k]) == ILPM_K_FALSE)
            k++;
        if (k < c->n) {
            cl[1] = cl[k];
            cl[k] = -l;
            if (watch(db, cl[1], cid, cl[0]) == 0)
                continue;
            cl[k] = cl[1]; /* no memory: stay watched here, still sound */
            cl[1] = -l;
        }
        ws->v[j++] = cid;
        ws->v[j++] = cl[0];
        if (ilpm_klval(e->val, cl[0]) == ILPM_K_FALSE) {
            e->conf = -2 - cid;
            while (i < ws->n)
                ws->v[j++] = ws->v[i++];
            ws->n = j;
            return -1;
        }
        ilpm_kern_imply(e, cl[0], -2 - cid);
    }
    ws->n = j;
    return 0;
}

static void bump_clause(cp_db *db, int cid)
{
    cp_clause *c = &db->cl[cid];
    if ((c->act += db->inc) > 1e20f) {
        for (int i = 0; i < db->ncl; i++)
            db->cl[i].act *= 1e-20f;
        db->inc *= 1e-20f;
    }
}

/* A literal of the learned clause is redundant when its reason's other
 * literals are in the clause already or fixed at level 0. */
static int redundant(ilpm_kern *e, int q)
{
    int v = abs(q);
    if (e->reason[v] == ILPM_K_DECIDED)
        return 0;
    cp_db *db = e->db;
    if (ilpm_cp_explain(e, e->reason[v], -q, &db->buf) != 0)
        return 0;
    for (int i = 1; i < db->buf.n; i++) {
        int u = abs(db->buf.v[i]);
        if (!db->seen[u] && e->level[u] > 0)
            return 0;
    }
    return 1;
}

int ilpm_cp_analyze(ilpm_kern *e, int *lbd)
{
    cp_db *db = e->db;
    cp_ivec *out = &db->out;
    out->n = 0;
    if (ilpm_cp_ivec_push(out, 0) != 0)
        return -1;
    int path = 0, p = 0, idx = e->ntrail - 1;
    cp_ivec *cur = &db->confl;
    for (;;) {
        for (int i = p ? 1 : 0; i < cur->n; i++) {
            int q = cur->v[i], v = abs(q);
            if (db->seen[v] || e->level[v] == 0)
                continue;
            db->seen[v] = 1;
            if (e->heap)
                cp_heap_bump(e->heap, v);
            if (e->level[v] >= e->lvl)
                path++;
            else if (ilpm_cp_ivec_push(out, q) != 0)
                return -1;
        }
        while (!db->seen[abs(e->trail[idx])])
            idx--;
        p = e->trail[idx--];
        db->seen[abs(p)] = 0;
        if (--path <= 0)
            break;
        int r = e->reason[abs(p)];
        if (r <= -2)
            bump_clause(db, -2 - r);
        else if (r >= 0 && !e->cons[r / 4].unit)
            db->weighted = 1;
        if (ilpm_cp_explain(e, r, p, &db->buf) != 0)
            return -1;
        cur = &db->buf;
    }
    out->v[0] = -p;
    return ilpm_cp_conclude(e, lbd);
}

int ilpm_cp_conclude(ilpm_kern *e, int *lbd)
{
    cp_db *db = e->db;
    cp_ivec *out = &db->out;
    /* Minimise, then forget what was seen. */
    cp_ivec *all = &db->confl; /* done with: what to unmark */
    all->n = 0;
    for (int i = 1; i < out->n; i++)
        if (ilpm_cp_ivec_push(all, out->v[i]) != 0)
            return -1;
    int n = 1;
    for (int i = 1; i < out->n; i++)
        if (!redundant(e, out->v[i]))
            out->v[n++] = out->v[i];
    for (int i = 0; i < all->n; i++)
        db->seen[abs(all->v[i])] = 0;
    out->n = n;
    int bj = 0, at = 1;
    db->stamp_now++;
    int count = 0;
    for (int i = 0; i < n; i++) {
        int lv = e->level[abs(out->v[i])];
        if (i > 0 && lv > bj) {
            bj = lv;
            at = i;
        }
        if (db->stamp[lv] != db->stamp_now) {
            db->stamp[lv] = db->stamp_now;
            count++;
        }
    }
    if (n > 1) {
        int t = out->v[1];
        out->v[1] = out->v[at];
        out->v[at] = t;
    }
    *lbd = count;
    db->inc *= 1.001f;
    return bj;
}

int ilpm_cp_db_add(ilpm_kern *e, int lbd)
{
    cp_db *db = e->db;
    const cp_ivec *out = &db->out;
    if (db->ncl == db->capcl) {
        int cap = db->capcl ? 2 * db->capcl : 1024;
        cp_clause *v = realloc(db->cl, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        db->cl = v;
        db->capcl = cap;
    }
    if (db->nlits + (size_t)out->n > db->caplits) {
        size_t cap = db->caplits ? 2 * db->caplits : 16384;
        while (cap < db->nlits + (size_t)out->n)
            cap *= 2;
        int *v = realloc(db->lits, cap * sizeof *v);
        if (!v)
            return -1;
        db->lits = v;
        db->caplits = cap;
    }
    int cid = db->ncl;
    cp_clause *c = &db->cl[cid];
    c->start = db->nlits;
    c->n = out->n;
    c->lbd = lbd;
    c->act = db->inc;
    memcpy(db->lits + c->start, out->v, (size_t)out->n * sizeof *out->v);
    db->nlits += (size_t)out->n;
    db->ncl++;
    if (out->n == 1)
        return ilpm_cp_ivec_push(&db->units, cid) != 0 ? -1 : cid;
    if (watch(db, out->v[0], cid, out->v[1]) != 0 ||
        watch(db, out->v[1], cid, out->v[0]) != 0)
        return -1;
    return cid;
}

/* Clause cid is the reason of its first literal now. */
static int locked(const ilpm_kern *e, int cid)
{
    const cp_db *db = e->db;
    const cp_clause *c = &db->cl[cid];
    int l = db->lits[c->start], v = abs(l);
    return ilpm_klval(e->val, l) == ILPM_K_TRUE && e->reason[v] == -2 - cid;
}

static const cp_clause *sort_base;

/* Worst first: larger LBD, then lower activity. */
static int worse(const void *x, const void *y)
{
    const cp_clause *p = &sort_base[*(const int *)x],
                    *q = &sort_base[*(const int *)y];
    if (p->lbd != q->lbd)
        return q->lbd - p->lbd;
    return (p->act > q->act) - (p->act < q->act);
}

int ilpm_cp_db_reduce(ilpm_kern *e)
{
    cp_db *db = e->db;
    int *idx = malloc(((size_t)db->ncl + 1) * sizeof *idx);
    int *map = malloc(((size_t)db->ncl + 1) * sizeof *map);
    int *lits = malloc((db->nlits + 1) * sizeof *lits);
    if (!idx || !map || !lits) {
        free(idx);
        free(map);
        free(lits);
        return -1;
    }
    int m = 0;
    for (int i = 0; i < db->ncl; i++) {
        map[i] = 0;
        if (db->cl[i].n > 1 && db->cl[i].lbd > 2 && !locked(e, i))
            idx[m++] = i;
    }
    sort_base = db->cl;
    qsort(idx, (size_t)m, sizeof *idx, worse);
    for (int i = 0; i < m / 2; i++)
        map[idx[i]] = -1;
    /* Compact, renumber the reasons on the trail, watch again. */
    int n = 0;
    size_t nl = 0;
    db->units.n = 0;
    for (int i = 0; i < db->ncl; i++) {
        if (map[i] < 0)
            continue;
        cp_clause c = db->cl[i];
        memcpy(lits + nl, db->lits + c.start, (size_t)c.n * sizeof *lits);
        c.start = nl;
        nl += (size_t)c.n;
        map[i] = n;
        db->cl[n++] = c;
    }
    free(db->lits);
    db->lits = lits;
    db->nlits = nl;
    db->caplits = nl + 1;
    db->ncl = n;
    for (int i = 0; i < e->ntrail; i++) {
        int v = abs(e->trail[i]);
        if (e->reason[v] <= -2)
            e->reason[v] = -2 - map[-2 - e->reason[v]];
    }
    clear_watches(db, e->nv);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const int *l = db->lits + db->cl[i].start;
        if (db->cl[i].n == 1)
            rc = ilpm_cp_ivec_push(&db->units, i);
        else
            rc = watch(db, l[0], i, l[1]) != 0 || watch(db, l[1], i, l[0]) != 0
                     ? -1
                     : 0;
    }
    free(idx);
    free(map);
    return rc;
}

/* The activity heap: a binary max-heap over the variables. */
int ilpm_cp_heap_init(cp_heap *h, int nv)
{
    memset(h, 0, sizeof *h);
    h->h = malloc(((size_t)nv + 1) * sizeof *h->h);
    h->pos = malloc(((size_t)nv + 1) * sizeof *h->pos);
    h->act = calloc((size_t)nv + 1, sizeof *h->act);
    h->inc = 1;
    h->nv = nv;
    if (!h->h || !h->pos || !h->act)
        return -1;
    for (int v = 0; v <= nv; v++)
        h->pos[v] = -1;
    return 0;
}

void ilpm_cp_heap_free(cp_heap *h)
{
    free(h->h);
    free(h->pos);
    free(h->act);
    memset(h, 0, sizeof *h);
}

static void up(cp_heap *h, int i)
{
    int v = h->h[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h->act[h->h[p]] >= h->act[v])
            break;
        h->h[i] = h->h[p];
        h->pos[h->h[i]] = i;
        i = p;
    }
    h->h[i] = v;
    h->pos[v] = i;
}

static void down(cp_heap *h, int i)
{
    int v = h->h[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->act[h->h[c + 1]] > h->act[h->h[c]])
            c++;
        if (h->act[h->h[c]] <= h->act[v])
            break;
        h->h[i] = h->h[c];
        h->pos[h->h[i]] = i;
        i = c;
    }
    h->h[i] = v;
    h->pos[v] = i;
}

void ilpm_cp_heap_insert(void *heap, int v)
{
    cp_heap *h = heap;
    if (h->pos[v] >= 0)
        return;
    h->h[h->n] = v;
    h->pos[v] = h->n++;
    up(h, h->n - 1);
}

static void cp_heap_bump(cp_heap *h, int v)
{
    if ((h->act[v] += h->inc) > 1e100) {
        /* the heap's order stays as it was when all shrink alike */
        for (int u = 1; u <= h->nv; u++)
            h->act[u] *= 1e-100;
        h->inc *= 1e-100;
    }
    if (h->pos[v] >= 0)
        up(h, h->pos[v]);
}

int ilpm_cp_heap_pop_open(cp_heap *h, const uint8_t *val)
{
    while (h->n > 0) {
        int v = h->h[0];
        h->pos[v] = -1;
        if (--h->n > 0) {
            h->h[0] = h->h[h->n];
            down(h, 0);
        }
        if (val[v] == ILPM_K_OPEN)
            return v;
    }
    return 0;
}
