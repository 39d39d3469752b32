/* Options with their defaults, and the names of every enum as the command
 * line, JSON and CSV spell them (one table each, used both ways). */
#include "ilpm.h"

#include <string.h>
#include <unistd.h>

void ilpm_options_init(ilpm_options *o)
{
    memset(o, 0, sizeof *o);
    o->backend = ILPM_BACKEND_SAT;
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
    o->stop_flag = NULL;
}

static const char *const backend_names[] = {"ilp", "sat", NULL};
static const char *const amo_names[] = {"auto", "pairwise", "seq", "product",
                                        NULL};
static const char *const card_names[] = {"seq", "totalizer", NULL};
static const char *const cuts_names[] = {"none", "default", "all", NULL};
static const char *const branch_names[] = {"auto",  "first", "last", "most",
                                           "drtom", "pcost", NULL};
static const char *const backtrack_names[] = {"auto",  "dfs",   "bfs",
                                              "bestp", "bestb", NULL};
static const char *const propagate_names[] = {"auto", "none", "units", "probe",
                                              NULL};
static const char *const status_names[] = {
    "solved", "optimal", "feasible", "unsat", "timeout", "stopped", "error"};

const char *const *ilpm_enum_names(const char *option)
{
    static const struct {
        const char *option;
        const char *const *names;
    } all[] = {
        {"backend", backend_names}, {"amo", amo_names},
        {"card", card_names},       {"cuts", cuts_names},
        {"branch", branch_names},   {"backtrack", backtrack_names},
        {"propagate", propagate_names},
    };
    for (size_t i = 0; option && i < sizeof all / sizeof *all; i++)
        if (strcmp(all[i].option, option) == 0)
            return all[i].names;
    return NULL;
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
    return name_of(backend_names, 2, (int)b);
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
    return name_of(branch_names, 6, (int)b);
}
const char *ilpm_backtrack_name(ilpm_backtrack b)
{
    return name_of(backtrack_names, 5, (int)b);
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
int ilpm_propagate_parse(const char *s)
{
    return parse_in(propagate_names, s);
}
