/* Unit propagation over a model's fixed literals, shared by both back
 * ends: the givens of a puzzle (Sudoku clues, placed queens, a Tetravex
 * corner) arrive as unit clauses, and what they force through clauses,
 * at-most-one, exactly-one and implications is settled here once, before
 * either lowering sees the model.  A 9x9 Sudoku keeps about a third of
 * its 729 variables open and a tenth of its clauses; CaDiCaL then spends
 * its time searching instead of reading clauses it would simplify away,
 * and GLPK's presolver starts from a smaller problem.
 *
 * Cardinality and linear constraints do not propagate here (their fixed
 * literals are substituted); GLPK and CaDiCaL do the rest. */
#include "ilpm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A fixpoint is reached in a few passes for puzzles; a long implication
 * chain stops early, which is still sound (less is fixed). */
#define MAX_PASSES 64

enum { UNKNOWN = 0, TRUE = 1, FALSE = 2 };

/* The value of literal l: TRUE, FALSE or UNKNOWN. */
static int lval(const uint8_t *val, int l)
{
    int x = val[abs(l)];
    if (x == UNKNOWN || l > 0)
        return x;
    return x == TRUE ? FALSE : TRUE;
}

/* Makes literal l true; -1 when it is false already (a conflict). */
static int force(uint8_t *val, int l, int *changed)
{
    int x = lval(val, l);
    if (x == TRUE)
        return 0;
    if (x == FALSE)
        return -1;
    val[abs(l)] = l > 0 ? TRUE : FALSE;
    *changed = 1;
    return 0;
}

/* At least one of lits: forces the last open literal; -1 on conflict. */
static int prop_alo(uint8_t *val, const ilpm_con *c, int *changed)
{
    int open = 0, last = 0;
    for (int i = 0; i < c->n; i++) {
        int x = lval(val, c->lits[i]);
        if (x == TRUE)
            return 0;
        if (x == UNKNOWN) {
            open++;
            last = c->lits[i];
        }
    }
    if (open == 0)
        return -1;
    return open == 1 ? force(val, last, changed) : 0;
}

/* At most one of lits: a true literal makes the others false.  Sets
 * *has_true when one is true. */
static int prop_amo(uint8_t *val, const ilpm_con *c, int *changed,
                    int *has_true)
{
    int t = -1;
    for (int i = 0; i < c->n; i++)
        if (lval(val, c->lits[i]) == TRUE) {
            if (t >= 0 && c->lits[i] != c->lits[t])
                return -1;
            t = i;
        }
    *has_true = t >= 0;
    if (t < 0)
        return 0;
    for (int i = 0; i < c->n; i++)
        if (c->lits[i] != c->lits[t] && force(val, -c->lits[i], changed) != 0)
            return -1;
    return 0;
}

static int propagate_con(uint8_t *val, const ilpm_con *c, int *changed)
{
    int has_true = 0;
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        return prop_alo(val, c, changed);
    case ILPM_AMO:
        return prop_amo(val, c, changed, &has_true);
    case ILPM_EXO:
        if (prop_amo(val, c, changed, &has_true) != 0)
            return -1;
        return has_true ? 0 : prop_alo(val, c, changed);
    case ILPM_IMPL:
        if (lval(val, c->lits[0]) == TRUE)
            return force(val, c->lits[1], changed);
        if (lval(val, c->lits[1]) == FALSE)
            return force(val, -c->lits[0], changed);
        return 0;
    default:
        return 0;
    }
}

static int holds(ilpm_cmp cmp, int64_t lhs, int64_t rhs)
{
    return cmp == ILPM_LE ? lhs <= rhs : cmp == ILPM_GE ? lhs >= rhs : lhs == rhs;
}

/* Copies families, groups and objective: the same variable ids. */
static ilpm_model *copy_frame(const ilpm_model *m, ilpm_err *err)
{
    ilpm_model *out = ilpm_model_new();
    if (!out) {
        ilpm_err_set(err, "out of memory");
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
    for (int g = 0; g < ilpm_model_ngroups(m); g++)
        if (ilpm_model_group(out, ilpm_model_group_name(m, g), err) < 0)
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

/* Adds c to out without its fixed literals; 1 when c cannot hold (the
 * propagation missed a conflict), -1 on error. */
static int add_reduced(ilpm_model *out, const ilpm_model *m,
                       const uint8_t *val, const ilpm_con *c, int *lits,
                       int64_t *coefs, ilpm_err *err)
{
    int n = 0, ntrue = 0;
    int64_t rhs = c->rhs;
    for (int i = 0; i < c->n; i++) {
        int x = lval(val, c->lits[i]);
        if (x == TRUE) {
            ntrue++;
            rhs -= c->coefs[i];
        } else if (x == UNKNOWN) {
            coefs[n] = c->coefs[i];
            lits[n++] = c->lits[i];
        }
    }
    if (ilpm_model_group(out, ilpm_model_group_name(m, c->group), err) < 0)
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
        int a = lval(val, c->lits[0]), b = lval(val, c->lits[1]);
        if (a == FALSE || b == TRUE)
            return 0;
        if (a == TRUE && b == FALSE)
            return 1;
        /* One side known: propagation fixed the other. */
        if (a != UNKNOWN || b != UNKNOWN)
            return 0;
        return ilpm_add_impl(out, c->lits[0], c->lits[1], err);
    }
    case ILPM_CARD:
    case ILPM_LINEAR:
        if (n == 0)
            return holds(c->cmp, 0, rhs) ? 0 : 1;
        return c->kind == ILPM_CARD
                   ? ilpm_add_card(out, lits, n, c->cmp, rhs, err)
                   : ilpm_add_linear(out, coefs, lits, n, c->cmp, rhs, err);
    case ILPM_CCARD: {
        int cond = lval(val, c->cond);
        if (cond == FALSE)
            return 0;
        if (n == 0) {
            if (holds(c->cmp, 0, rhs))
                return 0;
            if (cond == TRUE)
                return 1;
            int nc = -c->cond; /* the sum fails: the condition must too */
            return ilpm_add_clause(out, &nc, 1, err);
        }
        if (cond == TRUE)
            return ilpm_add_card(out, lits, n, c->cmp, rhs, err);
        return ilpm_add_ccard(out, c->cond, lits, n, c->cmp, rhs, err);
    }
    default:
        return ilpm_err_set(err, "propagation: unknown constraint kind %d",
                            (int)c->kind);
    }
}

ilpm_model *ilpm_model_propagate(const ilpm_model *m, int *unchanged,
                                 ilpm_err *err)
{
    *unchanged = 1;
    size_t nc = ilpm_model_ncons(m);
    int nv = ilpm_model_nvars(m);
    /* Nothing is forced without a one-literal clause or exactly-one. */
    int any = 0;
    for (size_t i = 0; i < nc && !any; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        any = c.n == 1 && (c.kind == ILPM_CLAUSE || c.kind == ILPM_ALO ||
                           c.kind == ILPM_EXO);
    }
    if (!any)
        return NULL;
    uint8_t *val = calloc((size_t)nv + 1, 1);
    if (!val) {
        ilpm_err_set(err, "out of memory propagating the fixed literals");
        *unchanged = 0;
        return NULL;
    }
    int changed = 1, conflict = 0;
    for (int pass = 0; changed && !conflict && pass < MAX_PASSES; pass++) {
        changed = 0;
        for (size_t i = 0; i < nc && !conflict; i++) {
            ilpm_con c;
            ilpm_model_con(m, i, &c);
            conflict = propagate_con(val, &c, &changed) != 0;
        }
    }
    int nfixed = 0;
    for (int v = 1; v <= nv; v++)
        nfixed += val[v] != UNKNOWN;
    if (conflict || nfixed == 0) {
        free(val);
        return NULL;
    }
    size_t maxn = 1;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if ((size_t)c.n > maxn)
            maxn = (size_t)c.n;
    }
    int *lits = malloc(maxn * sizeof *lits);
    int64_t *coefs = malloc(maxn * sizeof *coefs);
    ilpm_model *out = lits && coefs ? copy_frame(m, err) : NULL;
    if (!lits || !coefs)
        ilpm_err_set(err, "out of memory propagating the fixed literals");
    int rc = out ? 0 : -1;
    for (size_t i = 0; i < nc && rc == 0; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        rc = add_reduced(out, m, val, &c, lits, coefs, err);
    }
    if (rc == 0 && ilpm_model_group(out, "fixed", err) < 0)
        rc = -1;
    for (int v = 1; v <= nv && rc == 0; v++)
        if (val[v] != UNKNOWN) {
            int l = val[v] == TRUE ? v : -v;
            rc = ilpm_add_clause(out, &l, 1, err);
        }
    free(val);
    free(lits);
    free(coefs);
    if (rc != 0) {
        ilpm_model_free(out);
        /* A missed conflict: leave the proof to the solver. */
        *unchanged = rc > 0;
        return NULL;
    }
    *unchanged = 0;
    return out;
}

const ilpm_model *ilpm_model_lowered(const ilpm_model *m, const ilpm_options *o,
                                     ilpm_model **own, ilpm_err *err)
{
    *own = NULL;
    if (!o || !o->propagate)
        return m;
    int unchanged;
    *own = ilpm_model_propagate(m, &unchanged, err);
    if (*own)
        return *own;
    return unchanged ? m : NULL;
}
