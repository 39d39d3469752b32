/* cnf_amo.c: at-most-one encodings: pairwise, Chen's product, and the
 * choice among them (the ladder is the sequential counter of cnf_card.c
 * with k = 1). */
#include "cnf_enc.h"

#include <stdlib.h>

/* Up to this many literals the pairwise encoding is used by `auto` and at
 * the leaves of the product.  It needs no auxiliary variable and each
 * clause propagates directly, which pays on Sudoku's nine-literal groups;
 * from about a dozen literals its quadratic size costs more than it gives
 * (figures: docs/benchmarks.md, "CNF product encoding"). */
#define PAIRWISE_MAX 10
/* The product recurses down to groups of this many literals. */
#define PRODUCT_LEAF 6

static int amo_pairwise(ilpm_cnf *c, const int *l, int n)
{
    TRY(fits(c, 0, (int64_t)n * (n - 1) / 2));
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            TRY(bin(c, -l[i], -l[j]));
    return 0;
}

/* Chen's 2-product: literal i sits at row i / q, column i % q of a p x q
 * grid; it implies its row and its column variable, and at most one row
 * and one column may be true.  Those two AMOs recurse.  Each row and
 * column variable is also defined as the OR of its literals (one clause
 * more per grid line): the solver can then neither set a line true with
 * nothing under it nor keep one false that a literal needs, and learns
 * on the lines: much faster on large n-Queens (docs/benchmarks.md, "CNF
 * product encoding"). */
static int amo_product(ilpm_cnf *c, const int *l, int n)
{
    if (n <= PRODUCT_LEAF)
        return amo_pairwise(c, l, n);
    int q = 1;
    while ((int64_t)q * q < n)
        q++;
    int p = (n + q - 1) / q; /* no empty row */
    int *rc = malloc((size_t)(p + q) * sizeof *rc);
    if (!rc)
        return E_NOMEM;
    int st = 0;
    for (int i = 0; i < p + q && !st; i++)
        st = fresh(c, &rc[i]);
    for (int i = 0; i < n && !st; i++) {
        st = bin(c, -l[i], rc[i / q]);
        if (!st)
            st = bin(c, -l[i], rc[p + i % q]);
    }
    int *line = st ? NULL : malloc((size_t)(q + 1) * sizeof *line); /* q >= p */
    if (!st && !line)
        st = E_NOMEM;
    for (int a = 0; a < p && !st; a++) { /* row a -> OR of its literals */
        int k = 0;
        line[k++] = -rc[a];
        for (int i = a * q; i < n && i < (a + 1) * q; i++)
            line[k++] = l[i];
        st = clause(c, line, k);
    }
    for (int b = 0; b < q && !st; b++) { /* column b likewise */
        int k = 0;
        line[k++] = -rc[p + b];
        for (int i = b; i < n; i += q)
            line[k++] = l[i];
        st = clause(c, line, k);
    }
    free(line);
    if (!st)
        st = amo_product(c, rc, p);
    if (!st)
        st = amo_product(c, rc + p, q);
    free(rc);
    return st;
}

int ilpm_enc_amo(ilpm_cnf *c, const int *l, int n)
{
    if (n <= 1)
        return 0;
    switch (c->amo) {
    case ILPM_AMO_PAIRWISE:
        return amo_pairwise(c, l, n);
    case ILPM_AMO_SEQ:
        /* The ladder over two literals resolves to their one clause. */
        return n == 2 ? amo_pairwise(c, l, n) : ilpm_enc_seq_le(c, l, n, 1);
    case ILPM_AMO_PRODUCT:
        return amo_product(c, l, n);
    case ILPM_AMO_AUTO:
    default:
        return n <= PAIRWISE_MAX ? amo_pairwise(c, l, n) : amo_product(c, l, n);
    }
}
