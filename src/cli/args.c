/* The command line's parser: its own options as rows of the one row type
 * (ilpm_opt, ilpm.h) beside the solver's and the puzzle's tables, each
 * option checked and set by its row (ilpm_opt_set), with a few special
 * cases by name (--backend's sets, --shard, #SBATCH lines).  Everything
 * here runs before the first instance is read, so a mistake is one
 * message and exit 2 at once, never a message per instance. */
#include "cli.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A special case the command line adds to a row, by name: the verbs of
 * a library row that its flags do not give, a check or setter of its
 * own, more help.  Names, values, ranges, defaults and help are the
 * rows'. */
typedef int (*setter)(cli *c, const ilpm_opt *r, const char *v, ilpm_err *e);
typedef struct special {
    const char *name;
    unsigned verbs;   /* 0: the row's */
    setter check;     /* before the row's own setter, or NULL */
    setter set;       /* instead of it, or NULL */
    const char *more; /* appended to the row's help, or NULL */
} special;

static int set_no_propagate(cli *c, const ilpm_opt *r, const char *v,
                            ilpm_err *e)
{
    (void)r, (void)v, (void)e;
    c->run.solver.propagate = ILPM_PROP_NONE;
    return 0;
}

/* --backend: the library's row, and under batch a set of back ends by
 * its name (both = ilp and sat, as before cp came; all = every one). */
static int set_backend(cli *c, const ilpm_opt *r, const char *v, ilpm_err *e)
{
    unsigned set = ilpm_backend_set_parse(v);
    if (c->verb == VERB_BATCH && set && ilpm_backend_find(v) < 0) {
        c->backends = set;
        return 0;
    }
    if (ilpm_opt_set(r, &c->run.solver, v, e) != 0) {
        if (c->verb == VERB_BATCH) {
            char names[128];
            size_t n = 0;
            for (int b = 0; r->choices[b] && n < sizeof names; b++)
                n += (size_t)snprintf(names + n, sizeof names - n, "%s, ",
                                      r->choices[b]);
            ilpm_err_input(e, "--%s: expected %sboth or all, got '%s'", r->name,
                           names, v);
        }
        return -1;
    }
    c->backends = 0;
    return 0;
}

/* I/N: each part a whole number as any other option's, I below N. */
static int set_shard(cli *c, const ilpm_opt *r, const char *v, ilpm_err *e)
{
    const char *slash = strchr(v, '/');
    char first[64];
    int64_t i, n;
    if (!slash || (size_t)(slash - v) >= sizeof first || slash == v ||
        !slash[1])
        return ilpm_err_input(e, "--%s: expected I/N with 0 <= I < N, got '%s'",
                              r->name, v);
    snprintf(first, sizeof first, "%.*s", (int)(slash - v), v);
    if (ilpm_parse_int(r->name, slash + 1, 1, LONG_MAX, &n, e) != 0 ||
        ilpm_parse_int(r->name, first, 0, n - 1, &i, e) != 0)
        return -1;
    c->shard_i = (long)i;
    c->shard_n = (long)n;
    return 0;
}

/* A value that goes into a #SBATCH line: one line, no quotes to break. */
static int one_line(cli *c, const ilpm_opt *r, const char *v, ilpm_err *e)
{
    (void)c;
    if (*v == '\0' || strpbrk(v, "\n\r'"))
        return ilpm_err_input(e,
                              "--%s: expected one line without quotes, got "
                              "'%s'",
                              r->name, v);
    return 0;
}

#define OFF(f) offsetof(cli, f)

static const char *const format_names[] = {"text", "json", "csv", "dimacs",
                                           NULL};

/* The options of the command line itself, in the rows every table has
 * (ilpm_opt); verbs are V_* bits.  The solver's options are the
 * library's table (ilpm_options_table), with the verbs their flags give
 * (ILPM_OPT_LOWER: every verb that builds a model; else those that
 * solve; ILPM_OPT_GEN: gen too). */
static const ilpm_opt own[] = {
    {.name = "count",
     .type = ILPM_OPT_FLAG,
     .verbs = V_SOLVE | V_COMPARE | V_BATCH,
     .offset = OFF(run.count),
     .help = "count all solutions (projected onto the puzzle's own "
             "variables; an objective is left aside)"},
    {.name = "limit",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = INT64_MAX,
     .verbs = V_SOLVE | V_COMPARE | V_BATCH,
     .offset = OFF(run.limit),
     .help = "with --count, stop at N solutions (--limit 2 tells whether a "
             "puzzle is proper)"},
    {.name = "format",
     .arg = "text|json|csv",
     .type = ILPM_OPT_CHOICE,
     .choices = format_names,
     .verbs = V_RUN | V_STATS,
     .offset = OFF(format),
     .help = "output: text for people, JSON lines or CSV for tools "
             "(batch: csv or json; stats csv: a row per constraint group; "
             "solve model: also dimacs, the SAT competition's s/v lines)"},
    {.name = "index",
     .arg = "I",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = LONG_MAX,
     .verbs = V_MODEL,
     .offset = OFF(index),
     .help = "only the I-th instance of each FILE (1-based)"},
    {.name = "no-propagate",
     .type = ILPM_OPT_FLAG,
     .verbs = V_MODEL,
     .help = "the same as --propagate none"},
    {.name = "plot",
     .arg = "FILE.svg|FILE.png",
     .type = ILPM_OPT_TEXT,
     .flags = OPT_OUTPUT,
     .verbs = V_COMPARE,
     .offset = OFF(plot_path),
     .help = "cactus plot and ILP-vs-SAT scatter (gnuplot; a file, not "
             "'-')"},
    {.name = "summary",
     .type = ILPM_OPT_FLAG,
     .verbs = V_COMPARE,
     .offset = OFF(summary),
     .help = "only the totals per formulation and back end (text output "
             "ends with them anyway after two or more instances)"},
    {.name = "out",
     .arg = "FILE",
     .type = ILPM_OPT_TEXT,
     .flags = OPT_SCRIPT | OPT_OUTPUT,
     .verbs = V_BATCH | V_MERGE | V_GEN,
     .offset = OFF(out_path),
     .help = "the file to write, '-' for standard output: results (batch, "
             "merge: .json or .jsonl for JSON lines, else CSV) or instances "
             "(gen)"},
    {.name = "jobs",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 1024,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(jobs),
     .help = "worker processes (default: the number of cores)"},
    {.name = "threads",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 64,
     .verbs = V_SOLVE | V_BATCH,
     .offset = OFF(run.threads),
     .help = "with --backend auto: the members run at once (default: the "
             "number of cores; batch: 1 per worker; 1: ilp alone)"},
    {.name = "seed",
     .arg = "S",
     .type = ILPM_OPT_INT,
     .lo = 0,
     .hi = 1000000000000000, /* as fzn's -r takes it */
     .verbs = V_SOLVE,
     .offset = OFF(run.seed),
     .help = "with --backend auto: the seed of the members that take one "
             "(CaDiCaL's seed option)"},
    {.name = "memory-limit",
     .arg = "MB",
     .type = ILPM_OPT_REAL,
     .lo = 16,
     .hi = 1000000000,
     .unit = "megabytes",
     .verbs = V_MODEL | V_GEN,
     .offset = OFF(memory_limit),
     .help = "address-space limit of the process (batch: of each worker); "
             "reaching it ends the run with a message, exit 2"},
    {.name = "resume",
     .type = ILPM_OPT_FLAG,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(resume),
     .help = "skip runs already in RESULTS (not 'stopped' ones, nor those "
             "whose worker was killed from outside)"},
    {.name = "force",
     .type = ILPM_OPT_FLAG,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(force),
     .help = "replace the results file --out names if there is one (without "
             "it or --resume, batch refuses to)"},
    {.name = "shard",
     .arg = "I/N",
     .type = ILPM_OPT_TEXT,
     .verbs = V_BATCH,
     .help = "only instances I, I+N, I+2N, ... (0 <= I < N, counted over "
             "all files in order)"},
    {.name = "slurm",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 100000,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(slurm_n),
     .help = "write a Slurm job array of N shard tasks and its merge step "
             "instead of running here"},
    {.name = "submit",
     .type = ILPM_OPT_FLAG,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(submit),
     .help = "with --slurm: submit with sbatch and print the job ids"},
    {.name = "slurm-script",
     .arg = "FILE",
     .type = ILPM_OPT_TEXT,
     .flags = OPT_SCRIPT | OPT_OUTPUT,
     .verbs = V_BATCH,
     .offset = OFF(slurm_script),
     .help = "with --slurm: write the script to FILE (default: standard "
             "output, or RESULTS.shards/submit.sh with --submit)"},
    {.name = "partition",
     .arg = "NAME",
     .type = ILPM_OPT_TEXT,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(partition),
     .help = "with --slurm: the tasks' partition"},
    {.name = "account",
     .arg = "NAME",
     .type = ILPM_OPT_TEXT,
     .flags = OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(account),
     .help = "with --slurm: the account charged"},
    {.name = "sbatch",
     .arg = "OPTION",
     .type = ILPM_OPT_TEXT,
     .flags = ILPM_OPT_REPEAT | OPT_SCRIPT,
     .verbs = V_BATCH,
     .offset = OFF(sbatch),
     .help = "with --slurm: one more #SBATCH line, as '--qos=short'"},
    {.name = "no-incremental",
     .type = ILPM_OPT_FLAG,
     .verbs = V_BATCH,
     .offset = OFF(no_incremental),
     .help = "build a model per instance even where instances of one shape "
             "could share one"},
    {.name = NULL},
};

static const special specials[] = {
    {"backend", V_SOLVE | V_PLAY | V_BATCH | V_GEN, NULL, set_backend,
     "; in batch also a set: both = ilp and sat, all = every one (gen: for "
     "the solver calls a generator makes, default sat; auto is sat there, "
     "each call being one solve)"},
    {"no-propagate", 0, NULL, set_no_propagate, NULL},
    {"shard", 0, NULL, set_shard, NULL},
    {"partition", 0, one_line, NULL, NULL},
    {"account", 0, one_line, NULL, NULL},
    {"sbatch", 0, one_line, NULL, NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static const special *special_of(const char *name)
{
    for (const special *s = specials; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

/* Where a row's value goes: the command line's own fields, the solver's
 * options, or the puzzle's parameters (kept as text). */
typedef enum home { OWN, SOLVER, PUZZLE } home;

typedef struct found {
    const ilpm_opt *row;
    home where;
    const special *sp;
    unsigned verbs;
    int backend; /* a back end's own row: that back end; else -1 */
} found;

static found found_of(const ilpm_opt *r, home where)
{
    found f = {r, where, special_of(r->name), r->verbs, -1};
    if (where == SOLVER)
        f.verbs = ((r->flags & ILPM_OPT_LOWER) ? V_MODEL : V_RUN) |
                  ((r->flags & ILPM_OPT_GEN) ? V_GEN : 0);
    if (f.sp && f.sp->verbs)
        f.verbs = f.sp->verbs;
    return f;
}

/* export's outputs: a row per format the table of formats writes (--lp
 * FILE), its path in export_path[] at the format's place in the table;
 * made from the table once. */
static ilpm_opt export_rows[ILPM_MAX_FORMATS + 1];

static const ilpm_opt *export_opts(void)
{
    static int made;
    int n = 0;
    for (int i = 0; !made && ilpm_file_formats[i] && i < ILPM_MAX_FORMATS; i++)
        if (ilpm_file_formats[i]->write)
            export_rows[n++] = (ilpm_opt){
                .name = ilpm_file_formats[i]->name,
                .arg = "FILE",
                .type = ILPM_OPT_TEXT,
                .flags = OPT_OUTPUT,
                .verbs = V_EXPORT,
                .offset = OFF(export_path[i]),
                .help = ilpm_file_formats[i]->help,
            };
    made = 1;
    return export_rows;
}

/* The i-th row of the command line's table, the formats', the shared
 * solver options' and each back end's own (backend->opts), in that
 * order: 1, or 0 past the last. */
static int row_at(int i, found *f)
{
    int n = (int)(sizeof own / sizeof *own) - 1;
    if (i < 0)
        return 0;
    if (i < n) {
        *f = found_of(&own[i], OWN);
        return 1;
    }
    i -= n;
    for (int k = 0; export_opts()[k].name; k++)
        if (i-- == 0) {
            *f = found_of(&export_opts()[k], OWN);
            return 1;
        }
    for (int b = -1; b < ilpm_backend_count(); b++) {
        const ilpm_opt *t =
            b < 0 ? ilpm_options_table() : ilpm_backend_options(b);
        for (int k = 0; t && t[k].name; k++)
            if (i-- == 0) {
                *f = found_of(&t[k], SOLVER);
                f->backend = b;
                return 1;
            }
    }
    return 0;
}

const ilpm_opt *ilpm_cli_puzzle_rows(const cli *c)
{
    return !c->pz ? NULL : c->verb == VERB_GEN ? c->pz->gen_opts : c->pz->opts;
}

/* The row named name as c's verb sees it: for gen, the command line's
 * rows that go with gen (--out, --time-limit, --backend), then the
 * generator's (its --count is a number of instances); for the others,
 * the command line's, then the puzzle's.  0 for none. */
static int find_row(const cli *c, const char *name, found *f)
{
    for (int i = 0; row_at(i, f); i++)
        if (strcmp(f->row->name, name) == 0 &&
            (c->verb != VERB_GEN || (f->verbs & V_GEN)))
            return 1;
    const ilpm_opt *r = ilpm_opt_find(ilpm_cli_puzzle_rows(c), name);
    if (r)
        *f = found_of(r, PUZZLE);
    return r != NULL;
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

const char *ilpm_cli_verb_closest(const char *s)
{
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < VERB_ALL; i++) {
        const char *v = ilpm_cli_verbs[i].name;
        if (distance(s, v) < bd)
            bd = distance(s, v), best = v;
    }
    return best;
}

/* The closest known option to a misspelt one, or NULL. */
static const char *closest(const cli *c, const char *name)
{
    const char *best = NULL;
    int bd = 3;
    found f;
    for (int i = 0; row_at(i, &f); i++)
        if ((f.verbs & (1u << c->verb)) && distance(name, f.row->name) < bd)
            bd = distance(name, f.row->name), best = f.row->name;
    for (const ilpm_opt *t = ilpm_cli_puzzle_rows(c); t && t->name; t++)
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
                                  ilpm_cli_verbs[v].name);
}

#define FAIL(...) return ilpm_err_input(err, __VA_ARGS__)

/* The option an option sets: its own name, but for an alias. */
static const char *key_of(const char *name)
{
    return strcmp(name, "no-propagate") == 0 ? "propagate" : name;
}

const ilpm_opt *ilpm_cli_opt_find(const char *name)
{
    return ilpm_cli_opt_owner(name, NULL);
}

const ilpm_opt *ilpm_cli_opt_owner(const char *name, int *backend)
{
    found f;
    for (int i = 0; row_at(i, &f); i++)
        if (strcmp(f.row->name, name) == 0) {
            if (backend)
                *backend = f.backend;
            return f.row;
        }
    return NULL;
}

int ilpm_cli_files(const cli *c, unsigned flag, const ilpm_opt **rows,
                   const char **paths, int max)
{
    int n = 0;
    found f;
    for (int i = 0; row_at(i, &f) && n < max; i++) {
        const ilpm_opt *r = f.row;
        const char *p =
            f.where == OWN && (r->flags & flag)
                ? *(const char *const *)((const char *)c + r->offset)
                : NULL;
        if (p)
            rows[n] = r, paths[n++] = p;
    }
    return n;
}

int ilpm_cli_given(const cli *c, const char *name)
{
    for (int k = 0; k < c->argc; k++)
        if (c->argv_opt[k] && strcmp(c->argv_opt[k], name) == 0)
            return 1;
    return 0;
}

/* A text the parser made (a list joined), kept until the run ends. */
static const char *keep(cli *c, char *s)
{
    char **owned =
        s ? realloc(c->owned, (size_t)(c->nowned + 1) * sizeof *owned) : NULL;
    if (!owned) {
        free(s);
        return NULL;
    }
    c->owned = owned;
    return c->owned[c->nowned++] = s;
}

/* A puzzle's option, kept as text for the puzzle (its value is checked
 * against its row with the others, by ilpm_puzzle_check_params). */
static int set_param(cli *c, const ilpm_opt *r, const char *val, ilpm_err *err)
{
    const char *old = ilpm_params_get(c->params, r->name);
    if (old && !(r->flags & ILPM_OPT_REPEAT))
        FAIL("--%s given twice", r->name);
    char *joined = old && val ? ilpm_opt_join(r, old, val) : NULL;
    if (old && val && !joined)
        return ilpm_err_nomem(err, "out of memory");
    int rc = ilpm_params_set(c->params, r->name, joined ? joined : val);
    free(joined);
    return rc != 0 ? ilpm_err_nomem(err, "out of memory") : 0;
}

/* One option: --name or --name=value, with its value from argv if it
 * takes one.  *i stands on the option and is moved past its value. */
static int parse_opt(cli *c, int argc, char **argv, int *i, ilpm_err *err)
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

    found f;
    if (!find_row(c, name, &f)) {
        const char *near = closest(c, name);
        if (near)
            FAIL("unknown option '--%s'; did you mean '--%s'?", name, near);
        if (c->pz && !c->fzn)
            FAIL("unknown option '--%s' for %s %s (see 'ilpm %s %s --help')",
                 name, c->verb_name, c->pz->name, c->verb_name, c->pz->name);
        FAIL("unknown option '--%s' (see 'ilpm %s --help')", name,
             c->verb_name);
    }
    const ilpm_opt *r = f.row;
    if (f.where != PUZZLE && !(f.verbs & (1u << c->verb))) {
        char where[128];
        verbs_of(f.verbs, where, sizeof where);
        FAIL("--%s does not go with %s (it is for %s)", name, c->verb_name,
             where);
    }
    int takes = r->type != ILPM_OPT_FLAG;
    if (!takes && val)
        FAIL("option --%s takes no value", name);
    if (takes && !val) {
        if (*i + 1 >= argc)
            FAIL("option --%s needs a value", name);
        val = argv[++*i];
    }
    if (f.where == PUZZLE)
        return set_param(c, r, val, err);
    /* One value an option, as getopt-based parsers of the field would
     * not say but the anchors' do: a second one is a mistake, not an
     * override (--no-propagate is --propagate none); a list or a
     * repeatable option adds to what it holds. */
    int more = (r->flags & (ILPM_OPT_LIST | ILPM_OPT_REPEAT)) != 0;
    for (int k = 0; k < start && !more; k++)
        if (c->argv_opt[k] && strcmp(key_of(c->argv_opt[k]), key_of(name)) == 0)
            FAIL("--%s given twice%s", key_of(name),
                 strcmp(c->argv_opt[k], name) != 0
                     ? " (--no-propagate is --propagate none)"
                     : "");
    void *base = f.where != SOLVER ? (void *)c
                 : f.backend >= 0 ? ilpm_backend_area(&c->run.solver, f.backend)
                                  : (void *)&c->run.solver;
    if (f.sp && f.sp->check && f.sp->check(c, r, val, err) != 0)
        return -1;
    const char *old =
        more ? *(const char *const *)((const char *)base + r->offset) : NULL;
    if (old && !(val = keep(c, ilpm_opt_join(r, old, val))))
        return ilpm_err_nomem(err, "out of memory");
    if (f.sp && f.sp->set ? f.sp->set(c, r, val, err)
                          : ilpm_opt_set(r, base, val, err))
        return -1;
    for (int k = start; k <= *i; k++)
        c->argv_opt[k] = r->name;
    return 0;
}

#undef FAIL
#define FAIL(...)                                                              \
    do {                                                                       \
        ilpm_err_input(err, __VA_ARGS__);                                      \
        return -1;                                                             \
    } while (0)

/* The puzzle argv[i] names, which the verb must take: 0, or -1 after
 * one message naming the puzzles there are (or the verb takes). */
static int take_puzzle(cli *c, const char *name, ilpm_err *err)
{
    char names[sizeof err->msg];
    c->pz = ilpm_puzzle_find(name);
    if (!c->pz) {
        ilpm_cli_puzzle_names(VERB_SOLVE, " ", names, sizeof names);
        FAIL("unknown puzzle '%.100s'; the puzzles are %s", name, names);
    }
    /* What the puzzle cannot do is said before its options. */
    if (!ilpm_cli_verb_takes(c->verb, c->pz)) {
        ilpm_cli_puzzle_names(c->verb, ", ", names, sizeof names);
        FAIL("%s %s (ilpm %s takes %s)", c->pz->name,
             ilpm_cli_verbs[c->verb].lacks, c->verb_name, names);
    }
    return 0;
}

int ilpm_cli_parse(cli *c, int argc, char **argv, ilpm_err *err)
{
    int i = 2;
    /* fzn runs as solve model; its messages name the verb typed. */
    c->verb_name = c->fzn ? "fzn" : ilpm_cli_verbs[c->verb].name;
    if (i < argc && argv[i][0] != '-' && c->verb != VERB_MERGE) {
        if (take_puzzle(c, argv[i], err) != 0)
            return -1;
        i++;
    }
    c->files = calloc((size_t)argc, sizeof *c->files);
    c->argv_opt = calloc((size_t)argc, sizeof *c->argv_opt);
    if (!c->files || !c->argv_opt)
        return ilpm_err_nomem(err, "out of memory");
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
        } else if (parse_opt(c, argc, argv, &i, err) != 0) {
            return -1;
        }
    }
    if (c->help)
        return 0;
    /* gmpl MODEL.mod D1.dat D2.dat: the first FILE is the model. */
    if (c->pz && c->pz->lead_opt && c->nfiles > 1 &&
        !ilpm_params_has(c->params, c->pz->lead_opt)) {
        if (ilpm_params_set(c->params, c->pz->lead_opt, c->files[0]) != 0)
            return ilpm_err_nomem(err, "out of memory");
        memmove(c->files, c->files + 1, (size_t)--c->nfiles * sizeof *c->files);
    }
    if (c->verb == VERB_PLAY &&
        ilpm_params_set(c->params, ILPM_PARAM_PLAY, NULL) != 0)
        return ilpm_err_nomem(err, "out of memory");
    if (c->format == FMT_DIMACS &&
        ilpm_params_set(c->params, ILPM_PARAM_DIMACS, NULL) != 0)
        return ilpm_err_nomem(err, "out of memory");
    return ilpm_cli_check(c, err);
}

int ilpm_cli_option_row(int i, cli_row *out)
{
    found f;
    if (!row_at(i, &f))
        return 0;
    out->row = f.row;
    out->verbs = f.verbs;
    ilpm_cli_opt_help(f.row, f.sp ? f.sp->more : NULL, out->help,
                      sizeof out->help);
    return 1;
}
