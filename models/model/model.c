/* The `model` puzzle: a 0/1 model of the user's own, read from a file in
 * one of the formats of the table (src/run/format.h, formats.h: CPLEX LP
 * and MPS through GLPK's readers, OPB, DIMACS CNF and FlatZinc by ours),
 * solved, compared and batched like any puzzle.  A FILE is one instance.
 * The format comes from the name's extension (FILE.gz where the row
 * reads gzip) or --input-format, never from the content.  The answer is
 * the file's own variables; it is verified against the file read again
 * by the row's check, not against the model built from it (lower.c). */
#include "mdl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const ilpm_mdl_encodings[] = {"binary", "unary", NULL};

static const ilpm_opt model_opts[] = {
    {.name = "input-format",
     .type = ILPM_OPT_CHOICE,
     .choices = ilpm_file_format_names,
     .help = "the file's format; default: the one its extension names"},
    MDL_INT_ENCODING_OPT,
    {.name = NULL},
};

typedef mdl_sol model_sol;

/* Instance: the rows as read, and how to print the answer. */
typedef struct model_inst {
    mdl *d;
    /* The file as the verifier read it again: solutions are checked
     * against it, never against d (see check.c). */
    mdl_again again;
    int dimacs; /* ILPM_PARAM_DIMACS: v lines of the SAT competition */
} model_inst;

void ilpm_mdl_inst_free(void *p)
{
    model_inst *mi = p;
    if (mi) {
        ilpm_mdl_free(mi->d);
        ilpm_mdl_again_free(&mi->again);
    }
    free(mi);
}

/* Reads the rest of rd; into text when text is not NULL; *note is set
 * when a line is note (if not NULL). */
static int drain_note(ilpm_reader *rd, ilpm_buf *text, const char *note_line,
                      int *note, ilpm_err *err)
{
    const char *line;
    size_t len;
    int r, bad = 0;
    ilpm_err e;
    while ((r = ilpm_reader_line(rd, &line, &len, &e)) != 0) {
        if (r < 0 && !bad) {
            bad = 1;
            *err = e;
        }
        if (text && r > 0) {
            ilpm_buf_put(text, line, len);
            ilpm_buf_putc(text, '\n');
        }
        if (note_line && r > 0 && strcmp(line, note_line) == 0)
            *note = 1;
    }
    return bad ? -1 : 0;
}

static int drain(ilpm_reader *rd, ilpm_buf *text, ilpm_err *err)
{
    return drain_note(rd, text, NULL, NULL, err);
}

/* An ilpm export of a maximisation that negates its objective (the
 * reader's max_note), read back as one. */
static void maximise_again(mdl *d)
{
    if (d->sense != ILPM_MINIMIZE)
        return;
    d->sense = ILPM_MAXIMIZE;
    for (int j = 0; j < d->ncols; j++)
        d->obj[j] = -d->obj[j];
    d->obj_const = -d->obj_const;
    d->negated = 1;
}

static mdl *parse_rd(ilpm_reader *rd, const ilpm_file_format *fmt,
                     ilpm_err *err)
{
    mdl *d = ilpm_mdl_new(fmt, ilpm_reader_name(rd));
    if (!d) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    if (fmt->reader->parse(rd, d, err) != 0) {
        ilpm_mdl_free(d);
        return NULL;
    }
    return d;
}

/* A file read by name (the reader's read_path). */
static mdl *read_named(const ilpm_file_format *fmt, const char *path,
                       const char *name, ilpm_err *err)
{
    mdl *d = ilpm_mdl_new(fmt, name);
    if (!d) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    if (!(d->path = strdup(path)))
        ilpm_err_nomem(err, "out of memory");
    else if (fmt->reader->read_path(path, d, err) == 0)
        return d;
    ilpm_mdl_free(d);
    return NULL;
}

mdl *ilpm_mdl_read(const ilpm_file_format *fmt, const char *path,
                   const char *name, const char *text, size_t len,
                   ilpm_err *err)
{
    if (fmt->reader->read_path)
        return read_named(fmt, path, name, err);
    ilpm_reader *rd = path ? ilpm_reader_open_at(path, name, 0, 0, err)
                           : ilpm_reader_mem(name, text, len);
    if (!rd) {
        if (!path)
            ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    mdl *d = parse_rd(rd, fmt, err);
    ilpm_reader_free(rd);
    return d;
}

/* A file for a reader that takes a name (GLPK's): the file itself, or
 * what the reader holds copied to a temporary file. */
static mdl *parse_named(ilpm_reader *rd, const ilpm_file_format *fmt, int gz,
                        ilpm_err *err)
{
    const char *note_line = fmt->reader->max_note;
    const char *name = ilpm_reader_name(rd);
    const char *path = ilpm_reader_path(rd);
    int note = 0;
    mdl *d = NULL;
    /* GLPK knows no byte-order mark: a file that starts with one is read
     * from a copy without it, as standard input is. */
    const char *first;
    size_t len;
    ilpm_err peek;
    int r = ilpm_reader_line(rd, &first, &len, &peek);
    if (r > 0)
        ilpm_reader_unread(rd);
    if (path && !ilpm_reader_bom(rd)) {
        drain_note(rd, NULL, note_line, &note, err);
        d = read_named(fmt, path, name, err);
        if (d && note)
            maximise_again(d);
        return d;
    }
    if (r < 0) {
        *err = peek;
        drain(rd, NULL, &peek);
        return NULL;
    }
    if (gz) {
        drain(rd, NULL, err);
        ilpm_err_input(err,
                       "%s: compressed input is read from a named file "
                       "only",
                       name);
        return NULL;
    }
    ilpm_buf text;
    ilpm_buf_init(&text);
    char *tmp = NULL;
    FILE *f = NULL;
    if (drain_note(rd, &text, note_line, &note, err) != 0)
        goto done;
    if (text.oom) {
        ilpm_err_nomem(err, "out of memory");
        goto done;
    }
    char base[64];
    snprintf(base, sizeof base, "model.%s", fmt->name);
    if (!(tmp = ilpm_temp_file(base, err)))
        goto done;
    if (!(f = fopen(tmp, "w")) ||
        fwrite(ilpm_buf_str(&text), 1, text.len, f) != text.len) {
        ilpm_err_fail(err, ILPM_E_FAIL, "%s: cannot write a copy", tmp);
        goto done;
    }
    if (fclose(f) != 0) {
        f = NULL;
        ilpm_err_fail(err, ILPM_E_FAIL, "%s: cannot write a copy", tmp);
        goto done;
    }
    f = NULL;
    if ((d = read_named(fmt, tmp, name, err))) {
        d->tmp = tmp;
        tmp = NULL;
        if (note)
            maximise_again(d);
    }
done:
    if (f)
        fclose(f);
    if (tmp) {
        remove(tmp);
        free(tmp);
    }
    ilpm_buf_free(&text);
    return d;
}

static mdl *parse_text(ilpm_reader *rd, const ilpm_file_format *fmt,
                       ilpm_err *err)
{
    const char *path = ilpm_reader_path(rd);
    mdl *d;
    if (path) {
        d = parse_rd(rd, fmt, err);
        if (d && !(d->path = strdup(path))) {
            ilpm_mdl_free(d);
            ilpm_err_nomem(err, "out of memory");
            d = NULL;
        }
        drain(rd, NULL, err);
        return d;
    }
    /* Standard input or memory: keep the text to read it again. */
    ilpm_buf text;
    ilpm_buf_init(&text);
    if (drain(rd, &text, err) != 0) {
        ilpm_buf_free(&text);
        return NULL;
    }
    if (text.oom) {
        ilpm_buf_free(&text);
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    size_t len = text.len;
    char *s = ilpm_buf_take(&text);
    d = s ? ilpm_mdl_read(fmt, NULL, ilpm_reader_name(rd), s, len, err) : NULL;
    if (d) {
        d->text = s;
        d->textlen = len;
    } else {
        free(s);
    }
    return d;
}

int ilpm_mdl_file_done(ilpm_reader *rd, ilpm_err *err)
{
    /* One instance per file: the second call finds the file read. */
    long idx = ilpm_reader_index(rd);
    if (idx > 1 || (idx == 0 && ilpm_reader_offset(rd, NULL) > 0)) {
        drain(rd, NULL, err);
        return 1;
    }
    return 0;
}

int ilpm_mdl_inst_new(mdl *d, const ilpm_params *p, void **inst, ilpm_err *err)
{
    int enc;
    if (ilpm_params_choice(p, model_opts, "int-encoding", &enc, err) != 0) {
        ilpm_mdl_free(d);
        return -1;
    }
    /* The format's own encoding unless told otherwise (FlatZinc's
     * integers are the rule, not the exception: binary). */
    if (enc < 0)
        enc = (int)d->fmt->reader->enc - 1;
    if (ilpm_mdl_layout(d, (mdl_enc)(enc + 1), err) != 0) {
        ilpm_mdl_free(d);
        return -1;
    }
    model_inst *mi = calloc(1, sizeof *mi);
    if (!mi) {
        ilpm_mdl_free(d);
        return ilpm_err_nomem(err, "out of memory");
    }
    mi->d = d;
    mi->dimacs = ilpm_params_has(p, ILPM_PARAM_DIMACS);
    *inst = mi;
    return 0;
}

mdl_again *ilpm_mdl_inst_again(void *inst)
{
    return &((model_inst *)inst)->again;
}

const mdl *ilpm_mdl_inst_rows(const void *inst)
{
    return ((const model_inst *)inst)->d;
}

/* name ends in .mod or .dat (GNU MathProg's, read by the gmpl verb). */
static int mathprog_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (strcmp(name + n - 4, ".mod") == 0 ||
                     strcmp(name + n - 4, ".dat") == 0);
}

const char *ilpm_mdl_minizinc_hint(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n <= 4 || (strcmp(name + n - 4, ".mzn") != 0 &&
                   strcmp(name + n - 4, ".dzn") != 0))
        return NULL;
    return "'minizinc --solver ilpm MODEL.mzn [DATA.dzn]' runs it on ilpm "
           "(docs/fzn.md)";
}

/* The format of the file rd reads: only's when not NULL (a name whose
 * extension is another row's is refused), else --input-format's row, or
 * the one its name's extension says; NULL with err (the table's names in
 * it). */
static const ilpm_file_format *choose_format(ilpm_reader *rd,
                                             const ilpm_params *p,
                                             const ilpm_file_format *only,
                                             int *gz, ilpm_err *err)
{
    const char *name = ilpm_reader_name(rd);
    int xz, choice = -1;
    const ilpm_file_format *f = ilpm_format_of_path(name, gz, &xz);
    if (only && f && f != only) {
        ilpm_err_input(err,
                       "%s: this puzzle reads %s files alone, not %s (solve "
                       "model reads every format)",
                       name, only->name, f->name);
        return NULL;
    }
    if (only)
        f = only;
    else if (ilpm_params_choice(p, model_opts, "input-format", &choice, err) !=
             0)
        return NULL;
    if (choice >= 0)
        f = ilpm_file_formats[choice];
    char exts[256], names[256];
    if (xz) {
        ilpm_err_input(err,
                       "%s: xz-compressed input is not read (no library ilpm "
                       "uses reads it): decompress it first",
                       name);
        return NULL;
    }
    if (!f && choice < 0 && mathprog_name(name)) {
        ilpm_err_input(err,
                       "%s: a GNU MathProg file: solve it with 'ilpm solve "
                       "gmpl MODEL.mod [DATA.dat]'",
                       name);
        return NULL;
    }
    if (!f && choice < 0 && ilpm_mdl_minizinc_hint(name)) {
        ilpm_err_input(err, "%s: a MiniZinc model: %s", name,
                       ilpm_mdl_minizinc_hint(name));
        return NULL;
    }
    if (!f || !f->reader) {
        ilpm_format_names(ILPM_FORMATS_READ, 1, ".", ", ", exts, sizeof exts);
        ilpm_format_names(ILPM_FORMATS_READ, 0, "", "|", names, sizeof names);
        ilpm_err_input(err,
                       !f ? "%s: cannot tell the format from the name (%s): "
                            "give --input-format %s"
                          : "%s: files of this format are not read (%s): "
                            "give --input-format %s",
                       name, exts, names);
        return NULL;
    }
    if (*gz && !(f->carries & ILPM_CARRIES_GZIP)) {
        ilpm_format_names(ILPM_FORMATS_GZIP, 0, "", ", ", names, sizeof names);
        ilpm_err_input(err,
                       "%s: gzip is read for %s alone (GLPK decompresses "
                       "those); decompress it first (gunzip -k)",
                       name, names);
        return NULL;
    }
    return f;
}

int ilpm_mdl_pz_parse_as(ilpm_reader *rd, const ilpm_params *p,
                         const ilpm_file_format *only, void **inst,
                         ilpm_err *err)
{
    if (ilpm_mdl_file_done(rd, err))
        return 0;
    int gz;
    const ilpm_file_format *fmt = choose_format(rd, p, only, &gz, err);
    if (!fmt) {
        ilpm_err e;
        drain(rd, NULL, &e);
        return -1;
    }
    if (fmt->reader->parse) {
        /* An empty file holds no instance, as for every puzzle. */
        const char *line;
        size_t len;
        int r = ilpm_reader_line(rd, &line, &len, err);
        if (r <= 0) {
            drain(rd, NULL, err);
            return r;
        }
        ilpm_reader_unread(rd);
    }
    mdl *d = fmt->reader->parse ? parse_text(rd, fmt, err)
                                : parse_named(rd, fmt, gz, err);
    if (!d || ilpm_mdl_inst_new(d, p, inst, err) != 0)
        return -1;
    return 1;
}

int ilpm_mdl_pz_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                      ilpm_err *err)
{
    return ilpm_mdl_pz_parse_as(rd, p, NULL, inst, err);
}

void ilpm_mdl_pz_describe(const void *inst, char *buf, size_t size)
{
    const mdl *d = ((const model_inst *)inst)->d;
    const char *base = strrchr(d->file, '/');
    snprintf(buf, size, "%s (%s, %d variables, %d rows)",
             base ? base + 1 : d->file, d->fmt->name, d->ncols, d->nrows);
}

int ilpm_mdl_pz_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                      ilpm_err *err)
{
    (void)p;
    return ilpm_mdl_build(((const model_inst *)inst)->d, m, NULL, err);
}

/* LP and MPS rows by name, with the kind each became: a ranged row is
 * two entries of one name. */
void ilpm_mdl_pz_stats_json(const void *inst, const ilpm_params *p,
                            ilpm_buf *out)
{
    (void)p;
    const mdl *d = ((const model_inst *)inst)->d;
    if (!d->row_name)
        return;
    const char **kinds = calloc((size_t)d->nrows + 1, sizeof *kinds);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err = {0};
    if (kinds && m && ilpm_mdl_build(d, m, kinds, &err) == 0) {
        ilpm_buf_puts(out, ",\"file_rows\":[");
        for (int i = 0; i < d->nrows; i++) {
            ilpm_buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
            ilpm_buf_json_str(out, d->row_name[d->rows[i].name]);
            ilpm_buf_puts(out, ",\"kind\":");
            ilpm_buf_json_str(out, kinds[i]);
            ilpm_buf_putc(out, '}');
        }
        ilpm_buf_putc(out, ']');
    }
    ilpm_model_free(m);
    free(kinds);
}

void *ilpm_mdl_pz_decode(const void *inst, const ilpm_params *p,
                         const ilpm_model *m, const uint8_t *vals,
                         ilpm_err *err)
{
    (void)p;
    const mdl *d = ((const model_inst *)inst)->d;
    model_sol *s = calloc(1, sizeof *s);
    if (!s || !(s->x = calloc((size_t)d->ncols + 1, sizeof *s->x))) {
        free(s);
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    for (int j = 0; j < d->ncols; j++)
        s->x[j] = ilpm_mdl_col_value(d, j, vals);
    s->has_obj = ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE;
    if (s->has_obj)
        s->obj = ilpm_model_objective_value(m, vals);
    return s;
}

int64_t ilpm_mdl_pz_objective_scale(const void *inst, const ilpm_params *p)
{
    (void)p;
    return ((const model_inst *)inst)->d->obj_scale;
}

int ilpm_mdl_pz_verify(const void *inst, const ilpm_params *p, const void *sol,
                       ilpm_err *why)
{
    (void)p;
    const model_sol *s = sol;
    /* The verifier's copy is a cache, filled once: the instance is
     * otherwise read-only, and one thread solves it. */
    model_inst *mi = (model_inst *)inst;
    return ilpm_mdl_check(mi->d, &mi->again, s->x, s->has_obj, s->obj, why);
}

static int is_binary(const mdl *d, int j)
{
    return d->lo[j] >= 0 && d->hi[j] <= 1;
}

/* A column of the answer: not an export's auxiliary variable. */
static int shown(const mdl *d, int j)
{
    return !d->aux || !d->aux[j];
}

/* Words on lines of at most 78 characters, each line starting with
 * lead. */
static void word(ilpm_buf *out, size_t *col, const char *lead, const char *w)
{
    size_t n = strlen(w);
    if (*col > 0 && *col + 1 + n > 78) {
        ilpm_buf_putc(out, '\n');
        *col = 0;
    }
    if (*col == 0) {
        ilpm_buf_puts(out, lead);
        *col = strlen(lead);
    } else {
        ilpm_buf_putc(out, ' ');
        (*col)++;
    }
    ilpm_buf_puts(out, w);
    *col += n;
}

/* The SAT competition's v lines: DIMACS literals ended by 0 for a CNF,
 * the PB competition's "x1 -x2" for the other formats. */
static void render_v(const mdl *d, const model_sol *s, ilpm_buf *out)
{
    size_t col = 0;
    char b[32], w[300];
    for (int j = 0; j < d->ncols; j++) {
        if (!is_binary(d, j))
            continue;
        if (d->fmt->reader->numbered) /* numbers, even where names are */
            snprintf(w, sizeof w, "%s%d", s->x[j] ? "" : "-", j + 1);
        else
            snprintf(w, sizeof w, "%s%s", s->x[j] ? "" : "-",
                     ilpm_mdl_col_label(d, j, b, sizeof b));
        word(out, &col, "v ", w);
    }
    if (d->fmt->reader->numbered)
        word(out, &col, "v ", "0");
    if (col)
        ilpm_buf_putc(out, '\n');
    for (int j = 0; j < d->ncols; j++)
        if (!is_binary(d, j))
            ilpm_buf_printf(out, "c %s = %lld\n",
                            ilpm_mdl_col_label(d, j, b, sizeof b),
                            (long long)s->x[j]);
}

void ilpm_mdl_pz_render(const void *inst, const void *sol, ilpm_buf *out)
{
    const model_inst *mi = inst;
    const mdl *d = mi->d;
    const model_sol *s = sol;
    if (mi->dimacs) {
        render_v(d, s, out);
        return;
    }
    if (d->fmt->reader->render) {
        d->fmt->reader->render(d, s->x, out);
        return;
    }
    size_t col = 0;
    char b[32];
    for (int j = 0; j < d->ncols; j++)
        if (is_binary(d, j) && s->x[j] && shown(d, j))
            word(out, &col, "true: ", ilpm_mdl_col_label(d, j, b, sizeof b));
    if (col)
        ilpm_buf_putc(out, '\n');
    else
        ilpm_buf_puts(out, "true: (none)\n");
    for (int j = 0; j < d->ncols; j++)
        if (!is_binary(d, j) && shown(d, j))
            ilpm_buf_printf(out, "%s = %lld\n",
                            ilpm_mdl_col_label(d, j, b, sizeof b),
                            (long long)s->x[j]);
}

void ilpm_mdl_pz_render_json(const void *inst, const void *sol, ilpm_buf *out)
{
    const mdl *d = ((const model_inst *)inst)->d;
    const model_sol *s = sol;
    char b[32];
    int first = 1, ints = 0;
    if (d->fmt->reader->render_json) {
        d->fmt->reader->render_json(d, s->x, out);
        return;
    }
    ilpm_buf_puts(out, "{\"true\":[");
    for (int j = 0; j < d->ncols; j++) {
        if (!is_binary(d, j)) {
            ints = 1;
            continue;
        }
        if (!s->x[j] || !shown(d, j))
            continue;
        if (!first)
            ilpm_buf_putc(out, ',');
        first = 0;
        ilpm_buf_json_str(out, ilpm_mdl_col_label(d, j, b, sizeof b));
    }
    ilpm_buf_putc(out, ']');
    if (ints) {
        ilpm_buf_puts(out, ",\"values\":{");
        first = 1;
        for (int j = 0; j < d->ncols; j++) {
            if (is_binary(d, j) || !shown(d, j))
                continue;
            if (!first)
                ilpm_buf_putc(out, ',');
            first = 0;
            ilpm_buf_json_str(out, ilpm_mdl_col_label(d, j, b, sizeof b));
            ilpm_buf_printf(out, ":%lld", (long long)s->x[j]);
        }
        ilpm_buf_putc(out, '}');
    }
    if (s->has_obj)
        ilpm_buf_printf(out, ",\"objective\":%s",
                        ilpm_fmt_scaled(s->obj, d->obj_scale, b, sizeof b));
    ilpm_buf_putc(out, '}');
}

void ilpm_mdl_sol_free(void *p)
{
    model_sol *s = p;
    if (s)
        free(s->x);
    free(s);
}

/* ilpm solve model --help: examples (see puzzle.h). */
static const char *const model_examples[] = {
    "data/models/knapsack.lp   # CPLEX LP",
    "data/models/setcover.mps --backend sat   # free MPS",
    "data/models/vertexcover.opb --backend cp   # OPB",
    "data/models/php_5_4.cnf --format dimacs   # exit 20: DIMACS CNF, unsat",
    NULL};

const ilpm_puzzle ilpm_puzzle_model = {
    .name = "model",
    .summary = "your own 0/1 model: CPLEX LP, MPS, OPB, DIMACS CNF or "
               "FlatZinc",
    .caps = ILPM_CAP_DIMACS,
    .opts = model_opts,
    .input_help =
        "model FILE: one model per file, in CPLEX LP (.lp), free MPS (.mps),\n"
        "linear OPB (.opb), DIMACS CNF (.cnf) or FlatZinc (.fzn), by the\n"
        "name's extension or --input-format; .lp.gz and .mps.gz are read by\n"
        "GLPK.  Columns are\n"
        "0/1 (bounded integers with --int-encoding); rows are recognised as\n"
        "clause, alo, amo, exo, card or linear, one group each.  Solution:\n"
        "the true variables by name; JSON {\"true\": [...], \"objective\": "
        "N};\n"
        "solve --format dimacs prints the SAT competition's s, o and v lines.",
    .examples = model_examples,
    .parse = ilpm_mdl_pz_parse,
    ILPM_MDL_PZ_MEMBERS,
};
