/* The FlatZinc reader: a lexer over the shared line reader and a
 * recursive-descent parser of FlatZinc's grammar (predicate, parameter
 * and variable declarations, constraints, one solve item), filling the
 * `model` puzzle's columns and the fzn record (fzn.h).  Every message is
 * "file:line:col: ...". */
#include "fzn.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Symbols: name -> value (a parameter, a variable or an array).        */

typedef struct sym {
    char *name;
    fz_arg val;
    int isbool, isfloat, isvar;
} sym;

struct fz_sym {
    sym *s;
    size_t cap, n; /* cap a power of two, open addressing */
};

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static sym *sym_find(const fz_sym *t, const char *name)
{
    if (!t || !t->cap)
        return NULL;
    for (size_t i = hash(name) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->s[i].name)
            return NULL;
        if (strcmp(t->s[i].name, name) == 0)
            return &t->s[i];
    }
}

/* A new entry for name (not there yet); NULL out of memory. */
static sym *sym_add(fz_sym *t, const char *name)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        sym *s = calloc(cap, sizeof *s);
        if (!s)
            return NULL;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->s[i].name)
                continue;
            size_t k = hash(t->s[i].name) & (cap - 1);
            while (s[k].name)
                k = (k + 1) & (cap - 1);
            s[k] = t->s[i];
        }
        free(t->s);
        t->s = s;
        t->cap = cap;
    }
    size_t k = hash(name) & (t->cap - 1);
    while (t->s[k].name)
        k = (k + 1) & (t->cap - 1);
    if (!(t->s[k].name = strdup(name)))
        return NULL;
    t->n++;
    return &t->s[k];
}

static void arg_free(fz_arg *a)
{
    free(a->t);
    free(a->elems);
    memset(a, 0, sizeof *a);
}

void ilpm_fzn_free(fzn *z)
{
    if (!z)
        return;
    for (int i = 0; i < z->ncons; i++) {
        for (int k = 0; k < z->cons[i].nargs; k++)
            arg_free(&z->cons[i].args[k]);
        free(z->cons[i].args);
    }
    free(z->cons);
    for (int i = 0; i < z->nouts; i++) {
        free(z->outs[i].name);
        free(z->outs[i].t);
    }
    free(z->outs);
    free(z->flag);
    if (z->syms) {
        for (size_t i = 0; i < z->syms->cap; i++) {
            free(z->syms->s[i].name);
            arg_free(&z->syms->s[i].val);
        }
        free(z->syms->s);
        free(z->syms);
    }
    free(z);
}

/* ------------------------------------------------------------------ */
/* The lexer.                                                           */

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

static int fail(ps *p, long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int fail(ps *p, long line, long col, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    p->failed = 1;
    return ilpm_reader_error_at(p->rd, p->err, line, col, "%s", msg);
}

static int nomem(ps *p)
{
    if (!p->failed) {
        p->failed = 1;
        ilpm_err_nomem(p->err, "%s: out of memory", p->d->file);
    }
    return -1;
}

static int set_text(ps *p, const char *s, size_t n)
{
    if (ilpm_grow((void **)&p->text, &p->tcap, n + 1, 1) != 0)
        return nomem(p);
    memcpy(p->text, s, n);
    p->text[n] = '\0';
    return 0;
}

/* Moves to the next character that is not blank or in a comment;
 * 0 at the end of the file. */
static int skip_space(ps *p)
{
    for (;;) {
        if (!p->have_line) {
            if (p->eof)
                return 0;
            ilpm_err e;
            int r = ilpm_reader_line(p->rd, &p->line, &p->len, &e);
            if (r < 0) {
                if (!p->failed) {
                    *p->err = e;
                    p->failed = 1;
                }
                return -1;
            }
            if (r == 0) {
                p->eof = 1;
                return 0;
            }
            p->have_line = 1;
            p->pos = 0;
        }
        while (p->pos < p->len && isspace((unsigned char)p->line[p->pos]))
            p->pos++;
        if (p->pos < p->len && p->line[p->pos] != '%')
            return 1;
        p->have_line = 0;
    }
}

static int lex_number(ps *p)
{
    const char *s = p->line + p->pos, *e = s;
    int neg = *e == '-';
    if (neg)
        e++;
    int base = 10;
    if (e[0] == '0' && (e[1] == 'x' || e[1] == 'o') &&
        isxdigit((unsigned char)e[2])) {
        base = e[1] == 'x' ? 16 : 8;
        e += 2;
    }
    const char *digits = e;
    while (base == 16 ? isxdigit((unsigned char)*e) : isdigit((unsigned char)*e))
        e++;
    /* A float: digits '.' digit, or an exponent ("1..3" is a range). */
    if (base == 10 && ((*e == '.' && isdigit((unsigned char)e[1])) ||
                       *e == 'e' || *e == 'E')) {
        char *end;
        strtod(s, &end);
        p->pos += (size_t)(end - s);
        p->k = T_FLOAT;
        return 0;
    }
    errno = 0;
    char *end;
    unsigned long long u = strtoull(digits, &end, base);
    if (errno || end != e || u > (unsigned long long)INT64_MAX)
        return fail(p, p->tline, p->tcol,
                    "the integer %.*s is outside the 64-bit range",
                    (int)(e - s), s);
    p->ival = neg ? -(int64_t)u : (int64_t)u;
    p->pos += (size_t)(e - s);
    p->k = T_INT;
    return 0;
}

/* The next token into p->k (and p->text, p->ival). */
static int next(ps *p)
{
    int r = skip_space(p);
    if (r < 0)
        return -1;
    p->tline = ilpm_reader_lineno(p->rd);
    p->tcol = (long)p->pos + 1;
    if (r == 0) {
        p->k = T_EOF;
        return set_text(p, "end of file", 11);
    }
    const char *s = p->line + p->pos;
    size_t left = p->len - p->pos;
    if (isalpha((unsigned char)*s) || *s == '_') {
        size_t n = 1;
        while (n < left && (isalnum((unsigned char)s[n]) || s[n] == '_'))
            n++;
        p->pos += n;
        p->k = T_ID;
        return set_text(p, s, n);
    }
    if (isdigit((unsigned char)*s) ||
        (*s == '-' && left > 1 && isdigit((unsigned char)s[1])))
        return lex_number(p);
    if (*s == '"') {
        size_t n = 1;
        while (n < left && s[n] != '"')
            n += s[n] == '\\' ? 2 : 1;
        if (n >= left)
            return fail(p, p->tline, p->tcol,
                        "a string that does not end on its line");
        p->pos += n + 1;
        p->k = T_STR;
        return set_text(p, "a string", 8);
    }
    size_t n = left > 1 && ((s[0] == ':' && s[1] == ':') ||
                            (s[0] == '.' && s[1] == '.'))
                   ? 2
                   : 1;
    if (n == 1 && !strchr("()[]{},;:=", *s)) {
        char b[8];
        return fail(p, p->tline, p->tcol, "unexpected character %s",
                    ilpm_show_char(*s, b, sizeof b));
    }
    p->pos += n;
    p->k = T_PUNCT;
    return set_text(p, s, n);
}

static int is(const ps *p, const char *punct)
{
    return (p->k == T_PUNCT || p->k == T_ID) && strcmp(p->text, punct) == 0;
}

static int expect(ps *p, const char *what)
{
    if (!is(p, what))
        return fail(p, p->tline, p->tcol, "expected '%s', found '%s'", what,
                    p->k == T_INT ? "a number" : p->text);
    return next(p);
}

static int expect_int(ps *p, int64_t *v)
{
    if (p->k != T_INT)
        return fail(p, p->tline, p->tcol, "expected an integer, found '%s'",
                    p->k == T_FLOAT ? "a float" : p->text);
    *v = p->ival;
    return next(p);
}

/* ------------------------------------------------------------------ */
/* Values.                                                              */

typedef struct val {
    fz_arg a;
    int isbool, isfloat, isstr;
} val;

static int push_term(ps *p, fz_arg *a, fz_term t)
{
    if ((a->n & (a->n - 1)) == 0 || a->n == 0) { /* grow at powers of 2 */
        size_t cap = a->n ? 2 * (size_t)a->n : 4;
        fz_term *nt = realloc(a->t, cap * sizeof *nt);
        if (!nt)
            return nomem(p);
        a->t = nt;
    }
    a->t[a->n++] = t;
    return 0;
}

static int scalar(ps *p, val *v, int64_t x, int var)
{
    memset(v, 0, sizeof *v);
    v->a.kind = FZ_SCALAR;
    return push_term(p, &v->a, (fz_term){x, var});
}

static int copy_arg(ps *p, fz_arg *to, const fz_arg *from)
{
    *to = *from;
    to->t = NULL;
    to->elems = NULL;
    if (from->t && !(to->t = malloc((size_t)(from->n ? from->n : 1) *
                                    sizeof *to->t)))
        return nomem(p);
    if (from->t)
        memcpy(to->t, from->t, (size_t)from->n * sizeof *to->t);
    if (from->elems &&
        !(to->elems = malloc((size_t)(from->n ? from->n : 1) * sizeof *to->elems)))
        return nomem(p);
    if (from->elems)
        memcpy(to->elems, from->elems, (size_t)from->n * sizeof *to->elems);
    return 0;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* { i, j, ... } after the '{': sorted, without repeats. */
static int set_lit(ps *p, val *v)
{
    memset(v, 0, sizeof *v);
    v->a.kind = FZ_SET;
    size_t cap = 0;
    while (!is(p, "}")) {
        int64_t x = 0;
        if (expect_int(p, &x) != 0)
            return -1;
        if (ilpm_grow((void **)&v->a.elems, &cap, (size_t)v->a.n + 1,
                      sizeof *v->a.elems) != 0)
            return nomem(p);
        v->a.elems[v->a.n++] = x;
        if (!is(p, "}") && expect(p, ",") != 0)
            return -1;
    }
    if (v->a.n)
        qsort(v->a.elems, (size_t)v->a.n, sizeof *v->a.elems, cmp64);
    int k = 0;
    for (int i = 0; i < v->a.n; i++)
        if (k == 0 || v->a.elems[i] != v->a.elems[k - 1])
            v->a.elems[k++] = v->a.elems[i];
    v->a.n = k;
    v->a.lo = k ? v->a.elems[0] : 1;
    v->a.hi = k ? v->a.elems[k - 1] : 0;
    return next(p);
}

static int expr(ps *p, val *v);

/* An identifier's value, or an element of an array (name[i]). */
static int ident(ps *p, val *v)
{
    long line = p->tline, col = p->tcol;
    sym *s = sym_find(p->z->syms, p->text);
    if (!s)
        return fail(p, line, col, "'%s' is not declared", p->text);
    if (next(p) != 0)
        return -1;
    memset(v, 0, sizeof *v);
    v->isbool = s->isbool;
    v->isfloat = s->isfloat;
    if (!is(p, "["))
        return copy_arg(p, &v->a, &s->val);
    int64_t i = 0;
    if (next(p) != 0 || expect_int(p, &i) != 0 || expect(p, "]") != 0)
        return -1;
    if (s->val.kind != FZ_ARRAY)
        return fail(p, line, col, "'%s' is not an array", s->name);
    if (i < 1 || i > s->val.n)
        return fail(p, line, col, "index %lld is outside '%s' (1..%d)",
                    (long long)i, s->name, s->val.n);
    return scalar(p, v, s->val.t[i - 1].v, s->val.t[i - 1].var);
}

static int expr(ps *p, val *v)
{
    memset(v, 0, sizeof *v);
    if (p->k == T_INT) {
        int64_t lo = p->ival;
        if (next(p) != 0)
            return -1;
        if (!is(p, ".."))
            return scalar(p, v, lo, 0);
        int64_t hi = 0;
        if (next(p) != 0 || expect_int(p, &hi) != 0)
            return -1;
        v->a.kind = FZ_SET;
        v->a.lo = lo;
        v->a.hi = hi;
        return 0;
    }
    if (p->k == T_FLOAT) {
        v->isfloat = 1;
        return scalar(p, v, 0, 0) || next(p);
    }
    if (p->k == T_STR) {
        v->isstr = 1;
        return next(p);
    }
    if (is(p, "true") || is(p, "false")) {
        int b = is(p, "true");
        if (scalar(p, v, b, 0) != 0)
            return -1;
        v->isbool = 1;
        return next(p);
    }
    if (is(p, "{"))
        return next(p) || set_lit(p, v);
    if (is(p, "[")) {
        if (next(p) != 0)
            return -1;
        v->a.kind = FZ_ARRAY;
        while (!is(p, "]")) {
            long line = p->tline, col = p->tcol;
            val e;
            if (expr(p, &e) != 0) {
                arg_free(&e.a);
                return -1;
            }
            if (e.a.kind != FZ_SCALAR) {
                arg_free(&e.a);
                return fail(p, line, col,
                            "an array element must be a number, a Boolean or "
                            "a variable");
            }
            v->isbool |= e.isbool;
            v->isfloat |= e.isfloat;
            int r = push_term(p, &v->a, e.a.t[0]);
            arg_free(&e.a);
            if (r != 0 || (!is(p, "]") && expect(p, ",") != 0))
                return -1;
        }
        return next(p);
    }
    if (p->k == T_ID)
        return ident(p, v);
    return fail(p, p->tline, p->tcol, "expected a value, found '%s'", p->text);
}

/* ------------------------------------------------------------------ */
/* Annotations: output_var and output_array([ranges]) are read, every  */
/* other one is passed over.                                            */

typedef struct anns {
    int output_var, output_array, dims;
    int64_t lo[6], hi[6];
} anns;

/* Passes over one balanced (...) group, the '(' being current. */
static int skip_group(ps *p)
{
    int depth = 0;
    do {
        if (p->k == T_EOF)
            return fail(p, p->tline, p->tcol, "an annotation does not end");
        if (is(p, "(") || is(p, "[") || is(p, "{"))
            depth++;
        else if (is(p, ")") || is(p, "]") || is(p, "}"))
            depth--;
        if (next(p) != 0)
            return -1;
    } while (depth > 0);
    return 0;
}

static int output_dims(ps *p, anns *a)
{
    if (expect(p, "(") != 0 || expect(p, "[") != 0)
        return -1;
    while (!is(p, "]")) {
        long line = p->tline, col = p->tcol;
        if (a->dims == 6)
            return fail(p, line, col, "more than 6 dimensions");
        if (expect_int(p, &a->lo[a->dims]) != 0 || expect(p, "..") != 0 ||
            expect_int(p, &a->hi[a->dims]) != 0)
            return -1;
        a->dims++;
        if (!is(p, "]") && expect(p, ",") != 0)
            return -1;
    }
    a->output_array = 1;
    return next(p) || expect(p, ")");
}

static int annotations(ps *p, anns *a)
{
    while (is(p, "::")) {
        if (next(p) != 0)
            return -1;
        if (p->k != T_ID)
            return fail(p, p->tline, p->tcol,
                        "expected an annotation, found '%s'", p->text);
        int ov = strcmp(p->text, "output_var") == 0;
        int oa = strcmp(p->text, "output_array") == 0;
        if (next(p) != 0)
            return -1;
        if (oa && a) {
            if (output_dims(p, a) != 0)
                return -1;
            continue;
        }
        if (ov && a)
            a->output_var = 1;
        if (is(p, "(") && skip_group(p) != 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Declarations.                                                        */

typedef struct dtype {
    int array, var, isbool, isfloat, isset;
    int64_t n; /* array length */
    int has_dom;
    val dom; /* a set: the domain of int variables */
} dtype;

static int float_range(ps *p)
{
    if (next(p) != 0 || expect(p, "..") != 0)
        return -1;
    if (p->k != T_FLOAT && p->k != T_INT)
        return fail(p, p->tline, p->tcol, "expected a float bound");
    return next(p);
}

static int base_type(ps *p, dtype *t)
{
    if (is(p, "bool")) {
        t->isbool = 1;
        return next(p);
    }
    if (is(p, "int"))
        return next(p);
    if (is(p, "float")) {
        t->isfloat = 1;
        return next(p);
    }
    if (p->k == T_FLOAT) {
        t->isfloat = 1;
        return float_range(p);
    }
    if (is(p, "set")) {
        t->isset = 1;
        if (next(p) != 0 || expect(p, "of") != 0)
            return -1;
        if (is(p, "int"))
            return next(p);
    }
    if (p->k == T_INT || is(p, "{")) {
        long line = p->tline, col = p->tcol;
        if (expr(p, &t->dom) != 0)
            return -1;
        if (t->dom.a.kind != FZ_SET)
            return fail(p, line, col, "expected a type or a domain");
        t->has_dom = !t->isset;
        return 0;
    }
    return fail(p, p->tline, p->tcol, "expected a type, found '%s'", p->text);
}

static int decl_type(ps *p, dtype *t)
{
    memset(t, 0, sizeof *t);
    if (is(p, "array")) {
        int64_t one = 0;
        long line = p->tline, col = p->tcol;
        if (next(p) != 0 || expect(p, "[") != 0 || expect_int(p, &one) != 0 ||
            expect(p, "..") != 0 || expect_int(p, &t->n) != 0 ||
            expect(p, "]") != 0 || expect(p, "of") != 0)
            return -1;
        if (one != 1 || t->n < 0 || t->n > (1 << 28))
            return fail(p, line, col, "an array's index set must be 1..n "
                                      "with n from 0 to 2^28");
        t->array = 1;
    }
    if (is(p, "var")) {
        t->var = 1;
        if (next(p) != 0)
            return -1;
    }
    return base_type(p, t);
}

static int set_flag(ps *p, int col, unsigned char f)
{
    fzn *z = p->z;
    int cap = z->flagcap;
    if (ilpm_grow_int((void **)&z->flag, &cap, col + 1, 1) != 0)
        return nomem(p);
    memset(z->flag + z->flagcap, 0, (size_t)(cap - z->flagcap));
    z->flagcap = cap;
    z->flag[col] |= f;
    return 0;
}

/* A new column for a variable of type t named name. */
static int new_col(ps *p, const dtype *t, const char *name, fz_term *out)
{
    int64_t lo = 0, hi = 1;
    unsigned char f = t->isbool ? FZ_BOOL : 0;
    if (!t->isbool && t->has_dom) {
        lo = t->dom.a.lo;
        hi = t->dom.a.hi;
    } else if (!t->isbool) {
        lo = INT64_MIN;
        hi = INT64_MAX;
        f |= FZ_UNBOUNDED;
    }
    if (p->d->ncols >= MDL_MAX_COLS)
        return fail(p, p->tline, p->tcol,
                    "more than %d variables: too many for ilpm", MDL_MAX_COLS);
    int j = ilpm_mdl_add_col(p->d, name, lo, hi);
    if (j < 0 || set_flag(p, j, f) != 0)
        return nomem(p);
    *out = (fz_term){j, 1};
    return 0;
}

static int add_con(ps *p, const fz_builtin *b, fz_arg *args, int nargs,
                   long line, long col);

/* A domain with holes, kept as a set_in constraint on the term. */
static int domain_con(ps *p, const dtype *t, fz_term x, long line, long col)
{
    if (!t->has_dom || (!t->dom.a.elems && x.var &&
                        p->d->lo[x.v] == t->dom.a.lo &&
                        p->d->hi[x.v] == t->dom.a.hi))
        return 0;
    fz_arg *args = calloc(2, sizeof *args);
    if (!args)
        return nomem(p);
    args[0].kind = FZ_SCALAR;
    args[0].n = 1;
    if (!(args[0].t = malloc(sizeof *args[0].t))) {
        free(args);
        return nomem(p);
    }
    args[0].t[0] = x;
    if (copy_arg(p, &args[1], &t->dom.a) != 0) {
        arg_free(&args[0]);
        free(args);
        return -1;
    }
    return add_con(p, ilpm_fzn_builtin("set_in", 2, NULL), args, 2, line,
                   col);
}

static int add_out(ps *p, const char *name, int isbool, const anns *a,
                   const fz_arg *v, long line, long col)
{
    fzn *z = p->z;
    int64_t size = 1;
    for (int k = 0; k < a->dims; k++)
        size *= a->hi[k] >= a->lo[k] ? a->hi[k] - a->lo[k] + 1 : 0;
    if (a->output_array && (v->kind != FZ_ARRAY || size != v->n))
        return fail(p, line, col,
                    "output_array of '%s' names %lld elements, the array "
                    "has %d",
                    name, (long long)size, v->n);
    if (ilpm_grow_int((void **)&z->outs, &z->outcap, z->nouts + 1,
                      sizeof *z->outs) != 0)
        return nomem(p);
    fz_out *o = &z->outs[z->nouts];
    memset(o, 0, sizeof *o);
    o->dims = a->output_array ? a->dims : 0;
    memcpy(o->lo, a->lo, sizeof o->lo);
    memcpy(o->hi, a->hi, sizeof o->hi);
    o->isbool = isbool;
    o->n = v->n;
    if (!(o->name = strdup(name)) ||
        !(o->t = malloc((size_t)(v->n ? v->n : 1) * sizeof *o->t))) {
        free(o->name);
        return nomem(p);
    }
    memcpy(o->t, v->t, (size_t)v->n * sizeof *o->t);
    z->nouts++;
    return 0;
}

/* The value a variable declaration gives its symbol: the right-hand
 * side, or new columns. */
static int var_value(ps *p, const dtype *t, const char *name, val *rhs,
                     int has_rhs, fz_arg *v, long line, long col)
{
    if (has_rhs) {
        if ((t->array ? FZ_ARRAY : FZ_SCALAR) != rhs->a.kind ||
            (t->array && rhs->a.n != t->n))
            return fail(p, line, col, "'%s' is given a value of another shape",
                        name);
        *v = rhs->a;
        memset(&rhs->a, 0, sizeof rhs->a);
        for (int i = 0; i < v->n && !t->array; i++)
            if (domain_con(p, t, v->t[i], line, col) != 0)
                return -1;
        return 0;
    }
    v->kind = t->array ? FZ_ARRAY : FZ_SCALAR;
    int64_t n = t->array ? t->n : 1;
    if (p->d->ncols + n > MDL_MAX_COLS)
        return fail(p, line, col, "'%s': more than %d variables: too many for "
                                  "ilpm",
                    name, MDL_MAX_COLS);
    if (n > 0 && !(v->t = malloc((size_t)n * sizeof *v->t)))
        return nomem(p);
    char b[300];
    for (int64_t i = 0; i < n; i++) {
        if (t->array)
            snprintf(b, sizeof b, "%s[%lld]", name, (long long)i + 1);
        if (new_col(p, t, t->array ? b : name, &v->t[i]) != 0)
            return -1;
        v->n++;
        if (domain_con(p, t, v->t[i], line, col) != 0)
            return -1;
    }
    return 0;
}

static int decl(ps *p)
{
    dtype t;
    val rhs = {0};
    anns a = {0};
    int rc = -1;
    if (decl_type(p, &t) != 0 || expect(p, ":") != 0)
        goto done;
    long line = p->tline, col = p->tcol;
    if (p->k != T_ID) {
        fail(p, line, col, "expected a name, found '%s'", p->text);
        goto done;
    }
    char *name = strdup(p->text);
    if (!name) {
        nomem(p);
        goto done;
    }
    int has_rhs = 0;
    if (next(p) == 0 && annotations(p, t.var ? &a : NULL) == 0 && is(p, "=")) {
        long rl = p->tline, rcol = p->tcol;
        has_rhs = 1;
        if (next(p) == 0 && expr(p, &rhs) == 0 && (rhs.isfloat || rhs.isstr))
            fail(p, rl, rcol, "'%s': float and string values are not supported",
                 name);
    }
    if (p->failed || expect(p, ";") != 0)
        goto named;
    if (sym_find(p->z->syms, name)) {
        fail(p, line, col, "'%s' is declared twice", name);
        goto named;
    }
    if (t.isfloat && t.var) {
        fail(p, line, col,
             "variable '%s' is a float: ilpm solves models over Booleans and "
             "integers",
             name);
        goto named;
    }
    if (t.isset && t.var) {
        fail(p, line, col,
             "variable '%s' is a set of int: ilpm does not take set "
             "variables",
             name);
        goto named;
    }
    if (!t.var && !has_rhs) {
        fail(p, line, col, "parameter '%s' has no value", name);
        goto named;
    }
    sym *s = sym_add(p->z->syms, name);
    if (!s) {
        nomem(p);
        goto named;
    }
    s->isbool = t.isbool;
    s->isfloat = t.isfloat;
    s->isvar = t.var;
    if (!t.var) {
        s->val = rhs.a;
        memset(&rhs.a, 0, sizeof rhs.a);
        rc = 0;
        goto named;
    }
    if (var_value(p, &t, name, &rhs, has_rhs, &s->val, line, col) != 0)
        goto named;
    if ((a.output_var || a.output_array) &&
        add_out(p, name, t.isbool, &a, &s->val, line, col) != 0)
        goto named;
    rc = 0;
named:
    free(name);
done:
    arg_free(&rhs.a);
    arg_free(&t.dom.a);
    return p->failed ? -1 : rc;
}

/* ------------------------------------------------------------------ */
/* Constraints and the solve item.                                      */

static int add_con(ps *p, const fz_builtin *b, fz_arg *args, int nargs,
                   long line, long col)
{
    fzn *z = p->z;
    if (ilpm_grow_int((void **)&z->cons, &z->concap, z->ncons + 1,
                      sizeof *z->cons) != 0) {
        for (int k = 0; k < nargs; k++)
            arg_free(&args[k]);
        free(args);
        return nomem(p);
    }
    z->cons[z->ncons++] = (fz_con){b, nargs, args, line, col};
    return 0;
}

static int constraint(ps *p)
{
    if (next(p) != 0)
        return -1;
    long line = p->tline, col = p->tcol;
    if (p->k != T_ID)
        return fail(p, line, col, "expected a constraint's name, found '%s'",
                    p->text);
    char *name = strdup(p->text);
    fz_arg *args = NULL;
    int n = 0, cap = 0;
    if (!name) {
        nomem(p);
        goto bad;
    }
    if (next(p) != 0 || expect(p, "(") != 0)
        goto bad;
    while (!is(p, ")")) {
        long al = p->tline, ac = p->tcol;
        val v;
        if (ilpm_grow_int((void **)&args, &cap, n + 1, sizeof *args) != 0) {
            nomem(p);
            goto bad;
        }
        if (expr(p, &v) != 0) {
            arg_free(&v.a);
            goto bad;
        }
        args[n++] = v.a;
        if (v.isfloat || v.isstr) {
            fail(p, al, ac, "'%s': float and string arguments are not "
                            "supported",
                 name);
            goto bad;
        }
        if (!is(p, ")") && expect(p, ",") != 0)
            goto bad;
    }
    int known;
    const fz_builtin *b = ilpm_fzn_builtin(name, n, &known);
    if (!b) {
        if (known)
            fail(p, line, col, "'%s' does not take %d arguments", name, n);
        else
            fail(p, line, col,
                 "constraint '%s' is not a builtin ilpm supports "
                 "(docs/fzn.md lists them)",
                 name);
        goto bad;
    }
    for (int k = 0; k < n; k++) {
        static const char kinds[] = {'s', 'a', 'S'};
        if (kinds[args[k].kind] != b->shape[k]) {
            fail(p, line, col, "'%s': argument %d must be %s", name, k + 1,
                 b->shape[k] == 's'   ? "a number or a variable"
                 : b->shape[k] == 'a' ? "an array"
                                      : "a set of integers");
            goto bad;
        }
    }
    if (next(p) != 0 || annotations(p, NULL) != 0 || expect(p, ";") != 0)
        goto bad;
    free(name);
    return add_con(p, b, args, n, line, col);
bad:
    for (int k = 0; k < n; k++)
        arg_free(&args[k]);
    free(args);
    free(name);
    return -1;
}

static int solve_item(ps *p)
{
    fzn *z = p->z;
    z->solve_line = p->tline;
    if (next(p) != 0 || annotations(p, NULL) != 0)
        return -1;
    if (is(p, "satisfy")) {
        z->sense = ILPM_NONE;
    } else if (is(p, "minimize") || is(p, "maximize")) {
        z->sense = is(p, "minimize") ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
        if (next(p) != 0)
            return -1;
        long line = p->tline, col = p->tcol;
        val v;
        if (expr(p, &v) != 0) {
            arg_free(&v.a);
            return -1;
        }
        int ok = v.a.kind == FZ_SCALAR && !v.isfloat && !v.isstr;
        if (ok)
            z->obj = v.a.t[0];
        arg_free(&v.a);
        if (!ok)
            return fail(p, line, col,
                        "the objective must be an integer variable or number");
        return expect(p, ";");
    } else {
        return fail(p, p->tline, p->tcol,
                    "expected satisfy, minimize or maximize, found '%s'",
                    p->text);
    }
    return next(p) || expect(p, ";");
}

/* Passes over a predicate declaration (its body is the solver's
 * business; the constraints that use it are refused as unknown). */
static int predicate(ps *p)
{
    while (!is(p, ";")) {
        if (p->k == T_EOF)
            return fail(p, p->tline, p->tcol, "a predicate does not end");
        if (next(p) != 0)
            return -1;
    }
    return next(p);
}

int ilpm_fzn_parse(ilpm_reader *rd, mdl *d, ilpm_err *err)
{
    fzn *z = calloc(1, sizeof *z);
    if (!z || !(z->syms = calloc(1, sizeof *z->syms))) {
        free(z);
        return ilpm_err_nomem(err, "%s: out of memory", d->file);
    }
    d->fzn = z;
    ps p = {.rd = rd, .d = d, .z = z, .err = err};
    int solved = 0, rc = next(&p);
    while (rc == 0 && p.k != T_EOF) {
        if (solved)
            rc = fail(&p, p.tline, p.tcol,
                      "nothing may follow the solve item, found '%s'", p.text);
        else if (is(&p, "predicate"))
            rc = predicate(&p);
        else if (is(&p, "constraint"))
            rc = constraint(&p);
        else if (is(&p, "solve"))
            rc = solve_item(&p), solved = 1;
        else
            rc = decl(&p);
    }
    if (rc == 0 && !solved)
        rc = ilpm_err_input(err, "%s: the model has no solve item", d->file);
    free(p.text);
    z->ncols_read = d->ncols;
    return rc == 0 && !p.failed ? 0 : -1;
}

int ilpm_mdl_parse_fzn(ilpm_reader *rd, mdl *d, ilpm_err *err)
{
    return ilpm_fzn_parse(rd, d, err) || ilpm_fzn_lower(d, err) ? -1 : 0;
}
