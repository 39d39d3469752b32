/* Puzzle parameters collected from the command line (ilpm_params) and
 * the rows that describe a puzzle's options (ilpm_opt_spec). */
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
