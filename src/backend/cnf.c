/* cnf.c: lowering of model constraints to CNF clauses for the SAT side:
 * the clause store, and the dispatch that hands each constraint to its
 * encoder, undoes a failed one and turns its status into a message.
 *
 * Each kind keeps its own encoding, chosen by the options: pairwise,
 * ladder or product at-most-one (cnf_amo.c); sequential counter or
 * totalizer for cardinality (cnf_card.c); a reduced BDD for general linear
 * constraints (cnf_pb.c).  Every encoding is exact on the model's
 * variables (a model assignment extends to the auxiliary variables iff the
 * constraint holds), which tests/check_cnf.c verifies against brute force.
 */
#include "cnf_enc.h"
#include "util.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The encodings' names, for messages (c->amo and c->card are checked
 * at ilpm_cnf_init). */
static const char *const amo_names[] = {ILPM_AMO_ENCS(ILPM_ENUM_NAME_)};
static const char *const card_names[] = {ILPM_CARD_ENCS(ILPM_ENUM_NAME_)};

/* The BDD nodes of one linear row before the adders take it over
 * (docs/benchmarks.md, "SAT optimisation on the six MIPLIB files"). */
#define ROW_NODES 20000

/* ------------------------------------------------------------------ */
/* The clause store                                                     */

int ilpm_cnf_init(ilpm_cnf *c, const ilpm_model *m, const ilpm_options *o,
                  ilpm_err *err)
{
    memset(c, 0, sizeof *c);
    c->cur_group = -1;
    /* No options, or no node bound, means the defaults, which live in
     * ilpm_options_init alone. */
    ilpm_options def;
    ilpm_options_init(&def);
    if (!o)
        o = &def;
    const ilpm_sat_opts *so = ilpm_sat_opts_of(o);
    c->amo = so->amo;
    c->card = so->card;
    c->max_pb_nodes = so->max_pb_nodes > 0
                          ? so->max_pb_nodes
                          : ilpm_sat_opts_of(&def)->max_pb_nodes;
    c->row_nodes = ROW_NODES;
    /* A literal costs 4 bytes here and about as much again, with clause
     * headers and watches, inside the solver: 12 bytes is the budget. */
    if (o->max_memory_mb > 0)
        c->max_lits = (size_t)(o->max_memory_mb * 1048576 / 12);
    ilpm_watch_until(&c->watch, ilpm_options_deadline(o), o->stop_flag);
    if ((unsigned)c->amo > ILPM_AMO_PRODUCT)
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "unknown at-most-one encoding %d", (int)c->amo);
    if ((unsigned)c->card > ILPM_CARD_TOTALIZER)
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "unknown cardinality encoding %d", (int)c->card);
    int nv = ilpm_model_nvars(m);
    if (nv < 0 || nv > VAR_LIMIT)
        return ilpm_err_input(err, "too many variables for CNF: %d (limit %d)",
                              nv, VAR_LIMIT);
    c->nvars = c->model_vars = nv;
    int ng = ilpm_model_ngroups(m);
    if (ng > 0) {
        c->groups = calloc((size_t)ng, sizeof *c->groups);
        if (!c->groups)
            return ilpm_err_nomem(err, "out of memory preparing the CNF");
        c->ngroups = ng;
    }
    return 0;
}

void ilpm_cnf_release(ilpm_cnf *c)
{
    if (!c)
        return;
    free(c->lits);
    free(c->groups);
    memset(c, 0, sizeof *c);
    c->cur_group = -1;
}

static ilpm_group_stats *cur_stats(ilpm_cnf *c)
{
    return c->cur_group >= 0 && c->cur_group < c->ngroups
               ? &c->groups[c->cur_group]
               : NULL;
}

/* Returns 0 when the variable space is exhausted: 0 is never a
 * variable, so callers can test it like a null pointer. */
int ilpm_cnf_new_var(ilpm_cnf *c)
{
    if (c->nvars >= VAR_LIMIT)
        return 0;
    ilpm_group_stats *g = cur_stats(c);
    if (g)
        g->aux_vars++;
    return ++c->nvars;
}

int ilpm_cnf_add(ilpm_cnf *c, const int *lits, int n)
{
    if (n < 0 || c->nguards < 0 || c->nguards > 4)
        return -1;
    size_t extra = (size_t)n + (size_t)c->nguards + 1;
    if (extra > SIZE_MAX / sizeof *c->lits - c->nlits)
        return -1;
    size_t need = c->nlits + extra;
    if (ilpm_watch_poll(&c->watch, "", NULL) != 0)
        return -1;
    if (c->max_lits && c->nfed + need > c->max_lits) {
        c->over_budget = 1;
        return -1;
    }
    if (ilpm_grow((void **)&c->lits, &c->cap, need, sizeof *c->lits) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        c->lits[c->nlits++] = lits[i];
    for (int i = 0; i < c->nguards; i++)
        c->lits[c->nlits++] = -c->guards[i];
    c->lits[c->nlits++] = 0;
    c->nclauses++;
    ilpm_group_stats *g = cur_stats(c);
    if (g) {
        g->clauses++;
        g->literals += n + c->nguards;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Constraints                                                          */

static int encode(ilpm_cnf *c, const ilpm_con *con)
{
    switch (con->kind) {
    case ILPM_CLAUSE:
    case ILPM_ALO:
        return clause(c, con->lits, con->n);
    case ILPM_IMPL:
        if (con->n != 2)
            return E_SHAPE;
        return bin(c, -con->lits[0], con->lits[1]);
    case ILPM_AMO:
        return ilpm_enc_amo(c, con->lits, con->n);
    case ILPM_EXO:
        TRY(ilpm_enc_amo(c, con->lits, con->n));
        return clause(c, con->lits, con->n);
    case ILPM_CARD:
        return ilpm_enc_card(c, con->lits, con->n, con->cmp, con->rhs);
    case ILPM_CCARD: {
        /* The guard turns the empty clause of an infeasible bound into
         * the unit -cond, and every other clause into its conditional
         * form. */
        if (c->nguards >= 4)
            return E_NESTED;
        c->guards[c->nguards++] = con->cond;
        int st = ilpm_enc_card(c, con->lits, con->n, con->cmp, con->rhs);
        c->nguards--;
        return st;
    }
    case ILPM_LINEAR:
        if (!con->coefs)
            return E_SHAPE;
        return ilpm_enc_linear(c, con);
    default:
        return E_SHAPE;
    }
}

static int bad_lit(const ilpm_cnf *c, int l)
{
    return l == 0 || l == INT_MIN || abs(l) > c->nvars;
}

/* " in group 'g'" and the like: where a constraint is, for messages.
 * gname names the group when the caller knows it; what, if not NULL,
 * says what the constraint is instead ("the objective's bound"). */
static void where_of(const ilpm_con *con, const char *gname, const char *what,
                     char *where, size_t size)
{
    where[0] = '\0';
    if (what)
        snprintf(where, size, " (%s)", what);
    else if (con->name && gname) /* a model file's row: its own name */
        snprintf(where, size, " '%.64s' in group '%.48s'", con->name, gname);
    else if (gname)
        snprintf(where, size, " in group '%s'", gname);
    else if (con->group >= 0)
        snprintf(where, size, " in group %d", con->group);
}

/* The constraint's literals (and condition) are variables of the CNF: 0,
 * or -1 with err. */
static int check_lits(const ilpm_cnf *c, const ilpm_con *con, const char *kind,
                      const char *where, ilpm_err *err)
{
    if (con->n < 0 || (con->n > 0 && !con->lits))
        return ilpm_err_input(err, "a %s constraint%s has no literals", kind,
                              where);
    for (int i = 0; i < con->n; i++)
        if (bad_lit(c, con->lits[i]))
            return ilpm_err_input(err,
                                  "a %s constraint%s has literal %d, not a "
                                  "variable of the CNF (1..%d)",
                                  kind, where, con->lits[i], c->nvars);
    if (con->kind == ILPM_CCARD && bad_lit(c, con->cond))
        return ilpm_err_input(err,
                              "a %s constraint%s has condition %d, not a "
                              "variable of the CNF (1..%d)",
                              kind, where, con->cond, c->nvars);
    return 0;
}

/* The message of an encoding that failed with st (an E_* code): -1. */
static int encode_failed(ilpm_cnf *c, const ilpm_con *con, int st,
                         const char *kind, const char *where, ilpm_err *err)
{
    if (c->watch.status)
        st = E_WATCH; /* however the encoder reported it */
    switch (st) {
    case E_WATCH: {
        char what[160];
        snprintf(what, sizeof what, "encoding a %s constraint%s as CNF", kind,
                 where);
        return ilpm_watch_poll(&c->watch, what, err); /* sticky: -1 */
    }
    case E_NOVARS:
        return ilpm_err_input(err,
                              "a %s constraint%s needs more CNF variables "
                              "than the limit of %d",
                              kind, where, VAR_LIMIT);
    case E_PBSIZE:
        return ilpm_err_fail(err, ILPM_E_LIMIT,
                             "a linear constraint%s needs more than %" PRId64
                             " BDD nodes to encode as CNF (raise "
                             "--max-pb-nodes)",
                             where, c->max_pb_nodes);
    case E_BIGCOEF:
        return ilpm_err_input(err,
                              "a linear constraint%s has a coefficient, a "
                              "bound or a sum beyond 2^60, too large for "
                              "the CNF encoding",
                              where);
    case E_TOOBIG:
        return ilpm_err_input(err,
                              "a %s constraint%s over %d literals needs more "
                              "than %" PRId64 " clauses with the %s encoding "
                              "(choose another encoding)",
                              kind, where, con->n, CLAUSE_LIMIT,
                              con->kind == ILPM_AMO || con->kind == ILPM_EXO
                                  ? amo_names[c->amo]
                                  : card_names[c->card]);
    case E_NESTED:
        return ilpm_err_input(err,
                              "a %s constraint%s is nested under more than "
                              "4 conditions",
                              kind, where);
    case E_SHAPE:
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "a %s constraint%s is malformed (kind %d, "
                             "comparison %d, %d literals)",
                             kind, where, (int)con->kind, (int)con->cmp,
                             con->n);
    case E_NOMEM:
    default:
        if (c->over_budget)
            return ilpm_err_fail(err, ILPM_E_LIMIT,
                                 "the CNF outgrows --max-memory%s (%zu "
                                 "literals so far, encoding a constraint of "
                                 "kind %s); raise --max-memory or pick a "
                                 "more compact --amo/--card encoding",
                                 where, c->nfed + c->nlits, kind);
        return ilpm_err_nomem(err,
                              "out of memory encoding a %s constraint%s "
                              "as CNF",
                              kind, where);
    }
}

/* Where an encoding began, to take it back when it fails. */
typedef struct {
    size_t nlits;
    int64_t nclauses;
    int nvars, nguards;
} cnf_mark;

static cnf_mark mark(const ilpm_cnf *c)
{
    return (cnf_mark){c->nlits, c->nclauses, c->nvars, c->nguards};
}

static void roll_back(ilpm_cnf *c, const cnf_mark *m)
{
    c->nlits = m->nlits;
    c->nclauses = m->nclauses;
    c->nvars = m->nvars;
    c->nguards = m->nguards;
}
static int encode_named(ilpm_cnf *c, const ilpm_con *con, const char *gname,
                        const char *what, ilpm_err *err)
{
    const char *kind = ilpm_kind_name(con->kind);
    char where[160];
    where_of(con, gname, what, where, sizeof where);
    if (check_lits(c, con, kind, where, err) != 0)
        return -1;
    /* A failed encoding leaves the CNF as it was, so the caller may go
     * on (or report) without half a constraint in the clause store. */
    cnf_mark m = mark(c);
    ilpm_group_stats *g = cur_stats(c), saved = {0};
    if (g)
        saved = *g;
    int st = encode(c, con);
    if (st == 0)
        return 0;
    roll_back(c, &m);
    if (g)
        *g = saved;
    return encode_failed(c, con, st, kind, where, err);
}

/* Runs an encoder of cnf_enc.h that is not a constraint of the model
 * (the objective of cnf_obj.c) as encode_named runs one: undone when it
 * fails, its status turned into the same messages, with what saying
 * what it encodes. */
int ilpm_cnf_encode_with(ilpm_cnf *c, int (*enc)(ilpm_cnf *, void *), void *arg,
                         const char *what, ilpm_err *err)
{
    char where[160];
    snprintf(where, sizeof where, " (%s)", what);
    cnf_mark m = mark(c);
    int st = enc(c, arg);
    if (st == 0)
        return 0;
    roll_back(c, &m);
    ilpm_con con = {.kind = ILPM_LINEAR, .cmp = ILPM_LE, .group = -1};
    return encode_failed(c, &con, st, ilpm_kind_name(con.kind), where, err);
}

int ilpm_cnf_encode(ilpm_cnf *c, const ilpm_con *con, ilpm_err *err)
{
    return encode_named(c, con, NULL, NULL, err);
}

int ilpm_cnf_encode_as(ilpm_cnf *c, const ilpm_con *con, const char *what,
                       ilpm_err *err)
{
    return encode_named(c, con, NULL, what, err);
}

int ilpm_cnf_from_model(ilpm_cnf *c, const ilpm_model *m, const ilpm_options *o,
                        ilpm_err *err)
{
    if (ilpm_cnf_init(c, m, o, err) != 0) {
        ilpm_cnf_release(c);
        return -1;
    }
    size_t ncons = ilpm_model_ncons(m);
    for (size_t i = 0; i < ncons; i++) {
        ilpm_con con;
        ilpm_model_con(m, i, &con);
        if (ilpm_model_group_redundant(m, con.group) & ILPM_LOWER_CNF)
            continue;
        c->cur_group =
            con.group >= 0 && con.group < c->ngroups ? con.group : -1;
        if (encode_named(c, &con, ilpm_model_group_name(m, con.group), NULL,
                         err) != 0) {
            ilpm_cnf_release(c);
            return -1;
        }
    }
    c->cur_group = -1;
    return 0;
}
