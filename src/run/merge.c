/* merge: results files combined into one, sorted by key, in the format
 * the output's name asks for.  Rows of the other format are converted:
 * a JSON line's members and a CSV row's columns go by the same names
 * (the CSV header's); a value is written as ilpm_result_json and
 * ilpm_result_csv write it: texts as strings, numbers and flags as they
 * are, the solution as its JSON text, a size or a solution that is not
 * there as null, other columns left out when empty.  A member CSV has no
 * column for (reason) is not kept. */
#include "batch_int.h"

#include <stdlib.h>
#include <string.h>

/* --- JSON -------------------------------------------------------------- */

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Past the JSON string whose quote s is on, or NULL. */
static const char *skip_string(const char *s)
{
    for (s++; *s && *s != '"'; s++)
        if (*s == '\\' && !*++s)
            return NULL;
    return *s == '"' ? s + 1 : NULL;
}

/* Past the JSON value at s (a string, an array or object with what it
 * nests, or a scalar up to the next ',', ']' or '}'), or NULL. */
static const char *skip_value(const char *s)
{
    if (*s == '"')
        return skip_string(s);
    if (*s != '[' && *s != '{') {
        const char *e = s;
        while (*e && !strchr(",]} \t", *e))
            e++;
        return e > s ? e : NULL;
    }
    int depth = 0;
    for (; *s; s++) {
        if (*s == '"') {
            if (!(s = skip_string(s)))
                return NULL;
            s--;
        } else if (*s == '[' || *s == '{') {
            depth++;
        } else if ((*s == ']' || *s == '}') && --depth == 0) {
            return s + 1;
        }
    }
    return NULL;
}

/* The members of the JSON object line: names and values as slices of
 * line; their number, or -1 when line is no flat object of them. */
typedef struct member {
    const char *name, *value, *end;
    size_t name_len;
} member;

static int members(const char *line, member *m, int max)
{
    const char *s = skip_ws(line);
    int n = 0;
    if (*s++ != '{')
        return -1;
    s = skip_ws(s);
    if (*s == '}')
        return 0;
    for (;;) {
        const char *name = s, *e = *s == '"' ? skip_string(s) : NULL;
        if (!e || n == max)
            return -1;
        s = skip_ws(e);
        if (*s++ != ':')
            return -1;
        s = skip_ws(s);
        const char *end = skip_value(s);
        if (!end)
            return -1;
        m[n++] = (member){name + 1, s, end, (size_t)(e - name - 2)};
        s = skip_ws(end);
        if (*s == '}')
            return n;
        if (*s++ != ',')
            return -1;
        s = skip_ws(s);
    }
}

/* --- the columns ------------------------------------------------------- */

enum kind {
    TEXT,     /* a string, left out when empty                      */
    TEXT_ALL, /* a string, always there                             */
    NULLABLE, /* a JSON value, null when empty                      */
    SCALAR    /* a number or a flag as it is, left out when empty   */
};

static enum kind kind_of(const char *name)
{
    static const char *const text[] = {"file", "formulation", "error", "reason",
                                       "stopped_by"};
    static const char *const always[] = {"puzzle", "instance", "backend",
                                         "status"};
    for (size_t i = 0; i < sizeof text / sizeof *text; i++)
        if (strcmp(name, text[i]) == 0)
            return TEXT;
    for (size_t i = 0; i < sizeof always / sizeof *always; i++)
        if (strcmp(name, always[i]) == 0)
            return TEXT_ALL;
    if (strcmp(name, "solution") == 0)
        return NULLABLE;
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        if (strcmp(name, c->name) == 0)
            return NULLABLE;
    return SCALAR;
}

/* Whether v is one JSON value, all of it (a CSV field given as one). */
static int whole_value(const char *v)
{
    const char *e = *v ? skip_value(v) : NULL;
    return e && *e == '\0';
}

int ilpm_results_row_to_json(const char *row, const char *header, ilpm_buf *out)
{
    char *h = strdup(header), *r = strdup(row);
    char *name[64], *val[64];
    int nh = h ? ilpm_results_csv_split(h, name, 64) : 0;
    int nr = r ? ilpm_results_csv_split(r, val, 64) : 0;
    int rc = h && r && nr <= nh ? 0 : -1;
    /* error is there, even empty, in a row whose status is error. */
    int error_row = 0;
    for (int i = 0; rc == 0 && i < nr; i++)
        error_row |= !strcmp(name[i], "status") && !strcmp(val[i], "error");
    int n = 0;
    for (int i = 0; rc == 0 && i < nh; i++) {
        const char *v = i < nr ? val[i] : "";
        enum kind k = kind_of(name[i]);
        if (!*v && (k == TEXT || k == SCALAR) &&
            !(error_row && !strcmp(name[i], "error")))
            continue;
        ilpm_buf_puts(out, n++ ? "," : "{");
        ilpm_buf_json_str(out, name[i]);
        ilpm_buf_putc(out, ':');
        if (!*v && k == NULLABLE)
            ilpm_buf_puts(out, "null");
        else if (k == TEXT || k == TEXT_ALL || !whole_value(v))
            ilpm_buf_json_str(out, v);
        else
            ilpm_buf_puts(out, v);
    }
    if (rc == 0)
        ilpm_buf_puts(out, n ? "}" : "{}");
    free(h);
    free(r);
    return rc;
}

int ilpm_results_row_to_csv(const char *line, const char *header, ilpm_buf *out)
{
    member m[64];
    int nm = members(line, m, 64);
    char *h = strdup(header);
    char *name[64];
    int nh = h ? ilpm_results_csv_split(h, name, 64) : 0;
    int rc = h && nm >= 0 ? 0 : -1;
    ilpm_buf text;
    ilpm_buf_init(&text);
    for (int i = 0; rc == 0 && i < nh; i++) {
        if (i)
            ilpm_buf_putc(out, ',');
        const member *f = NULL;
        for (int k = 0; k < nm && !f; k++)
            if (m[k].name_len == strlen(name[i]) &&
                !strncmp(m[k].name, name[i], m[k].name_len))
                f = &m[k];
        size_t len = f ? (size_t)(f->end - f->value) : 0;
        if (!f || (len == 4 && !strncmp(f->value, "null", 4)))
            continue;
        ilpm_buf_clear(&text);
        /* The solution column holds JSON text, a string's quotes too. */
        if (*f->value == '"' && kind_of(name[i]) != NULLABLE)
            rc = ilpm_results_json_text(f->value, &text);
        else
            ilpm_buf_put(&text, f->value, len);
        if (rc == 0 && !text.oom)
            ilpm_buf_csv_str(out, ilpm_buf_str(&text));
    }
    if (text.oom)
        rc = -1;
    ilpm_buf_free(&text);
    free(h);
    return rc;
}

/* ------------------------------------------------------------------ */
/* merge                                                                 */

struct order {
    const struct keyset *ks;
    size_t i;
    int file_rank;
    size_t seq;
};

static int cmp_rows(const void *a, const void *b)
{
    const struct order *x = a, *y = b;
    const rowkey *kx = &x->ks->k[x->i], *ky = &y->ks->k[y->i];
    if (x->file_rank != y->file_rank)
        return x->file_rank < y->file_rank ? -1 : 1;
    if (kx->index != ky->index)
        return kx->index < ky->index ? -1 : 1;
    int c = strcmp(kx->form, ky->form);
    if (c)
        return c;
    c = strcmp(kx->backend, ky->backend);
    if (c)
        return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The CSV header the rows of a merge go under: the CSV inputs' (all
 * alike), else the current one. */
static char *merge_header(const struct keyset *ks)
{
    if (ks->header)
        return strdup(ks->header);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_result_csv_header(&b);
    if (b.len > 0)
        b.s[--b.len] = '\0'; /* the line end */
    char *h = b.oom ? NULL : ilpm_buf_take(&b);
    ilpm_buf_free(&b);
    return h;
}

/* Writes row in the format json asks for (converted if it is in the
 * other), with its line end: 0, or -1 when it does not convert (a write
 * that fails is the commit's to report). */
static int merge_row(ilpm_out *f, const char *row, int json, const char *header,
                     ilpm_buf *conv)
{
    if ((row[0] == '{') != json) {
        ilpm_buf_clear(conv);
        int rc = json ? ilpm_results_row_to_json(row, header, conv)
                      : ilpm_results_row_to_csv(row, header, conv);
        if (rc != 0 || conv->oom)
            return -1;
        row = conv->s;
    }
    ilpm_out_write(f, row, strlen(row));
    ilpm_out_write(f, "\n", 1);
    return 0;
}

/* The rows of ks in merge's order: by file (in the order first met),
 * then the rest of the key; NULL when out of memory. */
static struct order *order_rows(struct keyset *ks)
{
    struct order *ord = calloc(ks->n + 1, sizeof *ord);
    const char **files = calloc(ks->n + 1, sizeof *files);
    if (!ord || !files) {
        free(ord);
        free(files);
        return NULL;
    }
    int nfiles = 0;
    for (size_t i = 0; i < ks->n; i++) {
        int r = -1;
        for (int f = 0; f < nfiles && r < 0; f++)
            if (strcmp(files[f], ks->k[i].file) == 0)
                r = f;
        if (r < 0) {
            files[nfiles] = ks->k[i].file;
            r = nfiles++;
        }
        ord[i] = (struct order){ks, i, r, i};
    }
    free(files);
    qsort(ord, ks->n, sizeof *ord, cmp_rows);
    return ord;
}

/* The rows in order to f, one a key (of rows with the same key, the
 * last one read wins): 0, or -1 with err. */
static int write_rows(ilpm_out *f, struct keyset *ks, const struct order *ord,
                      int json, const char *header, const char *out_path,
                      ilpm_err *err)
{
    ilpm_buf conv;
    ilpm_buf_init(&conv);
    int rc = 0;
    for (size_t i = 0; i < ks->n && rc == 0; i++) {
        if (i + 1 < ks->n &&
            cmp_rows(&(struct order){ks, ord[i].i, ord[i].file_rank, 0},
                     &(struct order){ks, ord[i + 1].i, ord[i + 1].file_rank,
                                     0}) == 0)
            continue;
        const rowkey *k = &ks->k[ord[i].i];
        if (merge_row(f, ks->lines[ord[i].i], json, header, &conv) == 0)
            continue;
        rc = -1;
        if (conv.oom)
            ilpm_err_nomem(err, "out of memory");
        else
            ilpm_err_input(err,
                           "%s: the row of %s, instance %ld, %s: cannot be "
                           "converted (a malformed row)",
                           out_path, k->file, k->index, k->backend);
    }
    ilpm_buf_free(&conv);
    return rc;
}

/* The format merge writes: the output's name chooses it as batch's --out
 * does (rows of the other format are converted); a name that does not
 * say takes the inputs' format, which must then be one.  1 JSON, 0 CSV,
 * -1 with err. */
static int merge_format(const char *out_path, int first_json, int mixed,
                        ilpm_err *err)
{
    int json = ilpm_results_name_format(out_path);
    if (json < 0 && mixed)
        return ilpm_err_input(err,
                              "%s: the inputs hold CSV and JSON lines: name "
                              "the output .csv or .jsonl to say which to "
                              "write",
                              out_path);
    return json < 0 ? first_json > 0 : json;
}

int ilpm_batch_merge(const char *const *inputs, int n, const char *out_path,
                     ilpm_err *err)
{
    struct keyset ks = {0};
    int rc = -1;
    struct order *ord = NULL;
    char *header = NULL;
    int first_json = -1, mixed = 0, json;
    for (int i = 0; i < n; i++) {
        if (ilpm_results_read(inputs[i], &ks, 1, 1, err) != 0)
            goto out;
        if (first_json < 0)
            first_json = ks.json;
        mixed |= first_json != ks.json;
    }
    if ((json = merge_format(out_path, first_json, mixed, err)) < 0)
        goto out;
    if (!(header = merge_header(&ks)) || !(ord = order_rows(&ks))) {
        ilpm_err_nomem(err, "out of memory");
        goto out;
    }
    ilpm_out *f = ilpm_out_open(out_path, ILPM_OUT_REPLACE, err);
    if (!f) {
        rc = ilpm_err_io(err);
        goto out;
    }
    if (!json) {
        ilpm_out_write(f, header, strlen(header));
        ilpm_out_write(f, "\n", 1);
    }
    if (write_rows(f, &ks, ord, json, header, out_path, err) != 0) {
        ilpm_out_abort(f);
        goto out;
    }
    /* A failed write is reported here. */
    rc = ilpm_out_commit(f, err) == 0 ? 0 : ilpm_err_io(err);
out:
    free(ord);
    free(header);
    ilpm_results_keyset_free(&ks);
    return rc;
}
