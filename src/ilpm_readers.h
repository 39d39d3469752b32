/* ilpm_readers.h: what the back-end floor reads for the puzzles above it
 * (models/model): LP and MPS through GLPK's readers, and MathProg through
 * GLPK's translator.  Not installed. */
#ifndef ILPM_READERS_H
#define ILPM_READERS_H

#include "ilpm_int.h"

/* A linear program as GLPK's own readers give it, in plain 0-based
 * arrays: what a caller needs to make a model of its own from a file
 * (the `model` puzzle does).  Bounds that are absent have has_lo or
 * has_hi 0. */
typedef struct ilpm_lp {
    int ncols, nrows;
    char **col_name;        /* ncols names                               */
    unsigned char *col_int; /* 1 for an integer column, binary included */
    unsigned char *col_has_lo, *col_has_hi;
    double *col_lo, *col_hi;
    double *obj; /* objective coefficient of each column        */
    double obj_const;
    ilpm_sense sense; /* ILPM_MINIMIZE or ILPM_MAXIMIZE             */
    char **row_name;  /* nrows names (a row GLPK left unnamed: "")  */
    unsigned char *row_has_lo, *row_has_hi;
    double *row_lo, *row_hi;
    size_t *row_start; /* row i: entries row_start[i]..row_start[i+1) */
    int *ind;          /* column of each entry (0-based)              */
    double *val;       /* its coefficient                             */
} ilpm_lp;

/* Reads path with GLPK's reader for f (ILPM_FMT_LP: CPLEX LP; ILPM_FMT_MPS:
 * free MPS); a name ending in .gz is decompressed by GLPK where GLPK was
 * built with zlib.  name stands for path in messages (NULL: path).  0
 * and *out, or -1 with err holding GLPK's "name:line: message" (rc
 * ILPM_E_INPUT). */
int ilpm_lp_read(const char *path, const char *name, ilpm_format f,
                 ilpm_lp **out, ilpm_err *err);
void ilpm_lp_free(ilpm_lp *lp);

/* ------------------------------------------------------------------ */
/* Translating GNU MathProg (GMPL) with GLPK's translator               */

/* A MathProg model and its data files, as glpsol takes them (-m, -d):
 * the model's own data section is read when no data file is given.  A
 * file named "-" is stdin_text[0..stdin_len) when stdin_text is not NULL
 * (the caller reads standard input once); a file that starts with a
 * UTF-8 byte-order mark is read without it. */
typedef struct ilpm_gmpl_src {
    const char *model;
    const char *const *data;
    int ndata;
    const char *stdin_text;
    size_t stdin_len;
} ilpm_gmpl_src;

/* A translation kept for the model's statements after solve: GLPK's
 * translator runs in a child process, which waits for the solution. */
typedef struct ilpm_gmpl ilpm_gmpl;

/* What bounds a translation, and where its warnings go. */
typedef struct ilpm_gmpl_opts {
    double deadline;    /* ilpm_now() seconds, <= 0: none           */
    volatile int *stop; /* non-zero stops it; NULL: none            */
    /* Each warning of GLPK's translator ("m.mod:13: warning: data
     * section ignored"), one line without its newline; NULL: dropped. */
    void (*warn)(void *ctx, const char *line);
    void *warn_ctx;
} ilpm_gmpl_opts;

/* Translates and generates src into *out, the problem GLPK builds of it
 * (glp_mpl_build_prob: columns and rows named as the model names them,
 * "x[3,'a']"; the objective, if any, also a free row).  GLPK's
 * translator cannot be interrupted, so it runs in a child process (which
 * inherits the address-space limit), killed when o's time limit or stop
 * comes first: then -1 with err->rc ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED.
 * The statements before the model's solve statement run here: files
 * they write are written.  With keep, the child stays for one
 * ilpm_gmpl_postsolve (ilpm_gmpl_free ends it).  0, or -1 with err
 * holding GLPK's "file:line: message" (rc ILPM_E_INPUT). */
int ilpm_gmpl_translate(const ilpm_gmpl_src *src, const ilpm_gmpl_opts *o,
                        ilpm_lp **out, ilpm_gmpl **keep, ilpm_err *err);
/* The same without limits and without keeping the translation. */
int ilpm_gmpl_read(const ilpm_gmpl_src *src, ilpm_lp **out, ilpm_err *err);
void ilpm_gmpl_free(ilpm_gmpl *g);

/* Hands the kept translation (*keep, which it uses up and sets to NULL)
 * the column values x[0..ncols) as its MIP solution and runs the
 * model's statements after its solve statement (glp_mpl_postsolve);
 * *stop (if not NULL) ends the wait.  *text (malloc'd) receives all the
 * model wrote to its standard output, the generating part included,
 * also when a statement fails; files it writes (printf ... > "f", table
 * out) are written relative to the current directory.  0; or -1 with
 * err: rc ILPM_E_INPUT when a statement of the model failed (a
 * `check` that does not hold: "m.mod:6: check failed"). */
int ilpm_gmpl_postsolve(ilpm_gmpl **keep, const double *x, int ncols,
                        volatile int *stop, char **text, ilpm_err *err);

#endif
