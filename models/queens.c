/* n-Queens and n-Queens completion.
 *
 * Q(r,c) = a queen on row r, column c (1-based).  Exactly one queen per row
 * and per column, at most one per diagonal and anti-diagonal (the seed
 * report lists the row group twice and omits the columns: both are here),
 * and pre-placed queens as unit clauses.  --symmetry keeps one board of
 * each mirror pair (left-right) of an empty board. */
#include "puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Larger boards are refused by --max-vars, with a message saying so. */
#define QUEENS_MAX_N 1000000

typedef struct queens {
    int n;
    int nfixed;
    int *fixed; /* nfixed (row, col) pairs, 1-based */
    long line;  /* line of the instance in its file, 0 from parameters */
} queens;

typedef struct queens_sol {
    int n;
    int *col; /* col[r] for r = 1..n, 0 if the row is empty */
} queens_sol;

static const ilpm_opt queens_opts[] = {
    {.name = "n",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = QUEENS_MAX_N,
     .flags = ILPM_OPT_INSTANCE,
     .help = "board size; or give a FILE of completions"},
    {.name = "symmetry",
     .type = ILPM_OPT_FLAG,
     .help = "keep one of each mirror pair (boards without pre-placed "
             "queens)"},
    {.name = NULL},
};

static queens *queens_alloc(int n)
{
    queens *q = calloc(1, sizeof *q);
    if (q)
        q->n = n;
    return q;
}

static void queens_free(void *p)
{
    queens *q = p;
    if (q)
        free(q->fixed);
    free(q);
}

static int queens_from_params(const ilpm_params *p, void **inst, ilpm_err *err)
{
    if (!ilpm_params_has(p, "n"))
        return 0;
    long n;
    if (ilpm_params_int(p, queens_opts, "n", &n, err) != 0)
        return -1;
    queens *q = queens_alloc((int)n);
    if (!q)
        return ilpm_err_nomem(err, "out of memory");
    *inst = q;
    return 1;
}

static const char *skip_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Splits a line into one or two numbers; returns how many, or -1 with err on
 * a character that is not a digit. */
static int numbers(ilpm_reader *rd, const char *line, long *v, long *col,
                   ilpm_err *err)
{
    int k = 0;
    const char *s = skip_blank(line);
    while (*s && *s != '#') {
        if (k == 2)
            return ilpm_reader_error(rd, err, (long)(s - line) + 1,
                                     "expected 'row col', found a third "
                                     "field");
        col[k] = (long)(s - line) + 1;
        char shown[8];
        if (ilpm_scan_uint(&s, &v[k]) == 0)
            return ilpm_reader_error(rd, err, col[k],
                                     "expected a number, got %s",
                                     ilpm_show_char(*s, shown, sizeof shown));
        if (*s && *s != ' ' && *s != '\t' && *s != '#')
            return ilpm_reader_error(rd, err, (long)(s - line) + 1,
                                     "expected a number, got %s",
                                     ilpm_show_char(*s, shown, sizeof shown));
        k++;
        s = skip_blank(s);
    }
    return k;
}

/* Skips to the next line holding a single number (the next instance). */
static void skip_instance(ilpm_reader *rd)
{
    const char *line;
    size_t len;
    ilpm_err e;
    for (;;) {
        int r = ilpm_reader_line(rd, &line, &len, &e);
        if (r == 0)
            return;
        if (r < 0)
            continue;
        long v[3], col[3];
        if (numbers(rd, line, v, col, &e) == 1) {
            ilpm_reader_unread(rd);
            return;
        }
    }
}

/* A number v at column col of line that is outside 1..hi, said as the
 * digits were given when too large (a long run reads as LONG_MAX). */
static void out_of_range(ilpm_reader *rd, const char *line, long col, long v,
                         int hi, const char *what, ilpm_err *err)
{
    const char *t = line + col - 1;
    int len = (int)strspn(t, "0123456789");
    if (v > hi)
        ilpm_reader_error(rd, err, col, "%s %.*s is too large (at most %d)",
                          what, len > 40 ? 40 : len, t, hi);
    else
        ilpm_reader_error(rd, err, col, "%s %ld is outside 1..%d", what, v, hi);
}

/* The queen of a line "row column" placed on q: 0, or -1 with err. */
static int add_queen(ilpm_reader *rd, queens *q, const char *line,
                     const long *v, const long *col, ilpm_err *err)
{
    for (int i = 0; i < 2; i++)
        if (v[i] < 1 || v[i] > q->n) {
            out_of_range(rd, line, col[i], v[i], q->n, i ? "column" : "row",
                         err);
            return -1;
        }
    for (int i = 0; i < q->nfixed; i++)
        if (q->fixed[2 * i] == v[0] && q->fixed[2 * i + 1] == v[1]) {
            ilpm_reader_error(rd, err, col[0],
                              "queen at row %ld, column %ld is placed "
                              "twice",
                              v[0], v[1]);
            return -1;
        }
    if (q->nfixed >= q->n) {
        ilpm_reader_error(rd, err, col[0],
                          "more than %d pre-placed queens on a %dx%d "
                          "board",
                          q->n, q->n, q->n);
        return -1;
    }
    if (!q->fixed && !(q->fixed = malloc(2 * (size_t)q->n * sizeof(int))))
        return ilpm_err_nomem(err, "out of memory");
    q->fixed[2 * q->nfixed] = (int)v[0];
    q->fixed[2 * q->nfixed + 1] = (int)v[1];
    q->nfixed++;
    return 0;
}

/* The board of the first line: a new instance, or NULL with err. */
static queens *board(ilpm_reader *rd, const char *line, int k, const long *v,
                     const long *col, ilpm_err *err)
{
    if (k != 1) {
        ilpm_reader_error(rd, err, col[0],
                          "expected the board size n alone on "
                          "the first line");
        return NULL;
    }
    if (v[0] < 1 || v[0] > QUEENS_MAX_N) {
        out_of_range(rd, line, col[0], v[0], QUEENS_MAX_N, "board size", err);
        return NULL;
    }
    queens *q = queens_alloc((int)v[0]);
    if (!q)
        ilpm_err_nomem(err, "out of memory");
    else
        q->line = ilpm_reader_lineno(rd);
    return q;
}

static int queens_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                        ilpm_err *err)
{
    (void)p;
    const char *line;
    size_t len;
    queens *q = NULL;
    int r;
    while ((r = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        if (ilpm_line_is_blank_or_comment(line))
            continue;
        long v[3], col[3];
        int k = numbers(rd, line, v, col, err);
        if (k < 0)
            goto bad;
        if (!q) {
            if (!(q = board(rd, line, k, v, col, err)))
                goto bad;
            continue;
        }
        if (k == 1) { /* the next instance starts here */
            ilpm_reader_unread(rd);
            break;
        }
        if (add_queen(rd, q, line, v, col, err) != 0)
            goto bad;
    }
    if (r < 0)
        goto bad;
    if (!q)
        return 0;
    *inst = q;
    return 1;
bad:
    queens_free(q);
    skip_instance(rd);
    return -1;
}

static void queens_describe(const void *inst, char *buf, size_t size)
{
    const queens *q = inst;
    if (q->line)
        snprintf(buf, size, "n=%d line %ld (%d placed)", q->n, q->line,
                 q->nfixed);
    else
        snprintf(buf, size, "n=%d", q->n);
}

/* Mirror symmetry (column c to n+1-c).  No board of n >= 2 is its own
 * mirror: row 1's queen would stand in the middle column (n odd), and
 * row 2's could not.  So mirroring pairs the boards, and we keep the one
 * whose row 1 queen stands left of the middle, or in the middle with row
 * 2's left of it: 2 col(1) < n+1, or 2 col(1) = n+1 and 2 col(2) < n+1.
 * A pre-placed queen breaks the symmetry: refused there. */
static int kept_mirror(int n, const int *col)
{
    return 2 * col[1] < n + 1 || (2 * col[1] == n + 1 && 2 * col[2] < n + 1);
}

static int add_mirror(const queens *q, int Q, int *l, ilpm_model *m,
                      ilpm_err *err)
{
    int n = q->n, k = 0;
    if (q->nfixed)
        return ilpm_err_input(err, "--symmetry: a board with pre-placed "
                                   "queens has no mirror pair to halve");
    if (n < 2)
        return 0;
    if (ilpm_model_group(m, "symmetry", err) < 0)
        return -1;
    for (int c = 1; 2 * c <= n + 1; c++)
        l[k++] = ilpm_model_var(m, Q, 1, c, 0, 0);
    int rc = ilpm_add_clause(m, l, k, err);
    if (rc != 0 || n % 2 == 0)
        return rc ? -1 : 0;
    /* row 1 in the middle: row 2 left of it */
    k = 0;
    l[k++] = -ilpm_model_var(m, Q, 1, (n + 1) / 2, 0, 0);
    for (int c = 1; 2 * c < n + 1; c++)
        l[k++] = ilpm_model_var(m, Q, 2, c, 0, 0);
    return ilpm_add_clause(m, l, k, err);
}

/* The variable of Q[r, c]: the family's members are numbered row by
 * row from Q[1, 1] (first), as queens_decode reads them too, so that
 * the 4 n^2 terms of the board's lines (100 million on a board of 5000)
 * cost no lookup each. */
static inline int cell(int first, int n, int r, int c)
{
    return first + (r - 1) * n + (c - 1);
}

static int build(const queens *q, int with_givens, ilpm_model *m, ilpm_err *err)
{
    int n = q->n;
    int lo[2] = {1, 1}, hi[2] = {n, n};
    int Q = ilpm_model_family(m, "Q", 2, lo, hi, 0, err);
    if (Q < 0)
        return -1;
    int first = ilpm_model_var(m, Q, 1, 1, 0, 0);
    if (ilpm_model_var(m, Q, n, n, 0, 0) != cell(first, n, n, n) ||
        ilpm_model_var(m, Q, n, 1, 0, 0) != cell(first, n, n, 1))
        return ilpm_err_input(err, "queens: the board's variables are not "
                                   "numbered row by row");
    int *l = malloc((size_t)n * sizeof *l);
    if (!l)
        return ilpm_err_nomem(err, "out of memory");
    int rc = ilpm_model_group(m, "row", err) < 0;
    for (int r = 1; r <= n && !rc; r++) {
        for (int c = 1; c <= n; c++)
            l[c - 1] = cell(first, n, r, c);
        rc = ilpm_add_exo(m, l, n, err);
    }
    rc = rc || ilpm_model_group(m, "col", err) < 0;
    for (int c = 1; c <= n && !rc; c++) {
        for (int r = 1; r <= n; r++)
            l[r - 1] = cell(first, n, r, c);
        rc = ilpm_add_exo(m, l, n, err);
    }
    /* Diagonal d = c - r, anti-diagonal a = r + c; lines of one cell
     * constrain nothing. */
    rc = rc || ilpm_model_group(m, "diag", err) < 0;
    for (int d = -(n - 2); d <= n - 2 && !rc; d++) {
        int k = 0;
        for (int r = 1; r <= n; r++)
            if (r + d >= 1 && r + d <= n)
                l[k++] = cell(first, n, r, r + d);
        rc = ilpm_add_amo(m, l, k, err);
    }
    rc = rc || ilpm_model_group(m, "anti", err) < 0;
    for (int a = 3; a <= 2 * n - 1 && !rc; a++) {
        int k = 0;
        for (int r = 1; r <= n; r++)
            if (a - r >= 1 && a - r <= n)
                l[k++] = cell(first, n, r, a - r);
        rc = ilpm_add_amo(m, l, k, err);
    }
    if (!with_givens) {
        free(l);
        return rc ? -1 : 0;
    }
    if (q->nfixed && !rc)
        rc = ilpm_model_group(m, "givens", err) < 0;
    for (int i = 0; i < q->nfixed && !rc; i++) {
        int v =
            ilpm_model_var(m, Q, q->fixed[2 * i], q->fixed[2 * i + 1], 0, 0);
        rc = ilpm_add_clause(m, &v, 1, err);
    }
    free(l);
    return rc ? -1 : 0;
}

static int queens_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                        ilpm_err *err)
{
    if (build(inst, 1, m, err) != 0)
        return -1;
    if (!ilpm_params_has(p, "symmetry"))
        return 0;
    const queens *q = inst;
    int *l = malloc(((size_t)q->n + 1) * sizeof *l);
    if (!l)
        return ilpm_err_nomem(err, "out of memory");
    int rc = add_mirror(q, ilpm_model_family_find(m, "Q"), l, m, err);
    free(l);
    return rc;
}

/* Completions of one board size share their model; the pre-placed queens
 * become assumptions. */
static int queens_shape(const void *inst, const ilpm_params *p, char *key,
                        size_t size)
{
    /* --symmetry is refused with givens: the plain path says so */
    if (ilpm_params_has(p, "symmetry"))
        return -1;
    snprintf(key, size, "n=%d", ((const queens *)inst)->n);
    return 0;
}

static int queens_build_shape(const void *inst, const ilpm_params *p,
                              ilpm_model *m, ilpm_err *err)
{
    (void)p;
    return build(inst, 0, m, err);
}

static int queens_givens(const void *inst, const ilpm_model *m, int **lits,
                         int *n, ilpm_err *err)
{
    const queens *q = inst;
    int Q = ilpm_model_family_find(m, "Q");
    *n = q->nfixed;
    *lits = malloc(((size_t)q->nfixed + 1) * sizeof **lits);
    if (!*lits)
        return ilpm_err_nomem(err, "out of memory");
    for (int i = 0; i < q->nfixed; i++)
        (*lits)[i] =
            ilpm_model_var(m, Q, q->fixed[2 * i], q->fixed[2 * i + 1], 0, 0);
    return 0;
}

static void *queens_decode(const void *inst, const ilpm_params *p,
                           const ilpm_model *m, const uint8_t *vals,
                           ilpm_err *err)
{
    (void)p;
    const queens *q = inst;
    int Q = ilpm_model_family_find(m, "Q");
    queens_sol *s = calloc(1, sizeof *s);
    if (!s || !(s->col = calloc((size_t)q->n + 1, sizeof *s->col))) {
        free(s);
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    s->n = q->n;
    for (int r = 1; r <= q->n; r++) {
        /* Q[r, 1..n] are consecutive variables: one lookup per row (a
         * count decodes every solution). */
        int first = ilpm_model_var(m, Q, r, 1, 0, 0);
        const uint8_t *row = vals + first - 1;
        for (int c = 1; first && c <= q->n; c++)
            if (row[c]) {
                if (s->col[r]) {
                    free(s->col);
                    free(s);
                    ilpm_err_input(err, "row %d holds two queens", r);
                    return NULL;
                }
                s->col[r] = c;
            }
    }
    return s;
}

/* The rules, checked on the board alone. */
static int queens_verify(const void *inst, const ilpm_params *p,
                         const void *sol, ilpm_err *why)
{
    const queens *q = inst;
    const queens_sol *s = sol;
    if (s->n != q->n)
        return ilpm_err_input(why, "board is %d wide, expected %d", s->n, q->n);
    for (int r = 1; r <= s->n; r++) {
        if (s->col[r] < 1 || s->col[r] > s->n)
            return ilpm_err_input(why, "row %d has no queen", r);
        for (int r2 = 1; r2 < r; r2++) {
            int dc = abs(s->col[r] - s->col[r2]);
            if (dc == 0)
                return ilpm_err_input(why, "rows %d and %d share column %d", r2,
                                      r, s->col[r]);
            if (dc == r - r2)
                return ilpm_err_input(why,
                                      "queens (%d,%d) and (%d,%d) share a "
                                      "diagonal",
                                      r2, s->col[r2], r, s->col[r]);
        }
    }
    for (int i = 0; i < q->nfixed; i++)
        if (s->col[q->fixed[2 * i]] != q->fixed[2 * i + 1])
            return ilpm_err_input(why, "pre-placed queen (%d,%d) was moved",
                                  q->fixed[2 * i], q->fixed[2 * i + 1]);
    if (ilpm_params_has(p, "symmetry") && s->n >= 2 &&
        !kept_mirror(s->n, s->col))
        return ilpm_err_input(why, "--symmetry keeps the mirror of this "
                                   "board, not the board");
    return 0;
}

/* The board a row at a time: one line of n cells made once, its queen
 * set and cleared per row (a board of 5000 is 50 MB of text, which a
 * character at a time took 50 million calls). */
static void queens_render(const void *inst, const void *sol, ilpm_buf *out)
{
    (void)inst;
    const queens_sol *s = sol;
    size_t len = 2 * (size_t)s->n;
    char *line = malloc(len ? len : 1);
    if (!line) {
        out->oom = 1; /* as a failed ilpm_buf_put leaves it */
        return;
    }
    for (size_t i = 0; i < len; i += 2) {
        line[i] = '.';
        line[i + 1] = ' ';
    }
    if (len)
        line[len - 1] = '\n';
    for (int r = 1; r <= s->n; r++) {
        int c = s->col[r];
        int in = c >= 1 && c <= s->n;
        if (in)
            line[2 * (size_t)(c - 1)] = 'Q';
        ilpm_buf_put(out, line, len);
        if (in)
            line[2 * (size_t)(c - 1)] = '.';
    }
    free(line);
}

static void queens_render_json(const void *inst, const void *sol, ilpm_buf *out)
{
    (void)inst;
    const queens_sol *s = sol;
    ilpm_buf_json_ints(out, s->col + 1, s->n, 0); /* col[1..n] */
}

static void queens_sol_free(void *p)
{
    queens_sol *s = p;
    if (s)
        free(s->col);
    free(s);
}

/* ilpm solve queens --help: examples (see puzzle.h). */
static const char *const queens_examples[] = {
    "--n 8", "--n 8 --count --backend sat",
    "data/queens/completion.txt --index 1 --backend cp", NULL};

const ilpm_puzzle ilpm_puzzle_queens = {
    .name = "queens",
    .summary = "n-Queens and n-Queens completion",
    .opts = queens_opts,
    .input_help =
        "queens --n N, or FILE: a line with n, then one 'row col' line per\n"
        "pre-placed queen (1-based); a new line with a single number starts\n"
        "the next instance; '#' starts a comment.  Solution JSON: the column\n"
        "of the queen on each row, top to bottom.",
    .examples = queens_examples,
    .from_params = queens_from_params,
    .parse = queens_parse,
    .free_instance = queens_free,
    .describe = queens_describe,
    .build = queens_build,
    .decode = queens_decode,
    .verify = queens_verify,
    .render = queens_render,
    .render_json = queens_render_json,
    .free_solution = queens_sol_free,
    .shape = queens_shape,
    .build_shape = queens_build_shape,
    .givens = queens_givens,
};
