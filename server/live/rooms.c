/* Race rooms: the endpoints under /api/v1/rooms. Each reads its request,
 * runs one operation of the rooms' state (room_state.h) and answers what
 * it gives; a generated level goes through room_levels.c first. */
#include "live/rooms.h"

#include "accounts/auth.h"
#include "http/body.h"
#include "live/room_levels.h"
#include "live/room_reply.h"
#include "live/room_state.h"
#include "play/daily.h"
#include "storage/storage_daily.h"
#include "storage/storage_rooms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rooms_create(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text level_how = {0}, difficulty = {0};
    json_int_t level_id = 0, seed = 0;
    bool chosen = false, seeded = false;
    struct body_field spec[] = {
        body_text("level", &level_how),
        body_optional(body_integer("level_id", &level_id), &chosen),
        body_optional(body_text("difficulty", &difficulty), NULL),
        body_optional(body_integer("seed", &seed), &seeded),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    const char *how = level_how.text;
    if (strcmp(how, "generated") == 0 && !chosen) {
        result = room_levels_create(c, difficulty.text, seeded, seed);
        json_decref(body);
        return result;
    }
    if (difficulty.text != NULL || seeded) {
        json_decref(body);
        return reply_error(c, API_E_INVALID_VALUE,
                           "'difficulty' and 'seed' go with {\"level\": \"generated\"}");
    }
    int64_t level = 0;
    int status = STORAGE_OK;
    if (strcmp(how, "chosen") == 0) {
        if (!chosen) {
            json_decref(body);
            return reply_error(c, API_E_MISSING_FIELD, "a chosen level needs 'level_id'");
        }
        level = level_id;
    } else if (strcmp(how, "random") == 0 && !chosen) {
        status = storage_level_random(&level);
    } else if (strcmp(how, "daily") == 0 && !chosen) {
        /* Today's puzzle is made on its first GET /daily, not here: a room
         * must not wait on the generator. */
        char day[11];
        daily_today(day);
        status = storage_daily_get(day, &level);
        if (status == STORAGE_NOT_FOUND) {
            json_decref(body);
            return reply_error(c, API_E_LEVEL_NOT_FOUND,
                               "today's puzzle (%s) is made on its first GET /api/v1/daily", day);
        }
    } else {
        json_decref(body);
        return reply_error(c, API_E_INVALID_VALUE,
                           "'level' is \"chosen\" (with 'level_id'), \"random\", \"daily\" or "
                           "\"generated\" (with 'difficulty')");
    }
    char source[16];
    snprintf(source, sizeof source, "%s", how);
    json_decref(body);
    if (status == STORAGE_OK)
        status = room_state_level_check(level);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld", (long long)level);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    int64_t user;
    if (!auth_user(c, AUTH_CREATE_GUEST, &user, &result))
        return result;
    if (!room_reply_may_open(c, user, &result))
        return result;
    return room_reply_open(c, user, level, source);
}

int rooms_list(struct http_conn *c)
{
    size_t len = 0;
    char *text = room_state_list(&len);
    if (text == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    return reply_json_text(c, 200, text, len);
}

int rooms_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    struct room_view v;
    int status = room_state_view(c->param[0], user, &v);
    if (status != STORAGE_OK)
        return room_reply_failure(c, c->param[0], status);
    return room_reply_view(c, 200, user, &v);
}

/* The common start of the writes: an empty body and the caller (created
 * as a guest when asked). False after answering. */
static bool write_start(struct http_conn *c, enum auth_need need, int64_t *user, int *result)
{
    if (!body_parse_empty(c, result))
        return false;
    return auth_user(c, need, user, result);
}

/* Answers what a write on the room of the route gave, once the write has
 * answered its own refusals: the room, or why there is none. */
static int write_end(struct http_conn *c, int64_t user, int status, struct room_view *v)
{
    if (status != STORAGE_OK)
        return room_reply_failure(c, c->param[0], status);
    return room_reply_view(c, 200, user, v);
}

int rooms_join(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!write_start(c, AUTH_CREATE_GUEST, &user, &result))
        return result;
    struct room_view v;
    int status = room_state_join(c->param[0], user, &v);
    if (status == ROOM_STATE_RACING)
        return reply_error(c, API_E_RACE_UNDER_WAY,
                           "this room is racing: watch it, and join its next round");
    if (status == ROOM_STATE_FULL)
        return reply_error(c, API_E_ROOM_FULL, "every one of the %u seats is taken",
                           ROOM_STATE_SEATS);
    return write_end(c, user, status, &v);
}

int rooms_leave(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!write_start(c, AUTH_EXISTING, &user, &result))
        return result;
    struct room_view v;
    int status = room_state_leave(c->param[0], user, &v);
    return write_end(c, user, status, &v);
}

int rooms_start(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!write_start(c, AUTH_EXISTING, &user, &result))
        return result;
    struct room_view v;
    int status = room_state_start(c->param[0], user, &v);
    if (status == ROOM_STATE_NOT_HOST)
        return reply_error(c, API_E_NOT_HOST, "only the room's host starts the race");
    if (status == ROOM_STATE_RACING)
        return reply_error(c, API_E_RACE_UNDER_WAY,
                           "the race has started already: a rematch starts another");
    return write_end(c, user, status, &v);
}

int rooms_rematch(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!write_start(c, AUTH_EXISTING, &user, &result))
        return result;
    struct room_view v;
    int status = room_state_rematch(c->param[0], user, &v);
    if (status == ROOM_STATE_NOT_HOST)
        return reply_error(c, API_E_NOT_HOST, "only the room's players call a rematch");
    if (status == ROOM_STATE_NOT_OVER)
        return reply_error(c, API_E_RACE_UNDER_WAY, "the race is not over yet");
    return write_end(c, user, status, &v);
}
