/* formats.h: the list of model files' formats, one row each: X(NAME)
 * names the descriptor `const ilpm_file_format ilpm_format_NAME`
 * (src/run/format.h) that lives with the format's code (LP and MPS in
 * lp.c, OPB in opb.c, CNF in dimacs.c, FlatZinc in fzn_parse.c).  From
 * it come the table (formats.c) and the descriptors' declarations here.
 * The order is the order messages and --input-format's help name them.
 * A new format is its own file and one X(NAME) here (docs/layout.md). */
#ifndef ILPM_FORMATS_H
#define ILPM_FORMATS_H

#include "format.h"

#define ILPM_MODEL_FORMATS(X) X(lp) X(mps) X(opb) X(cnf) X(fzn)

#define ILPM_FORMAT_DECL(n) extern const ilpm_file_format ilpm_format_##n;
ILPM_MODEL_FORMATS(ILPM_FORMAT_DECL)
#undef ILPM_FORMAT_DECL

#endif
