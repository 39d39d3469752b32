/* libFuzzer harness for the reader of batch results files (used by
 * --resume and merge): any bytes give rows or an error, never a crash. */
#include "batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char in[] = "/tmp/ilpm-fuzz-results-XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(in);
        return 0;
    }
    close(fd);
    char out[64];
    snprintf(out, sizeof out, "%s.out", in);
    const char *inputs[2] = {in, in};
    ilpm_err err;
    ilpm_batch_merge(inputs, 2, out, &err);
    unlink(out);
    unlink(in);
    return 0;
}
