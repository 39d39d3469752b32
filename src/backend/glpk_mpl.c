/* GNU MathProg models translated by GLPK's own translator (glp_mpl_*),
 * into the plain arrays of an ilpm_lp as the LP and MPS readers give
 * them (glpk_read.c), and a solution handed back to the model so that
 * its statements after `solve` run with it.  Everything runs under the
 * abort guard; GLPK's terminal goes to the guard (its "file:line:
 * message" becomes the error), the model's own output to a scratch file
 * (glp_mpl_generate's output file) that is read back as text. */
#include "glpk_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A translated model kept from reading to its output: GLPK's
 * translator runs a model's statements after `solve` once. */
struct ilpm_gmpl {
    glp_tran *tran;
    glp_prob *P;
    unsigned long gen; /* ilpm_glpk_gen() when made: GLPK still holds it */
    char *prt;         /* the model's output so far */
};

struct mpl_ctx {
    const ilpm_gmpl_src *src;
    ilpm_glpk_guard *g;
    const char *prt; /* where the model's printf and display go */
    glp_tran *tran;
    glp_prob *P;
    int keep;        /* read: leave tran and P to the caller */
    ilpm_lp *lp;     /* read: the problem */
    const double *x; /* postsolve: the values */
    int ncols;
};

/* Whether line (of len bytes) starts with "path:" for one of src's
 * files: GLPK's translator names the file and line of each error. */
static int names_a_file(const ilpm_gmpl_src *src, const char *line, size_t len)
{
    for (int k = -1; k < src->ndata; k++) {
        const char *f = k < 0 ? src->model : src->data[k];
        size_t n = strlen(f);
        if (n < len && strncmp(line, f, n) == 0 && line[n] == ':')
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
        if (names_a_file(c->src, s, n)) {
            best = s;
            best_len = n;
        }
        if (n > 0 && strncmp(s, "Context:", 8) != 0) {
            last = s;
            last_len = n;
        }
        s += n + (s[n] == '\n');
    }
    if (best)
        return ilpm_err_input(err, "%.*s",
                              (int)(best_len > 500 ? 500 : best_len), best);
    if (!last)
        return ilpm_err_input(err, "%s: GLPK's translator failed silently",
                              c->src->model);
    if (last_len > sizeof unknown - 1 &&
        strncmp(last, unknown, sizeof unknown - 1) == 0) {
        last += sizeof unknown - 1;
        last_len -= sizeof unknown - 1;
    }
    return ilpm_err_input(err, "%.*s", (int)(last_len > 500 ? 500 : last_len),
                          last);
}

/* Reads, generates and builds the problem into c->P (c->tran kept). */
static int translate(struct mpl_ctx *c, ilpm_err *err)
{
    const ilpm_gmpl_src *src = c->src;
    c->tran = glp_mpl_alloc_wksp();
    /* As glpsol: the model's data section is skipped when data files
     * are given. */
    if (glp_mpl_read_model(c->tran, src->model, src->ndata > 0) == 1)
        return translator_error(c, err);
    for (int k = 0; k < src->ndata; k++)
        if (glp_mpl_read_data(c->tran, src->data[k]) != 0)
            return translator_error(c, err);
    if (glp_mpl_generate(c->tran, c->prt) != 0)
        return translator_error(c, err);
    c->P = glp_create_prob();
    glp_mpl_build_prob(c->tran, c->P);
    return 0;
}

static void release(struct mpl_ctx *c)
{
    if (c->P)
        glp_delete_prob(c->P);
    if (c->tran)
        glp_mpl_free_wksp(c->tran);
    c->P = NULL;
    c->tran = NULL;
}

static int read_body(void *ctx, ilpm_err *err)
{
    struct mpl_ctx *c = ctx;
    int rc = translate(c, err);
    if (rc == 0)
        rc = ilpm_glpk_fill_lp(c->P, c->lp, err);
    if (rc != 0 || !c->keep)
        release(c);
    return rc;
}

/* The values as GLPK's MIP solution: every column fixed at its value,
 * which the MIP presolver solves outright, then the model's statements
 * after solve.  c->tran and c->P: the kept translation, or NULL. */
static int post_body(void *ctx, ilpm_err *err)
{
    struct mpl_ctx *c = ctx;
    int rc = c->tran ? 0 : translate(c, err);
    if (rc == 0 && glp_get_num_cols(c->P) != c->ncols)
        rc = ilpm_err_fail(err, ILPM_ERR_INTERNAL,
                           "%s: the model now has %d columns, not %d",
                           c->src->model, glp_get_num_cols(c->P), c->ncols);
    if (rc == 0) {
        for (int j = 1; j <= c->ncols; j++)
            glp_set_col_bnds(c->P, j, GLP_FX, c->x[j - 1], c->x[j - 1]);
        glp_iocp p;
        glp_init_iocp(&p);
        p.presolve = GLP_ON;
        p.msg_lev = GLP_MSG_OFF;
        int ret = glp_intopt(c->P, &p), st = glp_mip_status(c->P);
        if (ret != 0 || (st != GLP_OPT && st != GLP_FEAS))
            rc = ilpm_err_fail(err, ILPM_ERR_INTERNAL,
                               "%s: GLPK does not take the solution back "
                               "(%s)",
                               c->src->model, ilpm_glpk_code_name(ret));
    }
    if (rc == 0 && glp_mpl_postsolve(c->tran, c->P, GLP_MIP) != 0)
        rc = translator_error(c, err);
    release(c);
    return rc;
}

/* The whole of the file at path, malloc'd. */
static char *slurp(const char *path, ilpm_err *err)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    size_t len = 0, cap = 0;
    if (!f) {
        ilpm_err_fail(err, ILPM_ERR_INTERNAL, "%s: cannot read it back", path);
        return NULL;
    }
    for (;;) {
        if (ilpm_grow((void **)&s, &cap, len + 4096 + 1, 1) != 0) {
            free(s);
            fclose(f);
            ilpm_err_nomem(err, "out of memory");
            return NULL;
        }
        size_t n = fread(s + len, 1, 4096, f);
        len += n;
        if (n < 4096)
            break;
    }
    fclose(f);
    s[len] = '\0';
    return s;
}

int ilpm_gmpl_read_keep(const ilpm_gmpl_src *src, ilpm_lp **out,
                        ilpm_gmpl **keep, ilpm_err *err)
{
    *out = NULL;
    if (keep)
        *keep = NULL;
    ilpm_lp *lp = calloc(1, sizeof *lp);
    ilpm_gmpl *k = keep ? calloc(1, sizeof *k) : NULL;
    char *prt = NULL;
    if (!lp || (keep && !k)) {
        free(lp);
        free(k);
        return ilpm_err_nomem(err, "out of memory");
    }
    if (!(prt = ilpm_temp_file("gmpl-output.txt", err))) {
        free(lp);
        free(k);
        return -1;
    }
    ilpm_glpk_guard g;
    struct mpl_ctx c = {
        .src = src, .g = &g, .prt = prt, .keep = k != NULL, .lp = lp};
    if (ilpm_glpk_run_log(&g, NULL, NULL, read_body, &c,
                          "translating a MathProg model", err) != 0) {
        ilpm_lp_free(lp);
        free(k);
        remove(prt);
        free(prt);
        return -1;
    }
    if (k) {
        k->tran = c.tran;
        k->P = c.P;
        k->gen = ilpm_glpk_gen();
        k->prt = prt; /* the output of the generating part, kept */
        *keep = k;
    } else {
        remove(prt);
        free(prt);
    }
    *out = lp;
    return 0;
}

int ilpm_gmpl_read(const ilpm_gmpl_src *src, ilpm_lp **out, ilpm_err *err)
{
    return ilpm_gmpl_read_keep(src, out, NULL, err);
}

void ilpm_gmpl_free(ilpm_gmpl *k)
{
    if (!k)
        return;
    /* After a GLPK failure on this thread its objects are gone. */
    if (k->gen == ilpm_glpk_gen()) {
        if (k->P)
            glp_delete_prob(k->P);
        if (k->tran)
            glp_mpl_free_wksp(k->tran);
    }
    if (k->prt) {
        remove(k->prt);
        free(k->prt);
    }
    free(k);
}

int ilpm_gmpl_postsolve(const ilpm_gmpl_src *src, ilpm_gmpl **keep,
                        const double *x, int ncols, char **text, ilpm_err *err)
{
    *text = NULL;
    ilpm_gmpl *k = keep ? *keep : NULL;
    if (keep)
        *keep = NULL;
    struct mpl_ctx c = {.src = src, .x = x, .ncols = ncols};
    char *prt = NULL;
    if (k && k->gen == ilpm_glpk_gen() && k->tran) {
        c.tran = k->tran;
        c.P = k->P;
        k->tran = NULL; /* post_body releases them */
        k->P = NULL;
        prt = k->prt;
        k->prt = NULL;
    }
    ilpm_gmpl_free(k);
    if (!prt && !(prt = ilpm_temp_file("gmpl-output.txt", err)))
        return -1;
    ilpm_glpk_guard g;
    c.g = &g;
    c.prt = prt;
    int rc = ilpm_glpk_run_log(&g, NULL, NULL, post_body, &c,
                               "running a MathProg model's output", err);
    if (rc == 0 && !(*text = slurp(prt, err)))
        rc = -1;
    remove(prt);
    free(prt);
    return rc;
}
