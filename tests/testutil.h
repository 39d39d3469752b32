/* testutil.h: what the Check test programs share: running a suite, and
 * checking that a malformed file in data/bad/ fails with its own message.
 * Header-only; each test program includes it once. */
#ifndef ILPM_TESTUTIL_H
#define ILPM_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef ILPM_TESTUTIL_PUZZLES
#include "puzzle.h"

/* Parses data/bad/FILE (good instances before the bad one are skipped)
 * and checks the error reads "data/bad/" MSG exactly; returns the reader,
 * standing past the bad instance, for further checks (caller frees). */
static ilpm_reader *check_bad_file(const ilpm_puzzle *pz, ilpm_params *p,
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
#endif

/* Runs the suite; the exit status of a test program. */
static int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
