/* The options every back end shares, one row each (ilpm_opt, ilpm.h),
 * with their defaults; the names of the back ends, made from their list
 * (backends.h); and the setting of an option by name, whether it is
 * shared or a back end's own (a row of its driver's opts, its field in
 * the back end's area of ilpm_options). */
#include "backend.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BACKEND_NAME(id, name, help, driver) name,
#define BACKEND_HELP(id, name, help, driver) help " (" name "), "
#define BACKEND_OPT_HELP                                                       \
    "solve " ILPM_BACKENDS(BACKEND_HELP) "as the back-end registry lists "     \
                                         "them (docs/layout.md); auto: "       \
                                         "several at once, the first "         \
                                         "verified answer (--threads)"
/* The real back ends, then auto: the run layer's portfolio over them
 * (src/run/portfolio.h), which a solver alone refuses. */
static const char *const backend_names[] = {ILPM_BACKENDS(BACKEND_NAME) "auto",
                                            NULL};
static const char *const propagate_names[] = {ILPM_PROPAGATES(ILPM_ENUM_NAME_)
                                                  NULL};
static const char *const status_names[] = {ILPM_STATUSES(ILPM_ENUM_NAME_)};

#define FIELD(f) offsetof(ilpm_options, f)

static const ilpm_opt table[] = {
    {.name = "backend",
     .type = ILPM_OPT_CHOICE,
     .def = "ilp",
     .choices = backend_names,
     .flags = ILPM_OPT_GEN,
     .offset = FIELD(backend),
     .help = BACKEND_OPT_HELP},
    {.name = "propagate",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = propagate_names,
     .flags = ILPM_OPT_LOWER,
     .offset = FIELD(propagate),
     .help = "what is settled before lowering: the givens' unit "
             "propagation, and probing of the open variables (auto: probe on "
             "every back end)"},
    {.name = "time-limit",
     .arg = "S",
     .type = ILPM_OPT_REAL,
     .lo = 0,
     .hi = 1000000000,
     .unit = "seconds",
     .flags = ILPM_OPT_GEN,
     .offset = FIELD(time_limit),
     .help = "seconds per instance; 'timeout' with what was found"},
    /* GLPK and CaDiCaL count columns and variables in int. */
    {.name = "max-vars",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = INT32_MAX / 2,
     .def = "50000000",
     .flags = ILPM_OPT_LOWER,
     .offset = FIELD(max_vars),
     .help = "refuse models of more than N variables"},
    /* No default in the row: it is the machine's, set by
     * ilpm_options_init. */
    {.name = "max-memory",
     .arg = "MB",
     .type = ILPM_OPT_INT,
     .lo = 16,
     .hi = (int64_t)1 << 30,
     .flags = ILPM_OPT_LOWER,
     .offset = FIELD(max_memory_mb),
     .help = "refuse models and CNFs needing more megabytes (the default "
             "is 3/4 of this machine's memory)"},
    {.name = "verbose",
     .type = ILPM_OPT_FLAG,
     .offset = FIELD(verbose),
     .help = "let GLPK and CaDiCaL print their progress on stderr"},
    {.name = NULL},
};

void ilpm_options_init(ilpm_options *o)
{
    memset(o, 0, sizeof *o);
    /* The rows' defaults pass their own checks (tests/check_model.c,
     * tests/check_registry.c). */
    (void)ilpm_opt_defaults(table, o, NULL);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        (void)ilpm_opt_defaults(ilpm_backend_options(b),
                                ilpm_backend_area(o, b), NULL);
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    o->max_memory_mb = pages > 0 && size > 0
                           ? (int64_t)pages / 1024 * size / 1024 * 3 / 4
                           : 4096;
    o->stop_flag = NULL;
}

const ilpm_opt *ilpm_options_table(void)
{
    return table;
}

const ilpm_opt *ilpm_option_find(const char *name, int *backend)
{
    const ilpm_opt *r = name ? ilpm_opt_find(table, name) : NULL;
    int owner = -1;
    for (int b = 0; name && !r && b < ILPM_BACKEND_COUNT; b++)
        if ((r = ilpm_opt_find(ilpm_backend_options(b), name)) != NULL)
            owner = b;
    if (backend)
        *backend = owner;
    return r;
}

/* Where row r of back end b (-1: shared) keeps its field in o. */
static void *home_of(ilpm_options *o, int b)
{
    return b < 0 ? (void *)o : ilpm_backend_area(o, b);
}

int ilpm_options_set(ilpm_options *o, const char *name, const char *value,
                     ilpm_err *err)
{
    int b;
    const ilpm_opt *r = ilpm_option_find(name, &b);
    if (!r)
        return ilpm_err_input(err, "unknown option '--%s'", name ? name : "");
    return ilpm_opt_set(r, home_of(o, b), value, err);
}

int ilpm_options_get(const ilpm_options *o, const char *name, char *buf,
                     size_t size)
{
    int b;
    const ilpm_opt *r = ilpm_option_find(name, &b);
    if (!r)
        return -1;
    ilpm_opt_get(r, home_of((ilpm_options *)o, b), buf, size);
    return 0;
}

static const char *name_of(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : "unknown";
}

static int parse_in(const char *const *names, const char *s)
{
    for (int i = 0; s && names[i]; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

int ilpm_backend_count(void)
{
    return ILPM_BACKEND_COUNT;
}

const char *ilpm_backend_name(int b)
{
    return name_of(backend_names, ILPM_BACKEND_COUNT + 1, b);
}

int ilpm_backend_find(const char *s)
{
    int b = parse_in(backend_names, s);
    return b < ILPM_BACKEND_COUNT ? b : -1;
}

unsigned ilpm_backend_set_parse(const char *s)
{
    int b = ilpm_backend_find(s);
    if (b >= 0)
        return ILPM_BACKEND_BIT(b);
    if (s && strcmp(s, "both") == 0)
        return ILPM_BACKENDS_BOTH;
    if (s && strcmp(s, "all") == 0)
        return ILPM_BACKENDS_ALL;
    return 0;
}

const char *ilpm_backend_set_name(unsigned set)
{
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        if (set == ILPM_BACKEND_BIT(b))
            return backend_names[b];
    return set == ILPM_BACKENDS_BOTH  ? "both"
           : set == ILPM_BACKENDS_ALL ? "all"
                                      : NULL;
}

const char *ilpm_propagate_name(ilpm_propagate p)
{
    return name_of(propagate_names, ILPM_PROP_COUNT, (int)p);
}
const char *ilpm_status_name(ilpm_status s)
{
    return name_of(status_names, ILPM_STATUS_COUNT, (int)s);
}
int ilpm_propagate_parse(const char *s)
{
    return parse_in(propagate_names, s);
}
