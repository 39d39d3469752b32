/* libFuzzer harness for the MathProg path: the bytes are a model, and
 * after a NUL byte (if any) a data file.  Both are written to files (GLPK's
 * translator reads by name) and go through the `gmpl` puzzle as the
 * command line takes them: translation under the abort guard, lowering,
 * and for small models a short SAT solve whose solution must pass the
 * check against the generated rows and be handed back to the model's
 * output statements.  GLPK must never abort the process.  The harness
 * works in a scratch folder of its own, since a model may write files
 * (printf > "f"). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "puzzle.h"
#include "puzzles.h"
#include "run.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/ilpm-fuzz-gmpl-XXXXXX";

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* The scratch folder and what the models wrote there. */
static void rm_dir(void)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int put(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(p, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static int ready;
    if (!ready) {
        if (!mkdtemp(dir) || chdir(dir) != 0)
            abort();
        atexit(rm_dir);
        ready = 1;
    }
    const unsigned char *nul = memchr(data, 0, size);
    size_t nm = nul ? (size_t)(nul - data) : size;
    if (put("m.mod", data, nm) != 0)
        abort();
    ilpm_params *p = ilpm_params_new();
    if (!p)
        return 0;
    if (nul && (put("d.dat", nul + 1, size - nm - 1) != 0 ||
                ilpm_params_set(p, "data", "d.dat") != 0))
        abort();
    ilpm_params_set(p, "int-encoding", "binary");
    ilpm_err err = {0};
    ilpm_reader *rd = ilpm_reader_open("m.mod", &err);
    if (!rd)
        abort();
    void *inst = NULL;
    int r = ilpm_puzzle_gmpl.parse(rd, p, &inst, &err);
    if (r == 1) {
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = ILPM_BACKEND_SAT;
        o.solver.time_limit = 0.5;
        o.solver.max_vars = 2000;
        o.solver.max_memory_mb = 256;
        ilpm_result res;
        ilpm_result_init(&res);
        ilpm_run_instance(&ilpm_puzzle_gmpl, inst, p, &o, &res);
        /* A solution that fails its check against the generated rows is
         * a bug in the lowering or the back end. */
        if (res.status == ILPM_ERROR && strstr(res.error, "fails the rules"))
            abort();
        ilpm_result_free(&res);
        ilpm_puzzle_gmpl.free_instance(inst);
    }
    ilpm_reader_free(rd);
    ilpm_params_free(p);
    return 0;
}
