// CaDiCaL's calls that allocate, with C++'s out-of-memory exception
// caught: std::bad_alloc must not cross the C code of sat.c (the process
// would end by std::terminate).  Each returns -1 when memory ran out, so
// that the driver reports out of memory and never touches the solver
// again but to release it.
#include "sat_guard.h"

#include <cstddef>
#include <new>

using std::size_t;

int ilpm_cadical_add(CCaDiCaL *s, const int *lits, size_t n)
{
    try {
        for (size_t i = 0; i < n; i++)
            ccadical_add(s, lits[i]);
    } catch (const std::bad_alloc &) {
        return -1;
    }
    return 0;
}

int ilpm_cadical_assume(CCaDiCaL *s, int lit)
{
    try {
        ccadical_assume(s, lit);
    } catch (const std::bad_alloc &) {
        return -1;
    }
    return 0;
}

int ilpm_cadical_solve(CCaDiCaL *s)
{
    try {
        return ccadical_solve(s);
    } catch (const std::bad_alloc &) {
        return -1;
    }
}
