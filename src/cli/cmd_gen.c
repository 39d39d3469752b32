/* gen and list. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_gen(cli *c)
{
    ilpm_buf b;
    ilpm_err err = {0};
    ilpm_buf_init(&b);
    if (c->pz->generate(c->params, &b, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        ilpm_buf_free(&b);
        return err_exit(c, &err);
    }
    int rc = EXIT_OK;
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

int cmd_list(void)
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
