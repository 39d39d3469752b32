/* The child process of a MathProg translation (gmpl_int.h): GLPK's own
 * translator (glp_mpl_*) reads the model and its data, generates the
 * problem, and its plain arrays (an ilpm_lp, as the LP and MPS readers
 * give them, glpk_read.c) go back to the parent; then, when asked, the
 * solution is handed to the model so that its statements after `solve`
 * run with it.  Everything runs under the abort guard; GLPK's terminal
 * goes to the guard (its "file:line: message" becomes the error, its
 * warnings are sent on), the model's own output to an unlinked scratch
 * file (glp_mpl_generate's output file) that is read back as text.
 *
 * GLPK reads files by name and knows neither standard input nor a
 * byte-order mark: a file named "-" (the caller's copy of standard
 * input) or one that starts with a BOM is given to it as an unlinked
 * copy without the mark, /dev/fd/N, and its messages name the file as
 * the user did. */
#include "glpk_int.h"
#include "gmpl_int.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One file of the model: the name GLPK reads, the one messages say. */
struct mpl_file {
    char path[32 + 4096];
    const char *name;
};

struct mpl_ctx {
    struct mpl_file *files; /* the model, then the data files */
    int nfiles;
    ilpm_glpk_guard *g;
    ilpm_buf log; /* all GLPK said, for the warnings */
    char prt[32]; /* where the model's printf and display go */
    int prt_fd;
    glp_tran *tran;
    glp_prob *P;
    ilpm_lp *lp;     /* translate: the problem */
    const double *x; /* postsolve: the values */
    int ncols;
};

/* An unlinked scratch file, open for reading and writing; -1 if none. */
static int scratch_fd(void)
{
    ilpm_err e;
    char *tmp = ilpm_temp_file("ilpm-gmpl", &e);
    if (!tmp)
        return -1;
    int fd = open(tmp, O_RDWR);
    ilpm_temp_remove(tmp);
    return fd;
}

static int write_fd(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* f read through a copy without the BOM when it starts with one (or is
 * standard input, text); else by its own name. */
static void place_file(struct mpl_file *f, const char *name, const char *text,
                       size_t len)
{
    f->name = name;
    snprintf(f->path, sizeof f->path, "%s", name);
    static const char bom[3] = {'\xEF', '\xBB', '\xBF'};
    char head[3];
    int in = -1;
    if (!text) {
        if ((in = open(name, O_RDONLY)) < 0)
            return; /* GLPK says why */
        ssize_t n = read(in, head, 3);
        if (n != 3 || memcmp(head, bom, 3) != 0) {
            close(in);
            return;
        }
    } else if (len >= 3 && memcmp(text, bom, 3) == 0) {
        text += 3;
        len -= 3;
    }
    int fd = scratch_fd();
    int ok = fd >= 0;
    if (ok && text)
        ok = write_fd(fd, text, len) == 0;
    char buf[65536];
    for (ssize_t n; ok && in >= 0 && (n = read(in, buf, sizeof buf)) > 0;)
        ok = write_fd(fd, buf, (size_t)n) == 0;
    if (in >= 0)
        close(in);
    if (ok)
        snprintf(f->path, sizeof f->path, "/dev/fd/%d", fd);
    else if (fd >= 0)
        close(fd);
}

/* line (len bytes) with the name the user gave for a file GLPK names by
 * its copy, into out. */
static void own_names(const struct mpl_ctx *c, const char *line, size_t len,
                      ilpm_buf *out)
{
    for (int k = 0; k < c->nfiles; k++) {
        size_t n = strlen(c->files[k].path);
        if (n < len && strncmp(line, c->files[k].path, n) == 0 &&
            line[n] == ':') {
            ilpm_buf_puts(out, c->files[k].name);
            line += n;
            len -= n;
            break;
        }
    }
    ilpm_buf_put(out, line, len);
}

/* Whether line (of len bytes) starts with "path:" for one of the files:
 * GLPK's translator names the file and line of each error. */
static int names_a_file(const struct mpl_ctx *c, const char *line, size_t len)
{
    for (int k = 0; k < c->nfiles; k++) {
        size_t n = strlen(c->files[k].path);
        if (n < len && strncmp(line, c->files[k].path, n) == 0 &&
            line[n] == ':')
            return 1;
    }
    return 0;
}

/* The translator's error: the last line of its output that names a file
 * (the "Context: ..." line follows it), else its last line but the
 * context, which for a file it cannot open says "(unknown):0: unable to
 * open F - reason". */
static int translator_error(const struct mpl_ctx *c, ilpm_err *err)
{
    static const char unknown[] = "(unknown):0: ";
    const char *log = c->g->log;
    const char *best = NULL, *last = NULL;
    size_t best_len = 0, last_len = 0;
    for (const char *s = log; *s;) {
        size_t n = strcspn(s, "\n");
        if (names_a_file(c, s, n)) {
            best = s;
            best_len = n;
        }
        if (n > 0 && strncmp(s, "Context:", 8) != 0) {
            last = s;
            last_len = n;
        }
        s += n + (s[n] == '\n');
    }
    if (!best && !last)
        return ilpm_err_input(err, "%s: GLPK's translator failed silently",
                              c->files[0].name);
    if (!best && last_len > sizeof unknown - 1 &&
        strncmp(last, unknown, sizeof unknown - 1) == 0) {
        last += sizeof unknown - 1;
        last_len -= sizeof unknown - 1;
    }
    ilpm_buf m;
    ilpm_buf_init(&m);
    own_names(c, best ? best : last, best ? best_len : last_len, &m);
    ilpm_err_input(err, "%.500s", ilpm_buf_str(&m));
    ilpm_buf_free(&m);
    return -1;
}

static void keep_log(void *ctx, const char *s)
{
    ilpm_buf_puts(&((struct mpl_ctx *)ctx)->log, s);
}

/* Reads, generates and builds the problem into c->P. */
static int translate(void *ctx, ilpm_err *err)
{
    struct mpl_ctx *c = ctx;
    c->tran = glp_mpl_alloc_wksp();
    /* As glpsol: the model's data section is skipped when data files
     * are given. */
    if (glp_mpl_read_model(c->tran, c->files[0].path, c->nfiles > 1) == 1)
        return translator_error(c, err);
    for (int k = 1; k < c->nfiles; k++)
        if (glp_mpl_read_data(c->tran, c->files[k].path) != 0)
            return translator_error(c, err);
    if (glp_mpl_generate(c->tran, c->prt) != 0)
        return translator_error(c, err);
    c->P = glp_create_prob();
    glp_mpl_build_prob(c->tran, c->P);
    return ilpm_glpk_fill_lp(c->P, c->lp, err);
}

/* The values as GLPK's MIP solution: every column fixed at its value,
 * which the MIP presolver solves outright, then the model's statements
 * after solve. */
static int postsolve(void *ctx, ilpm_err *err)
{
    struct mpl_ctx *c = ctx;
    if (glp_get_num_cols(c->P) != c->ncols)
        return ilpm_err_fail(
            err, ILPM_E_FAIL, "%s: the model has %d columns, not %d",
            c->files[0].name, glp_get_num_cols(c->P), c->ncols);
    for (int j = 1; j <= c->ncols; j++)
        glp_set_col_bnds(c->P, j, GLP_FX, c->x[j - 1], c->x[j - 1]);
    glp_iocp p;
    glp_init_iocp(&p);
    p.presolve = GLP_ON;
    p.msg_lev = GLP_MSG_OFF;
    int ret = glp_intopt(c->P, &p), st = glp_mip_status(c->P);
    if (ret != 0 || (st != GLP_OPT && st != GLP_FEAS))
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "%s: GLPK does not take the solution back (%s)",
                             c->files[0].name, ilpm_glpk_code_name(ret));
    if (glp_mpl_postsolve(c->tran, c->P, GLP_MIP) != 0)
        return translator_error(c, err);
    return 0;
}

/* Sends the lines of GLPK's output that are warnings. */
static void send_warnings(struct mpl_ctx *c, int out)
{
    ilpm_buf w;
    ilpm_buf_init(&w);
    for (const char *s = ilpm_buf_str(&c->log); *s;) {
        size_t n = strcspn(s, "\n");
        const char *at = strstr(s, ": warning: ");
        if (at && at < s + n) {
            own_names(c, s, n, &w);
            ilpm_buf_putc(&w, '\n');
        }
        s += n + (s[n] == '\n');
    }
    if (w.len > 0 && !w.oom)
        ilpm_gmpl_send(out, GMPL_MSG_WARN, 0, w.s, w.len, NULL, 0);
    ilpm_buf_free(&w);
    ilpm_buf_clear(&c->log);
}

static void send_error(int out, const ilpm_err *e)
{
    ilpm_gmpl_send(out, GMPL_MSG_ERR, (uint32_t)e->rc + 1, e->msg,
                   strlen(e->msg), NULL, 0);
}

/* What the model wrote: the scratch file, whole. */
static void read_output(int fd, ilpm_buf *text)
{
    char buf[65536];
    off_t at = 0;
    for (ssize_t n; (n = pread(fd, buf, sizeof buf, at)) > 0; at += n)
        ilpm_buf_put(text, buf, (size_t)n);
}

/* Waits for the values and runs the statements after solve; sends what
 * the model wrote and whether its statements ran. */
static void run_postsolve(struct mpl_ctx *c, int in, int out)
{
    gmpl_msg h;
    if (ilpm_fd_read_all(in, &h, sizeof h) != 0 || h.type != GMPL_MSG_X ||
        h.len != (uint64_t)c->lp->ncols * sizeof(double))
        return; /* the parent needs no output */
    double *x = malloc(h.len + sizeof(double));
    if (!x || ilpm_fd_read_all(in, x, h.len) != 0) {
        free(x);
        return;
    }
    c->x = x;
    c->ncols = c->lp->ncols;
    ilpm_glpk_guard g;
    ilpm_err e = {0};
    c->g = &g;
    unsigned long gen = ilpm_glpk_gen();
    int rc = ilpm_glpk_run_log(&g, keep_log, c, postsolve, c,
                               "running a MathProg model's output", &e);
    send_warnings(c, out);
    if (ilpm_glpk_gen() == gen) {
        glp_mpl_free_wksp(c->tran); /* closes the output file */
        glp_delete_prob(c->P);
    } /* else GLPK failed: its environment, and they, are gone */
    c->tran = NULL;
    c->P = NULL;
    ilpm_buf text;
    ilpm_buf_init(&text);
    read_output(c->prt_fd, &text);
    uint32_t mlen = rc == 0 ? 0 : (uint32_t)strlen(e.msg);
    ilpm_buf head;
    ilpm_buf_init(&head);
    ilpm_buf_put(&head, (const char *)&mlen, sizeof mlen);
    ilpm_buf_put(&head, e.msg, mlen);
    if (!head.oom && !text.oom)
        ilpm_gmpl_send(out, GMPL_MSG_OUT, rc == 0 ? 0 : (uint32_t)e.rc + 1,
                       head.s, head.len, text.s, text.len);
    ilpm_buf_free(&head);
    ilpm_buf_free(&text);
    free(x);
}

/* The child's end: the files the model's statements wrote flushed and
 * closed (glp_mpl_free_wksp), what it holds freed (GLPK's objects only
 * when its environment is still there: glpk_alive). */
_Noreturn static void finish(struct mpl_ctx *c, int glpk_alive)
{
    if (glpk_alive) {
        if (c->P)
            glp_delete_prob(c->P);
        if (c->tran)
            glp_mpl_free_wksp(c->tran);
        glp_free_env();
    }
    ilpm_lp_free(c->lp);
    free(c->files);
    ilpm_buf_free(&c->log);
    _exit(0);
}

void ilpm_gmpl_child(const ilpm_gmpl_src *src, int keep, int in, int out)
{
    struct mpl_ctx c;
    memset(&c, 0, sizeof c);
    ilpm_buf_init(&c.log);
    ilpm_err e = {0};
    c.nfiles = 1 + src->ndata;
    c.files = calloc((size_t)c.nfiles, sizeof *c.files);
    c.lp = calloc(1, sizeof *c.lp);
    c.prt_fd = scratch_fd();
    if (!c.files || !c.lp || c.prt_fd < 0) {
        ilpm_err_fail(&e, c.prt_fd < 0 ? ILPM_E_FAIL : ILPM_E_NOMEM,
                      c.prt_fd < 0 ? "cannot create a scratch file for the "
                                     "model's output"
                                   : "out of memory");
        send_error(out, &e);
        finish(&c, 0);
    }
    snprintf(c.prt, sizeof c.prt, "/dev/fd/%d", c.prt_fd);
    for (int k = 0; k < c.nfiles; k++) {
        const char *name = k == 0 ? src->model : src->data[k - 1];
        int std_in = strcmp(name, "-") == 0 && src->stdin_text;
        place_file(&c.files[k], std_in ? ILPM_STDIN_NAME : name,
                   std_in ? src->stdin_text : NULL,
                   std_in ? src->stdin_len : 0);
    }
    ilpm_glpk_guard g;
    c.g = &g;
    unsigned long gen = ilpm_glpk_gen();
    int rc = ilpm_glpk_run_log(&g, keep_log, &c, translate, &c,
                               "translating a MathProg model", &e);
    send_warnings(&c, out);
    if (rc != 0) {
        send_error(out, &e);
        /* GLPK's environment is gone after a failure under the guard
         * (what the model's files held with it, as under glpsol); a
         * failure of ilpm's own left it. */
        finish(&c, ilpm_glpk_gen() == gen);
    }
    ilpm_buf lp;
    ilpm_buf_init(&lp);
    ilpm_gmpl_lp_pack(c.lp, &lp);
    if (lp.oom) {
        ilpm_err_nomem(&e, "out of memory");
        send_error(out, &e);
    } else if (ilpm_gmpl_send(out, GMPL_MSG_LP, 0, lp.s, lp.len, NULL, 0) ==
                   0 &&
               keep) {
        ilpm_buf_free(&lp);
        run_postsolve(&c, in, out);
    }
    ilpm_buf_free(&lp);
    finish(&c, 1);
}
