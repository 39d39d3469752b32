/* ilpm: the command line.  The only part of ilpm that prints to the
 * terminal or chooses an exit status; everything else reports through
 * return values and ilpm_err. */
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1,
    EXIT_USAGE = 2,
    EXIT_TIMEOUT = 3,
    EXIT_UNSAT = 10,
    EXIT_SIGNAL = 130
};

static volatile int stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
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
    const char **files;
    int nfiles;
    ilpm_params *params;
    int help;
} cli;

/* The options every solving verb shares, for --help. */
static const ilpm_opt_spec common_opts[] = {
    {"backend", "ilp|sat", "solve as an ILP with GLPK or as SAT with CaDiCaL (default sat)"},
    {"count", NULL, "count all solutions (projected onto the puzzle's own variables)"},
    {"limit", "N", "with --count, stop at N solutions (--limit 2 tells whether a puzzle is proper)"},
    {"time-limit", "S", "seconds per instance (default none); 'timeout' with what was found"},
    {"format", "text|json|csv", "output: text for people, JSON lines or CSV for tools"},
    {"amo", "auto|pairwise|seq|product", "CNF encoding of at-most-one (default auto: pairwise up to 6 literals, else seq)"},
    {"card", "seq|totalizer", "CNF encoding of cardinality (default seq)"},
    {"cuts", "none|default|all", "GLPK cutting planes (default: clique, cover, MIR)"},
    {"no-presolve", NULL, "turn GLPK's MIP presolver off"},
    {"max-pb-nodes", "N", "largest BDD per linear constraint in the CNF (default 2000000)"},
    {"verbose", NULL, "let GLPK and CaDiCaL print their progress on stderr"},
    {NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f,
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
        fprintf(f, "usage: ilpm gen %s [OPTIONS] [--out FILE]\n\n",
                pz->name);
        print_opts(f, pz->gen_opts);
        return;
    }
    fprintf(f, "usage: ilpm %s %s [FILE...] [OPTIONS]\n\n%s.\n\n", verb,
            pz->name, pz->summary);
    fprintf(f, "input:\n%s\n\npuzzle options:\n", pz->input_help);
    print_opts(f, pz->opts);
    fprintf(f, "\ncommon options:\n");
    print_opts(f, common_opts);
    if (strcmp(verb, "export") == 0)
        fprintf(f, "\nexport options:\n"
                   "  --lp FILE                    CPLEX LP (GLPK's writer)\n"
                   "  --mps FILE                   free MPS (GLPK's writer)\n"
                   "  --cnf FILE                   DIMACS CNF with a 'c NAME VAR' dictionary\n"
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
    if (*s == '\0' || *end != '\0' || errno == ERANGE || !(d >= 0) ||
        d > 1e9)
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

#define USAGE_ERR(...)                                                     \
    do {                                                                   \
        fprintf(stderr, "ilpm: " __VA_ARGS__);                             \
        fputc('\n', stderr);                                               \
        return -1;                                                         \
    } while (0)

/* Parses argv[2..] (after VERB) into c.  Returns 0, or -1 after printing a
 * usage error. */
static int parse_args(cli *c, int argc, char **argv)
{
    int i = 2;
    if (i < argc && argv[i][0] != '-') {
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
#define NEED_VALUE()                                                       \
    do {                                                                   \
        if (!val) {                                                        \
            if (i + 1 >= argc)                                             \
                USAGE_ERR("option --%s needs a value", name);              \
            val = argv[++i];                                               \
        }                                                                  \
    } while (0)
        ilpm_options *so = &c->run.solver;
        if (strcmp(name, "backend") == 0) {
            NEED_VALUE();
            int b = ilpm_backend_parse(val);
            if (b < 0)
                USAGE_ERR("--backend: expected ilp or sat, got '%s'", val);
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
            if (parse_double(val, &so->time_limit) != 0 ||
                so->time_limit <= 0)
                USAGE_ERR("--time-limit: expected seconds > 0, got '%s'",
                          val);
        } else if (strcmp(name, "format") == 0) {
            NEED_VALUE();
            if (strcmp(val, "text") == 0)
                c->format = FMT_TEXT;
            else if (strcmp(val, "json") == 0)
                c->format = FMT_JSON;
            else if (strcmp(val, "csv") == 0)
                c->format = FMT_CSV;
            else
                USAGE_ERR("--format: expected text, json or csv, got '%s'",
                          val);
        } else if (strcmp(name, "amo") == 0) {
            NEED_VALUE();
            int e = ilpm_amo_parse(val);
            if (e < 0)
                USAGE_ERR("--amo: expected auto, pairwise, seq or product, "
                          "got '%s'",
                          val);
            so->amo = (ilpm_amo_enc)e;
        } else if (strcmp(name, "card") == 0) {
            NEED_VALUE();
            int e = ilpm_card_parse(val);
            if (e < 0)
                USAGE_ERR("--card: expected seq or totalizer, got '%s'",
                          val);
            so->card = (ilpm_card_enc)e;
        } else if (strcmp(name, "cuts") == 0) {
            NEED_VALUE();
            int e = ilpm_cuts_parse(val);
            if (e < 0)
                USAGE_ERR("--cuts: expected none, default or all, got '%s'",
                          val);
            so->cuts = (ilpm_cuts)e;
        } else if (strcmp(name, "no-presolve") == 0) {
            so->presolve = 0;
        } else if (strcmp(name, "max-pb-nodes") == 0) {
            NEED_VALUE();
            uint64_t v;
            if (parse_u64(val, &v) != 0 || v == 0 || v > INT64_MAX)
                USAGE_ERR("--max-pb-nodes: expected a positive integer, "
                          "got '%s'",
                          val);
            so->max_pb_nodes = (int64_t)v;
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
        } else if (strcmp(name, "out") == 0 && strcmp(c->verb, "gen") == 0) {
            NEED_VALUE();
            c->out_path = val;
        } else {
            const ilpm_opt_spec *spec = NULL;
            const ilpm_opt_spec *table =
                !c->pz ? NULL
                : strcmp(c->verb, "gen") == 0 ? c->pz->gen_opts
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
    static const int order[] = {EXIT_OK, EXIT_UNSAT, EXIT_TIMEOUT,
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
    ilpm_err err = {{0}};
    if (c->nfiles == 0) {
        void *inst = NULL;
        int r = c->pz->from_params ? c->pz->from_params(c->params, &inst, &err)
                                   : 0;
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
            fprintf(stderr, "ilpm: %s: no instance in the file\n",
                    c->files[i]);
        (void)got;
        ilpm_reader_free(rd);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* solve / play                                                          */

static int solve_one(cli *c, const void *inst, const char *file, long index,
                     void *ctx)
{
    tally *t = ctx;
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
    for_each_instance(c, &t, solve_one, &t);
    if (stop_requested)
        note_exit(&t, EXIT_SIGNAL);
    return t.worst;
}

/* ------------------------------------------------------------------ */
/* stats / export                                                        */

static ilpm_model *build_model(cli *c, const void *inst, tally *t)
{
    ilpm_err err = {{0}};
    ilpm_model *m = ilpm_model_new();
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
    ilpm_err err = {{0}};
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
        ilpm_buf_printf(&b, "%s %s: CNF with --amo %s --card %s\n",
                        c->pz->name, label,
                        ilpm_amo_name(c->run.solver.amo),
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

static int export_one(cli *c, const void *inst, const char *file,
                      long index, void *ctx)
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
        ilpm_err err = {{0}};
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
/* gen / list                                                             */

static int cmd_gen(cli *c)
{
    if (!c->pz->generate) {
        fprintf(stderr, "ilpm: %s has no generator\n", c->pz->name);
        return EXIT_USAGE;
    }
    ilpm_buf b;
    ilpm_err err = {{0}};
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
        printf("%-12s %s\n", pz->name, pz->summary);
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
    static const char *const verbs[] = {"solve", "play", "stats", "export",
                                        "gen", NULL};
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
    if (c.help) {
        if (c.pz)
            puzzle_help(stdout, c.verb, c.pz);
        else
            usage(stdout);
        rc = EXIT_OK;
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
    install_signals();
    if (strcmp(c.verb, "solve") == 0 || strcmp(c.verb, "play") == 0)
        rc = cmd_solve(&c);
    else if (strcmp(c.verb, "stats") == 0)
        rc = cmd_stats(&c);
    else if (strcmp(c.verb, "export") == 0)
        rc = cmd_export(&c);
    else
        rc = cmd_gen(&c);
done:
    ilpm_params_free(c.params);
    free(c.files);
    return rc;
}
