/* Propagation of a model's fixed literals, shared by both back ends, on
 * the propagation kernel (kernel.c, which the cp back end searches on
 * too; probing in probe.c): the givens of a puzzle (Sudoku clues, placed
 * queens, a Tetravex corner) arrive as unit clauses, and what they force is
 * settled here once, before either lowering sees the model (the cp back
 * end settles them the same way on the kernel it then searches on:
 * ilpm_kern_settle_givens).  Two steps:
 *  - unit propagation through clauses, at-most-one, exactly-one,
 *    implications and cardinality constraints (all read as "sum of
 *    literals cmp k"), with the weight of the true and of the false
 *    literals per constraint and an occurrence list per literal, so that
 *    a literal costs the constraints it occurs in, not a pass over the
 *    model;
 *  - probing (level 2): each open variable is tried both ways, then the
 *    open literals of each short at-least-one constraint; a literal whose
 *    propagation fails is ruled out, and one that all the tries force is
 *    fixed.  Probing runs within a work budget and only on models with
 *    givens.  GLPK does not probe binaries itself; CaDiCaL does as it
 *    searches, yet on Sudoku (exact houses) probing first pays on both,
 *    and the other puzzles' timings do not move, so auto probes for both
 *    (figures: docs/benchmarks.md, "Propagation").
 *
 * Every fixed literal holds in every solution, so solutions and counts
 * are unchanged.  An equality row that the gcd of its coefficients
 * refutes, or a conflict in propagation, gives a model that is the proof
 * (see refuted).
 *
 * Weighted linear constraints and conditional cardinality do not
 * propagate here (their fixed literals are substituted); GLPK and
 * CaDiCaL do the rest. */
#include "ilpm_int.h"
#include "kernel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int holds(ilpm_cmp cmp, int64_t lhs, int64_t rhs)
{
    return cmp == ILPM_LE   ? lhs <= rhs
           : cmp == ILPM_GE ? lhs >= rhs
                            : lhs == rhs;
}

/* Copies families, groups and objective: the same variable ids. */
static ilpm_model *copy_frame(const ilpm_model *m, ilpm_err *err)
{
    ilpm_model *out = ilpm_model_new();
    if (!out) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    int nf = ilpm_model_nfamilies(m);
    for (int f = 0; f < nf; f++) {
        int lo[ILPM_MAX_DIMS], hi[ILPM_MAX_DIMS];
        unsigned flags;
        int nd = ilpm_model_family_info(m, f, lo, hi, &flags);
        if (ilpm_model_family(out, ilpm_model_family_name(m, f), nd, lo, hi,
                              flags, err) < 0)
            goto fail;
    }
    for (int g = 0; g < ilpm_model_ngroups(m); g++) {
        if (ilpm_model_group(out, ilpm_model_group_name(m, g), err) < 0)
            goto fail;
        ilpm_model_set_redundant_in(out, g, ilpm_model_group_redundant(m, g));
    }
    ilpm_model_set_hint(out, ilpm_model_hint(m));
    for (int v = 1; v <= ilpm_model_nvars(m); v++)
        if (ilpm_model_var_own_name(m, v) &&
            ilpm_model_set_var_name(out, v, ilpm_model_var_own_name(m, v),
                                    err) != 0)
            goto fail;
    int on;
    const int *ol;
    const int64_t *oc;
    ilpm_sense sense = ilpm_model_objective_get(m, &on, &ol, &oc);
    if (sense != ILPM_NONE &&
        ilpm_model_objective(out, sense, oc, ol, on, err) != 0)
        goto fail;
    return out;
fail:
    ilpm_model_free(out);
    return NULL;
}

/* An equality sum a_i l_i = b that no 0/1 point meets because the gcd of
 * its open coefficients does not divide what is left of b (val NULL: no
 * literal fixed).  Langford's position-sum row is such a row for L(2,n)
 * with n = 1 or 2 (mod 4): Davies' parity argument. */
static int gcd_infeasible(const ilpm_con *c, const uint8_t *val)
{
    if ((c->kind != ILPM_LINEAR && c->kind != ILPM_CARD) || c->cmp != ILPM_EQ)
        return 0;
    int64_t rhs = c->rhs, g = 0;
    for (int i = 0; i < c->n; i++) {
        int x = val ? ilpm_klval(val, c->lits[i]) : ILPM_K_OPEN;
        if (x == ILPM_K_TRUE)
            rhs -= c->coefs[i];
        else if (x == ILPM_K_OPEN)
            g = ilpm_gcd64(g, c->coefs[i]);
    }
    return g == 0 ? rhs != 0 : rhs % g != 0;
}

/* The model of a proof that m has no solution: m's frame and the clauses
 * x1 and -x1 (group "fixed"), which either lowering refutes at once. */
static ilpm_model *refuted(const ilpm_model *m, ilpm_err *err)
{
    ilpm_model *out = copy_frame(m, err);
    int l[2] = {1, -1};
    if (out && (ilpm_model_group(out, "fixed", err) < 0 ||
                ilpm_add_clause(out, &l[0], 1, err) != 0 ||
                ilpm_add_clause(out, &l[1], 1, err) != 0)) {
        ilpm_model_free(out);
        return NULL;
    }
    return out;
}

/* The group and name that out's next constraint takes, as last set
 * (group -1: none yet; name NULL, as in a new model): a group's
 * constraints, and a name's, come in runs, and setting the group again
 * looks it up by its name each time. */
struct naming {
    int group;
    const char *name;
};

/* Sets the group and name of out's next constraint to c's; -1 on
 * error. */
static int name_next(ilpm_model *out, const ilpm_model *m, const ilpm_con *c,
                     struct naming *at, ilpm_err *err)
{
    if (c->group != at->group) {
        if (ilpm_model_group(out, ilpm_model_group_name(m, c->group), err) < 0)
            return -1;
        at->group = c->group;
    }
    if (c->name != at->name) {
        if (ilpm_model_set_con_name(out, c->name, err) != 0)
            return -1;
        at->name = c->name;
    }
    return 0;
}

/* Adds c to out without its fixed literals; 1 when c cannot hold (the
 * propagation missed a conflict), -1 on error. */
static int add_reduced(ilpm_model *out, const ilpm_model *m, const uint8_t *val,
                       const ilpm_con *c, int *lits, int64_t *coefs,
                       struct naming *at, ilpm_err *err)
{
    int n = 0, ntrue = 0;
    int64_t rhs = c->rhs;
    for (int i = 0; i < c->n; i++) {
        int x = ilpm_klval(val, c->lits[i]);
        if (x == ILPM_K_TRUE) {
            ntrue++;
            rhs -= c->coefs[i];
        } else if (x == ILPM_K_OPEN) {
            coefs[n] = c->coefs[i];
            lits[n++] = c->lits[i];
        }
    }
    if (name_next(out, m, c, at, err) != 0)
        return -1;
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        if (ntrue)
            return 0;
        if (n == 0)
            return 1;
        return c->kind == ILPM_ALO ? ilpm_add_alo(out, lits, n, err)
                                   : ilpm_add_clause(out, lits, n, err);
    case ILPM_AMO:
        /* A true literal has made every other one false already. */
        if (ntrue > 1)
            return 1;
        return ntrue || n < 2 ? 0 : ilpm_add_amo(out, lits, n, err);
    case ILPM_EXO:
        if (ntrue > 1 || (ntrue == 0 && n == 0))
            return 1;
        return ntrue ? 0 : ilpm_add_exo(out, lits, n, err);
    case ILPM_IMPL: {
        int a = ilpm_klval(val, c->lits[0]), b = ilpm_klval(val, c->lits[1]);
        if (a == ILPM_K_FALSE || b == ILPM_K_TRUE)
            return 0;
        if (a == ILPM_K_TRUE && b == ILPM_K_FALSE)
            return 1;
        /* One side known: propagation fixed the other. */
        if (a != ILPM_K_OPEN || b != ILPM_K_OPEN)
            return 0;
        return ilpm_add_impl(out, c->lits[0], c->lits[1], err);
    }
    case ILPM_CARD:
    case ILPM_LINEAR:
        if (gcd_infeasible(c, val))
            return 1;
        if (n == 0)
            return holds(c->cmp, 0, rhs) ? 0 : 1;
        return c->kind == ILPM_CARD
                   ? ilpm_add_card(out, lits, n, c->cmp, rhs, err)
                   : ilpm_add_linear(out, coefs, lits, n, c->cmp, rhs, err);
    case ILPM_CCARD: {
        int cond = ilpm_klval(val, c->cond);
        if (cond == ILPM_K_FALSE)
            return 0;
        if (n == 0) {
            if (holds(c->cmp, 0, rhs))
                return 0;
            if (cond == ILPM_K_TRUE)
                return 1;
            int nc = -c->cond; /* the sum fails: the condition must too */
            return ilpm_add_clause(out, &nc, 1, err);
        }
        if (cond == ILPM_K_TRUE)
            return ilpm_add_card(out, lits, n, c->cmp, rhs, err);
        return ilpm_add_ccard(out, c->cond, lits, n, c->cmp, rhs, err);
    }
    default:
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "propagation: unknown constraint kind %d",
                             (int)c->kind);
    }
}

/* What settling m takes: *any when m has givens (nothing is forced
 * without a one-literal clause or exactly-one), *maxn its longest
 * constraint; 1 when an equality row is refuted by its coefficients
 * alone, else 0. */
static int scan_givens(const ilpm_model *m, int *any, size_t *maxn)
{
    size_t nc = ilpm_model_ncons(m);
    int infeasible = 0;
    *any = 0;
    *maxn = 1;
    for (size_t i = 0; i < nc && !infeasible; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        *any |= c.n == 1 && (c.kind == ILPM_CLAUSE || c.kind == ILPM_ALO ||
                             c.kind == ILPM_EXO);
        infeasible = gcd_infeasible(&c, NULL);
        *maxn = (size_t)c.n > *maxn ? (size_t)c.n : *maxn;
    }
    return infeasible;
}

static ilpm_model *propagate_model(const ilpm_model *m, int level,
                                   ilpm_watch *w, int *unchanged, ilpm_err *err)
{
    *unchanged = 1;
    size_t nc = ilpm_model_ncons(m);
    int nv = ilpm_model_nvars(m);
    if (nv < 1)
        return NULL;
    int any;
    size_t maxn;
    if (scan_givens(m, &any, &maxn)) {
        *unchanged = 0;
        return refuted(m, err);
    }
    if (!any)
        return NULL;
    ilpm_kern e;
    if (ilpm_kern_init(&e, m, ILPM_KERN_CARD_KINDS, w, err) != 0) {
        *unchanged = 0;
        return NULL;
    }
    int conflict = ilpm_kern_settle(&e, 0) != 0;
    if (!conflict && level >= 2)
        conflict = ilpm_kern_probe(&e, w) != 0;
    uint8_t *val = e.val;
    int nfixed = e.ntrail;
    if (conflict || nfixed == 0) {
        ilpm_kern_free(&e);
        *unchanged = !conflict;
        return conflict ? refuted(m, err) : NULL;
    }
    int *lits = malloc(maxn * sizeof *lits);
    int64_t *coefs = malloc(maxn * sizeof *coefs);
    ilpm_model *out = lits && coefs ? copy_frame(m, err) : NULL;
    if (!lits || !coefs)
        ilpm_err_nomem(err, "out of memory propagating the fixed literals");
    int rc = out ? 0 : -1;
    struct naming at = {-1, NULL};
    for (size_t i = 0; i < nc && rc == 0; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (w && ilpm_watch_poll(w, "propagating the model", err) != 0)
            rc = -1;
        else
            rc = add_reduced(out, m, val, &c, lits, coefs, &at, err);
    }
    if (rc == 0 && (ilpm_model_group(out, "fixed", err) < 0 ||
                    ilpm_model_set_con_name(out, NULL, err) != 0))
        rc = -1;
    for (int v = 1; v <= nv && rc == 0; v++)
        if (val[v] != ILPM_K_OPEN) {
            int l = val[v] == ILPM_K_TRUE ? v : -v;
            rc = ilpm_add_clause(out, &l, 1, err);
        }
    ilpm_kern_free(&e);
    free(lits);
    free(coefs);
    if (rc != 0) {
        ilpm_model_free(out);
        /* rc > 0: a constraint that cannot hold any more */
        *unchanged = 0;
        return rc > 0 ? refuted(m, err) : NULL;
    }
    *unchanged = 0;
    return out;
}

/* Sets aside the constraints of e (numbered as m's) whose kind the
 * settling of givens leaves to the back ends (ILPM_KERN_CARD_KINDS):
 * out of the occurrence lists, with no side that binds (so that settling
 * and probing pass them by), each side kept in aside[c] (1: <=, 2: >=,
 * 4: set aside).  0 when there is none, 1 when some were, -1 out of
 * memory. */
static int set_aside(ilpm_kern *e, const ilpm_model *m, uint8_t **aside)
{
    size_t nc = ilpm_model_ncons(m);
    *aside = NULL;
    int n = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (ILPM_KERN_CARD_KINDS & (1u << c.kind))
            continue;
        if (!*aside && !(*aside = calloc((size_t)e->ncons + 1, 1)))
            return -1;
        ilpm_kcon *x = &e->cons[i];
        (*aside)[i] = (uint8_t)(4 | x->le | x->ge << 1);
        x->le = x->ge = 0;
        n++;
    }
    if (n)
        ilpm_kern_detach(e, *aside);
    return n > 0;
}

/* Takes back what set_aside set aside, its weights counted anew. */
static void take_back(ilpm_kern *e, uint8_t *aside)
{
    for (int c = 0; c < e->ncons; c++)
        if (aside[c]) {
            e->cons[c].le = aside[c] & 1;
            e->cons[c].ge = (aside[c] >> 1) & 1;
        }
    ilpm_kern_attach(e, aside);
    free(aside);
}

int ilpm_kern_settle_givens(ilpm_kern *e, const ilpm_model *m, int level,
                            ilpm_watch *w, ilpm_err *err)
{
    int any;
    size_t maxn;
    if (level == 0 || ilpm_model_nvars(m) < 1)
        return 0;
    if (scan_givens(m, &any, &maxn))
        return 1;
    if (!any)
        return 0;
    uint8_t *aside;
    int rc = set_aside(e, m, &aside);
    if (rc < 0)
        return ilpm_err_nomem(err, "out of memory propagating the fixed "
                                   "literals");
    int conflict = ilpm_kern_settle(e, 0) != 0 ||
                   (level >= 2 && ilpm_kern_probe(e, w) != 0);
    if (aside)
        take_back(e, aside);
    size_t nc = ilpm_model_ncons(m);
    for (size_t i = 0; i < nc && !conflict && e->ntrail > 0; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        conflict = gcd_infeasible(&c, e->val);
    }
    return conflict;
}

ilpm_model *ilpm_model_propagate(const ilpm_model *m, int level, int *unchanged,
                                 ilpm_err *err)
{
    return propagate_model(m, level, NULL, unchanged, err);
}

int ilpm_propagate_level(const ilpm_options *o)
{
    switch (o ? o->propagate : ILPM_PROP_AUTO) {
    case ILPM_PROP_NONE:
        return 0;
    case ILPM_PROP_UNITS:
        return 1;
    default:
        return 2; /* auto probes on both back ends: see the head comment */
    }
}

int ilpm_propagate_assumed_level(const ilpm_options *o, int fix_under_auto)
{
    /* Under auto, a back end that propagates assumptions itself takes
     * them as they are (CaDiCaL: each literal passed costs it a decision
     * level, measured slower with what probing forces; cp's search starts
     * by propagating them).  GLPK needs the forced columns fixed to
     * presolve them away (figures: docs/benchmarks.md, "Batches").  Each
     * driver says which it is (ilpm_driver_ops.fix_assumed). */
    if ((!o || o->propagate == ILPM_PROP_AUTO) && !fix_under_auto)
        return 0;
    return ilpm_propagate_level(o);
}

struct ilpm_propagator {
    ilpm_kern e;
    int base;    /* trail length after the model's own units */
    int refuted; /* the model alone has no solution         */
};

ilpm_propagator *ilpm_propagator_new(const ilpm_model *m, ilpm_watch *w,
                                     ilpm_err *err)
{
    ilpm_propagator *p = calloc(1, sizeof *p);
    if (!p) {
        ilpm_err_nomem(err, "out of memory propagating the fixed literals");
        return NULL;
    }
    if (ilpm_kern_init(&p->e, m, ILPM_KERN_CARD_KINDS, w, err) != 0) {
        free(p);
        return NULL;
    }
    p->refuted = ilpm_kern_settle(&p->e, 0) != 0;
    p->base = p->e.ntrail;
    return p;
}

void ilpm_propagator_free(ilpm_propagator *p)
{
    if (!p)
        return;
    ilpm_kern_free(&p->e);
    free(p);
}

int ilpm_propagator_run(ilpm_propagator *p, const int *assume, int n, int level,
                        ilpm_watch *w, int **out, int *nout, ilpm_err *err)
{
    ilpm_kern *e = &p->e;
    *out = NULL;
    *nout = 0;
    if (p->refuted)
        return 1;
    for (int i = 0; i < n; i++)
        if (assume[i] == 0 || abs(assume[i]) > e->nv)
            return ilpm_err_input(err, "assumption %d is not a model literal",
                                  assume[i]);
    int conflict = 0;
    for (int i = 0; i < n && !conflict; i++)
        conflict = ilpm_kern_assign(e, assume[i]) != 0;
    conflict = conflict || ilpm_kern_propagate(e) != 0 ||
               (level >= 2 && ilpm_kern_probe(e, w) != 0);
    int rc = conflict ? 1 : 0;
    if (!conflict && e->ntrail > p->base) {
        *nout = e->ntrail - p->base;
        *out = malloc((size_t)*nout * sizeof **out);
        if (*out)
            memcpy(*out, e->trail + p->base, (size_t)*nout * sizeof **out);
        else
            rc = ilpm_err_nomem(err, "out of memory propagating assumptions");
    }
    ilpm_kern_undo(e, p->base);
    e->work = 0;
    return rc;
}

const ilpm_model *ilpm_model_lowered(const ilpm_model *m, const ilpm_options *o,
                                     ilpm_model **own, ilpm_err *err)
{
    *own = NULL;
    int level = ilpm_propagate_level(o);
    if (level == 0)
        return m;
    int unchanged;
    ilpm_watch w;
    ilpm_watch_until(&w, ilpm_options_deadline(o), o ? o->stop_flag : NULL);
    *own = propagate_model(m, level, &w, &unchanged, err);
    if (*own)
        return *own;
    return unchanged ? m : NULL;
}
