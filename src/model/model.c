/* The constraint-builder layer: families of 0/1 variables, constraints that
 * keep their kind and group, and an optional linear objective.  The model
 * is solver-neutral; src/backend lowers it to GLPK rows or CNF clauses. */
#include "ilpm_int.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GLPK computes in doubles: keep every row exactly representable. */
#define COEF_MAX ((int64_t)1 << 40)
#define SUM_MAX ((int64_t)1 << 52)
#define NAME_MAX_LEN 64

struct family {
    char name[NAME_MAX_LEN];
    int ndims;
    int lo[ILPM_MAX_DIMS], hi[ILPM_MAX_DIMS];
    int base; /* id of the first member, minus 1 */
    int count;
    unsigned flags;
};

struct con {
    uint8_t kind, cmp;
    int group;
    int cond;
    int n;
    size_t off;      /* into lits                          */
    int64_t coefoff; /* into coefs, or -1 for all-ones     */
    int64_t rhs;
    int name; /* into cnames, or -1                  */
};

struct ilpm_model {
    struct family *fams;
    int nfams, capf;
    int nvars;
    char **groups;
    uint8_t *redundant; /* per group: the lowerings that leave it out */
    int ngroups, capg, cur_group;
    struct con *cons;
    size_t ncons, capc;
    int *lits;
    size_t nlits, capl;
    int64_t *coefs;
    size_t ncoefs, capco;
    int64_t *ones; /* n ones, for the coefs of unweighted kinds */
    int nones;
    int64_t max_vars, max_bytes;
    ilpm_watch watch;
    ilpm_sense sense;
    ilpm_hint hint;
    int *olits;
    int64_t *ocoefs;
    int on;
    /* The user's names (a model file's columns and rows), NULL where
     * none: vnames[v], and cnames[] for the constraints, cur_name the
     * one the next constraint takes. */
    char **vnames;
    int capvn;
    char **cnames;
    size_t ncnames, capcn;
    int cur_name;
    struct ilpm_matchings *matchings; /* matching.c's (NULL: none) */
};

ilpm_model *ilpm_model_new(void)
{
    ilpm_model *m = calloc(1, sizeof *m);
    if (m)
        m->cur_group = m->cur_name = -1;
    return m;
}

void ilpm_model_free(ilpm_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->ngroups; i++)
        free(m->groups[i]);
    free(m->groups);
    free(m->redundant);
    free(m->fams);
    free(m->cons);
    free(m->lits);
    free(m->coefs);
    free(m->ones);
    free(m->olits);
    free(m->ocoefs);
    for (int v = 0; v < m->capvn; v++)
        free(m->vnames[v]);
    free(m->vnames);
    for (size_t i = 0; i < m->ncnames; i++)
        free(m->cnames[i]);
    free(m->cnames);
    ilpm_matchings_free(m->matchings);
    free(m);
}

struct ilpm_matchings **ilpm_model_matchings_at(const ilpm_model *m)
{
    return &((ilpm_model *)m)->matchings;
}

int ilpm_model_set_var_name(ilpm_model *m, int v, const char *name,
                            ilpm_err *err)
{
    if (v < 1 || v > m->nvars)
        return ilpm_err_input(err, "variable %d is not of the model (1..%d)", v,
                              m->nvars);
    if (v >= m->capvn) {
        size_t cap = (size_t)m->capvn;
        if (ilpm_grow((void **)&m->vnames, &cap, (size_t)m->nvars + 1,
                      sizeof *m->vnames) != 0)
            return ilpm_err_nomem(err, "out of memory naming variables");
        memset(m->vnames + m->capvn, 0,
               (cap - (size_t)m->capvn) * sizeof *m->vnames);
        m->capvn = (int)cap;
    }
    char *copy = name ? strdup(name) : NULL;
    if (name && !copy)
        return ilpm_err_nomem(err, "out of memory naming variables");
    free(m->vnames[v]);
    m->vnames[v] = copy;
    return 0;
}

const char *ilpm_model_var_own_name(const ilpm_model *m, int v)
{
    return v > 0 && v < m->capvn ? m->vnames[v] : NULL;
}

int ilpm_model_set_con_name(ilpm_model *m, const char *name, ilpm_err *err)
{
    if (!name) {
        m->cur_name = -1;
        return 0;
    }
    /* The rows of one name come in a run: the last name is reused. */
    if (m->ncnames && strcmp(m->cnames[m->ncnames - 1], name) == 0) {
        m->cur_name = (int)m->ncnames - 1;
        return 0;
    }
    char *copy = strdup(name);
    if (!copy || m->ncnames >= INT32_MAX ||
        ilpm_grow((void **)&m->cnames, &m->capcn, m->ncnames + 1,
                  sizeof *m->cnames) != 0) {
        free(copy);
        return ilpm_err_nomem(err, "out of memory naming constraints");
    }
    m->cnames[m->ncnames] = copy;
    m->cur_name = (int)m->ncnames++;
    return 0;
}

static int valid_name(const char *s)
{
    if (!s || !*s || strlen(s) >= NAME_MAX_LEN)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

int ilpm_model_family(ilpm_model *m, const char *name, int ndims, const int *lo,
                      const int *hi, unsigned flags, ilpm_err *err)
{
    if (!valid_name(name))
        return ilpm_err_input(err,
                              "family name '%s' must be 1-63 letters, digits "
                              "or '_'",
                              name ? name : "(null)");
    if (ilpm_model_family_find(m, name) >= 0)
        return ilpm_err_input(err, "family '%s' is declared twice", name);
    if (ndims < 1 || ndims > ILPM_MAX_DIMS)
        return ilpm_err_input(err, "family '%s': %d dimensions (1 to %d)", name,
                              ndims, ILPM_MAX_DIMS);
    int64_t count = 1;
    for (int d = 0; d < ndims; d++) {
        if (hi[d] < lo[d])
            return ilpm_err_input(err,
                                  "family '%s': empty range %d..%d in "
                                  "dimension %d",
                                  name, lo[d], hi[d], d + 1);
        /* Saturate: the exact size of an absurd family does not matter. */
        int64_t span = (int64_t)hi[d] - lo[d] + 1;
        count =
            count > ((int64_t)1 << 62) / span ? (int64_t)1 << 62 : count * span;
    }
    if (m->max_vars > 0 && count > m->max_vars - m->nvars)
        return ilpm_err_fail(err, ILPM_E_LIMIT,
                             "the model needs more than %" PRId64
                             " variables (family '%s' alone has %" PRId64
                             "); raise --max-vars to build it",
                             m->max_vars, name, count);
    if (count > INT32_MAX / 2 - m->nvars)
        return ilpm_err_input(err,
                              "family '%s' is too large: over %d variables",
                              name, INT32_MAX / 2);
    if (ilpm_grow_int((void **)&m->fams, &m->capf, m->nfams + 1,
                      sizeof *m->fams) != 0)
        return ilpm_err_nomem(err, "out of memory");
    struct family *f = &m->fams[m->nfams];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->ndims = ndims;
    for (int d = 0; d < ndims; d++) {
        f->lo[d] = lo[d];
        f->hi[d] = hi[d];
    }
    f->base = m->nvars;
    f->count = (int)count;
    f->flags = flags;
    m->nvars += (int)count;
    return m->nfams++;
}

int ilpm_model_family_find(const ilpm_model *m, const char *name)
{
    for (int i = 0; i < m->nfams; i++)
        if (strcmp(m->fams[i].name, name) == 0)
            return i;
    return -1;
}

static int family_var(const struct family *f, const int *idx)
{
    int off = 0;
    for (int d = 0; d < f->ndims; d++) {
        if (idx[d] < f->lo[d] || idx[d] > f->hi[d])
            return 0;
        off = off * (f->hi[d] - f->lo[d] + 1) + (idx[d] - f->lo[d]);
    }
    return f->base + off + 1;
}

void ilpm_model_set_limits(ilpm_model *m, int64_t max_vars, int64_t max_bytes)
{
    m->max_vars = max_vars;
    m->max_bytes = max_bytes;
}

void ilpm_model_set_deadline(ilpm_model *m, double deadline, volatile int *stop)
{
    ilpm_watch_until(&m->watch, deadline, stop);
}

int ilpm_model_cut_short(const ilpm_model *m, ilpm_err *err)
{
    if (!m->watch.status)
        return 0;
    ilpm_watch w = m->watch; /* sticky: reports the same status */
    return ilpm_watch_poll(&w, "building the model", err);
}

int ilpm_model_var(const ilpm_model *m, int fam, int i0, int i1, int i2, int i3)
{
    if (fam < 0 || fam >= m->nfams)
        return 0;
    int idx[ILPM_MAX_DIMS] = {i0, i1, i2, i3};
    return family_var(&m->fams[fam], idx);
}

int ilpm_model_var_checked(const ilpm_model *m, int fam, const int *idx,
                           ilpm_err *err)
{
    if (fam < 0 || fam >= m->nfams)
        return ilpm_err_fail(err, ILPM_E_FAIL, "no family with id %d", fam), 0;
    const struct family *f = &m->fams[fam];
    for (int d = 0; d < f->ndims; d++)
        if (idx[d] < f->lo[d] || idx[d] > f->hi[d]) {
            ilpm_err_input(err,
                           "%s: index %d of dimension %d is outside %d..%d",
                           f->name, idx[d], d + 1, f->lo[d], f->hi[d]);
            return 0;
        }
    return family_var(f, idx);
}

int ilpm_model_nvars(const ilpm_model *m)
{
    return m->nvars;
}
int ilpm_model_nfamilies(const ilpm_model *m)
{
    return m->nfams;
}

const char *ilpm_model_family_name(const ilpm_model *m, int fam)
{
    return fam >= 0 && fam < m->nfams ? m->fams[fam].name : NULL;
}

int ilpm_model_family_info(const ilpm_model *m, int fam, int *lo, int *hi,
                           unsigned *flags)
{
    if (fam < 0 || fam >= m->nfams)
        return -1;
    const struct family *f = &m->fams[fam];
    for (int d = 0; d < ILPM_MAX_DIMS; d++) {
        lo[d] = d < f->ndims ? f->lo[d] : 0;
        hi[d] = d < f->ndims ? f->hi[d] : 0;
    }
    *flags = f->flags;
    return f->ndims;
}

static const struct family *family_of(const ilpm_model *m, int v)
{
    /* Families are contiguous and in order: binary search on base. */
    int lo = 0, hi = m->nfams - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const struct family *f = &m->fams[mid];
        if (v <= f->base)
            hi = mid - 1;
        else if (v > f->base + f->count)
            lo = mid + 1;
        else
            return f;
    }
    return NULL;
}

const char *ilpm_model_var_name(const ilpm_model *m, int v, char *buf,
                                size_t size)
{
    const char *own = ilpm_model_var_own_name(m, v);
    if (own) {
        snprintf(buf, size, "%s", own);
        return buf;
    }
    const struct family *f = family_of(m, v);
    if (!f) {
        snprintf(buf, size, "x%d", v);
        return buf;
    }
    int idx[ILPM_MAX_DIMS];
    int off = v - f->base - 1;
    for (int d = f->ndims - 1; d >= 0; d--) {
        int span = f->hi[d] - f->lo[d] + 1;
        idx[d] = f->lo[d] + off % span;
        off /= span;
    }
    size_t len = (size_t)snprintf(buf, size, "%s[", f->name);
    for (int d = 0; d < f->ndims && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, "%s%d", d ? "," : "",
                                idx[d]);
    if (len < size)
        snprintf(buf + len, size - len, "]");
    return buf;
}

int ilpm_model_var_is_aux(const ilpm_model *m, int v)
{
    const struct family *f = family_of(m, v);
    return f && (f->flags & ILPM_FAM_AUX);
}

long ilpm_model_aux_mark(const ilpm_model *m, uint8_t *mark)
{
    long n = 0;
    for (int i = 0; i < m->nfams; i++) {
        const struct family *f = &m->fams[i];
        if (!(f->flags & ILPM_FAM_AUX) || f->count <= 0)
            continue;
        n += f->count;
        if (mark)
            memset(mark + f->base + 1, 1, (size_t)f->count);
    }
    return n;
}

int ilpm_model_group(ilpm_model *m, const char *name, ilpm_err *err)
{
    /* The group already current (a builder names one per row): checked
     * when it was made. */
    if (name && m->cur_group >= 0 && strcmp(m->groups[m->cur_group], name) == 0)
        return m->cur_group;
    if (!valid_name(name))
        return ilpm_err_input(err,
                              "group name '%s' must be 1-63 letters, digits "
                              "or '_'",
                              name ? name : "(null)");
    for (int i = 0; i < m->ngroups; i++)
        if (strcmp(m->groups[i], name) == 0)
            return m->cur_group = i;
    /* Two arrays of one capacity: each grows from it alike. */
    int capg = m->capg, capr = m->capg;
    if (ilpm_grow_int((void **)&m->groups, &capg, m->ngroups + 1,
                      sizeof *m->groups) != 0 ||
        ilpm_grow_int((void **)&m->redundant, &capr, m->ngroups + 1,
                      sizeof *m->redundant) != 0)
        return ilpm_err_nomem(err, "out of memory");
    m->capg = capg < capr ? capg : capr;
    m->redundant[m->ngroups] = 0;
    m->groups[m->ngroups] = strdup(name);
    if (!m->groups[m->ngroups])
        return ilpm_err_nomem(err, "out of memory");
    return m->cur_group = m->ngroups++;
}

int ilpm_model_ngroups(const ilpm_model *m)
{
    return m->ngroups;
}

void ilpm_model_set_hint(ilpm_model *m, ilpm_hint h)
{
    m->hint = h;
}

ilpm_hint ilpm_model_hint(const ilpm_model *m)
{
    return m->hint;
}

const char *ilpm_model_group_name(const ilpm_model *m, int g)
{
    return g >= 0 && g < m->ngroups ? m->groups[g] : NULL;
}

void ilpm_model_set_redundant(ilpm_model *m, int g)
{
    ilpm_model_set_redundant_in(m, g, ILPM_LOWER_ROWS | ILPM_LOWER_CNF);
}

void ilpm_model_set_redundant_in(ilpm_model *m, int g, unsigned lowerings)
{
    if (g >= 0 && g < m->ngroups)
        m->redundant[g] |=
            (uint8_t)(lowerings & (ILPM_LOWER_ROWS | ILPM_LOWER_CNF));
}

unsigned ilpm_model_group_redundant(const ilpm_model *m, int g)
{
    return g >= 0 && g < m->ngroups ? m->redundant[g] : 0;
}

static int check_lits(const ilpm_model *m, const int *lits, int n,
                      ilpm_err *err)
{
    for (int i = 0; i < n; i++)
        if (lits[i] == 0 || lits[i] == INT32_MIN || abs(lits[i]) > m->nvars)
            return ilpm_err_input(err,
                                  "literal %d is not a variable of the model "
                                  "(1..%d)",
                                  lits[i], m->nvars);
    return 0;
}

static int add(ilpm_model *m, ilpm_kind kind, ilpm_cmp cmp, int cond,
               const int *lits, const int64_t *coefs, int n, int64_t rhs,
               ilpm_err *err)
{
    if (n <= 0 || !lits)
        return ilpm_err_input(err, "empty %s constraint", ilpm_kind_name(kind));
    if (check_lits(m, lits, n, err) != 0)
        return -1;
    if (cond && check_lits(m, &cond, 1, err) != 0)
        return -1;
    if (rhs > SUM_MAX || rhs < -SUM_MAX)
        return ilpm_err_input(
            err, "%s constraint: right-hand side %" PRId64 " is beyond +-2^52",
            ilpm_kind_name(kind), rhs);
    if (coefs) {
        int64_t sum = 0;
        for (int i = 0; i < n; i++) {
            if (coefs[i] > COEF_MAX || coefs[i] < -COEF_MAX)
                return ilpm_err_input(
                    err, "coefficient %" PRId64 " overflows (beyond +-2^40)",
                    coefs[i]);
            sum += coefs[i] < 0 ? -coefs[i] : coefs[i];
            if (sum > SUM_MAX)
                return ilpm_err_input(err,
                                      "coefficients of a %d-term constraint "
                                      "add up beyond 2^52",
                                      n);
        }
    }
    if (m->cur_group < 0 && ilpm_model_group(m, "default", err) < 0)
        return -1;
    if (ilpm_watch_poll(&m->watch, "building the model", err) != 0)
        return -1;
    if (m->max_bytes > 0) {
        int64_t bytes = (int64_t)(m->ncons + 1) * (int64_t)sizeof *m->cons +
                        (int64_t)(m->nlits + (size_t)n) * 4 +
                        (int64_t)(m->ncoefs + (coefs ? (size_t)n : 0)) * 8;
        if (bytes > m->max_bytes)
            return ilpm_err_fail(err, ILPM_E_LIMIT,
                                 "the model's constraints need more than "
                                 "%" PRId64 " MB; raise --max-memory to "
                                 "build it",
                                 m->max_bytes >> 20);
    }
    if (ilpm_grow((void **)&m->cons, &m->capc, m->ncons + 1, sizeof *m->cons) ||
        ilpm_grow((void **)&m->lits, &m->capl, m->nlits + (size_t)n,
                  sizeof *m->lits) ||
        (coefs && ilpm_grow((void **)&m->coefs, &m->capco,
                            m->ncoefs + (size_t)n, sizeof *m->coefs)))
        return ilpm_err_nomem(err, "out of memory adding a constraint");
    if (n > m->nones) {
        int64_t *o = realloc(m->ones, (size_t)n * sizeof *o);
        if (!o)
            return ilpm_err_nomem(err, "out of memory");
        for (int i = m->nones; i < n; i++)
            o[i] = 1;
        m->ones = o;
        m->nones = n;
    }
    struct con *c = &m->cons[m->ncons++];
    c->kind = (uint8_t)kind;
    c->cmp = (uint8_t)cmp;
    c->group = m->cur_group;
    c->cond = cond;
    c->n = n;
    c->off = m->nlits;
    c->rhs = rhs;
    c->name = m->cur_name;
    memcpy(m->lits + m->nlits, lits, (size_t)n * sizeof *lits);
    m->nlits += (size_t)n;
    if (coefs) {
        c->coefoff = (int64_t)m->ncoefs;
        memcpy(m->coefs + m->ncoefs, coefs, (size_t)n * sizeof *coefs);
        m->ncoefs += (size_t)n;
    } else {
        c->coefoff = -1;
    }
    return 0;
}

int ilpm_add_clause(ilpm_model *m, const int *lits, int n, ilpm_err *err)
{
    return add(m, ILPM_CLAUSE, ILPM_GE, 0, lits, NULL, n, 1, err);
}

int ilpm_add_alo(ilpm_model *m, const int *lits, int n, ilpm_err *err)
{
    return add(m, ILPM_ALO, ILPM_GE, 0, lits, NULL, n, 1, err);
}

int ilpm_add_amo(ilpm_model *m, const int *lits, int n, ilpm_err *err)
{
    return add(m, ILPM_AMO, ILPM_LE, 0, lits, NULL, n, 1, err);
}

int ilpm_add_exo(ilpm_model *m, const int *lits, int n, ilpm_err *err)
{
    return add(m, ILPM_EXO, ILPM_EQ, 0, lits, NULL, n, 1, err);
}

int ilpm_add_impl(ilpm_model *m, int a, int b, ilpm_err *err)
{
    int lits[2] = {a, b};
    return add(m, ILPM_IMPL, ILPM_LE, 0, lits, NULL, 2, 0, err);
}

static int check_cmp(ilpm_cmp cmp, ilpm_err *err)
{
    if (cmp != ILPM_LE && cmp != ILPM_GE && cmp != ILPM_EQ)
        return ilpm_err_fail(err, ILPM_E_FAIL, "unknown comparison %d",
                             (int)cmp);
    return 0;
}

int ilpm_add_card(ilpm_model *m, const int *lits, int n, ilpm_cmp cmp,
                  int64_t k, ilpm_err *err)
{
    if (check_cmp(cmp, err))
        return -1;
    return add(m, ILPM_CARD, cmp, 0, lits, NULL, n, k, err);
}

int ilpm_add_ccard(ilpm_model *m, int cond, const int *lits, int n,
                   ilpm_cmp cmp, int64_t k, ilpm_err *err)
{
    if (check_cmp(cmp, err))
        return -1;
    if (cond == 0)
        return ilpm_err_input(err, "conditional cardinality without a "
                                   "condition literal");
    return add(m, ILPM_CCARD, cmp, cond, lits, NULL, n, k, err);
}

int ilpm_add_linear(ilpm_model *m, const int64_t *coefs, const int *lits, int n,
                    ilpm_cmp cmp, int64_t rhs, ilpm_err *err)
{
    if (check_cmp(cmp, err))
        return -1;
    if (!coefs)
        return ilpm_err_input(err, "linear constraint without coefficients");
    return add(m, ILPM_LINEAR, cmp, 0, lits, coefs, n, rhs, err);
}

int ilpm_model_objective(ilpm_model *m, ilpm_sense sense, const int64_t *coefs,
                         const int *lits, int n, ilpm_err *err)
{
    if (sense != ILPM_MINIMIZE && sense != ILPM_MAXIMIZE) {
        m->sense = ILPM_NONE;
        m->on = 0;
        return 0;
    }
    if (n <= 0)
        return ilpm_err_input(err, "empty objective");
    if (check_lits(m, lits, n, err) != 0)
        return -1;
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        int64_t a = coefs ? coefs[i] : 1;
        if (a > COEF_MAX || a < -COEF_MAX)
            return ilpm_err_input(err,
                                  "objective coefficient %" PRId64
                                  " overflows (beyond +-2^40)",
                                  a);
        sum += a < 0 ? -a : a;
        if (sum > SUM_MAX)
            return ilpm_err_input(err, "objective coefficients add up beyond "
                                       "2^52");
    }
    int *l = malloc((size_t)n * sizeof *l);
    int64_t *c = malloc((size_t)n * sizeof *c);
    if (!l || !c) {
        free(l);
        free(c);
        return ilpm_err_nomem(err, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        l[i] = lits[i];
        c[i] = coefs ? coefs[i] : 1;
    }
    free(m->olits);
    free(m->ocoefs);
    m->olits = l;
    m->ocoefs = c;
    m->on = n;
    m->sense = sense;
    return 0;
}

size_t ilpm_model_ncons(const ilpm_model *m)
{
    return m->ncons;
}

void ilpm_model_con(const ilpm_model *m, size_t i, ilpm_con *out)
{
    const struct con *c = &m->cons[i];
    out->kind = (ilpm_kind)c->kind;
    out->cmp = (ilpm_cmp)c->cmp;
    out->group = c->group;
    out->cond = c->cond;
    out->n = c->n;
    out->lits = m->lits + c->off;
    out->coefs = c->coefoff >= 0 ? m->coefs + c->coefoff : m->ones;
    out->rhs = c->rhs;
    out->name = c->name >= 0 ? m->cnames[c->name] : NULL;
}

ilpm_sense ilpm_model_objective_get(const ilpm_model *m, int *n,
                                    const int **lits, const int64_t **coefs)
{
    if (n)
        *n = m->on;
    if (lits)
        *lits = m->olits;
    if (coefs)
        *coefs = m->ocoefs;
    return m->sense;
}

const char *ilpm_kind_name(ilpm_kind k)
{
    static const char *const names[] = {"clause",
                                        "at-least-one",
                                        "at-most-one",
                                        "exactly-one",
                                        "implication",
                                        "cardinality",
                                        "conditional cardinality",
                                        "linear"};
    return (unsigned)k < ILPM_KIND_COUNT ? names[k] : "unknown";
}
