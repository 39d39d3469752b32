/* Running GLPK under an error hook: GLPK aborts the process on misuse or
 * internal trouble, so every call into it goes through ilpm_glpk_run,
 * which turns the abort into an error (ILPM_ERROR for a solve) and keeps
 * GLPK's last words for the message. */
#include "glpk_int.h"

#include <stdio.h>
#include <string.h>

/* After a GLPK error we must call glp_free_env, which frees every GLPK
 * object of the thread, including problems held by other drivers. */
static _Thread_local unsigned long env_gen;

unsigned long ilpm_glpk_gen(void)
{
    return env_gen;
}

static int term_hook(void *info, const char *s)
{
    ilpm_glpk_guard *g = info;
    if (g->text_fn)
        g->text_fn(g->text_ctx, s);
    if (g->log_fn)
        g->log_fn(g->log_ctx, s);
    size_t n = strlen(s), cap = sizeof g->log - 1;
    if (n >= cap) {
        s += n - cap / 2;
        n = cap / 2;
    }
    if (g->len + n > cap) {
        /* Keep the newest text: error messages come last. */
        size_t drop = g->len + n - cap;
        memmove(g->log, g->log + drop, g->len - drop);
        g->len -= drop;
    }
    memcpy(g->log + g->len, s, n);
    g->len += n;
    g->log[g->len] = '\0';
    return 1; /* GLPK prints nothing itself */
}

static void error_hook(void *info)
{
    ilpm_glpk_guard *g = info;
    longjmp(g->jb, 1);
}

/* log_fn(log_ctx, text) receives GLPK's messages (NULL: none). */
static void guard_enter(ilpm_glpk_guard *g,
                        void (*log_fn)(void *, const char *), void *log_ctx)
{
    g->log_fn = log_fn;
    g->log_ctx = log_ctx;
    g->text_fn = NULL;
    g->text_ctx = NULL;
    g->len = 0;
    g->log[0] = '\0';
    glp_term_hook(term_hook, g);
    glp_error_hook(error_hook, g);
    /* Output must be on for the hook to see GLPK's messages; the hook
     * keeps their tail for error messages and passes them to the log. */
    g->old_out = glp_term_out(GLP_ON);
}

static void guard_leave(ilpm_glpk_guard *g)
{
    glp_term_out(g->old_out);
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
}

void ilpm_glpk_log_tail(const ilpm_glpk_guard *g, int nlines, char *out,
                        size_t size)
{
    const char *s = g->log;
    size_t n = g->len;
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    size_t start = n;
    for (int k = 0; start > 0; start--)
        if (s[start - 1] == '\n' && ++k == nlines)
            break;
    size_t len = 0;
    if (start == n)
        len = (size_t)snprintf(out, size, "(no message from GLPK)");
    for (size_t i = start; i < n && len + 3 < size; i++) {
        if (s[i] == '\n') {
            out[len++] = ';';
            out[len++] = ' ';
        } else {
            out[len++] = s[i];
        }
    }
    if (len < size)
        out[len] = '\0';
}

int ilpm_glpk_run(ilpm_glpk_guard *g, const ilpm_options *o, ilpm_glpk_fn fn,
                  void *ctx, const char *what, ilpm_err *err)
{
    return ilpm_glpk_run_log(g, o && ilpm_reports(o) ? o->log : NULL,
                             o ? o->log_ctx : NULL, fn, ctx, what, err);
}

int ilpm_glpk_run_log(ilpm_glpk_guard *g, void (*log_fn)(void *, const char *),
                      void *log_ctx, ilpm_glpk_fn fn, void *ctx,
                      const char *what, ilpm_err *err)
{
    guard_enter(g, log_fn, log_ctx);
    if (setjmp(g->jb) != 0) {
        char msg[sizeof g->log + 64];
        ilpm_glpk_log_tail(g, 2, msg, sizeof msg);
        /* GLPK's documentation requires freeing the environment after
         * jumping out of its error hook; that also removes the hooks. */
        glp_free_env();
        env_gen++;
        /* glp_alloc's words when malloc fails, or past glp_mem_limit. */
        int nomem = strstr(msg, "no memory available") ||
                    strstr(msg, "memory limit exceeded");
        return ilpm_err_fail(err, nomem ? ILPM_E_NOMEM : ILPM_E_FAIL,
                             "GLPK failed while %s: %s%s", what,
                             nomem ? "out of memory: " : "", msg);
    }
    int rc = fn(ctx, err);
    guard_leave(g);
    return rc;
}
