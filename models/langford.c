/* Langford sequences L(k,n): k copies of each value 1..n in a line of n*k
 * positions, with exactly v cards between consecutive copies of v.
 *
 * Two formulations:
 *  - cards (the seed report's): X(v,c,p) = copy c of value v at position
 *    p, with groups ALO_pos, AMO_pos, dist_1, dist_2 and alldiff;
 *  - positions (the literature's exact cover): Y(v,p) = the first copy of
 *    v at position p; every value placed once, every position covered
 *    once.
 * Both carry the position-sum identity, which makes the parity argument
 * for non-existence a single linear row, in a redundant group: the
 * shared propagation refutes L(2,n) with n = 1 or 2 (mod 4) by the row's
 * coefficients alone, and the lowerings leave it out, since as a GLPK row
 * it slows the search for existing sequences (docs/benchmarks.md) and
 * as CNF it outgrows any BDD budget from n = 147.  --redundant lowers
 * it too; --symmetry keeps one sequence of each sequence/reverse pair. */
#include "puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANGFORD_MIN_K 2
#define LANGFORD_MAX_K 10
#define LANGFORD_MIN_N 1
#define LANGFORD_MAX_N 1000

/* positions is the default: the exact cover is smaller and, on the
 * benchmark ladder (tests/bench/peers.sh), solves L(2,n) to n = 64 on
 * GLPK in 0.6 s and past n = 100 on CaDiCaL, where cards stops near 64
 * and 47. */
enum { POSITIONS, CARDS };
static const char *const formulations[] = {"positions", "cards", NULL};

typedef struct langford {
    int k, n;
    long line; /* line of the pair in its file, 0 from parameters */
} langford;

typedef struct langford_sol {
    int len;  /* n*k */
    int *seq; /* seq[0..len): the value at each position */
} langford_sol;

static const ilpm_opt langford_opts[] = {
    {.name = "n",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = LANGFORD_MIN_N,
     .hi = LANGFORD_MAX_N,
     .flags = ILPM_OPT_INSTANCE,
     .help = "values 1..N; or give a FILE of 'k n' pairs"},
    {.name = "k",
     .arg = "K",
     .type = ILPM_OPT_INT,
     .lo = LANGFORD_MIN_K,
     .hi = LANGFORD_MAX_K,
     .def = "2",
     .flags = ILPM_OPT_INSTANCE,
     .help = "copies of each value"},
    {.name = "formulation",
     .arg = "F",
     .type = ILPM_OPT_CHOICE,
     .def = "positions",
     .choices = formulations,
     .help = "positions (Y(v,p)) or cards (X(v,c,p))"},
    {.name = "redundant",
     .type = ILPM_OPT_FLAG,
     .help = "lower the position-sum row too (by default it only serves the "
             "parity proof before solving)"},
    {.name = "symmetry",
     .type = ILPM_OPT_FLAG,
     .help = "keep one of each sequence/reverse pair"},
    {.name = NULL},
};

static langford *langford_alloc(int k, int n)
{
    langford *l = calloc(1, sizeof *l);
    if (l) {
        l->k = k;
        l->n = n;
    }
    return l;
}

static void langford_free(void *p)
{
    free(p);
}

static int langford_from_params(const ilpm_params *p, void **inst,
                                ilpm_err *err)
{
    if (!ilpm_params_has(p, "n")) {
        if (ilpm_params_has(p, "k"))
            return ilpm_err_input(err, "--k: needs --n as well");
        return 0;
    }
    long n, k;
    if (ilpm_params_int(p, langford_opts, "n", &n, err) != 0 ||
        ilpm_params_int(p, langford_opts, "k", &k, err) != 0)
        return -1;
    langford *l = langford_alloc((int)k, (int)n);
    if (!l)
        return ilpm_err_nomem(err, "out of memory");
    *inst = l;
    return 1;
}

/* ------------------------------------------------------------------ */
/* File of "k n" pairs                                                  */

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static int field_end(char c)
{
    return c == '\0' || is_blank(c) || c == '#';
}

/* One field starting at line[i]: an optionally signed decimal within
 * lo..hi.  Returns 0 and the value, or -1 with err. */
static int read_field(ilpm_reader *rd, const char *line, size_t i,
                      const char *name, long lo, long hi, long *out,
                      size_t *next, ilpm_err *err)
{
    size_t j = i;
    int neg = 0;
    if (line[j] == '-' || line[j] == '+')
        neg = line[j++] == '-';
    const char *digits = line + j;
    long v;
    int nd = ilpm_scan_uint(&digits, &v);
    j = (size_t)(digits - line);
    if (nd == 0 || !field_end(line[j])) {
        size_t e = i;
        char shown[ILPM_SHOW_SIZE];
        while (!field_end(line[e]))
            e++;
        return ilpm_reader_error(
            rd, err, (long)i + 1, "%s: expected a number, got '%s'", name,
            ilpm_show(line + i, e - i, shown, sizeof shown));
    }
    if (neg)
        v = -v;
    if (v > hi)
        return ilpm_reader_error(rd, err, (long)i + 1,
                                 "%s = %.*s is too large (at most %ld)", name,
                                 (int)(j - i > 40 ? 40 : j - i), line + i, hi);
    if (v < lo)
        return ilpm_reader_error(
            rd, err, (long)i + 1, "%s = %.*s is out of range (%ld to %ld)",
            name, (int)(j - i > 40 ? 40 : j - i), line + i, lo, hi);
    *out = v;
    *next = j;
    return 0;
}

static int parse_pair(ilpm_reader *rd, const char *line, long *k, long *n,
                      ilpm_err *err)
{
    size_t i = 0;
    while (is_blank(line[i]))
        i++;
    if (read_field(rd, line, i, "k", LANGFORD_MIN_K, LANGFORD_MAX_K, k, &i,
                   err) != 0)
        return -1;
    while (is_blank(line[i]))
        i++;
    if (line[i] == '\0' || line[i] == '#')
        return ilpm_reader_error(rd, err, (long)i + 1,
                                 "missing n: expected 'k n'");
    if (read_field(rd, line, i, "n", LANGFORD_MIN_N, LANGFORD_MAX_N, n, &i,
                   err) != 0)
        return -1;
    while (is_blank(line[i]))
        i++;
    if (line[i] != '\0' && line[i] != '#') {
        size_t e = i;
        char shown[ILPM_SHOW_SIZE];
        while (!field_end(line[e]))
            e++;
        return ilpm_reader_error(
            rd, err, (long)i + 1,
            "unexpected third field '%s': expected "
            "'k n'",
            ilpm_show(line + i, e - i, shown, sizeof shown));
    }
    return 0;
}

static int langford_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                          ilpm_err *err)
{
    (void)p;
    const char *line;
    size_t len;
    int r;
    while ((r = ilpm_reader_line(rd, &line, &len, err)) == 1) {
        if (ilpm_line_is_blank_or_comment(line))
            continue;
        /* One pair per line: after an error the reader already stands
         * past the bad instance. */
        long k, n;
        if (parse_pair(rd, line, &k, &n, err) != 0)
            return -1;
        langford *l = langford_alloc((int)k, (int)n);
        if (!l)
            return ilpm_err_nomem(err, "out of memory");
        l->line = ilpm_reader_lineno(rd);
        *inst = l;
        return 1;
    }
    return r < 0 ? -1 : 0;
}

static void langford_describe(const void *inst, char *buf, size_t size)
{
    const langford *l = inst;
    snprintf(buf, size, "L(%d,%d)", l->k, l->n);
}

/* ------------------------------------------------------------------ */
/* Model                                                                */

/* Value v's block (all k copies) spans (k-1)(v+1)+1 positions; its first
 * copy can start at 1..last_start(v), which is < 1 when the block is
 * longer than the line (only when n < k). */
static int last_start(const langford *l, int v)
{
    return l->n * l->k - (l->k - 1) * (v + 1);
}

/* Reversal maps a block starting at s to one starting at
 * nk + 1 - s - (k-1)(v+1).  The block is "left" when it starts before its
 * mirror image, "centred" when it is its own mirror image. */
static long twice_centre_gap(const langford *l, int v, int s)
{
    /* 2s + (k-1)(v+1) - (nk+1): < 0 left, 0 centred, > 0 right */
    return 2L * s + (long)(l->k - 1) * (v + 1) - ((long)l->n * l->k + 1);
}

/* The variable saying "the first copy of v starts at s". */
static int start_var(const ilpm_model *m, int fam, int form, int v, int s)
{
    return form == CARDS ? ilpm_model_var(m, fam, v, 1, s, 0)
                         : ilpm_model_var(m, fam, v, s, 0, 0);
}

/* Reversal symmetry.  A Langford sequence with k >= 2 is never its own
 * reverse.  In a palindrome every block would be centred on (nk+1)/2.
 * For odd k each value would then have its middle copy at that one
 * position, impossible for n >= 2.  For even k that centre is a half
 * position, while a block's midpoint s + (k-1)(v+1)/2 is a half position
 * only for even v: value 1's block cannot be centred.  (n = 1 has no
 * sequence at all.)  So reversal pairs the sequences, and in every pair
 * some value's block is not centred.
 *
 * We keep the member in which the first non-centred value, taken in order
 * n, n-1, ..., 1, has its block in the left half (lex-leader on the signs
 * of twice_centre_gap): for each v,
 *     centred(n) & ... & centred(v+1) -> centred(v) | left(v)
 * where centred(v) is one start variable and left(v) the disjunction of
 * the left starts.  Reversal flips every sign, so exactly one member of a
 * pair passes.  The largest values come first: theirs are the shortest
 * place rows, which first-fail branches on first, so that halving one
 * halves the search at its root (counting L(2,12) with value 1 first took
 * 8% more nodes a sequence than the full count, with value 12 first 2%).
 * For k = 2 value v can be centred only when v is even (2s = 2n - v), so
 * the chain is "value n's first copy in the left half" for odd n, and
 * two clauses for even n.  When the centred start of v lies outside
 * 1..last_start(v), centred(v) is false and the chain ends there.  n < k
 * has no sequence: nothing to break. */
static int add_symmetry(const langford *l, ilpm_model *m, int fam, int form,
                        int *lits, ilpm_err *err)
{
    if (l->n < l->k)
        return 0;
    if (ilpm_model_group(m, "symmetry", err) < 0)
        return -1;
    int nprefix = 0; /* lits[0..nprefix) = -centred(n..v+1) */
    for (int v = l->n; v >= 1; v--) {
        int cnt = nprefix, centred = 0;
        for (int s = 1; s <= last_start(l, v); s++) {
            long g = twice_centre_gap(l, v, s);
            if (g < 0)
                lits[cnt++] = start_var(m, fam, form, v, s);
            else if (g == 0)
                centred = start_var(m, fam, form, v, s);
        }
        if (centred)
            lits[cnt++] = centred;
        if (ilpm_add_clause(m, lits, cnt, err) != 0)
            return -1;
        if (!centred)
            break;
        lits[nprefix++] = -centred;
    }
    return 0;
}

/* Every copy's position summed: k * sum_v s_v + (k(k-1)/2) sum_v (v+1)
 * = 1 + 2 + ... + nk, where s_v is value v's first position.  For k = 2
 * and n = 1 or 2 (mod 4) the right side k*sum s_v must equal an odd
 * number while every coefficient is even: no 0/1 point satisfies the row,
 * which is Davies' parity argument in one line. */
static int add_redundant(const langford *l, ilpm_model *m, int fam, int form,
                         int lowered, int *lits, int64_t *coefs, ilpm_err *err)
{
    int64_t nk = (int64_t)l->n * l->k, k = l->k;
    int64_t sumv = 0;
    for (int v = 1; v <= l->n; v++)
        sumv += v + 1;
    int64_t rhs = nk * (nk + 1) / 2 - k * (k - 1) / 2 * sumv;
    int cnt = 0;
    int hi = form == CARDS           ? (int)nk
             : last_start(l, 1) >= 1 ? last_start(l, 1)
                                     : 1;
    /* All start variables of the family, also those fixed false: the
     * row stays non-empty when no value fits (n < k). */
    for (int v = 1; v <= l->n; v++)
        for (int s = 1; s <= hi; s++) {
            lits[cnt] = start_var(m, fam, form, v, s);
            coefs[cnt++] = k * s;
        }
    int g = ilpm_model_group(m, "redundant", err);
    if (g < 0)
        return -1;
    if (!lowered)
        ilpm_model_set_redundant(m, g);
    return ilpm_add_linear(m, coefs, lits, cnt, ILPM_EQ, rhs, err);
}

static int build_cards(const langford *l, ilpm_model *m, int *lits,
                       ilpm_err *err)
{
    int n = l->n, k = l->k, nk = n * k;
    int lo[3] = {1, 1, 1}, hi[3] = {n, k, nk};
    int X = ilpm_model_family(m, "X", 3, lo, hi, 0, err);
    if (X < 0)
        return -1;
    /* Each copy has a position: at least one and at most one, kept as
     * two constraints as the report writes them. */
    if (ilpm_model_group(m, "ALO_pos", err) < 0)
        return -1;
    for (int v = 1; v <= n; v++)
        for (int c = 1; c <= k; c++) {
            for (int p = 1; p <= nk; p++)
                lits[p - 1] = ilpm_model_var(m, X, v, c, p, 0);
            if (ilpm_add_alo(m, lits, nk, err) != 0)
                return -1;
        }
    if (ilpm_model_group(m, "AMO_pos", err) < 0)
        return -1;
    for (int v = 1; v <= n; v++)
        for (int c = 1; c <= k; c++) {
            for (int p = 1; p <= nk; p++)
                lits[p - 1] = ilpm_model_var(m, X, v, c, p, 0);
            if (ilpm_add_amo(m, lits, nk, err) != 0)
                return -1;
        }
    /* Copy c at p puts copy c+1 at p+v+1; the last copy has no successor
     * (the report's encoder wrongly applies the rule to c = k too). */
    if (ilpm_model_group(m, "dist_1", err) < 0)
        return -1;
    for (int v = 1; v <= n; v++)
        for (int c = 1; c < k; c++)
            for (int p = 1; p + v + 1 <= nk; p++)
                if (ilpm_add_impl(m, ilpm_model_var(m, X, v, c, p, 0),
                                  ilpm_model_var(m, X, v, c + 1, p + v + 1, 0),
                                  err) != 0)
                    return -1;
    if (ilpm_model_group(m, "dist_2", err) < 0)
        return -1;
    for (int v = 1; v <= n; v++)
        for (int c = 1; c < k; c++)
            for (int p = nk - v > 0 ? nk - v : 1; p <= nk; p++) {
                int lit = -ilpm_model_var(m, X, v, c, p, 0);
                if (ilpm_add_clause(m, &lit, 1, err) != 0)
                    return -1;
            }
    if (ilpm_model_group(m, "alldiff", err) < 0)
        return -1;
    for (int p = 1; p <= nk; p++) {
        int cnt = 0;
        for (int v = 1; v <= n; v++)
            for (int c = 1; c <= k; c++)
                lits[cnt++] = ilpm_model_var(m, X, v, c, p, 0);
        if (ilpm_add_amo(m, lits, cnt, err) != 0)
            return -1;
    }
    return X;
}

static int build_positions(const langford *l, ilpm_model *m, int *lits,
                           ilpm_err *err)
{
    int n = l->n, k = l->k, nk = n * k;
    /* One rectangular family over the starts of value 1 (the widest
     * range); the starts a larger value cannot use are fixed false in
     * group "range", much as dist_2 does for the cards. */
    int smax = last_start(l, 1) >= 1 ? last_start(l, 1) : 1;
    int lo[2] = {1, 1}, hi[2] = {n, smax};
    int Y = ilpm_model_family(m, "Y", 2, lo, hi, 0, err);
    if (Y < 0)
        return -1;
    int any = 0;
    for (int v = 1; v <= n; v++)
        for (int s = (last_start(l, v) > 0 ? last_start(l, v) : 0) + 1;
             s <= smax; s++) {
            if (!any++ && ilpm_model_group(m, "range", err) < 0)
                return -1;
            int lit = -ilpm_model_var(m, Y, v, s, 0, 0);
            if (ilpm_add_clause(m, &lit, 1, err) != 0)
                return -1;
        }
    /* Over the whole family row: when value v fits nowhere (n < k) the
     * row's variables are all fixed false and the model is infeasible,
     * as it should be. */
    if (ilpm_model_group(m, "place", err) < 0)
        return -1;
    for (int v = 1; v <= n; v++) {
        int hiv = last_start(l, v) >= 1 ? last_start(l, v) : smax;
        for (int s = 1; s <= hiv; s++)
            lits[s - 1] = ilpm_model_var(m, Y, v, s, 0, 0);
        if (ilpm_add_exo(m, lits, hiv, err) != 0)
            return -1;
    }
    /* Position q is covered by copy j of v starting at q - j(v+1).  With
     * n >= k value 1 alone covers every position, so no list is empty;
     * with n < k an empty list is skipped (place is infeasible already). */
    if (ilpm_model_group(m, "cover", err) < 0)
        return -1;
    for (int q = 1; q <= nk; q++) {
        int cnt = 0;
        for (int v = 1; v <= n; v++)
            for (int j = 0; j < k; j++) {
                int s = q - j * (v + 1);
                if (s >= 1 && s <= last_start(l, v))
                    lits[cnt++] = ilpm_model_var(m, Y, v, s, 0, 0);
            }
        if (cnt && ilpm_add_exo(m, lits, cnt, err) != 0)
            return -1;
    }
    return Y;
}

static int langford_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                          ilpm_err *err)
{
    const langford *l = inst;
    int form;
    if (ilpm_params_choice(p, langford_opts, "formulation", &form, err) != 0)
        return -1;
    /* Largest list: all starts of the family (n * nk) for the redundant
     * row; every other list is shorter. */
    size_t cap = (size_t)l->n * l->n * l->k + 1;
    int *lits = malloc(cap * sizeof *lits);
    int64_t *coefs = malloc(cap * sizeof *coefs);
    int rc = -1;
    if (!lits || !coefs) {
        ilpm_err_nomem(err, "out of memory");
        goto done;
    }
    int fam = form == CARDS ? build_cards(l, m, lits, err)
                            : build_positions(l, m, lits, err);
    if (fam < 0)
        goto done;
    if (add_redundant(l, m, fam, form, ilpm_params_has(p, "redundant"), lits,
                      coefs, err) != 0)
        goto done;
    if (ilpm_params_has(p, "symmetry") &&
        add_symmetry(l, m, fam, form, lits, err) != 0)
        goto done;
    rc = 0;
done:
    free(lits);
    free(coefs);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decoding, rules, output                                              */

/* The solution and its sequence in one block (a count decodes every
 * solution). */
static langford_sol *sol_new(int len)
{
    langford_sol *s = calloc(1, sizeof *s + (size_t)len * sizeof *s->seq);
    if (s) {
        s->len = len;
        s->seq = (int *)(s + 1);
    }
    return s;
}

static void langford_sol_free(void *p)
{
    free(p);
}

/* Puts value v at position p (1-based); a clash cannot be shown as a
 * sequence, so it is a decoding error. */
static int put(langford_sol *s, int p, int v, ilpm_err *err)
{
    if (p < 1 || p > s->len)
        return ilpm_err_input(err,
                              "value %d placed at position %d, outside "
                              "1..%d",
                              v, p, s->len);
    if (s->seq[p - 1])
        return ilpm_err_input(err, "values %d and %d both at position %d",
                              s->seq[p - 1], v, p);
    s->seq[p - 1] = v;
    return 0;
}

/* How many of row[q0..q1] are set, the last one's q into *last.  Eight
 * at a time where none is (a count decodes 40 million rows of L(2,15),
 * each with one start set among up to 28): a third of the decoding's
 * instructions. */
static int set_places(const uint8_t *row, int q0, int q1, int *last)
{
    int cnt = 0, q = q0;
    for (; q + 7 <= q1; q += 8) {
        uint64_t w;
        memcpy(&w, row + q, sizeof w);
        for (int j = 0; w && j < 8; j++)
            if (row[q + j])
                *last = q + j, cnt++;
    }
    for (; q <= q1; q++)
        if (row[q])
            *last = q, cnt++;
    return cnt;
}

static void *langford_decode(const void *inst, const ilpm_params *p,
                             const ilpm_model *m, const uint8_t *vals,
                             ilpm_err *err)
{
    (void)p;
    const langford *l = inst;
    int n = l->n, k = l->k, nk = n * k;
    int X = ilpm_model_family_find(m, "X");
    int Y = ilpm_model_family_find(m, "Y");
    if (X < 0 && Y < 0) {
        ilpm_err_input(err, "the model has neither family X nor Y");
        return NULL;
    }
    langford_sol *s = sol_new(nk);
    if (!s) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    /* Y[v, lo..hi] are consecutive variables, the rows one after the
     * other: one lookup in all. */
    int ylo[ILPM_MAX_DIMS], yhi[ILPM_MAX_DIMS], q0 = 1, q1 = 0, y0 = 0;
    if (X < 0) {
        unsigned flags;
        ilpm_model_family_info(m, Y, ylo, yhi, &flags);
        q0 = ylo[1] > 1 ? ylo[1] : 1;
        q1 = yhi[1] < nk ? yhi[1] : nk;
        y0 = ilpm_model_var(m, Y, ylo[0], q0, 0, 0);
    }
    for (int v = 1; v <= n; v++) {
        if (X >= 0) {
            for (int c = 1; c <= k; c++) {
                int pos = 0, cnt = 0;
                for (int q = 1; q <= nk; q++)
                    if (vals[ilpm_model_var(m, X, v, c, q, 0)])
                        pos = q, cnt++;
                if (cnt != 1) {
                    ilpm_err_input(err, "copy %d of value %d has %d positions",
                                   c, v, cnt);
                    goto bad;
                }
                if (put(s, pos, v, err) != 0)
                    goto bad;
            }
        } else {
            int start = 0, cnt = 0;
            /* 0: outside; the family is numbered row by row */
            int first = v >= ylo[0] && v <= yhi[0] && y0
                            ? y0 + (v - ylo[0]) * (yhi[1] - ylo[1] + 1)
                            : 0;
            const uint8_t *row = first ? vals + first - q0 : vals;
            if (first)
                cnt = set_places(row, q0, q1, &start);
            if (cnt != 1) {
                ilpm_err_input(err, "value %d has %d first positions", v, cnt);
                goto bad;
            }
            for (int j = 0; j < k; j++)
                if (put(s, start + j * (v + 1), v, err) != 0)
                    goto bad;
        }
    }
    return s;
bad:
    langford_sol_free(s);
    return NULL;
}

/* 1 when the sequence (n*k entries) keeps the rules, in one pass: every
 * entry in 1..n, v cards strictly between consecutive copies of v, each
 * value k times (a count verifies every solution; langford_verify says
 * what is wrong when this finds something). */
static int rules_hold(const langford *l, const langford_sol *s)
{
    int copies[LANGFORD_MAX_N + 1], last[LANGFORD_MAX_N + 1];
    memset(copies, 0, (size_t)(l->n + 1) * sizeof *copies);
    for (int i = 0; i < s->len; i++) {
        int v = s->seq[i];
        if (v < 1 || v > l->n || (copies[v] && i - last[v] - 1 != v))
            return 0;
        copies[v]++;
        last[v] = i;
    }
    for (int v = 1; v <= l->n; v++)
        if (copies[v] != l->k)
            return 0;
    return 1;
}

/* The rules on the sequence alone: n*k entries, each value k times, and v
 * cards strictly between consecutive copies of v. */
static int langford_verify(const void *inst, const ilpm_params *p,
                           const void *vsol, ilpm_err *why)
{
    (void)p;
    const langford *l = inst;
    const langford_sol *s = vsol;
    if (s->len == l->n * l->k && rules_hold(l, s))
        return 0;
    if (s->len != l->n * l->k)
        return ilpm_err_input(why, "sequence has %d cards, expected %d", s->len,
                              l->n * l->k);
    for (int i = 0; i < s->len; i++)
        if (s->seq[i] < 1 || s->seq[i] > l->n)
            return ilpm_err_input(why, "position %d holds %d, outside 1..%d",
                                  i + 1, s->seq[i], l->n);
    for (int v = 1; v <= l->n; v++) {
        int copies = 0, prev = 0;
        for (int i = 1; i <= s->len; i++) {
            if (s->seq[i - 1] != v)
                continue;
            if (copies && i - prev - 1 != v)
                return ilpm_err_input(why,
                                      "value %d: %d cards between positions "
                                      "%d and %d, not %d",
                                      v, i - prev - 1, prev, i, v);
            copies++;
            prev = i;
        }
        if (copies != l->k)
            return ilpm_err_input(why, "value %d appears %d times, not %d", v,
                                  copies, l->k);
    }
    return ilpm_err_input(why, "the sequence breaks the rules");
}

static void langford_render(const void *inst, const void *vsol, ilpm_buf *out)
{
    (void)inst;
    const langford_sol *s = vsol;
    for (int i = 0; i < s->len; i++)
        ilpm_buf_printf(out, "%s%d", i ? " " : "", s->seq[i]);
    ilpm_buf_putc(out, '\n');
}

static void langford_render_json(const void *inst, const void *vsol,
                                 ilpm_buf *out)
{
    (void)inst;
    const langford_sol *s = vsol;
    ilpm_buf_json_ints(out, s->seq, s->len, 0);
}

/* ilpm solve langford --help: examples (see puzzle.h). */
static const char *const langford_examples[] = {
    "--n 7 --k 2", "--n 8 --k 3 --count   # exit 10: no L(3,8)",
    "--n 11 --k 2 --formulation cards --backend sat", NULL};

const ilpm_puzzle ilpm_puzzle_langford = {
    .name = "langford",
    .summary = "Langford sequences L(k,n)",
    .formulations = formulations,
    .opts = langford_opts,
    .input_help =
        "langford --n N [--k K], or FILE: one 'k n' pair per line (k 2-10,\n"
        "n 1-1000); '#' starts a comment.  Counts include a sequence and its\n"
        "reverse unless --symmetry.  Solution JSON: the sequence as an\n"
        "array, e.g. [4,1,3,1,2,4,3,2] for L(2,4).",
    .examples = langford_examples,
    .from_params = langford_from_params,
    .parse = langford_parse,
    .free_instance = langford_free,
    .describe = langford_describe,
    .build = langford_build,
    .decode = langford_decode,
    .verify = langford_verify,
    .render = langford_render,
    .render_json = langford_render_json,
    .free_solution = langford_sol_free,
};
