/* The JSON of a committed log entry. */
#include "live/entry_event.h"

#include "base/textbuf.h"
#include "live/events.h"
#include "storage/storage_games.h"

#include <stdlib.h>
#include <string.h>

/* What entry_event_read gathers. */
struct reading {
    struct events_missed *m;
    unsigned n;
    size_t bytes;
    bool over; /* past the bounds */
};

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

char *entry_event_step_text(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                            uint32_t count, size_t *len)
{
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"game\":");
    textbuf_int(&b, g->id);
    entry_event_fields(&b, &g->game, kind, seq, steps, count);
    textbuf_puts(&b, soko_game_solved(&g->game) ? ",\"solved\":true}" : ",\"solved\":false}");
    return textbuf_take(&b, len);
}

/* Keeps the event of entry e, g as it was after it. */
static int read_one(void *arg, const struct live_game *g, const struct storage_log_entry *e)
{
    struct reading *r = arg;
    if (r->n == EVENTS_HISTORY) {
        r->over = true;
        return 1;
    }
    size_t len = 0;
    char *text = entry_event_step_text(g, e->kind, e->seq, e->steps, e->count, &len);
    if (text == NULL)
        return 1;
    r->bytes += len;
    if (r->bytes > EVENTS_HISTORY_BYTES) {
        free(text);
        r->over = true;
        return 1;
    }
    r->m[r->n].pos = e->seq;
    r->m[r->n].data = text;
    r->m[r->n].len = len;
    r->n++;
    return 0;
}

int entry_event_read(int64_t game, uint32_t after, struct events_missed **out, unsigned *n)
{
    *out = NULL;
    *n = 0;
    struct reading r = {.m = calloc(EVENTS_HISTORY, sizeof *r.m)};
    struct live_game *g = calloc(1, sizeof *g);
    if (r.m == NULL || g == NULL) {
        free(r.m);
        free(g);
        return STORAGE_ERROR;
    }
    g->id = game;
    int status = play_replay(g, after, read_one, &r);
    play_free(g);
    free(g);
    if (r.over || status != STORAGE_OK) {
        entry_event_free(r.m, r.n);
        return r.over ? STORAGE_STOP : status;
    }
    *out = r.m;
    *n = r.n;
    return STORAGE_OK;
}

void entry_event_free(struct events_missed *m, unsigned n)
{
    for (unsigned i = 0; i < n && m != NULL; i++)
        free(m[i].data);
    free(m);
}

void entry_event_publish_step(const char *topic, const struct live_game *g, int kind, uint32_t seq,
                              const char *steps, uint32_t count, uint64_t pos)
{
    if (!events_wanted(topic))
        return;
    size_t len = 0;
    char *text = entry_event_step_text(g, kind, seq, steps, count, &len);
    if (text != NULL)
        events_publish(topic, "step", text, len, false, pos);
    free(text);
}
