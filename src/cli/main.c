/* ilpm: the command line.  The only part of ilpm that prints to the
 * terminal or chooses an exit status; everything else reports through
 * return values and ilpm_err. */
#include "batch.h"
#include "compare.h"
#include "plot.h"
#include "progress.h"
#include "run.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1,
    EXIT_USAGE = 2,
    EXIT_TIMEOUT = 3,
    EXIT_UNSAT = 10,
    EXIT_SIGNAL = 130
};

static volatile int stop_requested;
/* Seconds a verb that solves in this process gets to stop after the
 * first signal; 0 for batch, whose parent never sits inside a solver. */
static unsigned stop_grace;

#define HARD_STOP_MSG                                                          \
    "ilpm: the solver did not stop in time (GLPK polls for a stop only "       \
    "between its search steps); exiting\n"

/* The grace period ran out: end the process at once.  Every result
 * printed so far was flushed when it was printed. */
static void hard_stop(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, HARD_STOP_MSG, sizeof HARD_STOP_MSG - 1);
    (void)w;
    _exit(130);
}

static void on_signal(int sig)
{
    (void)sig;
    if (!stop_requested && stop_grace)
        alarm(stop_grace); /* repeated signals do not postpone it */
    stop_requested = 1;
}

static void install_signals(unsigned grace)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = hard_stop;
    sigaction(SIGALRM, &sa, NULL);
    stop_grace = grace;
}

typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV } out_format;

/* Everything the verbs accept; puzzle options go to params. */
typedef struct cli {
    const char *verb;
    const ilpm_puzzle *pz;
    ilpm_run_opts run;
    out_format format;
    const char *export_path[4]; /* by ilpm_format */
    const char *out_path;       /* gen --out */
    const char *plot_path;      /* compare --plot */
    int summary;                /* compare --summary */
    int format_set;
    /* batch */
    int both;
    long jobs;
    double memory_limit;
    int resume;
    long shard_i, shard_n;
    int no_incremental;
    const char **files;
    int nfiles;
    ilpm_params *params;
    int help;
} cli;

/* The options every solving verb shares, for --help. */
static const ilpm_opt_spec common_opts[] = {
    {"backend", "ilp|sat",
     "solve as an ILP with GLPK or as SAT with CaDiCaL (default sat)"},
    {"count", NULL,
     "count all solutions (projected onto the puzzle's own variables)"},
    {"limit", "N",
     "with --count, stop at N solutions (--limit 2 tells whether a puzzle is "
     "proper)"},
    {"time-limit", "S",
     "seconds per instance (default none); 'timeout' with what was found"},
    {"format", "text|json|csv",
     "output: text for people, JSON lines or CSV for tools"},
    {"amo", "auto|pairwise|seq|product",
     "CNF encoding of at-most-one (default auto: pairwise up to 10 literals, "
     "else product)"},
    {"card", "seq|totalizer", "CNF encoding of cardinality (default seq)"},
    {"cuts", "none|default|all",
     "GLPK cuts: none; default = cover and MIR; all = also Gomory"},
    {"branch", "auto|first|last|most|drtom|pcost",
     "GLPK branching rule (default auto: the puzzle's hint or most "
     "fractional when searching for a solution, Driebeck-Tomlin when "
     "optimising)"},
    {"backtrack", "auto|dfs|bfs|bestp|bestb",
     "GLPK backtracking rule (default auto: depth first when searching for "
     "a solution, best local bound when optimising)"},
    {"no-presolve", NULL, "turn GLPK's MIP presolver off"},
    {"propagate", "auto|none|units|probe",
     "what is settled before lowering: the givens' unit propagation, and "
     "probing of the open variables (default auto: probe on both back "
     "ends)"},
    {"no-propagate", NULL, "the same as --propagate none"},
    {"max-pb-nodes", "N",
     "largest BDD per linear constraint in the CNF (default 2000000)"},
    {"max-vars", "N",
     "refuse models of more than N variables (default 50000000)"},
    {"max-memory", "MB",
     "refuse models and CNFs needing more (default: 3/4 of memory)"},
    {"sat-option", "NAME=V,...",
     "CaDiCaL options by CaDiCaL's names (e.g. phase=0)"},
    {"verbose", NULL, "let GLPK and CaDiCaL print their progress on stderr"},
    {NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ilpm VERB PUZZLE [FILE...] [OPTIONS]\n"
        "\n"
        "Models puzzles as 0/1 integer linear programs and solves them\n"
        "with GLPK (branch-and-cut) or CaDiCaL (SAT).\n"
        "\n"
        "verbs:\n"
        "  solve PUZZLE [FILE...]   solve (or --count) every instance\n"
        "  play PUZZLE FILE...      best play from a hand (machiavelli)\n"
        "  stats PUZZLE [FILE]      sizes of both formulations per group\n"
        "  export PUZZLE [FILE] (--lp F | --mps F | --cnf F | --opb F)\n"
        "                           write the model for other solvers\n"
        "  gen PUZZLE [OPTIONS]     write random instances\n"
        "  compare PUZZLE [FILE...]  every formulation on both back ends,\n"
        "                           side by side, with a check that they "
        "agree\n"
        "  batch PUZZLE FILE... --out RESULTS\n"
        "                           every instance on parallel workers, "
        "results\n"
        "                           as CSV or JSON lines (see 'ilpm batch "
        "--help')\n"
        "  merge --out RESULTS FILE...  combine the results of batch shards\n"
        "  list                     the puzzles and their formulations\n"
        "\n"
        "puzzles:");
    for (int i = 0; ilpm_puzzles[i]; i++)
        fprintf(f, " %s", ilpm_puzzles[i]->name);
    fprintf(f,
            "\n\n"
            "Run 'ilpm solve PUZZLE --help' for a puzzle's options and input "
            "format.\n"
            "Exit status: 0 solved or counted, 10 unsatisfiable, 2 usage or "
            "input\nerror, 3 time limit, 1 internal error, 130 interrupted.\n");
}

static void print_opts(FILE *f, const ilpm_opt_spec *o)
{
    for (; o && o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        fprintf(f, "  %-28s %s\n", left, o->help);
    }
}

static void puzzle_help(FILE *f, const char *verb, const ilpm_puzzle *pz)
{
    if (strcmp(verb, "gen") == 0) {
        fprintf(f, "usage: ilpm gen %s [OPTIONS] [--out FILE]\n\n", pz->name);
        print_opts(f, pz->gen_opts);
        return;
    }
    fprintf(f, "usage: ilpm %s %s [FILE...] [OPTIONS]\n\n%s.\n\n", verb,
            pz->name, pz->summary);
    fprintf(f, "input:\n%s\n\npuzzle options:\n", pz->input_help);
    print_opts(f, pz->opts);
    fprintf(f, "\ncommon options:\n");
    print_opts(f, common_opts);
    if (strcmp(verb, "compare") == 0)
        fprintf(f, "\ncompare options:\n"
                   "  --formulation A,B            the formulations to run "
                   "(default: all)\n"
                   "  --plot FILE.svg|FILE.png     cactus plot and ILP-vs-SAT "
                   "scatter (gnuplot)\n"
                   "  --summary                    only the totals per "
                   "formulation and back end\n"
                   "                               (text output ends with "
                   "them anyway after 2+\n"
                   "                               instances)\n");
    if (strcmp(verb, "export") == 0)
        fprintf(f, "\nexport options:\n"
                   "  --lp FILE                    CPLEX LP (GLPK's writer)\n"
                   "  --mps FILE                   free MPS (GLPK's writer)\n"
                   "  --cnf FILE                   DIMACS CNF with a 'c NAME "
                   "VAR' dictionary\n"
                   "  --opb FILE                   pseudo-Boolean OPB\n");
}

static int is_puzzle_opt(const ilpm_opt_spec *o, const char *name,
                         const ilpm_opt_spec **spec)
{
    for (; o && o->name; o++)
        if (strcmp(o->name, name) == 0) {
            *spec = o;
            return 1;
        }
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno == ERANGE || !(d >= 0) || d > 1e9)
        return -1;
    *out = d;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-' || *s == '\0')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

#define USAGE_ERR(...)                                                         \
    do {                                                                       \
        fprintf(stderr, "ilpm: " __VA_ARGS__);                                 \
        fputc('\n', stderr);                                                   \
        return -1;                                                             \
    } while (0)

/* The solver options whose value names one of ilpm.h's enums. */
static const struct {
    const char *name;
    int (*parse)(const char *);
    const char *choices;
} enum_opts[] = {
    {"amo", ilpm_amo_parse, "auto, pairwise, seq or product"},
    {"card", ilpm_card_parse, "seq or totalizer"},
    {"cuts", ilpm_cuts_parse, "none, default or all"},
    {"branch", ilpm_branch_parse, "auto, first, last, most, drtom or pcost"},
    {"backtrack", ilpm_backtrack_parse, "auto, dfs, bfs, bestp or bestb"},
    {"propagate", ilpm_propagate_parse, "auto, none, units or probe"},
};

static int enum_opt_find(const char *name)
{
    for (size_t i = 0; i < sizeof enum_opts / sizeof *enum_opts; i++)
        if (strcmp(name, enum_opts[i].name) == 0)
            return (int)i;
    return -1;
}

static void enum_opt_set(ilpm_options *so, int which, int e)
{
    switch (which) {
    case 0:
        so->amo = (ilpm_amo_enc)e;
        break;
    case 1:
        so->card = (ilpm_card_enc)e;
        break;
    case 2:
        so->cuts = (ilpm_cuts)e;
        break;
    case 3:
        so->branch = (ilpm_branch)e;
        break;
    case 5:
        so->propagate = (ilpm_propagate)e;
        break;
    default:
        so->backtrack = (ilpm_backtrack)e;
        break;
    }
}

/* Parses argv[2..] (after VERB) into c.  Returns 0, or -1 after printing a
 * usage error. */
static int parse_args(cli *c, int argc, char **argv)
{
    int i = 2;
    if (i < argc && argv[i][0] != '-' && strcmp(c->verb, "merge") != 0) {
        c->pz = ilpm_puzzle_find(argv[i]);
        if (!c->pz)
            USAGE_ERR("unknown puzzle '%s' (try 'ilpm list')", argv[i]);
        i++;
    }
    c->files = calloc((size_t)argc, sizeof *c->files);
    if (!c->files)
        USAGE_ERR("out of memory");
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-") == 0 || a[0] != '-') {
            c->files[c->nfiles++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            while (++i < argc)
                c->files[c->nfiles++] = argv[i];
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            c->help = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0)
            USAGE_ERR("unknown option '%s'", a);
        const char *name = a + 2;
        /* --name=value is accepted too. */
        char namebuf[64];
        const char *val = NULL;
        const char *eq = strchr(name, '=');
        if (eq) {
            size_t len = (size_t)(eq - name);
            if (len >= sizeof namebuf)
                USAGE_ERR("option '%s' is too long", a);
            memcpy(namebuf, name, len);
            namebuf[len] = '\0';
            name = namebuf;
            val = eq + 1;
        }
#define NEED_VALUE()                                                           \
    do {                                                                       \
        if (!val) {                                                            \
            if (i + 1 >= argc)                                                 \
                USAGE_ERR("option --%s needs a value", name);                  \
            val = argv[++i];                                                   \
        }                                                                      \
    } while (0)
        ilpm_options *so = &c->run.solver;
        const ilpm_opt_spec *gspec = NULL;
        int eo;
        /* For gen, the generator's options come first (its --count is a
         * number of instances, not the solver's --count). */
        if (c->pz && strcmp(c->verb, "gen") == 0 &&
            is_puzzle_opt(c->pz->gen_opts, name, &gspec)) {
            if (gspec->arg)
                NEED_VALUE();
            else if (val)
                USAGE_ERR("option --%s takes no value", name);
            if (ilpm_params_set(c->params, name, gspec->arg ? val : NULL) != 0)
                USAGE_ERR("out of memory");
        } else if (strcmp(name, "backend") == 0) {
            NEED_VALUE();
            int b = ilpm_backend_parse(val);
            if (strcmp(val, "both") == 0 && strcmp(c->verb, "batch") == 0) {
                c->both = 1;
                continue;
            }
            if (b < 0)
                USAGE_ERR("--backend: expected ilp or sat%s, got '%s'",
                          strcmp(c->verb, "batch") == 0 ? " or both" : "", val);
            so->backend = (ilpm_backend)b;
        } else if (strcmp(name, "count") == 0) {
            c->run.count = 1;
        } else if (strcmp(name, "limit") == 0) {
            NEED_VALUE();
            if (parse_u64(val, &c->run.limit) != 0 || c->run.limit == 0)
                USAGE_ERR("--limit: expected a positive integer, got '%s'",
                          val);
        } else if (strcmp(name, "time-limit") == 0) {
            NEED_VALUE();
            if (parse_double(val, &so->time_limit) != 0 || so->time_limit <= 0)
                USAGE_ERR("--time-limit: expected seconds > 0, got '%s'", val);
        } else if (strcmp(name, "format") == 0) {
            NEED_VALUE();
            c->format_set = 1;
            if (strcmp(val, "text") == 0)
                c->format = FMT_TEXT;
            else if (strcmp(val, "json") == 0)
                c->format = FMT_JSON;
            else if (strcmp(val, "csv") == 0)
                c->format = FMT_CSV;
            else
                USAGE_ERR("--format: expected text, json or csv, got '%s'",
                          val);
        } else if ((eo = enum_opt_find(name)) >= 0) {
            NEED_VALUE();
            int e = enum_opts[eo].parse(val);
            if (e < 0)
                USAGE_ERR("--%s: expected %s, got '%s'", name,
                          enum_opts[eo].choices, val);
            enum_opt_set(so, eo, e);
        } else if (strcmp(name, "no-presolve") == 0) {
            so->presolve = 0;
        } else if (strcmp(name, "no-propagate") == 0) {
            so->propagate = ILPM_PROP_NONE;
        } else if (strcmp(name, "max-pb-nodes") == 0) {
            NEED_VALUE();
            uint64_t v;
            if (parse_u64(val, &v) != 0 || v == 0 || v > INT64_MAX)
                USAGE_ERR("--max-pb-nodes: expected a positive integer, "
                          "got '%s'",
                          val);
            so->max_pb_nodes = (int64_t)v;
        } else if (strcmp(name, "max-vars") == 0) {
            NEED_VALUE();
            uint64_t v;
            if (parse_u64(val, &v) != 0 || v == 0 || v > INT32_MAX / 2)
                USAGE_ERR("--max-vars: expected an integer from 1 to %d, got "
                          "'%s'",
                          INT32_MAX / 2, val);
            so->max_vars = (int64_t)v;
        } else if (strcmp(name, "max-memory") == 0) {
            NEED_VALUE();
            uint64_t v;
            if (parse_u64(val, &v) != 0 || v < 16 || v > ((uint64_t)1 << 30))
                USAGE_ERR("--max-memory: expected megabytes from 16 to "
                          "1073741824, got '%s'",
                          val);
            so->max_memory_mb = (int64_t)v;
        } else if (strcmp(name, "sat-option") == 0) {
            NEED_VALUE();
            so->sat_options = val;
        } else if (strcmp(name, "verbose") == 0) {
            so->verbose = 1;
        } else if (strcmp(name, "lp") == 0 || strcmp(name, "mps") == 0 ||
                   strcmp(name, "cnf") == 0 || strcmp(name, "opb") == 0) {
            NEED_VALUE();
            int f = strcmp(name, "lp") == 0    ? ILPM_FMT_LP
                    : strcmp(name, "mps") == 0 ? ILPM_FMT_MPS
                    : strcmp(name, "cnf") == 0 ? ILPM_FMT_CNF
                                               : ILPM_FMT_OPB;
            c->export_path[f] = val;
        } else if (strcmp(name, "jobs") == 0 && strcmp(c->verb, "batch") == 0) {
            NEED_VALUE();
            char *end;
            c->jobs = strtol(val, &end, 10);
            if (*val == '\0' || *end || c->jobs < 1 || c->jobs > 1024)
                USAGE_ERR("--jobs: expected an integer from 1 to 1024, got "
                          "'%s'",
                          val);
        } else if (strcmp(name, "memory-limit") == 0 &&
                   strcmp(c->verb, "batch") == 0) {
            NEED_VALUE();
            if (parse_double(val, &c->memory_limit) != 0 ||
                c->memory_limit < 16)
                USAGE_ERR("--memory-limit: expected megabytes >= 16, got '%s'",
                          val);
        } else if (strcmp(name, "resume") == 0 &&
                   strcmp(c->verb, "batch") == 0) {
            c->resume = 1;
        } else if (strcmp(name, "no-incremental") == 0 &&
                   strcmp(c->verb, "batch") == 0) {
            c->no_incremental = 1;
        } else if (strcmp(name, "shard") == 0 &&
                   strcmp(c->verb, "batch") == 0) {
            NEED_VALUE();
            char *end;
            c->shard_i = strtol(val, &end, 10);
            if (end == val || *end != '/' ||
                (c->shard_n = strtol(end + 1, &end, 10)) < 1 || *end ||
                c->shard_i < 0 || c->shard_i >= c->shard_n)
                USAGE_ERR("--shard: expected I/N with 0 <= I < N, got '%s'",
                          val);
        } else if (strcmp(name, "out") == 0 &&
                   (strcmp(c->verb, "batch") == 0 ||
                    strcmp(c->verb, "merge") == 0)) {
            NEED_VALUE();
            c->out_path = val;
        } else if (strcmp(name, "out") == 0 && strcmp(c->verb, "gen") == 0) {
            NEED_VALUE();
            c->out_path = val;
        } else if (strcmp(name, "plot") == 0 &&
                   strcmp(c->verb, "compare") == 0) {
            NEED_VALUE();
            c->plot_path = val;
        } else if (strcmp(name, "summary") == 0 &&
                   strcmp(c->verb, "compare") == 0) {
            if (val)
                USAGE_ERR("option --summary takes no value");
            c->summary = 1;
        } else {
            const ilpm_opt_spec *spec = NULL;
            const ilpm_opt_spec *table = !c->pz ? NULL
                                         : strcmp(c->verb, "gen") == 0
                                             ? c->pz->gen_opts
                                             : c->pz->opts;
            if (!c->pz || !is_puzzle_opt(table, name, &spec))
                USAGE_ERR("unknown option '--%s'%s%s%s", name,
                          c->pz ? " for " : "", c->pz ? c->pz->name : "",
                          c->pz ? " (see 'ilpm solve PUZZLE --help')" : "");
            if (spec->arg)
                NEED_VALUE();
            else if (val)
                USAGE_ERR("option --%s takes no value", name);
            if (ilpm_params_set(c->params, name, spec->arg ? val : NULL) != 0)
                USAGE_ERR("out of memory");
        }
#undef NEED_VALUE
    }
    if (ilpm_params_set(c->params, "verb", c->verb) != 0)
        USAGE_ERR("out of memory");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Instances: from parameters or from every file, in order.             */

typedef int (*instance_fn)(cli *c, const void *inst, const char *file,
                           long index, void *ctx);

typedef struct tally {
    int worst; /* exit status so far */
    long instances;
} tally;

static void note_exit(tally *t, int code)
{
    /* Severity: internal error > usage/input error > signal > time limit
     * > unsatisfiable > success. */
    static const int order[] = {EXIT_OK,     EXIT_UNSAT, EXIT_TIMEOUT,
                                EXIT_SIGNAL, EXIT_USAGE, EXIT_INTERNAL};
    int a = 0, b = 0;
    for (int i = 0; i < 6; i++) {
        if (order[i] == t->worst)
            a = i;
        if (order[i] == code)
            b = i;
    }
    if (b > a)
        t->worst = code;
}

static int for_each_instance(cli *c, tally *t, instance_fn fn, void *ctx)
{
    ilpm_err err = {0};
    if (c->nfiles == 0) {
        void *inst = NULL;
        int r =
            c->pz->from_params ? c->pz->from_params(c->params, &inst, &err) : 0;
        if (r < 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            note_exit(t, EXIT_USAGE);
            return 0;
        }
        if (r == 0) {
            fprintf(stderr,
                    "ilpm: %s needs an instance: give a FILE or the "
                    "parameters (see 'ilpm %s %s --help')\n",
                    c->pz->name, c->verb, c->pz->name);
            note_exit(t, EXIT_USAGE);
            return 0;
        }
        t->instances++;
        int rc = fn(c, inst, "", 0, ctx);
        c->pz->free_instance(inst);
        return rc;
    }
    for (int i = 0; i < c->nfiles && !stop_requested; i++) {
        ilpm_reader *rd = ilpm_reader_open(c->files[i], &err);
        if (!rd) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            note_exit(t, EXIT_USAGE);
            continue;
        }
        long index = 0, got = 0;
        /* A puzzle taking --index I returns only its I-th instance: that
         * is the position the results report. */
        long picked = 0;
        if (ilpm_params_has(c->params, "index") &&
            ilpm_params_int(c->params, "index", 0, 1, LONG_MAX, &picked,
                            NULL) == 0)
            index = picked - 1;
        for (;;) {
            void *inst = NULL;
            int r = c->pz->parse(rd, c->params, &inst, &err);
            if (r == 0)
                break;
            index++;
            if (r < 0) {
                fprintf(stderr, "ilpm: %s\n", err.msg);
                note_exit(t, EXIT_USAGE);
                continue;
            }
            got++;
            t->instances++;
            int rc = fn(c, inst, c->files[i], index, ctx);
            c->pz->free_instance(inst);
            if (rc != 0 || stop_requested)
                break;
        }
        if (index == 0)
            fprintf(stderr, "ilpm: %s: no instance in the file\n", c->files[i]);
        (void)got;
        ilpm_reader_free(rd);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* solve / play                                                          */

/* The progress line on a terminal (not with --verbose, whose solver
 * output shares stderr), fed by the run layer's hook; NULL otherwise. */
static progress *progress_for(cli *c)
{
    progress *pg = c->run.solver.verbose ? NULL : progress_start();
    c->run.progress = pg ? progress_run : NULL;
    c->run.progress_ctx = pg;
    return pg;
}

static void progress_instance_of(progress *pg, const ilpm_puzzle *pz,
                                 const void *inst)
{
    if (!pg)
        return;
    char label[200];
    int n = snprintf(label, sizeof label, "%s ", pz->name);
    pz->describe(inst, label + n, sizeof label - (size_t)n);
    progress_instance(pg, label);
}

static int solve_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    tally *t = ctx;
    progress *pg = c->run.progress_ctx;
    progress_instance_of(pg, c->pz, inst);
    ilpm_result r;
    ilpm_result_init(&r);
    snprintf(r.file, sizeof r.file, "%s", file);
    r.index = index;
    ilpm_run_instance(c->pz, inst, c->params, &c->run, &r);
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (c->format == FMT_JSON)
        ilpm_result_json(&r, &b);
    else if (c->format == FMT_CSV)
        ilpm_result_csv(&r, &b);
    else
        ilpm_result_text(&r, &b);
    progress_done(pg);
    fputs(ilpm_buf_str(&b), stdout);
    fflush(stdout);
    ilpm_buf_free(&b);
    int code = ilpm_result_exit_code(&r);
    /* An instance whose model cannot be built is an input error. */
    if (r.status == ILPM_ERROR && !r.have_stats)
        code = EXIT_USAGE;
    if (r.status == ILPM_ERROR && c->format != FMT_TEXT)
        fprintf(stderr, "ilpm: %s %s: %s\n", r.puzzle, r.instance, r.error);
    note_exit(t, code);
    ilpm_result_free(&r);
    return 0;
}

static int cmd_solve(cli *c)
{
    tally t = {EXIT_OK, 0};
    if (c->format == FMT_CSV) {
        ilpm_buf b;
        ilpm_buf_init(&b);
        ilpm_result_csv_header(&b);
        fputs(ilpm_buf_str(&b), stdout);
        ilpm_buf_free(&b);
    }
    progress *pg = progress_for(c);
    for_each_instance(c, &t, solve_one, &t);
    progress_stop(pg);
    if (stop_requested)
        note_exit(&t, EXIT_SIGNAL);
    return t.worst;
}

/* ------------------------------------------------------------------ */
/* stats / export                                                        */

static ilpm_model *build_model(cli *c, const void *inst, tally *t)
{
    ilpm_err err = {0};
    ilpm_model *m = ilpm_run_model_new(&c->run.solver);
    if (!m) {
        fprintf(stderr, "ilpm: out of memory\n");
        note_exit(t, EXIT_INTERNAL);
        return NULL;
    }
    if (c->pz->build(inst, c->params, m, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        note_exit(t, EXIT_USAGE);
        ilpm_model_free(m);
        return NULL;
    }
    return m;
}

static int stats_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    (void)file;
    (void)index;
    tally *t = ctx;
    ilpm_model *m = build_model(c, inst, t);
    if (!m)
        return 0;
    ilpm_err err = {0};
    ilpm_stats s;
    char label[160];
    c->pz->describe(inst, label, sizeof label);
    if (ilpm_model_stats(m, &c->run.solver, &s, &err) != 0) {
        fprintf(stderr, "ilpm: %s %s: %s\n", c->pz->name, label, err.msg);
        note_exit(t, EXIT_USAGE);
        ilpm_model_free(m);
        return 0;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (c->format == FMT_JSON) {
        ilpm_stats_json(m, &s, c->pz->name, label, &b);
    } else {
        ilpm_buf_printf(&b, "%s %s: CNF with --amo %s --card %s\n", c->pz->name,
                        label, ilpm_amo_name(c->run.solver.amo),
                        ilpm_card_name(c->run.solver.card));
        ilpm_stats_text(m, &s, &b);
    }
    fputs(ilpm_buf_str(&b), stdout);
    ilpm_buf_free(&b);
    ilpm_stats_free(&s);
    ilpm_model_free(m);
    return 0;
}

static int cmd_stats(cli *c)
{
    tally t = {EXIT_OK, 0};
    for_each_instance(c, &t, stats_one, &t);
    return t.worst;
}

static int export_one(cli *c, const void *inst, const char *file, long index,
                      void *ctx)
{
    (void)file;
    tally *t = ctx;
    if (index > 1) {
        fprintf(stderr,
                "ilpm: export writes one instance; the file holds more "
                "(pick one, e.g. with --index where the puzzle has it)\n");
        return 1;
    }
    ilpm_model *m = build_model(c, inst, t);
    if (!m)
        return 0;
    for (int f = 0; f < 4; f++) {
        if (!c->export_path[f])
            continue;
        ilpm_err err = {0};
        if (ilpm_export(m, &c->run.solver, (ilpm_format)f, c->export_path[f],
                        &err) != 0) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            note_exit(t, EXIT_USAGE);
        }
    }
    ilpm_model_free(m);
    return 0;
}

static int cmd_export(cli *c)
{
    int any = 0;
    for (int f = 0; f < 4; f++)
        any |= c->export_path[f] != NULL;
    if (!any) {
        fprintf(stderr, "ilpm: export needs --lp, --mps, --cnf or --opb "
                        "FILE\n");
        return EXIT_USAGE;
    }
    tally t = {EXIT_OK, 0};
    for_each_instance(c, &t, export_one, &t);
    return t.worst;
}

/* ------------------------------------------------------------------ */
/* compare                                                               */

typedef struct compare_ctx {
    tally t;
    const char **forms;
    int nforms;
    plot_point *pts;
    int npts, cap;
    char **labels; /* formulation names kept for the plot */
    ilpm_cmp_summary sum;
} compare_ctx;

static int compare_one(cli *c, const void *inst, const char *file, long index,
                       void *vctx)
{
    compare_ctx *x = vctx;
    progress *pg = c->run.progress_ctx;
    progress_instance_of(pg, c->pz, inst);
    ilpm_comparison cmp;
    int rc = ilpm_compare_instance(c->pz, inst, c->params, x->forms, x->nforms,
                                   &c->run, &cmp);
    progress_done(pg);
    if (rc != 0) {
        fprintf(stderr, "ilpm: out of memory\n");
        note_exit(&x->t, EXIT_INTERNAL);
        ilpm_comparison_free(&cmp);
        return 1;
    }
    if (ilpm_cmp_summary_add(&x->sum, &cmp) != 0) {
        fprintf(stderr, "ilpm: out of memory\n");
        note_exit(&x->t, EXIT_INTERNAL);
        ilpm_comparison_free(&cmp);
        return 1;
    }
    ilpm_buf b;
    ilpm_buf_init(&b);
    for (int i = 0; i < cmp.nresults; i++) {
        ilpm_result *r = &cmp.results[i];
        snprintf(r->file, sizeof r->file, "%s", file);
        r->index = index;
        if (c->summary)
            ; /* the totals alone, at the end */
        else if (c->format == FMT_JSON)
            ilpm_result_json(r, &b);
        else if (c->format == FMT_CSV)
            ilpm_result_csv(r, &b);
        if (x->npts == x->cap) {
            int nc = x->cap ? 2 * x->cap : 64;
            plot_point *np = realloc(x->pts, (size_t)nc * sizeof *np);
            if (!np)
                break;
            x->pts = np;
            x->cap = nc;
        }
        plot_point *p = &x->pts[x->npts++];
        p->instance = x->t.instances;
        p->formulation = x->nforms > 0 ? x->forms[i / 2] : "";
        p->backend = r->backend == ILPM_BACKEND_SAT;
        p->answered = r->status == ILPM_SOLVED || r->status == ILPM_OPTIMAL ||
                      r->status == ILPM_UNSAT;
        p->solve_ms = r->solve_ms;
        int code = ilpm_result_exit_code(r);
        if (code != EXIT_INTERNAL)
            note_exit(&x->t, code);
    }
    if (c->format == FMT_TEXT && !c->summary)
        ilpm_comparison_text(&cmp, &b);
    fputs(ilpm_buf_str(&b), stdout);
    fflush(stdout);
    ilpm_buf_free(&b);
    if (cmp.disagree) {
        fprintf(stderr, "ilpm: %s %s: DISAGREEMENT: %s\n", c->pz->name,
                cmp.instance, cmp.disagreement);
        note_exit(&x->t, EXIT_INTERNAL);
    }
    ilpm_comparison_free(&cmp);
    return 0;
}

/* The formulations to run: --formulation A,B or all the puzzle has. */
static int compare_forms(cli *c, compare_ctx *x, char **owned)
{
    const char *given = ilpm_params_get(c->params, "formulation");
    if (!c->pz->formulations)
        return 0;
    if (!given) {
        while (c->pz->formulations[x->nforms])
            x->nforms++;
        x->forms = calloc((size_t)x->nforms, sizeof *x->forms);
        if (!x->forms)
            return -1;
        for (int i = 0; i < x->nforms; i++)
            x->forms[i] = c->pz->formulations[i];
        return 0;
    }
    *owned = strdup(given);
    size_t n = strlen(given) + 1;
    x->forms = calloc(n, sizeof *x->forms);
    if (!*owned || !x->forms)
        return -1;
    for (char *tok = strtok(*owned, ","); tok; tok = strtok(NULL, ",")) {
        int ok = 0;
        for (int i = 0; c->pz->formulations[i]; i++)
            ok |= strcmp(c->pz->formulations[i], tok) == 0;
        if (!ok) {
            fprintf(stderr,
                    "ilpm: --formulation: %s has no formulation '%s' "
                    "(it has",
                    c->pz->name, tok);
            for (int i = 0; c->pz->formulations[i]; i++)
                fprintf(stderr, " %s", c->pz->formulations[i]);
            fprintf(stderr, ")\n");
            return -2;
        }
        x->forms[x->nforms++] = tok;
    }
    if (x->nforms == 0) {
        fprintf(stderr, "ilpm: --formulation: no formulation named\n");
        return -2;
    }
    return 0;
}

/* The totals: alone with --summary, in the chosen format; else after the
 * tables of two or more instances (CSV and JSON records stay one kind). */
static void print_summary(cli *c, const ilpm_cmp_summary *sum)
{
    if (sum->instances == 0 ||
        (!c->summary && (c->format != FMT_TEXT || sum->instances < 2)))
        return;
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (c->format == FMT_JSON)
        ilpm_cmp_summary_json(sum, &b);
    else if (c->format == FMT_CSV)
        ilpm_cmp_summary_csv(sum, &b);
    else
        ilpm_cmp_summary_text(sum, &b);
    if (!c->summary)
        fputc('\n', stdout);
    fputs(ilpm_buf_str(&b), stdout);
    fflush(stdout);
    ilpm_buf_free(&b);
}

static int cmd_compare(cli *c)
{
    compare_ctx x;
    memset(&x, 0, sizeof x);
    x.t.worst = EXIT_OK;
    char *owned = NULL;
    int rc = compare_forms(c, &x, &owned);
    if (rc != 0) {
        if (rc == -1)
            fprintf(stderr, "ilpm: out of memory\n");
        free(owned);
        free(x.forms);
        return rc == -1 ? EXIT_INTERNAL : EXIT_USAGE;
    }
    char perr[512];
    if (c->plot_path && plot_check_path(c->plot_path, perr, sizeof perr)) {
        fprintf(stderr, "ilpm: %s\n", perr);
        free(owned);
        free(x.forms);
        return EXIT_USAGE;
    }
    ilpm_cmp_summary_init(&x.sum);
    if (c->format == FMT_CSV) {
        ilpm_buf b;
        ilpm_buf_init(&b);
        if (c->summary)
            ilpm_cmp_summary_csv_header(&b);
        else
            ilpm_result_csv_header(&b);
        fputs(ilpm_buf_str(&b), stdout);
        ilpm_buf_free(&b);
    }
    progress *pg = progress_for(c);
    for_each_instance(c, &x.t, compare_one, &x);
    progress_stop(pg);
    print_summary(c, &x.sum);
    if (c->plot_path && x.npts > 0 &&
        plot_write(c->plot_path, x.pts, x.npts, c->run.solver.time_limit, perr,
                   sizeof perr) != 0) {
        fprintf(stderr, "ilpm: %s\n", perr);
        note_exit(&x.t, EXIT_INTERNAL);
    }
    if (stop_requested)
        note_exit(&x.t, EXIT_SIGNAL);
    free(x.pts);
    free(x.forms);
    free(owned);
    ilpm_cmp_summary_free(&x.sum);
    return x.t.worst;
}

/* ------------------------------------------------------------------ */
/* batch / merge                                                         */

static void batch_help(FILE *f, const ilpm_puzzle *pz)
{
    fprintf(
        f, "usage: ilpm batch PUZZLE FILE... --out RESULTS [OPTIONS]\n"
           "       ilpm merge --out RESULTS FILE...\n"
           "\n"
           "batch runs every instance of every file on worker processes and\n"
           "writes one row per instance and back end to RESULTS, in input\n"
           "order, flushed as rows complete.  A worker that crashes, runs out\n"
           "of memory or overruns the time limit is recorded ('error' or\n"
           "'timeout') and replaced.  Ctrl-C keeps every finished row.\n"
           "\n"
           "batch options:\n"
           "  --out FILE                   results: .json/.jsonl for JSON "
           "lines, else CSV\n"
           "  --format csv|json            override the choice by extension\n"
           "  --jobs N                     worker processes (default: the "
           "number of cores)\n"
           "  --backend ilp|sat|both       back end(s) for every instance "
           "(default sat)\n"
           "  --time-limit S               per run, enforced in the solver "
           "and, as a last\n"
           "                               resort, by killing the worker at "
           "1.5 S + 5 s\n"
           "  --memory-limit MB            address-space limit of each worker\n"
           "  --resume                     skip runs already in RESULTS (not "
           "'stopped' ones)\n"
           "  --shard I/N                  only instances I, I+N, I+2N, ... (0 "
           "<= I < N,\n"
           "                               counted over all files in order)\n"
           "  --no-incremental             build a model per instance even "
           "where instances\n"
           "                               of one shape could share one\n"
           "\n"
           "merge combines shard results (all CSV or all JSON lines) into one\n"
           "file sorted by file, index, formulation and back end.\n");
    if (pz) {
        fprintf(f, "\npuzzle options (%s):\n", pz->name);
        print_opts(f, pz->opts);
    }
    fprintf(f, "\ncommon options:\n");
    print_opts(f, common_opts);
}

static void progress_line(void *ctx, const ilpm_batch_summary *s)
{
    (void)ctx;
    double rate = s->elapsed_s > 0 ? s->done / s->elapsed_s : 0;
    double eta = rate > 0 ? (s->total - s->done) / rate : 0;
    fprintf(stderr,
            "\r%ld/%ld done, %ld solved, %ld unsat, %ld timeout, %ld error, "
            "%.1f/s, ETA %.0f s   ",
            s->done, s->total,
            s->by_status[ILPM_SOLVED] + s->by_status[ILPM_OPTIMAL] +
                s->by_status[ILPM_FEASIBLE],
            s->by_status[ILPM_UNSAT], s->by_status[ILPM_TIMEOUT],
            s->by_status[ILPM_ERROR], rate, eta);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int cmd_batch(cli *c)
{
    if (!c->out_path) {
        fprintf(stderr, "ilpm: batch needs --out RESULTS\n");
        return EXIT_USAGE;
    }
    if (c->nfiles == 0) {
        fprintf(stderr, "ilpm: batch needs at least one FILE of instances\n");
        return EXIT_USAGE;
    }
    ilpm_batch_opts o;
    ilpm_batch_opts_init(&o);
    o.run = c->run;
    o.run.solver.stop_flag = NULL; /* workers install their own */
    o.both = c->both;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = c->jobs > 0 ? (int)c->jobs : (int)(cores > 0 ? cores : 1);
    o.memory_limit_mb = c->memory_limit;
    o.json = c->format_set ? c->format == FMT_JSON
                           : ends_with(c->out_path, ".json") ||
                                 ends_with(c->out_path, ".jsonl");
    if (c->format_set && c->format == FMT_TEXT) {
        fprintf(stderr, "ilpm: batch writes csv or json, not text\n");
        return EXIT_USAGE;
    }
    o.resume = c->resume;
    o.shard_i = c->shard_n ? c->shard_i : 0;
    o.shard_n = c->shard_n ? c->shard_n : 1;
    o.incremental = !c->no_incremental;
    o.stop = &stop_requested;
    if (isatty(STDERR_FILENO))
        o.progress = progress_line;
    ilpm_batch_summary s;
    ilpm_err err = {0};
    int rc = ilpm_batch_run(c->pz, c->files, c->nfiles, c->params, &o,
                            c->out_path, &s, &err);
    if (o.progress)
        fputc('\n', stderr);
    if (rc != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        return EXIT_USAGE;
    }
    printf("%s: %ld runs", c->out_path, s.done);
    if (s.skipped)
        printf(" (%ld already there)", s.skipped);
    printf(" in %.1f s:", s.elapsed_s);
    for (int st = 0; st < 7; st++)
        if (s.by_status[st])
            printf(" %ld %s", s.by_status[st],
                   ilpm_status_name((ilpm_status)st));
    printf("\n");
    for (int b = 0; b < 2; b++)
        if (s.runs[b])
            printf("  %s: %ld runs, solve ms median %.2f, total %.1f\n",
                   ilpm_backend_name((ilpm_backend)b), s.runs[b],
                   s.median_ms[b], s.total_ms[b]);
    if (s.replaced)
        printf("  %ld worker(s) replaced after a crash or overrun\n",
               s.replaced);
    if (stop_requested) {
        printf("  interrupted: %ld of %ld runs done; --resume goes on\n",
               s.done, s.total);
        return EXIT_SIGNAL;
    }
    if (s.by_status[ILPM_ERROR])
        return EXIT_INTERNAL;
    if (s.by_status[ILPM_TIMEOUT] || s.by_status[ILPM_FEASIBLE])
        return EXIT_TIMEOUT;
    return EXIT_OK;
}

static int cmd_merge(cli *c)
{
    if (!c->out_path || c->nfiles == 0) {
        fprintf(stderr, "ilpm: usage: ilpm merge --out RESULTS FILE...\n");
        return EXIT_USAGE;
    }
    ilpm_err err = {0};
    if (ilpm_batch_merge(c->files, c->nfiles, c->out_path, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* gen / list                                                             */

static int cmd_gen(cli *c)
{
    if (!c->pz->generate) {
        fprintf(stderr, "ilpm: %s has no generator\n", c->pz->name);
        return EXIT_USAGE;
    }
    ilpm_buf b;
    ilpm_err err = {0};
    ilpm_buf_init(&b);
    if (c->pz->generate(c->params, &b, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        ilpm_buf_free(&b);
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    if (c->out_path) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", c->out_path);
        FILE *f = fopen(tmp, "w");
        if (!f || fputs(ilpm_buf_str(&b), f) == EOF || fclose(f) != 0 ||
            rename(tmp, c->out_path) != 0) {
            fprintf(stderr, "ilpm: %s: cannot write: %s\n", c->out_path,
                    strerror(errno));
            remove(tmp);
            rc = EXIT_USAGE;
        }
    } else {
        fputs(ilpm_buf_str(&b), stdout);
    }
    ilpm_buf_free(&b);
    return rc;
}

static int cmd_list(void)
{
    for (int i = 0; ilpm_puzzles[i]; i++) {
        const ilpm_puzzle *pz = ilpm_puzzles[i];
        printf("%-12s %s", pz->name, pz->summary);
        for (int f = 0; pz->formulations && pz->formulations[f]; f++)
            printf("%s%s", f ? ", " : "; formulations: ", pz->formulations[f]);
        putchar('\n');
    }
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("ilpm %s\n", ILPM_VERSION);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "list") == 0)
        return cmd_list();
    static const char *const verbs[] = {"solve",  "play",  "stats",
                                        "export", "gen",   "compare",
                                        "batch",  "merge", NULL};
    int known = 0;
    for (int i = 0; verbs[i]; i++)
        known |= strcmp(argv[1], verbs[i]) == 0;
    if (!known) {
        fprintf(stderr, "ilpm: unknown verb '%s'\n\n", argv[1]);
        usage(stderr);
        return EXIT_USAGE;
    }
    cli c;
    memset(&c, 0, sizeof c);
    c.verb = argv[1];
    ilpm_run_opts_init(&c.run);
    c.run.solver.stop_flag = &stop_requested;
    c.params = ilpm_params_new();
    int rc;
    if (!c.params) {
        fprintf(stderr, "ilpm: out of memory\n");
        return EXIT_INTERNAL;
    }
    if (parse_args(&c, argc, argv) != 0) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (c.help &&
        (strcmp(c.verb, "batch") == 0 || strcmp(c.verb, "merge") == 0)) {
        batch_help(stdout, c.pz);
        rc = EXIT_OK;
        goto done;
    }
    if (c.help) {
        if (c.pz)
            puzzle_help(stdout, c.verb, c.pz);
        else
            usage(stdout);
        rc = EXIT_OK;
        goto done;
    }
    if (strcmp(c.verb, "merge") == 0) {
        rc = cmd_merge(&c);
        goto done;
    }
    if (!c.pz) {
        fprintf(stderr, "ilpm: %s needs a puzzle: one of", c.verb);
        for (int i = 0; ilpm_puzzles[i]; i++)
            fprintf(stderr, " %s", ilpm_puzzles[i]->name);
        fputc('\n', stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    if (c.run.limit && !c.run.count) {
        fprintf(stderr, "ilpm: --limit goes with --count\n");
        rc = EXIT_USAGE;
        goto done;
    }
    /* GLPK checks for a stop only between its steps (an LP solve, a cut
     * round), which can take minutes on a large model: after a signal,
     * solve, play and compare get 5 s to stop cleanly. */
    install_signals(strcmp(c.verb, "batch") == 0 ? 0 : 5);
    if (strcmp(c.verb, "solve") == 0 || strcmp(c.verb, "play") == 0)
        rc = cmd_solve(&c);
    else if (strcmp(c.verb, "stats") == 0)
        rc = cmd_stats(&c);
    else if (strcmp(c.verb, "export") == 0)
        rc = cmd_export(&c);
    else if (strcmp(c.verb, "compare") == 0)
        rc = cmd_compare(&c);
    else if (strcmp(c.verb, "batch") == 0)
        rc = cmd_batch(&c);
    else
        rc = cmd_gen(&c);
done:
    ilpm_params_free(c.params);
    free(c.files);
    return rc;
}
