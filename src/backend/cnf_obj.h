/* cnf_obj.h: the objective of an optimisation in CNF, encoded once and
 * bounded step by step (cnf_obj.c), for the SAT driver's solution-
 * improving search (sat.c).  The objective's terms become a cost
 * sum w_i [l_i] with positive weights over their gcd; the first bound
 * builds a network whose outputs count that cost (a totalizer in unary
 * when the weights are equal, a tree of binary adders otherwise), and
 * every bound after adds only the few clauses that compare its outputs
 * with the new bound, under the caller's guard literal. */
#ifndef ILPM_CNF_OBJ_H
#define ILPM_CNF_OBJ_H

#include "backend.h"

#include <stdint.h>

typedef struct ilpm_cnf_obj {
    int n;         /* terms of the cost                                */
    int *lits;     /* literal of each term                             */
    int64_t *w;    /* its weight, positive, divided by g               */
    int64_t shift; /* objective >= b  <=>  g * cost <= shift - b       */
    int64_t g;     /* the weights' gcd                                 */
    int built;     /* the network is in the CNF                        */
    int unary;     /* out[k]: cost >= k + 1 (forced upwards only)      */
    int *out;      /* unary: nout counters; binary: bit j, 0 if const. */
    int nout;
    /* Before the network: each bound as its own linear constraint (a
     * BDD, or a counter when the weights are equal) while it stays
     * small; the objective's terms as the model gives them. */
    int direct;
    int on;
    const int *olits;
    const int64_t *ocoefs;
    int64_t direct_lits; /* literals the direct bounds took so far */
} ilpm_cnf_obj;

/* The cost of maximising sum coefs[i] [lits[i]] (each variable once or
 * more; lits and coefs are kept, not copied); 0, or -1 with err
 * (memory, or weights beyond 2^60). */
int ilpm_cnf_obj_init(ilpm_cnf_obj *o, int n, const int *lits,
                      const int64_t *coefs, ilpm_err *err);
void ilpm_cnf_obj_release(ilpm_cnf_obj *o);
/* Adds "objective >= b" to c under the guard literal (its clauses carry
 * -guard), building the network at the first call; 0, or -1 with err
 * (the watch, --max-memory), c as it was before the call. */
int ilpm_cnf_obj_bound(ilpm_cnf *c, ilpm_cnf_obj *o, int64_t b, int guard,
                       ilpm_err *err);

#endif
