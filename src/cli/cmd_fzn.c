/* fzn: ilpm as a FlatZinc solver, the program MiniZinc runs as
 * `EXE [flags] model.fzn`.  The standard flags of MiniZinc's solver
 * interface are read from their own table and turned into ilpm's
 * options (solve model FILE --input-format fzn ...); every other option
 * is ilpm's own and goes through the ordinary parser.  The answer is
 * FlatZinc's output format on standard output: each solution's output
 * variables and "----------", then "==========" when the search was
 * complete, "=====UNSATISFIABLE=====" or "=====UNKNOWN=====", and with
 * -s the statistics as "%%%mzn-stat: name=value" lines. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum fz_flag_id {
    FZF_ALL,
    FZF_NUM,
    FZF_INTERMEDIATE,
    FZF_FREE,
    FZF_STATS,
    FZF_VERBOSE,
    FZF_PARALLEL,
    FZF_SEED,
    FZF_TIME,
    FZF_BACKEND
} fz_flag_id;

/* The standard flags (and the one extra flag ilpm's solver
 * configuration declares), one row each. */
static const struct fz_flag {
    fz_flag_id id;
    const char *flag, *long_flag, *arg, *help;
    const char *option; /* ilpm's option it becomes, if any */
} fz_flags[] = {
    {FZF_ALL, "-a", "--all-solutions", NULL,
     "every solution (with an objective: as -i)", NULL},
    {FZF_NUM, "-n", "--num-solutions", "N", "at most N solutions", NULL},
    {FZF_INTERMEDIATE, "-i", "--intermediate", NULL,
     "with an objective: each improving solution as found", NULL},
    {FZF_FREE, "-f", "--free-search", NULL,
     "accepted: ilpm never follows search annotations", NULL},
    {FZF_STATS, "-s", "--statistics", NULL,
     "%%%mzn-stat lines after the answer", NULL},
    {FZF_VERBOSE, "-v", "--verbose-solving", NULL,
     "progress on standard error (ilpm's --verbose)", "verbose"},
    {FZF_PARALLEL, "-p", "--parallel", "N",
     "N > 1: ilpm's portfolio (--backend auto --threads N) unless "
     "--ilpm-backend names one",
     "threads"},
    {FZF_SEED, "-r", "--random-seed", "SEED",
     "the seed of the portfolio's members that take one (--seed)", "seed"},
    {FZF_TIME, "-t", NULL, "MS", "time limit in milliseconds", "time-limit"},
    {FZF_BACKEND, "--ilpm-backend", NULL, "B",
     "ilp, sat or cp (ilpm's --backend, a name MiniZinc leaves free); "
     "default cp",
     "backend"},
};
#define NFLAGS (sizeof fz_flags / sizeof *fz_flags)

static const struct fz_flag *flag_of(const char *a)
{
    for (size_t i = 0; i < NFLAGS; i++)
        if (strcmp(a, fz_flags[i].flag) == 0 ||
            (fz_flags[i].long_flag && strcmp(a, fz_flags[i].long_flag) == 0))
            return &fz_flags[i];
    return NULL;
}

void ilpm_cli_fzn_help(FILE *f)
{
    fprintf(f, "usage: ilpm fzn [FLAGS] [OPTIONS] FILE.fzn\n\n"
               "Solves a FlatZinc model (what `minizinc -c` makes) and "
               "prints\nFlatZinc's output format: MiniZinc runs ilpm so "
               "(README, \"As a\nMiniZinc solver\").\n\nFlags (MiniZinc's "
               "standard ones):\n");
    for (size_t i = 0; i < NFLAGS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s%s%s", fz_flags[i].flag,
                 fz_flags[i].long_flag ? ", " : "",
                 fz_flags[i].long_flag ? fz_flags[i].long_flag : "",
                 fz_flags[i].arg ? " " : "",
                 fz_flags[i].arg ? fz_flags[i].arg : "");
        fprintf(f, "  %-28s %s\n", left, fz_flags[i].help);
    }
    fprintf(f, "\nEvery option of `ilpm solve model` applies too (--backend, "
               "--int-encoding,\n--memory-limit, ...): see ilpm solve model "
               "--help.  On cp, fzn's default\nis --propagate units (no "
               "probing at the build).\n\nExit status: 0 for every answer "
               "FlatZinc's format "
               "states (UNSATISFIABLE\nand UNKNOWN included), 2 for a "
               "malformed file or option or a\nmodel over --max-vars, 1 for "
               "an internal error, 130 when interrupted.\n");
}

/* Texts the translation makes (time limits), freed at exit. */
#define FZ_MAX 1000000000000000 /* the largest number a flag takes */

static char *owned[4];
static int nowned;

static void free_owned(void)
{
    while (nowned > 0)
        free(owned[--nowned]);
}

/* A flag's whole number, lo to hi (10^15 for a time limit in
 * milliseconds, a number of solutions): "-n: expected ...", as the flag
 * was given. */
static int fz_int(const char *flag, const char *v, int64_t lo, int64_t hi,
                  int64_t *out, ilpm_err *err)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        char shown[ILPM_SHOW_SIZE];
        return ilpm_err_input(err,
                              "%s: expected a whole number from %lld to "
                              "%lld, got '%s'",
                              flag, (long long)lo, (long long)hi,
                              ilpm_show(v, strlen(v), shown, sizeof shown));
    }
    *out = x;
    return 0;
}

/* --ilpm-backend B: checked against --backend's row here, its message
 * ("--backend: expected one of ...") naming the flag given, not the
 * option behind it. */
static int backend_flag(const char *flag, const char *v, ilpm_err *err)
{
    if (ilpm_opt_check(ilpm_cli_opt_find("backend"), v, err) == 0)
        return 0;
    const char *rest = strchr(err->msg, ':');
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s%s", flag, rest ? rest : "");
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

/* Flag f, given as `given` with its value val (NULL for none), into fz
 * or into ilpm's words v[*n...] (at most two): 0, or -1 with err. */
static int translate_flag(const struct fz_flag *f, const char *given,
                          const char *val, cli_fzn *fz, char **v, int *n,
                          ilpm_err *err)
{
    int64_t x;
    switch (f->id) {
    case FZF_ALL:
        fz->all = 1;
        return 0;
    case FZF_NUM:
        if (fz_int(given, val, 1, FZ_MAX, &x, err) != 0)
            return -1;
        fz->num = x;
        return 0;
    case FZF_INTERMEDIATE:
        fz->intermediate = 1;
        return 0;
    case FZF_STATS:
        fz->stats = 1;
        return 0;
    case FZF_VERBOSE:
        v[(*n)++] = "--verbose";
        return 0;
    case FZF_PARALLEL: /* within --threads' range, named as given */
        if (fz_int(given, val, 1, ilpm_cli_opt_find("threads")->hi, &x, err) !=
            0)
            return -1;
        fz->parallel = x;
        v[(*n)++] = "--threads";
        v[(*n)++] = (char *)val;
        return 0;
    case FZF_SEED:
        if (fz_int(given, val, 0, FZ_MAX, &x, err) != 0)
            return -1;
        v[(*n)++] = "--seed";
        v[(*n)++] = (char *)val;
        return 0;
    case FZF_TIME: { /* within --time-limit's range, in milliseconds */
        if (fz_int(given, val, 1, ilpm_cli_opt_find("time-limit")->hi * 1000,
                   &x, err) != 0)
            return -1;
        char *s = malloc(32);
        if (!s || nowned == (int)(sizeof owned / sizeof *owned)) {
            free(s);
            return ilpm_err_nomem(err, "out of memory");
        }
        snprintf(s, 32, "%.3f", (double)x / 1000.0);
        owned[nowned++] = s;
        v[(*n)++] = "--time-limit";
        v[(*n)++] = s;
        return 0;
    }
    case FZF_BACKEND:
        if (backend_flag(given, val, err) != 0)
            return -1;
        v[(*n)++] = "--backend";
        v[(*n)++] = (char *)val;
        return 0;
    default: /* -f: what ilpm does anyway */
        return 0;
    }
}

/* What fzn adds after the translated flags: cp unless told (the engine
 * that fits FlatZinc's models best by measurement, docs/fzn.md), or with
 * -p N > 1 the portfolio of N members; on cp, --propagate units unless
 * told (no probing at the build: the 55x55 nonogram's start 0.4 -> 0.15
 * s, docs/fzn.md); the input format, and --count for -a or -n. */
static void add_defaults(const cli_fzn *fz, char **v, int *n)
{
    const char *be = NULL;
    int prop = 0;
    for (int i = 3; i < *n; i++) {
        if (strcmp(v[i], "--backend") == 0 && i + 1 < *n)
            be = v[i + 1];
        else if (strncmp(v[i], "--backend=", 10) == 0)
            be = v[i] + 10;
        prop |= strncmp(v[i], "--propagate", 11) == 0 ||
                strcmp(v[i], "--no-propagate") == 0;
    }
    if (!be) {
        be = fz->parallel > 1 ? "auto" : "cp";
        v[(*n)++] = "--backend";
        v[(*n)++] = (char *)be;
    }
    if (!prop && strcmp(be, "cp") == 0) {
        v[(*n)++] = "--propagate";
        v[(*n)++] = "units";
    }
    v[(*n)++] = "--input-format";
    v[(*n)++] = "fzn";
    if (fz->all || fz->num > 0)
        v[(*n)++] = "--count";
    v[*n] = NULL;
}

/* A flag given twice, or beside the option it becomes (-t 1000
 * --time-limit 2), is named as the user typed it, not as the option
 * "given twice" that the parser would name. */
static int clash(int argc, char **argv, int at, const struct fz_flag *f,
                 ilpm_err *err)
{
    size_t len = f->option ? strlen(f->option) : 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (i != at && flag_of(a) == f)
            return ilpm_err_input(err, "%s given twice", argv[at]);
        if (len && strncmp(a, "--", 2) == 0 &&
            strncmp(a + 2, f->option, len) == 0 &&
            (a[2 + len] == '\0' || a[2 + len] == '='))
            return ilpm_err_input(err, "%s and --%s both given (%s is --%s)",
                                  argv[at], f->option, argv[at], f->option);
        if (flag_of(a) && flag_of(a)->arg)
            i++; /* a flag's value is not an option */
    }
    return 0;
}

int ilpm_cli_fzn_args(int argc, char **argv, cli_fzn *fz, int *nargc,
                      char ***nargv, ilpm_err *err)
{
    /* solve model, the options, the defaults (add_defaults: at most 7
     * words and NULL), and room for the translated flags (each at most
     * two words). */
    char **v = calloc((size_t)argc * 2 + 10, sizeof *v);
    if (!v)
        return ilpm_err_nomem(err, "out of memory");
    int n = 0;
    v[n++] = argv[0];
    v[n++] = "solve";
    v[n++] = "model";
    memset(fz, 0, sizeof *fz);
    for (int i = 2; i < argc; i++) {
        const struct fz_flag *f = flag_of(argv[i]);
        if (!f) {
            v[n++] = argv[i];
            continue;
        }
        const char *given = argv[i], *val = NULL;
        if (f->arg && i + 1 >= argc) {
            free(v);
            return ilpm_err_input(err, "%s needs a value (%s)", argv[i],
                                  f->arg);
        }
        if (clash(argc, argv, i, f, err) != 0) {
            free(v);
            return -1;
        }
        if (f->arg)
            val = argv[++i];
        if (translate_flag(f, given, val, fz, v, &n, err) != 0) {
            free(v);
            return -1;
        }
    }
    add_defaults(fz, v, &n);
    atexit(free_owned);
    *nargc = n;
    *nargv = v;
    return 0;
}

/* What fzn_one has printed: the last solution of an optimisation's
 * improving ones (-a, -i), which the final one need not repeat. */
struct printed {
    char *last;
    uint64_t n;
};

/* Each solution of a count, or improving one, as it comes. */
static int print_solution(void *ctx, const char *text)
{
    struct printed *p = ctx;
    free(p->last);
    p->last = strdup(text);
    if (!p->last)
        return -1;
    p->n++;
    ilpm_buf b;
    ilpm_buf_init(&b);
    ilpm_buf_puts(&b, text);
    ilpm_buf_puts(&b, "----------\n");
    int rc = ilpm_cli_put_stdout(ilpm_buf_str(&b));
    ilpm_buf_free(&b);
    return rc;
}

static void stats(const ilpm_result *r, uint64_t solutions, ilpm_buf *b)
{
    ilpm_buf_printf(b, "%%%%%%mzn-stat: initTime=%.4f\n", r->build_ms / 1000);
    ilpm_buf_printf(b, "%%%%%%mzn-stat: solveTime=%.4f\n", r->solve_ms / 1000);
    ilpm_buf_printf(b, "%%%%%%mzn-stat: solutions=%llu\n",
                    (unsigned long long)solutions);
    if (r->has_objective)
        ilpm_buf_printf(b, "%%%%%%mzn-stat: objective=%lld\n",
                        (long long)r->objective);
    ilpm_buf_printf(b, "%%%%%%mzn-stat: backend=\"%s\"\n",
                    ilpm_backend_name(r->backend));
    if (r->have_stats) {
        ilpm_buf_printf(b, "%%%%%%mzn-stat: variables=%lld\n",
                        (long long)r->stats.vars);
        if (ilpm_backend_report(r->backend) & ILPM_REPORTS_ROWS)
            ilpm_buf_printf(b, "%%%%%%mzn-stat: rows=%lld\n",
                            (long long)r->stats.rows);
        if (ilpm_backend_report(r->backend) & ILPM_REPORTS_CLAUSES)
            ilpm_buf_printf(b, "%%%%%%mzn-stat: clauses=%lld\n",
                            (long long)r->stats.clauses);
    }
    ilpm_buf_puts(b, "%%%mzn-stat-end\n");
}

static int fzn_one(cli *c, const void *inst, const char *file, long index,
                   void *ctx)
{
    tally *t = ctx;
    const cli_fzn *fz = c->fzn;
    ilpm_result r;
    ilpm_result_init(&r);
    snprintf(r.file, sizeof r.file, "%s", file);
    r.index = index;
    ilpm_run_opts o = c->run;
    o.count_satisfaction_only = 1;
    o.limit = (uint64_t)fz->num; /* -n N bounds -a as well: at most N */
    o.incumbents = fz->all || fz->intermediate;
    struct printed shown = {NULL, 0};
    o.on_solution = print_solution;
    o.solution_ctx = &shown;
    ilpm_run_instance(c->pz, inst, c->params, &o, &r);
    if (r.status == ILPM_ERROR) {
        fprintf(stderr, "ilpm: %s: %s%s\n", r.file, r.error,
                ilpm_cli_err_note(c, r.error_kind));
        ilpm_cli_note_exit(t, ilpm_cli_exit_code(&r, FMT_TEXT));
        ilpm_result_free(&r);
        free(shown.last);
        return 0;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    uint64_t solutions = r.has_count ? r.count : shown.n;
    /* One solution (an optimum, or any), unless the last improving one
     * printed was it. */
    if (!r.has_count && r.text && (!shown.last || strcmp(shown.last, r.text))) {
        ilpm_buf_puts(&b, r.text);
        ilpm_buf_puts(&b, "----------\n");
        solutions++;
    }
    free(shown.last);
    if (r.status == ILPM_UNSAT)
        ilpm_buf_puts(&b, "=====UNSATISFIABLE=====\n");
    else if (r.status == ILPM_OPTIMAL ||
             (r.has_count && r.count_complete && r.count > 0))
        ilpm_buf_puts(&b, "==========\n");
    else if (solutions == 0)
        ilpm_buf_puts(&b, "=====UNKNOWN=====\n");
    if (fz->stats)
        stats(&r, solutions, &b);
    if (ilpm_cli_put_stdout(ilpm_buf_str(&b)) != 0)
        ilpm_cli_note_exit(t, EXIT_INTERNAL);
    ilpm_buf_free(&b);
    ilpm_result_free(&r);
    return 0;
}

int ilpm_cmd_fzn(cli *c)
{
    tally t = {EXIT_OK, 0};
    if (c->nfiles != 1) {
        fprintf(stderr, "ilpm: fzn takes one FlatZinc file, not %d\n",
                c->nfiles);
        return EXIT_USAGE;
    }
    ilpm_cli_for_each_instance(c, &t, fzn_one, &t);
    if (cli_stop_requested)
        ilpm_cli_note_exit(&t, EXIT_SIGNAL);
    return t.worst;
}
