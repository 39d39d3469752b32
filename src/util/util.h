/* util.h: small pieces every part of ilpm shares: a growable string
 * buffer, a line reader that knows where it is (for file:line:column
 * messages), and the puzzle parameters collected from the command line. */
#ifndef ILPM_UTIL_H
#define ILPM_UTIL_H

#include "ilpm.h"

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Growable NUL-terminated string.  A failed allocation sets oom and   */
/* leaves the text as it was; callers check oom once at the end.       */

typedef struct ilpm_buf {
    char *s;
    size_t len, cap;
    int oom;
} ilpm_buf;

void ilpm_buf_init(ilpm_buf *b);
void ilpm_buf_free(ilpm_buf *b);
void ilpm_buf_clear(ilpm_buf *b);
void ilpm_buf_put(ilpm_buf *b, const char *s, size_t n);
void ilpm_buf_puts(ilpm_buf *b, const char *s);
void ilpm_buf_putc(ilpm_buf *b, char c);
void ilpm_buf_printf(ilpm_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends s as a JSON string literal, quotes included. */
void ilpm_buf_json_str(ilpm_buf *b, const char *s);
/* Appends s as a CSV field (RFC 4180): quoted when it holds a comma, a
 * quote or a line end. */
void ilpm_buf_csv_str(ilpm_buf *b, const char *s);
/* The text so far ("" when empty; never NULL). */
const char *ilpm_buf_str(const ilpm_buf *b);
/* Takes the text out (caller frees); the buffer is left empty. */
char *ilpm_buf_take(ilpm_buf *b);

/* ------------------------------------------------------------------ */
/* Line reader over a file or a memory block.                           */

#define ILPM_LINE_MAX (1 << 20) /* longest line accepted: 1 MiB */

typedef struct ilpm_reader ilpm_reader;

/* How messages name standard input. */
#define ILPM_STDIN_NAME "<stdin>"

/* "-" reads standard input. */
ilpm_reader *ilpm_reader_open(const char *path, ilpm_err *err);
/* Opens path at byte offset as if the first `lines` lines had been read
 * already: the next line is numbered lines + 1 in messages, so a reader
 * started where another stood (see ilpm_reader_offset) reports the same
 * file:line:col.  name, if not NULL, stands for path in messages (a
 * temporary copy can speak for the input it copies).  The file must be
 * seekable unless offset is 0. */
ilpm_reader *ilpm_reader_open_at(const char *path, const char *name,
                                 int64_t offset, long lines, ilpm_err *err);
/* Reads from data[0..len) (not copied; must outlive the reader). */
ilpm_reader *ilpm_reader_mem(const char *name, const char *data, size_t len);
void ilpm_reader_free(ilpm_reader *r);
/* Next line, without its line end (LF or CRLF).  The line is
 * NUL-terminated; a NUL byte inside it is an error.  Returns 1 for a
 * line, 0 at the end, -1 on error (err filled with file:line:col). */
int ilpm_reader_line(ilpm_reader *r, const char **line, size_t *len,
                     ilpm_err *err);
/* Gives the last line back: the next ilpm_reader_line returns it again. */
void ilpm_reader_unread(ilpm_reader *r);
/* Where the next ilpm_reader_line starts (after ilpm_reader_unread, the
 * line given back): its byte offset from where the reader started, and
 * in *lines (if not NULL) the number of lines before it.  Together they
 * are what ilpm_reader_open_at needs to read on from there later. */
int64_t ilpm_reader_offset(const ilpm_reader *r, long *lines);
long ilpm_reader_lineno(const ilpm_reader *r);
const char *ilpm_reader_name(const ilpm_reader *r);
/* Formats "name:line:col: message" into err (col 0: no column); -1. */
int ilpm_reader_error(const ilpm_reader *r, ilpm_err *err, long col,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Same, for an explicit line number. */
int ilpm_reader_error_at(const ilpm_reader *r, ilpm_err *err, long line,
                         long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* 1 if the line is blank or a '#' comment (after leading blanks). */
int ilpm_line_is_blank_or_comment(const char *line);

/* ------------------------------------------------------------------ */
/* Puzzle parameters: "--name value" pairs and "--flag"s the command    */
/* line did not consume itself.  Values are kept as strings.            */

typedef struct ilpm_params ilpm_params;

ilpm_params *ilpm_params_new(void);
void ilpm_params_free(ilpm_params *p);
/* Sets (or replaces) name = value; value NULL marks a flag. */
int ilpm_params_set(ilpm_params *p, const char *name, const char *value);
/* NULL if absent; "" for a flag. */
const char *ilpm_params_get(const ilpm_params *p, const char *name);
int ilpm_params_has(const ilpm_params *p, const char *name);
/* Integer in [lo, hi], def when absent.  Errors name the parameter:
 * "--n: expected an integer from 1 to 1000, got 'x'". */
int ilpm_params_int(const ilpm_params *p, const char *name, long def, long lo,
                    long hi, long *out, ilpm_err *err);
/* One of choices (NULL-terminated); *out is its index, def if absent. */
int ilpm_params_choice(const ilpm_params *p, const char *name,
                       const char *const *choices, int def, int *out,
                       ilpm_err *err);
size_t ilpm_params_count(const ilpm_params *p);
const char *ilpm_params_name_at(const ilpm_params *p, size_t i);
/* A copy with the same entries. */
ilpm_params *ilpm_params_copy(const ilpm_params *p);

/* Random numbers for generators and tests: splitmix64, seedable,
 * identical on every platform. */
typedef struct ilpm_rng {
    uint64_t s;
} ilpm_rng;
void ilpm_rng_seed(ilpm_rng *r, uint64_t seed);
uint64_t ilpm_rng_next(ilpm_rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t ilpm_rng_below(ilpm_rng *r, uint64_t n);

#endif
