/* sat_guard.h: CaDiCaL's calls that allocate, behind a C++ guard
 * (sat_guard.cpp) that turns std::bad_alloc into -1, so that the SAT
 * driver (sat.c) reports out of memory instead of ending in
 * std::terminate.  Each returns 0, or -1 when memory ran out. */
#ifndef ILPM_SAT_GUARD_H
#define ILPM_SAT_GUARD_H

#include <ccadical.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int ilpm_cadical_add(CCaDiCaL *s, const int *lits, size_t n);
int ilpm_cadical_assume(CCaDiCaL *s, int lit);
int ilpm_cadical_solve(CCaDiCaL *s);

#ifdef __cplusplus
}
#endif
#endif
