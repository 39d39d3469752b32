/* check_formats.c: the table of model files' formats (src/run/format.h,
 * models/model/formats.c), walked row by row so that a new row is tested
 * without a word added here: every row is whole and its name unique;
 * every row with a reader reads the smallest file of its extension in
 * data/; every writer's file, read back through its own row's reader,
 * has the model's count of solutions (and optimum, where the format
 * carries an objective); the messages for a name no row claims list the
 * table's names and extensions. */
#include "model/mdl.h"
#include "puzzles.h"
#include "run.h"

#define ILPM_TESTUTIL_RANDOM
#include "testutil.h"
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "%s/ilpm-formats-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_rows_whole)
{
    int n = 0;
    for (; ilpm_file_formats[n]; n++) {
        const ilpm_file_format *f = ilpm_file_formats[n];
        ck_assert_ptr_nonnull(f->name);
        ck_assert_str_eq(ilpm_file_format_names[n], f->name);
        ck_assert_msg(f->exts && f->exts[0], "%s: no extension", f->name);
        ck_assert_msg(f->help && *f->help, "%s: no help", f->name);
        ck_assert_msg(f->reader || f->write, "%s: neither read nor written",
                      f->name);
        ck_assert_ptr_eq(ilpm_format_find(f->name), f);
        for (int i = 0; i < n; i++)
            ck_assert_str_ne(ilpm_file_formats[i]->name, f->name);
        char path[64];
        snprintf(path, sizeof path, "dir/x.%s", f->exts[0]);
        int gz, xz;
        ck_assert_ptr_eq(ilpm_format_of_path(path, &gz, &xz), f);
        ck_assert(!gz && !xz);
        snprintf(path, sizeof path, "X.%s.gz", f->exts[0]);
        ck_assert_ptr_eq(ilpm_format_of_path(path, &gz, &xz), f);
        ck_assert(gz && !xz);
    }
    ck_assert_ptr_null(ilpm_file_format_names[n]);
    ck_assert_int_le(n, ILPM_MAX_FORMATS);
    ck_assert_ptr_null(ilpm_format_find("nosuch"));
}
END_TEST

/* The smallest file of f's extension under data/models and data/fzn,
 * into path; 0 when there is none. */
static int sample_of(const ilpm_file_format *f, char *path, size_t size)
{
    static const char *const dirs[] = {"data/models", "data/fzn", NULL};
    off_t best = -1;
    for (int d = 0; dirs[d]; d++) {
        DIR *h = opendir(dirs[d]);
        ck_assert_ptr_nonnull(h);
        struct dirent *e;
        while ((e = readdir(h)) != NULL) {
            char p[512];
            struct stat st;
            int gz, xz;
            snprintf(p, sizeof p, "%s/%s", dirs[d], e->d_name);
            if (ilpm_format_of_path(p, &gz, &xz) != f || gz || xz ||
                stat(p, &st) != 0 || (best >= 0 && st.st_size >= best))
                continue;
            best = st.st_size;
            snprintf(path, size, "%s", p);
        }
        closedir(h);
    }
    return best >= 0;
}

/* The file as the `model` puzzle reads it, --input-format fmt (NULL:
 * by its name). */
static void *parse_file(const char *path, const char *fmt, ilpm_params *p)
{
    ilpm_err err = {0};
    if (fmt)
        ck_assert_int_eq(ilpm_params_set(p, "input-format", fmt), 0);
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    void *inst = NULL;
    int r = ilpm_puzzle_model.parse(rd, p, &inst, &err);
    ck_assert_msg(r == 1, "%s: %s", path, err.msg);
    ilpm_reader_free(rd);
    return inst;
}

START_TEST(test_readers_read_data)
{
    for (int i = 0; ilpm_file_formats[i]; i++) {
        const ilpm_file_format *f = ilpm_file_formats[i];
        if (!f->reader)
            continue;
        char path[512];
        ck_assert_msg(sample_of(f, path, sizeof path),
                      "no file of format %s in data/", f->name);
        /* by its name, and by --input-format */
        for (int named = 0; named < 2; named++) {
            ilpm_params *p = ilpm_params_new();
            void *inst = parse_file(path, named ? f->name : NULL, p);
            const mdl *d = ilpm_mdl_inst_rows(inst);
            ck_assert_ptr_eq(d->fmt, f);
            ck_assert_msg(d->ncols > 0, "%s: no columns", path);
            ilpm_puzzle_model.free_instance(inst);
            ilpm_params_free(p);
        }
    }
}
END_TEST

/* ilpm_model_read, the library's way in: every readable format's sample
 * by its extension and by its name gives the model the `model` puzzle
 * builds of it (binary integers: --int-encoding binary), and a name or
 * an extension the table lacks is refused with the table's names. */
START_TEST(test_model_read_public)
{
    for (int i = 0; ilpm_file_formats[i]; i++) {
        const ilpm_file_format *f = ilpm_file_formats[i];
        if (!f->reader)
            continue;
        char path[512];
        ck_assert(sample_of(f, path, sizeof path));
        ilpm_params *p = ilpm_params_new();
        ck_assert_int_eq(ilpm_params_set(p, "int-encoding", "binary"), 0);
        void *inst = parse_file(path, NULL, p);
        ilpm_model *want = ilpm_model_new();
        ilpm_err err = {0};
        ck_assert_int_eq(ilpm_puzzle_model.build(inst, p, want, &err), 0);
        for (int named = 0; named < 2; named++) {
            ilpm_model *m = NULL;
            ck_assert_msg(
                ilpm_model_read(path, named ? f->name : NULL, &m, &err) == 0,
                "%s: %s", path, err.msg);
            ck_assert_int_eq(ilpm_model_nvars(m), ilpm_model_nvars(want));
            ck_assert_uint_eq(ilpm_model_ncons(m), ilpm_model_ncons(want));
            ilpm_model_free(m);
        }
        ilpm_model_free(want);
        ilpm_puzzle_model.free_instance(inst);
        ilpm_params_free(p);
    }
    ilpm_model *m = (ilpm_model *)1;
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_model_read("data/models/x.lp", "nosuch", &m, &err),
                     -1);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "lp, mps"));
    ck_assert_int_eq(ilpm_model_read("README.md", NULL, &m, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "README.md"));
    ck_assert_int_eq(ilpm_model_read("data/no/such.lp", NULL, &m, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "data/no/such.lp"));
}
END_TEST

/* The count of solutions and the optimum (when m has an objective and
 * the count is not 0) of m on back end b. */
static uint64_t model_count(const ilpm_model *m, ilpm_backend b, int64_t *best)
{
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = b;
    ilpm_err err = {0};
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    uint64_t n = 0;
    ck_assert_int_eq(ilpm_solver_count(s, 0, &n, NULL, NULL, &err),
                     ILPM_SOLVED);
    ilpm_solver_free(s);
    if (n && ilpm_model_objective_get(m, NULL, NULL, NULL) != ILPM_NONE) {
        s = ilpm_solver_new(m, &o, &err);
        ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
        *best = ilpm_solver_objective(s);
        ilpm_solver_free(s);
    }
    return n;
}

static void file_result(const void *inst, const ilpm_params *p, int count,
                        ilpm_result *r)
{
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.backend = ILPM_BACKEND_SAT;
    o.count = count;
    ilpm_result_init(r);
    ck_assert_int_eq(ilpm_run_instance(&ilpm_puzzle_model, inst, p, &o, r), 0);
    ck_assert_msg(r->status != ILPM_ERROR, "%s", r->error);
}

START_TEST(test_writers_read_back)
{
    rng_state = 777;
    int optima = 0, counts = 0;
    for (int k = 0; k < 12; k++) {
        ilpm_model *m = random_model(6, 0, k % 2);
        int64_t best = 0;
        uint64_t want = model_count(m, ILPM_BACKEND_SAT, &best);
        for (int i = 0; ilpm_file_formats[i]; i++) {
            const ilpm_file_format *f = ilpm_file_formats[i];
            if (!f->write)
                continue;
            char path[300];
            snprintf(path, sizeof path, "%s/m%d.%s", dir, k, f->exts[0]);
            ilpm_err err = {0};
            ck_assert_msg(f->write(m, NULL, path, &err) == 0, "%s: %s", path,
                          err.msg);
            if (!f->reader)
                continue;
            ilpm_params *p = ilpm_params_new();
            void *inst = parse_file(path, NULL, p);
            ilpm_result r;
            file_result(inst, p, 1, &r);
            ck_assert_msg(r.has_count && r.count == want,
                          "%s: count %llu, the model's %llu", path,
                          (unsigned long long)r.count,
                          (unsigned long long)want);
            ilpm_result_free(&r);
            counts += want > 0;
            if (want && (f->carries & ILPM_CARRIES_OBJECTIVE) && k % 2) {
                optima++;
                file_result(inst, p, 0, &r);
                ck_assert_int_eq(r.status, ILPM_OPTIMAL);
                ck_assert(r.verified);
                ck_assert_msg(r.objective == best, "%s: optimum %lld, not %lld",
                              path, (long long)r.objective, (long long)best);
                ilpm_result_free(&r);
            }
            ilpm_puzzle_model.free_instance(inst);
            ilpm_params_free(p);
        }
        ilpm_model_free(m);
    }
    /* some models have solutions, some of them an optimum */
    ck_assert_int_gt(counts, 4);
    ck_assert_int_gt(optima, 2);
}
END_TEST

/* name's parse fails; its message, in err. */
static void refused(const char *name, const char *text, ilpm_err *err)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_reader *rd = ilpm_reader_mem(name, text, strlen(text));
    void *inst = NULL;
    ck_assert_int_eq(ilpm_puzzle_model.parse(rd, p, &inst, err), -1);
    ck_assert_int_eq(err->rc, ILPM_E_INPUT);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}

START_TEST(test_unknown_name_lists_table)
{
    ilpm_err err = {0};
    refused("model.txt", "x\n", &err);
    ck_assert_msg(strstr(err.msg, "model.txt: cannot tell the format") != NULL,
                  "%s", err.msg);
    for (int i = 0; ilpm_file_formats[i]; i++) {
        const ilpm_file_format *f = ilpm_file_formats[i];
        char ext[32];
        snprintf(ext, sizeof ext, ".%s", f->exts[0]);
        ck_assert_msg(!f->reader == !strstr(err.msg, ext), "%s: %s", ext,
                      err.msg);
        ck_assert_msg(!f->reader == !strstr(err.msg, f->name), "%s: %s",
                      f->name, err.msg);
    }
    /* a MathProg model or data file: the gmpl verb named */
    refused("queens.mod", "var x binary;\n", &err);
    ck_assert_msg(strstr(err.msg, "queens.mod: a GNU MathProg file: solve it "
                                  "with 'ilpm solve gmpl") != NULL,
                  "%s", err.msg);
    refused("queens.dat", "data;\n", &err);
    ck_assert_msg(strstr(err.msg, "'ilpm solve gmpl") != NULL, "%s", err.msg);
    /* FILE.gz of a format whose reader reads no gzip: the ones that do */
    for (int i = 0; ilpm_file_formats[i]; i++) {
        const ilpm_file_format *f = ilpm_file_formats[i];
        if (!f->reader || (f->carries & ILPM_CARRIES_GZIP))
            continue;
        char name[64];
        snprintf(name, sizeof name, "m.%s.gz", f->exts[0]);
        refused(name, "x\n", &err);
        ck_assert_msg(strstr(err.msg, "gzip is read for") != NULL, "%s",
                      err.msg);
        for (int j = 0; ilpm_file_formats[j]; j++) {
            const ilpm_file_format *g = ilpm_file_formats[j];
            if (g->reader && (g->carries & ILPM_CARRIES_GZIP))
                ck_assert_msg(strstr(err.msg, g->name) != NULL, "%s", err.msg);
        }
    }
    /* the lists, against the rows */
    char buf[256], want[256] = "", exts[256] = "";
    for (int i = 0; ilpm_file_formats[i]; i++) {
        const ilpm_file_format *f = ilpm_file_formats[i];
        if (f->write)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s--%s",
                     *want ? "|" : "", f->name);
        for (const char *const *e = f->exts; f->reader && *e; e++)
            snprintf(exts + strlen(exts), sizeof exts - strlen(exts), "%s.%s",
                     *exts ? " " : "", *e);
    }
    ilpm_format_names(ILPM_FORMATS_WRITE, 0, "--", "|", buf, sizeof buf);
    ck_assert_str_eq(buf, want);
    ck_assert_ptr_nonnull(strstr(buf, "--lp|--mps"));
    ilpm_format_names(ILPM_FORMATS_READ, 1, ".", " ", buf, sizeof buf);
    ck_assert_str_eq(buf, exts);
    /* truncated as snprintf: the length it would have */
    size_t n = ilpm_format_names(ILPM_FORMATS_WRITE, 0, "--", "|", buf, 4);
    ck_assert_uint_eq(n, strlen(want));
    ck_assert_str_eq(buf, "--l");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("formats");
    TCase *tc = tcase_create("formats");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_rows_whole);
    tcase_add_test(tc, test_readers_read_data);
    tcase_add_test(tc, test_writers_read_back);
    tcase_add_test(tc, test_model_read_public);
    tcase_add_test(tc, test_unknown_name_lists_table);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
