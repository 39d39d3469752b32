/* What the run layer does with the table of puzzles it is handed
 * (ilpm_puzzles, made in models/ from its list): find one by name, check
 * a puzzle's options for what a command asks of it. */
#include "puzzle.h"

#include <string.h>

const ilpm_puzzle *ilpm_puzzle_find(const char *name)
{
    for (int i = 0; ilpm_puzzles[i]; i++)
        if (strcmp(ilpm_puzzles[i]->name, name) == 0)
            return ilpm_puzzles[i];
    return NULL;
}

/* Whether the formulation f (compare: the list of them, "" for all) is
 * the one form alone. */
static int only(const ilpm_puzzle *pz, const char *f, const char *form)
{
    if (!*f)
        return pz->formulations[0] && !pz->formulations[1] &&
               strcmp(pz->formulations[0], form) == 0;
    size_t n = strlen(form);
    for (const char *s = f; *s; s += *s == ',') {
        size_t len = strcspn(s, ",");
        if (len != n || strncmp(s, form, n) != 0)
            return 0;
        s += len;
    }
    return 1;
}

/* Options of one formulation: refused with another, or choosing their
 * own where none is given. */
static int check_forms(const ilpm_puzzle *pz, ilpm_puzzle_use use,
                       ilpm_params *p, ilpm_err *err)
{
    int compare = use == ILPM_USE_COMPARE;
    for (const ilpm_form_opt *o = pz->form_opts; o && o->option; o++) {
        if (!ilpm_params_has(p, o->option))
            continue;
        const char *f = ilpm_params_get(p, "formulation");
        if (!f && o->implies) {
            if (ilpm_params_set(p, "formulation", o->formulation) != 0)
                return ilpm_err_fail(err, ILPM_E_FAIL, "out of memory");
            continue;
        }
        if (f ? only(pz, f, o->formulation)
              : !compare && strcmp(pz->formulations[0], o->formulation) == 0)
            continue;
        return ilpm_err_input(err, "--%s applies to --formulation %s, not %s%s",
                              o->option, o->formulation,
                              f         ? f
                              : compare ? "all"
                                        : pz->formulations[0],
                              f         ? ""
                              : compare ? " (compare's default)"
                                        : " (the default)");
    }
    return 0;
}

int ilpm_puzzle_check_params(const ilpm_puzzle *pz, ilpm_puzzle_use use,
                             ilpm_params *p, int with_files, ilpm_err *err)
{
    int gen = use == ILPM_USE_GEN;
    const ilpm_opt *table = gen ? pz->gen_opts : pz->opts;
    for (size_t i = 0; i < ilpm_params_count(p); i++) {
        const char *name = ilpm_params_name_at(p, i);
        const ilpm_opt *o = ilpm_opt_find(table, name);
        if (!o)
            continue;
        /* compare takes a list of formulations and checks each. */
        if (use == ILPM_USE_COMPARE && strcmp(name, "formulation") == 0)
            continue;
        const char *v = ilpm_params_get(p, name);
        if (ilpm_opt_check(o, o->type != ILPM_OPT_FLAG ? v : NULL, err) != 0)
            return -1;
        if (!gen && with_files && (o->flags & ILPM_OPT_INSTANCE))
            return ilpm_err_input(err,
                                  "--%s gives the instance itself; it does not "
                                  "go with a FILE of instances",
                                  name);
        if (!gen && (o->flags & ILPM_OPT_PLAY) && use != ILPM_USE_PLAY)
            return ilpm_err_input(err, "--%s goes with 'ilpm play %s' only",
                                  name, pz->name);
    }
    return gen ? 0 : check_forms(pz, use, p, err);
}
