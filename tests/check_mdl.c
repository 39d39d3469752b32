/* check_mdl.c: the `model` and `gmpl` puzzles (models/model/): the OPB,
 * DIMACS, LP and MPS readers on small inputs, what each row becomes,
 * the lowering of rows and bounded integer columns (binary and unary)
 * with counts and optima against brute force over the rows as read,
 * MathProg through GLPK's translator, and every malformed file of
 * data/bad/ failing with its file:line:column message. */
#include "model/mdl.h"
#include "puzzles.h"
#include "run.h"

#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "%s/ilpm-mdl-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes text to dir/name; the path in buf. */
static const char *write_tmp(char *buf, size_t size, const char *name,
                             const char *text)
{
    snprintf(buf, size, "%s/%s", dir, name);
    FILE *f = fopen(buf, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return buf;
}

/* Every assignment of the columns within their bounds (all small) that
 * satisfies the rows as read: how many, and the best objective. */
static long brute_rows(const mdl *d, int64_t *best)
{
    int64_t x[16];
    long count = 0;
    ck_assert_int_le(d->ncols, 16);
    for (int j = 0; j < d->ncols; j++)
        x[j] = d->lo[j];
    for (;;) {
        int ok = 1;
        for (int r = 0; r < d->nrows && ok; r++) {
            const mdl_row *w = &d->rows[r];
            int64_t s = 0;
            for (int t = 0; t < w->n; t++)
                s += d->coef[w->start + (size_t)t] *
                     x[d->col[w->start + (size_t)t]];
            ok = w->cmp == ILPM_LE   ? s <= w->rhs
                 : w->cmp == ILPM_GE ? s >= w->rhs
                                     : s == w->rhs;
        }
        if (ok) {
            int64_t o = d->obj_const;
            for (int j = 0; d->sense != ILPM_NONE && j < d->ncols; j++)
                o += d->obj[j] * x[j];
            if (!count || (d->sense == ILPM_MAXIMIZE ? o > *best : o < *best))
                *best = o;
            count++;
        }
        int j = 0;
        while (j < d->ncols && x[j] == d->hi[j])
            x[j] = d->lo[j], j++;
        if (j == d->ncols)
            return count;
        x[j]++;
    }
}

/* Parses one instance of the puzzle from text (name stands for the file)
 * or, when text is NULL, from the file name. */
static void *parse(const ilpm_puzzle *pz, const ilpm_params *p,
                   const char *name, const char *text)
{
    ilpm_err err = {0};
    ilpm_reader *rd = text ? ilpm_reader_mem(name, text, strlen(text))
                           : ilpm_reader_open(name, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    void *inst = NULL;
    int r = pz->parse(rd, p, &inst, &err);
    ck_assert_msg(r == 1, "%s: %s", name, err.msg);
    ilpm_reader_free(rd);
    return inst;
}

/* Counts (count) or optimises the instance on back end b: the result,
 * each solution checked by the puzzle's verifier. */
static void run(const ilpm_puzzle *pz, const void *inst, const ilpm_params *p,
                ilpm_backend b, int count, ilpm_result *r)
{
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.backend = b;
    o.count = count;
    ilpm_result_init(r);
    ck_assert_int_eq(ilpm_run_instance(pz, inst, p, &o, r), 0);
    ck_assert_msg(r->status != ILPM_ERROR, "%s", r->error);
}

/* The rows of inst against brute force on every back end: the count,
 * and the optimum when there is an objective. */
static void agree(const ilpm_puzzle *pz, const void *inst, const ilpm_params *p,
                  const char *what)
{
    const mdl *d = ilpm_mdl_inst_rows(inst);
    int64_t best = 0;
    long want = brute_rows(d, &best);
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        ilpm_result r;
        run(pz, inst, p, (ilpm_backend)b, 1, &r);
        ck_assert_msg(r.has_count && r.count == (uint64_t)want,
                      "%s on %s: count %llu, want %ld", what,
                      ilpm_backend_name((ilpm_backend)b),
                      (unsigned long long)r.count, want);
        ck_assert(r.verified || want == 0);
        ilpm_result_free(&r);
        if (d->sense == ILPM_NONE || want == 0)
            continue;
        run(pz, inst, p, (ilpm_backend)b, 0, &r);
        ck_assert_int_eq(r.status, ILPM_OPTIMAL);
        ck_assert(r.verified);
        ck_assert_msg(r.objective == best, "%s on %s: optimum %lld, want %lld",
                      what, ilpm_backend_name((ilpm_backend)b),
                      (long long)r.objective, (long long)best);
        ilpm_result_free(&r);
    }
}

/* ------------------------------------------------------------------ */
/* OPB and DIMACS                                                       */

START_TEST(test_opb_rows)
{
    ilpm_err err = {0};
    static const char opb[] = "* #variable= 3 #constraint= 2\n"
                              "min: +1 x1 +2 x2 -1 x3 ;\n"
                              "+1 x1 +1 x2 >= 1 ;\n"
                              "* a comment\n"
                              "-2 x2 -1 x3 = -2 ;\n";
    mdl *d = ilpm_mdl_read(ilpm_format_find("opb"), NULL, "t.opb", opb,
                           strlen(opb), &err);
    ck_assert_msg(d != NULL, "%s", err.msg);
    ck_assert_int_eq(d->ncols, 3);
    ck_assert_int_eq(d->nrows, 2);
    ck_assert_int_eq(d->sense, ILPM_MINIMIZE);
    ck_assert(d->obj[0] == 1 && d->obj[1] == 2 && d->obj[2] == -1);
    ck_assert_int_eq(d->rows[0].cmp, ILPM_GE);
    ck_assert_int_eq(d->rows[0].rhs, 1);
    ck_assert_int_eq(d->rows[0].line, 3);
    ck_assert_int_eq(d->rows[1].cmp, ILPM_EQ);
    ck_assert_int_eq(d->rows[1].n, 2);
    ck_assert_int_eq(d->coef[d->rows[1].start], -2);
    ck_assert_int_eq(d->rows[1].line, 5);
    ilpm_mdl_free(d);

    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "input-format", "opb");
    void *inst = parse(&ilpm_puzzle_model, p, "t.opb", opb);
    agree(&ilpm_puzzle_model, inst, p, "opb");
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_cnf_rows)
{
    ilpm_err err = {0};
    static const char cnf[] = "c three clauses\n"
                              "p cnf 4 3\n"
                              "1 -2 0\n"
                              "2 3 -4 0 -1\n"
                              "-3 0\n";
    mdl *d = ilpm_mdl_read(ilpm_format_find("cnf"), NULL, "t.cnf", cnf,
                           strlen(cnf), &err);
    ck_assert_msg(d != NULL, "%s", err.msg);
    ck_assert_int_eq(d->ncols, 4);
    ck_assert_int_eq(d->nrows, 3);
    ck_assert_int_eq(d->sense, ILPM_NONE);
    ilpm_mdl_free(d);
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "input-format", "cnf");
    void *inst = parse(&ilpm_puzzle_model, p, "t.cnf", cnf);
    agree(&ilpm_puzzle_model, inst, p, "cnf");
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* Random OPB files (linear, >= and =, a min objective) and random CNF
 * files: read, lowered and solved, each against brute force. */
START_TEST(test_random_files)
{
    uint64_t seed = 5;
    ilpm_params *po = ilpm_params_new(), *pc = ilpm_params_new();
    ilpm_params_set(po, "input-format", "opb");
    ilpm_params_set(pc, "input-format", "cnf");
    for (int iter = 0; iter < 40; iter++) {
        int nv = 1 + (int)(test_rnd(&seed) % 6);
        int nc = 1 + (int)(test_rnd(&seed) % 4);
        ilpm_buf b;
        ilpm_buf_init(&b);
        int cnf = iter % 2;
        if (cnf) {
            ilpm_buf_printf(&b, "p cnf %d %d\n", nv, nc);
        } else {
            ilpm_buf_printf(&b, "* #variable= %d #constraint= %d\nmin:", nv,
                            nc);
            for (int v = 1; v <= nv; v++)
                ilpm_buf_printf(&b, " %+d x%d", (int)(test_rnd(&seed) % 7) - 3,
                                v);
            ilpm_buf_puts(&b, " ;\n");
        }
        for (int c = 0; c < nc; c++) {
            int n = 1 + (int)(test_rnd(&seed) % (uint64_t)nv);
            for (int t = 0; t < n; t++) {
                int l = test_rlit(&seed, nv);
                if (cnf)
                    ilpm_buf_printf(&b, "%d ", l);
                else
                    ilpm_buf_printf(&b, "%+d %sx%d ",
                                    (int)(test_rnd(&seed) % 5) - 2,
                                    l < 0 ? "~" : "", abs(l));
            }
            if (cnf)
                ilpm_buf_puts(&b, "0\n");
            else
                ilpm_buf_printf(&b, "%s %d ;\n",
                                test_rnd(&seed) % 3 ? ">=" : "=",
                                (int)(test_rnd(&seed) % 5) - 2);
        }
        const ilpm_params *p = cnf ? pc : po;
        void *inst = parse(&ilpm_puzzle_model, p, cnf ? "r.cnf" : "r.opb",
                           ilpm_buf_str(&b));
        agree(&ilpm_puzzle_model, inst, p, ilpm_buf_str(&b));
        ilpm_puzzle_model.free_instance(inst);
        ilpm_buf_free(&b);
    }
    ilpm_params_free(po);
    ilpm_params_free(pc);
}
END_TEST

/* ------------------------------------------------------------------ */
/* LP and MPS (GLPK's readers), bounded integers, decimals              */

static const char lp_text[] = "Maximize\n"
                              " obj: 3 x + 2 y + z\n"
                              "Subject To\n"
                              " c1: x + y + z <= 2\n"
                              " c2: z - x >= -1\n"
                              " c3: y + z >= 1\n"
                              "Bounds\n"
                              " 1 <= z <= 4\n"
                              "Binary\n"
                              " x y\n"
                              "General\n"
                              " z\n"
                              "End\n";

START_TEST(test_lp_int_encodings)
{
    char path[400];
    write_tmp(path, sizeof path, "t.lp", lp_text);
    static const char *const encs[] = {"binary", "unary"};
    for (int e = 0; e < 2; e++) {
        ilpm_params *p = ilpm_params_new();
        ilpm_params_set(p, "int-encoding", encs[e]);
        void *inst = parse(&ilpm_puzzle_model, p, path, NULL);
        const mdl *d = ilpm_mdl_inst_rows(inst);
        ck_assert_int_eq(d->ncols, 3);
        ck_assert_int_eq(d->nrows, 3);
        ck_assert_int_eq(d->sense, ILPM_MAXIMIZE);
        ck_assert_int_eq(d->lo[2], 1);
        ck_assert_int_eq(d->hi[2], 4);
        /* z in 1..4 takes more than one 0/1 variable */
        ck_assert_int_gt(d->nbits[2], 1);
        agree(&ilpm_puzzle_model, inst, p, encs[e]);
        ilpm_puzzle_model.free_instance(inst);
        ilpm_params_free(p);
    }
    /* without an encoding, z is refused, naming it */
    ilpm_params *p = ilpm_params_new();
    ilpm_reader *rd = ilpm_reader_open(path, NULL);
    void *inst = NULL;
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_puzzle_model.parse(rd, p, &inst, &err), -1);
    ck_assert_msg(strstr(err.msg, "'z'") != NULL, "%s", err.msg);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* Decimal coefficients are scaled to integers by a power of ten, row by
 * row, exactly (0.25 by 100). */
START_TEST(test_lp_decimals)
{
    char path[400];
    write_tmp(path, sizeof path, "d.lp",
              "Minimize\n obj: 0.5 a + 0.25 b + c\n"
              "Subject To\n r1: 0.5 a + 0.25 b >= 0.5\n r2: a + c >= 1\n"
              "Binary\n a b c\nEnd\n");
    ilpm_params *p = ilpm_params_new();
    void *inst = parse(&ilpm_puzzle_model, p, path, NULL);
    const mdl *d = ilpm_mdl_inst_rows(inst);
    const mdl_row *r1 = &d->rows[0];
    ck_assert_int_eq(r1->n, 2);
    ck_assert_int_eq(d->coef[r1->start], 50);
    ck_assert_int_eq(d->coef[r1->start + 1], 25);
    ck_assert_int_eq(r1->rhs, 50);
    ck_assert_int_eq(d->obj_scale, 100);
    agree(&ilpm_puzzle_model, inst, p, "decimals");
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_mps)
{
    char path[400];
    write_tmp(path, sizeof path, "t.mps",
              "NAME          T\n"
              "ROWS\n"
              " N  obj\n"
              " L  c1\n"
              " E  c2\n"
              "COLUMNS\n"
              "    M1 'MARKER' 'INTORG'\n"
              "    x obj 1 c1 1\n"
              "    y obj -2 c1 1\n"
              "    y c2 1\n"
              "    w obj 1 c2 1\n"
              "    M2 'MARKER' 'INTEND'\n"
              "RHS\n"
              "    rhs c1 1 c2 1\n"
              "BOUNDS\n"
              " UP bnd x 1\n"
              " UP bnd y 1\n"
              " UP bnd w 1\n"
              "ENDATA\n");
    ilpm_params *p = ilpm_params_new();
    void *inst = parse(&ilpm_puzzle_model, p, path, NULL);
    const mdl *d = ilpm_mdl_inst_rows(inst);
    ck_assert_int_eq(d->ncols, 3);
    ck_assert_int_eq(d->nrows, 2);
    ck_assert_int_eq(d->sense, ILPM_MINIMIZE);
    agree(&ilpm_puzzle_model, inst, p, "mps");
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* MathProg                                                             */

START_TEST(test_gmpl)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "model", "models/gmpl/queens.mod");
    void *inst = parse(&ilpm_puzzle_gmpl, p, "models/gmpl/queens8.dat", NULL);
    ilpm_result r;
    run(&ilpm_puzzle_gmpl, inst, p, ILPM_BACKEND_SAT, 1, &r);
    ck_assert_int_eq(r.count, 92);
    ck_assert(r.verified);
    ilpm_result_free(&r);
    ilpm_puzzle_gmpl.free_instance(inst);

    /* a mistake in the model: its file and line */
    char mod[400], dat[400];
    write_tmp(mod, sizeof mod, "bad.mod",
              "var x binary;\ns.t. c: x + y >= 1;\nend;\n");
    write_tmp(dat, sizeof dat, "bad.dat", "data;\nend;\n");
    ilpm_params_set(p, "model", mod);
    ilpm_err err = {0};
    ilpm_reader *rd = ilpm_reader_open(dat, &err);
    ck_assert_ptr_nonnull(rd);
    inst = NULL;
    /* An instance names its files; its load translates them. */
    ck_assert_int_eq(ilpm_puzzle_gmpl.parse(rd, p, &inst, &err), 1);
    double ms;
    ck_assert_int_eq(ilpm_puzzle_gmpl.load(inst, p, NULL, &ms, &err), -1);
    char want[420];
    snprintf(want, sizeof want, "%s:2:", mod);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "y") != NULL, "%s", err.msg);
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    /* and a run says it as an input error */
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    ilpm_result_init(&r);
    ilpm_run_instance(&ilpm_puzzle_gmpl, inst, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_ERROR);
    ck_assert_int_eq(r.error_kind, ILPM_E_INPUT);
    ck_assert_msg(strncmp(r.error, want, strlen(want)) == 0, "%s", r.error);
    ilpm_result_free(&r);
    ilpm_puzzle_gmpl.free_instance(inst);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* The time limit covers GLPK's translation, which is a figure of the
 * result: a model whose generation takes minutes times out at the limit
 * on every back end. */
START_TEST(test_gmpl_time_limit)
{
    ilpm_params *p = ilpm_params_new();
    char mod[400];
    write_tmp(mod, sizeof mod, "slow.mod",
              "set I := 1..1000;\nvar x{I, I} binary;\n"
              "s.t. d{k in 2..2000}: sum{i in I, j in I: i + j = k} "
              "x[i,j] <= 1;\nend;\n");
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
        void *inst = parse(&ilpm_puzzle_gmpl, p, mod, NULL);
        ilpm_run_opts o;
        ilpm_run_opts_init(&o);
        o.solver.backend = (ilpm_backend)b;
        o.solver.time_limit = 0.3;
        ilpm_result r;
        ilpm_result_init(&r);
        double t0 = ilpm_now();
        ilpm_run_instance(&ilpm_puzzle_gmpl, inst, p, &o, &r);
        double took = ilpm_now() - t0;
        ck_assert_int_eq(r.status, ILPM_TIMEOUT);
        ck_assert_msg(took < 1.5, "took %.2f s", took);
        ck_assert(r.has_translate);
        ck_assert_msg(r.translate_ms >= 300 && r.translate_ms < 1500, "%g",
                      r.translate_ms);
        ilpm_buf out;
        ilpm_buf_init(&out);
        ilpm_result_json(&r, &out);
        ck_assert_ptr_nonnull(strstr(ilpm_buf_str(&out), "\"translate_ms\":"));
        ilpm_buf_clear(&out);
        ilpm_result_text(&r, &out);
        ck_assert_ptr_nonnull(strstr(ilpm_buf_str(&out), "; translate "));
        ilpm_buf_free(&out);
        ilpm_result_free(&r);
        ilpm_puzzle_gmpl.free_instance(inst);
    }
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Malformed files                                                      */

START_TEST(test_bad_files)
{
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {"model_clause_count.cnf",
         "model_clause_count.cnf:3: the header declares 3 clauses, the file "
         "holds 2"},
        {"model_literal_range.cnf",
         "model_literal_range.cnf:3:1: literal -4 is past the 3 variables "
         "the header declares"},
        {"model_not_a_literal.cnf",
         "model_not_a_literal.cnf:2:3: expected a literal (an integer), got "
         "'x'"},
        {"model_unclosed.cnf",
         "model_unclosed.cnf:2: the last clause has no closing 0"},
        {"model_int64.opb",
         "model_int64.opb:1:1: the integer +9223372036854775808 is too large "
         "(at most 9223372036854775807)"},
        {"model_max.opb",
         "model_max.opb:1:1: 'max:' is not linear OPB (the PB competition "
         "has 'min:' alone)"},
        {"model_nonlinear.opb",
         "model_nonlinear.opb:3:7: non-linear term: a product of literals "
         "(non-linear OPB); ilpm reads linear constraints only"},
        {"model_semicolon.opb", "model_semicolon.opb:1: the file ends before "
                                "';'"},
        {"model_sum.opb",
         "model_sum.opb:1:1: the coefficients of this constraint sum past "
         "2^61: too large to handle exactly"},
        {"model_columns.mps",
         "model_columns.mps:6: missing numeric value in field 6"},
        {"model_syntax.lp", "model_syntax.lp:5: missing constraint sense"},
        {"model_continuous.lp",
         "model_continuous.lp: column 'x' is continuous; ilpm solves 0/1 and "
         "bounded integer models and relaxes nothing"},
    };
    ilpm_params *p = ilpm_params_new();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ilpm_reader_free(
            check_bad_file(&ilpm_puzzle_model, p, cases[i].file, cases[i].msg));
    ilpm_params_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mdl");
    TCase *tc = tcase_create("readers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_opb_rows);
    tcase_add_test(tc, test_cnf_rows);
    tcase_add_test(tc, test_random_files);
    tcase_add_test(tc, test_lp_int_encodings);
    tcase_add_test(tc, test_lp_decimals);
    tcase_add_test(tc, test_mps);
    tcase_add_test(tc, test_gmpl);
    tcase_add_test(tc, test_gmpl_time_limit);
    tcase_add_test(tc, test_bad_files);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
