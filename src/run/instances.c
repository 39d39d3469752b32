/* The walk over a file's instances that every verb and the batch share:
 * the position of each instance, --index to pick one, and the guard that
 * ends the walk when a parser reports an error without reading on (which
 * would otherwise report it forever): it->done then says the walk cannot
 * go on. */
#include "run.h"

#include <stdio.h>

void ilpm_instances_init(ilpm_instances *it, const ilpm_puzzle *pz,
                         const ilpm_params *p, ilpm_reader *rd, long want)
{
    it->pz = pz;
    it->p = p;
    it->rd = rd;
    it->want = want > 0 ? want : 0;
    it->index = 0;
    it->offset = 0;
    it->lines = 0;
    it->done = 0;
    it->limits = NULL;
    ilpm_watch_until(&it->watch, 0, NULL);
}

void ilpm_instances_watch(ilpm_instances *it, const ilpm_options *o)
{
    it->limits = o;
}

int ilpm_instances_next(ilpm_instances *it, void **inst, ilpm_err *err)
{
    it->bad = 0;
    while (!it->done) {
        it->offset = ilpm_reader_offset(it->rd, &it->lines);
        ilpm_reader_set_index(it->rd, it->index + 1);
        ilpm_err perr = {0};
        void *got = NULL;
        ilpm_watch_until(&it->watch, ilpm_options_deadline(it->limits),
                         it->limits ? it->limits->stop_flag : NULL);
        ilpm_reader_set_watch(it->rd, &it->watch);
        int r = it->pz->parse(it->rd, it->p, &got, &perr);
        ilpm_reader_set_watch(it->rd, NULL);
        if (it->watch.status) {
            /* Reading was cut short, whatever the parser made of it: the
             * walk ends there. */
            if (r > 0)
                it->pz->free_instance(got);
            it->done = 1;
            char what[320];
            snprintf(what, sizeof what, "reading %s (line %ld)",
                     ilpm_reader_name(it->rd), ilpm_reader_lineno(it->rd) + 1);
            ilpm_watch_poll(&it->watch, what, err);
            return -1;
        }
        if (r == 0) {
            it->done = 1;
            if (it->index == 0) {
                ilpm_err_input(err, "%s: no instance in the file",
                               ilpm_reader_name(it->rd));
                return -1;
            }
            if (it->want > it->index) {
                ilpm_err_input(err,
                               "%s: --index %ld is past the last instance "
                               "(the file holds %ld)",
                               ilpm_reader_name(it->rd), it->want, it->index);
                return -1;
            }
            return 0;
        }
        it->index++;
        if (r < 0 && ilpm_reader_offset(it->rd, NULL) == it->offset) {
            /* The parser stands where it stood: it would fail the same
             * way again. */
            it->done = 1;
            it->bad = 1;
            snprintf(err->msg, sizeof err->msg, "%s", perr.msg);
            err->rc = perr.rc;
            return -1;
        }
        if (it->want && it->index < it->want) {
            if (r > 0)
                it->pz->free_instance(got);
            continue;
        }
        if (it->want)
            it->done = 1;
        if (r < 0) {
            it->bad = 1;
            snprintf(err->msg, sizeof err->msg, "%s", perr.msg);
            err->rc = perr.rc;
            return -1;
        }
        *inst = got;
        return 1;
    }
    return 0;
}
