/* Propagation of a model's fixed literals, shared by both back ends: the
 * givens of a puzzle (Sudoku clues, placed queens, a Tetravex corner)
 * arrive as unit clauses, and what they force is settled here once,
 * before either lowering sees the model.  Two steps:
 *  - unit propagation through clauses, at-most-one, exactly-one,
 *    implications and cardinality constraints (all read as "sum of
 *    literals cmp k"), with a counter of true and false literals per
 *    constraint and an occurrence list per literal, so that a literal
 *    costs the constraints it occurs in, not a pass over the model;
 *  - probing (level 2): each open variable is tried both ways, then the
 *    open literals of each short at-least-one constraint; a literal whose
 *    propagation fails is ruled out, and one that all the tries force is
 *    fixed.  Probing runs within a work budget and only on models with
 *    givens.  GLPK does not probe binaries itself; CaDiCaL does as it
 *    searches, yet on Sudoku (exact houses) probing first pays on both:
 *    top95 0.27 -> 0.05 s on ILP (every grid is settled before GLPK
 *    starts), top1465 0.78 -> 0.53 s and the 25x25 set 27 -> 21 s on SAT.
 *    The other puzzles' timings do not move, so auto probes for both.
 *
 * Every fixed literal holds in every solution, so solutions and counts
 * are unchanged.  An equality row that the gcd of its coefficients
 * refutes, or a conflict in propagation, gives a model that is the proof
 * (see refuted).
 *
 * Weighted linear constraints and conditional cardinality do not
 * propagate here (their fixed literals are substituted); GLPK and
 * CaDiCaL do the rest. */
#include "ilpm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { UNKNOWN = 0, TRUE = 1, FALSE = 2 };

/* The value of literal l: TRUE, FALSE or UNKNOWN. */
static int lval(const uint8_t *val, int l)
{
    int x = val[abs(l)];
    if (x == UNKNOWN || l > 0)
        return x;
    return x == TRUE ? FALSE : TRUE;
}

/* Literal l as an index: 2v for v, 2v+1 for -v. */
static size_t lix(int l)
{
    return 2 * (size_t)abs(l) + (l < 0);
}

/* The propagating constraints, each as "sum of lits cmp k" over
 * occurrences (a repeated literal counts twice, as in both lowerings). */
typedef struct engine {
    int nv;
    size_t ncons;
    size_t *start; /* ncons + 1 offsets into lits                  */
    int *lits;
    uint8_t *cmp; /* ILPM_LE, ILPM_GE, ILPM_EQ                    */
    int64_t *k;
    int *ntrue, *nfalse; /* occurrences counted so far                 */
    size_t *occ_start;   /* per literal index, into occ (2nv + 3)      */
    size_t *occ;         /* constraint numbers                         */
    uint8_t *val;
    int *trail;
    int ntrail, qhead;
    uint64_t work; /* occurrences and literals visited           */
} engine;

static void engine_free(engine *e)
{
    free(e->start);
    free(e->lits);
    free(e->cmp);
    free(e->k);
    free(e->ntrue);
    free(e->nfalse);
    free(e->occ_start);
    free(e->occ);
    free(e->val);
    free(e->trail);
}

/* The constraint c as a cardinality constraint; 0 when it does not
 * propagate here. */
static int as_card(const ilpm_con *c, ilpm_cmp *cmp, int64_t *k)
{
    switch (c->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        *cmp = ILPM_GE, *k = 1;
        return 1;
    case ILPM_AMO:
        *cmp = ILPM_LE, *k = 1;
        return 1;
    case ILPM_EXO:
        *cmp = ILPM_EQ, *k = 1;
        return 1;
    case ILPM_IMPL: /* a -> b is the clause (-a | b) */
        *cmp = ILPM_GE, *k = 1;
        return 1;
    case ILPM_CARD:
        *cmp = c->cmp, *k = c->rhs;
        return 1;
    default:
        return 0;
    }
}

static int con_lit(const ilpm_con *c, int i)
{
    return c->kind == ILPM_IMPL && i == 0 ? -c->lits[0] : c->lits[i];
}

static int engine_init(engine *e, const ilpm_model *m, ilpm_err *err)
{
    memset(e, 0, sizeof *e);
    e->nv = ilpm_model_nvars(m);
    size_t nc = ilpm_model_ncons(m), nlits = 0, ncons = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_cmp cmp;
        int64_t k;
        ilpm_model_con(m, i, &c);
        if (as_card(&c, &cmp, &k)) {
            ncons++;
            nlits += (size_t)c.n;
        }
    }
    size_t nl = 2 * (size_t)e->nv + 2;
    e->ncons = ncons;
    e->start = malloc((ncons + 1) * sizeof *e->start);
    e->lits = malloc((nlits + 1) * sizeof *e->lits);
    e->cmp = malloc(ncons + 1);
    e->k = malloc((ncons + 1) * sizeof *e->k);
    e->ntrue = calloc(ncons + 1, sizeof *e->ntrue);
    e->nfalse = calloc(ncons + 1, sizeof *e->nfalse);
    e->occ_start = calloc(nl + 1, sizeof *e->occ_start);
    e->occ = malloc((nlits + 1) * sizeof *e->occ);
    e->val = calloc((size_t)e->nv + 1, 1);
    e->trail = malloc(((size_t)e->nv + 1) * sizeof *e->trail);
    if (!e->start || !e->lits || !e->cmp || !e->k || !e->ntrue || !e->nfalse ||
        !e->occ_start || !e->occ || !e->val || !e->trail) {
        engine_free(e);
        return ilpm_err_set(err,
                            "out of memory propagating the fixed literals");
    }
    size_t j = 0, at = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_cmp cmp;
        int64_t k;
        ilpm_model_con(m, i, &c);
        if (!as_card(&c, &cmp, &k))
            continue;
        e->start[j] = at;
        e->cmp[j] = (uint8_t)cmp;
        e->k[j] = k;
        for (int t = 0; t < c.n; t++) {
            int l = con_lit(&c, t);
            e->lits[at++] = l;
            e->occ_start[lix(l) + 1]++;
        }
        j++;
    }
    e->start[ncons] = at;
    for (size_t l = 0; l < nl; l++)
        e->occ_start[l + 1] += e->occ_start[l];
    size_t *fill = malloc((nl + 1) * sizeof *fill);
    if (!fill) {
        engine_free(e);
        return ilpm_err_set(err,
                            "out of memory propagating the fixed literals");
    }
    memcpy(fill, e->occ_start, (nl + 1) * sizeof *fill);
    for (size_t c = 0; c < ncons; c++)
        for (size_t t = e->start[c]; t < e->start[c + 1]; t++)
            e->occ[fill[lix(e->lits[t])]++] = c;
    free(fill);
    return 0;
}

/* Makes literal l true; -1 when it is false already (a conflict). */
static int assign(engine *e, int l)
{
    int x = lval(e->val, l);
    if (x == TRUE)
        return 0;
    if (x == FALSE)
        return -1;
    e->val[abs(l)] = l > 0 ? TRUE : FALSE;
    e->trail[e->ntrail++] = l;
    return 0;
}

/* Sets every open literal of constraint c to `to` (TRUE or FALSE). */
static int settle(engine *e, size_t c, int to)
{
    for (size_t t = e->start[c]; t < e->start[c + 1]; t++) {
        int l = e->lits[t];
        if (lval(e->val, l) == UNKNOWN && assign(e, to == TRUE ? l : -l) != 0)
            return -1;
    }
    e->work += e->start[c + 1] - e->start[c];
    return 0;
}

/* Checks c after its counters moved: a conflict gives -1; a bound met
 * exactly settles the open literals. */
static int check(engine *e, size_t c)
{
    int64_t n = (int64_t)(e->start[c + 1] - e->start[c]);
    int64_t t = e->ntrue[c], f = e->nfalse[c], k = e->k[c];
    int le = e->cmp[c] != ILPM_GE, ge = e->cmp[c] != ILPM_LE;
    if ((le && t > k) || (ge && n - f < k))
        return -1;
    if (le && t == k && t + f < n)
        return settle(e, c, FALSE);
    if (ge && n - f == k && t + f < n)
        return settle(e, c, TRUE);
    return 0;
}

/* Propagates the trail from qhead; -1 on a conflict. */
static int propagate(engine *e)
{
    while (e->qhead < e->ntrail) {
        int l = e->trail[e->qhead++];
        size_t p = lix(l), q = lix(-l);
        e->work += e->occ_start[p + 1] - e->occ_start[p] + e->occ_start[q + 1] -
                   e->occ_start[q];
        for (size_t i = e->occ_start[p]; i < e->occ_start[p + 1]; i++)
            e->ntrue[e->occ[i]]++;
        for (size_t i = e->occ_start[q]; i < e->occ_start[q + 1]; i++)
            e->nfalse[e->occ[i]]++;
        for (size_t i = e->occ_start[p]; i < e->occ_start[p + 1]; i++)
            if (check(e, e->occ[i]) != 0)
                return -1;
        for (size_t i = e->occ_start[q]; i < e->occ_start[q + 1]; i++)
            if (check(e, e->occ[i]) != 0)
                return -1;
    }
    return 0;
}

/* Takes back the trail down to mark. */
static void undo(engine *e, int mark)
{
    while (e->ntrail > mark) {
        int l = e->trail[--e->ntrail];
        if (e->ntrail < e->qhead) {
            size_t p = lix(l), q = lix(-l);
            for (size_t i = e->occ_start[p]; i < e->occ_start[p + 1]; i++)
                e->ntrue[e->occ[i]]--;
            for (size_t i = e->occ_start[q]; i < e->occ_start[q + 1]; i++)
                e->nfalse[e->occ[i]]--;
        }
        e->val[abs(l)] = UNKNOWN;
    }
    if (e->qhead > mark)
        e->qhead = mark;
}

/* Fixes l for good and propagates; -1 when the model has no solution. */
static int fix(engine *e, int l)
{
    return assign(e, l) != 0 || propagate(e) != 0 ? -1 : 0;
}

/* Tries l: 1 when its propagation fails, 0 otherwise with the trail
 * kept (the caller undoes it). */
static int try_lit(engine *e, int l)
{
    return assign(e, l) != 0 || propagate(e) != 0;
}

/* The probing work allowed: a few passes over the model's occurrences,
 * at least enough for a 25x25 Sudoku, at most about a tenth of a second. */
static uint64_t probe_budget(const engine *e)
{
    uint64_t occ = e->start[e->ncons];
    uint64_t b = 64 * occ;
    if (b < 4000000u)
        b = 4000000u;
    return b > 40000000u ? 40000000u : b;
}

/* Tries each of the open literals lits[0..n), one of which holds in
 * every solution: a literal whose propagation fails is ruled out, and a
 * literal that all of them force is fixed.  Failed-literal probing of a
 * variable v is the case (v, -v); clause probing passes the open
 * literals of an at-least-one constraint (on Sudoku's houses, the
 * reasoning of forcing chains).  Returns the number of literals fixed,
 * -1 when the model has no solution. */
static int probe_lits(engine *e, const int *lits, int n, uint32_t *seen,
                      int *hits, uint32_t *stamp, int *both)
{
    ++*stamp;
    for (int i = 0; i < n; i++) {
        int mark = e->ntrail;
        if (try_lit(e, lits[i])) {
            undo(e, mark);
            return fix(e, -lits[i]) != 0 ? -1 : 1;
        }
        /* hits[x] = how many of lits[0..i] force x, counted while x has
         * been forced by every one so far */
        for (int t = mark; t < e->ntrail; t++) {
            size_t x = lix(e->trail[t]);
            if (seen[x] != *stamp) {
                seen[x] = *stamp;
                hits[x] = 0;
            }
            if (hits[x] == i)
                hits[x] = i + 1;
        }
        if (i < n - 1) {
            undo(e, mark);
            continue;
        }
        int nboth = 0;
        for (int t = mark; t < e->ntrail; t++)
            if (hits[lix(e->trail[t])] == n)
                both[nboth++] = e->trail[t];
        undo(e, mark);
        for (int j = 0; j < nboth; j++)
            if (fix(e, both[j]) != 0)
                return -1;
        return nboth;
    }
    return 0;
}

/* Clause probing is tried on at-least-one constraints (clause, ALO, EXO)
 * with up to this many open literals. */
#define MAX_CLAUSE_PROBE 8

/* The open literals of constraint c into open[], when c is an unsatisfied
 * at-least-one with 2..MAX_CLAUSE_PROBE of them; else 0. */
static int clause_open(const engine *e, size_t c, int *open)
{
    if (e->cmp[c] == ILPM_LE || e->k[c] != 1)
        return 0;
    int n = 0;
    for (size_t t = e->start[c]; t < e->start[c + 1]; t++) {
        int x = lval(e->val, e->lits[t]);
        if (x == TRUE)
            return 0;
        if (x == UNKNOWN) {
            if (n == MAX_CLAUSE_PROBE)
                return 0;
            open[n++] = e->lits[t];
        }
    }
    return n >= 2 ? n : 0;
}

/* Failed-literal probing of every open variable, then, once that finds
 * nothing more, clause probing, in rounds until neither finds anything;
 * -1 when the model has no solution.  It stops early at the work budget
 * or when w (the run's time limit and stop flag, or NULL) fires: what
 * was fixed so far holds all the same. */
static int probe(engine *e, ilpm_watch *w)
{
    size_t nl = 2 * (size_t)e->nv + 2;
    uint32_t *seen = calloc(nl, sizeof *seen);
    int *hits = calloc(nl, sizeof *hits);
    int *both = malloc(((size_t)e->nv + 1) * sizeof *both);
    if (!seen || !hits || !both) {
        free(seen);
        free(hits);
        free(both);
        return 0; /* probing is optional */
    }
    uint64_t budget = e->work + probe_budget(e);
    uint32_t stamp = 0;
    int rc = 0, found = 1;
    for (int round = 0; found && rc >= 0 && e->work < budget; round++) {
        found = 0;
        for (int v = 1; v <= e->nv && rc >= 0 && e->work < budget &&
                        !(w && ilpm_watch_poll(w, "", NULL));
             v++) {
            size_t occ_v = e->occ_start[lix(-v) + 1] - e->occ_start[lix(v)];
            if (e->val[v] != UNKNOWN || occ_v == 0)
                continue;
            int both_ways[2] = {v, -v};
            rc = probe_lits(e, both_ways, 2, seen, hits, &stamp, both);
            found += rc > 0 ? rc : 0;
        }
        if (found)
            continue; /* the cheap step first, until it finds nothing */
        for (size_t c = 0; c < e->ncons && rc >= 0 && e->work < budget &&
                           !(w && ilpm_watch_poll(w, "", NULL));
             c++) {
            int open[MAX_CLAUSE_PROBE];
            int n = clause_open(e, c, open);
            rc = n ? probe_lits(e, open, n, seen, hits, &stamp, both) : 0;
            found += rc > 0 ? rc : 0;
        }
    }
    free(seen);
    free(hits);
    free(both);
    return rc < 0 ? -1 : 0;
}

/* The counters start at zero: each constraint is looked at once, which
 * settles the unit clauses (and any cardinality constraint with k = 0 or
 * k = n); propagation goes on from there.  1 on a conflict. */
static int settle_model(engine *e)
{
    for (size_t c = 0; c < e->ncons; c++)
        if (check(e, c) != 0 || propagate(e) != 0)
            return 1;
    return 0;
}

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
    for (int g = 0; g < ilpm_model_ngroups(m); g++) {
        if (ilpm_model_group(out, ilpm_model_group_name(m, g), err) < 0)
            goto fail;
        if (ilpm_model_group_redundant(m, g))
            ilpm_model_set_redundant(out, g);
    }
    ilpm_model_set_branch_hint(out, ilpm_model_branch_hint(m));
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

static int64_t gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
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
        int x = val ? lval(val, c->lits[i]) : UNKNOWN;
        if (x == TRUE)
            rhs -= c->coefs[i];
        else if (x == UNKNOWN)
            g = gcd64(g, c->coefs[i]);
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

/* Adds c to out without its fixed literals; 1 when c cannot hold (the
 * propagation missed a conflict), -1 on error. */
static int add_reduced(ilpm_model *out, const ilpm_model *m, const uint8_t *val,
                       const ilpm_con *c, int *lits, int64_t *coefs,
                       ilpm_err *err)
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
        if (gcd_infeasible(c, val))
            return 1;
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

static ilpm_model *propagate_model(const ilpm_model *m, int level,
                                   ilpm_watch *w, int *unchanged, ilpm_err *err)
{
    *unchanged = 1;
    size_t nc = ilpm_model_ncons(m);
    int nv = ilpm_model_nvars(m);
    if (nv < 1)
        return NULL;
    /* Nothing is forced without a one-literal clause or exactly-one; an
     * equality row may still be refuted by its coefficients alone. */
    int any = 0, infeasible = 0;
    for (size_t i = 0; i < nc && !infeasible; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        any |= c.n == 1 && (c.kind == ILPM_CLAUSE || c.kind == ILPM_ALO ||
                            c.kind == ILPM_EXO);
        infeasible = gcd_infeasible(&c, NULL);
    }
    if (infeasible) {
        *unchanged = 0;
        return refuted(m, err);
    }
    if (!any)
        return NULL;
    engine e;
    if (engine_init(&e, m, err) != 0) {
        *unchanged = 0;
        return NULL;
    }
    int conflict = settle_model(&e);
    if (!conflict && level >= 2)
        conflict = probe(&e, w) != 0;
    uint8_t *val = e.val;
    int nfixed = e.ntrail;
    if (conflict || nfixed == 0) {
        engine_free(&e);
        *unchanged = !conflict;
        return conflict ? refuted(m, err) : NULL;
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
    engine_free(&e);
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

int ilpm_propagate_assumed_level(const ilpm_options *o)
{
    /* Under auto, CaDiCaL takes assumptions as they are: it propagates
     * them itself, and each literal passed costs it a decision level
     * (top1465 in a batch: 0.43 s as they are, 0.48 s with what probing
     * forces).  GLPK needs the forced columns fixed to presolve them away
     * (4.0 s without, 0.46 s with). */
    if ((!o || o->propagate == ILPM_PROP_AUTO) &&
        (o ? o->backend : ILPM_BACKEND_SAT) == ILPM_BACKEND_SAT)
        return 0;
    return ilpm_propagate_level(o);
}

struct ilpm_propagator {
    engine e;
    int base;    /* trail length after the model's own units */
    int refuted; /* the model alone has no solution         */
};

ilpm_propagator *ilpm_propagator_new(const ilpm_model *m, ilpm_err *err)
{
    ilpm_propagator *p = calloc(1, sizeof *p);
    if (!p) {
        ilpm_err_set(err, "out of memory propagating the fixed literals");
        return NULL;
    }
    if (engine_init(&p->e, m, err) != 0) {
        free(p);
        return NULL;
    }
    p->refuted = settle_model(&p->e);
    p->base = p->e.ntrail;
    return p;
}

void ilpm_propagator_free(ilpm_propagator *p)
{
    if (!p)
        return;
    engine_free(&p->e);
    free(p);
}

int ilpm_propagator_run(ilpm_propagator *p, const int *assume, int n, int level,
                        ilpm_watch *w, int **out, int *nout, ilpm_err *err)
{
    engine *e = &p->e;
    *out = NULL;
    *nout = 0;
    if (p->refuted)
        return 1;
    for (int i = 0; i < n; i++)
        if (assume[i] == 0 || abs(assume[i]) > e->nv)
            return ilpm_err_set(err, "assumption %d is not a model literal",
                                assume[i]);
    int conflict = 0;
    for (int i = 0; i < n && !conflict; i++)
        conflict = assign(e, assume[i]) != 0;
    conflict =
        conflict || propagate(e) != 0 || (level >= 2 && probe(e, w) != 0);
    int rc = conflict ? 1 : 0;
    if (!conflict && e->ntrail > p->base) {
        *nout = e->ntrail - p->base;
        *out = malloc((size_t)*nout * sizeof **out);
        if (*out)
            memcpy(*out, e->trail + p->base, (size_t)*nout * sizeof **out);
        else
            rc = ilpm_err_set(err, "out of memory propagating assumptions");
    }
    undo(e, p->base);
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
    ilpm_watch_init(&w, o ? o->time_limit : 0, o ? o->stop_flag : NULL);
    *own = propagate_model(m, level, &w, &unchanged, err);
    if (*own)
        return *own;
    return unchanged ? m : NULL;
}
