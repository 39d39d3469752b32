/* Output files: one place that decides how a path is written (standard
 * output, a device written in place, or a regular file replaced whole by
 * a rename) and that checks every write and the close (see util.h). */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum out_kind {
    OUT_STREAM, /* stdout or stderr: the process's, never closed here  */
    OUT_DIRECT, /* a device, a FIFO, a descriptor, an in-place file    */
    OUT_TEMP    /* a regular file: tmp, renamed over target at commit  */
};

struct ilpm_out {
    enum out_kind kind;
    FILE *f;
    char *path;    /* as given ("standard output" for "-")          */
    char *target;  /* OUT_TEMP: the file replaced, links followed    */
    char *tmp;     /* OUT_TEMP: the temporary; NULL once renamed     */
    char *scratch; /* ilpm_out_name of an output without a temporary */
    int errnum;    /* the first write failure's errno, 0 while none  */
};

/* The temporaries of the outputs open now, for ilpm_out_unlink_temps
 * (a process that a signal ends at once leaves none behind). */
#define LIVE_MAX 16
static char *volatile live[LIVE_MAX];

static void live_add(char *path)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live[i]) {
            live[i] = path;
            return;
        }
}

static void live_drop(const char *path)
{
    for (int i = 0; path && i < LIVE_MAX; i++)
        if (live[i] == path)
            live[i] = NULL;
}

void ilpm_out_unlink_temps(void)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        char *p = live[i];
        if (p)
            unlink(p);
    }
}

/* Frees o, removing what is temporary. */
static void out_free(ilpm_out *o)
{
    live_drop(o->tmp);
    if (o->f && o->kind != OUT_STREAM)
        fclose(o->f);
    if (o->tmp)
        remove(o->tmp);
    ilpm_temp_remove(o->scratch); /* an ilpm_temp_file */
    free(o->path);
    free(o->target);
    free(o->tmp);
    free(o);
}

static ilpm_out *out_fail(ilpm_out *o, ilpm_err *err, const char *what, int e)
{
    ilpm_err_fail(err, e == ENOMEM ? ILPM_E_NOMEM : ILPM_E_INPUT, "%s: %s%s%s",
                  o->path, what, *what ? ": " : "", strerror(e));
    out_free(o);
    return NULL;
}

/* The descriptor a name stands for, or -1.  /dev/stdout is a link to
 * /proc/self/fd/1, which the kernel resolves to whatever the shell
 * opened ("pipe:[123]", the file of a >> redirection): such a name must
 * be written through the descriptor, never resolved and renamed over. */
static int fd_name(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *n = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        n = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        n = path + 14;
    if (!n || !*n)
        return -1;
    int fd = 0;
    for (; *n; n++) {
        if (*n < '0' || *n > '9' || fd > (INT_MAX - 9) / 10)
            return -1;
        fd = fd * 10 + (*n - '0');
    }
    return fd;
}

/* The file path names once its symbolic links are followed (the path
 * itself when it is no link; the target need not exist).  Some links
 * name open files, not places: through /dev/stdout or /proc/self/fd/N,
 * *fd is set to N; through another part of /proc, *proc is set.  What
 * they lead to must not be renamed over. */
static char *follow_links(const char *path, int *fd, int *proc)
{
    char *cur = strdup(path);
    char link[PATH_MAX];
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if ((*fd = fd_name(cur)) >= 0 || lstat(cur, &st) != 0 ||
            !S_ISLNK(st.st_mode))
            return cur;
        if (strncmp(cur, "/proc/", 6) == 0)
            *proc = 1;
        ssize_t n = hops < 40 ? readlink(cur, link, sizeof link) : -1;
        if (hops >= 40 || n == (ssize_t)sizeof link) {
            errno = hops >= 40 ? ELOOP : ENAMETOOLONG;
            n = -1;
        }
        if (n < 0) {
            free(cur);
            return NULL;
        }
        ilpm_buf b;
        ilpm_buf_init(&b);
        const char *slash = strrchr(cur, '/');
        if (link[0] != '/' && slash) /* relative to the link's folder */
            ilpm_buf_put(&b, cur, (size_t)(slash - cur + 1));
        ilpm_buf_put(&b, link, (size_t)n);
        free(cur);
        cur = b.oom ? NULL : ilpm_buf_take(&b);
        ilpm_buf_free(&b);
        if (!cur)
            errno = ENOMEM;
    }
    return NULL;
}

/* Permission bits of a new file: what open(..., 0666) would give.  The
 * umask can only be read by setting it; ilpm writes its outputs from a
 * single thread. */
static mode_t new_file_mode(void)
{
    mode_t u = umask(077);
    umask(u);
    return 0666 & ~u;
}

/* Opens target's temporary beside it: same folder, so that the rename
 * stays within one file system. */
static int open_temp(ilpm_out *o, ilpm_err *err)
{
    struct stat st;
    int existed = stat(o->target, &st) == 0;
    if (existed && access(o->target, W_OK) != 0) {
        /* A read-only file is refused, as a plain write would be, even
         * though the folder would let a rename replace it. */
        out_fail(o, err, "", errno);
        return -1;
    }
    const char *slash = strrchr(o->target, '/');
    size_t base = strlen(slash ? slash + 1 : o->target);
    /* The suffix must not push the name past NAME_MAX (255). */
    size_t cut = base > 240 ? base - 240 : 0;
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_buf_put(&b, o->target, strlen(o->target) - cut);
    ilpm_buf_puts(&b, ".tmp.XXXXXX");
    if (b.oom) {
        ilpm_buf_free(&b);
        out_fail(o, err, "", ENOMEM);
        return -1;
    }
    int fd = mkstemp(b.s);
    if (fd < 0) {
        int e = errno;
        ilpm_err_input(err, "%s: cannot create a temporary file beside %s: %s",
                       o->path, o->target, strerror(e));
        ilpm_buf_free(&b);
        out_free(o);
        return -1;
    }
    o->tmp = ilpm_buf_take(&b);
    ilpm_buf_free(&b);
    live_add(o->tmp);
    /* mkstemp makes the file 0600: give it the bits the replaced file
     * had (and its owner, where we may), or those of a new file. */
    if (existed && fchown(fd, st.st_uid, st.st_gid) != 0) {
        /* not ours to give away: the file stays ours */
    }
    if (fchmod(fd, existed ? st.st_mode & 07777 : new_file_mode()) != 0 ||
        !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        out_fail(o, err, "", e);
        return -1;
    }
    return 0;
}

ilpm_out *ilpm_out_open(const char *path, unsigned flags, ilpm_err *err)
{
    ilpm_out *o = calloc(1, sizeof *o);
    if (!o || !(o->path = strdup(strcmp(path, "-") == 0 ? "standard output"
                                                        : path))) {
        free(o);
        ilpm_err_nomem(err, "%s: out of memory", path);
        return NULL;
    }
    int fd = -1, proc = 0;
    if (strcmp(path, "-") == 0)
        fd = 1;
    else if (!*path)
        return out_fail(o, err, "", ENOENT);
    else if (!(o->target = follow_links(path, &fd, &proc)))
        return out_fail(o, err, "", errno);
    if (fd == 1 || fd == 2) {
        o->kind = OUT_STREAM;
        o->f = fd == 1 ? stdout : stderr;
        return o;
    }
    o->kind = OUT_DIRECT;
    if (fd >= 0) {
        /* Our own descriptor, so that closing it leaves fd open. */
        int d = dup(fd);
        if (d < 0 || !(o->f = fdopen(d, "w"))) {
            int e = errno;
            if (d >= 0)
                close(d);
            return out_fail(o, err, "", e);
        }
        return o;
    }
    /* Written where it is: what grows in place, what lies behind /proc,
     * and what is no regular file (a device, a FIFO; a directory fails to
     * open, as it should). */
    int direct = proc || (flags & (ILPM_OUT_IN_PLACE | ILPM_OUT_APPEND));
    struct stat st;
    if (!direct && stat(o->target, &st) == 0)
        direct = !S_ISREG(st.st_mode);
    else if (!direct && errno != ENOENT)
        return out_fail(o, err, "", errno);
    if (direct) {
        /* Another process's open file is written after what it holds, as
         * its own descriptor would (it may have been opened for >>). */
        int append = proc || (flags & ILPM_OUT_APPEND);
        o->f = fopen(path, append ? "a" : "w");
        return o->f ? o : out_fail(o, err, "cannot open for writing", errno);
    }
    o->kind = OUT_TEMP;
    return open_temp(o, err) == 0 ? o : NULL;
}

/* The file an input names, or 0 when it cannot be told ("-" is
 * standard input, which a redirection may have made a file). */
static int input_stat(const char *in, struct stat *st)
{
    return strcmp(in, "-") == 0 ? fstat(0, st) == 0 : stat(in, st) == 0;
}

/* The folder of target ("." for a bare name), into buf. */
static const char *folder_of(const char *target, char *buf, size_t size)
{
    const char *slash = strrchr(target, '/');
    if (!slash)
        return ".";
    size_t n = slash == target ? 1 : (size_t)(slash - target);
    if (n >= size)
        n = size - 1;
    memcpy(buf, target, n);
    buf[n] = '\0';
    return buf;
}

int ilpm_out_check(const char *path, const char *const *inputs, int n,
                   ilpm_err *err)
{
    if (strcmp(path, "-") == 0)
        return 0;
    if (!*path)
        return ilpm_err_input(err, "'': no file named");
    int fd = -1, proc = 0;
    char *target = follow_links(path, &fd, &proc);
    if (!target)
        return ilpm_err_input(err, "%s: %s", path, strerror(errno));
    struct stat st;
    int exists = fd >= 0 ? fstat(fd, &st) == 0 : stat(target, &st) == 0;
    int rc = 0;
    if (!exists && (fd >= 0 || proc || errno != ENOENT)) {
        rc = ilpm_err_input(err, "%s: %s", path, strerror(errno));
    } else if (exists && S_ISDIR(st.st_mode)) {
        rc = ilpm_err_input(err, "%s: is a folder, not a file", path);
    } else if (fd < 0 && !proc && (!exists || S_ISREG(st.st_mode))) {
        /* Nothing is lost: a file that is replaced is never one of the
         * inputs, whatever the name it goes by (a link, a hard link,
         * ./x).  Descriptors and devices are written in place. */
        for (int i = 0; i < n && rc == 0; i++) {
            struct stat in;
            int same = strcmp(inputs[i], path) == 0;
            if (!same && exists && input_stat(inputs[i], &in))
                same = in.st_dev == st.st_dev && in.st_ino == st.st_ino;
            if (same)
                rc = ilpm_err_input(
                    err,
                    "%s is also an input of this run (%s): "
                    "writing it would lose what it holds; "
                    "choose another output",
                    path,
                    strcmp(inputs[i], "-") == 0 ? "standard input" : inputs[i]);
        }
    }
    /* A regular file (or a new one) is written beside itself and renamed
     * into place: its folder must exist and take new files. */
    if (rc == 0 && fd < 0 && !proc && (!exists || S_ISREG(st.st_mode))) {
        char buf[4096];
        const char *dir = folder_of(target, buf, sizeof buf);
        struct stat ds;
        if (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode))
            rc = ilpm_err_input(err, "%s: no folder %s to write it in", path,
                                dir);
        else if (access(dir, W_OK | X_OK) != 0)
            rc = ilpm_err_input(err, "%s: cannot write in folder %s: %s", path,
                                dir, strerror(errno));
        else if (exists && access(target, W_OK) != 0)
            rc = ilpm_err_input(err, "%s: %s", path, strerror(errno));
    }
    free(target);
    return rc;
}

FILE *ilpm_out_file(ilpm_out *o)
{
    return o->f;
}

const char *ilpm_out_path(const ilpm_out *o)
{
    return o->path;
}

int ilpm_out_write(ilpm_out *o, const void *data, size_t len)
{
    if (len == 0 || fwrite(data, 1, len, o->f) == len)
        return 0;
    if (!o->errnum)
        o->errnum = errno ? errno : EIO;
    return -1;
}

char *ilpm_temp_file(const char *stem, ilpm_err *err)
{
    const char *dir = getenv("TMPDIR");
    dir = dir && *dir ? dir : "/tmp";
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_buf_printf(&b, "%s/%s-XXXXXX", dir, stem);
    int fd = b.oom ? -1 : mkstemp(b.s);
    if (fd < 0) {
        ilpm_err_fail(err, b.oom ? ILPM_E_NOMEM : ILPM_E_INPUT,
                      "cannot create a temporary file in %s: %s", dir,
                      strerror(b.oom ? ENOMEM : errno));
        ilpm_buf_free(&b);
        return NULL;
    }
    close(fd);
    char *path = ilpm_buf_take(&b);
    live_add(path);
    return path;
}

void ilpm_temp_remove(char *path)
{
    if (!path)
        return;
    live_drop(path);
    remove(path);
    free(path);
}

const char *ilpm_out_name(ilpm_out *o, ilpm_err *err)
{
    if (o->kind == OUT_TEMP)
        return o->tmp;
    if (!o->scratch) {
        ilpm_err why;
        o->scratch = ilpm_temp_file("ilpm-out", &why);
        if (!o->scratch)
            ilpm_err_input(err, "%s: %s", o->path, why.msg);
    }
    return o->scratch;
}

/* 0 if every write so far arrived (what the stream holds is pushed out
 * first), else -1 with err. */
static int out_check(ilpm_out *o, ilpm_err *err)
{
    errno = 0;
    if (fflush(o->f) != 0 && !o->errnum)
        o->errnum = errno ? errno : EIO;
    if (ferror(o->f) && !o->errnum)
        o->errnum = EIO; /* a write outside ilpm_out_write: no reason kept */
    if (!o->errnum)
        return 0;
    return ilpm_err_input(err, "%s: %s", o->path, strerror(o->errnum));
}

int ilpm_out_flush(ilpm_out *o, ilpm_err *err)
{
    return out_check(o, err);
}

/* Appends the scratch file GLPK or gnuplot wrote to the output. */
static int copy_scratch(ilpm_out *o, ilpm_err *err)
{
    FILE *in = fopen(o->scratch, "rb");
    if (!in)
        return ilpm_err_input(err, "%s: cannot read %s: %s", o->path,
                              o->scratch, strerror(errno));
    char buf[1 << 16];
    size_t n;
    int rc = 0;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        rc = ilpm_out_write(o, buf, n);
    if (rc == 0 && ferror(in))
        rc = ilpm_err_input(err, "%s: cannot read %s: %s", o->path, o->scratch,
                            strerror(errno ? errno : EIO));
    fclose(in);
    return rc;
}

int ilpm_out_commit(ilpm_out *o, ilpm_err *err)
{
    int rc = o->scratch ? copy_scratch(o, err) : 0;
    if (rc == 0 || o->errnum)
        rc = out_check(o, err);
    if (o->kind == OUT_STREAM) {
        /* Reported here: the stream is not to report it again. */
        if (rc != 0)
            clearerr(o->f);
        o->f = NULL;
    } else {
        errno = 0;
        int closed = fclose(o->f);
        o->f = NULL;
        if (closed != 0 && rc == 0)
            rc = ilpm_err_input(err, "%s: %s", o->path,
                                strerror(errno ? errno : EIO));
    }
    if (rc == 0 && o->kind == OUT_TEMP) {
        if (rename(o->tmp, o->target) != 0) {
            rc = ilpm_err_input(err, "%s: cannot rename %s into place: %s",
                                o->path, o->tmp, strerror(errno));
        } else {
            live_drop(o->tmp);
            free(o->tmp); /* in place: nothing left to remove */
            o->tmp = NULL;
        }
    }
    out_free(o);
    return rc;
}

void ilpm_out_abort(ilpm_out *o)
{
    if (!o)
        return;
    if (o->kind == OUT_STREAM) {
        clearerr(o->f); /* whoever gives up reports why */
        o->f = NULL;
    }
    out_free(o);
}
