/* Sudoku of order b = 2..5 (N = b*b: 4x4, 9x9, 16x16, 25x25).
 *
 * P(r,c,v) = cell (r,c) holds value v, all 1-based: the 729 variables of
 * the seed report for 9x9.  Each cell holds exactly one value; givens are
 * unit clauses.  Two formulations of the houses (rows, columns, boxes):
 *  - exact (default): each value exactly once per house;
 *  - atmost: each value at most once per house, as the seed report has it.
 * Both have the same solutions (N cells, N values, each at most once), but
 * "exactly once" is what propagation and GLPK can use: a value left with
 * one place in a house is placed at once (a hidden single), and the rows
 * are equalities: much faster on both back ends (docs/benchmarks.md,
 * "Sudoku formulations").
 * --redundant adds "at least once per row, column and box" to atmost as
 * rows of their own, the two-row form of exact.
 * --segments (with exact) states the houses through segments: for each
 * value, a variable per row-box and column-box intersection (b cells),
 * "the value is in that segment", at most once in it, and exactly one
 * segment per row, column and box; unit propagation then does the
 * pointing and box-line reductions. */
#include "puzzle.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUDOKU_MIN_B 2
#define SUDOKU_MAX_B 5
#define SUDOKU_MAX_N (SUDOKU_MAX_B * SUDOKU_MAX_B)

typedef struct sudoku {
    int b, n;
    long index;     /* puzzle number in its file (1-based), 0 unknown */
    long line;      /* line of the puzzle in its file                 */
    uint8_t *given; /* n*n values row-major, 0 for a blank            */
} sudoku;

typedef struct sudoku_sol {
    int n;
    uint8_t *cell; /* n*n values row-major */
} sudoku_sol;

enum { EXACT, ATMOST };
static const char *const formulations[] = {"exact", "atmost", NULL};

static const ilpm_opt sudoku_opts[] = {
    {.name = "formulation",
     .arg = "F",
     .type = ILPM_OPT_CHOICE,
     .def = "exact",
     .choices = formulations,
     .help = "exact (each value exactly once per row/col/box) or atmost (at "
             "most once, as the seed report)"},
    {.name = "redundant",
     .type = ILPM_OPT_FLAG,
     .help = "with atmost: also each value at least once per row/col/box"},
    {.name = "segments",
     .type = ILPM_OPT_FLAG,
     .help = "with exact: the houses through a variable per value and "
             "row-box (column-box) intersection, exactly one per house"},
    {.name = NULL},
};

static const ilpm_form_opt sudoku_form_opts[] = {
    {"redundant", "atmost", 0},
    {"segments", "exact", 0},
    {NULL, NULL, 0},
};

static void sudoku_free(void *p)
{
    sudoku *s = p;
    if (s)
        free(s->given);
    free(s);
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

static char value_char(int v)
{
    return (char)(v <= 9 ? '0' + v : 'A' + (v - 10));
}

/* Cell character -> value 1..25, 0 for a blank, -1 if not in the
 * alphabet. */
static int cell_value(char ch)
{
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'P')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'p')
        return ch - 'a' + 10;
    return -1;
}

static const char *value_range(int n, char *buf, size_t size)
{
    if (n <= 9)
        snprintf(buf, size, "1-%d", n);
    else
        snprintf(buf, size, "1-9, A-%c", value_char(n));
    return buf;
}

static int order_of(size_t cells)
{
    for (int b = SUDOKU_MIN_B; b <= SUDOKU_MAX_B; b++)
        if ((size_t)b * b * b * b == cells)
            return b;
    return 0;
}

/* Reads cells [from, to) of the line into out (n*n values), checking the
 * alphabet and the range of the order.  what is "" for the puzzle and
 * " in the solution" for the part after ':'. */
static int read_cells(ilpm_reader *rd, const char *line, size_t from, size_t to,
                      int n, int blanks_ok, const char *what, uint8_t *out,
                      ilpm_err *err)
{
    char cb[16], rb[16];
    for (size_t i = from; i < to; i++) {
        int v = cell_value(line[i]);
        long col = (long)i + 1;
        if (v < 0)
            return ilpm_reader_error(rd, err, col,
                                     blanks_ok ? "expected a digit 1-9, A-P "
                                                 "or '.'%s, got %s"
                                               : "expected a digit 1-9 or "
                                                 "A-P%s, got %s",
                                     what,
                                     ilpm_show_char(line[i], cb, sizeof cb));
        if (v == 0 && !blanks_ok)
            return ilpm_reader_error(rd, err, col,
                                     "blank cell r%dc%d%s: a solution "
                                     "fills every cell",
                                     (int)(i - from) / n + 1,
                                     (int)(i - from) % n + 1, what);
        if (v > n)
            return ilpm_reader_error(rd, err, col,
                                     "value %s (%d)%s is out of range for "
                                     "a %dx%d grid (%s)",
                                     ilpm_show_char(line[i], cb, sizeof cb), v,
                                     what, n, n, value_range(n, rb, sizeof rb));
        out[i - from] = (uint8_t)v;
    }
    return 0;
}

/* The first given that repeats an earlier one in its row, column or box:
 * reported at the later cell, naming both. */
static int check_givens(ilpm_reader *rd, const sudoku *s, size_t from,
                        ilpm_err *err)
{
    int n = s->n, b = s->b;
    for (int i = 0; i < n * n; i++) {
        int v = s->given[i];
        if (!v)
            continue;
        int r = i / n, c = i % n;
        for (int j = 0; j < i; j++) {
            if (s->given[j] != v)
                continue;
            int r2 = j / n, c2 = j % n;
            const char *house = r2 == r   ? "row"
                                : c2 == c ? "column"
                                : (r2 / b == r / b && c2 / b == c / b) ? "box"
                                                                       : NULL;
            if (house)
                return ilpm_reader_error(rd, err, (long)(from + i) + 1,
                                         "given %c at r%dc%d repeats the "
                                         "%c at r%dc%d (same %s)",
                                         value_char(v), r + 1, c + 1,
                                         value_char(v), r2 + 1, c2 + 1, house);
        }
    }
    return 0;
}

static int parse_line(ilpm_reader *rd, const char *line, size_t len, sudoku *s,
                      ilpm_err *err)
{
    size_t a = 0, e = len;
    while (a < e && (line[a] == ' ' || line[a] == '\t'))
        a++;
    while (e > a && (line[e - 1] == ' ' || line[e - 1] == '\t'))
        e--;
    const char *colon = memchr(line + a, ':', e - a);
    size_t cpos = colon ? (size_t)(colon - line) : e;

    /* Characters first: a stray byte is a clearer message than a count. */
    char cb[16];
    for (size_t i = a; i < cpos; i++)
        if (cell_value(line[i]) < 0)
            return ilpm_reader_error(rd, err, (long)i + 1,
                                     "expected a digit 1-9, A-P or '.', "
                                     "got %s",
                                     ilpm_show_char(line[i], cb, sizeof cb));
    size_t cells = cpos - a;
    int b = order_of(cells);
    if (!b)
        return ilpm_reader_error(rd, err, (long)cpos + 1,
                                 "expected 16, 81, 256 or 625 cells, got "
                                 "%zu",
                                 cells);
    s->b = b;
    s->n = b * b;
    size_t nn = (size_t)s->n * s->n;
    if (!(s->given = malloc(nn)))
        return ilpm_err_nomem(err, "out of memory");
    if (read_cells(rd, line, a, cpos, s->n, 1, "", s->given, err) != 0 ||
        check_givens(rd, s, a, err) != 0)
        return -1;
    if (!colon)
        return 0;

    /* puzzle:solution, the format of the solutions files.  The solution
     * is checked for form and against the givens here; verify() judges a
     * solver's grid by the rules alone, and the tests compare it with the
     * text after ':'. */
    size_t sa = cpos + 1;
    if (e - sa != nn)
        return ilpm_reader_error(rd, err, (long)e + 1,
                                 "expected %zu cells after ':', got %zu", nn,
                                 e - sa);
    uint8_t *expect = malloc(nn);
    if (!expect)
        return ilpm_err_nomem(err, "out of memory");
    int rc =
        read_cells(rd, line, sa, e, s->n, 0, " in the solution", expect, err);
    for (size_t i = 0; i < nn && rc == 0; i++)
        if (s->given[i] && s->given[i] != expect[i])
            rc = ilpm_reader_error(rd, err, (long)(sa + i) + 1,
                                   "the solution puts %c at r%dc%d where "
                                   "the puzzle gives %c",
                                   value_char(expect[i]), (int)i / s->n + 1,
                                   (int)i % s->n + 1, value_char(s->given[i]));
    free(expect);
    return rc;
}

static int sudoku_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                        ilpm_err *err)
{
    (void)p;
    const char *line;
    size_t len;
    int r;
    while ((r = ilpm_reader_line(rd, &line, &len, err)) != 0) {
        if (r > 0 && ilpm_line_is_blank_or_comment(line))
            continue;
        /* An unreadable line (NUL byte, too long) is a puzzle too: the
         * reader already stands past it. */
        if (r < 0)
            return -1;
        sudoku *s = calloc(1, sizeof *s);
        if (!s)
            return ilpm_err_nomem(err, "out of memory");
        s->index = ilpm_reader_index(rd);
        s->line = ilpm_reader_lineno(rd);
        /* One puzzle per line: after an error the reader already stands
         * past the bad puzzle. */
        if (parse_line(rd, line, len, s, err) != 0) {
            sudoku_free(s);
            return -1;
        }
        *inst = s;
        return 1;
    }
    return 0;
}

static void sudoku_describe(const void *inst, char *buf, size_t size)
{
    const sudoku *s = inst;
    if (s->index > 0)
        snprintf(buf, size, "#%ld", s->index);
    else
        snprintf(buf, size, "line %ld", s->line);
}

/* ------------------------------------------------------------------ */
/* Model                                                                */

enum house { ROW, COL, BOX };

/* The N variables of value v in house h (0-based) of the given kind. */
static void house_lits(const ilpm_model *m, int P, int b, enum house kind,
                       int h, int v, int *lits)
{
    int n = b * b;
    for (int i = 0; i < n; i++) {
        int r, c;
        switch (kind) {
        case ROW:
            r = h, c = i;
            break;
        case COL:
            r = i, c = h;
            break;
        default:
            r = (h / b) * b + i / b, c = (h % b) * b + i % b;
            break;
        }
        lits[i] = ilpm_model_var(m, P, r + 1, c + 1, v, 0);
    }
}

/* One constraint of the given kind per house and value. */
static int add_houses(ilpm_model *m, int P, int b, enum house kind,
                      const char *group, ilpm_kind con, ilpm_err *err)
{
    int n = b * b;
    int lits[SUDOKU_MAX_N];
    if (ilpm_model_group(m, group, err) < 0)
        return -1;
    for (int h = 0; h < n; h++)
        for (int v = 1; v <= n; v++) {
            house_lits(m, P, b, kind, h, v, lits);
            if ((con == ILPM_ALO   ? ilpm_add_alo(m, lits, n, err)
                 : con == ILPM_EXO ? ilpm_add_exo(m, lits, n, err)
                                   : ilpm_add_amo(m, lits, n, err)) != 0)
                return -1;
        }
    return 0;
}

/* Each house as a matching group of its cells x values (cp's Hall sets);
 * P numbered cell by cell, digits within a cell, as families are. */
static int add_matchings(ilpm_model *m, int P, int b, ilpm_err *err)
{
    int n = b * b, x[SUDOKU_MAX_N * SUDOKU_MAX_N];
    int p0 = ilpm_model_var(m, P, 1, 1, 1, 0);
    for (int kind = ROW; kind <= BOX; kind++)
        for (int h = 0; h < n; h++) {
            for (int i = 0; i < n; i++) {
                int r = kind == ROW ? h : kind == COL ? i : h / b * b + i / b;
                int c = kind == ROW ? i : kind == COL ? h : h % b * b + i % b;
                for (int v = 0; v < n; v++)
                    x[i * n + v] = p0 + (r * n + c) * n + v;
            }
            if (ilpm_model_matching(m, x, n, n, err) < 0)
                return -1;
        }
    return 0;
}

/* The b cells of segment g (0..b-1) of row (kind ROW) or column h. */
static void segment_lits(const ilpm_model *m, int P, int b, enum house kind,
                         int h, int g, int v, int *lits)
{
    for (int i = 0; i < b; i++)
        lits[i] = kind == ROW
                      ? ilpm_model_var(m, P, h + 1, g * b + i + 1, v, 0)
                      : ilpm_model_var(m, P, g * b + i + 1, h + 1, v, 0);
}

/* S[h,g,v] <-> value v in segment g of row (column) h, and v at most
 * once in the segment: S is the sum of its cells. */
static int link_segments(ilpm_model *m, int P, int S, int b, enum house kind,
                         ilpm_err *err)
{
    int n = b * b, lits[SUDOKU_MAX_B + 1];
    for (int h = 0; h < n; h++)
        for (int g = 0; g < b; g++)
            for (int v = 1; v <= n; v++) {
                int s = ilpm_model_var(m, S, h + 1, g + 1, v, 0);
                segment_lits(m, P, b, kind, h, g, v, lits);
                for (int i = 0; i < b; i++)
                    if (ilpm_add_impl(m, lits[i], s, err) != 0)
                        return -1;
                if (ilpm_add_amo(m, lits, b, err) != 0)
                    return -1;
                lits[b] = -s;
                if (ilpm_add_clause(m, lits, b + 1, err) != 0)
                    return -1;
            }
    return 0;
}

/* Exactly one segment of value v per row (column) and per box. */
static int segment_houses(ilpm_model *m, int S, int b, ilpm_err *err)
{
    int n = b * b, lits[SUDOKU_MAX_B];
    for (int h = 0; h < n; h++)
        for (int v = 1; v <= n; v++) {
            for (int g = 0; g < b; g++)
                lits[g] = ilpm_model_var(m, S, h + 1, g + 1, v, 0);
            if (ilpm_add_exo(m, lits, b, err) != 0)
                return -1;
        }
    /* box (band t, stack g): its b lines' segments g */
    for (int t = 0; t < b; t++)
        for (int g = 0; g < b; g++)
            for (int v = 1; v <= n; v++) {
                for (int i = 0; i < b; i++)
                    lits[i] = ilpm_model_var(m, S, t * b + i + 1, g + 1, v, 0);
                if (ilpm_add_exo(m, lits, b, err) != 0)
                    return -1;
            }
    return 0;
}

/* --segments: families RS (row segments) and CS (column segments), in
 * place of the rows, columns and boxes over the cells: two cells of a
 * house in two segments would put two segments at 1. */
static int add_segments(ilpm_model *m, int P, int b, ilpm_err *err)
{
    int n = b * b, lo[3] = {1, 1, 1}, hi[3] = {n, b, n};
    int RS = ilpm_model_family(m, "RS", 3, lo, hi, ILPM_FAM_AUX, err);
    int CS = ilpm_model_family(m, "CS", 3, lo, hi, ILPM_FAM_AUX, err);
    if (RS < 0 || CS < 0 || ilpm_model_group(m, "segment", err) < 0 ||
        link_segments(m, P, RS, b, ROW, err) != 0 ||
        link_segments(m, P, CS, b, COL, err) != 0 ||
        ilpm_model_group(m, "seg_house", err) < 0 ||
        segment_houses(m, RS, b, err) != 0 ||
        segment_houses(m, CS, b, err) != 0)
        return -1;
    return 0;
}

/* The formulation asked for, and whether --redundant (--segments) goes
 * with it. */
static int formulation(const ilpm_params *p, int *form, ilpm_err *err)
{
    if (ilpm_params_choice(p, sudoku_opts, "formulation", form, err) != 0)
        return -1;
    if (*form == EXACT && ilpm_params_has(p, "redundant"))
        return ilpm_err_input(err,
                              "sudoku: --redundant adds at-least-once rows to "
                              "--formulation atmost; exact has each value "
                              "exactly once per house already");
    if (*form == ATMOST && ilpm_params_has(p, "segments"))
        return ilpm_err_input(err, "sudoku: --segments states the houses "
                                   "exactly once; it goes with --formulation "
                                   "exact, not atmost");
    return 0;
}

static int build(const sudoku *s, const ilpm_params *p, int with_givens,
                 ilpm_model *m, ilpm_err *err)
{
    int n = s->n, b = s->b, form;
    if (formulation(p, &form, err) != 0)
        return -1;
    int lo[3] = {1, 1, 1}, hi[3] = {n, n, n};
    int P = ilpm_model_family(m, "P", 3, lo, hi, 0, err);
    if (P < 0 || ilpm_model_group(m, "cell", err) < 0)
        return -1;
    /* P is numbered cell by cell, digits within a cell: GLPK branching on
     * the first fractional variable fills the grid in reading order, as
     * a person would, faster than the most fractional rule
     * (docs/benchmarks.md, "GLPK branching"). */
    ilpm_model_set_hint(m, ILPM_HINT_INPUT);
    int lits[SUDOKU_MAX_N];
    for (int r = 1; r <= n; r++)
        for (int c = 1; c <= n; c++) {
            for (int v = 1; v <= n; v++)
                lits[v - 1] = ilpm_model_var(m, P, r, c, v, 0);
            if (ilpm_add_exo(m, lits, n, err) != 0)
                return -1;
        }
    /* The box groups repeat, for each value, the pairs of a box that
     * share a row or a column (2*b*C(b,2) of the C(n,2) pairs: 18 of 36
     * for 9x9).  One whole-box row is what the ILP wants; under pairwise
     * CNF those pairs become 1458 duplicate binary clauses for 9x9, which
     * the seed report's count (10287) leaves out. */
    ilpm_kind house = form == EXACT ? ILPM_EXO : ILPM_AMO;
    if (ilpm_params_has(p, "segments")) {
        if (add_segments(m, P, b, err) != 0)
            return -1;
    } else if (add_houses(m, P, b, ROW, "row", house, err) != 0 ||
               add_houses(m, P, b, COL, "col", house, err) != 0 ||
               add_houses(m, P, b, BOX, "box", house, err) != 0)
        return -1;
    if (add_matchings(m, P, b, err) != 0)
        return -1;
    if (ilpm_params_has(p, "redundant") &&
        (add_houses(m, P, b, ROW, "row_alo", ILPM_ALO, err) != 0 ||
         add_houses(m, P, b, COL, "col_alo", ILPM_ALO, err) != 0 ||
         add_houses(m, P, b, BOX, "box_alo", ILPM_ALO, err) != 0))
        return -1;
    if (!with_givens)
        return 0;
    int any = 0;
    for (int i = 0; i < n * n; i++) {
        if (!s->given[i])
            continue;
        if (!any++ && ilpm_model_group(m, "givens", err) < 0)
            return -1;
        int v = ilpm_model_var(m, P, i / n + 1, i % n + 1, s->given[i], 0);
        if (ilpm_add_clause(m, &v, 1, err) != 0)
            return -1;
    }
    return 0;
}

static int sudoku_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                        ilpm_err *err)
{
    return build(inst, p, 1, m, err);
}

/* 4x4 and 9x9 puzzles of one order share their model in a batch; the
 * givens become assumptions.  That pays where building is a large part
 * of a run.  From 16x16 on, the search is, and a model of the puzzle's
 * own propagated givens wins, as CaDiCaL can simplify with unit clauses
 * but not with assumptions (figures: docs/benchmarks.md, "Batches"). */
static int sudoku_shape(const void *inst, const ilpm_params *p, char *key,
                        size_t size)
{
    int form;
    if (((const sudoku *)inst)->b > 3 || formulation(p, &form, NULL) != 0)
        return -1;
    snprintf(key, size, "b=%d %s%s%s", ((const sudoku *)inst)->b,
             formulations[form],
             ilpm_params_has(p, "redundant") ? " redundant" : "",
             ilpm_params_has(p, "segments") ? " segments" : "");
    return 0;
}

static int sudoku_build_shape(const void *inst, const ilpm_params *p,
                              ilpm_model *m, ilpm_err *err)
{
    return build(inst, p, 0, m, err);
}

static int sudoku_givens(const void *inst, const ilpm_model *m, int **lits,
                         int *n, ilpm_err *err)
{
    const sudoku *s = inst;
    int P = ilpm_model_family_find(m, "P");
    *lits = malloc(((size_t)s->n * s->n + 1) * sizeof **lits);
    if (!*lits)
        return ilpm_err_nomem(err, "out of memory");
    *n = 0;
    for (int i = 0; i < s->n * s->n; i++)
        if (s->given[i])
            (*lits)[(*n)++] = ilpm_model_var(m, P, i / s->n + 1, i % s->n + 1,
                                             s->given[i], 0);
    return 0;
}

static void *sudoku_decode(const void *inst, const ilpm_params *p,
                           const ilpm_model *m, const uint8_t *vals,
                           ilpm_err *err)
{
    (void)p;
    const sudoku *s = inst;
    int n = s->n;
    int P = ilpm_model_family_find(m, "P");
    if (P < 0) {
        ilpm_err_input(err, "the model has no family P");
        return NULL;
    }
    sudoku_sol *sol = calloc(1, sizeof *sol);
    if (!sol || !(sol->cell = calloc((size_t)n * n, 1))) {
        free(sol);
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    sol->n = n;
    for (int r = 1; r <= n; r++)
        for (int c = 1; c <= n; c++) {
            int found = 0;
            for (int v = 1; v <= n; v++)
                if (vals[ilpm_model_var(m, P, r, c, v, 0)]) {
                    found++;
                    sol->cell[(r - 1) * n + (c - 1)] = (uint8_t)v;
                }
            if (found != 1) {
                ilpm_err_input(err, "cell r%dc%d has %d values", r, c, found);
                free(sol->cell);
                free(sol);
                return NULL;
            }
        }
    return sol;
}

/* The rules on the grid alone: each house holds n distinct values in
 * 1..n (hence each value exactly once), and every given is kept. */
static int sudoku_verify(const void *inst, const ilpm_params *p,
                         const void *vsol, ilpm_err *why)
{
    (void)p;
    const sudoku *s = inst;
    const sudoku_sol *sol = vsol;
    int n = s->n, b = s->b;
    if (sol->n != n)
        return ilpm_err_input(why, "grid is %dx%d, expected %dx%d", sol->n,
                              sol->n, n, n);
    for (int i = 0; i < n * n; i++) {
        if (sol->cell[i] < 1 || sol->cell[i] > n)
            return ilpm_err_input(why, "r%dc%d holds %d, outside 1..%d",
                                  i / n + 1, i % n + 1, sol->cell[i], n);
        if (s->given[i] && sol->cell[i] != s->given[i])
            return ilpm_err_input(
                why, "r%dc%d is %c but the puzzle gives %c", i / n + 1,
                i % n + 1, value_char(sol->cell[i]), value_char(s->given[i]));
    }
    static const char *const names[3] = {"row", "column", "box"};
    for (int kind = 0; kind < 3; kind++)
        for (int h = 0; h < n; h++) {
            int where[SUDOKU_MAX_N + 1] = {0}; /* 1 + cell index */
            for (int i = 0; i < n; i++) {
                int r, c;
                if (kind == 0)
                    r = h, c = i;
                else if (kind == 1)
                    r = i, c = h;
                else
                    r = (h / b) * b + i / b, c = (h % b) * b + i % b;
                int v = sol->cell[r * n + c];
                if (where[v]) {
                    int j = where[v] - 1;
                    return ilpm_err_input(why,
                                          "%s %d holds %c twice (r%dc%d and "
                                          "r%dc%d)",
                                          names[kind], h + 1, value_char(v),
                                          j / n + 1, j % n + 1, r + 1, c + 1);
                }
                where[v] = r * n + c + 1;
            }
        }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                               */

static void sudoku_render(const void *inst, const void *vsol, ilpm_buf *out)
{
    const sudoku *s = inst;
    const sudoku_sol *sol = vsol;
    int n = sol->n, b = s->b;
    for (int r = 0; r < n; r++) {
        if (r > 0 && r % b == 0) {
            for (int bc = 0; bc < b; bc++) {
                int w = 2 * b + (bc > 0 && bc < b - 1);
                for (int i = 0; i < w; i++)
                    ilpm_buf_putc(out, '-');
                if (bc < b - 1)
                    ilpm_buf_putc(out, '+');
            }
            ilpm_buf_putc(out, '\n');
        }
        for (int c = 0; c < n; c++) {
            if (c > 0)
                ilpm_buf_puts(out, c % b == 0 ? " | " : " ");
            ilpm_buf_putc(out, value_char(sol->cell[r * n + c]));
        }
        ilpm_buf_putc(out, '\n');
    }
}

static void sudoku_render_json(const void *inst, const void *vsol,
                               ilpm_buf *out)
{
    (void)inst;
    const sudoku_sol *sol = vsol;
    int nn = sol->n * sol->n;
    char *str = malloc((size_t)nn + 1);
    if (!str) {
        out->oom = 1;
        return;
    }
    for (int i = 0; i < nn; i++)
        str[i] = value_char(sol->cell[i]);
    str[nn] = '\0';
    ilpm_buf_json_str(out, str);
    free(str);
}

static void sudoku_sol_free(void *p)
{
    sudoku_sol *s = p;
    if (s)
        free(s->cell);
    free(s);
}

/* ilpm solve sudoku --help: examples (see puzzle.h). */
static const char *const sudoku_examples[] = {
    "data/sudoku/norvig_top95.txt --index 1",
    "data/sudoku/norvig_top95.txt --index 2 --count --limit 2",
    "data/sudoku/gecode_16x16.txt --index 1 --backend sat --format json", NULL};

const ilpm_puzzle ilpm_puzzle_sudoku = {
    .name = "sudoku",
    .summary = "Sudoku 4x4, 9x9, 16x16 and 25x25",
    .opts = sudoku_opts,
    .input_help =
        "FILE: one puzzle per line, row-major, 16, 81, 256 or 625 cells\n"
        "(the length gives the order): '.' or '0' for a blank, '1'-'9', then\n"
        "'A'-'P' (or 'a'-'p') for 10-25.  A line 'puzzle:solution' is also\n"
        "read (the solution is checked against the givens); '#' starts a\n"
        "comment line.  Solution JSON: the grid as one string, row-major,\n"
        "in the same alphabet.",
    .examples = sudoku_examples,
    .from_params = NULL,
    .formulations = formulations,
    .form_opts = sudoku_form_opts,
    .parse = sudoku_parse,
    .free_instance = sudoku_free,
    .describe = sudoku_describe,
    .build = sudoku_build,
    .decode = sudoku_decode,
    .verify = sudoku_verify,
    .render = sudoku_render,
    .render_json = sudoku_render_json,
    .free_solution = sudoku_sol_free,
    .shape = sudoku_shape,
    .build_shape = sudoku_build_shape,
    .givens = sudoku_givens,
};
