/* The outputs of a run, checked before any instance is read: every file
 * an option names for writing (the rows flagged OPT_OUTPUT: --out, --lp,
 * --mps, --cnf, --opb, --plot, --slurm-script) must be writable where it is and
 * must not be one of the run's inputs (ilpm_cli_inputs: the FILEs and every
 * option that names a file to read, as gmpl's --data and --model), and a
 * results file that batch or merge would replace must be one.  One mistake, one
 * message, exit 2, nothing written. */
#include "batch.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* batch and merge --out: a file that is there and is not a results
 * file is somebody's data, never replaced (nor appended to); batch
 * replaces results that are there only when told to (--force), as
 * --resume adds to them. */
static int check_results_out(const cli *c)
{
    int json = 0;
    ilpm_err err = {0};
    int kind = ilpm_results_probe(c->out_path, &json, &err);
    if (kind == 1 && c->verb == VERB_BATCH && !c->resume && !c->force) {
        fprintf(stderr,
                "ilpm: --out %s holds results already: add --resume to run "
                "only what it lacks, or --force to replace it\n",
                c->out_path);
        return -1;
    }
    if (kind == 1 && c->verb == VERB_BATCH && c->resume &&
        ilpm_cli_given(c, "format") && json != (c->format == FMT_JSON)) {
        fprintf(stderr,
                "ilpm: --format %s: --out %s holds %s, which --resume adds "
                "to in their format: leave --format out, or choose another "
                "--out\n",
                c->format == FMT_JSON ? "json" : "csv", c->out_path,
                json ? "JSON lines" : "CSV rows");
        return -1;
    }
    if (kind >= 0)
        return 0;
    fprintf(stderr,
            "ilpm: --out %s; %s would %s it: to overwrite it on purpose, "
            "remove it first (rm '%s'), else choose another --out\n",
            err.msg, c->verb_name, c->resume ? "add rows to" : "replace",
            c->out_path);
    return -1;
}

/* The values of the rows of table flagged ILPM_OPT_INPUT that params
 * hold, each value of a repeated one apart: their number; with to, each
 * copied after text (moved on past it) and pointed at from to. */
static int option_inputs(const ilpm_opt *table, const ilpm_params *params,
                         const char **to, char **text)
{
    int n = 0;
    for (const ilpm_opt *r = table; r && r->name; r++) {
        const char *v = (r->flags & ILPM_OPT_INPUT)
                            ? ilpm_params_get(params, r->name)
                            : NULL;
        for (const char *s = v; s;) {
            const char *e = strchr(s, ILPM_OPT_SEP);
            size_t len = e ? (size_t)(e - s) : strlen(s);
            if (to) {
                memcpy(*text, s, len);
                (*text)[len] = '\0';
                to[n] = *text;
                *text += len + 1;
            }
            n++;
            s = e ? e + 1 : NULL;
        }
    }
    return n;
}

const char **ilpm_cli_inputs(const cli *c, int *n)
{
    const ilpm_opt *rows[8];
    const char *own[8];
    int nown = ilpm_cli_files(c, ILPM_OPT_INPUT, rows, own, 8);
    const ilpm_opt *table = ilpm_cli_puzzle_rows(c);
    int nopt = option_inputs(table, c->params, NULL, NULL);
    size_t text = 0;
    for (const ilpm_opt *r = table; r && r->name; r++) {
        const char *v = ilpm_params_get(c->params, r->name);
        if ((r->flags & ILPM_OPT_INPUT) && v)
            text += strlen(v) + 1;
    }
    size_t count = (size_t)(c->nfiles + nown + nopt);
    const char **in = malloc((count + 1) * sizeof *in + text);
    if (!in)
        return NULL;
    char *at = (char *)(in + count + 1);
    *n = 0;
    for (int i = 0; i < c->nfiles; i++)
        in[(*n)++] = c->files[i];
    for (int i = 0; i < nown; i++)
        in[(*n)++] = own[i];
    *n += option_inputs(table, c->params, in + *n, &at);
    in[*n] = NULL;
    return in;
}

/* Each output against the inputs and against the outputs before it. */
static int check_each(const cli *c, const char *const *inputs, int nin)
{
    const ilpm_opt *o[8];
    const char *path[8];
    int n = ilpm_cli_files(c, OPT_OUTPUT, o, path, 8);
    for (int i = 0; i < n; i++) {
        ilpm_err err = {0};
        if (ilpm_out_check(path[i], inputs, nin, &err) != 0) {
            fprintf(stderr, "ilpm: --%s %s\n", o[i]->name, err.msg);
            return -1;
        }
        /* Two outputs on one file: the second would replace the first;
         * on standard output, follow it, one stream of two formats. */
        for (int j = 0; j < i; j++)
            if (strcmp(path[j], "-") == 0 && strcmp(path[i], "-") == 0) {
                fprintf(stderr,
                        "ilpm: --%s and --%s both write to standard "
                        "output (-): give one of them a file\n",
                        o[j]->name, o[i]->name);
                return -1;
            } else if (strcmp(path[j], "-") != 0 &&
                       ilpm_out_check(path[i], &path[j], 1, &err) != 0) {
                fprintf(stderr, "ilpm: --%s and --%s name the same file %s\n",
                        o[j]->name, o[i]->name, path[i]);
                return -1;
            }
    }
    return 0;
}

int ilpm_cli_check_outputs(const cli *c)
{
    int nin = 0;
    const char **inputs = ilpm_cli_inputs(c, &nin);
    if (!inputs) {
        fprintf(stderr, "ilpm: out of memory\n");
        return -1;
    }
    int rc = check_each(c, inputs, nin);
    free(inputs);
    if (rc == 0 && (c->verb == VERB_BATCH || c->verb == VERB_MERGE) &&
        c->out_path && check_results_out(c) != 0)
        rc = -1;
    return rc;
}
