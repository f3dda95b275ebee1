/* The JSON of a committed log entry. */
#include "live/entry_event.h"

#include "base/textbuf.h"
#include "live/events.h"
#include "storage/storage_games.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"steps", "undo", "redo", "restart"};

void entry_event_fields(struct textbuf *b, const soko_game *game, int kind, uint32_t seq,
                        const char *steps, uint32_t count)
{
    textbuf_puts(b, ",\"seq\":");
    textbuf_int(b, seq);
    textbuf_puts(b, ",\"kind\":\"");
    textbuf_puts(b, kind_names[kind]);
    textbuf_puts(b, "\"");
    if (kind == STORAGE_LOG_STEPS) {
        textbuf_puts(b, ",\"steps\":");
        textbuf_json_string(b, steps, strlen(steps));
    } else if (kind != STORAGE_LOG_RESTART) {
        textbuf_puts(b, ",\"count\":");
        textbuf_int(b, count);
    }
    textbuf_puts(b, ",\"moves\":");
    textbuf_int(b, game->moves);
    textbuf_puts(b, ",\"pushes\":");
    textbuf_int(b, game->pushes);
}

/* The data of a "step" event, malloc'd (*len bytes), or NULL when out of
 * memory. */
static char *step_text(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                       uint32_t count, size_t *len)
{
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"game\":");
    textbuf_int(&b, g->id);
    entry_event_fields(&b, &g->game, kind, seq, steps, count);
    textbuf_puts(&b, soko_game_solved(&g->game) ? ",\"solved\":true}" : ",\"solved\":false}");
    return textbuf_take(&b, len);
}

void entry_event_publish_step(const char *topic, const struct live_game *g, int kind, uint32_t seq,
                              const char *steps, uint32_t count)
{
    if (!events_wanted(topic))
        return;
    size_t len = 0;
    char *text = step_text(g, kind, seq, steps, count, &len);
    if (text != NULL)
        events_publish(topic, "step", text, len, false);
    free(text);
}
