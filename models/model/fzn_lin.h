/* fzn_lin.h: the tools FlatZinc's lowerings share (fzn_lower.c): linear
 * sums, literals, and rows "if these literals hold, sum rel rhs"; the
 * value indicators of a column shared between builtins (fzn_values.c).
 * Internal to the fzn files: the short names below stand for ilpm_fz_*
 * ones. */
#ifndef ILPM_FZN_LIN_H
#define ILPM_FZN_LIN_H

#include "fzn.h"

/* A linear sum: terms as added (a column may come twice), merged once
 * before a row is written (lin_merge). */
typedef struct lin_term {
    int col;
    int64_t coef;
} lin_term;

typedef struct lin {
    int n, cap;
    lin_term *t;
    __int128 k; /* the constant part */
    int oom;    /* a term was lost for want of memory */
} lin;

/* A literal: column col true (neg 0) or false (neg 1). */
typedef struct lit {
    int col, neg;
} lit;

enum { R_LE = FZ_LE, R_GE = FZ_GE, R_EQ = FZ_EQ, R_NE = FZ_NE };

#define lin_add ilpm_fz_lin_add
#define lin_free ilpm_fz_lin_free
#define nomem ilpm_fz_nomem
#define aux_col ilpm_fz_aux_col
#define emit_rel ilpm_fz_emit_rel
#define emit_reif ilpm_fz_emit_reif
#define rel2 ilpm_fz_rel2
#define indicators_link ilpm_fz_indicators_link
#define indicators ilpm_fz_indicators
#define shared_ind ilpm_fz_shared_ind
#define value_ind ilpm_fz_value_ind
#define same_col ilpm_fz_same_col
#define eq_value ilpm_fz_eq_value
#define pair_values ilpm_fz_pair_values

void lin_add(lin *l, int64_t a, fz_term t);
void lin_free(lin *l);
/* d's out-of-memory error (-1). */
int nomem(const mdl *d, ilpm_err *err);
/* A 0/1 column outside the answer; -1 with err. */
int aux_col(mdl *d, ilpm_err *err);
/* If every literal of cond[0..nc) holds: l rel rhs (R_LE .. R_NE). */
int emit_rel(mdl *d, const fz_con *c, const lit *cond, int nc, lin *l, int rel,
             __int128 rhs, ilpm_err *err);
/* r <-> (l rel rhs); r a term (a constant r drops a side). */
int emit_reif(mdl *d, const fz_con *c, fz_term r, lin *l, int rel, __int128 rhs,
              ilpm_err *err);
/* If cond: a1 x + a2 y rel 0. */
int rel2(mdl *d, const fz_con *c, const lit *cond, int nc, int64_t a1,
         fz_term x, int64_t a2, fz_term y, int rel, ilpm_err *err);
/* Indicators d_v of x's values in vals (n of them, or the range lo..hi
 * when vals is NULL): exactly one holds and (link, as indicators always)
 * x = sum v d_v.  The first column is *first, the others follow. */
int indicators_link(mdl *d, const fz_con *c, fz_term x, const int64_t *vals,
                    int64_t lo, int64_t hi, int *first, int link,
                    ilpm_err *err);
int indicators(mdl *d, const fz_con *c, fz_term x, const int64_t *vals,
               int64_t lo, int64_t hi, int *first, ilpm_err *err);

/* fzn_values.c.  Whether x is a variable whose indicators are shared. */
int shared_ind(const mdl *d, fz_term x);
/* The indicators of column x's values (its range), made once: the first
 * into *first. */
int value_ind(mdl *d, const fz_con *c, int x, int *first, ilpm_err *err);
/* Column a takes b's variable: 1 if so, 0 if it cannot, -1 out of
 * memory. */
int same_col(mdl *d, int a, int b);
/* r <-> (x = v) (rel R_EQ) or (x != v), v in x's range. */
int eq_value(mdl *d, const fz_con *c, int x, int64_t v, int rel, fz_term r,
             ilpm_err *err);
/* a x + b y rel k (R_EQ or R_NE) with a, b = +-1, on the indicators of
 * x's and y's values (made if need be, over at most FZ_PAIR_VALUES = 16
 * values): 0 done, 1 when x and y do not qualify (nothing written), -1
 * with err. */
int pair_values(mdl *d, const fz_con *c, int64_t a, int x, int64_t b, int y,
                __int128 k, int rel, ilpm_err *err);

#endif
