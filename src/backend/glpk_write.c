/* LP and MPS export through GLPK's own writers, of a problem built with
 * names (ILPM_GLPK_LP, ILPM_GLPK_MPS); the MPS file is copied with notes
 * for its readers and without what cbc rejects. */
#include "glpk_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h> /* ssize_t */

struct write_ctx {
    glp_prob *P;
    ilpm_format f;
    const char *name; /* the file GLPK writes */
    ilpm_glpk_guard *g;
};

static int write_body(void *ctx, ilpm_err *err)
{
    struct write_ctx *w = ctx;
    int rc = w->f == ILPM_FMT_LP
                 ? glp_write_lp(w->P, NULL, w->name)
                 : glp_write_mps(w->P, GLP_MPS_FILE, NULL, w->name);
    if (rc != 0) {
        char msg[sizeof w->g->log + 64];
        ilpm_glpk_log_tail(w->g, 1, msg, sizeof msg);
        return ilpm_err_input(err, "%s", msg);
    }
    return 0;
}

/* Copies GLPK's MPS file to out, with note (comment lines) put before
 * NAME.  GLPK marks a column without elements by a comment, "X(1) r_1 0
 * $ empty column", which cbc's MPS reader rejects as a bad line; without
 * the comment it is a plain zero entry that every reader accepts.  A
 * failed write stops the copy; ilpm_out_commit reports it. */
static int finish_mps(const char *from, ilpm_out *out, const char *note,
                      ilpm_err *err)
{
    static const char mark[] = " $ empty column";
    FILE *in = fopen(from, "r");
    if (!in)
        return ilpm_err_input(err, "cannot read %s: %s", from, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    errno = 0;
    while ((n = getline(&line, &cap, in)) > 0) {
        size_t len = (size_t)n, ml = sizeof mark - 1;
        if (len > ml && line[len - 1] == '\n' &&
            memcmp(line + len - 1 - ml, mark, ml) == 0) {
            len -= ml + 1;
            line[len++] = '\n';
        }
        if (note && strncmp(line, "NAME", 4) == 0) {
            if (ilpm_out_write(out, note, strlen(note)) != 0)
                break;
            note = NULL;
        }
        if (ilpm_out_write(out, line, len) != 0)
            break;
    }
    int e = errno, bad = ferror(in) != 0;
    free(line);
    fclose(in);
    if (bad)
        return ilpm_err_input(err, "cannot read %s: %s", from,
                              strerror(e ? e : EIO));
    return 0;
}

/* GLPK's writers take a file name: an LP file is written by GLPK under
 * the output's own name for it (ilpm_out_name); an MPS file first to a
 * scratch file, which finish_mps copies to the output. */
int ilpm_glpk_write(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                    const char *path, ilpm_err *err)
{
    const char *fmt = f == ILPM_FMT_LP ? "LP" : "MPS";
    if (f != ILPM_FMT_LP && f != ILPM_FMT_MPS)
        return ilpm_err_input(err, "GLPK writes LP or MPS, not format %d",
                              (int)f);
    ilpm_out *out = ilpm_out_open(path, ILPM_OUT_REPLACE, err);
    if (!out)
        return ilpm_err_io(err);
    ilpm_glpk *d = ilpm_glpk_build(
        m, o, NULL, 1, f == ILPM_FMT_LP ? ILPM_GLPK_LP : ILPM_GLPK_MPS, err);
    if (!d) {
        ilpm_out_abort(out);
        return -1;
    }
    ilpm_err why;
    char *raw = NULL;
    const char *name = NULL;
    if (f == ILPM_FMT_LP)
        name = ilpm_out_name(out, err);
    else if ((raw = ilpm_temp_file("ilpm-mps", &why)) != NULL)
        name = raw;
    else
        ilpm_err_fail(err, ILPM_E_IO, "%s: %s", path, why.msg);
    int rc = name ? 0 : ilpm_err_io(err);
    ilpm_glpk_guard g;
    struct write_ctx w = {d->P, f, name, &g};
    if (rc == 0 && ilpm_glpk_run(&g, &d->base.o, write_body, &w,
                                 "writing the problem", &why) != 0) {
        if (d->gen != ilpm_glpk_gen())
            d->P = NULL;
        rc = ilpm_err_fail(err, ILPM_E_IO, "%s: cannot write the %s file: %s",
                           path, fmt, why.msg);
    } else if (rc == 0 && f == ILPM_FMT_MPS) {
        char note[256];
        snprintf(note, sizeof note, "%s%s",
                 d->sense == ILPM_MAXIMIZE
                     ? "* ilpm: the model maximises; MPS has no objective "
                       "sense, so this file\n* minimises the negated "
                       "objective: its optimum is minus the model's.\n"
                     : "",
                 d->obj[0] != 0 ? "* ilpm: column ONE is fixed at 1; it "
                                  "carries the objective constant.\n"
                                : "");
        if (finish_mps(raw, out, note, &why) != 0)
            rc = ilpm_err_fail(err, ILPM_E_IO, "%s: %s", path, why.msg);
    }
    if (rc == 0 && o && o->stop_flag && *o->stop_flag) /* Ctrl-C meanwhile */
        rc = ilpm_err_fail(err, ILPM_E_INTERRUPTED,
                           "%s: stopped while writing the %s file", path, fmt);
    if (rc == 0 && ilpm_out_commit(out, err) != 0)
        rc = ilpm_err_io(err);
    else if (rc != 0)
        ilpm_out_abort(out);
    ilpm_temp_remove(raw);
    ilpm_glpk_destroy(d);
    return rc;
}
