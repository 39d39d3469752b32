/* Tetravex solutions: the 0/1 values of X decoded into a tile per cell,
 * and the verifier, which judges a board by the rules of the puzzle
 * alone and shares no code with the model (model.c) that produced it. */
#include "tetravex.h"

#include <stdlib.h>

static tvx_sol *sol_new(int n)
{
    tvx_sol *s = calloc(1, sizeof *s);
    if (s && !(s->tile = malloc((size_t)n * (size_t)n * sizeof *s->tile))) {
        free(s);
        return NULL;
    }
    if (s) {
        s->n = n;
        for (int i = 0; i < n * n; i++)
            s->tile[i] = -1;
    }
    return s;
}

void ilpm_tvx_sol_free(void *p)
{
    tvx_sol *s = p;
    if (s)
        free(s->tile);
    free(s);
}

/* Types per cell -> tile indices: pinned tiles take their cells first,
 * then twins are handed out in cell order.  More cells of a type than
 * tiles of it reuse the type's first tile, which the verifier rejects. */
void *ilpm_tvx_decode(const void *inst, const ilpm_params *p,
                      const ilpm_model *m, const uint8_t *vals, ilpm_err *err)
{
    (void)p;
    const tetravex *tv = inst;
    int n = tv->n, cells = n * n, X = ilpm_model_family_find(m, "X");
    if (X < 0) {
        ilpm_err_input(err, "the model has no family X");
        return NULL;
    }
    tvx_sol *s = sol_new(n);
    int *ktype = malloc((size_t)cells * sizeof *ktype);
    uint8_t *used = calloc((size_t)tv->ntiles, 1);
    if (!s || !ktype || !used) {
        ilpm_err_nomem(err, "out of memory");
        goto bad;
    }
    for (int c = 0; c < cells; c++) {
        ktype[c] = -1;
        for (int k = 0; k < tv->ntypes; k++)
            if (vals[ilpm_model_var(m, X, c / n + 1, c % n + 1, k + 1, 0)]) {
                if (ktype[c] >= 0) {
                    ilpm_err_input(err, "cell (%d,%d) holds two tiles",
                                   c / n + 1, c % n + 1);
                    goto bad;
                }
                ktype[c] = k;
            }
    }
    for (int t = 0; t < tv->ntiles; t++) {
        int c = tv->fixed[t];
        if (c >= 0 && ktype[c] == tv->type[t] && s->tile[c] < 0) {
            s->tile[c] = t;
            used[t] = 1;
        }
    }
    for (int c = 0; c < cells; c++) {
        int k = ktype[c];
        if (s->tile[c] >= 0 || k < 0)
            continue;
        int t = 0;
        while (t < tv->ntiles && (used[t] || tv->type[t] != k))
            t++;
        s->tile[c] = t < tv->ntiles ? t : tv->rep[k];
        if (t < tv->ntiles)
            used[t] = 1;
    }
    free(ktype);
    free(used);
    return s;
bad:
    free(ktype);
    free(used);
    ilpm_tvx_sol_free(s);
    return NULL;
}

/* The rules on the board alone: every tile once, touching sides equal,
 * pinned tiles in place. */
int ilpm_tvx_verify(const void *inst, const ilpm_params *p, const void *vsol,
                    ilpm_err *why)
{
    (void)p;
    const tetravex *tv = inst;
    const tvx_sol *s = vsol;
    int n = tv->n;
    if (s->n != n)
        return ilpm_err_input(why, "board is %dx%d, expected %dx%d", s->n, s->n,
                              n, n);
    for (int c = 0; c < n * n; c++) {
        if (s->tile[c] < 0 || s->tile[c] >= tv->ntiles)
            return ilpm_err_input(why, "cell (%d,%d) holds no tile", c / n + 1,
                                  c % n + 1);
        for (int c2 = 0; c2 < c; c2++)
            if (s->tile[c2] == s->tile[c])
                return ilpm_err_input(why,
                                      "tile %d is on cells (%d,%d) and "
                                      "(%d,%d)",
                                      s->tile[c] + 1, c2 / n + 1, c2 % n + 1,
                                      c / n + 1, c % n + 1);
    }
    for (int c = 0; c < n * n; c++) {
        const uint8_t *a = tv->side[s->tile[c]];
        if (c % n < n - 1 && a[RIGHT] != tv->side[s->tile[c + 1]][LEFT])
            return ilpm_err_input(why,
                                  "cells (%d,%d) and (%d,%d) touch with %d "
                                  "and %d",
                                  c / n + 1, c % n + 1, c / n + 1, c % n + 2,
                                  a[RIGHT], tv->side[s->tile[c + 1]][LEFT]);
        if (c / n < n - 1 && a[DOWN] != tv->side[s->tile[c + n]][UP])
            return ilpm_err_input(why,
                                  "cells (%d,%d) and (%d,%d) touch with %d "
                                  "and %d",
                                  c / n + 1, c % n + 1, c / n + 2, c % n + 1,
                                  a[DOWN], tv->side[s->tile[c + n]][UP]);
    }
    for (int t = 0; t < tv->ntiles; t++)
        if (tv->fixed[t] >= 0 && s->tile[tv->fixed[t]] != t)
            return ilpm_err_input(why, "tile %d is pinned to cell (%d,%d)",
                                  t + 1, tv->fixed[t] / n + 1,
                                  tv->fixed[t] % n + 1);
    return 0;
}
