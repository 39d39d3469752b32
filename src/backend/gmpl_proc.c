/* The caller's half of a MathProg translation (gmpl_int.h): forks the
 * child that runs GLPK's translator (glpk_mpl.c), waits for its problem
 * under the caller's deadline and stop flag, and kills it when either
 * comes first, so that a time limit, Ctrl-C and the memory limit (the
 * child inherits the address-space limit) cover the translation.  The
 * child then stays for one ilpm_gmpl_postsolve. */
#include "gmpl_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct ilpm_gmpl {
    pid_t pid;
    int fd; /* a socket to the child, both ways */
    int ncols;
};

int ilpm_gmpl_send(int fd, uint32_t type, uint32_t kind, const void *a,
                   size_t na, const void *b, size_t nb)
{
    gmpl_msg h;
    memset(&h, 0, sizeof h);
    h.type = type;
    h.kind = kind;
    h.len = (uint64_t)(na + nb);
    return ilpm_fd_write_all(fd, &h, sizeof h, 1) ||
                   ilpm_fd_write_all(fd, a, na, 1) ||
                   ilpm_fd_write_all(fd, b, nb, 1)
               ? -1
               : 0;
}

/* ------------------------------------------------------------------ */
/* The problem as bytes                                                 */

static void put_names(ilpm_buf *b, char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        ilpm_buf_put(b, names[k], strlen(names[k]) + 1);
}

void ilpm_gmpl_lp_pack(const ilpm_lp *lp, ilpm_buf *b)
{
    size_t nc = (size_t)lp->ncols, nr = (size_t)lp->nrows;
    size_t nnz = lp->row_start ? lp->row_start[nr] : 0;
    int64_t head[4] = {lp->ncols, lp->nrows, (int64_t)nnz, lp->sense};
    ilpm_buf_put(b, (const char *)head, sizeof head);
    ilpm_buf_put(b, (const char *)&lp->obj_const, sizeof lp->obj_const);
    ilpm_buf_put(b, (const char *)lp->col_int, nc);
    ilpm_buf_put(b, (const char *)lp->col_has_lo, nc);
    ilpm_buf_put(b, (const char *)lp->col_has_hi, nc);
    ilpm_buf_put(b, (const char *)lp->col_lo, nc * sizeof(double));
    ilpm_buf_put(b, (const char *)lp->col_hi, nc * sizeof(double));
    ilpm_buf_put(b, (const char *)lp->obj, nc * sizeof(double));
    ilpm_buf_put(b, (const char *)lp->row_has_lo, nr);
    ilpm_buf_put(b, (const char *)lp->row_has_hi, nr);
    ilpm_buf_put(b, (const char *)lp->row_lo, nr * sizeof(double));
    ilpm_buf_put(b, (const char *)lp->row_hi, nr * sizeof(double));
    ilpm_buf_put(b, (const char *)lp->row_start, (nr + 1) * sizeof(size_t));
    ilpm_buf_put(b, (const char *)lp->ind, nnz * sizeof(int));
    ilpm_buf_put(b, (const char *)lp->val, nnz * sizeof(double));
    put_names(b, lp->col_name, lp->ncols);
    put_names(b, lp->row_name, lp->nrows);
}

struct cursor {
    const char *p, *end;
    int bad;
};

/* The next n bytes copied into a new array (of at least one byte). */
static void *take(struct cursor *c, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = 1;
        return NULL;
    }
    void *v = malloc(n ? n : 1);
    if (!v) {
        c->bad = 1;
        return NULL;
    }
    memcpy(v, c->p, n);
    c->p += n;
    return v;
}

static char **take_names(struct cursor *c, int n)
{
    char **v = calloc((size_t)n + 1, sizeof *v);
    for (int k = 0; v && k < n && !c->bad; k++) {
        const char *z = memchr(c->p, '\0', (size_t)(c->end - c->p));
        if (!z || !(v[k] = strdup(c->p)))
            c->bad = 1;
        else
            c->p = z + 1;
    }
    if (!v)
        c->bad = 1;
    return v;
}

ilpm_lp *ilpm_gmpl_lp_unpack(const char *p, size_t n, ilpm_err *err)
{
    struct cursor c = {p, p + n, 0};
    int64_t head[4];
    ilpm_lp *lp = calloc(1, sizeof *lp);
    if (!lp || n < sizeof head + sizeof(double)) {
        free(lp);
        ilpm_err_fail(err, lp ? ILPM_E_FAIL : ILPM_E_NOMEM,
                      "the MathProg translator sent no problem");
        return NULL;
    }
    memcpy(head, c.p, sizeof head);
    c.p += sizeof head;
    memcpy(&lp->obj_const, c.p, sizeof lp->obj_const);
    c.p += sizeof lp->obj_const;
    size_t nc = (size_t)head[0], nr = (size_t)head[1], nnz = (size_t)head[2];
    lp->sense = (ilpm_sense)head[3];
    lp->col_int = take(&c, nc);
    lp->col_has_lo = take(&c, nc);
    lp->col_has_hi = take(&c, nc);
    lp->col_lo = take(&c, nc * sizeof(double));
    lp->col_hi = take(&c, nc * sizeof(double));
    lp->obj = take(&c, nc * sizeof(double));
    lp->row_has_lo = take(&c, nr);
    lp->row_has_hi = take(&c, nr);
    lp->row_lo = take(&c, nr * sizeof(double));
    lp->row_hi = take(&c, nr * sizeof(double));
    lp->row_start = take(&c, (nr + 1) * sizeof(size_t));
    lp->ind = take(&c, nnz * sizeof(int));
    lp->val = take(&c, nnz * sizeof(double));
    lp->col_name = c.bad ? NULL : take_names(&c, (int)nc);
    lp->ncols = lp->col_name ? (int)nc : 0;
    lp->row_name = c.bad ? NULL : take_names(&c, (int)nr);
    lp->nrows = lp->row_name ? (int)nr : 0;
    if (c.bad) {
        ilpm_lp_free(lp);
        ilpm_err_fail(err, ILPM_E_FAIL,
                      "the MathProg translator sent a malformed problem");
        return NULL;
    }
    return lp;
}

/* ------------------------------------------------------------------ */
/* The child, from the caller's side                                    */

/* Ends the child: killed (kill), or told to end by closing its socket,
 * so that it closes the files the model's statements wrote. */
static void end_child(struct ilpm_gmpl *h, int kill_it)
{
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
    if (h->pid > 0) {
        if (kill_it)
            kill(h->pid, SIGKILL);
        while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    h->pid = -1;
}

void ilpm_gmpl_free(ilpm_gmpl *h)
{
    if (!h)
        return;
    end_child(h, 0); /* a kept child waits for its values: it ends */
    free(h);
}

static void kill_child(struct ilpm_gmpl *h)
{
    end_child(h, 1);
    free(h);
}

/* Why the child said nothing more: how it ended. */
static int child_gone(struct ilpm_gmpl *h, ilpm_err *err)
{
    int status = 0;
    pid_t pid = h->pid;
    h->pid = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        /* Ctrl-C or a termination from outside: a stop, not a failure. */
        int stop = sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
        return ilpm_err_fail(err, stop ? ILPM_E_INTERRUPTED : ILPM_E_FAIL,
                             "the MathProg translator's process died (%s)",
                             strsignal(sig));
    }
    return ilpm_err_fail(err, ILPM_E_FAIL,
                         "the MathProg translator's process ended without "
                         "an answer (exit %d)",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Reads the next message, its payload into *payload (malloc'd): until
 * the deadline (ilpm_now() seconds, 0: none) or a stop. */
static int receive(struct ilpm_gmpl *h, double deadline, volatile int *stop,
                   gmpl_msg *m, char **payload, ilpm_err *err)
{
    ilpm_watch w;
    ilpm_watch_until(&w, deadline, NULL);
    char *buf = (char *)m, *data = NULL;
    size_t need = sizeof *m, got = 0;
    int head = 1;
    *payload = NULL;
    for (;;) {
        if (stop && *stop) {
            free(data);
            return ilpm_err_fail(err, ILPM_E_INTERRUPTED,
                                 "stopped while translating the model");
        }
        double left = ilpm_watch_left(&w);
        if (left <= 0) {
            free(data);
            return ilpm_err_fail(
                err, ILPM_E_TIMEOUT,
                "the time limit came while translating the model");
        }
        if (got == need && head) {
            head = 0;
            if (m->len > ((uint64_t)1 << 40) ||
                !(data = malloc((size_t)m->len + 1))) {
                end_child(h, 1);
                return ilpm_err_nomem(err, "out of memory");
            }
            buf = data;
            need = (size_t)m->len;
            got = 0;
        }
        if (got == need) {
            data[need] = '\0';
            *payload = data;
            return 0;
        }
        int wait = 100;
        if (left * 1000 < wait)
            wait = (int)(left * 1000) + 1;
        struct pollfd p = {h->fd, POLLIN, 0};
        int r = poll(&p, 1, wait);
        if (r <= 0)
            continue; /* the clock, the stop flag, a signal */
        ssize_t n = read(h->fd, buf + got, need - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(data);
            return child_gone(h, err);
        }
        got += (size_t)n;
    }
}

/* Each line of a warnings message to the caller's hook. */
static void warn_lines(const ilpm_gmpl_opts *o, char *text)
{
    for (char *s = text; *s && o && o->warn;) {
        char *e = strchr(s, '\n');
        if (e)
            *e = '\0';
        o->warn(o->warn_ctx, s);
        s = e ? e + 1 : s + strlen(s);
    }
}

/* The child's first words: warnings, then an error or the problem. */
static int await_problem(struct ilpm_gmpl *h, const ilpm_gmpl_opts *o,
                         double deadline, ilpm_lp **out, ilpm_err *err)
{
    for (;;) {
        gmpl_msg m;
        char *p;
        if (receive(h, deadline, o ? o->stop : NULL, &m, &p, err) != 0)
            return -1;
        int rc = 1;
        if (m.type == GMPL_MSG_WARN)
            warn_lines(o, p);
        else if (m.type == GMPL_MSG_ERR)
            rc = ilpm_err_fail(err, (ilpm_rc)(m.kind - 1), "%.500s", p);
        else if (m.type == GMPL_MSG_LP)
            rc = (*out = ilpm_gmpl_lp_unpack(p, (size_t)m.len, err)) ? 0 : -1;
        else
            rc = ilpm_err_fail(err, ILPM_E_FAIL,
                               "the MathProg translator said something "
                               "unexpected");
        free(p);
        if (rc <= 0)
            return rc;
    }
}

static void child_side(const ilpm_gmpl_src *src, int keep, int sock,
                       pid_t parent)
{
    /* Ctrl-C and a termination end it at once, unless its parent ignores
     * them (a batch's worker, whose parent decides: the worker's stop
     * flag then ends it); so does its parent's end (a batch worker
     * killed on its deadline). */
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != SIG_IGN)
        signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGALRM, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    /* The caller's other pipes (a batch's) must see their end when the
     * caller ends. */
    long max = sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < (max > 0 && max < 4096 ? max : 4096); fd++)
        if (fd != sock)
            close(fd);
    ilpm_gmpl_child(src, keep, sock, sock);
}

int ilpm_gmpl_translate(const ilpm_gmpl_src *src, const ilpm_gmpl_opts *o,
                        ilpm_lp **out, ilpm_gmpl **keep, ilpm_err *err)
{
    *out = NULL;
    if (keep)
        *keep = NULL;
    double deadline = o ? o->deadline : 0;
    struct ilpm_gmpl *h = calloc(1, sizeof *h);
    int sv[2];
    if (!h)
        return ilpm_err_nomem(err, "out of memory");
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        int e = errno;
        free(h);
        return ilpm_err_fail(err, ILPM_E_FAIL, "socketpair: %s", strerror(e));
    }
    pid_t parent = getpid();
    fflush(NULL);
    h->pid = fork();
    if (h->pid == 0) {
        close(sv[0]);
        child_side(src, keep != NULL, sv[1], parent);
    }
    close(sv[1]);
    h->fd = sv[0];
    if (h->pid < 0) {
        int e = errno;
        kill_child(h);
        return ilpm_err_fail(err, ILPM_E_FAIL, "fork: %s", strerror(e));
    }
    if (await_problem(h, o, deadline, out, err) != 0) {
        kill_child(h); /* cut short, or done with an error */
        return -1;
    }
    h->ncols = (*out)->ncols;
    if (keep)
        *keep = h;
    else
        ilpm_gmpl_free(h);
    return 0;
}

int ilpm_gmpl_read(const ilpm_gmpl_src *src, ilpm_lp **out, ilpm_err *err)
{
    return ilpm_gmpl_translate(src, NULL, out, NULL, err);
}

int ilpm_gmpl_postsolve(ilpm_gmpl **keep, const double *x, int ncols,
                        volatile int *stop, char **text, ilpm_err *err)
{
    *text = NULL;
    struct ilpm_gmpl *h = *keep;
    *keep = NULL;
    if (!h || h->pid <= 0) {
        free(h);
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "the MathProg translation is gone");
    }
    if (ncols != h->ncols) {
        int had = h->ncols;
        kill_child(h);
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "the model has %d columns, not %d", had, ncols);
    }
    int rc = -1;
    gmpl_msg m;
    char *p = NULL;
    if (ilpm_gmpl_send(h->fd, GMPL_MSG_X, 0, x, (size_t)ncols * sizeof(double),
                       NULL, 0) != 0)
        rc = child_gone(h, err);
    else {
        ilpm_gmpl_opts none = {0};
        none.stop = stop;
        while ((rc = receive(h, 0, stop, &m, &p, err)) == 0 &&
               m.type == GMPL_MSG_WARN) {
            warn_lines(&none, p);
            free(p);
            p = NULL;
        }
    }
    if (rc == 0 && (m.type != GMPL_MSG_OUT || m.len < sizeof(uint32_t)))
        rc = ilpm_err_fail(err, ILPM_E_FAIL,
                           "the MathProg translator said something "
                           "unexpected");
    if (rc == 0) {
        uint32_t mlen;
        memcpy(&mlen, p, sizeof mlen);
        if (mlen > m.len - sizeof mlen)
            mlen = (uint32_t)(m.len - sizeof mlen);
        const char *body = p + sizeof mlen + mlen;
        *text = strdup(body);
        if (m.kind != 0)
            rc = ilpm_err_fail(err, (ilpm_rc)(m.kind - 1), "%.*s",
                               (int)(mlen > 500 ? 500 : mlen), p + sizeof mlen);
        else if (!*text)
            rc = ilpm_err_nomem(err, "out of memory");
    }
    free(p);
    if (rc != 0 && ilpm_rc_outcome(err->rc) != ILPM_ERROR)
        kill_child(h); /* stopped while the statements ran */
    else
        ilpm_gmpl_free(h);
    return rc;
}
