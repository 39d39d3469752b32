/* What the verbs share: the walk over every instance of the parameters
 * or the files, checked writes to standard output, the model of one
 * instance, and the progress line's hooks (the exit statuses: exit.c). */
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first reason a write to standard output failed; 0 while none has. */
int ilpm_cli_stdout_errno;

/* Writes s to standard output and pushes it out: 0 if everything
 * written there so far arrived, else -1 (main reports the reason). */
int ilpm_cli_put_stdout(const char *s)
{
    errno = 0;
    if (fputs(s, stdout) == EOF || fflush(stdout) != 0 || ferror(stdout)) {
        if (!ilpm_cli_stdout_errno)
            ilpm_cli_stdout_errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int ilpm_cli_put_made(void (*make)(ilpm_buf *b))
{
    ilpm_buf b;
    ilpm_buf_init(&b);
    make(&b);
    int rc = b.oom ? -1 : ilpm_cli_put_stdout(ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    return rc;
}

const char *ilpm_cli_err_note(const cli *c, ilpm_rc kind)
{
    static char note[128];
    if (kind != ILPM_E_NOMEM || c->memory_limit <= 0)
        return "";
    snprintf(note, sizeof note,
             " (--memory-limit %g MB reached: raise it to go on)",
             c->memory_limit);
    return note;
}

int ilpm_cli_for_each_instance(cli *c, tally *t, instance_fn fn, void *ctx)
{
    ilpm_err err = {0};
    if (c->nfiles == 0) {
        void *inst = NULL;
        int r =
            c->pz->from_params ? c->pz->from_params(c->params, &inst, &err) : 0;
        if (r < 0) {
            fprintf(stderr, "ilpm: %s%s\n", err.msg,
                    ilpm_cli_err_note(c, err.rc));
            ilpm_cli_note_exit(t, ilpm_cli_err_exit(c, &err));
            return 0;
        }
        if (r == 0) {
            fprintf(stderr,
                    "ilpm: %s needs an instance: give a FILE or the "
                    "parameters (see 'ilpm %s %s --help')\n",
                    c->pz->name, c->verb_name, c->pz->name);
            ilpm_cli_note_exit(t, EXIT_USAGE);
            return 0;
        }
        t->instances++;
        ilpm_progress_instance_of(c->run.progress_ctx, c->pz, inst);
        int rc = fn(c, inst, "", 0, ctx);
        c->pz->free_instance(inst);
        return rc;
    }
    for (int i = 0; i < c->nfiles && !cli_stop_requested; i++) {
        ilpm_reader *rd = ilpm_reader_open(c->files[i], &err);
        if (!rd) {
            fprintf(stderr, "ilpm: %s%s\n", err.msg,
                    ilpm_cli_err_note(c, err.rc));
            ilpm_cli_note_exit(t, ilpm_cli_err_exit(c, &err));
            continue;
        }
        ilpm_instances it;
        ilpm_instances_init(&it, c->pz, c->params, rd, c->index);
        ilpm_instances_watch(&it, &c->run.solver);
        int rc = 0;
        while (rc == 0 && !cli_stop_requested) {
            void *inst = NULL;
            int r = ilpm_instances_next(&it, &inst, &err);
            if (r == 0)
                break;
            if (r < 0 && it.done && err.rc == ILPM_E_TIMEOUT && c->unread) {
                t->instances++;
                rc = c->unread(c, NULL, c->files[i], it.index + 1, ctx);
                break;
            }
            if (r < 0 && it.bad && c->unread) {
                t->instances++;
                c->unread_err = &err;
                rc = c->unread(c, NULL, c->files[i], it.index, ctx);
                c->unread_err = NULL;
                if (it.done)
                    break;
                continue;
            }
            if (r < 0) {
                fprintf(stderr, "ilpm: %s%s\n", err.msg,
                        ilpm_cli_err_note(c, err.rc));
                ilpm_cli_note_exit(t, ilpm_cli_err_exit(c, &err));
                if (it.done)
                    break;
                continue;
            }
            t->instances++;
            ilpm_progress_instance_of(c->run.progress_ctx, c->pz, inst);
            rc = fn(c, inst, c->files[i], it.index, ctx);
            c->pz->free_instance(inst);
        }
        ilpm_reader_free(rd);
        if (rc != 0)
            break;
    }
    return 0;
}

ilpm_model *ilpm_cli_build_model(cli *c, const void *inst, tally *t)
{
    ilpm_err err = {0};
    ilpm_options so = c->run.solver; /* one deadline for load and build */
    so.deadline = ilpm_options_deadline(&so);
    ilpm_model *m = ilpm_run_model_new(&so);
    if (!m) {
        fprintf(stderr, "ilpm: out of memory\n");
        ilpm_cli_note_exit(t, EXIT_INTERNAL);
        return NULL;
    }
    /* The puzzle's load step (a MathProg translation) under the limits,
     * before the build. */
    double ms;
    if (ilpm_run_load(c->pz, (void *)inst, c->params, &so, &ms, &err) != 0 ||
        c->pz->build(inst, c->params, m, &err) != 0) {
        fprintf(stderr, "ilpm: %s%s\n", err.msg, ilpm_cli_err_note(c, err.rc));
        ilpm_cli_note_exit(t, ilpm_cli_err_exit(c, &err));
        ilpm_model_free(m);
        return NULL;
    }
    return m;
}

/* The progress line on a terminal (not with --verbose, whose solver
 * output shares stderr), fed by the run layer's hook; NULL otherwise. */
progress *ilpm_progress_for(cli *c)
{
    progress *pg = c->run.solver.verbose ? NULL : ilpm_progress_start();
    c->run.progress = pg ? ilpm_progress_run : NULL;
    c->run.progress_ctx = pg;
    return pg;
}

void ilpm_progress_instance_of(progress *pg, const ilpm_puzzle *pz,
                               const void *inst)
{
    if (!pg)
        return;
    char label[200];
    int n = snprintf(label, sizeof label, "%s ", pz->name);
    pz->describe(inst, label + n, sizeof label - (size_t)n);
    ilpm_progress_instance(pg, label);
}
