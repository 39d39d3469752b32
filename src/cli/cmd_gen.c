/* gen and list. */
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void gen_step(void *ctx, const char *what)
{
    ilpm_progress_step(ctx, what);
}

int ilpm_cmd_gen(cli *c)
{
    ilpm_buf b;
    ilpm_err err = {0};
    ilpm_buf_init(&b);
    /* The solver calls of a generator run on CaDiCaL unless told: the
     * fastest at proving boards unsolvable (docs/benchmarks.md). */
    ilpm_gen_opts g = {c->run.solver, NULL, NULL};
    /* A generator's calls are single solves on one solver: auto (the
     * run layer's portfolio) is sat there too. */
    if (!ilpm_cli_given(c, "backend") || g.solver.backend == ILPM_BACKEND_AUTO)
        g.solver.backend = ILPM_BACKEND_SAT;
    progress *pg = ilpm_progress_start();
    if (pg) {
        char label[96];
        snprintf(label, sizeof label, "gen %s", c->pz->name);
        ilpm_progress_instance(pg, label);
        g.step = gen_step;
        g.step_ctx = pg;
    }
    int rc = c->pz->generate(c->params, &g, &b, &err);
    ilpm_progress_stop(pg);
    if (rc != 0) {
        fprintf(stderr, "ilpm: %s%s\n", err.msg, ilpm_cli_err_note(c, err.rc));
        ilpm_buf_free(&b);
        return ilpm_cli_err_exit(c, &err);
    }
    rc = EXIT_OK;
    if (c->out_path) {
        ilpm_out *out = ilpm_out_open(c->out_path, ILPM_OUT_REPLACE, &err);
        if (out) /* a failed write is reported by the commit */
            ilpm_out_write(out, b.s, b.len);
        if (!out || ilpm_out_commit(out, &err) != 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            rc = EXIT_INTERNAL;
        }
    } else {
        fputs(ilpm_buf_str(&b), stdout);
    }
    ilpm_buf_free(&b);
    return rc;
}

int ilpm_cmd_list(void)
{
    for (int i = 0; ilpm_puzzles[i]; i++) {
        const ilpm_puzzle *pz = ilpm_puzzles[i];
        printf("%-12s %s", pz->name, pz->summary);
        for (int f = 0; pz->formulations && pz->formulations[f]; f++)
            printf("%s%s", f ? ", " : "; formulations: ", pz->formulations[f]);
        putchar('\n');
    }
    return EXIT_OK;
}
