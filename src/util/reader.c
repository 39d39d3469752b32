/* The line reader that knows where it is, for file:line:column messages
 * (ilpm_reader), and small pieces of the puzzles' parsers. */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct ilpm_reader {
    char *name;
    char *path; /* the file opened from its start, else NULL */
    FILE *f;    /* NULL for memory input */
    int own_f;  /* close f on free        */
    const char *data;
    size_t dlen, dpos;
    char *line;
    size_t cap, len;
    long lineno;
    int unread;
    int eof;
    int64_t pos;   /* bytes consumed so far (from where the reader began) */
    int64_t start; /* offset of the last line returned                     */
    long index;    /* the instance being read, 1-based; 0 unknown          */
    int bom;       /* a byte-order mark was skipped at the start          */
    ilpm_watch *watch; /* NULL: reads without one                         */
    unsigned bytes;    /* bytes read since the clock was last looked at    */
    /* A pipe, a terminal or a device is read with read(2) into raw[],
     * waiting in poll(2) for at most 100 ms at a time, so that the watch
     * is looked at while no byte comes. */
    char *raw;
    size_t rpos, rlen;
    int rerr; /* errno of a failed read, 0 */
};

#define RAW_SIZE 65536
#define CUT (-2) /* next_byte: the watch stopped the read */

void ilpm_reader_set_watch(ilpm_reader *r, ilpm_watch *w)
{
    r->watch = w;
}

/* -1 with err saying that w stopped the read, when it says so; the
 * reader is then at its end (parsers that read on past an error stop). */
static int watched(ilpm_reader *r, ilpm_err *err)
{
    if (!r->watch || ilpm_watch_check(r->watch) == 0)
        return 0;
    r->eof = 1;
    char what[320];
    snprintf(what, sizeof what, "reading %s (line %ld)", r->name,
             r->lineno + 1);
    return ilpm_watch_poll(r->watch, what, err); /* reports the status */
}

ilpm_reader *ilpm_reader_open(const char *path, ilpm_err *err)
{
    return ilpm_reader_open_at(path, NULL, 0, 0, err);
}

ilpm_reader *ilpm_reader_open_at(const char *path, const char *name,
                                 int64_t offset, long lines, ilpm_err *err)
{
    const char *shown = name ? name : path;
    if (offset < 0 || lines < 0) {
        ilpm_err_input(err, "%s: bad position %lld, line %ld", shown,
                       (long long)offset, lines);
        return NULL;
    }
    ilpm_reader *r = calloc(1, sizeof *r);
    if (!r) {
        ilpm_err_nomem(err, "%s: out of memory", shown);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
        r->name = strdup(name ? name : ILPM_STDIN_NAME);
    } else {
        r->f = fopen(path, "rb");
        r->own_f = 1;
        r->name = strdup(shown);
        if (!r->f) {
            ilpm_err_input(err, "%s: cannot open: %s", shown, strerror(errno));
            free(r->name);
            free(r);
            return NULL;
        }
    }
    if (!r->name) {
        ilpm_reader_free(r);
        ilpm_err_nomem(err, "%s: out of memory", shown);
        return NULL;
    }
    if (offset > 0 && fseeko(r->f, (off_t)offset, SEEK_SET) != 0) {
        ilpm_err_input(err, "%s: cannot seek to byte %lld: %s", r->name,
                       (long long)offset, strerror(errno));
        ilpm_reader_free(r);
        return NULL;
    }
    if (r->own_f && offset == 0 && !(r->path = strdup(path))) {
        ilpm_reader_free(r);
        ilpm_err_nomem(err, "%s: out of memory", shown);
        return NULL;
    }
    struct stat st;
    if (offset == 0 && fstat(fileno(r->f), &st) == 0 && !S_ISREG(st.st_mode) &&
        !(r->raw = malloc(RAW_SIZE))) {
        ilpm_reader_free(r);
        ilpm_err_nomem(err, "%s: out of memory", shown);
        return NULL;
    }
    r->pos = r->start = offset;
    r->lineno = lines;
    return r;
}

ilpm_reader *ilpm_reader_mem(const char *name, const char *data, size_t len)
{
    ilpm_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->name = strdup(name ? name : "<input>");
    if (!r->name) {
        free(r);
        return NULL;
    }
    r->data = data;
    r->dlen = len;
    return r;
}

void ilpm_reader_free(ilpm_reader *r)
{
    if (!r)
        return;
    if (r->f && r->own_f)
        fclose(r->f);
    free(r->name);
    free(r->path);
    free(r->line);
    free(r->raw);
    free(r);
}

/* Fills raw[] from a pipe, a terminal or a device: 1, 0 at the end, EOF
 * on a read error (rerr), CUT when the watch says stop or time while
 * waiting (a signal, or 100 ms without a byte). */
static int fill_raw(ilpm_reader *r)
{
    int fd = fileno(r->f);
    for (;;) {
        if (r->watch) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            int n = poll(&p, 1, 100);
            if (n <= 0) {
                if (n < 0 && errno != EINTR) {
                    r->rerr = errno;
                    return EOF;
                }
                if (ilpm_watch_check(r->watch) != 0)
                    return CUT;
                continue;
            }
        }
        ssize_t n = read(fd, r->raw, RAW_SIZE);
        if (n > 0) {
            r->rpos = 0;
            r->rlen = (size_t)n;
            return 1;
        }
        if (n == 0)
            return 0;
        if (errno != EINTR) {
            r->rerr = errno;
            return EOF;
        }
        /* A signal: SIGINT stops (the watch's stop flag), others (a
         * progress timer) do not. */
        if (r->watch && ilpm_watch_check(r->watch) != 0)
            return CUT;
    }
}

/* The next byte, EOF at the end or on a read error, CUT when the watch
 * stopped the read. */
static int next_byte(ilpm_reader *r)
{
    int c;
    if (r->raw) {
        if (r->rpos == r->rlen) {
            int got = fill_raw(r);
            if (got <= 0)
                return got == 0 ? EOF : got;
        }
        c = (unsigned char)r->raw[r->rpos++];
    } else if (r->f) {
        c = getc(r->f);
    } else {
        c = r->dpos < r->dlen ? (unsigned char)r->data[r->dpos++] : EOF;
    }
    if (c != EOF)
        r->pos++;
    return c;
}

static int push(ilpm_reader *r, char c)
{
    if (ilpm_grow((void **)&r->line, &r->cap, r->len + 2, 1) != 0)
        return -1;
    r->line[r->len++] = c;
    return 0;
}

/* The line just read, starting at r->start, made a text: its byte-order
 * mark and '\r' off, ended by a 0; 1, or -1 with err for a line too long
 * or holding a NUL (at column nul_col). */
static int line_read(ilpm_reader *r, int too_long, long nul_col,
                     const char **line, size_t *len, ilpm_err *err)
{
    r->lineno++;
    /* A UTF-8 byte-order mark (as some Windows editors write) is no part
     * of the text: skipped at the start of the file, whatever its format,
     * and columns count from after it, as an editor shows them. */
    if (r->start == 0 && r->len >= 3 &&
        memcmp(r->line, "\xEF\xBB\xBF", 3) == 0) {
        memmove(r->line, r->line + 3, r->len - 3);
        r->len -= 3;
        r->bom = 1;
    }
    if (r->len && r->line[r->len - 1] == '\r')
        r->len--;
    if (push(r, '\0') != 0)
        return ilpm_err_nomem(err, "%s:%ld: out of memory", r->name, r->lineno);
    r->len--;
    *line = r->line;
    *len = r->len;
    if (too_long)
        return ilpm_reader_error(r, err, ILPM_LINE_MAX + 1,
                                 "line longer than %d bytes", ILPM_LINE_MAX);
    if (nul_col)
        return ilpm_reader_error(r, err, nul_col, "NUL byte in a text line");
    return 1;
}

int ilpm_reader_line(ilpm_reader *r, const char **line, size_t *len,
                     ilpm_err *err)
{
    if (r->unread) {
        r->unread = 0;
        *line = r->line;
        *len = r->len;
        return 1;
    }
    if (r->eof)
        return 0;
    if (r->watch && ilpm_watch_poll(r->watch, "", NULL) != 0)
        return watched(r, err);
    r->len = 0;
    int64_t at = r->pos;
    int c, any = 0;
    long nul_col = 0;
    int too_long = 0;
    for (;;) {
        c = next_byte(r);
        if (c == CUT) {
            watched(r, err);
            return -1;
        }
        if (c == EOF && r->f && ferror(r->f) && errno == EINTR) {
            /* A signal: SIGINT stops (the watch's stop flag), others
             * (a progress timer) do not. */
            clearerr(r->f);
            if (watched(r, err) != 0)
                return -1;
            continue;
        }
        if (c == EOF)
            break;
        if ((++r->bytes & 0xFFFFu) == 0 && watched(r, err) != 0)
            return -1;
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0' && !nul_col)
            nul_col = (long)r->len + 1;
        if (r->len >= ILPM_LINE_MAX) {
            too_long = 1;
            continue; /* skip to the line end so the next line is whole */
        }
        if (push(r, (char)c) != 0)
            return ilpm_err_nomem(err, "%s:%ld: out of memory", r->name,
                                  r->lineno + 1);
    }
    if (c == EOF) {
        r->eof = 1;
        if ((r->f && ferror(r->f)) || r->rerr)
            return ilpm_err_input(err, "%s: read error: %s", r->name,
                                  strerror(r->rerr ? r->rerr : errno));
        if (!any)
            return 0;
    }
    r->start = at;
    return line_read(r, too_long, nul_col, line, len, err);
}

int ilpm_reader_bom(const ilpm_reader *r)
{
    return r->bom;
}

void ilpm_reader_unread(ilpm_reader *r)
{
    if (r->lineno > 0)
        r->unread = 1;
}

int64_t ilpm_reader_offset(const ilpm_reader *r, long *lines)
{
    if (lines)
        *lines = r->unread ? r->lineno - 1 : r->lineno;
    return r->unread ? r->start : r->pos;
}

void ilpm_reader_set_index(ilpm_reader *r, long index)
{
    r->index = index;
}

long ilpm_reader_index(const ilpm_reader *r)
{
    return r->index;
}

long ilpm_reader_lineno(const ilpm_reader *r)
{
    return r->lineno;
}

const char *ilpm_reader_path(const ilpm_reader *r)
{
    return r->path;
}

const char *ilpm_reader_name(const ilpm_reader *r)
{
    return r->name;
}

static int verror(const ilpm_reader *r, ilpm_err *err, long line, long col,
                  const char *fmt, va_list ap)
{
    if (!err)
        return -1;
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    err->rc = ILPM_E_INPUT;
    if (col > 0)
        snprintf(err->msg, sizeof err->msg, "%s:%ld:%ld: %s", r->name, line,
                 col, msg);
    else
        snprintf(err->msg, sizeof err->msg, "%s:%ld: %s", r->name, line, msg);
    return -1;
}

int ilpm_reader_error(const ilpm_reader *r, ilpm_err *err, long col,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(r, err, r->lineno, col, fmt, ap);
    va_end(ap);
    return -1;
}

int ilpm_reader_error_at(const ilpm_reader *r, ilpm_err *err, long line,
                         long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(r, err, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int ilpm_line_is_blank_or_comment(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return *line == '\0' || *line == '#';
}

/* ------------------------------------------------------------------ */
/* Pieces of the puzzles' parsers                                       */

int ilpm_scan_uint(const char **s, long *val)
{
    const char *p = *s;
    long v = 0;
    while (*p >= '0' && *p <= '9') {
        int d = *p++ - '0';
        v = v > (LONG_MAX - d) / 10 ? LONG_MAX : v * 10 + d;
    }
    *val = v;
    int n = (int)(p - *s);
    *s = p;
    return n;
}
