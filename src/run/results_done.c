/* The set of runs a results file holds, by key (file, index,
 * formulation, back end): what --resume finds done, an open-addressing
 * hash over the keys ilpm_results_read gave. */
#include "batch_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int key_matches(const rowkey *k, const char *file, long index,
                       const char *form, const char *backend)
{
    return !k->stopped && k->index == index && strcmp(k->file, file) == 0 &&
           strcmp(k->form, form) == 0 && strcmp(k->backend, backend) == 0;
}

static uint64_t key_hash(const char *file, long index, const char *form,
                         const char *backend)
{
    /* FNV-1a; a 0 byte ends each string (none holds one). */
    uint64_t h = 14695981039346656037ull;
    const char *part[3] = {file, form, backend};
    for (int i = 0; i < 3; i++) {
        const unsigned char *c = (const unsigned char *)part[i];
        do
            h = (h ^ *c) * 1099511628211ull;
        while (*c++);
    }
    uint64_t x = (uint64_t)index;
    for (int i = 0; i < 8; i++, x >>= 8)
        h = (h ^ (x & 0xff)) * 1099511628211ull;
    return h;
}

int ilpm_results_doneset_build(struct doneset *d, const struct keyset *ks)
{
    size_t size = 16;
    while (size < 2 * ks->n + 1) {
        if (size > SIZE_MAX / 4 / sizeof *d->slot)
            return -1;
        size *= 2;
    }
    d->ks = ks;
    d->mask = size - 1;
    d->slot = calloc(size, sizeof *d->slot);
    if (!d->slot)
        return -1;
    for (size_t i = 0; i < ks->n; i++) {
        const rowkey *k = &ks->k[i];
        if (k->stopped)
            continue; /* an interrupted run is not done */
        size_t at =
            (size_t)key_hash(k->file, k->index, k->form, k->backend) & d->mask;
        while (d->slot[at])
            at = (at + 1) & d->mask;
        d->slot[at] = i + 1;
    }
    return 0;
}

const rowkey *ilpm_results_doneset_has(const struct doneset *d,
                                       const char *file, long index,
                                       const char *form, const char *backend)
{
    if (!d->slot)
        return NULL;
    size_t at = (size_t)key_hash(file, index, form, backend) & d->mask;
    for (; d->slot[at]; at = (at + 1) & d->mask)
        if (key_matches(&d->ks->k[d->slot[at] - 1], file, index, form, backend))
            return &d->ks->k[d->slot[at] - 1];
    return NULL;
}
