/* The GLPK lowering: one binary column per model variable and the rows
 * of rows.c, named after their groups when the problem is written out
 * for other solvers.  A driver without a problem only counts the rows
 * (ilpm_glpk_stats). */
#include "glpk_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COEF_LIMIT ((int64_t)1 << 40) /* as the model layer enforces */

static void driver_free(ilpm_glpk *d)
{
    if (!d)
        return;
    if (d->gprefix)
        for (int g = 0; g < d->ngroups; g++)
            free(d->gprefix[g]);
    free(d->gprefix);
    free(d->gcount);
    ilpm_rows_release(&d->rows);
    free(d->ind);
    free(d->val);
    free(d->obj);
    free(d->fix);
    free(d);
}

/* Row names must be valid in CPLEX LP, where a leading digit is not: GLPK
 * would then write a generic name to the LP file only.  "r." cannot start
 * a group name, so the prefixed names stay unique. */
static char *row_prefix(const char *group)
{
    size_t n = strlen(group);
    char *p = malloc(n + 3);
    if (p)
        snprintf(p, n + 3, "%s%s",
                 group[0] >= '0' && group[0] <= '9' ? "r." : "", group);
    return p;
}

static ilpm_glpk *driver_new(const ilpm_model *m, const ilpm_options *o,
                             ilpm_stats *stats, ilpm_err *err)
{
    ilpm_glpk *d = calloc(1, sizeof *d);
    if (!d) {
        ilpm_err_nomem(err, "out of memory creating the GLPK driver");
        return NULL;
    }
    /* Without options: the defaults. */
    ilpm_driver_init(&d->base, m, o, NULL);
    const ilpm_glpk_opts *g = ilpm_glpk_opts_of(&d->base.o);
    if ((unsigned)g->branch > ILPM_BRANCH_DIVE ||
        (unsigned)g->backtrack > ILPM_BACKTRACK_BESTB) {
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "unknown GLPK branching (%d) or backtracking (%d)",
                      (int)g->branch, (int)g->backtrack);
        free(d);
        return NULL;
    }
    d->nvars = ilpm_model_nvars(m);
    d->ngroups = ilpm_model_ngroups(m);
    size_t nv1 = (size_t)d->nvars + 1;
    int ok = ilpm_rows_init(&d->rows, d->nvars) == 0;
    d->ind = malloc(nv1 * sizeof *d->ind);
    d->val = malloc(nv1 * sizeof *d->val);
    d->obj = calloc(nv1, sizeof *d->obj);
    d->fix = calloc(nv1, sizeof *d->fix);
    d->gcount = calloc((size_t)d->ngroups + 1, sizeof *d->gcount);
    d->gprefix = calloc((size_t)d->ngroups + 1, sizeof *d->gprefix);
    ok = ok && d->ind && d->val && d->obj && d->fix && d->gcount && d->gprefix;
    for (int g = 0; ok && g < d->ngroups; g++)
        ok = (d->gprefix[g] = row_prefix(ilpm_model_group_name(m, g))) != NULL;
    if (!ok) {
        driver_free(d);
        ilpm_err_nomem(err,
                       "out of memory creating the GLPK driver for %d "
                       "variables",
                       ilpm_model_nvars(m));
        return NULL;
    }
    if (stats) {
        if (!stats->groups && ilpm_stats_prepare(m, stats, err) != 0) {
            driver_free(d);
            return NULL;
        }
        stats->rows = stats->nonzeros = 0;
        for (int g = 0; g < stats->ngroups; g++)
            stats->groups[g].rows = stats->groups[g].nonzeros = 0;
        d->base.stats = stats;
    }
    return d;
}

/* A row is named after its constraint's own name (a model file's row:
 * "cap", then "cap.2", ... for the further rows of that name), else
 * after its group. */
static void row_name(ilpm_glpk *d, const ilpm_row *row, int group, char *buf,
                     size_t size)
{
    if (row->name) {
        if (row->name == d->last_name) {
            snprintf(buf, size, "%s.%" PRId64, row->name, ++d->name_reps);
        } else {
            d->last_name = row->name;
            d->name_reps = 1;
            snprintf(buf, size, "%s", row->name);
        }
    } else if (group >= 0 && group < d->ngroups)
        snprintf(buf, size, "%s_%" PRId64, d->gprefix[group],
                 ++d->gcount[group]);
    else /* '.' never occurs in a group name: no clash */
        snprintf(buf, size, "cut.%" PRId64, ++d->ncuts);
}

/* Adds the row to the problem, if any, and to the statistics. */
static int add_row(void *ctx, const ilpm_row *row, int group)
{
    ilpm_glpk *d = ctx;
    int len = row->len;
    if (len == 0) {
        /* Keep the empty row: the exported files must stay infeasible
         * too.  The solver answers UNSAT without asking GLPK. */
        d->infeasible = 1;
    }
    if (d->P) {
        for (int k = 0; k < len; k++) {
            d->ind[k + 1] = row->vars[k];
            d->val[k + 1] = (double)row->coefs[k];
            int64_t a = row->coefs[k] < 0 ? -row->coefs[k] : row->coefs[k];
            if (a > d->max_coef)
                d->max_coef = a;
        }
        int i = glp_add_rows(d->P, 1);
        if (d->names) {
            char name[NAME_LEN];
            row_name(d, row, group, name, sizeof name);
            glp_set_row_name(d->P, i, name);
        }
        double b = (double)row->rhs;
        if (row->cmp == ILPM_LE)
            glp_set_row_bnds(d->P, i, GLP_UP, 0.0, b);
        else if (row->cmp == ILPM_GE)
            glp_set_row_bnds(d->P, i, GLP_LO, b, 0.0);
        else
            glp_set_row_bnds(d->P, i, GLP_FX, b, b);
        glp_set_mat_row(d->P, i, len, d->ind, d->val);
        d->nnz += len;
    }
    if (d->base.stats) {
        d->base.stats->rows++;
        d->base.stats->nonzeros += len;
        if (group >= 0 && group < d->base.stats->ngroups) {
            d->base.stats->groups[group].rows++;
            d->base.stats->groups[group].nonzeros += len;
        }
    }
    return 0;
}

/* Checks what the model layer guarantees for its own constraints, for
 * the ones add() receives from elsewhere. */
static int check_con(const ilpm_glpk *d, const ilpm_con *c, ilpm_err *err)
{
    if ((unsigned)c->kind >= ILPM_KIND_COUNT)
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "GLPK lowering: unknown constraint kind %d",
                             (int)c->kind);
    if (c->n <= 0 || !c->lits)
        return ilpm_err_input(err, "GLPK lowering: empty %s constraint",
                              ilpm_kind_name(c->kind));
    if (c->kind == ILPM_IMPL && c->n != 2)
        return ilpm_err_input(err,
                              "GLPK lowering: an implication has 2 literals, "
                              "not %d",
                              c->n);
    if ((c->kind == ILPM_CARD || c->kind == ILPM_CCARD ||
         c->kind == ILPM_LINEAR) &&
        c->cmp != ILPM_LE && c->cmp != ILPM_GE && c->cmp != ILPM_EQ)
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "GLPK lowering: unknown comparison %d",
                             (int)c->cmp);
    if (c->kind == ILPM_LINEAR && !c->coefs)
        return ilpm_err_input(err, "GLPK lowering: linear constraint without "
                                   "coefficients");
    int nl = c->n + (c->kind == ILPM_CCARD);
    for (int i = 0; i < nl; i++) {
        int l = i < c->n ? c->lits[i] : c->cond;
        if (l == 0 || l == INT_MIN || abs(l) > d->nvars)
            return ilpm_err_input(err,
                                  "GLPK lowering: literal %d is not a "
                                  "variable of the model (1..%d)",
                                  l, d->nvars);
        if (c->kind == ILPM_LINEAR && i < c->n &&
            (c->coefs[i] > COEF_LIMIT || c->coefs[i] < -COEF_LIMIT))
            return ilpm_err_input(
                err, "GLPK lowering: coefficient %" PRId64 " is beyond +-2^40",
                c->coefs[i]);
    }
    return 0;
}

/* X[1,-2] -> X(1,m2): brackets are reserved in CPLEX LP and '-' is an
 * operator there; '(' ',' ')' pass through GLPK's LP and MPS writers,
 * glpsol and cbc unchanged.  Family names hold only letters, digits and
 * '_', so the mapping is one-to-one; one starting with a digit gets
 * "v." in front (LP names cannot start with a digit). */
static void col_name(const ilpm_model *m, int v, char *out, size_t size)
{
    const char *own = ilpm_model_var_own_name(m, v);
    if (own) { /* the user's, as given: GLPK's writers judge it */
        snprintf(out, size, "%s", own);
        return;
    }
    char buf[NAME_LEN];
    ilpm_model_var_name(m, v, buf, sizeof buf);
    size_t k = 0;
    if (buf[0] >= '0' && buf[0] <= '9' && size > 3) {
        out[k++] = 'v';
        out[k++] = '.';
    }
    for (const char *s = buf; *s && k + 1 < size; s++)
        out[k++] = *s == '[' ? '(' : *s == ']' ? ')' : *s == '-' ? 'm' : *s;
    out[k] = '\0';
}

/* ------------------------------------------------------------------ */
/* Building the problem.                                                */

struct build_ctx {
    ilpm_glpk *d;
    const ilpm_model *m;
    ilpm_glpk_purpose purpose;
    ilpm_err *err;
    int64_t work; /* nonzeros added since the clock was last read */
};

/* The watch reads the clock every 256th poll, one a row; rows of
 * thousands of nonzeros (the diagonals of queens 4000: 256 rows took
 * 0.25 s) read it after this many nonzeros too. */
#define ROW_WORK 65536

static void fold_objective(ilpm_glpk *d, const ilpm_model *m)
{
    int n;
    const int *lits;
    const int64_t *coefs;
    d->sense = ilpm_model_objective_get(m, &n, &lits, &coefs);
    if (d->sense != ILPM_MINIMIZE && d->sense != ILPM_MAXIMIZE) {
        d->sense = ILPM_NONE;
        return;
    }
    ilpm_row row;
    d->obj[0] = ilpm_rows_sum(&d->rows, coefs, lits, n, 1, &row);
    for (int i = 0; i < row.len; i++)
        d->obj[row.vars[i]] = row.coefs[i];
}

/* Polls the build's watch; past it the half-built problem is deleted. */
static int build_poll(ilpm_glpk *d, ilpm_watch *w, ilpm_err *err)
{
    if (ilpm_watch_poll(w, "building the GLPK problem", err) == 0)
        return 0;
    glp_delete_prob(d->P);
    d->P = NULL;
    return -1;
}

static int build_row(void *ctx, const ilpm_row *row, int group)
{
    struct build_ctx *b = ctx;
    b->work += row->len;
    if (b->work >= ROW_WORK) {
        b->work = 0;
        ilpm_watch_check(&b->d->base.watch); /* sticks: the poll reports */
    }
    if (build_poll(b->d, &b->d->base.watch, b->err) != 0)
        return -1;
    return add_row(b->d, row, group);
}

static int build_body(void *ctx, ilpm_err *err)
{
    struct build_ctx *b = ctx;
    ilpm_glpk *d = b->d;
    d->gen = ilpm_glpk_gen();
    glp_prob *P = d->P = glp_create_prob();
    /* Names cost a formatted string per row and column: only the files
     * written for other solvers need them. */
    d->names = b->purpose != ILPM_GLPK_SOLVE;
    glp_set_prob_name(P, "ilpm");
    glp_set_obj_name(P, "obj");
    /* Columns go in in slices: GLPK adds millions of them in one call
     * that the watch could not cut short. */
    for (int v = 1; v <= d->nvars; v++) {
        if (build_poll(d, &d->base.watch, err) != 0)
            return -1;
        if (v > glp_get_num_cols(P))
            glp_add_cols(P, d->nvars - v + 1 < 4096 ? d->nvars - v + 1 : 4096);
        if (d->names) {
            char name[NAME_LEN];
            col_name(b->m, v, name, sizeof name);
            glp_set_col_name(P, v, name);
        }
        glp_set_col_kind(P, v, GLP_BV);
    }
    /* MPS has no objective sense: glpsol and cbc both minimise what GLPK
     * writes, so a maximisation goes out as min of the negation. */
    int negate = b->purpose == ILPM_GLPK_MPS && d->sense == ILPM_MAXIMIZE;
    double sign = negate ? -1.0 : 1.0;
    glp_set_obj_dir(P,
                    d->sense == ILPM_MAXIMIZE && !negate ? GLP_MAX : GLP_MIN);
    for (int v = 1; v <= d->nvars; v++)
        if (d->obj[v] != 0)
            glp_set_obj_coef(P, v, sign * (double)d->obj[v]);
    if (d->obj[0] != 0 && b->purpose != ILPM_GLPK_SOLVE) {
        /* LP files keep an objective constant only as a comment, and MPS
         * readers disagree on the sign of an objective RHS (glpsol reads
         * +c, cbc -c); a column fixed at 1 means the same to everyone.
         * An integer one, so that the file is all integers (ilpm's own
         * reader refuses a continuous column). */
        int j = glp_add_cols(P, 1);
        glp_set_col_name(P, j, "ONE");
        glp_set_col_kind(P, j, GLP_IV);
        glp_set_col_bnds(P, j, GLP_FX, 1.0, 1.0);
        glp_set_obj_coef(P, j, sign * (double)d->obj[0]);
    } else {
        glp_set_obj_coef(P, 0, (double)d->obj[0]);
    }
    b->err = err;
    return ilpm_rows_model(&d->rows, b->m, build_row, b);
}

static int delete_body(void *ctx, ilpm_err *err)
{
    (void)err;
    glp_delete_prob(ctx);
    return 0;
}

void ilpm_glpk_destroy(ilpm_glpk *d)
{
    if (!d)
        return;
    if (d->P && d->gen == ilpm_glpk_gen()) {
        ilpm_glpk_guard g;
        ilpm_glpk_run(&g, NULL, delete_body, d->P, "deleting a problem", NULL);
    }
    driver_free(d);
}

ilpm_glpk *ilpm_glpk_build(const ilpm_model *m, const ilpm_options *o,
                           ilpm_stats *stats, int use_glpk,
                           ilpm_glpk_purpose purpose, ilpm_err *err)
{
    ilpm_glpk *d = driver_new(m, o, stats, err);
    if (!d)
        return NULL;
    fold_objective(d, m);
    d->hint = ilpm_model_hint(m);
    if (!use_glpk) {
        ilpm_rows_model(&d->rows, m, add_row, d);
        return d;
    }
    ilpm_glpk_guard g;
    struct build_ctx b = {.d = d, .m = m, .purpose = purpose};
    if (ilpm_glpk_run(&g, &d->base.o, build_body, &b, "building the problem",
                      err) != 0) {
        d->P = NULL; /* freed with GLPK's environment */
        driver_free(d);
        return NULL;
    }
    return d;
}

int ilpm_glpk_alive(const ilpm_glpk *d, ilpm_err *err)
{
    if (!d->P || d->gen != ilpm_glpk_gen())
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "GLPK problem lost: an earlier GLPK failure in "
                             "this thread reset GLPK; create the solver "
                             "again");
    return 0;
}

struct add_ctx {
    ilpm_glpk *d;
    const ilpm_con *con;
};

static int add_body(void *ctx, ilpm_err *err)
{
    struct add_ctx *a = ctx;
    (void)err;
    return ilpm_rows_con(&a->d->rows, a->con, add_row, a->d);
}

int ilpm_glpk_add(ilpm_glpk *d, const ilpm_con *con, ilpm_err *err)
{
    if (ilpm_glpk_alive(d, err) != 0 || check_con(d, con, err) != 0)
        return -1;
    ilpm_glpk_guard g;
    struct add_ctx a = {d, con};
    if (ilpm_glpk_run(&g, &d->base.o, add_body, &a, "adding a row", err) != 0) {
        d->P = NULL;
        return -1;
    }
    return 0;
}

int ilpm_glpk_stats(const ilpm_model *m, const ilpm_options *o,
                    ilpm_stats *stats, ilpm_err *err)
{
    ilpm_glpk *d = ilpm_glpk_build(m, o, stats, 0, ILPM_GLPK_SOLVE, err);
    if (!d)
        return -1;
    driver_free(d);
    return 0;
}
