/* The walk over the table of model files' formats (format.h): a row by
 * name or by a file's extension, and their names for messages. */
#include "format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const ilpm_file_format *ilpm_format_find(const char *name)
{
    for (int i = 0; ilpm_file_formats[i]; i++)
        if (strcmp(ilpm_file_formats[i]->name, name) == 0)
            return ilpm_file_formats[i];
    return NULL;
}

/* Whether name[0..n) ends in "." ext, in any case. */
static int ends_in(const char *name, size_t n, const char *ext)
{
    size_t e = strlen(ext);
    return n > e + 1 && name[n - e - 1] == '.' &&
           strncasecmp(name + n - e, ext, e) == 0;
}

const ilpm_file_format *ilpm_format_of_path(const char *path, int *gz, int *xz)
{
    size_t n = strlen(path);
    *gz = ends_in(path, n, "gz");
    *xz = ends_in(path, n, "xz");
    if (*gz || *xz)
        n -= 3;
    for (int i = 0; ilpm_file_formats[i]; i++)
        for (const char *const *e = ilpm_file_formats[i]->exts; e && *e; e++)
            if (ends_in(path, n, *e))
                return ilpm_file_formats[i];
    return NULL;
}

static int meets(const ilpm_file_format *f, ilpm_format_need need)
{
    switch (need) {
    case ILPM_FORMATS_READ:
        return f->reader != NULL;
    case ILPM_FORMATS_WRITE:
        return f->write != NULL;
    case ILPM_FORMATS_GZIP:
        return f->reader && (f->carries & ILPM_CARRIES_GZIP);
    }
    return 0;
}

size_t ilpm_format_names(ilpm_format_need need, int ext, const char *pre,
                         const char *sep, char *buf, size_t size)
{
    size_t n = 0;
    int first = 1;
    if (size)
        buf[0] = '\0';
    for (int i = 0; ilpm_file_formats[i]; i++) {
        const ilpm_file_format *f = ilpm_file_formats[i];
        if (!meets(f, need))
            continue;
        const char *one[] = {f->name, NULL};
        for (const char *const *s = ext ? f->exts : one; s && *s; s++) {
            int k =
                snprintf(buf + (n < size ? n : size), n < size ? size - n : 0,
                         "%s%s%s", first ? "" : sep, pre, *s);
            n += k > 0 ? (size_t)k : 0;
            first = 0;
        }
    }
    return n;
}
