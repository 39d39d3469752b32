/* The FlatZinc reader's first half: the symbol table, a lexer over the
 * shared line reader, expressions and annotations (fzn_read.h); the
 * declarations, constraints and the solve item are fzn_parse.c's.  Every
 * message is "file:line:col: ...". */
#include "fzn_read.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Symbols: name -> value (a parameter, a variable or an array).        */

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

sym *ilpm_fzr_sym_find(const fz_sym *t, const char *name)
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
sym *ilpm_fzr_sym_add(fz_sym *t, const char *name)
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

void ilpm_fzr_arg_free(fz_arg *a)
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
            ilpm_fzr_arg_free(&z->cons[i].args[k]);
        free(z->cons[i].args);
    }
    free(z->cons);
    for (int i = 0; i < z->nouts; i++) {
        free(z->outs[i].name);
        free(z->outs[i].t);
    }
    free(z->outs);
    free(z->flag);
    free(z->ind);
    free(z->same);
    if (z->syms) {
        for (size_t i = 0; i < z->syms->cap; i++) {
            free(z->syms->s[i].name);
            ilpm_fzr_arg_free(&z->syms->s[i].val);
        }
        free(z->syms->s);
        free(z->syms);
    }
    free(z);
}

/* ------------------------------------------------------------------ */
/* The lexer.                                                           */

int ilpm_fzr_fail(ps *p, long line, long col, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    p->failed = 1;
    const char *mzn = ilpm_mdl_minizinc_hint(p->d->file);
    return ilpm_reader_error_at(p->rd, p->err, line, col, "%s%s%s%s", msg,
                                mzn ? " (a MiniZinc model, not FlatZinc: " : "",
                                mzn ? mzn : "", mzn ? ")" : "");
}

int ilpm_fzr_nomem(ps *p)
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
        return ilpm_fzr_nomem(p);
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
    while (base == 16 ? isxdigit((unsigned char)*e)
                      : isdigit((unsigned char)*e))
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
        return ilpm_fzr_fail(p, p->tline, p->tcol,
                             "the integer %.*s is outside the 64-bit range",
                             (int)(e - s), s);
    p->ival = neg ? -(int64_t)u : (int64_t)u;
    p->pos += (size_t)(e - s);
    p->k = T_INT;
    return 0;
}

/* The next token into p->k (and p->text, p->ival). */
int ilpm_fzr_next(ps *p)
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
            return ilpm_fzr_fail(p, p->tline, p->tcol,
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
        return ilpm_fzr_fail(p, p->tline, p->tcol, "unexpected character %s",
                             ilpm_show_char(*s, b, sizeof b));
    }
    p->pos += n;
    p->k = T_PUNCT;
    return set_text(p, s, n);
}

int ilpm_fzr_is(const ps *p, const char *punct)
{
    return (p->k == T_PUNCT || p->k == T_ID) && strcmp(p->text, punct) == 0;
}

int ilpm_fzr_expect(ps *p, const char *what)
{
    if (!ilpm_fzr_is(p, what))
        return ilpm_fzr_fail(p, p->tline, p->tcol, "expected '%s', found '%s'",
                             what, p->k == T_INT ? "a number" : p->text);
    return ilpm_fzr_next(p);
}

int ilpm_fzr_expect_int(ps *p, int64_t *v)
{
    if (p->k != T_INT)
        return ilpm_fzr_fail(p, p->tline, p->tcol,
                             "expected an integer, found '%s'",
                             p->k == T_FLOAT ? "a float" : p->text);
    *v = p->ival;
    return ilpm_fzr_next(p);
}

/* ------------------------------------------------------------------ */
/* Values.                                                              */

static int push_term(ps *p, fz_arg *a, fz_term t)
{
    if ((a->n & (a->n - 1)) == 0 || a->n == 0) { /* grow at powers of 2 */
        size_t cap = a->n ? 2 * (size_t)a->n : 4;
        fz_term *nt = realloc(a->t, cap * sizeof *nt);
        if (!nt)
            return ilpm_fzr_nomem(p);
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

int ilpm_fzr_copy_arg(ps *p, fz_arg *to, const fz_arg *from)
{
    *to = *from;
    to->t = NULL;
    to->elems = NULL;
    if (from->t &&
        !(to->t = malloc((size_t)(from->n ? from->n : 1) * sizeof *to->t)))
        return ilpm_fzr_nomem(p);
    if (from->t)
        memcpy(to->t, from->t, (size_t)from->n * sizeof *to->t);
    if (from->elems && !(to->elems = malloc((size_t)(from->n ? from->n : 1) *
                                            sizeof *to->elems)))
        return ilpm_fzr_nomem(p);
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
    while (!ilpm_fzr_is(p, "}")) {
        int64_t x = 0;
        if (ilpm_fzr_expect_int(p, &x) != 0)
            return -1;
        if (ilpm_grow((void **)&v->a.elems, &cap, (size_t)v->a.n + 1,
                      sizeof *v->a.elems) != 0)
            return ilpm_fzr_nomem(p);
        v->a.elems[v->a.n++] = x;
        if (!ilpm_fzr_is(p, "}") && ilpm_fzr_expect(p, ",") != 0)
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
    return ilpm_fzr_next(p);
}

int ilpm_fzr_expr(ps *p, val *v);

/* An identifier's value, or an element of an array (name[i]). */
static int ident(ps *p, val *v)
{
    long line = p->tline, col = p->tcol;
    sym *s = ilpm_fzr_sym_find(p->z->syms, p->text);
    if (!s)
        return ilpm_fzr_fail(p, line, col, "'%s' is not declared", p->text);
    if (ilpm_fzr_next(p) != 0)
        return -1;
    memset(v, 0, sizeof *v);
    v->isbool = s->isbool;
    v->isfloat = s->isfloat;
    if (!ilpm_fzr_is(p, "["))
        return ilpm_fzr_copy_arg(p, &v->a, &s->val);
    int64_t i = 0;
    if (ilpm_fzr_next(p) != 0 || ilpm_fzr_expect_int(p, &i) != 0 ||
        ilpm_fzr_expect(p, "]") != 0)
        return -1;
    if (s->val.kind != FZ_ARRAY)
        return ilpm_fzr_fail(p, line, col, "'%s' is not an array", s->name);
    if (i < 1 || i > s->val.n)
        return ilpm_fzr_fail(p, line, col, "index %lld is outside '%s' (1..%d)",
                             (long long)i, s->name, s->val.n);
    return scalar(p, v, s->val.t[i - 1].v, s->val.t[i - 1].var);
}

int ilpm_fzr_expr(ps *p, val *v)
{
    memset(v, 0, sizeof *v);
    if (p->k == T_INT) {
        int64_t lo = p->ival;
        if (ilpm_fzr_next(p) != 0)
            return -1;
        if (!ilpm_fzr_is(p, ".."))
            return scalar(p, v, lo, 0);
        int64_t hi = 0;
        if (ilpm_fzr_next(p) != 0 || ilpm_fzr_expect_int(p, &hi) != 0)
            return -1;
        v->a.kind = FZ_SET;
        v->a.lo = lo;
        v->a.hi = hi;
        return 0;
    }
    if (p->k == T_FLOAT) {
        v->isfloat = 1;
        return scalar(p, v, 0, 0) || ilpm_fzr_next(p);
    }
    if (p->k == T_STR) {
        v->isstr = 1;
        return ilpm_fzr_next(p);
    }
    if (ilpm_fzr_is(p, "true") || ilpm_fzr_is(p, "false")) {
        int b = ilpm_fzr_is(p, "true");
        if (scalar(p, v, b, 0) != 0)
            return -1;
        v->isbool = 1;
        return ilpm_fzr_next(p);
    }
    if (ilpm_fzr_is(p, "{"))
        return ilpm_fzr_next(p) || set_lit(p, v);
    if (ilpm_fzr_is(p, "[")) {
        if (ilpm_fzr_next(p) != 0)
            return -1;
        v->a.kind = FZ_ARRAY;
        while (!ilpm_fzr_is(p, "]")) {
            long line = p->tline, col = p->tcol;
            val e;
            if (ilpm_fzr_expr(p, &e) != 0) {
                ilpm_fzr_arg_free(&e.a);
                return -1;
            }
            if (e.a.kind != FZ_SCALAR || e.isstr) { /* a string: no term */
                ilpm_fzr_arg_free(&e.a);
                return ilpm_fzr_fail(
                    p, line, col,
                    "an array element must be a number, a Boolean or "
                    "a variable");
            }
            v->isbool |= e.isbool;
            v->isfloat |= e.isfloat;
            int r = push_term(p, &v->a, e.a.t[0]);
            ilpm_fzr_arg_free(&e.a);
            if (r != 0 ||
                (!ilpm_fzr_is(p, "]") && ilpm_fzr_expect(p, ",") != 0))
                return -1;
        }
        return ilpm_fzr_next(p);
    }
    if (p->k == T_ID)
        return ident(p, v);
    return ilpm_fzr_fail(p, p->tline, p->tcol, "expected a value, found '%s'",
                         p->text);
}

/* ------------------------------------------------------------------ */
/* Annotations: output_var and output_array([ranges]) are read, every  */
/* other one is passed over.                                            */

/* Passes over one balanced (...) group, the '(' being current. */
static int skip_group(ps *p)
{
    int depth = 0;
    do {
        if (p->k == T_EOF)
            return ilpm_fzr_fail(p, p->tline, p->tcol,
                                 "an annotation does not end");
        if (ilpm_fzr_is(p, "(") || ilpm_fzr_is(p, "[") || ilpm_fzr_is(p, "{"))
            depth++;
        else if (ilpm_fzr_is(p, ")") || ilpm_fzr_is(p, "]") ||
                 ilpm_fzr_is(p, "}"))
            depth--;
        if (ilpm_fzr_next(p) != 0)
            return -1;
    } while (depth > 0);
    return 0;
}

static int output_dims(ps *p, anns *a)
{
    if (ilpm_fzr_expect(p, "(") != 0 || ilpm_fzr_expect(p, "[") != 0)
        return -1;
    while (!ilpm_fzr_is(p, "]")) {
        long line = p->tline, col = p->tcol;
        if (a->dims == 6)
            return ilpm_fzr_fail(p, line, col, "more than 6 dimensions");
        if (ilpm_fzr_expect_int(p, &a->lo[a->dims]) != 0 ||
            ilpm_fzr_expect(p, "..") != 0 ||
            ilpm_fzr_expect_int(p, &a->hi[a->dims]) != 0)
            return -1;
        a->dims++;
        if (!ilpm_fzr_is(p, "]") && ilpm_fzr_expect(p, ",") != 0)
            return -1;
    }
    a->output_array = 1;
    return ilpm_fzr_next(p) || ilpm_fzr_expect(p, ")");
}

int ilpm_fzr_annotations(ps *p, anns *a)
{
    while (ilpm_fzr_is(p, "::")) {
        if (ilpm_fzr_next(p) != 0)
            return -1;
        if (p->k != T_ID)
            return ilpm_fzr_fail(p, p->tline, p->tcol,
                                 "expected an annotation, found '%s'", p->text);
        int ov = strcmp(p->text, "output_var") == 0;
        int oa = strcmp(p->text, "output_array") == 0;
        if (ilpm_fzr_next(p) != 0)
            return -1;
        if (oa && a) {
            if (output_dims(p, a) != 0)
                return -1;
            continue;
        }
        if (ov && a)
            a->output_var = 1;
        if (ilpm_fzr_is(p, "(") && skip_group(p) != 0)
            return -1;
    }
    return 0;
}
