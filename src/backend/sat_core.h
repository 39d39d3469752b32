/* sat_core.h: core-guided optimisation for the SAT driver (sat_core.c):
 * OLL with stratification over the objective's cost (cnf_obj.h), its
 * lower bound raised by the cores that the solver's failed assumptions
 * give, its upper bound by every solution met on the way.  It knows the
 * solver only through the calls below, which sat.c provides. */
#ifndef ILPM_SAT_CORE_H
#define ILPM_SAT_CORE_H

#include "cnf_obj.h"

typedef struct ilpm_core_io {
    void *ctx;
    /* One call under the caller's assumptions plus a[0..n): ILPM_SOLVED,
     * ILPM_UNSAT, or why it ended (ILPM_TIMEOUT, ILPM_STOPPED,
     * ILPM_ERROR). */
    ilpm_status (*solve)(void *ctx, const int *a, int n);
    /* After ILPM_UNSAT: 1 when the assumed literal a is in the core. */
    int (*failed)(void *ctx, int a);
    /* After ILPM_SOLVED: 1 when lit is true in the solution. */
    int (*value)(void *ctx, int lit);
    /* Hands the clauses added to the CNF since the last call over; 0, or
     * -1 with err. */
    int (*feed)(void *ctx, ilpm_err *err);
    /* After ILPM_SOLVED: the solution improves on every one before;
     * 0, or -1 with err. */
    int (*improved)(void *ctx, ilpm_err *err);
} ilpm_core_io;

/* Minimises the cost o over the CNF c (whose clauses io hands to the
 * solver).  ILPM_OPTIMAL when the lower bound met the best solution,
 * ILPM_FEASIBLE when a limit came first after a solution, ILPM_UNSAT
 * when there is none, else why it ended (err set for ILPM_ERROR and the
 * limits of the encoding).  The totalizers of the cores count towards
 * c's --max-memory like every clause; o is left as it was. */
ilpm_status ilpm_sat_core(ilpm_cnf *c, const ilpm_cnf_obj *o,
                          const ilpm_core_io *io, ilpm_err *err);

#endif
