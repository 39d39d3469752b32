/* matching.c: a model's matching groups (ilpm_int.h): matrices of 0/1
 * variables in which each cell takes exactly one value and each value at
 * most one cell, as the model's constraints state; kept for the back ends
 * that reason on the whole matrix (cp's Hall sets, cp_hall.c). */
#include "ilpm_int.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct ilpm_group_m {
    int *x;
    int ncells, nvals;
};

struct ilpm_matchings {
    struct ilpm_group_m *g;
    int n, cap;
};

void ilpm_matchings_free(struct ilpm_matchings *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->n; i++)
        free(g->g[i].x);
    free(g->g);
    free(g);
}

int ilpm_model_matching(ilpm_model *m, const int *x, int ncells, int nvals,
                        ilpm_err *err)
{
    if (ncells < 1 || nvals < ncells || (int64_t)ncells * nvals > INT_MAX)
        return ilpm_err_input(err,
                              "matching group of %d cells and %d values: "
                              "needs 1 or more cells and at least as many "
                              "values",
                              ncells, nvals);
    int nv = ilpm_model_nvars(m);
    size_t n = (size_t)ncells * (size_t)nvals;
    for (size_t i = 0; i < n; i++)
        if (x[i] < 1 || x[i] > nv)
            return ilpm_err_input(err,
                                  "matching group: variable %d of cell %zu "
                                  "is not one of the model's 1..%d",
                                  x[i], i / (size_t)nvals, nv);
    struct ilpm_matchings **at = ilpm_model_matchings_at(m);
    if (!*at && !(*at = calloc(1, sizeof **at)))
        return ilpm_err_nomem(err, "out of memory");
    struct ilpm_matchings *g = *at;
    int *copy = malloc(n * sizeof *copy);
    if (!copy ||
        ilpm_grow_int((void **)&g->g, &g->cap, g->n + 1, sizeof *g->g) != 0) {
        free(copy);
        return ilpm_err_nomem(err, "out of memory");
    }
    memcpy(copy, x, n * sizeof *copy);
    g->g[g->n] = (struct ilpm_group_m){copy, ncells, nvals};
    return g->n++;
}

int ilpm_model_nmatchings(const ilpm_model *m)
{
    struct ilpm_matchings *g = *ilpm_model_matchings_at(m);
    return g ? g->n : 0;
}

const int *ilpm_model_matching_get(const ilpm_model *m, int i, int *ncells,
                                   int *nvals)
{
    struct ilpm_matchings *g = *ilpm_model_matchings_at(m);
    if (!g || i < 0 || i >= g->n)
        return NULL;
    *ncells = g->g[i].ncells;
    *nvals = g->g[i].nvals;
    return g->g[i].x;
}
