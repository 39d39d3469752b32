/* format.h: the registry of model files' formats, one row each.
 *
 * A row says what a format is called (its name is --input-format's value
 * and export's option, --lp), the extensions a file of it ends in, what
 * the format can carry, how the `model` puzzle reads it (reader: NULL
 * for none) and how a model is written in it (write: NULL for none).
 * The table is made in models/model/formats.c from the list of rows in
 * models/model/formats.h; each row lives with its format's code (lp.c,
 * opb.c, dimacs.c, fzn_parse.c).  The run layer and the command line
 * know formats through this table alone: `solve model FILE`,
 * `--input-format`, `stats model`, the checker of a model's solutions,
 * `export` and `fzn`. */
#ifndef ILPM_FORMAT_H
#define ILPM_FORMAT_H

#include "ilpm_int.h"
#include "util.h"

/* What a format can carry (ilpm_file_format.carries). */
#define ILPM_CARRIES_OBJECTIVE 1u /* an objective to optimise          */
#define ILPM_CARRIES_INTEGERS 2u  /* integers beyond 0/1, with bounds  */
#define ILPM_CARRIES_NAMES 4u     /* the variables' own names         */
#define ILPM_CARRIES_GZIP 8u      /* read compressed (FILE.gz) too     */

/* The `model` puzzle's side of a reader (models/model/mdl.h): opaque
 * here. */
struct ilpm_mdl_reader;

typedef struct ilpm_file_format {
    const char *name;        /* "lp"                                   */
    const char *const *exts; /* extensions without the dot, NULL-ended */
    const char *help;        /* "CPLEX LP (GLPK's reader and writer)"  */
    unsigned carries;        /* ILPM_CARRIES_*                         */
    const struct ilpm_mdl_reader *reader; /* NULL: not read            */
    /* Writes m to path ("-": standard output); returns as ilpm_export.
     * NULL: not written. */
    int (*write)(const ilpm_model *m, const ilpm_options *o, const char *path,
                 ilpm_err *err);
} ilpm_file_format;

/* Most rows the table may hold (the command line keeps a path each). */
#define ILPM_MAX_FORMATS 16

/* The rows, ended by NULL (models/model/formats.c), and their names in
 * the same order, ended by NULL (--input-format's choices). */
extern const ilpm_file_format *const ilpm_file_formats[];
extern const char *const ilpm_file_format_names[];

/* What ilpm_format_names lists. */
typedef enum ilpm_format_need {
    ILPM_FORMATS_READ,  /* rows with a reader                  */
    ILPM_FORMATS_WRITE, /* rows with a writer                  */
    ILPM_FORMATS_GZIP   /* rows with a reader of FILE.gz       */
} ilpm_format_need;

/* The row named name, or NULL. */
const ilpm_file_format *ilpm_format_find(const char *name);
/* The row whose extension ends path, a last ".gz" or ".xz" set aside
 * (*gz, *xz say which); NULL when none does. */
const ilpm_file_format *ilpm_format_of_path(const char *path, int *gz, int *xz);
/* The names of the rows that meet need, each between pre and post,
 * joined by sep ("lp|mps" or ".lp, .mps"; with ext, their extensions
 * instead); the length written, as snprintf. */
size_t ilpm_format_names(ilpm_format_need need, int ext, const char *pre,
                         const char *sep, char *buf, size_t size);

#endif
