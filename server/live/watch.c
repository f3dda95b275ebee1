/* Watching a player: who plays which game now (in memory, learned from
 * games opened and entries committed, the database's last game
 * otherwise), the checks before anyone watches, and the watch topic's
 * events. The entries are the game topic's "step" events, built the same
 * way, so a watcher's board replays them as a second device would. */
#include "live/watch.h"

#include "accounts/settings.h"
#include "base/clock.h"
#include "base/textbuf.h"
#include "http/http.h"
#include "live/entry_event.h"
#include "play/game_cache.h"
#include "play/games.h"
#include "storage/storage_games.h"
#include "storage/storage_notify.h"
#include "storage/storage_settings.h"
#include "storage/storage_users.h"
#include "storage/storage_watch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What watching a player who cannot be watched is told, whatever the reason. */
#define WATCH_REFUSED "this player cannot be watched"

#define WATCH_BUCKETS 1024
/* Players remembered at most; beyond, those idle longest are forgotten
 * (their last game then comes from the database). */
#define WATCH_REMEMBERED 65536
#define WATCH_IDLE_S (60 * 60)

struct playing {
    int64_t user, game, level;
    int64_t touched; /* monotonic seconds */
    struct playing *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct playing *buckets[WATCH_BUCKETS];
static unsigned remembered;

void watch_topic(int64_t user, char out[EVENTS_TOPIC_MAX])
{
    snprintf(out, EVENTS_TOPIC_MAX, "watch:%lld", (long long)user);
}

/* Forgets players idle for WATCH_IDLE_S. Lock held. */
static void forget_idle(int64_t now)
{
    for (unsigned b = 0; b < WATCH_BUCKETS; b++) {
        struct playing **p = &buckets[b];
        while (*p != NULL) {
            if (now - (*p)->touched > WATCH_IDLE_S) {
                struct playing *gone = *p;
                *p = gone->next;
                free(gone);
                remembered--;
            } else {
                p = &(*p)->next;
            }
        }
    }
}

/* Records that `user` plays `game`; true when it is another game than the
 * one known (or none was known). */
static bool set_playing(int64_t user, int64_t game, int64_t level)
{
    int64_t now = (int64_t)(clock_mono_us() / 1000000u);
    unsigned b = (unsigned)((uint64_t)user % WATCH_BUCKETS);
    pthread_mutex_lock(&lock);
    struct playing *p = buckets[b];
    while (p != NULL && p->user != user)
        p = p->next;
    bool changed = p == NULL || p->game != game;
    if (p == NULL && remembered >= WATCH_REMEMBERED)
        forget_idle(now);
    if (p == NULL && remembered < WATCH_REMEMBERED) {
        p = calloc(1, sizeof *p);
        if (p != NULL) {
            p->user = user;
            p->next = buckets[b];
            buckets[b] = p;
            remembered++;
        }
    }
    if (p != NULL) {
        p->game = game;
        p->level = level;
        p->touched = now;
    }
    pthread_mutex_unlock(&lock);
    return changed;
}

/* The game `user` plays now: STORAGE_OK, STORAGE_NOT_FOUND or a failure. */
static int get_playing(int64_t user, int64_t *game, int64_t *level)
{
    unsigned b = (unsigned)((uint64_t)user % WATCH_BUCKETS);
    pthread_mutex_lock(&lock);
    struct playing *p = buckets[b];
    while (p != NULL && p->user != user)
        p = p->next;
    if (p != NULL) {
        *game = p->game;
        *level = p->level;
    }
    pthread_mutex_unlock(&lock);
    return p != NULL ? STORAGE_OK : storage_watch_last_game(user, game, level);
}

static void publish_playing(int64_t user, int64_t game, int64_t level)
{
    char topic[EVENTS_TOPIC_MAX];
    watch_topic(user, topic);
    if (!events_wanted(topic))
        return;
    char data[128];
    int n = snprintf(data, sizeof data, "{\"user_id\":%lld,\"game\":%lld,\"level_id\":%lld}",
                     (long long)user, (long long)game, (long long)level);
    events_publish(topic, "playing", data, (size_t)n, false, 0);
}

/* `user` plays `game` on `level`, as this node saw: when it is not the
 * game known, watchers here get a "playing" event, and the other nodes
 * sharing the database are told (live/nodes.c calls watch_heard_playing).
 * Cannot fail: a node not told keeps the game it knew until the player's
 * next entry there. */
static void now_playing(int64_t user, int64_t game, int64_t level)
{
    if (!set_playing(user, game, level))
        return;
    publish_playing(user, game, level);
    char payload[STORAGE_NOTIFY_MAX];
    snprintf(payload, sizeof payload, "playing:%lld:%lld:%lld", (long long)user, (long long)game,
             (long long)level);
    storage_notify(payload);
}

void watch_heard_playing(int64_t user, int64_t game, int64_t level)
{
    if (set_playing(user, game, level))
        publish_playing(user, game, level);
}

/* The player `user` opened game `game` on `level`. */
static void game_opened(int64_t user, int64_t game, int64_t level)
{
    now_playing(user, game, level);
}

/* Publishes to the watchers of g's player the entry `seq` just committed
 * (own games only: race games are followed through their room). Call
 * after the commit, with g held. Cheap when nobody watches. */
static void player_entry(const struct live_game *g, int kind, uint32_t seq, const char *steps,
                         uint32_t count)
{
    if (g->room_id != 0 || kind < 0 || kind > STORAGE_LOG_RESTART)
        return;
    /* Another device of the player may play another game meanwhile. */
    now_playing(g->user_id, g->id, g->level_id);
    char topic[EVENTS_TOPIC_MAX];
    watch_topic(g->user_id, topic);
    /* Before it is published: this node's listener, told of the entry
     * too, must not publish it again. */
    watch_told(g->id, seq);
    entry_event_publish_step(topic, g, kind, seq, steps, count, 0);
}

/* The last entry of each game that its player's watchers on this node
 * were told of, for the games played lately: a slot per game id's hash,
 * the newest game taking it. A game whose slot was taken is told from the
 * entry notified. */
#define TOLD_SLOTS 4096
static struct {
    int64_t game;
    uint32_t seq;
} told[TOLD_SLOTS];
static pthread_mutex_t told_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned told_slot(int64_t game)
{
    return (unsigned)(((uint64_t)game * 0x9E3779B97F4A7C15ull) >> 52) % TOLD_SLOTS;
}

void watch_told(int64_t game, uint32_t seq)
{
    unsigned i = told_slot(game);
    pthread_mutex_lock(&told_lock);
    if (told[i].game != game || told[i].seq < seq) {
        told[i].game = game;
        told[i].seq = seq;
    }
    pthread_mutex_unlock(&told_lock);
}

uint32_t watch_told_through(int64_t game, uint32_t seq)
{
    unsigned i = told_slot(game);
    pthread_mutex_lock(&told_lock);
    uint32_t known = told[i].game == game ? told[i].seq : seq - 1;
    pthread_mutex_unlock(&told_lock);
    return known;
}

bool watch_settings_allow(const char *settings)
{
    if (settings == NULL)
        return true;
    json_t *obj = json_loads(settings, 0, NULL);
    bool allow = !json_is_false(json_object_get(obj, "watchable"));
    json_decref(obj);
    return allow;
}

/* A player who stops being watchable ends every stream watching them. */
static void settings_stored(int64_t user, const json_t *settings)
{
    if (!json_is_false(json_object_get(settings, "watchable")))
        return;
    char topic[EVENTS_TOPIC_MAX];
    watch_topic(user, topic);
    events_end_topic(topic);
    /* And on the other nodes: they end theirs as the notification comes
     * (live/nodes.c reads it). */
    char payload[STORAGE_NOTIFY_MAX];
    snprintf(payload, sizeof payload, "unwatch:%lld", (long long)user);
    storage_notify(payload);
}

bool watch_still_allowed(int64_t user)
{
    char *settings = NULL;
    int status = storage_settings_get(user, &settings);
    /* No settings stored: watchable. A database that cannot answer now is
     * asked again at the next catch-up. */
    bool allow = status != STORAGE_OK || watch_settings_allow(settings);
    free(settings);
    if (!allow) {
        char topic[EVENTS_TOPIC_MAX];
        watch_topic(user, topic);
        events_end_topic(topic);
    }
    return allow;
}

bool watch_allowed(struct http_conn *c, int64_t user, int *result)
{
    struct storage_user u;
    int status = storage_user_get(user, &u);
    if (status == STORAGE_NOT_FOUND) {
        *result = reply_error(c, API_E_USER_NOT_FOUND, "there is no player %lld", (long long)user);
        return false;
    }
    if (status != STORAGE_OK) {
        *result = reply_storage_failure(c, status);
        return false;
    }
    /* One refusal for every reason (a guest, an opt-out): it must tell a
     * stranger neither which ids are guests nor whose name an id has. */
    if (u.guest) {
        *result = reply_error(c, API_E_NOT_WATCHABLE, WATCH_REFUSED);
        return false;
    }
    char *settings = NULL;
    status = storage_settings_get(user, &settings);
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND) {
        *result = reply_storage_failure(c, status);
        return false;
    }
    bool allow = watch_settings_allow(settings);
    free(settings);
    if (!allow) {
        *result = reply_error(c, API_E_NOT_WATCHABLE, WATCH_REFUSED);
        return false;
    }
    return true;
}

int watch_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user = c->param[0];
    if (!watch_allowed(c, user, &result))
        return result;
    char name[STORAGE_USERNAME_CAP];
    if (storage_user_name(user, name, sizeof name) != STORAGE_OK)
        name[0] = '\0';
    int64_t game = 0, level = 0;
    int status = get_playing(user, &game, &level);
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND)
        return reply_storage_failure(c, status);
    struct textbuf b = {0};
    textbuf_puts(&b, "{\"player\":{\"user_id\":");
    textbuf_int(&b, user);
    textbuf_puts(&b, ",\"name\":");
    textbuf_json_string(&b, name, strlen(name));
    textbuf_puts(&b, "},\"game\":");
    struct live_game *g = NULL;
    if (status == STORAGE_OK && game_cache_acquire(game, &g) == STORAGE_OK) {
        play_state_write(g, &b);
        game_cache_release(g);
    } else {
        textbuf_puts(&b, "null");
    }
    textbuf_puts(&b, "}");
    size_t len = 0;
    char *text = textbuf_take(&b, &len);
    if (text == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    return reply_json_text(c, 200, text, len);
}

int watch_listen(void)
{
    if (games_add_open_listener(game_opened) != 0 || settings_add_listener(settings_stored) != 0)
        return -1;
    return games_add_listener(player_entry);
}
