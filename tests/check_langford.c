/* Langford L(k,n) (models/langford.c): counts against OEIS on both back
 * ends and both formulations (every solution decoded and verified),
 * non-existence with and without the position-sum row, the reversal
 * symmetry breaking, model sizes against the seed report, the file
 * format's error messages and the verifier.  Runs from the source root
 * (paths data/...). */
#include "puzzle.h"
#include "puzzles.h"

#include <check.h>
#define ILPM_TESTUTIL_PUZZLES
#include "sat_int.h"
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ilpm_puzzle *pz = &ilpm_puzzle_langford;

static const char *const forms[] = {"cards", "positions"};

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static ilpm_params *params(int k, int n, const char *form, int redundant,
                           int symmetry)
{
    ilpm_params *p = ilpm_params_new();
    char b[16];
    snprintf(b, sizeof b, "%d", n);
    ilpm_params_set(p, "n", b);
    snprintf(b, sizeof b, "%d", k);
    ilpm_params_set(p, "k", b);
    if (form)
        ilpm_params_set(p, "formulation", form);
    if (redundant)
        ilpm_params_set(p, "redundant", NULL);
    if (symmetry)
        ilpm_params_set(p, "symmetry", NULL);
    return p;
}

static void *instance(const ilpm_params *p)
{
    void *inst = NULL;
    ilpm_err err;
    ck_assert_msg(pz->from_params(p, &inst, &err) == 1, "%s", err.msg);
    return inst;
}

/* Ordered counts (a sequence and its reverse both counted) from
 * data/known_counts.csv: langford_L2_ordered, or twice langford_L3. */
static long known_ordered(int k, int n)
{
    FILE *f = fopen("data/known_counts.csv", "r");
    ck_assert_msg(f != NULL, "data/known_counts.csv missing");
    char line[256];
    long found = -1;
    while (fgets(line, sizeof line, f)) {
        int nn;
        long c;
        if (k == 2 &&
            sscanf(line, "langford_L2_ordered,%d,%ld,", &nn, &c) == 2 &&
            nn == n)
            found = c;
        if (k == 3 && sscanf(line, "langford_L3,%d,%ld,", &nn, &c) == 2 &&
            nn == n)
            found = 2 * c;
    }
    fclose(f);
    ck_assert_msg(found >= 0, "no known count for L(%d,%d)", k, n);
    return found;
}

/* What the count callback sees: every solution decoded, verified and
 * kept as text ("4 1 3 1 2 4 3 2"). */
struct seen {
    const void *inst;
    const ilpm_params *p;
    const ilpm_model *m;
    char **seqs;
    size_t n, cap;
    char error[600];
};

static int on_solution(void *ctx, const uint8_t *vals)
{
    struct seen *s = ctx;
    void *sol = decode_checked(pz, s->inst, s->p, s->m, vals, s->error,
                               sizeof s->error);
    if (!sol)
        return -1;
    ilpm_buf b;
    ilpm_buf_init(&b);
    pz->render(s->inst, sol, &b);
    pz->free_solution(sol);
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->seqs = realloc(s->seqs, s->cap * sizeof *s->seqs);
        ck_assert_ptr_nonnull(s->seqs);
    }
    s->seqs[s->n++] = ilpm_buf_take(&b);
    return 0;
}

static void seen_free(struct seen *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->seqs[i]);
    free(s->seqs);
}

/* Counts L(k,n) under the given options; fills *sn with the sequences
 * when sn is not NULL.  Returns the count. */
static uint64_t count(int k, int n, const char *form, int redundant,
                      int symmetry, ilpm_backend b, struct seen *sn)
{
    ilpm_params *p = params(k, n, form, redundant, symmetry);
    void *inst = instance(p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_msg(pz->build(inst, p, m, &err) == 0, "%s", err.msg);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = b;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    struct seen local = {0};
    struct seen *ctx = sn ? sn : &local;
    memset(ctx, 0, sizeof *ctx);
    ctx->inst = inst;
    ctx->p = p;
    ctx->m = m;
    uint64_t c = 0;
    ilpm_status st = ilpm_solver_count(s, 0, &c, on_solution, ctx, &err);
    ck_assert_msg(st == ILPM_SOLVED, "L(%d,%d) %s %s: %s %s %s", k, n, form,
                  ilpm_backend_name(b), ilpm_status_name(st), err.msg,
                  ctx->error);
    ck_assert_uint_eq(ctx->n, c);
    if (!sn)
        seen_free(&local);
    ilpm_solver_free(s);
    ilpm_model_free(m);
    pz->free_instance(inst);
    ilpm_params_free(p);
    return c;
}

static ilpm_status solve(int k, int n, const char *form, int redundant,
                         ilpm_backend b)
{
    ilpm_params *p = params(k, n, form, redundant, 0);
    void *inst = instance(p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_msg(pz->build(inst, p, m, &err) == 0, "%s", err.msg);
    ilpm_options o;
    ilpm_options_init(&o);
    o.backend = b;
    o.time_limit = 60;
    ilpm_solver *s = ilpm_solver_new(m, &o, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ilpm_status st = ilpm_solver_solve(s, NULL, 0, &err);
    ck_assert_msg(st != ILPM_ERROR, "%s", err.msg);
    if (st == ILPM_SOLVED) {
        void *sol = pz->decode(inst, p, m, ilpm_solver_values(s), &err);
        ck_assert_msg(sol != NULL, "%s", err.msg);
        ck_assert_msg(pz->verify(inst, p, sol, &err) == 0, "%s", err.msg);
        pz->free_solution(sol);
    }
    ilpm_solver_free(s);
    ilpm_model_free(m);
    pz->free_instance(inst);
    ilpm_params_free(p);
    return st;
}

/* ------------------------------------------------------------------ */
/* Counts and existence                                                 */

/* Which counts run where.  GLPK counts in one search; only L(3,10) on
 * cards stays off it (about 6 s a count on GLPK).  cp, counting in one
 * search of its own, takes the larger ones too.  Expected: the ordered
 * count from known_counts.csv, halved with --symmetry.  BOTH is every
 * back end. */
enum { ILP = 1, SAT = 2, CP = 4, BOTH = 7 };
enum { PLAIN = 1, SYM = 2, RED = 4 };
static const struct {
    int k, n;
    int cards, positions; /* back ends (ILP, SAT, CP) per formulation   */
    int variants;         /* PLAIN, SYM, RED (redundant row)            */
} counts[] = {
    {2, 1, BOTH, BOTH, PLAIN | SYM},
    {2, 2, BOTH, BOTH, PLAIN | SYM},
    {2, 3, BOTH, BOTH, PLAIN | SYM | RED},
    {2, 4, BOTH, BOTH, PLAIN | SYM | RED},
    {2, 5, BOTH, BOTH, PLAIN | SYM},
    {2, 6, BOTH, BOTH, PLAIN | SYM},
    {2, 7, BOTH, BOTH, PLAIN | SYM},
    {2, 7, BOTH, BOTH, RED},
    {2, 8, BOTH, BOTH, PLAIN | SYM | RED},
    {2, 11, CP, CP, PLAIN | SYM},
    {2, 12, 0, CP, SYM},
    {3, 2, BOTH, BOTH, PLAIN | SYM}, /* n < k */
    {3, 5, BOTH, BOTH, PLAIN | SYM}, /* n*k odd */
    {3, 8, BOTH, BOTH, PLAIN},
    {3, 9, BOTH, BOTH, PLAIN | RED},
    {3, 9, BOTH, BOTH, SYM}, /* n and k odd: the tie-break chain */
    {3, 10, SAT | CP, BOTH, PLAIN | RED},
    {3, 10, BOTH, BOTH, SYM},
};

static void check_counts(int from, int to)
{
    for (int i = from; i < to; i++)
        for (int f = 0; f < 2; f++)
            for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
                int where = f == 0 ? counts[i].cards : counts[i].positions;
                int mask = b == ILPM_BACKEND_ILP   ? ILP
                           : b == ILPM_BACKEND_SAT ? SAT
                                                   : CP;
                if (!(where & mask))
                    continue;
                int k = counts[i].k, n = counts[i].n;
                long all = known_ordered(k, n);
                for (int v = PLAIN; v <= RED; v <<= 1) {
                    if (!(counts[i].variants & v))
                        continue;
                    long want = v == SYM ? all / 2 : all;
                    uint64_t c = count(k, n, forms[f], v == RED, v == SYM,
                                       (ilpm_backend)b, NULL);
                    ck_assert_msg(c == (uint64_t)want,
                                  "L(%d,%d) %s %s%s: %lu, expected %ld", k, n,
                                  forms[f], ilpm_backend_name(b),
                                  v == SYM   ? " --symmetry"
                                  : v == RED ? " --redundant"
                                             : "",
                                  (unsigned long)c, want);
                }
            }
}

START_TEST(test_counts_pairs)
{
    check_counts(0, 11); /* the k = 2 rows */
}
END_TEST

START_TEST(test_counts_triples)
{
    check_counts(11, (int)(sizeof counts / sizeof *counts));
}
END_TEST

START_TEST(test_nonexistence)
{
    /* n = 1 or 2 (mod 4) for k = 2.  The position-sum row makes the
     * parity proof immediate, even for L(2,17) and L(2,18), which neither
     * solver settles in 300 s without it: by default the propagation
     * refutes the model with the row before lowering, and with
     * --redundant the row is lowered too. */
    for (int f = 0; f < 2; f++)
        for (int b = 0; b < ILPM_BACKEND_COUNT; b++) {
            for (int n = 5; n <= 6; n++)
                for (int r = 0; r < 2; r++)
                    ck_assert_int_eq(solve(2, n, forms[f], r, (ilpm_backend)b),
                                     ILPM_UNSAT);
            for (int n = 9; n <= 18; n++)
                for (int r = 0; r < 2 && (n % 4 == 1 || n % 4 == 2); r++)
                    ck_assert_msg(
                        solve(2, n, forms[f], r, (ilpm_backend)b) == ILPM_UNSAT,
                        "L(2,%d) %s %s%s", n, forms[f], ilpm_backend_name(b),
                        r ? " --redundant" : "");
            /* and the row does not hide the ones that exist */
            for (int n = 11; n <= 12; n++)
                for (int r = 0; r < 2; r++)
                    ck_assert_int_eq(solve(2, n, forms[f], r, (ilpm_backend)b),
                                     ILPM_SOLVED);
        }
    /* (With the row, the PB encoding of its 799 terms slows CaDiCaL
     * down on L(3,17) from under a second to most of a minute.) */
    ck_assert_int_eq(solve(3, 17, "positions", 0, ILPM_BACKEND_SAT),
                     ILPM_SOLVED);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Symmetry                                                             */

static char *reversed(const char *seq)
{
    /* values separated by single spaces, ending in '\n' */
    size_t len = strlen(seq);
    char *out = malloc(len + 1);
    ck_assert_ptr_nonnull(out);
    size_t o = 0;
    size_t end = len - 1; /* the '\n' */
    while (end > 0) {
        size_t start = end;
        while (start > 0 && seq[start - 1] != ' ')
            start--;
        if (o)
            out[o++] = ' ';
        memcpy(out + o, seq + start, end - start);
        o += end - start;
        end = start ? start - 1 : 0;
    }
    out[o++] = '\n';
    out[o] = '\0';
    return out;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int contains(char **sorted, size_t n, const char *s)
{
    return bsearch(&s, sorted, n, sizeof *sorted, cmp_str) != NULL;
}

/* With --symmetry exactly one of each sequence/reverse pair is left:
 * k even (value 1 never centred), n and k odd (the tie-break chain). */
START_TEST(test_symmetry_keeps_one_of_each_pair)
{
    static const int kn[][2] = {{2, 3}, {2, 4}, {2, 7},
                                {2, 8}, {3, 9}, {3, 10}};
    for (size_t i = 0; i < sizeof kn / sizeof *kn; i++)
        for (int f = 0; f < 2; f++) {
            int k = kn[i][0], n = kn[i][1];
            struct seen all, half;
            count(k, n, forms[f], 0, 0, ILPM_BACKEND_SAT, &all);
            count(k, n, forms[f], 0, 1, ILPM_BACKEND_SAT, &half);
            ck_assert_uint_eq(half.n * 2, all.n);
            qsort(all.seqs, all.n, sizeof *all.seqs, cmp_str);
            qsort(half.seqs, half.n, sizeof *half.seqs, cmp_str);
            for (size_t j = 0; j < all.n; j++) {
                char *r = reversed(all.seqs[j]);
                ck_assert_msg(strcmp(r, all.seqs[j]) != 0, "palindrome %s", r);
                ck_assert(contains(all.seqs, all.n, r));
                int a = contains(half.seqs, half.n, all.seqs[j]);
                int b = contains(half.seqs, half.n, r);
                ck_assert_msg(a + b == 1, "L(%d,%d) %s: %s kept %d times", k, n,
                              forms[f], all.seqs[j], a + b);
                free(r);
            }
            seen_free(&all);
            seen_free(&half);
        }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Model sizes                                                          */

static const ilpm_group_stats *group(const ilpm_model *m, const ilpm_stats *st,
                                     const char *name)
{
    for (int g = 0; g < st->ngroups; g++)
        if (strcmp(ilpm_model_group_name(m, g), name) == 0)
            return &st->groups[g];
    ck_abort_msg("no group %s", name);
    return NULL;
}

/* The constraints of group "symmetry" are the n clauses of want, each
 * with its literals in that order (0 ends a shorter one). */
static void symmetry_clauses_are(const ilpm_model *m, int want[][3], int n)
{
    size_t nc = ilpm_model_ncons(m);
    int at = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (strcmp(ilpm_model_group_name(m, c.group), "symmetry") != 0)
            continue;
        ck_assert_int_lt(at, n);
        int len = want[at][2] ? 3 : 2;
        ck_assert_int_eq(c.kind, ILPM_CLAUSE);
        ck_assert_int_eq(c.n, len);
        for (int j = 0; j < len; j++) {
            int hit = 0;
            for (int t = 0; t < len; t++)
                hit |= c.lits[t] == want[at][j];
            ck_assert_msg(hit, "symmetry clause %d lacks %d", at, want[at][j]);
        }
        at++;
    }
    ck_assert_int_eq(at, n);
}

START_TEST(test_sizes_match_report)
{
    /* The report's L(2,4) instance: 64 variables X(n,k,p); ALO 8 clauses,
     * AMO 8*C(8,2), dist_1 18 implications, dist_2 14 units, alldiff
     * 8 positions * C(8,2) pairs. */
    ilpm_params *p = params(2, 4, "cards", 0, 0);
    void *inst = instance(p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    ilpm_options o;
    ilpm_options_init(&o);
    ilpm_sat_opts_in(&o)->amo = ILPM_AMO_PAIRWISE;
    ilpm_stats st;
    ck_assert_int_eq(ilpm_model_stats(m, &o, &st, &err), 0);
    ck_assert_int_eq(st.vars, 64);
    /* and the position-sum row, in a redundant group: not lowered */
    ck_assert_int_eq(st.ngroups, 6);
    ck_assert_int_eq(group(m, &st, "redundant")->cons, 1);
    ck_assert_int_eq(group(m, &st, "redundant")->rows, 0);
    ck_assert_int_eq(group(m, &st, "redundant")->clauses, 0);
    ck_assert_int_eq(group(m, &st, "ALO_pos")->clauses, 8);
    ck_assert_int_eq(group(m, &st, "AMO_pos")->clauses, 8 * 28);
    ck_assert_int_eq(group(m, &st, "dist_1")->clauses, 18);
    ck_assert_int_eq(group(m, &st, "dist_2")->clauses, 14);
    ck_assert_int_eq(group(m, &st, "alldiff")->clauses, 8 * 28);
    ck_assert_int_eq(group(m, &st, "alldiff")->rows, 8);
    ck_assert_int_eq(st.clauses, 8 + 224 + 18 + 14 + 224);
    ilpm_stats_free(&st);
    ilpm_model_free(m);
    ilpm_params_free(p);

    /* Positions: starts 1..6 for value 1, fewer for larger values. */
    p = params(2, 4, "positions", 1, 1);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    ck_assert_int_eq(ilpm_model_stats(m, &o, &st, &err), 0);
    ck_assert_int_eq(st.vars, 4 * 6);
    ck_assert_int_eq(group(m, &st, "range")->rows, 0 + 1 + 2 + 3);
    ck_assert_int_eq(group(m, &st, "place")->nonzeros, 6 + 5 + 4 + 3);
    ck_assert_int_eq(group(m, &st, "cover")->rows, 8);
    /* each valid start covers k = 2 positions */
    ck_assert_int_eq(group(m, &st, "cover")->nonzeros, 2 * 18);
    ck_assert_int_eq(group(m, &st, "redundant")->rows, 1);
    /* value 4 centred (start 2) or left (1); if centred, value 3 left */
    ck_assert_int_eq(group(m, &st, "symmetry")->rows, 2);
    ilpm_stats_free(&st);
    int Y = ilpm_model_family_find(m, "Y");
    int want[2][3] = {
        {ilpm_model_var(m, Y, 4, 1, 0, 0), ilpm_model_var(m, Y, 4, 2, 0, 0), 0},
        {ilpm_model_var(m, Y, 3, 1, 0, 0), ilpm_model_var(m, Y, 3, 2, 0, 0),
         -ilpm_model_var(m, Y, 4, 2, 0, 0)}};
    symmetry_clauses_are(m, want, 2);
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);
}
END_TEST

/* --symmetry breaks on the largest value first, whose place row is the
 * shortest (first-fail's first branching): for L(2,15) one clause, value
 * 15's first copy in the left half (starts 1..7 of 1..14). */
START_TEST(test_symmetry_on_the_largest_value)
{
    ilpm_params *p = params(2, 15, "positions", 0, 1);
    void *inst = instance(p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    int Y = ilpm_model_family_find(m, "Y");
    for (int s = 1; s <= 7; s++)
        ck_assert_int_ne(ilpm_model_var(m, Y, 15, s, 0, 0), 0);
    size_t nc = ilpm_model_ncons(m), found = 0;
    for (size_t i = 0; i < nc; i++) {
        ilpm_con c;
        ilpm_model_con(m, i, &c);
        if (strcmp(ilpm_model_group_name(m, c.group), "symmetry") != 0)
            continue;
        found++;
        ck_assert_int_eq(c.n, 7);
        for (int j = 0; j < c.n; j++)
            ck_assert_int_eq(c.lits[j], ilpm_model_var(m, Y, 15, j + 1, 0, 0));
    }
    ck_assert_uint_eq(found, 1);
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);
}
END_TEST

/* The row reads k * sum p X(v,1,p) = nk(nk+1)/2 - k(k-1)/2 sum (v+1). */
START_TEST(test_redundant_row)
{
    static const int kn[][3] = {{2, 4, 22}, {3, 9, 378 - 3 * 54}};
    for (size_t i = 0; i < 2; i++) {
        ilpm_params *p = params(kn[i][0], kn[i][1], "cards", 1, 0);
        void *inst = instance(p);
        ilpm_model *m = ilpm_model_new();
        ilpm_err err;
        ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
        ilpm_con c;
        ilpm_model_con(m, ilpm_model_ncons(m) - 1, &c);
        ck_assert_int_eq(c.kind, ILPM_LINEAR);
        ck_assert_int_eq(c.cmp, ILPM_EQ);
        ck_assert_int_eq(c.rhs, kn[i][2]);
        ck_assert_str_eq(ilpm_model_group_name(m, c.group), "redundant");
        char name[64];
        for (int j = 0; j < c.n; j++) {
            int v, cc, pos;
            ilpm_model_var_name(m, c.lits[j], name, sizeof name);
            ck_assert_int_eq(sscanf(name, "X[%d,%d,%d]", &v, &cc, &pos), 3);
            ck_assert_int_eq(cc, 1);
            ck_assert_int_eq(c.coefs[j], (int64_t)kn[i][0] * pos);
        }
        ilpm_model_free(m);
        pz->free_instance(inst);
        ilpm_params_free(p);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Input                                                                */

START_TEST(test_file)
{
    ilpm_err err;
    ilpm_reader *rd = ilpm_reader_open("data/langford/minizinc.txt", &err);
    ck_assert_msg(rd != NULL, "%s", err.msg);
    ilpm_params *p = ilpm_params_new();
    void *inst;
    int n = 0;
    char d[32], first[32] = "", last[32] = "";
    while (pz->parse(rd, p, &inst, &err) == 1) {
        pz->describe(inst, d, sizeof d);
        if (!n++)
            strcpy(first, d);
        strcpy(last, d);
        pz->free_instance(inst);
    }
    ck_assert_int_eq(n, 25);
    ck_assert_str_eq(first, "L(2,3)");
    ck_assert_str_eq(last, "L(4,24)");
    ilpm_reader_free(rd);

    /* comments after the fields, blanks, tabs, CRLF */
    static const char text[] = "# k n\n\n 3\t9 # triples\r\n2 4\n";
    rd = ilpm_reader_mem("mem", text, sizeof text - 1);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    pz->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, "L(3,9)");
    pz->free_instance(inst);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 1);
    pz->free_instance(inst);
    ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
    ilpm_reader_free(rd);
    ilpm_params_free(p);
}
END_TEST

static const struct {
    const char *file;
    const char *msg;
} bad_files[] = {
    {"langford_k_out_of_range.txt",
     "langford_k_out_of_range.txt:2:1: k = 11 is too large (at most 10)"},
    {"langford_n_out_of_range.txt",
     "langford_n_out_of_range.txt:2:3: n = 1001 is too large (at most 1000)"},
    {"langford_not_a_number.txt",
     "langford_not_a_number.txt:1:3: n: expected a number, got 'four'"},
    {"langford_missing_field.txt",
     "langford_missing_field.txt:2:4: missing n: expected 'k n'"},
    {"langford_extra_field.txt",
     "langford_extra_field.txt:1:5: unexpected third field '7': expected "
     "'k n'"},
};

START_TEST(test_bad_files)
{
    ilpm_params *p = ilpm_params_new();
    for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
        /* good instances before the bad one are skipped */
        ilpm_reader *rd =
            check_bad_file(pz, p, bad_files[i].file, bad_files[i].msg);
        ilpm_err err;
        void *inst = NULL;
        /* the reader stands past the bad instance: the file just ends */
        ck_assert_int_eq(pz->parse(rd, p, &inst, &err), 0);
        ilpm_reader_free(rd);
    }
    /* more messages, from memory */
    static const char *const more[][2] = {
        {"x 4\n", "mem:1:1: k: expected a number, got 'x'"},
        {"1 4\n", "mem:1:1: k = 1 is out of range (2 to 10)"},
        {"2 0\n", "mem:1:3: n = 0 is out of range (1 to 1000)"},
        {"2 -3\n", "mem:1:3: n = -3 is out of range (1 to 1000)"},
        {"2 99999999999999\n",
         "mem:1:3: n = 99999999999999 is too large (at most 1000)"},
        {"2 99999999999999999999\n",
         "mem:1:3: n = 99999999999999999999 is too large (at most 1000)"},
        {"2 4x\n", "mem:1:3: n: expected a number, got '4x'"},
        {"2 # n is missing\n", "mem:1:3: missing n: expected 'k n'"},
        /* A control byte is shown escaped, never raw. */
        {"2 \033[31mRED\n",
         "mem:1:3: n: expected a number, got '\\x1b[31mRED'"},
        {"2 4 \033[31m\n",
         "mem:1:5: unexpected third field '\\x1b[31m': expected 'k n'"},
    };
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
        ilpm_reader *rd =
            ilpm_reader_mem("mem", more[i][0], strlen(more[i][0]));
        ilpm_err err;
        void *inst;
        ck_assert_int_eq(pz->parse(rd, p, &inst, &err), -1);
        ck_assert_str_eq(err.msg, more[i][1]);
        ilpm_reader_free(rd);
    }
    ilpm_params_free(p);
}
END_TEST

START_TEST(test_bad_params)
{
    static const char *const bad[][3] = {
        {"0", "2", "--n: expected an integer from 1 to 1000, got '0'"},
        {"1001", "2", "--n: '1001' is too large (at most 1000)"},
        {"x", "2", "--n: expected an integer from 1 to 1000, got 'x'"},
        {"4", "1", "--k: expected an integer from 2 to 10, got '1'"},
        {"4", "11", "--k: '11' is too large (at most 10)"},
        {"4", "", "--k: expected an integer from 2 to 10, got ''"},
        {NULL, "3", "--k: needs --n as well"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ilpm_params *p = ilpm_params_new();
        if (bad[i][0])
            ilpm_params_set(p, "n", bad[i][0]);
        ilpm_params_set(p, "k", bad[i][1]);
        ilpm_err err;
        void *inst;
        ck_assert_int_eq(pz->from_params(p, &inst, &err), -1);
        ck_assert_str_eq(err.msg, bad[i][2]);
        ilpm_params_free(p);
    }
    /* the largest n, 1000, is taken (its model is built in the e2e
     * tests) */
    {
        ilpm_params *q = ilpm_params_new();
        ilpm_params_set(q, "n", "1000");
        ilpm_err err;
        void *inst = NULL;
        ck_assert_int_eq(pz->from_params(q, &inst, &err), 1);
        pz->free_instance(inst);
        ilpm_params_free(q);
    }
    /* no parameters: a file is needed; --n alone means k = 2 */
    ilpm_params *p = ilpm_params_new();
    ilpm_err err;
    void *inst;
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 0);
    ilpm_params_set(p, "n", "7");
    ck_assert_int_eq(pz->from_params(p, &inst, &err), 1);
    char d[32];
    pz->describe(inst, d, sizeof d);
    ck_assert_str_eq(d, "L(2,7)");
    /* an unknown formulation is an error of build */
    ilpm_params_set(p, "formulation", "rows");
    ilpm_model *m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), -1);
    ck_assert_str_eq(err.msg, "--formulation: expected one of positions, "
                              "cards, got 'rows'");
    ilpm_model_free(m);
    pz->free_instance(inst);
    ilpm_params_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Decoding, verifier, output                                           */

/* 0/1 values of the cards formulation for a sequence. */
static void encode_cards(const ilpm_model *m, const int *seq, int len,
                         uint8_t *vals)
{
    int X = ilpm_model_family_find(m, "X");
    int copy[32] = {0};
    for (int i = 0; i < len; i++) {
        int v = seq[i];
        copy[v]++;
        vals[ilpm_model_var(m, X, v, copy[v], i + 1, 0)] = 1;
    }
}

START_TEST(test_verifier)
{
    static const int seqs[][8] = {
        {4, 1, 3, 1, 2, 4, 3, 2}, /* valid */
        {4, 1, 3, 1, 2, 3, 4, 2}, /* 3s and 4s too close */
        {1, 3, 1, 2, 4, 3, 2, 4}, /* 4s: 2 cards between */
        {4, 1, 3, 1, 2, 4, 3, 3}, /* three 3s, one 2 */
    };
    static const char *const why[] = {
        NULL,
        "value 3: 2 cards between positions 3 and 6, not 3",
        "value 4: 2 cards between positions 5 and 8, not 4",
        "value 2 appears 1 times, not 2",
    };
    ilpm_params *p = params(2, 4, "cards", 0, 0);
    void *inst = instance(p);
    ilpm_model *m = ilpm_model_new();
    ilpm_err err;
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    int nv = ilpm_model_nvars(m);
    uint8_t *vals = calloc((size_t)nv + 1, 1);
    for (int s = 0; s < 4; s++) {
        memset(vals, 0, (size_t)nv + 1);
        encode_cards(m, seqs[s], 8, vals);
        void *sol = pz->decode(inst, p, m, vals, &err);
        if (s == 3) {
            /* a third copy of 3 is not a variable: decode sees two 3s
             * and a missing copy of 2 */
            ck_assert_ptr_null(sol);
            ck_assert_str_eq(err.msg, "copy 2 of value 2 has 0 positions");
            continue;
        }
        ck_assert_msg(sol != NULL, "%s", err.msg);
        int rc = pz->verify(inst, p, sol, &err);
        ck_assert_int_eq(rc, s == 0 ? 0 : -1);
        if (why[s])
            ck_assert_str_eq(err.msg, why[s]);
        /* the model agrees with the verifier */
        ck_assert_int_eq(ilpm_model_check(m, vals, NULL), s == 0);
        if (s == 0) {
            ilpm_buf out;
            ilpm_buf_init(&out);
            pz->render(inst, sol, &out);
            ck_assert_str_eq(ilpm_buf_str(&out), "4 1 3 1 2 4 3 2\n");
            ilpm_buf_clear(&out);
            pz->render_json(inst, sol, &out);
            ck_assert_str_eq(ilpm_buf_str(&out), "[4,1,3,1,2,4,3,2]");
            ilpm_buf_free(&out);
        }
        pz->free_solution(sol);
    }
    memset(vals, 0, (size_t)nv + 1);
    ck_assert_ptr_null(pz->decode(inst, p, m, vals, &err));
    ck_assert_str_eq(err.msg, "copy 1 of value 1 has 0 positions");
    vals[ilpm_model_var(m, ilpm_model_family_find(m, "X"), 1, 1, 1, 0)] = 1;
    vals[ilpm_model_var(m, ilpm_model_family_find(m, "X"), 1, 1, 2, 0)] = 1;
    ck_assert_ptr_null(pz->decode(inst, p, m, vals, &err));
    ck_assert_str_eq(err.msg, "copy 1 of value 1 has 2 positions");
    free(vals);
    ilpm_model_free(m);
    ilpm_params_free(p);

    /* Positions: a start stands for a whole block, so only clashes and
     * overruns can go wrong in decoding. */
    static const int starts[][4] = {
        {2, 5, 3, 1}, /* 4 1 3 1 2 4 3 2 */
        {1, 1, 3, 4}, /* 1 and 2 both at 1 */
        {1, 4, 2, 5}, /* value 4 from 5: second copy at 10 */
    };
    static const char *const msg[] = {
        NULL,
        "values 1 and 2 both at position 1",
        "value 4 placed at position 10, outside 1..8",
    };
    p = params(2, 4, "positions", 0, 0);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    nv = ilpm_model_nvars(m);
    vals = calloc((size_t)nv + 1, 1);
    int Y = ilpm_model_family_find(m, "Y");
    for (int s = 0; s < 3; s++) {
        memset(vals, 0, (size_t)nv + 1);
        for (int v = 1; v <= 4; v++)
            vals[ilpm_model_var(m, Y, v, starts[s][v - 1], 0, 0)] = 1;
        void *sol = pz->decode(inst, p, m, vals, &err);
        if (s > 0) {
            ck_assert_ptr_null(sol);
            ck_assert_str_eq(err.msg, msg[s]);
            continue;
        }
        ck_assert_msg(sol != NULL, "%s", err.msg);
        ck_assert_int_eq(pz->verify(inst, p, sol, &err), 0);
        ck_assert_int_eq(ilpm_model_check(m, vals, NULL), 1);
        ilpm_buf out;
        ilpm_buf_init(&out);
        pz->render(inst, sol, &out);
        ck_assert_str_eq(ilpm_buf_str(&out), "4 1 3 1 2 4 3 2\n");
        ilpm_buf_free(&out);
        pz->free_solution(sol);
    }
    free(vals);
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);

    /* L(2,12)'s rows of 22 starts, scanned eight at a time: a second
     * start anywhere in value 1's row, or none in value 12's, is seen */
    p = params(2, 12, "positions", 0, 0);
    inst = instance(p);
    m = ilpm_model_new();
    ck_assert_int_eq(pz->build(inst, p, m, &err), 0);
    vals = calloc((size_t)ilpm_model_nvars(m) + 1, 1);
    Y = ilpm_model_family_find(m, "Y");
    static const int seq[12] = {1, 21, 19, 9, 6, 4, 8, 13, 10, 7, 5, 2};
    for (int at = 1; at <= 22; at++) {
        for (int v = 1; v <= 12; v++)
            vals[ilpm_model_var(m, Y, v, seq[v - 1], 0, 0)] = 1;
        vals[ilpm_model_var(m, Y, 1, at, 0, 0)] = 1;
        void *sol = pz->decode(inst, p, m, vals, &err);
        if (at == seq[0]) {
            ck_assert_msg(sol != NULL, "%s", err.msg);
            pz->free_solution(sol);
        } else {
            ck_assert_ptr_null(sol);
            ck_assert_str_eq(err.msg, "value 1 has 2 first positions");
        }
        memset(vals, 0, (size_t)ilpm_model_nvars(m) + 1);
    }
    for (int v = 1; v < 12; v++)
        vals[ilpm_model_var(m, Y, v, seq[v - 1], 0, 0)] = 1;
    ck_assert_ptr_null(pz->decode(inst, p, m, vals, &err));
    ck_assert_str_eq(err.msg, "value 12 has 0 first positions");
    free(vals);
    ilpm_model_free(m);
    ilpm_params_free(p);
    pz->free_instance(inst);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("langford");
    TCase *tc = tcase_create("langford");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_counts_pairs);
    tcase_add_test(tc, test_counts_triples);
    tcase_add_test(tc, test_nonexistence);
    tcase_add_test(tc, test_symmetry_keeps_one_of_each_pair);
    tcase_add_test(tc, test_symmetry_on_the_largest_value);
    tcase_add_test(tc, test_sizes_match_report);
    tcase_add_test(tc, test_redundant_row);
    tcase_add_test(tc, test_file);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_bad_params);
    tcase_add_test(tc, test_verifier);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
