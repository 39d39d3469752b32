/* libFuzzer harness for one puzzle's input parser (built once per puzzle
 * and input format, see tests/fuzz/meson.build).  Every instance the
 * parser accepts is built into a model under tight limits and, when small,
 * solved on SAT with a short time limit; a solution that fails the
 * puzzle's own rules is a bug and aborts. */
#include "puzzle.h"
#include "puzzles.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_PUZZLE
#error "define FUZZ_PUZZLE, e.g. -DFUZZ_PUZZLE=ilpm_puzzle_queens"
#endif

extern const ilpm_puzzle FUZZ_PUZZLE;

static ilpm_params *params(void)
{
    ilpm_params *p = ilpm_params_new();
#ifdef FUZZ_PARAM
    ilpm_params_set(p, FUZZ_PARAM, FUZZ_VALUE);
#endif
    return p;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const ilpm_puzzle *pz = &FUZZ_PUZZLE;
    ilpm_reader *rd = ilpm_reader_mem("fuzz", (const char *)data, size);
    ilpm_params *p = params();
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.max_vars = 20000;
    o.solver.max_memory_mb = 64;
    o.solver.time_limit = 0.05;
    for (int n = 0; n < 40; n++) {
        void *inst = NULL;
        ilpm_err err;
        int64_t before = ilpm_reader_offset(rd, NULL);
        int r = pz->parse(rd, p, &inst, &err);
        if (r == 0)
            break;
        if (r < 0 && ilpm_reader_offset(rd, NULL) == before) {
            /* A parser must read on after an error, or the walk over
             * the file would report it forever. */
            fprintf(stderr, "error without reading on: %s\n", err.msg);
            abort();
        }
        if (r < 0) {
            /* Every message names the input. */
            if (strncmp(err.msg, "fuzz:", 5) != 0 &&
                strstr(err.msg, "out of memory") == NULL) {
                fprintf(stderr, "message without position: %s\n", err.msg);
                abort();
            }
            continue;
        }
        char label[160];
        pz->describe(inst, label, sizeof label);
        /* Solving is slow next to parsing: only the first instances of
         * an input are solved, the rest are built. */
        if (n >= 2) {
            ilpm_model *m = ilpm_run_model_new(&o.solver);
            pz->build(inst, p, m, &err);
            ilpm_model_free(m);
            pz->free_instance(inst);
            continue;
        }
        ilpm_result res;
        ilpm_result_init(&res);
        ilpm_run_instance(pz, inst, p, &o, &res);
        if ((res.status == ILPM_SOLVED || res.status == ILPM_OPTIMAL ||
             res.status == ILPM_FEASIBLE) &&
            !res.verified) {
            fprintf(stderr, "%s: solution fails the rules: %s\n", label,
                    res.error);
            abort();
        }
        ilpm_result_free(&res);
        pz->free_instance(inst);
    }
    ilpm_params_free(p);
    ilpm_reader_free(rd);
    return 0;
}
