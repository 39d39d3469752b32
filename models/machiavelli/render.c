/* Output: an answer as text for people (played cards marked '*', the
 * melds a laid table changes), as JSON for tools, the optimum of a play
 * in a player's words, and the reason an unsat table has, when a simple
 * test finds one. */
#include "machiavelli.h"

#include <stdio.h>
#include <string.h>

/* A meld as text, played cards marked '*'. */
static int meld_marked(const mach_meld *md, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int c = 0; c < md->n && o + 6 < size; c++) {
        char nm[4];
        ilpm_mach_card_name(md->c[c].suit, md->c[c].rank, nm);
        o += (size_t)snprintf(buf + o, size - o, "%s%s%s", c ? " " : "", nm,
                              md->c[c].played ? "*" : "");
    }
    return (int)o;
}

/* Against the table as laid: NULL for a meld kept as it was, "new" for
 * one of hand cards alone, else "changed". */
static const char *meld_change(const mach_meld *md)
{
    if (md->kept)
        return NULL;
    for (int c = 0; c < md->n; c++)
        if (!md->c[c].played)
            return "changed";
    return "new";
}

/* Which laid melds some answer meld keeps. */
static void laid_kept(const mach_inst *in, const mach_sol *sol, uint8_t *kept)
{
    memset(kept, 0, (size_t)in->nlaid);
    for (int i = 0; i < sol->nmelds; i++)
        if (sol->melds[i].kept > 0 && sol->melds[i].kept <= in->nlaid)
            kept[sol->melds[i].kept - 1] = 1;
}

/* The hand cards not laid. */
static void hand_left(const mach_inst *in, const mach_sol *sol,
                      int left[NSUITS][NRANKS + 1])
{
    for (int s = 0; s < NSUITS; s++)
        for (int r = 0; r <= NRANKS; r++)
            left[s][r] = sol->play ? in->hand[s][r] - sol->played[s][r] : 0;
}

/* Lists the cards counted, by suit and rank; " none" in text when there
 * are none. */
static void put_counts(ilpm_buf *out, int cnt[NSUITS][NRANKS + 1], int json)
{
    int first = 1;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            for (int j = 0; j < cnt[s][r]; j++) {
                char nm[4];
                ilpm_mach_card_name(s, r, nm);
                if (json) {
                    ilpm_buf_puts(out, first ? "" : ",");
                    ilpm_buf_json_str(out, nm);
                } else {
                    ilpm_buf_printf(out, " %s", nm);
                }
                first = 0;
            }
    if (first && !json)
        ilpm_buf_puts(out, " none");
}

/* The played cards in the order the melds show them; returns how many. */
static int put_played(ilpm_buf *out, const mach_sol *sol, int json)
{
    int n = 0;
    for (int i = 0; i < sol->nmelds; i++)
        for (int c = 0; c < sol->melds[i].n; c++) {
            const mach_card *cd = &sol->melds[i].c[c];
            if (!cd->played)
                continue;
            char nm[4];
            ilpm_mach_card_name(cd->suit, cd->rank, nm);
            if (json) {
                ilpm_buf_puts(out, n ? "," : "");
                ilpm_buf_json_str(out, nm);
            } else {
                ilpm_buf_printf(out, " %s", nm);
            }
            n++;
        }
    return n;
}

void ilpm_mach_render(const void *vinst, const void *vsol, ilpm_buf *out)
{
    const mach_inst *in = vinst;
    const mach_sol *sol = vsol;
    char text[MELD_MAX * 5 + 1];
    int width = 0;
    for (int i = 0; i < sol->nmelds && in->nlaid > 0; i++) {
        int w = meld_marked(&sol->melds[i], text, sizeof text);
        if (w > width)
            width = w;
    }
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        meld_marked(md, text, sizeof text);
        const char *change = in->nlaid > 0 ? meld_change(md) : NULL;
        if (change)
            ilpm_buf_printf(out, "%-*s  (%s)\n", width, text, change);
        else
            ilpm_buf_printf(out, "%s\n", text);
    }
    if (in->nlaid > 0) {
        uint8_t kept[MAX_LAID + 1];
        laid_kept(in, sol, kept);
        ilpm_buf_puts(out, "table melds changed:");
        int any = 0;
        for (int g = 0; g < in->nlaid; g++) {
            if (kept[g])
                continue;
            ilpm_mach_meld_text(&in->laid[g], text, sizeof text);
            ilpm_buf_printf(out, "%s %s", any ? " /" : "", text);
            any = 1;
        }
        ilpm_buf_puts(out, any ? "\n" : " none\n");
    }
    if (!sol->play)
        return;
    ilpm_buf_puts(out, "played:");
    if (put_played(out, sol, 0) > 0)
        ilpm_buf_puts(out, " (marked *)");
    else
        ilpm_buf_puts(out, " none");
    ilpm_buf_puts(out, "\nhand left:");
    int cnt[NSUITS][NRANKS + 1];
    hand_left(in, sol, cnt);
    put_counts(out, cnt, 0);
    ilpm_buf_putc(out, '\n');
}

static void json_cards(ilpm_buf *out, const mach_meld *md)
{
    ilpm_buf_putc(out, '[');
    for (int c = 0; c < md->n; c++) {
        char nm[4];
        ilpm_mach_card_name(md->c[c].suit, md->c[c].rank, nm);
        if (c)
            ilpm_buf_putc(out, ',');
        ilpm_buf_json_str(out, nm);
    }
    ilpm_buf_putc(out, ']');
}

void ilpm_mach_render_json(const void *vinst, const void *vsol, ilpm_buf *out)
{
    const mach_inst *in = vinst;
    const mach_sol *sol = vsol;
    ilpm_buf_puts(out, "{\"melds\":[");
    for (int i = 0; i < sol->nmelds; i++) {
        const mach_meld *md = &sol->melds[i];
        ilpm_buf_printf(out, "%s{\"type\":\"%s\",\"cards\":", i ? "," : "",
                        ilpm_mach_meld_is_set(md) ? "set" : "run");
        json_cards(out, md);
        if (in->nlaid > 0) {
            const char *change = meld_change(md);
            ilpm_buf_printf(out, ",\"state\":\"%s\"", change ? change : "kept");
        }
        ilpm_buf_putc(out, '}');
    }
    ilpm_buf_puts(out, "],\"played\":[");
    put_played(out, sol, 1);
    ilpm_buf_puts(out, "],\"hand_left\":[");
    int cnt[NSUITS][NRANKS + 1];
    hand_left(in, sol, cnt);
    put_counts(out, cnt, 1);
    ilpm_buf_putc(out, ']');
    if (in->nlaid > 0) {
        uint8_t kept[MAX_LAID + 1];
        laid_kept(in, sol, kept);
        ilpm_buf_puts(out, ",\"table_changed\":[");
        int any = 0;
        for (int g = 0; g < in->nlaid; g++)
            if (!kept[g]) {
                if (any)
                    ilpm_buf_putc(out, ',');
                json_cards(out, &in->laid[g]);
                any = 1;
            }
        ilpm_buf_putc(out, ']');
    }
    ilpm_buf_putc(out, '}');
}

/* play: "lays 3 of 6 cards" (--value: "lays 25 of 40 points"). */
void ilpm_mach_describe_objective(const void *vinst, const ilpm_params *p,
                                  int64_t objective, char *buf, size_t size)
{
    const mach_inst *in = vinst;
    if (!ilpm_mach_is_play(p) || !in->has_hand)
        return;
    int value = ilpm_mach_has(p, "value"), total = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++)
            total += in->hand[s][r] * (value ? r : 1);
    snprintf(buf, size, "lays %lld of %d %s", (long long)objective, total,
             value        ? "points"
             : total == 1 ? "card"
                          : "cards");
}

/* After an unsat answer: the table cards that no meld of the cards
 * available can hold (ilpm_mach_unmeldable), where there are such cards. */
void ilpm_mach_explain_unsat(const void *vinst, const ilpm_params *p, char *buf,
                             size_t size)
{
    const mach_inst *in = vinst;
    mach_settings st;
    ilpm_err e;
    if (ilpm_mach_read_settings(p, &st, &e) != 0)
        return;
    st.play = st.play && in->has_hand;
    uint8_t none[NSUITS][NRANKS + 1];
    ilpm_mach_unmeldable(in, &st, none);
    size_t o = 0;
    int found = 0;
    for (int s = 0; s < NSUITS; s++)
        for (int r = 1; r <= NRANKS; r++) {
            if (!none[s][r] || o + 32 > size)
                continue;
            char nm[4];
            ilpm_mach_card_name(s, r, nm);
            o += (size_t)snprintf(buf + o, size - o, "%s%s",
                                  found ? ", " : "no meld can hold ", nm);
            found++;
        }
    if (found)
        snprintf(buf + o, size - o,
                 ": no run or set of the cards on the %s "
                 "contains %s",
                 st.play ? "table and in the hand" : "table",
                 found > 1 ? "them" : "it");
}
