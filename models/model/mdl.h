/* mdl.h: the `model` puzzle's own view of a model file: integer columns
 * with bounds and linear rows over them with exact int64 coefficients,
 * as the file states them (before any folding or recognition).  The
 * readers of the table of formats (struct ilpm_mdl_reader, below: lp.c,
 * opb.c, dimacs.c, fzn_*.c) fill one; lower.c makes an ilpm_model of it;
 * each reader's check verifies a solution against the file. */
#ifndef ILPM_MDL_H
#define ILPM_MDL_H

#include "format.h"
#include "ilpm_readers.h"
#include "puzzle.h"

/* How integer columns that are not 0/1 are made of 0/1 variables. */
typedef enum mdl_enc { MDL_ENC_NONE, MDL_ENC_BINARY, MDL_ENC_UNARY } mdl_enc;

/* The absolute values of a row's coefficients and right-hand side sum to
 * at most this (checked as the parsers read), so that folding and
 * checking a row never overflow an int64. */
#define MDL_MAX_SUM (INT64_MAX / 4)

/* Columns a DIMACS header may declare (its columns are made at once);
 * an OPB header's "#variable= N" numbers x1..xN in order up to
 * MDL_HEADER_COLS.  Both keep a hostile header from taking the memory
 * before a single clause is read. */
#define MDL_MAX_COLS (1 << 24)
#define MDL_HEADER_COLS (1 << 20)

typedef struct mdl_row {
    size_t start; /* terms start .. start + n                       */
    int n;
    ilpm_cmp cmp;
    int64_t rhs;
    long line; /* line in the file; 0 where the format gives none  */
    int name;  /* row's name in names[] (LP, MPS); -1 if none     */
    /* The group its constraints go to, 1 + its index in mdl.groups
     * (FlatZinc: the builtin it comes from); 0: its kind's (clause,
     * linear, ..., lower.c).  In the padding after name: rows stay 40
     * bytes. */
    int group;
} mdl_row;

typedef struct mdl_names mdl_names; /* name -> column (opb.c) */

typedef struct mdl {
    const ilpm_file_format *fmt; /* its row (format.h); gmpl.c's own */
    char *file; /* the file as messages name it                 */
    char *path; /* where to read it again; NULL: from text      */
    char *tmp;  /* a temporary copy owned (removed on free)    */
    char *text; /* the file's text when there is no path       */
    size_t textlen;

    int ncols;
    char **col_name; /* NULL for DIMACS: column j is "j+1"          */
    int64_t *lo, *hi;
    int colcap;
    /* Columns outside the answer: those an ilpm export's dictionary does
     * not name (its encodings' auxiliary variables), projected away
     * when counting.  NULL: none. */
    unsigned char *aux;
    mdl_names *index; /* for parsers that look columns up by name */

    int nrows, rowcap;
    mdl_row *rows;
    char **row_name; /* names of the file's rows (LP, MPS), else NULL */
    int nnames;
    int *col; /* terms: column (0-based) and coefficient       */
    int64_t *coef;
    size_t nterms, termcap;

    ilpm_sense sense; /* ILPM_NONE: no objective                    */
    int64_t *obj;     /* ncols coefficients, when sense != NONE     */
    int64_t obj_const;
    int negated; /* the file's objective is minus this one (ilpm's MPS) */
    /* obj and obj_const are the file's objective times obj_scale, the
     * power of ten that makes its decimals integers (LP, MPS); 1 else. */
    int64_t obj_scale;
    /* What the format's reader keeps beside the rows, freed by its
     * release (FlatZinc: the constraints as the file states them and
     * its output items, fzn.h); NULL for the others. */
    void *more;
    /* The groups a reader puts its rows in (fzn_builtins.c), not
     * owned (the names outlive d); row_group: the mdl_row.group of the
     * rows ended from now on (ilpm_mdl_row_group), 0 for none. */
    const char **groups;
    int ngroups, groupcap, row_group;
    /* Integer columns given by 0/1 columns of their own, one per value
     * (FlatZinc's value indicators, fzn_lower.c): direct[j] is 1 + the
     * first of column j's (those of lo..hi, in order, exactly one of
     * them true), and -1 on each of those; 0 elsewhere, NULL for none.
     * Such a column takes those columns' variables (weights 0, 1, 2,
     * ...) rather than variables of its encoding.  Two columns may be
     * made of the same ones (x = y + k: fzn_values.c). */
    int *direct;
    /* same[j]: 1 + the column whose variable 0/1 column j takes (it is
     * equal to it); 0: its own.  NULL for none. */
    int *same;

    /* Filled by ilpm_mdl_layout: the model's variables of each column. */
    mdl_enc enc;
    int nvars;          /* model variables of the columns                 */
    int nmain;          /* of which the first nmain are not aux           */
    int *first;         /* first variable of column j (1-based), 0: none  */
    int *nbits;         /* its variables (1 for a 0/1 column)            */
    int infeasible_col; /* a column with lo > hi, or -1              */
} mdl;

mdl *ilpm_mdl_new(const ilpm_file_format *fmt, const char *file);
void ilpm_mdl_free(mdl *d);
/* Column named name in [lo, hi]; its index, or -1 out of memory. */
int ilpm_mdl_add_col(mdl *d, const char *name, int64_t lo, int64_t hi);
/* Column by name, added as 0/1 when new (opb.c); -1 out of memory. */
int ilpm_mdl_col_by_name(mdl *d, const char *name, size_t len);
int ilpm_mdl_add_term(mdl *d, int col, int64_t coef);
/* The rows ended from now on go to group name (a string that outlives
 * d), or to their kind's with NULL; -1 out of memory. */
int ilpm_mdl_row_group(mdl *d, const char *name);
/* Closes the terms added since the last row into a row. */
int ilpm_mdl_end_row(mdl *d, ilpm_cmp cmp, int64_t rhs, long line, int name);
const char *ilpm_mdl_col_label(const mdl *d, int j, char *buf, size_t size);
/* An export's dictionary as it is read: names by variable number. */
typedef struct mdl_dict {
    char **name; /* name[v] for v = 1..cap-1, NULL where none */
    long cap;
} mdl_dict;
/* Notes "name" for variable v (> 0); -1 out of memory. */
int ilpm_mdl_dict_put(mdl_dict *x, long v, const char *name, size_t len);
void ilpm_mdl_dict_free(mdl_dict *x);
/* Names column j after an export's dictionary (name: NULL for none);
 * once any column is named, the columns left unnamed are aux. */
int ilpm_mdl_dictionary(mdl *d, char **names);

/* The parsers: the whole of rd, into d (opb.c, dimacs.c).  0, or -1
 * with err holding "file:line:col: message". */
int ilpm_mdl_parse_opb(ilpm_reader *rd, mdl *d, ilpm_err *err);
int ilpm_mdl_parse_cnf(ilpm_reader *rd, mdl *d, ilpm_err *err);
/* An LP or MPS problem as integer rows, each scaled to integers when
 * its coefficients are decimals (lp.c). */
int ilpm_mdl_from_lp(const ilpm_lp *lp, mdl *d, ilpm_err *err);

/* Reads a model file in fmt (a row with a reader): from path, or when
 * path is NULL from text[0..len); name stands for it in messages.  NULL
 * with err. */
mdl *ilpm_mdl_read(const ilpm_file_format *fmt, const char *path,
                   const char *name, const char *text, size_t len,
                   ilpm_err *err);

/* Gives each column its variables under enc: refuses an integer column
 * that is not 0/1 without an encoding (lower.c). */
int ilpm_mdl_layout(mdl *d, mdl_enc enc, ilpm_err *err);
/* kinds, if not NULL, receives the group each row went to ("none" for
 * a row left out). */
int ilpm_mdl_build(const mdl *d, ilpm_model *m, const char **kinds,
                   ilpm_err *err);
/* The value of column j under the model's 0/1 values. */
int64_t ilpm_mdl_col_value(const mdl *d, int j, const uint8_t *vals);

/* model.c: what the `model` and `gmpl` puzzles share.  An instance is
 * the rows as read and the file as the verifier reads it again. */
typedef struct mdl_sol {
    int64_t *x; /* value of each column */
    int has_obj;
    int64_t obj;
} mdl_sol;
/* The int-encoding option's row, in both puzzles' tables. */
extern const char *const ilpm_mdl_encodings[];
// clang-format off
#define MDL_INT_ENCODING_OPT                                                   \
    {.name = "int-encoding", .arg = "ENC", .type = ILPM_OPT_CHOICE,         \
     .choices = ilpm_mdl_encodings,                                            \
     .help = "integer columns that are not 0/1, made of 0/1 variables: "     \
             "binary (log encoding) or unary (order encoding); without it "   \
             "they are refused"}
// clang-format on
/* Whether the reader stands past the one instance of its file (the
 * second call of parse), draining it if so. */
int ilpm_mdl_file_done(ilpm_reader *rd, ilpm_err *err);
/* An instance of d (taken), laid out under p's --int-encoding; 0, or -1
 * with err (d freed). */
int ilpm_mdl_inst_new(mdl *d, const ilpm_params *p, void **inst, ilpm_err *err);
/* The verifier's copy of the file (an instance's mdl_again). */
struct mdl_again *ilpm_mdl_inst_again(void *inst);
const mdl *ilpm_mdl_inst_rows(const void *inst);
void ilpm_mdl_inst_free(void *inst);
/* The `model` puzzle's parse and describe (the `fzn` puzzle's too):
 * parse_as reads only's format when only is not NULL (fzn_puzzle.c),
 * else the one --input-format or the name's extension gives. */
int ilpm_mdl_pz_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                      ilpm_err *err);
/* How to run a MiniZinc file (.mzn, .dzn) on ilpm, for a message about
 * one given where a model file is read; NULL for another name. */
const char *ilpm_mdl_minizinc_hint(const char *name);
int ilpm_mdl_pz_parse_as(ilpm_reader *rd, const ilpm_params *p,
                         const ilpm_file_format *only, void **inst,
                         ilpm_err *err);
void ilpm_mdl_pz_describe(const void *inst, char *buf, size_t size);
int ilpm_mdl_pz_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                      ilpm_err *err);
void ilpm_mdl_pz_stats_json(const void *inst, const ilpm_params *p,
                            ilpm_buf *out);
void *ilpm_mdl_pz_decode(const void *inst, const ilpm_params *p,
                         const ilpm_model *m, const uint8_t *vals,
                         ilpm_err *err);
int ilpm_mdl_pz_verify(const void *inst, const ilpm_params *p, const void *sol,
                       ilpm_err *why);
void ilpm_mdl_pz_render(const void *inst, const void *sol, ilpm_buf *out);
void ilpm_mdl_pz_render_json(const void *inst, const void *sol, ilpm_buf *out);
/* The power of ten the file's objective was scaled by (obj_scale). */
int64_t ilpm_mdl_pz_objective_scale(const void *inst, const ilpm_params *p);
void ilpm_mdl_sol_free(void *sol);
/* The members of a puzzle descriptor that `model` and `fzn` share: all
 * but their names, help, options and parse. */
#define ILPM_MDL_PZ_MEMBERS                                                    \
    .free_instance = ilpm_mdl_inst_free, .describe = ilpm_mdl_pz_describe,     \
    .build = ilpm_mdl_pz_build, .decode = ilpm_mdl_pz_decode,                  \
    .verify = ilpm_mdl_pz_verify, .render = ilpm_mdl_pz_render,                \
    .render_json = ilpm_mdl_pz_render_json,                                    \
    .objective_scale = ilpm_mdl_pz_objective_scale,                            \
    .free_solution = ilpm_mdl_sol_free, .stats_json = ilpm_mdl_pz_stats_json

/* check.c: the file read again (into again, on the first call), and
 * vals[0..ncols) checked against its rows, bounds and objective (obj: the
 * claimed value, when has_obj). */
typedef struct mdl_again {
    ilpm_lp *lp; /* LP, MPS */
    mdl *rows;   /* OPB, CNF */
} mdl_again;
int ilpm_mdl_check(const mdl *d, mdl_again *again, const int64_t *vals,
                   int has_obj, int64_t obj, ilpm_err *why);
void ilpm_mdl_again_free(mdl_again *again);
/* The checks a reader's row points at: the rows of an LP problem in
 * GLPK's doubles, and a text format's file read again into rows
 * (check.c). */
int ilpm_mdl_check_lp(const ilpm_lp *lp, const mdl *d, const int64_t *x,
                      int has_obj, int64_t obj, ilpm_err *why);
int ilpm_mdl_check_rows(const mdl *d, mdl_again *again, const int64_t *x,
                        int has_obj, int64_t obj, ilpm_err *why);

/* How the `model` puzzle reads a format (ilpm_file_format.reader): by
 * one of parse and read_path, checked by check. */
struct ilpm_mdl_reader {
    /* The whole of rd into d (OPB, DIMACS, FlatZinc); standard input and
     * memory are kept as text to be read again by check. */
    int (*parse)(ilpm_reader *rd, mdl *d, ilpm_err *err);
    /* Or the file at path into d, for readers that take a file's name
     * (GLPK's: LP, MPS); standard input is copied to a file first. */
    int (*read_path)(const char *path, mdl *d, ilpm_err *err);
    /* A solution's column values x against the file (ilpm_mdl_check). */
    int (*check)(const mdl *d, mdl_again *again, const int64_t *x, int has_obj,
                 int64_t obj, ilpm_err *why);
    /* A line that marks the file as ilpm's export of a maximisation
     * whose objective it negates (MPS has no sense); NULL: none. */
    const char *max_note;
    /* The encoding of integer columns when --int-encoding is not given
     * (FlatZinc: binary); MDL_ENC_NONE refuses them. */
    mdl_enc enc;
    /* --format dimacs's v lines give column numbers (DIMACS CNF), not
     * names. */
    int numbered;
    /* Columns are a MathProg model's variables: messages call them so. */
    int model_vars;
    /* A solution as the format's own users read it (FlatZinc's output
     * items); NULL: the `model` puzzle's (true variables, values). */
    void (*render)(const mdl *d, const int64_t *x, ilpm_buf *out);
    void (*render_json)(const mdl *d, const int64_t *x, ilpm_buf *out);
    /* Frees what the reader kept in d beyond the rows (d->more). */
    void (*release)(mdl *d);
};

#endif
