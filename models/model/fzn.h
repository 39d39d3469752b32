/* fzn.h: FlatZinc, the language MiniZinc compiles a model into for a
 * solver.  The reader (fzn_parse.c) turns a .fzn file into the `model`
 * puzzle's columns (mdl.h): a `var bool` is a 0/1 column, a `var int`
 * an integer column with its bounds (made of 0/1 variables by
 * --int-encoding).  Each constraint is kept as FlatZinc states it (a
 * builtin and its arguments), lowered into linear rows (fzn_lower.c) and,
 * separately, evaluated on a solution by the verifier (fzn_eval.c), which
 * never looks at the rows.  The output annotations say what a solution
 * prints, in FlatZinc's output format (fzn_eval.c). */
#ifndef ILPM_FZN_H
#define ILPM_FZN_H

#include "mdl.h"

/* A scalar: a constant, or a column of the mdl. */
typedef struct fz_term {
    int64_t v; /* the constant, or the column */
    int var;   /* 1: v is a column            */
} fz_term;

/* A constraint's argument: a scalar (n == 1, !array), an array of
 * scalars, or a set of integers (the range lo..hi, or elems[0..n) in
 * increasing order when elems is not NULL). */
typedef enum fz_kind { FZ_SCALAR, FZ_ARRAY, FZ_SET } fz_kind;
typedef struct fz_arg {
    fz_kind kind;
    int n;
    fz_term *t; /* scalar and array: n terms      */
    int64_t lo, hi;
    int64_t *elems; /* set with holes, else NULL */
} fz_arg;

struct fz_builtin;
typedef struct fz_con {
    const struct fz_builtin *b;
    int nargs;
    fz_arg *args;
    long line, col; /* where the constraint begins */
    int domain;     /* a domain with holes (group "domain"), not a
                     * constraint of the file */
} fz_con;

/* What a solution prints: output_var (dims == 0) or output_array. */
typedef struct fz_out {
    char *name;
    int isbool;
    int dims;
    int64_t lo[6], hi[6];
    int n;
    fz_term *t;
} fz_out;

typedef struct fz_sym fz_sym; /* the symbol table (fzn_parse.c) */

typedef struct fzn fzn;
struct fzn {
    fz_con *cons;
    int ncons, concap;
    fz_out *outs;
    int nouts, outcap;
    unsigned char *flag; /* per column: FZ_BOOL, FZ_UNBOUNDED */
    int flagcap;
    fz_sym *syms;
    ilpm_sense sense; /* the solve item's; ILPM_NONE: satisfy */
    fz_term obj;
    long solve_line;
    int ncols_read; /* columns of the file's own variables */
    /* The value indicators of a column, shared by the builtins that
     * take them (fzn_lower.c): ind[j] is 1 + the first of column j's,
     * one per value of its range, 0 while it has none. */
    int *ind;
    int indcap;
    /* same[j]: 1 + the 0/1 column whose variable column j (a 0/1
     * column outside the answer) takes, stated equal to it by
     * bool2int, bool_eq or int_eq_reif on a value; 0: its own. */
    int *same;
    int samecap;
};
enum { FZ_BOOL = 1, FZ_UNBOUNDED = 2 };

/* A builtin: name, its lowering into rows, its meaning
 * on a solution (1 holds, 0 broken), and a parameter of both (op): the
 * relation FZ_LE .. FZ_NE, with FZ_STRICT for <. */
typedef struct fz_builtin {
    const char *name;
    int (*lower)(mdl *d, const fz_con *c, ilpm_err *err);
    int (*holds)(const fz_con *c, const int64_t *x);
    int op;
    const char *shape; /* its arguments, one letter each: s scalar, a
                        * array, S set */
} fz_builtin;
enum { FZ_LE, FZ_GE, FZ_EQ, FZ_NE, FZ_STRICT = 4 };
/* The builtin of that name taking nargs arguments; NULL if none.  *known
 * (if not NULL) tells whether the name is a builtin at all. */
const fz_builtin *ilpm_fzn_builtin(const char *name, int nargs, int *known);

/* The lowerings (fzn_lower.c) and meanings (fzn_eval.c), X(name). */
// clang-format off
#define FZ_IMPLS(X)                                                            \
    X(lin) X(cmp) X(not) X(andor) X(clause) X(xor) X(plus) X(abs) X(minmax)    \
    X(times) X(element) X(set_in) X(divmod) X(pow) X(extremum) X(alldiff)    \
    X(regular)
// clang-format on
#define FZ_DECLARE(n)                                                          \
    int ilpm_fzl_##n(mdl *d, const fz_con *c, ilpm_err *err);                  \
    int ilpm_fzh_##n(const fz_con *c, const int64_t *x);
FZ_IMPLS(FZ_DECLARE)
#undef FZ_DECLARE

/* Reads the whole of rd into d (columns, the fzn record, the objective):
 * 0, or -1 with err holding "file:line:col: message". */
int ilpm_fzn_parse(ilpm_reader *rd, mdl *d, ilpm_err *err);
/* Lowers every constraint into rows of d (after parsing, before
 * ilpm_mdl_layout): 0, or -1 with err. */
int ilpm_fzn_lower(mdl *d, ilpm_err *err);
/* FlatZinc, read and lowered into rows (fzn_parse.c, fzn_builtins.c):
 * the reader of its row in the table of formats. */
int ilpm_mdl_parse_fzn(ilpm_reader *rd, mdl *d, ilpm_err *err);
void ilpm_fzn_free(struct fzn *z);
/* Checks x (the value of each column) against every constraint as
 * FlatZinc defines it, the domains, and the objective. */
int ilpm_fzn_check(const mdl *d, const int64_t *x, int has_obj, int64_t obj,
                   ilpm_err *why);
/* The solution in FlatZinc's output format ("q = array1d(1..8, [...]);"),
 * without the "----------" that ends it. */
void ilpm_fzn_render(const mdl *d, const int64_t *x, ilpm_buf *out);
void ilpm_fzn_render_json(const mdl *d, const int64_t *x, ilpm_buf *out);

/* fzn_lower.c's tools, for the builtins: the value range of a term. */
void ilpm_fz_range(const mdl *d, fz_term t, int64_t *lo, int64_t *hi);
/* x^y as int_pow means it (y < 0: 1 div x^-y) into *z: 1, or 0 when
 * undefined (x = 0, y < 0) or past 2^60 in magnitude. */
int ilpm_fz_pow(int64_t x, int64_t y, int64_t *z);
/* The range of int_div's quotient (mod 0) or int_mod's remainder (mod 1)
 * for a in alo..ahi, b in blo..bhi: 1, or 0 when b can only be 0
 * (fzn_builtins.c). */
int ilpm_fz_divmod_range(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi,
                         int mod, int64_t *lo, int64_t *hi);

#endif
