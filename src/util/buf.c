/* The growable string buffer (ilpm_buf) with its JSON and CSV quoting. */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (ilpm_grow((void **)&b->s, &b->cap, need, 1) != 0) {
        b->oom = 1;
        return -1;
    }
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
