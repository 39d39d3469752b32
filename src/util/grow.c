/* The one capacity-doubling step behind ilpm's growable arrays: a
 * capacity that doubles until it holds what is needed, checked against
 * overflow before realloc. */
#include "util.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

int ilpm_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return -1;
        c *= 2;
    }
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int ilpm_grow_int(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (need < 0)
        return -1;
    size_t c = (size_t)*cap;
    if (ilpm_grow(p, &c, (size_t)need, elem) != 0)
        return -1;
    if (c > INT_MAX) {
        /* Past what an int counts: keep the memory, report the limit. */
        *cap = INT_MAX;
        return need <= INT_MAX ? 0 : -1;
    }
    *cap = (int)c;
    return 0;
}
