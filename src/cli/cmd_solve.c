/* solve and play: each instance solved (or counted, or optimised) and
 * printed as it completes. */
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The SAT (and PB) competitions' answer: "c" our result line, "s" the
 * status, "o" the objective, then the puzzle's v lines. */
static void dimacs_answer(const ilpm_result *r, ilpm_buf *b)
{
    ilpm_buf line;
    ilpm_buf_init(&line);
    ilpm_result_text(r, &line);
    const char *s = ilpm_buf_str(&line);
    ilpm_buf_puts(b, "c ");
    ilpm_buf_put(b, s, strcspn(s, "\n"));
    ilpm_buf_putc(b, '\n');
    ilpm_buf_free(&line);
    const char *st = "UNKNOWN";
    if (r->status == ILPM_OPTIMAL)
        st = "OPTIMUM FOUND";
    else if (r->status == ILPM_SOLVED || r->status == ILPM_FEASIBLE)
        st = "SATISFIABLE";
    else if (r->status == ILPM_UNSAT)
        st = "UNSATISFIABLE";
    ilpm_buf_printf(b, "s %s\n", st);
    char obj[32];
    if (r->has_objective)
        ilpm_buf_printf(b, "o %s\n", ilpm_result_objective(r, obj, sizeof obj));
    if (r->text && !r->has_count && strcmp(st, "UNKNOWN") != 0 &&
        r->status != ILPM_UNSAT)
        ilpm_buf_puts(b, r->text);
}

/* The exit statuses so far: ilpm's, and under --format dimacs the
 * competitions' answer (-1: none yet). */
typedef struct solve_tally {
    tally t;
    int answer;
} solve_tally;

static int solve_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    solve_tally *st = ctx;
    tally *t = &st->t;
    progress *pg = c->run.progress_ctx;
    ilpm_result r;
    ilpm_result_init(&r);
    snprintf(r.file, sizeof r.file, "%s", file);
    r.index = index;
    if (inst) {
        ilpm_run_instance(c->pz, inst, c->params, &c->run, &r);
    } else if (c->unread_err) {
        /* Its text does not parse: an error record, as batch's. */
        snprintf(r.puzzle, sizeof r.puzzle, "%s", c->pz->name);
        snprintf(r.instance, sizeof r.instance, "#%ld", index);
        snprintf(r.error, sizeof r.error, "%s", c->unread_err->msg);
        r.error_kind =
            c->unread_err->rc == ILPM_OK ? ILPM_E_INPUT : c->unread_err->rc;
        r.backend = c->run.solver.backend;
        r.status = ILPM_ERROR;
    } else {
        /* The time limit ran out while the instance was read. */
        snprintf(r.puzzle, sizeof r.puzzle, "%s", c->pz->name);
        snprintf(r.instance, sizeof r.instance,
                 "#%ld (not read within the time limit)", index);
        r.backend = c->run.solver.backend;
        r.status = ILPM_TIMEOUT;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    /* Tools get a record for every instance, errors included; people
     * read an error on stderr alone. */
    if (c->format == FMT_JSON)
        ilpm_result_json(&r, &b);
    else if (c->format == FMT_CSV)
        ilpm_result_csv(&r, &b);
    else if (c->format == FMT_DIMACS)
        dimacs_answer(&r, &b);
    else if (r.status != ILPM_ERROR)
        ilpm_result_text(&r, &b);
    ilpm_progress_done(pg);
    /* Once standard output fails, solving on would only lose results. */
    int lost = ilpm_cli_put_stdout(ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    int code = ilpm_cli_exit_code(&r, FMT_TEXT);
    if (c->format == FMT_DIMACS)
        st->answer = ilpm_cli_dimacs_worse(st->answer,
                                           ilpm_cli_exit_code(&r, FMT_DIMACS));
    if (r.status == ILPM_ERROR) {
        /* A message that names its file (file:line: ...) says where
         * already; others are named by puzzle and instance. */
        size_t fl = strlen(r.file);
        if (fl > 0 && strncmp(r.error, r.file, fl) == 0 && r.error[fl] == ':')
            fprintf(stderr, "ilpm: %s%s\n", r.error,
                    ilpm_cli_err_note(c, r.error_kind));
        else
            fprintf(stderr, "ilpm: %s %s: %s%s\n", r.puzzle, r.instance,
                    r.error, ilpm_cli_err_note(c, r.error_kind));
        if (r.error_kind == ILPM_E_NOMEM && c->memory_limit > 0)
            code = EXIT_USAGE; /* the limit the user set */
    }
    if (r.postsolve_error[0])
        fprintf(stderr,
                "ilpm: %s %s: the model's statements after solve failed: "
                "%s\n",
                r.puzzle, r.instance, r.postsolve_error);
    ilpm_cli_note_exit(t, lost ? EXIT_INTERNAL : code);
    ilpm_result_free(&r);
    return lost;
}

int ilpm_cmd_solve(cli *c)
{
    solve_tally st = {{EXIT_OK, 0}, -1};
    if (c->format == FMT_CSV && ilpm_cli_put_made(ilpm_result_csv_header) != 0)
        ilpm_cli_note_exit(&st.t, EXIT_INTERNAL);
    progress *pg = ilpm_progress_for(c);
    c->unread = solve_one;
    ilpm_cli_for_each_instance(c, &st.t, solve_one, &st);
    ilpm_progress_stop(pg);
    if (cli_stop_requested)
        ilpm_cli_note_exit(&st.t, EXIT_SIGNAL);
    /* An error or an interruption says more than any answer. */
    int fine = st.t.worst == EXIT_OK || st.t.worst == EXIT_UNSAT ||
               st.t.worst == EXIT_TIMEOUT;
    if (c->format == FMT_DIMACS && fine && st.answer >= 0)
        return st.answer;
    return st.t.worst;
}
