/* Tetravex end to end through the run layer: the public instances copied
 * into data/tetravex/ against their known solution counts on both back
 * ends and all three formulations, the reference solutions, generated
 * boards (solvable and not) on which every formulation and back end must
 * agree, distinct-board counts against a brute-force count that shares
 * nothing with the model, the three input formats, every malformed
 * input's own message, bad parameters, the verifier and the renderers.
 * Runs from the source root (paths data/...). */
#include "puzzles.h"
#include "run.h"

#include "testutil.h"
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_puzzle *pz = &ilpm_puzzle_tetravex;

static const char *const forms[] = {"assign", "conflict", "edges"};
#define NFORMS 3
/* What the solving tests run: each formulation, and two with --diag
 * (written "F+diag"). */
static const char *const variants[] = {"assign", "conflict", "edges",
                                       "assign+diag", "edges+diag"};
#define NVARIANTS 5

static ilpm_params *params(const char *fmt, const char *form)
{
    ilpm_params *p = ilpm_params_new();
    ck_assert_ptr_nonnull(p);
    if (fmt)
        ilpm_params_set(p, "input-format", fmt);
    if (form) {
        char f[32];
        snprintf(f, sizeof f, "%s", form);
        char *plus = strchr(f, '+');
        if (plus) {
            *plus = '\0';
            ilpm_params_set(p, plus + 1, NULL);
        }
        ilpm_params_set(p, "formulation", f);
    }
    return p;
}

static void *parse_path(const char *path, const char *fmt)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    ilpm_params *p = params(fmt, NULL);
    void *inst = NULL;
    int r = pz->parse(rd, p, &inst, &err);
    ck_assert_msg(r == 1, "%s: %s", path, r < 0 ? err.msg : "no instance");
    ilpm_params_free(p);
    ilpm_reader_free(rd);
    return inst;
}

static void *parse_text(const char *text, const char *fmt)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
    ilpm_params *p = params(fmt, NULL);
    void *inst = NULL;
    int r = pz->parse(rd, p, &inst, &err);
    ck_assert_msg(r == 1, "%s", r < 0 ? err.msg : "no instance");
    ilpm_params_free(p);
    ilpm_reader_free(rd);
    return inst;
}

/* Solves (or counts) inst with one formulation on one back end. */
static void run(const void *inst, const char *form, ilpm_backend b, int count,
                ilpm_result *r)
{
    ilpm_params *p = params(NULL, form);
    ilpm_run_opts o;
    ilpm_run_opts_init(&o);
    o.solver.backend = b;
    o.count = count;
    ilpm_result_init(r);
    ck_assert_int_eq(ilpm_run_instance(pz, inst, p, &o, r), 0);
    ilpm_params_free(p);
}

/* Formulations to run on GLPK, a bit each. */
#define ILP_ALL 31
#define ILP_NO_CONFLICT 29
#define ILP_ASSIGN 1

/* Counts inst with every formulation on SAT, and with the formulations in
 * ilp on GLPK, checking each count against want. */
static void expect_count_of(const void *inst, const char *what, uint64_t want,
                            int ilp, const char *const *variants, int nvariants)
{
    for (int f = 0; f < nvariants; f++)
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            if (b == ILPM_BACKEND_ILP && !(ilp & 1 << f))
                continue;
            ilpm_result r;
            run(inst, variants[f], (ilpm_backend)b, 1, &r);
            ck_assert_msg(r.status == (want ? ILPM_SOLVED : ILPM_UNSAT),
                          "%s %s %s: %s %s", what, variants[f],
                          ilpm_backend_name((ilpm_backend)b),
                          ilpm_status_name(r.status), r.error);
            ck_assert_msg(
                r.count == want, "%s %s %s: %llu boards, expected %llu", what,
                variants[f], ilpm_backend_name((ilpm_backend)b),
                (unsigned long long)r.count, (unsigned long long)want);
            /* verified: boards were reported and all passed */
            ck_assert_msg(r.verified == (want > 0), "%s %s: %s", what,
                          variants[f], r.error);
            ilpm_result_free(&r);
        }
}

static void expect_count(const void *inst, const char *what, uint64_t want,
                         int ilp)
{
    expect_count_of(inst, what, want, ilp, variants, NVARIANTS);
}

/* ------------------------------------------------------------------ */
/* Public instances                                                     */

/* Calls fn on each board of data/tetravex/solution_counts.tsv of size
 * at most max_n, parsed (freed after), with its path, size and count;
 * returns how many. */
static int each_public_count(int max_n, void (*fn)(void *inst, const char *path,
                                                   int n, unsigned long want))
{
    FILE *f = fopen("data/tetravex/solution_counts.tsv", "r");
    ck_assert_msg(f != NULL, "data/tetravex/solution_counts.tsv missing");
    char line[512];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char file[256], fmt[32], size[16];
        unsigned long want;
        if (sscanf(line, "%255s %31s %15s %lu", file, fmt, size, &want) != 4 ||
            atoi(size) > max_n)
            continue; /* the header, or too large */
        char path[300];
        snprintf(path, sizeof path, "data/tetravex/%s", file);
        void *inst = parse_path(path, fmt);
        fn(inst, path, atoi(size), want);
        pz->free_instance(inst);
        rows++;
    }
    fclose(f);
    return rows;
}

/* GLPK needs seconds per count on the conflict formulation from 4x4 on
 * (up to 18 s; over a minute at 5x5), and at 6x6 on all but assign (up
 * to 23 s with --diag): those runs are left out (tests/bench/tetravex.sh
 * measures how far GLPK goes). */
static void public_count(void *inst, const char *path, int n,
                         unsigned long want)
{
    expect_count(inst, path, want,
                 n <= 3   ? ILP_ALL
                 : n <= 5 ? ILP_NO_CONFLICT
                          : ILP_ASSIGN);
}

START_TEST(test_public_counts)
{
    ck_assert_int_ge(each_public_count(INT_MAX, public_count), 27);
}
END_TEST

/* The elrandar files come with their solved boards (top left right
 * bottom, row-major): the unique solution must show the same digits. */
START_TEST(test_reference_boards)
{
    static const char *const names[] = {"given",       "bourquelot2",
                                        "bourquelot3", "bourquelot4",
                                        "bourquelot5", "bourquelot6"};
    static const int sizes[] = {2, 2, 3, 4, 5, 6};
    for (int i = 0; i < 6; i++) {
        int k = sizes[i];
        char path[128], ref[128];
        snprintf(path, sizeof path, "data/tetravex/epita_cmkv_elrandar/%s.txt",
                 names[i]);
        snprintf(ref, sizeof ref,
                 "data/tetravex/epita_cmkv_elrandar/%s-ref.txt", names[i]);
        void *inst = parse_path(path, "epita");
        ilpm_result r;
        run(inst, "assign", ILPM_BACKEND_SAT, 0, &r);
        ck_assert_int_eq(r.status, ILPM_SOLVED);
        ck_assert(r.verified);
        /* The tile numbers from the JSON, then the tiles from the file. */
        int cells = k * k, tile[36], got = 0;
        const char *s = strchr(r.json, '[');
        ck_assert_ptr_nonnull(s);
        for (s++; got < cells && *s && *s != ']'; got++) {
            char *end;
            tile[got] = (int)strtol(s, &end, 10);
            s = *end == ',' ? end + 1 : end;
        }
        ck_assert_int_eq(got, cells);
        char tiles[36][8], refs[36][8];
        FILE *fp = fopen(path, "r"), *fr = fopen(ref, "r");
        ck_assert(fp && fr);
        for (int i = 0; i < cells; i++) {
            ck_assert_int_eq(fscanf(fp, "%4s", tiles[i]), 1);
            char at[4];
            long pos = ftell(fp);
            if (fscanf(fp, " %1[@]", at) != 1)
                fseek(fp, pos, SEEK_SET);
            ck_assert_int_eq(fscanf(fr, "%4s", refs[i]), 1);
        }
        fclose(fp);
        fclose(fr);
        for (int c = 0; c < cells; c++)
            ck_assert_msg(strcmp(tiles[tile[c] - 1], refs[c]) == 0,
                          "%s cell %d: %s, reference %s", path, c + 1,
                          tiles[tile[c] - 1], refs[c]);
        ilpm_result_free(&r);
        pz->free_instance(inst);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Generated boards                                                      */

static char *generate(int n, int seed, int digits, int count, int unsolvable,
                      const char *fmt)
{
    ilpm_params *p = ilpm_params_new();
    char v[16];
    snprintf(v, sizeof v, "%d", n);
    ilpm_params_set(p, "n", v);
    snprintf(v, sizeof v, "%d", seed);
    ilpm_params_set(p, "seed", v);
    snprintf(v, sizeof v, "%d", digits);
    ilpm_params_set(p, "digits", v);
    snprintf(v, sizeof v, "%d", count);
    ilpm_params_set(p, "count", v);
    if (unsolvable)
        ilpm_params_set(p, "unsolvable", NULL);
    if (fmt)
        ilpm_params_set(p, "input-format", fmt);
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_err err;
    ck_assert_msg(pz->generate(p, NULL, &b, &err) == 0, "%s", err.msg);
    ilpm_params_free(p);
    return ilpm_buf_take(&b);
}

/* Every formulation on both back ends finds the same answer: a verified
 * board, or none.  GLPK on the conflict formulation needs more than 30 s
 * from 5x5 on: there it gets 2 s, and a time-out is accepted where a
 * wrong answer is not. */
static void expect_agree(const void *inst, int n, const char *what,
                         int solvable)
{
    for (int f = 0; f < NVARIANTS; f++)
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            int slow = n >= 5 && f == 1 && b == ILPM_BACKEND_ILP;
            ilpm_params *p = params(NULL, variants[f]);
            ilpm_run_opts o;
            ilpm_run_opts_init(&o);
            o.solver.backend = (ilpm_backend)b;
            o.solver.time_limit = slow ? 2 : 0;
            ilpm_result r;
            ilpm_result_init(&r);
            ck_assert_int_eq(ilpm_run_instance(pz, inst, p, &o, &r), 0);
            ck_assert_msg(r.status == (solvable ? ILPM_SOLVED : ILPM_UNSAT) ||
                              (slow && r.status == ILPM_TIMEOUT),
                          "%s %s %s: %s %s", what, variants[f],
                          ilpm_backend_name((ilpm_backend)b),
                          ilpm_status_name(r.status), r.error);
            if (r.status == ILPM_SOLVED)
                ck_assert_msg(r.verified, "%s: %s", what, r.error);
            ilpm_result_free(&r);
            ilpm_params_free(p);
        }
}

START_TEST(test_generated_agree)
{
    for (int n = 3; n <= 5; n++)
        for (int unsolvable = 0; unsolvable < 2; unsolvable++) {
            char *text = generate(n, 40 + n, 10, 1, unsolvable, NULL);
            void *inst = parse_text(text, "native");
            char what[64];
            snprintf(what, sizeof what, "gen n=%d%s", n,
                     unsolvable ? " unsolvable" : "");
            expect_agree(inst, n, what, !unsolvable);
            pz->free_instance(inst);
            free(text);
        }
}
END_TEST

/* The boards stored in data/tetravex/generated/ are what their names
 * say; the larger ones are checked on SAT only (see test_public_counts). */
START_TEST(test_generated_files)
{
    for (int n = 3; n <= 7; n++)
        for (int uns = 0; uns < 2; uns++) {
            char path[128];
            snprintf(path, sizeof path, "data/tetravex/generated/%dx%d_%s.txt",
                     n, n, uns ? "unsolvable" : "solvable");
            ilpm_err err;
            ilpm_reader *rd = ilpm_reader_open(path, &err);
            ck_assert_msg(rd != NULL, "%s", err.msg);
            ilpm_params *p = params("native", NULL);
            void *inst;
            int boards = 0, r;
            while ((r = pz->parse(rd, p, &inst, &err)) == 1) {
                boards++;
                for (int f = 0; f < NVARIANTS; f++) {
                    if (n > 4 && f != 0)
                        continue;
                    ilpm_result res;
                    run(inst, variants[f], ILPM_BACKEND_SAT, 0, &res);
                    ck_assert_msg(res.status ==
                                      (uns ? ILPM_UNSAT : ILPM_SOLVED),
                                  "%s board %d %s: %s", path, boards,
                                  variants[f], ilpm_status_name(res.status));
                    ck_assert(uns || res.verified);
                    ilpm_result_free(&res);
                }
                pz->free_instance(inst);
            }
            ck_assert_msg(r == 0, "%s: %s", path, err.msg);
            ck_assert_int_eq(boards, uns ? 2 : 3);
            ilpm_params_free(p);
            ilpm_reader_free(rd);
        }
}
END_TEST

/* Distinct boards by backtracking over tile types: a count that shares
 * nothing with the model.  tiles are [left, up, right, down]. */
static uint64_t brute(int n, int ntypes, const int (*type)[4], int *mult,
                      int *board, int cell)
{
    if (cell == n * n)
        return 1;
    uint64_t total = 0;
    for (int k = 0; k < ntypes; k++) {
        if (!mult[k])
            continue;
        if (cell % n && type[board[cell - 1]][2] != type[k][0])
            continue;
        if (cell / n && type[board[cell - n]][3] != type[k][1])
            continue;
        mult[k]--;
        board[cell] = k;
        total += brute(n, ntypes, type, mult, board, cell + 1);
        mult[k]++;
    }
    return total;
}

static uint64_t brute_count(const char *native)
{
    int n, type[64][4], mult[64] = {0}, ntypes = 0, board[64];
    const char *s = strchr(native, '\n') + 1; /* past the comment */
    ck_assert_int_eq(sscanf(s, "%d", &n), 1);
    s = strchr(s, '\n') + 1;
    for (int t = 0; t < n * n; t++) {
        int d[4];
        ck_assert_int_eq(sscanf(s, "%d %d %d %d", &d[0], &d[1], &d[2], &d[3]),
                         4);
        s = strchr(s, '\n') + 1;
        int k = 0;
        while (k < ntypes && memcmp(type[k], d, sizeof d) != 0)
            k++;
        if (k == ntypes)
            memcpy(type[ntypes++], d, sizeof d);
        mult[k]++;
    }
    return brute(n, ntypes, (const int(*)[4])type, mult, board, 0);
}

/* Few digits make twin tiles and several boards: the counts are of
 * distinct boards, on every formulation and back end. */
START_TEST(test_counts_with_twins)
{
    /* Counting on GLPK adds a no-good row per board and solves again:
     * many boards, or 4x4 with few digits, take it minutes, so those
     * cases run on SAT only. */
    static const struct {
        int n, digits, seed, ilp;
    } cases[] = {
        {2, 1, 1, 1}, {2, 2, 1, 1}, {2, 2, 2, 1}, {3, 3, 1, 1},
        {3, 3, 5, 1}, {3, 4, 3, 1}, {3, 2, 1, 0}, {4, 4, 3, 0},
    };
    int several = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text =
            generate(cases[i].n, cases[i].seed, cases[i].digits, 1, 0, NULL);
        uint64_t want = brute_count(text);
        several += want > 1;
        void *inst = parse_text(text, "native");
        char what[64];
        snprintf(what, sizeof what, "n=%d digits=%d seed=%d", cases[i].n,
                 cases[i].digits, cases[i].seed);
        expect_count(inst, what, want, cases[i].ilp ? ILP_ALL : 0);
        pz->free_instance(inst);
        free(text);
    }
    ck_assert_int_ge(several, 6);
    /* Nine identical tiles make one board, not 9! of them. */
    void *inst = parse_text("3\n1111\n1111\n1111\n1111\n1111\n1111\n1111\n"
                            "1111\n1111\n",
                            "native");
    expect_count(inst, "3x3 identical", 1, ILP_ALL);
    pz->free_instance(inst);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Formats                                                              */

static void json_of(const void *inst, char *out, size_t size)
{
    ilpm_result r;
    run(inst, "assign", ILPM_BACKEND_SAT, 0, &r);
    ck_assert_int_eq(r.status, ILPM_SOLVED);
    ck_assert(r.verified);
    snprintf(out, size, "%s", r.json);
    ilpm_result_free(&r);
}

START_TEST(test_formats_agree)
{
    /* One 2x2 board in four spellings; tile 1 = left 5, up 3, right 0,
     * down 4, as in the report's figure. */
    static const char *const text[][2] = {
        {"native", "# a comment\n2\n0 1 2 3\n5 3 0 4\n3 4 9 8\n9 3 1 7\n"},
        {"native", "2\n0123\n5304  # the report's tile\n3498\n  9317\n"},
        {"epita", "1023\n3504\n4398\n3917\n"},
        {"motyak", "2 2\n0 1 2 3\n5 3 0 4\n3 4 9 8\n9 3 1 7"},
    };
    char first[128] = "", json[128];
    for (int i = 0; i < 4; i++) {
        void *inst = parse_text(text[i][1], text[i][0]);
        json_of(inst, json, sizeof json);
        if (i == 0)
            snprintf(first, sizeof first, "%s", json);
        ck_assert_str_eq(json, first);
        pz->free_instance(inst);
    }
    ck_assert_str_eq(first, "{\"tiles\":[2,1,3,4]}");

    /* The generator writes every format; each reads back to the same
     * board. */
    char *nat = generate(4, 9, 10, 1, 0, "native");
    char *epi = generate(4, 9, 10, 1, 0, "epita");
    char *mot = generate(4, 9, 10, 1, 0, "motyak");
    void *a = parse_text(nat, "native"), *b = parse_text(epi, "epita"),
         *c = parse_text(mot, "motyak");
    char ja[256], jb[256], jc[256];
    json_of(a, ja, sizeof ja);
    json_of(b, jb, sizeof jb);
    json_of(c, jc, sizeof jc);
    ck_assert_str_eq(ja, jb);
    ck_assert_str_eq(ja, jc);
    pz->free_instance(a);
    pz->free_instance(b);
    pz->free_instance(c);
    free(nat);
    free(epi);
    free(mot);
}
END_TEST

START_TEST(test_several_instances)
{
    /* A bad board between two good ones: the reader goes on with the
     * next; describe() names sizes and lines. */
    static const char text[] = "1\n1234\n\n"
                               "2\n1234\n1 2 3\n1111\n2222\n\n"
                               "2\n0000\n0000\n0000\n0000\n";
    ilpm_reader *rd = ilpm_reader_mem("mem", text, sizeof text - 1);
    ilpm_params *p = params("native", NULL);
    ilpm_err err;
    void *inst;
    char d[64];
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    pz->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, "1x1 line 1");
    pz->free_instance(inst);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "mem:6:6: a tile has 4 sides (left up right "
                              "down), got 3");
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    pz->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, "2x2 line 10");
    pz->free_instance(inst);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
    ilpm_reader_free(rd);

    /* Pinned tiles are counted in the description. */
    inst = parse_path("data/tetravex/epita_cmkv_drguigui1/base_cases/"
                      "test_input3",
                      "epita");
    pz->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, "3x3 line 1 (2 fixed)");
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Malformed input                                                      */

static const struct {
    const char *file, *fmt, *msg;
} bad_files[] = {
    {"tetravex_tile_count.txt", "native",
     "tetravex_tile_count.txt:2:1: a 3x3 board needs 9 tiles, got 5"},
    {"tetravex_too_many_tiles.txt", "native",
     "tetravex_too_many_tiles.txt:6:1: a 2x2 board has 4 tiles, this is "
     "one more (a blank line separates instances)"},
    {"tetravex_digit_range.txt", "native",
     "tetravex_digit_range.txt:3:3: up side 12 is not a digit 0-9"},
    {"tetravex_three_sides.txt", "native",
     "tetravex_three_sides.txt:2:6: a tile has 4 sides (left up right "
     "down), got 3"},
    {"tetravex_three_digits.txt", "native",
     "tetravex_three_digits.txt:3:1: a tile has 4 sides (left up right "
     "down), got 3 digits"},
    {"tetravex_fifth_side.txt", "native",
     "tetravex_fifth_side.txt:2:9: a tile has 4 sides (left up right "
     "down), got a fifth"},
    {"tetravex_not_a_digit.txt", "native",
     "tetravex_not_a_digit.txt:2:5: expected a digit 0-9, got 'x'"},
    {"tetravex_non_square.txt", "epita",
     "tetravex_non_square.txt:8:1: 8 tiles, not a square number: an epita "
     "file holds the n*n tiles of one board"},
    {"tetravex_width_height.txt", "motyak",
     "tetravex_width_height.txt:1:3: width 3 and height 4 differ: a "
     "Tetravex board is square"},
    {"tetravex_motyak_header.txt", "motyak",
     "tetravex_motyak_header.txt:1:1: expected 'width height' on the "
     "first line"},
    {"tetravex_bad_size.txt", "native",
     "tetravex_bad_size.txt:1:1: board size 0 is outside 1..20"},
    {"tetravex_epita_as_native.txt", "native",
     "tetravex_epita_as_native.txt:1:1: board size 1234 is too large (at "
     "most 20) (tiles alone are --input-format epita)"},
    {"tetravex_size_not_alone.txt", "native",
     "tetravex_size_not_alone.txt:1:1: expected the board size N alone on "
     "the first line ('width height' is --input-format motyak)"},
    {"tetravex_at_not_allowed.txt", "native",
     "tetravex_at_not_allowed.txt:2:6: '@' (a tile in place) is only "
     "allowed with --input-format epita"},
    {"tetravex_after_at.txt", "epita",
     "tetravex_after_at.txt:1:8: unexpected 'x' after '@' (only a comment "
     "may follow)"},
    {"tetravex_nul_byte.txt", "native",
     "tetravex_nul_byte.txt:2:3: NUL byte in a text line"},
};

START_TEST(test_bad_files)
{
    for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
        char path[256];
        snprintf(path, sizeof path, "data/bad/%s", bad_files[i].file);
        ilpm_err err;
        ilpm_reader *rd = ilpm_reader_open(path, &err);
        ck_assert_msg(rd != NULL, "%s", err.msg);
        ilpm_params *p = params(bad_files[i].fmt, NULL);
        void *inst = NULL;
        int r = pz->parse(rd, p, &inst, &err);
        ck_assert_msg(r == -1, "%s parsed", path);
        char want[512];
        snprintf(want, sizeof want, "data/bad/%s", bad_files[i].msg);
        ck_assert_str_eq(err.msg, want);
        /* Past the bad board nothing is left in these files. */
        ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
        ilpm_params_free(p);
        ilpm_reader_free(rd);
    }
}
END_TEST

START_TEST(test_bad_params)
{
    ilpm_err err;
    void *inst;
    /* A bad input format is reported once, then the file is over. */
    ilpm_reader *rd = ilpm_reader_mem("mem", "1\n1234\n", 7);
    ilpm_params *p = params("dimacs", NULL);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
    ck_assert_str_eq(err.msg, "--input-format: expected one of native, "
                              "epita, motyak, got 'dimacs'");
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
    ilpm_params_free(p);
    ilpm_reader_free(rd);

    inst = parse_text("1\n1234\n", "native");
    p = params(NULL, "pairs");
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), -1);
    ck_assert_str_eq(err.msg, "--formulation: expected one of assign, "
                              "conflict, edges, got 'pairs'");
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);

    static const char *const gen_bad[][3] = {
        {"n", "0", "--n: expected an integer from 1 to 20, got '0'"},
        {"n", "x", "--n: expected an integer from 1 to 20, got 'x'"},
        {"digits", "11", "--digits: '11' is too large (at most 10)"},
        {"count", "0", "--count: expected an integer from 1 to 1000, got '0'"},
        {"seed", "-1",
         "--seed: expected an integer from 0 to 2147483647, got '-1'"},
        {"input-format", "csv",
         "--input-format: expected one of native, epita, motyak, got 'csv'"},
        {"count", "2", "--count: an epita file holds one board, got --count 2"},
        {"digits", "1",
         "--unsolvable: needs --digits 2 or more (a side must be changed "
         "to another digit)"},
    };
    for (size_t i = 0; i < sizeof gen_bad / sizeof *gen_bad; i++) {
        p = ilpm_params_new();
        if (strcmp(gen_bad[i][0], "n") != 0)
            ilpm_params_set(p, "n", "3");
        ilpm_params_set(p, gen_bad[i][0], gen_bad[i][1]);
        if (i == 6)
            ilpm_params_set(p, "input-format", "epita");
        if (i == 7)
            ilpm_params_set(p, "unsolvable", NULL);
        ilpm_buf b;
        ilpm_buf_init(&b);
        ck_assert_int_eq(pz->generate(p, NULL, &b, &err), -1);
        ck_assert_str_eq(err.msg, gen_bad[i][2]);
        ilpm_buf_free(&b);
        ilpm_params_free(p);
    }
    p = ilpm_params_new();
    ilpm_buf b;
    ilpm_buf_init(&b);
    ck_assert_int_eq(pz->generate(p, NULL, &b, &err), -1);
    ck_assert_str_eq(err.msg, "--n: the board size is required");
    ilpm_buf_free(&b);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Generator, verifier, output                                          */

START_TEST(test_generator)
{
    char *a = generate(5, 17, 10, 3, 0, NULL);
    char *b = generate(5, 17, 10, 3, 0, NULL);
    char *c = generate(5, 18, 10, 3, 0, NULL);
    ck_assert_str_eq(a, b); /* the same seed, the same boards */
    ck_assert_str_ne(a, c);
    ck_assert_int_eq(strncmp(a,
                             "# tetravex 5x5, digits 0-9, seed 17, "
                             "board 1: solvable\n5\n",
                             48),
                     0);
    ilpm_reader *rd = ilpm_reader_mem("mem", a, strlen(a));
    ilpm_params *p = params("native", NULL);
    ilpm_err err;
    void *inst;
    int boards = 0;
    while (pz->parse(rd, p, &inst, &err) == 1) {
        boards++;
        pz->free_instance(inst);
    }
    ck_assert_int_eq(boards, 3);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
    free(a);
    free(b);
    free(c);
    /* Digits stay below --digits. */
    a = generate(6, 3, 3, 1, 0, "epita");
    for (const char *s = a; *s; s++)
        ck_assert(*s == '\n' || (*s >= '0' && *s <= '2'));
    free(a);
}
END_TEST

/* Hand-made boards for the verifier, through decode as the run layer
 * does. */
START_TEST(test_verifier_rejects_broken_boards)
{
    /* The board of test_formats_agree (solved as 2 1 / 3 4), with tile 2
     * pinned to cell (1,2) by an '@': no board is valid any more. */
    void *inst = parse_text("1023\n3504 @\n4398\n3917\n", "epita");
    ilpm_params *p = params(NULL, NULL);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    int X = ilpm_model_family_find(m, "X");
    ck_assert_int_ge(X, 0);
    static const int boards[][4] = {
        {2, 1, 3, 4}, /* the digits match, but tile 2 is pinned */
        {1, 2, 3, 4}, /* right 2 against left 5 */
        {1, 1, 3, 4}, /* tile 1 twice */
        {0, 1, 3, 4}, /* empty cell */
    };
    static const char *const why[] = {
        "tile 2 is pinned to cell (1,2)",
        "cells (1,1) and (1,2) touch with 2 and 5",
        "tile 1 is on cells (1,1) and (1,2)",
        "cell (1,1) holds no tile",
    };
    for (int i = 0; i < 4; i++) {
        int nv = ilpm_model_nvars(m);
        uint8_t *vals = calloc((size_t)nv + 1, 1);
        for (int c = 0; c < 4; c++)
            if (boards[i][c])
                vals[ilpm_model_var(m, X, c / 2 + 1, c % 2 + 1, boards[i][c],
                                    0)] = 1;
        void *sol = pz->decode(inst, p, m, vals, &err);
        ck_assert_ptr_nonnull(sol);
        ck_assert_int_eq(pz->verify(inst, p, sol, &err), -1);
        ck_assert_str_eq(err.msg, why[i]);
        pz->free_solution(sol);
        free(vals);
    }
    /* Two types on one cell cannot be decoded. */
    uint8_t *vals = calloc((size_t)ilpm_model_nvars(m) + 1, 1);
    vals[ilpm_model_var(m, X, 1, 1, 1, 0)] = 1;
    vals[ilpm_model_var(m, X, 1, 1, 2, 0)] = 1;
    ck_assert_ptr_null(pz->decode(inst, p, m, vals, &err));
    ck_assert_str_eq(err.msg, "cell (1,1) holds two tiles");
    free(vals);
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);

    /* The pinned board is test_input3: its pins admit no board. */
    inst = parse_path("data/tetravex/epita_cmkv_drguigui1/base_cases/"
                      "test_input3",
                      "epita");
    ilpm_result r;
    run(inst, "assign", ILPM_BACKEND_SAT, 0, &r);
    ck_assert_int_eq(r.status, ILPM_UNSAT);
    ilpm_result_free(&r);
    pz->free_instance(inst);
}
END_TEST

START_TEST(test_render)
{
    void *inst =
        parse_text("2\n0 1 2 3\n5 3 0 4\n3 4 9 8\n9 3 1 7\n", "native");
    ilpm_result r;
    run(inst, "edges", ILPM_BACKEND_ILP, 0, &r);
    ck_assert_int_eq(r.status, ILPM_SOLVED);
    ck_assert_str_eq(r.text, "  3     1\n"
                             "5   0 0   2\n"
                             "  4     3\n"
                             "\n"
                             "  4     3\n"
                             "3   9 9   1\n"
                             "  8     7\n"
                             "\n"
                             "tiles:\n"
                             "  2   1\n"
                             "  3   4\n");
    ck_assert_str_eq(r.json, "{\"tiles\":[2,1,3,4]}");
    ilpm_result_free(&r);
    pz->free_instance(inst);
}
END_TEST

/* The sizes the formulations promise: AUX only for the edge digits, and
 * the groups each one declares; assign's support clauses go to CaDiCaL
 * only and its digit balance rows to GLPK only. */
START_TEST(test_model_groups)
{
    char *text = generate(3, 5, 10, 1, 0, NULL);
    void *inst = parse_text(text, "native");
    static const char *const groups[NFORMS][7] = {
        {"cell", "tile", "horiz", "vert", "horiz_balance", "vert_balance",
         NULL},
        {"cell", "tile", "horiz", "vert", NULL},
        {"cell", "tile", "edge", "horiz", "vert", NULL},
    };
    for (int f = 0; f < NFORMS; f++) {
        ilpm_params *p = params(NULL, forms[f]);
        ilpm_model *m = ilpm_model_new();
        ilpm_err err;
        ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
        int g = 0;
        for (; groups[f][g]; g++)
            ck_assert_str_eq(ilpm_model_group_name(m, g), groups[f][g]);
        ck_assert_int_eq(ilpm_model_ngroups(m), g);
        for (g = 0; groups[f][g]; g++)
            ck_assert_uint_eq(ilpm_model_group_redundant(m, g),
                              f != 0 || g < 2 ? 0
                              : g < 4         ? ILPM_LOWER_ROWS
                                              : ILPM_LOWER_CNF);
        int aux = 0;
        for (int v = 1; v <= ilpm_model_nvars(m); v++)
            aux += ilpm_model_var_is_aux(m, v);
        /* 81 X variables (9 distinct tiles here); edges adds 12 inner
         * edges times the digits in use. */
        ck_assert_int_eq(ilpm_model_nvars(m) - aux, 81);
        ck_assert(f == 2 ? aux > 0 : aux == 0);
        ilpm_model_free(m);
        ilpm_params_free(p);
    }
    pz->free_instance(inst);
    free(text);
}
END_TEST

/* The sides of the nine tiles of a generated 3x3 board (native text:
 * comments, N, then a tile a line). */
static void board3_sides(const char *text, int side[9][4])
{
    const char *t = text;
    while (*t == '#')
        t = strchr(t, '\n') + 1;
    int n, used = 0;
    ck_assert_int_eq(sscanf(t, "%d%n", &n, &used), 1);
    ck_assert_int_eq(n, 3);
    t += used;
    for (int i = 0; i < 9; i++) {
        ck_assert_int_eq(sscanf(t, "%d %d %d %d%n", &side[i][0], &side[i][1],
                                &side[i][2], &side[i][3], &used),
                         4);
        t += used;
    }
}

/* --diag on a 3x3 board of nine distinct tiles: the first clauses say
 * that tile a on the top-left cell needs, on the cell below-right, one of
 * the tiles b that two other tiles complete into a 2x2 block (k1 right
 * of a and above b, k2 below a and left of b), found here by brute
 * force over the tiles' sides. */
START_TEST(test_diag_rule)
{
    char *text = generate(3, 7, 10, 1, 0, NULL);
    int side[9][4]; /* left up right down */
    board3_sides(text, side);
    void *inst = parse_text(text, "native");
    ilpm_params *p = params(NULL, "assign+diag");
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    ck_assert_int_eq(ilpm_model_nvars(m), 81); /* nine distinct types */
    int X = ilpm_model_family_find(m, "X"), first = -1, ndiag = 0, fits = 0;
    for (size_t i = 0; i < ilpm_model_ncons(m); i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (strcmp(ilpm_model_group_name(m, c.group), "diag") != 0)
            continue;
        if (first < 0)
            first = (int)i;
        ndiag++;
        int a = (int)i - first;
        if (a >= 9)
            continue;
        ck_assert_int_eq(c.lits[0], -ilpm_model_var(m, X, 1, 1, a + 1, 0));
        for (int b = 0; b < 9; b++) {
            int want = 0;
            for (int k1 = 0; k1 < 9; k1++)
                for (int k2 = 0; k2 < 9; k2++)
                    want |= a != b && a != k1 && a != k2 && b != k1 &&
                            b != k2 && k1 != k2 && side[k1][0] == side[a][2] &&
                            side[k1][3] == side[b][1] &&
                            side[k2][1] == side[a][3] &&
                            side[k2][2] == side[b][0];
            int has = 0;
            for (int j = 1; j < c.n; j++)
                has |= c.lits[j] == ilpm_model_var(m, X, 2, 2, b + 1, 0);
            ck_assert_msg(has == want, "a=%d b=%d: clause %d, brute force %d",
                          a, b, has, want);
            fits += want;
        }
    }
    /* 4 blocks, 2 diagonals, both ways, 9 types */
    ck_assert_int_eq(ndiag, 4 * 2 * 2 * 9);
    ck_assert_int_gt(fits, 0);
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);
    free(text);
}
END_TEST

static const char *const red[] = {"assign+redundant", "conflict+redundant",
                                  "edges+redundant"};

/* GLPK on conflict: 3x3 only, as in test_public_counts */
static void redundant_count(void *inst, const char *path, int n,
                            unsigned long want)
{
    expect_count_of(inst, path, want, n <= 3 ? 7 : 5, red, 3);
}

/* --redundant on every formulation and back end: the counts of the
 * public boards up to 4x4, and of generated boards with twin tiles (few
 * digits), as without it. */
START_TEST(test_redundant_counts)
{
    ck_assert_int_ge(each_public_count(4, redundant_count), 20);
    static const struct {
        int n, digits, seed;
    } twins[] = {{2, 2, 1}, {3, 3, 1}, {3, 3, 5}, {3, 2, 1}};
    for (int i = 0; i < 4; i++) {
        char *text =
            generate(twins[i].n, twins[i].seed, twins[i].digits, 1, 0, NULL);
        void *inst = parse_text(text, "native");
        char what[64];
        snprintf(what, sizeof what, "n=%d digits=%d seed=%d", twins[i].n,
                 twins[i].digits, twins[i].seed);
        expect_count_of(inst, what, brute_count(text), 7, red, 3);
        pz->free_instance(inst);
        free(text);
    }
}
END_TEST

/* --redundant adds, after the formulation's groups, the lines: AUX
 * variables LC (tile slot, column) and LR (tile slot, row), and a digit
 * balance per boundary and digit in use, kept out of GLPK's rows.  On a
 * 3x3 board of nine distinct tiles every balance row says, for its digit
 * d, that the tiles left of a column boundary showing d on their right
 * are as many as the tiles right of it showing d on their left. */
START_TEST(test_redundant_lines)
{
    char *text = generate(3, 7, 10, 1, 0, NULL);
    int side[9][4]; /* left up right down */
    board3_sides(text, side);
    void *inst = parse_text(text, "native");
    for (int f = 0; f < NFORMS; f++) {
        char form[32];
        snprintf(form, sizeof form, "%s+redundant", forms[f]);
        ilpm_params *p = params(NULL, form);
        ilpm_model *m = ilpm_model_new();
        ilpm_err err;
        ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
        int ng = ilpm_model_ngroups(m);
        ck_assert_str_eq(ilpm_model_group_name(m, ng - 2), "col_digits");
        ck_assert_str_eq(ilpm_model_group_name(m, ng - 1), "row_digits");
        for (int g = ng - 2; g < ng; g++)
            ck_assert_uint_eq(ilpm_model_group_redundant(m, g),
                              ILPM_LOWER_ROWS);
        int LC = ilpm_model_family_find(m, "LC");
        ck_assert_int_ge(LC, 0);
        ck_assert_int_ge(ilpm_model_family_find(m, "LR"), 0);
        int balances = 0;
        for (size_t i = 0; i < ilpm_model_ncons(m); i++) {
            ilpm_con c;
            ilpm_model_con(m, i, &c);
            if (c.group != ng - 2 || c.kind != ILPM_LINEAR)
                continue;
            /* LC(t, j) with coefficient +1 when tile t shows d on its
             * right, -1 on column j+1 when it shows d on its left */
            int d = -1, j = -1;
            for (int x = 0; x < c.n; x++) {
                ck_assert_int_gt(c.lits[x], 0);
                int t = -1, col = -1;
                for (int tt = 1; tt <= 9 && t < 0; tt++)
                    for (int cc = 1; cc <= 3; cc++)
                        if (ilpm_model_var(m, LC, tt, cc, 0, 0) == c.lits[x]) {
                            t = tt - 1;
                            col = cc - 1;
                        }
                ck_assert_int_ge(t, 0);
                int sd = c.coefs[x] > 0 ? 2 : 0; /* right, left */
                int jj = c.coefs[x] > 0 ? col : col - 1;
                d = d < 0 ? side[t][sd] : d;
                j = j < 0 ? jj : j;
                ck_assert_int_eq(side[t][sd], d);
                ck_assert_int_eq(jj, j);
            }
            ck_assert_int_eq(c.cmp, ILPM_EQ);
            ck_assert_int_eq(c.rhs, 0);
            /* every tile showing d on its right has its term at column j,
             * every tile showing d on its left at column j+1 */
            int want = 0;
            for (int t = 0; t < 9; t++)
                want += (side[t][2] == d) + (side[t][0] == d);
            ck_assert_int_eq(c.n, want);
            balances++;
        }
        /* 2 boundaries, at most 10 digits, at least one in use */
        ck_assert_int_ge(balances, 2);
        ck_assert_int_le(balances, 20);
        ilpm_model_free(m);
        ilpm_params_free(p);
    }
    pz->free_instance(inst);
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tetravex");
    TCase *tc = tcase_create("tetravex");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_public_counts);
    tcase_add_test(tc, test_reference_boards);
    tcase_add_test(tc, test_generated_agree);
    tcase_add_test(tc, test_generated_files);
    tcase_add_test(tc, test_counts_with_twins);
    tcase_add_test(tc, test_diag_rule);
    tcase_add_test(tc, test_redundant_lines);
    tcase_add_test(tc, test_redundant_counts);
    tcase_add_test(tc, test_formats_agree);
    tcase_add_test(tc, test_several_instances);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_bad_params);
    tcase_add_test(tc, test_generator);
    tcase_add_test(tc, test_verifier_rejects_broken_boards);
    tcase_add_test(tc, test_render);
    tcase_add_test(tc, test_model_groups);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
