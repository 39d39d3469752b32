/* cp_hall.c: alldifferent's Hall sets on the model's matching groups
 * (cp.h, --cp-alldiff): a maximum matching kept per group, repaired
 * where the trail took its edges away, Régin's rule for the edges no
 * maximum matching uses, and each removal explained by its Hall set. */
#include "cp.h"

#include <stdlib.h>
#include <string.h>

static int edge(const ilpm_kern *e, const cp_hgroup *g, int i, int j)
{
    return ilpm_klval(e->val, g->x[(size_t)i * (size_t)g->nvals + (size_t)j]) !=
           ILPM_K_FALSE;
}

void ilpm_cp_hall_free(cp_hall *h)
{
    if (!h)
        return;
    for (int i = 0; h->g && i < h->ng; i++) {
        free(h->g[i].mc);
        free(h->g[i].mv);
    }
    free(h->g);
    free(h->vstart);
    free(h->vgrp);
    free(h->dirty);
    free(h->queue);
    free(h->adj);
    free(h->pairs);
    int **scratch[] = {&h->deg,  &h->stk, &h->pos, &h->via,  &h->vis, &h->inr,
                       &h->comp, &h->low, &h->num, &h->tstk, &h->bfs};
    for (size_t i = 0; i < sizeof scratch / sizeof *scratch; i++)
        free(*scratch[i]);
    free(h);
}

/* The groups' variables, each variable's groups (vstart, vgrp) and the
 * matchings, all unmatched; -1 out of memory. */
static int hall_groups(cp_hall *h, const ilpm_model *m, int nv, size_t *cells)
{
    for (int i = 0; i < h->ng; i++) {
        cp_hgroup *g = &h->g[i];
        g->x = ilpm_model_matching_get(m, i, &g->nc, &g->nvals);
        g->mc = malloc((size_t)g->nc * sizeof *g->mc);
        g->mv = malloc((size_t)g->nvals * sizeof *g->mv);
        if (!g->mc || !g->mv)
            return -1;
        memset(g->mc, -1, (size_t)g->nc * sizeof *g->mc);
        memset(g->mv, -1, (size_t)g->nvals * sizeof *g->mv);
        h->max = g->nvals > h->max ? g->nvals : h->max;
        size_t n = (size_t)g->nc * (size_t)g->nvals;
        *cells = n > *cells ? n : *cells;
        for (size_t k = 0; k < n; k++)
            if (g->x[k] <= nv)
                h->vstart[g->x[k] + 1]++;
    }
    for (int v = 0; v <= nv; v++)
        h->vstart[v + 1] += h->vstart[v];
    int *at = malloc(((size_t)nv + 2) * sizeof *at);
    h->vgrp = malloc(((size_t)h->vstart[nv + 1] + 1) * sizeof *h->vgrp);
    if (!at || !h->vgrp) {
        free(at);
        return -1;
    }
    memcpy(at, h->vstart, ((size_t)nv + 2) * sizeof *at);
    for (int i = 0; i < h->ng; i++) {
        const cp_hgroup *g = &h->g[i];
        size_t n = (size_t)g->nc * (size_t)g->nvals;
        for (size_t k = 0; k < n; k++)
            if (g->x[k] <= nv)
                h->vgrp[at[g->x[k]]++] = i;
    }
    free(at);
    return 0;
}

cp_hall *ilpm_cp_hall_new(const ilpm_model *m, int nv, int *nomem)
{
    *nomem = 0;
    int ng = ilpm_model_nmatchings(m);
    if (ng == 0)
        return NULL;
    cp_hall *h = calloc(1, sizeof *h);
    if (h) {
        h->ng = ng;
        h->g = calloc((size_t)ng, sizeof *h->g);
        h->vstart = calloc((size_t)nv + 2, sizeof *h->vstart);
        h->dirty = calloc((size_t)ng, 1);
        h->queue = malloc((size_t)ng * sizeof *h->queue);
    }
    size_t cells = 0;
    int ok = h && h->g && h->vstart && h->dirty && h->queue &&
             hall_groups(h, m, nv, &cells) == 0;
    if (ok) {
        size_t n = (size_t)h->max + 1;
        h->adj = malloc(cells * sizeof *h->adj);
        h->pairs = malloc(cells * sizeof *h->pairs);
        int **scratch[] = {&h->deg, &h->stk,  &h->pos,  &h->via,
                           &h->vis, &h->inr,  &h->comp, &h->low,
                           &h->num, &h->tstk, &h->bfs};
        for (size_t i = 0; i < sizeof scratch / sizeof *scratch; i++)
            ok &= (*scratch[i] = calloc(n, sizeof(int))) != NULL;
        ok &= h->adj && h->pairs;
    }
    if (!ok) {
        ilpm_cp_hall_free(h);
        *nomem = 1;
        return NULL;
    }
    return h;
}

void ilpm_cp_hall_start(cp_hall *h, const ilpm_kern *e)
{
    h->nq = 0;
    for (int i = 0; i < h->ng; i++) {
        h->dirty[i] = 1;
        h->queue[h->nq++] = i;
    }
    h->checked = e->ntrail;
}

static void new_stamp(cp_hall *h)
{
    if (++h->stamp == 0x7fffffff) {
        memset(h->vis, 0, ((size_t)h->max + 1) * sizeof *h->vis);
        h->stamp = 1;
    }
}

/* An alternating path from cell root to a free value, taken into the
 * matching: 1; else 0, the values it reached marked (vis == stamp). */
static int augment(cp_hall *h, cp_hgroup *g, int root)
{
    int nv = g->nvals, sp = 0;
    new_stamp(h);
    h->stk[0] = root;
    h->pos[0] = 0;
    while (sp >= 0) {
        int c = h->stk[sp];
        if (h->pos[sp] == h->deg[c]) {
            sp--;
            continue;
        }
        int j = h->adj[(size_t)c * (size_t)nv + (size_t)h->pos[sp]++];
        if (h->vis[j] == h->stamp)
            continue;
        h->vis[j] = h->stamp;
        h->via[sp] = j;
        if (g->mv[j] < 0) {
            for (int k = sp; k >= 0; k--) {
                g->mc[h->stk[k]] = h->via[k];
                g->mv[h->via[k]] = h->stk[k];
            }
            return 1;
        }
        sp++;
        h->stk[sp] = g->mv[j];
        h->pos[sp] = 0;
    }
    return 0;
}

/* Literal l's level, 0 for one fixed before the search. */
static int lit_level(const ilpm_kern *e, int l)
{
    return e->level ? e->level[abs(l)] : 1;
}

/* The explanation into out: head (0: none, a conflict), then x[c][j] for
 * c in cells[0..n), j not marked (vis != stamp), those false at level 0
 * left out (all kept when that leaves none), the two latest second. */
static int explain(cp_hall *h, const ilpm_kern *e, const cp_hgroup *g, int head,
                   const int *cells, int n, cp_ivec *out)
{
    out->n = 0;
    if (head && ilpm_cp_ivec_push(out, head) != 0)
        return -1;
    int h0 = out->n;
    for (int keep0 = 0; keep0 < 2 - (head != 0) && out->n == h0; keep0++)
        for (int k = 0; k < n; k++) {
            const int *row = g->x + (size_t)cells[k] * (size_t)g->nvals;
            for (int j = 0; j < g->nvals; j++)
                if (h->vis[j] != h->stamp &&
                    (keep0 || lit_level(e, row[j]) > 0) &&
                    ilpm_cp_ivec_push(out, row[j]) != 0)
                    return -1;
        }
    /* the watches: the latest literals first after the head */
    for (int w = h0; w < out->n && w < h0 + 2 - (head != 0); w++) {
        int best = w;
        for (int i = w + 1; i < out->n; i++)
            if (lit_level(e, out->v[i]) > lit_level(e, out->v[best]))
                best = i;
        int t = out->v[w];
        out->v[w] = out->v[best];
        out->v[best] = t;
    }
    return 0;
}

/* The clause of explain: a conflict (head 0) or head set; learning, into
 * the clause store as its reason.  -1 on a conflict, 1 when head was
 * set, 0 when nothing was done (out of memory, or no clause). */
static int emit(cp_hall *h, cp_search *s, const cp_hgroup *g, int head,
                const int *cells, int n)
{
    ilpm_kern *e = s->e;
    int learning = s->learn && e->db;
    cp_db *db = e->db;
    if (learning) {
        if (explain(h, e, g, head, cells, n, &db->out) != 0 || db->out.n == 0)
            return 0;
        if (s->on_learn)
            s->on_learn(s->learn_ctx, db->out.v, db->out.n);
        int cid = ilpm_cp_db_add(e, db->out.n);
        if (cid < 0)
            return 0;
        if (!head || ilpm_klval(e->val, head) == ILPM_K_FALSE) {
            e->conf = -2 - cid;
            h->fails++;
            return -1;
        }
        ilpm_kern_imply(e, head, -2 - cid);
    } else {
        if (!head || ilpm_kern_imply(e, head, ILPM_K_DECIDED) != 0) {
            h->fails++;
            return -1;
        }
    }
    h->pruned++;
    return 1;
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The values that reach a free one (inr) and the components of the
 * others (comp), by Tarjan's rule over "value d -> the values its cell
 * can take". */
static void components(cp_hall *h, const ilpm_kern *e, const cp_hgroup *g)
{
    int nc = g->nc, nv = g->nvals, qn = 0;
    for (int j = 0; j < nv; j++) {
        h->inr[j] = g->mv[j] < 0;
        h->comp[j] = h->num[j] = -1;
        if (h->inr[j])
            h->bfs[qn++] = j;
    }
    for (int q = 0; q < qn; q++)
        for (int c = 0; c < nc; c++) {
            int m = g->mc[c];
            if (m != h->bfs[q] && !h->inr[m] && edge(e, g, c, h->bfs[q])) {
                h->inr[m] = 1;
                h->bfs[qn++] = m;
            }
        }
    int idx = 0, ncomp = 0, tsp = 0;
    for (int r = 0; r < nv; r++) {
        if (h->inr[r] || h->num[r] >= 0)
            continue;
        int sp = 0;
        h->stk[0] = r;
        h->pos[0] = 0;
        h->num[r] = h->low[r] = idx++;
        h->tstk[tsp++] = r;
        while (sp >= 0) {
            int d = h->stk[sp], c = g->mv[d];
            if (h->pos[sp] < h->deg[c]) {
                int j = h->adj[(size_t)c * (size_t)nv + (size_t)h->pos[sp]++];
                if (j == d || h->inr[j])
                    continue;
                if (h->num[j] < 0) {
                    sp++;
                    h->stk[sp] = j;
                    h->pos[sp] = 0;
                    h->num[j] = h->low[j] = idx++;
                    h->tstk[tsp++] = j;
                } else if (h->comp[j] < 0 && h->num[j] < h->low[d])
                    h->low[d] = h->num[j];
                continue;
            }
            if (h->low[d] == h->num[d]) {
                int x;
                do {
                    x = h->tstk[--tsp];
                    h->comp[x] = ncomp;
                } while (x != d);
                ncomp++;
            }
            if (--sp >= 0 && h->low[d] < h->low[h->stk[sp]])
                h->low[h->stk[sp]] = h->low[d];
        }
    }
}

/* The values value j reaches (vis == stamp) and their cells, into
 * cells; how many. */
static int reach(cp_hall *h, const cp_hgroup *g, int j, int *cells)
{
    int nv = g->nvals, qn = 0;
    new_stamp(h);
    h->vis[j] = h->stamp;
    h->bfs[qn++] = j;
    for (int q = 0; q < qn; q++) {
        int c = g->mv[h->bfs[q]];
        cells[q] = c;
        for (int k = 0; k < h->deg[c]; k++) {
            int d = h->adj[(size_t)c * (size_t)nv + (size_t)k];
            if (h->vis[d] != h->stamp) {
                h->vis[d] = h->stamp;
                h->bfs[qn++] = d;
            }
        }
    }
    return qn;
}

/* Régin's rule on a group whose cells are all matched: -1 on a conflict,
 * 1 when literals were set, else 0. */
static int regin(cp_hall *h, cp_search *s, cp_hgroup *g, int *pairs)
{
    const ilpm_kern *e = s->e;
    int nc = g->nc, nv = g->nvals, np = 0;
    components(h, e, g);
    for (int c = 0; c < nc; c++) {
        int m = g->mc[c];
        for (int k = 0; k < h->deg[c]; k++) {
            int j = h->adj[(size_t)c * (size_t)nv + (size_t)k];
            if (j != m && !h->inr[j] && h->comp[j] != h->comp[m])
                pairs[np++] = j * nc + c;
        }
    }
    if (np == 0)
        return 0;
    qsort(pairs, (size_t)np, sizeof *pairs, by_int);
    int any = 0, n = 0, *cells = h->low; /* low is free again */
    for (int i = 0; i < np; i++) {
        int j = pairs[i] / nc, c = pairs[i] % nc;
        if (i == 0 || pairs[i - 1] / nc != j)
            n = reach(h, g, j, cells);
        int head = -g->x[(size_t)c * (size_t)nv + (size_t)j];
        int r = emit(h, s, g, head, cells, n);
        if (r < 0)
            return -1;
        any |= r;
    }
    return any;
}

/* Group gi on the trail as it stands: -1 on a conflict, 1 when literals
 * were set, else 0. */
static int group_run(cp_hall *h, cp_search *s, int gi)
{
    cp_hgroup *g = &h->g[gi];
    const ilpm_kern *e = s->e;
    int nc = g->nc, nv = g->nvals, open = 0;
    for (int i = 0; i < nc; i++) {
        const int *row = g->x + (size_t)i * (size_t)nv;
        int *a = h->adj + (size_t)i * (size_t)nv, n = 0;
        for (int j = 0; j < nv; j++)
            if (ilpm_klval(e->val, row[j]) != ILPM_K_FALSE)
                a[n++] = j;
        h->deg[i] = n;
        open += n;
        int m = g->mc[i];
        if (m >= 0 && ilpm_klval(e->val, row[m]) == ILPM_K_FALSE)
            g->mc[i] = g->mv[m] = -1;
    }
    for (int i = 0; i < nc; i++) {
        if (g->mc[i] >= 0 || augment(h, g, i))
            continue;
        /* A Hall set too many: i and the cells of the values it reached,
         * one more than those values. */
        int *cells = h->low, n = 0;
        cells[n++] = i;
        for (int j = 0; j < nv; j++)
            if (h->vis[j] == h->stamp)
                cells[n++] = g->mv[j];
        return emit(h, s, g, 0, cells, n) < 0 ? -1 : 0;
    }
    if (open == nc)
        return 0; /* every cell has its value */
    return regin(h, s, g, h->pairs);
}

int ilpm_cp_hall_run(cp_hall *h, cp_search *s)
{
    const ilpm_kern *e = s->e;
    for (int i = h->checked; i < e->ntrail; i++) {
        int v = abs(e->trail[i]);
        for (int k = h->vstart[v]; k < h->vstart[v + 1]; k++) {
            int g = h->vgrp[k];
            if (!h->dirty[g]) {
                h->dirty[g] = 1;
                h->queue[h->nq++] = g;
            }
        }
    }
    /* what is set here is looked at again in the other groups */
    h->checked = e->ntrail;
    int rc = 0;
    while (h->nq > 0) {
        int g = h->queue[--h->nq];
        h->dirty[g] = 0;
        h->runs++;
        int r = group_run(h, s, g);
        if (r < 0)
            return -1;
        rc |= r;
    }
    return rc;
}
