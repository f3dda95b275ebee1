/* LURD: the notation of moves (l u r d) and pushes (L U R D). */
#ifndef SOKO_LURD_H
#define SOKO_LURD_H

#include "game.h"

/* A decoded step: a direction, with SOKO_LURD_PUSH set for an upper-case letter. */
#define SOKO_LURD_PUSH 4u

/* Decodes LURD text into steps, one byte each. Accepts run-length counts
 * ("3r4U") and nested groups ("2(3(dr)R)"); blanks and line ends between
 * steps are ignored. The snapshot symbols of saved games ('[', ']', '{', '}', '*') are
 * refused like any unknown character. Returns the number of steps, or SOKO_E_SYNTAX (with the
 * line and column relative to the text's start at line `first_line`) or
 * SOKO_E_FULL when more than cap steps would be written. */
int32_t soko_lurd_decode(const char *text, uint32_t len, uint32_t first_line, uint8_t *steps,
                         uint32_t cap, soko_error *err);

/* Plays decoded steps on g. The case of a letter is not checked against
 * what the step does: the board decides whether a step pushes; in a
 * reverse game an upper-case letter pulls and a lower-case one only moves. Returns
 * SOKO_OK with *failed = n when every step was played; otherwise stops before
 * the refused step, sets *failed to its index (0-based) and returns its error
 * code (SOKO_E_WALL, SOKO_E_BLOCKED, SOKO_E_FULL, or SOKO_E_RANGE for a
 * step byte that soko_lurd_decode cannot produce). */
int soko_lurd_play(soko_game *g, const uint8_t *steps, uint32_t n, uint32_t *failed);

/* Writes the applied steps since the last applied restart as LURD (pushes
 * in upper case), without run-length counts and without a NUL. Returns the
 * length, or SOKO_E_FULL when cap is too small. */
int32_t soko_lurd_encode(const soko_game *g, char *out, uint32_t cap);

/* The letter of direction d: 'u', 'r', 'd' or 'l', upper case for a push. */
char soko_lurd_letter(int d, bool push);

#endif
