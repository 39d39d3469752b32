/* The cp back end's conflict-driven search (cp.h), as lazy clause
 * generation solvers run it: a conflict is analysed to its first unique
 * implication point over the reasons the weighted sums give on demand,
 * the learned clause is kept (two watched literals) and the search jumps
 * back to where it asserts; branching by activity with phase saving
 * (--search activity) or by first-fail and input as in cp_search.c;
 * Luby restarts; learned clauses reduced by LBD and activity.
 *
 * Counting stays exact without blocking clauses: learned clauses follow
 * from the constraints, so they remove no solution, and after a solution
 * the search goes back chronologically: the last decision on a puzzle
 * variable is flipped, and a flipped decision is never jumped over (a
 * backjump below it stops at its level; a conflict at its own level pops
 * it).  Optimisation is branch and bound: each solution tightens the
 * objective's row, whose conflicts are explained like any row's. */
#include "cp.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* --cp-analysis cuts: no more rows are learned once they number this
 * many, and they are dropped at the next restart (a count, which does
 * not restart, keeps its first ones): each is propagated by its weights, on
 * every literal of it (CPU seconds on lseu and p0201, load 6: rows of up
 * to 100 terms, 300 kept, 1.55 and 3.29 s; up to 30 terms (cp_cuts.c),
 * 100 kept, 1.65 and 1.72 s; clauses alone 0.43 and 1.54 s). */
#define CP_MAX_ROWS 100

struct lev {
    int lit;  /* the level's decision */
    int mark; /* the trail before it */
    int flipped;
};

typedef struct cdcl {
    cp_search *s;
    ilpm_kern *e;
    cp_db db;
    cp_heap heap;
    struct lev *dec;
    uint8_t *gone;  /* the model's clauses, watched in the db meanwhile */
    uint8_t *phase; /* kept (s->keep): the phases, while suspended */
    int nperm;      /* how many clauses of the db they are           */
    int flip;       /* the highest flipped level, 0: none */
    int root;
    int use_heap; /* branching by activity */
    int use_cuts; /* s->cuts: cuts is made */
    cp_cuts cuts;
    int n0; /* the kernel's rows before the search: from n0 on, learned */
    uint64_t since, nrestart, limit; /* Luby restarts */
} cdcl;

static uint64_t luby(uint64_t x)
{
    uint64_t size = 1, seq = 0;
    while (size < x + 1) {
        seq++;
        size = 2 * size + 1;
    }
    while (size - 1 != x) {
        size = (size - 1) >> 1;
        seq--;
        x = x % size;
    }
    return (uint64_t)1 << seq;
}

static void backtrack(cdcl *c, int lvl)
{
    ilpm_kern *e = c->e;
    if (e->lvl <= lvl)
        return;
    ilpm_kern_undo(e, c->dec[lvl + 1].mark);
    ilpm_cp_hall_undo(c->s->hall, e->ntrail);
    e->lvl = lvl;
    while (c->flip > lvl || (c->flip > 0 && !c->dec[c->flip].flipped))
        c->flip--;
}

static void decide(cdcl *c, int l, int flipped)
{
    ilpm_kern *e = c->e;
    e->lvl++;
    c->dec[e->lvl].lit = l;
    c->dec[e->lvl].mark = e->ntrail;
    c->dec[e->lvl].flipped = flipped;
    if (flipped)
        c->flip = e->lvl;
    ilpm_kern_assign(e, l);
}

/* After a solution, or a conflict at a flipped level: the deepest
 * decision on a puzzle variable not flipped yet is flipped; 0 when none
 * is left (the search is complete). */
static int next_branch(cdcl *c)
{
    ilpm_kern *e = c->e;
    while (e->lvl > 0 &&
           (c->dec[e->lvl].flipped ||
            (c->s->mode == CP_COUNT && c->s->aux[abs(c->dec[e->lvl].lit)])))
        backtrack(c, e->lvl - 1);
    if (e->lvl == 0)
        return 0;
    int l = c->dec[e->lvl].lit;
    backtrack(c, e->lvl - 1);
    decide(c, -l, 1);
    return 1;
}

/* --cp-analysis cuts, after a conflict that met a weighted row: the
 * clause the cutting-planes analysis derives replaces the first-UIP one
 * (in db->out, jumping back to bj, of LBD *lbd) when its LBD is lower, or
 * the same and it is shorter (s->cuts 2: always).  The level to jump back to;
 * -1 out of memory. */
static int try_cuts(cdcl *c, int bj, int *lbd)
{
    cp_db *db = &c->db;
    cp_ivec *first = &c->cuts.first;
    first->n = 0;
    for (int i = 0; i < db->out.n; i++)
        if (ilpm_cp_ivec_push(first, db->out.v[i]) != 0)
            return -1;
    c->s->cut_tried++;
    int lbd2;
    int bj2 = ilpm_cp_cuts_analyze(c->e, &c->cuts, &lbd2);
    if (bj2 == -1)
        return -1;
    if (bj2 >= 0 && (c->use_cuts == 2 || lbd2 < *lbd ||
                     (lbd2 == *lbd && db->out.n < first->n))) {
        c->s->cut_taken++;
        *lbd = lbd2;
        return bj2;
    }
    db->out.n = 0;
    for (int i = 0; i < first->n; i++)
        if (ilpm_cp_ivec_push(&db->out, first->v[i]) != 0)
            return -1;
    return bj;
}

/* A conflict above level 0: learn, jump back, assert.  1 when the search
 * is complete, -1 out of memory, else 0 (and *conflict set anew). */
static int on_conflict(cdcl *c, int *conflict)
{
    ilpm_kern *e = c->e;
    cp_db *db = &c->db;
    if (ilpm_cp_explain(e, e->conf, 0, &db->confl) != 0)
        return -1;
    int maxl = 0;
    for (int i = 0; i < db->confl.n; i++) {
        int lv = e->level[abs(db->confl.v[i])];
        maxl = lv > maxl ? lv : maxl;
    }
    if (maxl == 0)
        return 1;
    /* A conflict the trail held before its last level (a clause that
     * became unit after a chronological step) is analysed where it
     * arose. */
    backtrack(c, maxl);
    int lbd;
    db->weighted = e->conf >= 0 && !e->cons[e->conf / 4].unit;
    int bj = ilpm_cp_analyze(e, &lbd);
    if (bj >= 0 && c->use_cuts && db->weighted)
        bj = try_cuts(c, bj, &lbd);
    if (bj < 0)
        return -1;
    if (c->s->on_learn)
        c->s->on_learn(c->s->learn_ctx, db->out.v, db->out.n);
    int counting = c->s->mode == CP_COUNT;
    if (counting && c->flip > 0 && c->flip == e->lvl) {
        /* Nothing below the flipped decision: its level is done. */
        if (ilpm_cp_db_add(e, lbd) < 0)
            return -1;
        c->s->learned++;
        if (!next_branch(c))
            return 1;
        *conflict = ilpm_kern_propagate(e) != 0;
        return 0;
    }
    backtrack(c, counting && c->flip > bj ? c->flip : bj);
    int cid = ilpm_cp_db_add(e, lbd);
    if (cid < 0)
        return -1;
    c->s->learned++;
    ilpm_kern_imply(e, db->out.v[0], -2 - cid);
    if (c->heap.h)
        c->heap.inc /= 0.95;
    if (c->use_cuts && db->weighted && e->ncons - c->n0 < CP_MAX_ROWS) {
        int r = ilpm_cp_cuts_learn(e, &c->cuts);
        if (r == -1)
            return -1;
        c->s->cut_rows += r >= 0;
        if (r >= 0 && ilpm_kern_check(e, r) != 0) {
            *conflict = 1;
            return 0;
        }
    }
    *conflict = ilpm_kern_propagate(e) != 0;
    return 0;
}

/* At level 0: the rows learned by cutting planes out of the kernel again
 * (what they fixed at level 0 stays, as forced by the model). */
static void drop_rows(cdcl *c)
{
    ilpm_kern *e = c->e;
    if (e->ncons <= c->n0)
        return;
    for (int i = 0; i < e->ntrail; i++) {
        int v = abs(e->trail[i]);
        if (e->reason[v] >= 4 * c->n0)
            e->reason[v] = ILPM_K_DECIDED;
    }
    ilpm_kern_truncate(e, c->n0);
}

/* Learned units lost to a chronological step come back; -1 when one is
 * false (e->conf set), 1 when one was assigned. */
static int units(cdcl *c)
{
    ilpm_kern *e = c->e;
    int any = 0;
    for (int i = 0; i < c->db.units.n; i++) {
        int cid = c->db.units.v[i];
        int l = c->db.lits[c->db.cl[cid].start];
        int x = ilpm_klval(e->val, l);
        if (x == ILPM_K_FALSE) {
            e->conf = -2 - cid;
            return -1;
        }
        if (x == ILPM_K_OPEN) {
            ilpm_kern_imply(e, l, -2 - cid);
            any = 1;
        }
    }
    return any;
}

/* Row x as a clause: >= 1 over its literals, or <= n - 1 over their
 * negations, every coefficient 1, no condition, no variable twice.  0
 * when it is not one; else 1 or -1, the sign of its clause literals. */
static int clause_sign(const ilpm_kern *e, const ilpm_kcon *x, uint8_t *mark)
{
    if (!x->unit || x->cond || x->n < 2)
        return 0;
    int sign = x->ge && !x->le && x->k == 1          ? 1
               : x->le && !x->ge && x->k == x->n - 1 ? -1
                                                     : 0;
    const int *l = e->lits + x->start;
    int i = 0;
    for (; sign && i < x->n && !mark[abs(l[i])]; i++)
        mark[abs(l[i])] = 1;
    int twice = sign && i < x->n;
    while (i-- > 0)
        mark[abs(l[i])] = 0;
    return twice ? 0 : sign;
}

/* The model's clauses leave the weighted rows for this search: watched
 * by two literals in the db (as permanent clauses, LBD 0, never reduced),
 * a literal then costs the clauses that watch it, not every clause it
 * occurs in (Tetravex's supports, the paint-by-numbers rows).  Those
 * true at the root are left out; -1 out of memory. */
static int watch_clauses(cdcl *c)
{
    ilpm_kern *e = c->e;
    cp_ivec *o = &c->db.out;
    c->gone = calloc((size_t)e->ncons + 1, 1);
    uint8_t *mark = calloc((size_t)e->nv + 1, 1);
    int rc = c->gone && mark ? 0 : -1;
    for (int r = 0; r < e->ncons && rc == 0; r++) {
        const ilpm_kcon *x = &e->cons[r];
        int sign = r == c->s->obj || r == c->s->lp.row - 1
                       ? 0
                       : clause_sign(e, x, mark);
        if (!sign)
            continue;
        const int *l = e->lits + x->start;
        int sat = 0;
        o->n = 0;
        for (int i = 0; i < x->n && !sat && rc == 0; i++) {
            int v = ilpm_klval(e->val, sign * l[i]);
            sat = v == ILPM_K_TRUE;
            if (v == ILPM_K_OPEN) {
                rc = ilpm_grow_int((void **)&o->v, &o->cap, o->n + 1,
                                   sizeof *o->v);
                if (rc == 0)
                    o->v[o->n++] = sign * l[i];
            }
        }
        if (rc != 0 || (!sat && o->n < 2))
            continue; /* a unit is propagated at the root already */
        c->gone[r] = 1;
        if (!sat) {
            rc = ilpm_cp_db_add(e, 0) < 0 ? -1 : 0;
            c->nperm++;
        }
    }
    free(mark);
    if (c->gone)
        ilpm_kern_detach(e, c->gone);
    return rc;
}

/* A search kept (s->keep) that gives up: back at level 0 as at a
 * restart, what it fixed there left on the trail (implied by the model:
 * the searches in between may build on it, and the learning search comes
 * back to the trail it left), the model's clauses back in their rows, no
 * hooks, its phases saved. */
static void park(cdcl *c)
{
    ilpm_kern *e = c->e;
    backtrack(c, 0);
    drop_rows(c);
    e->heap = NULL;
    c->flip = 0;
    if (c->gone)
        ilpm_kern_attach(e, c->gone);
    e->db = NULL;
    if (c->phase && e->phase)
        memcpy(c->phase, e->phase, (size_t)e->nv + 1);
}

static void release(cdcl *c)
{
    free(c->gone);
    free(c->phase);
    ilpm_cp_db_free(&c->db);
    ilpm_cp_heap_free(&c->heap);
    ilpm_cp_cuts_free(&c->cuts);
    free(c->dec);
}

void ilpm_cp_cdcl_drop(struct cdcl *c)
{
    if (c)
        release(c);
    free(c);
}

/* The kernel back as the search found it, the search freed; cut short
 * by the time limit or a stop, its trail left for the driver to take
 * back when it is used again (cp_driver.c's take_back), as the
 * depth-first search leaves its own: on n-Queens 5000 it is up to 25
 * million literals, seconds past the limit under load. */
static ilpm_status finish(cdcl *c, ilpm_status st)
{
    ilpm_kern *e = c->e;
    e->heap = NULL;
    if (!c->s->w.status)
        ilpm_kern_undo(e, c->root);
    ilpm_cp_hall_undo(c->s->hall, e->ntrail);
    e->lvl = 0;
    drop_rows(c);
    if (c->gone)
        ilpm_kern_attach(e, c->gone);
    e->db = NULL;
    release(c);
    return st;
}

/* A kept search (s->keep) taken up again on the trail it left (what a
 * search in between put above it taken back): the model's clauses back
 * in its store, its phases back, every open variable in the activity
 * order (as they were); its learned clauses, activities and restarts go
 * on. */
static void resume(cdcl *c, cp_search *s)
{
    ilpm_kern *e = s->e;
    c->s = s;
    e->lvl = 0;
    c->n0 = e->ncons;
    if (c->gone)
        ilpm_kern_detach(e, c->gone);
    e->db = &c->db;
    if (c->phase && e->phase)
        memcpy(e->phase, c->phase, (size_t)e->nv + 1);
    if (c->use_heap) {
        for (int v = 1; v <= e->nv; v++)
            if (e->val[v] == ILPM_K_OPEN)
                ilpm_cp_heap_insert(&c->heap, v);
        e->heap = &c->heap;
    }
    s->wit = NULL;
    s->wit_ok = 0;
    s->complete = 0;
    if (s->hall)
        ilpm_cp_hall_start(s->hall, e);
}

/* Sets the search up: the decisions, the clause store with the model's
 * clauses in it, the activity order; -1 when out of memory (err set,
 * finish frees what was made). */
static int cdcl_open(cdcl *c, cp_search *s, ilpm_err *err)
{
    ilpm_kern *e = s->e;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->e = e;
    c->root = e->ntrail;
    e->lvl = 0;
    /* the depth-first search keeps no reasons: made at the first turn */
    if (ilpm_kern_keep_reasons(e) != 0)
        return ilpm_err_nomem(err, "out of memory for the cp search");
    for (int i = 0; i < c->root; i++)
        e->level[abs(e->trail[i])] = 0;
    c->dec = calloc((size_t)e->nv + 2, sizeof *c->dec);
    c->use_heap = s->strategy == ILPM_SEARCH_ACTIVITY && s->mode != CP_COUNT;
    if (s->strategy == ILPM_SEARCH_ACTIVITY && !c->use_heap)
        s->strategy = ILPM_SEARCH_FIRST_FAIL;
    c->use_cuts = s->cuts;
    c->n0 = e->ncons;
    int ok = c->dec && ilpm_cp_db_init(&c->db, e->nv) == 0 &&
             (!c->use_heap || ilpm_cp_heap_init(&c->heap, e->nv) == 0) &&
             (!c->use_cuts || ilpm_cp_cuts_init(&c->cuts, e->nv) == 0);
    c->cuts.on_cut = s->on_cut;
    c->cuts.cut_ctx = s->cut_ctx;
    if (ok) {
        e->db = &c->db;
        ok = watch_clauses(c) == 0;
    }
    if (!ok)
        return ilpm_err_nomem(err, "out of memory for the cp search");
    if (c->use_heap) {
        /* The model's order starts it: earlier variables first. */
        for (int v = 1; v <= e->nv; v++)
            c->heap.act[v] = (double)(e->nv - v) / e->nv * 1e-3;
        for (int v = 1; v <= e->nv; v++)
            if (e->val[v] == ILPM_K_OPEN)
                ilpm_cp_heap_insert(&c->heap, v);
        e->heap = &c->heap;
    }
    s->wit = NULL;
    s->wit_ok = 0;
    s->complete = 0;
    if (s->hall)
        ilpm_cp_hall_start(s->hall, e);
    c->nrestart = 1;
    c->limit = 100;
    return 0;
}

/* Before a node: the objective's bound and the learned units.  1 on a
 * conflict, 0 without; 2 when units were assigned and propagated without
 * one (the node is looked at again). */
static int cdcl_checks(cdcl *c)
{
    ilpm_kern *e = c->e;
    if (ilpm_cp_bound_fails(c->s))
        return 1;
    int u = units(c);
    if (u == 0 && c->s->hall)
        u = ilpm_cp_hall_run(c->s->hall, c->s);
    if (u == 0)
        return 0;
    return u < 0 || ilpm_kern_propagate(e) != 0 ? 1 : 2;
}

/* A conflict, counted and resolved: 1 when the search ends (*st set),
 * else 0 with *conflict set anew. */
static int cdcl_conflict(cdcl *c, int *conflict, ilpm_status *st, ilpm_err *err)
{
    cp_search *s = c->s;
    s->fails++;
    c->since++;
    if (c->e->lvl > 0 && ((s->fail_budget && s->fails >= s->fail_budget) ||
                          (s->until_hard > 0 && ilpm_now() >= s->until_hard))) {
        s->gave_up = 1;
        *st = ILPM_TIMEOUT;
        return 1;
    }
    int rc = c->e->lvl == 0 ? 1 : on_conflict(c, conflict);
    if (rc < 0) {
        ilpm_err_nomem(err, "out of memory for the cp search");
        *st = ILPM_ERROR;
        return 1;
    }
    if (rc > 0) {
        s->complete = 1;
        *st = ilpm_cp_exhausted(s);
        return 1;
    }
    return 0;
}

/* Between nodes: a restart when it is due (1: back at the root; 2: and
 * past s->until, the search gives up there, so that a search kept and
 * taken up again runs as one would have), the learned clauses reduced
 * when they outgrow their room (-1 when out of memory, err set); else 0. */
static int cdcl_tidy(cdcl *c, ilpm_err *err)
{
    if (c->s->mode != CP_COUNT && c->since >= c->limit) {
        c->since = 0;
        c->limit = 100 * luby(++c->nrestart);
        c->s->restarts++;
        backtrack(c, 0);
        if (c->e->ncons - c->n0 >= CP_MAX_ROWS)
            drop_rows(c);
        if (c->s->until > 0 && ilpm_now() >= c->s->until) {
            c->s->gave_up = 1;
            return 2;
        }
        return 1;
    }
    cp_db *db = &c->db;
    if ((int64_t)db->ncl - db->units.n - c->nperm >= db->max_learnt) {
        if (ilpm_cp_db_reduce(c->e) != 0)
            return ilpm_err_nomem(err, "out of memory for the cp search");
        db->max_learnt += 300;
    }
    return 0;
}

/* A decision taken (1 on a conflict, 0 without) or, with every variable
 * set, a solution and the branch after it (the same); -1 when the search
 * ends (*st set). */
static int cdcl_node(cdcl *c, uint8_t *vals, ilpm_status *st)
{
    cp_search *s = c->s;
    ilpm_kern *e = c->e;
    s->nodes++;
    int l = 0;
    if (c->use_heap) {
        int v = ilpm_cp_heap_pop_open(&c->heap, e->val);
        l = v == 0 ? 0 : e->phase[v] ? v : -v;
    } else
        l = ilpm_cp_pick(s);
    if (l) {
        decide(c, l, 0);
        return ilpm_kern_propagate(e) != 0;
    }
    /* A solution: every variable has a value, nothing failed. */
    if (ilpm_cp_solution(s, vals, st))
        return -1;
    if (s->mode == CP_OPTIMIZE)
        return 0; /* the bound's row fails at once */
    if (!next_branch(c)) {
        s->complete = 1;
        *st = ILPM_SOLVED;
        return -1;
    }
    return ilpm_kern_propagate(e) != 0;
}

/* The search's state: on the stack, or kept between turns (s->keep). */
static cdcl *cdcl_start(cdcl *own, cp_search *s, ilpm_err *err)
{
    if (s->keep && *s->keep) {
        resume(*s->keep, s);
        return *s->keep;
    }
    cdcl *c = s->keep ? malloc(sizeof *c) : own;
    if (!c) {
        ilpm_err_nomem(err, "out of memory for the cp search");
        return NULL;
    }
    if (cdcl_open(c, s, err) != 0) {
        finish(c, ILPM_ERROR);
        if (c != own)
            free(c);
        return NULL;
    }
    if (s->keep) {
        *s->keep = c;
        c->phase = malloc((size_t)s->e->nv + 1); /* none: phases as left */
    }
    return c;
}

ilpm_status ilpm_cp_cdcl_run(cp_search *s, uint8_t *vals, ilpm_err *err)
{
    cdcl own;
    cdcl *c = cdcl_start(&own, s, err);
    if (!c)
        return ILPM_ERROR;
    ilpm_kern *e = s->e;
    ilpm_status st = ILPM_UNSAT;
    int conflict = ilpm_kern_propagate(e) != 0;
    for (;;) {
        if (!conflict && (conflict = cdcl_checks(c)) == 2) {
            conflict = 0;
            continue;
        }
        ilpm_cp_undo_due(s);
        if (ilpm_watch_poll(&s->w, "searching", NULL) != 0) {
            st = (ilpm_status)s->w.status;
            break;
        }
        if (conflict) {
            if (cdcl_conflict(c, &conflict, &st, err) != 0)
                break;
            continue;
        }
        int rc = cdcl_tidy(c, err);
        if (rc == 2) {
            st = ILPM_TIMEOUT;
            break;
        }
        if (rc > 0)
            continue;
        if (rc < 0) {
            st = ILPM_ERROR;
            break;
        }
        if ((conflict = cdcl_node(c, vals, &st)) < 0)
            break;
    }
    st = ilpm_cp_cut_short(s, st);
    if (s->keep && s->gave_up) {
        park(c); /* taken up again by the next run */
        return st;
    }
    finish(c, st);
    if (s->keep) {
        free(c);
        *s->keep = NULL;
    }
    return st;
}
