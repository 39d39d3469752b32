/* ilpm.h: the public interface of libilpm.
 *
 * A model is a set of 0/1 variables in named families plus constraints that
 * keep their kind and group.  The same model is solved as an ILP by GLPK or
 * as CNF by CaDiCaL, or exported as LP, MPS, DIMACS or OPB.  Every fallible
 * function returns 0 (or a valid id) on success and fills a caller-owned
 * ilpm_err on failure; nothing here prints or exits.
 *
 * Sections: errors and deadlines; building a model; propagation; reading
 * a model back; options, back ends and solving; export; reading LP and
 * MPS; translating MathProg.  What ilpm's own layers share beyond this
 * lives in ilpm_int.h, which is not installed.
 */
#ifndef ILPM_H
#define ILPM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ILPM_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Errors                                                               */

/* What a failure was, so that a caller can tell the user's part from
 * ilpm's (the command line's exit statuses 2 and 1).  Every place that
 * reports a failure names its kind. */
typedef enum ilpm_err_kind {
    ILPM_ERR_INPUT,   /* the input or a parameter: the user can mend it */
    ILPM_ERR_LIMIT,   /* past a bound the user can raise (--max-vars,   */
                      /* --max-memory, --max-pb-nodes, a time limit)    */
    ILPM_ERR_NOMEM,   /* an allocation failed: the machine's memory (or */
                      /* an address-space limit) ran out, not the input */
    ILPM_ERR_INTERNAL /* ilpm or a solver failed on sound input         */
} ilpm_err_kind;

typedef struct ilpm_err {
    char msg[512];
    /* 0 for a failure; ILPM_TIMEOUT or ILPM_STOPPED (ilpm_status) when
     * the work was cut short by a time limit or a stop flag. */
    int status;
    ilpm_err_kind kind;
} ilpm_err;

/* Formats a message of the given kind into err (if err is not NULL)
 * and returns -1. */
int ilpm_err_fail(ilpm_err *err, ilpm_err_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same, of kind ILPM_ERR_INPUT: the input or a parameter is wrong. */
int ilpm_err_input(ilpm_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same, of kind ILPM_ERR_NOMEM: "out of memory ..." */
int ilpm_err_nomem(ilpm_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Monotonic clock in seconds (for timings and deadlines). */
double ilpm_now(void);

/* A deadline and a stop flag that long work polls: building a model,
 * lowering it to GLPK or CNF, feeding the solver. */
typedef struct ilpm_watch {
    double deadline;    /* ilpm_now() seconds; 0 for none            */
    volatile int *stop; /* non-zero stops the work; NULL for none    */
    unsigned tick;      /* polls since the clock was read            */
    unsigned every;     /* the clock is read every `every` polls:    */
    double read_at;     /* 256, fewer while polls are slow (err.c)   */
    int status;         /* sticky once the work has been cut short   */
} ilpm_watch;

/* A watch over the next `seconds` (<= 0: no deadline) and stop. */
void ilpm_watch_init(ilpm_watch *w, double seconds, volatile int *stop);
/* 0 to go on; else -1 with err naming `what` and err->status set to
 * ILPM_TIMEOUT or ILPM_STOPPED (and so on every later call). */
int ilpm_watch_poll(ilpm_watch *w, const char *what, ilpm_err *err);
/* A watch until deadline (ilpm_now() seconds; <= 0: none), as a driver
 * is given it. */
void ilpm_watch_until(ilpm_watch *w, double deadline, volatile int *stop);
/* Looks at the stop flag and the clock now (ilpm_watch_poll reads the
 * clock at its first call, then every 256th, or more often when 256
 * polls take milliseconds): 0 to go on, else ILPM_STOPPED or
 * ILPM_TIMEOUT, which sticks. */
int ilpm_watch_check(ilpm_watch *w);

/* ------------------------------------------------------------------ */
/* Models                                                               */

typedef struct ilpm_model ilpm_model;

typedef enum ilpm_cmp { ILPM_LE, ILPM_GE, ILPM_EQ } ilpm_cmp;

typedef enum ilpm_kind {
    ILPM_CLAUSE, /* at least one literal true                       */
    ILPM_ALO,    /* at least one: the same as a clause, kept apart  */
    ILPM_AMO,    /* at most one literal true                        */
    ILPM_EXO,    /* exactly one literal true                        */
    ILPM_IMPL,   /* a -> b (b may be negative)                      */
    ILPM_CARD,   /* sum of literals cmp k                           */
    ILPM_CCARD,  /* cond -> (sum of literals cmp k)                 */
    ILPM_LINEAR, /* sum a_i * l_i cmp b, integer a_i                */
    ILPM_KIND_COUNT
} ilpm_kind;

typedef enum ilpm_sense { ILPM_NONE, ILPM_MINIMIZE, ILPM_MAXIMIZE } ilpm_sense;

#define ILPM_MAX_DIMS 4
/* Families flagged ILPM_FAM_AUX are part of the model but not of the
 * puzzle's answer: counting and enumeration project them away. */
#define ILPM_FAM_AUX 1u

ilpm_model *ilpm_model_new(void);
void ilpm_model_free(ilpm_model *m);

/* Declares a family of variables with ndims (1..4) inclusive ranges
 * lo[d]..hi[d].  Returns the family id (>= 0) or -1. */
int ilpm_model_family(ilpm_model *m, const char *name, int ndims, const int *lo,
                      const int *hi, unsigned flags, ilpm_err *err);
/* Family id by name, or -1. */
int ilpm_model_family_find(const ilpm_model *m, const char *name);
/* Variable id (1-based, DIMACS) of a family member, or 0 if an index is
 * out of its range.  Unused trailing indices are ignored. */
int ilpm_model_var(const ilpm_model *m, int fam, int i0, int i1, int i2,
                   int i3);
/* The same, but an out-of-range index is an error naming the family. */
int ilpm_model_var_checked(const ilpm_model *m, int fam, const int *idx,
                           ilpm_err *err);
int ilpm_model_nvars(const ilpm_model *m);
int ilpm_model_nfamilies(const ilpm_model *m);
const char *ilpm_model_family_name(const ilpm_model *m, int fam);
/* The declaration of family fam: dimensions, ranges (lo and hi hold
 * ILPM_MAX_DIMS entries) and flags.  Returns ndims, or -1 for no family. */
int ilpm_model_family_info(const ilpm_model *m, int fam, int *lo, int *hi,
                           unsigned *flags);
/* Writes the name of variable v ("X[1,2,3]") into buf; returns buf. */
const char *ilpm_model_var_name(const ilpm_model *m, int v, char *buf,
                                size_t size);
/* Gives variable v the user's own name (a model file's column), which
 * ilpm_model_var_name then returns and the exports write instead of
 * FAMILY[i,...]; NULL takes it back.  0, or -1 with err. */
int ilpm_model_set_var_name(ilpm_model *m, int v, const char *name,
                            ilpm_err *err);
/* The name ilpm_model_set_var_name gave v, or NULL. */
const char *ilpm_model_var_own_name(const ilpm_model *m, int v);
/* The constraints added from now on carry the user's name (a model
 * file's row; NULL: none), which the LP and MPS exports give their rows
 * ("cap", then "cap.2", ... when one name has several).  0, or -1. */
int ilpm_model_set_con_name(ilpm_model *m, const char *name, ilpm_err *err);
/* 1 if variable v belongs to an ILPM_FAM_AUX family. */
int ilpm_model_var_is_aux(const ilpm_model *m, int v);

/* Bounds on what the model may grow to, checked before memory is
 * committed: max_vars variables (0: no bound) and max_bytes of constraint
 * storage (0: no bound).  Past them, ilpm_model_family and ilpm_add_*
 * fail with a message naming --max-vars or --max-memory. */
void ilpm_model_set_limits(ilpm_model *m, int64_t max_vars, int64_t max_bytes);
/* Cuts building short: once `seconds` (<= 0: never) have passed or *stop
 * is set, every ilpm_add_* fails with err->status ILPM_TIMEOUT or
 * ILPM_STOPPED, and ilpm_model_interrupted says which. */
void ilpm_model_set_deadline(ilpm_model *m, double seconds, volatile int *stop);
int ilpm_model_interrupted(const ilpm_model *m);

/* Subsequent constraints belong to the named group (created on first
 * use).  Returns the group id or -1. */
int ilpm_model_group(ilpm_model *m, const char *name, ilpm_err *err);
int ilpm_model_ngroups(const ilpm_model *m);
const char *ilpm_model_group_name(const ilpm_model *m, int g);
/* Marks group g redundant, as MiniZinc's redundant_constraint does: its
 * constraints follow from the others.  Propagation reasons with them (a
 * redundant row can prove that no solution exists before any search),
 * the checker checks them, and the lowerings and exports leave them out,
 * so that they cost neither rows nor clauses. */
void ilpm_model_set_redundant(ilpm_model *m, int g);
/* Where a group is left out: the linear rows (GLPK, LP, MPS, OPB), the
 * clauses (CaDiCaL, DIMACS), or both (redundant).  A group left out of
 * one lowering only states a rule that the other states its own way: the
 * two need not be the same constraints, only the same solutions. */
enum { ILPM_LOWER_ROWS = 1, ILPM_LOWER_CNF = 2 };
void ilpm_model_set_redundant_in(ilpm_model *m, int g, unsigned lowerings);
/* The lowerings that leave group g out (ILPM_LOWER_* bits); 0 for none. */
unsigned ilpm_model_group_redundant(const ilpm_model *m, int g);

/* Literals: +v is x_v, -v is (1 - x_v).  Each returns 0 or -1. */
int ilpm_add_clause(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_alo(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_amo(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_exo(ilpm_model *m, const int *lits, int n, ilpm_err *err);
int ilpm_add_impl(ilpm_model *m, int a, int b, ilpm_err *err);
int ilpm_add_card(ilpm_model *m, const int *lits, int n, ilpm_cmp cmp,
                  int64_t k, ilpm_err *err);
int ilpm_add_ccard(ilpm_model *m, int cond, const int *lits, int n,
                   ilpm_cmp cmp, int64_t k, ilpm_err *err);
int ilpm_add_linear(ilpm_model *m, const int64_t *coefs, const int *lits, int n,
                    ilpm_cmp cmp, int64_t rhs, ilpm_err *err);
/* Sets (replaces) the objective: sense over sum coefs[i] * lits[i]. */
int ilpm_model_objective(ilpm_model *m, ilpm_sense sense, const int64_t *coefs,
                         const int *lits, int n, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* Propagation                                                          */

/* Propagation over the model's fixed literals.  Level 1: the unit
 * clauses and what clauses, at-most-one, exactly-one, implications and
 * cardinality constraints then force.  Level 2 adds failed-literal
 * probing within a work budget (a literal whose propagation fails is
 * ruled out; one that both values of a variable force is fixed), then
 * clause probing (what every literal of a short at-least-one forces).  Only
 * models with a unit clause are looked at.  Returns a new model over the same
 * variables (same families, groups and objective) in which every forced
 * variable is one unit clause (group "fixed") and every other constraint is
 * rewritten without the forced literals, or dropped once satisfied.  It has the
 * same solutions.  When propagation proves that there is none, the model
 * returned is that proof (its frame and the clauses x1 and -x1).  Returns
 * NULL with *unchanged = 1 when nothing is forced, NULL with err on
 * failure. */
ilpm_model *ilpm_model_propagate(const ilpm_model *m, int level, int *unchanged,
                                 ilpm_err *err);

/* The same propagation kept over one model across calls, for solving it
 * under many sets of assumptions (a batch's givens): built once, each
 * call settles what the assumptions force and takes it back after. */
typedef struct ilpm_propagator ilpm_propagator;
ilpm_propagator *ilpm_propagator_new(const ilpm_model *m, ilpm_err *err);
void ilpm_propagator_free(ilpm_propagator *p);
/* The literals that assume[0..n) force in m at level (1 units, 2 also
 * probing; w, if not NULL, cuts probing short), the assumptions
 * included, into *out (malloc'd, *nout of them; the model's own forced
 * literals are left out).  Returns 0, 1 when the assumptions contradict
 * the model (no solution under them), -1 with err on failure. */
int ilpm_propagator_run(ilpm_propagator *p, const int *assume, int n, int level,
                        ilpm_watch *w, int **out, int *nout, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* Reading a model back                                                 */

/* Read access, used by the lowerings and the exporters. */
typedef struct ilpm_con {
    ilpm_kind kind;
    ilpm_cmp cmp;
    int group;
    int cond;             /* ILPM_CCARD: the condition literal; else 0 */
    int n;                /* number of literals                        */
    const int *lits;      /* n literals                                */
    const int64_t *coefs; /* n coefficients (all 1 unless LINEAR)      */
    int64_t rhs;          /* k or b; 1 for clause/alo/amo/exo; 0 impl  */
    const char *name;     /* the user's name for it, or NULL           */
} ilpm_con;

size_t ilpm_model_ncons(const ilpm_model *m);
void ilpm_model_con(const ilpm_model *m, size_t i, ilpm_con *out);
ilpm_sense ilpm_model_objective_get(const ilpm_model *m, int *n,
                                    const int **lits, const int64_t **coefs);
/* Value of the objective under a 0/1 assignment vals[1..nvars]. */
int64_t ilpm_model_objective_value(const ilpm_model *m, const uint8_t *vals);
/* 1 if vals[1..nvars] satisfies every constraint (a self-check of the
 * lowerings; puzzles verify with their own rules). */
int ilpm_model_check(const ilpm_model *m, const uint8_t *vals, size_t *bad);
const char *ilpm_kind_name(ilpm_kind k);

/* ------------------------------------------------------------------ */
/* Options and back ends                                                */

/* The enums of the options, one X-macro list each, X(ID, "name"): the
 * enum (then its PREFIX_COUNT) and the names the command line, JSON and
 * CSV use (the rows' choices) are made from it.  A back end's own
 * options are its own business (ilpm_backend_options). */
#define ILPM_ENUM_ID_(id, name) id,
#define ILPM_ENUM_NAME_(id, name) name,
// clang-format off
/* What is propagated before lowering (ilpm_model_propagate's level);
 * auto is the back end's default, now probe for both (see propagate.c). */
#define ILPM_PROPAGATES(X) X(ILPM_PROP_AUTO, "auto") X(ILPM_PROP_NONE, "none")  \
    X(ILPM_PROP_UNITS, "units") X(ILPM_PROP_PROBE, "probe")

typedef enum ilpm_propagate {
    ILPM_PROPAGATES(ILPM_ENUM_ID_) ILPM_PROP_COUNT } ilpm_propagate;
// clang-format on

/* The model's search hint, as a MiniZinc model annotates its solve item:
 * which variables a search should decide first when it looks for any
 * solution.  Each back end maps it for itself (docs/layout.md): GLPK to
 * its branching rule under --branch auto (input: the first fractional
 * column, reverse: the last, likeliest: the largest value, up branch
 * first); CaDiCaL and cp ignore it (their own activity-driven choices do
 * better).  Propagated copies keep it. */
typedef enum ilpm_hint {
    ILPM_HINT_NONE,      /* the back end's own choice (the default)   */
    ILPM_HINT_INPUT,     /* the variables in the order they were made */
    ILPM_HINT_REVERSE,   /* the same, from the last one made          */
    ILPM_HINT_LIKELIEST, /* the one nearest true, set true first      */
    ILPM_HINT_COUNT
} ilpm_hint;
void ilpm_model_set_hint(ilpm_model *m, ilpm_hint h);
ilpm_hint ilpm_model_hint(const ilpm_model *m);

/* Each back end's own options (its rows: ilpm_backend_options) are kept
 * in an area of ilpm_options of their own, which only that back end
 * reads as its struct: set them by name, ilpm_options_set.  Up to
 * ILPM_BACKENDS_MAX back ends, each within ILPM_BACKEND_AREA bytes. */
#define ILPM_BACKENDS_MAX 8
#define ILPM_BACKEND_AREA 64
typedef union ilpm_backend_opts {
    int64_t i;
    double d;
    void *p;
    unsigned char bytes[ILPM_BACKEND_AREA];
} ilpm_backend_opts;

typedef struct ilpm_options {
    int backend;              /* ilpm_backend_find("sat"); default ilp     */
    ilpm_propagate propagate; /* default auto                              */
    double time_limit;        /* seconds, <= 0 for none                    */
    /* With verbose, GLPK and CaDiCaL report their progress, and their
     * messages go to log(log_ctx, text) in pieces (lines, mostly) that
     * join into their output; without log they are dropped.  The library
     * never prints: the command line's --verbose sets a log that writes
     * to stderr.  log runs inside the solvers' calls, so it must not call
     * back into ilpm, and it must stay valid as long as the solver.
     * CaDiCaL writes to stdout and cannot be told otherwise, so while a
     * verbose SAT call runs the process's stdout stream is pointed at the
     * log (see sat.c): what another thread writes to stdout meanwhile
     * lands in the log too. */
    int verbose;
    void (*log)(void *ctx, const char *text);
    void *log_ctx;
    int64_t max_vars;      /* model variables (default 50 million)      */
    int64_t max_memory_mb; /* model and CNF storage (default: 3/4 of
                              the machine's memory)                    */
    /* Polled by every back end; a non-zero value stops the search. */
    volatile int *stop_flag;
    /* Back end b's own options, in backend_area[b] (opaque here). */
    ilpm_backend_opts backend_area[ILPM_BACKENDS_MAX];
} ilpm_options;

/* ------------------------------------------------------------------ */
/* Option rows                                                          */

/* One row per option, one row type for every table: the solver's
 * (ilpm_options_table), the command line's, each puzzle's.  A row is the
 * one place where an option's name, value, range, default and help are
 * written: the parser, --help, the defaults and the range checks all
 * read it (as kissat's options.h). */
typedef enum ilpm_opt_type {
    ILPM_OPT_FLAG,   /* no value: its int field 1 (ILPM_OPT_OFF: 0)    */
    ILPM_OPT_INT,    /* an integer from lo to hi: an int64_t field     */
    ILPM_OPT_REAL,   /* a number of unit, > 0 and >= lo, <= hi: double */
    ILPM_OPT_CHOICE, /* one of choices: an int (enum) field, its index */
    ILPM_OPT_TEXT    /* any text, its reader checks it: const char *   */
} ilpm_opt_type;

/* ilpm_opt.flags; bits 16 and up are the table owner's */
#define ILPM_OPT_INSTANCE 1u /* gives the instance (queens --n), no FILE */
#define ILPM_OPT_PLAY 2u     /* means something to `play` only          */
#define ILPM_OPT_REPEAT 4u   /* again: values joined by ILPM_OPT_SEP    */
#define ILPM_OPT_LIST 8u     /* a comma list; again: adds to it         */
#define ILPM_OPT_OFF 16u     /* a flag that turns its field off         */
#define ILPM_OPT_LOWER 32u   /* acts on the lowering (stats, export too) */
#define ILPM_OPT_GEN 64u     /* read by a generator that solves too     */
#define ILPM_OPT_INPUT 128u  /* names a file the run reads (gmpl --data) */
#define ILPM_OPT_SEP '\n'

typedef struct ilpm_opt {
    const char *name; /* as the command line spells it, without "--"   */
    const char *arg;  /* the value in help ("N"); NULL: a flag's none,
                         a choice's names joined by '|'                */
    ilpm_opt_type type;
    int64_t lo, hi; /* ILPM_OPT_INT, ILPM_OPT_REAL                     */
    /* The default as the option would be given ("sat", "2"); NULL:
     * none, the field stays 0 (NULL, off) or a puzzle decides. */
    const char *def;
    const char *const *choices; /* ILPM_OPT_CHOICE, NULL-ended         */
    const char *unit;           /* ILPM_OPT_REAL: "seconds"            */
    unsigned flags;             /* ILPM_OPT_*                          */
    /* The verbs it goes with, in the bits of the front end that owns the
     * table (the command line's V_*); 0 in the library's and the
     * puzzles' tables, whose verbs the command line gives. */
    unsigned verbs;
    size_t offset;    /* of its field (0 for puzzles: kept as text)    */
    const char *help; /* without range and default: help adds them    */
} ilpm_opt;

/* The row named name in a table ended by a row with name NULL, or NULL
 * (table may be NULL). */
const ilpm_opt *ilpm_opt_find(const ilpm_opt *table, const char *name);
/* Checks a value (NULL: none given) against its row: 0, or -1 with err
 * (kind ILPM_ERR_INPUT) as "--decks: expected an integer from 1 to 8,
 * got '0'", the same words for every option of every table. */
int ilpm_opt_check(const ilpm_opt *row, const char *value, ilpm_err *err);
/* Checks value, then sets the row's field in base (the struct the table
 * describes): 0, or -1 with err and base unchanged.  A text is kept as
 * the pointer given. */
int ilpm_opt_set(const ilpm_opt *row, void *base, const char *value,
                 ilpm_err *err);
/* Sets every field of base to its row's default: 0, or -1 with err when
 * a row's default does not pass its own check (a bug in the table). */
int ilpm_opt_defaults(const ilpm_opt *table, void *base, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* ------------------------------------------------------------------ */
/* Options and back ends                                                */

/* Every field from the rows' defaults (ilpm_options_table and each back
 * end's ilpm_backend_options), then max_memory_mb from the machine: 3/4
 * of its memory. */
void ilpm_options_init(ilpm_options *o);

/* The options every back end shares, one row each (ILPM_OPT_LOWER: those
 * of the lowering), ended by a row with name NULL.  The command line's
 * parser and --help, ilpm_options_init, ilpm_options_set and the tests
 * read it. */
const ilpm_opt *ilpm_options_table(void);
/* The row named name, shared or a back end's, or NULL; *backend (if not
 * NULL) receives the back end whose row it is, or -1 for a shared one. */
const ilpm_opt *ilpm_option_find(const char *name, int *backend);
/* Sets o's option by its row from text (NULL for a flag), a shared
 * option or a back end's alike: 0, or -1 with err saying "--amo:
 * expected one of auto, pairwise, seq, product, got 'x'" and o
 * unchanged. */
int ilpm_options_set(ilpm_options *o, const char *name, const char *value,
                     ilpm_err *err);
/* The value of o's option name as the command line would give it
 * ("seq", "2000000", "" for no text) into buf: 0, or -1 for no such
 * option. */
int ilpm_options_get(const ilpm_options *o, const char *name, char *buf,
                     size_t size);

/* The back ends, numbered from 0 in their list's order (ilp, sat, cp). */
int ilpm_backend_count(void);
/* The number of the back end named name, or -1. */
int ilpm_backend_find(const char *name);
/* Its name ("sat"), or "unknown". */
const char *ilpm_backend_name(int b);
/* Its own option rows (the fields they set are in its area of
 * ilpm_options), ended by a row with name NULL. */
const ilpm_opt *ilpm_backend_options(int b);
/* Checks what back end b would refuse in o before any model is built
 * (--sat-option names and values on CaDiCaL's own table): 0, or -1 with
 * err (kind ILPM_ERR_INPUT) holding one message. */
int ilpm_backend_check_options(int b, const ilpm_options *o, ilpm_err *err);
/* What a back end's statistics count, by the model it lowers to: bits,
 * so that one back end may count both. */
typedef enum ilpm_backend_reports {
    ILPM_REPORTS_NONE = 0,   /* only variables                 */
    ILPM_REPORTS_ROWS = 1,   /* rows and nonzeros (stats.rows)  */
    ILPM_REPORTS_CLAUSES = 2 /* clauses (stats.clauses)         */
} ilpm_backend_reports;
ilpm_backend_reports ilpm_backend_report(int b);
const char *ilpm_propagate_name(ilpm_propagate p);
int ilpm_propagate_parse(const char *s);

/* Sizes of one formulation, overall and per group. */
typedef struct ilpm_group_stats {
    int64_t cons; /* model constraints in the group         */
    int64_t rows; /* ILP rows                                */
    int64_t nonzeros;
    int64_t clauses; /* CNF clauses                             */
    int64_t literals;
    int64_t aux_vars; /* CNF auxiliary variables                */
} ilpm_group_stats;

typedef struct ilpm_stats {
    int64_t vars;     /* model variables                         */
    int64_t aux_vars; /* model vars in AUX families + CNF aux vars */
    int64_t rows, nonzeros;
    int64_t clauses, literals;
    /* model variables a unit clause fixes in what the back end receives:
     * the givens and what propagation forced, settled before any search */
    int64_t fixed;
    int ngroups;
    ilpm_group_stats *groups; /* ngroups entries, owned by the stats */
} ilpm_stats;

void ilpm_stats_free(ilpm_stats *s);

/* Sizes of both lowerings of m under o, without solving. */
int ilpm_model_stats(const ilpm_model *m, const ilpm_options *o,
                     ilpm_stats *out, ilpm_err *err);

/* The outcomes of a solve, X(ID, "name"): solved (a solution, for
 * satisfaction), optimal (proven), feasible (a solution, optimality not
 * proven: a limit hit), unsat (no solution exists), timeout (a limit hit
 * with no solution), stopped (through stop_flag), error. */
// clang-format off
#define ILPM_STATUSES(X) X(ILPM_SOLVED, "solved") X(ILPM_OPTIMAL, "optimal")   \
    X(ILPM_FEASIBLE, "feasible") X(ILPM_UNSAT, "unsat")                        \
    X(ILPM_TIMEOUT, "timeout") X(ILPM_STOPPED, "stopped") X(ILPM_ERROR, "error")
typedef enum ilpm_status { ILPM_STATUSES(ILPM_ENUM_ID_) ILPM_STATUS_COUNT } ilpm_status;
// clang-format on

const char *ilpm_status_name(ilpm_status s);

/* A solver holds one lowered model and may be called many times: with
 * assumptions (literals held true for one call only), after blocking the
 * last solution, or after bounding the objective. */
typedef struct ilpm_solver ilpm_solver;

ilpm_solver *ilpm_solver_new(const ilpm_model *m, const ilpm_options *o,
                             ilpm_err *err);
void ilpm_solver_free(ilpm_solver *s);
/* Satisfaction: finds any solution, ignoring the objective. */
ilpm_status ilpm_solver_solve(ilpm_solver *s, const int *assume, int n,
                              ilpm_err *err);
/* Optimisation: GLPK's objective, or a bound tightened step by step on
 * SAT.  ILPM_OPTIMAL when proven, ILPM_FEASIBLE when a limit hit first. */
ilpm_status ilpm_solver_optimize(ilpm_solver *s, const int *assume, int n,
                                 ilpm_err *err);
/* Values of the last solution: vals[v] for v = 1..nvars. */
const uint8_t *ilpm_solver_values(const ilpm_solver *s);
int64_t ilpm_solver_objective(const ilpm_solver *s);
/* Excludes the last solution, projected onto the non-aux variables. */
int ilpm_solver_block(ilpm_solver *s, ilpm_err *err);
/* Sizes of the lowered formulation (groups included). */
const ilpm_stats *ilpm_solver_stats(const ilpm_solver *s);
/* Resets the deadline used by the time limit to now + limit. */
void ilpm_solver_set_time_limit(ilpm_solver *s, double seconds);

/* Counts solutions projected onto the non-aux variables, up to limit
 * (0 = no limit).  on_solution, if given, sees each one; returning
 * non-zero from it stops the count with that value returned as an
 * error.  Returns ILPM_SOLVED when the count is complete or the limit is
 * reached, ILPM_TIMEOUT / ILPM_STOPPED with *count so far. */
typedef int (*ilpm_solution_fn)(void *ctx, const uint8_t *vals);
ilpm_status ilpm_solver_count(ilpm_solver *s, uint64_t limit, uint64_t *count,
                              ilpm_solution_fn fn, void *ctx, ilpm_err *err);
/* Optimisation: fn (NULL: none) sees each improving solution as the back
 * end finds it, during ilpm_solver_optimize (GLPK's new incumbents, each
 * tightened bound's solution on SAT, each branch-and-bound improvement on
 * cp); non-zero from it ends the search with ILPM_ERROR. */
void ilpm_solver_on_incumbent(ilpm_solver *s, ilpm_solution_fn fn, void *ctx);
/* 1 when the last ilpm_solver_count ran out of solutions, so that its
 * count is exact; 0 when the limit, a time limit, a stop or an error
 * ended it first (its ILPM_SOLVED alone does not tell a count that
 * reached the limit from a complete one). */
int ilpm_solver_count_complete(const ilpm_solver *s);

/* ------------------------------------------------------------------ */
/* Export                                                               */

typedef enum ilpm_format {
    ILPM_FMT_LP,  /* CPLEX LP, through GLPK's writer                 */
    ILPM_FMT_MPS, /* free MPS, through GLPK's writer                 */
    ILPM_FMT_CNF, /* DIMACS CNF with a "c NAME VAR" dictionary       */
    ILPM_FMT_OPB, /* pseudo-Boolean (OPB), PB competition format     */
    ILPM_FMT_COUNT
} ilpm_format;

/* Writes the model to path: "-" is standard output; a device or a FIFO
 * is written in place; a regular file (a symbolic link's target) is
 * replaced only once the whole file is written.  0 on success; -1 when
 * the model cannot be written in that format; -2 when the output cannot
 * be created or written (err names the path and the reason). */
int ilpm_export(const ilpm_model *m, const ilpm_options *o, ilpm_format f,
                const char *path, ilpm_err *err);

/* ------------------------------------------------------------------ */
/* Reading LP and MPS                                                   */

/* A linear program as GLPK's own readers give it, in plain 0-based
 * arrays: what a caller needs to make a model of its own from a file
 * (the `model` puzzle does).  Bounds that are absent have has_lo or
 * has_hi 0. */
typedef struct ilpm_lp {
    int ncols, nrows;
    char **col_name;        /* ncols names                               */
    unsigned char *col_int; /* 1 for an integer column, binary included */
    unsigned char *col_has_lo, *col_has_hi;
    double *col_lo, *col_hi;
    double *obj; /* objective coefficient of each column        */
    double obj_const;
    ilpm_sense sense; /* ILPM_MINIMIZE or ILPM_MAXIMIZE             */
    char **row_name;  /* nrows names (a row GLPK left unnamed: "")  */
    unsigned char *row_has_lo, *row_has_hi;
    double *row_lo, *row_hi;
    size_t *row_start; /* row i: entries row_start[i]..row_start[i+1) */
    int *ind;          /* column of each entry (0-based)              */
    double *val;       /* its coefficient                             */
} ilpm_lp;

/* Reads path with GLPK's reader for f (ILPM_FMT_LP: CPLEX LP; ILPM_FMT_MPS:
 * free MPS); a name ending in .gz is decompressed by GLPK where GLPK was
 * built with zlib.  name stands for path in messages (NULL: path).  0
 * and *out, or -1 with err holding GLPK's "name:line: message" (kind
 * ILPM_ERR_INPUT). */
int ilpm_lp_read(const char *path, const char *name, ilpm_format f,
                 ilpm_lp **out, ilpm_err *err);
void ilpm_lp_free(ilpm_lp *lp);

/* ------------------------------------------------------------------ */
/* Translating GNU MathProg (GMPL) with GLPK's translator               */

/* A MathProg model and its data files, as glpsol takes them (-m, -d):
 * the model's own data section is read when no data file is given.  A
 * file named "-" is stdin_text[0..stdin_len) when stdin_text is not NULL
 * (the caller reads standard input once); a file that starts with a
 * UTF-8 byte-order mark is read without it. */
typedef struct ilpm_gmpl_src {
    const char *model;
    const char *const *data;
    int ndata;
    const char *stdin_text;
    size_t stdin_len;
} ilpm_gmpl_src;

/* A translation kept for the model's statements after solve: GLPK's
 * translator runs in a child process, which waits for the solution. */
typedef struct ilpm_gmpl ilpm_gmpl;

/* What bounds a translation, and where its warnings go. */
typedef struct ilpm_gmpl_opts {
    double time_limit;  /* seconds from the call, <= 0: none        */
    volatile int *stop; /* non-zero stops it; NULL: none            */
    /* Each warning of GLPK's translator ("m.mod:13: warning: data
     * section ignored"), one line without its newline; NULL: dropped. */
    void (*warn)(void *ctx, const char *line);
    void *warn_ctx;
} ilpm_gmpl_opts;

/* Translates and generates src into *out, the problem GLPK builds of it
 * (glp_mpl_build_prob: columns and rows named as the model names them,
 * "x[3,'a']"; the objective, if any, also a free row).  GLPK's
 * translator cannot be interrupted, so it runs in a child process (which
 * inherits the address-space limit), killed when o's time limit or stop
 * comes first: then -1 with err->status ILPM_TIMEOUT or ILPM_STOPPED.
 * The statements before the model's solve statement run here: files
 * they write are written.  With keep, the child stays for one
 * ilpm_gmpl_postsolve (ilpm_gmpl_free ends it).  0, or -1 with err
 * holding GLPK's "file:line: message" (kind ILPM_ERR_INPUT). */
int ilpm_gmpl_translate(const ilpm_gmpl_src *src, const ilpm_gmpl_opts *o,
                        ilpm_lp **out, ilpm_gmpl **keep, ilpm_err *err);
/* The same without limits and without keeping the translation. */
int ilpm_gmpl_read(const ilpm_gmpl_src *src, ilpm_lp **out, ilpm_err *err);
void ilpm_gmpl_free(ilpm_gmpl *g);

/* Hands the kept translation (*keep, which it uses up and sets to NULL)
 * the column values x[0..ncols) as its MIP solution and runs the
 * model's statements after its solve statement (glp_mpl_postsolve);
 * *stop (if not NULL) ends the wait.  *text (malloc'd) receives all the
 * model wrote to its standard output, the generating part included,
 * also when a statement fails; files it writes (printf ... > "f", table
 * out) are written relative to the current directory.  0; or -1 with
 * err: kind ILPM_ERR_INPUT when a statement of the model failed (a
 * `check` that does not hold: "m.mod:6: check failed"). */
int ilpm_gmpl_postsolve(ilpm_gmpl **keep, const double *x, int ncols,
                        volatile int *stop, char **text, ilpm_err *err);

#ifdef __cplusplus
}
#endif
#endif
