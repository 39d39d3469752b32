/* The `gmpl` puzzle: a model written in GNU MathProg, GLPK's modelling
 * language, translated by GLPK's own translator (ilpm_gmpl_read) into
 * the problem an LP file would give, then lowered, solved, verified and
 * rendered as the `model` puzzle does (model.c).  The model's own output
 * statements (printf, display, table out) run after the solve with the
 * solution found, whichever back end found it (ilpm_gmpl_postsolve).
 *
 * An instance is a model with its data: `gmpl MODEL.mod --data D.dat`
 * (glpsol's -m and -d) is one; `gmpl MODEL.mod D1.dat D2.dat` (the
 * first FILE the model, see lead_opt) makes each data file one, after
 * the --data files they share. */
#include "mdl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_opt gmpl_opts[] = {
    {.name = "data",
     .arg = "FILE",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_REPEAT | ILPM_OPT_INPUT,
     .help = "a data file of the model (glpsol's -d), read in order; repeat "
             "it for more; with one, the model's own data section is "
             "skipped"},
    {.name = "model",
     .arg = "FILE",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_INPUT,
     .help = "the model, when every FILE is a data file of it (an instance "
             "each); 'gmpl MODEL.mod D1.dat D2.dat' sets it from the first "
             "FILE"},
    MDL_INT_ENCODING_OPT,
    {.name = NULL},
};

/* The --data values, then extra (if not NULL), as d's data files. */
static int data_files(mdl *d, const char *shared, const char *extra,
                      ilpm_err *err)
{
    int n = extra != NULL;
    for (const char *s = shared; s && *s; s++)
        n += *s == ILPM_OPT_SEP;
    n += shared != NULL;
    if (!(d->data = calloc((size_t)n + 1, sizeof *d->data)))
        return ilpm_err_nomem(err, "out of memory");
    for (const char *s = shared; s;) {
        const char *e = strchr(s, ILPM_OPT_SEP);
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (!(d->data[d->ndata] = strndup(s, len)))
            return ilpm_err_nomem(err, "out of memory");
        d->ndata++;
        s = e ? e + 1 : NULL;
    }
    if (extra && !(d->data[d->ndata++] = strdup(extra)))
        return ilpm_err_nomem(err, "out of memory");
    return 0;
}

static int gmpl_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                      ilpm_err *err)
{
    if (ilpm_mdl_file_done(rd, err))
        return 0;
    const char *name = ilpm_reader_name(rd), *path = ilpm_reader_path(rd);
    /* GLPK's translator reads by name; a named file need not be read
     * here (the walk over instances drains what is left). */
    const char *model = ilpm_params_get(p, "model");
    if (!path)
        return ilpm_err_input(err,
                              "%s: a MathProg model and its data are read "
                              "from named files, not standard input",
                              name);
    mdl *d = ilpm_mdl_new(MDL_GMPL, model ? model : path);
    if (!d)
        return ilpm_err_nomem(err, "out of memory");
    ilpm_lp *lp = NULL;
    if (!(d->path = strdup(model ? model : path)))
        ilpm_err_nomem(err, "out of memory");
    else if (data_files(d, ilpm_params_get(p, "data"), model ? path : NULL,
                        err) == 0) {
        ilpm_gmpl_src src = {d->path, (const char *const *)d->data, d->ndata};
        if (ilpm_gmpl_read_keep(&src, &lp, &d->tran, err) == 0 &&
            ilpm_mdl_from_lp(lp, d, err) == 0) {
            int rc =
                ilpm_mdl_inst_new(d, p, inst, err); /* frees d on failure */
            if (rc == 0)
                /* The generated rows are what solutions are checked
                 * against (check.c), independently of the lowering. */
                ilpm_mdl_inst_again(*inst)->lp = lp;
            else
                ilpm_lp_free(lp);
            return rc == 0 ? 1 : -1;
        }
    }
    ilpm_lp_free(lp);
    ilpm_mdl_free(d);
    return -1;
}

static void gmpl_describe(const void *inst, char *buf, size_t size)
{
    const mdl *d = ilpm_mdl_inst_rows(inst);
    const char *base = strrchr(d->file, '/');
    base = base ? base + 1 : d->file;
    if (d->ndata > 0) {
        const char *dat = d->data[d->ndata - 1], *b = strrchr(dat, '/');
        snprintf(buf, size, "%s %s (%d variables, %d rows)", base,
                 b ? b + 1 : dat, d->ncols, d->nrows);
    } else {
        snprintf(buf, size, "%s (%d variables, %d rows)", base, d->ncols,
                 d->nrows);
    }
}

/* The model's own output after the solve; the true variables when it
 * writes nothing. */
static void gmpl_render(const void *inst, const void *sol, ilpm_buf *out)
{
    const mdl *d = ilpm_mdl_inst_rows(inst);
    const mdl_sol *s = sol;
    double *x = malloc(((size_t)d->ncols + 1) * sizeof *x);
    char *text = NULL;
    ilpm_err err = {0};
    if (!x) {
        ilpm_buf_puts(out, "(out of memory for the model's output)\n");
        return;
    }
    for (int j = 0; j < d->ncols; j++)
        x[j] = (double)s->x[j];
    ilpm_gmpl_src src = {d->path, (const char *const *)d->data, d->ndata};
    /* The translation parse kept serves the first output; the instance
     * is otherwise read-only (as the verifier's copy, model.c). */
    if (ilpm_gmpl_postsolve(&src, &((mdl *)d)->tran, x, d->ncols, &text,
                            &err) != 0)
        ilpm_buf_printf(out, "(the model's output failed: %s)\n", err.msg);
    else if (text && *text) {
        ilpm_buf_puts(out, text);
        if (text[strlen(text) - 1] != '\n')
            ilpm_buf_putc(out, '\n');
    } else
        ilpm_mdl_pz_render(inst, sol, out);
    free(text);
    free(x);
}

/* ilpm solve gmpl --help: examples (see puzzle.h). */
static const char *const gmpl_examples[] = {
    "models/gmpl/sudoku.mod --data models/gmpl/sudoku.dat --backend sat",
    "models/gmpl/queens.mod --data models/gmpl/queens8.dat --count --backend "
    "cp",
    "models/gmpl/langford.mod models/gmpl/langford_2_7.dat "
    "models/gmpl/langford_3_9.dat",
    NULL};

const ilpm_puzzle ilpm_puzzle_gmpl = {
    .name = "gmpl",
    .summary = "your own model in GNU MathProg (GLPK's modelling language)",
    .opts = gmpl_opts,
    .lead_opt = "model",
    .input_help =
        "gmpl MODEL.mod [--data D.dat]...: a GNU MathProg model and its data\n"
        "(glpsol -m MODEL.mod -d D.dat), translated by GLPK; with more FILEs,\n"
        "'gmpl MODEL.mod D1.dat D2.dat' makes each data file an instance.\n"
        "Variables are binary (bounded integers with --int-encoding); rows\n"
        "are recognised as in 'model'.  Text output: what the model prints\n"
        "(printf, display) after its solve statement, run with the solution;\n"
        "its files (printf > \"f\") are written relative to the current\n"
        "directory.  JSON: {\"true\": [...], \"objective\": N}.",
    .examples = gmpl_examples,
    .parse = gmpl_parse,
    .free_instance = ilpm_mdl_inst_free,
    .describe = gmpl_describe,
    .build = ilpm_mdl_pz_build,
    .decode = ilpm_mdl_pz_decode,
    .verify = ilpm_mdl_pz_verify,
    .render = gmpl_render,
    .render_json = ilpm_mdl_pz_render_json,
    .objective_scale = ilpm_mdl_pz_objective_scale,
    .free_solution = ilpm_mdl_sol_free,
    .stats_json = ilpm_mdl_pz_stats_json,
};
