/* Tests of --backend auto (src/run/portfolio.c, portfolio_count.c): the
 * first verified answer wins and names its member, a member's wrong
 * answer is refused, a count by cubes over processes equals the count in
 * one, --threads 1 is ilp's run as without auto, the members' options,
 * optimisation's shared incumbents (a bound from outside, the optimum
 * proved from another member's incumbent), and no child process is left
 * behind. */
#include "portfolio.h"
#include "puzzles.h"
#include "run.h"

#define ILPM_TESTUTIL_PUZZLES
#include "testutil.h"
#include "util.h"
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void *from_params(const ilpm_puzzle *pz, ilpm_params *p, const char *a,
                         const char *va, const char *b, const char *vb)
{
    ilpm_params_set(p, a, va);
    if (b)
        ilpm_params_set(p, b, vb);
    void *inst = NULL;
    ilpm_err err;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    return inst;
}

static void run(const ilpm_puzzle *pz, const void *inst, const ilpm_params *p,
                const ilpm_run_opts *o, ilpm_result *r)
{
    ilpm_result_init(r);
    ck_assert_msg(ilpm_run_instance(pz, inst, p, o, r) == 0, "%s", r->error);
}

/* The race and the cubes, without the first member's moment alone
 * (ilpm_portfolio_quick_s), which answers these small instances. */
static void auto_opts(ilpm_run_opts *o, int threads)
{
    ilpm_portfolio_quick_s = 0;
    ilpm_run_opts_init(o);
    o->solver.backend = ILPM_BACKEND_AUTO;
    o->threads = threads;
}

/* The model file at path, parsed with p. */
static void *model_file(const char *path, ilpm_params *p)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    void *inst = NULL;
    ck_assert_msg(ilpm_puzzle_model.parse(rd, p, &inst, &err) == 1, "%s",
                  err.msg);
    ilpm_reader_free(rd);
    return inst;
}
/* Every child was reaped: none is left, zombie or running. */
static void no_children(void)
{
    errno = 0;
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
}

START_TEST(test_first_verified_answer)
{
    ilpm_params *p = ilpm_params_new();
    void *q = from_params(&ilpm_puzzle_queens, p, "n", "8", NULL, NULL);
    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_result r;
    run(&ilpm_puzzle_queens, q, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_SOLVED);
    ck_assert(r.verified);
    ck_assert_ptr_nonnull(r.text);
    /* The member that answered, and its back end as the result's. */
    ck_assert(strcmp(r.member, "cp learn=off") == 0 ||
              strcmp(r.member, "sat target=2") == 0);
    ck_assert_int_eq(r.backend,
                     r.member[0] == 'c' ? ILPM_BACKEND_CP : ILPM_BACKEND_SAT);
    ck_assert(r.have_stats);
    ck_assert_int_eq(r.stats.vars, 64);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_result_json(&r, &b);
    ck_assert_ptr_nonnull(strstr(ilpm_buf_str(&b), "\"member\":\""));
    ilpm_buf_clear(&b);
    ilpm_result_text(&r, &b);
    ck_assert_ptr_nonnull(strstr(ilpm_buf_str(&b), "(auto: "));
    ilpm_buf_free(&b);
    ilpm_result_free(&r);
    no_children();

    /* unsat: proved by the first member to end */
    void *three = from_params(&ilpm_puzzle_queens, p, "n", "3", NULL, NULL);
    run(&ilpm_puzzle_queens, three, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_UNSAT);
    ck_assert(!r.verified);
    ilpm_result_free(&r);
    no_children();
    ilpm_puzzle_queens.free_instance(q);
    ilpm_puzzle_queens.free_instance(three);
    ilpm_params_free(p);
}
END_TEST

/* A member whose answer breaks the rules is refused: the other one's
 * answer is taken, on satisfaction and on optimisation. */
START_TEST(test_wrong_answer_refused)
{
    ilpm_params *p = ilpm_params_new();
    void *q = from_params(&ilpm_puzzle_queens, p, "n", "10", NULL, NULL);
    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_result r;
    for (int bad = 0; bad < 2; bad++) {
        ilpm_portfolio_test_corrupt = bad;
        run(&ilpm_puzzle_queens, q, p, &o, &r);
        ilpm_portfolio_test_corrupt = -1;
        ck_assert_int_eq(r.status, ILPM_SOLVED);
        ck_assert(r.verified);
        ck_assert_str_eq(r.member, bad == 0 ? "sat target=2" : "cp learn=off");
        ck_assert_str_eq(r.error, "");
        ilpm_result_free(&r);
        no_children();
    }
    ilpm_puzzle_queens.free_instance(q);
    ilpm_params_free(p);

    /* setcover.mps: ilp's answer (member 0) made wrong; sat's proof
     * stands, with the file's optimum. */
    p = ilpm_params_new();
    ilpm_params_set(p, "file", "data/models/setcover.mps");
    void *inst = model_file("data/models/setcover.mps", p);
    ilpm_portfolio_test_corrupt = 0;
    run(&ilpm_puzzle_model, inst, p, &o, &r);
    ilpm_portfolio_test_corrupt = -1;
    ck_assert_int_eq(r.status, ILPM_OPTIMAL);
    ck_assert(r.verified);
    ck_assert(r.has_objective);
    ck_assert_int_eq(r.objective, 2);
    ilpm_result_free(&r);
    no_children();
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* The count of pz's instance on cp in one process, and by cubes. */
static void same_count(const ilpm_puzzle *pz, const void *inst,
                       const ilpm_params *p, uint64_t want)
{
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.backend = ILPM_BACKEND_CP;
    o.count = 1;
    o.render = 0;
    ilpm_result one, cubes;
    run(pz, inst, p, &o, &one);
    o.solver.backend = ILPM_BACKEND_AUTO;
    ilpm_portfolio_quick_s = 0;
    for (int threads = 2; threads <= 3; threads++) {
        o.threads = threads;
        run(pz, inst, p, &o, &cubes);
        ck_assert_int_eq(cubes.status, one.status);
        ck_assert_uint_eq(cubes.count, one.count);
        ck_assert_uint_eq(cubes.count, want);
        ck_assert(cubes.count_complete);
        ck_assert_int_eq(cubes.verified, one.verified);
        ilpm_result_free(&cubes);
        no_children();
    }
    /* --limit holds over the cubes */
    o.limit = want > 3 ? want - 3 : 1;
    o.threads = 2;
    run(pz, inst, p, &o, &cubes);
    ck_assert_uint_eq(cubes.count, want ? o.limit : 0);
    ck_assert(!cubes.count_complete || !want);
    ilpm_result_free(&cubes);
    ilpm_result_free(&one);
    no_children();
}

/* The cubes: a queen's place on rows 1 and 2 (n^2, each a small share
 * of the work), Langford's value 1 and 2 placements (L(2,11): value 1's,
 * the last 4 by pairs), two Sudoku cells;
 * the counts by them equal the known ones on 2 and 3 threads, --symmetry
 * and --limit included (same_count). */
START_TEST(test_cubes_by_exactly_ones)
{
    static const uint64_t queens[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
    for (int n = 1; n <= 10; n++)
        for (int sym = 0; sym < 2; sym++) {
            ilpm_params *p = ilpm_params_new();
            if (sym)
                ilpm_params_set(p, "symmetry", "");
            char v[8];
            snprintf(v, sizeof v, "%d", n);
            void *q = from_params(&ilpm_puzzle_queens, p, "n", v, NULL, NULL);
            ilpm_model *m = ilpm_model_new();
            ilpm_err err;
            ck_assert_int_eq(ilpm_puzzle_queens.build(q, p, m, &err), 0);
            /* n = 1: no exactly-one of two literals, one variable */
            ck_assert_int_eq(ilpm_portfolio_cubes(m), n == 1 ? 2 : n * n);
            ilpm_model_free(m);
            /* the counts on a few sizes: each cube is a fork, slow under
             * the sanitizers (n = 1 one variable, 2 none, 5 odd, 8 even) */
            if (n == 1 || n == 2 || n == 5 || n == 8)
                same_count(&ilpm_puzzle_queens, q, p,
                           sym && n > 1 ? queens[n] / 2 : queens[n]);
            ilpm_puzzle_queens.free_instance(q);
            ilpm_params_free(p);
        }
    static const int ln[] = {3, 7, 8};
    static const uint64_t lc[] = {2, 52, 300};
    for (int i = 0; i < 3; i++)
        for (int sym = 0; sym < 2; sym++) {
            ilpm_params *p = ilpm_params_new();
            if (sym)
                ilpm_params_set(p, "symmetry", "");
            char v[8];
            snprintf(v, sizeof v, "%d", ln[i]);
            void *l = from_params(&ilpm_puzzle_langford, p, "n", v, "k", "2");
            ilpm_model *m = ilpm_model_new();
            ilpm_err err;
            ck_assert_int_eq(ilpm_puzzle_langford.build(l, p, m, &err), 0);
            ck_assert_int_gt(ilpm_portfolio_cubes(m), 2 * ln[i] - 3);
            ilpm_model_free(m);
            same_count(&ilpm_puzzle_langford, l, p, sym ? lc[i] / 2 : lc[i]);
            ilpm_puzzle_langford.free_instance(l);
            ilpm_params_free(p);
        }
    /* L(2,11): 20 x 19 pairs are too many; value 1's places whole but
     * the last 4, each of those with value 2's 19 (the queue's end in
     * small shares; counted by e2e_portfolio.sh) */
    {
        ilpm_params *p = ilpm_params_new();
        void *l = from_params(&ilpm_puzzle_langford, p, "n", "11", "k", "2");
        ilpm_model *m = ilpm_model_new();
        ilpm_err err;
        ck_assert_int_eq(ilpm_puzzle_langford.build(l, p, m, &err), 0);
        ck_assert_int_eq(ilpm_portfolio_cubes(m), 16 + 4 * 19);
        ilpm_model_free(m);
        ilpm_puzzle_langford.free_instance(l);
        ilpm_params_free(p);
    }
    ilpm_params *p = ilpm_params_new();
    void *s = parse_text(&ilpm_puzzle_sudoku, p, "................\n");
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_sudoku.build(s, p, m, &err), 0);
    ck_assert_int_eq(ilpm_portfolio_cubes(m), 16);
    ilpm_model_free(m);
    same_count(&ilpm_puzzle_sudoku, s, p, 288);
    ilpm_puzzle_sudoku.free_instance(s);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_count_by_cubes)
{
    ilpm_params *p = ilpm_params_new();
    void *q = from_params(&ilpm_puzzle_queens, p, "n", "9", NULL, NULL);
    same_count(&ilpm_puzzle_queens, q, p, 352);
    ilpm_puzzle_queens.free_instance(q);
    q = from_params(&ilpm_puzzle_queens, p, "n", "3", NULL, NULL);
    same_count(&ilpm_puzzle_queens, q, p, 0);
    ilpm_puzzle_queens.free_instance(q);
    ilpm_params_free(p);

    p = ilpm_params_new();
    void *l = from_params(&ilpm_puzzle_langford, p, "n", "8", "k", "2");
    same_count(&ilpm_puzzle_langford, l, p, 300);
    ilpm_puzzle_langford.free_instance(l);
    ilpm_params_free(p);

    p = ilpm_params_new();
    void *s = parse_text(&ilpm_puzzle_sudoku, p, "1...............\n");
    same_count(&ilpm_puzzle_sudoku, s, p, 72);
    ilpm_puzzle_sudoku.free_instance(s);
    ilpm_params_free(p);
}
END_TEST

/* --threads 1: ilp alone in this process, the same record as --backend
 * ilp gives (but for the times). */
START_TEST(test_one_thread_is_ilp)
{
    ilpm_params *p = ilpm_params_new();
    void *q = from_params(&ilpm_puzzle_queens, p, "n", "12", NULL, NULL);
    ilpm_run_opts o;
    auto_opts(&o, 1);
    ilpm_result a, b;
    run(&ilpm_puzzle_queens, q, p, &o, &a);
    o.solver.backend = ILPM_BACKEND_ILP;
    run(&ilpm_puzzle_queens, q, p, &o, &b);
    ck_assert_int_eq(a.backend, ILPM_BACKEND_ILP);
    ck_assert_str_eq(a.member, "ilp");
    ck_assert_str_eq(b.member, "");
    ck_assert_int_eq(a.status, b.status);
    ck_assert_str_eq(a.text, b.text);
    ck_assert_str_eq(a.json, b.json);
    ilpm_result_free(&a);
    ilpm_result_free(&b);
    ilpm_puzzle_queens.free_instance(q);
    ilpm_params_free(p);
}
END_TEST

/* Writes over the stack below the caller's frame. */
static __attribute__((noinline)) void scribble(void)
{
    volatile char b[8192];
    for (size_t i = 0; i < sizeof b; i++)
        b[i] = 'x';
}

/* The members: best first, at most --threads; each member's options
 * (its settings, the seed, its share of --max-memory). */
START_TEST(test_members)
{
    const ilpm_member *mb;
    ck_assert_int_eq(ilpm_portfolio_members(NULL, NULL, NULL, 0, 0, 2, &mb), 2);
    ck_assert_str_eq(mb[0].name, "cp learn=off");
    ck_assert_str_eq(mb[1].name, "sat target=2");
    ck_assert_int_eq(ilpm_portfolio_members(NULL, NULL, NULL, 0, 0, 64, &mb),
                     5);
    ck_assert_int_eq(ilpm_portfolio_members(NULL, NULL, NULL, 1, 0, 2, &mb), 2);
    ck_assert_str_eq(mb[0].name, "ilp");
    ck_assert_str_eq(mb[1].name, "cp");
    ck_assert_int_eq(ilpm_portfolio_members(NULL, NULL, NULL, 1, 0, 8, &mb), 3);

    ilpm_run_opts o;
    auto_opts(&o, 2);
    o.seed = 7;
    o.solver.max_memory_mb = 1000;
    ilpm_portfolio_members(NULL, NULL, NULL, 0, 0, 2, &mb);
    ilpm_options so = o.solver;
    ilpm_portfolio_member_options(&mb[1], &o, 2, &so);
    char buf[256];
    ck_assert_int_eq(so.backend, ILPM_BACKEND_SAT);
    ck_assert_int_eq(ilpm_options_get(&so, "sat-option", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "target=2,seed=7");
    ck_assert_int_eq(so.max_memory_mb, 500);
    so = o.solver;
    ilpm_portfolio_member_options(&mb[0], &o, 2, &so);
    ck_assert_int_eq(so.backend, ILPM_BACKEND_CP);
    ck_assert_int_eq(ilpm_options_get(&so, "learn", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "off");

    /* CaDiCaL's options add to the user's own, and stay after the call */
    ck_assert_int_eq(ilpm_options_set(&o.solver, "sat-option", "phase=0", NULL),
                     0);
    o.seed = -1;
    ilpm_options sat = o.solver;
    ilpm_portfolio_member_options(&mb[1], &o, 2, &sat);
    scribble();
    ck_assert_int_eq(ilpm_options_get(&sat, "sat-option", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "phase=0,target=2");
    o.seed = 7;
    sat = o.solver;
    ilpm_portfolio_member_options(&mb[1], &o, 2, &sat);
    scribble();
    ck_assert_int_eq(ilpm_options_get(&sat, "sat-option", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "phase=0,target=2,seed=7");

    /* threads: the run's, else the cores'; a count with a hook for each
     * solution stays in this process (cp) */
    o.threads = 0;
    ck_assert_int_ge(ilpm_portfolio_threads(&o), 1);
    o.threads = 3;
    ck_assert_int_eq(ilpm_portfolio_single(&o), ILPM_BACKEND_AUTO);
    o.threads = 1;
    ck_assert_int_eq(ilpm_portfolio_single(&o), ILPM_BACKEND_ILP);
    ck_assert_str_eq(ilpm_backend_name(ILPM_BACKEND_AUTO), "auto");
    ck_assert_int_eq(ilpm_backend_find("auto"), -1);
    ck_assert_int_eq(ilpm_options_set(&so, "backend", "auto", NULL), 0);
    ck_assert_int_eq(so.backend, ILPM_BACKEND_AUTO);
}
END_TEST

/* An easy instance is answered by the first member alone in the
 * process (no fork), with the same checks; a hard one goes on to the
 * race after that moment. */

/* r, a verified answer of status want by member, freed; no member left
 * running, and the first member's moment back to the tests' default. */
static void verified_by(ilpm_result *r, ilpm_status want, const char *member)
{
    ck_assert_int_eq(r->status, want);
    ck_assert(r->verified);
    ck_assert_str_eq(r->member, member);
    ilpm_result_free(r);
    no_children();
    ilpm_portfolio_quick_s = 0.05;
}
/* Sudoku's own members (#35's rule, docs/portfolio.md): the learning cp
 * alone first, then CaDiCaL with target phases, from its default phases
 * and from false phases (two good draws on 25x25 grids, where its
 * defaults were a weaker one), then its defaults; other puzzles, and
 * Sudoku with an objective, keep the lists. */
START_TEST(test_sudoku_members)
{
    const ilpm_member *mb;
    ck_assert_int_eq(
        ilpm_portfolio_members(&ilpm_puzzle_sudoku, NULL, NULL, 0, 0, 2, &mb),
        2);
    ck_assert_str_eq(mb[0].name, "sat target=2");
    ck_assert_str_eq(mb[1].name, "sat target=2,phase=0");
    ilpm_run_opts so_run;
    auto_opts(&so_run, 2);
    ilpm_options so = so_run.solver;
    char buf[256];
    ilpm_portfolio_member_options(&mb[1], &so_run, 2, &so);
    ck_assert_int_eq(so.backend, ILPM_BACKEND_SAT);
    ck_assert_int_eq(ilpm_options_get(&so, "sat-option", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "target=2,phase=0");
    ck_assert_int_eq(
        ilpm_portfolio_members(&ilpm_puzzle_sudoku, NULL, NULL, 0, 0, 64, &mb),
        6);
    ck_assert_str_eq(mb[2].name, "sat");
    ck_assert_str_eq(
        ilpm_portfolio_first(&ilpm_puzzle_sudoku, NULL, NULL, 0, 0)->name,
        "cp learn=on");
    ck_assert_str_eq(
        ilpm_portfolio_first(&ilpm_puzzle_queens, NULL, NULL, 0, 0)->name,
        "cp learn=off");
    ck_assert_str_eq(
        ilpm_portfolio_first(&ilpm_puzzle_sudoku, NULL, NULL, 1, 0)->name,
        "ilp");
    ck_assert_int_eq(
        ilpm_portfolio_members(&ilpm_puzzle_langford, NULL, NULL, 0, 0, 2, &mb),
        2);
    ck_assert_str_eq(mb[0].name, "cp learn=off");

    /* 25x25 grid 13 of the public set: the learning cp answers it in
     * its moment alone (0.04 s; the depth-first search does not in 5 s) */
    FILE *f = fopen("data/sudoku/gecode_25x25.txt", "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    for (int i = 0; i < 13; i++)
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ilpm_params *p = ilpm_params_new();
    void *s = parse_text(&ilpm_puzzle_sudoku, p, line);
    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_portfolio_quick_s = 5;
    o.solver.time_limit = 10;
    ilpm_result r;
    run(&ilpm_puzzle_sudoku, s, p, &o, &r);
    verified_by(&r, ILPM_SOLVED, "cp learn=on");
    ilpm_puzzle_sudoku.free_instance(s);
    ilpm_params_free(p);
}
END_TEST

/* The first instance of the tetravex file at path. */
static void *tetravex_file(const char *path, const ilpm_params *p)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    void *inst = NULL;
    ck_assert_msg(ilpm_puzzle_tetravex.parse(rd, p, &inst, &err) == 1, "%s",
                  err.msg);
    ilpm_reader_free(rd);
    return inst;
}

/* The variables of inst's model in formulation form. */
static int tetravex_vars(const void *inst, const char *form)
{
    ilpm_params *q = ilpm_params_new();
    ilpm_params_set(q, "formulation", form);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_tetravex.build(inst, q, m, &err), 0);
    int n = ilpm_model_nvars(m);
    ilpm_model_free(m);
    ilpm_params_free(q);
    return n;
}

/* A member that names a formulation races on the puzzle built again in
 * it: Tetravex's CaDiCaL on `edges` (its best single setting from 8x8).
 * Its answer, on its own model, is checked by the parent against that
 * model and the puzzle's rules before it is taken (a wrong one is
 * refused), and the result is that formulation's; a formulation the
 * user names is every member's; --threads 1 is ilp's run as before. */
static const ilpm_member edges_only[] = {
    {ILPM_BACKEND_SAT, "sat on edges", {"formulation"}, {"edges"}}};

START_TEST(test_formulation_member)
{
    /* Tetravex's list from 8x8 (a board of ilpm gen), the others' below */
    ilpm_params *g = ilpm_params_new();
    ilpm_params_set(g, "n", "8");
    ilpm_params_set(g, "seed", "1");
    ilpm_buf text;
    ilpm_buf_init(&text);
    ilpm_err err;
    ck_assert_int_eq(ilpm_puzzle_tetravex.generate(g, NULL, &text, &err), 0);
    void *big = parse_text(&ilpm_puzzle_tetravex, g, ilpm_buf_str(&text));
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(ilpm_puzzle_tetravex.build(big, g, m, &err), 0);
    const ilpm_member *mb;
    ck_assert_int_eq(ilpm_portfolio_members(&ilpm_puzzle_tetravex, NULL, NULL,
                                            0, ilpm_model_nvars(m), 2, &mb),
                     2);
    ck_assert_str_eq(mb[0].name, "cp learn=off");
    ck_assert_str_eq(mb[1].name, "sat stabilize=0,seed=1 on edges");
    ck_assert_ptr_eq(ilpm_portfolio_first(&ilpm_puzzle_tetravex, NULL, NULL, 0,
                                          ilpm_model_nvars(m)),
                     mb);
    ck_assert_ptr_null(ilpm_pf_form_of(&mb[0], &ilpm_puzzle_tetravex, NULL));
    ck_assert_str_eq(ilpm_pf_form_of(&mb[1], &ilpm_puzzle_tetravex, NULL),
                     "edges");
    ilpm_run_opts so_run;
    auto_opts(&so_run, 2);
    ilpm_options so = so_run.solver;
    char buf[256];
    ilpm_portfolio_member_options(&mb[1], &so_run, 2, &so);
    ck_assert_int_eq(ilpm_options_get(&so, "sat-option", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "stabilize=0,seed=1");
    ck_assert_int_eq(
        ilpm_portfolio_members(&ilpm_puzzle_tetravex, NULL, NULL, 0, 0, 2, &mb),
        2);
    ck_assert_str_eq(mb[0].name, "cp learn=off");
    ck_assert_ptr_null(ilpm_pf_form_of(&mb[0], &ilpm_puzzle_tetravex, NULL));
    ilpm_model_free(m);
    ilpm_puzzle_tetravex.free_instance(big);
    /* from 9x9, CaDiCaL on edges first (cp on assign solves none there) */
    ilpm_params_set(g, "n", "9");
    ilpm_buf_clear(&text);
    ck_assert_int_eq(ilpm_puzzle_tetravex.generate(g, NULL, &text, &err), 0);
    big = parse_text(&ilpm_puzzle_tetravex, g, ilpm_buf_str(&text));
    m = ilpm_model_new();
    ck_assert_int_eq(ilpm_puzzle_tetravex.build(big, g, m, &err), 0);
    ck_assert_int_eq(ilpm_portfolio_members(&ilpm_puzzle_tetravex, NULL, NULL,
                                            0, ilpm_model_nvars(m), 2, &mb),
                     2);
    ck_assert_str_eq(mb[0].name, "sat on edges");
    ck_assert_str_eq(mb[1].name, "sat stabilize=0,seed=1 on edges");
    ilpm_model_free(m);
    ilpm_puzzle_tetravex.free_instance(big);
    ilpm_buf_free(&text);
    ilpm_params_free(g);

    ilpm_params *p = ilpm_params_new();
    void *inst = tetravex_file("data/tetravex/generated/5x5_solvable.txt", p);
    int edges = tetravex_vars(inst, "edges");
    ck_assert_int_ne(edges, tetravex_vars(inst, "assign"));

    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_portfolio_quick_s = 0.05; /* a formulation member has no moment */
    ilpm_portfolio_test_members = edges_only;
    ilpm_portfolio_test_nmembers = 1;
    ilpm_result r;
    run(&ilpm_puzzle_tetravex, inst, p, &o, &r);
    ck_assert_str_eq(r.formulation, "edges");
    ck_assert_int_eq(r.stats.vars, edges);
    ck_assert_ptr_nonnull(r.text);
    verified_by(&r, ILPM_SOLVED, "sat on edges");

    /* its answer made wrong: refused, nothing taken */
    ilpm_portfolio_test_corrupt = 0;
    run(&ilpm_puzzle_tetravex, inst, p, &o, &r);
    ilpm_portfolio_test_corrupt = -1;
    ck_assert_int_ne(r.status, ILPM_SOLVED);
    ck_assert(!r.verified);
    ck_assert_ptr_null(r.text);
    ilpm_result_free(&r);
    no_children();

    /* the user's formulation: the member races on the run's model, and
     * the result names it without the formulation it did not race on
     * (the line read "(assign, auto: sat on edges)") */
    ilpm_params_set(p, "formulation", "assign");
    ck_assert_ptr_null(ilpm_pf_form_of(edges_only, &ilpm_puzzle_tetravex, p));
    run(&ilpm_puzzle_tetravex, inst, p, &o, &r);
    ck_assert_str_eq(r.formulation, "assign");
    ck_assert_int_ne(r.stats.vars, edges);
    verified_by(&r, ILPM_SOLVED, "sat");
    ilpm_portfolio_test_members = NULL;
    ilpm_portfolio_test_nmembers = 0;

    /* --threads 1: ilp on assign, as --backend ilp */
    ilpm_params_free(p);
    p = ilpm_params_new();
    ilpm_result b;
    auto_opts(&o, 1);
    run(&ilpm_puzzle_tetravex, inst, p, &o, &r);
    o.solver.backend = ILPM_BACKEND_ILP;
    run(&ilpm_puzzle_tetravex, inst, p, &o, &b);
    ck_assert_str_eq(r.member, "ilp");
    ck_assert_str_eq(r.formulation, "assign");
    ck_assert_str_eq(r.json, b.json);
    ilpm_result_free(&b);
    verified_by(&r, ILPM_SOLVED, "ilp");
    ilpm_puzzle_tetravex.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* FlatZinc's own members: cp (its --learn auto) first, then the
 * depth-first cp with an objective, CaDiCaL with target phases without;
 * by `ilpm fzn` (model with --input-format fzn), by a .fzn file's name
 * or by the fzn puzzle.  data/fzn/knapsack60.fzn: the depth-first cp
 * proves its optimum in 0.1 s, 10x ahead of the learning cp, where GLPK
 * does not in 10 s. */
START_TEST(test_fzn_members)
{
    const ilpm_member *mb;
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "input-format", "fzn");
    ck_assert_int_eq(
        ilpm_portfolio_members(&ilpm_puzzle_model, p, NULL, 1, 0, 2, &mb), 2);
    ck_assert_str_eq(mb[0].name, "cp");
    ck_assert_str_eq(mb[1].name, "cp learn=off");
    ck_assert_int_eq(
        ilpm_portfolio_members(&ilpm_puzzle_fzn, NULL, NULL, 0, 0, 2, &mb), 2);
    ck_assert_str_eq(mb[0].name, "cp");
    ck_assert_str_eq(mb[1].name, "sat target=2");
    ck_assert_str_eq(
        ilpm_portfolio_first(&ilpm_puzzle_fzn, NULL, NULL, 0, 0)->name, "cp");
    ilpm_params_free(p);
    /* another format keeps the lists; a .fzn file's name says FlatZinc */
    ilpm_portfolio_members(&ilpm_puzzle_model, NULL, "data/models/setcover.mps",
                           1, 0, 2, &mb);
    ck_assert_str_eq(mb[0].name, "ilp");
    ilpm_portfolio_members(&ilpm_puzzle_model, NULL, "k.fzn", 1, 0, 2, &mb);
    ck_assert_str_eq(mb[1].name, "cp learn=off");

    p = ilpm_params_new();
    void *inst = model_file("data/fzn/knapsack60.fzn", p);
    ilpm_run_opts o;
    auto_opts(&o, 2);
    o.solver.time_limit = 20;
    ilpm_result r;
    ilpm_result_init(&r); /* the file's name, as the command line gives it */
    snprintf(r.file, sizeof r.file, "%s", "data/fzn/knapsack60.fzn");
    ck_assert_msg(ilpm_run_instance(&ilpm_puzzle_model, inst, p, &o, &r) == 0,
                  "%s", r.error);
    verified_by(&r, ILPM_OPTIMAL, "cp learn=off");
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_quick_alone)
{
    ilpm_params *p = ilpm_params_new();
    void *q = from_params(&ilpm_puzzle_queens, p, "n", "8", NULL, NULL);
    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_portfolio_quick_s = 5;
    ilpm_result r;
    run(&ilpm_puzzle_queens, q, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_SOLVED);
    ck_assert(r.verified);
    ck_assert_str_eq(r.member, "cp learn=off");
    ck_assert_int_eq(r.backend, ILPM_BACKEND_CP);
    ilpm_result_free(&r);
    o.count = 1;
    run(&ilpm_puzzle_queens, q, p, &o, &r);
    ck_assert_uint_eq(r.count, 92);
    ck_assert(r.count_complete);
    ck_assert_str_eq(r.member, "cp");
    ilpm_result_free(&r);
    no_children();
    /* past the moment: the cubes count it */
    ilpm_portfolio_quick_s = 1e-9;
    run(&ilpm_puzzle_queens, q, p, &o, &r);
    ck_assert_uint_eq(r.count, 92);
    ck_assert_str_eq(r.member, "cp x2");
    ilpm_result_free(&r);
    no_children();
    ilpm_portfolio_quick_s = 0.05;
    ilpm_puzzle_queens.free_instance(q);
    ilpm_params_free(p);
}
END_TEST

static void send_limit(void *arg, int fd)
{
    (void)arg;
    struct rlimit rl;
    getrlimit(RLIMIT_AS, &rl);
    uint64_t v = (uint64_t)rl.rlim_cur;
    (void)ilpm_fd_write_all(fd, &v, sizeof v, 0);
}

/* Each of n members may take an n-th of the address space the process
 * has left under its limit (--memory-limit): what a member sees. */
START_TEST(test_memory_share)
{
    if (ILPM_UNDER_ASAN)
        return; /* its shadow memory needs the address space unlimited */
    struct rlimit old;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
    struct rlimit rl = old;
    rl.rlim_cur = (rlim_t)64 << 30; /* 64 GB: far above what is used */
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < rl.rlim_cur)
        return;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
    for (int n = 1; n <= 4; n *= 2) {
        int fd;
        pid_t pid = ilpm_portfolio_spawn(send_limit, NULL, n, &fd);
        ck_assert_int_gt(pid, 0);
        uint64_t got = 0;
        ck_assert_int_eq(ilpm_fd_read_all(fd, &got, sizeof got), 0);
        close(fd);
        ilpm_portfolio_kill(pid);
        if (n == 1) {
            ck_assert_uint_eq(got, rl.rlim_cur);
        } else {
            /* used + (limit - used) / n, used well under 1 GB */
            ck_assert_uint_ge(got, rl.rlim_cur / n);
            ck_assert_uint_le(got, rl.rlim_cur / n + ((uint64_t)1 << 30));
        }
    }
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    no_children();
}
END_TEST

/* A solver alone refuses auto (it is the run layer's). */
START_TEST(test_solver_refuses_auto)
{
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {2};
    ilpm_err err = {0};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = ILPM_BACKEND_AUTO;
    ck_assert_ptr_null(ilpm_solver_new(m, &o, &err));
    ck_assert_int_eq(err.rc, ILPM_E_INPUT);
    ilpm_model_free(m);
}
END_TEST

/* A knapsack of 12 items (value i, weight (7 i mod 11) + 3, capacity
 * 30), maximised, or minimised as the value left out (sum of i (1 -
 * x_i)); its optimum by enumeration into *opt. */
#define KN 12
static ilpm_model *knapsack(ilpm_sense sense, int64_t *opt)
{
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {KN};
    ilpm_err err = {0};
    ck_assert_int_ge(ilpm_model_family(m, "x", 1, lo, hi, 0, &err), 0);
    int lits[KN], neg[KN];
    int64_t w[KN], v[KN], total = 0, best = 0;
    for (int i = 0; i < KN; i++) {
        lits[i] = i + 1, neg[i] = -(i + 1);
        v[i] = i + 1, w[i] = (7 * (i + 1)) % 11 + 3;
        total += v[i];
    }
    ck_assert_int_eq(ilpm_add_linear(m, w, lits, KN, ILPM_LE, 30, &err), 0);
    ck_assert_int_eq(ilpm_model_objective(m, sense, v,
                                          sense == ILPM_MAXIMIZE ? lits : neg,
                                          KN, &err),
                     0);
    for (unsigned set = 0; set < 1u << KN; set++) {
        int64_t ws = 0, vs = 0;
        for (int i = 0; i < KN; i++)
            if (set >> i & 1)
                ws += w[i], vs += v[i];
        if (ws <= 30 && vs > best)
            best = vs;
    }
    *opt = sense == ILPM_MAXIMIZE ? best : total - best;
    return m;
}

struct told {
    const ilpm_model *m;
    ilpm_sense sense;
    int64_t bound; /* given at the first poll */
    int polls, incumbents, worse;
};

static int give_bound(void *ctx, int64_t *obj)
{
    struct told *t = ctx;
    *obj = t->bound;
    return t->polls++ == 0;
}

static int see_incumbent(void *ctx, const uint8_t *vals)
{
    struct told *t = ctx;
    int64_t o = ilpm_model_objective_value(t->m, vals);
    t->incumbents++;
    if (t->sense == ILPM_MAXIMIZE ? o <= t->bound : o >= t->bound)
        t->worse++;
    return 0;
}

/* A back end told a bound (ilpm_solver_on_bound) finds only better
 * solutions, the optimum when it is better, and else proves that
 * nothing better exists (ILPM_UNSAT, not ILPM_OPTIMAL): cp and sat, on a
 * maximisation and a minimisation. */
START_TEST(test_bound_from_outside)
{
    const ilpm_backend bs[2] = {ILPM_BACKEND_CP, ILPM_BACKEND_SAT};
    for (int k = 0; k < 4; k++) {
        ilpm_sense sense = k & 1 ? ILPM_MINIMIZE : ILPM_MAXIMIZE;
        int64_t opt;
        ilpm_model *m = knapsack(sense, &opt);
        int64_t away = sense == ILPM_MAXIMIZE ? -3 : 3;
        for (int at = 0; at < 2; at++) {
            ilpm_options o;
            ilpm_options_init(&o);
            o.backend = bs[k / 2];
            ilpm_err err = {0};
            ilpm_solver *s = ilpm_solver_new(m, &o, &err);
            ck_assert_msg(s != NULL, "%s", err.msg);
            struct told t = {m, sense, at ? opt : opt + away, 0, 0, 0};
            ilpm_solver_on_bound(s, give_bound, &t);
            ilpm_solver_on_incumbent(s, see_incumbent, &t);
            ilpm_status st = ilpm_solver_optimize(s, NULL, 0, &err);
            ck_assert_int_ge(t.polls, 1);
            ck_assert_int_eq(t.worse, 0);
            if (at) { /* told the optimum: nothing better */
                ck_assert_int_eq(st, ILPM_UNSAT);
                ck_assert_int_eq(t.incumbents, 0);
                ck_assert_ptr_null(ilpm_solver_values(s));
            } else {
                ck_assert_int_eq(st, ILPM_OPTIMAL);
                ck_assert_int_ge(t.incumbents, 1);
                ck_assert_int_eq(ilpm_solver_objective(s), opt);
            }
            ilpm_solver_free(s);
        }
        ilpm_model_free(m);
    }
}
END_TEST

static void append_log(void *ctx, const char *line)
{
    ilpm_buf_puts(ctx, line);
}

/* The portfolio shares its verified incumbents: ilp (member 0) stops
 * after its first incumbent (the optimum on these two files: their LP
 * bounds and GLPK's heuristics give it), cp waits for that bound and
 * proves that nothing is better, and the run answers optimal, verified,
 * with ilp's incumbent: a maximisation and a minimisation. */
START_TEST(test_shared_incumbent_proved)
{
    const char *files[2] = {"data/models/knapsack.lp",
                            "data/models/setcover.mps"};
    const int64_t opts[2] = {51, 2};
    for (int k = 0; k < 2; k++) {
        ilpm_params *p = ilpm_params_new();
        ilpm_params_set(p, "file", files[k]);
        void *inst = model_file(files[k], p);
        ilpm_run_opts o;
        auto_opts(&o, 2);
        ilpm_buf log;
        ilpm_buf_init(&log);
        o.solver.verbose = 1;
        o.solver.log = append_log;
        o.solver.log_ctx = &log;
        ilpm_result r;
        ilpm_portfolio_test_stall = 0;
        run(&ilpm_puzzle_model, inst, p, &o, &r);
        ilpm_portfolio_test_stall = -1;
        ck_assert_msg(strstr(ilpm_buf_str(&log),
                             "auto: cp proved nothing better than the "
                             "incumbent") != NULL,
                      "%s", ilpm_buf_str(&log));
        ck_assert_int_eq(r.status, ILPM_OPTIMAL);
        ck_assert(r.verified);
        ck_assert(r.has_objective);
        ck_assert_int_eq(r.objective, opts[k]);
        ck_assert_str_eq(r.member, "cp");
        ilpm_result_free(&r);
        ilpm_buf_free(&log);
        no_children();
        /* Members that end at once: an incumbent read after they have
         * gone is still shared, to pipes no one reads any more (the
         * parent must not die of SIGPIPE). */
        o.solver.verbose = 0;
        for (int rep = 0; rep < 20; rep++) {
            run(&ilpm_puzzle_model, inst, p, &o, &r);
            ck_assert_int_eq(r.status, ILPM_OPTIMAL);
            ck_assert_int_eq(r.objective, opts[k]);
            ilpm_result_free(&r);
            no_children();
        }
        ilpm_puzzle_model.free_instance(inst);
        ilpm_params_free(p);
    }
}
END_TEST

/* A log into a file all processes append to (ctx: its fd): what the
 * members log too. */
static void log_to_fd(void *ctx, const char *text)
{
    ck_assert_int_eq(write(*(int *)ctx, text, strlen(text)),
                     (ssize_t)strlen(text));
}

/* The file of fd from its start, emptied after (a fresh log). */
static char *take_log(int fd)
{
    static char buf[1 << 16];
    ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    ck_assert_int_ge(n, 0);
    buf[n] = '\0';
    ck_assert_int_eq(ftruncate(fd, 0), 0);
    return buf;
}

/* The lines of log that start with "cp: " (cp's search, at its end):
 * how many; the last one's counts (up to " propagations") into out. */
static int cp_lines(const char *log, char *out, size_t size)
{
    int k = 0;
    for (const char *l = log; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l)
        if (strncmp(l, "cp: ", 4) == 0) {
            const char *e = strstr(l, " propagations");
            ck_assert_ptr_nonnull(e);
            snprintf(out, size, "%.*s", (int)(e - l), l);
            k++;
        }
    return k;
}

/* The first member's moment alone is kept: L(2,191), whose depth-first
 * cp search (27,494 nodes, 0.1-0.2 s, where CaDiCaL with target phases
 * takes 5 s) outlasts a moment of 0.01 s, goes on in the race from the
 * moment: one search of cp, with the nodes, failures and restarts of
 * cp alone, not a moment's search and a second from scratch. */
START_TEST(test_moment_kept)
{
    ilpm_params *p = ilpm_params_new();
    void *l = from_params(&ilpm_puzzle_langford, p, "n", "191", "k", "2");
    char path[] = "/tmp/check_portfolio_log_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    ck_assert_int_eq(fcntl(fd, F_SETFL, O_APPEND), 0);
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.backend = ILPM_BACKEND_CP;
    ck_assert_int_eq(ilpm_options_set(&o.solver, "learn", "off", NULL), 0);
    o.solver.verbose = 1;
    o.solver.log = log_to_fd;
    o.solver.log_ctx = &fd;
    o.solver.time_limit = 20;
    ilpm_result r;
    run(&ilpm_puzzle_langford, l, p, &o, &r);
    ck_assert_int_eq(r.status, ILPM_SOLVED);
    ilpm_result_free(&r);
    char alone[256], kept[256];
    ck_assert_int_eq(cp_lines(take_log(fd), alone, sizeof alone), 1);

    ilpm_run_opts a;
    auto_opts(&a, 2);
    a.solver.verbose = 1;
    a.solver.log = log_to_fd;
    a.solver.log_ctx = &fd;
    a.solver.time_limit = 20;
    ilpm_portfolio_quick_s = 0.01;
    run(&ilpm_puzzle_langford, l, p, &a, &r);
    const char *log = take_log(fd);
    ck_assert_msg(strstr(log, "auto: cp learn=off goes on in the race after") !=
                      NULL,
                  "%s", log);
    ck_assert_msg(cp_lines(log, kept, sizeof kept) == 1, "%s", log);
    ck_assert_str_eq(kept, alone);
    verified_by(&r, ILPM_SOLVED, "cp learn=off");
    close(fd);
    ilpm_puzzle_langford.free_instance(l);
    ilpm_params_free(p);
}
END_TEST

/* Optimising, the kept first member is GLPK's: its search goes on in the
 * race (the other member, cp, is bounded by its incumbents) and the run
 * proves the file's optimum. */
START_TEST(test_moment_kept_optimising)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "file", "data/models/setcover.mps");
    void *inst = model_file("data/models/setcover.mps", p);
    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_buf log;
    ilpm_buf_init(&log);
    o.solver.verbose = 1;
    o.solver.log = append_log;
    o.solver.log_ctx = &log;
    ilpm_portfolio_quick_s = 1e-9; /* met at the first look at the clock */
    ilpm_result r;
    run(&ilpm_puzzle_model, inst, p, &o, &r);
    ck_assert_msg(strstr(ilpm_buf_str(&log),
                         "auto: ilp goes on in the race after") != NULL,
                  "%s", ilpm_buf_str(&log));
    ck_assert_int_eq(r.status, ILPM_OPTIMAL);
    ck_assert(r.verified);
    ck_assert_int_eq(r.objective, 2);
    ck_assert(strcmp(r.member, "ilp") == 0 || strcmp(r.member, "cp") == 0);
    ilpm_result_free(&r);
    ilpm_buf_free(&log);
    no_children();
    ilpm_portfolio_quick_s = 0.05;
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

static void stall_body(void *arg, int fd)
{
    (void)arg;
    (void)fd;
    for (;;)
        pause(); /* until killed */
}

/* The first member's incumbent of its moment (before its fork) is the
 * race's: checked, kept and shared.  Member 0 here says nothing more;
 * cp waits for the bound (the stall hook), proves nothing better, and
 * the run answers optimal with that incumbent. */
START_TEST(test_moment_incumbent)
{
    ilpm_params *p = ilpm_params_new();
    ilpm_params_set(p, "file", "data/models/knapsack.lp");
    void *inst = model_file("data/models/knapsack.lp", p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err = {0};
    ck_assert_int_eq(ilpm_puzzle_model.build(inst, p, m, &err), 0);
    ilpm_options so;
    ilpm_options_init(&so);
    so.backend = ILPM_BACKEND_ILP;
    ilpm_solver *s = ilpm_solver_new(m, &so, &err);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(ilpm_solver_optimize(s, NULL, 0, &err), ILPM_OPTIMAL);
    int nv = ilpm_model_nvars(m);
    ilpm_pf_first first = {0};
    first.incumbent = malloc((size_t)nv + 1);
    memcpy(first.incumbent, ilpm_solver_values(s), (size_t)nv + 1);
    first.objective = ilpm_solver_objective(s);
    ck_assert_int_eq(first.objective, 51);
    ilpm_solver_free(s);
    first.pid = ilpm_portfolio_spawn(stall_body, NULL, 2, &first.fd);
    ck_assert_int_gt(first.pid, 0);
    first.back = -1;
    first.t0 = ilpm_now();

    ilpm_run_opts o;
    auto_opts(&o, 2);
    ilpm_buf log;
    ilpm_buf_init(&log);
    o.solver.verbose = 1;
    o.solver.log = append_log;
    o.solver.log_ctx = &log;
    ilpm_result r;
    ilpm_result_init(&r);
    ilpm_portfolio_test_stall = 0;
    ilpm_portfolio_solve(&ilpm_puzzle_model, inst, p, &o, m, &o.solver, &first,
                         &r);
    ilpm_portfolio_test_stall = -1;
    const char *text = ilpm_buf_str(&log);
    ck_assert_msg(strstr(text, "auto: incumbent 51 from ilp") != NULL, "%s",
                  text);
    ck_assert_msg(strstr(text, "auto: cp proved nothing better than the "
                               "incumbent") != NULL,
                  "%s", text);
    ck_assert_int_eq(r.status, ILPM_OPTIMAL);
    ck_assert(r.verified);
    ck_assert_int_eq(r.objective, 51);
    ck_assert_str_eq(r.member, "cp");
    ilpm_result_free(&r);
    ilpm_buf_free(&log);
    free(first.incumbent);
    no_children();
    ilpm_model_free(m);
    ilpm_puzzle_model.free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("portfolio");
    TCase *tc = tcase_create("ilpm_portfolio");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_first_verified_answer);
    tcase_add_test(tc, test_wrong_answer_refused);
    tcase_add_test(tc, test_count_by_cubes);
    tcase_add_test(tc, test_cubes_by_exactly_ones);
    tcase_add_test(tc, test_one_thread_is_ilp);
    tcase_add_test(tc, test_members);
    tcase_add_test(tc, test_solver_refuses_auto);
    tcase_add_test(tc, test_quick_alone);
    tcase_add_test(tc, test_sudoku_members);
    tcase_add_test(tc, test_fzn_members);
    tcase_add_test(tc, test_formulation_member);
    tcase_add_test(tc, test_memory_share);
    tcase_add_test(tc, test_bound_from_outside);
    tcase_add_test(tc, test_shared_incumbent_proved);
    tcase_add_test(tc, test_moment_kept);
    tcase_add_test(tc, test_moment_kept_optimising);
    tcase_add_test(tc, test_moment_incumbent);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
