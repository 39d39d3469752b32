/* The `model` puzzle's store of columns and rows (mdl.h), with a name
 * index for the parsers of formats that name their columns. */
#include "mdl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mdl_names {
    int *slot;  /* column + 1, 0 empty */
    size_t cap; /* a power of two */
};

mdl *ilpm_mdl_new(const ilpm_file_format *fmt, const char *file)
{
    mdl *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->fmt = fmt;
    d->infeasible_col = -1;
    d->obj_scale = 1;
    if (!(d->file = strdup(file))) {
        free(d);
        return NULL;
    }
    return d;
}

void ilpm_mdl_free(mdl *d)
{
    if (!d)
        return;
    if (d->tmp) {
        unlink(d->tmp);
        free(d->tmp);
    }
    for (int j = 0; d->col_name && j < d->ncols; j++)
        free(d->col_name[j]);
    for (int i = 0; d->row_name && i < d->nnames; i++)
        free(d->row_name[i]);
    if (d->index)
        free(d->index->slot);
    free(d->index);
    if (d->fmt && d->fmt->reader && d->fmt->reader->release)
        d->fmt->reader->release(d);
    free(d->file);
    free(d->path);
    free(d->text);
    free(d->col_name);
    free(d->lo);
    free(d->hi);
    free(d->rows);
    free(d->row_name);
    free(d->groups);
    free(d->col);
    free(d->coef);
    free(d->obj);
    free(d->first);
    free(d->nbits);
    free(d->direct);
    free(d->same);
    free(d->aux);
    free(d);
}

int ilpm_mdl_add_col(mdl *d, const char *name, int64_t lo, int64_t hi)
{
    int cap = d->colcap;
    if (ilpm_grow_int((void **)&d->lo, &cap, d->ncols + 1, sizeof *d->lo) != 0)
        return -1;
    cap = d->colcap;
    if (ilpm_grow_int((void **)&d->hi, &cap, d->ncols + 1, sizeof *d->hi) != 0)
        return -1;
    if (name) {
        cap = d->colcap;
        if (ilpm_grow_int((void **)&d->col_name, &cap, d->ncols + 1,
                          sizeof *d->col_name) != 0)
            return -1;
        if (!(d->col_name[d->ncols] = strdup(name)))
            return -1;
    }
    d->colcap = cap;
    d->lo[d->ncols] = lo;
    d->hi[d->ncols] = hi;
    return d->ncols++;
}

static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

static int rehash(mdl *d)
{
    mdl_names *x = d->index;
    size_t cap = x->cap ? x->cap * 2 : 1024;
    int *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (int j = 0; j < d->ncols; j++) {
        const char *s = d->col_name[j];
        size_t h = (size_t)hash(s, strlen(s)) & (cap - 1);
        while (slot[h])
            h = (h + 1) & (cap - 1);
        slot[h] = j + 1;
    }
    free(x->slot);
    x->slot = slot;
    x->cap = cap;
    return 0;
}

int ilpm_mdl_col_by_name(mdl *d, const char *name, size_t len)
{
    if (!d->index && !(d->index = calloc(1, sizeof *d->index)))
        return -1;
    mdl_names *x = d->index;
    if ((size_t)d->ncols * 2 + 2 > x->cap && rehash(d) != 0)
        return -1;
    size_t h = (size_t)hash(name, len) & (x->cap - 1);
    for (; x->slot[h]; h = (h + 1) & (x->cap - 1)) {
        const char *s = d->col_name[x->slot[h] - 1];
        if (strlen(s) == len && memcmp(s, name, len) == 0)
            return x->slot[h] - 1;
    }
    char *copy = strndup(name, len);
    if (!copy)
        return -1;
    int j = ilpm_mdl_add_col(d, copy, 0, 1);
    free(copy);
    if (j >= 0)
        x->slot[h] = j + 1;
    return j;
}

int ilpm_mdl_add_term(mdl *d, int col, int64_t coef)
{
    /* Two arrays of one capacity: each grows from it alike. */
    size_t capc = d->termcap, capf = d->termcap;
    if (ilpm_grow((void **)&d->col, &capc, d->nterms + 1, sizeof *d->col) ||
        ilpm_grow((void **)&d->coef, &capf, d->nterms + 1, sizeof *d->coef))
        return -1;
    d->termcap = capc < capf ? capc : capf;
    d->col[d->nterms] = col;
    d->coef[d->nterms++] = coef;
    return 0;
}

int ilpm_mdl_row_group(mdl *d, const char *name)
{
    int g = 0;
    while (name && g < d->ngroups && strcmp(d->groups[g], name) != 0)
        g++;
    if (name && g == d->ngroups) {
        if (ilpm_grow_int((void **)&d->groups, &d->groupcap, g + 1,
                          sizeof *d->groups) != 0)
            return -1;
        d->groups[d->ngroups++] = name;
    }
    d->row_group = name ? g + 1 : 0;
    return 0;
}

int ilpm_mdl_end_row(mdl *d, ilpm_cmp cmp, int64_t rhs, long line, int name)
{
    if (ilpm_grow_int((void **)&d->rows, &d->rowcap, d->nrows + 1,
                      sizeof *d->rows) != 0)
        return -1;
    size_t start =
        d->nrows ? d->rows[d->nrows - 1].start + (size_t)d->rows[d->nrows - 1].n
                 : 0;
    mdl_row *r = &d->rows[d->nrows++];
    r->start = start;
    r->n = (int)(d->nterms - start);
    r->cmp = cmp;
    r->rhs = rhs;
    r->line = line;
    r->name = name;
    r->group = d->row_group;
    return 0;
}

const char *ilpm_mdl_col_label(const mdl *d, int j, char *buf, size_t size)
{
    if (d->col_name)
        return d->col_name[j];
    snprintf(buf, size, "%d", j + 1);
    return buf;
}

int ilpm_mdl_dictionary(mdl *d, char **names)
{
    int any = 0;
    for (int j = 0; j < d->ncols; j++)
        any |= names[j] != NULL;
    if (!any)
        return 0;
    if (!(d->aux = calloc((size_t)d->ncols + 1, 1)))
        return -1;
    if (!d->col_name &&
        !(d->col_name = calloc((size_t)d->colcap + 1, sizeof *d->col_name)))
        return -1;
    for (int j = 0; j < d->ncols; j++) {
        d->aux[j] = names[j] == NULL;
        if (names[j]) {
            free(d->col_name[j]);
            d->col_name[j] = names[j];
            names[j] = NULL;
        } else if (!d->col_name[j]) {
            char b[32];
            snprintf(b, sizeof b, "%d", j + 1);
            if (!(d->col_name[j] = strdup(b)))
                return -1;
        }
    }
    return 0;
}

int ilpm_mdl_dict_put(mdl_dict *x, long v, const char *name, size_t len)
{
    if (v <= 0 || v > (1L << 30))
        return 0; /* not a variable of any file we read: no entry */
    if (v >= x->cap) {
        size_t old = (size_t)x->cap, c = old;
        if (ilpm_grow((void **)&x->name, &c, (size_t)v + 1, sizeof *x->name))
            return -1;
        memset(x->name + old, 0, (c - old) * sizeof *x->name);
        x->cap = (long)c;
    }
    free(x->name[v]);
    return (x->name[v] = strndup(name, len)) ? 0 : -1;
}

void ilpm_mdl_dict_free(mdl_dict *x)
{
    for (long v = 0; v < x->cap; v++)
        free(x->name[v]);
    free(x->name);
    x->name = NULL;
    x->cap = 0;
}
