/* Tetravex input, in the three formats the public instances come in
 * (--input-format, never guessed): native, the seed report's [left, up,
 * right, down] after a line with N; epita, 'top left right bottom' with
 * ' @' pinning a tile, one board a file; motyak, native tiles after a
 * 'width height' header.  Messages name file:line:col. */
#include "tetravex.h"

const char *const ilpm_tvx_input_formats[] = {"native", "epita", "motyak",
                                              NULL};

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
                rd, err, t[i].col,
                t[i].val < 1 ? "%s %.*s is outside 1..%d%s"
                             : "%s %.*s is too large (at most %d)%s",
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
    if (!(tv = ilpm_tvx_alloc(n * n))) {
        ilpm_err_nomem(err, "out of memory");
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
    *inst = tv;
    return 1;
bad:
    ilpm_tvx_free(tv);
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
    tetravex *tv = ilpm_tvx_alloc(TVX_MAX_TILES);
    if (!tv)
        return ilpm_err_nomem(err, "out of memory");
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
        ilpm_tvx_free(tv);
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
    *inst = tv;
    return 1;
bad:
    ilpm_tvx_free(tv);
    drain(rd); /* one board per file: nothing after it can be read */
    return -1;
}

int ilpm_tvx_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                   ilpm_err *err)
{
    int fmt;
    if (ilpm_params_choice(p, ilpm_tvx_opts, "input-format", &fmt, err) != 0) {
        /* Nothing of the file can be read: report once, then the end. */
        const char *line;
        size_t len;
        ilpm_err e;
        if (ilpm_reader_line(rd, &line, &len, &e) == 0)
            return 0;
        drain(rd);
        return -1;
    }
    void *tv = NULL;
    int r = fmt == FMT_EPITA ? parse_epita(rd, &tv, err)
                             : parse_sized(rd, fmt, &tv, err);
    if (r == 1 && ilpm_tvx_classify(tv) != 0) {
        ilpm_tvx_free(tv);
        return ilpm_err_nomem(err, "out of memory");
    }
    if (r == 1)
        *inst = tv;
    return r;
}
