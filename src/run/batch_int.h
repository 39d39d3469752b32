/* batch_int.h: what the batch's scheduler (batch.c), the jobs it hands
 * its worker pool (batch_job.c) and its results files (results.c)
 * share.  Private to src/run. */
#ifndef ILPM_BATCH_INT_H
#define ILPM_BATCH_INT_H

#include "batch.h"
#include "pool.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* An input file.  Standard input or a pipe cannot be read a second time,
 * so the parent first copies it to a temporary file that everyone reads. */
struct source {
    const char *file; /* as given: the results' file column */
    char *copy;       /* the temporary copy, or NULL        */
};

/* An instance with runs to do: where its text starts, not the parsed
 * instance, so that the parent's memory does not grow with the
 * instances' size.  The worker that runs it parses it again. */
struct task {
    int64_t offset; /* where the instance's parse began in its file  */
    long lines;     /* lines before offset, for file:line messages   */
    long index;     /* 1-based, within its file                      */
    size_t text;    /* into batch.text: the describe() label, or,    */
    int bad;        /* when bad, why the instance did not parse      */
    int src;        /* its file, into batch.src                      */
};

struct job {
    int task;
    ilpm_backend backend;
};

struct batch {
    const ilpm_puzzle *pz;
    const ilpm_params *p;
    const ilpm_batch_opts *o;
    struct source *src;
    int nsrc;
    struct task *tasks;
    int ntasks, cap_tasks;
    struct job *jobs;
    long njobs;
    size_t cap_jobs;
    ilpm_buf text; /* the tasks' labels and parse errors, NUL-separated */
};

const char *ilpm_batch_task_text(const struct batch *b, const struct task *t);
/* A run's row in the batch's format. */
void ilpm_batch_format_row(const struct batch *b, const ilpm_result *r,
                           ilpm_buf *out);
/* The key columns of job j's row. */
void ilpm_batch_fill_key(const struct batch *b, long j, ilpm_result *r);
/* Opens a source at a position that ilpm_reader_offset gave. */
ilpm_reader *ilpm_batch_open_source(const struct source *s, int64_t offset,
                                    long lines, ilpm_err *err);
/* The pool's jobs for batch b: job j runs b->jobs[j] into its row. */
struct pool_job ilpm_batch_pool_job(const struct batch *b);

/* ------------------------------------------------------------------ */
/* Results files (results.c)                                            */

/* The key of a row: file, index, formulation and back end, texts of any
 * length in one block that file owns. */
typedef struct rowkey {
    char *file;
    long index;
    const char *form;
    const char *backend;
    int stopped; /* the row says the run was interrupted */
    int status;  /* its ilpm_status; -1 for a name ilpm does not know */
} rowkey;

struct keyset {
    rowkey *k;
    char **lines; /* the rows themselves, for merge */
    size_t n, cap;
    char *header; /* CSV header line, NULL for JSON */
    int json;
    int upgraded; /* a file's rows were given the current columns */
    int cut;        /* the last line has no line end (resume: not read) */
    int64_t cut_at; /* where that line starts                          */
};

/* The rows a resumed batch finds done, hashed on their key: a big results
 * file against a big input stays linear (a scan per run was quadratic). */
struct doneset {
    const struct keyset *ks;
    size_t *slot; /* 1 + index into ks->k; 0 for an empty slot */
    size_t mask;
};

void ilpm_results_keyset_free(struct keyset *ks);
/* Reads the rows of a results file into ks (more files add to it);
 * keep_lines keeps their text.  A missing file is 0 rows unless
 * must_exist.  A last line without its line end (a batch stopped while
 * writing it) is an error when keep_lines (merge), else left unread and
 * told by ks->cut and ks->cut_at (--resume runs it again). */
int ilpm_results_read(const char *path, struct keyset *ks, int keep_lines,
                      int must_exist, ilpm_err *err);
/* -1 when out of memory; free d->slot after. */
int ilpm_results_doneset_build(struct doneset *d, const struct keyset *ks);
/* The row of a run done already, or NULL. */
const rowkey *ilpm_results_doneset_has(const struct doneset *d,
                                       const char *file, long index,
                                       const char *form, const char *backend);
/* Writes the rows of path again under the current header; -1 with err
 * when it does not read, err->rc ILPM_E_IO when it cannot be written. */
int ilpm_results_rewrite(const char *path, ilpm_err *err);
/* Parses one CSV line into at most max fields (RFC 4180 quoting, no line
 * ends inside fields); returns the count.  Fields point into line. */
int ilpm_results_csv_split(char *line, char **fields, int max);
/* The text of the JSON string at s (on its quote), unescaped (\u escapes
 * and surrogate pairs as UTF-8), into b: 0, or -1 when malformed. */
int ilpm_results_json_text(const char *s, ilpm_buf *b);
/* A row of a results file in the other format (merge.c),
 * appended to out without a line end: a CSV row of header's columns as
 * a JSON line, or a JSON line as a CSV row of header's columns.  0, or
 * -1 when the row is malformed or memory ran out (out->oom). */
int ilpm_results_row_to_json(const char *row, const char *header,
                             ilpm_buf *out);
int ilpm_results_row_to_csv(const char *line, const char *header,
                            ilpm_buf *out);

#endif
