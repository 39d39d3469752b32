/* The propagation kernel (kernel.h) built from a model: in two passes,
 * as a compressed sparse row is, each literal's occurrences counted
 * first, so that the arrays and the lists' room in the arena are made
 * once at their size; then the constraints loaded into them.  The
 * arrays that only a search reads come later, when it asks for them. */
#include "kernel.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Counts c's terms, as ilpm_kern_add_con adds them (the linear rows'
 * coefficients alone are read, and a zero one drops its term), in the
 * records of the lists they will join (occ[].n, zeroed: place turns the
 * counts into rooms in place, so that no array of counts is written
 * first and freed, 0.8 GB at n-Queens 10,000); its condition into
 * cocc's count likewise, which it makes at the first one.  The number
 * of terms; -1 when out of memory. */
static inline void count_one(ilpm_kern *e, int l)
{
    ilpm_klist *p = &e->occ[ilpm_kidx(e, l)];
    p->n = (int32_t)((uint32_t)p->n + 1); /* (checked against the total) */
    e->neg_unplaced &= l > 0;
}

static long count_terms(ilpm_kern *e, const ilpm_con *c, int lits)
{
    long n = 0;
    if (!lits) {
        n = c->n; /* (its literals counted later, count_by) */
    } else if (c->kind == ILPM_LINEAR) {
        for (int i = 0; i < c->n; i++) {
            int64_t a = c->coefs[i];
            if (a != 0) {
                count_one(e, a < 0 ? -c->lits[i] : c->lits[i]);
                n++;
            }
        }
    } else {
        int neg0 = c->kind == ILPM_IMPL; /* -lits[0], not lits[0] */
        for (int i = 0; i < c->n; i++)
            count_one(e, i == 0 && neg0 ? -c->lits[0] : c->lits[i]);
        n = c->n;
    }
    if (c->kind == ILPM_CCARD && c->cond) {
        if (!e->cocc &&
            !(e->cocc = calloc(2 * (size_t)e->nv + 2, sizeof *e->cocc)))
            return -1;
        e->cocc[ilpm_kidx(e, c->cond)].n++;
    }
    return n;
}

#define NOMEM "out of memory building the propagation kernel"

size_t ilpm_kern_huge_min = (size_t)1 << 30;

/* The lists' records and the arena, read at random by the build and by
 * every propagation (a column of n-Queens: n variables apart, a TLB miss
 * a term on small pages), ask for huge pages from ilpm_kern_huge_min on,
 * before their first write.  Below it their huge pages cost more system
 * time than they save on a host that takes free memory back (n-Queens
 * 5000, 0.8 GB: docs/benchmarks.md, "fifth pass"); at 10,000 (1.6 and
 * 3.2 GB) they halve the search ("seventh pass"). */
static void huge_if_large(void *p, size_t size)
{
    if (size >= ilpm_kern_huge_min)
        ilpm_mem_huge(p, size);
}

/* Gives each list of the n in ls its room in the pool from *at on (up
 * to the next list's place): the count in its n, polling w (a model of
 * millions of literals: a page fault every 512 records); -1 with err
 * when w says stop. */
static int place(ilpm_klist *ls, size_t n, uint32_t *at, ilpm_watch *w,
                 ilpm_err *err)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t room = (uint32_t)ls[i].n;
        ls[i].at = *at;
        ls[i].n = 0;
        *at += room;
        if ((i & 4095) == 4095 && w &&
            ilpm_watch_poll(w, "building the propagation kernel", err))
            return -1;
    }
    return 0;
}

/* The lists' records, nl of them, zeroed for the counts: by calloc,
 * which for a large block takes the system's fresh pages, zero, without
 * writing them, so that the records no term counts (the negative half,
 * in a model without negative terms: neg_unplaced) are never written
 * (0.8 GB at n-Queens 10,000); -1 with err when out of memory. */
static int make_lists(ilpm_kern *e, size_t nl, ilpm_err *err)
{
    e->occ = calloc(nl, sizeof *e->occ);
    if (!e->occ)
        return ilpm_err_nomem(err, NOMEM);
    huge_if_large(e->occ, nl * sizeof *e->occ);
    e->neg_unplaced = 1; /* (until a negative term is counted) */
    return 0;
}

/* The kernel's arrays, as large as the model's constraints need; their
 * occurrence lists share one block, the arena: one allocation and one
 * free for any number of literals. */
static int make_arrays(ilpm_kern *e, const size_t *t, const int *lend)
{
    size_t nterms = t[0], nconds = t[1];
    size_t nv = (size_t)e->nv + 1, nt = nterms + 1, nc = t[2] + 1;
    struct {
        void **p;
        size_t n, elem;
        int zero;
    } part[] = {
        {(void **)&e->pool, nterms + nconds, sizeof *e->pool, 0},
        {(void **)&e->cons, nc, sizeof *e->cons, 0},
        {(void **)&e->coefs, t[3] + 1, sizeof *e->coefs, 0},
        {(void **)&e->lits, nt, sizeof *e->lits, 0},
        {(void **)&e->lazy, nc, sizeof *e->lazy, 0},
        {(void **)&e->trail, nv, sizeof *e->trail, 0},
        {(void **)&e->dirty, nc, 1, 1},
        {(void **)&e->val, nv, 1, 0}, /* zeroed below */
    };
    /* The occurrences share one block, the arena; each other array is a
     * block of its own, as glibc recycles blocks of these sizes best. */
    size_t np = sizeof part / sizeof *part;
    for (size_t i = 0; i < np; i++) {
        int pool = part[i].p == (void **)&e->pool;
        if (lend && part[i].p == (void **)&e->lits) {
            e->lits = (int *)lend; /* read only, as e->lent says */
            e->lent = lend;
            continue;
        }
        size_t n = part[i].n ? part[i].n : 1;
        *part[i].p =
            part[i].zero ? calloc(n, part[i].elem) : malloc(n * part[i].elem);
        if (!*part[i].p)
            return -1;
        if (pool) {
            e->arena = e->pool;
            e->narena = part[i].n * part[i].elem;
            huge_if_large(e->pool, e->narena);
        }
    }
    /* The occurrences' coefficients, when a weighted row may need them
     * (kernel.h: a kernel of unit rows keeps none) */
    size_t na = nterms + nconds ? nterms + nconds : 1;
    if (t[3] && !(e->pa = malloc(na * sizeof *e->pa)))
        return -1;
    if (e->pa)
        huge_if_large(e->pa, na * sizeof *e->pa);
    /* The values, read at random by every row that propagation visits
     * (a byte a variable: 25 MB at n-Queens 5000), ask for huge pages,
     * whose first write costs little at that size; the bigger arrays'
     * huge pages cost more system time than they save on a machine
     * whose host takes free memory back (docs/benchmarks.md, "fifth
     * pass").  Marked before their first write, as a block that malloc
     * recycles may be written by calloc. */
    ilpm_mem_huge(e->val, nv);
    memset(e->val, 0, nv);
    e->capcons = (int)nc;
    e->caplits = lend ? nterms : nt;
    e->capcoefs = t[3] + 1;
    return ilpm_kern_ones(e, t[4]);
}

/* Each of the model's constraints of the given kinds to fn (non-zero:
 * out of memory), polling w: 0, or -1 with err (w's status, or out of
 * memory). */
static int each_con(ilpm_kern *e, const ilpm_model *m, unsigned kinds,
                    ilpm_watch *w, ilpm_err *err,
                    int (*fn)(ilpm_kern *e, const ilpm_con *c, void *ctx),
                    void *ctx)
{
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (!(kinds & (1u << c.kind)))
            continue;
        if (w && ilpm_watch_poll(w, "building the propagation kernel", err))
            return -1;
        if (fn(e, &c, ctx) != 0)
            return ilpm_err_nomem(err, NOMEM);
    }
    return 0;
}

/* A long unit row whose literals ascend, counted after the others, by
 * blocks (count_by). */
struct later {
    const int *l;
    uint32_t n, i; /* its terms, the next one to count */
};

/* The count pass's totals: terms, conditions, constraints, weighted
 * terms, longest; each literal's count of terms; and the model's
 * literals, when each constraint's lie right after the last one's, as
 * the kernel would copy them (no weighted row, no implication: its
 * first literal negated), so that the kernel reads them there (lent),
 * else NULL. */
struct counts {
    size_t t[5];
    const int *lend;
    int sorted;         /* each row's literals ascending by kidx (scatter) */
    struct later *rows; /* long unit rows, ascending, counted by blocks */
    size_t nrows, caprows;
};

/* Whether c's literals, as the kernel keeps them, ascend by kidx. */
static int ascends(const ilpm_kern *e, const ilpm_con *c)
{
    size_t last = 0;
    for (int i = 0; i < c->n; i++) {
        int l = i == 0 && c->kind == ILPM_IMPL ? -c->lits[0] : c->lits[i];
        if (ilpm_kidx(e, l) < last)
            return 0;
        last = ilpm_kidx(e, l);
    }
    return 1;
}

static int count(ilpm_kern *e, const ilpm_con *c, void *ctx)
{
    struct counts *k = ctx;
    size_t *t = k->t;
    if (t[2] == 0)
        k->lend = c->lits;
    /* (once NULL, no arithmetic on it: undefined behaviour) */
    if (k->lend && (c->kind == ILPM_LINEAR || c->kind == ILPM_IMPL ||
                    c->lits != k->lend + t[0]))
        k->lend = NULL;
    /* A long unit row is counted after, by blocks (count_by, which also
     * sees whether its literals ascend) */
    int defer = c->kind != ILPM_LINEAR && c->kind != ILPM_IMPL && c->n >= 64;
    if (!defer && k->sorted)
        k->sorted = c->kind != ILPM_LINEAR && ascends(e, c);
    if (defer && k->nrows == k->caprows) {
        size_t cap = k->caprows ? 2 * k->caprows : 1024;
        struct later *r = realloc(k->rows, cap * sizeof *r);
        if (!r)
            return -1;
        k->rows = r;
        k->caprows = cap;
    }
    if (defer)
        k->rows[k->nrows++] = (struct later){c->lits, (uint32_t)c->n, 0};
    long n = count_terms(e, c, !defer);
    if (n < 0)
        return -1;
    t[0] += (size_t)n;
    t[1] += c->kind == ILPM_CCARD && c->cond;
    t[2]++;
    t[3] += c->kind == ILPM_LINEAR ? (size_t)n : 0;
    t[4] = (size_t)n > t[4] ? (size_t)n : t[4];
    return 0;
}

/* Appends (c, a) to list p, whose room was counted (a kept when the
 * kernel keeps coefficients, pa). */
static inline void put(ilpm_kern *e, ilpm_klist *p, int c, int32_t a)
{
    if (e->pa)
        e->pa[p->at + (uint32_t)p->n] = a;
    e->pool[p->at + (uint32_t)p->n++].c = c;
}

/* Loads model constraint c: a weighted row through ilpm_kern_add (its
 * terms sorted), any other kind straight into the room counted for it,
 * all coefficients 1 and nothing assigned yet, so without the checks,
 * the copies and the weights that ilpm_kern_add spends on each term. */
static int load(ilpm_kern *e, const ilpm_con *c, void *ctx)
{
    int later = ctx != NULL; /* the occurrences: scatter, after */
    if (c->kind == ILPM_LINEAR)
        return ilpm_kern_add_con(e, c) < 0 ? -1 : 0;
    /* as ilpm_kern_add_con reads each kind */
    int card = c->kind == ILPM_CARD || c->kind == ILPM_CCARD;
    ilpm_cmp cmp = ILPM_GE; /* clause, at-least-one, implication */
    if (card)
        cmp = c->cmp;
    else if (c->kind == ILPM_AMO)
        cmp = ILPM_LE;
    else if (c->kind == ILPM_EXO)
        cmp = ILPM_EQ;
    int64_t k = card ? c->rhs : 1;
    int cond = c->kind == ILPM_CCARD ? c->cond : 0;
    int neg0 = c->kind == ILPM_IMPL; /* a -> b is the clause (-a | b) */
    int n = c->n, num = e->ncons;
    int *ol = e->lent ? NULL : e->lits + e->nlits;
    ilpm_klist *occ = e->occ;
    for (int i = 0; i < n && (ol || !later); i++) {
        int l = i == 0 && neg0 ? -c->lits[0] : c->lits[i];
        if (ol)
            ol[i] = l;
        if (!later)
            put(e, &occ[ilpm_kidx(e, l)], num, 1);
    }
    if (cond)
        put(e, &e->cocc[ilpm_kidx(e, cond)], num, 0);
    ilpm_kern_record(e, num, n, cmp, 1, cond, k, n);
    return 0;
}

/* The watch looked at after a block of the count or the scatter (tens
 * of milliseconds at n-Queens 10,000, some 50 of them): the clock read
 * each time, as ilpm_watch_poll, which reads it every 256th call, would
 * not within the blocks of one build (the time limit came 0.8 s late).
 * 0, or -1 with err. */
static int block_watch(ilpm_watch *w, ilpm_err *err)
{
    if (!w)
        return 0;
    ilpm_watch_check(w); /* (its status, if any, made an error below) */
    return ilpm_watch_poll(w, "building the propagation kernel", err);
}

/* Counts the long rows' terms that count() set aside, a block of
 * ilpm_kern_scatter_block records at a time (their sum does not depend
 * on the order; within a block the increments stay in cache; the last
 * block takes what is left of a row out of order, which clears
 * k->sorted), then frees them: 0, or -1 with err when w says stop. */
static int count_by(ilpm_kern *e, struct counts *k, size_t nl, ilpm_watch *w,
                    ilpm_err *err)
{
    int rc = 0;
    size_t step = ilpm_kern_scatter_block;
    for (size_t hi = step; rc == 0 && k->nrows && hi - step < nl; hi += step) {
        for (size_t r = 0; r < k->nrows; r++) {
            struct later *x = &k->rows[r];
            if (r + 4 < k->nrows) /* (a row's cursor: a miss each) */
                __builtin_prefetch(x[4].l + x[4].i);
            uint32_t i = x->i;
            size_t last = i ? ilpm_kidx(e, x->l[i - 1]) : 0, q;
            int down = 0;
            for (; i < x->n && (q = ilpm_kidx(e, x->l[i])) < hi; i++) {
                down |= q < last;
                e->neg_unplaced &= x->l[i] > 0;
                last = q;
                e->occ[q].n = (int32_t)((uint32_t)e->occ[q].n + 1);
            }
            k->sorted &= !down;
            x->i = i;
        }
        if (block_watch(w, err))
            rc = -1;
    }
    free(k->rows);
    k->rows = NULL;
    return rc;
}

size_t ilpm_kern_scatter_min = (size_t)1 << 24;
size_t ilpm_kern_scatter_block = (size_t)1 << 22;
_Thread_local uint64_t ilpm_kern_scattered;

/* The occurrences of e's rows (unit, their literals ascending by kidx)
 * put into their lists a block of ilpm_kern_scatter_block records at a
 * time: each row from where the last block left it, in the rows' order,
 * so that each list is what the rows' order would make it, while the
 * writes stay within one block of records and of the pool (a column of
 * n-Queens loaded row after row writes n variables apart: a cache and
 * TLB miss a term).  0, or -1 with err (out of memory, or w says stop). */
static int scatter(ilpm_kern *e, size_t nl, ilpm_watch *w, ilpm_err *err)
{
    size_t nc = (size_t)e->ncons, step = ilpm_kern_scatter_block;
    uint32_t *cur = calloc(nc ? nc : 1, sizeof *cur);
    if (!cur)
        return ilpm_err_nomem(err, NOMEM);
    ilpm_kern_scattered++;
    for (size_t hi = step; hi - step < nl; hi += step) {
        for (size_t c = 0; c < nc; c++) {
            const ilpm_kcon *x = &e->cons[c];
            if (c + 4 < nc) /* (a row's cursor: a miss each) */
                __builtin_prefetch(e->lits + x[4].start + cur[c + 4]);
            const int *l = e->lits + x->start;
            uint32_t i = cur[c], n = (uint32_t)x->n;
            for (; i < n && ilpm_kidx(e, l[i]) < hi; i++)
                put(e, &e->occ[ilpm_kidx(e, l[i])], (int)c, 1);
            cur[c] = i;
        }
        if (block_watch(w, err)) {
            free(cur);
            return -1;
        }
    }
    free(cur);
    return 0;
}

_Thread_local uint64_t ilpm_kern_built;

int ilpm_kern_init(ilpm_kern *e, const ilpm_model *m, unsigned kinds,
                   ilpm_watch *w, ilpm_err *err)
{
    ilpm_kern_built++;
    memset(e, 0, sizeof *e);
    e->nv = ilpm_model_nvars(m);
    /* Two passes, as a compressed sparse row is built: each literal's
     * occurrences (the room of its list) and the totals, which size the
     * arrays; then the constraints themselves. */
    size_t nl = 2 * (size_t)e->nv + 2;
    struct counts k = {{0, 0, 0, 0, 0}, NULL, 1, NULL, 0, 0};
    size_t *t = k.t;
    int rc = make_lists(e, nl, err);
    if (rc == 0)
        rc = each_con(e, m, kinds, w, err, count, &k);
    if (rc == 0)
        rc = count_by(e, &k, nl, w, err);
    free(k.rows); /* (set aside before a stop) */
    if (kinds != ILPM_KERN_ALL_KINDS)
        k.lend = NULL; /* (kernel.h: only a kernel of every kind borrows) */
    /* (the pool's places are 31 bits: ILPM_KMOVED marks the others) */
    if (rc == 0 && (t[2] >= INT32_MAX || t[0] + t[1] >= INT32_MAX ||
                    make_arrays(e, t, k.lend) != 0))
        rc = ilpm_err_nomem(err, NOMEM);
    /* the lists' records, their room as counted (a literal's terms are
     * fewer than the constraints, fewer than INT32_MAX) */
    uint32_t at = 0;
    size_t npos = e->neg_unplaced ? (size_t)e->nv + 1 : nl;
    e->neg_none = e->neg_unplaced; /* (a weighted row pushes, below) */
    if (rc == 0)
        rc = place(e->occ, npos, &at, w, err);
    e->occ_end = at;
    if (rc == 0 && e->cocc)
        rc = place(e->cocc, nl, &at, w, err);
    e->cocc_end = e->cocc ? at : 0;
    /* Rows long on average (a list of cursors, 4 bytes a row) and many
     * terms: their occurrences by blocks, after the rows. */
    int later = k.sorted && t[0] >= ilpm_kern_scatter_min && t[2] <= t[0] / 16;
    if (rc == 0)
        rc = each_con(e, m, kinds, w, err, load, later ? &k : NULL);
    if (rc == 0 && later)
        rc = scatter(e, nl, w, err);
    if (rc != 0) {
        ilpm_kern_free(e);
        return -1;
    }
    return 0;
}

int ilpm_kern_keep_phases(ilpm_kern *e)
{
    if (!e->phase)
        e->phase = calloc((size_t)e->nv + 1, 1);
    return e->phase ? 0 : -1;
}

int ilpm_kern_keep_reasons(ilpm_kern *e)
{
    if (e->reason)
        return 0;
    size_t nv = (size_t)e->nv + 1;
    e->reason = malloc(nv * sizeof *e->reason);
    e->level = calloc(nv, sizeof *e->level);
    e->tpos = calloc(nv, sizeof *e->tpos);
    if (!e->reason || !e->level || !e->tpos || ilpm_kern_keep_phases(e)) {
        free(e->reason);
        free(e->level);
        free(e->tpos);
        e->reason = e->level = e->tpos = NULL;
        return -1;
    }
    /* What the trail holds already is the model's, at level 0. */
    for (int t = 0; t < e->ntrail; t++) {
        int v = abs(e->trail[t]);
        e->reason[v] = ILPM_K_DECIDED;
        e->tpos[v] = t;
    }
    return 0;
}
