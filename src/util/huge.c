/* Large pages for ilpm's big, long-lived arrays: a hint that the kernel
 * back a block with transparent huge pages (2 MB on x86-64), which cuts
 * the TLB misses of arrays read at random over gigabytes.  Linux only;
 * elsewhere, and wherever madvise refuses, a no-op. */
#define _DEFAULT_SOURCE
#include "util.h"

#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

int ilpm_mem_huge(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || size < ILPM_MEM_HUGE_MIN)
        return 0;
    /* Only the whole 2 MB pages inside the block: the pages at its ends
     * may hold other blocks, which keep their small pages. */
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
    if (hi <= lo)
        return 0;
    return madvise((void *)lo, hi - lo, MADV_HUGEPAGE) == 0;
#else
    (void)p;
    (void)size;
    return 0;
#endif
}
