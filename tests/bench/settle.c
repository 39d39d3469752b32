/* settle: the settling of givens before lowering (ilpm_model_propagate)
 * on a puzzle's instances, timed apart from parsing and building, with a
 * digest of what it gives, so that two builds of ilpm can be compared
 * (tests/bench/kernel.sh builds it against each one's libilpm.a).
 *
 * Usage: settle LEVEL REPS PUZZLE FILE|- [NAME=VALUE ...]
 *   LEVEL 1 (units) or 2 (probe); each instance is settled REPS times
 *   and its fastest is counted.  FILE - takes the instance from the
 *   parameters alone (queens n=8).
 * Prints per instance "NAME fixed F cons C digest D" (F: the literals the
 * settled model fixes, C its constraints, D a hash of every one of them;
 * "unchanged" or "refuted" instead when so), then "total S" (seconds,
 * the sum of the fastest times). */
#include "ilpm_int.h"
#include "puzzle.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, int64_t x)
{
    h ^= (uint64_t)x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdu;
}

static void digest(const ilpm_model *m, long *fixed, uint64_t *h)
{
    *fixed = 0;
    *h = 0;
    for (size_t i = 0; i < ilpm_model_ncons(m); i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        *fixed += c.kind == ILPM_CLAUSE && c.n == 1;
        *h = mix(*h, c.kind);
        *h = mix(*h, c.cmp);
        *h = mix(*h, c.cond);
        *h = mix(*h, c.rhs);
        for (int t = 0; t < c.n; t++) {
            *h = mix(*h, c.lits[t]);
            *h = mix(*h, c.coefs ? c.coefs[t] : 1);
        }
    }
}

static double settle(const ilpm_model *m, int level, int reps, char *line,
                     size_t size)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        ilpm_err err;
        memset(&err, 0, sizeof err);
        int unchanged = 0;
        double t0 = ilpm_now();
        ilpm_model *out = ilpm_model_propagate(m, level, &unchanged, &err);
        double t = ilpm_now() - t0;
        best = t < best ? t : best;
        if (r == 0) {
            long fixed;
            uint64_t h;
            if (out) {
                digest(out, &fixed, &h);
                snprintf(line, size, "fixed %ld cons %zu digest %016llx", fixed,
                         ilpm_model_ncons(out), (unsigned long long)h);
            } else {
                snprintf(line, size, "%s", unchanged ? "unchanged" : "error");
            }
        }
        ilpm_model_free(out);
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: settle LEVEL REPS PUZZLE FILE|- "
                        "[NAME=VALUE ...]\n");
        return 2;
    }
    int level = atoi(argv[1]), reps = atoi(argv[2]);
    const ilpm_puzzle *pz = ilpm_puzzle_find(argv[3]);
    ilpm_params *p = ilpm_params_new();
    if (!pz || !p)
        return 2;
    for (int i = 5; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (eq)
            *eq = 0;
        ilpm_params_set(p, argv[i], eq ? eq + 1 : NULL);
    }
    ilpm_err err;
    memset(&err, 0, sizeof err);
    ilpm_reader *rd = NULL;
    if (strcmp(argv[4], "-") != 0 && !(rd = ilpm_reader_open(argv[4], &err))) {
        fprintf(stderr, "settle: %s\n", err.msg);
        return 2;
    }
    double total = 0;
    for (long k = 1;; k++) {
        void *inst = NULL;
        int got = rd ? pz->parse(rd, p, &inst, &err)
                     : (k == 1 ? pz->from_params(p, &inst, &err) : 0);
        if (got == 0)
            break;
        if (got < 0) {
            fprintf(stderr, "settle: %s\n", err.msg);
            return 2;
        }
        ilpm_model *m = ilpm_model_new();
        if (!m || pz->build(inst, p, m, &err) != 0) {
            fprintf(stderr, "settle: %s\n", err.msg);
            return 2;
        }
        char line[128];
        total += settle(m, level, reps, line, sizeof line);
        printf("#%ld %s\n", k, line);
        ilpm_model_free(m);
        pz->free_instance(inst);
    }
    printf("total %.6f\n", total);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
    return 0;
}
