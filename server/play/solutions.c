/* Witnessed solutions: the one way a solution enters the database. */
#include "play/solutions.h"

#include "storage/storage_boards.h"

int solutions_record(const struct solutions_new *s, int64_t *id)
{
    int64_t made = 0;
    if (id != NULL)
        *id = 0;
    /* A solution of no steps is a level solved from the start: nothing was
     * witnessed, nothing to rank. */
    if (s->lurd == NULL || s->lurd[0] == '\0' || s->moves == 0)
        return STORAGE_OK;
    struct storage_new_solution row = {
        .user_id = s->user_id,
        .level_id = s->level_id,
        .game_id = s->game_id,
        .rule = s->rule,
        .moves = s->moves,
        .pushes = s->pushes,
        .hints = s->hints < 0 ? STORAGE_HINTS_OF_GAME : s->hints,
        .lurd = s->lurd,
        .at = s->at,
        .reverse = s->reverse,
    };
    int status = storage_solution_insert(&row, &made);
    if (status == STORAGE_OK && id != NULL)
        *id = made;
    return status;
}
