/* Random Tetravex boards (ilpm gen tetravex): a solved board with random
 * digits, its tiles shuffled; with --unsolvable, one side of one tile
 * changed until a back end (SAT unless told) proves that no solution is
 * left, within the time limit, and stopped at once by a stop request. */
#include "tetravex.h"

#include <stdio.h>
#include <string.h>

const ilpm_opt ilpm_tvx_gen_opts[] = {
    {.name = "n",
     .arg = "N",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = TVX_MAX_N,
     .help = "board size, required"},
    {.name = "seed",
     .arg = "S",
     .type = ILPM_OPT_INT,
     .lo = 0,
     .hi = 0x7fffffffL,
     .def = "1",
     .help = "random seed"},
    {.name = "digits",
     .arg = "D",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 10,
     .def = "10",
     .help = "digits 0..D-1 on the sides"},
    {.name = "count",
     .arg = "C",
     .type = ILPM_OPT_INT,
     .lo = 1,
     .hi = 1000,
     .def = "1",
     .help = "number of boards (native and motyak only)"},
    {.name = "unsolvable",
     .type = ILPM_OPT_FLAG,
     .help = "change one side of one tile until solving proves no solution"},
    {.name = "input-format",
     .arg = "FMT",
     .type = ILPM_OPT_CHOICE,
     .def = "native",
     .choices = ilpm_tvx_input_formats,
     .help = "native, epita or motyak"},
    {.name = NULL},
};

static void write_board(const tetravex *tv, int fmt, ilpm_buf *out)
{
    if (fmt == FMT_NATIVE)
        ilpm_buf_printf(out, "%d\n", tv->n);
    else if (fmt == FMT_MOTYAK)
        ilpm_buf_printf(out, "%d %d\n", tv->n, tv->n);
    for (int t = 0; t < tv->ntiles; t++) {
        const uint8_t *d = tv->side[t];
        if (fmt == FMT_EPITA)
            ilpm_buf_printf(out, "%d%d%d%d\n", d[UP], d[LEFT], d[RIGHT],
                            d[DOWN]);
        else
            ilpm_buf_printf(out, "%d %d %d %d\n", d[LEFT], d[UP], d[RIGHT],
                            d[DOWN]);
    }
}

#define UNSOLVABLE_TRIES 100
#define UNSOLVABLE_SECONDS 60.0

/* The budget of --unsolvable: the time limit, else this one's own. */
typedef struct budget {
    const ilpm_gen_opts *g;
    double deadline;
    int n;
} budget;

/* -1 with err: the time is up (exit status of a time limit when it is
 * the user's) or a stop was requested. */
static int out_of_time(const budget *b, ilpm_err *err)
{
    const ilpm_options *o = &b->g->solver;
    if (o->stop_flag && *o->stop_flag) {
        return ilpm_err_fail(err, ILPM_E_INTERRUPTED, "--unsolvable: stopped");
    }
    if (o->time_limit <= 0)
        return ilpm_err_input(err,
                              "--unsolvable: no %dx%d board proved "
                              "unsolvable within %.0f s",
                              b->n, b->n, UNSOLVABLE_SECONDS);
    return ilpm_err_fail(err, ILPM_E_TIMEOUT,
                         "--unsolvable: no %dx%d board proved unsolvable "
                         "within the time limit (%g s)",
                         b->n, b->n, o->time_limit);
}

/* 1 if the board has no solution, 0 if it has one, -1 on error (running
 * out of time included: a board not proved unsolvable is not reported
 * as such).  By default CaDiCaL on the assign formulation, the fastest
 * pair as measured (docs/benchmarks.md). */
static int proved_unsolvable(tetravex *tv, const budget *b, ilpm_err *err)
{
    if (ilpm_now() >= b->deadline ||
        (b->g->solver.stop_flag && *b->g->solver.stop_flag))
        return out_of_time(b, err);
    if (ilpm_tvx_classify(tv) != 0)
        return ilpm_err_nomem(err, "out of memory");
    ilpm_model *m = ilpm_model_new();
    ilpm_params *p = ilpm_params_new();
    if (!m || !p) {
        ilpm_model_free(m);
        ilpm_params_free(p);
        return ilpm_err_nomem(err, "out of memory");
    }
    int rc = -1;
    ilpm_solver *s = NULL;
    ilpm_options o = b->g->solver;
    o.deadline = b->deadline;
    ilpm_model_set_deadline(m, b->deadline, o.stop_flag);
    int built = ilpm_tvx_build(tv, p, m, err);
    if (ilpm_model_cut_short(m, err) == 0 && built == 0)
        s = ilpm_solver_new(m, &o, err);
    if (s) {
        ilpm_status st = ilpm_solver_solve(s, NULL, 0, err);
        if (st == ILPM_UNSAT)
            rc = 1;
        else if (st == ILPM_SOLVED)
            rc = 0;
        else if (st != ILPM_ERROR)
            rc = out_of_time(b, err);
    } else if (ilpm_rc_outcome(err->rc) != ILPM_ERROR) {
        rc = out_of_time(b, err); /* cut short while building */
    }
    ilpm_solver_free(s);
    ilpm_model_free(m);
    ilpm_params_free(p);
    return rc;
}

/* A solved board with random digits, its tiles shuffled; for
 * --unsolvable one side of one tile changed until solving proves that
 * no solution is left (within a number of tries and a time budget). */
static int gen_board(tetravex *tv, int n, int digits, int unsolvable,
                     ilpm_rng *rng, const ilpm_gen_opts *g, long board,
                     ilpm_err *err)
{
    int cells = n * n;
    tv->n = n;
    tv->ntiles = cells;
    for (int c = 0; c < cells; c++) {
        tv->fixed[c] = -1;
        for (int s = 0; s < 4; s++)
            tv->side[c][s] = (uint8_t)ilpm_rng_below(rng, (uint64_t)digits);
    }
    for (int c = 0; c < cells; c++) {
        if (c % n > 0)
            tv->side[c][LEFT] = tv->side[c - 1][RIGHT];
        if (c / n > 0)
            tv->side[c][UP] = tv->side[c - n][DOWN];
    }
    for (int i = cells - 1; i > 0; i--) {
        int j = (int)ilpm_rng_below(rng, (uint64_t)i + 1);
        uint8_t tmp[4];
        memcpy(tmp, tv->side[i], 4);
        memcpy(tv->side[i], tv->side[j], 4);
        memcpy(tv->side[j], tmp, 4);
    }
    if (!unsolvable)
        return 0;
    budget b = {g, ilpm_options_deadline(&g->solver), n};
    if (b.deadline <= 0)
        b.deadline = ilpm_now() + UNSOLVABLE_SECONDS;
    for (int tries = 0; tries < UNSOLVABLE_TRIES; tries++) {
        int t = (int)ilpm_rng_below(rng, (uint64_t)cells);
        int s = (int)ilpm_rng_below(rng, 4);
        uint8_t old = tv->side[t][s];
        int d = (int)ilpm_rng_below(rng, (uint64_t)digits - 1);
        tv->side[t][s] = (uint8_t)(d >= old ? d + 1 : d);
        if (g->step) {
            char what[96];
            snprintf(what, sizeof what, "board %ld, try %d of %d (%s)", board,
                     tries + 1, UNSOLVABLE_TRIES,
                     ilpm_backend_name(g->solver.backend));
            g->step(g->step_ctx, what);
        }
        int r = proved_unsolvable(tv, &b, err);
        if (r != 0)
            return r > 0 ? 0 : -1;
        tv->side[t][s] = old;
    }
    return ilpm_err_input(err,
                          "--unsolvable: no change of a single side made the "
                          "%dx%d board unsolvable in %d tries",
                          n, n, UNSOLVABLE_TRIES);
}

int ilpm_tvx_generate(const ilpm_params *p, const ilpm_gen_opts *g,
                      ilpm_buf *out, ilpm_err *err)
{
    ilpm_gen_opts def;
    if (!g) {
        memset(&def, 0, sizeof def);
        ilpm_options_init(&def.solver);
        def.solver.backend = ilpm_backend_find("sat");
        g = &def;
    }
    long n, seed, digits, count;
    int fmt;
    if (!ilpm_params_has(p, "n"))
        return ilpm_err_input(err, "--n: the board size is required");
    const ilpm_opt *t = ilpm_tvx_gen_opts;
    if (ilpm_params_int(p, t, "n", &n, err) != 0 ||
        ilpm_params_int(p, t, "seed", &seed, err) != 0 ||
        ilpm_params_int(p, t, "digits", &digits, err) != 0 ||
        ilpm_params_int(p, t, "count", &count, err) != 0 ||
        ilpm_params_choice(p, t, "input-format", &fmt, err) != 0)
        return -1;
    int unsolvable = ilpm_params_has(p, "unsolvable");
    if (fmt == FMT_EPITA && count > 1)
        return ilpm_err_input(err,
                              "--count: an epita file holds one board, "
                              "got --count %ld",
                              count);
    if (unsolvable && digits < 2)
        return ilpm_err_input(err, "--unsolvable: needs --digits 2 or more "
                                   "(a side must be changed to another "
                                   "digit)");
    if (unsolvable && n < 2)
        return ilpm_err_input(err, "--unsolvable: needs --n 2 or more (one "
                                   "tile always fits a 1x1 board)");
    ilpm_rng rng;
    ilpm_rng_seed(&rng, (uint64_t)seed);
    tetravex *tv = ilpm_tvx_alloc((int)(n * n));
    if (!tv)
        return ilpm_err_nomem(err, "out of memory");
    int rc = 0;
    for (long i = 0; i < count && rc == 0; i++) {
        rc =
            gen_board(tv, (int)n, (int)digits, unsolvable, &rng, g, i + 1, err);
        if (rc != 0)
            break;
        if (i > 0)
            ilpm_buf_putc(out, '\n');
        if (fmt == FMT_NATIVE)
            ilpm_buf_printf(out,
                            "# tetravex %ldx%ld, digits 0-%ld, seed %ld, "
                            "board %ld: %s\n",
                            n, n, digits - 1, seed, i + 1,
                            unsolvable ? "unsolvable" : "solvable");
        write_board(tv, fmt, out);
    }
    ilpm_tvx_free(tv);
    if (rc == 0 && out->oom)
        rc = ilpm_err_nomem(err, "out of memory");
    return rc;
}
