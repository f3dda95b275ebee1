/* The rest of the solution each game's last hint came from. The solver's
 * answers from one position and from the next need not belong to the same
 * solution, so a player following hint after hint could be sent back and
 * forth for ever; the next hint from the position a hint leads to goes on
 * with the solution that hint was part of instead. */
#ifndef SOKOD_HINT_PLAN_H
#define SOKOD_HINT_PLAN_H

#include <stdint.h>

/* Remembers `rest` (LURD) as the way on from the position of game
 * `game_id` whose Zobrist hash is `hash`, replacing what the game had, for
 * every node. An empty rest forgets the game's plan; one the database
 * cannot store only costs the next hint a search. */
void hint_plan_put(int64_t game_id, uint64_t hash, const char *rest);

/* The way on remembered for the game when it stands at `hash` (malloc'd,
 * the caller frees it), or NULL. The plan is forgotten either way. */
char *hint_plan_take(int64_t game_id, uint64_t hash);

#endif
