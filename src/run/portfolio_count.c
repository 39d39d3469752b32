/* A count over the portfolio's threads (portfolio.h).  The solutions are
 * cut into cubes that do not meet and together hold them all: where the
 * model has exactly-ones over the answer's variables (none auxiliary), a
 * cube is one literal of the first and one of the next that shares no
 * variable with it (a queen's place on rows 1 and 2: n^2 cubes, each a
 * small share, so that the last cubes leave no core idle for long), or,
 * when the pairs would be more than MAX_CUBES, one literal of the first,
 * its last TAIL literals paired with the second's (the queue's end in
 * small shares: L(2,12)'s largest cubes by value 1's place are its last,
 * and two threads taking them whole would end 6% apart, 0.3% with the
 * last 4 split; each cube more costs a fork, about 1 ms).
 * Otherwise the answer's variables v1, v2, ... vK (the first K) cut them
 * into K+1 cubes: cube i sets v1..v(i-1) to 0 and vi to 1, cube K sets
 * all K to 0.  The cubes are the work queue: each goes to a process of its own
 * (a fork of the built model, which adds the cube's unit clauses, counts with
 * cp and verifies every solution as a count in one process does), as many at
 * once as there are threads, and the counts are summed.  On puzzles whose first
 * variables are an exactly-one (a cell's values, a queen's row) each cube is
 * one first decision, so the work divides evenly. */
#include "portfolio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* At most this many cubes (a fork and a lowering each), at most
 * MAX_PREFIX + 1 of them by prefixes. */
#define MAX_CUBES 256
#define MAX_PREFIX 63
#define TAIL 4
#define MAX_THREADS 64

struct cube_run {
    const ilpm_puzzle *pz;
    const void *inst;
    const ilpm_params *p;
    const ilpm_run_opts *o;
    const ilpm_options *so;
    ilpm_model *m;
    const int *vars; /* v1..vK */
    int k, cube, n;
    int on[2], non; /* by exactly-ones: the cube's literals (non > 0) */
};

/* The member's process: the cube's literals as unit clauses on its copy
 * of the model, then the count. */
static void cube_body(void *arg, int fd)
{
    struct cube_run *c = arg;
    ilpm_err err = {0};
    ilpm_pf_msg h;
    memset(&h, 0, sizeof h);
    h.type = ILPM_PF_FINAL;
    int ok = ilpm_model_group(c->m, "cube", &err) >= 0;
    for (int j = 0; ok && j < c->non; j++)
        ok = ilpm_add_clause(c->m, &c->on[j], 1, &err) == 0;
    for (int j = 0; ok && !c->non && j < c->cube && j < c->k; j++) {
        int lit = -c->vars[j];
        ok = ilpm_add_clause(c->m, &lit, 1, &err) == 0;
    }
    if (ok && !c->non && c->cube < c->k)
        ok = ilpm_add_clause(c->m, &c->vars[c->cube], 1, &err) == 0;
    if (!ok) {
        h.status = ilpm_rc_outcome(err.rc);
        h.rc = err.rc;
        snprintf(h.error, sizeof h.error, "%s", err.msg);
        (void)ilpm_portfolio_send(fd, &h, NULL, NULL);
        return;
    }
    ilpm_run_opts o = *c->o;
    o.render = 0;
    o.solver.backend = ILPM_BACKEND_CP;
    o.solver.stop_flag = NULL;
    ilpm_options so = *c->so;
    so.backend = ILPM_BACKEND_CP;
    so.stop_flag = NULL;
    if (c->n > 1 && so.max_memory_mb / c->n >= 16)
        so.max_memory_mb /= c->n;
    ilpm_result r;
    ilpm_result_init(&r);
    ilpm_run_count_model(c->pz, c->inst, c->p, &o, c->m, &so, &r);
    h.status = r.status;
    h.rc = r.error_kind;
    h.count = r.count;
    h.count_complete = r.count_complete;
    h.verified = r.verified;
    snprintf(h.error, sizeof h.error, "%s", r.error);
    (void)ilpm_portfolio_send(fd, &h, r.have_stats ? &r.stats : NULL, NULL);
    ilpm_result_free(&r);
}

struct tally {
    uint64_t count;
    int complete, failed, timeouts, stopped, have_stats;
    ilpm_stats stats;
    char error[512];
    int error_rc;
};

/* Cube i's final message into t. */
static void add_cube(struct tally *t, ilpm_pf_msg *h)
{
    t->count += h->count;
    if (!h->count_complete && h->status != ILPM_UNSAT)
        t->complete = 0;
    if (h->status == ILPM_TIMEOUT)
        t->timeouts++;
    else if (h->status == ILPM_STOPPED)
        t->stopped++;
    else if (h->status == ILPM_ERROR && !t->failed++) {
        snprintf(t->error, sizeof t->error, "%s", h->error);
        t->error_rc = h->rc;
    }
    if (h->has_stats && !t->have_stats) {
        t->stats = h->stats;
        h->stats.groups = NULL;
        t->have_stats = 1;
    }
}

/* The first k variables of the answer (not auxiliary) into vars. */
static int cube_vars(const ilpm_model *m, int *vars, int max)
{
    int k = 0, nv = ilpm_model_nvars(m);
    for (int v = 1; v <= nv && k < max; v++)
        if (!ilpm_model_var_is_aux(m, v))
            vars[k++] = v;
    return k;
}

/* The result of the count from its tally. */
static void count_result(const ilpm_run_opts *o, struct tally *t, int all_done,
                         ilpm_result *res)
{
    res->has_count = 1;
    res->count = t->count;
    res->count_complete = all_done && t->complete && !t->failed;
    volatile int *stop = o->solver.stop_flag;
    if (o->limit > 0 && t->count >= o->limit) {
        res->count = o->limit;
        res->count_complete = 0;
        res->status = ILPM_SOLVED;
    } else if (t->failed) {
        res->status = ILPM_ERROR;
        snprintf(res->error, sizeof res->error, "%s", t->error);
        res->error_kind = (ilpm_rc)t->error_rc;
    } else if (stop && *stop) {
        res->status = ILPM_STOPPED;
    } else if (!all_done || t->timeouts) {
        res->status = ILPM_TIMEOUT;
    } else {
        res->status = t->count > 0 ? ILPM_SOLVED : ILPM_UNSAT;
    }
    res->verified = res->count > 0 && !t->failed;
    if (t->have_stats) {
        ilpm_stats_free(&res->stats);
        res->stats = t->stats;
        res->have_stats = 1;
    }
}

/* The cubes in flight: slot i runs cube cube_of[i] in pid[i]. */
struct queue {
    struct cube_run runs[MAX_CUBES];
    pid_t pid[MAX_THREADS];
    int fd[MAX_THREADS], cube_of[MAX_THREADS];
    int n, k, next, running, done, ncubes;
    int vars[MAX_PREFIX];
    const int *exo[2]; /* by exactly-ones: their literals */
    int nexo[2], nexos;
    int whole; /* by one exactly-one: its first literals taken alone */
};

/* An exactly-one over the answer's variables (positive literals, none
 * auxiliary, none marked in used), from constraint i on: its number, or
 * -1.  Its variables are marked in used. */
static long find_exo(const ilpm_model *m, size_t i, uint8_t *used,
                     ilpm_con *out)
{
    for (size_t n = ilpm_model_ncons(m); i < n; i++) {
        ilpm_model_con(m, i, out);
        int exo =
            out->kind == ILPM_EXO ||
            (out->kind == ILPM_CARD && out->cmp == ILPM_EQ && out->rhs == 1);
        for (int j = 0; exo && j < out->n; j++)
            exo = out->lits[j] > 0 && !used[out->lits[j]] &&
                  !ilpm_model_var_is_aux(m, out->lits[j]);
        if (!exo || out->n < 2)
            continue;
        for (int j = 0; j < out->n; j++)
            used[out->lits[j]] = 1;
        return (long)i;
    }
    return -1;
}

/* The cubes: by the first two exactly-ones that share no variable (or
 * the first alone) when they make at most MAX_CUBES, else by prefixes
 * of the answer's first variables.  -1 out of memory. */
static int plan_cubes(struct queue *q, const ilpm_model *m)
{
    uint8_t *used = calloc((size_t)ilpm_model_nvars(m) + 1, 1);
    if (!used)
        return -1;
    ilpm_con c[2];
    long at = find_exo(m, 0, used, &c[0]);
    int two = at >= 0 && find_exo(m, (size_t)at + 1, used, &c[1]) >= 0;
    free(used);
    if (two && (long)c[0].n * c[1].n <= MAX_CUBES)
        q->nexos = 2;
    else if (at >= 0 && c[0].n <= MAX_CUBES)
        q->nexos = 1;
    /* one exactly-one: its last literals paired with the second's */
    int tail = q->nexos == 1 && two ? (MAX_CUBES - c[0].n) / (c[1].n - 1) : 0;
    tail = tail < TAIL ? tail : TAIL;
    tail = tail < c[0].n ? tail : c[0].n;
    for (int i = 0; i < q->nexos + (tail > 0); i++) {
        q->exo[i] = c[i].lits;
        q->nexo[i] = c[i].n;
    }
    q->whole = q->nexos == 1 ? c[0].n - tail : 0;
    q->ncubes = q->nexos == 2   ? c[0].n * c[1].n
                : q->nexos == 1 ? q->whole + tail * c[1].n
                                : 1;
    if (q->nexos == 0) {
        q->k = cube_vars(m, q->vars, MAX_PREFIX);
        q->ncubes = q->k + 1;
    }
    return 0;
}

int ilpm_portfolio_cubes(const ilpm_model *m)
{
    struct queue *q = calloc(1, sizeof *q);
    int n = q && plan_cubes(q, m) == 0 ? q->ncubes : -1;
    free(q);
    return n;
}

/* Cube r->cube's literals into r (by exactly-ones). */
static void cube_lits(const struct queue *q, struct cube_run *r)
{
    r->non = q->nexos;
    int i = r->cube;
    if (q->nexos == 1 && i >= q->whole) { /* the tail by pairs */
        i -= q->whole;
        r->non = 2;
        r->on[0] = q->exo[0][q->whole + i / q->nexo[1]];
        r->on[1] = q->exo[1][i % q->nexo[1]];
        return;
    }
    for (int j = q->nexos - 1; j >= 0; j--) {
        r->on[j] = q->exo[j][i % q->nexo[j]];
        i /= q->nexo[j];
    }
}

/* Fills the free slots with the next cubes: 0, or -1 with t->error. */
static int hand_out(struct queue *q, const struct cube_run *base,
                    struct tally *t)
{
    for (int i = 0; i < q->n && q->next < q->ncubes; i++) {
        if (q->pid[i] > 0)
            continue;
        q->runs[q->next] = *base;
        q->runs[q->next].cube = q->next;
        cube_lits(q, &q->runs[q->next]);
        q->pid[i] =
            ilpm_portfolio_spawn(cube_body, &q->runs[q->next], q->n, &q->fd[i]);
        if (q->pid[i] < 0) {
            snprintf(t->error, sizeof t->error, "cannot start a process: %s",
                     strerror(errno));
            t->failed = 1;
            t->error_rc = ILPM_E_FAIL;
            return -1;
        }
        q->cube_of[i] = q->next;
        q->next++;
        q->running++;
    }
    return 0;
}

/* The answer of slot i (or its end without one) into t. */
static void collect(struct queue *q, int i, struct tally *t)
{
    ilpm_pf_msg h;
    uint8_t *vals;
    if (ilpm_portfolio_recv(q->fd[i], &h, &vals) != 0) {
        memset(&h, 0, sizeof h);
        h.status = ILPM_ERROR;
        h.rc = ILPM_E_FAIL;
        snprintf(h.error, sizeof h.error,
                 "the count of cube %d ended without an answer", q->cube_of[i]);
    }
    add_cube(t, &h);
    ilpm_stats_free(&h.stats);
    free(vals);
    close(q->fd[i]);
    ilpm_portfolio_kill(q->pid[i]);
    q->fd[i] = -1;
    q->pid[i] = -1;
    q->running--;
    q->done++;
}

int ilpm_portfolio_count(const ilpm_puzzle *pz, const void *inst,
                         const ilpm_params *p, const ilpm_run_opts *o,
                         ilpm_model *m, const ilpm_options *so,
                         ilpm_result *res)
{
    struct queue *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(res->error, sizeof res->error, "out of memory");
        res->error_kind = ILPM_E_NOMEM;
        return -1;
    }
    if (plan_cubes(q, m) != 0) {
        free(q);
        snprintf(res->error, sizeof res->error, "out of memory");
        res->error_kind = ILPM_E_NOMEM;
        return -1;
    }
    q->n = ilpm_portfolio_threads(o);
    if (q->n > MAX_THREADS)
        q->n = MAX_THREADS;
    for (int i = 0; i < q->n; i++)
        q->pid[i] = -1, q->fd[i] = -1;
    struct cube_run base = {pz,      inst, p, o,    so,     m,
                            q->vars, q->k, 0, q->n, {0, 0}, 0};
    struct tally t;
    memset(&t, 0, sizeof t);
    t.complete = 1;
    volatile int *stop = o->solver.stop_flag;
    double t0 = ilpm_now(), deadline = so->deadline;
    while (q->done < q->ncubes && !(stop && *stop) && !t.failed &&
           !(o->limit > 0 && t.count >= o->limit)) {
        if (hand_out(q, &base, &t) != 0 || q->running == 0)
            break;
        int i = ilpm_portfolio_wait(q->fd, q->n, deadline);
        if (i == -2)
            break;
        if (i >= 0)
            collect(q, i, &t);
    }
    for (int i = 0; i < q->n; i++) {
        ilpm_portfolio_kill(q->pid[i]);
        if (q->fd[i] >= 0)
            close(q->fd[i]);
    }
    res->solve_ms = (ilpm_now() - t0) * 1000.0;
    count_result(o, &t, q->done == q->ncubes, res);
    res->backend = ILPM_BACKEND_CP;
    snprintf(res->member, sizeof res->member, "cp x%d", q->n);
    if (pz->count_note)
        pz->count_note(inst, res->count_note, sizeof res->count_note);
    free(q);
    return 0;
}
