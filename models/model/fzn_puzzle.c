/* The `fzn` puzzle: a FlatZinc file through ilpm's own verbs (solve,
 * stats, export, compare, batch), the `model` puzzle with FlatZinc as
 * its only input format.  Every function but parse is the model
 * puzzle's (model.c); parse is too, held to the fzn row of the table of
 * formats, so that a file of another format is refused rather than read.
 * `ilpm fzn FILE` (no verb) is MiniZinc's entry point, not this. */
#include "formats.h"
#include "mdl.h"

static const ilpm_opt fzn_opts[] = {
    {.name = "int-encoding",
     .arg = "ENC",
     .type = ILPM_OPT_CHOICE,
     .choices = ilpm_mdl_encodings,
     .help = "how a var int is made of 0/1 variables: binary (log "
             "encoding, the default) or unary (order encoding)"},
    {.name = NULL},
};

static int fzn_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                     ilpm_err *err)
{
    return ilpm_mdl_pz_parse_as(rd, p, &ilpm_format_fzn, inst, err);
}

/* ilpm solve fzn --help: examples (see puzzle.h). */
static const char *const fzn_examples[] = {
    "data/fzn/queens6.fzn --count   # 4 solutions",
    "data/fzn/knapsack01.fzn --backend sat   # optimum 309",
    "data/models/knapsack.lp   # exit 2: FlatZinc alone", NULL};

const ilpm_puzzle ilpm_puzzle_fzn = {
    .name = "fzn",
    .summary = "a FlatZinc model (what MiniZinc compiles a model into)",
    .opts = fzn_opts,
    .input_help =
        "fzn FILE.fzn: one FlatZinc model per file (MiniZinc's output, as\n"
        "'model' reads it; a file of another format is refused).  Each\n"
        "builtin's constraints are a group of its name (int_lin_le,\n"
        "bool_clause, ...; domains with holes: domain), so that stats and\n"
        "compare give sizes per builtin.  Solution: the output variables in\n"
        "FlatZinc's output format; JSON: an object of them.",
    .examples = fzn_examples,
    .parse = fzn_parse,
    ILPM_MDL_PZ_MEMBERS,
};
