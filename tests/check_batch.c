/* Tests of batches (src/run/batch.c): ilpm_batch_run on small files of
 * queens completions with one and two workers and both back ends (rows
 * in input order, the summary's counts), --resume, --shard, malformed
 * and missing inputs as error rows, and ilpm_batch_merge (order, one
 * header, a later row replacing an earlier one, bad inputs).  Files live
 * in a temporary folder.  Runs from the source root (data/...). */
#include "batch.h"
#include "batch_int.h"
#include "puzzles.h"

#include "testutil.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_puzzle *queens = &ilpm_puzzle_queens;
static char dir[256];
static ilpm_params *params;

/* n=4 and n=5 solve, n=3 and n=2 do not, n=6 solves with a queen at
 * (1,2) but not in a corner. */
static const char six[] = "4\n3\n5\n6\n1 2\n2\n6\n1 1\n";
static const ilpm_status six_status[6] = {ILPM_SOLVED, ILPM_UNSAT, ILPM_SOLVED,
                                          ILPM_SOLVED, ILPM_UNSAT, ILPM_UNSAT};

static void setup(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/check_batch.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    params = ilpm_params_new();
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    ilpm_params_free(params);
}

/* dir/name into buf. */
static const char *in_dir(char *buf, const char *name)
{
    snprintf(buf, 320, "%s/%s", dir, name);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

/* The whole of a file, malloc'd. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s", path);
    ilpm_buf b;
    ilpm_buf_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        ilpm_buf_put(&b, chunk, n);
    fclose(f);
    return ilpm_buf_take(&b);
}

/* ------------------------------------------------------------------ */
/* Result rows                                                          */

/* What a row says, by the header's names. */
typedef struct row {
    char file[320];
    long index;
    char instance[64];
    char backend[8];
    char status[16];
    char verified[8];
    char error[256];
    int worker;
    char stopped_by[16];
} row;

typedef struct rows {
    int n;
    row r[64];
    int headers; /* header lines met */
} rows;

/* Splits one CSV line (RFC 4180 quotes, no line end inside a field),
 * unquoted, into f (fields point into buf); returns their number. */
static int csv_split(const char *line, char *buf, char **f, int max)
{
    int n = 0;
    const char *s = line;
    char *w = buf;
    for (;;) {
        ck_assert_int_lt(n, max);
        f[n++] = w;
        if (*s == '"') {
            for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
                if (*s == '"')
                    s++;
                *w++ = *s;
            }
            if (*s == '"')
                s++;
        } else {
            while (*s && *s != ',')
                *w++ = *s++;
        }
        *w++ = '\0';
        if (*s != ',')
            return n;
        s++;
    }
}

static const char *field(char **f, char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return f[i];
    ck_abort_msg("no column %s", name);
    return NULL;
}

/* The rows of a CSV results file; every row has the header's width. */
static void read_csv(const char *path, rows *out)
{
    char *text = read_file(path);
    memset(out, 0, sizeof *out);
    char *hbuf = malloc(strlen(text) + 1), *rbuf = malloc(strlen(text) + 1);
    char *names[32], *f[32], *save = NULL;
    int ncols = 0;
    for (char *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "puzzle,", 7)) {
            out->headers++;
            ncols = csv_split(line, hbuf, names, 32);
            continue;
        }
        ck_assert_msg(ncols > 0, "%s: a row before the header", path);
        int n = csv_split(line, rbuf, f, 32);
        ck_assert_msg(n == ncols, "%s: %d fields, not %d: %s", path, n, ncols,
                      line);
        ck_assert_int_lt(out->n, 64);
        row *r = &out->r[out->n++];
        snprintf(r->file, sizeof r->file, "%s", field(f, names, n, "file"));
        r->index = atol(field(f, names, n, "index"));
        snprintf(r->instance, sizeof r->instance, "%s",
                 field(f, names, n, "instance"));
        snprintf(r->backend, sizeof r->backend, "%s",
                 field(f, names, n, "backend"));
        snprintf(r->status, sizeof r->status, "%s",
                 field(f, names, n, "status"));
        snprintf(r->verified, sizeof r->verified, "%s",
                 field(f, names, n, "verified"));
        snprintf(r->error, sizeof r->error, "%s", field(f, names, n, "error"));
        r->worker = atoi(field(f, names, n, "worker"));
        snprintf(r->stopped_by, sizeof r->stopped_by, "%s",
                 field(f, names, n, "stopped_by"));
    }
    free(hbuf);
    free(rbuf);
    free(text);
}

static void run_batch(const char *const *files, int nfiles,
                      const ilpm_batch_opts *o, const char *out,
                      ilpm_batch_summary *sum)
{
    ilpm_err err = {0};
    int rc = ilpm_batch_run(queens, files, nfiles, params, o, out, sum, &err);
    ck_assert_msg(rc == 0, "batch: %d %s", rc, err.msg);
}

/* ------------------------------------------------------------------ */
/* ilpm_batch_run                                                       */

static int progress_calls;
static ilpm_batch_summary last_progress;

static void on_progress(void *ctx, const ilpm_batch_summary *s)
{
    (void)ctx;
    progress_calls++;
    last_progress = *s;
}

/* One row per instance and back end, in input order whatever the
 * number of workers, each verified when solved; the summary counts
 * them by status and back end. */
START_TEST(test_rows_in_order)
{
    char in[320], out[320];
    write_file(in_dir(in, "q.txt"), six);
    const char *files[1] = {in};
    for (int jobs = 1; jobs <= 2; jobs++) {
        ilpm_batch_opts o;
        ilpm_batch_opts_init(&o);
        o.backends = ILPM_BACKENDS_BOTH;
        o.jobs = jobs;
        o.progress = on_progress;
        progress_calls = 0;
        ilpm_batch_summary sum;
        run_batch(files, 1, &o, in_dir(out, "r.csv"), &sum);
        rows rs;
        read_csv(out, &rs);
        ck_assert_int_eq(rs.headers, 1);
        ck_assert_int_eq(rs.n, 12);
        for (int k = 0; k < 12; k++) {
            const row *r = &rs.r[k];
            ck_assert_str_eq(r->file, in);
            ck_assert_int_eq(r->index, k / 2 + 1);
            ck_assert_str_eq(r->backend, k % 2 ? "sat" : "ilp");
            ck_assert_str_eq(r->status, ilpm_status_name(six_status[k / 2]));
            ck_assert_str_eq(r->verified, six_status[k / 2] == ILPM_SOLVED
                                              ? "true"
                                              : "false");
            ck_assert_msg(r->worker >= 1 && r->worker <= jobs, "worker %d",
                          r->worker);
        }
        ck_assert_str_eq(rs.r[6].instance, "n=6 line 4 (1 placed)");
        ck_assert_int_eq(sum.total, 12);
        ck_assert_int_eq(sum.done, 12);
        ck_assert_int_eq(sum.skipped, 0);
        ck_assert_int_eq(sum.input_errors, 0);
        ck_assert_int_eq(sum.replaced, 0);
        ck_assert_int_eq(sum.by_status[ILPM_SOLVED], 6);
        ck_assert_int_eq(sum.by_status[ILPM_UNSAT], 6);
        ck_assert_int_eq(sum.by_status[ILPM_ERROR], 0);
        ck_assert_int_eq(sum.runs[ILPM_BACKEND_ILP], 6);
        ck_assert_int_eq(sum.runs[ILPM_BACKEND_SAT], 6);
        /* the last report is the final summary */
        ck_assert_int_ge(progress_calls, 1);
        ck_assert_int_eq(last_progress.done, 12);
    }
    /* JSON lines, one back end: the options' */
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    o.json = 1;
    o.jobs = 2;
    o.run.solver.backend = ILPM_BACKEND_ILP;
    ilpm_batch_summary sum;
    run_batch(files, 1, &o, in_dir(out, "r.jsonl"), &sum);
    char *text = read_file(out), *save = NULL;
    int n = 0;
    for (char *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save), n++) {
        ck_assert_msg(!strncmp(line, "{\"puzzle\":\"queens\",", 19), "%s",
                      line);
        char want[64];
        snprintf(want, sizeof want, "\"index\":%d,", n + 1);
        ck_assert_msg(strstr(line, want) != NULL, "%s", line);
        ck_assert_ptr_nonnull(strstr(line, "\"backend\":\"ilp\""));
    }
    free(text);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(sum.runs[ILPM_BACKEND_SAT], 0);
}
END_TEST

/* --resume runs only what the results file lacks (a row that says it
 * was stopped is not done) and appends it after the rows there. */
START_TEST(test_resume)
{
    char in[320], out[320];
    write_file(in_dir(in, "q.txt"), "4\n3\n5\n");
    const char *files[1] = {in};
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    o.backends = ILPM_BACKENDS_BOTH;
    o.resume = 1; /* no results file yet: everything */
    ilpm_batch_summary sum;
    run_batch(files, 1, &o, in_dir(out, "r.csv"), &sum);
    ck_assert_int_eq(sum.total, 6);
    ck_assert_int_eq(sum.skipped, 0);
    write_file(in, six);
    o.jobs = 2;
    run_batch(files, 1, &o, out, &sum);
    ck_assert_int_eq(sum.skipped, 6);
    ck_assert_int_eq(sum.total, 6);
    ck_assert_int_eq(sum.done, 6);
    rows rs;
    read_csv(out, &rs);
    ck_assert_int_eq(rs.headers, 1);
    ck_assert_int_eq(rs.n, 12);
    for (int k = 0; k < 12; k++) {
        ck_assert_int_eq(rs.r[k].index, k / 2 + 1);
        ck_assert_str_eq(rs.r[k].status, ilpm_status_name(six_status[k / 2]));
    }
    /* nothing left: nothing run, nothing added */
    run_batch(files, 1, &o, out, &sum);
    ck_assert_int_eq(sum.total, 0);
    ck_assert_int_eq(sum.skipped, 12);
    read_csv(out, &rs);
    ck_assert_int_eq(rs.n, 12);

    /* a stopped row is run again */
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_result_csv_header(&b);
    for (int i = 1; i <= 2; i++) {
        ilpm_result r;
        ilpm_result_init(&r);
        snprintf(r.puzzle, sizeof r.puzzle, "queens");
        snprintf(r.file, sizeof r.file, "%s", in);
        r.index = i;
        r.backend = ILPM_BACKEND_SAT;
        r.status = i == 1 ? ILPM_SOLVED : ILPM_STOPPED;
        ilpm_result_csv(&r, &b);
    }
    write_file(in_dir(out, "s.csv"), ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    ilpm_batch_opts_init(&o);
    o.resume = 1;
    o.run.solver.backend = ILPM_BACKEND_SAT;
    run_batch(files, 1, &o, out, &sum);
    ck_assert_int_eq(sum.skipped, 1);
    ck_assert_int_eq(sum.total, 5);
    read_csv(out, &rs);
    ck_assert_int_eq(rs.n, 7);
    ck_assert_str_eq(rs.r[1].status, "stopped");
    ck_assert_int_eq(rs.r[2].index, 2);
    ck_assert_str_eq(rs.r[2].status, "unsat");
}
END_TEST

/* A row of run i on SAT for the results files of the resume tests. */
static void stopped_row(ilpm_buf *b, const char *in, int i, ilpm_status st,
                        const char *error, const char *by, int json)
{
    ilpm_result r;
    ilpm_result_init(&r);
    snprintf(r.puzzle, sizeof r.puzzle, "queens");
    snprintf(r.file, sizeof r.file, "%s", in);
    r.index = i;
    r.backend = ILPM_BACKEND_SAT;
    r.status = st;
    r.worker = 1;
    snprintf(r.error, sizeof r.error, "%s", error);
    snprintf(r.stopped_by, sizeof r.stopped_by, "%s", by);
    if (json)
        ilpm_result_json(&r, b);
    else
        ilpm_result_csv(&r, b);
}

/* A run whose worker was killed from outside says so in stopped_by, and
 * --resume runs it again; a crash stays a result.  Rows of an older ilpm
 * that said it in the error text alone are read as before, in CSV (where
 * the rewrite gives them the column) and in JSON lines. */
START_TEST(test_resume_stopped_by)
{
    char in[320], out[320];
    write_file(in_dir(in, "q.txt"), six);
    const char *files[1] = {in};
    static const char *const kill9 =
        "worker 1 died: killed by signal 9 (out of memory?)";
    for (int form = 0; form < 3; form++) { /* CSV, old CSV, JSON lines */
        ilpm_buf b;
        ilpm_buf_init(&b);
        if (form < 2)
            ilpm_result_csv_header(&b);
        int old = form == 1;
        stopped_row(&b, in, 1, ILPM_ERROR, kill9, old ? "" : "SIGKILL",
                    form == 2);
        stopped_row(&b, in, 2, ILPM_ERROR, "worker 1 died: killed by signal 11",
                    "", form == 2);
        stopped_row(&b, in, 3, ILPM_ERROR, "worker 1 died: stopped by SIGTERM",
                    old ? "" : "SIGTERM", form == 2);
        /* the column alone counts in a current CSV file */
        stopped_row(&b, in, 4, ILPM_ERROR, form == 0 ? kill9 : "", "",
                    form == 2);
        if (old) { /* the header and rows without the last column */
            char *t = ilpm_buf_take(&b);
            ilpm_buf_init(&b);
            for (char *line = strtok(t, "\n"); line;
                 line = strtok(NULL, "\n")) {
                *strrchr(line, ',') = '\0';
                ilpm_buf_printf(&b, "%s\n", line);
            }
            free(t);
        }
        in_dir(out, form == 2 ? "k.jsonl" : "k.csv");
        write_file(out, ilpm_buf_str(&b));
        ilpm_buf_free(&b);
        ilpm_batch_opts o;
        ilpm_batch_opts_init(&o);
        o.resume = 1;
        o.json = form == 2;
        o.run.solver.backend = ILPM_BACKEND_SAT;
        ilpm_batch_summary sum;
        run_batch(files, 1, &o, out, &sum);
        /* 1 and 3 again, 5 and 6; 2 and 4 kept */
        ck_assert_msg(sum.skipped == 2, "form %d: %ld skipped", form,
                      sum.skipped);
        ck_assert_int_eq(sum.total, 4);
        if (form == 2)
            continue;
        rows rs;
        read_csv(out, &rs);
        ck_assert_int_eq(rs.headers, 1);
        ck_assert_int_eq(rs.n, 8);
        ck_assert_str_eq(rs.r[0].stopped_by, "SIGKILL");
        ck_assert_str_eq(rs.r[1].stopped_by, "");
        ck_assert_str_eq(rs.r[2].stopped_by, "SIGTERM");
        ck_assert_str_eq(rs.r[3].stopped_by, "");
        ck_assert_int_eq(rs.r[4].index, 1);
        ck_assert_str_eq(rs.r[4].status, "solved");
    }
}
END_TEST

/* Shard i of n keeps instances i, i + n, ...: the shards are disjoint
 * and together the whole; bad numbers are refused. */
START_TEST(test_shards)
{
    char in[320], out[320];
    write_file(in_dir(in, "q.txt"), six);
    const char *files[1] = {in};
    int seen[7] = {0};
    for (long i = 0; i < 3; i++) {
        ilpm_batch_opts o;
        ilpm_batch_opts_init(&o);
        o.shard_i = i;
        o.shard_n = 3;
        ilpm_batch_summary sum;
        char name[32];
        snprintf(name, sizeof name, "s%ld.csv", i);
        run_batch(files, 1, &o, in_dir(out, name), &sum);
        ck_assert_int_eq(sum.total, 2);
        rows rs;
        read_csv(out, &rs);
        ck_assert_int_eq(rs.n, 2);
        for (int k = 0; k < 2; k++) {
            long index = rs.r[k].index;
            ck_assert_int_eq((index - 1) % 3, i);
            ck_assert_str_eq(rs.r[k].status,
                             ilpm_status_name(six_status[index - 1]));
            seen[index]++;
        }
    }
    for (int i = 1; i <= 6; i++)
        ck_assert_int_eq(seen[i], 1);

    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    o.shard_i = 3;
    o.shard_n = 3;
    ilpm_batch_summary sum;
    ilpm_err err;
    ck_assert_int_eq(ilpm_batch_run(queens, files, 1, params, &o,
                                    in_dir(out, "x.csv"), &sum, &err),
                     -1);
    ck_assert_str_eq(err.msg, "bad jobs or shard numbers");
    ilpm_batch_opts_init(&o);
    o.jobs = 0;
    ck_assert_int_eq(
        ilpm_batch_run(queens, files, 1, params, &o, out, &sum, &err), -1);
    /* --index: the index-th instance of each file */
    ilpm_batch_opts_init(&o);
    o.index = 4;
    run_batch(files, 1, &o, out, &sum);
    rows rs;
    read_csv(out, &rs);
    ck_assert_int_eq(rs.n, 1);
    ck_assert_int_eq(rs.r[0].index, 4);
}
END_TEST

/* An input that cannot be read, has no instance or holds a malformed
 * one is an error row at its place; the batch goes on with the rest and
 * the summary counts the input errors. */
START_TEST(test_input_errors)
{
    char mixed[320], empty[320], missing[320], out[320];
    char *bad = read_file("data/bad/queens_not_a_number.txt");
    char *none = read_file("data/bad/queens_empty.txt");
    char text[256];
    snprintf(text, sizeof text, "4\n%s5\n", bad);
    write_file(in_dir(mixed, "mixed.txt"), text);
    write_file(in_dir(empty, "queens_empty.txt"), none);
    free(bad);
    free(none);
    in_dir(missing, "missing.txt");
    const char *files[3] = {mixed, missing, empty};
    for (int jobs = 1; jobs <= 2; jobs++) {
        ilpm_batch_opts o;
        ilpm_batch_opts_init(&o);
        o.jobs = jobs;
        ilpm_batch_summary sum;
        run_batch(files, 3, &o, in_dir(out, "r.csv"), &sum);
        ck_assert_int_eq(sum.total, 5);
        ck_assert_int_eq(sum.done, 5);
        ck_assert_int_eq(sum.input_errors, 3);
        ck_assert_int_eq(sum.by_status[ILPM_ERROR], 3);
        ck_assert_int_eq(sum.by_status[ILPM_SOLVED], 2);
        rows rs;
        read_csv(out, &rs);
        ck_assert_int_eq(rs.n, 5);
        static const char *const status[5] = {"solved", "error", "solved",
                                              "error", "error"};
        static const long index[5] = {1, 2, 3, 1, 1};
        for (int k = 0; k < 5; k++) {
            ck_assert_str_eq(rs.r[k].status, status[k]);
            ck_assert_int_eq(rs.r[k].index, index[k]);
            ck_assert_str_eq(rs.r[k].file, files[k < 3 ? 0 : k - 2]);
        }
        char want[400];
        snprintf(want, sizeof want, "%s:3:3: expected a number, got 'x'",
                 mixed);
        ck_assert_str_eq(rs.r[1].error, want);
        ck_assert_str_eq(rs.r[1].instance, "#2");
        ck_assert_msg(strstr(rs.r[3].error, "missing.txt") != NULL, "%s",
                      rs.r[3].error);
        snprintf(want, sizeof want, "%s: no instance in the file", empty);
        ck_assert_str_eq(rs.r[4].error, want);
    }
}
END_TEST

/* Runs of one shape in a worker reuse its model: the count reaches the
 * summary (it stayed 0 when only the workers knew it). */
START_TEST(test_summary_reused)
{
    char in[320], out[320];
    write_file(in_dir(in, "q.txt"), "6\n1 2\n6\n1 3\n6\n2 4\n6\n1 5\n6\n1 4\n");
    const char *files[1] = {in};
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    ilpm_batch_summary sum;
    run_batch(files, 1, &o, in_dir(out, "r.csv"), &sum);
    ck_assert_int_eq(sum.done, 5);
    ck_assert_int_eq(sum.reused, 4);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ilpm_batch_merge                                                     */

/* Shards merged in any order give the rows of one run, in its order,
 * under one header. */
START_TEST(test_merge_shards)
{
    char in[320], out[320], s[3][320];
    write_file(in_dir(in, "q.txt"), six);
    const char *files[1] = {in};
    for (long i = 0; i < 3; i++) {
        ilpm_batch_opts o;
        ilpm_batch_opts_init(&o);
        o.backends = ILPM_BACKENDS_BOTH;
        o.shard_i = i;
        o.shard_n = 3;
        ilpm_batch_summary sum;
        char name[32];
        snprintf(name, sizeof name, "s%ld.csv", i);
        run_batch(files, 1, &o, in_dir(s[i], name), &sum);
    }
    const char *inputs[3] = {s[2], s[0], s[1]};
    ilpm_err err;
    ck_assert_msg(ilpm_batch_merge(inputs, 3, in_dir(out, "m.csv"), &err) == 0,
                  "%s", err.msg);
    rows rs;
    read_csv(out, &rs);
    ck_assert_int_eq(rs.headers, 1);
    ck_assert_int_eq(rs.n, 12);
    for (int k = 0; k < 12; k++) {
        ck_assert_int_eq(rs.r[k].index, k / 2 + 1);
        ck_assert_str_eq(rs.r[k].backend, k % 2 ? "sat" : "ilp");
        ck_assert_str_eq(rs.r[k].status, ilpm_status_name(six_status[k / 2]));
    }
}
END_TEST

/* Results rows for file f: index and status for each, CSV or JSON. */
static void write_results(const char *path, int json, const char *f,
                          const long *index, const ilpm_status *st, int n)
{
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (!json)
        ilpm_result_csv_header(&b);
    for (int i = 0; i < n; i++) {
        ilpm_result r;
        ilpm_result_init(&r);
        snprintf(r.puzzle, sizeof r.puzzle, "queens");
        snprintf(r.instance, sizeof r.instance, "#%ld", index[i]);
        snprintf(r.file, sizeof r.file, "%s", f);
        r.index = index[i];
        r.backend = ILPM_BACKEND_SAT;
        r.status = st[i];
        if (json)
            ilpm_result_json(&r, &b);
        else
            ilpm_result_csv(&r, &b);
    }
    write_file(path, ilpm_buf_str(&b));
    ilpm_buf_free(&b);
}

/* Rows are sorted by file (in the order first met), then index; of rows
 * with the same key the one read last wins.  CSV and JSON alike. */
START_TEST(test_merge_replaces)
{
    for (int json = 0; json < 2; json++) {
        char a[320], b[320], c[320], out[320];
        static const long ia[3] = {3, 1, 2}, ib[2] = {1, 1}, ic[1] = {1};
        static const ilpm_status sa[3] = {ILPM_SOLVED, ILPM_SOLVED,
                                          ILPM_SOLVED};
        static const ilpm_status sb[2] = {ILPM_UNSAT, ILPM_TIMEOUT};
        write_results(in_dir(a, "a"), json, "f.txt", ia, sa, 3);
        write_results(in_dir(b, "b"), json, "f.txt", ib, sb, 2);
        write_results(in_dir(c, "c"), json, "e.txt", ic, sa, 1);
        const char *inputs[3] = {a, b, c};
        ilpm_err err;
        ck_assert_msg(ilpm_batch_merge(inputs, 3, in_dir(out, "m"), &err) == 0,
                      "%s", err.msg);
        char *text = read_file(out);
        const char *want =
            json ? "{\"puzzle\":\"queens\",\"instance\":\"#1\",\"file\":"
                   "\"f.txt\",\"index\":1,\"backend\":\"sat\",\"status\":"
                   "\"timeout\""
                 : "puzzle,";
        ck_assert_msg(!strncmp(text, want, strlen(want)), "%s", text);
        free(text);
        if (json)
            continue;
        rows rs;
        read_csv(out, &rs);
        ck_assert_int_eq(rs.headers, 1);
        ck_assert_int_eq(rs.n, 4);
        static const char *const file[4] = {"f.txt", "f.txt", "f.txt", "e.txt"};
        static const long index[4] = {1, 2, 3, 1};
        static const char *const status[4] = {"timeout", "solved", "solved",
                                              "solved"};
        for (int k = 0; k < 4; k++) {
            ck_assert_str_eq(rs.r[k].file, file[k]);
            ck_assert_int_eq(rs.r[k].index, index[k]);
            ck_assert_str_eq(rs.r[k].status, status[k]);
        }
    }
}
END_TEST

/* The rows of test_merge_converts, as the writers of one format write
 * them: texts that need quoting and escapes, a count, sizes and their
 * absence, a solution that is a JSON string, an error row. */
static void write_mixed(const char *path, int json)
{
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (!json)
        ilpm_result_csv_header(&b);
    for (int i = 0; i < 3; i++) {
        ilpm_result r;
        ilpm_result_init(&r);
        snprintf(r.puzzle, sizeof r.puzzle, "sudoku");
        snprintf(r.instance, sizeof r.instance, "a \"q\", \033[31m\xc3\xa9\t%d",
                 i);
        snprintf(r.file, sizeof r.file, "f,%d.txt", i);
        r.index = i + 1;
        snprintf(r.formulation, sizeof r.formulation, "%s", i ? "exact" : "");
        r.backend = i == 1 ? ILPM_BACKEND_SAT : ILPM_BACKEND_ILP;
        r.status = i == 2 ? ILPM_ERROR : ILPM_SOLVED;
        r.verified = i == 0;
        r.has_count = i == 1;
        r.count = 7;
        r.build_ms = 0.125 * i;
        r.solve_ms = 1.5;
        r.have_stats = i < 2;
        r.stats.vars = 81;
        r.stats.clauses = 12;
        r.worker = i;
        r.json = i < 2 ? strdup("\"12\\\"3,4\"") : NULL;
        if (i == 2)
            snprintf(r.error, sizeof r.error, "f,2.txt:1:1: bad 'x'");
        if (json)
            ilpm_result_json(&r, &b);
        else
            ilpm_result_csv(&r, &b);
        ilpm_result_free(&r);
    }
    write_file(path, ilpm_buf_str(&b));
    ilpm_buf_free(&b);
}

/* merge writes the format its --out names: rows of the other format are
 * converted to what that format's writer would have written. */
START_TEST(test_merge_converts)
{
    char c[320], j[320], out[320];
    write_mixed(in_dir(c, "r.csv"), 0);
    write_mixed(in_dir(j, "r.jsonl"), 1);
    ilpm_err err;
    for (int to_json = 0; to_json < 2; to_json++) {
        const char *in[1] = {to_json ? c : j};
        in_dir(out, to_json ? "m.jsonl" : "m.csv");
        ck_assert_msg(ilpm_batch_merge(in, 1, out, &err) == 0, "%s", err.msg);
        char *got = read_file(out), *want = read_file(to_json ? j : c);
        ck_assert_str_eq(got, want);
        free(got);
        free(want);
    }
    /* Mixed inputs go into the format the name asks for; a name that
     * does not say is refused. */
    const char *both[2] = {c, j};
    ck_assert_msg(ilpm_batch_merge(both, 2, in_dir(out, "b.csv"), &err) == 0,
                  "%s", err.msg);
    char *got = read_file(out), *want = read_file(c);
    ck_assert_str_eq(got, want);
    free(got);
    free(want);
    ck_assert_int_eq(ilpm_batch_merge(both, 2, in_dir(out, "b"), &err), -1);
    ck_assert_msg(strstr(err.msg, "name the output .csv or .jsonl") != NULL,
                  "%s", err.msg);
}
END_TEST

/* Inputs that cannot be merged, and an output that cannot be written. */
/* The keys of results rows have no width of their own: a back end named
 * in 8 or more characters, a formulation of more than 31 are found again
 * by --resume and kept apart by merge, CSV and JSON alike; a key that
 * would not fit a row's columns is refused before any run. */
START_TEST(test_long_keys)
{
    static const char *const form = "a-formulation-with-a-name-of-forty-chars";
    for (int json = 0; json < 2; json++) {
        char path[320], out[320], text[1024];
        if (json)
            snprintf(text, sizeof text,
                     "{\"file\":\"q.txt\",\"index\":1,\"formulation\":\"%s\","
                     "\"backend\":\"portfolio-a\",\"status\":\"solved\"}\n"
                     "{\"file\":\"q.txt\",\"index\":1,\"formulation\":\"%s\","
                     "\"backend\":\"portfolio-b\",\"status\":\"unsat\"}\n",
                     form, form);
        else
            snprintf(text, sizeof text,
                     "file,index,formulation,backend,status\n"
                     "q.txt,1,%s,portfolio-a,solved\n"
                     "q.txt,1,%s,portfolio-b,unsat\n",
                     form, form);
        write_file(in_dir(path, json ? "long.jsonl" : "long.csv"), text);
        struct keyset ks = {0};
        struct doneset d = {0};
        ilpm_err err = {0};
        ck_assert_msg(ilpm_results_read(path, &ks, 0, 1, &err) == 0, "%s",
                      err.msg);
        ck_assert_int_eq(ilpm_results_doneset_build(&d, &ks), 0);
        const rowkey *a =
            ilpm_results_doneset_has(&d, "q.txt", 1, form, "portfolio-a");
        const rowkey *b =
            ilpm_results_doneset_has(&d, "q.txt", 1, form, "portfolio-b");
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        ck_assert_int_eq(a->status, ILPM_SOLVED);
        ck_assert_int_eq(b->status, ILPM_UNSAT);
        ck_assert_ptr_null(
            ilpm_results_doneset_has(&d, "q.txt", 1, form, "portfolio"));
        free(d.slot);
        ilpm_results_keyset_free(&ks);
        /* merge keeps both rows: their keys differ. */
        const char *inputs[1] = {path};
        ck_assert_msg(ilpm_batch_merge(inputs, 1,
                                       in_dir(out, json ? "m.jsonl" : "m.csv"),
                                       &err) == 0,
                      "%s", err.msg);
        char *merged = read_file(out);
        ck_assert_msg(strstr(merged, "portfolio-a") &&
                          strstr(merged, "portfolio-b"),
                      "%s", merged);
        free(merged);
    }
    /* A FILE name longer than the row's file column: refused, no row. */
    char name[700], out[320];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    const char *files[1] = {name};
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    ilpm_batch_summary sum;
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_batch_run(queens, files, 1, params, &o,
                                    in_dir(out, "r.csv"), &sum, &err),
                     -1);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    ck_assert_msg(strstr(err.msg, "does not fit the results' file column"),
                  "%s", err.msg);
}
END_TEST

START_TEST(test_merge_errors)
{
    char a[320], j[320], h[320], out[320];
    static const long i1[1] = {1};
    static const ilpm_status s1[1] = {ILPM_SOLVED};
    write_results(in_dir(a, "a.csv"), 0, "f.txt", i1, s1, 1);
    write_results(in_dir(j, "j.jsonl"), 1, "f.txt", i1, s1, 1);
    write_file(in_dir(h, "h.csv"), "name,value\nx,1\n");
    ilpm_err err;
    const char *mixed[2] = {a, j};
    ck_assert_int_eq(ilpm_batch_merge(mixed, 2, in_dir(out, "m"), &err), -1);
    ck_assert_msg(strstr(err.msg, "hold CSV and JSON lines") != NULL, "%s",
                  err.msg);
    const char *foreign[1] = {h};
    ck_assert_int_eq(ilpm_batch_merge(foreign, 1, out, &err), -1);
    ck_assert_msg(strstr(err.msg, "not an ilpm results file") != NULL, "%s",
                  err.msg);
    char missing[320];
    const char *gone[1] = {in_dir(missing, "gone.csv")};
    ck_assert_int_eq(ilpm_batch_merge(gone, 1, out, &err), -1);
    const char *ok[1] = {a};
    ck_assert_int_eq(err.rc, ILPM_E_INPUT); /* the input's */
    ck_assert_int_eq(
        ilpm_batch_merge(ok, 1, in_dir(out, "no/such/dir/m.csv"), &err), -1);
    ck_assert_int_eq(err.rc, ILPM_E_IO); /* the output's */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("ilpm_batch_run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rows_in_order);
    tcase_add_test(tc, test_resume);
    tcase_add_test(tc, test_resume_stopped_by);
    tcase_add_test(tc, test_shards);
    tcase_add_test(tc, test_input_errors);
    tcase_add_test(tc, test_summary_reused);
    suite_add_tcase(s, tc);

    tc = tcase_create("ilpm_batch_merge");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_merge_shards);
    tcase_add_test(tc, test_merge_replaces);
    tcase_add_test(tc, test_merge_converts);
    tcase_add_test(tc, test_merge_errors);
    tcase_add_test(tc, test_long_keys);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
