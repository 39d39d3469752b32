/* --backend auto's shared incumbents (portfolio.h): the parent sends each
 * verified incumbent's objective to the other members, each over a pipe
 * of its own; a member polls it as the bound of its optimisation
 * (ilpm_solver_on_bound).  Neither side ever waits on the pipe: the
 * parent skips a full one, a member reads what came. */
#include "portfolio.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

/* How often a member reads its pipe: a back end asks at every 512th
 * node (cp) or each terminate check (CaDiCaL), far more often. */
#define POLL_S 0.002

void ilpm_pf_bound_pipe(int want, ilpm_pf_bounds *in, int *out)
{
    int p[2];
    *in = (ilpm_pf_bounds){-1, 0, 0, 0};
    *out = -1;
    if (!want || pipe(p) != 0)
        return;
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK);
    in->fd = p[0];
    *out = p[1];
}

int ilpm_pf_bound_read(void *bounds, int64_t *obj)
{
    ilpm_pf_bounds *in = bounds;
    double now = ilpm_now();
    if (in->fd < 0 || now < in->next_poll)
        return 0;
    in->next_poll = now + POLL_S;
    int64_t b;
    int got = 0;
    /* The parent sends improving values only: the last is the best. */
    while (read(in->fd, &b, sizeof b) == (ssize_t)sizeof b)
        got = 1, in->told = b;
    if (got) {
        in->bounded = 1;
        *obj = in->told;
    }
    return got;
}

void ilpm_pf_bound_wait(const ilpm_pf_bounds *in, double s)
{
    double end = ilpm_now() + s;
    struct pollfd pf = {.fd = in->fd, .events = POLLIN};
    while (in->fd >= 0 && ilpm_now() < end && poll(&pf, 1, 10) == 0)
        ;
}

/* SIGPIPE is held off meanwhile: the parent must not die of a member's
 * end (members that have all gone, their incumbent read after). */
void ilpm_pf_bound_share(int *out, int n, int skip, int64_t obj)
{
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ign.sa_mask);
    if (sigaction(SIGPIPE, &ign, &old) != 0)
        return;
    for (int j = 0; j < n; j++)
        if (j != skip && out[j] >= 0 && write(out[j], &obj, sizeof obj) < 0 &&
            errno != EAGAIN) {
            close(out[j]);
            out[j] = -1;
        }
    sigaction(SIGPIPE, &old, NULL);
}
