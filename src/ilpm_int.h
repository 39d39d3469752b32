/* ilpm_int.h: what ilpm's own layers share beyond the public interface
 * of ilpm.h: functions of the model layer that the back ends and the run
 * layer call but a library user has no use for.  Not installed. */
#ifndef ILPM_INT_H
#define ILPM_INT_H

#include "ilpm.h"

/* The model o->backend lowers for m under o: m itself, or with
 * o->propagate its propagated copy, handed to the caller in *own (NULL
 * when m is used) to free after the lowered form.  NULL with err on
 * failure. */
const ilpm_model *ilpm_model_lowered(const ilpm_model *m, const ilpm_options *o,
                                     ilpm_model **own, ilpm_err *err);

/* The level o->propagate asks of ilpm_model_propagate: 0 none, 1 units,
 * 2 probing (auto: 2 on both back ends). */
int ilpm_propagate_level(const ilpm_options *o);
/* The level for what assumptions force (ilpm_propagator_run): the same,
 * except that auto asks 0 of a back end that propagates assumptions
 * itself (fix_under_auto 0: its driver's propagation policy). */
int ilpm_propagate_assumed_level(const ilpm_options *o, int fix_under_auto);

#endif
