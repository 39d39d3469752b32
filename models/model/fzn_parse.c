/* The FlatZinc reader's second half: a recursive-descent parser of
 * FlatZinc's items (predicate, parameter and variable declarations,
 * constraints, one solve item) over the lexer and expressions of
 * fzn_read.c, filling the `model` puzzle's columns and the fzn record
 * (fzn.h). */
#include "formats.h"
#include "fzn_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (ilpm_fzr_next(p) != 0 || ilpm_fzr_expect(p, "..") != 0)
        return -1;
    if (p->k != T_FLOAT && p->k != T_INT)
        return ilpm_fzr_fail(p, p->tline, p->tcol, "expected a float bound");
    return ilpm_fzr_next(p);
}

static int base_type(ps *p, dtype *t)
{
    if (ilpm_fzr_is(p, "bool")) {
        t->isbool = 1;
        return ilpm_fzr_next(p);
    }
    if (ilpm_fzr_is(p, "int"))
        return ilpm_fzr_next(p);
    if (ilpm_fzr_is(p, "float")) {
        t->isfloat = 1;
        return ilpm_fzr_next(p);
    }
    if (p->k == T_FLOAT) {
        t->isfloat = 1;
        return float_range(p);
    }
    if (ilpm_fzr_is(p, "set")) {
        t->isset = 1;
        if (ilpm_fzr_next(p) != 0 || ilpm_fzr_expect(p, "of") != 0)
            return -1;
        if (ilpm_fzr_is(p, "int"))
            return ilpm_fzr_next(p);
    }
    if (p->k == T_INT || ilpm_fzr_is(p, "{")) {
        long line = p->tline, col = p->tcol;
        if (ilpm_fzr_expr(p, &t->dom) != 0)
            return -1;
        if (t->dom.a.kind != FZ_SET)
            return ilpm_fzr_fail(p, line, col, "expected a type or a domain");
        t->has_dom = !t->isset;
        return 0;
    }
    return ilpm_fzr_fail(p, p->tline, p->tcol, "expected a type, found '%s'",
                         p->text);
}

static int decl_type(ps *p, dtype *t)
{
    memset(t, 0, sizeof *t);
    if (ilpm_fzr_is(p, "array")) {
        int64_t one = 0;
        long line = p->tline, col = p->tcol;
        if (ilpm_fzr_next(p) != 0 || ilpm_fzr_expect(p, "[") != 0 ||
            ilpm_fzr_expect_int(p, &one) != 0 ||
            ilpm_fzr_expect(p, "..") != 0 ||
            ilpm_fzr_expect_int(p, &t->n) != 0 ||
            ilpm_fzr_expect(p, "]") != 0 || ilpm_fzr_expect(p, "of") != 0)
            return -1;
        if (one != 1 || t->n < 0 || t->n > (1 << 28))
            return ilpm_fzr_fail(p, line, col,
                                 "an array's index set must be 1..n "
                                 "with n from 0 to 2^28");
        t->array = 1;
    }
    if (ilpm_fzr_is(p, "var")) {
        t->var = 1;
        if (ilpm_fzr_next(p) != 0)
            return -1;
    }
    return base_type(p, t);
}

static int set_flag(ps *p, int col, unsigned char f)
{
    fzn *z = p->z;
    int cap = z->flagcap;
    if (ilpm_grow_int((void **)&z->flag, &cap, col + 1, 1) != 0)
        return ilpm_fzr_nomem(p);
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
        return ilpm_fzr_fail(p, p->tline, p->tcol,
                             "more than %d variables: too many for ilpm",
                             MDL_MAX_COLS);
    int j = ilpm_mdl_add_col(p->d, name, lo, hi);
    if (j < 0 || set_flag(p, j, f) != 0)
        return ilpm_fzr_nomem(p);
    *out = (fz_term){j, 1};
    return 0;
}

static int add_con(ps *p, const fz_builtin *b, fz_arg *args, int nargs,
                   long line, long col);

/* A domain with holes, kept as a set_in constraint on the term. */
static int domain_con(ps *p, const dtype *t, fz_term x, long line, long col)
{
    if (!t->has_dom ||
        (!t->dom.a.elems && x.var && p->d->lo[x.v] == t->dom.a.lo &&
         p->d->hi[x.v] == t->dom.a.hi))
        return 0;
    fz_arg *args = calloc(2, sizeof *args);
    if (!args)
        return ilpm_fzr_nomem(p);
    args[0].kind = FZ_SCALAR;
    args[0].n = 1;
    if (!(args[0].t = malloc(sizeof *args[0].t))) {
        free(args);
        return ilpm_fzr_nomem(p);
    }
    args[0].t[0] = x;
    if (ilpm_fzr_copy_arg(p, &args[1], &t->dom.a) != 0) {
        ilpm_fzr_arg_free(&args[0]);
        free(args);
        return -1;
    }
    if (add_con(p, ilpm_fzn_builtin("set_in", 2, NULL), args, 2, line, col) !=
        0)
        return -1;
    p->z->cons[p->z->ncons - 1].domain = 1;
    return 0;
}

static int add_out(ps *p, const char *name, int isbool, const anns *a,
                   const fz_arg *v, long line, long col)
{
    fzn *z = p->z;
    int64_t size = 1;
    for (int k = 0; k < a->dims; k++)
        size *= a->hi[k] >= a->lo[k] ? a->hi[k] - a->lo[k] + 1 : 0;
    if (a->output_array && (v->kind != FZ_ARRAY || size != v->n))
        return ilpm_fzr_fail(
            p, line, col,
            "output_array of '%s' names %lld elements, the array "
            "has %d",
            name, (long long)size, v->n);
    if (ilpm_grow_int((void **)&z->outs, &z->outcap, z->nouts + 1,
                      sizeof *z->outs) != 0)
        return ilpm_fzr_nomem(p);
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
        return ilpm_fzr_nomem(p);
    }
    if (v->n > 0)
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
            return ilpm_fzr_fail(
                p, line, col, "'%s' is given a value of another shape", name);
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
        return ilpm_fzr_fail(p, line, col,
                             "'%s': more than %d variables: too many for "
                             "ilpm",
                             name, MDL_MAX_COLS);
    if (n > 0 && !(v->t = malloc((size_t)n * sizeof *v->t)))
        return ilpm_fzr_nomem(p);
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

/* 1 when the declaration of name (at line:col) is one ilpm does not
 * take, said in p: a second one, a float or set variable, a parameter
 * without a value. */
static int refused(ps *p, const dtype *t, const char *name, int has_rhs,
                   long line, long col)
{
    if (ilpm_fzr_sym_find(p->z->syms, name))
        ilpm_fzr_fail(p, line, col, "'%s' is declared twice", name);
    else if (t->isfloat && t->var)
        ilpm_fzr_fail(
            p, line, col,
            "variable '%s' is a float: ilpm solves models over Booleans and "
            "integers",
            name);
    else if (t->isset && t->var)
        ilpm_fzr_fail(p, line, col,
                      "variable '%s' is a set of int: ilpm does not take set "
                      "variables",
                      name);
    else if (!t->var && !has_rhs)
        ilpm_fzr_fail(p, line, col, "parameter '%s' has no value", name);
    else
        return 0;
    return 1;
}

static int decl(ps *p)
{
    dtype t;
    val rhs = {0};
    anns a = {0};
    int rc = -1;
    if (decl_type(p, &t) != 0 || ilpm_fzr_expect(p, ":") != 0)
        goto done;
    long line = p->tline, col = p->tcol;
    if (p->k != T_ID) {
        ilpm_fzr_fail(p, line, col, "expected a name, found '%s'", p->text);
        goto done;
    }
    char *name = strdup(p->text);
    if (!name) {
        ilpm_fzr_nomem(p);
        goto done;
    }
    int has_rhs = 0;
    if (ilpm_fzr_next(p) == 0 &&
        ilpm_fzr_annotations(p, t.var ? &a : NULL) == 0 &&
        ilpm_fzr_is(p, "=")) {
        long rl = p->tline, rcol = p->tcol;
        has_rhs = 1;
        if (ilpm_fzr_next(p) == 0 && ilpm_fzr_expr(p, &rhs) == 0 &&
            (rhs.isfloat || rhs.isstr))
            ilpm_fzr_fail(p, rl, rcol,
                          "'%s': float and string values are not supported",
                          name);
    }
    if (p->failed || ilpm_fzr_expect(p, ";") != 0)
        goto named;
    if (refused(p, &t, name, has_rhs, line, col))
        goto named;
    sym *s = ilpm_fzr_sym_add(p->z->syms, name);
    if (!s) {
        ilpm_fzr_nomem(p);
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
    ilpm_fzr_arg_free(&rhs.a);
    ilpm_fzr_arg_free(&t.dom.a);
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
            ilpm_fzr_arg_free(&args[k]);
        free(args);
        return ilpm_fzr_nomem(p);
    }
    z->cons[z->ncons++] = (fz_con){b, nargs, args, line, col, 0};
    return 0;
}

static int constraint(ps *p)
{
    if (ilpm_fzr_next(p) != 0)
        return -1;
    long line = p->tline, col = p->tcol;
    if (p->k != T_ID)
        return ilpm_fzr_fail(
            p, line, col, "expected a constraint's name, found '%s'", p->text);
    char *name = strdup(p->text);
    fz_arg *args = NULL;
    int n = 0, cap = 0;
    if (!name) {
        ilpm_fzr_nomem(p);
        goto bad;
    }
    if (ilpm_fzr_next(p) != 0 || ilpm_fzr_expect(p, "(") != 0)
        goto bad;
    while (!ilpm_fzr_is(p, ")")) {
        long al = p->tline, ac = p->tcol;
        val v;
        if (ilpm_grow_int((void **)&args, &cap, n + 1, sizeof *args) != 0) {
            ilpm_fzr_nomem(p);
            goto bad;
        }
        if (ilpm_fzr_expr(p, &v) != 0) {
            ilpm_fzr_arg_free(&v.a);
            goto bad;
        }
        args[n++] = v.a;
        if (v.isfloat || v.isstr) {
            ilpm_fzr_fail(p, al, ac,
                          "'%s': float and string arguments are not "
                          "supported",
                          name);
            goto bad;
        }
        if (!ilpm_fzr_is(p, ")") && ilpm_fzr_expect(p, ",") != 0)
            goto bad;
    }
    int known;
    const fz_builtin *b = ilpm_fzn_builtin(name, n, &known);
    if (!b) {
        if (known)
            ilpm_fzr_fail(p, line, col, "'%s' does not take %d arguments", name,
                          n);
        else
            ilpm_fzr_fail(p, line, col,
                          "constraint '%s' is not a builtin ilpm supports "
                          "(docs/fzn.md lists them)",
                          name);
        goto bad;
    }
    for (int k = 0; k < n; k++) {
        static const char kinds[] = {'s', 'a', 'S'};
        if (kinds[args[k].kind] != b->shape[k]) {
            ilpm_fzr_fail(p, line, col, "'%s': argument %d must be %s", name,
                          k + 1,
                          b->shape[k] == 's'   ? "a number or a variable"
                          : b->shape[k] == 'a' ? "an array"
                                               : "a set of integers");
            goto bad;
        }
    }
    if (ilpm_fzr_next(p) != 0 || ilpm_fzr_annotations(p, NULL) != 0 ||
        ilpm_fzr_expect(p, ";") != 0)
        goto bad;
    free(name);
    return add_con(p, b, args, n, line, col);
bad:
    for (int k = 0; k < n; k++)
        ilpm_fzr_arg_free(&args[k]);
    free(args);
    free(name);
    return -1;
}

static int solve_item(ps *p)
{
    fzn *z = p->z;
    z->solve_line = p->tline;
    if (ilpm_fzr_next(p) != 0 || ilpm_fzr_annotations(p, NULL) != 0)
        return -1;
    if (ilpm_fzr_is(p, "satisfy")) {
        z->sense = ILPM_NONE;
    } else if (ilpm_fzr_is(p, "minimize") || ilpm_fzr_is(p, "maximize")) {
        z->sense = ilpm_fzr_is(p, "minimize") ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
        if (ilpm_fzr_next(p) != 0)
            return -1;
        long line = p->tline, col = p->tcol;
        val v;
        if (ilpm_fzr_expr(p, &v) != 0) {
            ilpm_fzr_arg_free(&v.a);
            return -1;
        }
        int ok = v.a.kind == FZ_SCALAR && !v.isfloat && !v.isstr;
        if (ok)
            z->obj = v.a.t[0];
        ilpm_fzr_arg_free(&v.a);
        if (!ok)
            return ilpm_fzr_fail(
                p, line, col,
                "the objective must be an integer variable or number");
        return ilpm_fzr_expect(p, ";");
    } else {
        return ilpm_fzr_fail(
            p, p->tline, p->tcol,
            "expected satisfy, minimize or maximize, found '%s'", p->text);
    }
    return ilpm_fzr_next(p) || ilpm_fzr_expect(p, ";");
}

/* Passes over a predicate declaration (its body is the solver's
 * business; the constraints that use it are refused as unknown). */
static int predicate(ps *p)
{
    while (!ilpm_fzr_is(p, ";")) {
        if (p->k == T_EOF)
            return ilpm_fzr_fail(p, p->tline, p->tcol,
                                 "a predicate does not end");
        if (ilpm_fzr_next(p) != 0)
            return -1;
    }
    return ilpm_fzr_next(p);
}

int ilpm_fzn_parse(ilpm_reader *rd, mdl *d, ilpm_err *err)
{
    fzn *z = calloc(1, sizeof *z);
    if (!z || !(z->syms = calloc(1, sizeof *z->syms))) {
        free(z);
        return ilpm_err_nomem(err, "%s: out of memory", d->file);
    }
    d->more = z;
    ps p = {.rd = rd, .d = d, .z = z, .err = err};
    int solved = 0, rc = ilpm_fzr_next(&p);
    while (rc == 0 && p.k != T_EOF) {
        if (solved)
            rc = ilpm_fzr_fail(&p, p.tline, p.tcol,
                               "nothing may follow the solve item, found '%s'",
                               p.text);
        else if (ilpm_fzr_is(&p, "predicate"))
            rc = predicate(&p);
        else if (ilpm_fzr_is(&p, "constraint"))
            rc = constraint(&p);
        else if (ilpm_fzr_is(&p, "solve"))
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

/* FlatZinc's row in the table of formats (format.h): read alone (no
 * writer); a solution is checked constraint by constraint by its
 * meaning (fzn_eval.c), never through the rows. */
static int check_fzn(const mdl *d, mdl_again *again, const int64_t *x,
                     int has_obj, int64_t obj, ilpm_err *why)
{
    (void)again;
    return ilpm_fzn_check(d, x, has_obj, obj, why);
}

static void release_fzn(mdl *d)
{
    ilpm_fzn_free(d->more);
    d->more = NULL;
}

static const struct ilpm_mdl_reader fzn_reader = {
    .parse = ilpm_mdl_parse_fzn,
    .check = check_fzn,
    .enc = MDL_ENC_BINARY,
    .render = ilpm_fzn_render,
    .render_json = ilpm_fzn_render_json,
    .release = release_fzn,
};

const ilpm_file_format ilpm_format_fzn = {
    .name = "fzn",
    .exts = (const char *const[]){"fzn", NULL},
    .help = "FlatZinc (what MiniZinc compiles a model into)",
    .carries =
        ILPM_CARRIES_OBJECTIVE | ILPM_CARRIES_INTEGERS | ILPM_CARRIES_NAMES,
    .reader = &fzn_reader,
};
