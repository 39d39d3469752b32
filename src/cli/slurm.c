/* batch --slurm N: the batch as a Slurm job array of N shard tasks and a
 * merge step that runs once every task succeeded.
 *
 * What is written is a bash script that submits both with sbatch (the
 * job scripts ride in here-documents), so that running it again submits
 * the same work again: each task runs with --resume on its own shard
 * file and does only what is missing, and the merge is made anew.  A
 * task that failed or was killed thus loses nothing that it recorded. */
#include "batch.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Options a task does not take again: those of the script itself, and
 * those each task gets in its own form (their rows say: OPT_SCRIPT). */
static int dropped(const char *opt)
{
    const ilpm_opt *r = ilpm_cli_opt_find(opt);
    return r && (r->flags & OPT_SCRIPT);
}

/* s in single quotes for the shell; in a here-document whose words the
 * outer shell expands (heredoc), with $, ` and \ escaped too. */
static void quoted_in(ilpm_buf *b, const char *s, int heredoc)
{
    ilpm_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            ilpm_buf_puts(b, "'\\''");
        else if (heredoc && strchr("$`\\", *s))
            ilpm_buf_putc(b, '\\'), ilpm_buf_putc(b, *s);
        else
            ilpm_buf_putc(b, *s);
    }
    ilpm_buf_putc(b, '\'');
}

static void quoted(ilpm_buf *b, const char *s)
{
    quoted_in(b, s, 0);
}

/* The runs the batch makes: instances (--index: one a file) times the
 * back ends.  -1 after a message when a file cannot be read; malformed
 * instances count, as the batch records a row for each. */
static long count_runs(cli *c)
{
    long n = 0;
    for (int i = 0; i < c->nfiles; i++) {
        ilpm_err err = {0};
        ilpm_reader *rd = ilpm_reader_open(c->files[i], &err);
        if (!rd) {
            fprintf(stderr, "ilpm: %s\n", err.msg);
            return -1;
        }
        ilpm_instances it;
        ilpm_instances_init(&it, c->pz, c->params, rd, c->index);
        for (;;) {
            void *inst = NULL;
            int r = ilpm_instances_next(&it, &inst, &err);
            if (inst)
                c->pz->free_instance(inst);
            if (r == 0)
                break;
            if (r < 0 && it.done) {
                /* The batch records this as one error row. */
                n++;
                break;
            }
            n++;
        }
        ilpm_reader_free(rd);
    }
    int nb = 0;
    for (int b = 0; b < ILPM_BACKEND_COUNT; b++)
        nb += (c->backends & ILPM_BACKEND_BIT(b)) != 0;
    return n * (nb ? nb : 1);
}

/* The shell words of one task: this ilpm, the verb, puzzle, FILEs and
 * options as given but for those dropped. */
static void task_words(ilpm_buf *b, const cli *c, const char *exe)
{
    quoted_in(b, exe, 1);
    for (int i = 1; i < c->argc; i++) {
        if (c->argv_opt[i] && dropped(c->argv_opt[i]))
            continue;
        ilpm_buf_putc(b, ' ');
        quoted_in(b, c->argv[i], 1);
    }
}

static void sbatch_common(ilpm_buf *b, const cli *c)
{
    if (c->partition)
        ilpm_buf_printf(b, "#SBATCH --partition=%s\n", c->partition);
    if (c->account)
        ilpm_buf_printf(b, "#SBATCH --account=%s\n", c->account);
    for (const char *s = c->sbatch; s && *s;) {
        size_t n = strcspn(s, "\n");
        ilpm_buf_printf(b, "#SBATCH %.*s\n", (int)n, s);
        s += n + (s[n] != '\0');
    }
}

/* What each task is given: its wall time (0: the site's default) and
 * memory (0: the same) with headroom over the batch's own limits. */
static void task_limits(const cli *c, long runs, long jobs, long *minutes,
                        long *mem_mb)
{
    *minutes = 0;
    *mem_mb = 0;
    double t = c->run.solver.time_limit;
    if (t > 0) {
        /* A run gets t * 1.5 + 5 s before the batch replaces its worker
         * (batch.c); the task, that for each round of its workers, plus
         * a quarter and five minutes for reading and writing. */
        long per = (runs + c->slurm_n - 1) / c->slurm_n;
        long rounds = (per + jobs - 1) / jobs;
        double s = rounds * (t * 1.5 + 5.0) * 1.25 + 300.0;
        *minutes = (long)ceil(s / 60.0);
    }
    if (c->memory_limit > 0)
        *mem_mb = (long)ceil(c->memory_limit * (double)jobs) + 256;
}

/* The script's head: what it is, and its folder (an earlier, failed
 * array's waiting merge cancelled). */
static void script_head(ilpm_buf *b, const cli *c, long runs, const char *cwd,
                        const char *dir)
{
    ilpm_buf_puts(b, "#!/bin/bash\n");
    ilpm_buf_printf(b,
                    "# ilpm batch as a Slurm job array: %ld tasks for %ld "
                    "runs, then a merge into %s.\n",
                    (long)c->slurm_n, runs, c->out_path);
    ilpm_buf_puts(b, "# Run it with bash (not sbatch): it submits both and "
                     "prints their job ids.\n"
                     "# Running it again finishes only what is missing: "
                     "each task resumes its shard.\n");
    ilpm_buf_puts(b, "set -eu\ncd ");
    quoted(b, cwd);
    ilpm_buf_puts(b, "\ndir=");
    quoted(b, dir);
    ilpm_buf_puts(b, "\nmkdir -p \"$dir\"\n");
    ilpm_buf_puts(b, "# A merge left waiting on an earlier, failed array "
                     "never runs: cancel it.\n"
                     "if [ -s \"$dir/merge.jobid\" ]; then\n"
                     "    scancel \"$(cat \"$dir/merge.jobid\")\" 2>/dev/null "
                     "|| true\nfi\n");
}

/* The job array: a task a shard, each resuming its shard. */
static void script_array(ilpm_buf *b, cli *c, const char *exe, const char *dir,
                         const char *ext, long runs)
{
    long jobs = c->jobs > 0 ? c->jobs : 1, n = c->slurm_n;
    long minutes, mem;
    task_limits(c, runs, jobs, &minutes, &mem);
    ilpm_buf_puts(b, "array=$(sbatch --parsable <<ILPM_ARRAY\n#!/bin/bash\n");
    ilpm_buf_puts(b, "#SBATCH --job-name=ilpm-batch\n");
    ilpm_buf_printf(b, "#SBATCH --array=0-%ld\n", n - 1);
    /* --backend auto --threads N: N cores for each worker's members */
    long threads =
        c->run.solver.backend == ILPM_BACKEND_AUTO && c->run.threads > 1
            ? (long)c->run.threads
            : 1;
    ilpm_buf_printf(b, "#SBATCH --cpus-per-task=%ld\n", jobs * threads);
    if (minutes > 0)
        ilpm_buf_printf(b, "#SBATCH --time=%ld\n", minutes);
    if (mem > 0)
        ilpm_buf_printf(b, "#SBATCH --mem=%ldM\n", mem);
    ilpm_buf_printf(b, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", dir);
    sbatch_common(b, c);
    ilpm_buf_puts(b, "shard=");
    quoted_in(b, dir, 1);
    ilpm_buf_printf(b, "/shard-\\$SLURM_ARRAY_TASK_ID.%s\n", ext);
    task_words(b, c, exe);
    ilpm_buf_printf(b,
                    " --shard \"\\$SLURM_ARRAY_TASK_ID/%ld\" --jobs %ld "
                    "--resume --out \"\\$shard\"\n",
                    n, jobs);
    /* Rows unsatisfiable, timed out or with bad input are results: the
     * task succeeded if its shard holds them all. */
    ilpm_buf_puts(b, "rc=\\$?\n"
                     "case \\$rc in 0|2|3|10) test -s \"\\$shard\" && exit 0 "
                     ";; esac\nexit \\$((rc == 0 || rc == 2 || rc == 3 || rc "
                     "== 10 ? 1 : rc))\nILPM_ARRAY\n)\n");
    ilpm_buf_puts(b, "array=${array%%;*}\n");
}

/* The merge of the shards, once the array ended well. */
static void script_merge(ilpm_buf *b, cli *c, const char *exe, const char *dir,
                         const char *ext)
{
    ilpm_buf_puts(b, "merge=$(sbatch --parsable --dependency=afterok:$array "
                     "<<ILPM_MERGE\n#!/bin/bash\n");
    ilpm_buf_puts(b, "#SBATCH --job-name=ilpm-merge\n");
    ilpm_buf_printf(b, "#SBATCH --output=%s/slurm-merge-%%j.out\n", dir);
    sbatch_common(b, c);
    ilpm_buf_puts(b, "exec ");
    quoted_in(b, exe, 1);
    ilpm_buf_puts(b, " merge --out ");
    quoted_in(b, c->out_path, 1);
    for (long i = 0; i < c->slurm_n; i++) {
        char name[64];
        snprintf(name, sizeof name, "/shard-%ld.%s", i, ext);
        ilpm_buf_putc(b, ' ');
        quoted_in(b, dir, 1);
        ilpm_buf_puts(b, name);
    }
    ilpm_buf_puts(b, "\nILPM_MERGE\n)\n");
    ilpm_buf_puts(b, "merge=${merge%%;*}\n"
                     "echo \"$merge\" > \"$dir/merge.jobid\"\n"
                     "echo \"array $array\"\necho \"merge $merge\"\n");
}

static int write_script(ilpm_buf *b, cli *c, const char *exe, const char *cwd,
                        const char *dir, int json)
{
    long runs = count_runs(c);
    if (runs < 0)
        return -1;
    const char *ext = json ? "jsonl" : "csv";
    script_head(b, c, runs, cwd, dir);
    script_array(b, c, exe, dir, ext, runs);
    script_merge(b, c, exe, dir, ext);
    return 0;
}

/* Where ilpm and the current folder are, and --out fit for #SBATCH
 * lines: EXIT_OK, or an exit status after a message. */
static int slurm_paths(const cli *c, char *exe, char *cwd)
{
    ssize_t len = readlink("/proc/self/exe", exe, PATH_MAX - 1);
    if (len <= 0 || !getcwd(cwd, PATH_MAX)) {
        fprintf(stderr,
                "ilpm: --slurm: cannot tell where ilpm or the "
                "current folder is: %s\n",
                strerror(errno));
        return EXIT_INTERNAL;
    }
    exe[len] = '\0';
    if (strchr(cwd, '\n') || strchr(exe, '\n')) {
        fprintf(stderr, "ilpm: --slurm: a path holds a newline\n");
        return EXIT_USAGE;
    }
    /* The folder's name goes into #SBATCH lines, which know no quotes. */
    if (strpbrk(c->out_path, " \t\n'\"\\$`%")) {
        fprintf(stderr,
                "ilpm: --slurm: --out '%s' holds a space, quote, "
                "'$' or '%%', which #SBATCH lines cannot carry\n",
                c->out_path);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The script b into path, made executable: 0, or -1 after a message. */
static int save_script(const char *path, const ilpm_buf *b)
{
    ilpm_err err = {0};
    ilpm_out *o = ilpm_out_open(path, ILPM_OUT_REPLACE, &err);
    if (!o || ilpm_out_write(o, b->s, b->len) != 0 ||
        ilpm_out_commit(o, &err) != 0) {
        if (o)
            ilpm_out_abort(o);
        fprintf(stderr, "ilpm: %s\n", err.msg[0] ? err.msg : path);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        chmod(path, (st.st_mode & 07777) | 0111);
    return 0;
}

/* --submit: the script does it, so that this and a later re-submission
 * are the same thing. */
static int submit(const cli *c, const char *path)
{
    fflush(stdout);
    ilpm_buf cmd;
    ilpm_buf_init(&cmd);
    ilpm_buf_puts(&cmd, "bash ");
    quoted(&cmd, path);
    int st_rc = system(ilpm_buf_str(&cmd));
    ilpm_buf_free(&cmd);
    if (st_rc != 0) {
        fprintf(stderr,
                "ilpm: submitting %s failed (is sbatch on the PATH and "
                "Slurm up?)\n",
                path);
        return EXIT_INTERNAL;
    }
    printf("results: %s when the merge ends\n", c->out_path);
    return ilpm_cli_stdout_errno ? EXIT_INTERNAL : EXIT_OK;
}

/* The tasks run later, elsewhere: none can read this run's standard
 * input.  0, or -1 with the message given. */
static int stdin_input(const cli *c)
{
    int n = 0, rc = 0;
    const char **in = ilpm_cli_inputs(c, &n);
    for (int i = 0; in && i < n && rc == 0; i++)
        if (strcmp(in[i], "-") == 0) {
            fprintf(stderr, "ilpm: --slurm: the tasks cannot read standard "
                            "input (-): save it to a file and name that\n");
            rc = -1;
        }
    free(in);
    return rc;
}

/* A script written over a batch's results would lose them.  0, or -1
 * with the message given. */
static int script_over_results(const cli *c)
{
    int json = 0;
    ilpm_err err = {0};
    if (!c->slurm_script ||
        ilpm_results_probe(c->slurm_script, &json, &err) != 1)
        return 0;
    fprintf(stderr,
            "ilpm: --slurm-script %s holds batch results: writing the "
            "script there would lose them; choose another name\n",
            c->slurm_script);
    return -1;
}

int ilpm_cmd_slurm(cli *c)
{
    char exe[PATH_MAX], cwd[PATH_MAX];
    if (stdin_input(c) != 0)
        return EXIT_USAGE;
    if (script_over_results(c) != 0)
        return EXIT_USAGE;
    int rc = slurm_paths(c, exe, cwd);
    if (rc != EXIT_OK)
        return rc;
    int json = ilpm_cli_batch_writes_json(c);
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s.shards", c->out_path);
    ilpm_buf b;
    ilpm_buf_init(&b);
    if (write_script(&b, c, exe, cwd, dir, json) != 0) {
        ilpm_buf_free(&b);
        return EXIT_USAGE;
    }
    char made[PATH_MAX + 32];
    const char *path = c->slurm_script;
    if (!path && c->submit) {
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "ilpm: %s: %s\n", dir, strerror(errno));
            ilpm_buf_free(&b);
            return EXIT_INTERNAL;
        }
        snprintf(made, sizeof made, "%s/submit.sh", dir);
        path = made;
    }
    if (!path) {
        rc = ilpm_cli_put_stdout(ilpm_buf_str(&b));
        ilpm_buf_free(&b);
        return rc == 0 ? EXIT_OK : EXIT_INTERNAL;
    }
    rc = save_script(path, &b);
    ilpm_buf_free(&b);
    if (rc != 0)
        return EXIT_INTERNAL;
    if (!c->submit) {
        fprintf(stderr, "ilpm: wrote %s; submit it with: bash %s\n", path,
                path);
        return EXIT_OK;
    }
    return submit(c, path);
}
