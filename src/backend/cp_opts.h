/* cp_opts.h: the cp back end's own options: their rows are in
 * cp_driver.c, their fields here, in the cp back end's area of
 * ilpm_options. */
#ifndef ILPM_CP_OPTS_H
#define ILPM_CP_OPTS_H

#include "backends.h"

// clang-format off
/* cp branching: first-fail takes the open exactly-one or at-least-one
 * over puzzle variables with the fewest open literals (as DLX and
 * Gecode's first-fail), input the first open variable, activity (VSIDS)
 * the variable most bumped by recent conflicts, its saved phase (with
 * learning; a count takes first-fail).  cp learning: auto learns when
 * solving and optimising with weights, and counts by the depth-first
 * search, where every branch is visited anyway and a learned clause
 * costs more than it prunes.  X(ID, "name"): the enum and its names. */
#define ILPM_SEARCHES(X) X(ILPM_SEARCH_FIRST_FAIL, "first-fail")               \
    X(ILPM_SEARCH_INPUT, "input") X(ILPM_SEARCH_ACTIVITY, "activity")
#define ILPM_LEARNS(X)                                                         \
    X(ILPM_LEARN_OFF, "off") X(ILPM_LEARN_ON, "on") X(ILPM_LEARN_AUTO, "auto")
typedef enum ilpm_search { ILPM_SEARCHES(ILPM_ENUM_ID_) ILPM_SEARCH_COUNT } ilpm_search;
typedef enum ilpm_learn { ILPM_LEARNS(ILPM_ENUM_ID_) ILPM_LEARN_COUNT } ilpm_learn;
// clang-format on

typedef struct ilpm_cp_opts {
    ilpm_search search; /* branching, default activity            */
    ilpm_learn learn;   /* conflict-driven learning, default auto */
    int64_t lookahead;  /* failed-literal probes per node, 0 none */
    int lp_bound;       /* optimising: GLPK's LP bound (1, default) */
    int analysis;       /* learning: 0 clauses, 1 cutting planes */
    int alldiff;        /* Hall sets of matching groups (1), or not (0) */
    int no_cover;       /* counting: never by exact cover (the tests set it) */
} ilpm_cp_opts;
_Static_assert(sizeof(ilpm_cp_opts) <= ILPM_BACKEND_AREA,
               "the cp options outgrow their area of ilpm_options");

static inline const ilpm_cp_opts *ilpm_cp_opts_of(const ilpm_options *o)
{
    return (const ilpm_cp_opts *)ilpm_backend_area_c(o, ILPM_BACKEND_CP);
}
static inline ilpm_cp_opts *ilpm_cp_opts_in(ilpm_options *o)
{
    return (ilpm_cp_opts *)ilpm_backend_area(o, ILPM_BACKEND_CP);
}

#endif
