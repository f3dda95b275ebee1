/* The rest of the solution each game's last hint came from, kept in the
 * database (storage_hints.h): hints alternate between nodes behind a load
 * balancer, and each must go on with the plan the last one left. */
#include "play/hint_plan.h"

#include "storage/storage_hints.h"

#include <stdlib.h>

void hint_plan_put(int64_t game_id, uint64_t hash, const char *rest)
{
    if (rest == NULL || rest[0] == '\0') {
        free(hint_plan_take(game_id, hash));
        return;
    }
    /* A plan that cannot be stored only costs the next hint a search. */
    storage_hint_plan_put(game_id, hash, rest);
}

char *hint_plan_take(int64_t game_id, uint64_t hash)
{
    uint64_t stored = 0;
    char *rest = NULL;
    if (storage_hint_plan_take(game_id, &stored, &rest) != STORAGE_OK)
        return NULL;
    if (stored != hash) {
        free(rest);
        return NULL;
    }
    return rest;
}
