/* A reader of linear OPB, the format of the pseudo-Boolean competitions:
 * "* comment" lines, an optional "min: terms ;", then constraints
 * "terms >= k ;" (also "=" and "<="), a term being an integer and a
 * literal x or ~x.  Coefficients are exact: an integer past int64, or a
 * row whose numbers sum past MDL_MAX_SUM, is an error at its column.  A
 * product of literals (non-linear OPB) is refused. */
#include "formats.h"
#include "mdl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan {
    ilpm_reader *rd;
    mdl *d;
    ilpm_err *err;
    const char *line, *s;
    int have;      /* a line is in hand */
    mdl_dict dict; /* "* NAME = xV" lines of an ilpm export */
    /* An ilpm export's objective note: maximise (its min: negated) and
     * the constant OPB cannot hold. */
    int maximise, has_note;
    int64_t note_const;
    /* The objective's terms, made dense once every column is known. */
    int *ocol;
    int64_t *ocoef;
    size_t on;
} scan;

static long col_of(const scan *c)
{
    return (long)(c->s - c->line) + 1;
}

static int fail(scan *c, const char *fmt, const char *what)
{
    return ilpm_reader_error(c->rd, c->err, col_of(c), fmt, what);
}

/* "* NAME = xV": ilpm's OPB writer names its variables so. */
static int dict_line(scan *c)
{
    const char *s = c->s + 1;
    while (*s == ' ')
        s++;
    const char *name = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    size_t len = (size_t)(s - name);
    long v;
    if (len == 0 || strncmp(s, " = x", 4) != 0)
        return 0;
    s += 4;
    if (ilpm_scan_uint(&s, &v) == 0 || *s)
        return 0;
    return ilpm_mdl_dict_put(&c->dict, v, name, len);
}

/* ilpm's OPB writer says how its min: relates to the model's objective,
 * which OPB cannot say itself: "* objective: maximise; min: below is its
 * negation, objective = C - (min: value)" or "* objective: minimise;
 * objective = (min: value) +C".  Read back, the objective is the model's
 * again. */
static void objective_note(scan *c)
{
    static const char max[] = "* objective: maximise; min: below is its "
                              "negation, objective = ";
    static const char min[] = "* objective: minimise; objective = (min: "
                              "value) ";
    const char *s = c->s;
    int maximise = strncmp(s, max, sizeof max - 1) == 0;
    if (!maximise && strncmp(s, min, sizeof min - 1) != 0)
        return;
    s += maximise ? sizeof max - 1 : sizeof min - 1;
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    long v;
    if (ilpm_scan_uint(&s, &v) == 0 || v > MDL_MAX_SUM ||
        (maximise && strcmp(s, " - (min: value)") != 0) || (!maximise && *s))
        return;
    c->has_note = 1;
    c->maximise = maximise;
    c->note_const = neg ? -(int64_t)v : (int64_t)v;
}

/* Moves to the next character that is not blank, across lines (comment
 * lines, "* ...", are skipped).  0 at a character, 1 at the end of the
 * input, -1 on a reader error. */
static int skip(scan *c)
{
    for (;;) {
        if (c->have) {
            while (*c->s == ' ' || *c->s == '\t')
                c->s++;
            if (*c->s)
                return 0;
            c->have = 0;
        }
        size_t len;
        int r = ilpm_reader_line(c->rd, &c->line, &len, c->err);
        if (r <= 0)
            return r < 0 ? -1 : 1;
        c->s = c->line;
        while (*c->s == ' ' || *c->s == '\t')
            c->s++;
        if (*c->s == '*') {
            if (dict_line(c) != 0)
                return ilpm_err_nomem(c->err, "out of memory");
            objective_note(c);
            /* The header gives the variables: x1..xN get their ids in
             * order, as ilpm's own OPB writer numbers them. */
            long nv;
            const char *h = strstr(c->s, "#variable=");
            if (h && ilpm_reader_lineno(c->rd) == 1 && c->d->ncols == 0) {
                h += strlen("#variable=");
                while (*h == ' ')
                    h++;
                /* Past MDL_HEADER_COLS the header is left alone: columns
                 * come as the file names them. */
                if (ilpm_scan_uint(&h, &nv) > 0 && nv <= MDL_HEADER_COLS)
                    for (long v = 1; v <= nv; v++) {
                        char name[32];
                        int n = snprintf(name, sizeof name, "x%ld", v);
                        if (ilpm_mdl_col_by_name(c->d, name, (size_t)n) < 0)
                            return ilpm_err_nomem(c->err, "out of memory");
                    }
            }
            continue;
        }
        c->have = 1;
    }
}

/* An integer with an optional sign; 0, or -1 with the error. */
static int integer(scan *c, int64_t *out)
{
    const char *at = c->s;
    int neg = 0;
    if (*c->s == '+' || *c->s == '-')
        neg = *c->s++ == '-';
    if (!isdigit((unsigned char)*c->s)) {
        c->s = at;
        char b[8];
        return fail(c, "expected an integer, got %s",
                    ilpm_show_char(*c->s, b, sizeof b));
    }
    uint64_t v = 0;
    for (; isdigit((unsigned char)*c->s); c->s++) {
        unsigned dgt = (unsigned)(*c->s - '0');
        if (v > ((uint64_t)INT64_MAX - dgt) / 10) {
            c->s = at;
            /* The integer as given, not what it would wrap to. */
            char msg[160];
            int sign = *at == '+' || *at == '-';
            int len = sign + (int)strspn(at + sign, "0123456789");
            snprintf(msg, sizeof msg, "the integer %.*s is too %s (at %s)",
                     len > 40 ? 40 : len, at, neg ? "small" : "large",
                     neg ? "least -9223372036854775807"
                         : "most 9223372036854775807");
            return fail(c, "%s", msg);
        }
        v = v * 10 + dgt;
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

static int is_name_start(char ch)
{
    return isalpha((unsigned char)ch) || ch == '_';
}

static int is_name_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_' || ch == '[' || ch == ']' ||
           ch == '.' || ch == '(' || ch == ')' || ch == ',';
}

/* |v| added to *sum, which must stay within MDL_MAX_SUM. */
static int add_abs(int64_t *sum, int64_t v)
{
    if (v == INT64_MIN)
        return -1;
    int64_t a = v < 0 ? -v : v;
    if (a > MDL_MAX_SUM - *sum)
        return -1;
    *sum += a;
    return 0;
}

/* The terms of a row or of the objective, up to a relation or ';'.
 * Each ~x folds at once: a ~x = a - a x, the constant going to *cst.
 * Terms go to the model (row) or into d->obj (objective). */
static int terms(scan *c, int objective, int64_t *cst, int64_t *sum)
{
    mdl *d = c->d;
    for (;;) {
        int r = skip(c);
        if (r)
            return r < 0 ? -1
                         : ilpm_reader_error(c->rd, c->err, 0,
                                             "the file ends inside a "
                                             "constraint: missing ';'");
        char ch = *c->s;
        if (ch == ';' || ch == '>' || ch == '<' || ch == '=')
            return 0;
        long tcol = col_of(c);
        int64_t a;
        if (integer(c, &a) != 0)
            return -1;
        if (add_abs(sum, a) != 0)
            return ilpm_reader_error(c->rd, c->err, tcol,
                                     "the coefficients of this %s sum past "
                                     "2^61: too large to handle exactly",
                                     objective ? "objective" : "constraint");
        if ((r = skip(c)) != 0)
            return r < 0 ? -1
                         : ilpm_reader_error(c->rd, c->err, 0,
                                             "the file ends inside a term");
        int neg = *c->s == '~';
        if (neg)
            c->s++;
        if (!is_name_start(*c->s)) {
            char b[8];
            return fail(c, "expected a variable after the coefficient, got %s",
                        ilpm_show_char(*c->s, b, sizeof b));
        }
        const char *name = c->s;
        while (is_name_char(*c->s))
            c->s++;
        int j = ilpm_mdl_col_by_name(d, name, (size_t)(c->s - name));
        if (j < 0)
            return ilpm_err_nomem(c->err, "out of memory");
        /* A second literal right after the first is a product. */
        const char *after = c->s;
        while (*after == ' ' || *after == '\t')
            after++;
        if (*after == '~' || is_name_start(*after)) {
            c->s = after;
            return fail(c,
                        "%s: a product of literals (non-linear OPB); ilpm "
                        "reads linear constraints only",
                        "non-linear term");
        }
        if (neg)
            *cst += a; /* a ~x = a - a x */
        if (ilpm_mdl_add_term(d, j, neg ? -a : a) != 0)
            return ilpm_err_nomem(c->err, "out of memory");
    }
}

static int semicolon(scan *c)
{
    int r = skip(c);
    if (r)
        return r < 0 ? -1
                     : ilpm_reader_error(c->rd, c->err, 0,
                                         "the file ends before ';'");
    if (*c->s != ';') {
        char b[8];
        return fail(c, "expected ';', got %s",
                    ilpm_show_char(*c->s, b, sizeof b));
    }
    c->s++;
    return 0;
}

static int objective(scan *c)
{
    mdl *d = c->d;
    if (d->sense != ILPM_NONE || d->nrows > 0)
        return fail(c, "%s comes once, before the constraints", "min:");
    c->s += 4;
    d->sense = ILPM_MINIMIZE;
    int64_t cst = 0, sum = 0;
    size_t start = d->nterms;
    if (terms(c, 1, &cst, &sum) != 0)
        return -1;
    /* The terms were stored as a row's: take them back. */
    c->on = d->nterms - start;
    c->ocol = malloc((c->on + 1) * sizeof *c->ocol);
    c->ocoef = malloc((c->on + 1) * sizeof *c->ocoef);
    if (!c->ocol || !c->ocoef)
        return ilpm_err_nomem(c->err, "out of memory");
    if (c->on > 0) {
        memcpy(c->ocol, d->col + start, c->on * sizeof *c->ocol);
        memcpy(c->ocoef, d->coef + start, c->on * sizeof *c->ocoef);
    }
    d->nterms = start;
    if (*c->s != ';') {
        char b[8];
        return fail(c, "expected ';' after the objective, got %s",
                    ilpm_show_char(*c->s, b, sizeof b));
    }
    c->s++;
    d->obj_const = cst;
    return 0;
}

static int constraint(scan *c)
{
    mdl *d = c->d;
    long line = ilpm_reader_lineno(c->rd);
    int64_t cst = 0, sum = 0;
    char b[8];
    if (terms(c, 0, &cst, &sum) != 0)
        return -1;
    ilpm_cmp cmp;
    if (c->s[0] == '>' && c->s[1] == '=')
        cmp = ILPM_GE, c->s += 2;
    else if (c->s[0] == '<' && c->s[1] == '=')
        cmp = ILPM_LE, c->s += 2;
    else if (c->s[0] == '=')
        cmp = ILPM_EQ, c->s += 1;
    else if (c->s[0] == ';')
        return fail(c, "%s: expected >=, <= or = before ';'",
                    "missing relation");
    else
        return fail(c, "expected >=, <= or =, got %s",
                    ilpm_show_char(*c->s, b, sizeof b));
    if (skip(c) != 0)
        return ilpm_reader_error(c->rd, c->err, 0,
                                 "the file ends before the right-hand side");
    long rcol = col_of(c);
    int64_t k;
    if (integer(c, &k) != 0)
        return -1;
    if (add_abs(&sum, k) != 0 || add_abs(&sum, cst) != 0)
        return ilpm_reader_error(c->rd, c->err, rcol,
                                 "the numbers of this constraint sum past "
                                 "2^61: too large to handle exactly");
    if (semicolon(c) != 0)
        return -1;
    if (ilpm_mdl_end_row(d, cmp, k - cst, line, -1) != 0)
        return ilpm_err_nomem(c->err, "out of memory");
    return 0;
}

/* The objective over every column, once all are known. */
static int dense_objective(scan *c)
{
    mdl *d = c->d;
    if (d->sense == ILPM_NONE)
        return 0;
    d->obj = calloc((size_t)d->ncols + 1, sizeof *d->obj);
    if (!d->obj)
        return ilpm_err_nomem(c->err, "out of memory");
    /* No overflow: terms() kept the sum of |a| within MDL_MAX_SUM. */
    for (size_t i = 0; i < c->on; i++)
        d->obj[c->ocol[i]] += c->ocoef[i];
    if (!c->has_note)
        return 0;
    if (c->maximise) { /* objective = C - (sum + const) */
        d->sense = ILPM_MAXIMIZE;
        for (int j = 0; j < d->ncols; j++)
            d->obj[j] = -d->obj[j];
        d->obj_const = c->note_const - d->obj_const;
    } else {
        d->obj_const += c->note_const;
    }
    return 0;
}

static int parse(scan *c)
{
    int r;
    while ((r = skip(c)) == 0) {
        if (strncmp(c->s, "min:", 4) == 0) {
            if (objective(c) != 0)
                return -1;
        } else if (strncmp(c->s, "max:", 4) == 0 ||
                   strncmp(c->s, "soft:", 5) == 0) {
            return fail(c,
                        "'%s' is not linear OPB (the PB competition "
                        "has 'min:' alone)",
                        c->s[0] == 'm' ? "max:" : "soft:");
        } else if (constraint(c) != 0) {
            return -1;
        }
    }
    if (r < 0)
        return -1;
    return dense_objective(c);
}

/* Columns xV the dictionary names take its names; the others are the
 * encodings' (aux). */
static int apply_dict(scan *c)
{
    mdl *d = c->d;
    if (!c->dict.cap)
        return 0;
    char **names = calloc((size_t)d->ncols + 1, sizeof *names);
    if (!names)
        return ilpm_err_nomem(c->err, "out of memory");
    for (int j = 0; j < d->ncols; j++) {
        const char *s = d->col_name[j];
        long v;
        if (*s++ == 'x' && ilpm_scan_uint(&s, &v) > 0 && !*s &&
            v < c->dict.cap) {
            names[j] = c->dict.name[v];
            c->dict.name[v] = NULL;
        }
    }
    int rc = ilpm_mdl_dictionary(d, names);
    for (int j = 0; j < d->ncols; j++)
        free(names[j]);
    free(names);
    return rc ? ilpm_err_nomem(c->err, "out of memory") : 0;
}

int ilpm_mdl_parse_opb(ilpm_reader *rd, mdl *d, ilpm_err *err)
{
    scan c = {rd, d, err, NULL, NULL, 0, {NULL, 0}, 0, 0, 0, NULL, NULL, 0};
    int rc = parse(&c);
    if (rc == 0)
        rc = apply_dict(&c);
    ilpm_mdl_dict_free(&c.dict);
    free(c.ocol);
    free(c.ocoef);
    return rc;
}

/* OPB's row in the table of formats (format.h): read here, written by
 * ilpm's OPB writer (src/backend/opb.c), checked on the file read
 * again. */
static int write_opb(const ilpm_model *m, const ilpm_options *o,
                     const char *path, ilpm_err *err)
{
    return ilpm_export(m, o, ILPM_FMT_OPB, path, err);
}

static const struct ilpm_mdl_reader opb_reader = {
    .parse = ilpm_mdl_parse_opb,
    .check = ilpm_mdl_check_rows,
};

const ilpm_file_format ilpm_format_opb = {
    .name = "opb",
    .exts = (const char *const[]){"opb", NULL},
    .help = "linear pseudo-Boolean OPB (PB competition)",
    .carries = ILPM_CARRIES_OBJECTIVE | ILPM_CARRIES_NAMES,
    .reader = &opb_reader,
    .write = write_opb,
};
