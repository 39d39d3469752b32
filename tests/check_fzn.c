/* The FlatZinc reader: every builtin lowered into rows is checked
 * against its meaning by brute force (every assignment of small domains
 * evaluated by the verifier, fzn_eval.c) on every back end, counts
 * projected onto the output variables, optima; malformed files give
 * file:line:col. */
#include "fzn.h"
#include "puzzles.h"
#include "run.h"
#include "testutil.h"

#include <string.h>

static void *parse(const ilpm_params *p, const char *text, ilpm_err *err)
{
    ilpm_reader *rd = ilpm_reader_mem("t.fzn", text, strlen(text));
    ck_assert(rd != NULL);
    void *inst = NULL;
    int r = ilpm_puzzle_model.parse(rd, p, &inst, err);
    ilpm_reader_free(rd);
    return r == 1 ? inst : NULL;
}

/* Brute force over the file's own columns: the solutions (distinct in
 * the output columns) and the best objective. */
static long brute(const mdl *d, int64_t *best)
{
    const fzn *z = d->more;
    int n = z->ncols_read;
    int64_t x[16], seen[4096][16];
    long nseen = 0;
    ck_assert(n <= 16);
    for (int j = 0; j < n; j++)
        x[j] = d->lo[j];
    for (;;) {
        ilpm_err why;
        if (ilpm_fzn_check(d, x, 0, 0, &why) == 0) {
            int64_t key[16];
            int k = 0;
            for (int j = 0; j < n; j++)
                if (!d->aux || !d->aux[j])
                    key[k++] = x[j];
            long i;
            for (i = 0; i < nseen; i++)
                if (memcmp(seen[i], key, (size_t)k * sizeof *key) == 0)
                    break;
            if (i == nseen) {
                ck_assert(nseen < 4096);
                memcpy(seen[nseen++], key, (size_t)k * sizeof *key);
            }
            if (z->sense != ILPM_NONE) {
                int64_t o = z->obj.var ? x[z->obj.v] : z->obj.v;
                if (nseen == 1 && i == 0        ? 1
                    : z->sense == ILPM_MAXIMIZE ? o > *best
                                                : o < *best)
                    *best = o;
            }
        }
        int j = 0;
        while (j < n && x[j] == d->hi[j])
            x[j] = d->lo[j], j++;
        if (j == n)
            return nseen;
        x[j]++;
    }
}

/* text on every back end and both integer encodings: the count and the
 * optimum as brute force finds them. */
static void agree(const char *text)
{
    static const char *const encs[] = {"binary", "unary"};
    for (int e = 0; e < 2; e++) {
        ilpm_params *p = ilpm_params_new();
        ilpm_params_set(p, "input-format", "fzn");
        ilpm_params_set(p, "int-encoding", encs[e]);
        ilpm_err err = {0};
        void *inst = parse(p, text, &err);
        ck_assert_msg(inst != NULL, "%s\n%s", err.msg, text);
        const mdl *d = ilpm_mdl_inst_rows(inst);
        int64_t best = 0;
        long want = brute(d, &best);
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            ilpm_run_opts o;
            ilpm_run_opts_init(&o);
            o.solver.backend = (ilpm_backend)b;
            o.count = 1;
            ilpm_result r;
            ilpm_result_init(&r);
            ilpm_run_instance(&ilpm_puzzle_model, inst, p, &o, &r);
            ck_assert_msg(r.status != ILPM_ERROR, "%s\n%s", r.error, text);
            ck_assert_msg(r.count == (uint64_t)want,
                          "%s (%s): count %llu, want %ld\n%s",
                          ilpm_backend_name((ilpm_backend)b), encs[e],
                          (unsigned long long)r.count, want, text);
            ilpm_result_free(&r);
            if (d->sense == ILPM_NONE || want == 0)
                continue;
            o.count = 0;
            ilpm_result_init(&r);
            ilpm_run_instance(&ilpm_puzzle_model, inst, p, &o, &r);
            ck_assert_int_eq(r.status, ILPM_OPTIMAL);
            ck_assert(r.verified);
            ck_assert_msg(r.objective == best,
                          "%s: optimum %lld, want %lld\n%s",
                          ilpm_backend_name((ilpm_backend)b),
                          (long long)r.objective, (long long)best, text);
            ilpm_result_free(&r);
        }
        ilpm_puzzle_model.free_instance(inst);
        ilpm_params_free(p);
    }
}

/* Three variables a, b in -2..3 and r bool, all printed, and one
 * constraint. */
#define ABR(con)                                                               \
    "var -2..3: a :: output_var;\nvar -2..3: b :: output_var;\n"               \
    "var bool: r :: output_var;\nconstraint " con ";\nsolve satisfy;\n"

START_TEST(test_builtins)
{
    static const char *const cases[] = {
        ABR("int_lin_eq([2, -1], [a, b], 1)"),
        ABR("int_lin_le([2, -3], [a, b], -1)"),
        ABR("int_lin_ne([1, 1], [a, b], 2)"),
        /* a column twice in one sum: its coefficients add up */
        ABR("int_lin_le([1, 2, -1, -3], [a, a, b, a], 0)"),
        ABR("int_lin_ne_reif([2, -1, -1], [a, b, a], 1, r)"),
        ABR("int_lin_eq_reif([1, 2], [a, b], 3, r)"),
        ABR("int_lin_le_reif([1, -1], [a, b], 0, r)"),
        ABR("int_lin_ne_reif([3, 1], [a, b], 1, r)"),
        ABR("int_eq(a, b)"),
        ABR("int_le(a, b)"),
        ABR("int_lt(a, b)"),
        ABR("int_ne(a, b)"),
        ABR("int_eq_reif(a, b, r)"),
        ABR("int_le_reif(a, 1, r)"),
        ABR("int_lt_reif(a, b, r)"),
        ABR("int_ne_reif(a, b, r)"),
        ABR("int_abs(a, b)"),
        ABR("int_min(a, b, 1)"),
        ABR("int_max(a, 2, b)"),
        ABR("int_plus(a, b, 1)"),
        ABR("int_times(a, b, 2)"),
        ABR("int_times(a, a, b)"),
        ABR("set_in(a, {-1, 1, 3})"),
        ABR("set_in(a, 0..2)"),
        ABR("set_in_reif(a, {-2, 0, 3}, r)"),
        ABR("set_in_reif(b, -1..1, r)"),
        ABR("array_int_element(a, [3, -1, 2, 0], b)"),
        ABR("array_var_int_element(b, [a, 2, a], 1)"),
        ABR("bool2int(r, a)"),
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var;\n"
        "constraint bool_clause([x, y], [z]);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var; var bool: r :: output_var;\n"
        "constraint bool_clause_reif([x], [y, z], r);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var; var bool: r :: output_var;\n"
        "constraint array_bool_and([x, y, z], r);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var; var bool: r :: output_var;\n"
        "constraint array_bool_or([x, y, z], r);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var; var bool: w :: output_var;\n"
        "constraint array_bool_xor([x, y, z, w]);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: r :: output_var;\n"
        "constraint bool_and(x, y, r);\nconstraint bool_or(x, r, y);\n"
        "solve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: r :: output_var; var bool: s :: output_var;\n"
        "constraint bool_xor(x, y, r);\nconstraint bool_eq_reif(x, r, s);\n"
        "solve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: r :: output_var; var bool: s :: output_var;\n"
        "constraint bool_le_reif(x, y, r);\nconstraint bool_lt_reif(r, y, s);\n"
        "solve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var;\n"
        "constraint bool_not(x, y);\nconstraint bool_xor(y, z);\n"
        "constraint bool_le(z, x);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: z :: output_var; var 0..3: n :: output_var;\n"
        "constraint bool_lin_eq([1, 2, 1], [x, y, z], n);\n"
        "constraint bool_lin_le([1, 1, 1], [x, y, z], 2);\nsolve satisfy;\n",
        "var bool: x :: output_var; var bool: y :: output_var;\n"
        "var bool: r :: output_var;\n"
        "constraint array_var_bool_element(2, [x, y, true], r);\n"
        "constraint array_bool_element(1, [false, true], x);\nsolve satisfy;\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        agree(cases[i]);
}
END_TEST

/* x in -3..3, y in -2..2 (zero among them), z in -3..3, and one
 * constraint. */
#define XYZ(con)                                                               \
    "var -3..3: x :: output_var;\nvar -2..2: y :: output_var;\n"               \
    "var -3..3: z :: output_var;\nconstraint " con ";\nsolve satisfy;\n"

/* The same with y in the domain given. */
#define YDOM(dom, con)                                                         \
    "var -3..3: x :: output_var;\nvar " dom ": y :: output_var;\n"             \
    "var -3..3: z :: output_var;\nconstraint " con ";\nsolve satisfy;\n"

/* int_div, int_mod, int_pow, array_int_maximum and _minimum: variables
 * and constants in each place, divisors and exponents of both signs and
 * zero, results bounded by their definitions. */
START_TEST(test_arith_builtins)
{
    static const char *const cases[] = {
        XYZ("int_div(x, y, z)"),
        XYZ("int_mod(x, y, z)"),
        XYZ("int_div(x, -3, z)"),
        XYZ("int_mod(x, 3, z)"),
        XYZ("int_div(3, y, z)"),
        XYZ("int_mod(-3, y, z)"),
        /* divisors of one sign */
        YDOM("1..3", "int_div(x, y, z)"),
        YDOM("1..3", "int_mod(x, y, z)"),
        YDOM("-3..-1", "int_div(x, y, z)"),
        YDOM("-3..0", "int_mod(x, y, z)"),
        YDOM("0..0", "int_div(x, y, z)"),
        XYZ("int_div(z, y, 1)"),
        XYZ("int_mod(z, y, -1)"),
        XYZ("int_pow(x, y, z)"),
        XYZ("int_pow(x, 2, z)"),
        XYZ("int_pow(-2, y, z)"),
        XYZ("array_int_maximum(z, [x, y, 1])"),
        XYZ("array_int_minimum(z, [x, y, x, 0])"),
        XYZ("array_int_maximum(z, [x, y])"),
        XYZ("array_int_minimum(x, [y])"),
        XYZ("array_int_maximum(1, [x, z])"),
        /* results without a domain: bounded by their definitions */
        "var -3..3: x :: output_var;\nvar -2..2: y :: output_var;\n"
        "var int: q :: output_var;\nconstraint int_div(x, y, q);\n"
        "solve satisfy;\n",
        "var -3..3: x :: output_var;\nvar -2..2: y :: output_var;\n"
        "var int: m :: output_var;\nconstraint int_mod(x, y, m);\n"
        "solve satisfy;\n",
        "var -2..2: x :: output_var;\nvar -1..3: y :: output_var;\n"
        "var int: p :: output_var;\nvar int: m :: output_var;\n"
        "constraint int_pow(x, y, p);\n"
        "constraint array_int_minimum(m, [x, y, p]);\nsolve satisfy;\n",
        /* an objective over a quotient */
        "var -3..3: x :: output_var;\nvar 1..3: y :: output_var;\n"
        "var -3..3: q :: output_var;\nconstraint int_div(x, y, q);\n"
        "constraint int_mod(x, y, 1);\nsolve minimize q;\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        agree(cases[i]);
}
END_TEST

START_TEST(test_projection_and_objectives)
{
    /* Counts are over the output variables: t is not one. */
    agree("var 0..3: a :: output_var;\nvar 0..3: t;\n"
          "constraint int_le(t, a);\nsolve satisfy;\n");
    /* An array printed, an alias, a var int bounded by its definition. */
    agree("var 1..3: x;\nvar 1..3: y;\nvar int: s :: output_var;\n"
          "array [1..2] of var int: v :: output_array([1..2]) = [x, y];\n"
          "constraint int_lin_eq([1, 1, -1], [x, y, s], 0);\n"
          "constraint int_ne(x, y);\nsolve satisfy;\n");
    agree("var -3..3: a :: output_var;\nvar -3..3: b :: output_var;\n"
          "var -9..9: o :: output_var;\n"
          "constraint int_lin_eq([2, -1, -1], [a, b, o], 0);\n"
          "constraint int_lin_le([1, 1], [a, b], 2);\nsolve minimize o;\n");
    agree("var -3..3: a :: output_var;\nvar bool: f :: output_var;\n"
          "var 0..9: o :: output_var;\nconstraint int_abs(a, o);\n"
          "constraint int_le_reif(a, 0, f);\nsolve maximize o;\n");
}
END_TEST

START_TEST(test_parse_parts)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "input-format", "fzn");
    ilpm_err err = {0};
    void *inst = parse(p,
                       "% a comment\n"
                       "predicate my_pred(var int: x);\n"
                       "int: n = 3;\nbool: yes = true;\n"
                       "array [1..3] of int: c = [1, 0x2, -3];\n"
                       "set of int: s = {1, 3};\n"
                       "array [1..2] of var 0..5: q :: output_array([0..1]);\n"
                       "var {1, 4, 6}: h :: output_var :: is_defined_var;\n"
                       "var bool: b :: output_var = yes;\n"
                       "constraint int_lin_le(c, [q[1], q[2], h], n) :: "
                       "domain;\n"
                       "constraint set_in(q[1], s);\n"
                       "solve :: int_search(q, input_order, indomain_min, "
                       "complete) satisfy;\n",
                       &err);
    ck_assert_msg(inst != NULL, "%s", err.msg);
    const mdl *d = ilpm_mdl_inst_rows(inst);
    const fzn *z = d->more;
    ck_assert_int_eq(z->ncols_read, 3);
    ck_assert_int_eq(z->nouts, 3);
    ck_assert_int_eq(z->outs[0].dims, 1);
    ck_assert_int_eq(z->outs[0].lo[0], 0);
    ck_assert_int_eq(z->outs[2].isbool, 1);
    ck_assert(!z->outs[2].t[0].var && z->outs[2].t[0].v == 1);
    int64_t x[3] = {3, 0, 6};
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_fzn_render(d, x, &b);
    ck_assert_str_eq(ilpm_buf_str(&b), "q = array1d(0..1, [3, 0]);\n"
                                       "h = 6;\nb = true;\n");
    ilpm_buf_free(&b);
    ck_assert_int_eq(ilpm_fzn_check(d, x, 0, 0, &err), 0);
    x[2] = 4; /* 3 + 0 - 12 <= 3 still; 4 is in h's domain */
    ck_assert_int_eq(ilpm_fzn_check(d, x, 0, 0, &err), 0);
    x[0] = 2; /* not in s */
    ck_assert_int_ne(ilpm_fzn_check(d, x, 0, 0, &err), 0);
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_bad_files)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;\n",
         "t.fzn:2:22: 'y' is not declared"},
        {"var 1..3: x;\nconstraint int_frob(x);\nsolve satisfy;\n",
         "t.fzn:2:12: constraint 'int_frob' is not a builtin ilpm supports "
         "(docs/fzn.md lists them)"},
        {"var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;\n",
         "t.fzn:2:12: 'int_le' does not take 1 arguments"},
        {"var 1..3: x;\nconstraint int_le(x, [1]);\nsolve satisfy;\n",
         "t.fzn:2:12: 'int_le': argument 2 must be a number or a variable"},
        {"array [1..2] of int: a = [1, \"s\"];\nsolve satisfy;\n",
         "t.fzn:1:30: an array element must be a number, a Boolean or a "
         "variable"},
        {"var 1..3: x\nsolve satisfy;\n", "t.fzn:2:1: expected ';', found "
                                          "'solve'"},
        {"var 1..3: x;\n", "t.fzn: the model has no solve item"},
        {"var float: f;\nsolve satisfy;\n",
         "t.fzn:1:12: variable 'f' is a float: ilpm solves models over "
         "Booleans and integers"},
        {"var set of 1..3: s;\nsolve satisfy;\n",
         "t.fzn:1:18: variable 's' is a set of int: ilpm does not take set "
         "variables"},
        {"var int: u;\nsolve satisfy;\n",
         "t.fzn: variable 'u' is a var int with no bounds, and none follow "
         "from the constraints: give it a domain (var lo..hi)"},
        {"var 1..99999999999999999999: x;\nsolve satisfy;\n",
         "t.fzn:1:8: the integer 99999999999999999999 is outside the 64-bit "
         "range"},
        {"var 1..3: x;\nsolve satisfy;\nvar 1..3: y;\n",
         "t.fzn:3:1: nothing may follow the solve item, found 'var'"},
        {"array [1..2] of int: a = [1, 2];\nvar 1..3: x;\n"
         "constraint int_le(x, a[3]);\nsolve satisfy;\n",
         "t.fzn:3:22: index 3 is outside 'a' (1..2)"},
        {"var 1..3: x :: output_array([1..2]);\nsolve satisfy;\n",
         "t.fzn:1:11: output_array of 'x' names 2 elements, the array has 1"},
        {"var 1..3: x;\nconstraint int_le(x, 1) :: \"s;\nsolve satisfy;\n",
         "t.fzn:2:28: a string that does not end on its line"},
        {"var 1..3: x;\nx = 2;\n", "t.fzn:2:1: expected a type, found 'x'"},
        {"var 1..3: x @;\n", "t.fzn:1:13: unexpected character '@'"},
        {"var 1..1000: x;\nvar 0..100: y;\nvar 0..9: z;\n"
         "constraint int_pow(x, y, z);\nsolve satisfy;\n",
         "t.fzn:4:12: 'int_pow': more than 65536 pairs of values of base and "
         "exponent"},
        {"var 1..2: x;\nconstraint ilpm_regular([x], 2, 2, [1, 2, 1], 1, "
         "1..2);\nsolve satisfy;\n",
         "t.fzn:2:12: 'ilpm_regular': d must hold Q * S transitions (Q, S "
         ">= 1)"},
        {"var 1..2: x;\nconstraint ilpm_regular([x], x, 2, [1, 2], 1, "
         "1..2);\nsolve satisfy;\n",
         "t.fzn:2:12: 'ilpm_regular': Q, S and q0 must be numbers"},
        {"array [1..268435456] of var bool: a;\nsolve satisfy;\n",
         "t.fzn:1:35: 'a': more than 16777216 variables: too many for ilpm"},
    };
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "input-format", "fzn");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_err err = {0};
        void *inst = parse(p, cases[i].text, &err);
        ck_assert_msg(inst == NULL, "accepted:\n%s", cases[i].text);
        if (getenv("SHOW"))
            printf("%s\n", err.msg);
        else
            ck_assert_str_eq(err.msg, cases[i].msg);
    }
    ilpm_params_free(p);
}
END_TEST

/* The `fzn` puzzle is the model puzzle held to FlatZinc: the same
 * functions but parse, which refuses a file of another format. */
START_TEST(test_fzn_puzzle)
{
    const ilpm_puzzle *f = &ilpm_puzzle_fzn, *m = &ilpm_puzzle_model;
    ck_assert_ptr_eq(ilpm_puzzle_find("fzn"), f);
    ck_assert(f->build == m->build && f->decode == m->decode);
    ck_assert(f->verify == m->verify && f->render == m->render);
    ck_assert(f->render_json == m->render_json);
    ck_assert(f->free_instance == m->free_instance);
    ck_assert(f->free_solution == m->free_solution);
    ck_assert(f->describe == m->describe);
    ck_assert(f->objective_scale == m->objective_scale);
    ck_assert(f->stats_json == m->stats_json);
    ck_assert(f->parse != NULL && f->parse != m->parse);

    ilpm_params *p = ilpm_params_new();
    ilpm_err err = {0};
    static const char opb[] = "+1 x1 +1 x2 >= 1;\n";
    ilpm_reader *rd = ilpm_reader_mem("t.opb", opb, strlen(opb));
    void *inst = NULL;
    ck_assert_int_eq(f->parse(rd, p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "t.opb: this puzzle reads fzn files alone, "
                              "not opb (solve model reads every format)");
    ilpm_reader_free(rd);
    /* Standard input, with no extension: FlatZinc. */
    static const char fz[] = "var bool: x :: output_var;\nsolve satisfy;\n";
    rd = ilpm_reader_mem("-", fz, strlen(fz));
    ck_assert_int_eq(f->parse(rd, p, &inst, &err), 1);
    ck_assert_str_eq(ilpm_mdl_inst_rows(inst)->fmt->name, "fzn");
    f->free_instance(inst);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

/* Whether m has a group of that name. */
static int has_group(const ilpm_model *m, const char *name)
{
    for (int g = 0; g < ilpm_model_ngroups(m); g++)
        if (strcmp(ilpm_model_group_name(m, g), name) == 0)
            return 1;
    return 0;
}

/* The groups of the model pz builds of text (named name). */
static ilpm_model *built(const ilpm_puzzle *pz, const char *name,
                         const char *text)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_err err = {0};
    ilpm_reader *rd = ilpm_reader_mem(name, text, strlen(text));
    void *inst = NULL;
    ck_assert_msg(pz->parse(rd, p, &inst, &err) == 1, "%s", err.msg);
    ilpm_model *m = ilpm_model_new();
    ck_assert_msg(pz->build(inst, p, m, &err) == 0, "%s", err.msg);
    pz->free_instance(inst);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
    return m;
}

/* Each builtin's constraints are a group of its name, a domain with
 * holes is "domain"; the other formats keep a group per kind. */
START_TEST(test_groups_per_builtin)
{
    ilpm_model *m = built(&ilpm_puzzle_fzn, "t.fzn",
                          "var bool: a :: output_var;\n"
                          "var bool: b :: output_var;\n"
                          "var bool: c :: output_var;\n"
                          "var {1, 3, 5}: x :: output_var;\n"
                          "var 0..4: y :: output_var;\n"
                          "constraint bool_clause([a, b], [c]);\n"
                          "constraint array_bool_or([a, b, c], true);\n"
                          "constraint int_lin_le([1, 1], [x, y], 6);\n"
                          "solve satisfy;\n");
    static const char *const want[] = {"bool_clause", "array_bool_or",
                                       "int_lin_le", "domain"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(has_group(m, want[i]), "no group %s", want[i]);
    ck_assert(!has_group(m, "clause") && !has_group(m, "linear"));
    ck_assert(!has_group(m, "alo") && !has_group(m, "set_in"));
    ilpm_model_free(m);
    m = built(&ilpm_puzzle_model, "t.opb",
              "+1 x1 +1 x2 >= 1;\n+1 x1 -1 x2 >= 0;\n+2 x1 +1 x3 <= 2;\n");
    ck_assert(has_group(m, "alo") && has_group(m, "clause"));
    ck_assert(has_group(m, "linear"));
    ilpm_model_free(m);
}
END_TEST

/* The value indicators of x are its variables (mdl.direct): shared by
 * int_eq_reif, int_ne_reif and element, whose result y takes its own
 * over constants; a Boolean outside the answer stated equal to an
 * indicator (int_eq_reif, then bool2int) takes its variable, one of the
 * answer keeps its own; two variables related by x +- y = k, != k, = or
 * != take theirs.  Counts and optima as brute force finds them. */
START_TEST(test_shared_indicators)
{
    static const char text[] =
        "var 1..4: x :: output_var;\nvar 0..9: y :: output_var;\n"
        "var bool: b;\nvar 0..1: i;\nvar bool: c :: output_var;\n"
        "var bool: e :: output_var;\n"
        "constraint int_eq_reif(x, 2, b);\nconstraint bool2int(b, i);\n"
        "constraint int_eq_reif(x, 4, c);\nconstraint int_ne_reif(x, 3, e);\n"
        "constraint array_int_element(x, [3, 5, 5, 7], y);\n"
        "solve maximize y;\n";
    agree(text);
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "input-format", "fzn");
    ilpm_err err = {0};
    void *inst = parse(p, text, &err);
    ck_assert_msg(inst != NULL, "%s", err.msg);
    const mdl *d = ilpm_mdl_inst_rows(inst);
    enum { X, Y, B, I, C };
    ck_assert(d->direct && d->direct[X] > 0 && d->direct[Y] > 0);
    ck_assert_int_eq(d->nbits[X], 4);
    ck_assert_int_eq(d->nbits[Y], 10);
    ck_assert_int_eq(d->first[B], d->first[X] + 1);
    ck_assert_int_eq(d->first[I], d->first[B]);
    ck_assert(d->first[C] != d->first[X] + 3);
    ilpm_puzzle_model.free_instance(inst);
    /* Two variables related by a x + b y = k or != k (a, b = +-1), or
     * int_eq, int_ne: on their value indicators, made for it. */
    static const char *const pairs[] = {
        "int_lin_eq([1, -1], [a, b], 2)", "int_lin_eq([1, 1], [a, b], 1)",
        "int_lin_ne([-1, 1], [a, b], 1)", "int_ne(a, b)", "int_eq(a, b)"};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        char t[400];
        snprintf(t, sizeof t,
                 "var -2..3: a :: output_var;\nvar -2..3: b :: output_var;\n"
                 "constraint %s;\nsolve satisfy;\n",
                 pairs[i]);
        agree(t);
        inst = parse(p, t, &err);
        ck_assert_msg(inst != NULL, "%s", err.msg);
        d = ilpm_mdl_inst_rows(inst);
        ck_assert_msg(d->direct && d->direct[0] > 0 && d->direct[1] > 0, "%s",
                      pairs[i]);
        ilpm_puzzle_model.free_instance(inst);
    }
    /* ilpm_all_different_int (ilpm's MiniZinc library's alldifferent):
     * exactly one per value (as many values as terms), at most one (a
     * constant among them), the pairs (many values). */
    static const char *const alldiff[] = {
        "var 1..3: a :: output_var;\nvar 1..3: b :: output_var;\n"
        "var 1..3: c :: output_var;\n"
        "constraint ilpm_all_different_int([a, b, c]);\nsolve satisfy;\n",
        "var 1..4: a :: output_var;\nvar 0..4: b :: output_var;\n"
        "constraint ilpm_all_different_int([a, 2, b]);\nsolve satisfy;\n",
        "var 0..9: a :: output_var;\nvar 3..20: b :: output_var;\n"
        "constraint ilpm_all_different_int([b, a]);\nsolve maximize a;\n"};
    for (size_t i = 0; i < sizeof alldiff / sizeof *alldiff; i++)
        agree(alldiff[i]);
    /* x = y + k over y's values shifted: x is made of y's indicators (the
     * same variables), whatever the order of the constraints. */
    static const char shifted[] =
        "var 1..4: y :: output_var;\nvar 3..6: x;\nvar 1..4: w :: output_var;\n"
        "constraint ilpm_all_different_int([x, 4, w]);\n"
        "constraint int_lin_eq([1, -1], [x, y], 2);\nsolve maximize w;\n";
    agree(shifted);
    inst = parse(p, shifted, &err);
    ck_assert_msg(inst != NULL, "%s", err.msg);
    d = ilpm_mdl_inst_rows(inst);
    ck_assert_int_eq(d->first[1], d->first[0]);
    ck_assert_int_eq(d->nbits[1], 4);
    ilpm_puzzle_model.free_instance(inst);
    /* Variables of many values keep their encoding for the pair: made of
     * indicators, they would be so in every sum they are in. */
    inst = parse(p,
                 "var 0..49: a;\nvar 0..49: b;\nvar 0..49: c;\n"
                 "constraint int_lin_ne([1, -1], [a, b], 0);\n"
                 "constraint int_lin_ne([1, -2, 1], [a, b, c], 0);\n"
                 "solve satisfy;\n",
                 &err);
    ck_assert_msg(inst != NULL, "%s", err.msg);
    d = ilpm_mdl_inst_rows(inst);
    ck_assert(!d->direct || (d->direct[0] == 0 && d->direct[1] == 0));
    ilpm_puzzle_model.free_instance(inst);
    /* set_in_reif on a range (among's x[i] in S): the sum of the
     * indicators of S's values. */
    inst = parse(p, ABR("set_in_reif(b, -1..1, r)"), &err);
    ck_assert_msg(inst != NULL, "%s", err.msg);
    d = ilpm_mdl_inst_rows(inst);
    ck_assert(d->direct && d->direct[1] > 0);
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* ilpm_regular (ilpm's MiniZinc library's regular): a few automata, d
 * flattened row by row as FlatZinc gives it; the count and the optimum
 * agree with brute force (the checker running the automaton) on every
 * back end. */
START_TEST(test_regular)
{
    static const char *const dfas[] = {
        /* no two 2s in a row, x's values outside 1..S excluded */
        "var 1..2: a :: output_var;\nvar 0..2: b :: output_var;\n"
        "var 1..3: c :: output_var;\nvar 1..2: e :: output_var;\n"
        "constraint ilpm_regular([a, b, c, e], 2, 2, [1, 2, 1, 0], 1, "
        "1..2);\nsolve satisfy;\n",
        /* one block of two 2s (a nonogram's line), a constant among x */
        "var 1..2: a :: output_var;\nvar 1..2: b :: output_var;\n"
        "var 0..3: c :: output_var;\nvar 1..2: e :: output_var;\n"
        "constraint ilpm_regular([a, b, 1, c, e], 4, 2, "
        "[1, 2, 0, 3, 4, 0, 4, 0], 1, {3, 4});\nsolve satisfy;\n",
        /* the sum mod 3 in {0, 2}, final states with a hole; maximised */
        "var 1..3: a :: output_var;\nvar 1..3: b :: output_var;\n"
        "var 1..3: c :: output_var;\n"
        "constraint ilpm_regular([a, b, c], 3, 3, "
        "[2, 3, 1, 3, 1, 2, 1, 2, 3], 1, {1, 3});\n"
        "solve maximize a;\n",
        /* the same x in two automata: a in both, no word accepted by the
         * second (F unreachable) */
        "var 1..2: a :: output_var;\nvar 1..2: b :: output_var;\n"
        "constraint ilpm_regular([a, b], 2, 2, [1, 2, 1, 0], 1, 1..2);\n"
        "constraint ilpm_regular([b, a], 3, 2, [2, 2, 2, 2, 0, 0], 1, "
        "{3});\nsolve satisfy;\n"};
    for (size_t i = 0; i < sizeof dfas / sizeof *dfas; i++)
        agree(dfas[i]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fzn");
    TCase *tc = tcase_create("fzn");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_builtins);
    tcase_add_test(tc, test_arith_builtins);
    tcase_add_test(tc, test_projection_and_objectives);
    tcase_add_test(tc, test_parse_parts);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_fzn_puzzle);
    tcase_add_test(tc, test_groups_per_builtin);
    tcase_add_test(tc, test_shared_indicators);
    tcase_add_test(tc, test_regular);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
