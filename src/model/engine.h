/* engine.h: the propagation engine of the model layer, private to
 * src/model: constraints read as "sum of literals cmp k", a counter of
 * true and false literals per constraint, an occurrence list per literal,
 * and a trail that backtracking undoes.  propagate.c builds the model
 * rewriting and ilpm_propagator on it. */
#ifndef ILPM_ENGINE_H
#define ILPM_ENGINE_H

#include "ilpm.h"

#include <stdint.h>
#include <stdlib.h>

enum { ILPM_LUNDEF = 0, ILPM_LTRUE = 1, ILPM_LFALSE = 2 };

/* The value of literal l: ILPM_LTRUE, ILPM_LFALSE or ILPM_LUNDEF. */
static inline int lval(const uint8_t *val, int l)
{
    int x = val[abs(l)];
    if (x == ILPM_LUNDEF || l > 0)
        return x;
    return x == ILPM_LTRUE ? ILPM_LFALSE : ILPM_LTRUE;
}

/* Literal l as an index: 2v for v, 2v+1 for -v. */
static inline size_t lix(int l)
{
    return 2 * (size_t)abs(l) + (l < 0);
}

/* The propagating constraints, each as "sum of lits cmp k" over
 * occurrences (a repeated literal counts twice, as in both lowerings). */
typedef struct engine {
    int nv;
    size_t ncons;
    size_t *start; /* ncons + 1 offsets into lits                  */
    int *lits;
    uint8_t *cmp; /* ILPM_LE, ILPM_GE, ILPM_EQ                    */
    int64_t *k;
    int *ntrue, *nfalse; /* occurrences counted so far                 */
    size_t *occ_start;   /* per literal index, into occ (2nv + 3)      */
    size_t *occ;         /* constraint numbers                         */
    uint8_t *val;
    int *trail;
    int ntrail, qhead;
    uint64_t work; /* occurrences and literals visited           */
} engine;

int ilpm_eng_init(engine *e, const ilpm_model *m, ilpm_err *err);
void ilpm_eng_free(engine *e);
/* Makes literal l true; -1 when it is false already (a conflict). */
int ilpm_eng_assign(engine *e, int l);
/* Propagates the trail from qhead; -1 on a conflict. */
int ilpm_eng_propagate(engine *e);
/* Takes back the trail down to mark. */
void ilpm_eng_undo(engine *e, int mark);
/* Failed-literal probing of every open variable, then clause probing,
 * within a work budget (w, if not NULL, cuts it short); -1 when the
 * model has no solution. */
int ilpm_eng_probe(engine *e, ilpm_watch *w);
/* Looks at each constraint once (the unit clauses, k = 0 or k = n) and
 * propagates from there; 1 on a conflict. */
int ilpm_eng_settle(engine *e);

#endif
