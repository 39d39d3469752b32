/* ilpm: the command line.  The only part of ilpm that prints to the
 * terminal or chooses an exit status; everything else reports through
 * return values and ilpm_err. */
#include "batch.h"
#include "cli.h"
#include "compare.h"
#include "plot.h"
#include "progress.h"
#include "run.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

volatile int cli_stop_requested;

/* The solvers' messages under --verbose, as they come. */
static void log_to_stderr(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stderr);
}

/* Seconds a verb that solves in this process gets to stop after the
 * first signal; 0 for batch, whose parent never sits inside a solver. */
static unsigned stop_grace;
/* stderr is a terminal: a progress line may stand there (isatty is not
 * one of the calls a signal handler may make, so it is asked before). */
static int stderr_tty;

#define HARD_STOP_MSG                                                          \
    "ilpm: the solver did not stop in time (GLPK polls for a stop only "       \
    "between its search steps); exiting\n"

/* The grace period ran out: end the process at once.  Every result
 * printed so far was flushed when it was printed. */
static void hard_stop(int sig)
{
    (void)sig;
    static const char erase[] = "\r\033[K"; /* the progress line, if any */
    ssize_t w = stderr_tty ? write(STDERR_FILENO, erase, sizeof erase - 1) : 0;
    w = write(STDERR_FILENO, HARD_STOP_MSG, sizeof HARD_STOP_MSG - 1);
    ilpm_out_unlink_temps(); /* an export's unfinished file */
    (void)w;
    _exit(130);
}

static void on_signal(int sig)
{
    (void)sig;
    if (!cli_stop_requested && stop_grace)
        alarm(stop_grace); /* repeated signals do not postpone it */
    cli_stop_requested = 1;
}

static void set_memory_limit(cli *c)
{
    if (c->memory_limit <= 0 || ILPM_UNDER_ASAN)
        return;
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = (rlim_t)(c->memory_limit * 1048576.0);
    /* Past it an allocation fails: out of memory, which the messages
     * then blame on this limit (ilpm_cli_err_note), with exit 2. */
    setrlimit(RLIMIT_AS, &rl);
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
    stderr_tty = isatty(STDERR_FILENO);
}

static int is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* --help after a verb main.c runs itself. */
static int asks_help(int argc, char **argv)
{
    return argc == 3 && is_help(argv[2]);
}

/* fzn's --help (or -h) wherever it stands: fzn's own help, not that of
 * the solve model it runs as. */
static int help_anywhere(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (is_help(argv[i]))
            return 1;
    return 0;
}

/* The verb argv[1] names (a verb_id), or -1 after a message. */
static int find_verb(const char *name)
{
    int verb = ilpm_cli_verb_find(name);
    if (verb >= 0)
        return verb;
    const char *near = ilpm_cli_verb_closest(name);
    char names[256];
    ilpm_cli_verb_names(", ", names, sizeof names);
    if (near)
        fprintf(stderr, "ilpm: unknown verb '%s'; did you mean '%s'?\n", name,
                near);
    else
        fprintf(stderr,
                "ilpm: unknown verb '%s' (the verbs: %s; see ilpm --help)\n",
                name, names);
    return -1;
}

/* The verbs that come before the parser: help, --version, list.  An exit
 * status, or -1 for a verb the parser takes. */
static int run_front(int argc, char **argv, int *verb)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0) {
        ilpm_cli_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "ilpm: --version takes no arguments (got '%s')\n",
                    argv[2]);
            return EXIT_USAGE;
        }
        printf("ilpm %s\n", ILPM_VERSION);
        return EXIT_OK;
    }
    if ((*verb = find_verb(argv[1])) < 0)
        return EXIT_USAGE;
    if (*verb == VERB_HELP) {
        ilpm_cli_usage(stdout);
        return EXIT_OK;
    }
    if (*verb == VERB_LIST) {
        if (asks_help(argc, argv)) {
            ilpm_cli_list_help(stdout);
            return EXIT_OK;
        }
        if (argc > 2) {
            fprintf(stderr, "ilpm: list takes no arguments\n");
            return EXIT_USAGE;
        }
        return ilpm_cmd_list();
    }
    if (*verb == VERB_FZN && help_anywhere(argc, argv)) {
        ilpm_cli_fzn_help(stdout);
        return EXIT_OK;
    }
    return -1;
}

/* The verb c->verb, parsed and checked. */
static int dispatch(cli *c)
{
    switch (c->verb) {
    case VERB_SOLVE:
    case VERB_PLAY:
        return c->fzn ? ilpm_cmd_fzn(c) : ilpm_cmd_solve(c);
    case VERB_STATS:
        return ilpm_cmd_stats(c);
    case VERB_EXPORT:
        return ilpm_cmd_export(c);
    case VERB_COMPARE:
        return ilpm_cmd_compare(c);
    case VERB_BATCH:
        return ilpm_cmd_batch(c);
    case VERB_MERGE:
        return ilpm_cmd_merge(c);
    default:
        return ilpm_cmd_gen(c);
    }
}

/* Parses, checks and runs the verb of argv[1] on c. */
static int run_parsed(cli *c, int argc, char **argv)
{
    ilpm_err err = {0};
    if (ilpm_cli_parse(c, argc, argv, &err) != 0) {
        fprintf(stderr, "ilpm: %s\n", err.msg);
        return ilpm_cli_args_exit(&err);
    }
    if (c->help) {
        ilpm_cli_help(stdout, c);
        return EXIT_OK;
    }
    if (ilpm_cli_check_outputs(c) != 0)
        return EXIT_USAGE;
    /* GLPK checks for a stop only between its steps (an LP solve, a cut
     * round), which can take minutes on a large model: after a signal,
     * solve, play and compare get 5 s to stop cleanly. */
    install_signals(c->verb == VERB_BATCH ? 0 : 5);
    /* A batch limits each worker; every other verb, itself. */
    if (c->verb != VERB_BATCH)
        set_memory_limit(c);
    return dispatch(c);
}

static int run_verb(int argc, char **argv)
{
    int verb, rc = run_front(argc, argv, &verb);
    if (rc >= 0)
        return rc;
    /* fzn: MiniZinc's solver interface, in front of solve model. */
    cli_fzn fz;
    char **fzn_argv = NULL;
    if (verb == VERB_FZN) {
        ilpm_err e = {0};
        if (ilpm_cli_fzn_args(argc, argv, &fz, &argc, &fzn_argv, &e) != 0) {
            fprintf(stderr, "ilpm: fzn %s\n", e.msg);
            return ilpm_cli_args_exit(&e);
        }
        argv = fzn_argv;
        verb = ilpm_cli_verb_find(argv[1]);
    }
    cli c;
    memset(&c, 0, sizeof c);
    c.verb = (verb_id)verb;
    c.fzn = fzn_argv ? &fz : NULL;
    ilpm_run_opts_init(&c.run);
    c.run.solver.stop_flag = &cli_stop_requested;
    c.run.solver.log = log_to_stderr;
    c.params = ilpm_params_new();
    if (!c.params) {
        fprintf(stderr, "ilpm: out of memory\n");
        rc = EXIT_INTERNAL;
    } else {
        rc = run_parsed(&c, argc, argv);
    }
    ilpm_params_free(c.params);
    free(c.files);
    free(c.argv_opt);
    for (int i = 0; i < c.nowned; i++)
        free(c.owned[i]);
    free(c.owned);
    free(fzn_argv);
    return rc;
}

/* glibc's allocator, by default, gives the top of the heap back to the
 * system after each instance's models are freed and maps every block
 * over its moving threshold afresh, so the next instance of a file pays
 * the page faults again: on gecode_16x16.txt (55 grids, sat) 14,758
 * page faults and 0.26 s, against 660 and 0.08 s when the heap keeps
 * 4 MB of headroom and blocks up to 32 MB come from it (docs/benchmarks.md,
 * "Allocator").  With the pad set, glibc trims the top at every free()
 * that reaches it: a GLPK problem of a gigabyte, freed in 8 KB blocks
 * from the top down, then cost one system call per block (0.9 s for the
 * 1.5 GB of queens 4000 cut short on ilp); the top is given back once it
 * holds 64 MB (0.2 s). */
static void tune_allocator(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int main(int argc, char **argv)
{
    tune_allocator();
    int rc = run_verb(argc, argv);
    /* A result that never arrived (a full disk, a closed pipe) fails the
     * run, like any write error.  fclose reports EBADF when standard
     * output was closed and nothing was written to it: that is no loss. */
    if (ilpm_cli_put_stdout("") != 0 ||
        (fclose(stdout) != 0 && errno != EBADF)) {
        fprintf(
            stderr, "ilpm: standard output: %s\n",
            strerror(ilpm_cli_stdout_errno ? ilpm_cli_stdout_errno : errno));
        tally t = {rc, 0};
        ilpm_cli_note_exit(&t, EXIT_INTERNAL);
        rc = t.worst;
    }
    return rc;
}
