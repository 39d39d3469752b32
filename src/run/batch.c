/* Batches: the parent parses every instance once, to find where it starts
 * and whether it is sound, and keeps only that position (a file may hold
 * millions of instances); it forks worker processes, hands them runs over
 * pipes, and writes the result rows in input order, flushed as they
 * complete.  A worker parses its instance again from the position.  A
 * worker that crashes, runs out of memory or overruns its time limit is
 * recorded and replaced; an interrupted batch keeps every finished row,
 * and --resume skips the rows already in the results file. */
#include "batch.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

void ilpm_batch_opts_init(ilpm_batch_opts *o)
{
    memset(o, 0, sizeof *o);
    ilpm_run_opts_init(&o->run);
    o->jobs = 1;
    o->shard_n = 1;
    o->incremental = 1;
}

/* An input file.  Standard input or a pipe cannot be read a second time,
 * so the parent first copies it to a temporary file that everyone reads. */
struct source {
    const char *file; /* as given: the results' file column */
    char *copy;       /* the temporary copy, or NULL        */
};

/* An instance with runs to do: where its text starts, not the parsed
 * instance, so that the parent's memory does not grow with the
 * instances' size.  The worker that runs it parses it again. */
struct task {
    int64_t offset; /* where the instance's parse began in its file  */
    long lines;     /* lines before offset, for file:line messages   */
    long index;     /* 1-based, within its file                      */
    size_t text;    /* into batch.text: the describe() label, or,    */
    int bad;        /* when bad, why the instance did not parse      */
    int src;        /* its file, into batch.src                      */
};

struct job {
    int task;
    ilpm_backend backend;
};

struct worker {
    pid_t pid;
    int to, from;
    long job; /* -1 when idle */
    double started;
    int id;
};

struct msg {
    int32_t job;
    int32_t status;
    double solve_ms;
    uint32_t len;
};

/* ------------------------------------------------------------------ */
/* Result keys, for --resume and merge                                  */

/* The key of a row: file, index, formulation and back end. */
typedef struct rowkey {
    char *file;
    long index;
    char form[32];
    char backend[8];
    int stopped; /* the row says the run was interrupted */
} rowkey;

/* Parses one CSV line into at most max fields (RFC 4180 quoting, no line
 * ends inside fields); returns the count.  Fields point into buf. */
static int csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            char *w = ++p;
            fields[n++] = w;
            for (;;) {
                if (*p == '\0')
                    break;
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
            }
            *w = '\0';
            while (*p && *p != ',')
                p++;
        } else {
            fields[n++] = p;
            while (*p && *p != ',')
                p++;
        }
        if (*p != ',') {
            if (*p)
                *p = '\0';
            break;
        }
        *p++ = '\0';
    }
    return n;
}

/* Reads a JSON string starting at the quote s into out (unescaped);
 * returns 0 on success. */
static int json_str(const char *s, char *out, size_t size)
{
    if (*s != '"')
        return -1;
    size_t k = 0;
    for (s++; *s && *s != '"'; s++) {
        char c = *s;
        if (c == '\\') {
            s++;
            switch (*s) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'u':
                c = '?';
                for (int i = 0; i < 4 && s[1]; i++)
                    s++;
                break;
            case '\0':
                return -1;
            default:
                c = *s;
            }
        }
        if (k + 1 < size)
            out[k++] = c;
    }
    out[k] = '\0';
    return *s == '"' ? 0 : -1;
}

/* The value after "key": in the record's head (before "solution"). */
static const char *json_find(const char *line, const char *key)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *end = strstr(line, "\"solution\":");
    const char *p = strstr(line, pat);
    if (!p || (end && p > end))
        return NULL;
    return p + strlen(pat);
}

struct keyset {
    rowkey *k;
    char **lines; /* the rows themselves, for merge */
    size_t n, cap;
    char *header; /* CSV header line, NULL for JSON */
    int json;
    int upgraded; /* a file's rows were given the current columns */
};

/* A results file written before a column was added (count_complete) has
 * a header whose columns are all current ones, in the same or another
 * order: its rows are read as rows of the current columns, the missing
 * ones empty (unknown).  Fills map[j] with the file's column for the
 * current column j (-1 when it has none) and returns how many current
 * columns there are; 0 when the header is the current one or not of
 * that kind (another tool's file is read as it is). */
static int upgrade_map(const char *header, const char *current, int *map,
                       int max)
{
    if (strcmp(header, current) == 0)
        return 0;
    char *h = strdup(header), *c = strdup(current);
    char *hf[64], *cf[64];
    int nh = h ? csv_split(h, hf, 64) : 0;
    int nc = c ? csv_split(c, cf, 64) : 0;
    int ok = h && c && nc <= max && nh <= nc;
    for (int j = 0; ok && j < nc; j++) {
        map[j] = -1;
        for (int i = 0; i < nh; i++)
            if (strcmp(hf[i], cf[j]) == 0)
                map[j] = i;
    }
    /* Every column of the file must be a current one, named once. */
    for (int i = 0; ok && i < nh; i++) {
        int found = 0;
        for (int j = 0; j < nc; j++)
            found += map[j] == i;
        ok = found == 1;
    }
    free(h);
    free(c);
    return ok ? nc : 0;
}

/* The row `line` of a file upgraded by map (n current columns). */
static char *upgrade_row(const char *line, const int *map, int n, int *nfields)
{
    char *copy = strdup(line);
    char *f[64];
    *nfields = copy ? csv_split(copy, f, 64) : 0;
    if (!copy)
        return NULL;
    ilpm_buf b;
    ilpm_buf_init(&b);
    for (int j = 0; j < n; j++) {
        if (j)
            ilpm_buf_putc(&b, ',');
        if (map[j] >= 0 && map[j] < *nfields)
            ilpm_buf_csv_str(&b, f[map[j]]);
    }
    free(copy);
    if (b.oom) {
        ilpm_buf_free(&b);
        return NULL;
    }
    return ilpm_buf_take(&b);
}

static void keyset_free(struct keyset *ks)
{
    for (size_t i = 0; i < ks->n; i++) {
        free(ks->k[i].file);
        if (ks->lines)
            free(ks->lines[i]);
    }
    free(ks->k);
    free(ks->lines);
    free(ks->header);
    memset(ks, 0, sizeof *ks);
}

/* Reads the rows of a results file; keep_lines keeps their text. */
static int read_results(const char *path, struct keyset *ks, int keep_lines,
                        int must_exist, ilpm_err *err)
{
    ilpm_reader *rd = ilpm_reader_open(path, err);
    if (!rd)
        return must_exist ? -1 : 0;
    const char *line;
    size_t len;
    int col_file = -1, col_index = -1, col_form = -1, col_backend = -1,
        col_status = -1, ncols = 0;
    int first = 1, rc = 0, r;
    ilpm_buf cur;
    ilpm_buf_init(&cur);
    ilpm_result_csv_header(&cur);
    if (cur.len > 0)
        cur.s[--cur.len] = '\0'; /* the line end */
    int map[64], nmap = 0, nold = 0;
    char *row = NULL; /* the current row, upgraded */
    while ((r = ilpm_reader_line(rd, &line, &len, err)) != 0) {
        free(row);
        row = NULL;
        if (r < 0) {
            rc = -1;
            break;
        }
        if (len == 0)
            continue;
        if (nmap > 0 && line[0] != '{') {
            int n;
            if (!(row = upgrade_row(line, map, nmap, &n))) {
                rc = ilpm_err_set(err, "out of memory");
                break;
            }
            if (n > nold) {
                rc = ilpm_reader_error(rd, err, 1,
                                       "a row with %d fields, the header "
                                       "has %d",
                                       n, nold);
                break;
            }
            line = row;
        }
        rowkey key;
        memset(&key, 0, sizeof key);
        char file[1024] = "";
        if (first) {
            ks->json = line[0] == '{';
            first = 0;
            if (!ks->json) {
                if ((nmap = upgrade_map(line, ilpm_buf_str(&cur), map, 64))) {
                    char *copy = strdup(line);
                    char *f[64];
                    nold = copy ? csv_split(copy, f, 64) : 0;
                    free(copy);
                    line = ilpm_buf_str(&cur);
                    ks->upgraded = 1;
                }
                if (ks->header && strcmp(ks->header, line) != 0) {
                    rc = ilpm_reader_error(rd, err, 1,
                                           "CSV header differs from the "
                                           "other results files");
                    break;
                }
                if (!ks->header && !(ks->header = strdup(line))) {
                    rc = ilpm_err_set(err, "out of memory");
                    break;
                }
                char *copy = strdup(line);
                char *f[64];
                ncols = copy ? csv_split(copy, f, 64) : 0;
                for (int i = 0; i < ncols; i++) {
                    if (!strcmp(f[i], "file"))
                        col_file = i;
                    if (!strcmp(f[i], "index"))
                        col_index = i;
                    if (!strcmp(f[i], "formulation"))
                        col_form = i;
                    if (!strcmp(f[i], "backend"))
                        col_backend = i;
                    if (!strcmp(f[i], "status"))
                        col_status = i;
                }
                free(copy);
                if (col_file < 0 || col_index < 0 || col_backend < 0) {
                    rc = ilpm_reader_error(rd, err, 1,
                                           "not an ilpm results file (no "
                                           "file, index and backend "
                                           "columns)");
                    break;
                }
                continue;
            }
        }
        if (ks->json != (line[0] == '{')) {
            rc = ilpm_reader_error(rd, err, 1, "mixes JSON and CSV rows");
            break;
        }
        if (ks->json) {
            const char *v;
            char st[16] = "";
            if ((v = json_find(line, "file")))
                json_str(v, file, sizeof file);
            if ((v = json_find(line, "index")))
                key.index = strtol(v, NULL, 10);
            if ((v = json_find(line, "formulation")))
                json_str(v, key.form, sizeof key.form);
            if ((v = json_find(line, "backend")))
                json_str(v, key.backend, sizeof key.backend);
            if ((v = json_find(line, "status")))
                json_str(v, st, sizeof st);
            key.stopped = strcmp(st, "stopped") == 0;
        } else {
            char *copy = strdup(line);
            char *f[64];
            int n = copy ? csv_split(copy, f, 64) : 0;
            if (n <= col_backend || n <= col_file || n <= col_index) {
                free(copy);
                rc = ilpm_reader_error(rd, err, 1,
                                       "a row with %d fields, the header "
                                       "has %d",
                                       n, ncols);
                break;
            }
            snprintf(file, sizeof file, "%s", f[col_file]);
            key.index = strtol(f[col_index], NULL, 10);
            if (col_form >= 0 && n > col_form)
                snprintf(key.form, sizeof key.form, "%s", f[col_form]);
            snprintf(key.backend, sizeof key.backend, "%s", f[col_backend]);
            key.stopped = col_status >= 0 && n > col_status &&
                          strcmp(f[col_status], "stopped") == 0;
            free(copy);
        }
        if (ks->n == ks->cap) {
            size_t c = ks->cap ? 2 * ks->cap : 256;
            rowkey *nk = realloc(ks->k, c * sizeof *nk);
            char **nl = keep_lines ? realloc(ks->lines, c * sizeof *nl) : NULL;
            if (nk)
                ks->k = nk;
            if (nl)
                ks->lines = nl;
            if (!nk || (keep_lines && !nl)) {
                rc = ilpm_err_set(err, "out of memory");
                break;
            }
            ks->cap = c;
        }
        key.file = strdup(file);
        if (keep_lines)
            ks->lines[ks->n] = strdup(line);
        ks->k[ks->n++] = key;
    }
    free(row);
    ilpm_buf_free(&cur);
    ilpm_reader_free(rd);
    return rc;
}

static int key_matches(const rowkey *k, const char *file, long index,
                       const char *form, const char *backend)
{
    return !k->stopped && k->index == index && strcmp(k->file, file) == 0 &&
           strcmp(k->form, form) == 0 && strcmp(k->backend, backend) == 0;
}

/* The rows a resumed batch finds done, hashed on their key: a big results
 * file against a big input stays linear (a scan per run was quadratic). */
struct doneset {
    const struct keyset *ks;
    size_t *slot; /* 1 + index into ks->k; 0 for an empty slot */
    size_t mask;
};

static uint64_t key_hash(const char *file, long index, const char *form,
                         const char *backend)
{
    /* FNV-1a; a 0 byte ends each string (none holds one). */
    uint64_t h = 14695981039346656037ull;
    const char *part[3] = {file, form, backend};
    for (int i = 0; i < 3; i++) {
        const unsigned char *c = (const unsigned char *)part[i];
        do
            h = (h ^ *c) * 1099511628211ull;
        while (*c++);
    }
    uint64_t x = (uint64_t)index;
    for (int i = 0; i < 8; i++, x >>= 8)
        h = (h ^ (x & 0xff)) * 1099511628211ull;
    return h;
}

static int doneset_build(struct doneset *d, const struct keyset *ks)
{
    size_t size = 16;
    while (size < 2 * ks->n + 1) {
        if (size > SIZE_MAX / 4 / sizeof *d->slot)
            return -1;
        size *= 2;
    }
    d->ks = ks;
    d->mask = size - 1;
    d->slot = calloc(size, sizeof *d->slot);
    if (!d->slot)
        return -1;
    for (size_t i = 0; i < ks->n; i++) {
        const rowkey *k = &ks->k[i];
        if (k->stopped)
            continue; /* an interrupted run is not done */
        size_t at =
            (size_t)key_hash(k->file, k->index, k->form, k->backend) & d->mask;
        while (d->slot[at])
            at = (at + 1) & d->mask;
        d->slot[at] = i + 1;
    }
    return 0;
}

static int doneset_has(const struct doneset *d, const char *file, long index,
                       const char *form, const char *backend)
{
    if (!d->slot)
        return 0;
    size_t at = (size_t)key_hash(file, index, form, backend) & d->mask;
    for (; d->slot[at]; at = (at + 1) & d->mask)
        if (key_matches(&d->ks->k[d->slot[at] - 1], file, index, form, backend))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Workers                                                              */

static volatile sig_atomic_t worker_stop_sig;
static volatile int worker_stop;

static void on_worker_term(int sig)
{
    (void)sig;
    worker_stop_sig = 1;
    worker_stop = 1;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads exactly n bytes; 0 on success, -1 on EOF or error. */
static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

struct batch {
    const ilpm_puzzle *pz;
    const ilpm_params *p;
    const ilpm_batch_opts *o;
    struct source *src;
    int nsrc;
    struct task *tasks;
    int ntasks, cap_tasks;
    struct job *jobs;
    long njobs, cap_jobs;
    ilpm_buf text; /* the tasks' labels and parse errors, NUL-separated */
};

static const char *task_text(const struct batch *b, const struct task *t)
{
    return ilpm_buf_str(&b->text) + t->text;
}

static void format_row(const struct batch *b, const ilpm_result *r,
                       ilpm_buf *out)
{
    if (b->o->json)
        ilpm_result_json(r, out);
    else
        ilpm_result_csv(r, out);
}

static void fill_key(const struct batch *b, long j, ilpm_result *r)
{
    const struct task *t = &b->tasks[b->jobs[j].task];
    snprintf(r->file, sizeof r->file, "%s", b->src[t->src].file);
    r->index = t->index;
    r->backend = b->jobs[j].backend;
    snprintf(r->puzzle, sizeof r->puzzle, "%s", b->pz->name);
    if (b->pz->formulations) {
        const char *f = ilpm_params_get(b->p, "formulation");
        snprintf(r->formulation, sizeof r->formulation, "%s",
                 f ? f : b->pz->formulations[0]);
    }
    /* The label describe() gave when the parent parsed the file in order:
     * a parse started in mid-file may not know it (a Sudoku's number). */
    if (!t->bad)
        snprintf(r->instance, sizeof r->instance, "%s", task_text(b, t));
    else
        snprintf(r->instance, sizeof r->instance, "#%ld", t->index);
}

/* Opens a source at a position that ilpm_reader_offset gave. */
static ilpm_reader *open_source(const struct source *s, int64_t offset,
                                long lines, ilpm_err *err)
{
    if (!s->copy)
        return ilpm_reader_open_at(s->file, NULL, offset, lines, err);
    /* Messages name the input, not the copy. */
    const char *name = strcmp(s->file, "-") == 0 ? ILPM_STDIN_NAME : s->file;
    return ilpm_reader_open_at(s->copy, name, offset, lines, err);
}

/* A task's instance, parsed again from where the parent found it. */
static int load(const struct batch *b, const struct task *t, void **inst,
                ilpm_err *err)
{
    ilpm_reader *rd = open_source(&b->src[t->src], t->offset, t->lines, err);
    if (!rd)
        return -1;
    ilpm_reader_set_index(rd, t->index);
    int r = b->pz->parse(rd, b->p, inst, err);
    if (r == 0)
        ilpm_err_set(err,
                     "%s: instance %ld is gone (the file changed during the "
                     "batch?)",
                     ilpm_reader_name(rd), t->index);
    ilpm_reader_free(rd);
    return r > 0 ? 0 : -1;
}

static void worker_main(const struct batch *b, int id, int in, int out)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_worker_term;
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C does */
    if (b->o->memory_limit_mb > 0 && !UNDER_ASAN) {
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max =
            (rlim_t)(b->o->memory_limit_mb * 1024.0 * 1024.0);
        setrlimit(RLIMIT_AS, &rl);
    }
#ifdef ILPM_TEST_HOOKS
    /* Test hooks: make the worker die or hang on one instance index. */
    const char *crash = getenv("ILPM_TEST_CRASH_INDEX");
    const char *hang = getenv("ILPM_TEST_HANG_INDEX");
#endif
    ilpm_shape_cache *cache[2] = {NULL, NULL};
    if (b->o->incremental) {
        cache[0] = ilpm_shape_cache_new();
        cache[1] = ilpm_shape_cache_new();
    }
    ilpm_run_opts ro = b->o->run;
    ro.solver.stop_flag = &worker_stop;
    ilpm_buf row;
    ilpm_buf_init(&row);
    int32_t j;
    while (!worker_stop && read_all(in, &j, sizeof j) == 0) {
        const struct job *jb = &b->jobs[j];
        const struct task *t = &b->tasks[jb->task];
#ifdef ILPM_TEST_HOOKS
        if (crash && atol(crash) == t->index)
            abort();
        if (hang && atol(hang) == t->index)
            for (;;)
                pause();
#endif
        ilpm_result r;
        ilpm_result_init(&r);
        fill_key(b, j, &r);
        ro.solver.backend = jb->backend;
        void *inst = NULL;
        ilpm_err e = {0};
        if (load(b, t, &inst, &e) == 0) {
            ilpm_run_instance_cached(b->pz, inst, b->p, &ro, cache[jb->backend],
                                     &r);
            b->pz->free_instance(inst);
        } else {
            r.status = ILPM_ERROR;
            snprintf(r.error, sizeof r.error, "%s", e.msg);
        }
        r.worker = id;
        ilpm_buf_clear(&row);
        format_row(b, &r, &row);
        struct msg m;
        memset(&m, 0, sizeof m); /* no uninitialised padding down the pipe */
        m.job = j;
        m.status = (int32_t)r.status;
        m.solve_ms = r.solve_ms;
        m.len = (uint32_t)row.len;
        if (r.status == ILPM_STOPPED)
            m.len = 0; /* an interrupted run is not a result */
        ilpm_result_free(&r);
        if (write_all(out, &m, sizeof m) != 0 ||
            write_all(out, ilpm_buf_str(&row), m.len) != 0)
            break;
    }
    ilpm_buf_free(&row);
    ilpm_shape_cache_free(cache[0]);
    ilpm_shape_cache_free(cache[1]);
    _exit(0);
}

static int spawn(const struct batch *b, struct worker *w, int id,
                 struct worker *all, int nall, ilpm_err *err)
{
    int down[2], up[2];
    if (pipe(down) != 0)
        return ilpm_err_set(err, "pipe: %s", strerror(errno));
    if (pipe(up) != 0) {
        close(down[0]);
        close(down[1]);
        return ilpm_err_set(err, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        return ilpm_err_set(err, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        for (int i = 0; i < nall; i++)
            if (all[i].pid > 0) {
                close(all[i].to);
                close(all[i].from);
            }
        close(down[1]);
        close(up[0]);
        worker_main(b, id, down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    w->pid = pid;
    w->to = down[1];
    w->from = up[0];
    w->job = -1;
    w->id = id;
    return 0;
}

static void reap(struct worker *w, int *status)
{
    close(w->to);
    close(w->from);
    while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
        ;
    w->pid = -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ */
/* The parent                                                            */

struct outq {
    ilpm_out *out;
    const struct batch *b;
    char **rows; /* by job; NULL until done */
    long next;   /* first job not yet written in order */
    long njobs;
};

struct times {
    double *v[2];
    long n[2];
};

static void record(ilpm_batch_summary *s, struct times *tm, ilpm_backend b,
                   ilpm_status st, double ms)
{
    s->done++;
    if ((unsigned)st < 7)
        s->by_status[st]++;
    s->runs[b]++;
    s->total_ms[b] += ms;
    if (tm->v[b])
        tm->v[b][tm->n[b]++] = ms;
}

/* A row for a run the worker could not report (death, overrun). */
static char *parent_row(const struct batch *b, long j, ilpm_status st,
                        const char *msg, int worker, double ms)
{
    ilpm_result r;
    ilpm_result_init(&r);
    fill_key(b, j, &r);
    r.status = st;
    r.solve_ms = ms;
    r.worker = worker;
    snprintf(r.error, sizeof r.error, "%s", msg);
    ilpm_buf row;
    ilpm_buf_init(&row);
    format_row(b, &r, &row);
    ilpm_result_free(&r);
    return ilpm_buf_take(&row);
}

/* An instance that did not parse is a result already. */
static int job_bad(const struct batch *b, long j)
{
    return b->tasks[b->jobs[j].task].bad;
}

/* Writes job j's row, if it has one: a worker's, or for an instance that
 * did not parse, one made now (not before: millions of bad instances would
 * wait in memory). */
static int out_row(struct outq *q, long j)
{
    char *row = q->rows[j];
    q->rows[j] = NULL;
    if (!row && !job_bad(q->b, j))
        return 0;
    if (!row) {
        const struct task *t = &q->b->tasks[q->b->jobs[j].task];
        row = parent_row(q->b, j, ILPM_ERROR, task_text(q->b, t), 0, 0);
    }
    if (row)
        ilpm_out_write(q->out, row, strlen(row));
    free(row);
    return 1;
}

/* Writes the rows now in order; -1 with err once the file fails. */
static int out_flush_ordered(struct outq *q, ilpm_err *err)
{
    while (q->next < q->njobs && out_row(q, q->next))
        q->next++;
    return ilpm_out_flush(q->out, err);
}

/* Writes every finished row (the ones after a missing row, too). */
static void out_flush_all(struct outq *q)
{
    out_flush_ordered(q, NULL);
    for (long j = q->next; j < q->njobs; j++)
        out_row(q, j);
}

/* Copies a file that cannot be read twice (standard input, a pipe) to a
 * temporary file, since workers read their instances again by offset.
 * 0 when copied or when the file needs no copy (or will not open: the
 * reader then says why, as for any file), -1 with err. */
static int spool(struct source *s, ilpm_err *err)
{
    FILE *in = stdin;
    if (strcmp(s->file, "-") != 0) {
        struct stat st;
        if (stat(s->file, &st) != 0 ||
            !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
              S_ISSOCK(st.st_mode)))
            return 0;
        if (!(in = fopen(s->file, "rb")))
            return 0;
    }
    const char *dir = getenv("TMPDIR");
    ilpm_buf path;
    ilpm_buf_init(&path);
    ilpm_buf_printf(&path, "%s/ilpm-batch-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = path.oom ? -1 : mkstemp(path.s);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!out) {
        ilpm_err_set(err, "%s: cannot make a temporary copy in %s: %s", s->file,
                     dir && *dir ? dir : "/tmp", strerror(errno));
        if (fd >= 0) {
            close(fd);
            remove(path.s);
        }
        ilpm_buf_free(&path);
        if (in != stdin)
            fclose(in);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    int rerr = 0, werr = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            werr = errno;
            break;
        }
    if (ferror(in))
        rerr = errno ? errno : EIO;
    if (in != stdin)
        fclose(in);
    if (fclose(out) != 0 && !werr)
        werr = errno ? errno : EIO;
    if (rerr || werr) {
        if (rerr)
            ilpm_err_set(err, "%s: read error: %s", s->file, strerror(rerr));
        else
            ilpm_err_set(err, "%s: cannot write: %s", path.s, strerror(werr));
        remove(path.s);
        ilpm_buf_free(&path);
        return -1;
    }
    s->copy = ilpm_buf_take(&path);
    return 0;
}

/* Keeps an instance as a task with a job per back end, leaving out the
 * runs --resume finds done (a task with none is not kept). */
static int add_task(struct batch *b, const struct doneset *done,
                    const char *form, int src, long index, int64_t offset,
                    long lines, int bad, const char *text,
                    ilpm_batch_summary *sum, ilpm_err *err)
{
    const ilpm_batch_opts *o = b->o;
    int nb = o->both ? 2 : 1, added = 0;
    for (int k = 0; k < nb; k++) {
        ilpm_backend be = o->both ? (ilpm_backend)k : o->run.solver.backend;
        if (doneset_has(done, b->src[src].file, index, form,
                        ilpm_backend_name(be))) {
            sum->skipped++;
            continue;
        }
        /* Jobs go to the workers as int32. */
        if (b->njobs >= INT32_MAX - 1 || b->ntasks >= INT32_MAX - 1)
            return ilpm_err_set(err,
                                "more than %d runs in one batch "
                                "(--shard divides them)",
                                INT32_MAX - 2);
        if (b->njobs == b->cap_jobs) {
            long c = b->cap_jobs ? 2 * b->cap_jobs : 256;
            struct job *nj = realloc(b->jobs, (size_t)c * sizeof *nj);
            if (!nj)
                return ilpm_err_set(err, "out of memory");
            b->jobs = nj;
            b->cap_jobs = c;
        }
        b->jobs[b->njobs].task = b->ntasks;
        b->jobs[b->njobs].backend = be;
        b->njobs++;
        added++;
    }
    if (!added)
        return 0;
    if (b->ntasks == b->cap_tasks) {
        int c = b->cap_tasks ? (b->cap_tasks > INT32_MAX / 2 ? INT32_MAX
                                                             : 2 * b->cap_tasks)
                             : 256;
        struct task *nt = realloc(b->tasks, (size_t)c * sizeof *nt);
        if (!nt)
            return ilpm_err_set(err, "out of memory");
        b->tasks = nt;
        b->cap_tasks = c;
    }
    struct task *t = &b->tasks[b->ntasks++];
    t->offset = offset;
    t->lines = lines;
    t->index = index;
    t->text = b->text.len;
    t->bad = bad;
    t->src = src;
    ilpm_buf_put(&b->text, text, strlen(text) + 1);
    return b->text.oom ? ilpm_err_set(err, "out of memory") : 0;
}

/* Reads every file once.  Each instance is parsed to find where the next
 * one starts and whether it is sound, and freed at once: what is kept is
 * its position and label, or why it did not parse. */
static int index_all(struct batch *b, const char *const *files, int nfiles,
                     const struct doneset *done, const char *form,
                     ilpm_batch_summary *sum, ilpm_err *err)
{
    const ilpm_batch_opts *o = b->o;
    long seen = 0; /* instances of the files so far, for --shard */
    b->src = calloc((size_t)nfiles + 1, sizeof *b->src);
    if (!b->src)
        return ilpm_err_set(err, "out of memory");
    for (int i = 0; i < nfiles; i++) {
        struct source *s = &b->src[i];
        s->file = files[i];
        b->nsrc = i + 1;
        if (spool(s, err) != 0)
            return -1;
        ilpm_err oerr = {0};
        ilpm_reader *rd = open_source(s, 0, 0, &oerr);
        if (!rd) {
            /* One error row stands for the file. */
            if (seen++ % o->shard_n == o->shard_i &&
                add_task(b, done, form, i, 1, 0, 0, 1, oerr.msg, sum, err) != 0)
                return -1;
            continue;
        }
        ilpm_instances it;
        ilpm_instances_init(&it, b->pz, b->p, rd, o->index);
        for (;;) {
            void *inst = NULL;
            ilpm_err perr = {0};
            int r = ilpm_instances_next(&it, &inst, &perr);
            if (r == 0)
                break;
            char label[sizeof((ilpm_result *)0)->instance] = "";
            int mine = seen++ % o->shard_n == o->shard_i;
            if (r > 0) {
                if (mine)
                    b->pz->describe(inst, label, sizeof label);
                b->pz->free_instance(inst);
            }
            /* -2 (nothing more to read) is one error row too: at the
             * index asked for, or the first of an empty file. */
            long at = r != -2                ? it.index
                      : it.want > it.index   ? it.want
                      : it.index == 0        ? 1
                                             : it.index;
            int bad = r < 0;
            if (mine && add_task(b, done, form, i, at, it.offset, it.lines, bad,
                                 bad ? perr.msg : label, sum, err) != 0) {
                ilpm_reader_free(rd);
                return -1;
            }
            if (r == -2)
                break;
        }
        ilpm_reader_free(rd);
    }
    return 0;
}

/* Writes the rows of path again, in order, under the current header
 * (read_results upgrades older ones). */
static int rewrite_results(const char *path, ilpm_err *err)
{
    struct keyset ks = {0};
    if (read_results(path, &ks, 1, 1, err) != 0) {
        keyset_free(&ks);
        return -1;
    }
    /* Replaced only once complete, as every output is (ilpm_out). */
    ilpm_out *out = ilpm_out_open(path, ILPM_OUT_REPLACE, err);
    if (!out) {
        keyset_free(&ks);
        return -2;
    }
    if (ks.header) {
        ilpm_out_write(out, ks.header, strlen(ks.header));
        ilpm_out_write(out, "\n", 1);
    }
    for (size_t i = 0; i < ks.n; i++) {
        ilpm_out_write(out, ks.lines[i], strlen(ks.lines[i]));
        ilpm_out_write(out, "\n", 1);
    }
    keyset_free(&ks);
    return ilpm_out_commit(out, err) != 0 ? -2 : 0;
}

int ilpm_batch_run(const ilpm_puzzle *pz, const char *const *files, int nfiles,
                   const ilpm_params *p, const ilpm_batch_opts *o,
                   const char *out_path, ilpm_batch_summary *sum, ilpm_err *err)
{
    memset(sum, 0, sizeof *sum);
    double t0 = ilpm_now();
    struct batch b;
    memset(&b, 0, sizeof b);
    b.pz = pz;
    b.p = p;
    b.o = o;
    ilpm_buf_init(&b.text);
    struct keyset done = {0};
    struct doneset dset = {0};
    struct outq q = {0};
    struct worker *w = NULL;
    struct times tm = {{NULL, NULL}, {0, 0}};
    int rc = -1, nw = 0;
    if (o->jobs < 1 || o->shard_n < 1 || o->shard_i < 0 ||
        o->shard_i >= o->shard_n)
        return ilpm_err_set(err, "bad jobs or shard numbers");
    if (o->resume && read_results(out_path, &done, 0, 0, err) != 0)
        goto out;
    if (o->resume && doneset_build(&dset, &done) != 0) {
        ilpm_err_set(err, "out of memory");
        goto out;
    }
    const char *form = "";
    if (pz->formulations) {
        const char *f = ilpm_params_get(p, "formulation");
        form = f ? f : pz->formulations[0];
    }
    if (index_all(&b, files, nfiles, &dset, form, sum, err) != 0)
        goto out;
    /* Done with the old rows: the workers need not inherit them. */
    free(dset.slot);
    dset.slot = NULL;
    int upgrade = done.upgraded && !done.json;
    keyset_free(&done);
    sum->total = b.njobs;
    /* The results file: appended to on resume, else started anew. */
    int fresh = 1;
    if (o->resume) {
        FILE *f = fopen(out_path, "r");
        if (f) {
            fresh = fgetc(f) == EOF;
            fclose(f);
        }
    }
    /* Rows of an older ilpm take the current columns first, so that the
     * file keeps one header. */
    if (!fresh && upgrade && !o->json) {
        int up = rewrite_results(out_path, err);
        if (up != 0) {
            rc = up;
            goto out;
        }
    }
    /* Written in place as rows complete, so that a stopped batch keeps
     * them; a failed write (a full disk) ends the batch with -2. */
    q.out = ilpm_out_open(out_path, fresh ? ILPM_OUT_IN_PLACE : ILPM_OUT_APPEND,
                          err);
    if (!q.out) {
        rc = -2;
        goto out;
    }
    if (fresh && !o->json) {
        ilpm_buf h;
        ilpm_buf_init(&h);
        ilpm_result_csv_header(&h);
        ilpm_out_write(q.out, h.s, h.len);
        ilpm_buf_free(&h);
        if (ilpm_out_flush(q.out, err) != 0) {
            rc = -2;
            goto out;
        }
    }
    q.rows = calloc((size_t)b.njobs + 1, sizeof *q.rows);
    long per[2] = {0, 0};
    for (long j = 0; j < b.njobs; j++)
        per[b.jobs[j].backend]++;
    tm.v[0] = malloc(((size_t)per[0] + 1) * sizeof(double));
    tm.v[1] = malloc(((size_t)per[1] + 1) * sizeof(double));
    if (!q.rows || !tm.v[0] || !tm.v[1]) {
        ilpm_err_set(err, "out of memory");
        goto out;
    }
    q.b = &b;
    q.njobs = b.njobs;
    /* Instances that did not parse are results already (their rows are
     * made as they are written). */
    for (long j = 0; j < b.njobs; j++)
        if (job_bad(&b, j)) {
            record(sum, &tm, b.jobs[j].backend, ILPM_ERROR, 0);
            sum->input_errors++;
        }
    if (out_flush_ordered(&q, err) != 0) {
        rc = -2;
        goto out;
    }
    nw = o->jobs;
    if (nw > b.njobs)
        nw = (int)b.njobs;
    w = calloc((size_t)nw + 1, sizeof *w);
    if (!w) {
        ilpm_err_set(err, "out of memory");
        goto out;
    }
    for (int i = 0; i < nw; i++)
        w[i].pid = -1;
    int next_id = 1;
    for (int i = 0; i < nw; i++)
        if (spawn(&b, &w[i], next_id++, w, nw, err) != 0)
            goto out;
    long next = 0;
    /* A run may take its time limit, plus model building; past half as
     * long again (and 5 s) the parent stops waiting. */
    double hard =
        o->run.solver.time_limit > 0 ? o->run.solver.time_limit * 1.5 + 5.0 : 0;
    double last_progress = 0, stop_at = 0;
    struct pollfd *pfd = calloc((size_t)nw, sizeof *pfd);
    if (!pfd) {
        ilpm_err_set(err, "out of memory");
        goto out;
    }
    for (;;) {
        int stopping = o->stop && *o->stop;
        if (stopping && !stop_at) {
            stop_at = ilpm_now();
            for (int i = 0; i < nw; i++)
                if (w[i].pid > 0 && w[i].job >= 0)
                    kill(w[i].pid, SIGTERM);
        }
        /* Hand out work. */
        for (int i = 0; i < nw && !stopping; i++) {
            while (next < b.njobs && job_bad(&b, next))
                next++; /* parse errors are done */
            if (w[i].pid > 0 && w[i].job < 0 && next < b.njobs) {
                int32_t j = (int32_t)next++;
                if (write_all(w[i].to, &j, sizeof j) == 0) {
                    w[i].job = j;
                    w[i].started = ilpm_now();
                } else {
                    next--;
                }
            }
        }
        int busy = 0;
        for (int i = 0; i < nw; i++) {
            pfd[i].fd = w[i].pid > 0 ? w[i].from : -1;
            pfd[i].events = POLLIN;
            pfd[i].revents = 0;
            busy += w[i].pid > 0 && w[i].job >= 0;
        }
        if (!busy && (stopping || next >= b.njobs))
            break;
        if (stopping && ilpm_now() - stop_at > 5.0) {
            for (int i = 0; i < nw; i++)
                if (w[i].pid > 0 && w[i].job >= 0)
                    kill(w[i].pid, SIGKILL);
        }
        int pr = poll(pfd, (nfds_t)nw, 200);
        if (pr < 0 && errno != EINTR) {
            ilpm_err_set(err, "poll: %s", strerror(errno));
            goto out;
        }
        double now = ilpm_now();
        for (int i = 0; i < nw; i++) {
            if (w[i].pid <= 0)
                continue;
            long j = w[i].job;
            if (pr > 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                struct msg m;
                char *text = NULL;
                int ok = read_all(w[i].from, &m, sizeof m) == 0;
                if (ok) {
                    text = malloc((size_t)m.len + 1);
                    ok = text && read_all(w[i].from, text, m.len) == 0;
                    if (text)
                        text[ok ? m.len : 0] = '\0';
                }
                if (ok && m.job == j) {
                    if (m.len > 0) {
                        q.rows[j] = text;
                        text = NULL;
                        record(sum, &tm, b.jobs[j].backend,
                               (ilpm_status)m.status, m.solve_ms);
                    }
                    w[i].job = -1;
                    free(text);
                    continue;
                }
                free(text);
                /* The worker died: record its run, replace it. */
                int status = 0;
                reap(&w[i], &status);
                if (j >= 0 && !stopping) {
                    char msg[160];
                    if (WIFSIGNALED(status))
                        snprintf(msg, sizeof msg,
                                 "worker %d died: killed by signal %d%s",
                                 w[i].id, WTERMSIG(status),
                                 WTERMSIG(status) == SIGKILL
                                     ? " (out of memory?)"
                                     : "");
                    else
                        snprintf(msg, sizeof msg,
                                 "worker %d died: exit status %d", w[i].id,
                                 WEXITSTATUS(status));
                    q.rows[j] = parent_row(&b, j, ILPM_ERROR, msg, w[i].id, 0);
                    record(sum, &tm, b.jobs[j].backend, ILPM_ERROR, 0);
                }
                if (stopping)
                    continue; /* it exited as asked */
                sum->replaced++;
                if (spawn(&b, &w[i], next_id++, w, nw, err) != 0)
                    goto out;
                continue;
            }
            if (j >= 0 && hard > 0 && now - w[i].started > hard && !stopping) {
                kill(w[i].pid, SIGKILL);
                int status;
                reap(&w[i], &status);
                char msg[160];
                snprintf(msg, sizeof msg,
                         "worker %d overran the time limit and was killed "
                         "after %.1f s",
                         w[i].id, now - w[i].started);
                char *row = parent_row(&b, j, ILPM_TIMEOUT, msg, w[i].id,
                                       (now - w[i].started) * 1000.0);
                q.rows[j] = row;
                record(sum, &tm, b.jobs[j].backend, ILPM_TIMEOUT,
                       (now - w[i].started) * 1000.0);
                sum->replaced++;
                if (spawn(&b, &w[i], next_id++, w, nw, err) != 0)
                    goto out;
            }
        }
        if (out_flush_ordered(&q, err) != 0) {
            free(pfd);
            rc = -2;
            goto out;
        }
        if (o->progress && now - last_progress > 0.2) {
            last_progress = now;
            sum->elapsed_s = now - t0;
            o->progress(o->progress_ctx, sum);
        }
    }
    free(pfd);
    rc = 0;
out:
    if (q.out) {
        out_flush_all(&q);
        if (ilpm_out_commit(q.out, rc == 0 ? err : NULL) != 0 && rc == 0)
            rc = -2;
    }
    for (int i = 0; w && i < nw; i++)
        if (w[i].pid > 0) {
            int status;
            if (w[i].job >= 0)
                kill(w[i].pid, SIGKILL);
            reap(&w[i], &status);
        }
    for (int k = 0; k < 2; k++) {
        if (tm.v[k] && tm.n[k] > 0) {
            qsort(tm.v[k], (size_t)tm.n[k], sizeof(double), cmp_double);
            sum->median_ms[k] =
                tm.n[k] % 2
                    ? tm.v[k][tm.n[k] / 2]
                    : (tm.v[k][tm.n[k] / 2 - 1] + tm.v[k][tm.n[k] / 2]) / 2;
        }
        free(tm.v[k]);
    }
    sum->elapsed_s = ilpm_now() - t0;
    if (o->progress)
        o->progress(o->progress_ctx, sum);
    for (long j = 0; q.rows && j < q.njobs; j++)
        free(q.rows[j]);
    free(q.rows);
    free(w);
    free(b.tasks);
    free(b.jobs);
    ilpm_buf_free(&b.text);
    for (int i = 0; i < b.nsrc; i++)
        if (b.src[i].copy) {
            remove(b.src[i].copy);
            free(b.src[i].copy);
        }
    free(b.src);
    free(dset.slot);
    keyset_free(&done);
    return rc;
}

/* ------------------------------------------------------------------ */
/* merge                                                                 */

struct order {
    const struct keyset *ks;
    size_t i;
    int file_rank;
    size_t seq;
};

static int cmp_rows(const void *a, const void *b)
{
    const struct order *x = a, *y = b;
    const rowkey *kx = &x->ks->k[x->i], *ky = &y->ks->k[y->i];
    if (x->file_rank != y->file_rank)
        return x->file_rank < y->file_rank ? -1 : 1;
    if (kx->index != ky->index)
        return kx->index < ky->index ? -1 : 1;
    int c = strcmp(kx->form, ky->form);
    if (c)
        return c;
    c = strcmp(kx->backend, ky->backend);
    if (c)
        return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int ilpm_batch_merge(const char *const *inputs, int n, const char *out_path,
                     ilpm_err *err)
{
    struct keyset ks = {0};
    int rc = -1;
    struct order *ord = NULL;
    char **files = NULL;
    for (int i = 0; i < n; i++) {
        int was_json = ks.json, had = ks.n > 0 || ks.header;
        if (read_results(inputs[i], &ks, 1, 1, err) != 0)
            goto out;
        if (had && was_json != ks.json) {
            ilpm_err_set(err, "%s: mixes JSON and CSV results files",
                         inputs[i]);
            goto out;
        }
    }
    ord = calloc(ks.n + 1, sizeof *ord);
    files = calloc(ks.n + 1, sizeof *files);
    if (!ord || !files) {
        ilpm_err_set(err, "out of memory");
        goto out;
    }
    int nfiles = 0;
    for (size_t i = 0; i < ks.n; i++) {
        int r = -1;
        for (int f = 0; f < nfiles && r < 0; f++)
            if (strcmp(files[f], ks.k[i].file) == 0)
                r = f;
        if (r < 0) {
            files[nfiles] = ks.k[i].file;
            r = nfiles++;
        }
        ord[i] = (struct order){&ks, i, r, i};
    }
    qsort(ord, ks.n, sizeof *ord, cmp_rows);
    ilpm_out *f = ilpm_out_open(out_path, ILPM_OUT_REPLACE, err);
    if (!f) {
        rc = -2;
        goto out;
    }
    if (!ks.json && ks.header) {
        ilpm_out_write(f, ks.header, strlen(ks.header));
        ilpm_out_write(f, "\n", 1);
    }
    for (size_t i = 0; i < ks.n; i++) {
        /* Of rows with the same key, the last one read wins. */
        if (i + 1 < ks.n &&
            cmp_rows(&(struct order){&ks, ord[i].i, ord[i].file_rank, 0},
                     &(struct order){&ks, ord[i + 1].i, ord[i + 1].file_rank,
                                     0}) == 0)
            continue;
        const char *line = ks.lines[ord[i].i];
        ilpm_out_write(f, line, strlen(line));
        ilpm_out_write(f, "\n", 1);
    }
    /* A failed write is reported here. */
    rc = ilpm_out_commit(f, err) == 0 ? 0 : -2;
out:
    free(ord);
    free(files);
    keyset_free(&ks);
    return rc;
}
