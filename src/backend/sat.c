/* The SAT driver: the model's CNF fed to CaDiCaL in-process, kept alive
 * for incremental calls.  Time limits and stop requests go through the
 * terminate callback; optimisation tightens a bound on the objective
 * step by step, each bound guarded by a fresh activation literal so the
 * solver stays usable afterwards.  Only this file includes ccadical.h. */
#define _GNU_SOURCE /* fopencookie */
#include "backend.h"
#include "cnf_obj.h"
#include "sat_core.h"
#include "sat_guard.h"
#include "util.h"

#include <ccadical.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h> /* ssize_t */

/* The driver: the base every driver has (backend.h), then CaDiCaL and
 * the CNF it was given.  The CNF's own watch stops the encoding: at
 * creation the options' time limit, in a solve a copy of base.watch (the
 * bounds it adds); CaDiCaL's terminate callback looks at base.watch. */
typedef struct sat {
    ilpm_driver base; /* first: the registry's functions take it */
    CCaDiCaL *s;
    ilpm_cnf cnf;
    int *assume; /* scratch: caller's assumptions plus one guard */
    int cap_assume;
    FILE *log;    /* CaDiCaL's stdout while it solves; NULL: quiet */
    int oom;      /* CaDiCaL ran out of memory: only release it now */
    int fed_vars; /* the largest variable CaDiCaL has been given */
    /* Optimising, in maximisation form: the bound the search holds (at,
     * when at_set), and an outside bound better than it that ended the
     * call (ext, when ext_new); minimise: the objective is negated. */
    int64_t at, ext;
    int at_set, ext_new, minimise;
} sat;

static int cadical_oom(sat *d, ilpm_err *err)
{
    d->oom = 1;
    return ilpm_err_nomem(err, "out of memory in CaDiCaL");
}

/* ------------------------------------------------------------------ */
/* CaDiCaL's messages to the log callback.                              */

/* CaDiCaL 1.5.3 prints through the C library's stdout stream (printf,
 * puts, fputs(..., stdout)), and neither its C nor its C++ interface can
 * point it elsewhere.  So around each solve that reports, the process's
 * stdout stream is pointed at d->log, a stream whose writes go to the log
 * callback, and put back after; nothing else of CaDiCaL's prints.  glibc
 * documents stdout as a variable that may be assigned.  Unlike moving
 * file descriptor 1, this leaves the caller's stdout stream as it was,
 * buffered text included, so nothing needs flushing but d->log, and
 * child processes are not concerned.  A lock keeps two threads from
 * swapping at once; what another thread prints meanwhile lands in the log
 * (ilpm.h says so).  One leak: CaDiCaL decides at program start whether
 * to colour (stdout a terminal then) and writes part of its colour codes
 * to the stdout stream of that time, so on a terminal those codes, and no
 * text, still reach it. */
static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;

static ssize_t log_write(void *cookie, const char *buf, size_t size)
{
    const ilpm_options *o = cookie;
    char piece[512];
    for (size_t done = 0; done < size;) {
        size_t n =
            size - done < sizeof piece - 1 ? size - done : sizeof piece - 1;
        memcpy(piece, buf + done, n);
        piece[n] = '\0';
        o->log(o->log_ctx, piece);
        done += n;
    }
    return (ssize_t)size;
}

static int solve_logged(sat *d)
{
    if (!d->log)
        return ilpm_cadical_solve(d->s);
    pthread_mutex_lock(&stdout_lock);
    FILE *saved = stdout;
    stdout = d->log;
    int r = ilpm_cadical_solve(d->s);
    fflush(d->log);
    stdout = saved;
    pthread_mutex_unlock(&stdout_lock);
    return r;
}

/* Releasing CaDiCaL frees every clause it holds, one by one, and cannot
 * be cut short: about 0.03 us a literal on a loaded machine (queens
 * n = 2000: 55.6 million literals, 1.5 s; docs/benchmarks.md).  Feeding
 * and solving end that much before the deadline, so that a run given up
 * at its time limit also ends there. */
#define RELEASE_SECONDS_PER_LIT 0.04e-6

/* The time the release of what CaDiCaL holds (given, fed: literals
 * handed to it) takes. */
static double release_seconds(size_t fed)
{
    return (double)fed * RELEASE_SECONDS_PER_LIT;
}

/* Sets w's timeout when the release of fed literals would end past the
 * deadline; w's status. */
static int watch_with_release(ilpm_watch *w, size_t fed)
{
    if (!w->status && w->deadline > 0 &&
        ilpm_watch_left(w) <= ilpm_free_time() + release_seconds(fed))
        w->status = ILPM_TIMEOUT;
    return ilpm_watch_check(w);
}

/* Optimising: 1 when an outside bound better than the search's has
 * come (ext_new), which the loop of sat_optimize then adds. */
static int outside(sat *d)
{
    int64_t b;
    if (!d->ext_new && ilpm_driver_bound(&d->base, 0, &b)) {
        b = d->minimise ? -b : b;
        if (!d->at_set || b > d->at) {
            d->ext = b;
            d->ext_new = 1;
        }
    }
    return d->ext_new;
}

static int terminate_cb(void *state)
{
    sat *d = state;
    if (outside(d))
        return 1;
    return watch_with_release(&d->base.watch, d->cnf.nfed) != 0;
}

/* CaDiCaL sets a variable up when a clause first names it, every one up
 * to it at once, doubling its tables past a power of two: one step that
 * cannot be cut short, about 0.4 us a new variable, doubling included
 * (docs/benchmarks.md).  Clauses are fed one by one with the watch
 * polled between them, so a set-up spread over many clauses stops at the
 * deadline; a single step large enough to matter (past 25,000 new
 * variables, 10 ms) is not started when it would end past the deadline,
 * and the message says so: that is the one time the driver gives up
 * before the deadline. */
#define SETUP_SECONDS_PER_VAR 0.4e-6
#define SETUP_CHECKED_FROM 25000

static int setup_fits(sat *d, int maxv, ilpm_err *err)
{
    ilpm_watch *w = &d->cnf.watch;
    if (maxv - d->fed_vars < SETUP_CHECKED_FROM || w->deadline <= 0)
        return 1;
    double need = (double)(maxv - d->fed_vars) * SETUP_SECONDS_PER_VAR,
           left = ilpm_watch_left(w) - ilpm_free_time() -
                  release_seconds(d->cnf.nfed);
    if (need <= left)
        return 1;
    char what[200];
    snprintf(what, sizeof what,
             "giving the clauses to CaDiCaL (setting up variables %d to %d "
             "would take about %.1f s, not interruptible, with %.1f s left)",
             d->fed_vars + 1, maxv, need, left > 0 ? left : 0.0);
    w->status = ILPM_TIMEOUT; /* the poll reports it, status and all */
    ilpm_watch_poll(w, what, err);
    return 0;
}

/* Hands the clauses added since the last call to CaDiCaL and drops them
 * from the CNF buffer (the counts stay).  Millions of literals take a
 * while, so the watch is polled between clauses; the clauses not fed
 * then are dropped with the solver (-1, err says why). */
static int feed(sat *d, ilpm_err *err)
{
    const int *l = d->cnf.lits;
    size_t n = d->cnf.nlits, i = 0;
    int rc = 0;
    for (unsigned k = 1; i < n; k++) {
        if (d->oom) {
            rc = cadical_oom(d, err);
            break;
        }
        /* Every 256th clause: stop while the release still fits. */
        if ((k & 255u) == 0)
            watch_with_release(&d->cnf.watch, d->cnf.nfed + i);
        if (ilpm_watch_poll(&d->cnf.watch, "giving the clauses to CaDiCaL",
                            err) != 0) {
            rc = -1;
            break;
        }
        size_t j = i;
        int maxv = 0;
        for (; l[j] != 0; j++)
            if (abs(l[j]) > maxv)
                maxv = abs(l[j]);
        if (maxv > d->fed_vars && !setup_fits(d, maxv, err)) {
            rc = -1;
            break;
        }
        if (ilpm_cadical_add(d->s, l + i, j + 1 - i) != 0)
            d->oom = 1;
        if (maxv > d->fed_vars)
            d->fed_vars = maxv;
        i = j + 1;
    }
    if (d->oom && rc == 0)
        rc = cadical_oom(d, err);
    d->cnf.nfed += i;
    d->cnf.nlits = 0;
    return rc;
}

static void sat_destroy(ilpm_driver *base)
{
    sat *d = (sat *)base;
    if (!d)
        return;
    if (d->s)
        ccadical_release(d->s);
    if (d->log)
        fclose(d->log);
    ilpm_cnf_release(&d->cnf);
    free(d->assume);
    free(d);
}

/* One "name=value" of --sat-option against CaDiCaL's own table: s is a
 * solver still being configured.  CaDiCaL ignores an unknown name and
 * clamps a value to its option's range, both in silence; setting the
 * option to the extremes and reading it back tells both (a real option
 * has a range of more than one value; an unknown one reads 0 always).
 * The option is left at its value on success. */
static int check_one(CCaDiCaL *s, const char *name, const char *text,
                     size_t len, ilpm_err *err)
{
    char v[32];
    int before = ccadical_get_option(s, name);
    ccadical_set_option(s, name, INT32_MIN);
    int lo = ccadical_get_option(s, name);
    ccadical_set_option(s, name, INT32_MAX);
    int hi = ccadical_get_option(s, name);
    ccadical_set_option(s, name, before);
    if (lo == hi)
        return ilpm_err_input(err, "--sat-option: CaDiCaL has no option '%s'",
                              name);
    snprintf(v, sizeof v, "%.*s", (int)(len < 31 ? len : 31), text);
    int64_t x;
    char what[96];
    snprintf(what, sizeof what, "sat-option %s", name);
    if (len >= sizeof v || ilpm_parse_int(what, v, lo, hi, &x, err) != 0) {
        if (len >= sizeof v)
            ilpm_err_input(err,
                           "--sat-option %s: '%.*s' is too large (at most %d)",
                           name, (int)len, text, hi);
        return -1;
    }
    ccadical_set_option(s, name, (int)x);
    return 0;
}

/* Applies "name=value,..." with CaDiCaL's own option names, each
 * checked by check_one. */
static int set_options(CCaDiCaL *s, const char *list, ilpm_err *err)
{
    const char *p = list;
    while (*p) {
        char name[64];
        size_t n = strcspn(p, "=,");
        if (n == 0 || n >= sizeof name || p[n] != '=')
            return ilpm_err_input(err,
                                  "--sat-option: expected NAME=VALUE, got "
                                  "'%.*s'",
                                  (int)strcspn(p, ","), p);
        memcpy(name, p, n);
        name[n] = '\0';
        p += n + 1;
        size_t len = strcspn(p, ",");
        if (check_one(s, name, p, len, err) != 0)
            return -1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* The driver's check of o before any model: the --sat-option list on a
 * solver of its own, thrown away after. */
static int sat_check(const ilpm_options *o, ilpm_err *err)
{
    const char *list = ilpm_sat_opts_of(o)->sat_options;
    if (!list)
        return 0;
    CCaDiCaL *s = ccadical_init();
    if (!s)
        return ilpm_err_fail(err, ILPM_E_FAIL,
                             "CaDiCaL could not be initialised");
    int rc = set_options(s, list, err);
    ccadical_release(s);
    return rc;
}

static ilpm_driver *sat_create(const ilpm_model *m, const ilpm_options *o,
                               ilpm_stats *stats, ilpm_err *err)
{
    sat *d = calloc(1, sizeof *d);
    if (!d) {
        ilpm_err_nomem(err, "out of memory creating the SAT driver");
        return NULL;
    }
    ilpm_driver_init(&d->base, m, o, stats);
    if (ilpm_cnf_from_model(&d->cnf, m, o, err) != 0 ||
        ilpm_stats_prepare(m, stats, err) != 0) {
        sat_destroy(&d->base);
        return NULL;
    }
    ilpm_cnf_stats(&d->cnf, stats);
    d->s = ccadical_init();
    if (!d->s) {
        ilpm_err_fail(err, ILPM_E_FAIL, "CaDiCaL could not be initialised");
        sat_destroy(&d->base);
        return NULL;
    }
    if (ilpm_reports(o)) {
        cookie_io_functions_t io = {.write = log_write};
        d->log = fopencookie(&d->base.o, "w", io);
        if (!d->log) {
            ilpm_err_nomem(err, "out of memory for CaDiCaL's log");
            sat_destroy(&d->base);
            return NULL;
        }
        /* Lines to the callback: CaDiCaL flushes after each anyway. */
        setvbuf(d->log, NULL, _IOLBF, 0);
        /* Its report lines (as the cadical program prints them) and its
         * messages. */
        ccadical_set_option(d->s, "report", 1);
        ccadical_set_option(d->s, "verbose", 1);
    }
    ccadical_set_terminate(d->s, d, terminate_cb);
    /* CaDiCaL's own defaults: target=2 (target phases in every mode) won
     * on some puzzles and lost on others (docs/benchmarks.md, "CaDiCaL
     * target phases"); --sat-option sets any option. */
    const char *list = ilpm_sat_opts_of(o)->sat_options;
    if (list && set_options(d->s, list, err) != 0) {
        sat_destroy(&d->base);
        return NULL;
    }
    /* Nobody listens: whatever --sat-option asked (report=1, verbose=2),
     * CaDiCaL must not print to stdout. */
    if (!d->log)
        ccadical_set_option(d->s, "quiet", 1);
    if (feed(d, err) != 0) {
        sat_destroy(&d->base);
        return NULL;
    }
    /* Later additions (bounds) follow each solve's watch. */
    ilpm_watch_until(&d->cnf.watch, 0, o->stop_flag);
    return &d->base;
}

static ilpm_status sat_call(sat *d, const int *assume, int n, int guard)
{
    int r = d->oom ? -1 : 0;
    for (int i = 0; i < n && r == 0; i++)
        r = ilpm_cadical_assume(d->s, assume[i]);
    if (guard && r == 0)
        r = ilpm_cadical_assume(d->s, guard);
    if (r == 0)
        r = solve_logged(d);
    if (r < 0) {
        d->oom = 1;
        return ILPM_ERROR; /* the caller reports it */
    }
    if (r == 10)
        return ILPM_SOLVED;
    if (r == 20)
        return ILPM_UNSAT;
    /* Ended by terminate_cb: the watch says why. */
    return d->base.watch.status == ILPM_STOPPED ? ILPM_STOPPED : ILPM_TIMEOUT;
}

static void read_vals(sat *d, uint8_t *vals)
{
    for (int v = 1; v <= d->cnf.model_vars; v++)
        vals[v] = ccadical_val(d->s, v) > 0;
}

/* The unit clause -guard: the bound it guarded is gone for good. */
static void retire(sat *d, int guard)
{
    int unit[2] = {-guard, 0};
    if (!d->oom && ilpm_cadical_add(d->s, unit, 2) != 0)
        d->oom = 1;
}

/* Adds "objective >= bound" (in maximisation form) under a fresh guard
 * literal, which it returns (0 on error): the objective's network is
 * built at the first bound, later ones add a few clauses each. */
static int add_bound(sat *d, ilpm_cnf_obj *obj, int64_t bound, ilpm_err *err)
{
    int guard = ilpm_cnf_new_var(&d->cnf);
    if (guard <= 0) {
        ilpm_err_input(err, "out of variables for the objective bound");
        return 0;
    }
    int saved = d->cnf.cur_group;
    d->cnf.cur_group = -1;
    int rc = ilpm_cnf_obj_bound(&d->cnf, obj, bound, guard, err);
    d->cnf.cur_group = saved;
    if (feed(d, rc == 0 ? err : NULL) != 0)
        rc = -1;
    return rc == 0 ? guard : 0;
}

/* ------------------------------------------------------------------ */
/* Core-guided search (sat_core.c) through the calls of ilpm_core_io    */

struct core_ctx {
    sat *d;
    const int *assume; /* the caller's assumptions, n of them */
    int n;
    uint8_t *vals;
};

static ilpm_status core_solve(void *ctx, const int *a, int na)
{
    struct core_ctx *x = ctx;
    int r = x->d->oom ? -1 : 0;
    for (int i = 0; i < na && r == 0; i++)
        r = ilpm_cadical_assume(x->d->s, a[i]);
    if (r < 0) {
        x->d->oom = 1;
        return ILPM_ERROR;
    }
    return sat_call(x->d, x->assume, x->n, 0);
}

static int core_failed(void *ctx, int a)
{
    return ccadical_failed(((struct core_ctx *)ctx)->d->s, a);
}

static int core_value(void *ctx, int lit)
{
    return ccadical_val(((struct core_ctx *)ctx)->d->s, lit) > 0;
}

static int core_feed(void *ctx, ilpm_err *err)
{
    return feed(((struct core_ctx *)ctx)->d, err);
}

static int core_improved(void *ctx, ilpm_err *err)
{
    struct core_ctx *x = ctx;
    read_vals(x->d, x->vals);
    int rc = ilpm_driver_incumbent(&x->d->base, x->vals);
    if (rc != 0)
        ilpm_err_fail(err, ILPM_E_FAIL, "the incumbent hook ended the search");
    return rc;
}

/* The core-guided search over cost, its best solution in vals. */
static ilpm_status core_search(sat *d, const int *assume, int n, uint8_t *vals,
                               ilpm_cnf_obj *cost, ilpm_err *err)
{
    struct core_ctx x = {d, assume, n, vals};
    ilpm_core_io io = {&x,         core_solve, core_failed,
                       core_value, core_feed,  core_improved};
    /* Outside bounds (a portfolio's) are for the bound search: here they
     * would only end CaDiCaL's calls, so they are not polled. */
    ilpm_bound_fn bound = d->base.bound;
    d->base.bound = NULL;
    ilpm_status st = ilpm_sat_core(&d->cnf, cost, &io, err);
    d->base.bound = bound;
    return st;
}

/* Solution-improving search: each solution's value plus one becomes the
 * bound of the next call, until none is left (optimal) or the limit. */
static ilpm_status sat_optimize(sat *d, const int *assume, int n, uint8_t *vals,
                                int64_t *obj, ilpm_err *err)
{
    int on;
    const int *olits;
    const int64_t *ocoefs;
    ilpm_sense sense =
        ilpm_model_objective_get(d->base.m, &on, &olits, &ocoefs);
    int64_t *c = malloc((size_t)on * sizeof *c + sizeof *c);
    ilpm_cnf_obj cost;
    if (!c) {
        ilpm_err_nomem(err, "out of memory");
        return ILPM_ERROR;
    }
    /* Work in maximisation form: minimising f is maximising -f. */
    for (int i = 0; i < on; i++)
        c[i] = sense == ILPM_MINIMIZE ? -ocoefs[i] : ocoefs[i];
    if (ilpm_cnf_obj_init(&cost, on, olits, c, err) != 0) {
        free(c);
        return ILPM_ERROR;
    }
    if (ilpm_sat_opts_of(&d->base.o)->search == ILPM_SAT_SEARCH_CORE) {
        ilpm_status st = core_search(d, assume, n, vals, &cost, err);
        if (st == ILPM_OPTIMAL || st == ILPM_FEASIBLE)
            *obj = ilpm_model_objective_value(d->base.m, vals);
        ilpm_cnf_obj_release(&cost);
        free(c);
        return st;
    }
    d->minimise = sense == ILPM_MINIMIZE;
    d->at_set = d->ext_new = 0;
    ilpm_status st = outside(d) ? ILPM_TIMEOUT : sat_call(d, assume, n, 0);
    int found = 0, guard = 0;
    int64_t best = 0;
    /* Each solution's value, or an outside bound that ended the call. */
    while (st == ILPM_SOLVED || (d->ext_new && st != ILPM_UNSAT &&
                                 st != ILPM_ERROR && !d->base.watch.status)) {
        if (st == ILPM_SOLVED) {
            found = 1;
            read_vals(d, vals);
            if (ilpm_driver_incumbent(&d->base, vals) != 0) {
                st = ILPM_ERROR;
                break;
            }
            best = 0;
            for (int i = 0; i < on; i++) {
                int l = olits[i];
                int t = l > 0 ? vals[l] : !vals[-l];
                best += c[i] * t;
            }
        }
        d->at = st == ILPM_SOLVED ? best : d->ext;
        d->at_set = 1;
        d->ext_new = 0;
        if (guard)
            retire(d, guard);
        guard = add_bound(d, &cost, d->at + 1, err);
        if (!guard) {
            /* A bound cut short by the deadline leaves the best so far. */
            st = err ? (ilpm_status)ilpm_rc_outcome(err->rc) : ILPM_ERROR;
            break;
        }
        st = outside(d) ? ILPM_TIMEOUT : sat_call(d, assume, n, guard);
    }
    /* Retire the last bound so later calls see the model unchanged. */
    if (guard)
        retire(d, guard);
    ilpm_cnf_obj_release(&cost);
    free(c);
    if (!found)
        return st;
    *obj = sense == ILPM_MINIMIZE ? -best : best;
    if (st == ILPM_UNSAT) /* nothing better than the bound held */
        return found && d->at == best ? ILPM_OPTIMAL : ILPM_UNSAT;
    if (st == ILPM_ERROR)
        return ILPM_ERROR;
    return ILPM_FEASIBLE;
}

static ilpm_status sat_solve(ilpm_driver *base, const int *assume, int n,
                             int optimize, uint8_t *vals, int64_t *obj,
                             ilpm_err *err)
{
    sat *d = (sat *)base;
    /* The additions of this solve (bounds) follow its watch too. */
    d->cnf.watch = d->base.watch;
    if (d->oom) {
        cadical_oom(d, err);
        return ILPM_ERROR;
    }
    ilpm_status st = optimize ? sat_optimize(d, assume, n, vals, obj, err)
                              : sat_call(d, assume, n, 0);
    if (d->oom) {
        cadical_oom(d, err);
        return ILPM_ERROR;
    }
    if (st == ILPM_SOLVED && !optimize)
        read_vals(d, vals);
    return st;
}

static int sat_add(ilpm_driver *base, const ilpm_con *con, ilpm_err *err)
{
    sat *d = (sat *)base;
    if (d->oom)
        return cadical_oom(d, err);
    int saved = d->cnf.cur_group;
    d->cnf.cur_group = con->group < d->cnf.ngroups ? con->group : -1;
    /* A no-good is short and must not be lost half-way: no watch. */
    ilpm_watch w = d->cnf.watch;
    ilpm_watch_until(&d->cnf.watch, 0, NULL);
    int rc = ilpm_cnf_encode(&d->cnf, con, err);
    d->cnf.cur_group = saved;
    if (feed(d, err) != 0)
        rc = -1;
    d->cnf.watch = w;
    return rc;
}

static const char *const amo_names[] = {ILPM_AMO_ENCS(ILPM_ENUM_NAME_) NULL};
static const char *const card_names[] = {ILPM_CARD_ENCS(ILPM_ENUM_NAME_) NULL};
static const char *const search_names[] = {ILPM_SAT_SEARCHES(ILPM_ENUM_NAME_)
                                               NULL};

#define FIELD(f) offsetof(ilpm_sat_opts, f)

/* The SAT back end's own options (sat_int.h), as the command line shows
 * them; the encodings (ILPM_OPT_LOWER) size and write the CNF of stats
 * and export too. */
static const ilpm_opt sat_opts[] = {
    {.name = "amo",
     .type = ILPM_OPT_CHOICE,
     .def = "auto",
     .choices = amo_names,
     .flags = ILPM_OPT_LOWER,
     .offset = FIELD(amo),
     .help = "CNF encoding of at-most-one (auto: pairwise up to 10 "
             "literals, else product)"},
    {.name = "card",
     .type = ILPM_OPT_CHOICE,
     .def = "seq",
     .choices = card_names,
     .flags = ILPM_OPT_LOWER,
     .offset = FIELD(card),
     .help = "CNF encoding of cardinality"},
    {.name = "sat-option",
     .arg = "NAME=V,...",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_LIST,
     .offset = FIELD(sat_options),
     .help = "CaDiCaL options by CaDiCaL's names (e.g. phase=0)"},
    {.name = "sat-search",
     .type = ILPM_OPT_CHOICE,
     .def = "bound",
     .choices = search_names,
     .offset = FIELD(search),
     .help = "optimisation on sat: bound (solution-improving) or core "
             "(core-guided OLL: lower bounds from cores)"},
    {.name = "max-pb-nodes",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = INT64_MAX,
     .def = "2000000",
     .flags = ILPM_OPT_LOWER,
     .offset = FIELD(max_pb_nodes),
     .help = "largest BDD per linear constraint in the CNF"},
    {.name = NULL},
};

/* The model's search hint (ilpm_model_hint) is left alone: CaDiCaL's
 * own decisions (VSIDS, phases) do better than the order the variables
 * were made in. */
const ilpm_driver_ops ilpm_sat_ops = {
    .opts = sat_opts,
    .create = sat_create,
    .destroy = sat_destroy,
    .solve = sat_solve,
    .add = sat_add,
    .check = sat_check,
    .reports = ILPM_REPORTS_CLAUSES,
    .fix_assumed = 0, /* CaDiCaL propagates assumptions itself */
};
