/* libFuzzer harness for the three back ends: the bytes describe a small
 * model (families, constraints of every kind, an objective); ILP, SAT and
 * cp (with its branching, lookahead and learning drawn from the bytes) must
 * agree with brute force on satisfiability, the optimum and the
 * projected count. */
#include "cp_opts.h"
#include "ilpm_int.h"
#include "sat_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bytes {
    const unsigned char *p;
    size_t n, i;
};

static unsigned next(struct bytes *b)
{
    return b->i < b->n ? b->p[b->i++] : 0;
}

static int lit(struct bytes *b, int nv)
{
    unsigned x = next(b);
    int v = 1 + (int)((x >> 1) % (unsigned)nv);
    return x & 1 ? -v : v;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct bytes b = {data, size, 0};
    ilpm_err err;
    ilpm_model *m = ilpm_model_new();
    int nx = 1 + (int)(next(&b) % 7), na = (int)(next(&b) % 3);
    int lo[1] = {1}, hi[1] = {nx};
    ilpm_model_family(m, "x", 1, lo, hi, 0, &err);
    if (na) {
        hi[0] = na;
        ilpm_model_family(m, "y", 1, lo, hi, ILPM_FAM_AUX, &err);
    }
    int nv = nx + na;
    int ncons = (int)(next(&b) % 6);
    for (int c = 0; c < ncons; c++) {
        unsigned kind = next(&b) % 8;
        int n = 1 + (int)(next(&b) % 8);
        int l[8];
        int64_t co[8];
        for (int j = 0; j < n; j++) {
            l[j] = lit(&b, nv);
            co[j] = (int64_t)(next(&b) % 15) - 7;
        }
        ilpm_cmp cmp = (ilpm_cmp)(next(&b) % 3);
        int64_t k = (int64_t)(next(&b) % 12) - 3;
        char g[8];
        snprintf(g, sizeof g, "g%u", next(&b) % 3);
        ilpm_model_group(m, g, &err);
        switch (kind) {
        case 0:
            ilpm_add_clause(m, l, n, &err);
            break;
        case 1:
            ilpm_add_alo(m, l, n, &err);
            break;
        case 2:
            ilpm_add_amo(m, l, n, &err);
            break;
        case 3:
            ilpm_add_exo(m, l, n, &err);
            break;
        case 4:
            ilpm_add_impl(m, l[0], lit(&b, nv), &err);
            break;
        case 5:
            ilpm_add_card(m, l, n, cmp, k, &err);
            break;
        case 6:
            ilpm_add_ccard(m, lit(&b, nv), l, n, cmp, k, &err);
            break;
        default:
            ilpm_add_linear(m, co, l, n, cmp, k, &err);
            break;
        }
    }
    int with_obj = next(&b) & 1;
    if (with_obj) {
        int l[7];
        int64_t co[7];
        for (int j = 0; j < nx; j++) {
            l[j] = lit(&b, nx);
            co[j] = (int64_t)(next(&b) % 11) - 5;
        }
        ilpm_model_objective(m, next(&b) & 1 ? ILPM_MAXIMIZE : ILPM_MINIMIZE,
                             co, l, nx, &err);
    }
    /* Brute force: feasibility, optimum, distinct projections onto x. */
    uint8_t vals[16];
    uint8_t proj[1 << 7];
    memset(proj, 0, sizeof proj);
    int feasible = 0;
    int64_t best = 0;
    uint64_t count = 0;
    ilpm_sense sense = ilpm_model_objective_get(m, NULL, NULL, NULL);
    for (unsigned a = 0; a < (1u << nv); a++) {
        for (int v = 1; v <= nv; v++)
            vals[v] = (a >> (v - 1)) & 1;
        if (!ilpm_model_check(m, vals, NULL))
            continue;
        unsigned px = a & ((1u << nx) - 1);
        if (!proj[px]) {
            proj[px] = 1;
            count++;
        }
        int64_t o = ilpm_model_objective_value(m, vals);
        if (!feasible || (sense == ILPM_MAXIMIZE ? o > best : o < best))
            best = o;
        feasible = 1;
    }
    for (int be = 0; be < ILPM_BACKEND_COUNT; be++) {
        ilpm_options o;
        ilpm_options_init(&o);
        o.backend = (ilpm_backend)be;
        ilpm_sat_opts_in(&o)->amo = (ilpm_amo_enc)(next(&b) % 4);
        ilpm_sat_opts_in(&o)->card = (ilpm_card_enc)(next(&b) % 2);
        if (o.backend == ILPM_BACKEND_CP) {
            ilpm_cp_opts_in(&o)->search = (ilpm_search)(next(&b) % 3);
            ilpm_cp_opts_in(&o)->lookahead = next(&b) % 3;
            ilpm_cp_opts_in(&o)->learn = (ilpm_learn)(next(&b) % 3);
        }
        ilpm_solver *s = ilpm_solver_new(m, &o, &err);
        if (!s) {
            fprintf(stderr, "solver: %s\n", err.msg);
            abort();
        }
        ilpm_status st = with_obj ? ilpm_solver_optimize(s, NULL, 0, &err)
                                  : ilpm_solver_solve(s, NULL, 0, &err);
        if (feasible != (st != ILPM_UNSAT) || st == ILPM_ERROR) {
            fprintf(stderr, "%s: %s, brute force says %s\n",
                    ilpm_backend_name(o.backend), ilpm_status_name(st),
                    feasible ? "feasible" : "infeasible");
            abort();
        }
        if (feasible && !ilpm_model_check(m, ilpm_solver_values(s), NULL))
            abort();
        if (feasible && with_obj && ilpm_solver_objective(s) != best) {
            fprintf(stderr, "%s: optimum %lld, brute force %lld\n",
                    ilpm_backend_name(o.backend),
                    (long long)ilpm_solver_objective(s), (long long)best);
            abort();
        }
        ilpm_solver_free(s);
        s = ilpm_solver_new(m, &o, &err);
        uint64_t got = 0;
        st = ilpm_solver_count(s, 0, &got, NULL, NULL, &err);
        if (st != ILPM_SOLVED || got != count) {
            fprintf(stderr, "%s: count %llu, brute force %llu\n",
                    ilpm_backend_name(o.backend), (unsigned long long)got,
                    (unsigned long long)count);
            abort();
        }
        ilpm_solver_free(s);
    }
    ilpm_model_free(m);
    return 0;
}
