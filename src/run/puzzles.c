/* The table of puzzles the command line and the batch runner know. */
#include "puzzle.h"

#include <string.h>

const ilpm_puzzle *const ilpm_puzzles[] = {
    &ilpm_puzzle_machiavelli,
    &ilpm_puzzle_sudoku,
    &ilpm_puzzle_langford,
    &ilpm_puzzle_tetravex,
    &ilpm_puzzle_queens,
    &ilpm_puzzle_model,
    &ilpm_puzzle_gmpl,
    NULL,
};

const ilpm_puzzle *ilpm_puzzle_find(const char *name)
{
    for (int i = 0; ilpm_puzzles[i]; i++)
        if (strcmp(ilpm_puzzles[i]->name, name) == 0)
            return ilpm_puzzles[i];
    return NULL;
}

int ilpm_puzzle_check_params(const ilpm_puzzle *pz, const char *verb,
                             const ilpm_params *p, int with_files,
                             ilpm_err *err)
{
    int gen = strcmp(verb, "gen") == 0;
    const ilpm_opt_spec *table = gen ? pz->gen_opts : pz->opts;
    for (size_t i = 0; i < ilpm_params_count(p); i++) {
        const char *name = ilpm_params_name_at(p, i);
        const ilpm_opt_spec *o = ilpm_opt_find(table, name);
        if (!o)
            continue;
        /* compare takes a list of formulations and checks each. */
        if (strcmp(verb, "compare") == 0 && strcmp(name, "formulation") == 0)
            continue;
        const char *v = ilpm_params_get(p, name);
        if (ilpm_opt_check(o, o->arg ? v : NULL, err) != 0)
            return -1;
        if (!gen && with_files && (o->flags & ILPM_OPT_INSTANCE))
            return ilpm_err_set(err,
                                "--%s gives the instance itself; it does not "
                                "go with a FILE of instances",
                                name);
        if (!gen && (o->flags & ILPM_OPT_PLAY) && strcmp(verb, "play") != 0)
            return ilpm_err_set(err, "--%s goes with 'ilpm play %s' only",
                                name, pz->name);
    }
    return 0;
}
