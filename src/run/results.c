/* Results files of batches: read by column name (the ilpm columns in any
 * order, rows of older ilpm versions given the current columns) and their
 * keys (the set of runs a --resume finds done: results_done.c; merge:
 * merge.c). */
#include "batch_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ilpm_results_csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            char *w = ++p;
            fields[n++] = w;
            for (;;) {
                if (*p == '\0')
                    break;
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
            }
            *w = '\0';
            while (*p && *p != ',')
                p++;
        } else {
            fields[n++] = p;
            while (*p && *p != ',')
                p++;
        }
        if (*p != ',') {
            if (*p)
                *p = '\0';
            break;
        }
        *p++ = '\0';
    }
    return n;
}

/* The code point of a \u escape and its four hex digits at s (on the
 * 'u'), moving *s to the last digit; -1 when malformed. */
static long hex4(const char **s)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *++*s;
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static void put_utf8(ilpm_buf *b, long cp)
{
    if (cp < 0x80) {
        ilpm_buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        ilpm_buf_putc(b, (char)(0xc0 | cp >> 6));
        ilpm_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        ilpm_buf_putc(b, (char)(0xe0 | cp >> 12));
        ilpm_buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3f)));
        ilpm_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        ilpm_buf_putc(b, (char)(0xf0 | cp >> 18));
        ilpm_buf_putc(b, (char)(0x80 | (cp >> 12 & 0x3f)));
        ilpm_buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3f)));
        ilpm_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    }
}

int ilpm_results_json_text(const char *s, ilpm_buf *b)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (*s != '"')
        return -1;
    for (s++; *s != '"'; s++) {
        if (!*s)
            return -1;
        if (*s != '\\') {
            ilpm_buf_putc(b, *s);
            continue;
        }
        const char *e = *++s ? strchr(from, *s) : NULL;
        if (e) {
            ilpm_buf_putc(b, to[e - from]);
            continue;
        }
        long cp = *s == 'u' ? hex4(&s) : -1;
        /* A pair of surrogates is one code point. */
        if (cp >= 0xd800 && cp < 0xdc00 && s[1] == '\\' && s[2] == 'u') {
            s += 2;
            long lo = hex4(&s);
            cp = lo >= 0xdc00 && lo < 0xe000
                     ? 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
                     : -1;
        }
        if (cp < 0)
            return -1;
        put_utf8(b, cp);
    }
    return 0;
}

/* The JSON string at v into b, in place of what b held ("" when v is
 * NULL): 0, or -1 when malformed or out of memory. */
static int json_text_at(const char *v, ilpm_buf *b)
{
    ilpm_buf_clear(b);
    if (!v)
        return 0;
    if (ilpm_results_json_text(v, b) == 0 && !b->oom)
        return 0;
    ilpm_buf_clear(b); /* a malformed text is "" (oom stays set) */
    return -1;
}

/* The value after "key": in the record's head (before "solution"). */
static const char *json_find(const char *line, const char *key)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *end = strstr(line, "\"solution\":");
    const char *p = strstr(line, pat);
    if (!p || (end && p > end))
        return NULL;
    return p + strlen(pat);
}

/* The value after "key": of an error row, among the members after its
 * "solution":null (error, reason, worker, stopped_by). */
static const char *json_find_tail(const char *line, const char *key)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *tail = strstr(line, "\"solution\":null");
    const char *p = tail ? strstr(tail, pat) : NULL;
    return p ? p + strlen(pat) : NULL;
}

/* Rows of ilpm before the stopped_by column told that a worker was killed
 * or stopped from outside in the error text alone: "worker N died:
 * killed by signal S ..." or "worker N died: stopped by SIGTERM".  The
 * signal's name when S is one from outside, else NULL. */
static const char *legacy_stopped_by(const char *error)
{
    static const char died[] = " died: killed by signal ";
    if (strncmp(error, "worker ", 7) != 0)
        return NULL;
    if (strstr(error, " died: stopped by SIGTERM"))
        return ilpm_pool_outside_signal(SIGTERM);
    const char *d = strstr(error, died);
    return d ? ilpm_pool_outside_signal(atoi(d + sizeof died - 1)) : NULL;
}

/* The column of a CSV header named name, or -1. */
static int column_of(const char *header, const char *name)
{
    char *h = strdup(header);
    char *f[64];
    int n = h ? ilpm_results_csv_split(h, f, 64) : 0, at = -1;
    for (int i = 0; i < n && at < 0; i++)
        if (strcmp(f[i], name) == 0)
            at = i;
    free(h);
    return at;
}

/* A results file written before a column was added (count_complete) has
 * a header whose columns are all current ones, in the same or another
 * order: its rows are read as rows of the current columns, the missing
 * ones empty (unknown).  Fills map[j] with the file's column for the
 * current column j (-1 when it has none) and returns how many current
 * columns there are; 0 when the header is the current one or not of
 * that kind (another tool's file is read as it is). */
static int upgrade_map(const char *header, const char *current, int *map,
                       int max)
{
    if (strcmp(header, current) == 0)
        return 0;
    char *h = strdup(header), *c = strdup(current);
    char *hf[64], *cf[64];
    int nh = h ? ilpm_results_csv_split(h, hf, 64) : 0;
    int nc = c ? ilpm_results_csv_split(c, cf, 64) : 0;
    int ok = h && c && nc <= max && nh <= nc;
    for (int j = 0; ok && j < nc; j++) {
        map[j] = -1;
        for (int i = 0; i < nh; i++)
            if (strcmp(hf[i], cf[j]) == 0)
                map[j] = i;
    }
    /* Every column of the file must be a current one, named once. */
    for (int i = 0; ok && i < nh; i++) {
        int found = 0;
        for (int j = 0; j < nc; j++)
            found += map[j] == i;
        ok = found == 1;
    }
    free(h);
    free(c);
    return ok ? nc : 0;
}

/* The row `line` of a file upgraded by map (n current columns).  A file
 * without stopped_by has it filled from the error column's text
 * (columns err and stop of the current header). */
static char *upgrade_row(const char *line, const int *map, int n, int err,
                         int stop, int *nfields)
{
    char *copy = strdup(line);
    char *f[64];
    *nfields = copy ? ilpm_results_csv_split(copy, f, 64) : 0;
    if (!copy)
        return NULL;
    ilpm_buf b;
    ilpm_buf_init(&b);
    for (int j = 0; j < n; j++) {
        if (j)
            ilpm_buf_putc(&b, ',');
        if (map[j] >= 0 && map[j] < *nfields)
            ilpm_buf_csv_str(&b, f[map[j]]);
        else if (j == stop && err >= 0 && map[err] >= 0 &&
                 map[err] < *nfields && legacy_stopped_by(f[map[err]]))
            ilpm_buf_puts(&b, legacy_stopped_by(f[map[err]]));
    }
    free(copy);
    if (b.oom) {
        ilpm_buf_free(&b);
        return NULL;
    }
    return ilpm_buf_take(&b);
}

/* The status a row names, or -1. */
static int status_of(const char *name)
{
    for (int s = 0; s < ILPM_STATUS_COUNT; s++)
        if (strcmp(name, ilpm_status_name((ilpm_status)s)) == 0)
            return s;
    return -1;
}

void ilpm_results_keyset_free(struct keyset *ks)
{
    for (size_t i = 0; i < ks->n; i++) {
        free(ks->k[i].file); /* form and backend share its block */
        if (ks->lines)
            free(ks->lines[i]);
    }
    free(ks->k);
    free(ks->lines);
    free(ks->header);
    memset(ks, 0, sizeof *ks);
}

/* The key's texts, of any length, in one block that key->file owns: 0,
 * or -1 when out of memory. */
static int key_texts(rowkey *key, const char *file, const char *form,
                     const char *backend)
{
    size_t lf = strlen(file) + 1, lo = strlen(form) + 1;
    size_t lb = strlen(backend) + 1;
    char *t = malloc(lf + lo + lb);
    if (!t)
        return -1;
    key->file = memcpy(t, file, lf);
    key->form = memcpy(t + lf, form, lo);
    key->backend = memcpy(t + lf + lo, backend, lb);
    return 0;
}

/* What results_read keeps from line to line of one file. */
typedef struct rstate {
    ilpm_reader *rd;
    struct keyset *ks;
    ilpm_buf cur; /* the current CSV header, without its line end */
    int cur_err, cur_stop;
    int map[64], nmap, nold; /* an older header's columns (upgrade_map) */
    int col_file, col_index, col_form, col_backend, col_status, col_error,
        col_stop, ncols;
} rstate;

/* The columns of a CSV header by name: 0, or -1 with err when the file
 * is not a results file or not of the other files' header. */
static int csv_columns(rstate *s, const char *line, ilpm_err *err)
{
    struct keyset *ks = s->ks;
    /* The key columns are the file's own (an older header gains the
     * others, never these). */
    if (column_of(line, "file") < 0 || column_of(line, "index") < 0 ||
        column_of(line, "backend") < 0)
        return ilpm_reader_error(s->rd, err, 1,
                                 "not an ilpm results file (no file, index "
                                 "and backend columns)");
    if ((s->nmap = upgrade_map(line, ilpm_buf_str(&s->cur), s->map, 64))) {
        char *copy = strdup(line);
        char *f[64];
        s->nold = copy ? ilpm_results_csv_split(copy, f, 64) : 0;
        free(copy);
        line = ilpm_buf_str(&s->cur);
        ks->upgraded = 1;
    }
    if (ks->header && strcmp(ks->header, line) != 0)
        return ilpm_reader_error(s->rd, err, 1,
                                 "CSV header differs from the other "
                                 "results files");
    if (!ks->header && !(ks->header = strdup(line)))
        return ilpm_err_nomem(err, "out of memory");
    static const char *const name[7] = {"file",      "index",  "formulation",
                                        "backend",   "status", "error",
                                        "stopped_by"};
    int *col[7] = {&s->col_file,   &s->col_index, &s->col_form, &s->col_backend,
                   &s->col_status, &s->col_error, &s->col_stop};
    char *copy = strdup(line);
    char *f[64];
    s->ncols = copy ? ilpm_results_csv_split(copy, f, 64) : 0;
    for (int i = 0; i < s->ncols; i++)
        for (int k = 0; k < 7; k++)
            if (!strcmp(f[i], name[k]))
                *col[k] = i;
    free(copy);
    if (s->col_file < 0 || s->col_index < 0 || s->col_backend < 0)
        return ilpm_reader_error(s->rd, err, 1,
                                 "not an ilpm results file (no file, index "
                                 "and backend columns)");
    return 0;
}

/* The first line: JSON lines (1: a row, read on) or a CSV header (0:
 * read, the rows follow), or -1 with err. */
static int first_line(rstate *s, const char *line, ilpm_err *err)
{
    s->ks->json = line[0] == '{';
    if (!s->ks->json)
        return csv_columns(s, line, err);
    if (!json_find(line, "file") || !json_find(line, "index") ||
        !json_find(line, "backend"))
        return ilpm_reader_error(s->rd, err, 1,
                                 "not an ilpm results file (a JSON line "
                                 "without file, index and backend)");
    return 1;
}

/* The key of a JSON line: 0, or -1 when out of memory. */
static int key_json(const char *line, rowkey *key)
{
    ilpm_buf t[4]; /* file, formulation, backend, status */
    static const char *const name[4] = {"file", "formulation", "backend",
                                        "status"};
    for (int i = 0; i < 4; i++) {
        ilpm_buf_init(&t[i]);
        json_text_at(json_find(line, name[i]), &t[i]);
    }
    const char *v = json_find(line, "index");
    const char *st = ilpm_buf_str(&t[3]);
    key->index = v ? strtol(v, NULL, 10) : 0;
    key->stopped = strcmp(st, "stopped") == 0;
    key->status = status_of(st);
    /* An error row cut off from outside: stopped_by, or in rows of an
     * older ilpm, its error text. */
    if (strcmp(st, "error") == 0) {
        ilpm_buf by;
        ilpm_buf_init(&by);
        if ((v = json_find_tail(line, "stopped_by")))
            key->stopped |= json_text_at(v, &by) == 0 && by.len > 0;
        else if ((v = json_find_tail(line, "error")))
            key->stopped |= json_text_at(v, &by) == 0 &&
                            legacy_stopped_by(ilpm_buf_str(&by));
        ilpm_buf_free(&by);
    }
    int oom = t[0].oom || t[1].oom || t[2].oom ||
              key_texts(key, ilpm_buf_str(&t[0]), ilpm_buf_str(&t[1]),
                        ilpm_buf_str(&t[2])) != 0;
    for (int i = 0; i < 4; i++)
        ilpm_buf_free(&t[i]);
    return oom ? -1 : 0;
}

/* The key of a CSV row: 0, or -1 with err. */
static int key_csv(const rstate *s, const char *line, rowkey *key,
                   ilpm_err *err)
{
    char *copy = strdup(line);
    char *f[64];
    if (!copy)
        return ilpm_err_nomem(err, "out of memory");
    int n = ilpm_results_csv_split(copy, f, 64);
    if (n <= s->col_backend || n <= s->col_file || n <= s->col_index) {
        free(copy);
        return ilpm_reader_error(s->rd, err, 1,
                                 "a row with %d fields, the header has %d", n,
                                 s->ncols);
    }
    key->index = strtol(f[s->col_index], NULL, 10);
    int has_st = s->col_status >= 0 && n > s->col_status;
    key->stopped = has_st && strcmp(f[s->col_status], "stopped") == 0;
    key->status = has_st ? status_of(f[s->col_status]) : -1;
    /* Cut off from outside: stopped_by, or, in a file of another shape
     * without it, the error text of older ilpm. */
    if (s->col_stop >= 0)
        key->stopped |= n > s->col_stop && f[s->col_stop][0] != '\0';
    else
        key->stopped |= s->col_error >= 0 && n > s->col_error &&
                        legacy_stopped_by(f[s->col_error]) != NULL;
    const char *form =
        s->col_form >= 0 && n > s->col_form ? f[s->col_form] : "";
    int rc = key_texts(key, f[s->col_file], form, f[s->col_backend]);
    free(copy);
    return rc != 0 ? ilpm_err_nomem(err, "out of memory") : 0;
}

/* Adds the row and its key (whose texts ks then owns): 0, or -1 when out
 * of memory (the key's texts freed). */
static int keyset_add(struct keyset *ks, rowkey *key, const char *line,
                      int keep_lines)
{
    /* Two arrays of one capacity: each grows from it alike. */
    size_t capk = ks->cap, capl = ks->cap;
    char *copy = NULL;
    if (ilpm_grow((void **)&ks->k, &capk, ks->n + 1, sizeof *ks->k) != 0 ||
        (keep_lines && (ilpm_grow((void **)&ks->lines, &capl, ks->n + 1,
                                  sizeof *ks->lines) != 0 ||
                        !(copy = strdup(line))))) {
        free(key->file);
        return -1;
    }
    ks->cap = keep_lines && capl < capk ? capl : capk;
    if (keep_lines)
        ks->lines[ks->n] = copy;
    ks->k[ks->n++] = *key;
    return 0;
}

/* One line of the file (after its CSV header): 0, or -1 with err. */
static int read_row(rstate *s, const char *line, int keep_lines, ilpm_err *err)
{
    char *row = NULL; /* the line, upgraded */
    int n;
    if (s->nmap > 0 && line[0] != '{') {
        if (!(row = upgrade_row(line, s->map, s->nmap, s->cur_err, s->cur_stop,
                                &n)))
            return ilpm_err_nomem(err, "out of memory");
        if (n > s->nold) {
            free(row);
            return ilpm_reader_error(s->rd, err, 1,
                                     "a row with %d fields, the header has "
                                     "%d",
                                     n, s->nold);
        }
        line = row;
    }
    rowkey key;
    memset(&key, 0, sizeof key);
    int rc = 0;
    if (s->ks->json != (line[0] == '{'))
        rc = ilpm_reader_error(s->rd, err, 1, "mixes JSON and CSV rows");
    else if (s->ks->json && key_json(line, &key) != 0)
        rc = ilpm_err_nomem(err, "out of memory");
    else if (!s->ks->json)
        rc = key_csv(s, line, &key, err);
    /* A row's index is an instance's number (1, 2, ...): without one,
     * --resume could not find its run again. */
    if (rc == 0 && key.index < 1) {
        free(key.file);
        rc = ilpm_reader_error(s->rd, err, 1,
                               "a row whose index is not an instance "
                               "number (1, 2, ...)");
    }
    if (rc == 0 && keyset_add(s->ks, &key, line, keep_lines) != 0)
        rc = ilpm_err_nomem(err, "out of memory");
    free(row);
    return rc;
}

/* The size of the regular file path, and whether its last byte ends a
 * line (a file that cannot be told, standard input: 1). */
static int ends_line(const char *path, int64_t *size)
{
    struct stat st;
    *size = -1;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_size == 0)
        return 1;
    FILE *f = fopen(path, "rb");
    int c = f && fseek(f, -1L, SEEK_END) == 0 ? fgetc(f) : '\n';
    if (f)
        fclose(f);
    *size = st.st_size;
    return c == '\n';
}

/* A line that reaches the end of a file without its line end is a row
 * a batch was writing when it stopped (killed, a full disk): merge's
 * error (1, err set), --resume's to run again (1: left unread), or 0
 * (a line like any other: the probe's head). */
static int cut_line(rstate *s, int64_t at, int64_t size, size_t len,
                    int keep_lines, size_t max, ilpm_err *err)
{
    if (max != 0 || ilpm_reader_offset(s->rd, NULL) != size)
        return 0;
    if (keep_lines) {
        ilpm_reader_error(s->rd, err, (long)len + 1,
                          "a row cut off (no line end): a batch stopped "
                          "while writing it; 'ilpm batch ... --resume' "
                          "runs it again");
        return -1;
    }
    s->ks->cut = 1;
    s->ks->cut_at = at;
    return 1;
}

/* Reads the rows of a results file; keep_lines keeps their text; stops
 * after max rows (0: all). */
static int results_read(const char *path, struct keyset *ks, int keep_lines,
                        int must_exist, size_t max, ilpm_err *err)
{
    rstate s = {.ks = ks,
                .col_file = -1,
                .col_index = -1,
                .col_form = -1,
                .col_backend = -1,
                .col_status = -1,
                .col_error = -1,
                .col_stop = -1};
    if (!(s.rd = ilpm_reader_open(path, err)))
        return must_exist ? -1 : 0;
    const char *line;
    size_t len;
    int first = 1, rc = 0, r;
    ilpm_buf_init(&s.cur);
    ilpm_result_csv_header(&s.cur);
    if (s.cur.len > 0)
        s.cur.s[--s.cur.len] = '\0'; /* the line end */
    s.cur_err = column_of(ilpm_buf_str(&s.cur), "error");
    s.cur_stop = column_of(ilpm_buf_str(&s.cur), "stopped_by");
    int64_t size, next = 0;
    int whole = ends_line(path, &size);
    while (rc == 0 && (max == 0 || ks->n < max) &&
           (r = ilpm_reader_line(s.rd, &line, &len, err)) != 0) {
        int64_t at = next; /* where the line starts */
        next = ilpm_reader_offset(s.rd, NULL);
        if (r < 0 || len == 0) {
            rc = r < 0 ? -1 : 0;
            continue;
        }
        if (!whole && (r = cut_line(&s, at, size, len, keep_lines, max, err)))
            rc = r < 0 ? -1 : 0;
        if (rc != 0 || ks->cut)
            continue;
        if (first) {
            first = 0;
            if ((rc = first_line(&s, line, err)) <= 0)
                continue; /* a CSV header, or not a results file */
        }
        rc = read_row(&s, line, keep_lines, err);
    }
    /* A results file holds at least a CSV header or a JSON row; one
     * that is to be read as one (merge) and holds neither is not one,
     * but for an empty file named as JSON lines: those of no row (a
     * shard without runs). */
    int64_t end = ilpm_reader_offset(s.rd, NULL);
    if (rc == 0 && first && must_exist && end == 0 &&
        ilpm_results_name_format(path) == 1)
        ks->json = 1;
    else if (rc == 0 && first && must_exist)
        rc = ilpm_err_input(err, "%s: not an ilpm results file (%s)",
                            ilpm_reader_name(s.rd),
                            end > 0 ? "blank lines only" : "an empty file");
    ilpm_buf_free(&s.cur);
    ilpm_reader_free(s.rd);
    return rc;
}

int ilpm_results_read(const char *path, struct keyset *ks, int keep_lines,
                      int must_exist, ilpm_err *err)
{
    return results_read(path, ks, keep_lines, must_exist, 0, err);
}

int ilpm_results_name_format(const char *path)
{
    size_t n = strlen(path);
    const char *const json[] = {".json", ".jsonl"};
    for (int i = 0; i < 2; i++) {
        size_t k = strlen(json[i]);
        if (n >= k && strcmp(path + n - k, json[i]) == 0)
            return 1;
    }
    return n >= 4 && strcmp(path + n - 4, ".csv") == 0 ? 0 : -1;
}

int ilpm_results_probe(const char *path, int *json, ilpm_err *err)
{
    struct stat st;
    /* Only a regular file is read: a FIFO would wait for a writer. */
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_size == 0)
        return 0;
    struct keyset ks = {0};
    /* The head of the file tells; a bad row further on is --resume's
     * and merge's to report with its line. */
    int rc = results_read(path, &ks, 0, 1, 1, err);
    if (rc == 0)
        *json = ks.json;
    ilpm_results_keyset_free(&ks);
    return rc == 0 ? 1 : -1;
}

/* Writes the rows of path again, in order, under the current header
 * (ilpm_results_read upgrades older ones). */
int ilpm_results_rewrite(const char *path, ilpm_err *err)
{
    struct keyset ks = {0};
    if (ilpm_results_read(path, &ks, 1, 1, err) != 0) {
        ilpm_results_keyset_free(&ks);
        return -1;
    }
    /* Replaced only once complete, as every output is (ilpm_out). */
    ilpm_out *out = ilpm_out_open(path, ILPM_OUT_REPLACE, err);
    if (!out) {
        ilpm_results_keyset_free(&ks);
        return ilpm_err_io(err);
    }
    if (ks.header) {
        ilpm_out_write(out, ks.header, strlen(ks.header));
        ilpm_out_write(out, "\n", 1);
    }
    for (size_t i = 0; i < ks.n; i++) {
        ilpm_out_write(out, ks.lines[i], strlen(ks.lines[i]));
        ilpm_out_write(out, "\n", 1);
    }
    ilpm_results_keyset_free(&ks);
    return ilpm_out_commit(out, err) != 0 ? ilpm_err_io(err) : 0;
}
