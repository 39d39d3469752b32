/* sat_int.h: the SAT back end's own options (its rows are in sat.c), which
 * the CNF lowering (cnf*.c) reads too: the CNF export and statistics
 * take their encodings from them whatever the back end. */
#ifndef ILPM_SAT_INT_H
#define ILPM_SAT_INT_H

#include "backends.h"

// clang-format off
/* At-most-one in CNF: auto = pairwise up to 10 literals, else product;
 * pairwise (the seed reports'), Sinz's sequential counter (ladder),
 * Chen's 2-product.  Cardinality: Sinz's sequential counter, Bailleux and
 * Boufkhad's totalizer.  X(ID, "name"): the enum and its names. */
#define ILPM_AMO_ENCS(X) X(ILPM_AMO_AUTO, "auto")                              \
    X(ILPM_AMO_PAIRWISE, "pairwise") X(ILPM_AMO_SEQ, "seq")                    \
    X(ILPM_AMO_PRODUCT, "product")
#define ILPM_CARD_ENCS(X)                                                      \
    X(ILPM_CARD_SEQ, "seq") X(ILPM_CARD_TOTALIZER, "totalizer")
/* Optimisation: solution-improving bounds, or core-guided (OLL,
 * sat_core.c), its solutions on the way as incumbents. */
#define ILPM_SAT_SEARCHES(X)                                                   \
    X(ILPM_SAT_SEARCH_BOUND, "bound") X(ILPM_SAT_SEARCH_CORE, "core")
typedef enum ilpm_sat_search { ILPM_SAT_SEARCHES(ILPM_ENUM_ID_) ILPM_SAT_SEARCH_COUNT } ilpm_sat_search;
typedef enum ilpm_amo_enc { ILPM_AMO_ENCS(ILPM_ENUM_ID_) ILPM_AMO_COUNT } ilpm_amo_enc;
typedef enum ilpm_card_enc { ILPM_CARD_ENCS(ILPM_ENUM_ID_) ILPM_CARD_COUNT } ilpm_card_enc;
// clang-format on

/* The fields of sat.c's rows, in the SAT back end's area of
 * ilpm_options. */
typedef struct ilpm_sat_opts {
    ilpm_amo_enc amo;
    ilpm_card_enc card;
    int64_t max_pb_nodes; /* PB encoding bound (nodes per constraint)  */
    /* CaDiCaL options as "name=value,name=value" (NULL: none), set in
     * order after ilpm's own; an unknown name is an error. */
    const char *sat_options;
    ilpm_sat_search search;
} ilpm_sat_opts;
_Static_assert(sizeof(ilpm_sat_opts) <= ILPM_BACKEND_AREA,
               "the SAT options outgrow their area of ilpm_options");

static inline const ilpm_sat_opts *ilpm_sat_opts_of(const ilpm_options *o)
{
    return (const ilpm_sat_opts *)ilpm_backend_area_c(o, ILPM_BACKEND_SAT);
}
static inline ilpm_sat_opts *ilpm_sat_opts_in(ilpm_options *o)
{
    return (ilpm_sat_opts *)ilpm_backend_area(o, ILPM_BACKEND_SAT);
}

#endif
