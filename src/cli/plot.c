/* Plots for `ilpm compare --plot`: a cactus plot (instances solved against
 * time, one line per formulation and back end) beside a scatter of solve
 * times on log axes, the first back end of the registry in the runs (ilp)
 * against each other one, a series each.  Drawn by gnuplot, found on PATH
 * at run time; ilpm writes the data and the script. */
#include "plot.h"
#include "backends.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char buf[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && n + strlen(prog) + 2 < sizeof buf) {
            memcpy(buf, path, n);
            buf[n] = '/';
            strcpy(buf + n + 1, prog);
            if (access(buf, X_OK) == 0)
                return 1;
        }
        path += n;
        if (*path == ':')
            path++;
    }
    return 0;
}

static const char *ext(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : "";
}

int ilpm_plot_check_path(const char *path, char *err, size_t size)
{
    const char *e = ext(path);
    if (strcmp(path, "-") == 0) {
        snprintf(err, size,
                 "--plot: '-' is not taken: standard output holds the "
                 "comparison's table; name a .svg or .png file");
        return -1;
    }
    if (strcmp(e, "svg") != 0 && strcmp(e, "png") != 0) {
        snprintf(err, size, "--plot: '%s' must end in .svg or .png", path);
        return -1;
    }
    if (!on_path("gnuplot")) {
        snprintf(err, size,
                 "--plot needs gnuplot, which is not on PATH (Debian: "
                 "apt-get install gnuplot-nox)");
        return -1;
    }
    return 0;
}

/* The runs of back end b on an instance and formulation that back end
 * ref ran too. */
static int pairs(const plot_point *pts, int n, int ref, int b)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; pts[i].backend == ref && j < n; j++)
            k += pts[j].backend == b && pts[j].instance == pts[i].instance &&
                 strcmp(pts[j].formulation, pts[i].formulation) == 0;
    return k;
}

/* Escapes a title for a gnuplot double-quoted string. */
static void put_title(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
}

/* A plot in the making: the points, their series, the ranges found in
 * writing the data that the script then gives gnuplot, and the files. */
typedef struct plot {
    const plot_point *pts;
    int n;
    int *series; /* of each point */
    int nseries;
    double *times;   /* room for a series' sorted times */
    int most;        /* the cactus's ranges: instances, */
    double clo, chi; /* solve ms */
    int ref;         /* the scatter's x back end, and its y ones */
    int others[ILPM_BACKEND_COUNT], nscatter;
    double lo, hi; /* the scatter's range */
    char dir[32], data[256], script[256], gperr[256];
} plot;

/* Series: distinct (formulation, backend) pairs in order of first
 * appearance. */
static void number_series(plot *pl)
{
    const plot_point *pts = pl->pts;
    for (int i = 0; i < pl->n; i++) {
        int s = -1;
        for (int j = 0; j < i && s < 0; j++)
            if (strcmp(pts[j].formulation, pts[i].formulation) == 0 &&
                pts[j].backend == pts[i].backend)
                s = pl->series[j];
        pl->series[i] = s >= 0 ? s : pl->nseries++;
    }
}

/* The cactus's data blocks, one a series, and its ranges, given to
 * gnuplot: one instance or equal times would make it guess an empty
 * range (and warn). */
static void write_cactus(plot *pl, FILE *fd)
{
    pl->most = 1;
    pl->clo = 1e300, pl->chi = 0;
    for (int s = 0; s < pl->nseries; s++) {
        int k = 0;
        for (int i = 0; i < pl->n; i++)
            if (pl->series[i] == s && pl->pts[i].answered)
                pl->times[k++] =
                    pl->pts[i].solve_ms > 0.001 ? pl->pts[i].solve_ms : 0.001;
        qsort(pl->times, (size_t)k, sizeof *pl->times, cmp_double);
        pl->most = k > pl->most ? k : pl->most;
        if (k > 0) {
            pl->clo = pl->times[0] < pl->clo ? pl->times[0] : pl->clo;
            pl->chi = pl->times[k - 1] > pl->chi ? pl->times[k - 1] : pl->chi;
        }
        fprintf(fd, "# cactus series %d\n", s);
        for (int i = 0; i < k; i++)
            fprintf(fd, "%d %.6f\n", i + 1, pl->times[i]);
        if (k == 0)
            fprintf(fd, "0 0.001\n");
        fprintf(fd, "\n\n");
    }
}

/* The scatter's block of back end b against pl->ref: the same instance
 * and formulation on both, unanswered runs at cap; its pairs. */
static int write_pairs(plot *pl, FILE *fd, int b, double cap)
{
    const plot_point *pts = pl->pts;
    int npairs = 0;
    for (int i = 0; i < pl->n; i++) {
        if (pts[i].backend != pl->ref)
            continue;
        for (int j = 0; j < pl->n; j++)
            if (pts[j].backend == b && pts[j].instance == pts[i].instance &&
                strcmp(pts[j].formulation, pts[i].formulation) == 0) {
                double x = pts[i].answered ? pts[i].solve_ms : cap;
                double y = pts[j].answered ? pts[j].solve_ms : cap;
                x = x > 0.001 ? x : 0.001;
                y = y > 0.001 ? y : 0.001;
                fprintf(fd, "%.6f %.6f\n", x, y);
                pl->lo = x < pl->lo ? x : pl->lo;
                pl->lo = y < pl->lo ? y : pl->lo;
                pl->hi = x > pl->hi ? x : pl->hi;
                pl->hi = y > pl->hi ? y : pl->hi;
                npairs++;
            }
    }
    return npairs;
}

/* Scatter: the reference back end (x) against each other one (y), a data
 * block each; unanswered runs sit at the time limit (or the slowest
 * time). */
static void write_scatter(plot *pl, FILE *fd, double time_limit)
{
    double cap = time_limit > 0 ? time_limit * 1000.0 : 0;
    double slowest = 0.001;
    unsigned present = 0;
    pl->ref = ILPM_BACKEND_COUNT;
    for (int i = 0; i < pl->n; i++) {
        if (pl->pts[i].solve_ms > slowest)
            slowest = pl->pts[i].solve_ms;
        if (pl->pts[i].backend < pl->ref)
            pl->ref = pl->pts[i].backend;
        present |= 1u << pl->pts[i].backend;
    }
    if (cap <= 0)
        cap = slowest;
    int npairs = 0;
    pl->nscatter = 0;
    pl->lo = 1e300, pl->hi = 0;
    for (int b = pl->ref + 1; b < ILPM_BACKEND_COUNT; b++) {
        if (!(present & (1u << b)) || pairs(pl->pts, pl->n, pl->ref, b) == 0)
            continue; /* an empty block would shift gnuplot's indices */
        pl->others[pl->nscatter++] = b;
        fprintf(fd, "# scatter %s %s\n",
                ilpm_backend_name((ilpm_backend)pl->ref),
                ilpm_backend_name((ilpm_backend)b));
        npairs += write_pairs(pl, fd, b, cap);
        fprintf(fd, "\n\n");
    }
    if (npairs == 0) {
        pl->lo = 0.001;
        pl->hi = 1;
    }
}

/* The script's left plot: a line a series. */
static void script_cactus(const plot *pl, FILE *fs)
{
    fprintf(fs, "set title \"instances solved against time\"\n"
                "set xlabel \"instances solved\"\nset ylabel \"solve ms\"\n"
                "set logscale y\nset key left top\nset grid\n");
    double clo = pl->clo, chi = pl->chi;
    if (chi <= 0)
        clo = chi = 0.001;
    fprintf(fs, "set xrange [0:%d]\nset yrange [%g:%g]\n", pl->most + 1,
            clo / 2, chi * 2);
    fprintf(fs, "plot ");
    for (int s = 0; s < pl->nseries; s++) {
        int first = -1;
        for (int i = 0; i < pl->n && first < 0; i++)
            if (pl->series[i] == s)
                first = i;
        fprintf(fs, "%s\"%s\" index %d with linespoints title \"",
                s ? ", " : "", pl->data, s);
        if (pl->pts[first].formulation[0]) {
            put_title(fs, pl->pts[first].formulation);
            fputc(' ', fs);
        }
        fprintf(fs, "%s\"",
                ilpm_backend_name((ilpm_backend)pl->pts[first].backend));
    }
}

/* The script's right plot: a series a back end against the reference,
 * and the diagonal. */
static void script_scatter(const plot *pl, FILE *fs)
{
    const char *rname = pl->ref < ILPM_BACKEND_COUNT
                            ? ilpm_backend_name((ilpm_backend)pl->ref)
                            : "-";
    fprintf(fs,
            "\nunset logscale\nset logscale xy\n"
            "set title \"solve ms: %s (x) against the others (y)\"\n"
            "set xlabel \"%s solve ms\"\nset ylabel \"solve ms\"\n"
            "set key left top\nset size square\n",
            rname, rname);
    /* The same range on both axes, so the diagonal means "as fast". */
    fprintf(fs, "set xrange [%g:%g]\nset yrange [%g:%g]\n", pl->lo / 2,
            pl->hi * 2, pl->lo / 2, pl->hi * 2);
    fprintf(fs, "plot ");
    for (int k = 0; k < pl->nscatter; k++)
        fprintf(fs, "\"%s\" index %d with points pt 7 ps 0.6 title \"%s\", ",
                pl->data, pl->nseries + k,
                ilpm_backend_name((ilpm_backend)pl->others[k]));
    fprintf(fs, "x with lines lc rgb \"gray\" notitle\n");
}

static void write_script(const plot *pl, FILE *fs, const char *fig_name,
                         int png)
{
    fprintf(fs, "set terminal %s size 1100,480%s\n", png ? "pngcairo" : "svg",
            png ? "" : " dynamic");
    /* gnuplot writes the figure by name; it is put in place only when
     * complete. */
    fprintf(fs, "set output \"");
    put_title(fs, fig_name);
    fprintf(fs, "\"\nset multiplot layout 1,2\n");
    script_cactus(pl, fs);
    script_scatter(pl, fs);
    fprintf(fs, "unset multiplot\n");
}

/* Runs gnuplot on the script: 0, or -1 with err (its first line that
 * says something). */
static int run_gnuplot(const plot *pl, char *err, size_t size)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, size, "--plot: cannot start gnuplot: %s",
                 strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* gnuplot's warnings are not the user's: its stderr goes to a
         * file, shown when it fails. */
        FILE *e = freopen(pl->gperr, "w", stderr);
        (void)e;
        char *argv[] = {"gnuplot", (char *)pl->script, NULL};
        execvp("gnuplot", argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char why[200] = "";
    FILE *e = fopen(pl->gperr, "r");
    if (e) {
        /* The first line that says something (gnuplot points at the
         * script's text with a line of blanks and '^'). */
        while (fgets(why, sizeof why, e) &&
               strspn(why, " \t\n^") == strlen(why))
            why[0] = '\0';
        why[strcspn(why, "\n")] = '\0';
        fclose(e);
    }
    snprintf(err, size, "--plot: gnuplot failed (script %s)%s%s", pl->script,
             *why ? ": " : "", why);
    return -1;
}

/* The data and the script into their temporary files: 0, or -1 with
 * err. */
static int write_files(plot *pl, const char *path, const char *fig_name,
                       double time_limit, char *err, size_t size)
{
    FILE *fd = fopen(pl->data, "w"), *fs = fopen(pl->script, "w");
    if (!fd || !fs) {
        snprintf(err, size, "--plot: cannot write temporary files");
        if (fd)
            fclose(fd);
        if (fs)
            fclose(fs);
        return -1;
    }
    number_series(pl);
    write_cactus(pl, fd);
    write_scatter(pl, fd, time_limit);
    write_script(pl, fs, fig_name, strcmp(ext(path), "png") == 0);
    int bad = ferror(fd) || ferror(fs);
    bad |= fclose(fd) != 0;
    bad |= fclose(fs) != 0;
    if (bad) {
        snprintf(err, size, "--plot: cannot write temporary files in %s: %s",
                 pl->dir, strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

int ilpm_plot_write(const char *path, const plot_point *pts, int n,
                    double time_limit, char *err, size_t size)
{
    plot pl = {.pts = pts, .n = n, .dir = "/tmp/ilpm-plot-XXXXXX"};
    if (!mkdtemp(pl.dir)) {
        snprintf(err, size, "--plot: cannot make a temporary folder: %s",
                 strerror(errno));
        return -1;
    }
    snprintf(pl.data, sizeof pl.data, "%s/data.txt", pl.dir);
    snprintf(pl.gperr, sizeof pl.gperr, "%s/gnuplot.err", pl.dir);
    snprintf(pl.script, sizeof pl.script, "%s/plot.gp", pl.dir);
    pl.series = calloc((size_t)n + 1, sizeof *pl.series);
    pl.times = calloc((size_t)n + 1, sizeof *pl.times);
    int rc = -1, keep = 0;
    ilpm_err oerr;
    ilpm_out *fig = ilpm_out_open(path, ILPM_OUT_REPLACE, &oerr);
    const char *fig_name = fig ? ilpm_out_name(fig, &oerr) : NULL;
    if (!fig_name) {
        snprintf(err, size, "--plot: %s", oerr.msg);
    } else if (!pl.series || !pl.times) {
        snprintf(err, size, "--plot: cannot write temporary files");
    } else if (write_files(&pl, path, fig_name, time_limit, err, size) == 0) {
        keep = run_gnuplot(&pl, err, size) != 0; /* the script, for the
                                                    message's reader */
        if (!keep) {
            rc = ilpm_out_commit(fig, &oerr);
            fig = NULL;
            if (rc != 0)
                snprintf(err, size, "--plot: %s", oerr.msg);
        }
    }
    if (!keep) {
        remove(pl.data);
        remove(pl.script);
        remove(pl.gperr);
        rmdir(pl.dir);
    }
    ilpm_out_abort(fig);
    free(pl.series);
    free(pl.times);
    return rc;
}
