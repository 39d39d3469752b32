/* The table of drivers, one per back end of the back-end list
 * (backends.h: ILPM_BACKENDS), indexed by the back-end enum, what the layers
 * above ask of a back end through it, and the base every driver starts from. */
#include "backend.h"

#define DRIVER_ROW(id, name, help, driver) [ILPM_BACKEND_##id] = &driver,
static const ilpm_driver_ops *const drivers[ILPM_BACKEND_COUNT] = {
    ILPM_BACKENDS(DRIVER_ROW)};

const ilpm_driver_ops *ilpm_backend_driver(ilpm_backend b)
{
    return (unsigned)b < ILPM_BACKEND_COUNT ? drivers[b]
                                            : drivers[ILPM_BACKEND_ILP];
}

ilpm_backend_reports ilpm_backend_report(int b)
{
    return ilpm_backend_driver(b)->reports;
}

const ilpm_opt *ilpm_backend_options(int b)
{
    return (unsigned)b < ILPM_BACKEND_COUNT ? drivers[b]->opts : NULL;
}

int ilpm_backend_check_options(int b, const ilpm_options *o, ilpm_err *err)
{
    const ilpm_driver_ops *ops = ilpm_backend_driver(b);
    return ops->check ? ops->check(o, err) : 0;
}

void ilpm_driver_init(ilpm_driver *d, const ilpm_model *m,
                      const ilpm_options *o, ilpm_stats *stats)
{
    d->m = m;
    if (o)
        d->o = *o;
    else
        ilpm_options_init(&d->o);
    d->stats = stats;
    ilpm_watch_until(&d->watch, d->o.deadline, d->o.stop_flag);
}
