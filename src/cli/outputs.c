/* The outputs of a run, checked before any instance is read: every file
 * an option names for writing (--out, --lp, --mps, --cnf, --opb, --plot,
 * --slurm-script) must be writable where it is and must not be one of
 * the run's inputs, and a results file that batch or merge would replace
 * must be one.  One mistake, one message, exit 2, nothing written. */
#include "batch.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct output {
    const char *option; /* without "--" */
    const char *path;
};

/* The outputs c names, into o (at most 8). */
static int outputs_of(const cli *c, struct output *o)
{
    static const char *const fmt[ILPM_FMT_COUNT] = {"lp", "mps", "cnf", "opb"};
    int n = 0;
    if (c->out_path)
        o[n++] = (struct output){"out", c->out_path};
    for (int f = 0; f < ILPM_FMT_COUNT; f++)
        if (c->export_path[f])
            o[n++] = (struct output){fmt[f], c->export_path[f]};
    if (c->plot_path)
        o[n++] = (struct output){"plot", c->plot_path};
    if (c->slurm_script)
        o[n++] = (struct output){"slurm-script", c->slurm_script};
    return n;
}

/* batch and merge --out: a file that is there and is not a results
 * file is somebody's data, never replaced (nor appended to). */
static int check_results_out(const cli *c)
{
    int json = 0;
    ilpm_err err = {0};
    int kind = ilpm_results_probe(c->out_path, &json, &err);
    if (kind >= 0)
        return 0;
    fprintf(stderr,
            "ilpm: --out %s; %s would %s it: to overwrite it on purpose, "
            "remove it first (rm '%s'), else choose another --out\n",
            err.msg, c->verb_name, c->resume ? "add rows to" : "replace",
            c->out_path);
    return -1;
}

int cli_check_outputs(const cli *c)
{
    struct output o[8];
    int n = outputs_of(c, o);
    const char *const *inputs = c->files;
    for (int i = 0; i < n; i++) {
        ilpm_err err = {0};
        /* gen reads no file; merge's inputs are results files. */
        if (ilpm_out_check(o[i].path, inputs, c->nfiles, &err) != 0) {
            fprintf(stderr, "ilpm: --%s %s\n", o[i].option, err.msg);
            return -1;
        }
        /* Two outputs on one file: the second would replace the first. */
        for (int j = 0; j < i; j++)
            if (strcmp(o[j].path, "-") != 0 &&
                ilpm_out_check(o[i].path, &o[j].path, 1, &err) != 0) {
                fprintf(stderr, "ilpm: --%s and --%s name the same file %s\n",
                        o[j].option, o[i].option, o[i].path);
                return -1;
            }
    }
    if ((c->verb == VERB_BATCH || c->verb == VERB_MERGE) && c->out_path &&
        check_results_out(c) != 0)
        return -1;
    return 0;
}
