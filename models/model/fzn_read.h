/* fzn_read.h: what the FlatZinc reader's two files share: the symbol
 * table, the lexer's state and its tokens, values as the expressions give
 * them (fzn_read.c), for the declarations, constraints and solve item
 * (fzn_parse.c). */
#ifndef ILPM_FZN_READ_H
#define ILPM_FZN_READ_H

#include "fzn.h"

typedef struct sym {
    char *name;
    fz_arg val;
    int isbool, isfloat, isvar;
} sym;

struct fz_sym {
    sym *s;
    size_t cap, n; /* cap a power of two, open addressing */
};

typedef enum tk { T_EOF, T_ID, T_INT, T_FLOAT, T_STR, T_PUNCT } tk;

typedef struct ps {
    ilpm_reader *rd;
    mdl *d;
    fzn *z;
    ilpm_err *err;
    const char *line;
    size_t len, pos;
    int have_line, eof, failed;
    tk k;
    char *text; /* identifier or punctuation */
    size_t tcap;
    int64_t ival;
    long tline, tcol;
} ps;

/* An expression's value: the argument, and its type where it matters. */
typedef struct val {
    fz_arg a;
    int isbool, isfloat, isstr;
} val;

/* The annotations a variable declaration may carry that ilpm reads. */
typedef struct anns {
    int output_var, output_array, dims;
    int64_t lo[6], hi[6];
} anns;

sym *ilpm_fzr_sym_find(const fz_sym *t, const char *name);
/* A new entry for name (not there yet); NULL out of memory. */
sym *ilpm_fzr_sym_add(fz_sym *t, const char *name);
void ilpm_fzr_arg_free(fz_arg *a);
int ilpm_fzr_copy_arg(ps *p, fz_arg *to, const fz_arg *from);

/* The error "file:line:col: message" (the first one only); -1. */
int ilpm_fzr_fail(ps *p, long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int ilpm_fzr_nomem(ps *p);
/* The next token into p->k (and p->text, p->ival). */
int ilpm_fzr_next(ps *p);
/* Whether the token is that punctuation or identifier. */
int ilpm_fzr_is(const ps *p, const char *punct);
int ilpm_fzr_expect(ps *p, const char *what);
int ilpm_fzr_expect_int(ps *p, int64_t *v);
/* An expression: a literal, a set, an array, a name or name[i]. */
int ilpm_fzr_expr(ps *p, val *v);
/* "::" annotations; those a reads (output_var, output_array) into a when
 * not NULL. */
int ilpm_fzr_annotations(ps *p, anns *a);

#endif
