/* Options with their defaults, and the names of every enum as the command
 * line, JSON and CSV spell them (one table each, used both ways). */
#include "ilpm.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ilpm_options_init(ilpm_options *o)
{
    memset(o, 0, sizeof *o);
    o->backend = ILPM_BACKEND_ILP;
    o->amo = ILPM_AMO_AUTO;
    o->card = ILPM_CARD_SEQ;
    o->cuts = ILPM_CUTS_DEFAULT;
    o->presolve = 1;
    o->propagate = ILPM_PROP_AUTO;
    o->time_limit = 0;
    o->verbose = 0;
    o->max_pb_nodes = 2000000;
    o->max_vars = 50000000;
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    o->max_memory_mb = pages > 0 && size > 0
                           ? (int64_t)pages / 1024 * size / 1024 * 3 / 4
                           : 4096;
    o->search = ILPM_SEARCH_ACTIVITY;
    o->learn = ILPM_LEARN_AUTO;
    o->stop_flag = NULL;
}

#define BACKEND_NAME(id, name, help, driver) name,
#define BACKEND_HELP(id, name, help, driver) help " (" name "), "
#define BACKEND_OPT_HELP                                                       \
    "solve " ILPM_BACKENDS(BACKEND_HELP) "as the back-end registry lists "     \
                                         "them (docs/layout.md)"
static const char *const backend_names[] = {ILPM_BACKENDS(BACKEND_NAME) NULL};
static const char *const search_names[] = {"first-fail", "input", "activity",
                                           NULL};
static const char *const learn_names[] = {"off", "on", "auto", NULL};
static const char *const amo_names[] = {"auto", "pairwise", "seq", "product",
                                        NULL};
static const char *const card_names[] = {"seq", "totalizer", NULL};
static const char *const cuts_names[] = {"none", "default", "all", NULL};
static const char *const branch_names[] = {"auto",  "first", "last", "most",
                                           "drtom", "pcost", "dive", NULL};
static const char *const backtrack_names[] = {"auto",  "dfs",   "bfs",
                                              "bestp", "bestb", NULL};
static const char *const propagate_names[] = {"auto", "none", "units", "probe",
                                              NULL};
static const char *const status_names[] = {
    "solved", "optimal", "feasible", "unsat", "timeout", "stopped", "error"};

#define FIELD(f) offsetof(ilpm_options, f)

static const ilpm_option_info table[] = {
    {"backend", ILPM_OPTION_ENUM, ILPM_SCOPE_SOLVE, backend_names, NULL, 0, 0,
     FIELD(backend), BACKEND_OPT_HELP, 0, 0},
    {"search", ILPM_OPTION_ENUM, ILPM_SCOPE_SOLVE, search_names, NULL, 0, 0,
     FIELD(search),
     "cp branching: first-fail = the open exactly-one or at-least-one with "
     "the fewest open literals; input = the first open variable; activity "
     "= the variable most involved in recent conflicts, its last value "
     "(with --learn on; counting takes first-fail)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_CP), 0},
    {"learn", ILPM_OPTION_ENUM, ILPM_SCOPE_SOLVE, learn_names, NULL, 0, 0,
     FIELD(learn),
     "cp: learn a clause from each conflict and jump back; off: the plain "
     "depth-first search; auto: on, except when counting (every branch is "
     "visited anyway)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_CP), 0},
    {"lookahead", ILPM_OPTION_INT, ILPM_SCOPE_SOLVE, NULL, "N", 0, INT64_MAX,
     FIELD(lookahead),
     "cp: up to N failed-literal probes at every node (0: none)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_CP), 0},
    {"amo", ILPM_OPTION_ENUM, ILPM_SCOPE_LOWER, amo_names, NULL, 0, 0,
     FIELD(amo),
     "CNF encoding of at-most-one (auto: pairwise up to 10 literals, else "
     "product)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_SAT), 0},
    {"card", ILPM_OPTION_ENUM, ILPM_SCOPE_LOWER, card_names, NULL, 0, 0,
     FIELD(card), "CNF encoding of cardinality",
     ILPM_BACKEND_BIT(ILPM_BACKEND_SAT), 0},
    {"cuts", ILPM_OPTION_ENUM, ILPM_SCOPE_SOLVE, cuts_names, NULL, 0, 0,
     FIELD(cuts), "GLPK cuts: none; default = cover and MIR; all = also Gomory",
     ILPM_BACKEND_BIT(ILPM_BACKEND_ILP), 0},
    {"branch", ILPM_OPTION_ENUM, ILPM_SCOPE_SOLVE, branch_names, NULL, 0, 0,
     FIELD(branch),
     "GLPK branching rule, dive: largest value, up branch first (auto: the "
     "puzzle's hint, else most fractional when searching for a solution, "
     "Driebeck-Tomlin when optimising)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_ILP), 0},
    {"backtrack", ILPM_OPTION_ENUM, ILPM_SCOPE_SOLVE, backtrack_names, NULL, 0,
     0, FIELD(backtrack),
     "GLPK backtracking rule (auto: depth first when searching for a "
     "solution, best local bound when optimising)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_ILP), 0},
    {"no-presolve", ILPM_OPTION_OFF, ILPM_SCOPE_SOLVE, NULL, NULL, 0, 0,
     FIELD(presolve), "turn GLPK's MIP presolver off",
     ILPM_BACKEND_BIT(ILPM_BACKEND_ILP), 0},
    {"propagate", ILPM_OPTION_ENUM, ILPM_SCOPE_LOWER, propagate_names, NULL, 0,
     0, FIELD(propagate),
     "what is settled before lowering: the givens' unit propagation, and "
     "probing of the open variables (auto: probe on every back end)",
     0, 0},
    {"time-limit", ILPM_OPTION_REAL, ILPM_SCOPE_SOLVE, NULL, "S", 0, 0,
     FIELD(time_limit), "seconds per instance; 'timeout' with what was found",
     0, 0},
    {"sat-option", ILPM_OPTION_TEXT, ILPM_SCOPE_SOLVE, NULL, "NAME=V,...", 0, 0,
     FIELD(sat_options), "CaDiCaL options by CaDiCaL's names (e.g. phase=0)",
     ILPM_BACKEND_BIT(ILPM_BACKEND_SAT), 1},
    {"max-pb-nodes", ILPM_OPTION_INT, ILPM_SCOPE_LOWER, NULL, "N", 1, INT64_MAX,
     FIELD(max_pb_nodes), "largest BDD per linear constraint in the CNF",
     ILPM_BACKEND_BIT(ILPM_BACKEND_SAT), 0},
    /* GLPK and CaDiCaL count columns and variables in int. */
    {"max-vars", ILPM_OPTION_INT, ILPM_SCOPE_LOWER, NULL, "N", 1, INT32_MAX / 2,
     FIELD(max_vars), "refuse models of more than N variables", 0, 0},
    {"max-memory", ILPM_OPTION_INT, ILPM_SCOPE_LOWER, NULL, "MB", 16,
     (int64_t)1 << 30, FIELD(max_memory_mb),
     "refuse models and CNFs needing more megabytes (the default is 3/4 of "
     "this machine's memory)",
     0, 0},
    {"verbose", ILPM_OPTION_ON, ILPM_SCOPE_SOLVE, NULL, NULL, 0, 0,
     FIELD(verbose), "let GLPK and CaDiCaL print their progress on stderr", 0,
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, 0, NULL, 0, 0},
};

const ilpm_option_info *ilpm_options_table(void)
{
    return table;
}

const ilpm_option_info *ilpm_option_find(const char *name)
{
    for (const ilpm_option_info *r = table; name && r->name; r++)
        if (strcmp(r->name, name) == 0)
            return r;
    return NULL;
}

const char *const *ilpm_enum_names(const char *option)
{
    const ilpm_option_info *r = ilpm_option_find(option);
    return r && r->type == ILPM_OPTION_ENUM ? r->names : NULL;
}

#define AT(T, o, r) ((T *)((char *)(o) + (r)->offset))

int ilpm_options_set(ilpm_options *o, const char *name, const char *value,
                     ilpm_err *err)
{
    const ilpm_option_info *r = ilpm_option_find(name);
    if (!r)
        return ilpm_err_input(err, "unknown option '--%s'", name ? name : "");
    int flag = r->type == ILPM_OPTION_ON || r->type == ILPM_OPTION_OFF;
    if (flag && value)
        return ilpm_err_input(err, "option --%s takes no value", r->name);
    if (!flag && !value)
        return ilpm_err_input(err, "option --%s needs a value", r->name);
    switch (r->type) {
    case ILPM_OPTION_ENUM: {
        for (int i = 0; r->names[i]; i++)
            if (strcmp(value, r->names[i]) == 0) {
                *AT(int, o, r) = i;
                return 0;
            }
        char list[160] = "";
        size_t n = 0;
        for (int i = 0; r->names[i] && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
                                  i ? ", " : "", r->names[i]);
        return ilpm_err_input(err, "--%s: expected one of %s, got '%s'",
                              r->name, list, value);
    }
    case ILPM_OPTION_INT: {
        int64_t x;
        if (ilpm_parse_int(r->name, value, r->lo, r->hi, &x, err) != 0)
            return -1;
        *AT(int64_t, o, r) = x;
        return 0;
    }
    case ILPM_OPTION_REAL:
        return ilpm_parse_real(r->name, value, 0, 1e9, "seconds > 0",
                               AT(double, o, r), err);
    case ILPM_OPTION_ON:
        *AT(int, o, r) = 1;
        return 0;
    case ILPM_OPTION_OFF:
        *AT(int, o, r) = 0;
        return 0;
    default:
        *AT(const char *, o, r) = value;
        return 0;
    }
}

void ilpm_option_default(const ilpm_option_info *r, char *buf, size_t size)
{
    ilpm_options o;
    ilpm_options_init(&o);
    switch (r->type) {
    case ILPM_OPTION_ENUM:
        snprintf(buf, size, "%s", r->names[*AT(int, &o, r)]);
        break;
    case ILPM_OPTION_INT:
        snprintf(buf, size, "%" PRId64, *AT(int64_t, &o, r));
        break;
    case ILPM_OPTION_REAL:
        if (*AT(double, &o, r) > 0)
            snprintf(buf, size, "%g", *AT(double, &o, r));
        else
            snprintf(buf, size, "none");
        break;
    case ILPM_OPTION_ON:
    case ILPM_OPTION_OFF:
        snprintf(buf, size, "%s", *AT(int, &o, r) ? "on" : "off");
        break;
    default:
        snprintf(buf, size, "%s",
                 *AT(const char *, &o, r) ? *AT(const char *, &o, r) : "none");
        break;
    }
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

const char *ilpm_backend_name(ilpm_backend b)
{
    return name_of(backend_names, ILPM_BACKEND_COUNT, (int)b);
}

unsigned ilpm_backend_set_parse(const char *s)
{
    int b = parse_in(backend_names, s);
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
const char *ilpm_amo_name(ilpm_amo_enc e)
{
    return name_of(amo_names, 4, (int)e);
}
const char *ilpm_card_name(ilpm_card_enc e)
{
    return name_of(card_names, 2, (int)e);
}
const char *ilpm_cuts_name(ilpm_cuts c)
{
    return name_of(cuts_names, 3, (int)c);
}
const char *ilpm_branch_name(ilpm_branch b)
{
    return name_of(branch_names, 7, (int)b);
}
const char *ilpm_backtrack_name(ilpm_backtrack b)
{
    return name_of(backtrack_names, 5, (int)b);
}
const char *ilpm_search_name(ilpm_search s)
{
    return name_of(search_names, 3, (int)s);
}
const char *ilpm_propagate_name(ilpm_propagate p)
{
    return name_of(propagate_names, 4, (int)p);
}
const char *ilpm_status_name(ilpm_status s)
{
    return name_of(status_names, 7, (int)s);
}

int ilpm_backend_parse(const char *s)
{
    return parse_in(backend_names, s);
}
int ilpm_amo_parse(const char *s)
{
    return parse_in(amo_names, s);
}
int ilpm_card_parse(const char *s)
{
    return parse_in(card_names, s);
}
int ilpm_cuts_parse(const char *s)
{
    return parse_in(cuts_names, s);
}
int ilpm_branch_parse(const char *s)
{
    return parse_in(branch_names, s);
}
int ilpm_backtrack_parse(const char *s)
{
    return parse_in(backtrack_names, s);
}
int ilpm_search_parse(const char *s)
{
    return parse_in(search_names, s);
}
int ilpm_propagate_parse(const char *s)
{
    return parse_in(propagate_names, s);
}
