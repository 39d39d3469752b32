/* The ILP back end: lowers a model to GLPK (one binary column per model
 * variable, one row per constraint, negative literals folded into the
 * bounds) and drives glp_intopt under assumptions, a deadline and a stop
 * flag.  GLPK aborts the process on misuse or internal trouble, so every
 * call into it runs under an error hook that turns the abort into
 * ILPM_ERROR.  This is the only file that includes glpk.h.
 *
 * Threads: GLPK keeps one environment per thread, so a driver must be
 * used by the thread that created it. */
#include "backend.h"
#include "util.h"

#include <errno.h>
#include <glpk.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h> /* ssize_t */

#define NAME_LEN 256 /* GLPK rejects names longer than 255 characters */
#define COEF_LIMIT ((int64_t)1 << 40) /* as the model layer enforces */

/* ------------------------------------------------------------------ */
/* Running GLPK under an error hook.                                    */

/* After a GLPK error we must call glp_free_env, which frees every GLPK
 * object of the thread, including problems held by other drivers.  Each
 * driver remembers the generation it was built in and refuses to touch
 * its problem once the generation has moved on. */
static _Thread_local unsigned long env_gen;

struct guard {
    jmp_buf jb;
    void (*log_fn)(void *ctx, const char *text); /* NULL: quiet */
    void *log_ctx;
    int old_out;
    char log[1024]; /* tail of GLPK's terminal output, for messages */
    size_t len;
};

static int term_hook(void *info, const char *s)
{
    struct guard *g = info;
    if (g->log_fn)
        g->log_fn(g->log_ctx, s);
    size_t n = strlen(s), cap = sizeof g->log - 1;
    if (n >= cap) {
        s += n - cap / 2;
        n = cap / 2;
    }
    if (g->len + n > cap) {
        /* Keep the newest text: error messages come last. */
        size_t drop = g->len + n - cap;
        memmove(g->log, g->log + drop, g->len - drop);
        g->len -= drop;
    }
    memcpy(g->log + g->len, s, n);
    g->len += n;
    g->log[g->len] = '\0';
    return 1; /* GLPK prints nothing itself */
}

static void error_hook(void *info)
{
    struct guard *g = info;
    longjmp(g->jb, 1);
}

/* o: whose log receives GLPK's messages (NULL: none). */
static void guard_enter(struct guard *g, const ilpm_options *o)
{
    g->log_fn = o && ilpm_reports(o) ? o->log : NULL;
    g->log_ctx = o ? o->log_ctx : NULL;
    g->len = 0;
    g->log[0] = '\0';
    glp_term_hook(term_hook, g);
    glp_error_hook(error_hook, g);
    /* Output must be on for the hook to see GLPK's messages; the hook
     * keeps their tail for error messages and passes them to the log. */
    g->old_out = glp_term_out(GLP_ON);
}

static void guard_leave(struct guard *g)
{
    glp_term_out(g->old_out);
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
}

/* The last nlines lines of GLPK's output, joined by "; ", into out. */
static void log_tail(const struct guard *g, int nlines, char *out, size_t size)
{
    const char *s = g->log;
    size_t n = g->len;
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    size_t start = n;
    for (int k = 0; start > 0; start--)
        if (s[start - 1] == '\n' && ++k == nlines)
            break;
    size_t len = 0;
    if (start == n)
        len = (size_t)snprintf(out, size, "(no message from GLPK)");
    for (size_t i = start; i < n && len + 3 < size; i++) {
        if (s[i] == '\n') {
            out[len++] = ';';
            out[len++] = ' ';
        } else {
            out[len++] = s[i];
        }
    }
    if (len < size)
        out[len] = '\0';
}

typedef int (*guarded_fn)(void *ctx, ilpm_err *err);

/* Runs fn under the hooks.  g lives in the caller's frame so that nothing
 * this function owns is modified between setjmp and longjmp. */
static int run_guarded(struct guard *g, const ilpm_options *o, guarded_fn fn,
                       void *ctx, const char *what, ilpm_err *err)
{
    guard_enter(g, o);
    if (setjmp(g->jb) != 0) {
        char msg[sizeof g->log + 64];
        log_tail(g, 2, msg, sizeof msg);
        /* GLPK's documentation requires freeing the environment after
         * jumping out of its error hook; that also removes the hooks. */
        glp_free_env();
        env_gen++;
        return ilpm_err_set(err, "GLPK failed while %s: %s", what, msg);
    }
    int rc = fn(ctx, err);
    guard_leave(g);
    return rc;
}

#ifdef ILPM_TEST_HOOKS
int ilpm_glpk_fault;
#endif

/* ------------------------------------------------------------------ */
/* The driver and its row builder.                                      */

struct ilpm_driver {
    glp_prob *P;       /* NULL when only counting (statistics)       */
    unsigned long gen; /* env_gen when P was created                 */
    ilpm_options opt;
    ilpm_stats *stats; /* the caller's, may be NULL                  */
    int nvars;
    int ngroups;
    char **gprefix;  /* row-name prefix of each model group          */
    int64_t *gcount; /* rows named so far in each group              */
    int64_t ncuts;   /* rows added outside any group                 */
    int names;       /* name rows and columns (for the exported files) */
    int64_t nnz;     /* nonzeros in the rows added so far             */
    int infeasible;  /* some row reduced to a false constant         */
    ilpm_rows rows;  /* the rows of a constraint, as OPB writes them */
    int *ind;        /* a row in GLPK's 1-based arrays */
    double *val;
    /* The folded objective, obj[0] the constant; kept to restore it after
     * satisfaction calls and to compute objective values exactly. */
    ilpm_sense sense;
    int64_t *obj;
    int8_t *fix;      /* assumption signs during one solve */
    ilpm_branch hint; /* the model's branching hint                  */
};

static void default_options(ilpm_options *o)
{
    memset(o, 0, sizeof *o);
    o->backend = ILPM_BACKEND_ILP;
    o->cuts = ILPM_CUTS_DEFAULT;
    o->presolve = 1;
    o->max_pb_nodes = 1000000;
}

static void driver_free(ilpm_driver *d)
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

static ilpm_driver *driver_new(const ilpm_model *m, const ilpm_options *o,
                               ilpm_stats *stats, ilpm_err *err)
{
    ilpm_driver *d = calloc(1, sizeof *d);
    if (!d) {
        ilpm_err_set(err, "out of memory creating the GLPK driver");
        return NULL;
    }
    if (o)
        d->opt = *o;
    else
        default_options(&d->opt);
    if ((unsigned)d->opt.branch > ILPM_BRANCH_PCOST ||
        (unsigned)d->opt.backtrack > ILPM_BACKTRACK_BESTB) {
        ilpm_err_set(err, "unknown GLPK branching (%d) or backtracking (%d)",
                     (int)d->opt.branch, (int)d->opt.backtrack);
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
        ilpm_err_set(err,
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
        d->stats = stats;
    }
    return d;
}

static void row_name(ilpm_driver *d, int group, char *buf, size_t size)
{
    if (group >= 0 && group < d->ngroups)
        snprintf(buf, size, "%s_%" PRId64, d->gprefix[group],
                 ++d->gcount[group]);
    else /* '.' never occurs in a group name: no clash */
        snprintf(buf, size, "cut.%" PRId64, ++d->ncuts);
}

/* Adds the row to the problem, if any, and to the statistics. */
static int add_row(void *ctx, const ilpm_row *row, int group)
{
    ilpm_driver *d = ctx;
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
        }
        int i = glp_add_rows(d->P, 1);
        if (d->names) {
            char name[NAME_LEN];
            row_name(d, group, name, sizeof name);
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
    if (d->stats) {
        d->stats->rows++;
        d->stats->nonzeros += len;
        if (group >= 0 && group < d->stats->ngroups) {
            d->stats->groups[group].rows++;
            d->stats->groups[group].nonzeros += len;
        }
    }
    return 0;
}

/* Checks what the model layer guarantees for its own constraints, for
 * the ones add() receives from elsewhere. */
static int check_con(const ilpm_driver *d, const ilpm_con *c, ilpm_err *err)
{
    if ((unsigned)c->kind >= ILPM_KIND_COUNT)
        return ilpm_err_set(err, "GLPK lowering: unknown constraint kind %d",
                            (int)c->kind);
    if (c->n <= 0 || !c->lits)
        return ilpm_err_set(err, "GLPK lowering: empty %s constraint",
                            ilpm_kind_name(c->kind));
    if (c->kind == ILPM_IMPL && c->n != 2)
        return ilpm_err_set(err,
                            "GLPK lowering: an implication has 2 literals, "
                            "not %d",
                            c->n);
    if ((c->kind == ILPM_CARD || c->kind == ILPM_CCARD ||
         c->kind == ILPM_LINEAR) &&
        c->cmp != ILPM_LE && c->cmp != ILPM_GE && c->cmp != ILPM_EQ)
        return ilpm_err_set(err, "GLPK lowering: unknown comparison %d",
                            (int)c->cmp);
    if (c->kind == ILPM_LINEAR && !c->coefs)
        return ilpm_err_set(err, "GLPK lowering: linear constraint without "
                                 "coefficients");
    int nl = c->n + (c->kind == ILPM_CCARD);
    for (int i = 0; i < nl; i++) {
        int l = i < c->n ? c->lits[i] : c->cond;
        if (l == 0 || l == INT_MIN || abs(l) > d->nvars)
            return ilpm_err_set(err,
                                "GLPK lowering: literal %d is not a "
                                "variable of the model (1..%d)",
                                l, d->nvars);
        if (c->kind == ILPM_LINEAR && i < c->n &&
            (c->coefs[i] > COEF_LIMIT || c->coefs[i] < -COEF_LIMIT))
            return ilpm_err_set(
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

enum build_for { FOR_SOLVING, FOR_LP, FOR_MPS };

struct build_ctx {
    ilpm_driver *d;
    const ilpm_model *m;
    enum build_for purpose;
    ilpm_watch watch; /* the time limit and stop flag while building */
    ilpm_err *err;
};

static void fold_objective(ilpm_driver *d, const ilpm_model *m)
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
static int build_poll(ilpm_driver *d, ilpm_watch *w, ilpm_err *err)
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
    if (build_poll(b->d, &b->watch, b->err) != 0)
        return -1;
    return add_row(b->d, row, group);
}

static int build_body(void *ctx, ilpm_err *err)
{
    struct build_ctx *b = ctx;
    ilpm_driver *d = b->d;
    d->gen = env_gen;
    glp_prob *P = d->P = glp_create_prob();
    /* Names cost a formatted string per row and column: only the files
     * written for other solvers need them. */
    d->names = b->purpose != FOR_SOLVING;
    glp_set_prob_name(P, "ilpm");
    glp_set_obj_name(P, "obj");
    ilpm_watch_init(&b->watch, d->opt.time_limit, d->opt.stop_flag);
    if (d->nvars > 0)
        glp_add_cols(P, d->nvars);
    for (int v = 1; v <= d->nvars; v++) {
        if (build_poll(d, &b->watch, err) != 0)
            return -1;
        if (d->names) {
            char name[NAME_LEN];
            col_name(b->m, v, name, sizeof name);
            glp_set_col_name(P, v, name);
        }
        glp_set_col_kind(P, v, GLP_BV);
    }
    /* MPS has no objective sense: glpsol and cbc both minimise what GLPK
     * writes, so a maximisation goes out as min of the negation. */
    int negate = b->purpose == FOR_MPS && d->sense == ILPM_MAXIMIZE;
    double sign = negate ? -1.0 : 1.0;
    glp_set_obj_dir(P,
                    d->sense == ILPM_MAXIMIZE && !negate ? GLP_MAX : GLP_MIN);
    for (int v = 1; v <= d->nvars; v++)
        if (d->obj[v] != 0)
            glp_set_obj_coef(P, v, sign * (double)d->obj[v]);
    if (d->obj[0] != 0 && b->purpose != FOR_SOLVING) {
        /* LP files keep an objective constant only as a comment, and MPS
         * readers disagree on the sign of an objective RHS (glpsol reads
         * +c, cbc -c); a column fixed at 1 means the same to everyone. */
        int j = glp_add_cols(P, 1);
        glp_set_col_name(P, j, "ONE");
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

/* Deletes d's problem if GLPK still holds it, then d. */
static void driver_destroy(ilpm_driver *d)
{
    if (!d)
        return;
    if (d->P && d->gen == env_gen) {
        struct guard g;
        run_guarded(&g, NULL, delete_body, d->P, "deleting a problem", NULL);
    }
    driver_free(d);
}

/* Lowers m into a new driver: counting only (no GLPK problem) or into a
 * GLPK problem. */
static ilpm_driver *driver_build(const ilpm_model *m, const ilpm_options *o,
                                 ilpm_stats *stats, int use_glpk,
                                 enum build_for purpose, ilpm_err *err)
{
    ilpm_driver *d = driver_new(m, o, stats, err);
    if (!d)
        return NULL;
    fold_objective(d, m);
    d->hint = ilpm_model_branch_hint(m);
    if (!use_glpk) {
        ilpm_rows_model(&d->rows, m, add_row, d);
        return d;
    }
    struct guard g;
    struct build_ctx b = {.d = d, .m = m, .purpose = purpose};
    if (run_guarded(&g, &d->opt, build_body, &b, "building the problem", err) !=
        0) {
        d->P = NULL; /* freed with GLPK's environment */
        driver_free(d);
        return NULL;
    }
    return d;
}

/* ------------------------------------------------------------------ */
/* Solving.                                                             */

struct solve_ctx {
    ilpm_driver *d;
    const int *assume;
    int n;
    int optimize;
    double deadline;
    uint8_t *vals;
    int64_t *obj;
    ilpm_status st;
    int stopped;    /* our callback ended the search for stop_flag */
    int cover;      /* cover cuts requested for this search        */
    int empty_tree; /* presolve left no column: see on_tree        */
};

static void on_tree(glp_tree *T, void *info)
{
    struct solve_ctx *c = info;
    volatile int *stop = c->d->opt.stop_flag;
    /* GLPK 5.0 aborts in glp_cov_init (glp_add_cols with 0 columns) when
     * the presolver fixed every column but left a row.  Selection of the
     * root comes before the cut generators start: stop there and let
     * run_mip search again without cover cuts. */
    if (c->cover && glp_ios_reason(T) == GLP_ISELECT &&
        glp_get_num_cols(glp_ios_get_prob(T)) == 0) {
        c->empty_tree = 1;
        glp_ios_terminate(T);
        return;
    }
    if (stop && *stop) {
        c->stopped = 1;
        glp_ios_terminate(T);
    } else if (c->deadline > 0 && ilpm_now() >= c->deadline) {
        glp_ios_terminate(T); /* GLPK's tm_lim is checked less often */
    }
}

/* Milliseconds left before the deadline, at least 1; 0 if it passed. */
static int ms_left(double deadline)
{
    double ms = (deadline - ilpm_now()) * 1000.0;
    if (ms < 1.0)
        return 0;
    return ms >= (double)INT_MAX ? INT_MAX : (int)ms;
}

static const char *glpk_code_name(int rc)
{
    static const char *const names[] = {
        "0",           "GLP_EBADB",  "GLP_ESING",   "GLP_ECOND",  "GLP_EBOUND",
        "GLP_EFAIL",   "GLP_EOBJLL", "GLP_EOBJUL",  "GLP_EITLIM", "GLP_ETMLIM",
        "GLP_ENOPFS",  "GLP_ENODFS", "GLP_EROOT",   "GLP_ESTOP",  "GLP_EMIPGAP",
        "GLP_ENOFEAS", "GLP_ENOCVG", "GLP_EINSTAB", "GLP_EDATA",  "GLP_ERANGE"};
    return rc >= 0 && rc < (int)(sizeof names / sizeof *names) ? names[rc]
                                                               : "unknown";
}

static void read_solution(struct solve_ctx *c)
{
    ilpm_driver *d = c->d;
    int64_t z = d->obj[0];
    for (int v = 1; v <= d->nvars; v++) {
        uint8_t x = glp_mip_col_val(d->P, v) > 0.5;
        if (c->vals)
            c->vals[v] = x;
        z += x ? d->obj[v] : 0;
    }
    if (c->obj)
        *c->obj = z;
}

/* Without the MIP presolver glp_intopt needs an optimal basis of the LP
 * relaxation first; an infeasible relaxation already means UNSAT. */
static ilpm_status solve_relaxation(struct solve_ctx *c, int msg_lev,
                                    ilpm_err *err)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = msg_lev;
    sp.presolve = GLP_OFF;
    if (c->deadline > 0) {
        sp.tm_lim = ms_left(c->deadline);
        if (sp.tm_lim == 0)
            return ILPM_TIMEOUT;
    }
    int rc = glp_simplex(c->d->P, &sp);
    if (rc == GLP_ETMLIM)
        return ILPM_TIMEOUT;
    if (rc != 0) {
        ilpm_err_set(err,
                     "GLPK: glp_simplex on the LP relaxation failed "
                     "with code %d (%s)",
                     rc, glpk_code_name(rc));
        return ILPM_ERROR;
    }
    int st = glp_get_status(c->d->P);
    if (st == GLP_NOFEAS)
        return ILPM_UNSAT;
    if (st != GLP_OPT) {
        ilpm_err_set(err, "GLPK: LP relaxation ended with status %d", st);
        return ILPM_ERROR;
    }
    return ILPM_SOLVED; /* meaning: go on with glp_intopt */
}

static ilpm_status run_mip(struct solve_ctx *c, ilpm_err *err)
{
    ilpm_driver *d = c->d;
    const ilpm_options *o = &d->opt;
    int msg_lev = ilpm_reports(o) ? GLP_MSG_ON : GLP_MSG_OFF;
    int presolve = o->presolve;
    /* GLPK's MIP presolver polls neither tm_lim nor the callback; here it
     * takes about 1 us per nonzero (3.5 s for the 4 million of queens
     * n = 1000).  Under a deadline it runs only when that estimate stays
     * within a tenth of the time left; else the relaxation is solved
     * first with tm_lim, as without presolve. */
    if (presolve && c->deadline > 0 &&
        (double)d->nnz * 1e-6 > 0.1 * (c->deadline - ilpm_now()))
        presolve = 0;
    if (!presolve) {
        ilpm_status st = solve_relaxation(c, msg_lev, err);
        if (st != ILPM_SOLVED)
            return st;
    }
    glp_iocp p;
    glp_init_iocp(&p);
    p.msg_lev = msg_lev;
    p.presolve = presolve ? GLP_ON : GLP_OFF;
    p.cb_func = on_tree;
    p.cb_info = c;
    p.gmi_cuts = o->cuts == ILPM_CUTS_ALL ? GLP_ON : GLP_OFF;
    p.mir_cuts = p.cov_cuts = o->cuts == ILPM_CUTS_NONE ? GLP_OFF : GLP_ON;
    /* GLPK 5.0's clique-cut generator writes past its arrays on small
     * conflict graphs (valgrind shows it with `glpsol --clique` on the
     * LP in tests/data/glpk_clique_bug.lp), so it stays off. */
    p.clq_cuts = GLP_OFF;
    /* A feasibility search has a constant objective, so GLPK's default
     * rules (Driebeck-Tomlin branching, best local bound), which steer by
     * the objective, only widen the tree.  Most fractional and depth first
     * reach a first integer point soonest: queens n = 64 takes 0.7 s
     * instead of 2.7 s, L(2,100) 1.5 s instead of 11 s, top95 1.3 s
     * instead of 1.6 s (README, "Formulations and encodings"). */
    static const int br[] = {0,          GLP_BR_FFV, GLP_BR_LFV,
                             GLP_BR_MFV, GLP_BR_DTH, GLP_BR_PCH};
    static const int bt[] = {0, GLP_BT_DFS, GLP_BT_BFS, GLP_BT_BPH, GLP_BT_BLB};
    int feasibility = !c->optimize || d->sense == ILPM_NONE;
    ilpm_branch hint =
        (unsigned)d->hint <= ILPM_BRANCH_PCOST ? d->hint : ILPM_BRANCH_AUTO;
    p.br_tech = o->branch != ILPM_BRANCH_AUTO ? br[o->branch]
                : !feasibility                ? GLP_BR_DTH
                : hint != ILPM_BRANCH_AUTO    ? br[hint]
                                              : GLP_BR_MFV;
    p.bt_tech = o->backtrack != ILPM_BACKTRACK_AUTO ? bt[o->backtrack]
                : feasibility                       ? GLP_BT_DFS
                                                    : GLP_BT_BLB;
    int rc;
    do {
        c->cover = p.cov_cuts == GLP_ON;
        c->empty_tree = 0;
        if (c->deadline > 0) {
            p.tm_lim = ms_left(c->deadline);
            if (p.tm_lim == 0)
                return ILPM_TIMEOUT;
        }
        rc = glp_intopt(d->P, &p);
        p.cov_cuts = GLP_OFF;
    } while (rc == GLP_ESTOP && c->empty_tree);
    int st = glp_mip_status(d->P);
    int found = st == GLP_OPT || st == GLP_FEAS;
    switch (rc) {
    case 0:
        if (st == GLP_NOFEAS)
            return ILPM_UNSAT;
        if (!found)
            break;
        read_solution(c);
        if (!c->optimize)
            return ILPM_SOLVED;
        return st == GLP_OPT ? ILPM_OPTIMAL : ILPM_FEASIBLE;
    case GLP_ENOPFS:
    case GLP_ENOFEAS:
        return ILPM_UNSAT;
    case GLP_ETMLIM:
    case GLP_ESTOP:
    case GLP_EMIPGAP:
        if (found) {
            read_solution(c);
            return c->optimize ? ILPM_FEASIBLE : ILPM_SOLVED;
        }
        return c->stopped ? ILPM_STOPPED : ILPM_TIMEOUT;
    default:
        break;
    }
    ilpm_err_set(err,
                 "GLPK: glp_intopt returned code %d (%s) with MIP "
                 "status %d",
                 rc, glpk_code_name(rc), st);
    return ILPM_ERROR;
}

static int solve_body(void *ctx, ilpm_err *err)
{
    struct solve_ctx *c = ctx;
    ilpm_driver *d = c->d;
    glp_prob *P = d->P;
#ifdef ILPM_TEST_HOOKS
    if (ilpm_glpk_fault) {
        ilpm_glpk_fault = 0;
        glp_set_col_kind(P, 0, GLP_BV); /* column 0 does not exist */
    }
#endif
    for (int i = 0; i < c->n; i++) {
        int l = c->assume[i];
        double x = l > 0 ? 1.0 : 0.0;
        glp_set_col_bnds(P, abs(l), GLP_FX, x, x);
    }
    int zero_obj = !c->optimize && d->sense != ILPM_NONE;
    if (zero_obj)
        for (int v = 0; v <= d->nvars; v++)
            if (d->obj[v] != 0)
                glp_set_obj_coef(P, v, 0.0);
    c->st = run_mip(c, err);
    for (int i = 0; i < c->n; i++)
        glp_set_col_bnds(P, abs(c->assume[i]), GLP_DB, 0.0, 1.0);
    if (zero_obj)
        for (int v = 0; v <= d->nvars; v++)
            if (d->obj[v] != 0)
                glp_set_obj_coef(P, v, (double)d->obj[v]);
    return 0;
}

static int check_alive(const ilpm_driver *d, ilpm_err *err)
{
    if (!d->P || d->gen != env_gen)
        return ilpm_err_set(err,
                            "GLPK problem lost: an earlier GLPK failure in "
                            "this thread reset GLPK; create the solver "
                            "again");
    return 0;
}

static ilpm_status glpk_solve(ilpm_driver *d, const int *assume, int n,
                              int optimize, double deadline, uint8_t *vals,
                              int64_t *obj, ilpm_err *err)
{
    if (check_alive(d, err) != 0)
        return ILPM_ERROR;
    if (n < 0 || (n > 0 && !assume)) {
        ilpm_err_set(err, "GLPK: %d assumptions without a list", n);
        return ILPM_ERROR;
    }
    for (int i = 0; i < n; i++)
        if (assume[i] == 0 || assume[i] == INT_MIN ||
            abs(assume[i]) > d->nvars) {
            ilpm_err_set(err,
                         "assumption %d is not a variable of the model "
                         "(1..%d)",
                         assume[i], d->nvars);
            return ILPM_ERROR;
        }
    /* Conflicting assumptions (v and -v) fix nothing GLPK could solve. */
    int conflict = 0;
    for (int i = 0; i < n; i++) {
        int v = abs(assume[i]);
        int8_t s = assume[i] > 0 ? 1 : -1;
        if (d->fix[v] == -s)
            conflict = 1;
        d->fix[v] = s;
    }
    for (int i = 0; i < n; i++)
        d->fix[abs(assume[i])] = 0;
    if (d->infeasible || conflict)
        return ILPM_UNSAT;
    if (d->opt.stop_flag && *d->opt.stop_flag)
        return ILPM_STOPPED;
    if (deadline > 0 && ilpm_now() >= deadline)
        return ILPM_TIMEOUT;
    if (d->nvars == 0) { /* no columns: GLPK has nothing to decide */
        if (obj)
            *obj = d->obj[0];
        return optimize ? ILPM_OPTIMAL : ILPM_SOLVED;
    }
    struct solve_ctx c = {.d = d,
                          .assume = assume,
                          .n = n,
                          .optimize = optimize,
                          .deadline = deadline,
                          .vals = vals,
                          .obj = obj,
                          .st = ILPM_ERROR};
    struct guard g;
    if (run_guarded(&g, &d->opt, solve_body, &c, "solving", err) != 0) {
        d->P = NULL;
        return ILPM_ERROR;
    }
    return c.st;
}

struct add_ctx {
    ilpm_driver *d;
    const ilpm_con *con;
};

static int add_body(void *ctx, ilpm_err *err)
{
    struct add_ctx *a = ctx;
    (void)err;
    return ilpm_rows_con(&a->d->rows, a->con, add_row, a->d);
}

static int glpk_add(ilpm_driver *d, const ilpm_con *con, ilpm_err *err)
{
    if (check_alive(d, err) != 0 || check_con(d, con, err) != 0)
        return -1;
    struct guard g;
    struct add_ctx a = {d, con};
    if (run_guarded(&g, &d->opt, add_body, &a, "adding a row", err) != 0) {
        d->P = NULL;
        return -1;
    }
    return 0;
}

static ilpm_driver *glpk_create(const ilpm_model *m, const ilpm_options *o,
                                ilpm_stats *stats, ilpm_err *err)
{
    return driver_build(m, o, stats, 1, FOR_SOLVING, err);
}

const ilpm_driver_ops ilpm_glpk_ops = {
    "glpk", glpk_create, driver_destroy, glpk_solve, glpk_add,
};

int ilpm_glpk_stats(const ilpm_model *m, const ilpm_options *o,
                    ilpm_stats *stats, ilpm_err *err)
{
    ilpm_driver *d = driver_build(m, o, stats, 0, FOR_SOLVING, err);
    if (!d)
        return -1;
    driver_free(d);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Export.                                                              */

struct write_ctx {
    glp_prob *P;
    ilpm_format f;
    const char *name; /* the file GLPK writes */
    struct guard *g;
};

static int write_body(void *ctx, ilpm_err *err)
{
    struct write_ctx *w = ctx;
    int rc = w->f == ILPM_FMT_LP
                 ? glp_write_lp(w->P, NULL, w->name)
                 : glp_write_mps(w->P, GLP_MPS_FILE, NULL, w->name);
    if (rc != 0) {
        char msg[sizeof w->g->log + 64];
        log_tail(w->g, 1, msg, sizeof msg);
        return ilpm_err_set(err, "%s", msg);
    }
    return 0;
}

/* Copies GLPK's MPS file to out, with note (comment lines) put before
 * NAME.  GLPK marks a column without elements by a comment, "X(1) r_1 0
 * $ empty column", which cbc's MPS reader rejects as a bad line; without
 * the comment it is a plain zero entry that every reader accepts.  A
 * failed write stops the copy; ilpm_out_commit reports it. */
static int finish_mps(const char *from, ilpm_out *out, const char *note,
                      ilpm_err *err)
{
    static const char mark[] = " $ empty column";
    FILE *in = fopen(from, "r");
    if (!in)
        return ilpm_err_set(err, "cannot read %s: %s", from, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    errno = 0;
    while ((n = getline(&line, &cap, in)) > 0) {
        size_t len = (size_t)n, ml = sizeof mark - 1;
        if (len > ml && line[len - 1] == '\n' &&
            memcmp(line + len - 1 - ml, mark, ml) == 0) {
            len -= ml + 1;
            line[len++] = '\n';
        }
        if (note && strncmp(line, "NAME", 4) == 0) {
            if (ilpm_out_write(out, note, strlen(note)) != 0)
                break;
            note = NULL;
        }
        if (ilpm_out_write(out, line, len) != 0)
            break;
    }
    int e = errno, bad = ferror(in) != 0;
    free(line);
    fclose(in);
    if (bad)
        return ilpm_err_set(err, "cannot read %s: %s", from,
                            strerror(e ? e : EIO));
    return 0;
}

/* GLPK's writers take a file name: an LP file is written by GLPK under
 * the output's own name for it (ilpm_out_name); an MPS file first to a
 * scratch file, which finish_mps copies to the output. */
int ilpm_glpk_write(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                    const char *path, ilpm_err *err)
{
    const char *fmt = f == ILPM_FMT_LP ? "LP" : "MPS";
    if (f != ILPM_FMT_LP && f != ILPM_FMT_MPS)
        return ilpm_err_set(err, "GLPK writes LP or MPS, not format %d",
                            (int)f);
    ilpm_out *out = ilpm_out_open(path, ILPM_OUT_REPLACE, err);
    if (!out)
        return -2;
    ilpm_driver *d =
        driver_build(m, o, NULL, 1, f == ILPM_FMT_LP ? FOR_LP : FOR_MPS, err);
    if (!d) {
        ilpm_out_abort(out);
        return -1;
    }
    ilpm_err why;
    char *raw = NULL;
    const char *name = NULL;
    if (f == ILPM_FMT_LP)
        name = ilpm_out_name(out, err);
    else if ((raw = ilpm_temp_file("ilpm-mps", &why)) != NULL)
        name = raw;
    else
        ilpm_err_set(err, "%s: %s", path, why.msg);
    int rc = name ? 0 : -2;
    struct guard g;
    struct write_ctx w = {d->P, f, name, &g};
    if (rc == 0 && run_guarded(&g, &d->opt, write_body, &w,
                               "writing the problem", &why) != 0) {
        if (d->gen != env_gen)
            d->P = NULL;
        ilpm_err_set(err, "%s: cannot write the %s file: %s", path, fmt,
                     why.msg);
        rc = -2;
    } else if (rc == 0 && f == ILPM_FMT_MPS) {
        char note[256];
        snprintf(note, sizeof note, "%s%s",
                 d->sense == ILPM_MAXIMIZE
                     ? "* ilpm: the model maximises; MPS has no objective "
                       "sense, so this file\n* minimises the negated "
                       "objective: its optimum is minus the model's.\n"
                     : "",
                 d->obj[0] != 0 ? "* ilpm: column ONE is fixed at 1; it "
                                  "carries the objective constant.\n"
                                : "");
        if (finish_mps(raw, out, note, &why) != 0) {
            ilpm_err_set(err, "%s: %s", path, why.msg);
            rc = -2;
        }
    }
    if (rc == 0 && ilpm_out_commit(out, err) != 0)
        rc = -2;
    else if (rc != 0)
        ilpm_out_abort(out);
    if (raw) {
        remove(raw);
        free(raw);
    }
    driver_destroy(d);
    return rc;
}
