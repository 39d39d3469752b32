/* cli.h: what the command line's files share: the verbs, the exit
 * statuses, and the options of one invocation as the parser (args.c)
 * fills them from its table. */
#ifndef ILPM_CLI_H
#define ILPM_CLI_H

#include "format.h"
#include "run.h"

#include <stdio.h>

enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1,
    EXIT_USAGE = 2,
    EXIT_TIMEOUT = 3,
    EXIT_UNSAT = 10,
    EXIT_SIGNAL = 130
};
/* Under --format dimacs, the SAT competition's answers (30: the PB and
 * MaxSAT evaluations' OPTIMUM FOUND); errors and interruptions keep
 * ilpm's codes. */
enum {
    EXIT_DIMACS_UNKNOWN = 0,
    EXIT_DIMACS_SAT = 10,
    EXIT_DIMACS_UNSAT = 20,
    EXIT_DIMACS_OPTIMUM = 30
};

typedef enum verb_id {
    VERB_SOLVE,
    VERB_PLAY,
    VERB_STATS,
    VERB_EXPORT,
    VERB_GEN,
    VERB_COMPARE,
    VERB_BATCH,
    VERB_MERGE,
    VERB_COUNT, /* the verbs the parser takes; main.c runs these itself: */
    VERB_FZN = VERB_COUNT, /* turned into solve model (ilpm_cli_fzn_args) */
    VERB_LIST,
    VERB_HELP,
    VERB_ALL
} verb_id;

/* A verb's row (verbs.c): its name, what the usage shows (synopsis NULL:
 * not shown), and the puzzles it takes (takes NULL: every one; else a
 * puzzle it refuses "lacks" it). */
typedef struct cli_verb {
    const char *name;
    const char *synopsis; /* after the name */
    const char *line;     /* what it does; '\n' breaks the line */
    int (*takes)(const ilpm_puzzle *pz);
    const char *lacks; /* "has no generator" */
} cli_verb;
extern const cli_verb ilpm_cli_verbs[VERB_ALL];
/* Whether verb (a verb_id) takes the puzzle. */
int ilpm_cli_verb_takes(int verb, const ilpm_puzzle *pz);
/* The names of the puzzles verb takes, joined by sep, into buf; its
 * length. */
size_t ilpm_cli_puzzle_names(int verb, const char *sep, char *buf, size_t size);
/* The names of the verbs the usage shows, joined by sep; its length. */
size_t ilpm_cli_verb_names(const char *sep, char *buf, size_t size);

/* Verb masks for the options table. */
#define V_SOLVE (1u << VERB_SOLVE)
#define V_PLAY (1u << VERB_PLAY)
#define V_STATS (1u << VERB_STATS)
#define V_EXPORT (1u << VERB_EXPORT)
#define V_GEN (1u << VERB_GEN)
#define V_COMPARE (1u << VERB_COMPARE)
#define V_BATCH (1u << VERB_BATCH)
#define V_MERGE (1u << VERB_MERGE)
/* The verbs that solve, and those that build a model. */
#define V_RUN (V_SOLVE | V_PLAY | V_COMPARE | V_BATCH)
#define V_MODEL (V_RUN | V_STATS | V_EXPORT)

/* FMT_DIMACS: the SAT competition's s, o and v lines (solve model). */
typedef enum out_format { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_DIMACS } out_format;

/* fzn's standard flags (ilpm_cmd_fzn.c): -a, -n N, -s. */
typedef struct cli_fzn {
    int all, stats;
    int intermediate; /* -i: every improving solution of an optimisation */
    int64_t num;
    int64_t parallel; /* -p N: N > 1 runs --backend auto on N threads */
} cli_fzn;

/* Filled by the parser from the rows of the options (args.c): an int
 * for a flag or a choice, int64_t for an integer, double for a real,
 * const char * for a text. */
typedef struct cli cli;
typedef int (*instance_fn)(cli *c, const void *inst, const char *file,
                           long index, void *ctx);

struct cli {
    verb_id verb;
    const char *verb_name;
    const ilpm_puzzle *pz;
    ilpm_run_opts run;
    out_format format;
    int64_t index; /* --index, 0 for every instance */
    /* export's outputs, by the format's place in ilpm_file_formats */
    const char *export_path[ILPM_MAX_FORMATS];
    const char *out_path;  /* batch, merge and gen --out */
    const char *plot_path; /* compare --plot */
    int summary;           /* compare --summary */
    /* batch */
    unsigned backends; /* a set (both, all): ILPM_BACKEND_BIT each; 0: one */
    int64_t jobs;
    double memory_limit;
    int resume;
    int force; /* replace a results file --out names */
    long shard_i, shard_n;
    int no_incremental;
    /* batch --slurm (slurm.c) */
    int64_t slurm_n; /* 0: run here */
    int submit;
    const char *slurm_script, *partition, *account;
    const char *sbatch; /* #SBATCH lines, joined by ILPM_OPT_SEP; or NULL */
    /* The command line as given, and for each word the option it belongs
     * to (its name; NULL for the verb, puzzle and FILEs): what a Slurm
     * task runs again. */
    int argc;
    char **argv;
    const char **argv_opt;
    const char **files;
    int nfiles;
    ilpm_params *params; /* the puzzle's options */
    char **owned;        /* texts the parser made (joined lists), freed */
    int nowned;          /* with the rest in main */
    int help;
    instance_fn unread; /* see ilpm_cli_for_each_instance; NULL: a message */
    const ilpm_err *unread_err; /* during unread: the instance's parse
                                   error; NULL: its time limit */
    const cli_fzn *fzn; /* the fzn verb: solve model, FlatZinc's output */
};

/* Set by SIGINT and SIGTERM (main.c); every verb and the solvers poll
 * it. */
extern volatile int cli_stop_requested;
/* The first reason a write to standard output failed; 0 while none has. */
extern int ilpm_cli_stdout_errno;

/* The exit status of a run of many instances: the most severe so far. */
typedef struct tally {
    int worst;
    long instances;
} tally;

/* Notes an outcome's exit status: internal error > usage or input error
 * > signal > time limit > unsatisfiable > success (exit.c). */
void ilpm_cli_note_exit(tally *t, int code);
/* The exit status of one result (exit.c): ilpm's, or under FMT_DIMACS
 * the competitions' answer codes (EXIT_DIMACS_*) where there is one. */
int ilpm_cli_exit_code(const ilpm_result *r, out_format f);
/* Of two EXIT_DIMACS_* answers (a may be -1: none yet), the one that
 * stands for several: UNKNOWN before UNSATISFIABLE before SATISFIABLE
 * before OPTIMUM FOUND. */
int ilpm_cli_dimacs_worse(int a, int b);
struct ilpm_batch_summary;
/* The exit status of a batch from its summary (the new rows and those
 * --resume kept), interrupted or not. */
int ilpm_cli_batch_exit(const struct ilpm_batch_summary *s, int interrupted);

/* The exit status of a failure by its kind: 2 for the input's or a
 * limit's, 1 for out of memory or ilpm's own; 3 or 130 when a time limit
 * or a stop cut the work short.  Out of memory under --memory-limit is
 * that limit's: 2 (exit.c). */
int ilpm_cli_err_exit(const cli *c, const ilpm_err *e);
/* The exit status of a command line that did not parse: 2, or 1 when
 * memory ran out. */
int ilpm_cli_args_exit(const ilpm_err *e);
/* What a message of that kind adds: under --memory-limit, out of memory
 * names the limit; else "". */
const char *ilpm_cli_err_note(const cli *c, ilpm_rc kind);
/* Writes s to standard output and pushes it out: 0 if everything written
 * there so far arrived, else -1 (main reports the reason). */
int ilpm_cli_put_stdout(const char *s);
/* ilpm_cli_put_stdout of what make writes into a buffer (a CSV header). */
int ilpm_cli_put_made(void (*make)(ilpm_buf *b));

/* Calls fn for the instance the parameters give, or for every instance
 * of every FILE in order (--index: the one picked); malformed instances
 * and unreadable files are reported and noted in t. */
/* When the time limit cuts the reading of an instance short, the walk
 * ends with a message (exit 3), or, for a verb that set c->unread, calls
 * it with inst NULL (solve reports it as the instance's timeout).  An
 * instance whose text does not parse goes to c->unread too, with
 * c->unread_err its error (solve's error record), else to a message. */
int ilpm_cli_for_each_instance(cli *c, tally *t, instance_fn fn, void *ctx);
/* The instance's model under c's options, or NULL after a message. */
ilpm_model *ilpm_cli_build_model(cli *c, const void *inst, tally *t);

/* The verbs, one file each or per family (cmd_*.c). */
int ilpm_cmd_solve(cli *c); /* solve and play */
int ilpm_cmd_stats(cli *c);
int ilpm_cmd_export(cli *c);
int ilpm_cmd_compare(cli *c);
int ilpm_cmd_batch(cli *c);
int ilpm_cmd_merge(cli *c);
/* Whether batch writes JSON lines to --out (--format, else its name). */
int ilpm_cli_batch_writes_json(const cli *c);
/* batch --slurm: writes (and with --submit submits) the job array. */
int ilpm_cmd_slurm(cli *c);
int ilpm_cmd_gen(cli *c);
int ilpm_cmd_list(void);
/* fzn: its standard flags out of argv[2..], turned into ilpm's options
 * in a new argv ("solve model ... --input-format fzn"); 0, or -1 with
 * err.  ilpm_cmd_fzn then solves and prints FlatZinc's output format. */
int ilpm_cli_fzn_args(int argc, char **argv, cli_fzn *fz, int *nargc,
                      char ***nargv, ilpm_err *err);
int ilpm_cmd_fzn(cli *c);
void ilpm_cli_fzn_help(FILE *f);

/* The verb named s (a verb_id, VERB_FZN and after included), or -1. */
int ilpm_cli_verb_find(const char *s);
/* The verb closest to a misspelt s, or NULL. */
const char *ilpm_cli_verb_closest(const char *s);
/* Parses argv[2..] into c (c->verb set, c->params made): every option by
 * its row, then the checks that tie options together, all before any
 * instance is read.  0, or -1 with err holding one message (rc
 * ILPM_E_NOMEM when out of memory, else ILPM_E_INPUT). */
int ilpm_cli_parse(cli *c, int argc, char **argv, ilpm_err *err);
/* A row of the command line's options (its own, then the solver's), as
 * help shows it: the verbs it goes with (V_*), its help with what the
 * command line adds, the range and the default (ilpm_cli_opt_help). */
typedef struct cli_row {
    const ilpm_opt *row;
    unsigned verbs;
    char help[640];
} cli_row;
/* Fills r with the i-th row: 1, or 0 past the last. */
int ilpm_cli_option_row(int i, cli_row *r);
/* A row's help as --help prints it (help.c): its help, more (or NULL),
 * "(repeatable)" for a list, then "(LO to HI, default D)" as its type
 * and default have them. */
void ilpm_cli_opt_help(const ilpm_opt *row, const char *more, char *buf,
                       size_t size);
/* The row of the command line's or the solver's option named name, or
 * NULL (a puzzle's). */
const ilpm_opt *ilpm_cli_opt_find(const char *name);
/* The same, and in *backend (if not NULL) the back end whose own row it
 * is, or -1 for the command line's or a shared one. */
const ilpm_opt *ilpm_cli_opt_owner(const char *name, int *backend);
/* A flag of the command line's own rows: the option is batch --slurm's
 * script's own, not given again to its tasks (slurm.c). */
#define OPT_SCRIPT (1u << 16)
/* Another: the option names a file the run writes (outputs.c). */
#define OPT_OUTPUT (1u << 17)
/* The files the command line's own options flagged flag (OPT_OUTPUT,
 * ILPM_OPT_INPUT) name, at most max: their rows and paths, in the rows'
 * order; the number of them. */
int ilpm_cli_files(const cli *c, unsigned flag, const ilpm_opt **rows,
                   const char **paths, int max);
/* The puzzle's table c's verb reads (the generator's for gen), or NULL
 * before a puzzle. */
const ilpm_opt *ilpm_cli_puzzle_rows(const cli *c);
/* Every file the run reads, from one place: the FILEs, then the value of
 * each option flagged ILPM_OPT_INPUT (the command line's and the
 * puzzle's; each value of a repeated one).  "-" stands for standard
 * input.  *n set to their number; free() the array (one block) after
 * use; NULL when out of memory. */
const char **ilpm_cli_inputs(const cli *c, int *n);
/* Whether the option named name was given (and not through an alias). */
int ilpm_cli_given(const cli *c, const char *name);
/* The checks that tie the parsed options together (checks.c): 0, or -1
 * with err holding one message. */
int ilpm_cli_check(cli *c, ilpm_err *err);
/* Every output an option names is writable where it is, is none of the
 * inputs, and (batch, merge --out) replaces no file that is not a
 * results file (outputs.c).  0, or -1 after one message on stderr. */
int ilpm_cli_check_outputs(const cli *c);
/* --help of a verb (and puzzle, if c->pz). */
void ilpm_cli_help(FILE *f, const cli *c);
/* list --help. */
void ilpm_cli_list_help(FILE *f);
/* The top-level usage. */
void ilpm_cli_usage(FILE *f);

#endif
