/* stats and export: the model of an instance without solving it. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int stats_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    (void)file;
    (void)index;
    tally *t = ctx;
    ilpm_model *m = ilpm_cli_build_model(c, inst, t);
    if (!m)
        return 0;
    ilpm_err err = {0};
    ilpm_stats s;
    char label[160];
    c->pz->describe(inst, label, sizeof label);
    if (ilpm_model_stats(m, &c->run.solver, &s, &err) != 0) {
        fprintf(stderr, "ilpm: %s %s: %s\n", c->pz->name, label, err.msg);
        ilpm_cli_note_exit(t, ilpm_cli_err_exit(c, &err));
        ilpm_model_free(m);
        return 0;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (c->format == FMT_CSV) {
        ilpm_stats_csv(m, &s, c->pz->name, label, &b);
    } else if (c->format == FMT_JSON) {
        ilpm_stats_json(m, &s, c->pz->name, label, &b);
        /* The puzzle's members go inside the object, before its "}\n". */
        if (c->pz->stats_json && b.len >= 2 && !b.oom) {
            b.len -= 2;
            b.s[b.len] = '\0';
            c->pz->stats_json(inst, c->params, &b);
            ilpm_buf_puts(&b, "}\n");
        }
    } else {
        char amo[32], card[32];
        ilpm_options_get(&c->run.solver, "amo", amo, sizeof amo);
        ilpm_options_get(&c->run.solver, "card", card, sizeof card);
        ilpm_buf_printf(&b, "%s %s: CNF with --amo %s --card %s\n", c->pz->name,
                        label, amo, card);
        ilpm_stats_text(m, &s, &b);
    }
    fputs(ilpm_buf_str(&b), stdout);
    ilpm_buf_free(&b);
    ilpm_stats_free(&s);
    ilpm_model_free(m);
    return 0;
}

int ilpm_cmd_stats(cli *c)
{
    tally t = {EXIT_OK, 0};
    if (c->format == FMT_CSV && ilpm_cli_put_made(ilpm_stats_csv_header) != 0)
        return EXIT_INTERNAL;
    ilpm_cli_for_each_instance(c, &t, stats_one, &t);
    return t.worst;
}

/* export writes one model: the instance is built when it is read, and
 * written only once the file has shown no second one, so that a file of
 * many instances writes nothing. */
typedef struct export_ctx {
    tally t;
    ilpm_model *m;
    long instances;
} export_ctx;

static int export_one(cli *c, const void *inst, const char *file, long index,
                      void *vctx)
{
    (void)index;
    export_ctx *x = vctx;
    if (++x->instances > 1) {
        fprintf(stderr,
                "ilpm: %s holds more than one instance and export writes "
                "one: pick it with --index I\n",
                file);
        ilpm_cli_note_exit(&x->t, EXIT_USAGE);
        return 1;
    }
    x->m = ilpm_cli_build_model(c, inst, &x->t);
    return 0;
}

int ilpm_cmd_export(cli *c)
{
    export_ctx x = {{EXIT_OK, 0}, NULL, 0};
    ilpm_cli_for_each_instance(c, &x.t, export_one, &x);
    /* Each format is tried even after another failed, but not after a
     * stop (Ctrl-C: 130, nothing more written). */
    int built = x.m && x.t.worst == EXIT_OK;
    for (int f = 0; ilpm_file_formats[f] && built && !cli_stop_requested; f++) {
        if (!c->export_path[f])
            continue;
        ilpm_err err = {0};
        int rc = ilpm_file_formats[f]->write(x.m, &c->run.solver,
                                             c->export_path[f], &err);
        /* A format without objectives (DIMACS CNF) gets the feasible
         * set alone: said, as a solver of it finds any solution. */
        if (rc == 0 &&
            !(ilpm_file_formats[f]->carries & ILPM_CARRIES_OBJECTIVE) &&
            ilpm_model_objective_get(x.m, NULL, NULL, NULL) != ILPM_NONE)
            fprintf(stderr,
                    "ilpm: note: --%s %s holds the model's rows, not its "
                    "objective, which the format has no place for\n",
                    ilpm_file_formats[f]->name, c->export_path[f]);
        if (rc != 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            /* ILPM_E_IO, the file could not be written (not the
             * model): exit 1. */
            ilpm_cli_note_exit(&x.t, ilpm_cli_err_exit(c, &err));
        }
    }
    ilpm_model_free(x.m);
    if (cli_stop_requested)
        ilpm_cli_note_exit(&x.t, EXIT_SIGNAL);
    return x.t.worst;
}
