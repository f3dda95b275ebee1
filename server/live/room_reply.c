/* The answers about race rooms that several endpoints give. */
#include "live/room_reply.h"

#include "base/textbuf.h"
#include "play/game_cache.h"
#include "play/game_play.h"
#include "storage/storage_codes.h"

#include <stdlib.h>

int room_reply_view(struct http_conn *c, unsigned status, int64_t user, struct room_view *v)
{
    if (v->room == NULL) {
        room_state_view_done(v);
        return reply_error(c, API_E_INTERNAL, "out of memory");
    }
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"room\":");
    textbuf_put(&b, v->room, v->room_len);
    /* The games are read without the rooms' lock: the committer holds a
     * game while it tells the room about it. */
    textbuf_puts(&b, ",\"games\":[");
    for (unsigned i = 0; i < v->ngames; i++) {
        if (i > 0)
            textbuf_puts(&b, ",");
        struct live_game *g = NULL;
        if (v->games[i] == 0 || game_cache_acquire(v->games[i], &g) != STORAGE_OK) {
            textbuf_puts(&b, "null");
            continue;
        }
        play_state_write(g, &b);
        game_cache_release(g);
    }
    textbuf_puts(&b, "],\"you\":{\"user_id\":");
    if (user != 0)
        textbuf_int(&b, user);
    else
        textbuf_puts(&b, "null");
    textbuf_puts(&b, v->seated ? ",\"seated\":true}}" : ",\"seated\":false}}");
    size_t len = 0;
    char *text = textbuf_take(&b, &len);
    int result = text != NULL ? reply_json_text(c, status, text, len)
                              : reply_error(c, API_E_INTERNAL, "out of memory");
    room_state_view_done(v);
    return result;
}

int room_reply_failure(struct http_conn *c, int64_t id, int status)
{
    switch (status) {
    case STORAGE_NOT_FOUND:
        return reply_error(c, API_E_ROOM_NOT_FOUND, "there is no room %lld", (long long)id);
    case ROOM_STATE_NO_SPACE:
        http_retry_after(c, ROOM_STATE_RETRY_S);
        return reply_error(c, API_E_UNAVAILABLE,
                           "every race room the server can hold is in use: try again in %u s",
                           ROOM_STATE_RETRY_S);
    case ROOM_STATE_NO_MEMORY:
        return reply_error(c, API_E_INTERNAL, "out of memory");
    default:
        return reply_storage_failure(c, status);
    }
}

bool room_reply_may_open(struct http_conn *c, int64_t user, int *result)
{
    char address[CLIENT_IP_KEY_MAX];
    http_client_address(c, address, sizeof address);
    unsigned retry = 0;
    if (room_state_may_open(user, address, &retry))
        return true;
    http_attach(c, "retry_after", json_integer(retry));
    c->retry_after = retry;
    *result = reply_error(c, API_E_RATE_LIMITED, "too many new rooms: try again in %u s", retry);
    return false;
}

int room_reply_open(struct http_conn *c, int64_t user, int64_t level, const char *source)
{
    struct room_view v;
    int status = room_state_open(user, level, source, &v);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld", (long long)level);
    if (status != STORAGE_OK)
        return room_reply_failure(c, 0, status);
    return room_reply_view(c, 201, user, &v);
}
