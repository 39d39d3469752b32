/* The outputs of a run, checked before any instance is read: every file
 * an option names for writing (the rows flagged OPT_OUTPUT: --out, --lp,
 * --mps, --cnf, --opb, --plot, --slurm-script) must be writable where it is and
 * must not be one of the run's inputs, and a results file that batch or merge
 * would replace must be one.  One mistake, one message, exit 2, nothing
 * written. */
#include "batch.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

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
    const ilpm_opt *o[8];
    const char *path[8];
    int n = cli_outputs(c, o, path, 8);
    const char *const *inputs = c->files;
    for (int i = 0; i < n; i++) {
        ilpm_err err = {0};
        /* gen reads no file; merge's inputs are results files. */
        if (ilpm_out_check(path[i], inputs, c->nfiles, &err) != 0) {
            fprintf(stderr, "ilpm: --%s %s\n", o[i]->name, err.msg);
            return -1;
        }
        /* Two outputs on one file: the second would replace the first. */
        for (int j = 0; j < i; j++)
            if (strcmp(path[j], "-") != 0 &&
                ilpm_out_check(path[i], &path[j], 1, &err) != 0) {
                fprintf(stderr, "ilpm: --%s and --%s name the same file %s\n",
                        o[j]->name, o[i]->name, path[i]);
                return -1;
            }
    }
    if ((c->verb == VERB_BATCH || c->verb == VERB_MERGE) && c->out_path &&
        check_results_out(c) != 0)
        return -1;
    return 0;
}
