/* Whole reads and writes on a descriptor (a pipe or a socket between
 * ilpm's processes: batch workers, the MathProg translator), resumed
 * after a signal. */
#include "util.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

int ilpm_fd_read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

int ilpm_fd_write_all(int fd, const void *buf, size_t n, int socket)
{
    const char *p = buf;
    while (n > 0) {
        /* A socket: a reader gone is an error, not SIGPIPE. */
        ssize_t w = socket ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}
