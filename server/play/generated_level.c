/* A generated level as a row to store. */
#include "play/generated_level.h"

#include "soko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool generated_level_row(const gen_level *l, const char *title, const char *comment,
                         char hash[GENERATED_LEVEL_HASH_SIZE], struct storage_generated_level *row)
{
    soko_level *lvl = malloc(sizeof *lvl); /* large: not on a worker's stack */
    soko_error err;
    bool ok = lvl != NULL &&
              soko_level_parse(lvl, l->board, (uint32_t)strlen(l->board), 1, &err) == SOKO_OK;
    if (ok) {
        snprintf(hash, GENERATED_LEVEL_HASH_SIZE, "%016llx",
                 (unsigned long long)soko_level_canonical_hash(lvl));
        *row = (struct storage_generated_level){
            .title = title,
            .comment = comment,
            .board = l->board,
            .width = l->width,
            .height = l->height,
            .boxes = l->boxes,
            .canonical_hash = hash,
            .solution = l->solution,
            .moves = l->moves,
            .pushes = l->pushes,
        };
    }
    free(lvl);
    return ok;
}
