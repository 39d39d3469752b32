/* backends.h: the back-end list, one row per back end, inside ilpm (not
 * installed: a library user finds a back end by name, ilpm_backend_find).
 *
 *   X(ID, name, help, driver)
 *
 * ID makes ILPM_BACKEND_ID, name is how the command line, JSON and CSV
 * spell it, help completes "solve ...", and driver is its
 * ilpm_driver_ops (src/backend/backend.h): what it does, its option rows
 * (opts) and what its statistics count.  The enum, the names, the help
 * of --backend and the table of drivers are all made from these rows
 * (docs/layout.md, "Adding a back end"). */
#ifndef ILPM_BACKENDS_H
#define ILPM_BACKENDS_H

#include "ilpm_int.h"

#define ILPM_BACKENDS(X)                                                       \
    X(ILP, "ilp", "as an ILP with GLPK", ilpm_glpk_ops)                        \
    X(SAT, "sat", "as SAT with CaDiCaL", ilpm_sat_ops)                         \
    X(CP, "cp", "by ilpm's own propagation and conflict-driven search",        \
      ilpm_cp_ops)

#define ILPM_BACKEND_ENUM_(id, name, help, driver) ILPM_BACKEND_##id,
typedef enum ilpm_backend {
    ILPM_BACKENDS(ILPM_BACKEND_ENUM_) ILPM_BACKEND_COUNT
} ilpm_backend;
#undef ILPM_BACKEND_ENUM_

/* Each back end's options live in its own area of ilpm_options. */
_Static_assert(ILPM_BACKEND_COUNT <= ILPM_BACKENDS_MAX,
               "more back ends than ilpm_options has areas for");

#define ILPM_BACKEND_BIT(b) (1u << (b))
/* Sets of back ends, as batch and compare run them. */
#define ILPM_BACKENDS_ALL ((1u << ILPM_BACKEND_COUNT) - 1)
#define ILPM_BACKENDS_BOTH                                                     \
    (ILPM_BACKEND_BIT(ILPM_BACKEND_ILP) | ILPM_BACKEND_BIT(ILPM_BACKEND_SAT))

/* A set of back ends by name: one back end's name, "both" (ilp and sat,
 * as before cp came) or "all" (every registered one); 0 if none. */
unsigned ilpm_backend_set_parse(const char *s);
/* The name of a set: a back end's, "both" or "all"; NULL for another. */
const char *ilpm_backend_set_name(unsigned set);

/* Back end b's own options in o, as its struct (the area its rows'
 * offsets count from).  Each back end casts it to its own type, which a
 * static assertion in its file keeps within ILPM_BACKEND_AREA. */
static inline void *ilpm_backend_area(ilpm_options *o, int b)
{
    return &o->backend_area[b];
}
static inline const void *ilpm_backend_area_c(const ilpm_options *o, int b)
{
    return &o->backend_area[b];
}

#endif
