/* Puzzle parameters collected from the command line (ilpm_params), kept
 * as text; opt.c reads them by the puzzle's option rows. */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (ilpm_grow((void **)&p->e, &p->cap, p->n + 1, sizeof *p->e) != 0) {
        free(v);
        return -1;
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
