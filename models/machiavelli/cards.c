/* Cards: their names ("10H", "AS"), the text of a meld, and the card
 * tokens of the input, where a suit is a letter or a card symbol. */
#include "machiavelli.h"

#include <stdio.h>
#include <string.h>

const char ilpm_mach_suit_letter[NSUITS] = {'H', 'D', 'S', 'C'};
const char *const ilpm_mach_rank_text[ACE_HIGH + 1] = {
    "?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};

void ilpm_mach_card_name(int s, int r, char *buf)
{
    snprintf(buf, 4, "%s%c", ilpm_mach_rank_text[r], ilpm_mach_suit_letter[s]);
}

/* "7H 8H 9H", cut where buf ends. */
void ilpm_mach_meld_text(const mach_meld *md, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < md->n && o + 5 < size; i++) {
        char nm[4];
        ilpm_mach_card_name(md->c[i].suit, md->c[i].rank, nm);
        o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? " " : "", nm);
    }
}

/* Suit of t[0..n): a letter or a card symbol (U+2660..U+2667), possibly
 * followed by the emoji selector U+FE0F.  -1 if it is none of those. */
int ilpm_mach_parse_suit(const char *t, size_t n)
{
    const unsigned char *u = (const unsigned char *)t;
    if (n == 1) {
        switch (u[0]) {
        case 'H':
        case 'h':
            return 0;
        case 'D':
        case 'd':
            return 1;
        case 'S':
        case 's':
            return 2;
        case 'C':
        case 'c':
            return 3;
        default:
            return -1;
        }
    }
    if ((n == 3 || (n == 6 && u[3] == 0xef && u[4] == 0xb8 && u[5] == 0x8f)) &&
        u[0] == 0xe2 && u[1] == 0x99 && u[2] >= 0xa0 && u[2] <= 0xa7) {
        /* U+2660.. in order: spade, heart, diamond, club, white spade,
         * black heart, black diamond, white club. */
        static const int suit_of[8] = {2, 0, 1, 3, 2, 0, 1, 3};
        return suit_of[u[2] - 0xa0];
    }
    return -1;
}

/* Rank of a card token: sets *r (1..13) and the length of the rank
 * part, or returns -1. */
int ilpm_mach_parse_rank(const char *t, size_t n, int *r, size_t *used)
{
    if (n >= 2 && t[0] == '1' && t[1] == '0') {
        *r = 10;
        *used = 2;
        return 0;
    }
    if (n < 1)
        return -1;
    static const char ranks[] = "A23456789TJQK";
    const char *q =
        strchr(ranks, t[0] >= 'a' && t[0] <= 'z' ? t[0] - 'a' + 'A' : t[0]);
    if (!q || t[0] == '\0')
        return -1;
    *r = (int)(q - ranks) + 1;
    *used = 1;
    return 0;
}
