/* testutil.h: what the Check test programs share: running a suite, and
 * checking that a malformed file in data/bad/ fails with its own message.
 * Header-only; each test program includes it once. */
#ifndef ILPM_TESTUTIL_H
#define ILPM_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef ILPM_TESTUTIL_PUZZLES
#include "puzzle.h"

/* Parses data/bad/FILE (good instances before the bad one are skipped)
 * and checks the error reads "data/bad/" MSG exactly; returns the reader,
 * standing past the bad instance, for further checks (caller frees). */
static inline ilpm_reader *check_bad_file(const ilpm_puzzle *pz, ilpm_params *p,
                                          const char *file, const char *msg)
{
    char path[256], want[640];
    snprintf(path, sizeof path, "data/bad/%s", file);
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open(path, &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    void *inst = NULL;
    int r;
    while ((r = pz->parse(rd, p, &inst, &err)) == 1)
        pz->free_instance(inst);
    ck_assert_msg(r == -1, "%s parsed without an error", path);
    snprintf(want, sizeof want, "data/bad/%s", msg);
    ck_assert_str_eq(err.msg, want);
    return rd;
}

/* Decodes vals and checks the solution by the puzzle's rules: the
 * solution (caller frees with pz->free_solution), or NULL with
 * "decode: ..." or "verify: ..." in error. */
static inline void *decode_checked(const ilpm_puzzle *pz, const void *inst,
                                   const ilpm_params *p, const ilpm_model *m,
                                   const uint8_t *vals, char *error,
                                   size_t size)
{
    ilpm_err err;
    void *sol = pz->decode(inst, p, m, vals, &err);
    if (!sol) {
        snprintf(error, size, "decode: %s", err.msg);
        return NULL;
    }
    if (pz->verify(inst, p, sol, &err) != 0) {
        snprintf(error, size, "verify: %s", err.msg);
        pz->free_solution(sol);
        return NULL;
    }
    return sol;
}
#endif

/* What reaches file descriptors 1 and 2 between capture_begin and
 * capture_end goes to a temporary file, for tests that the library
 * prints nothing (or what it should) on its own. */
typedef struct fd_capture {
    FILE *file;
    int out, err;
} fd_capture;

static inline void capture_begin(fd_capture *c)
{
    c->file = tmpfile();
    ck_assert_ptr_nonnull(c->file);
    fflush(stdout);
    fflush(stderr);
    c->out = dup(1);
    c->err = dup(2);
    dup2(fileno(c->file), 1);
    dup2(fileno(c->file), 2);
}

/* Puts 1 and 2 back; returns the file, rewound (the caller closes it). */
static inline FILE *capture_end(fd_capture *c)
{
    fflush(stdout);
    fflush(stderr);
    dup2(c->out, 1);
    dup2(c->err, 2);
    close(c->out);
    close(c->err);
    rewind(c->file);
    return c->file;
}

/* Random numbers for the random-model tests (splitmix64, so that a seed
 * draws the same models everywhere), and a random literal of x[1..nv]. */
static inline uint64_t test_rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline int test_rlit(uint64_t *s, int nv)
{
    int v = 1 + (int)(test_rnd(s) % (uint64_t)nv);
    return test_rnd(s) & 1 ? v : -v;
}

/* How much slower than native the tests run: the valgrind test setup
 * (meson test --setup valgrind) sets ILPM_UNDER_VALGRIND.  Time limits
 * that must leave room for some work scale by it. */
static inline double test_slowdown(void)
{
    const char *v = getenv("ILPM_UNDER_VALGRIND");
    return v && *v ? 30.0 : 1.0;
}

/* Runs the suite; the exit status of a test program. */
static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
