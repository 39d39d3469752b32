/* plot.h: the figures of `ilpm compare --plot`, drawn by gnuplot. */
#ifndef ILPM_PLOT_H
#define ILPM_PLOT_H

#include <stddef.h>

typedef struct plot_point {
    long instance;           /* instances are told apart by number */
    const char *formulation; /* "" for a puzzle with one            */
    int backend;             /* an ilpm_backend                     */
    int answered;            /* solved, optimal or unsat            */
    double solve_ms;
} plot_point;

/* 0 if path ends in .svg or .png and gnuplot is on PATH; else -1 with a
 * message in err. */
int ilpm_plot_check_path(const char *path, char *err, size_t size);
/* Writes the cactus plot and the scatter of the first back end of the
 * points (in registry order) against each other one to path.  time_limit
 * (seconds, 0 for none) places unanswered runs on the scatter. */
int ilpm_plot_write(const char *path, const plot_point *pts, int n,
                    double time_limit, char *err, size_t size);

#endif
