/* Storage of race rooms and their games (storage_rooms.c); what a room
 * decides is in storage_room_state.h. Same rules as storage.h: the calling
 * thread's connection, STORAGE_* codes, text handed to callbacks valid
 * during the call only. */
#ifndef SOKOD_STORAGE_ROOMS_H
#define SOKOD_STORAGE_ROOMS_H

#include "storage/storage_codes.h"

#include <stdint.h>

struct storage_room {
    int64_t id;
    int64_t host_id;
    int64_t level_id;
    char source[16]; /* chosen, random, daily, generated */
    uint32_t round;
    int64_t created_at;
};

/* Creates a room (round 1) and sets r->id. */
int storage_room_create(struct storage_room *r);
/* Creates the race game of `user` in round `round` of a room on `level`,
 * or finds it when it exists; sets *game_id. */
int storage_race_game(int64_t room, uint32_t round, int64_t user, int64_t level, int64_t now,
                      int64_t *game_id);
/* A random level players can see, or STORAGE_NOT_FOUND when there is none. */
int storage_level_random(int64_t *level_id);

#endif
