/* The command line's options: one table row per option (its value, the
 * verbs it applies to, its setter and help), read by the parser and by
 * --help; then the checks that tie options together.  Everything here
 * runs before the first instance is read, so a mistake is one message
 * and exit 2 at once, never a message per instance. */
#include "cli.h"

#include <errno.h>
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
typedef int (*setter)(cli *c, const cli_opt *o, const char *val,
                      ilpm_err *err);

struct cli_opt {
    const char *name; /* without "--" */
    const char *arg;  /* name of the value in help ("N"); NULL for a flag */
    unsigned verbs;   /* V_* where it applies */
    setter set;
    size_t off; /* the field, for the generic setters */
    const char *help;
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

/* A whole number in [lo, hi]. */
static int whole(const char *name, const char *v, uint64_t lo, uint64_t hi,
                 uint64_t *out, ilpm_err *e)
{
    char *end;
    errno = 0;
    unsigned long long x = *v == '-' ? 0 : strtoull(v, &end, 10);
    if (*v == '\0' || *v == '-' || *end != '\0' || errno == ERANGE || x < lo ||
        x > hi)
        return ilpm_err_set(e,
                            "--%s: expected an integer from %llu to %llu, got "
                            "'%s'",
                            name, (unsigned long long)lo,
                            (unsigned long long)hi, v);
    *out = x;
    return 0;
}

/* A number of seconds or megabytes in (lo, 1e9]. */
static int number(const char *name, const char *v, double lo, double *out,
                  const char *what, ilpm_err *e)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || errno == ERANGE || !(d > lo) || d > 1e9)
        return ilpm_err_set(e, "--%s: expected %s, got '%s'", name, what, v);
    *out = d;
    return 0;
}

static int set_no_propagate(cli *c, const cli_opt *o, const char *v,
                            ilpm_err *e)
{
    (void)o, (void)v, (void)e;
    c->run.solver.propagate = ILPM_PROP_NONE;
    return 0;
}

/* --backend: the library's row, and batch's both (ILP and SAT, as
 * before cp came) and all (the three). */
static int set_backend(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    if (c->verb == VERB_BATCH &&
        (strcmp(v, "both") == 0 || strcmp(v, "all") == 0)) {
        c->both = strcmp(v, "both") == 0 ? 1 : ILPM_BACKEND_COUNT;
        return 0;
    }
    if (ilpm_options_set(&c->run.solver, o->name, v, e) != 0) {
        if (c->verb == VERB_BATCH)
            ilpm_err_set(e,
                         "--%s: expected ilp, sat, cp, both or all, got '%s'",
                         o->name, v);
        return -1;
    }
    c->both = 0;
    return 0;
}

/* A row of ilpm_options_table. */
static int set_solver(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    return ilpm_options_set(&c->run.solver, o->name, v, e);
}

static int set_limit(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    return whole(o->name, v, 1, UINT64_MAX, &c->run.limit, e);
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
    return ilpm_err_set(e, "--%s: expected text, json, csv or dimacs, got '%s'",
                        o->name, v);
}

static int set_index(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    uint64_t x;
    if (whole(o->name, v, 1, LONG_MAX, &x, e) != 0)
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
    uint64_t x;
    if (whole(o->name, v, 1, 1024, &x, e) != 0)
        return -1;
    c->jobs = (long)x;
    return 0;
}

static int set_memory_limit(cli *c, const cli_opt *o, const char *v,
                            ilpm_err *e)
{
    if (number(o->name, v, 0, &c->memory_limit, "megabytes >= 16", e) != 0)
        return -1;
    if (c->memory_limit < 16)
        return ilpm_err_set(e, "--%s: expected megabytes >= 16, got '%s'",
                            o->name, v);
    return 0;
}

static int set_slurm(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    uint64_t x;
    if (whole(o->name, v, 1, 100000, &x, e) != 0)
        return -1;
    c->slurm_n = (long)x;
    return 0;
}

/* A value that goes into a #SBATCH line: one line, no quotes to break. */
static int set_sbatch(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    if (*v == '\0' || strpbrk(v, "\n\r'"))
        return ilpm_err_set(e, "--%s: expected one line without quotes, got "
                               "'%s'",
                            o->name, v);
    if (strcmp(o->name, "partition") == 0)
        c->partition = v;
    else if (strcmp(o->name, "account") == 0)
        c->account = v;
    else if (c->nsbatch == 16)
        return ilpm_err_set(e, "--%s: at most 16 of them", o->name);
    else
        c->sbatch_lines[c->nsbatch++] = v;
    return 0;
}

static int set_shard(cli *c, const cli_opt *o, const char *v, ilpm_err *e)
{
    char *end;
    errno = 0;
    long i = strtol(v, &end, 10), n = 0;
    int ok = end != v && *end == '/' && *v != '-';
    if (ok) {
        const char *s = end + 1;
        n = strtol(s, &end, 10);
        ok = end != s && *end == '\0' && *s != '-' && errno != ERANGE;
    }
    if (!ok || n < 1 || i < 0 || i >= n)
        return ilpm_err_set(e, "--%s: expected I/N with 0 <= I < N, got '%s'",
                            o->name, v);
    c->shard_i = i;
    c->shard_n = n;
    return 0;
}

#define OFF(f) offsetof(cli, f)

/* The options of the command line itself.  The solver's options come
 * from the library's table (ilpm_options_table), with the verbs their
 * scope gives; a row here of the same name takes its place. */
static const cli_opt opts[] = {
    {"backend", "ilp|sat|cp", V_SOLVE | V_PLAY | V_BATCH, set_backend, 0,
     "solve as an ILP with GLPK, as SAT with CaDiCaL, or by ilpm's own "
     "search (cp) (batch: also both = ilp and sat, all = the three)"},
    {"count", NULL, V_SOLVE | V_COMPARE | V_BATCH, set_on, OFF(run.count),
     "count all solutions (projected onto the puzzle's own variables)"},
    {"limit", "N", V_SOLVE | V_COMPARE | V_BATCH, set_limit, 0,
     "with --count, stop at N solutions (--limit 2 tells whether a puzzle is "
     "proper)"},
    {"format", "text|json|csv", V_RUN | V_STATS, set_format, 0,
     "output: text for people, JSON lines or CSV for tools (stats: text or "
     "json; batch: csv or json; solve model: also dimacs, the SAT "
     "competition's s/v lines)"},
    {"index", "I", V_MODEL, set_index, 0,
     "only the I-th instance of each FILE (1-based)"},
    {"no-propagate", NULL, V_MODEL, set_no_propagate, 0,
     "the same as --propagate none"},
    {"lp", "FILE", V_EXPORT, set_export, 0, "CPLEX LP (GLPK's writer)"},
    {"mps", "FILE", V_EXPORT, set_export, 0, "free MPS (GLPK's writer)"},
    {"cnf", "FILE", V_EXPORT, set_export, 0,
     "DIMACS CNF with a 'c NAME VAR' dictionary"},
    {"opb", "FILE", V_EXPORT, set_export, 0, "pseudo-Boolean OPB"},
    {"plot", "FILE.svg|FILE.png", V_COMPARE, set_text, OFF(plot_path),
     "cactus plot and ILP-vs-SAT scatter (gnuplot)"},
    {"summary", NULL, V_COMPARE, set_on, OFF(summary),
     "only the totals per formulation and back end (text output ends with "
     "them anyway after two or more instances)"},
    {"out", "FILE", V_BATCH | V_MERGE | V_GEN, set_text, OFF(out_path),
     "where to write (batch: .json/.jsonl for JSON lines, else CSV)"},
    {"jobs", "N", V_BATCH, set_jobs, 0,
     "worker processes (default: the number of cores)"},
    {"memory-limit", "MB", V_BATCH, set_memory_limit, 0,
     "address-space limit of each worker"},
    {"resume", NULL, V_BATCH, set_on, OFF(resume),
     "skip runs already in RESULTS (not 'stopped' ones, nor those whose "
     "worker was killed from outside)"},
    {"shard", "I/N", V_BATCH, set_shard, 0,
     "only instances I, I+N, I+2N, ... (0 <= I < N, counted over all files "
     "in order)"},
    {"slurm", "N", V_BATCH, set_slurm, 0,
     "write a Slurm job array of N shard tasks and its merge step instead "
     "of running here"},
    {"submit", NULL, V_BATCH, set_on, OFF(submit),
     "with --slurm: submit with sbatch and print the job ids"},
    {"slurm-script", "FILE", V_BATCH, set_text, OFF(slurm_script),
     "with --slurm: write the script to FILE (default: standard output, "
     "or RESULTS.shards/submit.sh with --submit)"},
    {"partition", "NAME", V_BATCH, set_sbatch, 0,
     "with --slurm: the tasks' partition"},
    {"account", "NAME", V_BATCH, set_sbatch, 0,
     "with --slurm: the account charged"},
    {"sbatch", "OPTION", V_BATCH, set_sbatch, 0,
     "with --slurm: one more #SBATCH line, as '--qos=short' (repeatable)"},
    {"no-incremental", NULL, V_BATCH, set_on, OFF(no_incremental),
     "build a model per instance even where instances of one shape could "
     "share one"},
    {NULL, NULL, 0, NULL, 0, NULL},
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
                         : r->arg ? r->arg : "";
            o->verbs = r->scope == ILPM_SCOPE_LOWER ? V_MODEL : V_RUN;
            o->set = set_solver;
            o->off = 0;
            o->help = r->help;
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
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "|" : "",
                              names[i]);
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
    const ilpm_opt_spec *t =
        !c->pz ? NULL : c->verb == VERB_GEN ? c->pz->gen_opts : c->pz->opts;
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

    /* For gen, the generator's options (its --count is a number of
     * instances); for the others, the command line's, then the
     * puzzle's. */
    const cli_opt *o = c->verb == VERB_GEN ? NULL : opt_find(name);
    if (c->verb == VERB_GEN && strcmp(name, "out") == 0)
        o = opt_find(name);
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
    int takes = ps ? ps->arg != NULL : opt_arg(o, argbuf, sizeof argbuf) != NULL;
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
        char *joined = NULL;
        if ((ps->flags & ILPM_OPT_REPEAT) && old && val &&
            !(joined = malloc(strlen(old) + strlen(val) + 2)))
            FAIL("out of memory");
        if (joined)
            sprintf(joined, "%s%c%s", old, ILPM_OPT_SEP, val);
        int rc = ilpm_params_set(c->params, name, joined ? joined : val);
        free(joined);
        if (rc != 0)
            FAIL("out of memory");
        return 0;
    }
    if (o->set(c, o, val, &err) != 0)
        FAIL("%s", err.msg);
    for (int k = start; k <= *i; k++)
        c->argv_opt[k] = o->name;
    return 0;
}

/* What the options say together, checked once. */
static int check_together(cli *c)
{
    ilpm_err err = {0};
    if (c->run.limit && !c->run.count)
        FAIL("--limit goes with --count");
    if (c->index && c->nfiles == 0)
        FAIL("--index picks an instance of a FILE; no FILE was given");
    if (c->format_set && c->verb == VERB_STATS && c->format == FMT_CSV)
        FAIL("stats writes text or json, not csv");
    if (c->format_set && c->verb == VERB_BATCH && c->format == FMT_TEXT)
        FAIL("batch writes csv or json, not text");
    if (c->format == FMT_DIMACS &&
        (c->verb != VERB_SOLVE || !c->pz || strcmp(c->pz->name, "model") != 0))
        FAIL("--format dimacs (the SAT competition's s/v lines) goes with "
             "'ilpm solve model' only");
    if (c->verb == VERB_MERGE) {
        if (!c->out_path || c->nfiles == 0)
            FAIL("usage: ilpm merge --out RESULTS FILE...");
        return 0;
    }
    if (!c->pz) {
        fprintf(stderr, "ilpm: %s needs a puzzle: one of", c->verb_name);
        for (int i = 0; ilpm_puzzles[i]; i++)
            fprintf(stderr, " %s", ilpm_puzzles[i]->name);
        fputc('\n', stderr);
        return -1;
    }
    if (c->verb == VERB_GEN && c->nfiles > 0)
        FAIL("gen takes no FILE (write with --out FILE)");
    if (c->verb == VERB_EXPORT && !c->export_path[0] && !c->export_path[1] &&
        !c->export_path[2] && !c->export_path[3])
        FAIL("export needs --lp, --mps, --cnf or --opb FILE");
    if (c->verb == VERB_EXPORT && c->nfiles > 1)
        FAIL("export writes one instance: give one FILE (and --index I "
             "for one of its instances)");
    if (c->verb == VERB_BATCH && !c->out_path)
        FAIL("batch needs --out RESULTS");
    if (c->verb == VERB_BATCH && strcmp(c->out_path, "-") == 0)
        FAIL("batch --out needs a file, not '-': --resume reads it back and "
             "the summary goes to standard output");
    if (c->verb == VERB_BATCH && c->nfiles == 0)
        FAIL("batch needs at least one FILE of instances");
    if (!c->slurm_n && (c->submit || c->slurm_script || c->partition ||
                        c->account || c->nsbatch))
        FAIL("--submit, --slurm-script, --partition, --account and --sbatch "
             "go with --slurm N");
    if (c->slurm_n && c->shard_n)
        FAIL("--slurm N makes the shards itself; drop --shard");
    if (ilpm_puzzle_check_params(c->pz, c->verb_name, c->params,
                                 c->nfiles > 0, &err) != 0)
        FAIL("%s", err.msg);
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
    return check_together(c);
}

/* ------------------------------------------------------------------ */
/* Help                                                                 */

static void print_row(FILE *f, const char *name, const char *arg,
                      const char *help)
{
    char left[96];
    snprintf(left, sizeof left, "--%s%s%s", name, arg ? " " : "",
             arg ? arg : "");
    if (strlen(left) > 28)
        fprintf(f, "  %s\n  %-28s %s\n", left, "", help);
    else
        fprintf(f, "  %-28s %s\n", left, help);
}

static void print_puzzle_opts(FILE *f, const ilpm_opt_spec *o)
{
    for (; o && o->name; o++)
        print_row(f, o->name, o->arg, o->help);
}

/* The rows of the table for verbs in mask: those only they take, when
 * only is set, else those shared with other verbs. */
static void print_opts(FILE *f, verb_id v, int only)
{
    int n;
    const cli_opt *rows = all_rows(&n);
    for (const cli_opt *o = rows; o < rows + n; o++) {
        if (!(o->verbs & (1u << v)))
            continue;
        int shared = (o->verbs & ~(1u << v)) != 0;
        if (only == shared)
            continue;
        char buf[128], help[512];
        const ilpm_option_info *r = ilpm_option_find(o->name);
        snprintf(help, sizeof help, "%s", o->help);
        /* Defaults come from ilpm_options_init, never from a string. */
        if (r && r->type != ILPM_OPTION_ON && r->type != ILPM_OPTION_OFF) {
            char def[64];
            ilpm_option_default(r, def, sizeof def);
            snprintf(help, sizeof help, "%s (default %s)", o->help, def);
        }
        print_row(f, o->name, opt_arg(o, buf, sizeof buf), help);
    }
}

void cli_usage(FILE *f)
{
    fprintf(
        f,
        "usage: ilpm VERB PUZZLE [FILE...] [OPTIONS]\n"
        "\n"
        "Models puzzles as 0/1 integer linear programs and solves them\n"
        "with GLPK's branch-and-cut (the default, --backend ilp) or with\n"
        "CaDiCaL as SAT (--backend sat).\n"
        "\n"
        "verbs:\n"
        "  solve PUZZLE [FILE...]   solve (or --count) every instance\n"
        "  play PUZZLE FILE...      best play from a hand (machiavelli)\n"
        "  stats PUZZLE [FILE]      sizes of both formulations per group\n"
        "  export PUZZLE [FILE] (--lp F | --mps F | --cnf F | --opb F)\n"
        "                           write the model for other solvers\n"
        "  gen PUZZLE [OPTIONS]     write random instances\n"
        "  compare PUZZLE [FILE...]  every formulation on every back end,\n"
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
            "input\nerror, 3 time limit, 1 internal error, 130 interrupted; "
            "over several\ninstances (or batch rows) the most severe: 1, 2, "
            "130, 3, 10, 0.\n");
}

static void batch_help(FILE *f)
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
           "--time-limit is enforced in the solver and, as a last resort, by\n"
           "killing the worker at 1.5 S + 5 s.\n"
           "\n"
           "Exit status: the most severe over the rows, in solve's order:\n"
           "1 a run failed inside ilpm (a crash, an error that is not the\n"
           "input's), 2 an instance or file did not parse, 130 interrupted,\n"
           "3 a time limit, 10 some instance is unsatisfiable, 0 otherwise.\n"
           "\n"
           "merge combines shard results (all CSV or all JSON lines) into one\n"
           "file sorted by file, index, formulation and back end.\n"
           "\nbatch options:\n");
    print_opts(f, VERB_BATCH, 1);
}

void cli_help(FILE *f, const cli *c)
{
    if (c->verb == VERB_BATCH || c->verb == VERB_MERGE) {
        batch_help(f);
        if (c->pz) {
            fprintf(f, "\npuzzle options (%s):\n", c->pz->name);
            print_puzzle_opts(f, c->pz->opts);
        }
        fprintf(f, "\ncommon options:\n");
        print_opts(f, VERB_BATCH, 0);
        return;
    }
    if (!c->pz) {
        cli_usage(f);
        return;
    }
    if (c->verb == VERB_GEN) {
        fprintf(f, "usage: ilpm gen %s [OPTIONS] [--out FILE]\n\n",
                c->pz->name);
        print_puzzle_opts(f, c->pz->gen_opts);
        print_opts(f, VERB_GEN, 0);
        return;
    }
    fprintf(f, "usage: ilpm %s %s [FILE...] [OPTIONS]\n\n%s.\n\n",
            c->verb_name, c->pz->name, c->pz->summary);
    fprintf(f, "input:\n%s\n\npuzzle options:\n", c->pz->input_help);
    print_puzzle_opts(f, c->pz->opts);
    fprintf(f, "\ncommon options:\n");
    print_opts(f, c->verb, 0);
    if (c->verb == VERB_COMPARE) {
        fprintf(f, "\ncompare options:\n"
                   "  --formulation A,B            the formulations to run "
                   "(default: all)\n");
        print_opts(f, c->verb, 1);
    }
    if (c->verb == VERB_EXPORT) {
        fprintf(f, "\nexport options (FILE '-' is standard output):\n");
        print_opts(f, c->verb, 1);
    }
}
