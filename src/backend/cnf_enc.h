/* cnf_enc.h: what the CNF encoders (cnf*.c) share: their status codes,
 * the size limits and the small clause helpers, inline so that the inner
 * loops of every encoder still call them for free. */
#ifndef ILPM_CNF_ENC_H
#define ILPM_CNF_ENC_H

#include "backend.h"

#include <stdint.h>

/* Variable ids must stay clear of INT32_MAX so that negation and the
 * arithmetic of other layers never overflow. */
#define VAR_LIMIT (INT32_MAX / 2)
/* Cardinality and at-most-one encodings have no option bounding them;
 * one constraint that would need more clauses than this (about 3 GB)
 * is refused before anything is allocated. */
#define CLAUSE_LIMIT ((int64_t)1 << 28)

/* Internal status codes; ilpm_cnf_encode turns them into messages. */
enum {
    E_NOMEM = -1,
    E_NOVARS = -2,
    E_PBSIZE = -3,
    E_BIGCOEF = -4,
    E_NESTED = -5,
    E_SHAPE = -6,
    E_TOOBIG = -7,
    E_WATCH = -8 /* the time limit or the stop flag: c->watch says which */
};

#define TRY(expr)                                                              \
    do {                                                                       \
        int try_st_ = (expr);                                                  \
        if (try_st_ != 0)                                                      \
            return try_st_;                                                    \
    } while (0)

static inline int clause(ilpm_cnf *c, const int *l, int n)
{
    return ilpm_cnf_add(c, l, n) == 0 ? 0 : E_NOMEM;
}

static inline int empty(ilpm_cnf *c)
{
    return clause(c, NULL, 0);
}

static inline int unit(ilpm_cnf *c, int a)
{
    return clause(c, &a, 1);
}

static inline int bin(ilpm_cnf *c, int a, int b)
{
    int l[2] = {a, b};
    return clause(c, l, 2);
}

static inline int tern(ilpm_cnf *c, int a, int b, int d)
{
    int l[3] = {a, b, d};
    return clause(c, l, 3);
}

static inline int fresh(ilpm_cnf *c, int *v)
{
    *v = ilpm_cnf_new_var(c);
    return *v ? 0 : E_NOVARS;
}

static inline int imin(int a, int b)
{
    return a < b ? a : b;
}

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

/* Refuses an encoding before it starts if it cannot fit: past the
 * variable limit, or past CLAUSE_LIMIT clauses. */
static inline int fits(const ilpm_cnf *c, int64_t vars, int64_t clauses)
{
    if (vars > VAR_LIMIT - c->nvars)
        return E_NOVARS;
    return clauses > CLAUSE_LIMIT ? E_TOOBIG : 0;
}

/* The encoders one file offers another.  They return 0 or an E_ code and
 * may leave part of a constraint behind: encode_named in cnf.c undoes it. */

/* cnf_amo.c: at most one of l[0..n). */
int ilpm_enc_amo(ilpm_cnf *c, const int *l, int n);
/* cnf_card.c: the sequential counter alone (1 <= k < n), and any
 * cardinality constraint by the encoding chosen in c. */
int ilpm_enc_seq_le(ilpm_cnf *c, const int *x, int n, int k);
int ilpm_enc_card(ilpm_cnf *c, const int *x, int n, ilpm_cmp cmp, int64_t k);
/* cnf_pb.c: a linear constraint with coefficients. */
int ilpm_enc_linear(ilpm_cnf *c, const ilpm_con *con);

/* cnf_obj.c: a linear constraint (<=, >= or =) by adders and a
 * comparator, for rows whose BDD passes c->row_nodes. */
int ilpm_enc_linear_adders(ilpm_cnf *c, const ilpm_con *con);
/* cnf.c: an encoder that is not one of the model's constraints, run
 * with a constraint's undo and messages (what: " (the objective)"). */
int ilpm_cnf_encode_with(ilpm_cnf *c, int (*enc)(ilpm_cnf *, void *), void *arg,
                         const char *what, ilpm_err *err);

#endif
