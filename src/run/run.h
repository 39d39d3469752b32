/* run.h: what the command-line verbs share: solve or count one instance
 * into a result record, and write records as text, JSON lines or CSV with
 * the same field names. */
#ifndef ILPM_RUN_H
#define ILPM_RUN_H

#include "backends.h"
#include "ilpm_int.h"
#include "puzzle.h"
#include "util.h"

struct ilpm_result;

/* --backend auto: the portfolio (portfolio.h), a choice of the run
 * layer over the real back ends, numbered after them. */
#define ILPM_BACKEND_AUTO ILPM_BACKEND_COUNT
/* The choices of --backend: the back ends, then auto (a batch counts
 * its runs by choice). */
#define ILPM_RUN_BACKENDS (ILPM_BACKEND_COUNT + 1)

typedef struct ilpm_run_opts {
    ilpm_options solver;
    int count;      /* count solutions instead of finding one      */
    uint64_t limit; /* stop counting at this many (0: all)         */
    int render;     /* fill text and json of the solution (json alone
                     * when counting)                               */
    /* Leave the input's statements about its answer unrun (ilpm_puzzle
     * post): compare, which shows no answer. */
    int no_post;
    /* When not NULL: called as a run begins (the result names the
     * puzzle, instance, formulation and back end) and after each solution
     * counted (has_count, count so far), for a progress display.  It is
     * called from inside the count: it must be quick. */
    void (*progress)(void *ctx, const struct ilpm_result *r);
    void *progress_ctx;
    /* When not NULL: called with each verified solution of a count, as
     * the puzzle renders it for people, as soon as it is found (for a
     * front end that prints solutions as they come); non-zero stops the
     * count. */
    int (*on_solution)(void *ctx, const char *text);
    void *solution_ctx;
    /* With count: count only a model without an objective; one with an
     * objective is optimised (MiniZinc's -a, "all solutions" or "every
     * improving one"). */
    int count_satisfaction_only;
    /* Optimising (a model with an objective, not counted): each improving
     * solution the back end finds, verified, goes to on_solution as it is
     * found (MiniZinc's -i); non-zero from it ends the run. */
    int incumbents;
    /* --backend auto: its members (0: the number of online cores; 1:
     * ilp alone, as without auto) and the seed of those that take one
     * (-1: their own); int64_t, as the command line's rows fill them. */
    int64_t threads;
    int64_t seed;
} ilpm_run_opts;

void ilpm_run_opts_init(ilpm_run_opts *o);

typedef struct ilpm_result {
    char puzzle[32];
    char instance[160];
    char file[512];       /* "" when from parameters                     */
    long index;           /* 1-based position in its file, 0 if none     */
    int worker;           /* batch worker that ran it, 0 outside batches */
    char formulation[32]; /* "" for a puzzle with one formulation     */
    ilpm_backend backend;
    ilpm_status status;
    int verified; /* solutions were reported (found, counted) and
                   * every one passed the rules; 0 with none (unsat) */
    int has_objective;
    /* The model's objective times objective_scale, a power of ten (a
     * file's decimals made integers; 0 or 1: none): every output shows
     * objective / objective_scale, the model's own value. */
    int64_t objective;
    int64_t objective_scale;
    char objective_text[64]; /* the puzzle's words for it, or ""         */
    int has_count;
    uint64_t count;
    int count_complete; /* every solution was counted: count is exact */
    double build_ms, solve_ms;
    /* The puzzle's load step (gmpl: GLPK's translation), when it has
     * one (has_translate), under the same time limit. */
    int has_translate;
    double translate_ms;
    ilpm_stats stats; /* sizes of the formulation solved             */
    int have_stats;
    char *text;         /* the solution for people (malloc'd) or NULL  */
    char *json;         /* the solution as a JSON value or NULL        */
    char error[512];    /* why status is ILPM_ERROR                     */
    ilpm_rc error_kind; /* and whose: exit 2 unless internal   */
    /* batches: the signal that cut the run off from outside ("SIGKILL":
     * its worker was killed, not the run failed), or "" */
    char stopped_by[16];
    /* The input's statements about its answer failed (ilpm_puzzle post:
     * a MathProg check): why, or "".  The answer itself stands. */
    char postsolve_error[512];
    /* a count: what it counts over, when the puzzle says (count_note) */
    char count_note[256];
    /* unsat: why, when the puzzle can tell (one line), or "" */
    char reason[256];
    /* --backend auto: the member that answered ("sat target=2"), or "" */
    char member[32];
} ilpm_result;

void ilpm_result_init(ilpm_result *r);
void ilpm_result_free(ilpm_result *r);

/* A new model bounded by the options' --max-vars and --max-memory. */
ilpm_model *ilpm_run_model_new(const ilpm_options *o);

/* Builds, solves (or counts, or optimises when the model has an
 * objective), decodes and verifies one instance.  Always fills res;
 * returns 0 unless something internal failed (then res->status is
 * ILPM_ERROR with res->error). */
int ilpm_run_instance(const ilpm_puzzle *pz, const void *inst,
                      const ilpm_params *p, const ilpm_run_opts *o,
                      ilpm_result *res);

/* The puzzle's load step (ilpm_puzzle load) under o's limits, when it
 * has one: 0 (and *ms), or -1 with err. */
int ilpm_run_load(const ilpm_puzzle *pz, void *inst, const ilpm_params *p,
                  const ilpm_options *o, double *ms, ilpm_err *err);

/* Incremental runs: one model and solver per shape key (puzzles with
 * shape/build_shape/givens), the givens passed as assumptions.  Counting
 * runs fall back to ilpm_run_instance. */
typedef struct ilpm_shape_cache ilpm_shape_cache;
ilpm_shape_cache *ilpm_shape_cache_new(void);
void ilpm_shape_cache_free(ilpm_shape_cache *c);
long ilpm_shape_cache_reused(const ilpm_shape_cache *c);
int ilpm_run_instance_cached(const ilpm_puzzle *pz, const void *inst,
                             const ilpm_params *p, const ilpm_run_opts *o,
                             ilpm_shape_cache *c, ilpm_result *res);

/* The walk over one file's instances that every verb and the batch
 * share.  want > 0 picks the want-th instance alone (--index). */
typedef struct ilpm_instances {
    const ilpm_puzzle *pz;
    const ilpm_params *p;
    ilpm_reader *rd; /* the caller's                                  */
    long want;       /* --index, 0 for every instance                 */
    long index;      /* 1-based position of the last instance read    */
    int64_t offset;  /* where its text begins (ilpm_reader_offset)    */
    long lines;      /* lines before it                               */
    int done;
    int bad; /* the last -1 was instance `index`'s own text's error   */
    /* Each instance is read under a watch of its own (ilpm_instances_
     * watch): the deadline of limits' time limit from the start of its
     * text, limits' stop flag. */
    const ilpm_options *limits;
    ilpm_watch watch;
} ilpm_instances;

void ilpm_instances_init(ilpm_instances *it, const ilpm_puzzle *pz,
                         const ilpm_params *p, ilpm_reader *rd, long want);
/* Reads each instance by o's deadline (ilpm_options_deadline, from the
 * start of its text) and until o's stop flag: past either,
 * ilpm_instances_next gives -1 with err->rc ILPM_E_TIMEOUT or
 * ILPM_E_INTERRUPTED, and it->done.  o must outlive the walk. */
void ilpm_instances_watch(ilpm_instances *it, const ilpm_options *o);
/* The next instance, at it->index: 1 with *inst (the caller frees it
 * with pz->free_instance), 0 at the end, -1 with err: a malformed
 * instance (err holds file:line:col; the walk goes on after it), or,
 * with it->done set, what ends the walk (err says why): a file with no
 * instance at all, --index past the last one, a parser that failed
 * without reading on, the deadline or a stop while reading. */
int ilpm_instances_next(ilpm_instances *it, void **inst, ilpm_err *err);

/* The size columns of a result, in the order JSON and CSV write them
 * (vars, aux_vars, rows, nonzeros, clauses), ended by a NULL name.  Each
 * is a field of ilpm_stats and is filled by the back ends whose driver
 * reports what it needs (ilpm_backend_report): a back end that counts
 * rows or clauses needs no column of its own. */
typedef struct ilpm_size_column {
    const char *name;
    size_t offset;  /* of its int64_t in ilpm_stats          */
    unsigned needs; /* ILPM_REPORTS_* bits; 0: every back end */
} ilpm_size_column;
extern const ilpm_size_column ilpm_size_columns[];
/* Whether back end b fills column c. */
int ilpm_backend_fills(ilpm_backend b, const ilpm_size_column *c);
/* Column c of s, and a pointer to it (for sums). */
int64_t ilpm_size_value(const ilpm_stats *s, const ilpm_size_column *c);
int64_t *ilpm_size_field(ilpm_stats *s, const ilpm_size_column *c);

/* The objective as outputs show it: objective / objective_scale, as a
 * decimal ("11.55"); buf of 32 bytes is enough. */
const char *ilpm_result_objective(const ilpm_result *r, char *buf, size_t size);

/* Output, one record per call. */
void ilpm_result_json(const ilpm_result *r, ilpm_buf *out);
void ilpm_result_csv_header(ilpm_buf *out);
void ilpm_result_csv(const ilpm_result *r, ilpm_buf *out);
void ilpm_result_text(const ilpm_result *r, ilpm_buf *out);

/* Per-group sizes of both formulations, side by side (the `stats` verb). */
void ilpm_stats_text(const ilpm_model *m, const ilpm_stats *s, ilpm_buf *out);
void ilpm_stats_json(const ilpm_model *m, const ilpm_stats *s,
                     const char *puzzle, const char *instance, ilpm_buf *out);
/* The same as CSV: a row per group, then the row of group "total" (the
 * whole model's sizes and its variables, the only row with vars). */
void ilpm_stats_csv_header(ilpm_buf *out);
void ilpm_stats_csv(const ilpm_model *m, const ilpm_stats *s,
                    const char *puzzle, const char *instance, ilpm_buf *out);

#endif
