/* Option rows (ilpm_opt, ilpm.h): the one check of a value against its
 * row, and the one setter, for every table (the solver's, the command
 * line's, the puzzles'), so that every option answers a mistake in the
 * same words; and the puzzles' reading of their options by their rows,
 * defaults and ranges included. */
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ilpm_opt *ilpm_opt_find(const ilpm_opt *table, const char *name)
{
    for (; table && table->name && name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}

/* value among the row's choices: its index, or -1 with err listing them. */
static int choice_of(const ilpm_opt *row, const char *v, ilpm_err *err)
{
    for (int i = 0; row->choices[i]; i++)
        if (strcmp(v, row->choices[i]) == 0)
            return i;
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; row->choices[i] && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i ? ", " : "", row->choices[i]);
    char shown[ILPM_SHOW_SIZE];
    return ilpm_err_input(err, "--%s: expected one of %s, got '%s'", row->name,
                          list, ilpm_show(v, strlen(v), shown, sizeof shown));
}

/* A real number of the row's unit: > 0, >= lo when lo is above 0. */
static int real_of(const ilpm_opt *row, const char *v, double *out,
                   ilpm_err *err)
{
    char what[64], shown[ILPM_SHOW_SIZE];
    if (row->lo > 0)
        snprintf(what, sizeof what, "%s >= %" PRId64, row->unit, row->lo);
    else
        snprintf(what, sizeof what, "%s > 0", row->unit);
    if (ilpm_parse_real(row->name, v, 0, (double)row->hi, what, out, err) != 0)
        return -1;
    if (*out < (double)row->lo)
        return ilpm_err_input(err, "--%s: expected %s, got '%s'", row->name,
                              what,
                              ilpm_show(v, strlen(v), shown, sizeof shown));
    return 0;
}

/* The value's meaning by the row's type, into the union's member. */
typedef union value {
    int i;
    int64_t n;
    double d;
} value;

static int parse(const ilpm_opt *row, const char *v, value *out, ilpm_err *err)
{
    if (row->type == ILPM_OPT_FLAG)
        return v ? ilpm_err_input(err, "option --%s takes no value", row->name)
                 : (out->i = !(row->flags & ILPM_OPT_OFF), 0);
    if (!v)
        return ilpm_err_input(err, "option --%s needs a value", row->name);
    switch (row->type) {
    case ILPM_OPT_INT:
        return ilpm_parse_int(row->name, v, row->lo, row->hi, &out->n, err);
    case ILPM_OPT_REAL:
        return real_of(row, v, &out->d, err);
    case ILPM_OPT_CHOICE:
        return (out->i = choice_of(row, v, err)) < 0 ? -1 : 0;
    default:
        return 0;
    }
}

int ilpm_opt_check(const ilpm_opt *row, const char *value, ilpm_err *err)
{
    union value x;
    return parse(row, value, &x, err);
}

#define AT(T, base, row) ((T *)((char *)(base) + (row)->offset))

int ilpm_opt_set(const ilpm_opt *row, void *base, const char *v, ilpm_err *err)
{
    union value x;
    if (parse(row, v, &x, err) != 0)
        return -1;
    switch (row->type) {
    case ILPM_OPT_FLAG:
    case ILPM_OPT_CHOICE:
        *AT(int, base, row) = x.i;
        break;
    case ILPM_OPT_INT:
        *AT(int64_t, base, row) = x.n;
        break;
    case ILPM_OPT_REAL:
        *AT(double, base, row) = x.d;
        break;
    default:
        *AT(const char *, base, row) = v;
        break;
    }
    return 0;
}

int ilpm_opt_get(const ilpm_opt *row, const void *base, char *buf, size_t size)
{
    const char *at = (const char *)base + row->offset;
    const char *t;
    int i;
    switch (row->type) {
    case ILPM_OPT_FLAG:
        memcpy(&i, at, sizeof i);
        return snprintf(buf, size, "%d",
                        (i != 0) != !!(row->flags & ILPM_OPT_OFF));
    case ILPM_OPT_CHOICE:
        memcpy(&i, at, sizeof i);
        for (int k = 0; row->choices[k]; k++)
            if (k == i)
                return snprintf(buf, size, "%s", row->choices[k]);
        return snprintf(buf, size, "%d", i);
    case ILPM_OPT_INT: {
        int64_t n;
        memcpy(&n, at, sizeof n);
        return snprintf(buf, size, "%lld", (long long)n);
    }
    case ILPM_OPT_REAL: {
        double d;
        memcpy(&d, at, sizeof d);
        return snprintf(buf, size, "%g", d);
    }
    default:
        memcpy(&t, at, sizeof t);
        return snprintf(buf, size, "%s", t ? t : "");
    }
}

int ilpm_opt_defaults(const ilpm_opt *table, void *base, ilpm_err *err)
{
    for (const ilpm_opt *r = table; r && r->name; r++)
        if (r->type == ILPM_OPT_FLAG)
            *AT(int, base, r) = (r->flags & ILPM_OPT_OFF) != 0;
        else if (r->def && ilpm_opt_set(r, base, r->def, err) != 0)
            return -1;
    return 0;
}

char *ilpm_opt_join(const ilpm_opt *row, const char *old, const char *value)
{
    int list = (row->flags & ILPM_OPT_LIST) != 0;
    if (list && (!*old || !*value))
        return strdup(*old ? old : value);
    size_t n = strlen(old) + strlen(value) + 2;
    char *both = malloc(n);
    if (both)
        snprintf(both, n, "%s%c%s", old, list ? ',' : ILPM_OPT_SEP, value);
    return both;
}

/* The text of option name of table in p, or its row's default; NULL with
 * err for a name the table does not hold (a puzzle's own bug). */
static const ilpm_opt *given(const ilpm_params *p, const ilpm_opt *table,
                             const char *name, const char **v, ilpm_err *err)
{
    const ilpm_opt *row = ilpm_opt_find(table, name);
    if (!row) {
        ilpm_err_fail(err, ILPM_E_FAIL, "no option --%s in the table", name);
        return NULL;
    }
    *v = ilpm_params_get(p, name);
    if (!*v)
        *v = row->def;
    return row;
}

int ilpm_params_int(const ilpm_params *p, const ilpm_opt *table,
                    const char *name, long *out, ilpm_err *err)
{
    const char *v;
    const ilpm_opt *row = given(p, table, name, &v, err);
    int64_t x = 0;
    if (!row || (v && ilpm_parse_int(name, v, row->lo, row->hi, &x, err) != 0))
        return -1;
    *out = (long)x;
    return 0;
}

int ilpm_params_choice(const ilpm_params *p, const ilpm_opt *table,
                       const char *name, int *out, ilpm_err *err)
{
    const char *v;
    const ilpm_opt *row = given(p, table, name, &v, err);
    int i = -1;
    if (!row || (v && (i = choice_of(row, v, err)) < 0))
        return -1;
    *out = i;
    return 0;
}
