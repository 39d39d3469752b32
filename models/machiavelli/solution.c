/* Machiavelli solutions: the container of melds, and the decoding of the
 * 0/1 values into it (each formulation reads its own variables, flow.c,
 * planes.c and melds.c), then laid out as a player would (present.c). */
#include "machiavelli.h"

#include <stdlib.h>

void ilpm_mach_sol_free(void *p)
{
    mach_sol *s = p;
    if (s)
        free(s->melds);
    free(s);
}

/* A new empty meld at the end of sol. */
mach_meld *ilpm_mach_new_meld(mach_sol *sol, ilpm_err *err)
{
    if (ilpm_grow_int((void **)&sol->melds, &sol->cap, sol->nmelds + 1,
                      sizeof *sol->melds) != 0) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    mach_meld *md = &sol->melds[sol->nmelds++];
    md->n = 0;
    md->kept = 0;
    return md;
}

/* Appends card (s, r), the high ace (column ACE_HIGH) as an ace. */
void ilpm_mach_meld_push(mach_meld *md, int s, int r)
{
    if (md->n < MELD_MAX) {
        md->c[md->n].suit = (uint8_t)s;
        md->c[md->n].rank = (uint8_t)(r == ACE_HIGH ? 1 : r);
        md->c[md->n].played = 0;
        md->n++;
    }
}

/* The formulation's melds, laid out by ilpm_mach_present; in a play, the hand's
 * copies laid are counted and marked in the melds. */
void *ilpm_mach_decode(const void *vinst, const ilpm_params *p,
                       const ilpm_model *m, const uint8_t *vals, ilpm_err *err)
{
    const mach_inst *in = vinst;
    mach_settings st;
    if (ilpm_mach_read_settings(p, &st, err) != 0)
        return NULL;
    mach_sol *sol = calloc(1, sizeof *sol);
    if (!sol) {
        ilpm_err_nomem(err, "out of memory");
        return NULL;
    }
    st.play = st.play && in->has_hand;
    sol->play = st.play;
    int rc = st.form == FORM_MELDS
                 ? ilpm_mach_decode_melds(in, &st, m, vals, sol, err)
             : st.form == FORM_FLOW
                 ? ilpm_mach_decode_flow(in, &st, m, vals, sol, err)
                 : ilpm_mach_decode_planes(in, &st, m, vals, sol, err);
    if (rc != 0 || ilpm_mach_present(in, p, sol, err) != 0) {
        ilpm_mach_sol_free(sol);
        return NULL;
    }
    if (st.play) {
        ilpm_mach_hand_played(in, m, vals, sol->played);
        ilpm_mach_mark_played(sol);
    }
    return sol;
}
