/* gmpl_int.h: what the two halves of the MathProg translation share.
 * GLPK's translator cannot be interrupted, so it runs in a child process
 * (glpk_mpl.c, the only half that calls GLPK) that the caller's process
 * (gmpl_proc.c) stops on a deadline, a stop or a failure: the child
 * sends the generated problem back through a pipe and stays, waiting
 * for the solution, to run the model's statements after `solve` with
 * its own workspace. */
#ifndef ILPM_GMPL_INT_H
#define ILPM_GMPL_INT_H

#include "ilpm_readers.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* A message's head; len bytes of payload follow it. */
typedef struct gmpl_msg {
    uint32_t type; /* GMPL_MSG_*                                  */
    uint32_t kind; /* GMPL_MSG_ERR, _OUT: ilpm_rc + 1, 0: ok */
    uint64_t len;
} gmpl_msg;

enum {
    GMPL_MSG_WARN = 1, /* child: the translator's warnings, one a line  */
    GMPL_MSG_ERR,      /* child: the translation failed: the message  */
    GMPL_MSG_LP,       /* child: the problem (ilpm_gmpl_lp_pack)         */
    GMPL_MSG_X,        /* parent: the column values, ncols doubles       */
    GMPL_MSG_OUT       /* child: u32 length of a message (0: the
                        * statements ran), the message, then the text
                        * the model wrote                               */
};

/* Writes a message of a + b; 0, or -1 once the pipe is gone. */
int ilpm_gmpl_send(int fd, uint32_t type, uint32_t kind, const void *a,
                   size_t na, const void *b, size_t nb);

/* The problem as bytes, and back (NULL with err when malformed). */
void ilpm_gmpl_lp_pack(const ilpm_lp *lp, ilpm_buf *b);
ilpm_lp *ilpm_gmpl_lp_unpack(const char *p, size_t n, ilpm_err *err);

/* The child's whole life: translates src, sends what it found on out,
 * then (keep) waits on in for the values and runs the statements after
 * solve.  Never returns. */
void ilpm_gmpl_child(const ilpm_gmpl_src *src, int keep, int in, int out)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#endif
