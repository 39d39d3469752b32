/* From an outcome to the exit status: the one place where the command
 * line's codes are chosen, for a result, a failure, a batch and the most
 * severe of many.  ilpm's own codes, and under --format dimacs those of
 * the SAT competition (and of the PB and MaxSAT evaluations for an
 * optimum), so that a wrapper written for a SAT solver reads ilpm's
 * answer right. */
#include "batch.h"
#include "cli.h"

int ilpm_cli_exit_code(const ilpm_result *r, out_format f)
{
    /* The answer stands, but the input's own statements about it failed
     * (a MathProg check): the input's to mend. */
    if (r->postsolve_error[0])
        return EXIT_USAGE;
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
        return ilpm_rc_users(r->error_kind) ? EXIT_USAGE : EXIT_INTERNAL;
    }
}

int ilpm_cli_dimacs_worse(int a, int b)
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

void ilpm_cli_note_exit(tally *t, int code)
{
    /* Severity: internal error > usage/input error > signal > time limit
     * > unsatisfiable > success. */
    static const int order[] = {EXIT_OK,     EXIT_UNSAT, EXIT_TIMEOUT,
                                EXIT_SIGNAL, EXIT_USAGE, EXIT_INTERNAL};
    int a = 0, b = 0;
    for (int i = 0; i < 6; i++) {
        if (order[i] == t->worst)
            a = i;
        if (order[i] == code)
            b = i;
    }
    if (b > a)
        t->worst = code;
}

int ilpm_cli_err_exit(const cli *c, const ilpm_err *e)
{
    switch (e->rc) {
    case ILPM_E_TIMEOUT:
        return EXIT_TIMEOUT;
    case ILPM_E_INTERRUPTED:
        return EXIT_SIGNAL;
    case ILPM_OK: /* a failure that names no kind: the input's */
    case ILPM_E_INPUT:
    case ILPM_E_LIMIT:
        return EXIT_USAGE;
    case ILPM_E_NOMEM:
        return c->memory_limit > 0 ? EXIT_USAGE : EXIT_INTERNAL;
    case ILPM_E_IO:
    case ILPM_E_FAIL:
    default:
        return EXIT_INTERNAL;
    }
}

int ilpm_cli_args_exit(const ilpm_err *e)
{
    return e->rc == ILPM_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

int ilpm_cli_batch_exit(const ilpm_batch_summary *s, int interrupted)
{
    /* The rows' statuses, by solve's severity order: the new rows and
     * those --resume found there, which are results of this batch too. */
    long by[ILPM_STATUS_COUNT], input = s->input_errors + s->kept_input_errors;
    for (int st = 0; st < ILPM_STATUS_COUNT; st++)
        by[st] = s->by_status[st] + s->kept_by_status[st];
    tally t = {EXIT_OK, 0};
    if (interrupted)
        ilpm_cli_note_exit(&t, EXIT_SIGNAL);
    if (by[ILPM_ERROR] > input)
        ilpm_cli_note_exit(&t, EXIT_INTERNAL);
    if (input || s->postsolve_errors)
        ilpm_cli_note_exit(&t, EXIT_USAGE);
    if (by[ILPM_TIMEOUT] || by[ILPM_FEASIBLE])
        ilpm_cli_note_exit(&t, EXIT_TIMEOUT);
    if (by[ILPM_UNSAT])
        ilpm_cli_note_exit(&t, EXIT_UNSAT);
    return t.worst;
}
