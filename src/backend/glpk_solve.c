/* The GLPK driver's solve: glp_intopt under assumptions (column bounds),
 * a deadline and a stop flag, its outcome read from both the return code
 * and glp_mip_status. */
#include "glpk_int.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Seconds GLPK's MIP presolver takes per nonzero of the problem, a
 * measure (docs/benchmarks.md) that keeps it from running past a
 * deadline it does not poll. */
#define PRESOLVE_S_PER_NZ 1e-6

/* The largest row coefficient GLPK's MIR and Gomory cuts are used with
 * (ilpm_glpk_iocp). */
#define MIR_COEF_MAX 100000

#ifdef ILPM_TEST_HOOKS
int ilpm_glpk_fault;
#endif

struct solve_ctx {
    ilpm_glpk *d;
    const int *assume;
    int n;
    int optimize;
    uint8_t *vals;
    int64_t *obj;
    ilpm_status st;
    int cover;              /* cover cuts requested for this search        */
    int empty_tree;         /* presolve left no column: see on_tree        */
    int dive;               /* branch by ilpm_glpk_dive                      */
    int refused;            /* the incumbent hook ended the search          */
    ilpm_glpk_guard *guard; /* the one glp_intopt runs under */
};

void ilpm_glpk_dive(glp_tree *T)
{
    glp_prob *P = glp_ios_get_prob(T);
    int best = 0, n = glp_get_num_cols(P);
    double top = -1.0;
    for (int j = 1; j <= n; j++)
        if (glp_ios_can_branch(T, j)) {
            double x = glp_get_col_prim(P, j);
            if (x > top) {
                top = x;
                best = j;
            }
        }
    if (best)
        glp_ios_branch_upon(T, best, GLP_UP_BRNCH);
}

int ilpm_glpk_watch(ilpm_glpk *d, glp_tree *T)
{
    if (ilpm_watch_check(&d->base.watch) != 0) {
        glp_ios_terminate(T);
        return 1;
    }
    d->at_root = 0;
    if (d->iocp && d->base.watch.deadline > 0) {
        /* GLPK reads tm_lim through the pointer it was given, against
         * the time since its tree was made, which is at most the time
         * since the first callback: a tm_lim of the time left plus that
         * ends every later step by the deadline (the first node's LP ran
         * to 71 s under a 60 s limit on pbn swing.dat). */
        double now = glp_time();
        if (d->tree_ms == 0)
            d->tree_ms = now;
        double ms = (double)ilpm_glpk_ms_left(d) + (now - d->tree_ms);
        d->iocp->tm_lim = ms >= (double)INT_MAX ? INT_MAX : (int)ms;
    }
    return 0;
}

/* GLPK's presolver polls nothing, and the root LP after it takes its
 * tm_lim from glp_iocp just after announcing itself (at GLP_MSG_ALL):
 * the time left then, not at the call (0.6 s past a 60 s limit on pbn
 * swing.dat on a loaded machine). */
static void on_text(void *ctx, const char *text)
{
    ilpm_glpk *d = ctx;
    if (d->iocp && strstr(text, "Solving LP relaxation")) {
        int ms = ilpm_glpk_ms_left(d);
        d->iocp->tm_lim = ms > 1 ? ms : 1;
    }
}

int ilpm_glpk_intopt(ilpm_glpk *d, glp_iocp *p, ilpm_glpk_guard *g)
{
    int ms = ilpm_glpk_ms_left(d);
    if (ms == 0)
        return -1;
    if (ms > 0) {
        p->tm_lim = ms;
        if (g && p->presolve == GLP_ON) {
            /* The announcement is made at GLP_MSG_ALL only. */
            p->msg_lev = GLP_MSG_ALL;
            g->text_fn = on_text;
            g->text_ctx = d;
        }
    }
    d->iocp = p;
    d->tree_ms = 0;
    int rc = glp_intopt(d->P, p);
    d->iocp = NULL;
    if (g)
        g->text_fn = NULL;
    return rc;
}

/* A new incumbent of the tree's problem (the model's own columns: there
 * is no presolve when the hook is set, see run_mip) to the hook. */
static int incumbent(struct solve_ctx *c, glp_prob *P)
{
    ilpm_glpk *d = c->d;
    if (!c->vals || glp_get_num_cols(P) < d->nvars)
        return 0;
    for (int v = 1; v <= d->nvars; v++)
        c->vals[v] = glp_mip_col_val(P, v) > 0.5;
    return ilpm_driver_incumbent(&d->base, c->vals);
}

static void on_tree(glp_tree *T, void *info)
{
    struct solve_ctx *c = info;
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
    if (c->dive && glp_ios_reason(T) == GLP_IBRANCH)
        ilpm_glpk_dive(T);
    if (glp_ios_reason(T) == GLP_IBINGO && c->optimize &&
        c->d->base.incumbent && incumbent(c, glp_ios_get_prob(T)) != 0) {
        c->refused = 1;
        glp_ios_terminate(T);
        return;
    }
    ilpm_glpk_watch(c->d, T);
}

int ilpm_glpk_ms_left(ilpm_glpk *d)
{
    if (d->base.watch.deadline <= 0)
        return -1;
    double left = ilpm_watch_left(&d->base.watch);
    if (d->at_root && ilpm_watch_moment_left() < left)
        left = ilpm_watch_moment_left();
    double ms = (left - ilpm_free_time()) * 1000.0;
    if (ms < 1.0)
        return 0;
    return ms >= (double)INT_MAX ? INT_MAX : (int)ms;
}

const char *ilpm_glpk_code_name(int rc)
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
    ilpm_glpk *d = c->d;
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

ilpm_status ilpm_glpk_relaxation(ilpm_glpk *d, int msg_lev, ilpm_err *err)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = msg_lev;
    sp.presolve = GLP_OFF;
    int ms = ilpm_glpk_ms_left(d);
    if (ms == 0)
        return ILPM_TIMEOUT;
    if (ms > 0)
        sp.tm_lim = ms;
    int rc = glp_simplex(d->P, &sp);
    if (rc == GLP_ETMLIM)
        return ILPM_TIMEOUT;
    if (rc != 0) {
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "GLPK: glp_simplex on the LP relaxation failed "
                      "with code %d (%s)",
                      rc, ilpm_glpk_code_name(rc));
        return ILPM_ERROR;
    }
    int st = glp_get_status(d->P);
    if (st == GLP_NOFEAS)
        return ILPM_UNSAT;
    if (st != GLP_OPT) {
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "GLPK: LP relaxation ended with status %d", st);
        return ILPM_ERROR;
    }
    return ILPM_SOLVED; /* meaning: go on with glp_intopt */
}

int ilpm_glpk_iocp(const ilpm_glpk *d, int feasibility, glp_iocp *p)
{
    const ilpm_options *o = &d->base.o;
    const ilpm_glpk_opts *g = ilpm_glpk_opts_of(o);
    glp_init_iocp(p);
    p->msg_lev = ilpm_reports(o) ? GLP_MSG_ON : GLP_MSG_OFF;
    p->gmi_cuts = g->cuts == ILPM_CUTS_ALL ? GLP_ON : GLP_OFF;
    p->mir_cuts = p->cov_cuts = g->cuts == ILPM_CUTS_NONE ? GLP_OFF : GLP_ON;
    /* GLPK 5.0's MIR and Gomory cuts lose integer points to rounding
     * once coefficients grow: a 25-item knapsack with weights in [1e8,
     * 1e9] came out infeasible (glpsol --mir too), and GLPK's todd.mod,
     * whose row ilpm scales to coefficients near 6e6, ran 60 s without a
     * proof (glpsol --mir says infeasible on that row; 0.04-0.14 s
     * without MIR).  The rows of the puzzles and of the MIPLIB files in
     * tests stay under 1000. */
    if (d->max_coef > MIR_COEF_MAX)
        p->mir_cuts = p->gmi_cuts = GLP_OFF;
    /* GLPK 5.0's clique-cut generator writes past its arrays on small
     * conflict graphs (valgrind shows it with `glpsol --clique` on the
     * LP in tests/data/glpk_clique_bug.lp), so it stays off. */
    p->clq_cuts = GLP_OFF;
    /* A feasibility search has a constant objective, so GLPK's default
     * rules (Driebeck-Tomlin branching, best local bound), which steer by
     * the objective, only widen the tree.  Most fractional and depth first
     * reach a first integer point soonest (docs/benchmarks.md has the
     * times). */
    static const int br[] = {0,          GLP_BR_FFV, GLP_BR_LFV, GLP_BR_MFV,
                             GLP_BR_DTH, GLP_BR_PCH, GLP_BR_MFV};
    static const int bt[] = {0, GLP_BT_DFS, GLP_BT_BFS, GLP_BT_BPH, GLP_BT_BLB};
    /* The model's search hint, as GLPK's rule: the first fractional
     * column (the order they were made), the last, or the largest value,
     * up branch first. */
    static const ilpm_branch of_hint[ILPM_HINT_COUNT] = {
        [ILPM_HINT_NONE] = ILPM_BRANCH_AUTO,
        [ILPM_HINT_INPUT] = ILPM_BRANCH_FIRST,
        [ILPM_HINT_REVERSE] = ILPM_BRANCH_LAST,
        [ILPM_HINT_LIKELIEST] = ILPM_BRANCH_DIVE};
    ilpm_branch hint = (unsigned)d->hint < ILPM_HINT_COUNT ? of_hint[d->hint]
                                                           : ILPM_BRANCH_AUTO;
    /* A puzzle's hint holds when optimising too: Machiavelli's play
     * branches on the covers of its flow formulation. */
    ilpm_branch rule = g->branch != ILPM_BRANCH_AUTO ? g->branch
                       : hint != ILPM_BRANCH_AUTO    ? hint
                       : !feasibility                ? ILPM_BRANCH_DRTOM
                                                     : ILPM_BRANCH_MOST;
    p->br_tech = br[rule];
    p->bt_tech = g->backtrack != ILPM_BACKTRACK_AUTO ? bt[g->backtrack]
                 : feasibility                       ? GLP_BT_DFS
                                                     : GLP_BT_BLB;
    return rule == ILPM_BRANCH_DIVE;
}

static ilpm_status run_mip(struct solve_ctx *c, ilpm_err *err)
{
    ilpm_glpk *d = c->d;
    const ilpm_options *o = &d->base.o;
    int msg_lev = ilpm_reports(o) ? GLP_MSG_ON : GLP_MSG_OFF;
    int presolve = ilpm_glpk_opts_of(o)->presolve;
    /* GLPK's MIP presolver polls neither tm_lim nor the callback, and its
     * time grows with the nonzeros (PRESOLVE_S_PER_NZ).  Under a deadline
     * it runs only when that estimate stays within a tenth of the time
     * left; else the relaxation is solved first with tm_lim, as without
     * presolve. */
    if (presolve && d->base.watch.deadline > 0 &&
        (double)d->nnz * PRESOLVE_S_PER_NZ >
            0.1 * ilpm_watch_left(&d->base.watch))
        presolve = 0;
    /* The presolved problem's columns are not the model's: incumbents
     * are read from the model's own. */
    if (c->optimize && d->base.incumbent)
        presolve = 0;
    d->at_root = 1;
    if (!presolve) {
        ilpm_status st = ilpm_glpk_relaxation(d, msg_lev, err);
        if (st != ILPM_SOLVED) {
            d->at_root = 0;
            return st;
        }
    }
    glp_iocp p;
    c->dive = ilpm_glpk_iocp(d, !c->optimize || d->sense == ILPM_NONE, &p);
    p.presolve = presolve ? GLP_ON : GLP_OFF;
    p.cb_func = on_tree;
    p.cb_info = c;
    int rc;
    do {
        c->cover = p.cov_cuts == GLP_ON;
        c->empty_tree = 0;
        rc = ilpm_glpk_intopt(d, &p, c->guard);
        if (rc < 0) {
            d->at_root = 0;
            return ILPM_TIMEOUT;
        }
        p.cov_cuts = GLP_OFF;
    } while (rc == GLP_ESTOP && c->empty_tree);
    d->at_root = 0;
    if (c->refused)
        return ILPM_ERROR;
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
        /* Ended by ilpm_glpk_watch, or by GLPK's own tm_lim. */
        return d->base.watch.status == ILPM_STOPPED ? ILPM_STOPPED
                                                    : ILPM_TIMEOUT;
    default:
        break;
    }
    ilpm_err_fail(err, ILPM_E_FAIL,
                  "GLPK: glp_intopt returned code %d (%s) with MIP "
                  "status %d",
                  rc, ilpm_glpk_code_name(rc), st);
    return ILPM_ERROR;
}

void ilpm_glpk_objective(ilpm_glpk *d, int on)
{
    if (d->sense == ILPM_NONE)
        return;
    for (int v = 0; v <= d->nvars; v++)
        if (d->obj[v] != 0)
            glp_set_obj_coef(d->P, v, on ? (double)d->obj[v] : 0.0);
}

static int solve_body(void *ctx, ilpm_err *err)
{
    struct solve_ctx *c = ctx;
    ilpm_glpk *d = c->d;
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
    if (!c->optimize)
        ilpm_glpk_objective(d, 0);
    c->st = run_mip(c, err);
    for (int i = 0; i < c->n; i++)
        glp_set_col_bnds(P, abs(c->assume[i]), GLP_DB, 0.0, 1.0);
    if (!c->optimize)
        ilpm_glpk_objective(d, 1);
    return 0;
}

static ilpm_status glpk_solve(ilpm_driver *base, const int *assume, int n,
                              int optimize, uint8_t *vals, int64_t *obj,
                              ilpm_err *err)
{
    ilpm_glpk *d = (ilpm_glpk *)base;
    if (ilpm_glpk_alive(d, err) != 0)
        return ILPM_ERROR;
    if (n < 0 || (n > 0 && !assume)) {
        ilpm_err_fail(err, ILPM_E_FAIL, "GLPK: %d assumptions without a list",
                      n);
        return ILPM_ERROR;
    }
    for (int i = 0; i < n; i++)
        if (assume[i] == 0 || assume[i] == INT_MIN ||
            abs(assume[i]) > d->nvars) {
            ilpm_err_input(err,
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
    if (d->nvars == 0) { /* no columns: GLPK has nothing to decide */
        if (obj)
            *obj = d->obj[0];
        return optimize ? ILPM_OPTIMAL : ILPM_SOLVED;
    }
    struct solve_ctx c = {.d = d,
                          .assume = assume,
                          .n = n,
                          .optimize = optimize,
                          .vals = vals,
                          .obj = obj,
                          .st = ILPM_ERROR};
    ilpm_glpk_guard g;
    c.guard = &g;
    if (ilpm_glpk_run(&g, &d->base.o, solve_body, &c, "solving", err) != 0) {
        d->P = NULL;
        return ILPM_ERROR;
    }
    return c.st;
}

static ilpm_driver *glpk_create(const ilpm_model *m, const ilpm_options *o,
                                ilpm_stats *stats, ilpm_err *err)
{
    ilpm_glpk *d = ilpm_glpk_build(m, o, stats, 1, ILPM_GLPK_SOLVE, err);
    return d ? &d->base : NULL;
}

static void glpk_destroy(ilpm_driver *d)
{
    ilpm_glpk_destroy((ilpm_glpk *)d);
}

static int glpk_add(ilpm_driver *d, const ilpm_con *con, ilpm_err *err)
{
    return ilpm_glpk_add((ilpm_glpk *)d, con, err);
}

static const char *const cuts_names[] = {ILPM_CUTS_RULES(ILPM_ENUM_NAME_) NULL};
static const char *const branch_names[] = {ILPM_BRANCHES(ILPM_ENUM_NAME_) NULL};
static const char *const backtrack_names[] = {ILPM_BACKTRACKS(ILPM_ENUM_NAME_)
                                                  NULL};

#define FIELD(f) offsetof(ilpm_glpk_opts, f)

/* GLPK's own options (glpk_int.h), as the command line shows them. */
static const ilpm_opt glpk_opts[] = {
    {.name = "cuts",
     .type = ILPM_OPT_CHOICE,
     .def = "default",
     .choices = cuts_names,
     .offset = FIELD(cuts),
     .help = "GLPK cuts: none; default = cover and MIR; all = also Gomory "
             "(MIR and Gomory left out when a row has a coefficient beyond "
             "100000)"},
    {.name = "branch",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = branch_names,
     .offset = FIELD(branch),
     .help = "GLPK branching rule, dive: largest value, up branch first "
             "(auto: the puzzle's hint, else most fractional when searching "
             "for a solution, Driebeck-Tomlin when optimising)"},
    {.name = "backtrack",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = backtrack_names,
     .offset = FIELD(backtrack),
     .help = "GLPK backtracking rule (auto: depth first when searching for "
             "a solution, best local bound when optimising)"},
    {.name = "no-presolve",
     .type = ILPM_OPT_FLAG,
     .flags = ILPM_OPT_OFF,
     .offset = FIELD(presolve),
     .help = "turn GLPK's MIP presolver off"},
    {.name = NULL},
};

const ilpm_driver_ops ilpm_glpk_ops = {
    .opts = glpk_opts,
    .create = glpk_create,
    .destroy = glpk_destroy,
    .solve = glpk_solve,
    .add = glpk_add,
    .count = ilpm_glpk_count,
    .reports = ILPM_REPORTS_ROWS,
    .fix_assumed = 1, /* GLPK's presolve removes the fixed columns */
};
