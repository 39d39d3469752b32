/* Tetravex: place n*n square tiles, each with a digit 0-9 on every side
 * and never rotated, on an n x n board so that touching sides carry the
 * same digit.
 *
 * Identical tiles are merged into tile types first, and every
 * formulation is over X(r,c,k) = a tile of type k on cell (r,c): each
 * cell holds one type, each type k fills exactly mult(k) cells.  A board
 * then has exactly one assignment, so counting counts distinct boards and
 * no symmetry between twin tiles is left to break (per-tile variables
 * would count every permutation of the twins).  The matching rule is
 * stated three ways (--formulation):
 *  - assign (default): support clauses, X(c,k) -> OR of the compatible
 *    types on the neighbouring cell, in both directions;
 *  - conflict: X(c,k) + X(c',k') <= 1 for every incompatible pair, the
 *    direct SAT encoding;
 *  - edges: a digit per inner edge (AUX families EH, EV) channelled
 *    both ways to the tiles on its two cells; grows with the digits,
 *    not with pairs of tiles.
 * Input: native (the seed report's [left, up, right, down]), epita
 * (top, left, right, bottom; ' @' pins a tile) and motyak (the
 * 'width height' header). */
#include "puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TVX_MAX_N 20
#define TVX_MAX_TILES (TVX_MAX_N * TVX_MAX_N)

enum { LEFT, UP, RIGHT, DOWN };
enum { FMT_NATIVE, FMT_EPITA, FMT_MOTYAK };
enum { ASSIGN, CONFLICT, EDGES };

static const char *const input_formats[] = {"native", "epita", "motyak", NULL};
static const char *const formulations[] = {"assign", "conflict", "edges", NULL};

typedef struct tetravex {
    int n, ntiles;
    uint8_t (*side)[4]; /* ntiles tiles as [left, up, right, down]     */
    int *fixed;         /* fixed[t]: the cell tile t must take, or -1 */
    int nfixed;
    long line; /* first line of the instance in its file         */
    /* Identical tiles merged: type[t] in 0..ntypes-1, numbered in order
     * of first appearance; mult[k] tiles of type k, rep[k] the first. */
    int ntypes;
    int *type, *mult, *rep;
} tetravex;

typedef struct tvx_sol {
    int n;
    int *tile; /* n*n tile indices (0-based) row-major, -1 for none */
} tvx_sol;

static const ilpm_opt_spec tvx_opts[] = {
    {"formulation", "F",
     "assign (support clauses, default), conflict (pairwise) or edges",
     ILPM_OPT_CHOICE, 0, 0, formulations, 0},
    {"input-format", "FMT", "native (default), epita or motyak (see input)",
     ILPM_OPT_CHOICE, 0, 0, input_formats, 0},
    {"diag", NULL,
     "also the 2x2 rule: a type on one diagonal cell of a 2x2 block needs "
     "one on the other that two middle tiles complete",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {NULL, NULL, NULL, 0, 0, 0, NULL, 0},
};

static const ilpm_opt_spec tvx_gen_opts[] = {
    {"n", "N", "board size (1 to 20), required", ILPM_OPT_INT, 1, TVX_MAX_N,
     NULL, 0},
    {"seed", "S", "random seed (default 1)", ILPM_OPT_INT, 0, 0x7fffffffL,
     NULL, 0},
    {"digits", "D", "digits 0..D-1 on the sides (1 to 10, default 10)",
     ILPM_OPT_INT, 1, 10, NULL, 0},
    {"count", "C", "number of boards (default 1; native and motyak only)",
     ILPM_OPT_INT, 1, 1000, NULL, 0},
    {"unsolvable", NULL,
     "change one side of one tile until solving proves no solution",
     ILPM_OPT_FLAG, 0, 0, NULL, 0},
    {"input-format", "FMT", "native (default), epita or motyak",
     ILPM_OPT_CHOICE, 0, 0, input_formats, 0},
    {NULL, NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ------------------------------------------------------------------ */
/* Instances                                                            */

static void tvx_free(void *p)
{
    tetravex *tv = p;
    if (tv) {
        free(tv->side);
        free(tv->fixed);
        free(tv->type);
        free(tv->mult);
        free(tv->rep);
    }
    free(tv);
}

/* An instance with room for cap tiles, none read yet. */
static tetravex *tvx_alloc(int cap)
{
    tetravex *tv = calloc(1, sizeof *tv);
    if (!tv)
        return NULL;
    tv->side = malloc((size_t)cap * sizeof *tv->side);
    tv->fixed = malloc((size_t)cap * sizeof *tv->fixed);
    if (!tv->side || !tv->fixed) {
        tvx_free(tv);
        return NULL;
    }
    return tv;
}

/* Merges identical tiles into types.  Quadratic, but boards are small
 * (at most 400 tiles). */
static int classify(tetravex *tv)
{
    int t = tv->ntiles;
    tv->type = malloc((size_t)t * sizeof *tv->type);
    tv->mult = calloc((size_t)t, sizeof *tv->mult);
    tv->rep = malloc((size_t)t * sizeof *tv->rep);
    if (!tv->type || !tv->mult || !tv->rep)
        return -1;
    tv->ntypes = 0;
    for (int i = 0; i < t; i++) {
        int k = 0;
        while (k < tv->ntypes &&
               memcmp(tv->side[tv->rep[k]], tv->side[i], 4) != 0)
            k++;
        if (k == tv->ntypes)
            tv->rep[tv->ntypes++] = i;
        tv->type[i] = k;
        tv->mult[k]++;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */

/* A run of digits on a line: its 1-based column, length and value
 * (held at LONG_MAX, so that a long run is still "too large"). */
typedef struct tok {
    long col;
    int len;
    long val;
} tok;

#define MAX_TOKS 8

/* Splits a line into runs of digits separated by blanks, up to a '#'
 * comment.  An '@' is noted in *at (its column) and only blanks may
 * follow it.  Returns the number of runs (the first MAX_TOKS are kept),
 * or -1 with err on any other character.  *end is the column just past
 * the last run. */
static int split(ilpm_reader *rd, const char *line, tok *t, long *at, long *end,
                 ilpm_err *err)
{
    char cb[16];
    int k = 0;
    const char *s = line;
    *at = 0;
    *end = 1;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            return k;
        long col = (long)(s - line) + 1;
        if (*at)
            return ilpm_reader_error(rd, err, col,
                                     "unexpected %s after '@' (only a "
                                     "comment may follow)",
                                     ilpm_show_char(*s, cb, sizeof cb));
        if (*s == '@') {
            *at = col;
            s++;
            continue;
        }
        if (*s < '0' || *s > '9')
            return ilpm_reader_error(rd, err, col,
                                     "expected a digit 0-9, got %s",
                                     ilpm_show_char(*s, cb, sizeof cb));
        tok x = {col, 0, 0};
        x.len = ilpm_scan_uint(&s, &x.val);
        if (k < MAX_TOKS)
            t[k] = x;
        k++;
        *end = (long)(s - line) + 1;
    }
}

static const char *const side_names[] = {"left", "up", "right", "down"};

/* Reads one tile line.  order[i] is the side (LEFT...) the i-th number of
 * the line gives.  Four digits either written together ("5304") or as
 * four numbers ("5 3 0 4").  *at is the column of an '@', 0 if none. */
static int read_tile(ilpm_reader *rd, const char *line, const int *order,
                     const char *layout, uint8_t out[4], long *at,
                     ilpm_err *err)
{
    tok t[MAX_TOKS];
    long end;
    int k = split(rd, line, t, at, &end, err);
    if (k < 0)
        return -1;
    if (k == 1 && t[0].len > 1) { /* the compact form: one digit a side */
        if (t[0].len != 4)
            return ilpm_reader_error(rd, err, t[0].col,
                                     "a tile has 4 sides (%s), got %d "
                                     "digits",
                                     layout, t[0].len);
        for (int i = 0; i < 4; i++)
            out[order[i]] = (uint8_t)(line[t[0].col - 1 + i] - '0');
        return 0;
    }
    for (int i = 0; i < k && i < 4; i++)
        if (t[i].val > 9)
            return ilpm_reader_error(
                rd, err, t[i].col, "%s side %.*s is not a digit 0-9",
                side_names[order[i]], t[i].len, line + t[i].col - 1);
    if (k > 4)
        return ilpm_reader_error(
            rd, err, t[4].col, "a tile has 4 sides (%s), got a fifth", layout);
    if (k < 4)
        return ilpm_reader_error(rd, err, end,
                                 "a tile has 4 sides (%s), got %d", layout, k);
    for (int i = 0; i < 4; i++)
        out[order[i]] = (uint8_t)t[i].val;
    return 0;
}

static int is_blank(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return *line == '\0';
}

/* Skips the rest of the instance: up to a blank line or the end. */
static void skip_instance(ilpm_reader *rd)
{
    const char *line;
    size_t len;
    ilpm_err e;
    int r;
    while ((r = ilpm_reader_line(rd, &line, &len, &e)) != 0)
        if (r > 0 && is_blank(line))
            return;
}

static void drain(ilpm_reader *rd)
{
    const char *line;
    size_t len;
    ilpm_err e;
    while (ilpm_reader_line(rd, &line, &len, &e) != 0)
        ;
}

static const int order_lurd[4] = {LEFT, UP, RIGHT, DOWN};
static const int order_ulrd[4] = {UP, LEFT, RIGHT, DOWN};

/* The header of a native or motyak instance: the board size n. */
static int read_header(ilpm_reader *rd, const char *line, int fmt, int *n,
                       long *ncol, ilpm_err *err)
{
    tok t[MAX_TOKS];
    long at, end;
    int k = split(rd, line, t, &at, &end, err);
    if (k < 0)
        return -1;
    if (at)
        return ilpm_reader_error(rd, err, at,
                                 "'@' (a tile in place) is only allowed "
                                 "with --input-format epita");
    if (fmt == FMT_NATIVE && k != 1)
        return ilpm_reader_error(rd, err, k ? t[0].col : 1,
                                 "expected the board size N alone on the "
                                 "first line%s",
                                 k == 2 ? " ('width height' is --input-format "
                                          "motyak)"
                                 : k == 4 ? " (tiles alone are --input-format "
                                            "epita)"
                                          : "");
    if (fmt == FMT_MOTYAK && k != 2)
        return ilpm_reader_error(rd, err, k ? t[0].col : 1,
                                 "expected 'width height' on the first "
                                 "line");
    for (int i = 0; i < k; i++)
        if (t[i].val < 1 || t[i].val > TVX_MAX_N)
            return ilpm_reader_error(
                rd, err, t[i].col, "%s %.*s is outside 1..%d%s",
                fmt == FMT_NATIVE ? "board size"
                : i == 0          ? "width"
                                  : "height",
                t[i].len, line + t[i].col - 1, TVX_MAX_N,
                fmt == FMT_NATIVE && t[i].len == 4
                    ? " (tiles alone are --input-format epita)"
                    : "");
    if (k == 2 && t[0].val != t[1].val)
        return ilpm_reader_error(rd, err, t[1].col,
                                 "width %ld and height %ld differ: a "
                                 "Tetravex board is square",
                                 t[0].val, t[1].val);
    *n = (int)t[0].val;
    *ncol = t[0].col;
    return 0;
}

/* native and motyak: a header, then n*n tile lines; a blank line or the
 * end of input ends the instance. */
static int parse_sized(ilpm_reader *rd, int fmt, void **inst, ilpm_err *err)
{
    const char *line;
    size_t len;
    int r, n = 0, ended = 0;
    long ncol = 0;
    tetravex *tv = NULL;
    while ((r = ilpm_reader_line(rd, &line, &len, err)) == 1)
        if (!ilpm_line_is_blank_or_comment(line))
            break;
    if (r == 0)
        return 0;
    if (r < 0 || read_header(rd, line, fmt, &n, &ncol, err) != 0)
        goto bad;
    if (!(tv = tvx_alloc(n * n))) {
        ilpm_err_set(err, "out of memory");
        goto bad;
    }
    tv->n = n;
    tv->line = ilpm_reader_lineno(rd);
    const char *layout = "left up right down";
    while ((r = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        if (is_blank(line)) {
            ended = 1;
            break;
        }
        if (ilpm_line_is_blank_or_comment(line))
            continue;
        if (tv->ntiles == n * n) {
            ilpm_reader_error(rd, err, 1,
                              "a %dx%d board has %d tiles, this is one "
                              "more (a blank line separates instances)",
                              n, n, n * n);
            goto bad;
        }
        long at;
        if (read_tile(rd, line, order_lurd, layout, tv->side[tv->ntiles], &at,
                      err) != 0)
            goto bad;
        if (at) {
            ilpm_reader_error(rd, err, at,
                              "'@' (a tile in place) is only allowed with "
                              "--input-format epita");
            goto bad;
        }
        tv->fixed[tv->ntiles++] = -1;
    }
    if (r < 0)
        goto bad;
    ended = 1;
    if (tv->ntiles < n * n) {
        ilpm_reader_error_at(rd, err, tv->line, ncol,
                             "a %dx%d board needs %d tiles, got %d", n, n,
                             n * n, tv->ntiles);
        goto bad;
    }
    if (classify(tv) != 0) {
        ilpm_err_set(err, "out of memory");
        goto bad;
    }
    *inst = tv;
    return 1;
bad:
    tvx_free(tv);
    if (!ended)
        skip_instance(rd);
    return -1;
}

static int isqrt_exact(int t)
{
    for (int n = 1; n * n <= t; n++)
        if (n * n == t)
            return n;
    return 0;
}

/* epita: one tile per line (top left right bottom) up to the end of the
 * file, n*n of them; ' @' pins a tile to the cell of its own index. */
static int parse_epita(ilpm_reader *rd, void **inst, ilpm_err *err)
{
    const char *line;
    size_t len;
    int r;
    long last = 0;
    tetravex *tv = tvx_alloc(TVX_MAX_TILES);
    if (!tv)
        return ilpm_err_set(err, "out of memory");
    const char *layout = "top left right bottom";
    while ((r = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        if (ilpm_line_is_blank_or_comment(line))
            continue;
        if (tv->ntiles == TVX_MAX_TILES) {
            ilpm_reader_error(rd, err, 1,
                              "more than %d tiles (%dx%d is the largest "
                              "board)",
                              TVX_MAX_TILES, TVX_MAX_N, TVX_MAX_N);
            goto bad;
        }
        long at;
        if (read_tile(rd, line, order_ulrd, layout, tv->side[tv->ntiles], &at,
                      err) != 0)
            goto bad;
        if (!tv->line)
            tv->line = ilpm_reader_lineno(rd);
        tv->fixed[tv->ntiles] = at ? tv->ntiles : -1;
        tv->nfixed += at != 0;
        tv->ntiles++;
        last = ilpm_reader_lineno(rd);
    }
    if (r < 0)
        goto bad;
    if (tv->ntiles == 0) {
        tvx_free(tv);
        return 0;
    }
    tv->n = isqrt_exact(tv->ntiles);
    if (!tv->n) {
        ilpm_reader_error_at(rd, err, last, 1,
                             "%d tiles, not a square number: an epita "
                             "file holds the n*n tiles of one board",
                             tv->ntiles);
        goto bad;
    }
    if (classify(tv) != 0) {
        ilpm_err_set(err, "out of memory");
        goto bad;
    }
    *inst = tv;
    return 1;
bad:
    tvx_free(tv);
    drain(rd); /* one board per file: nothing after it can be read */
    return -1;
}

static int tvx_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                     ilpm_err *err)
{
    int fmt;
    if (ilpm_params_choice(p, "input-format", input_formats, FMT_NATIVE, &fmt,
                           err) != 0) {
        /* Nothing of the file can be read: report once, then the end. */
        const char *line;
        size_t len;
        ilpm_err e;
        if (ilpm_reader_line(rd, &line, &len, &e) == 0)
            return 0;
        drain(rd);
        return -1;
    }
    return fmt == FMT_EPITA ? parse_epita(rd, inst, err)
                            : parse_sized(rd, fmt, inst, err);
}

static void tvx_describe(const void *inst, char *buf, size_t size)
{
    const tetravex *tv = inst;
    int k = snprintf(buf, size, "%dx%d", tv->n, tv->n);
    if (tv->line && k >= 0 && (size_t)k < size)
        k += snprintf(buf + k, size - (size_t)k, " line %ld", tv->line);
    if (tv->nfixed && k >= 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, " (%d fixed)", tv->nfixed);
}

/* ------------------------------------------------------------------ */
/* The model                                                            */

struct builder {
    const tetravex *tv;
    ilpm_model *m;
    int X;     /* X[r,c,k], all 1-based */
    int *lits; /* room for max(ntiles, ntypes) + 1 literals */
    ilpm_err *err;
};

static int xv(const struct builder *b, int cell, int k)
{
    int n = b->tv->n;
    return ilpm_model_var(b->m, b->X, cell / n + 1, cell % n + 1, k + 1, 0);
}

static int side_of(const tetravex *tv, int k, int s)
{
    return tv->side[tv->rep[k]][s];
}

/* Can a tile of type k sit next to one of type k2, with k's side s
 * against k2's opposite side?  Not a tile beside itself. */
static int fits(const tetravex *tv, int k, int s, int k2)
{
    if (k == k2 && tv->mult[k] < 2)
        return 0;
    return side_of(tv, k, s) == side_of(tv, k2, (s + 2) % 4);
}

/* Each cell one type; each type on mult(k) cells (the report's
 * all-different, counted per type). */
static int add_assignment(struct builder *b)
{
    const tetravex *tv = b->tv;
    int cells = tv->n * tv->n, rc = 0;
    rc = ilpm_model_group(b->m, "cell", b->err) < 0;
    for (int c = 0; c < cells && !rc; c++) {
        for (int k = 0; k < tv->ntypes; k++)
            b->lits[k] = xv(b, c, k);
        rc = ilpm_add_exo(b->m, b->lits, tv->ntypes, b->err);
    }
    rc = rc || ilpm_model_group(b->m, "tile", b->err) < 0;
    for (int k = 0; k < tv->ntypes && !rc; k++) {
        for (int c = 0; c < cells; c++)
            b->lits[c] = xv(b, c, k);
        rc = tv->mult[k] == 1 ? ilpm_add_exo(b->m, b->lits, cells, b->err)
                              : ilpm_add_card(b->m, b->lits, cells, ILPM_EQ,
                                              tv->mult[k], b->err);
    }
    return rc ? -1 : 0;
}

/* Support clauses for the pairs of cells (c, c + step) whose sides s
 * (of c) and s+2 (of the neighbour) touch: X(c,k) -> OR of X(c',k2)
 * over the types k2 that fit, a unit clause when none does; and the
 * same from the neighbour back to c.  The backward clauses follow from
 * the forward ones and exactly one type per cell, but they pay: on
 * random boards (3 seeds each) GLPK solved 5x5 in 0.6/4.1/1.4 s with
 * them against 0.5/10.2/8.2 s without, and CaDiCaL 8x8 in 4.4/4.3/3.3 s
 * against 19.4/>20/13.3 s. */
static int add_support(struct builder *b, int s)
{
    const tetravex *tv = b->tv;
    int n = tv->n, K = tv->ntypes, rc = 0;
    for (int c = 0; c < n * n && !rc; c++) {
        int r = c / n, col = c % n;
        if ((s == RIGHT && col == n - 1) || (s == DOWN && r == n - 1))
            continue;
        int c2 = s == RIGHT ? c + 1 : c + n;
        for (int dir = 0; dir < 2 && !rc; dir++) {
            int from = dir ? c2 : c, to = dir ? c : c2;
            int fs = dir ? (s + 2) % 4 : s;
            for (int k = 0; k < K && !rc; k++) {
                int len = 0;
                b->lits[len++] = -xv(b, from, k);
                for (int k2 = 0; k2 < K; k2++)
                    if (fits(tv, k, fs, k2))
                        b->lits[len++] = xv(b, to, k2);
                rc = ilpm_add_clause(b->m, b->lits, len, b->err);
            }
        }
    }
    return rc ? -1 : 0;
}

/* Not both of an incompatible pair on two touching cells. */
static int add_conflicts(struct builder *b, int s)
{
    const tetravex *tv = b->tv;
    int n = tv->n, K = tv->ntypes, rc = 0;
    for (int c = 0; c < n * n && !rc; c++) {
        int r = c / n, col = c % n;
        if ((s == RIGHT && col == n - 1) || (s == DOWN && r == n - 1))
            continue;
        int c2 = s == RIGHT ? c + 1 : c + n;
        for (int k = 0; k < K && !rc; k++)
            for (int k2 = 0; k2 < K && !rc; k2++) {
                /* k beside itself with one copy: the tile group forbids
                 * it already. */
                if (fits(tv, k, s, k2) || (k == k2 && tv->mult[k] < 2))
                    continue;
                int pair[2] = {xv(b, c, k), xv(b, c2, k2)};
                rc = ilpm_add_amo(b->m, pair, 2, b->err);
            }
    }
    return rc ? -1 : 0;
}

/* One digit per inner edge, and each tile's side channelled to the edges
 * of its cell: X(c,k) -> E(e, side of k), and back, E(e,d) -> OR of the
 * X(c,k) whose side shows d.  With exactly one digit per edge and one type
 * per cell, the LP relaxation of the pair is then the equality "sum of the
 * X(c,k) showing d = E(e,d)" on both cells; the implications alone leave
 * it loose.  Measured on random boards (3 seeds): GLPK 5x5 in about 1 s
 * with the backward clauses, beyond 20 s without; CaDiCaL 8x8 in
 * 1.6/1.4/0.4 s against 15/4.9/2.9 s.  The edge variables are AUX: the
 * tiles fix them. */
static int add_edges(struct builder *b)
{
    const tetravex *tv = b->tv;
    int n = tv->n, K = tv->ntypes, rc = 0;
    if (n < 2)
        return 0;
    int dlo = 9, dhi = 0;
    for (int t = 0; t < tv->ntiles; t++)
        for (int s = 0; s < 4; s++) {
            dlo = tv->side[t][s] < dlo ? tv->side[t][s] : dlo;
            dhi = tv->side[t][s] > dhi ? tv->side[t][s] : dhi;
        }
    int lo[3] = {1, 1, dlo}, hih[3] = {n, n - 1, dhi}, hiv[3] = {n - 1, n, dhi};
    int EH = ilpm_model_family(b->m, "EH", 3, lo, hih, ILPM_FAM_AUX, b->err);
    int EV = EH < 0 ? -1
                    : ilpm_model_family(b->m, "EV", 3, lo, hiv, ILPM_FAM_AUX,
                                        b->err);
    if (EV < 0)
        return -1;
    rc = ilpm_model_group(b->m, "edge", b->err) < 0;
    for (int e = 0; e < 2 && !rc; e++) {
        int fam = e ? EV : EH, rows = e ? n - 1 : n, cols = e ? n : n - 1;
        for (int r = 1; r <= rows && !rc; r++)
            for (int c = 1; c <= cols && !rc; c++) {
                int len = 0;
                for (int d = dlo; d <= dhi; d++)
                    b->lits[len++] = ilpm_model_var(b->m, fam, r, c, d, 0);
                rc = ilpm_add_exo(b->m, b->lits, len, b->err);
            }
    }
    for (int e = 0; e < 2 && !rc; e++) {
        int fam = e ? EV : EH;
        int s = e ? DOWN : RIGHT;
        rc = ilpm_model_group(b->m, e ? "vert" : "horiz", b->err) < 0;
        for (int c = 0; c < n * n && !rc; c++) {
            int r = c / n, col = c % n;
            if ((s == RIGHT && col == n - 1) || (s == DOWN && r == n - 1))
                continue;
            int c2 = s == RIGHT ? c + 1 : c + n;
            for (int k = 0; k < K && !rc; k++) {
                int ev0 = ilpm_model_var(b->m, fam, r + 1, col + 1,
                                         side_of(tv, k, s), 0);
                int ev1 = ilpm_model_var(b->m, fam, r + 1, col + 1,
                                         side_of(tv, k, (s + 2) % 4), 0);
                rc = ilpm_add_impl(b->m, xv(b, c, k), ev0, b->err) ||
                     ilpm_add_impl(b->m, xv(b, c2, k), ev1, b->err);
            }
            for (int d = dlo; d <= dhi && !rc; d++)
                for (int dir = 0; dir < 2 && !rc; dir++) {
                    int len = 0, cell = dir ? c2 : c;
                    int fs = dir ? (s + 2) % 4 : s;
                    b->lits[len++] =
                        -ilpm_model_var(b->m, fam, r + 1, col + 1, d, 0);
                    for (int k = 0; k < K; k++)
                        if (side_of(tv, k, fs) == d)
                            b->lits[len++] = xv(b, cell, k);
                    rc = ilpm_add_clause(b->m, b->lits, len, b->err);
                }
        }
    }
    return rc ? -1 : 0;
}

/* Tile types by the digits on two of their sides: the types with digit
 * d on side s and e on side t are list[start[10d + e] ..
 * start[10d + e + 1]). */
struct by_sides {
    int start[101];
    int *list;
};

static int by_sides_init(struct by_sides *x, const tetravex *tv, int s, int t)
{
    int K = tv->ntypes;
    memset(x->start, 0, sizeof x->start);
    if (!(x->list = malloc((size_t)K * sizeof *x->list)))
        return -1;
    for (int k = 0; k < K; k++)
        x->start[10 * side_of(tv, k, s) + side_of(tv, k, t) + 1]++;
    for (int i = 0; i < 100; i++)
        x->start[i + 1] += x->start[i];
    int fill[100];
    memcpy(fill, x->start, sizeof fill);
    for (int k = 0; k < K; k++)
        x->list[fill[10 * side_of(tv, k, s) + side_of(tv, k, t)]++] = k;
    return 0;
}

/* Is there a 2x2 block with type a on one diagonal cell and b on the
 * other?  dir 0: a top-left, b bottom-right, completed by k1 top-right
 * (left = a's right, down = b's up) and k2 bottom-left (up = a's down,
 * right = b's left).  dir 1: a top-right, b bottom-left, completed by k1
 * top-left (right = a's left, down = b's up) and k2 bottom-right (up =
 * a's down, left = b's right).  Copies are counted: the four tiles of
 * the block must exist as distinct tiles.  m1 and m2 index the types by
 * the two sides k1 and k2 must match. */
static int diag_fits(const tetravex *tv, const struct by_sides *m1,
                     const struct by_sides *m2, int a, int b, int dir)
{
    int s1a = dir ? LEFT : RIGHT, s1b = UP;   /* a's and b's sides at k1 */
    int s2a = DOWN, s2b = dir ? RIGHT : LEFT; /* and at k2               */
    int i1 = 10 * side_of(tv, a, s1a) + side_of(tv, b, s1b);
    int i2 = 10 * side_of(tv, a, s2a) + side_of(tv, b, s2b);
    for (int p = m1->start[i1]; p < m1->start[i1 + 1]; p++)
        for (int q = m2->start[i2]; q < m2->start[i2 + 1]; q++) {
            int ks[4] = {a, b, m1->list[p], m2->list[q]}, ok = 1;
            for (int i = 0; i < 4 && ok; i++) {
                int used = 0;
                for (int j = 0; j < 4; j++)
                    used += ks[j] == ks[i];
                ok = used <= tv->mult[ks[i]];
            }
            if (ok)
                return 1;
        }
    return 0;
}

/* Diagonal supports: in every 2x2 block, a type on one cell of a
 * diagonal needs a type on the other cell that some block completes;
 * X(c,a) -> OR of those X(c'',b), both ways, both diagonals.  Redundant
 * (the tiles and their neighbours imply it), but unit propagation on
 * the binary supports alone does not see it. */
static int add_diag(struct builder *b)
{
    const tetravex *tv = b->tv;
    int n = tv->n, K = tv->ntypes, rc = 0;
    uint8_t *fit = malloc((size_t)K * (size_t)K * 2);
    /* k1 matches on its (opposite of s1a, DOWN), k2 on (UP, opposite of
     * s2b): see diag_fits */
    struct by_sides m1[2] = {{{0}, NULL}, {{0}, NULL}};
    struct by_sides m2[2] = {{{0}, NULL}, {{0}, NULL}};
    int oom = !fit;
    for (int dir = 0; dir < 2 && !oom; dir++)
        oom = by_sides_init(&m1[dir], tv, dir ? RIGHT : LEFT, DOWN) != 0 ||
              by_sides_init(&m2[dir], tv, UP, dir ? LEFT : RIGHT) != 0;
    if (oom) {
        for (int dir = 0; dir < 2; dir++) {
            free(m1[dir].list);
            free(m2[dir].list);
        }
        free(fit);
        return ilpm_err_set(b->err, "out of memory");
    }
    for (int dir = 0; dir < 2; dir++) {
        for (int a = 0; a < K; a++)
            for (int k = 0; k < K; k++)
                fit[(dir * K + a) * K + k] =
                    (uint8_t)diag_fits(tv, &m1[dir], &m2[dir], a, k, dir);
        free(m1[dir].list);
        free(m2[dir].list);
    }
    rc = ilpm_model_group(b->m, "diag", b->err) < 0;
    for (int r = 0; r + 1 < n && !rc; r++)
        for (int c = 0; c + 1 < n && !rc; c++)
            for (int dir = 0; dir < 2 && !rc; dir++) {
                int ca = dir ? r * n + c + 1 : r * n + c;
                int cb = dir ? (r + 1) * n + c : (r + 1) * n + c + 1;
                for (int back = 0; back < 2 && !rc; back++)
                    for (int k = 0; k < K && !rc; k++) {
                        int len = 0;
                        b->lits[len++] = -xv(b, back ? cb : ca, k);
                        for (int k2 = 0; k2 < K; k2++)
                            if (back ? fit[(dir * K + k2) * K + k]
                                     : fit[(dir * K + k) * K + k2])
                                b->lits[len++] = xv(b, back ? ca : cb, k2);
                        rc = ilpm_add_clause(b->m, b->lits, len, b->err);
                    }
            }
    free(fit);
    return rc ? -1 : 0;
}

static int tvx_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                     ilpm_err *err)
{
    const tetravex *tv = inst;
    int form;
    if (ilpm_params_choice(p, "formulation", formulations, ASSIGN, &form,
                           err) != 0)
        return -1;
    int n = tv->n;
    int lo[3] = {1, 1, 1}, hi[3] = {n, n, tv->ntypes};
    struct builder b = {tv, m, -1, NULL, err};
    b.X = ilpm_model_family(m, "X", 3, lo, hi, 0, err);
    if (b.X < 0)
        return -1;
    int cap = (tv->ntiles > tv->ntypes ? tv->ntiles : tv->ntypes) + 1;
    if (cap < 12)
        cap = 12; /* a digit per edge plus one */
    if (!(b.lits = malloc((size_t)cap * sizeof *b.lits)))
        return ilpm_err_set(err, "out of memory");
    int rc = add_assignment(&b);
    if (!rc && form == ASSIGN)
        rc = ilpm_model_group(m, "horiz", err) < 0 || add_support(&b, RIGHT) ||
             ilpm_model_group(m, "vert", err) < 0 || add_support(&b, DOWN);
    if (!rc && form == CONFLICT)
        rc = ilpm_model_group(m, "horiz", err) < 0 ||
             add_conflicts(&b, RIGHT) || ilpm_model_group(m, "vert", err) < 0 ||
             add_conflicts(&b, DOWN);
    if (!rc && form == EDGES)
        rc = add_edges(&b);
    if (!rc && ilpm_params_has(p, "diag") && tv->n >= 2)
        rc = add_diag(&b);
    if (!rc && tv->nfixed)
        rc = ilpm_model_group(m, "fixed", err) < 0;
    for (int t = 0; t < tv->ntiles && !rc; t++)
        if (tv->fixed[t] >= 0) {
            int v = xv(&b, tv->fixed[t], tv->type[t]);
            rc = ilpm_add_clause(m, &v, 1, err);
        }
    free(b.lits);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Decoding, rules, output                                              */

static tvx_sol *sol_new(int n)
{
    tvx_sol *s = calloc(1, sizeof *s);
    if (s && !(s->tile = malloc((size_t)n * (size_t)n * sizeof *s->tile))) {
        free(s);
        return NULL;
    }
    if (s) {
        s->n = n;
        for (int i = 0; i < n * n; i++)
            s->tile[i] = -1;
    }
    return s;
}

static void tvx_sol_free(void *p)
{
    tvx_sol *s = p;
    if (s)
        free(s->tile);
    free(s);
}

/* Types per cell -> tile indices: pinned tiles take their cells first,
 * then twins are handed out in cell order.  More cells of a type than
 * tiles of it reuse the type's first tile, which the verifier rejects. */
static void *tvx_decode(const void *inst, const ilpm_params *p,
                        const ilpm_model *m, const uint8_t *vals, ilpm_err *err)
{
    (void)p;
    const tetravex *tv = inst;
    int n = tv->n, cells = n * n, X = ilpm_model_family_find(m, "X");
    if (X < 0) {
        ilpm_err_set(err, "the model has no family X");
        return NULL;
    }
    tvx_sol *s = sol_new(n);
    int *ktype = malloc((size_t)cells * sizeof *ktype);
    uint8_t *used = calloc((size_t)tv->ntiles, 1);
    if (!s || !ktype || !used) {
        ilpm_err_set(err, "out of memory");
        goto bad;
    }
    for (int c = 0; c < cells; c++) {
        ktype[c] = -1;
        for (int k = 0; k < tv->ntypes; k++)
            if (vals[ilpm_model_var(m, X, c / n + 1, c % n + 1, k + 1, 0)]) {
                if (ktype[c] >= 0) {
                    ilpm_err_set(err, "cell (%d,%d) holds two tiles", c / n + 1,
                                 c % n + 1);
                    goto bad;
                }
                ktype[c] = k;
            }
    }
    for (int t = 0; t < tv->ntiles; t++) {
        int c = tv->fixed[t];
        if (c >= 0 && ktype[c] == tv->type[t] && s->tile[c] < 0) {
            s->tile[c] = t;
            used[t] = 1;
        }
    }
    for (int c = 0; c < cells; c++) {
        int k = ktype[c];
        if (s->tile[c] >= 0 || k < 0)
            continue;
        int t = 0;
        while (t < tv->ntiles && (used[t] || tv->type[t] != k))
            t++;
        s->tile[c] = t < tv->ntiles ? t : tv->rep[k];
        if (t < tv->ntiles)
            used[t] = 1;
    }
    free(ktype);
    free(used);
    return s;
bad:
    free(ktype);
    free(used);
    tvx_sol_free(s);
    return NULL;
}

/* The rules on the board alone: every tile once, touching sides equal,
 * pinned tiles in place. */
static int tvx_verify(const void *inst, const ilpm_params *p, const void *vsol,
                      ilpm_err *why)
{
    (void)p;
    const tetravex *tv = inst;
    const tvx_sol *s = vsol;
    int n = tv->n;
    if (s->n != n)
        return ilpm_err_set(why, "board is %dx%d, expected %dx%d", s->n, s->n,
                            n, n);
    for (int c = 0; c < n * n; c++) {
        if (s->tile[c] < 0 || s->tile[c] >= tv->ntiles)
            return ilpm_err_set(why, "cell (%d,%d) holds no tile", c / n + 1,
                                c % n + 1);
        for (int c2 = 0; c2 < c; c2++)
            if (s->tile[c2] == s->tile[c])
                return ilpm_err_set(why,
                                    "tile %d is on cells (%d,%d) and "
                                    "(%d,%d)",
                                    s->tile[c] + 1, c2 / n + 1, c2 % n + 1,
                                    c / n + 1, c % n + 1);
    }
    for (int c = 0; c < n * n; c++) {
        const uint8_t *a = tv->side[s->tile[c]];
        if (c % n < n - 1 && a[RIGHT] != tv->side[s->tile[c + 1]][LEFT])
            return ilpm_err_set(why,
                                "cells (%d,%d) and (%d,%d) touch with %d "
                                "and %d",
                                c / n + 1, c % n + 1, c / n + 1, c % n + 2,
                                a[RIGHT], tv->side[s->tile[c + 1]][LEFT]);
        if (c / n < n - 1 && a[DOWN] != tv->side[s->tile[c + n]][UP])
            return ilpm_err_set(why,
                                "cells (%d,%d) and (%d,%d) touch with %d "
                                "and %d",
                                c / n + 1, c % n + 1, c / n + 2, c % n + 1,
                                a[DOWN], tv->side[s->tile[c + n]][UP]);
    }
    for (int t = 0; t < tv->ntiles; t++)
        if (tv->fixed[t] >= 0 && s->tile[tv->fixed[t]] != t)
            return ilpm_err_set(why, "tile %d is pinned to cell (%d,%d)", t + 1,
                                tv->fixed[t] / n + 1, tv->fixed[t] % n + 1);
    return 0;
}

/* Each tile as three lines, its digits where its sides are:
 *       3     8
 *     5   0 0   2
 *       4     1
 * so that the digits of neighbours face each other; a blank line between
 * rows of tiles, then the tile numbers (1-based, as in the input) row by
 * row. */
static void tvx_render(const void *inst, const void *vsol, ilpm_buf *out)
{
    const tetravex *tv = inst;
    const tvx_sol *s = vsol;
    int n = s->n;
    for (int r = 0; r < n; r++) {
        if (r)
            ilpm_buf_putc(out, '\n');
        for (int line = 0; line < 3; line++) {
            for (int c = 0; c < n; c++) {
                const uint8_t *d = tv->side[s->tile[r * n + c]];
                if (line == 1)
                    ilpm_buf_printf(out, "%s%d   %d", c ? " " : "", d[LEFT],
                                    d[RIGHT]);
                else
                    ilpm_buf_printf(out, "%s  %d", c ? "   " : "",
                                    d[line ? DOWN : UP]);
            }
            ilpm_buf_putc(out, '\n');
        }
    }
    ilpm_buf_puts(out, "\ntiles:\n");
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++)
            ilpm_buf_printf(out, "%s%3d", c ? " " : "", s->tile[r * n + c] + 1);
        ilpm_buf_putc(out, '\n');
    }
}

static void tvx_render_json(const void *inst, const void *vsol, ilpm_buf *out)
{
    (void)inst;
    const tvx_sol *s = vsol;
    ilpm_buf_puts(out, "{\"tiles\":[");
    for (int c = 0; c < s->n * s->n; c++)
        ilpm_buf_printf(out, "%s%d", c ? "," : "", s->tile[c] + 1);
    ilpm_buf_puts(out, "]}");
}

/* ------------------------------------------------------------------ */
/* Generator                                                            */

static void write_board(const tetravex *tv, int fmt, ilpm_buf *out)
{
    if (fmt == FMT_NATIVE)
        ilpm_buf_printf(out, "%d\n", tv->n);
    else if (fmt == FMT_MOTYAK)
        ilpm_buf_printf(out, "%d %d\n", tv->n, tv->n);
    for (int t = 0; t < tv->ntiles; t++) {
        const uint8_t *d = tv->side[t];
        if (fmt == FMT_EPITA)
            ilpm_buf_printf(out, "%d%d%d%d\n", d[UP], d[LEFT], d[RIGHT],
                            d[DOWN]);
        else
            ilpm_buf_printf(out, "%d %d %d %d\n", d[LEFT], d[UP], d[RIGHT],
                            d[DOWN]);
    }
}

#define UNSOLVABLE_TRIES 100
#define UNSOLVABLE_SECONDS 60.0

/* 1 if the board has no solution, 0 if it has one, -1 on error (running
 * out of time included: a board not proved unsolvable is not reported
 * as such).  CaDiCaL on the assign formulation, the fastest pair. */
static int proved_unsolvable(tetravex *tv, double seconds, ilpm_err *err)
{
    free(tv->type);
    free(tv->mult);
    free(tv->rep);
    tv->type = tv->mult = tv->rep = NULL;
    if (classify(tv) != 0)
        return ilpm_err_set(err, "out of memory");
    ilpm_model *m = ilpm_model_new();
    ilpm_params *p = ilpm_params_new();
    if (!m || !p) {
        ilpm_model_free(m);
        ilpm_params_free(p);
        return ilpm_err_set(err, "out of memory");
    }
    int rc = -1;
    ilpm_solver *s = NULL;
    if (tvx_build(tv, p, m, err) == 0) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = ILPM_BACKEND_SAT;
        o.time_limit = seconds;
        s = ilpm_solver_new(m, &o, err);
    }
    if (s) {
        ilpm_status st = ilpm_solver_solve(s, NULL, 0, err);
        if (st == ILPM_UNSAT)
            rc = 1;
        else if (st == ILPM_SOLVED)
            rc = 0;
        else if (st != ILPM_ERROR)
            rc = ilpm_err_set(err,
                              "--unsolvable: no %dx%d board proved "
                              "unsolvable within %.0f s",
                              tv->n, tv->n, UNSOLVABLE_SECONDS);
    }
    ilpm_solver_free(s);
    ilpm_model_free(m);
    ilpm_params_free(p);
    return rc;
}

/* A solved board with random digits, its tiles shuffled; for
 * --unsolvable one side of one tile changed until solving proves that
 * no solution is left (within a number of tries and a time budget). */
static int gen_board(tetravex *tv, int n, int digits, int unsolvable,
                     ilpm_rng *rng, ilpm_err *err)
{
    int cells = n * n;
    tv->n = n;
    tv->ntiles = cells;
    for (int c = 0; c < cells; c++) {
        tv->fixed[c] = -1;
        for (int s = 0; s < 4; s++)
            tv->side[c][s] = (uint8_t)ilpm_rng_below(rng, (uint64_t)digits);
    }
    for (int c = 0; c < cells; c++) {
        if (c % n > 0)
            tv->side[c][LEFT] = tv->side[c - 1][RIGHT];
        if (c / n > 0)
            tv->side[c][UP] = tv->side[c - n][DOWN];
    }
    for (int i = cells - 1; i > 0; i--) {
        int j = (int)ilpm_rng_below(rng, (uint64_t)i + 1);
        uint8_t tmp[4];
        memcpy(tmp, tv->side[i], 4);
        memcpy(tv->side[i], tv->side[j], 4);
        memcpy(tv->side[j], tmp, 4);
    }
    if (!unsolvable)
        return 0;
    double deadline = ilpm_now() + UNSOLVABLE_SECONDS;
    for (int tries = 0; tries < UNSOLVABLE_TRIES; tries++) {
        int t = (int)ilpm_rng_below(rng, (uint64_t)cells);
        int s = (int)ilpm_rng_below(rng, 4);
        uint8_t old = tv->side[t][s];
        int d = (int)ilpm_rng_below(rng, (uint64_t)digits - 1);
        tv->side[t][s] = (uint8_t)(d >= old ? d + 1 : d);
        double left = deadline - ilpm_now();
        int r = left > 0 ? proved_unsolvable(tv, left, err)
                         : ilpm_err_set(err,
                                        "--unsolvable: no %dx%d board "
                                        "proved unsolvable within %.0f s",
                                        n, n, UNSOLVABLE_SECONDS);
        if (r != 0)
            return r > 0 ? 0 : -1;
        tv->side[t][s] = old;
    }
    return ilpm_err_set(err,
                        "--unsolvable: no change of a single side made the "
                        "%dx%d board unsolvable in %d tries",
                        n, n, UNSOLVABLE_TRIES);
}

static int tvx_generate(const ilpm_params *p, ilpm_buf *out, ilpm_err *err)
{
    long n, seed, digits, count;
    int fmt;
    if (!ilpm_params_has(p, "n"))
        return ilpm_err_set(err, "--n: the board size is required");
    if (ilpm_params_int(p, "n", 3, 1, TVX_MAX_N, &n, err) != 0 ||
        ilpm_params_int(p, "seed", 1, 0, 0x7fffffffL, &seed, err) != 0 ||
        ilpm_params_int(p, "digits", 10, 1, 10, &digits, err) != 0 ||
        ilpm_params_int(p, "count", 1, 1, 1000, &count, err) != 0 ||
        ilpm_params_choice(p, "input-format", input_formats, FMT_NATIVE, &fmt,
                           err) != 0)
        return -1;
    int unsolvable = ilpm_params_has(p, "unsolvable");
    if (fmt == FMT_EPITA && count > 1)
        return ilpm_err_set(err,
                            "--count: an epita file holds one board, "
                            "got --count %ld",
                            count);
    if (unsolvable && digits < 2)
        return ilpm_err_set(err, "--unsolvable: needs --digits 2 or more "
                                 "(a side must be changed to another "
                                 "digit)");
    if (unsolvable && n < 2)
        return ilpm_err_set(err, "--unsolvable: needs --n 2 or more (one "
                                 "tile always fits a 1x1 board)");
    ilpm_rng rng;
    ilpm_rng_seed(&rng, (uint64_t)seed);
    tetravex *tv = tvx_alloc((int)(n * n));
    if (!tv)
        return ilpm_err_set(err, "out of memory");
    int rc = 0;
    for (long i = 0; i < count && rc == 0; i++) {
        rc = gen_board(tv, (int)n, (int)digits, unsolvable, &rng, err);
        if (rc != 0)
            break;
        if (i > 0)
            ilpm_buf_putc(out, '\n');
        if (fmt == FMT_NATIVE)
            ilpm_buf_printf(out,
                            "# tetravex %ldx%ld, digits 0-%ld, seed %ld, "
                            "board %ld: %s\n",
                            n, n, digits - 1, seed, i + 1,
                            unsolvable ? "unsolvable" : "solvable");
        write_board(tv, fmt, out);
    }
    tvx_free(tv);
    if (rc == 0 && out->oom)
        rc = ilpm_err_set(err, "out of memory");
    return rc;
}

const ilpm_puzzle ilpm_puzzle_tetravex = {
    .name = "tetravex",
    .summary = "Tetravex: match the digits of touching tiles",
    .formulations = formulations,
    .opts = tvx_opts,
    .input_help =
        "FILE in one of three formats (--input-format, never guessed):\n"
        "  native: a line with N, then N*N tiles, one a line, as 'left up\n"
        "    right down' digits ('5 3 0 4' or '5304'); a blank line ends\n"
        "    the board and another may follow; '#' starts a comment.\n"
        "  epita: N*N lines of 'top left right bottom' digits ('1234'), an\n"
        "    optional ' @' pinning the tile to the cell of its line\n"
        "    (row-major); one board per file.\n"
        "  motyak: 'width height' (equal), then 'left up right down' per "
        "tile.\n"
        "Identical tiles are interchangeable: counts are of distinct\n"
        "boards.  Solution JSON: {\"tiles\":[...]}, the 1-based tile on\n"
        "each cell, row-major.",
    .from_params = NULL,
    .parse = tvx_parse,
    .free_instance = tvx_free,
    .describe = tvx_describe,
    .build = tvx_build,
    .decode = tvx_decode,
    .verify = tvx_verify,
    .render = tvx_render,
    .render_json = tvx_render_json,
    .free_solution = tvx_sol_free,
    .generate = tvx_generate,
    .gen_opts = tvx_gen_opts,
};
