/* From a result to the exit status: the one place where the command
 * line's codes are chosen for an outcome.  ilpm's own codes, and under
 * --format dimacs those of the SAT competition (and of the PB and
 * MaxSAT evaluations for an optimum), so that a wrapper written for a
 * SAT solver reads ilpm's answer right. */
#include "cli.h"

int cli_exit_code(const ilpm_result *r, out_format f)
{
    if (f == FMT_DIMACS)
        switch (r->status) {
        case ILPM_OPTIMAL:
            return EXIT_DIMACS_OPTIMUM;
        case ILPM_SOLVED:
        case ILPM_FEASIBLE:
            return EXIT_DIMACS_SAT;
        case ILPM_UNSAT:
            return EXIT_DIMACS_UNSAT;
        case ILPM_TIMEOUT:
            return EXIT_DIMACS_UNKNOWN;
        default:
            break; /* stopped and errors: as ilpm says them */
        }
    switch (r->status) {
    case ILPM_SOLVED:
    case ILPM_OPTIMAL:
        return EXIT_OK;
    case ILPM_UNSAT:
        return EXIT_UNSAT;
    case ILPM_FEASIBLE:
    case ILPM_TIMEOUT:
        return EXIT_TIMEOUT;
    case ILPM_STOPPED:
        return EXIT_SIGNAL;
    default:
        /* The input's or a limit's: the user can mend it; out of memory
         * and ilpm's own failures are not the input's fault. */
        return r->error_kind == ILPM_ERR_INPUT ||
                       r->error_kind == ILPM_ERR_LIMIT
                   ? EXIT_USAGE
                   : EXIT_INTERNAL;
    }
}

int cli_dimacs_worse(int a, int b)
{
    /* Over several answers, the least one: unknown, then no solution,
     * then a solution, then a proven optimum (as ilpm's own order puts a
     * time limit before unsatisfiable before success). */
    static const int order[] = {EXIT_DIMACS_OPTIMUM, EXIT_DIMACS_SAT,
                                EXIT_DIMACS_UNSAT, EXIT_DIMACS_UNKNOWN};
    int ia = -1, ib = -1;
    for (int i = 0; i < 4; i++) {
        if (order[i] == a)
            ia = i;
        if (order[i] == b)
            ib = i;
    }
    return ib > ia ? b : a;
}
