/* The table of puzzles the command line and the batch runner know. */
#include "puzzle.h"

#include <string.h>

const ilpm_puzzle *const ilpm_puzzles[] = {
    &ilpm_puzzle_machiavelli,
    &ilpm_puzzle_sudoku,
    &ilpm_puzzle_langford,
    &ilpm_puzzle_tetravex,
    &ilpm_puzzle_queens,
    NULL,
};

const ilpm_puzzle *ilpm_puzzle_find(const char *name)
{
    for (int i = 0; ilpm_puzzles[i]; i++)
        if (strcmp(ilpm_puzzles[i]->name, name) == 0)
            return ilpm_puzzles[i];
    return NULL;
}
