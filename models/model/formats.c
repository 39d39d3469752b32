/* The table of model files' formats (src/run/format.h), made from one
 * list: each row is a descriptor `const ilpm_file_format
 * ilpm_format_NAME` that lives with its format's code (LP and MPS in
 * lp.c, OPB in opb.c, CNF in dimacs.c, FlatZinc in fzn_parse.c).  The
 * list's order is the order messages and --input-format's help name
 * them.  A new format is its own file and one X(NAME) here. */
#include "format.h"

#include <stddef.h>

#define ILPM_MODEL_FORMATS(X) X(lp) X(mps) X(opb) X(cnf) X(fzn)

#define DECL(n) extern const ilpm_file_format ilpm_format_##n;
ILPM_MODEL_FORMATS(DECL)
#undef DECL

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
