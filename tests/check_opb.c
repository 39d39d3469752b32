/* Tests of the OPB writer (src/backend/opb.c, ilpm_opb_write): the
 * header and the variable dictionary, each constraint kind as the lines
 * it becomes, both objective senses, redundant groups left out, a failed
 * write, and a round trip: the OPB text read back by a small reader here
 * and held against ilpm_model_check over every assignment of random
 * small models. */
#include "backend.h"

#include "testutil.h"
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ilpm_err err;

/* ------------------------------------------------------------------ */
/* The OPB text and a reader for it                                     */

static char *opb_text(const ilpm_model *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_msg(ilpm_opb_write(a, f, &err) == 0, "%s", err.msg);
    fclose(f);
    return buf;
}

#define MAX_TERMS 64
#define MAX_ROWS 64

/* sum coef[i] * x(var[i]) >= rhs (or = rhs), or the terms of min:. */
typedef struct row {
    int n;
    int var[MAX_TERMS];
    int64_t coef[MAX_TERMS];
    int eq;
    int64_t rhs;
} row;

typedef struct opb {
    int nvars, ncons; /* as the header says */
    int nrows;
    row rows[MAX_ROWS];
    int nnames; /* "* NAME = xV" lines */
    int has_min;
    row min;
    /* the model's objective from the comments: max: cst - (min: value),
     * min: (min: value) + cst; constant: no min: line, the value cst */
    int maximise, constant;
    int64_t cst;
} opb;

/* Reads "+a xI ... >= b ;" (cmp) or "+a xI ... ;" (the terms of min:)
 * into r; 0 when the line is well formed. */
static int read_terms(char *s, row *r, int nvars, int cmp)
{
    char *save = NULL, *tok = strtok_r(s, " ", &save);
    r->n = 0;
    r->eq = -1;
    for (; tok; tok = strtok_r(NULL, " ", &save)) {
        if (!strcmp(tok, ";"))
            return cmp && r->eq < 0 ? -1 : strtok_r(NULL, " ", &save) != NULL;
        int k = 0;
        if (cmp && (!strcmp(tok, ">=") || !strcmp(tok, "="))) {
            if (r->eq >= 0 || r->n == 0)
                return -1;
            r->eq = tok[0] == '=';
            tok = strtok_r(NULL, " ", &save);
            if (!tok || sscanf(tok, "%" SCNd64 "%n", &r->rhs, &k) != 1 ||
                tok[k])
                return -1;
            continue;
        }
        if (r->eq >= 0 || r->n == MAX_TERMS || (tok[0] != '+' && tok[0] != '-'))
            return -1;
        if (sscanf(tok, "%" SCNd64 "%n", &r->coef[r->n], &k) != 1 || tok[k])
            return -1;
        tok = strtok_r(NULL, " ", &save);
        int v;
        if (!tok || sscanf(tok, "x%d%n", &v, &k) != 1 || tok[k] || v < 1 ||
            v > nvars)
            return -1;
        r->var[r->n++] = v;
    }
    return -1; /* no ';' */
}

/* Reads the OPB text that ilpm_opb_write made for a; fails the test on
 * anything it does not expect. */
static opb *read_opb(const char *text, const ilpm_model *a)
{
    opb *o = calloc(1, sizeof *o);
    ck_assert_ptr_nonnull(o);
    char *copy = strdup(text), *save = NULL;
    int first = 1, k = 0;
    for (char *line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        int64_t x;
        int v;
        char name[128], want[128];
        if (first) {
            ck_assert_msg(sscanf(line, "* #variable= %d #constraint= %d%n",
                                 &o->nvars, &o->ncons, &k) == 2 &&
                              !line[k],
                          "header: %s", line);
            first = 0;
        } else if (sscanf(line,
                          "* objective: maximise; min: below is its "
                          "negation, objective = %" SCNd64 " - (min: value)%n",
                          &x, &k) == 1 &&
                   !line[k]) {
            o->maximise = 1;
            o->cst = x;
        } else if (sscanf(line,
                          "* objective: minimise; objective = (min: value) "
                          "%" SCNd64 "%n",
                          &x, &k) == 1 &&
                   !line[k]) {
            o->cst = x;
        } else if (sscanf(line, "* the objective is the constant %" SCNd64 "%n",
                          &x, &k) == 1 &&
                   !line[k]) {
            o->constant = 1;
            o->cst = x;
        } else if (sscanf(line, "* %127s = x%d%n", name, &v, &k) == 2 &&
                   !line[k]) {
            ck_assert_int_eq(v, ++o->nnames);
            ck_assert_str_eq(name,
                             ilpm_model_var_name(a, v, want, sizeof want));
        } else if (!strncmp(line, "min:", 4)) {
            ck_assert_msg(!o->has_min && o->nrows == 0, "%s", line);
            ck_assert_msg(read_terms(line + 4, &o->min, o->nvars, 0) == 0,
                          "objective: %s", line);
            o->has_min = 1;
        } else {
            ck_assert_msg(line[0] != '*', "unexpected comment: %s", line);
            ck_assert_int_lt(o->nrows, MAX_ROWS);
            ck_assert_msg(read_terms(line, &o->rows[o->nrows++], o->nvars, 1) ==
                              0,
                          "constraint: %s", line);
        }
    }
    free(copy);
    ck_assert(!first);
    ck_assert_int_eq(o->nvars, ilpm_model_nvars(a));
    ck_assert_int_eq(o->nnames, o->nvars);
    ck_assert_int_eq(o->ncons, o->nrows);
    return o;
}

static int64_t terms(const row *r, const uint8_t *v)
{
    int64_t s = 0;
    for (int i = 0; i < r->n; i++)
        s += r->coef[i] * v[r->var[i]];
    return s;
}

static int opb_accepts(const opb *o, const uint8_t *v)
{
    for (int i = 0; i < o->nrows; i++) {
        int64_t s = terms(&o->rows[i], v);
        if (o->rows[i].eq ? s != o->rows[i].rhs : s < o->rows[i].rhs)
            return 0;
    }
    return 1;
}

/* The model's objective as the OPB text gives it. */
static int64_t opb_objective(const opb *o, const uint8_t *v)
{
    if (o->constant)
        return o->cst;
    int64_t min = terms(&o->min, v);
    return o->maximise ? o->cst - min : min + o->cst;
}

/* The constraint lines of text (neither comments nor min:), each ended
 * by a newline, into buf. */
static const char *rows_of(const char *text, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) + 1 : strlen(s);
        if (*s != '*' && strncmp(s, "min:", 4) != 0) {
            ck_assert_uint_lt(at + len, size);
            memcpy(buf + at, s, len);
            at += len;
            buf[at] = '\0';
        }
        s += len;
    }
    return buf;
}

/* ------------------------------------------------------------------ */
/* Random models                                                        */


/* A random model over x[1..nv] (3 <= nv <= 8, in *nv_out): up to eight
 * constraints of every kind, literals repeated and negated, bounds a
 * little outside 0..n (the big-M rows' edge cases), alternately in
 * groups "even" and "odd" (those of "odd" drawn but not added when
 * skip_odd), and an objective, maximised or minimised, or none. */
static ilpm_model *random_model(uint64_t *seed, int *nv_out, int skip_odd)
{
    ilpm_model *a = ilpm_model_new();
    int nv = 3 + (int)(test_rnd(seed) % 6);
    int lo[1] = {1}, hi[1] = {nv};
    ck_assert_int_eq(ilpm_model_family(a, "x", 1, lo, hi, 0, &err), 0);
    int ncons = 1 + (int)(test_rnd(seed) % 8);
    for (int i = 0; i < ncons; i++) {
        ck_assert_int_ge(ilpm_model_group(a, i % 2 ? "odd" : "even", &err), 0);
        int l[6], n = 1 + (int)(test_rnd(seed) % 5);
        int64_t c[6];
        for (int j = 0; j < n; j++) {
            l[j] = test_rlit(seed, nv);
            c[j] = (int64_t)(test_rnd(seed) % 11) - 5;
        }
        int64_t k = (int64_t)(test_rnd(seed) % (uint64_t)(n + 3)) - 1;
        ilpm_cmp cmp = (ilpm_cmp)(test_rnd(seed) % 3);
        int other = test_rlit(seed, nv), kind = (int)(test_rnd(seed) % 8);
        if (skip_odd && i % 2)
            continue;
        int rc;
        /* clang-format off */
        switch (kind) {
        case 0: rc = ilpm_add_clause(a, l, n, &err); break;
        case 1: rc = ilpm_add_alo(a, l, n, &err); break;
        case 2: rc = ilpm_add_amo(a, l, n, &err); break;
        case 3: rc = ilpm_add_exo(a, l, n, &err); break;
        case 4: rc = ilpm_add_impl(a, l[0], other, &err); break;
        case 5: rc = ilpm_add_card(a, l, n, cmp, k, &err); break;
        case 6: rc = ilpm_add_ccard(a, other, l, n, cmp, k, &err); break;
        default: rc = ilpm_add_linear(a, c, l, n, cmp, k * 2 - 1, &err); break;
        }
        /* clang-format on */
        ck_assert_msg(rc == 0, "%s", err.msg);
    }
    int sense = (int)(test_rnd(seed) % 3);
    if (sense) {
        int l[4];
        int64_t c[4];
        for (int j = 0; j < 4; j++) {
            l[j] = test_rlit(seed, nv);
            c[j] = (int64_t)(test_rnd(seed) % 9) - 4;
        }
        ck_assert_int_eq(
            ilpm_model_objective(a, sense == 1 ? ILPM_MINIMIZE : ILPM_MAXIMIZE,
                                 c, l, 4, &err),
            0);
    }
    *nv_out = nv;
    return a;
}

static void assignment(uint8_t *v, int nv, unsigned mask)
{
    v[0] = 0;
    for (int i = 1; i <= nv; i++)
        v[i] = (uint8_t)((mask >> (i - 1)) & 1);
}

/* ------------------------------------------------------------------ */
/* ilpm_opb_write                                                       */

/* The header counts the variables and the constraint lines; each
 * variable is named in a comment, aux families too. */
START_TEST(test_header_and_names)
{
    ilpm_model *a = ilpm_model_new();
    int lo[2] = {1, 0}, hi[2] = {2, 1};
    ilpm_model_family(a, "X", 2, lo, hi, 0, &err);
    ilpm_model_family(a, "aux", 1, lo, hi, ILPM_FAM_AUX, &err);
    int l[3] = {1, 2, 5};
    ilpm_add_exo(a, l, 3, &err);
    ilpm_add_ccard(a, 6, l, 3, ILPM_EQ, 1, &err); /* two lines */
    char *text = opb_text(a);
    static const char head[] = "* #variable= 6 #constraint= 3\n"
                               "* X[1,0] = x1\n* X[1,1] = x2\n"
                               "* X[2,0] = x3\n* X[2,1] = x4\n"
                               "* aux[1] = x5\n* aux[2] = x6\n";
    ck_assert_msg(!strncmp(text, head, strlen(head)), "%s", text);
    opb *o = read_opb(text, a);
    ck_assert_int_eq(o->nrows, 3);
    ck_assert(!o->has_min);
    free(o);
    free(text);
    /* no constraint at all */
    ilpm_model *e = ilpm_model_new();
    ilpm_model_family(e, "y", 1, lo, hi, 0, &err);
    text = opb_text(e);
    ck_assert_str_eq(text, "* #variable= 2 #constraint= 0\n"
                           "* y[1] = x1\n* y[2] = x2\n");
    free(text);
    ilpm_model_free(e);
    ilpm_model_free(a);
}
END_TEST

/* Each kind as its lines: sums against a bound, >= as it is, <= negated
 * (OPB has >= and = only), a negative literal folded into the bound
 * (~x is not used), a repeated variable merged, a conditional
 * cardinality as one big-M line per side that can fail, a constant that
 * holds left out and one that fails written as x1 >= 2. */
START_TEST(test_each_kind)
{
    static const struct {
        ilpm_kind kind;
        int n;
        int lits[4];
        int64_t coefs[4];
        ilpm_cmp cmp;
        int64_t k;
        int cond;
        const char *want;
    } cases[] = {
        {ILPM_CLAUSE, 2, {1, -2}, {0}, 0, 0, 0, "+1 x1 -1 x2 >= 0 ;\n"},
        {ILPM_ALO, 3, {1, 2, 3}, {0}, 0, 0, 0, "+1 x1 +1 x2 +1 x3 >= 1 ;\n"},
        {ILPM_AMO, 2, {1, -2}, {0}, 0, 0, 0, "-1 x1 +1 x2 >= 0 ;\n"},
        {ILPM_EXO, 2, {1, 2}, {0}, 0, 0, 0, "+1 x1 +1 x2 = 1 ;\n"},
        {ILPM_IMPL, 2, {1, -3}, {0}, 0, 0, 0, "-1 x1 -1 x3 >= -1 ;\n"},
        {ILPM_CARD,
         3,
         {1, 2, 3},
         {0},
         ILPM_LE,
         2,
         0,
         "-1 x1 -1 x2 -1 x3 >= -2 ;\n"},
        {ILPM_CARD,
         3,
         {1, 2, 3},
         {0},
         ILPM_GE,
         2,
         0,
         "+1 x1 +1 x2 +1 x3 >= 2 ;\n"},
        {ILPM_CARD, 2, {1, -2}, {0}, ILPM_EQ, 1, 0, "+1 x1 -1 x2 = 0 ;\n"},
        {ILPM_CARD, 3, {1, 1, 2}, {0}, ILPM_GE, 2, 0, "+2 x1 +1 x2 >= 2 ;\n"},
        {ILPM_CCARD,
         3,
         {1, 2, 3},
         {0},
         ILPM_GE,
         2,
         4,
         "+1 x1 +1 x2 +1 x3 -2 x4 >= 0 ;\n"},
        {ILPM_CCARD,
         3,
         {1, 2, 3},
         {0},
         ILPM_EQ,
         2,
         4,
         "+1 x1 +1 x2 +1 x3 -2 x4 >= 0 ;\n"
         "-1 x1 -1 x2 -1 x3 -1 x4 >= -3 ;\n"},
        {ILPM_CCARD,
         2,
         {1, 2},
         {0},
         ILPM_LE,
         0,
         -4,
         "-1 x1 -1 x2 +2 x4 >= 0 ;\n"},
        {ILPM_CCARD, 2, {1, 2}, {0}, ILPM_LE, 2, 4, ""}, /* cannot fail */
        {ILPM_LINEAR,
         3,
         {1, -2, 3},
         {3, -2, 5},
         ILPM_LE,
         4,
         0,
         "-3 x1 -2 x2 -5 x3 >= -6 ;\n"},
        {ILPM_LINEAR, 2, {1, 2}, {4, -1}, ILPM_EQ, 3, 0, "+4 x1 -1 x2 = 3 ;\n"},
        {ILPM_CLAUSE, 2, {1, -1}, {0}, 0, 0, 0, ""},
        {ILPM_CARD, 2, {2, -2}, {0}, ILPM_EQ, 0, 0, "+1 x1 >= 2 ;\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ilpm_model *a = ilpm_model_new();
        int lo[1] = {1}, hi[1] = {4};
        ilpm_model_family(a, "x", 1, lo, hi, 0, &err);
        const int *l = cases[i].lits;
        int n = cases[i].n, rc;
        switch (cases[i].kind) {
        case ILPM_CLAUSE:
            rc = ilpm_add_clause(a, l, n, &err);
            break;
        case ILPM_ALO:
            rc = ilpm_add_alo(a, l, n, &err);
            break;
        case ILPM_AMO:
            rc = ilpm_add_amo(a, l, n, &err);
            break;
        case ILPM_EXO:
            rc = ilpm_add_exo(a, l, n, &err);
            break;
        case ILPM_IMPL:
            rc = ilpm_add_impl(a, l[0], l[1], &err);
            break;
        case ILPM_CARD:
            rc = ilpm_add_card(a, l, n, cases[i].cmp, cases[i].k, &err);
            break;
        case ILPM_CCARD:
            rc = ilpm_add_ccard(a, cases[i].cond, l, n, cases[i].cmp,
                                cases[i].k, &err);
            break;
        default:
            rc = ilpm_add_linear(a, cases[i].coefs, l, n, cases[i].cmp,
                                 cases[i].k, &err);
            break;
        }
        ck_assert_msg(rc == 0, "%s", err.msg);
        char *text = opb_text(a), buf[256];
        ck_assert_msg(!strcmp(rows_of(text, buf, sizeof buf), cases[i].want),
                      "case %zu: got\n%s", i, text);
        opb *o = read_opb(text, a);
        for (unsigned mask = 0; mask < 16; mask++) {
            uint8_t v[5];
            assignment(v, 4, mask);
            ck_assert_msg(opb_accepts(o, v) == ilpm_model_check(a, v, NULL),
                          "case %zu, assignment %#x", i, mask);
        }
        free(o);
        free(text);
        ilpm_model_free(a);
    }
}
END_TEST

/* OPB minimises only: a maximised objective is written negated, with a
 * comment that says how to read its value back; a constant part goes
 * into the comment, and an objective that is all constant has no min:
 * line. */
START_TEST(test_objective)
{
    ilpm_model *a = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {3};
    ilpm_model_family(a, "x", 1, lo, hi, 0, &err);
    int l[2] = {1, -2};
    int64_t c[2] = {2, 3};
    ilpm_model_objective(a, ILPM_MINIMIZE, c, l, 2, &err);
    char *text = opb_text(a);
    ck_assert_ptr_nonnull(strstr(text, "\n* objective: minimise; objective "
                                       "= (min: value) +3\n"
                                       "min: +2 x1 -3 x2 ;\n"));
    free(text);
    ilpm_model_objective(a, ILPM_MAXIMIZE, c, l, 2, &err);
    text = opb_text(a);
    ck_assert_ptr_nonnull(strstr(text, "\n* objective: maximise; min: below "
                                       "is its negation, objective = 3 - "
                                       "(min: value)\n"
                                       "min: -2 x1 +3 x2 ;\n"));
    free(text);
    /* no constant: no comment for a minimum */
    int p[2] = {1, 3};
    ilpm_model_objective(a, ILPM_MINIMIZE, c, p, 2, &err);
    text = opb_text(a);
    ck_assert_ptr_null(strstr(text, "objective"));
    ck_assert_ptr_nonnull(strstr(text, "\nmin: +2 x1 +3 x3 ;\n"));
    free(text);
    /* x1 + (1 - x1) is the constant 1 */
    int q[2] = {1, -1};
    int64_t ones[2] = {1, 1};
    ilpm_model_objective(a, ILPM_MAXIMIZE, ones, q, 2, &err);
    text = opb_text(a);
    ck_assert_ptr_nonnull(
        strstr(text, "\n* the objective is the constant 1\n"));
    ck_assert_ptr_null(strstr(text, "\nmin:"));
    opb *o = read_opb(text, a);
    uint8_t v[4] = {0, 1, 0, 1};
    ck_assert_int_eq(opb_objective(o, v), ilpm_model_objective_value(a, v));
    free(o);
    free(text);
    ilpm_model_free(a);
}
END_TEST

/* A redundant group costs no line: its constraints are left out and
 * the header does not count them. */
START_TEST(test_redundant_left_out)
{
    ilpm_model *a = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {3}, l[3] = {1, 2, 3};
    ilpm_model_family(a, "x", 1, lo, hi, 0, &err);
    ilpm_model_group(a, "main", &err);
    ilpm_add_alo(a, l, 3, &err);
    int g = ilpm_model_group(a, "implied", &err);
    ilpm_add_card(a, l, 3, ILPM_LE, 2, &err);
    ilpm_add_ccard(a, 1, l + 1, 2, ILPM_EQ, 1, &err);
    char *text = opb_text(a), buf[256];
    ck_assert_ptr_nonnull(strstr(text, "#constraint= 4\n"));
    free(text);
    ilpm_model_set_redundant(a, g);
    text = opb_text(a);
    ck_assert_ptr_nonnull(strstr(text, "#constraint= 1\n"));
    ck_assert_str_eq(rows_of(text, buf, sizeof buf),
                     "+1 x1 +1 x2 +1 x3 >= 1 ;\n");
    free(text);
    ilpm_model_free(a);
}
END_TEST

/* Read back, the OPB constraints accept exactly the model's solutions
 * and the objective comes out as the model's, on random small models;
 * with group "odd" redundant, exactly the solutions of the model
 * without it. */
START_TEST(test_round_trip)
{
    uint64_t seed = 11;
    int objectives = 0, redundant = 0;
    for (int t = 0; t < 400; t++) {
        uint64_t at = seed;
        int nv, nv2;
        ilpm_model *a = random_model(&seed, &nv, 0);
        int odd = ilpm_model_group(a, "odd", &err);
        int mark = t % 2 && ilpm_model_ncons(a) > 1;
        ilpm_model *ref = a;
        if (mark) {
            ilpm_model_set_redundant(a, odd);
            ref = random_model(&at, &nv2, 1);
            ck_assert_int_eq(nv2, nv);
            redundant++;
        }
        char *text = opb_text(a);
        opb *o = read_opb(text, a);
        int sense = ilpm_model_objective_get(a, NULL, NULL, NULL) != ILPM_NONE;
        ck_assert_int_eq(sense, o->has_min || o->constant);
        objectives += sense;
        for (unsigned mask = 0; mask < (1u << nv); mask++) {
            uint8_t v[16];
            assignment(v, nv, mask);
            ck_assert_msg(opb_accepts(o, v) == ilpm_model_check(ref, v, NULL),
                          "model %d, assignment %#x:\n%s", t, mask, text);
            if (sense)
                ck_assert_msg(opb_objective(o, v) ==
                                  ilpm_model_objective_value(a, v),
                              "model %d, assignment %#x:\n%s", t, mask, text);
        }
        free(o);
        free(text);
        if (ref != a)
            ilpm_model_free(ref);
        ilpm_model_free(a);
    }
    ck_assert_int_gt(objectives, 200);
    ck_assert_int_gt(redundant, 100);
}
END_TEST

/* A write that fails (a full device) is an error that says so. */
START_TEST(test_write_error)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f)
        return; /* no such device here */
    ilpm_model *a = ilpm_model_new();
    int lo[1] = {1}, hi[1] = {3}, l[3] = {1, 2, 3};
    ilpm_model_family(a, "x", 1, lo, hi, 0, &err);
    ilpm_add_exo(a, l, 3, &err);
    ck_assert_int_eq(ilpm_opb_write(a, f, &err), -1);
    ck_assert_msg(strstr(err.msg, "cannot write OPB: ") == err.msg, "%s",
                  err.msg);
    fclose(f);
    ilpm_model_free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("opb");
    TCase *tc = tcase_create("ilpm_opb_write");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_header_and_names);
    tcase_add_test(tc, test_each_kind);
    tcase_add_test(tc, test_objective);
    tcase_add_test(tc, test_redundant_left_out);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_write_error);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
