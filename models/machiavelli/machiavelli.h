/* machiavelli.h: what the files of the Machiavelli puzzle share, private
 * to models/machiavelli/.  machiavelli.c gathers them into the
 * descriptor; cards.c names and reads cards, parse.c reads tables and
 * hands, model.c holds what the formulations (flow.c, planes.c, melds.c)
 * share, solution.c holds and decodes solutions, check.c verifies them by
 * the rules alone, present.c lays an answer out as a card player would,
 * render.c writes it, gen.c deals random tables. */
#ifndef ILPM_MACHIAVELLI_H
#define ILPM_MACHIAVELLI_H

#include "puzzle.h"

#include <stddef.h>
#include <stdint.h>

#define NSUITS 4
#define NRANKS 13
#define ACE_HIGH 14 /* the ace's second column, after the king */
#define MAX_DECKS 8
/* The --decks row, one for solving and generating. */
#define ILPM_MACH_DECKS_ROW                                                    \
    {                                                                          \
        .name = "decks", .arg = "D", .type = ILPM_OPT_INT, .lo = 1,            \
        .hi = MAX_DECKS, .def = "2", .help = "number of decks"                 \
    }
#define MELD_MAX 14 /* decoded blocks are split to 13 at most */
#define MAX_CARDS (NSUITS * NRANKS * MAX_DECKS)
/* At most this many melds of 3 cards or more in 8 decks. */
#define MAX_LAID (MAX_CARDS / 3)

/* Suits are 0..3 = H D S C, ranks 1..13 = A..K. */
typedef struct mach_card {
    uint8_t suit, rank; /* rank 1..13: a high ace is rank 1 too */
    uint8_t played;     /* this copy came from the hand          */
} mach_card;

typedef struct mach_meld {
    int n;
    int kept; /* answer: 1 + index of the identical laid meld, 0: none */
    mach_card c[MELD_MAX];
} mach_meld;

typedef struct mach_inst {
    int decks;
    int table[NSUITS][NRANKS + 1]; /* copies on the table, [s][rank]   */
    int hand[NSUITS][NRANKS + 1];  /* copies in the hand               */
    int ntable, nhand;
    int has_hand;
    long line; /* line in its file; 0 for --table */
    /* The table as laid, when the input separates its melds: used only
     * to show what an answer keeps and changes, never by the model. */
    mach_meld *laid;
    int nlaid;
} mach_inst;

typedef struct mach_sol {
    mach_meld *melds;
    int nmelds, cap;
    int play; /* a play answer: render what was played */
    int played[NSUITS][NRANKS + 1];
} mach_sol;

/* --formulation: indices into mach_forms. */
enum { FORM_FLOW, FORM_PLANES, FORM_MELDS };

typedef struct mach_settings {
    int form;
    int wrap, ace_high; /* ace_high is off under wrap, which covers it */
    int strong, deck_rows, value;
    int play; /* a play (ILPM_PARAM_PLAY): the hand takes part */
} mach_settings;

/* machiavelli.c: options, settings and the instance.  ilpm_mach_has
 * takes p == NULL as no options (and so does ilpm_params_int). */
extern const ilpm_opt ilpm_mach_opts[];
int ilpm_mach_has(const ilpm_params *p, const char *name);
int ilpm_mach_is_play(const ilpm_params *p);
int ilpm_mach_read_settings(const ilpm_params *p, mach_settings *st,
                            ilpm_err *err);
void ilpm_mach_free(void *p);

/* cards.c: names ("10H"), the text of a meld, and card tokens read. */
extern const char ilpm_mach_suit_letter[NSUITS];
extern const char *const ilpm_mach_rank_text[ACE_HIGH + 1];
void ilpm_mach_card_name(int s, int r, char *buf); /* buf: 4 bytes */
void ilpm_mach_meld_text(const mach_meld *md, char *buf, size_t size);
int ilpm_mach_parse_suit(const char *t, size_t n);
int ilpm_mach_parse_rank(const char *t, size_t n, int *r, size_t *used);

/* parse.c */
int ilpm_mach_parse(ilpm_reader *rd, const ilpm_params *p, void **inst,
                    ilpm_err *err);
int ilpm_mach_from_params(const ilpm_params *p, void **inst, ilpm_err *err);

/* model.c: the cards available, the hand of a play, the dispatch. */
int ilpm_mach_avail(const mach_inst *in, const mach_settings *st, int s, int r);
int ilpm_mach_build_hand(const mach_inst *in, ilpm_model *m,
                         int hfam[NSUITS][NRANKS + 1], ilpm_err *err);
int ilpm_mach_hand_lits(const mach_inst *in, const mach_settings *st,
                        const ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                        int s, int r, int *lits, int n);
void ilpm_mach_hand_played(const mach_inst *in, const ilpm_model *m,
                           const uint8_t *vals, int played[NSUITS][NRANKS + 1]);
int ilpm_mach_build(const void *inst, const ilpm_params *p, ilpm_model *m,
                    ilpm_err *err);

/* planes.c and melds.c: each formulation's model and its decoding. */
int ilpm_mach_build_planes(const mach_inst *in, const mach_settings *st,
                           ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                           ilpm_err *err);
int ilpm_mach_decode_planes(const mach_inst *in, const mach_settings *st,
                            const ilpm_model *m, const uint8_t *vals,
                            mach_sol *sol, ilpm_err *err);
int ilpm_mach_build_melds(const mach_inst *in, const mach_settings *st,
                          ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                          ilpm_err *err);
int ilpm_mach_decode_melds(const mach_inst *in, const mach_settings *st,
                           const ilpm_model *m, const uint8_t *vals,
                           mach_sol *sol, ilpm_err *err);
int ilpm_mach_build_flow(const mach_inst *in, const mach_settings *st,
                         ilpm_model *m, int hfam[NSUITS][NRANKS + 1],
                         ilpm_err *err);
int ilpm_mach_decode_flow(const mach_inst *in, const mach_settings *st,
                          const ilpm_model *m, const uint8_t *vals,
                          mach_sol *sol, ilpm_err *err);
/* Marks the table cards that no meld of the cards available can hold. */
void ilpm_mach_unmeldable(const mach_inst *in, const mach_settings *st,
                          uint8_t out[NSUITS][NRANKS + 1]);

/* solution.c: the solution container and the decoding. */
mach_meld *ilpm_mach_new_meld(mach_sol *sol, ilpm_err *err);
void ilpm_mach_meld_push(mach_meld *md, int s, int r);
void ilpm_mach_sol_free(void *p);
void *ilpm_mach_decode(const void *inst, const ilpm_params *p,
                       const ilpm_model *m, const uint8_t *vals, ilpm_err *err);

/* check.c: the rules. */
/* 0 if md is a valid meld, else -1 with why naming it "meld idx". */
int ilpm_mach_check_meld(const mach_meld *md, int idx, int wrap, int ace_high,
                         ilpm_err *why);
int ilpm_mach_verify(const void *inst, const ilpm_params *p, const void *sol,
                     ilpm_err *why);

/* present.c */
int ilpm_mach_meld_is_set(const mach_meld *md);
int ilpm_mach_present(const mach_inst *in, const ilpm_params *p, mach_sol *sol,
                      ilpm_err *err);
void ilpm_mach_mark_played(mach_sol *sol);

/* render.c */
void ilpm_mach_render(const void *inst, const void *sol, ilpm_buf *out);
void ilpm_mach_render_json(const void *inst, const void *sol, ilpm_buf *out);
void ilpm_mach_describe_objective(const void *inst, const ilpm_params *p,
                                  int64_t objective, char *buf, size_t size);
void ilpm_mach_explain_unsat(const void *inst, const ilpm_params *p, char *buf,
                             size_t size);

/* gen.c */
extern const ilpm_opt ilpm_mach_gen_opts[];
int ilpm_mach_generate(const ilpm_params *p, const ilpm_gen_opts *g,
                       ilpm_buf *out, ilpm_err *err);

#endif
