/* glpk_int.h: what the files of the GLPK back end share, and the only
 * header that includes glpk.h.  glpk_guard.c runs GLPK under an error
 * hook, glpk_build.c lowers a model into a glp_prob (and counts its
 * rows), glpk_solve.c drives glp_intopt, glpk_write.c writes LP and MPS.
 *
 * Threads: GLPK keeps one environment per thread, so a driver must be
 * used by the thread that created it. */
#ifndef ILPM_GLPK_INT_H
#define ILPM_GLPK_INT_H

#include "backend.h"
#include "ilpm_readers.h"
#include "util.h"

#include <glpk.h>
#include <setjmp.h>

/* ------------------------------------------------------------------ */
/* The GLPK back end's own options: their rows are in glpk_solve.c, their */
/* fields here, in the GLPK back end's area of ilpm_options.            */

// clang-format off
/* GLPK's cut classes: none; default = cover and MIR; all = also Gomory. */
#define ILPM_CUTS_RULES(X) X(ILPM_CUTS_NONE, "none")                           \
    X(ILPM_CUTS_DEFAULT, "default") X(ILPM_CUTS_ALL, "all")
/* GLPK's branching and backtracking rules, named as glpsol names them.
 * AUTO: for a feasibility search (no objective, or counting) the model's
 * hint (ilpm_model_hint), else the most fractional variable and depth
 * first, which find a first solution soonest; when optimising, GLPK's
 * defaults (Driebeck-Tomlin, best local bound).  Branching on the first,
 * last or most fractional variable, Driebeck and Tomlin's, hybrid
 * pseudo-cost; dive: the fractional variable of largest value, up branch
 * first (our callback), which fixes the LP's likeliest choice, as a SAT
 * solver decides, where "most" splits the least decided one.
 * Backtracking depth first, breadth first, best projection, best local
 * bound. */
#define ILPM_BRANCHES(X) X(ILPM_BRANCH_AUTO, "auto")                           \
    X(ILPM_BRANCH_FIRST, "first") X(ILPM_BRANCH_LAST, "last")                  \
    X(ILPM_BRANCH_MOST, "most") X(ILPM_BRANCH_DRTOM, "drtom")                  \
    X(ILPM_BRANCH_PCOST, "pcost") X(ILPM_BRANCH_DIVE, "dive")
#define ILPM_BACKTRACKS(X) X(ILPM_BACKTRACK_AUTO, "auto")                      \
    X(ILPM_BACKTRACK_DFS, "dfs") X(ILPM_BACKTRACK_BFS, "bfs")                  \
    X(ILPM_BACKTRACK_BESTP, "bestp") X(ILPM_BACKTRACK_BESTB, "bestb")
typedef enum ilpm_cuts { ILPM_CUTS_RULES(ILPM_ENUM_ID_) ILPM_CUTS_COUNT } ilpm_cuts;
typedef enum ilpm_branch { ILPM_BRANCHES(ILPM_ENUM_ID_) ILPM_BRANCH_COUNT } ilpm_branch;
typedef enum ilpm_backtrack {
    ILPM_BACKTRACKS(ILPM_ENUM_ID_) ILPM_BACKTRACK_COUNT } ilpm_backtrack;
// clang-format on

typedef struct ilpm_glpk_opts {
    ilpm_cuts cuts;
    ilpm_branch branch;
    ilpm_backtrack backtrack;
    int presolve; /* GLPK's MIP presolver, default on */
} ilpm_glpk_opts;
_Static_assert(sizeof(ilpm_glpk_opts) <= ILPM_BACKEND_AREA,
               "the GLPK options outgrow their area of ilpm_options");

static inline const ilpm_glpk_opts *ilpm_glpk_opts_of(const ilpm_options *o)
{
    return (const ilpm_glpk_opts *)ilpm_backend_area_c(o, ILPM_BACKEND_ILP);
}
static inline ilpm_glpk_opts *ilpm_glpk_opts_in(ilpm_options *o)
{
    return (ilpm_glpk_opts *)ilpm_backend_area(o, ILPM_BACKEND_ILP);
}

#define NAME_LEN 256 /* GLPK rejects names longer than 255 characters */

/* ------------------------------------------------------------------ */
/* glpk_guard.c: GLPK aborts the process on misuse or internal trouble, */
/* so every call into it runs under an error hook that turns the abort  */
/* into an error.                                                        */

typedef struct ilpm_glpk_guard {
    jmp_buf jb;
    void (*log_fn)(void *ctx, const char *text); /* NULL: quiet */
    void *log_ctx;
    int old_out;
    char log[1024]; /* tail of GLPK's terminal output, for messages */
    size_t len;
    /* Set by fn, if it wants to: sees each of GLPK's messages first
     * (NULL on entry to ilpm_glpk_run). */
    void (*text_fn)(void *ctx, const char *text);
    void *text_ctx;
} ilpm_glpk_guard;

typedef int (*ilpm_glpk_fn)(void *ctx, ilpm_err *err);

/* Runs fn(ctx, err) under the hooks, GLPK's messages going to o's log
 * (o NULL: nowhere).  fn's result, or -1 with err saying that GLPK
 * failed while `what` and its last words.  g lives in the caller's frame
 * so that nothing this function owns is modified between setjmp and
 * longjmp. */
int ilpm_glpk_run(ilpm_glpk_guard *g, const ilpm_options *o, ilpm_glpk_fn fn,
                  void *ctx, const char *what, ilpm_err *err);
/* The same with GLPK's messages going to log_fn(log_ctx, text) (NULL:
 * nowhere but the tail kept for messages). */
int ilpm_glpk_run_log(ilpm_glpk_guard *g, void (*log_fn)(void *, const char *),
                      void *log_ctx, ilpm_glpk_fn fn, void *ctx,
                      const char *what, ilpm_err *err);
/* The last nlines lines of GLPK's output, joined by "; ", into out. */
void ilpm_glpk_log_tail(const ilpm_glpk_guard *g, int nlines, char *out,
                        size_t size);
/* After a GLPK failure every GLPK object of the thread is gone, problems
 * of other drivers included.  This counts those resets: a driver
 * remembers the generation it was built in and refuses to touch its
 * problem once the generation has moved on. */
unsigned long ilpm_glpk_gen(void);

/* glpk_read.c: P's columns, rows and objective into lp's plain arrays
 * (lp zeroed); the LP and MPS readers and the MathProg translator
 * (glpk_mpl.c) share it.  0, or -1 out of memory. */
int ilpm_glpk_fill_lp(glp_prob *P, ilpm_lp *lp, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* glpk_build.c: the driver, its problem and its statistics.            */

/* The driver: the base every driver has (backend.h; base.stats is the
 * caller's or NULL, base.watch stops the build and each search), then
 * GLPK's own. */
typedef struct ilpm_glpk {
    ilpm_driver base;  /* first: the registry's functions take it    */
    glp_prob *P;       /* NULL when only counting (statistics)       */
    unsigned long gen; /* ilpm_glpk_gen() when P was created         */
    int nvars;
    int ngroups;
    char **gprefix;   /* row-name prefix of each model group          */
    int64_t *gcount;  /* rows named so far in each group              */
    int64_t ncuts;    /* rows added outside any group                 */
    int names;        /* name rows and columns (for the exported files) */
    int64_t nnz;      /* nonzeros in the rows added so far             */
    int64_t max_coef; /* largest |coefficient| in those rows          */
    int infeasible;   /* some row reduced to a false constant         */
    ilpm_rows rows;   /* the rows of a constraint, as OPB writes them */
    int *ind;         /* a row in GLPK's 1-based arrays */
    /* The user's name of the last row, and how many rows in a run took
     * it (cap, cap.2, ...). */
    const char *last_name;
    int64_t name_reps;
    double *val;
    /* The folded objective, obj[0] the constant; kept to restore it after
     * satisfaction calls and to compute objective values exactly. */
    ilpm_sense sense;
    int64_t *obj;
    int8_t *fix;    /* assumption signs during one solve */
    ilpm_hint hint; /* the model's search hint                     */
    /* The parameters of the glp_intopt running (ilpm_glpk_intopt), whose
     * tm_lim the callback keeps to the deadline, and glp_time() at its
     * first callback (0 before). */
    glp_iocp *iocp;
    double tree_ms;
    /* The solve's root LP (run_mip), before glp_intopt's first callback:
     * its tm_lim ends at the thread's moment too (ilpm_watch_moment),
     * which only a callback can meet. */
    int at_root;
} ilpm_glpk;

/* What a problem is built for: names and the objective constant differ
 * between the solver and the files. */
typedef enum ilpm_glpk_purpose {
    ILPM_GLPK_SOLVE,
    ILPM_GLPK_LP,
    ILPM_GLPK_MPS
} ilpm_glpk_purpose;

/* Lowers m into a new driver: counting only (use_glpk 0: no GLPK
 * problem, the rows go to stats) or into a GLPK problem. */
ilpm_glpk *ilpm_glpk_build(const ilpm_model *m, const ilpm_options *o,
                           ilpm_stats *stats, int use_glpk,
                           ilpm_glpk_purpose purpose, ilpm_err *err);
/* Deletes d's problem if GLPK still holds it, then d. */
void ilpm_glpk_destroy(ilpm_glpk *d);
/* 0 if d's problem is still there, else -1 with err. */
int ilpm_glpk_alive(const ilpm_glpk *d, ilpm_err *err);
/* Adds a permanent constraint (the driver's add). */
int ilpm_glpk_add(ilpm_glpk *d, const ilpm_con *con, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* glpk_solve.c and glpk_count.c: what both searches share.             */

/* glp_intopt's parameters from d's options, for a feasibility search
 * (constant objective) or an optimisation; 1 when the callback is to
 * branch (ilpm_glpk_dive). */
int ilpm_glpk_iocp(const ilpm_glpk *d, int feasibility, glp_iocp *p);
/* Solves the LP relaxation, which glp_intopt without presolve needs
 * optimal first, within d's watch: ILPM_SOLVED (go on), ILPM_UNSAT,
 * ILPM_TIMEOUT or ILPM_ERROR. */
ilpm_status ilpm_glpk_relaxation(ilpm_glpk *d, int msg_lev, ilpm_err *err);
/* GLPK's tm_lim for what is left of d's watch, less ilpm_free_time():
 * milliseconds, at least 1; 0 if that has passed; -1 (none) without a
 * deadline. */
int ilpm_glpk_ms_left(ilpm_glpk *d);
/* glp_intopt(d->P, p) under d's watch: p->tm_lim from the time left,
 * kept to the deadline by ilpm_glpk_watch and, when g is given, for the
 * root LP after the presolver, through g's text hook.  -1 without
 * calling it when the deadline has passed, else its code. */
int ilpm_glpk_intopt(ilpm_glpk *d, glp_iocp *p, ilpm_glpk_guard *g);
/* In a glp_intopt callback: ends the search (glp_ios_terminate) when d's
 * watch says stop or time, and else sets GLPK's tm_lim to the time left
 * (GLPK counts it from the creation of its tree, after the presolver and
 * the root LP, and gives each node's LP what tm_lim leaves).  1 when it
 * ended the search. */
int ilpm_glpk_watch(ilpm_glpk *d, glp_tree *T);
/* GLPK's name for a glp_intopt or glp_simplex return code. */
const char *ilpm_glpk_code_name(int rc);
/* Branches on the fractional variable of largest LP value, up branch
 * first (GLP_IBRANCH; ILPM_BRANCH_DIVE). */
void ilpm_glpk_dive(glp_tree *T);
/* Sets the objective to zero (on 0) for a satisfaction search, or back
 * to the model's (on 1). */
void ilpm_glpk_objective(ilpm_glpk *d, int on);
/* The driver's count (glpk_count.c). */
ilpm_status ilpm_glpk_count(ilpm_driver *d, const ilpm_model *m,
                            int short_block, uint64_t limit, uint8_t *vals,
                            uint64_t *count, int *complete, ilpm_solution_fn fn,
                            void *ctx, ilpm_err *err);

#endif
