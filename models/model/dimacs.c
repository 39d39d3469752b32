/* A reader of DIMACS CNF: "c" comment lines, the header "p cnf V C",
 * then clauses as literals ended by 0, across lines as the format
 * allows.  Literals outside 1..V and a clause count other than C are
 * errors at their line and column; a '%' line ends the input, as in the
 * SATLIB files.  Each clause becomes the row sum of its literals >= 1,
 * with -v read as (1 - x_v). */
#include "formats.h"
#include "mdl.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int header(ilpm_reader *rd, const char *line, mdl *d, long *nclauses,
                  ilpm_err *err)
{
    const char *s = blank(line + 1);
    if (strncmp(s, "cnf", 3) != 0 || (s[3] != ' ' && s[3] != '\t'))
        return ilpm_reader_error(rd, err, (long)(s - line) + 1,
                                 "expected 'p cnf VARIABLES CLAUSES' (weighted "
                                 "and other DIMACS forms are not read)");
    long v[2];
    s += 3;
    for (int i = 0; i < 2; i++) {
        s = blank(s);
        long col = (long)(s - line) + 1;
        if (ilpm_scan_uint(&s, &v[i]) == 0 || (*s && *s != ' ' && *s != '\t'))
            return ilpm_reader_error(rd, err, col, "expected the number of %s",
                                     i ? "clauses" : "variables");
        if (v[i] > (i ? INT_MAX / 2 : MDL_MAX_COLS))
            return ilpm_reader_error(
                rd, err, col, "%.*s %s: too large (at most %d)",
                (int)(s - line - col + 1 > 40 ? 40 : s - line - col + 1),
                line + col - 1, i ? "clauses" : "variables",
                i ? INT_MAX / 2 : MDL_MAX_COLS);
    }
    s = blank(s);
    if (*s)
        return ilpm_reader_error(rd, err, (long)(s - line) + 1,
                                 "unexpected text after the header");
    for (long j = 0; j < v[0]; j++)
        if (ilpm_mdl_add_col(d, NULL, 0, 1) < 0)
            return ilpm_err_nomem(err, "out of memory");
    *nclauses = v[1];
    return 0;
}

/* "c NAME VAR" after ilpm's own first line "c ilpm DIMACS export". */
static int dict_line(const char *s, mdl_dict *x)
{
    s = blank(s + 1);
    const char *name = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    size_t len = (size_t)(s - name);
    s = blank(s);
    long v;
    if (len == 0 || ilpm_scan_uint(&s, &v) == 0 || *blank(s))
        return 0;
    return ilpm_mdl_dict_put(x, v, name, len);
}

/* Columns named by the dictionary; the others are the encodings'. */
static int apply_dict(mdl *d, mdl_dict *x, ilpm_err *err)
{
    if (!x->cap)
        return 0;
    char **names = calloc((size_t)d->ncols + 1, sizeof *names);
    if (!names)
        return ilpm_err_nomem(err, "out of memory");
    for (int j = 0; j < d->ncols && j + 1 < x->cap; j++) {
        names[j] = x->name[j + 1];
        x->name[j + 1] = NULL;
    }
    int rc = ilpm_mdl_dictionary(d, names);
    for (int j = 0; j < d->ncols; j++)
        free(names[j]);
    free(names);
    return rc ? ilpm_err_nomem(err, "out of memory") : 0;
}

/* Where the clauses stand: declared, read, the line of the open one (0:
 * none) and its right-hand side, 1 - its negative literals. */
typedef struct clauses {
    long declared, seen, open_line;
    int64_t rhs;
} clauses;

/* The literal at s (column col of line), one more term of the open
 * clause, or its closing 0.  0, or -1 with err. */
static int literal(ilpm_reader *rd, mdl *d, const char *line, const char **sp,
                   clauses *c, ilpm_err *err)
{
    const char *s = *sp;
    long col = (long)(s - line) + 1;
    int neg = *s == '-';
    if (neg)
        s++;
    long v;
    if (ilpm_scan_uint(&s, &v) == 0 || (*s && *s != ' ' && *s != '\t')) {
        char b[8];
        return ilpm_reader_error(rd, err, col,
                                 "expected a literal (an integer), got %s",
                                 ilpm_show_char(*s, b, sizeof b));
    }
    *sp = s;
    if (v == 0) {
        if (neg)
            return ilpm_reader_error(rd, err, col, "-0 is no literal");
        if (++c->seen > c->declared)
            return ilpm_reader_error(rd, err, col,
                                     "more clauses than the %ld the "
                                     "header declares",
                                     c->declared);
        if (ilpm_mdl_end_row(d, ILPM_GE, c->rhs, c->open_line, -1) != 0)
            return ilpm_err_nomem(err, "out of memory");
        c->rhs = 1;
        c->open_line = 0;
        return 0;
    }
    /* The literal as given: a long run of digits reads as LONG_MAX. */
    if (v > d->ncols)
        return ilpm_reader_error(
            rd, err, col,
            "literal %.*s is past the %d variables the header declares",
            (int)(s - line - col + 1 > 40 ? 40 : s - line - col + 1),
            line + col - 1, d->ncols);
    if (!c->open_line)
        c->open_line = ilpm_reader_lineno(rd);
    /* A clause of more than MDL_MAX_SUM literals cannot be read into
     * memory: no sum check is needed. */
    if (neg)
        c->rhs--;
    if (ilpm_mdl_add_term(d, (int)v - 1, neg ? -1 : 1) != 0)
        return ilpm_err_nomem(err, "out of memory");
    return 0;
}

/* What the file said once it is read: 0, or -1 with err. */
static int ended(ilpm_reader *rd, const clauses *c, ilpm_err *err)
{
    if (c->declared < 0)
        return ilpm_reader_error(rd, err, 0, "no 'p cnf' header");
    if (c->open_line)
        return ilpm_reader_error_at(rd, err, c->open_line, 0,
                                    "the last clause has no closing 0");
    if (c->seen != c->declared)
        return ilpm_reader_error(rd, err, 0,
                                 "the header declares %ld clauses, the file "
                                 "holds %ld",
                                 c->declared, c->seen);
    return 0;
}

static int parse(ilpm_reader *rd, mdl *d, mdl_dict *dict, ilpm_err *err)
{
    int ours = 0;
    const char *line;
    size_t len;
    clauses c = {-1, 0, 0, 1};
    int r;
    while ((r = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        const char *s = blank(line);
        if (ilpm_reader_lineno(rd) == 1)
            ours = strcmp(line, "c ilpm DIMACS export") == 0;
        if (*s == 'c' && ours && dict_line(s, dict) != 0)
            return ilpm_err_nomem(err, "out of memory");
        if (*s == 'c' || (*s == '\0' && c.declared < 0))
            continue;
        if (*s == '%')
            break;
        if (c.declared < 0) {
            if (*s != 'p')
                return ilpm_reader_error(rd, err, (long)(s - line) + 1,
                                         "expected the header 'p cnf "
                                         "VARIABLES CLAUSES' first");
            if (header(rd, s, d, &c.declared, err) != 0)
                return -1;
            continue;
        }
        while (*(s = blank(s)))
            if (literal(rd, d, line, &s, &c, err) != 0)
                return -1;
    }
    if (r < 0 || ended(rd, &c, err) != 0)
        return -1;
    return apply_dict(d, dict, err);
}

int ilpm_mdl_parse_cnf(ilpm_reader *rd, mdl *d, ilpm_err *err)
{
    mdl_dict dict = {NULL, 0};
    int rc = parse(rd, d, &dict, err);
    ilpm_mdl_dict_free(&dict);
    return rc;
}

/* DIMACS CNF's row in the table of formats (format.h): read here,
 * written by ilpm's CNF encoder (src/backend/cnf_dimacs.c) with a
 * "c NAME VAR" dictionary, checked on the file read again; the SAT
 * competition's v lines give its variables by number. */
static int write_cnf(const ilpm_model *m, const ilpm_options *o,
                     const char *path, ilpm_err *err)
{
    return ilpm_export(m, o, ILPM_FMT_CNF, path, err);
}

static const struct ilpm_mdl_reader cnf_reader = {
    .parse = ilpm_mdl_parse_cnf,
    .check = ilpm_mdl_check_rows,
    .numbered = 1,
};

const ilpm_file_format ilpm_format_cnf = {
    .name = "cnf",
    .exts = (const char *const[]){"cnf", NULL},
    .help = "DIMACS CNF with a 'c NAME VAR' dictionary",
    .carries = ILPM_CARRIES_NAMES,
    .reader = &cnf_reader,
    .write = write_cnf,
};
