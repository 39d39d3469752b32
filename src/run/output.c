/* The result record's three renderings, with the same field names: text
 * for people, a JSON line, a CSV row (and its header); and the sizes of a
 * formulation per group (stats). */
#include "run.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Output                                                               */

static int has_solution(const ilpm_result *r)
{
    return r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
           r->status == ILPM_FEASIBLE;
}

const ilpm_size_column ilpm_size_columns[] = {
    {"vars", offsetof(ilpm_stats, vars), 0},
    {"aux_vars", offsetof(ilpm_stats, aux_vars), 0},
    {"rows", offsetof(ilpm_stats, rows), ILPM_REPORTS_ROWS},
    {"nonzeros", offsetof(ilpm_stats, nonzeros), ILPM_REPORTS_ROWS},
    {"clauses", offsetof(ilpm_stats, clauses), ILPM_REPORTS_CLAUSES},
    {NULL, 0, 0}};

int ilpm_backend_fills(ilpm_backend b, const ilpm_size_column *c)
{
    /* auto: the columns every back end fills (its members differ) */
    unsigned has = b < ILPM_BACKEND_COUNT ? ilpm_backend_report(b) : 0;
    return (has & c->needs) == c->needs;
}

int64_t *ilpm_size_field(ilpm_stats *s, const ilpm_size_column *c)
{
    return (int64_t *)(void *)((char *)s + c->offset);
}

int64_t ilpm_size_value(const ilpm_stats *s, const ilpm_size_column *c)
{
    return *(const int64_t *)(const void *)((const char *)s + c->offset);
}

/* Whether r has column c: its formulation was built and its back end
 * fills c. */
static int has_size(const ilpm_result *r, const ilpm_size_column *c)
{
    return r->have_stats && ilpm_backend_fills(r->backend, c);
}

static void json_int_or_null(ilpm_buf *b, const char *key, int have, int64_t v)
{
    if (have)
        ilpm_buf_printf(b, ",\"%s\":%" PRId64, key, v);
    else
        ilpm_buf_printf(b, ",\"%s\":null", key);
}

const char *ilpm_result_objective(const ilpm_result *r, char *buf, size_t size)
{
    return ilpm_fmt_scaled(r->objective, r->objective_scale, buf, size);
}

void ilpm_result_json(const ilpm_result *r, ilpm_buf *b)
{
    ilpm_buf_puts(b, "{\"puzzle\":");
    ilpm_buf_json_str(b, r->puzzle);
    ilpm_buf_puts(b, ",\"instance\":");
    ilpm_buf_json_str(b, r->instance);
    if (r->file[0]) {
        ilpm_buf_puts(b, ",\"file\":");
        ilpm_buf_json_str(b, r->file);
        ilpm_buf_printf(b, ",\"index\":%ld", r->index);
    }
    if (r->formulation[0]) {
        ilpm_buf_puts(b, ",\"formulation\":");
        ilpm_buf_json_str(b, r->formulation);
    }
    ilpm_buf_printf(b, ",\"backend\":\"%s\",\"status\":\"%s\"",
                    ilpm_backend_name(r->backend), ilpm_status_name(r->status));
    if (r->member[0]) {
        ilpm_buf_puts(b, ",\"member\":");
        ilpm_buf_json_str(b, r->member);
    }
    ilpm_buf_printf(b, ",\"verified\":%s", r->verified ? "true" : "false");
    if (r->has_count)
        ilpm_buf_printf(b, ",\"count\":%" PRIu64 ",\"count_complete\":%s",
                        r->count, r->count_complete ? "true" : "false");
    char obj[32];
    if (r->has_objective)
        ilpm_buf_printf(b, ",\"objective\":%s",
                        ilpm_result_objective(r, obj, sizeof obj));
    if (r->has_translate) /* a puzzle with a load step (gmpl) */
        ilpm_buf_printf(b, ",\"translate_ms\":%.3f", r->translate_ms);
    ilpm_buf_printf(b, ",\"build_ms\":%.3f,\"solve_ms\":%.3f", r->build_ms,
                    r->solve_ms);
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        json_int_or_null(b, c->name, has_size(r, c),
                         ilpm_size_value(&r->stats, c));
    ilpm_buf_puts(b, ",\"solution\":");
    if (r->json && has_solution(r))
        ilpm_buf_puts(b, r->json);
    else
        ilpm_buf_puts(b, "null");
    if (r->status == ILPM_ERROR || r->error[0]) {
        ilpm_buf_puts(b, ",\"error\":");
        ilpm_buf_json_str(b, r->error);
    }
    if (r->postsolve_error[0]) {
        ilpm_buf_puts(b, ",\"postsolve_error\":");
        ilpm_buf_json_str(b, r->postsolve_error);
    }
    if (r->count_note[0]) {
        ilpm_buf_puts(b, ",\"count_note\":");
        ilpm_buf_json_str(b, r->count_note);
    }
    if (r->reason[0]) {
        ilpm_buf_puts(b, ",\"reason\":");
        ilpm_buf_json_str(b, r->reason);
    }
    if (r->worker > 0)
        ilpm_buf_printf(b, ",\"worker\":%d", r->worker);
    if (r->stopped_by[0]) {
        ilpm_buf_puts(b, ",\"stopped_by\":");
        ilpm_buf_json_str(b, r->stopped_by);
    }
    ilpm_buf_puts(b, "}\n");
}

void ilpm_result_csv_header(ilpm_buf *out)
{
    ilpm_buf_puts(out, "puzzle,instance,file,index,formulation,backend,status,"
                       "verified,count,count_complete,objective,build_ms,"
                       "solve_ms");
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        ilpm_buf_printf(out, ",%s", c->name);
    ilpm_buf_puts(out, ",solution,error,postsolve_error,translate_ms,worker,"
                       "stopped_by\n");
}

static void csv_int(ilpm_buf *b, int have, int64_t v)
{
    if (have)
        ilpm_buf_printf(b, ",%" PRId64, v);
    else
        ilpm_buf_putc(b, ',');
}

void ilpm_result_csv(const ilpm_result *r, ilpm_buf *b)
{
    ilpm_buf_csv_str(b, r->puzzle);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->instance);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->file);
    csv_int(b, r->file[0] != 0, r->index);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->formulation);
    ilpm_buf_printf(b, ",%s,%s,%s", ilpm_backend_name(r->backend),
                    ilpm_status_name(r->status),
                    r->verified ? "true" : "false");
    csv_int(b, r->has_count, (int64_t)r->count);
    ilpm_buf_printf(b, ",%s",
                    !r->has_count       ? ""
                    : r->count_complete ? "true"
                                        : "false");
    char obj[32];
    ilpm_buf_printf(b, ",%s",
                    r->has_objective ? ilpm_result_objective(r, obj, sizeof obj)
                                     : "");
    ilpm_buf_printf(b, ",%.3f,%.3f", r->build_ms, r->solve_ms);
    for (const ilpm_size_column *c = ilpm_size_columns; c->name; c++)
        csv_int(b, has_size(r, c), ilpm_size_value(&r->stats, c));
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->json && has_solution(r) ? r->json : "");
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->error);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->postsolve_error);
    if (r->has_translate)
        ilpm_buf_printf(b, ",%.3f", r->translate_ms);
    else
        ilpm_buf_putc(b, ',');
    csv_int(b, r->worker > 0, r->worker);
    ilpm_buf_putc(b, ',');
    ilpm_buf_csv_str(b, r->stopped_by);
    ilpm_buf_putc(b, '\n');
}

void ilpm_result_text(const ilpm_result *r, ilpm_buf *b)
{
    char obj[32];
    ilpm_buf_printf(b, "%s %s (%s%s%s%s%s): %s", r->puzzle, r->instance,
                    r->formulation, r->formulation[0] ? ", " : "",
                    r->member[0] ? "auto: " : "",
                    r->member[0] ? r->member : ilpm_backend_name(r->backend),
                    "", ilpm_status_name(r->status));
    if (has_solution(r) || (r->has_count && r->count > 0))
        ilpm_buf_puts(b, r->verified ? ", verified" : ", NOT verified");
    if (r->has_count && r->count_complete)
        ilpm_buf_printf(b, ", count %" PRIu64, r->count);
    else if (r->has_count)
        ilpm_buf_printf(b, ", count at least %" PRIu64 "%s", r->count,
                        r->status == ILPM_SOLVED    ? " (stopped at --limit)"
                        : r->status == ILPM_TIMEOUT ? " (time limit)"
                        : r->status == ILPM_STOPPED ? " (interrupted)"
                                                    : "");
    if (r->has_objective && r->objective_text[0])
        ilpm_buf_printf(b, ", %s", r->objective_text);
    else if (r->has_objective)
        ilpm_buf_printf(b, ", objective %s",
                        ilpm_result_objective(r, obj, sizeof obj));
    if (r->has_objective && r->status == ILPM_FEASIBLE)
        ilpm_buf_puts(b, " (not proven optimal)");
    if (r->has_translate)
        ilpm_buf_printf(b, "; translate %.1f ms,", r->translate_ms);
    else
        ilpm_buf_putc(b, ';');
    ilpm_buf_printf(b, " build %.1f ms, solve %.1f ms\n", r->build_ms,
                    r->solve_ms);
    if (r->status == ILPM_ERROR)
        ilpm_buf_printf(b, "error: %s\n", r->error);
    if (r->reason[0])
        ilpm_buf_printf(b, "%s\n", r->reason);
    if (r->count_note[0] && r->has_count)
        ilpm_buf_printf(b, "%s\n", r->count_note);
    if (r->text && has_solution(r) && !r->has_count)
        ilpm_buf_puts(b, r->text);
}

/* ------------------------------------------------------------------ */
/* The stats verb                                                       */

void ilpm_stats_text(const ilpm_model *m, const ilpm_stats *s, ilpm_buf *out)
{
    ilpm_buf_printf(out, "%-14s %9s | %9s %10s | %10s %11s %9s\n", "group",
                    "cons", "ILP rows", "nonzeros", "clauses", "literals",
                    "aux vars");
    for (int g = 0; g < s->ngroups; g++) {
        const ilpm_group_stats *x = &s->groups[g];
        ilpm_buf_printf(out,
                        "%-14s %9" PRId64 " | %9" PRId64 " %10" PRId64
                        " | %10" PRId64 " %11" PRId64 " %9" PRId64 "\n",
                        ilpm_model_group_name(m, g), x->cons, x->rows,
                        x->nonzeros, x->clauses, x->literals, x->aux_vars);
    }
    int64_t cons = 0;
    for (int g = 0; g < s->ngroups; g++)
        cons += s->groups[g].cons;
    ilpm_buf_printf(out,
                    "%-14s %9" PRId64 " | %9" PRId64 " %10" PRId64
                    " | %10" PRId64 " %11" PRId64 " %9" PRId64 "\n",
                    "total", cons, s->rows, s->nonzeros, s->clauses,
                    s->literals, s->aux_vars);
    ilpm_buf_printf(out,
                    "variables: %" PRId64 " (ILP columns); CNF variables: "
                    "%" PRId64 "\n",
                    s->vars, s->vars + s->aux_vars);
}

void ilpm_stats_json(const ilpm_model *m, const ilpm_stats *s,
                     const char *puzzle, const char *instance, ilpm_buf *out)
{
    ilpm_buf_puts(out, "{\"puzzle\":");
    ilpm_buf_json_str(out, puzzle);
    ilpm_buf_puts(out, ",\"instance\":");
    ilpm_buf_json_str(out, instance);
    ilpm_buf_printf(
        out,
        ",\"vars\":%" PRId64 ",\"aux_vars\":%" PRId64 ",\"rows\":%" PRId64
        ",\"nonzeros\":%" PRId64 ",\"clauses\":%" PRId64
        ",\"literals\":%" PRId64 ",\"groups\":{",
        s->vars, s->aux_vars, s->rows, s->nonzeros, s->clauses, s->literals);
    for (int g = 0; g < s->ngroups; g++) {
        const ilpm_group_stats *x = &s->groups[g];
        if (g)
            ilpm_buf_putc(out, ',');
        ilpm_buf_json_str(out, ilpm_model_group_name(m, g));
        ilpm_buf_printf(out,
                        ":{\"cons\":%" PRId64 ",\"rows\":%" PRId64
                        ",\"nonzeros\":%" PRId64 ",\"clauses\":%" PRId64
                        ",\"literals\":%" PRId64 ",\"aux_vars\":%" PRId64 "}",
                        x->cons, x->rows, x->nonzeros, x->clauses, x->literals,
                        x->aux_vars);
    }
    ilpm_buf_puts(out, "}}\n");
}

void ilpm_stats_csv_header(ilpm_buf *out)
{
    ilpm_buf_puts(out, "puzzle,instance,group,cons,rows,nonzeros,clauses,"
                       "literals,aux_vars,vars\n");
}

/* One row of ilpm_stats_csv: vars < 0 for none. */
static void stats_csv_row(ilpm_buf *out, const char *puzzle,
                          const char *instance, const char *group,
                          const ilpm_group_stats *x, int64_t vars)
{
    ilpm_buf_csv_str(out, puzzle);
    ilpm_buf_putc(out, ',');
    ilpm_buf_csv_str(out, instance);
    ilpm_buf_putc(out, ',');
    ilpm_buf_csv_str(out, group);
    ilpm_buf_printf(out,
                    ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
                    ",%" PRId64 ",",
                    x->cons, x->rows, x->nonzeros, x->clauses, x->literals,
                    x->aux_vars);
    if (vars >= 0)
        ilpm_buf_printf(out, "%" PRId64, vars);
    ilpm_buf_putc(out, '\n');
}

void ilpm_stats_csv(const ilpm_model *m, const ilpm_stats *s,
                    const char *puzzle, const char *instance, ilpm_buf *out)
{
    ilpm_group_stats total = {0,          s->rows,     s->nonzeros,
                              s->clauses, s->literals, s->aux_vars};
    for (int g = 0; g < s->ngroups; g++) {
        total.cons += s->groups[g].cons;
        stats_csv_row(out, puzzle, instance, ilpm_model_group_name(m, g),
                      &s->groups[g], -1);
    }
    stats_csv_row(out, puzzle, instance, "total", &total, s->vars);
}
