/* batch.h: every instance of many files on a pool of worker processes,
 * results streamed in input order to a CSV or JSON-lines file. */
#ifndef ILPM_BATCH_H
#define ILPM_BATCH_H

#include "run.h"

typedef struct ilpm_batch_summary {
    long total; /* runs to do in this invocation             */
    long done;
    long skipped; /* already in the results (--resume)         */
    long kept_by_status[ILPM_STATUS_COUNT]; /* those rows by status
                                               (ilpm_status)      */
    long kept_input_errors; /* those of input that does not parse      */
    long input_errors;      /* runs recorded as errors because an input   */
                            /* file or instance was bad (among by_status) */
    long by_status[ILPM_STATUS_COUNT]; /* indexed by ilpm_status */
    long postsolve_errors; /* answers whose input's statements about them
                              failed (a MathProg check)                 */
    long replaced;         /* workers that died or overran, replaced    */
    long reused;           /* runs that reused a shape's model          */
    double elapsed_s;
    /* Per back end (ILP, SAT, CP, auto): runs, total and median solve ms. */
    long runs[ILPM_RUN_BACKENDS];
    double total_ms[ILPM_RUN_BACKENDS], median_ms[ILPM_RUN_BACKENDS];
} ilpm_batch_summary;

typedef struct ilpm_batch_opts {
    ilpm_run_opts run; /* solver options, --count, --limit          */
    /* The back ends each instance runs on, ILPM_BACKEND_BIT each
     * (ILPM_BACKENDS_BOTH, ILPM_BACKENDS_ALL); 0: run.solver.backend. */
    unsigned backends;
    int jobs;               /* worker processes (>= 1)                   */
    double memory_limit_mb; /* per worker address space, 0 for none      */
    int json;               /* JSON lines, else CSV                      */
    int resume;             /* skip instances already in the results     */
    long shard_i, shard_n;  /* keep instances i, i+n, i+2n, ... (0-based) */
    long index;             /* > 0: only the index-th instance of a file */
    int incremental;        /* one model per shape in each worker        */
    volatile int *stop;     /* set by the caller's signal handler        */
    /* Called about five times a second and at the end. */
    void (*progress)(void *ctx, const ilpm_batch_summary *s);
    void *progress_ctx;
} ilpm_batch_opts;

void ilpm_batch_opts_init(ilpm_batch_opts *o);

/* Runs the batch; returns 0 when every run was recorded (whatever its
 * status), -1 with err when the batch could not run (inputs, an old
 * results file for --resume, resources), err->rc ILPM_E_IO when the
 * results file cannot be created or written: the batch then stops, and
 * the rows written so far stay.  An interrupted batch returns 0 with fewer runs
 * done.  The results file is written in place as rows complete (see
 * ilpm_out_open in util.h for "-", links and devices). */
int ilpm_batch_run(const ilpm_puzzle *pz, const char *const *files, int nfiles,
                   const ilpm_params *p, const ilpm_batch_opts *o,
                   const char *out_path, ilpm_batch_summary *sum,
                   ilpm_err *err);

/* The format a results file's name asks for: 1 JSON lines (.json,
 * .jsonl), 0 CSV (.csv), -1 when the name does not say.  batch and merge
 * decide by it (batch: CSV unless it says JSON; merge: as its inputs
 * when it does not say). */
int ilpm_results_name_format(const char *path);
/* What path holds, read before it is written: 1 an ilpm results file
 * (its header or first row read; *json set), 0 nothing to lose ("-",
 * no file, an empty file, a device), -1 with err naming path:
 * something else ("not an ilpm results file ..."). */
int ilpm_results_probe(const char *path, int *json, ilpm_err *err);

/* Combines result files (CSV or JSON lines, or some of each) into
 * out_path: one header, rows sorted by file, index, formulation and back
 * end, a later row replacing an earlier one with the same key, in the
 * format out_path's name asks for (ilpm_results_name_format; rows of the
 * other one converted), else in the inputs' (refused when they mix).  -1 with
 * err when an input is bad, err->rc ILPM_E_IO when out_path cannot be written
 * (it is then left as it was; see ilpm_out_open). */
int ilpm_batch_merge(const char *const *inputs, int n, const char *out_path,
                     ilpm_err *err);

#endif
