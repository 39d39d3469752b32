/* How a message shows a piece of what it read (a byte, a token, a
 * field): one rule for every reader, so that a control byte in a file
 * (an escape sequence that would recolour the terminal) never reaches
 * the terminal raw, and every message writes it alike. */
#include "util.h"

#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s[0..n) of a character past
 * ASCII, 0 if there is none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xc2 && s[0] <= 0xdf   ? 2
               : s[0] >= 0xe0 && s[0] <= 0xef ? 3
               : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                              : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return k;
}

const char *ilpm_show(const char *t, size_t n, char *out, size_t size)
{
    size_t o = 0;
    if (size == 0)
        return out;
    for (size_t i = 0; i < n;) {
        const unsigned char *u = (const unsigned char *)t + i;
        size_t k = u[0] >= 0x80 ? utf8_len(u, n - i) : 1;
        char piece[8];
        if (k == 1 && u[0] >= 0x20 && u[0] < 0x7f && u[0] != '\'' &&
            u[0] != '\\') {
            piece[0] = (char)u[0];
            piece[1] = '\0';
        } else if (k > 1) {
            memcpy(piece, u, k);
            piece[k] = '\0';
        } else {
            snprintf(piece, sizeof piece, "\\x%02x", u[0]);
            k = 1;
        }
        size_t len = strlen(piece);
        /* Room for the piece, and for "..." after it should more come. */
        if (i >= ILPM_SHOW_MAX || o + len + 4 > size) {
            if (o + 4 <= size)
                memcpy(out + o, "...", 3), o += 3;
            break;
        }
        memcpy(out + o, piece, len);
        o += len;
        i += k;
    }
    out[o] = '\0';
    return out;
}

const char *ilpm_show_char(char ch, char *buf, size_t size)
{
    char shown[8];
    snprintf(buf, size, "'%s'", ilpm_show(&ch, 1, shown, sizeof shown));
    return buf;
}
