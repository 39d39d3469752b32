/* tetravex.h: what the files of the Tetravex puzzle share, private to
 * models/tetravex/.  tetravex.c gathers them into the descriptor; parse.c
 * reads the three input formats, model.c states the formulations, check.c
 * decodes and verifies by the rules alone, gen.c writes random boards. */
#ifndef ILPM_TETRAVEX_H
#define ILPM_TETRAVEX_H

#include "puzzle.h"

#include <stdint.h>

#define TVX_MAX_N 20
#define TVX_MAX_TILES (TVX_MAX_N * TVX_MAX_N)

/* A tile's sides, in the order the native format gives them. */
enum { LEFT, UP, RIGHT, DOWN };
/* --input-format: indices into ilpm_tvx_input_formats. */
enum { FMT_NATIVE, FMT_EPITA, FMT_MOTYAK };

typedef struct tetravex {
    int n, ntiles;
    uint8_t (*side)[4]; /* ntiles tiles as [left, up, right, down]     */
    int *fixed;         /* fixed[t]: the cell tile t must take, or -1 */
    int nfixed;
    long line; /* first line of the instance in its file         */
    /* Identical tiles merged: type[t] in 0..ntypes-1, numbered in order
     * of first appearance; mult[k] tiles of type k, rep[k] the first. */
    int ntypes;
    int *type, *mult, *rep;
} tetravex;

typedef struct tvx_sol {
    int n;
    int *tile; /* n*n tile indices (0-based) row-major, -1 for none */
} tvx_sol;

/* tetravex.c: the instance.  ilpm_tvx_alloc makes room for cap tiles, none
 * read yet; ilpm_tvx_classify merges identical tiles into types, anew each
 * time it is called (-1: out of memory). */
tetravex *ilpm_tvx_alloc(int cap);
void ilpm_tvx_free(void *p);
int ilpm_tvx_classify(tetravex *tv);

/* parse.c */
extern const char *const ilpm_tvx_input_formats[];
int ilpm_tvx_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                   ilpm_err *err);

/* model.c */
extern const char *const ilpm_tvx_formulations[];
int ilpm_tvx_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                   ilpm_err *err);

/* check.c */
void *ilpm_tvx_decode(const void *inst, const ilpm_params *p,
                      const ilpm_model *m, const uint8_t *vals, ilpm_err *err);
int ilpm_tvx_verify(const void *inst, const ilpm_params *p, const void *vsol,
                    ilpm_err *why);
void ilpm_tvx_sol_free(void *p);

/* gen.c */
extern const ilpm_opt ilpm_tvx_gen_opts[];
/* The puzzle's options (tetravex.c), read by its parser and model. */
extern const ilpm_opt ilpm_tvx_opts[];
int ilpm_tvx_generate(const ilpm_params *p, const ilpm_gen_opts *g,
                      ilpm_buf *out, ilpm_err *err);

#endif
