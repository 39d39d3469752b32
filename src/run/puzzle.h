/* puzzle.h: the one descriptor each puzzle in models/ exposes.
 *
 * The run layer and the command line know puzzles only through this
 * table: parse an instance, build its model, decode 0/1 values into the
 * puzzle's own solution, verify that solution by the puzzle's rules (never
 * by reading the model), and render it for people (text) and tools (JSON).
 */
#ifndef ILPM_PUZZLE_H
#define ILPM_PUZZLE_H

#include "ilpm_int.h"
#include "util.h"

/* What a puzzle offers beyond solving (ilpm_puzzle.caps). */
#define ILPM_CAP_PLAY 1u /* `play`: the model has an objective to optimise */
/* `solve --format dimacs`: the puzzle prints its solution as v lines
 * when ILPM_PARAM_DIMACS is set */
#define ILPM_CAP_DIMACS 2u

/* The parameter that asks a puzzle with ILPM_CAP_PLAY for a play rather
 * than a plain solve; the command line sets it, without a value, for
 * `ilpm play` alone.  No puzzle option may take this name. */
#define ILPM_PARAM_PLAY "play"
/* Set, without a value, by `solve --format dimacs`: a puzzle that can
 * print its solution as the SAT competition's v lines does so in its
 * text rendering (the `model` puzzle). */
#define ILPM_PARAM_DIMACS "format-dimacs"

/* A puzzle option that means something to one formulation only
 * (ilpm_puzzle.form_opts). */
typedef struct ilpm_form_opt {
    const char *option;      /* "strong", without "--"                 */
    const char *formulation; /* the one it applies to: "planes"         */
    /* Without --formulation, the option chooses its formulation (which
     * is then the one reported); else it is refused unless the default
     * is its formulation. */
    int implies;
} ilpm_form_opt;

/* What a generator that solves (to prove a board unsolvable) is given:
 * the solver's options (back end; time_limit over the whole generation,
 * <= 0 for the generator's own budget; the stop flag), and a hook that
 * names the step under way ("try 3 of 100") for a progress line (NULL:
 * none).  A generator given NULL uses its defaults: no stop flag, no
 * progress, its own time budget and back end. */
typedef struct ilpm_gen_opts {
    ilpm_options solver;
    void (*step)(void *ctx, const char *what);
    void *step_ctx;
} ilpm_gen_opts;

typedef struct ilpm_puzzle {
    const char *name;
    const char *summary;
    unsigned caps; /* ILPM_CAP_* */
    /* Puzzle options (ilpm_opt rows, ilpm.h), ended by a row with name
     * NULL; read by ilpm_params_int and _choice (util.h).  Their
     * values are checked against these rows once, before any instance
     * (ilpm_puzzle_check_params), so that parse and build may take them
     * as sound. */
    const ilpm_opt *opts;
    /* Text for --help: input format(s), in a few lines. */
    const char *input_help;
    /* For `ilpm solve NAME --help`: examples, each the words after
     * "ilpm solve NAME", running as shown from the source folder (a
     * comment "# exit N" when the status is not 0: tests/help_commands.sh
     * runs them); ended by NULL. */
    const char *const *examples;
    /* Values of the puzzle's --formulation option, default first, ended
     * by NULL; NULL when the puzzle has a single formulation.  `compare`
     * runs each one. */
    const char *const *formulations;
    /* Options of one formulation, ended by option NULL; NULL: none.
     * ilpm_puzzle_check_params refuses them with another formulation. */
    const ilpm_form_opt *form_opts;

    /* An instance from parameters alone (queens --n 8).  Returns 1 and
     * sets *inst, 0 when the parameters describe no instance (a file is
     * needed), -1 on a bad parameter.  NULL: always needs a file. */
    int (*from_params)(const ilpm_params *p, void **inst, ilpm_err *err);
    /* The next instance of a file.  Returns 1 and sets *inst, 0 at the
     * end of input, -1 on a malformed instance with err holding
     * "file:line:col: message"; after -1 the reader stands past the bad
     * instance so that a batch can go on with the next. */
    int (*parse)(ilpm_reader *rd, const ilpm_params *p, void **inst,
                 ilpm_err *err);
    void (*free_instance)(void *inst);
    /* A short label for results and headings ("n=8", "L(2,4)"). */
    void (*describe)(const void *inst, char *buf, size_t size);

    /* Builds the model.  Puzzle options (formulation, --redundant ...)
     * come from p, and ILPM_PARAM_PLAY when a play is asked for.  A model
     * with an objective is optimised by the run layer. */
    int (*build)(const void *inst, const ilpm_params *p, ilpm_model *m,
                 ilpm_err *err);
    /* 0/1 values vals[1..nvars] -> the puzzle's own solution, or NULL
     * with err set. */
    void *(*decode)(const void *inst, const ilpm_params *p, const ilpm_model *m,
                    const uint8_t *vals, ilpm_err *err);
    /* Checks the solution against the puzzle's rules and the instance:
     * 0 if valid, else -1 with the broken rule in why.  Shares no code
     * with build. */
    int (*verify)(const void *inst, const ilpm_params *p, const void *sol,
                  ilpm_err *why);
    /* Text for people, ending with a newline. */
    void (*render)(const void *inst, const void *sol, ilpm_buf *out);
    /* One JSON value (object, array or string) for tools. */
    void (*render_json)(const void *inst, const void *sol, ilpm_buf *out);
    void (*free_solution)(void *sol);
    /* Optional: the optimum in the puzzle's words ("lays 3 of 6 cards"),
     * shown in the result line instead of "objective N"; leaving buf
     * empty keeps "objective N". */
    void (*describe_objective)(const void *inst, const ilpm_params *p,
                               int64_t objective, char *buf, size_t size);
    /* Optional: the power of ten the model's objective was multiplied by
     * to make it integer (a file's decimals); outputs divide it back.
     * NULL, or 1: the model's objective is the puzzle's own. */
    int64_t (*objective_scale)(const void *inst, const ilpm_params *p);
    /* Optional: after an unsat answer, one line on why when a simple test
     * finds a reason ("no meld can hold 5H ..."); buf stays empty when it
     * finds none. */
    void (*explain_unsat)(const void *inst, const ilpm_params *p, char *buf,
                          size_t size);

    /* Optional, for incremental batches: instances with the same shape
     * key share one model, built once by build_shape (the model without
     * the instance's givens), and each instance's givens are passed as
     * assumptions (column bounds on GLPK, assumptions on CaDiCaL).
     * givens returns a malloc'd array of literals of that model. */
    int (*shape)(const void *inst, const ilpm_params *p, char *key,
                 size_t size);
    int (*build_shape)(const void *inst, const ilpm_params *p, ilpm_model *m,
                       ilpm_err *err);
    int (*givens)(const void *inst, const ilpm_model *m, int **lits, int *n,
                  ilpm_err *err);

    /* Optional: the name of an option of the puzzle that the first FILE
     * gives when more FILEs follow it and the option is not set (gmpl:
     * "model", the others being its data files, an instance each). */
    const char *lead_opt;

    /* Optional: more members for `stats --format json`, each written as
     * ',"name":value' (the model puzzle's file rows by name and kind). */
    void (*stats_json)(const void *inst, const ilpm_params *p, ilpm_buf *out);

    /* Optional: the costly part of reading an instance, done once before
     * its first build and under the run's limits, so that they cover it
     * (gmpl: GLPK's translation of the model, in a child process that a
     * time limit, a stop or the memory limit ends).  o gives the time
     * deadline (o->deadline), the stop flag, and the log, where
     * warnings about the input go, verbose or not.  *ms: the time it
     * took (the same figure once loaded).  0, or -1 with err (err->rc
     * ILPM_E_TIMEOUT or ILPM_E_INTERRUPTED when cut short).  A build before any
     * load loads without limits. */
    int (*load)(void *inst, const ilpm_params *p, const ilpm_options *o,
                double *ms, ilpm_err *err);
    /* Optional: the input's own statements about its answer, run once,
     * with the solution reported (never while counting): gmpl runs the
     * model's statements after `solve`, and what they print is the text
     * (render is then the fallback when they print nothing).  stop ends
     * the wait.  0, or -1 with err when a statement fails (a MathProg
     * `check`), the text so far in out. */
    int (*post)(const void *inst, const void *sol, volatile int *stop,
                ilpm_buf *out, ilpm_err *err);

    /* Optional: after a count, one line on what it counts over when that
     * is not plain (gmpl: the variables GLPK generated, naming declared
     * ones it left out); buf stays empty otherwise. */
    void (*count_note)(const void *inst, char *buf, size_t size);

    /* Optional: writes random instances in the puzzle's file format
     * (`ilpm gen PUZZLE ...`).  NULL when the puzzle has no generator. */
    int (*generate)(const ilpm_params *p, const struct ilpm_gen_opts *g,
                    ilpm_buf *out, ilpm_err *err);
    /* Optional: options of the generator, ended by name NULL. */
    const ilpm_opt *gen_opts;
} ilpm_puzzle;

/* Every puzzle, ended by NULL.  Defined in models/ (puzzles.c, made from
 * the list of puzzles in models/meson.build): this layer knows puzzles
 * only through it. */
extern const ilpm_puzzle *const ilpm_puzzles[];
const ilpm_puzzle *ilpm_puzzle_find(const char *name);

/* What a command asks of a puzzle, as the checks of its options see it. */
typedef enum ilpm_puzzle_use {
    ILPM_USE_SOLVE,   /* solve or count, stats, export, batch: one
                       * formulation (the first by default)            */
    ILPM_USE_PLAY,    /* play: the play-only options too               */
    ILPM_USE_COMPARE, /* compare: a list of formulations, all by default */
    ILPM_USE_GEN      /* gen: the generator's own table                */
} ilpm_puzzle_use;

/* Checks the puzzle options in p against the puzzle's table for what is
 * asked (use), once before any instance: each value
 * by its row, the options that give an instance (--n) against a FILE
 * (with_files), play-only ones outside ILPM_USE_PLAY, options of one
 * formulation (form_opts) against --formulation (compare: each of its
 * list, all formulations when absent); and sets --formulation where
 * such an option implies it.  The names of options the command line
 * keeps for itself are not looked at.  0, or -1 with err holding one
 * message. */
int ilpm_puzzle_check_params(const ilpm_puzzle *pz, ilpm_puzzle_use use,
                             ilpm_params *p, int with_files, ilpm_err *err);

#endif
