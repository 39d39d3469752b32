/* Numbers as the user typed them: one reading of an option's value for
 * every table (the command line's, the solver's, the puzzles'), so that
 * every option answers a mistake in the same words, and a number too
 * large to hold is called too large, never clamped to some other value. */
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The value shown in a message: as every message shows text it read
 * (ilpm_show: escaped, cut short when long). */
#define SHOWN "%s"
#define SHOW(s) ilpm_show((s), strlen(s), shown, sizeof shown)

int ilpm_parse_int(const char *name, const char *s, int64_t lo, int64_t hi,
                   int64_t *out, ilpm_err *err)
{
    char shown[ILPM_SHOW_SIZE];
    const char *p = s + (*s == '-' || *s == '+');
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || p[digits] != '\0')
        return ilpm_err_input(err,
                              "--%s: expected an integer from %" PRId64
                              " to %" PRId64 ", got '" SHOWN "'",
                              name, lo, hi, SHOW(s));
    errno = 0;
    long long x = strtoll(s, NULL, 10);
    if ((errno == ERANGE && *s != '-') || (errno != ERANGE && x > hi))
        return ilpm_err_input(
            err, "--%s: '" SHOWN "' is too large (at most %" PRId64 ")", name,
            SHOW(s), hi);
    if (errno == ERANGE || x < lo)
        return ilpm_err_input(err,
                              "--%s: expected an integer from %" PRId64
                              " to %" PRId64 ", got '" SHOWN "'",
                              name, lo, hi, SHOW(s));
    *out = (int64_t)x;
    return 0;
}

/* Decimal notation alone: digits with perhaps a point and an exponent;
 * strtod would also take blanks, hexadecimal, inf and nan. */
static int decimal(const char *s)
{
    const char *p = s + (*s == '-' || *s == '+');
    size_t a = strspn(p, "0123456789"), b = 0;
    p += a;
    if (*p == '.')
        b = strspn(++p, "0123456789"), p += b;
    if (a + b == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '-' || *p == '+';
        size_t e = strspn(p, "0123456789");
        if (e == 0)
            return 0;
        p += e;
    }
    return *p == '\0';
}

int ilpm_parse_real(const char *name, const char *s, double lo, double hi,
                    const char *what, double *out, ilpm_err *err)
{
    char shown[ILPM_SHOW_SIZE];
    const char *p = s + (*s == '+');
    if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0)
        return ilpm_err_input(err,
                              "--%s: '" SHOWN "' is too large (at most %.15g; "
                              "leave --%s out for none)",
                              name, SHOW(s), hi, name);
    if (!decimal(s))
        return ilpm_err_input(err,
                              "--%s: expected %s (a decimal number), got "
                              "'" SHOWN "'",
                              name, what, SHOW(s));
    errno = 0;
    double d = strtod(s, NULL);
    if (d > hi)
        return ilpm_err_input(err,
                              "--%s: '" SHOWN "' is too large (at most %.15g)",
                              name, SHOW(s), hi);
    if (!(d > lo))
        return ilpm_err_input(err, "--%s: expected %s, got '" SHOWN "'", name,
                              what, SHOW(s));
    *out = d;
    return 0;
}

const char *ilpm_fmt_scaled(int64_t v, int64_t scale, char *buf, size_t size)
{
    if (scale <= 1) {
        snprintf(buf, size, "%" PRId64, v);
        return buf;
    }
    int places = 0;
    for (int64_t s = scale; s > 1 && places < 18; s /= 10)
        places++;
    uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;
    snprintf(buf, size, "%s%" PRIu64 ".%0*" PRIu64, v < 0 ? "-" : "",
             a / (uint64_t)scale, places, a % (uint64_t)scale);
    return buf;
}

/* v / scale with the trailing zeros of its decimals taken off. */
static void reduce(int64_t *v, int64_t *scale)
{
    if (*scale < 1)
        *scale = 1;
    while (*scale > 1 && *v % 10 == 0) {
        *v /= 10;
        *scale /= 10;
    }
}

int ilpm_scaled_equal(int64_t a, int64_t sa, int64_t b, int64_t sb)
{
    reduce(&a, &sa);
    reduce(&b, &sb);
    return a == b && sa == sb;
}

int64_t ilpm_gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}
