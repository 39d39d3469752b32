/* The command line's options: one table row per option (its value, the
 * verbs it applies to, its setter and help), read by the parser and by
 * --help; then the checks that tie options together.  Everything here
 * runs before the first instance is read, so a mistake is one message
 * and exit 2 at once, never a message per instance. */
#include "cli.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const verb_names[VERB_COUNT] = {
    "solve", "play", "stats", "export", "gen", "compare", "batch", "merge"};

int cli_verb_find(const char *s)
{
    for (int i = 0; i < VERB_COUNT; i++)
        if (strcmp(s, verb_names[i]) == 0)
            return i;
    return -1;
}

typedef struct cli_opt cli_opt;
typedef int (*setter)(cli *c, const cli_opt *o, const char *val, ilpm_err *err);

struct cli_opt {
    const char *name; /* without "--" */
    const char *arg;  /* name of the value in help ("N"); NULL for a flag */
    unsigned verbs;   /* V_* where it applies */
    setter set;
    size_t off; /* the field, for the generic setters */
    const char *help;
    /* The back ends it acts on (ILPM_BACKEND_BIT each); 0: every one. */
    unsigned backends;
    /* May be given again, each time one more value; every other option
     * is given once. */
    int list;
};

#define FIELD(T, c, o) ((T *)((char *)(c) + (o)->off))

static int set_on(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    (void)v, (void)e;
    *FIELD(int, c, o) = 1;
    return 0;
}

static int set_text(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    (void)e;
    *FIELD(const char *, c, o) = v;
    return 0;
}

static int set_no_propagate(cli *c, const cli_opt *o, const char *v,
                            ilpm_err *e)
{
    (void)o, (void)v, (void)e;
    c->run.solver.propagate = ILPM_PROP_NONE;
    return 0;
}

/* --backend: the library's row, and under batch a set of back ends by
 * its name (both = ilp and sat, as before cp came; all = every one). */
static int set_backend(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    unsigned set = ilpm_backend_set_parse(v);
    if (c->verb == VERB_BATCH && set && ilpm_backend_parse(v) < 0) {
        c->backends = set;
        return 0;
    }
    if (ilpm_options_set(&c->run.solver, o->name, v, e) != 0) {
        if (c->verb == VERB_BATCH) {
            char names[128];
            size_t n = 0;
            for (int b = 0; b < ILPM_BACKEND_COUNT && n < sizeof names; b++)
                n += (size_t)snprintf(names + n, sizeof names - n, "%s, ",
                                      ilpm_backend_name((ilpm_backend)b));
            ilpm_err_input(e, "--%s: expected %sboth or all, got '%s'", o->name,
                           names, v);
        }
        return -1;
    }
    c->backends = 0;
    return 0;
}

/* A row of ilpm_options_table; a list given again adds to what it
 * holds ("a=1" then "b=2": "a=1,b=2"). */
static int set_solver(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    const ilpm_option_info *r = ilpm_option_find(o->name);
    const void *at = (const char *)&c->run.solver + r->offset;
    const char *old = r->list ? *(const char *const *)at : NULL;
    if (old && *old && *v) {
        size_t n = strlen(old) + strlen(v) + 2;
        char **owned =
            realloc(c->owned, (size_t)(c->nowned + 1) * sizeof *owned);
        char *both = owned ? malloc(n) : NULL;
        if (owned)
            c->owned = owned;
        if (!both)
            return ilpm_err_nomem(e, "out of memory");
        snprintf(both, n, "%s,%s", old, v);
        c->owned[c->nowned++] = both;
        v = both;
    }
    return ilpm_options_set(&c->run.solver, o->name, v, e);
}

static int set_limit(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    int64_t x;
    if (ilpm_parse_int(o->name, v, 1, INT64_MAX, &x, e) != 0)
        return -1;
    c->run.limit = (uint64_t)x;
    return 0;
}

static int set_format(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    static const char *const names[] = {"text", "json", "csv", "dimacs"};
    for (int i = 0; i < 4; i++)
        if (strcmp(v, names[i]) == 0) {
            c->format = (out_format)i;
            c->format_set = 1;
            return 0;
        }
    return ilpm_err_input(
        e, "--%s: expected text, json, csv or dimacs, got '%s'", o->name, v);
}

static int set_index(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    int64_t x;
    if (ilpm_parse_int(o->name, v, 1, LONG_MAX, &x, e) != 0)
        return -1;
    c->index = (long)x;
    return 0;
}

static int set_export(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    (void)e;
    static const char *const names[] = {"lp", "mps", "cnf", "opb"};
    for (int f = 0; f < 4; f++)
        if (strcmp(o->name, names[f]) == 0)
            c->export_path[f] = v;
    return 0;
}

static int set_jobs(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    int64_t x;
    if (ilpm_parse_int(o->name, v, 1, 1024, &x, e) != 0)
        return -1;
    c->jobs = (long)x;
    return 0;
}

static int set_memory_limit(cli *c, const cli_opt *o, const char *v,
                            ilpm_err *e)
{
    if (ilpm_parse_real(o->name, v, 0, 1e9, "megabytes >= 16", &c->memory_limit,
                        e) != 0)
        return -1;
    if (c->memory_limit < 16)
        return ilpm_err_input(e, "--%s: expected megabytes >= 16, got '%s'",
                              o->name, v);
    return 0;
}

static int set_slurm(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    int64_t x;
    if (ilpm_parse_int(o->name, v, 1, 100000, &x, e) != 0)
        return -1;
    c->slurm_n = (long)x;
    return 0;
}

/* A value that goes into a #SBATCH line: one line, no quotes to break. */
static int set_sbatch(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    if (*v == '\0' || strpbrk(v, "\n\r'"))
        return ilpm_err_input(e,
                              "--%s: expected one line without quotes, got "
                              "'%s'",
                              o->name, v);
    if (strcmp(o->name, "partition") == 0)
        c->partition = v;
    else if (strcmp(o->name, "account") == 0)
        c->account = v;
    else if (c->nsbatch == 16)
        return ilpm_err_input(e, "--%s: at most 16 of them", o->name);
    else
        c->sbatch_lines[c->nsbatch++] = v;
    return 0;
}

/* I/N: each part a whole number as any other option's, I below N. */
static int set_shard(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    const char *slash = strchr(v, '/');
    char first[64];
    int64_t i, n;
    if (!slash || (size_t)(slash - v) >= sizeof first || slash == v ||
        !slash[1])
        return ilpm_err_input(e, "--%s: expected I/N with 0 <= I < N, got '%s'",
                              o->name, v);
    snprintf(first, sizeof first, "%.*s", (int)(slash - v), v);
    if (ilpm_parse_int(o->name, slash + 1, 1, LONG_MAX, &n, e) != 0 ||
        ilpm_parse_int(o->name, first, 0, n - 1, &i, e) != 0)
        return -1;
    c->shard_i = (long)i;
    c->shard_n = (long)n;
    return 0;
}

#define OFF(f) offsetof(cli, f)
/* "|ilp|sat|cp" and "as an ILP with GLPK (ilp), ...", from the registry. */
#define BACKEND_ARG(id, name, help, driver) "|" name
#define BACKEND_HELP(id, name, help, driver) help " (" name "), "
#define BACKEND_OPT_HELP                                                       \
    "solve " ILPM_BACKENDS(BACKEND_HELP) "or in batch a set: both = ilp and "  \
                                         "sat, all = every one (gen: for the " \
                                         "solver calls a generator makes, "    \
                                         "default sat)"

/* The options of the command line itself.  The solver's options come
 * from the library's table (ilpm_options_table), with the verbs their
 * scope gives; a row here of the same name takes its place. */
static const cli_opt opts[] = {
    {"backend", ILPM_BACKENDS(BACKEND_ARG) + 1,
     V_SOLVE | V_PLAY | V_BATCH | V_GEN, set_backend, 0, BACKEND_OPT_HELP, 0,
     0},
    {"count", NULL, V_SOLVE | V_COMPARE | V_BATCH, set_on, OFF(run.count),
     "count all solutions (projected onto the puzzle's own variables)", 0, 0},
    {"limit", "N", V_SOLVE | V_COMPARE | V_BATCH, set_limit, 0,
     "with --count, stop at N solutions (--limit 2 tells whether a puzzle is "
     "proper)",
     0, 0},
    {"format", "text|json|csv", V_RUN | V_STATS, set_format, 0,
     "output: text for people, JSON lines or CSV for tools (stats: text or "
     "json; batch: csv or json; solve model: also dimacs, the SAT "
     "competition's s/v lines)",
     0, 0},
    {"index", "I", V_MODEL, set_index, 0,
     "only the I-th instance of each FILE (1-based)", 0, 0},
    {"no-propagate", NULL, V_MODEL, set_no_propagate, 0,
     "the same as --propagate none", 0, 0},
    {"lp", "FILE", V_EXPORT, set_export, 0, "CPLEX LP (GLPK's writer)", 0, 0},
    {"mps", "FILE", V_EXPORT, set_export, 0, "free MPS (GLPK's writer)", 0, 0},
    {"cnf", "FILE", V_EXPORT, set_export, 0,
     "DIMACS CNF with a 'c NAME VAR' dictionary", 0, 0},
    {"opb", "FILE", V_EXPORT, set_export, 0, "pseudo-Boolean OPB", 0, 0},
    {"plot", "FILE.svg|FILE.png", V_COMPARE, set_text, OFF(plot_path),
     "cactus plot and ILP-vs-SAT scatter (gnuplot; a file, not '-')", 0, 0},
    {"summary", NULL, V_COMPARE, set_on, OFF(summary),
     "only the totals per formulation and back end (text output ends with "
     "them anyway after two or more instances)",
     0, 0},
    {"out", "FILE", V_BATCH | V_MERGE | V_GEN, set_text, OFF(out_path),
     "the file to write, '-' for standard output: results (batch, merge: "
     ".json or .jsonl for JSON lines, else CSV) or instances (gen)",
     0, 0},
    {"jobs", "N", V_BATCH, set_jobs, 0,
     "worker processes (default: the number of cores)", 0, 0},
    {"memory-limit", "MB", V_MODEL | V_GEN, set_memory_limit, 0,
     "address-space limit of the process (batch: of each worker); "
     "reaching it ends the run with a message, exit 2",
     0, 0},
    {"resume", NULL, V_BATCH, set_on, OFF(resume),
     "skip runs already in RESULTS (not 'stopped' ones, nor those whose "
     "worker was killed from outside)",
     0, 0},
    {"shard", "I/N", V_BATCH, set_shard, 0,
     "only instances I, I+N, I+2N, ... (0 <= I < N, counted over all files "
     "in order)",
     0, 0},
    {"slurm", "N", V_BATCH, set_slurm, 0,
     "write a Slurm job array of N shard tasks and its merge step instead "
     "of running here",
     0, 0},
    {"submit", NULL, V_BATCH, set_on, OFF(submit),
     "with --slurm: submit with sbatch and print the job ids", 0, 0},
    {"slurm-script", "FILE", V_BATCH, set_text, OFF(slurm_script),
     "with --slurm: write the script to FILE (default: standard output, "
     "or RESULTS.shards/submit.sh with --submit)",
     0, 0},
    {"partition", "NAME", V_BATCH, set_sbatch, 0,
     "with --slurm: the tasks' partition", 0, 0},
    {"account", "NAME", V_BATCH, set_sbatch, 0,
     "with --slurm: the account charged", 0, 0},
    {"sbatch", "OPTION", V_BATCH, set_sbatch, 0,
     "with --slurm: one more #SBATCH line, as '--qos=short'", 0, 1},
    {"no-incremental", NULL, V_BATCH, set_on, OFF(no_incremental),
     "build a model per instance even where instances of one shape could "
     "share one",
     0, 0},
    {NULL, NULL, 0, NULL, 0, NULL, 0, 0},
};

/* Every row, the command line's then the library's, as one list:
 * rows[0..n) point into a static array filled on first use. */
static const cli_opt *all_rows(int *n)
{
    static cli_opt rows[96];
    static int count = -1;
    if (count < 0) {
        count = 0;
        for (const cli_opt *o = opts; o->name; o++)
            rows[count++] = *o;
        for (const ilpm_option_info *r = ilpm_options_table(); r->name; r++) {
            int dup = 0;
            for (const cli_opt *o = opts; o->name; o++)
                dup |= strcmp(o->name, r->name) == 0;
            if (dup || count == (int)(sizeof rows / sizeof *rows))
                continue;
            cli_opt *o = &rows[count++];
            o->name = r->name;
            o->arg = r->type == ILPM_OPTION_ON || r->type == ILPM_OPTION_OFF
                         ? NULL
                     : r->arg ? r->arg
                              : "";
            o->verbs = r->scope == ILPM_SCOPE_LOWER ? V_MODEL : V_RUN;
            /* A generator that solves (tetravex --unsolvable) is bounded
             * by the time limit over all its solver calls. */
            if (strcmp(r->name, "time-limit") == 0)
                o->verbs |= V_GEN;
            o->set = set_solver;
            o->off = 0;
            o->help = r->help;
            o->backends = r->backends;
            o->list = r->list;
        }
    }
    *n = count;
    return rows;
}

static const cli_opt *opt_find(const char *name)
{
    int n;
    const cli_opt *rows = all_rows(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

/* The value as help names it: an enum's names, "ilp|sat" for instance. */
static const char *opt_arg(const cli_opt *o, char *buf, size_t size)
{
    const char *const *names =
        o->set == set_solver ? ilpm_enum_names(o->name) : NULL;
    if (!names)
        return o->arg;
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; names[i] && n < size; i++)
        n +=
            (size_t)snprintf(buf + n, size - n, "%s%s", i ? "|" : "", names[i]);
    return buf;
}

/* Levenshtein distance of two short names, for "did you mean". */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int d[41][41];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int x = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int y = d[i - 1][j] + 1, z = d[i][j - 1] + 1;
            d[i][j] = x < y ? (x < z ? x : z) : (y < z ? y : z);
        }
    return d[la][lb];
}

const char *cli_verb_closest(const char *s)
{
    static const char *const more[] = {"list", "help"};
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < VERB_COUNT + 2; i++) {
        const char *v = i < VERB_COUNT ? verb_names[i] : more[i - VERB_COUNT];
        if (distance(s, v) < bd)
            bd = distance(s, v), best = v;
    }
    return best;
}

/* The closest known option to a misspelt one, or NULL. */
static const char *closest(const cli *c, const char *name)
{
    const char *best = NULL;
    int bd = 3, n;
    const cli_opt *rows = all_rows(&n);
    for (const cli_opt *o = rows; o < rows + n; o++)
        if ((o->verbs & (1u << c->verb)) && distance(name, o->name) < bd)
            bd = distance(name, o->name), best = o->name;
    const ilpm_opt_spec *t = !c->pz                ? NULL
                             : c->verb == VERB_GEN ? c->pz->gen_opts
                                                   : c->pz->opts;
    for (; t && t->name; t++)
        if (distance(name, t->name) < bd)
            bd = distance(name, t->name), best = t->name;
    return best;
}

static void verbs_of(unsigned mask, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int v = 0; v < VERB_COUNT && n < size; v++)
        if (mask & (1u << v))
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
                                  verb_names[v]);
}

#define FAIL(...)                                                              \
    do {                                                                       \
        fprintf(stderr, "ilpm: " __VA_ARGS__);                                 \
        fputc('\n', stderr);                                                   \
        return -1;                                                             \
    } while (0)

/* The option an option sets: its own name, but for an alias. */
static const char *key_of(const char *name)
{
    return strcmp(name, "no-propagate") == 0 ? "propagate" : name;
}

unsigned cli_opt_backends(const char *name)
{
    const cli_opt *o = opt_find(name);
    return o ? o->backends : 0;
}

/* One option: --name or --name=value, with its value from argv if it
 * takes one.  *i stands on the option and is moved past its value. */
static int parse_opt(cli *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *val = NULL;
    int start = *i;
    char name[64];
    const char *eq = strchr(a + 2, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    if (len >= sizeof name)
        FAIL("unknown option '%.60s...'", a);
    memcpy(name, a + 2, len);
    name[len] = '\0';
    if (eq)
        val = eq + 1;

    /* For gen, the command line's options that go with gen (--out,
     * --time-limit, --backend), then the generator's (its --count is a
     * number of instances); for the others, the command line's, then the
     * puzzle's. */
    const cli_opt *o = opt_find(name);
    if (c->verb == VERB_GEN && o && !(o->verbs & V_GEN))
        o = NULL;
    const ilpm_opt_spec *ps = NULL;
    if (!o && c->pz)
        ps = ilpm_opt_find(c->verb == VERB_GEN ? c->pz->gen_opts : c->pz->opts,
                           name);
    if (!o && !ps) {
        const char *near = closest(c, name);
        if (near)
            FAIL("unknown option '--%s'; did you mean '--%s'?", name, near);
        if (c->pz)
            FAIL("unknown option '--%s' for %s %s (see 'ilpm %s %s --help')",
                 name, c->verb_name, c->pz->name, c->verb_name, c->pz->name);
        FAIL("unknown option '--%s' (see 'ilpm %s --help')", name,
             c->verb_name);
    }
    if (o && !(o->verbs & (1u << c->verb))) {
        char where[128];
        verbs_of(o->verbs, where, sizeof where);
        FAIL("--%s does not go with %s (it is for %s)", name, c->verb_name,
             where);
    }
    char argbuf[128];
    int takes =
        ps ? ps->arg != NULL : opt_arg(o, argbuf, sizeof argbuf) != NULL;
    if (!takes && val)
        FAIL("option --%s takes no value", name);
    if (takes && !val) {
        if (*i + 1 >= argc)
            FAIL("option --%s needs a value", name);
        val = argv[++*i];
    }
    ilpm_err err = {0};
    if (ps) {
        const char *old = ilpm_params_get(c->params, name);
        if (old && !(ps->flags & ILPM_OPT_REPEAT))
            FAIL("--%s given twice", name);
        char *joined = NULL;
        if (old && val && !(joined = malloc(strlen(old) + strlen(val) + 2)))
            FAIL("out of memory");
        if (joined)
            sprintf(joined, "%s%c%s", old, ILPM_OPT_SEP, val);
        int rc = ilpm_params_set(c->params, name, joined ? joined : val);
        free(joined);
        if (rc != 0)
            FAIL("out of memory");
        return 0;
    }
    /* One value an option, as getopt-based parsers of the field would
     * not say but the anchors' do: a second one is a mistake, not an
     * override (--no-propagate is --propagate none). */
    for (int k = 0; k < start && !o->list; k++)
        if (c->argv_opt[k] && strcmp(key_of(c->argv_opt[k]), key_of(name)) == 0)
            FAIL("--%s given twice%s", key_of(name),
                 strcmp(c->argv_opt[k], name) != 0
                     ? " (--no-propagate is --propagate none)"
                     : "");
    if (o->set(c, o, val, &err) != 0)
        FAIL("%s", err.msg);
    for (int k = start; k <= *i; k++)
        c->argv_opt[k] = o->name;
    return 0;
}

int cli_parse(cli *c, int argc, char **argv)
{
    int i = 2;
    c->verb_name = verb_names[c->verb];
    if (i < argc && argv[i][0] != '-' && c->verb != VERB_MERGE) {
        c->pz = ilpm_puzzle_find(argv[i]);
        if (!c->pz) {
            fprintf(stderr, "ilpm: unknown puzzle '%s'; the puzzles are",
                    argv[i]);
            for (int k = 0; ilpm_puzzles[k]; k++)
                fprintf(stderr, " %s", ilpm_puzzles[k]->name);
            fputc('\n', stderr);
            return -1;
        }
        i++;
        /* What the puzzle cannot do is said before its options. */
        if (c->verb == VERB_PLAY && !(c->pz->caps & ILPM_CAP_PLAY))
            FAIL("%s has no play (a play lays cards from a hand: ilpm play "
                 "machiavelli)",
                 c->pz->name);
        if (c->verb == VERB_GEN && !c->pz->generate)
            FAIL("%s has no generator (ilpm gen machiavelli, ilpm gen "
                 "tetravex)",
                 c->pz->name);
    }
    c->files = calloc((size_t)argc, sizeof *c->files);
    c->argv_opt = calloc((size_t)argc, sizeof *c->argv_opt);
    if (!c->files || !c->argv_opt)
        FAIL("out of memory");
    c->argc = argc;
    c->argv = argv;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-") == 0 || a[0] != '-') {
            c->files[c->nfiles++] = a;
        } else if (strcmp(a, "--") == 0) {
            while (++i < argc)
                c->files[c->nfiles++] = argv[i];
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            c->help = 1;
        } else if (strncmp(a, "--", 2) != 0) {
            FAIL("unknown option '%s' (options start with --)", a);
        } else if (parse_opt(c, argc, argv, &i) != 0) {
            return -1;
        }
    }
    if (c->help)
        return 0;
    /* gmpl MODEL.mod D1.dat D2.dat: the first FILE is the model. */
    if (c->pz && c->pz->lead_opt && c->nfiles > 1 &&
        !ilpm_params_has(c->params, c->pz->lead_opt)) {
        if (ilpm_params_set(c->params, c->pz->lead_opt, c->files[0]) != 0)
            FAIL("out of memory");
        memmove(c->files, c->files + 1, (size_t)--c->nfiles * sizeof *c->files);
    }
    if (c->verb == VERB_PLAY &&
        ilpm_params_set(c->params, ILPM_PARAM_PLAY, NULL) != 0)
        FAIL("out of memory");
    if (c->format == FMT_DIMACS &&
        ilpm_params_set(c->params, ILPM_PARAM_DIMACS, NULL) != 0)
        FAIL("out of memory");
    return cli_check(c);
}

int cli_option_row(int i, cli_row *out)
{
    int n;
    const cli_opt *rows = all_rows(&n);
    if (i < 0 || i >= n)
        return 0;
    const cli_opt *o = &rows[i];
    out->name = o->name;
    out->verbs = o->verbs;
    out->arg = opt_arg(o, out->argbuf, sizeof out->argbuf);
    snprintf(out->help, sizeof out->help, "%s%s", o->help,
             o->list ? " (repeatable)" : "");
    /* Defaults come from ilpm_options_init, never from a string. */
    const ilpm_option_info *r = ilpm_option_find(o->name);
    if (r && r->type != ILPM_OPTION_ON && r->type != ILPM_OPTION_OFF) {
        char def[64];
        ilpm_option_default(r, def, sizeof def);
        size_t len = strlen(out->help);
        snprintf(out->help + len, sizeof out->help - len, " (default %s)", def);
    }
    return 1;
}
