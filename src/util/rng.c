/* splitmix64: a random generator that gives the same numbers on every
 * platform, so that a generator's seed names one instance everywhere. */
#include "util.h"

void ilpm_rng_seed(ilpm_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t ilpm_rng_next(ilpm_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t ilpm_rng_below(ilpm_rng *r, uint64_t n)
{
    /* Rejection keeps the draw uniform. */
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = ilpm_rng_next(r);
    while (x >= lim);
    return x % n;
}
