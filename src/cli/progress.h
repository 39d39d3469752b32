/* progress.h: the line on stderr that shows what solve and compare are
 * doing once they have worked for about a second: the instance, the run,
 * the count so far and its rate, the time spent.  Only on a terminal. */
#ifndef ILPM_PROGRESS_H
#define ILPM_PROGRESS_H

#include "run.h"

typedef struct progress progress;

/* NULL when stderr is not a terminal (or the line cannot run): every
 * other function takes NULL and does nothing. */
progress *ilpm_progress_start(void);
/* Erases the line and ends it. */
void ilpm_progress_stop(progress *p);
/* An instance begins; label names it. */
void ilpm_progress_instance(progress *p, const char *label);
/* The step under way in the instance, in words ("board 1, try 3 of
 * 100"), for work that is no solver run (gen). */
void ilpm_progress_step(progress *p, const char *what);
/* The ilpm_run_opts progress hook (ctx is the progress). */
void ilpm_progress_run(void *ctx, const ilpm_result *r);
/* The instance is done: erases the line before its result is printed
 * on stdout (the same terminal, most likely). */
void ilpm_progress_done(progress *p);

/* The line for c's run (none under --verbose, whose solver output shares
 * stderr): sets c's run hook, NULL when there is no line. */
struct cli;
progress *ilpm_progress_for(struct cli *c);
/* The instance inst of pz begins. */
void ilpm_progress_instance_of(progress *pg, const ilpm_puzzle *pz,
                               const void *inst);

#endif
