/* testutil.h: what the Check test programs share: running a suite, and
 * checking that a malformed file in data/bad/ fails with its own message.
 * Header-only; each test program includes it once. */
#ifndef ILPM_TESTUTIL_H
#define ILPM_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends.h"

#ifdef ILPM_TESTUTIL_RANDOM
#include "ilpm_int.h"
/* Random small models, shared by the solver and cp tests. */
static uint64_t rng_state = 12345;

static inline unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng_state >> 33) % n);
}

static inline int rnd_lit(int nv)
{
    int v = 1 + (int)rnd((unsigned)nv);
    return rnd(2) ? v : -v;
}

/* A random model over nx puzzle variables and na aux variables with a few
 * constraints of every kind; objective when with_obj. */
static inline ilpm_model *random_model(int nx, int na, int with_obj)
{
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {nx};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    if (na > 0) {
        hi[0] = na;
        ilpm_model_family(m, "y", 1, lo, hi, ILPM_FAM_AUX, &err);
    }
    int nv = nx + na;
    int ncons = 1 + (int)rnd(4);
    for (int i = 0; i < ncons; i++) {
        int n = 1 + (int)rnd((unsigned)nv);
        int l[16];
        int64_t c[16];
        for (int j = 0; j < n; j++) {
            l[j] = rnd_lit(nv);
            c[j] = (int64_t)rnd(9) - 4;
        }
        ilpm_cmp cmp = (ilpm_cmp)rnd(3);
        int k = (int)rnd((unsigned)n + 1);
        char g[8];
        snprintf(g, sizeof g, "g%u", rnd(3));
        ilpm_model_group(m, g, &err);
        int rc = 0;
        switch (rnd(8)) {
        case 0:
            rc = ilpm_add_clause(m, l, n, &err);
            break;
        case 1:
            rc = ilpm_add_alo(m, l, n, &err);
            break;
        case 2:
            rc = ilpm_add_amo(m, l, n, &err);
            break;
        case 3:
            rc = ilpm_add_exo(m, l, n, &err);
            break;
        case 4:
            rc = ilpm_add_impl(m, l[0], rnd_lit(nv), &err);
            break;
        case 5:
            rc = ilpm_add_card(m, l, n, cmp, k, &err);
            break;
        case 6:
            rc = ilpm_add_ccard(m, rnd_lit(nv), l, n, cmp, k, &err);
            break;
        default:
            rc = ilpm_add_linear(m, c, l, n, cmp, (int64_t)rnd(7) - 2, &err);
        }
        ck_assert_msg(rc == 0, "%s", err.msg);
    }
    if (with_obj) {
        int l[16];
        int64_t c[16];
        for (int j = 0; j < nx; j++) {
            l[j] = rnd_lit(nx);
            c[j] = (int64_t)rnd(11) - 5;
        }
        ilpm_model_objective(m, rnd(2) ? ILPM_MAXIMIZE : ILPM_MINIMIZE, c, l,
                             nx, &err);
    }
    return m;
}

#endif

#ifdef ILPM_TESTUTIL_KERN
#include "cp.h"
#include <string.h>
/* A cp search over e, nothing set but what a test names: strategy and
 * mode, no objective, no deadline. */
static inline void test_cp_search(cp_search *cs, ilpm_kern *e, uint8_t *aux,
                                  ilpm_search strategy, cp_mode mode)
{
    memset(cs, 0, sizeof *cs);
    cs->e = e;
    cs->aux = aux;
    cs->strategy = strategy;
    cs->obj = -1;
    cs->mode = mode;
    ilpm_watch_until(&cs->w, 0, NULL);
}

/* The objective's row as cp's driver adds it (minimisation form,
 * negative coefficients folded): its number, and the shift into *shift
 * (at most 16 terms). */
static inline int test_objective_row(ilpm_kern *e, const ilpm_model *m,
                                     int64_t *shift)
{
    int n;
    const int *lits;
    const int64_t *coefs;
    ilpm_sense sense = ilpm_model_objective_get(m, &n, &lits, &coefs);
    int64_t c[16];
    ck_assert_int_le(n, 16);
    *shift = 0;
    for (int i = 0; i < n; i++) {
        c[i] = sense == ILPM_MAXIMIZE ? -coefs[i] : coefs[i];
        *shift += c[i] < 0 ? c[i] : 0;
    }
    return ilpm_kern_add(e, c, lits, n, ILPM_LE, INT64_MAX / 4, 0);
}
#endif

#ifdef ILPM_TESTUTIL_PUZZLES
#include "puzzle.h"

/* The first instance of pz in text, read from memory. */
static inline void *parse_text(const ilpm_puzzle *pz, const ilpm_params *p,
                               const char *text)
{
    ilpm_reader *rd = ilpm_reader_mem("mem", text, strlen(text));
    ilpm_err err;
    void *inst = NULL;
    ck_assert_msg(pz->parse(rd, p, &inst, &err) == 1, "%s", err.msg);
    ilpm_reader_free(rd);
    return inst;
}

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

/* How many of n random cases to run.  The sanitizer pass of CI (meson
 * test --setup sanitized) sets ILPM_TEST_QUICK: there the random
 * cross-checks run a quarter of their seeds, each path still taken;
 * the plain build runs them all. */
static inline int test_seeds(int n)
{
    const char *v = getenv("ILPM_TEST_QUICK");
    return v && *v ? (n + 3) / 4 : n;
}

/* 1 when this system may back a block with transparent huge pages
 * (Linux, /sys/kernel/mm/transparent_hugepage/enabled not [never]). */
static inline int test_thp_on(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char line[128] = "";
    if (!f)
        return 0;
    int ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
    fclose(f);
    return ok;
}

/* 1 when the mapping that holds addr asks for huge pages: its VmFlags
 * in /proc/self/smaps name hg (madvise MADV_HUGEPAGE). */
static inline int test_thp_marked(const void *addr)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, marked = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char dash;
        if (sscanf(line, "%lx%c%lx ", &lo, &dash, &hi) == 3 && dash == '-')
            in = (unsigned long)addr >= lo && (unsigned long)addr < hi;
        else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            marked = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return marked;
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
