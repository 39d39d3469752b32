/* A model's values judged by the model itself: the objective's value and
 * whether every constraint holds (tests, and the solvers' own checks;
 * puzzles verify their solutions without the model). */
#include "ilpm_int.h"

static int lit_val(const uint8_t *vals, int l)
{
    return l > 0 ? vals[l] != 0 : vals[-l] == 0;
}

int64_t ilpm_model_objective_value(const ilpm_model *m, const uint8_t *vals)
{
    int n;
    const int *lits;
    const int64_t *coefs;
    ilpm_model_objective_get(m, &n, &lits, &coefs);
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += coefs[i] * lit_val(vals, lits[i]);
    return s;
}

static int cmp_holds(int64_t lhs, ilpm_cmp cmp, int64_t rhs)
{
    return cmp == ILPM_LE   ? lhs <= rhs
           : cmp == ILPM_GE ? lhs >= rhs
                            : lhs == rhs;
}

int ilpm_model_check(const ilpm_model *m, const uint8_t *vals, size_t *bad)
{
    for (size_t i = 0; i < ilpm_model_ncons(m); i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        int64_t s = 0;
        for (int j = 0; j < c.n; j++)
            s += c.coefs[j] * lit_val(vals, c.lits[j]);
        int ok;
        switch (c.kind) {
        case ILPM_IMPL:
            ok = !lit_val(vals, c.lits[0]) || lit_val(vals, c.lits[1]);
            break;
        case ILPM_CCARD:
            ok = !lit_val(vals, c.cond) || cmp_holds(s, c.cmp, c.rhs);
            break;
        default:
            ok = cmp_holds(s, c.cmp, c.rhs);
            break;
        }
        if (!ok) {
            if (bad)
                *bad = i;
            return 0;
        }
    }
    return 1;
}
