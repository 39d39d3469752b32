/* kernel.h: ilpm's one propagation kernel, used by the settling of
 * givens before lowering (propagate.c, probe.c) and by the cp back end's
 * searches (src/backend/cp_*.c), so that what a constraint implies is
 * stated once.
 *
 * Every constraint kind is read as "cond -> sum a_i l_i cmp k" with
 * a_i > 0 (a negative coefficient is folded into its literal's negation
 * and k): the terms are sorted by decreasing coefficient, and a
 * constraint keeps the weight of its true and of its false literals, so
 * that a literal costs the constraints it occurs in, and propagating one
 * stops at the first term that fits in its slack.  Every assignment
 * records its reason, level and place on the trail (conflict analysis
 * reads them); the trail is undone by taking the weights back, never by
 * propagating again from scratch.  A layer above may hang a clause store
 * (cp's learned clauses) and a branching order on the kernel: the hooks
 * below, called when set. */
#ifndef ILPM_KERNEL_H
#define ILPM_KERNEL_H

#include "ilpm_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ILPM_K_OPEN = 0, ILPM_K_TRUE = 1, ILPM_K_FALSE = 2 };

/* A reason, per assigned variable: ILPM_K_DECIDED (a decision, an
 * assumption, or what the model forced before the search), 4c + kind for
 * constraint c (kind ILPM_K_R_LE: its <= side took the literal;
 * ILPM_K_R_GE: its >= side; ILPM_K_R_CLE, ILPM_K_R_CGE: that side failed,
 * so its condition went false), or -2 - i for clause i of the clause
 * store above. */
enum { ILPM_K_DECIDED = -1 };
enum { ILPM_K_R_LE = 0, ILPM_K_R_GE = 1, ILPM_K_R_CLE = 2, ILPM_K_R_CGE = 3 };

/* An occurrence, 4 bytes (a model's non-zeros are most of its memory):
 * the constraint.  The literal's coefficient there, when the kernel has
 * any but 1, lies in a parallel array (ilpm_kern's pa, and a moved
 * list's a): itself when it fits in 31 bits, else -1 - i for the
 * kernel's big[i] (ilpm_kocc_a); a kernel of unit rows (n-Queens) stores
 * none, 1.6 GB less at 10,000. */
typedef struct ilpm_kocc {
    int32_t c; /* constraint */
} ilpm_kocc;

/* A literal's occurrences, 8 bytes (n-Queens 5000: 400 MB where a
 * pointer, a count and a room took 800), at ilpm_kidx in occ: at, the list's
 * place in the arena's pool as built from the model (freed at once with it), or
 * ILPM_KMOVED | i once a later constraint outgrew that room: the list on the
 * heap, moved[i]. A list in the pool has the room up to the next list's place
 * (ilpm_kern's occ_end, cocc_end after the last; a moved list's place is its
 * base). */
typedef struct ilpm_klist {
    uint32_t at;
    int32_t n;
} ilpm_klist;
#define ILPM_KMOVED 0x80000000u

/* A list moved to the heap: its occurrences, their coefficients (NULL
 * while the kernel's pa is), their room, and the place it left in the
 * pool (where its neighbour's room ends). */
typedef struct ilpm_kmoved {
    ilpm_kocc *v;
    int32_t *a;
    int32_t cap;
    uint32_t base;
} ilpm_kmoved;

typedef struct ilpm_kcon {
    size_t start;  /* into lits */
    size_t cstart; /* into coefs, unless unit (ilpm_kcoefs) */
    int n;
    uint8_t le, ge; /* the sides that bind (both for =) */
    uint8_t unit;   /* every coefficient 1, none stored */
    int cond;       /* 0, or the literal the constraint is conditional on */
    int64_t k, total;
    int64_t st, sf; /* weight of the true and false literals */
} ilpm_kcon;

typedef struct ilpm_kern {
    int nv;
    ilpm_kcon *cons;
    int ncons, capcons;
    int *lits;
    size_t nlits, caplits;
    /* The model's own literals when lits is them (NULL: none): a model
     * of unit rows alone, stored in the order loaded, lends them rather
     * than a copy (n-Queens 10,000: 1.6 GB); read only, copied before
     * the kernel first writes to lits (a row added, compaction), so the
     * model must stay as it is while the kernel lives. */
    const int *lent;
    /* The coefficients of the constraints that are not unit (a unit
     * one's read as ones[0..n): 1 each, stored once for all). */
    int64_t *coefs;
    size_t ncoefs, capcoefs;
    int64_t *ones;
    size_t nones;
    int64_t *big; /* the occurrences' coefficients beyond 31 bits */
    size_t nbig, capbig;
    ilpm_klist *occ;  /* per literal index: its terms                 */
    ilpm_klist *cocc; /* per literal index: constraints it conditions
                         (NULL until a constraint has a condition) */
    uint8_t *dirty;   /* per constraint: waiting in lazy            */
    int *lazy;        /* weighted constraints to look at, last      */
    int nlazy;
    uint8_t *val;
    int *trail;
    int ntrail, qhead;
    uint64_t props; /* literals propagated */
    uint64_t work;  /* occurrences and terms visited (probing's budget) */
    /* What a search reads, NULL until ilpm_kern_keep_reasons makes
     * them (the settling of givens reads the values alone): */
    int *reason;    /* per variable, as above                   */
    int *level;     /* per variable: its decision level         */
    int *tpos;      /* per variable: its place on the trail     */
    uint8_t *phase; /* per variable: its last value             */
    int lvl;        /* the current decision level               */
    int conf;       /* the last conflict, as a reason           */
    /* The model's occurrence lists share one block, the arena (freed
     * at once); a list that a later constraint outgrows moves to the
     * heap (moved: those lists), as do arrays a later constraint
     * outgrows. */
    void *arena;
    size_t narena;
    ilpm_kocc *pool;    /* the model's occurrences, in the arena */
    int32_t *pa;        /* their coefficients (NULL: all 1), as ilpm_kocc */
    ilpm_kmoved *moved; /* the lists that left it for the heap  */
    size_t nmoved, capmoved;
    uint32_t occ_end; /* where the pool's occ lists end          */
    /* The negative literals' occ records never written (all {0, 0},
     * each list's room 0): the model has no negative term (n-Queens
     * 10,000: 0.8 GB left as the system's zero pages); the positive
     * lists' rooms then end at occ_end. */
    uint8_t neg_unplaced;
    /* No negative literal occurs in any row (ilpm_kern_push clears it):
     * propagation reads no negative literal's record (ilpm_klist_of). */
    uint8_t neg_none;
    uint32_t cocc_end; /* where its cocc lists end (0: not there) */
    /* A clause store (NULL: none), opaque here: db_propagate sees each
     * literal the kernel propagates, before its constraints; nonzero is
     * a conflict, its reason in conf. */
    void *db;
    int (*db_propagate)(struct ilpm_kern *e, int l);
    /* A branching order (NULL: none), opaque here: undo gives each
     * variable it frees to heap_insert. */
    void *heap;
    void (*heap_insert)(void *heap, int v);
    struct ilpm_kterm *scratch; /* ilpm_kern_add's terms */
    size_t capscratch;
    /* Eager (ilpm_kern_eager): a row is queued as an assignment brings
     * it to its bound, not looked for in the literal's lists later; the
     * queue (nrq rows) shares lazy's room, from its far end. */
    uint8_t eager;
    uint8_t clash; /* eager: a row failed as it moved (conf says which) */
    int nrq;
} ilpm_kern;

/* The value of literal l: ILPM_K_TRUE, ILPM_K_FALSE or ILPM_K_OPEN. */
static inline int ilpm_klval(const uint8_t *val, int l)
{
    int x = val[abs(l)];
    if (x == ILPM_K_OPEN || l > 0)
        return x;
    return x == ILPM_K_TRUE ? ILPM_K_FALSE : ILPM_K_TRUE;
}

/* 1 when p lies in e's arena (not a block of its own), or is the
 * model's literals (lent): either way not the kernel's to grow or free. */
static inline int ilpm_kern_in_arena(const ilpm_kern *e, const void *p)
{
    uintptr_t x = (uintptr_t)p, b = (uintptr_t)e->arena;
    return p && ((x >= b && x < b + e->narena) || p == (const void *)e->lent);
}

/* Constraint x's coefficients, x->n of them. */
static inline const int64_t *ilpm_kcoefs(const ilpm_kern *e, const ilpm_kcon *x)
{
    return x->unit ? e->ones : e->coefs + x->cstart;
}

/* List l's occurrences, l.n of them. */
static inline ilpm_kocc *ilpm_klist_v(const ilpm_kern *e, ilpm_klist l)
{
    return (l.at & ILPM_KMOVED) ? e->moved[l.at & ~ILPM_KMOVED].v
                                : e->pool + l.at;
}

/* List l's coefficients, as ilpm_kocc says, or NULL: all 1. */
static inline int32_t *ilpm_klist_a(const ilpm_kern *e, ilpm_klist l)
{
    if (!e->pa)
        return NULL;
    return (l.at & ILPM_KMOVED) ? e->moved[l.at & ~ILPM_KMOVED].a
                                : e->pa + l.at;
}

/* A coefficient as ilpm_klist_a holds it. */
static inline int64_t ilpm_kocc_a(const ilpm_kern *e, int32_t a)
{
    return a >= 0 ? a : e->big[-1 - (int64_t)a];
}

/* Literal l as an index: 2v for v, 2v+1 for -v. */
static inline size_t ilpm_klix(int l)
{
    return 2 * (size_t)abs(l) + (l < 0);
}

/* Literal l's list in e's occ and cocc (2 nv + 2 of each): v for v,
 * nv + 1 + v for -v, the positive literals' records apart from the
 * negative ones', so that a model without negative terms never writes
 * the latter (neg_unplaced). */
static inline size_t ilpm_kidx(const ilpm_kern *e, int l)
{
    return l > 0 ? (size_t)l : (size_t)e->nv + 1 + (size_t)-l;
}

/* Literal l's list of occurrences: its record, or none when it is a
 * negative literal and no row has one (neg_none: n-Queens, where a
 * negative literal's record, on a line of its own, would be a cache
 * miss for nothing each time a literal is set or propagated). */
static inline ilpm_klist ilpm_klist_of(const ilpm_kern *e, int l)
{
    if (l < 0 && e->neg_none)
        return (ilpm_klist){0, 0};
    return e->occ[ilpm_kidx(e, l)];
}

/* The kinds ilpm_kern_init loads, as bits (1u << kind). */
#define ILPM_KERN_ALL_KINDS (~0u)
#define ILPM_KERN_CARD_KINDS                                                   \
    ((1u << ILPM_CLAUSE) | (1u << ILPM_ALO) | (1u << ILPM_AMO) |               \
     (1u << ILPM_EXO) | (1u << ILPM_IMPL) | (1u << ILPM_CARD))

/* The model's constraints of the given kinds, redundant groups too, in
 * the model's order (with every kind, constraint i is the model's i, and
 * the kernel may read the model's literals where they lie, lent: m must
 * then stay unchanged while e lives, as the cp driver's model does); w
 * (the time limit and stop flag, or NULL) cuts it short with
 * err->rc set.  Nothing is propagated yet (ilpm_kern_check). */
int ilpm_kern_init(ilpm_kern *e, const ilpm_model *m, unsigned kinds,
                   ilpm_watch *w, ilpm_err *err);
/* How many kernels this thread has begun to build (ilpm_kern_init): the
 * tests count them (one per cp solver). */
extern _Thread_local uint64_t ilpm_kern_built;
/* The size from which the lists' records and the arena of occurrences
 * ask for huge pages (ilpm_mem_huge; 1 GB, n-Queens from about 5800;
 * docs/cp.md); the tests lower it. */
extern size_t ilpm_kern_huge_min;
/* The count pass counts the long unit rows (64 literals or more)
 * by blocks of ilpm_kern_scatter_block lists (4 M); a model
 * of unit rows, each one's literals ascending, with
 * ilpm_kern_scatter_min terms or more (16 M) and 16 a row on average,
 * has its occurrences put by such blocks too (the same lists in the same
 * order, written a block at a time); the tests lower them and count the
 * kernels built so (ilpm_kern_scattered). */
extern size_t ilpm_kern_scatter_min, ilpm_kern_scatter_block;
extern _Thread_local uint64_t ilpm_kern_scattered;
void ilpm_kern_free(ilpm_kern *e);
/* Makes the arrays that conflict analysis reads (reasons, levels,
 * places on the trail) and the phases, from then on kept for every
 * assignment, unless made already; what the trail holds by then counts
 * as the model's (a decision at level 0).  A search that reads none
 * (cp's depth-first one) spares their memory and their writes: 12 bytes
 * a variable.  ilpm_kern_keep_phases makes the phases alone (each
 * variable's last value, saved as undoing frees it).  -1 when out of
 * memory. */
int ilpm_kern_keep_reasons(ilpm_kern *e);
int ilpm_kern_keep_phases(ilpm_kern *e);
/* ones at least n long; -1 when out of memory. */
int ilpm_kern_ones(ilpm_kern *e, size_t n);
/* Adds sum coefs[i] lits[i] cmp k (coefs NULL: all 1) under cond (0:
 * none), any signs.  Returns the constraint's number, -1 when out of
 * memory. */
int ilpm_kern_add(ilpm_kern *e, const int64_t *coefs, const int *lits, int n,
                  ilpm_cmp cmp, int64_t k, int cond);
/* Appends (c, a) to list l (a record of e's occ or cocc): in its room,
 * else moved to the heap; -1 when out of memory (kernel_list.c). */
int ilpm_kern_push(ilpm_kern *e, ilpm_klist *l, int c, int64_t a);
/* Adds model constraint c; -1 when out of memory. */
int ilpm_kern_add_con(ilpm_kern *e, const ilpm_con *c);
/* Makes l true for reason r (ILPM_K_DECIDED: a decision); -1 when it is
 * false already. */
int ilpm_kern_imply(ilpm_kern *e, int l, int r);
/* The record of constraint number num, whose n terms were just written
 * at the end of lits and, unless unit, of coefs: filled, and the
 * constraint and its terms counted in (st and sf are left 0 for the
 * caller). */
static inline ilpm_kcon *ilpm_kern_record(ilpm_kern *e, int num, int n,
                                          ilpm_cmp cmp, int unit, int cond,
                                          int64_t k, int64_t total)
{
    ilpm_kcon *x = &e->cons[num];
    memset(x, 0, sizeof *x);
    x->start = e->nlits;
    x->cstart = e->ncoefs;
    x->n = n;
    x->le = cmp != ILPM_GE;
    x->ge = cmp != ILPM_LE;
    x->unit = (uint8_t)unit;
    x->cond = cond;
    x->k = k;
    x->total = total;
    e->nlits += (size_t)n;
    e->ncoefs += unit ? 0 : (size_t)n;
    e->ncons++;
    return x;
}

/* Makes l true as a decision (no reason); -1 when it is false already. */
static inline int ilpm_kern_assign(ilpm_kern *e, int l)
{
    return ilpm_kern_imply(e, l, ILPM_K_DECIDED);
}
/* Propagates the trail; -1 on a conflict. */
int ilpm_kern_propagate(ilpm_kern *e);
/* Eager propagation on (1) or off (0), for a search that reads values
 * alone, never the order of the trail nor the reasons' choice (the
 * count's depth-first search): each assignment queues the unit rows it
 * brings to a bound, as it updates their weights, so that propagating a
 * literal no longer walks its occurrence lists.  The values, conflicts
 * and work that propagation reaches are the same; the order of the trail
 * may differ.  Turned on and off with the trail propagated (a fixpoint,
 * or just after a conflict). */
static inline void ilpm_kern_eager(ilpm_kern *e, int on)
{
    e->eager = (uint8_t)(on != 0);
}
/* Looks at constraint c as it stands (when it is new, or its bound
 * moved); -1 on a conflict. */
int ilpm_kern_check(ilpm_kern *e, int c);
/* Takes the trail back to mark. */
void ilpm_kern_undo(ilpm_kern *e, int mark);
/* The rows' weights as they stand (st and sf of each constraint, 2 a
 * constraint), for ilpm_kern_reset; NULL when out of memory. */
int64_t *ilpm_kern_save(const ilpm_kern *e);
/* Takes the trail back to mark as ilpm_kern_undo does, the weights
 * copied from w (ilpm_kern_save's, taken with the trail at mark and the
 * same constraints) rather than taken back literal by literal: a long
 * way back costs a pass over the rows and the trail, not over every
 * undone literal's lists (a restart of n-Queens 5000: 25 million
 * literals, 100 million occurrences). */
void ilpm_kern_reset(ilpm_kern *e, int mark, const int64_t *w);
/* Takes the constraints c with gone[c] out of the occurrence lists (a
 * search that watches them as clauses keeps no weights for them), and
 * puts them back with their weights counted anew from the values. */
void ilpm_kern_detach(ilpm_kern *e, const uint8_t *gone);
void ilpm_kern_attach(ilpm_kern *e, const uint8_t *gone);
/* Takes out what the trail fixes, for good (a search that never undoes
 * it): the terms of fixed literals (k moved by the weight of the true
 * ones) and the constraints that hold whatever the open literals become,
 * the rest packed and renumbered in order (renum[c], room for e->ncons:
 * c's new number, -1 when gone), so that the kernel weighs, scans and
 * fills the cache as a kernel over the model's settled copy would.  Called
 * with the trail propagated, nothing above it; what the trail holds
 * counts as forced by the model from then on (ILPM_K_DECIDED). */
void ilpm_kern_compact(ilpm_kern *e, int *renum);
/* Takes the constraints from number n on out again (constraints added
 * last, without a condition, none of them a reason on the trail or in
 * lazy), as if they had never been added. */
void ilpm_kern_truncate(ilpm_kern *e, int n);
/* Looks at every constraint from number from on once (unit clauses,
 * bounds met already), propagating after each; -1 on a conflict. */
int ilpm_kern_settle(ilpm_kern *e, int from);

/* propagate.c: the settling of givens that ilpm_model_lowered does at
 * level (1: units, 2: probing too), done instead on e, a kernel over every
 * constraint of m in m's order (ILPM_KERN_ALL_KINDS, nothing assigned
 * yet), for a back end that searches on that kernel (cp) rather than on
 * a settled copy of m: as there, only the cardinality kinds take part
 * (the others are set aside meanwhile, then counted in again, not yet
 * looked at), and an equality row whose coefficients' gcd refutes it
 * counts as a conflict.  1 when m has no solution, 0 when it may have,
 * with what the givens force on e's trail; -1 out of memory (err). */
int ilpm_kern_settle_givens(ilpm_kern *e, const ilpm_model *m, int level,
                            ilpm_watch *w, ilpm_err *err);

/* probe.c: failed-literal probing of every open variable, then clause
 * probing, within a work budget (w, if not NULL, cuts it short); -1 when
 * the model has no solution. */
int ilpm_kern_probe(ilpm_kern *e, ilpm_watch *w);

#endif
