/* A race room's public state as JSON. */
#include "live/room_text.h"

#include <string.h>

static const char *phase_name(const struct storage_room_state *s, int64_t now)
{
    switch (s->phase) {
    case 0:
        return "lobby";
    case 1:
        return now < s->starts_at ? "countdown" : "racing";
    default:
        break;
    }
    return "finished";
}

static void int_or_null(struct textbuf *b, bool known, int64_t n)
{
    if (known)
        textbuf_int(b, n);
    else
        textbuf_puts(b, "null");
}

static void write_seat(struct textbuf *b, const struct storage_room_seat *seat, int64_t host)
{
    textbuf_puts(b, "{\"user_id\":");
    textbuf_int(b, seat->user_id);
    textbuf_puts(b, ",\"name\":");
    textbuf_json_string(b, seat->name, strlen(seat->name));
    textbuf_puts(b, seat->user_id == host ? ",\"host\":true" : ",\"host\":false");
    textbuf_puts(b, seat->streams > 0 ? ",\"connected\":true" : ",\"connected\":false");
    textbuf_puts(b, seat->gone ? ",\"left\":true" : ",\"left\":false");
    textbuf_puts(b, ",\"game_id\":");
    int_or_null(b, seat->game_id != 0, seat->game_id);
    textbuf_puts(b, ",\"seq\":");
    textbuf_int(b, seat->seq);
    textbuf_puts(b, ",\"moves\":");
    textbuf_int(b, seat->moves);
    textbuf_puts(b, ",\"pushes\":");
    textbuf_int(b, seat->pushes);
    textbuf_puts(b, ",\"boxes_on_goal\":");
    textbuf_int(b, seat->boxes_on_goal);
    textbuf_puts(b, seat->finished ? ",\"finished\":true,\"time_ms\":"
                                   : ",\"finished\":false,\"time_ms\":");
    int_or_null(b, seat->finished, seat->time_ms);
    textbuf_puts(b, ",\"place\":");
    int_or_null(b, seat->finished, seat->place);
    textbuf_puts(b, "}");
}

void room_text_write(struct textbuf *b, const struct storage_room_state *s, const char *title,
                     uint32_t boxes, int64_t now)
{
    textbuf_puts(b, "{\"id\":");
    textbuf_int(b, s->id);
    textbuf_puts(b, ",\"host_id\":");
    textbuf_int(b, s->host_id);
    textbuf_puts(b, ",\"level_id\":");
    textbuf_int(b, s->level_id);
    textbuf_puts(b, ",\"title\":");
    textbuf_json_string(b, title, strlen(title));
    textbuf_puts(b, ",\"boxes\":");
    textbuf_int(b, boxes);
    textbuf_puts(b, ",\"source\":\"");
    textbuf_puts(b, s->source);
    textbuf_puts(b, "\",\"round\":");
    textbuf_int(b, s->round);
    textbuf_puts(b, ",\"state\":\"");
    textbuf_puts(b, phase_name(s, now));
    textbuf_puts(b, "\",\"starts_in_ms\":");
    int_or_null(b, s->phase == 1, s->starts_at > now ? s->starts_at - now : 0);
    textbuf_puts(b, ",\"spectators\":");
    textbuf_int(b, s->spectators);
    textbuf_puts(b, ",\"players\":[");
    for (unsigned i = 0; i < s->nseats; i++) {
        if (i > 0)
            textbuf_puts(b, ",");
        write_seat(b, &s->seats[i], s->host_id);
    }
    textbuf_puts(b, "]}");
}
