/* --backend auto (portfolio.h): the members' processes and pipes, and
 * the race for one answer (which members race: portfolio_lists.c).  A member
 * sends each improving solution (an incumbent) and its final answer as a
 * message: a header, its formulation's group sizes and the 0/1 values.  Nothing
 * a member sends is taken before the parent has checked it against the model
 * and the puzzle's rules (ilpm_run_accept). */
#include "portfolio.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

int ilpm_portfolio_test_corrupt = -1;
int ilpm_portfolio_test_stall = -1;
double ilpm_portfolio_quick_s = 0.05;

#define MAX_MEMBERS ILPM_PF_MAX_MEMBERS

/* ------------------------------------------------------------------ */
/* Processes                                                            */

/* An n-th of the address space the process may still take. */
static void share_memory(int n)
{
    struct rlimit rl;
    if (n <= 1 || getrlimit(RLIMIT_AS, &rl) != 0 ||
        rl.rlim_cur == RLIM_INFINITY)
        return;
    long pages = 0, size = sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    rlim_t used = (rlim_t)pages * (rlim_t)(size > 0 ? size : 4096);
    if (used >= rl.rlim_cur)
        return;
    rl.rlim_cur = used + (rl.rlim_cur - used) / (rlim_t)n;
    setrlimit(RLIMIT_AS, &rl);
}

pid_t ilpm_portfolio_fork(int n, int *fd, int *wfd)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent)
            _exit(1);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGPIPE, SIG_IGN);
        alarm(0);
        share_memory(n);
        *wfd = p[1];
        return 0;
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    *fd = p[0];
    return pid;
}

pid_t ilpm_portfolio_spawn(void (*body)(void *arg, int fd), void *arg, int n,
                           int *fd)
{
    int wfd;
    pid_t pid = ilpm_portfolio_fork(n, fd, &wfd);
    if (pid == 0) {
        body(arg, wfd);
        close(wfd);
        _exit(0);
    }
    return pid;
}

void ilpm_portfolio_kill(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

int ilpm_portfolio_wait(const int *fds, int n, double deadline)
{
    int ms = 50;
    if (deadline > 0) {
        double left = deadline + ILPM_PF_GRACE_S - ilpm_now();
        if (left <= 0)
            return -2;
        if (left * 1000 < ms)
            ms = (int)(left * 1000) + 1;
    }
    struct pollfd pf[64];
    int k = 0, at[64];
    for (int i = 0; i < n && k < 64; i++)
        if (fds[i] >= 0) {
            pf[k].fd = fds[i];
            pf[k].events = POLLIN;
            at[k++] = i;
        }
    if (k == 0 || poll(pf, (nfds_t)k, ms) <= 0)
        return -1;
    for (int i = 0; i < k; i++)
        if (pf[i].revents)
            return at[i];
    return -1;
}

int ilpm_portfolio_send(int fd, ilpm_pf_msg *h, const ilpm_stats *st,
                        const uint8_t *vals)
{
    if (st) {
        h->stats = *st;
        h->has_stats = 1;
    } else {
        h->stats.ngroups = 0;
    }
    if (!vals)
        h->nvars = 0;
    if (ilpm_fd_write_all(fd, h, sizeof *h, 0) != 0)
        return -1;
    if (st && st->ngroups > 0 &&
        ilpm_fd_write_all(fd, st->groups,
                          (size_t)st->ngroups * sizeof *st->groups, 0) != 0)
        return -1;
    return h->nvars > 0 ? ilpm_fd_write_all(fd, vals + 1, (size_t)h->nvars, 0)
                        : 0;
}

int ilpm_portfolio_recv(int fd, ilpm_pf_msg *h, uint8_t **vals)
{
    *vals = NULL;
    if (ilpm_fd_read_all(fd, h, sizeof *h) != 0)
        return -1;
    h->error[sizeof h->error - 1] = '\0';
    h->stats.groups = NULL;
    if (h->stats.ngroups < 0 || h->nvars < 0)
        return -1;
    if (h->stats.ngroups > 0) {
        size_t n = (size_t)h->stats.ngroups * sizeof *h->stats.groups;
        h->stats.groups = malloc(n);
        if (!h->stats.groups || ilpm_fd_read_all(fd, h->stats.groups, n)) {
            free(h->stats.groups);
            h->stats.groups = NULL;
            return -1;
        }
    }
    if (h->nvars > 0) {
        *vals = malloc((size_t)h->nvars + 1);
        if (!*vals || ilpm_fd_read_all(fd, *vals + 1, (size_t)h->nvars)) {
            free(*vals);
            *vals = NULL;
            ilpm_stats_free(&h->stats);
            return -1;
        }
        (*vals)[0] = 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The race                                                             */

struct race {
    const ilpm_puzzle *pz;
    const void *inst;
    const ilpm_params *p;
    const ilpm_run_opts *o;
    const ilpm_model *m;
    ilpm_result *res;
    ilpm_sense sense;
    const ilpm_member *mbs;
    int n;
    ilpm_pf_models f; /* each member's model and parameters */
    pid_t pid[MAX_MEMBERS];
    int fd[MAX_MEMBERS];
    int back[MAX_MEMBERS]; /* the bounds' pipes to the members, or -1 */
    uint8_t *best;         /* the best verified incumbent, or NULL */
    int64_t best_obj;
    int best_member;
    ilpm_pf_msg stats_of; /* the sizes reported with the answer taken */
    int winner, timeouts, errors;
    ilpm_pf_msg first_error; /* of member error_member */
    int error_member;
};

static void note(const struct race *r, const char *fmt, const char *member,
                 const char *what)
{
    const ilpm_options *so = &r->o->solver;
    if (!so->verbose || !so->log)
        return;
    char line[512];
    snprintf(line, sizeof line, fmt, member, what);
    so->log(so->log_ctx, line);
}

static int better(const struct race *r, int64_t obj)
{
    return !r->best ||
           (r->sense == ILPM_MAXIMIZE ? obj > r->best_obj : obj < r->best_obj);
}

/* A member's (verified or not) values on its own model: taken when they
 * pass. */
static int take(struct race *r, int i, const uint8_t *vals, int incumbent)
{
    int rc = ilpm_run_accept(r->pz, r->inst, r->f.p[i], r->o, r->f.m[i], vals,
                             incumbent, r->res);
    if (rc != 0) {
        note(r, "auto: the answer of %s is refused: %s\n", r->mbs[i].name,
             r->res->error);
        r->res->error[0] = '\0';
        r->res->error_kind = ILPM_OK;
    }
    return rc;
}

static void keep_stats(struct race *r, ilpm_pf_msg *h);

/* Member i proved nothing better than the bound h->objective it was
 * told: the best verified incumbent (at least as good) is optimal.  1
 * when it settles the run. */
static int proved_best(struct race *r, int i, ilpm_pf_msg *h)
{
    if (!r->best || better(r, h->objective) ||
        take(r, r->best_member, r->best, 0) != 0)
        return 0;
    note(r, "auto: %s proved nothing better than the incumbent%s\n",
         r->mbs[i].name, "");
    keep_stats(r, h);
    r->winner = i;
    r->res->status = ILPM_OPTIMAL;
    r->res->verified = 1;
    return 1;
}

static void keep_stats(struct race *r, ilpm_pf_msg *h)
{
    if (!h->has_stats)
        return;
    ilpm_stats_free(&r->stats_of.stats);
    r->stats_of = *h;
    h->stats.groups = NULL;
}

/* One message of member i: 1 when it settles the run. */
static int on_message(struct race *r, int i, ilpm_pf_msg *h, uint8_t *vals)
{
    const ilpm_model *m = r->f.m[i]; /* the member's own */
    int nv = ilpm_model_nvars(m);
    if (vals && h->nvars != nv)
        return 0;
    /* The objective a member claims is its values' own. */
    if (vals && r->sense != ILPM_NONE &&
        h->objective != ilpm_model_objective_value(m, vals)) {
        note(r, "auto: the answer of %s is refused: %s\n", r->mbs[i].name,
             "its objective is not its values'");
        return 0;
    }
    if (h->type == ILPM_PF_INCUMBENT || h->status == ILPM_FEASIBLE) {
        if (h->type == ILPM_PF_FINAL)
            keep_stats(r, h);
        int64_t obj = vals ? ilpm_model_objective_value(m, vals) : 0;
        if (vals && better(r, obj) && take(r, i, vals, 1) == 0) {
            uint8_t *keep = realloc(r->best, (size_t)nv + 1);
            if (keep) {
                r->best = keep;
                memcpy(r->best, vals, (size_t)nv + 1);
                r->best_obj = obj;
                r->best_member = i;
                char o[32];
                snprintf(o, sizeof o, "%lld", (long long)obj);
                note(r, "auto: incumbent %s from %s\n", o, r->mbs[i].name);
                ilpm_pf_bound_share(r->back, r->n, i, obj);
            }
        }
        return 0;
    }
    switch ((ilpm_status)h->status) {
    case ILPM_SOLVED:
    case ILPM_OPTIMAL:
        if (!vals || take(r, i, vals, 0) != 0)
            return 0;
        break;
    case ILPM_UNSAT:
        if (h->bounded) /* nothing better than a verified incumbent */
            return proved_best(r, i, h);
        break;
    case ILPM_TIMEOUT:
    case ILPM_STOPPED:
        r->timeouts++;
        return 0;
    default:
        if (r->errors++ == 0) {
            r->first_error = *h;
            r->first_error.stats.groups = NULL;
            r->error_member = i;
        }
        note(r, "auto: %s failed: %s\n", r->mbs[i].name, h->error);
        return 0;
    }
    keep_stats(r, h);
    r->winner = i;
    r->res->status = (ilpm_status)h->status;
    r->res->verified = h->status != ILPM_UNSAT;
    return 1;
}

/* Reads messages until one settles the run, every member has ended,
 * the deadline (and its grace) has passed or the stop flag is set. */
static void race_loop(struct race *r, double deadline)
{
    volatile int *stop = r->o->solver.stop_flag;
    int alive = r->n;
    while (alive > 0 && !(stop && *stop)) {
        int i = ilpm_portfolio_wait(r->fd, r->n, deadline);
        if (i == -2)
            break;
        if (i < 0)
            continue;
        ilpm_pf_msg h;
        uint8_t *vals;
        if (ilpm_portfolio_recv(r->fd[i], &h, &vals) != 0) {
            /* Ended without a word: killed (its memory share) or crashed. */
            note(r, "auto: %s ended without an answer%s\n", r->mbs[i].name, "");
            close(r->fd[i]);
            r->fd[i] = -1;
            alive--;
            continue;
        }
        int done = on_message(r, i, &h, vals);
        ilpm_stats_free(&h.stats);
        free(vals);
        if (done)
            return;
        if (h.type == ILPM_PF_FINAL) {
            close(r->fd[i]);
            r->fd[i] = -1;
            alive--;
        }
    }
}

/* No member settled the run: the best incumbent (not proven), a
 * timeout, a stop, or the first member's error when all failed. */
static void unsettled(struct race *r, double deadline)
{
    ilpm_result *res = r->res;
    volatile int *stop = r->o->solver.stop_flag;
    if (r->best && take(r, r->best_member, r->best, 0) == 0) {
        res->status = ILPM_FEASIBLE;
        res->verified = 1;
        r->winner = r->best_member;
    } else if (stop && *stop) {
        res->status = ILPM_STOPPED;
    } else if (r->timeouts > 0 || r->errors == 0 ||
               (deadline > 0 && ilpm_now() >= deadline)) {
        res->status = ILPM_TIMEOUT;
    } else {
        res->status = ILPM_ERROR;
        snprintf(res->error, sizeof res->error, "%s: %.400s",
                 r->mbs[r->error_member].name, r->first_error.error);
        res->error_kind = (ilpm_rc)r->first_error.rc;
    }
}

/* Member 0's incumbent of its moment alone (before its fork), as if it
 * had sent it: checked, kept and shared with the other members. */
static void first_incumbent(struct race *r, const ilpm_pf_first *first)
{
    ilpm_pf_msg h;
    memset(&h, 0, sizeof h);
    h.type = ILPM_PF_INCUMBENT;
    h.status = ILPM_FEASIBLE;
    h.nvars = ilpm_model_nvars(r->f.m[0]);
    h.objective = first->objective;
    on_message(r, 0, &h, first->incumbent);
}

int ilpm_portfolio_solve(const ilpm_puzzle *pz, const void *inst,
                         const ilpm_params *p, const ilpm_run_opts *o,
                         ilpm_model *m, const ilpm_options *so,
                         const ilpm_pf_first *first, ilpm_result *res)
{
    struct race r;
    memset(&r, 0, sizeof r);
    r.pz = pz, r.inst = inst, r.p = p, r.o = o, r.m = m, r.res = res;
    r.sense = ilpm_model_objective_get(m, NULL, NULL, NULL);
    r.n = ilpm_portfolio_members(pz, p, res->file, r.sense != ILPM_NONE,
                                 ilpm_model_nvars(m), ilpm_portfolio_threads(o),
                                 &r.mbs);
    r.winner = -1;
    ilpm_pf_run runs[MAX_MEMBERS];
    double t0 = first ? first->t0 : ilpm_now();
    int from = first ? 1 : 0; /* member 0 forked at its moment's end */
    if (first) {
        r.pid[0] = first->pid, r.fd[0] = first->fd, r.back[0] = first->back;
        runs[0].in.fd = -1;
    }
    ilpm_pf_models_build(&r.f, pz, inst, p, so, m, r.mbs, r.n);
    for (int i = from; i < r.n; i++) {
        runs[i] = (ilpm_pf_run){&r.mbs[i], i, r.n, o, so, r.f.m[i], -1, {0}};
        ilpm_pf_bound_pipe(r.sense != ILPM_NONE, &runs[i].in, &r.back[i]);
    }
    for (int i = from; i < r.n; i++) {
        r.pid[i] =
            ilpm_portfolio_spawn(ilpm_pf_member_body, &runs[i], r.n, &r.fd[i]);
        if (r.pid[i] < 0) {
            r.fd[i] = -1;
            if (r.errors++ == 0)
                r.error_member = i;
            snprintf(r.first_error.error, sizeof r.first_error.error,
                     "cannot start a process: %s", strerror(errno));
            r.first_error.rc = ILPM_E_FAIL;
        }
    }
    for (int i = 0; i < r.n; i++)
        if (runs[i].in.fd >= 0)
            close(runs[i].in.fd); /* the members' own */
    if (first && first->incumbent)
        first_incumbent(&r, first);
    race_loop(&r, so->deadline);
    for (int i = 0; i < r.n; i++) {
        ilpm_portfolio_kill(r.pid[i]);
        if (r.fd[i] >= 0)
            close(r.fd[i]);
        if (r.back[i] >= 0)
            close(r.back[i]);
    }
    if (r.winner < 0)
        unsettled(&r, so->deadline);
    res->solve_ms = (ilpm_now() - t0) * 1000.0;
    if (r.winner >= 0) {
        res->backend = r.mbs[r.winner].backend;
        ilpm_pf_member_name(&r.mbs[r.winner], r.f.form[r.winner], res->member,
                            sizeof res->member);
        if (r.f.form[r.winner]) /* its answer, sizes and decode are its own */
            snprintf(res->formulation, sizeof res->formulation, "%s",
                     r.f.form[r.winner]);
        note(&r, "auto: %s answered (%s)\n", res->member,
             ilpm_status_name(res->status));
    }
    if (r.stats_of.has_stats) {
        ilpm_stats_free(&res->stats);
        res->stats = r.stats_of.stats;
        res->have_stats = 1;
    }
    if (res->status == ILPM_UNSAT && pz->explain_unsat)
        pz->explain_unsat(inst, p, res->reason, sizeof res->reason);
    free(r.best);
    ilpm_pf_models_free(&r.f);
    return 0;
}
