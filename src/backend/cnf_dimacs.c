/* cnf_dimacs.c: writes an ilpm_cnf as DIMACS, with a comment line naming
 * each model variable so that a solver's model can be read back. */
#include "backend.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Formatting numbers by hand keeps a many-million-clause export from
 * spending its time in fprintf. */
struct out {
    FILE *f;
    size_t len;
    int failed;         /* 1: a write failed; 2: stopped       */
    volatile int *stop; /* the CNF's stop flag (Ctrl-C), or NULL */
    char buf[1 << 15];
};

/* Each 32 KB written looks at the stop flag: a stop ends the export
 * there, as it ends an encoding. */
static void out_flush(struct out *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = 1;
    if (!o->failed && o->stop && *o->stop)
        o->failed = 2;
    o->len = 0;
}

static void out_str(struct out *o, const char *s)
{
    for (; *s; s++) {
        if (o->len == sizeof o->buf)
            out_flush(o);
        o->buf[o->len++] = *s;
    }
}

static void out_i64(struct out *o, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[n++] = '-';
    if (o->len + (size_t)n > sizeof o->buf)
        out_flush(o);
    while (n)
        o->buf[o->len++] = tmp[--n];
}

int ilpm_cnf_write_dimacs(const ilpm_cnf *c, const ilpm_model *m, FILE *f,
                          ilpm_err *err)
{
    errno = 0;
    struct out *o = malloc(sizeof *o);
    if (!o)
        return ilpm_err_nomem(err, "out of memory writing DIMACS");
    o->f = f;
    o->len = 0;
    o->failed = 0;
    o->stop = c->watch.stop;
    out_str(o, "c ilpm DIMACS export\n");
    if (m && ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE)
        out_str(o, "c the model's objective is not here (DIMACS CNF has "
                   "none): these clauses are its feasible set; OPB, LP and "
                   "MPS keep it\n");
    if (m) {
        char name[256];
        for (int v = 1; v <= c->model_vars && !o->failed; v++) {
            out_str(o, "c ");
            out_str(o, ilpm_model_var_name(m, v, name, sizeof name));
            out_str(o, " ");
            out_i64(o, v);
            out_str(o, "\n");
        }
    }
    out_str(o, "p cnf ");
    out_i64(o, c->nvars);
    out_str(o, " ");
    out_i64(o, c->nclauses);
    out_str(o, "\n");
    int first = 1;
    for (size_t i = 0; i < c->nlits && !o->failed; i++) {
        if (!first)
            out_str(o, " ");
        out_i64(o, c->lits[i]);
        first = c->lits[i] == 0;
        if (first)
            out_str(o, "\n");
    }
    out_flush(o);
    int failed = o->failed;
    free(o);
    if (failed == 2)
        return ilpm_err_fail(err, ILPM_E_INTERRUPTED,
                             "stopped while writing DIMACS");
    if (failed || fflush(f) != 0 || ferror(f))
        return ilpm_err_input(err, "error writing DIMACS: %s",
                              errno ? strerror(errno) : "write failed");
    return 0;
}
