/* The solver's options, one row each (ilpm_opt, ilpm.h), with their
 * defaults; and the names of every enum as the command line, JSON and CSV
 * spell them, made from the enums' lists in ilpm.h and used both ways. */
#include "ilpm.h"
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
                                         "them (docs/layout.md)"
static const char *const backend_names[] = {ILPM_BACKENDS(BACKEND_NAME) NULL};
static const char *const search_names[] = {ILPM_SEARCHES(ILPM_ENUM_NAME_) NULL};
static const char *const learn_names[] = {ILPM_LEARNS(ILPM_ENUM_NAME_) NULL};
static const char *const amo_names[] = {ILPM_AMO_ENCS(ILPM_ENUM_NAME_) NULL};
static const char *const card_names[] = {ILPM_CARD_ENCS(ILPM_ENUM_NAME_) NULL};
static const char *const cuts_names[] = {ILPM_CUTS_RULES(ILPM_ENUM_NAME_) NULL};
static const char *const branch_names[] = {ILPM_BRANCHES(ILPM_ENUM_NAME_) NULL};
static const char *const backtrack_names[] = {ILPM_BACKTRACKS(ILPM_ENUM_NAME_)
                                                  NULL};
static const char *const propagate_names[] = {ILPM_PROPAGATES(ILPM_ENUM_NAME_)
                                                  NULL};
static const char *const status_names[] = {ILPM_STATUSES(ILPM_ENUM_NAME_)};

#define FIELD(f) offsetof(ilpm_options, f)
#define ONLY(b) ILPM_BACKEND_BIT(ILPM_BACKEND_##b)

static const ilpm_opt table[] = {
    {.name = "backend",
     .type = ILPM_OPT_CHOICE,
     .def = "ilp",
     .choices = backend_names,
     .flags = ILPM_OPT_GEN,
     .offset = FIELD(backend),
     .help = BACKEND_OPT_HELP},
    {.name = "search",
     .type = ILPM_OPT_CHOICE,
     .def = "activity",
     .choices = search_names,
     .backends = ONLY(CP),
     .offset = FIELD(search),
     .help = "cp branching: first-fail = the open exactly-one or "
             "at-least-one with the fewest open literals; input = the first "
             "open variable; activity = the variable most involved in recent "
             "conflicts, its last value (with --learn on; counting takes "
             "first-fail)"},
    {.name = "learn",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = learn_names,
     .backends = ONLY(CP),
     .offset = FIELD(learn),
     .help = "cp: learn a clause from each conflict and jump back; off: the "
             "plain depth-first search; auto: for one solution the "
             "depth-first search for 1000 failures, then learning; learning "
             "for an optimum; none when counting"},
    {.name = "lookahead",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 0,
     .hi = INT64_MAX,
     .def = "0",
     .backends = ONLY(CP),
     .offset = FIELD(lookahead),
     .help = "cp: up to N failed-literal probes at every node (0: none)"},
    {.name = "amo",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = amo_names,
     .flags = ILPM_OPT_LOWER,
     .backends = ONLY(SAT),
     .offset = FIELD(amo),
     .help = "CNF encoding of at-most-one (auto: pairwise up to 10 "
             "literals, else product)"},
    {.name = "card",
     .type = ILPM_OPT_CHOICE,
     .def = "seq",
     .choices = card_names,
     .flags = ILPM_OPT_LOWER,
     .backends = ONLY(SAT),
     .offset = FIELD(card),
     .help = "CNF encoding of cardinality"},
    {.name = "cuts",
     .type = ILPM_OPT_CHOICE,
     .def = "default",
     .choices = cuts_names,
     .backends = ONLY(ILP),
     .offset = FIELD(cuts),
     .help = "GLPK cuts: none; default = cover and MIR; all = also Gomory "
             "(MIR and Gomory left out when a row has a coefficient beyond "
             "100000)"},
    {.name = "branch",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = branch_names,
     .backends = ONLY(ILP),
     .offset = FIELD(branch),
     .help = "GLPK branching rule, dive: largest value, up branch first "
             "(auto: the puzzle's hint, else most fractional when searching "
             "for a solution, Driebeck-Tomlin when optimising)"},
    {.name = "backtrack",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = backtrack_names,
     .backends = ONLY(ILP),
     .offset = FIELD(backtrack),
     .help = "GLPK backtracking rule (auto: depth first when searching for "
             "a solution, best local bound when optimising)"},
    {.name = "no-presolve",
     .type = ILPM_OPT_FLAG,
     .flags = ILPM_OPT_OFF,
     .backends = ONLY(ILP),
     .offset = FIELD(presolve),
     .help = "turn GLPK's MIP presolver off"},
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
    {.name = "sat-option",
     .arg = "NAME=V,...",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_LIST,
     .backends = ONLY(SAT),
     .offset = FIELD(sat_options),
     .help = "CaDiCaL options by CaDiCaL's names (e.g. phase=0)"},
    {.name = "max-pb-nodes",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = INT64_MAX,
     .def = "2000000",
     .flags = ILPM_OPT_LOWER,
     .backends = ONLY(SAT),
     .offset = FIELD(max_pb_nodes),
     .help = "largest BDD per linear constraint in the CNF"},
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
    /* The rows' defaults pass their own checks (tests/check_model.c). */
    (void)ilpm_opt_defaults(table, o, NULL);
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    o->max_memory_mb = pages > 0 && size > 0
                           ? (int64_t)pages / 1024 * size / 1024 * 3 / 4
                           : 4096;
    o->stop_flag = NULL;
}

double ilpm_options_deadline(const ilpm_options *o)
{
    if (!o)
        return 0;
    if (o->deadline > 0)
        return o->deadline;
    return o->time_limit > 0 ? ilpm_now() + o->time_limit : 0;
}

const ilpm_opt *ilpm_options_table(void)
{
    return table;
}

const ilpm_opt *ilpm_option_find(const char *name)
{
    return name ? ilpm_opt_find(table, name) : NULL;
}

const char *const *ilpm_enum_names(const char *option)
{
    const ilpm_opt *r = ilpm_option_find(option);
    return r && r->type == ILPM_OPT_CHOICE ? r->choices : NULL;
}

int ilpm_options_set(ilpm_options *o, const char *name, const char *value,
                     ilpm_err *err)
{
    const ilpm_opt *r = ilpm_option_find(name);
    if (!r)
        return ilpm_err_input(err, "unknown option '--%s'", name ? name : "");
    return ilpm_opt_set(r, o, value, err);
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
    return name_of(amo_names, ILPM_AMO_COUNT, (int)e);
}
const char *ilpm_card_name(ilpm_card_enc e)
{
    return name_of(card_names, ILPM_CARD_COUNT, (int)e);
}
const char *ilpm_cuts_name(ilpm_cuts c)
{
    return name_of(cuts_names, ILPM_CUTS_COUNT, (int)c);
}
const char *ilpm_branch_name(ilpm_branch b)
{
    return name_of(branch_names, ILPM_BRANCH_COUNT, (int)b);
}
const char *ilpm_backtrack_name(ilpm_backtrack b)
{
    return name_of(backtrack_names, ILPM_BACKTRACK_COUNT, (int)b);
}
const char *ilpm_search_name(ilpm_search s)
{
    return name_of(search_names, ILPM_SEARCH_COUNT, (int)s);
}
const char *ilpm_propagate_name(ilpm_propagate p)
{
    return name_of(propagate_names, ILPM_PROP_COUNT, (int)p);
}
const char *ilpm_status_name(ilpm_status s)
{
    return name_of(status_names, ILPM_STATUS_COUNT, (int)s);
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
