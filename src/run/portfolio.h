/* portfolio.h: --backend auto, the run layer's choice over the real back
 * ends (backends.h).  Each member is a back end with a setting of its
 * own options, run in a process of its own (GLPK's state is global):
 * the parent verifies every answer a member sends over its pipe before
 * it takes it, keeps the best verified objective, and kills and reaps
 * every member once one has proved its answer.  Optimising, each new
 * verified incumbent's objective goes to every other member over a pipe
 * of its own (parent to child), which it polls as a bound: a member
 * that then proves nothing better makes that incumbent the optimum.
 * A count is split into
 * cubes (the first decisions on the answer's variables), counted by the
 * members in turn and summed. */
#ifndef ILPM_PORTFOLIO_H
#define ILPM_PORTFOLIO_H

#include "run.h"

#include <sys/types.h>

/* One member: back end, its name in results ("sat target=2") and up to
 * two of its options set by name (NULL: none); the option "formulation"
 * is the puzzle's: the member races on the puzzle built again in that
 * formulation (portfolio_form.c). */
typedef struct ilpm_member {
    ilpm_backend backend;
    const char *name;
    const char *opt[2], *val[2];
} ilpm_member;
/* The most members a race runs. */
#define ILPM_PF_MAX_MEMBERS 6

/* The formulation member mb races on when it has a model of its own: one
 * of pz other than its default, named by mb's option "formulation" while
 * p names none (the user's formulation is every member's); else NULL. */
const char *ilpm_pf_form_of(const ilpm_member *mb, const ilpm_puzzle *pz,
                            const ilpm_params *p);
/* The name a result gives member mb, which raced on formulation form
 * (NULL: the run's model): its list's, but without " on FORM" when its
 * own formulation was not built (the user named one). */
void ilpm_pf_member_name(const ilpm_member *mb, const char *form, char *buf,
                         size_t size);
/* The model and parameters of each of a race's members: m[i] and p[i],
 * the run's or built again in member i's formulation (form[i], NULL:
 * the run's); built[] and params[] are owned. */
typedef struct ilpm_pf_models {
    ilpm_model *m[ILPM_PF_MAX_MEMBERS];
    const ilpm_params *p[ILPM_PF_MAX_MEMBERS];
    const char *form[ILPM_PF_MAX_MEMBERS];
    ilpm_model *built[ILPM_PF_MAX_MEMBERS];
    ilpm_params *params[ILPM_PF_MAX_MEMBERS];
} ilpm_pf_models;
/* Fills f for members mbs[0..n) of a run of pz on inst with parameters p
 * and model m, building each formulation a member names once (under so's
 * limits); a member whose model cannot be built races on m (--verbose
 * says why). */
void ilpm_pf_models_build(ilpm_pf_models *f, const ilpm_puzzle *pz,
                          const void *inst, const ilpm_params *p,
                          const ilpm_options *so, ilpm_model *m,
                          const ilpm_member *mbs, int n);
void ilpm_pf_models_free(ilpm_pf_models *f);

/* The threads (members) a run under o uses: o->threads, or the number
 * of online cores when 0. */
int ilpm_portfolio_threads(const ilpm_run_opts *o);
/* The back end a run with --backend auto uses in this process, when it
 * does not fork: ilp with one thread (today's default), cp for a count
 * whose solutions go to a hook as they come; ILPM_BACKEND_AUTO when it
 * forks. */
int ilpm_portfolio_single(const ilpm_run_opts *o);
/* The members of a portfolio of n threads for a model of puzzle pz
 * (NULL: any), parameters p (NULL: none) and input file (NULL: none)
 * with or without an objective, of vars variables (the size may choose
 * the list: Tetravex from 8x8), best first (chosen by measurement,
 * docs/benchmarks.md; Sudoku, Tetravex and FlatZinc have lists of their
 * own): how many (at most n), into *out. */
int ilpm_portfolio_members(const ilpm_puzzle *pz, const ilpm_params *p,
                           const char *file, int has_objective, int vars, int n,
                           const ilpm_member **out);
/* The member that runs alone first (ilpm_portfolio_quick_s): the first
 * of the list, but for Sudoku, the learning cp. */
const ilpm_member *ilpm_portfolio_first(const ilpm_puzzle *pz,
                                        const ilpm_params *p, const char *file,
                                        int has_objective, int vars);
/* The options of member mb over base, for one of n members: its back end
 * and settings, the seed of o (sat), an n-th of --max-memory. */
void ilpm_portfolio_member_options(const ilpm_member *mb,
                                   const ilpm_run_opts *o, int n,
                                   ilpm_options *so);

/* The first member, forked at the end of its moment alone with its
 * search going on (portfolio_member.c): its pid (0: none), the read end
 * of its answers' pipe, the write end of its bounds' pipe (-1: none),
 * its last incumbent of the moment (NULL: none; malloc'd, its caller
 * frees it) and when the moment began. */
typedef struct ilpm_pf_first {
    pid_t pid;
    int fd, back;
    uint8_t *incumbent;
    int64_t objective;
    double t0;
} ilpm_pf_first;

/* Races the members on the built model m (so: the run's options with
 * its deadline) and fills res as ilpm_run_instance does; with first,
 * member 0 is that process, the others are forked. */
int ilpm_portfolio_solve(const ilpm_puzzle *pz, const void *inst,
                         const ilpm_params *p, const ilpm_run_opts *o,
                         ilpm_model *m, const ilpm_options *so,
                         const ilpm_pf_first *first, ilpm_result *res);
/* Counts m by cubes over o's threads and sums (portfolio_count.c). */
int ilpm_portfolio_count(const ilpm_puzzle *pz, const void *inst,
                         const ilpm_params *p, const ilpm_run_opts *o,
                         ilpm_model *m, const ilpm_options *so,
                         ilpm_result *res);
/* How many cubes ilpm_portfolio_count cuts m into (-1 out of memory):
 * the pairs of two exactly-ones over the answer's variables, one of
 * them alone, or the prefixes of its first variables. */
int ilpm_portfolio_cubes(const ilpm_model *m);

/* Processes: a child that runs body(arg, fd) with fd the write end of a
 * pipe whose read end *fd the parent keeps; it dies with its parent and
 * leaves SIGINT and SIGTERM to it.  The child's address space is given
 * an n-th of what the process may still take (RLIMIT_AS).  Its pid, or
 * -1. */
pid_t ilpm_portfolio_spawn(void (*body)(void *arg, int fd), void *arg, int n,
                           int *fd);
/* The fork of ilpm_portfolio_spawn: in the child, 0 with *wfd the write
 * end (the child goes on from the call); in the parent, the child's pid
 * with *fd the read end, or -1. */
pid_t ilpm_portfolio_fork(int n, int *fd, int *wfd);
/* SIGKILL and reap (pid <= 0: nothing). */
void ilpm_portfolio_kill(pid_t pid);
/* The grace past the deadline for members' last words (their searches
 * watch the same deadline). */
#define ILPM_PF_GRACE_S 0.25
/* Waits up to 50 ms, and not past deadline + ILPM_PF_GRACE_S (deadline
 * 0: none), for one of fds[0..n) (-1: skip) to be readable: its index,
 * -1 when none was, -2 when the deadline and its grace have passed. */
int ilpm_portfolio_wait(const int *fds, int n, double deadline);

/* A member's message: an incumbent or its final answer, then the
 * formulation's group sizes and the values vals[1..nvars]. */
enum { ILPM_PF_INCUMBENT = 1, ILPM_PF_FINAL = 2 };
typedef struct ilpm_pf_msg {
    int type;
    int status; /* ilpm_status */
    int rc;     /* ilpm_rc of an error */
    int nvars;  /* values that follow (0: none) */
    int verified, count_complete, has_stats;
    /* ILPM_PF_FINAL ILPM_UNSAT of a member told a bound (objective):
     * nothing better than it exists. */
    int bounded;
    int64_t objective;
    uint64_t count;
    ilpm_stats stats; /* stats.ngroups sizes follow */
    char error[512];
} ilpm_pf_msg;
/* 0, or -1 when the parent is gone. */
int ilpm_portfolio_send(int fd, ilpm_pf_msg *h, const ilpm_stats *st,
                        const uint8_t *vals);
/* Into h, h->stats.groups (malloc'd) and *vals (malloc'd, 1-based, or
 * NULL): 0, or -1 when the member ended without one. */
int ilpm_portfolio_recv(int fd, ilpm_pf_msg *h, uint8_t **vals);

/* Optimising, the bounds (portfolio_bound.c): each verified incumbent's
 * objective, parent to member, over a pipe of its own whose ends never
 * block.  A member's end: fd (-1: none), the last bound told (bounded:
 * one came) and when it is read next. */
typedef struct ilpm_pf_bounds {
    int fd, bounded;
    int64_t told;
    double next_poll;
} ilpm_pf_bounds;
/* A pipe for one member when want: *in (fd -1 when none), *out. */
void ilpm_pf_bound_pipe(int want, ilpm_pf_bounds *in, int *out);
/* ilpm_bound_fn over an ilpm_pf_bounds: the last bound sent, read at
 * most every 2 ms. */
int ilpm_pf_bound_read(void *bounds, int64_t *obj);
/* Waits up to s seconds for a bound (a test hook's member). */
void ilpm_pf_bound_wait(const ilpm_pf_bounds *in, double s);
/* obj to out[0..n) but out[skip] (-1: gone); a full pipe is skipped (a
 * better bound follows), one with no reader left is closed. */
void ilpm_pf_bound_share(int *out, int n, int skip, int64_t obj);

/* A member's process (portfolio_member.c): its member, its index of n,
 * the run's options and the solver's over which its own are set, the
 * model, its pipe to the parent and the bounds it is told. */
typedef struct ilpm_pf_run {
    const ilpm_member *mb;
    int index, n;
    const ilpm_run_opts *o;
    const ilpm_options *so;
    ilpm_model *m;
    int fd;
    ilpm_pf_bounds in; /* optimising: the bounds the parent sends */
} ilpm_pf_run;
/* The body of a member's process (ilpm_portfolio_spawn, arg an
 * ilpm_pf_run): its solve on the model, each incumbent and its final
 * answer sent to the parent. */
void ilpm_pf_member_body(void *arg, int fd);

/* The first member's moment alone (run.c), when that member is the
 * race's first too: where a watch of its solve meets the moment, the
 * process forks; the child goes on with the search as the race's member
 * 0 and the parent stops its own, then races the others from there
 * (ilpm_portfolio_solve with first).  Nothing of the moment's search is
 * lost. */
typedef struct ilpm_pf_moment {
    ilpm_pf_run run;     /* member 0, as the race runs it */
    ilpm_pf_first first; /* first.pid > 0 once forked (in the parent) */
    volatile int stop;   /* the moment's stop flag: set at the fork */
    void (*log)(void *ctx, const char *text); /* the run's log */
    void *log_ctx;
} ilpm_pf_moment;
/* Arms the moment until `at` (ilpm_now() seconds) for a solve of member
 * mb, the first of n, under *so, which it changes: the moment's stop
 * flag and log, and a deadline (the run's, else one far off: only a
 * watch with a deadline reads the clock). */
void ilpm_pf_moment_arm(ilpm_pf_moment *mo, const ilpm_member *mb, int n,
                        const ilpm_run_opts *o, ilpm_model *m, ilpm_options *so,
                        double at);
/* The moment's hooks on its solver s: incumbents (kept for the race
 * before the fork, sent to the parent after it) and the bounds told. */
void ilpm_pf_moment_hooks(ilpm_pf_moment *mo, ilpm_solver *s);
/* After every solve of the run layer (s NULL: its solver was not made,
 * err says why): in the forked first member, its answer goes to the
 * parent and the process ends; elsewhere, the moment is disarmed. */
void ilpm_pf_moment_end(ilpm_solver *s, ilpm_status st, const ilpm_err *err);

/* Runs in run.c's own verifier: vals, an answer a member sent, checked
 * against the model's constraints and the puzzle's rules; an incumbent
 * goes to o's solution hook, a final answer is rendered into res (and
 * its objective set).  0 when it passes; else res->error says why. */
int ilpm_run_accept(const ilpm_puzzle *pz, const void *inst,
                    const ilpm_params *p, const ilpm_run_opts *o,
                    const ilpm_model *m, const uint8_t *vals, int incumbent,
                    ilpm_result *res);
/* The count of one model in this process, as ilpm_run_instance makes it
 * (each solution verified): for a member counting one cube. */
int ilpm_run_count_model(const ilpm_puzzle *pz, const void *inst,
                         const ilpm_params *p, const ilpm_run_opts *o,
                         ilpm_model *m, const ilpm_options *so,
                         ilpm_result *res);

/* Before any fork, the first member (a count: cp) runs alone in the
 * process for this many seconds (default 0.05; 0: never), so that an
 * easy instance costs no fork; past it, the race (with that search
 * going on, ilpm_pf_moment, when the member is the race's first) or the
 * cubes. */
extern double ilpm_portfolio_quick_s;

/* Test hook: the member of this index (-1: none) sends a wrong answer
 * (its first variable flipped), which the parent must refuse. */
extern int ilpm_portfolio_test_corrupt;
/* Test hook: the member of this index (-1: none) stops after its first
 * incumbent (until killed), and every other member waits for the bound
 * it brings before it searches. */
extern int ilpm_portfolio_test_stall;
/* Test hook: when set, the members of every race (and its first member
 * alone), ilpm_portfolio_test_nmembers of them. */
extern const ilpm_member *ilpm_portfolio_test_members;
extern int ilpm_portfolio_test_nmembers;

#endif
