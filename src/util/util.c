/* Shared small pieces: string buffer, positioned line reader, puzzle
 * parameters and a portable random generator (see util.h). */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ */
/* ilpm_buf                                                             */

void ilpm_buf_init(ilpm_buf *b)
{
    memset(b, 0, sizeof *b);
}

void ilpm_buf_free(ilpm_buf *b)
{
    if (!b)
        return;
    free(b->s);
    memset(b, 0, sizeof *b);
}

void ilpm_buf_clear(ilpm_buf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

static int reserve(ilpm_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (extra > SIZE_MAX - b->len - 1) {
        b->oom = 1;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t c = b->cap ? b->cap : 64;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    char *s = realloc(b->s, c);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = c;
    return 0;
}

void ilpm_buf_put(ilpm_buf *b, const char *s, size_t n)
{
    if (reserve(b, n) != 0)
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void ilpm_buf_puts(ilpm_buf *b, const char *s)
{
    ilpm_buf_put(b, s, strlen(s));
}

void ilpm_buf_putc(ilpm_buf *b, char c)
{
    ilpm_buf_put(b, &c, 1);
}

void ilpm_buf_printf(ilpm_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        ilpm_buf_put(b, small, (size_t)n);
        return;
    }
    if (reserve(b, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void ilpm_buf_json_ints(ilpm_buf *b, const int *v, int n, int add)
{
    ilpm_buf_putc(b, '[');
    for (int i = 0; i < n; i++)
        ilpm_buf_printf(b, "%s%d", i ? "," : "", v[i] + add);
    ilpm_buf_putc(b, ']');
}

void ilpm_buf_json_str(ilpm_buf *b, const char *s)
{
    ilpm_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            ilpm_buf_puts(b, "\\\"");
            break;
        case '\\':
            ilpm_buf_puts(b, "\\\\");
            break;
        case '\n':
            ilpm_buf_puts(b, "\\n");
            break;
        case '\r':
            ilpm_buf_puts(b, "\\r");
            break;
        case '\t':
            ilpm_buf_puts(b, "\\t");
            break;
        default:
            if (*p < 0x20)
                ilpm_buf_printf(b, "\\u%04x", *p);
            else
                ilpm_buf_putc(b, (char)*p);
        }
    }
    ilpm_buf_putc(b, '"');
}

void ilpm_buf_csv_str(ilpm_buf *b, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        ilpm_buf_puts(b, s);
        return;
    }
    ilpm_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            ilpm_buf_putc(b, '"');
        ilpm_buf_putc(b, *s);
    }
    ilpm_buf_putc(b, '"');
}

const char *ilpm_buf_str(const ilpm_buf *b)
{
    return b->s ? b->s : "";
}

char *ilpm_buf_take(ilpm_buf *b)
{
    char *s = b->s;
    if (!s)
        s = calloc(1, 1);
    memset(b, 0, sizeof *b);
    return s;
}

/* ------------------------------------------------------------------ */
/* ilpm_reader                                                          */

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
};

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
    free(r);
}

static int next_byte(ilpm_reader *r)
{
    int c;
    if (r->f)
        c = getc(r->f);
    else
        c = r->dpos < r->dlen ? (unsigned char)r->data[r->dpos++] : EOF;
    if (c != EOF)
        r->pos++;
    return c;
}

static int push(ilpm_reader *r, char c)
{
    if (r->len + 1 >= r->cap) {
        size_t c2 = r->cap ? r->cap * 2 : 256;
        char *l = realloc(r->line, c2);
        if (!l)
            return -1;
        r->line = l;
        r->cap = c2;
    }
    r->line[r->len++] = c;
    return 0;
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
    r->len = 0;
    int64_t at = r->pos;
    int c, any = 0;
    long nul_col = 0;
    int too_long = 0;
    while ((c = next_byte(r)) != EOF) {
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
        if (r->f && ferror(r->f))
            return ilpm_err_input(err, "%s: read error: %s", r->name,
                                  strerror(errno));
        if (!any)
            return 0;
    }
    r->lineno++;
    r->start = at;
    /* A UTF-8 byte-order mark (as some Windows editors write) is no part
     * of the text: skipped at the start of the file, whatever its format,
     * and columns count from after it, as an editor shows them. */
    if (at == 0 && r->len >= 3 && memcmp(r->line, "\xEF\xBB\xBF", 3) == 0) {
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
/* ilpm_params                                                          */

struct entry {
    char *name;
    char *value; /* NULL for a flag */
};

struct ilpm_params {
    struct entry *e;
    size_t n, cap;
};

ilpm_params *ilpm_params_new(void)
{
    return calloc(1, sizeof(ilpm_params));
}

void ilpm_params_free(ilpm_params *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->e[i].name);
        free(p->e[i].value);
    }
    free(p->e);
    free(p);
}

static struct entry *find(const ilpm_params *p, const char *name)
{
    for (size_t i = 0; p && i < p->n; i++)
        if (strcmp(p->e[i].name, name) == 0)
            return &p->e[i];
    return NULL;
}

int ilpm_params_set(ilpm_params *p, const char *name, const char *value)
{
    char *v = NULL;
    if (value && !(v = strdup(value)))
        return -1;
    struct entry *e = find(p, name);
    if (e) {
        free(e->value);
        e->value = v;
        return 0;
    }
    if (p->n == p->cap) {
        size_t c = p->cap ? 2 * p->cap : 8;
        struct entry *ne = realloc(p->e, c * sizeof *ne);
        if (!ne) {
            free(v);
            return -1;
        }
        p->e = ne;
        p->cap = c;
    }
    char *nm = strdup(name);
    if (!nm) {
        free(v);
        return -1;
    }
    p->e[p->n].name = nm;
    p->e[p->n].value = v;
    p->n++;
    return 0;
}

const char *ilpm_params_get(const ilpm_params *p, const char *name)
{
    struct entry *e = find(p, name);
    if (!e)
        return NULL;
    return e->value ? e->value : "";
}

int ilpm_params_has(const ilpm_params *p, const char *name)
{
    return find(p, name) != NULL;
}

/* value as an integer in [lo, hi]: 0, or -1 with err naming --name. */
static int int_in(const char *name, const char *v, long lo, long hi, long *out,
                  ilpm_err *err)
{
    int64_t x;
    if (ilpm_parse_int(name, v, lo, hi, &x, err) != 0)
        return -1;
    *out = (long)x;
    return 0;
}

/* value among choices: its index, or -1 with err listing them. */
static int choice_in(const char *name, const char *v,
                     const char *const *choices, ilpm_err *err)
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(v, choices[i]) == 0)
            return i;
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; choices[i] && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i ? ", " : "", choices[i]);
    return ilpm_err_input(err, "--%s: expected one of %s, got '%s'", name, list,
                          v);
}

int ilpm_params_int(const ilpm_params *p, const char *name, long def, long lo,
                    long hi, long *out, ilpm_err *err)
{
    const char *v = ilpm_params_get(p, name);
    if (!v) {
        *out = def;
        return 0;
    }
    return int_in(name, v, lo, hi, out, err);
}

int ilpm_params_choice(const ilpm_params *p, const char *name,
                       const char *const *choices, int def, int *out,
                       ilpm_err *err)
{
    const char *v = ilpm_params_get(p, name);
    if (!v) {
        *out = def;
        return 0;
    }
    int i = choice_in(name, v, choices, err);
    if (i < 0)
        return -1;
    *out = i;
    return 0;
}

const ilpm_opt_spec *ilpm_opt_find(const ilpm_opt_spec *table, const char *name)
{
    for (; table && table->name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}

int ilpm_opt_check(const ilpm_opt_spec *spec, const char *value, ilpm_err *err)
{
    long x;
    if (spec->type == ILPM_OPT_FLAG || !spec->arg)
        return value ? ilpm_err_input(err, "option --%s takes no value",
                                      spec->name)
                     : 0;
    if (!value)
        return ilpm_err_input(err, "option --%s needs a value", spec->name);
    switch (spec->type) {
    case ILPM_OPT_INT:
        return int_in(spec->name, value, spec->lo, spec->hi, &x, err);
    case ILPM_OPT_CHOICE:
        return choice_in(spec->name, value, spec->choices, err) < 0 ? -1 : 0;
    default:
        return 0;
    }
}

size_t ilpm_params_count(const ilpm_params *p)
{
    return p ? p->n : 0;
}

const char *ilpm_params_name_at(const ilpm_params *p, size_t i)
{
    return i < p->n ? p->e[i].name : NULL;
}

ilpm_params *ilpm_params_copy(const ilpm_params *p)
{
    ilpm_params *q = ilpm_params_new();
    if (!q)
        return NULL;
    for (size_t i = 0; p && i < p->n; i++)
        if (ilpm_params_set(q, p->e[i].name, p->e[i].value) != 0) {
            ilpm_params_free(q);
            return NULL;
        }
    return q;
}

/* ------------------------------------------------------------------ */
/* splitmix64                                                            */

void ilpm_rng_seed(ilpm_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t ilpm_rng_next(ilpm_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t ilpm_rng_below(ilpm_rng *r, uint64_t n)
{
    /* Rejection keeps the draw uniform. */
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = ilpm_rng_next(r);
    while (x >= lim);
    return x % n;
}

/* ------------------------------------------------------------------ */
/* Pieces of the puzzles' parsers                                       */

const char *ilpm_show_char(char ch, char *buf, size_t size)
{
    unsigned char u = (unsigned char)ch;
    if (u >= 0x20 && u < 0x7f && u != '\'')
        snprintf(buf, size, "'%c'", ch);
    else
        snprintf(buf, size, "'\\x%02x'", u);
    return buf;
}

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
