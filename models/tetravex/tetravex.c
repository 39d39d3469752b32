/* Tetravex: place n*n square tiles, each with a digit 0-9 on every side
 * and never rotated, on an n x n board so that touching sides carry the
 * same digit.  This file holds the descriptor, the instance and its
 * output; the rest of the puzzle is in the files that tetravex.h names.
 *
 * Identical tiles are merged into tile types first, and every
 * formulation places types, not tiles.  A board then has exactly one
 * assignment, so counting counts distinct boards and no symmetry between
 * twin tiles is left to break (per-tile variables would count every
 * permutation of the twins). */
#include "tetravex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ilpm_opt ilpm_tvx_opts[] = {
    {.name = "formulation",
     .arg = "F",
     .type = ILPM_OPT_CHOICE,
     .def = "assign",
     .choices = ilpm_tvx_formulations,
     .help = "assign (support clauses), conflict (pairwise) or edges"},
    {.name = "input-format",
     .arg = "FMT",
     .type = ILPM_OPT_CHOICE,
     .def = "native",
     .choices = ilpm_tvx_input_formats,
     .help = "native, epita or motyak (see input)"},
    {.name = "diag",
     .type = ILPM_OPT_FLAG,
     .help = "also the 2x2 rule: a type on one diagonal cell of a 2x2 block "
             "needs one on the other that two middle tiles complete"},
    {.name = "redundant",
     .type = ILPM_OPT_FLAG,
     .help = "also the line rule: across each column (row) boundary, each "
             "digit shows as often on one side as on the other"},
    {.name = NULL},
};

/* ------------------------------------------------------------------ */
/* Instances                                                            */

void ilpm_tvx_free(void *p)
{
    tetravex *tv = p;
    if (tv) {
        free(tv->side);
        free(tv->fixed);
        free(tv->type);
        free(tv->mult);
        free(tv->rep);
    }
    free(tv);
}

tetravex *ilpm_tvx_alloc(int cap)
{
    tetravex *tv = calloc(1, sizeof *tv);
    if (!tv)
        return NULL;
    tv->side = malloc((size_t)cap * sizeof *tv->side);
    tv->fixed = malloc((size_t)cap * sizeof *tv->fixed);
    if (!tv->side || !tv->fixed) {
        ilpm_tvx_free(tv);
        return NULL;
    }
    return tv;
}

/* Quadratic, but boards are small (at most 400 tiles).  The generator
 * classifies again after changing a side. */
int ilpm_tvx_classify(tetravex *tv)
{
    int t = tv->ntiles;
    free(tv->type);
    free(tv->mult);
    free(tv->rep);
    tv->type = malloc((size_t)t * sizeof *tv->type);
    tv->mult = calloc((size_t)t, sizeof *tv->mult);
    tv->rep = malloc((size_t)t * sizeof *tv->rep);
    if (!tv->type || !tv->mult || !tv->rep)
        return -1;
    tv->ntypes = 0;
    for (int i = 0; i < t; i++) {
        int k = 0;
        while (k < tv->ntypes &&
               memcmp(tv->side[tv->rep[k]], tv->side[i], 4) != 0)
            k++;
        if (k == tv->ntypes)
            tv->rep[tv->ntypes++] = i;
        tv->type[i] = k;
        tv->mult[k]++;
    }
    return 0;
}

static void tvx_describe(const void *inst, char *buf, size_t size)
{
    const tetravex *tv = inst;
    int k = snprintf(buf, size, "%dx%d", tv->n, tv->n);
    if (tv->line && k >= 0 && (size_t)k < size)
        k += snprintf(buf + k, size - (size_t)k, " line %ld", tv->line);
    if (tv->nfixed && k >= 0 && (size_t)k < size)
        snprintf(buf + k, size - (size_t)k, " (%d fixed)", tv->nfixed);
}

/* ------------------------------------------------------------------ */
/* Output                                                               */

/* Each tile as three lines, its digits where its sides are:
 *       3     8
 *     5   0 0   2
 *       4     1
 * so that the digits of neighbours face each other; a blank line between
 * rows of tiles, then the tile numbers (1-based, as in the input) row by
 * row. */
static void tvx_render(const void *inst, const void *vsol, ilpm_buf *out)
{
    const tetravex *tv = inst;
    const tvx_sol *s = vsol;
    int n = s->n;
    for (int r = 0; r < n; r++) {
        if (r)
            ilpm_buf_putc(out, '\n');
        for (int line = 0; line < 3; line++) {
            for (int c = 0; c < n; c++) {
                const uint8_t *d = tv->side[s->tile[r * n + c]];
                if (line == 1)
                    ilpm_buf_printf(out, "%s%d   %d", c ? " " : "", d[LEFT],
                                    d[RIGHT]);
                else
                    ilpm_buf_printf(out, "%s  %d", c ? "   " : "",
                                    d[line ? DOWN : UP]);
            }
            ilpm_buf_putc(out, '\n');
        }
    }
    ilpm_buf_puts(out, "\ntiles:\n");
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++)
            ilpm_buf_printf(out, "%s%3d", c ? " " : "", s->tile[r * n + c] + 1);
        ilpm_buf_putc(out, '\n');
    }
}

static void tvx_render_json(const void *inst, const void *vsol, ilpm_buf *out)
{
    (void)inst;
    const tvx_sol *s = vsol;
    ilpm_buf_puts(out, "{\"tiles\":");
    ilpm_buf_json_ints(out, s->tile, s->n * s->n, 1);
    ilpm_buf_putc(out, '}');
}

/* ilpm solve tetravex --help: examples (see puzzle.h). */
static const char *const tetravex_examples[] = {
    "data/tetravex/generated/5x5_solvable.txt",
    "data/tetravex/generated/4x4_unsolvable.txt --backend sat   # exit 10",
    "data/tetravex/avignon_motyak/4x4.txt --input-format motyak", NULL};

const ilpm_puzzle ilpm_puzzle_tetravex = {
    .name = "tetravex",
    .summary = "Tetravex: match the digits of touching tiles",
    .formulations = ilpm_tvx_formulations,
    .opts = ilpm_tvx_opts,
    .input_help =
        "FILE in one of three formats (--input-format, never guessed):\n"
        "  native: a line with N, then N*N tiles, one a line, as 'left up\n"
        "    right down' digits ('5 3 0 4' or '5304'); a blank line ends\n"
        "    the board and another may follow; '#' starts a comment.\n"
        "  epita: N*N lines of 'top left right bottom' digits ('1234'), an\n"
        "    optional ' @' pinning the tile to the cell of its line\n"
        "    (row-major); one board per file.\n"
        "  motyak: 'width height' (equal), then 'left up right down' per "
        "tile.\n"
        "Identical tiles are interchangeable: counts are of distinct\n"
        "boards.  Solution JSON: {\"tiles\":[...]}, the 1-based tile on\n"
        "each cell, row-major.",
    .examples = tetravex_examples,
    .from_params = NULL,
    .parse = ilpm_tvx_parse,
    .free_instance = ilpm_tvx_free,
    .describe = tvx_describe,
    .build = ilpm_tvx_build,
    .decode = ilpm_tvx_decode,
    .verify = ilpm_tvx_verify,
    .render = tvx_render,
    .render_json = tvx_render_json,
    .free_solution = ilpm_tvx_sol_free,
    .generate = ilpm_tvx_generate,
    .gen_opts = ilpm_tvx_gen_opts,
};
