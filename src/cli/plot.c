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

int ilpm_plot_write(const char *path, const plot_point *pts, int n,
                    double time_limit, char *err, size_t size)
{
    char dir[] = "/tmp/ilpm-plot-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(err, size, "--plot: cannot make a temporary folder: %s",
                 strerror(errno));
        return -1;
    }
    char data[256], script[256], gperr[256];
    snprintf(data, sizeof data, "%s/data.txt", dir);
    snprintf(gperr, sizeof gperr, "%s/gnuplot.err", dir);
    snprintf(script, sizeof script, "%s/plot.gp", dir);
    /* Series: distinct (formulation, backend) pairs in order of first
     * appearance. */
    int nseries = 0;
    int *series = calloc((size_t)n + 1, sizeof *series);
    double *times = calloc((size_t)n + 1, sizeof *times);
    int rc = -1;
    FILE *fd = fopen(data, "w"), *fs = fopen(script, "w");
    ilpm_err oerr;
    ilpm_out *fig = ilpm_out_open(path, ILPM_OUT_REPLACE, &oerr);
    const char *fig_name = fig ? ilpm_out_name(fig, &oerr) : NULL;
    if (!fig_name) {
        snprintf(err, size, "--plot: %s", oerr.msg);
        goto out;
    }
    if (!series || !times || !fd || !fs) {
        snprintf(err, size, "--plot: cannot write temporary files");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        int s = -1;
        for (int j = 0; j < i && s < 0; j++)
            if (strcmp(pts[j].formulation, pts[i].formulation) == 0 &&
                pts[j].backend == pts[i].backend)
                s = series[j];
        series[i] = s >= 0 ? s : nseries++;
    }
    double cap = time_limit > 0 ? time_limit * 1000.0 : 0;
    /* The cactus's ranges, given to gnuplot: one instance or equal times
     * would make it guess an empty range (and warn). */
    int most = 1;
    double clo = 1e300, chi = 0;
    for (int s = 0; s < nseries; s++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (series[i] == s && pts[i].answered)
                times[k++] = pts[i].solve_ms > 0.001 ? pts[i].solve_ms : 0.001;
        qsort(times, (size_t)k, sizeof *times, cmp_double);
        most = k > most ? k : most;
        if (k > 0) {
            clo = times[0] < clo ? times[0] : clo;
            chi = times[k - 1] > chi ? times[k - 1] : chi;
        }
        fprintf(fd, "# cactus series %d\n", s);
        for (int i = 0; i < k; i++)
            fprintf(fd, "%d %.6f\n", i + 1, times[i]);
        if (k == 0)
            fprintf(fd, "0 0.001\n");
        fprintf(fd, "\n\n");
    }
    /* Scatter: the same instance and formulation on the reference back
     * end (x) and on each other one (y), a data block each; unanswered
     * runs sit at the time limit (or the slowest time). */
    double slowest = 0.001;
    int ref = ILPM_BACKEND_COUNT;
    unsigned present = 0;
    for (int i = 0; i < n; i++) {
        if (pts[i].solve_ms > slowest)
            slowest = pts[i].solve_ms;
        if (pts[i].backend < ref)
            ref = pts[i].backend;
        present |= 1u << pts[i].backend;
    }
    if (cap <= 0)
        cap = slowest;
    int npairs = 0, nscatter = 0, others[ILPM_BACKEND_COUNT];
    double lo = 1e300, hi = 0;
    for (int b = ref + 1; b < ILPM_BACKEND_COUNT; b++) {
        if (!(present & (1u << b)) || pairs(pts, n, ref, b) == 0)
            continue; /* an empty block would shift gnuplot's indices */
        others[nscatter++] = b;
        fprintf(fd, "# scatter %s %s\n", ilpm_backend_name((ilpm_backend)ref),
                ilpm_backend_name((ilpm_backend)b));
        for (int i = 0; i < n; i++) {
            if (pts[i].backend != ref)
                continue;
            for (int j = 0; j < n; j++)
                if (pts[j].backend == b && pts[j].instance == pts[i].instance &&
                    strcmp(pts[j].formulation, pts[i].formulation) == 0) {
                    double x = pts[i].answered ? pts[i].solve_ms : cap;
                    double y = pts[j].answered ? pts[j].solve_ms : cap;
                    x = x > 0.001 ? x : 0.001;
                    y = y > 0.001 ? y : 0.001;
                    fprintf(fd, "%.6f %.6f\n", x, y);
                    lo = x < lo ? x : lo;
                    lo = y < lo ? y : lo;
                    hi = x > hi ? x : hi;
                    hi = y > hi ? y : hi;
                    npairs++;
                }
        }
        fprintf(fd, "\n\n");
    }
    if (npairs == 0) {
        lo = 0.001;
        hi = 1;
    }
    int png = strcmp(ext(path), "png") == 0;
    fprintf(fs, "set terminal %s size 1100,480%s\n", png ? "pngcairo" : "svg",
            png ? "" : " dynamic");
    /* gnuplot writes the figure by name; it is put in place only when
     * complete. */
    fprintf(fs, "set output \"");
    put_title(fs, fig_name);
    fprintf(fs, "\"\nset multiplot layout 1,2\n");
    fprintf(fs, "set title \"instances solved against time\"\n"
                "set xlabel \"instances solved\"\nset ylabel \"solve ms\"\n"
                "set logscale y\nset key left top\nset grid\n");
    if (chi <= 0)
        clo = chi = 0.001;
    fprintf(fs, "set xrange [0:%d]\nset yrange [%g:%g]\n", most + 1, clo / 2,
            chi * 2);
    fprintf(fs, "plot ");
    for (int s = 0; s < nseries; s++) {
        int first = -1;
        for (int i = 0; i < n && first < 0; i++)
            if (series[i] == s)
                first = i;
        fprintf(fs, "%s\"%s\" index %d with linespoints title \"",
                s ? ", " : "", data, s);
        if (pts[first].formulation[0]) {
            put_title(fs, pts[first].formulation);
            fputc(' ', fs);
        }
        fprintf(fs, "%s\"",
                ilpm_backend_name((ilpm_backend)pts[first].backend));
    }
    const char *rname =
        ref < ILPM_BACKEND_COUNT ? ilpm_backend_name((ilpm_backend)ref) : "-";
    fprintf(fs,
            "\nunset logscale\nset logscale xy\n"
            "set title \"solve ms: %s (x) against the others (y)\"\n"
            "set xlabel \"%s solve ms\"\nset ylabel \"solve ms\"\n"
            "set key left top\nset size square\n",
            rname, rname);
    /* The same range on both axes, so the diagonal means "as fast". */
    fprintf(fs, "set xrange [%g:%g]\nset yrange [%g:%g]\n", lo / 2, hi * 2,
            lo / 2, hi * 2);
    fprintf(fs, "plot ");
    for (int k = 0; k < nscatter; k++)
        fprintf(fs, "\"%s\" index %d with points pt 7 ps 0.6 title \"%s\", ",
                data, nseries + k, ilpm_backend_name((ilpm_backend)others[k]));
    fprintf(fs, "x with lines lc rgb \"gray\" notitle\n");
    fprintf(fs, "unset multiplot\n");
    int bad = ferror(fd) || ferror(fs);
    bad |= fclose(fd) != 0;
    bad |= fclose(fs) != 0;
    fd = fs = NULL;
    if (bad) {
        snprintf(err, size, "--plot: cannot write temporary files in %s: %s",
                 dir, strerror(errno ? errno : EIO));
        goto out;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, size, "--plot: cannot start gnuplot: %s",
                 strerror(errno));
        goto out;
    }
    if (pid == 0) {
        /* gnuplot's warnings are not the user's: its stderr goes to a
         * file, shown when it fails. */
        FILE *e = freopen(gperr, "w", stderr);
        (void)e;
        char *argv[] = {"gnuplot", script, NULL};
        execvp("gnuplot", argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char why[200] = "";
        FILE *e = fopen(gperr, "r");
        if (e) {
            /* The first line that says something (gnuplot points at
             * the script's text with a line of blanks and '^'). */
            while (fgets(why, sizeof why, e) &&
                   strspn(why, " \t\n^") == strlen(why))
                why[0] = '\0';
            why[strcspn(why, "\n")] = '\0';
            fclose(e);
        }
        snprintf(err, size, "--plot: gnuplot failed (script %s)%s%s", script,
                 *why ? ": " : "", why);
        goto out_keep;
    }
    rc = ilpm_out_commit(fig, &oerr);
    fig = NULL;
    if (rc != 0)
        snprintf(err, size, "--plot: %s", oerr.msg);
out:
    remove(data);
    remove(script);
    remove(gperr);
    rmdir(dir);
out_keep:
    ilpm_out_abort(fig);
    if (fd)
        fclose(fd);
    if (fs)
        fclose(fs);
    free(series);
    free(times);
    return rc;
}
