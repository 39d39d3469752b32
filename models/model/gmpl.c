/* The `gmpl` puzzle: a model written in GNU MathProg, GLPK's modelling
 * language, translated by GLPK's own translator (ilpm_gmpl_translate, in
 * a child process, at the run's load step and under its limits) into
 * the problem an LP file would give, then lowered, solved, verified and
 * rendered as the `model` puzzle does (model.c).  The model's own output
 * statements (printf, display, table out) run once after the solve with
 * the answer, whichever back end found it (the post step,
 * ilpm_gmpl_postsolve, in the same child).
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
             "skipped; - reads standard input"},
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

/* An instance: the model and its data files, as named; translated by
 * load (under the run's limits), into the `model` puzzle's instance. */
typedef struct gmpl_inst {
    char *model;
    char **data;
    int ndata;
    int state;       /* 0: not loaded yet, 1: loaded, -1: failed (err) */
    ilpm_err err;    /* why the load failed, said again when asked */
    double ms;       /* the translation's time */
    void *mi;        /* the model puzzle's instance, once loaded */
    char note[256];  /* what a count counts over (count_note) */
    ilpm_gmpl *tran; /* the translation, waiting for the solution */
} gmpl_inst;

static void gmpl_free(void *inst)
{
    gmpl_inst *g = inst;
    if (!g)
        return;
    free(g->model);
    for (int k = 0; k < g->ndata; k++)
        free(g->data[k]);
    free(g->data);
    ilpm_mdl_inst_free(g->mi);
    ilpm_gmpl_free(g->tran);
    free(g);
}

/* Standard input, read once for the process: a batch's workers share
 * the parent's copy. */
static char *stdin_text;
static size_t stdin_len;

static int read_stdin(ilpm_err *err)
{
    if (stdin_text)
        return 0;
    ilpm_buf b;
    ilpm_buf_init(&b);
    char buf[65536];
    for (size_t n; (n = fread(buf, 1, sizeof buf, stdin)) > 0;)
        ilpm_buf_put(&b, buf, n);
    if (b.oom || ferror(stdin)) {
        int oom = b.oom;
        ilpm_buf_free(&b);
        return oom ? ilpm_err_nomem(err, "out of memory")
                   : ilpm_err_input(err, "%s: cannot be read", ILPM_STDIN_NAME);
    }
    stdin_len = b.len;
    ilpm_buf_putc(&b, '\0');
    stdin_text = ilpm_buf_take(&b);
    return stdin_text ? 0 : ilpm_err_nomem(err, "out of memory");
}

/* The FILE on standard input (rd), the model or with --model a data
 * file, as the text of "-". */
static int read_model(ilpm_reader *rd, ilpm_err *err)
{
    ilpm_buf b;
    ilpm_buf_init(&b);
    const char *line;
    size_t len;
    int r;
    while ((r = ilpm_reader_line(rd, &line, &len, err)) > 0) {
        ilpm_buf_put(&b, line, len);
        ilpm_buf_putc(&b, '\n');
    }
    if (r < 0 || b.oom) {
        ilpm_buf_free(&b);
        return r < 0 ? -1 : ilpm_err_nomem(err, "out of memory");
    }
    stdin_len = b.len;
    ilpm_buf_putc(&b, '\0');
    stdin_text = ilpm_buf_take(&b);
    return stdin_text ? 0 : ilpm_err_nomem(err, "out of memory");
}

/* The --data values, then extra (if not NULL), as g's data files. */
static int data_files(gmpl_inst *g, const char *shared, const char *extra,
                      ilpm_err *err)
{
    int n = extra != NULL;
    for (const char *s = shared; s && *s; s++)
        n += *s == ILPM_OPT_SEP;
    n += shared != NULL;
    if (!(g->data = calloc((size_t)n + 1, sizeof *g->data)))
        return ilpm_err_nomem(err, "out of memory");
    for (const char *s = shared; s;) {
        const char *e = strchr(s, ILPM_OPT_SEP);
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (!(g->data[g->ndata] = strndup(s, len)))
            return ilpm_err_nomem(err, "out of memory");
        g->ndata++;
        s = e ? e + 1 : NULL;
    }
    if (extra && !(g->data[g->ndata++] = strdup(extra)))
        return ilpm_err_nomem(err, "out of memory");
    int from_stdin = strcmp(g->model, "-") == 0;
    for (int k = 0; k < g->ndata; k++) {
        if (strcmp(g->data[k], "-") != 0)
            continue;
        if (from_stdin++)
            return ilpm_err_input(err,
                                  "%s: standard input is read once, for one "
                                  "file: the model or a data file",
                                  ILPM_STDIN_NAME);
        if (read_stdin(err) != 0)
            return -1;
    }
    return 0;
}

/* An instance names its files; load translates them. */
static int gmpl_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                      ilpm_err *err)
{
    if (ilpm_mdl_file_done(rd, err))
        return 0;
    const char *name = ilpm_reader_name(rd), *path = ilpm_reader_path(rd);
    /* GLPK's translator reads by name; a named file need not be read
     * here (the walk over instances drains what is left). */
    const char *model = ilpm_params_get(p, "model");
    if (!path && strcmp(name, ILPM_STDIN_NAME) != 0)
        return ilpm_err_input(err,
                              "%s: a MathProg model is read from a named "
                              "file or standard input",
                              name);
    if (!path && stdin_text)
        return ilpm_err_input(err,
                              "%s: standard input is read once, for one "
                              "file: the model or a data file",
                              name);
    if (!path && read_model(rd, err) != 0)
        return -1;
    if (!path)
        path = "-"; /* the model (or with --model, data) on standard input */
    gmpl_inst *g = calloc(1, sizeof *g);
    if (!g || !(g->model = strdup(model ? model : path)) ||
        data_files(g, ilpm_params_get(p, "data"), model ? path : NULL, err) !=
            0) {
        if (!g || !g->model)
            ilpm_err_nomem(err, "out of memory");
        gmpl_free(g);
        return -1;
    }
    *inst = g;
    return 1;
}

/* A line of the translator's warnings ("m.mod:4: warning: data section
 * ignored") to the log, which the command line prints whether verbose or
 * not, as glpsol does. */
static void warn(void *ctx, const char *line)
{
    const ilpm_options *o = ctx;
    char b[600];
    snprintf(b, sizeof b, "ilpm: %s\n", line);
    if (o && o->log)
        o->log(o->log_ctx, b);
}

/* The model's text: standard input's, or the file's (malloc'd, or NULL
 * when it cannot be read). */
static char *model_text(const gmpl_inst *g)
{
    if (strcmp(g->model, "-") == 0)
        return stdin_text ? strdup(stdin_text) : NULL;
    FILE *f = fopen(g->model, "rb");
    if (!f)
        return NULL;
    ilpm_buf b;
    ilpm_buf_init(&b);
    char buf[65536];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;)
        ilpm_buf_put(&b, buf, n);
    fclose(f);
    return ilpm_buf_take(&b);
}

/* Whether d has a column of variable name (len bytes): "x" or "x[...]". */
static int has_column(const mdl *d, const char *name, size_t len)
{
    for (int j = 0; j < d->ncols; j++)
        if (d->col_name && strncmp(d->col_name[j], name, len) == 0 &&
            (d->col_name[j][len] == '\0' || d->col_name[j][len] == '['))
            return 1;
    return 0;
}

static int name_char(char c, int first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

/* Appends to out the variables the model declares (statements "var NAME
 * ...") of which GLPK generated no column: no row nor the objective
 * mentions them.  A light scan of the text (comments and strings
 * skipped, up to a data section), not GLPK's parse: a member of a
 * variable that no row mentions (x[4] of x{1..4}) is not seen. */
static void unused_vars(const char *t, const mdl *d, ilpm_buf *out)
{
    int start = 1, want_name = 0, n = 0;
    for (const char *p = t; *p;) {
        if (*p == '#') {
            p += strcspn(p, "\n");
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (*p == '\'' || *p == '"') {
            char q = *p++;
            while (*p && !(*p == q && p[1] != q))
                p += *p == q ? 2 : 1;
            p += *p != '\0';
            start = want_name = 0;
        } else if (name_char(*p, 1)) {
            size_t len = 1;
            while (name_char(p[len], 0))
                len++;
            if (want_name && !has_column(d, p, len))
                ilpm_buf_printf(out, "%s%.*s", n++ ? ", " : "", (int)len, p);
            if (start && ((len == 4 && strncmp(p, "data", 4) == 0) ||
                          (len == 3 && strncmp(p, "end", 3) == 0)))
                return;
            want_name = start && len == 3 && strncmp(p, "var", 3) == 0;
            start = 0;
            p += len;
        } else {
            if (*p == ';')
                start = 1;
            else if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
                start = want_name = 0;
            p++;
        }
    }
}

/* What a count counts over: GLPK's columns, and the declared variables
 * it left out. */
static void make_note(gmpl_inst *g)
{
    const mdl *d = ilpm_mdl_inst_rows(g->mi);
    ilpm_buf unused;
    ilpm_buf_init(&unused);
    char *t = model_text(g);
    if (t)
        unused_vars(t, d, &unused);
    free(t);
    snprintf(g->note, sizeof g->note,
             "counted over the %d variables GLPK generated (those a row or "
             "the objective mentions)%s%.120s",
             d->ncols,
             unused.len ? "; declared but in no row, so not counted: " : "",
             ilpm_buf_str(&unused));
    ilpm_buf_free(&unused);
}

static void gmpl_count_note(const void *inst, char *buf, size_t size)
{
    const gmpl_inst *g = inst;
    snprintf(buf, size, "%s", g->note);
}

/* MathProg is not a file the `model` puzzle reads (the table of formats
 * holds no row of it): its columns are checked against the rows GLPK
 * generated, kept as they came (gmpl_load). */
static int check_generated(const mdl *d, mdl_again *again, const int64_t *x,
                           int has_obj, int64_t obj, ilpm_err *why)
{
    if (!again->lp)
        return ilpm_err_fail(why, ILPM_E_FAIL,
                             "%s: the generated rows are gone", d->file);
    return ilpm_mdl_check_lp(again->lp, d, x, has_obj, obj, why);
}

static const struct ilpm_mdl_reader generated = {
    .check = check_generated,
    .model_vars = 1,
};
static const ilpm_file_format gmpl_rows = {.name = "gmpl",
                                           .reader = &generated};

/* A translation that failed on a file of another format ("k.lp:1:
 * character \ not allowed") says what reads it, as solve model says of
 * a .mod. */
static void other_format(const char *model, ilpm_err *err)
{
    int gz, xz;
    const ilpm_file_format *f = ilpm_format_of_path(model, &gz, &xz);
    const char *mzn = ilpm_mdl_minizinc_hint(model);
    size_t n = strlen(err->msg);
    if (err->rc != ILPM_E_INPUT || n >= sizeof err->msg)
        return;
    if (f)
        snprintf(err->msg + n, sizeof err->msg - n,
                 " (not MathProg: 'ilpm solve model FILE' reads %s files)",
                 f->name);
    else if (mzn)
        snprintf(err->msg + n, sizeof err->msg - n,
                 " (a MiniZinc model, not MathProg: %s)", mzn);
}

static int gmpl_load(void *inst, const ilpm_params *p, const ilpm_options *o,
                     double *ms, ilpm_err *err)
{
    gmpl_inst *g = inst;
    *ms = g->ms;
    if (g->state > 0)
        return 0;
    if (g->state < 0) {
        *err = g->err;
        return -1;
    }
    double t0 = ilpm_now();
    ilpm_gmpl_src src = {g->model, (const char *const *)g->data, g->ndata,
                         stdin_text, stdin_len};
    ilpm_gmpl_opts go = {ilpm_options_deadline(o), o ? o->stop_flag : NULL,
                         warn, (void *)o};
    ilpm_lp *lp = NULL;
    mdl *d = NULL;
    int rc = ilpm_gmpl_translate(&src, &go, &lp, &g->tran, err);
    if (rc != 0)
        other_format(g->model, err);
    *ms = g->ms = (ilpm_now() - t0) * 1000.0;
    if (rc == 0 && !(d = ilpm_mdl_new(&gmpl_rows, g->model)))
        rc = ilpm_err_nomem(err, "out of memory");
    if (rc == 0 && ilpm_mdl_from_lp(lp, d, err) != 0) {
        ilpm_mdl_free(d);
        rc = -1;
    }
    /* ilpm_mdl_inst_new frees d on failure. */
    if (rc == 0 && ilpm_mdl_inst_new(d, p, &g->mi, err) == 0) {
        /* The generated rows are what solutions are checked against
         * (check.c), independently of the lowering. */
        ilpm_mdl_inst_again(g->mi)->lp = lp;
        g->state = 1;
        make_note(g);
        return 0;
    }
    ilpm_lp_free(lp);
    ilpm_gmpl_free(g->tran);
    g->tran = NULL;
    g->state = -1;
    g->err = *err;
    return -1;
}

static const void *loaded(const void *inst)
{
    return ((const gmpl_inst *)inst)->mi;
}

static int gmpl_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                      ilpm_err *err)
{
    double ms;
    /* Loaded once, without limits, when no run loaded it first. */
    if (gmpl_load((void *)inst, p, NULL, &ms, err) != 0)
        return -1;
    return ilpm_mdl_pz_build(loaded(inst), p, m, err);
}

static void gmpl_describe(const void *inst, char *buf, size_t size)
{
    const gmpl_inst *g = inst;
    const char *base = strrchr(g->model, '/');
    base = base ? base + 1 : g->model;
    if (strcmp(base, "-") == 0)
        base = ILPM_STDIN_NAME;
    if (g->ndata > 0) {
        const char *dat = g->data[g->ndata - 1], *b = strrchr(dat, '/');
        snprintf(buf, size, "%s %s", base,
                 strcmp(dat, "-") == 0 ? ILPM_STDIN_NAME
                 : b                   ? b + 1
                                       : dat);
    } else {
        snprintf(buf, size, "%s", base);
    }
}

static void *gmpl_decode(const void *inst, const ilpm_params *p,
                         const ilpm_model *m, const uint8_t *vals,
                         ilpm_err *err)
{
    return ilpm_mdl_pz_decode(loaded(inst), p, m, vals, err);
}

static int gmpl_verify(const void *inst, const ilpm_params *p, const void *sol,
                       ilpm_err *why)
{
    return ilpm_mdl_pz_verify(loaded(inst), p, sol, why);
}

static void gmpl_render(const void *inst, const void *sol, ilpm_buf *out)
{
    ilpm_mdl_pz_render(loaded(inst), sol, out);
}

static void gmpl_render_json(const void *inst, const void *sol, ilpm_buf *out)
{
    ilpm_mdl_pz_render_json(loaded(inst), sol, out);
}

static int64_t gmpl_objective_scale(const void *inst, const ilpm_params *p)
{
    return loaded(inst) ? ilpm_mdl_pz_objective_scale(loaded(inst), p) : 1;
}

static void gmpl_stats_json(const void *inst, const ilpm_params *p,
                            ilpm_buf *out)
{
    if (loaded(inst))
        ilpm_mdl_pz_stats_json(loaded(inst), p, out);
}

/* The model's statements after solve, run by the kept translation with
 * the solution; the true variables when the model writes nothing. */
static int gmpl_post(const void *inst, const void *sol, volatile int *stop,
                     ilpm_buf *out, ilpm_err *err)
{
    gmpl_inst *g = (gmpl_inst *)inst; /* its translation is used up */
    const mdl *d = ilpm_mdl_inst_rows(g->mi);
    const mdl_sol *s = sol;
    double *x = malloc(((size_t)d->ncols + 1) * sizeof *x);
    char *text = NULL;
    if (!x)
        return ilpm_err_nomem(err, "out of memory");
    for (int j = 0; j < d->ncols; j++)
        x[j] = (double)s->x[j];
    int rc = ilpm_gmpl_postsolve(&g->tran, x, d->ncols, stop, &text, err);
    if (text && *text) {
        ilpm_buf_puts(out, text);
        if (text[strlen(text) - 1] != '\n')
            ilpm_buf_putc(out, '\n');
    } else if (rc == 0) {
        ilpm_mdl_pz_render(g->mi, sol, out);
    }
    free(text);
    free(x);
    return rc;
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
    .free_instance = gmpl_free,
    .describe = gmpl_describe,
    .build = gmpl_build,
    .decode = gmpl_decode,
    .verify = gmpl_verify,
    .render = gmpl_render,
    .render_json = gmpl_render_json,
    .objective_scale = gmpl_objective_scale,
    .free_solution = ilpm_mdl_sol_free,
    .stats_json = gmpl_stats_json,
    .load = gmpl_load,
    .post = gmpl_post,
    .count_note = gmpl_count_note,
};
