/* --backend auto's formulation members (portfolio.h): a member that names
 * a formulation of the puzzle races on the puzzle built again in it.  The
 * parent builds that model once, before the members are forked: the
 * member's process shares it (copy on write), and the parent checks the
 * member's answer against it and decodes it with the member's parameters,
 * as it checks every answer against the run's model. */
#include "portfolio.h"

#include <stdio.h>
#include <string.h>

const char *ilpm_pf_form_of(const ilpm_member *mb, const ilpm_puzzle *pz,
                            const ilpm_params *p)
{
    const char *form = NULL;
    for (int i = 0; i < 2 && mb->opt[i]; i++)
        if (strcmp(mb->opt[i], "formulation") == 0)
            form = mb->val[i];
    if (!form || !pz || !pz->formulations ||
        (p && ilpm_params_has(p, "formulation")) ||
        strcmp(form, pz->formulations[0]) == 0)
        return NULL; /* the user's formulation, or the default: the run's */
    for (const char *const *f = pz->formulations; *f; f++)
        if (strcmp(*f, form) == 0)
            return *f;
    return NULL;
}

void ilpm_pf_member_name(const ilpm_member *mb, const char *form, char *buf,
                         size_t size)
{
    snprintf(buf, size, "%s", mb->name);
    for (int i = 0; i < 2 && mb->opt[i] && !form; i++) {
        char on[96];
        snprintf(on, sizeof on, " on %s", mb->val[i]);
        size_t n = strlen(buf), k = strlen(on);
        if (strcmp(mb->opt[i], "formulation") == 0 && n > k &&
            strcmp(buf + n - k, on) == 0)
            buf[n - k] = '\0';
    }
}

/* The model of formulation form, built into f's slot k: 0, or -1 with
 * err set (the slot then holds nothing). */
static int build_one(ilpm_pf_models *f, int k, const char *form,
                     const ilpm_puzzle *pz, const void *inst,
                     const ilpm_params *p, const ilpm_options *so,
                     ilpm_err *err)
{
    ilpm_params *q = p ? ilpm_params_copy(p) : ilpm_params_new();
    ilpm_model *m = q ? ilpm_run_model_new(so) : NULL;
    if (!m || ilpm_params_set(q, "formulation", form) != 0) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
    } else if (pz->build(inst, q, m, err) == 0 &&
               !ilpm_model_cut_short(m, err)) {
        f->built[k] = m;
        f->params[k] = q;
        return 0;
    }
    ilpm_model_free(m);
    if (q)
        ilpm_params_free(q);
    return -1;
}

void ilpm_pf_models_build(ilpm_pf_models *f, const ilpm_puzzle *pz,
                          const void *inst, const ilpm_params *p,
                          const ilpm_options *so, ilpm_model *m,
                          const ilpm_member *mbs, int n)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < n && i < ILPM_PF_MAX_MEMBERS; i++) {
        f->m[i] = m;
        f->p[i] = p;
        const char *form = ilpm_pf_form_of(&mbs[i], pz, p);
        if (!form)
            continue;
        int k = 0; /* a formulation two members name is built once */
        while (k < i && !(f->built[k] && f->form[k] == form))
            k++;
        ilpm_err err = {0};
        if (k == i && build_one(f, i, form, pz, inst, p, so, &err) != 0) {
            if (so->verbose && so->log) {
                char line[600];
                snprintf(line, sizeof line,
                         "auto: %s races on the run's formulation: %.500s\n",
                         mbs[i].name, err.msg);
                so->log(so->log_ctx, line);
            }
            continue;
        }
        f->m[i] = f->built[k];
        f->p[i] = f->params[k];
        f->form[i] = form;
    }
}

void ilpm_pf_models_free(ilpm_pf_models *f)
{
    for (int i = 0; i < ILPM_PF_MAX_MEMBERS; i++) {
        ilpm_model_free(f->built[i]);
        if (f->params[i])
            ilpm_params_free(f->params[i]);
    }
    memset(f, 0, sizeof *f);
}
