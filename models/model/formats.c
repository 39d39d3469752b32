/* The table of model files' formats (src/run/format.h), made from the
 * list in formats.h. */
#include "formats.h"

#include <stddef.h>

#define ROW(n) &ilpm_format_##n,
const ilpm_file_format *const ilpm_file_formats[] = {ILPM_MODEL_FORMATS(ROW)
                                                         NULL};
#undef ROW

/* The same names, for --input-format's choices (an option row's choices
 * are a constant list); tests/check_formats.c checks that each is its
 * row's. */
#define NAME(n) #n,
const char *const ilpm_file_format_names[] = {ILPM_MODEL_FORMATS(NAME) NULL};
#undef NAME
