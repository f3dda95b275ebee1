/* What a notification from another node means, and catching up after the
 * listening connection was lost. Runs on the storage wing's listener
 * thread. */
#include "live/nodes.h"

#include "live/entry_event.h"
#include "live/events.h"
#include "live/room_state.h"
#include "live/watch.h"
#include "storage/storage_notify.h"

#include "storage/storage_games.h"
#include "storage/storage_watch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tells the watchers of the player of `game` (followed on this node) of
 * the entries up to `seq` they were not told of. */
static void tell_watchers(int64_t game, uint32_t seq)
{
    uint32_t known = watch_told_through(game, seq);
    if (known >= seq)
        return; /* this node committed it, or told them already */
    /* Nobody watches anyone here: no need to ask whose game it is. */
    unsigned watched = 0;
    free(events_followed("watch:", &watched));
    if (watched == 0)
        return;
    struct storage_game row;
    if (storage_game_get(game, &row) != STORAGE_OK || row.room_id != 0)
        return; /* race games are followed through their room */
    char topic[EVENTS_TOPIC_MAX];
    watch_topic(row.user_id, topic);
    if (!events_wanted(topic))
        return;
    struct events_missed *m = NULL;
    unsigned n = 0;
    if (entry_event_read(game, known, &m, &n) != STORAGE_OK)
        return;
    for (unsigned i = 0; i < n; i++)
        events_publish(topic, "step", m[i].data, m[i].len, false, 0);
    if (n > 0)
        watch_told(game, (uint32_t)m[n - 1].pos);
    entry_event_free(m, n);
}

/* How many of the entries a topic showed are read again on a catch-up
 * after lost notifications, to find a game that went back meanwhile. */
#define RECHECKED_ENTRIES 8

/* Publishes what topic "game:ID" lacks of the game's log, up to entry
 * `seq` at least (0: whatever the log holds, after notifications were
 * lost). A topic too far behind ends its streams: their clients come back
 * and get a snapshot.
 *
 * An entry the topic showed already may be in the log with other contents:
 * the game went back, entries lost with a failed database and their seqs
 * taken again. So the log is read from the entry notified when the topic
 * stands at it or past it (or from the last few it showed, after lost
 * notifications), and compared with what the topic keeps: from the first
 * entry that differs, or past the log's end, the topic goes back
 * (events_rewind_topic ends its streams) and publishes the log's entries
 * from there. */
static void catch_up_game(int64_t game, uint32_t seq)
{
    char topic[EVENTS_TOPIC_MAX];
    snprintf(topic, sizeof topic, "game:%lld", (long long)game);
    if (!events_wanted(topic))
        return;
    uint64_t have = events_position(topic);
    uint64_t after = have; /* the log is read past this entry */
    if (seq != 0 && have >= seq)
        after = seq - 1;
    else if (seq == 0)
        after = have > RECHECKED_ENTRIES ? have - RECHECKED_ENTRIES : 0;
    struct events_missed *m = NULL;
    unsigned n = 0;
    int status = entry_event_read(game, (uint32_t)after, &m, &n);
    if (status == STORAGE_STOP) {
        events_end_topic(topic);
        return;
    }
    if (status != STORAGE_OK)
        return;
    uint64_t back = have; /* the last entry still as it was shown */
    for (unsigned i = 0; i < n && m[i].pos <= have && back == have; i++) {
        if (events_kept_compare(topic, m[i].pos, "step", m[i].data, m[i].len) == EVENTS_KEPT_OTHER)
            back = m[i].pos - 1;
    }
    uint64_t end = n > 0 ? m[n - 1].pos : after;
    if (end < back)
        back = end;
    if (back < have) {
        fprintf(stderr,
                "sokod: game %lld went back from entry %" PRIu64 " to %" PRIu64
                ": its streams start again\n",
                (long long)game, have, back);
        events_rewind_topic(topic, back);
    }
    for (unsigned i = 0; i < n; i++) {
        if (m[i].pos > back)
            events_publish(topic, "step", m[i].data, m[i].len, false, m[i].pos);
    }
    entry_event_free(m, n);
}

void live_nodes_catch_up(int64_t game)
{
    catch_up_game(game, 0);
}

static void on_payload(void *arg, const char *payload, bool own)
{
    (void)arg;
    if (own)
        return; /* published here as it was committed */
    long long id = 0, game = 0, level = 0;
    unsigned seq = 0;
    int used = 0;
    if (sscanf(payload, "game:%lld:%u%n", &id, &seq, &used) == 2 && payload[used] == '\0' &&
        id > 0 && seq > 0) {
        catch_up_game(id, seq);
        tell_watchers(id, seq);
    } else if (sscanf(payload, "room:%lld:%u%n", &id, &seq, &used) == 2 && payload[used] == '\0' &&
               id > 0 && seq > 0) {
        room_state_heard(id, seq);
    } else if (sscanf(payload, "playing:%lld:%lld:%lld%n", &id, &game, &level, &used) == 3 &&
               payload[used] == '\0' && id > 0 && game > 0) {
        watch_heard_playing(id, game, level);
    } else if (sscanf(payload, "unwatch:%lld%n", &id, &used) == 1 && payload[used] == '\0') {
        char topic[EVENTS_TOPIC_MAX];
        watch_topic(id, topic);
        events_end_topic(topic);
    }
}

/* A watch topic followed here, after notifications were lost: its
 * streams end if the player opted out meanwhile; otherwise the game the
 * player touched last is told as playing when it is another than the one
 * known, and its entries the watchers were not told of follow. */
static void catch_up_watch(int64_t user)
{
    /* An opt-out told meanwhile was lost too. */
    if (!watch_still_allowed(user))
        return;
    int64_t game = 0, level = 0;
    if (storage_watch_last_game(user, &game, &level) != STORAGE_OK)
        return;
    watch_heard_playing(user, game, level);
    /* Only a game they were told of has entries they lack. */
    tell_watchers(game, UINT32_MAX);
}

/* Notifications sent while the connection was down are lost: every game
 * topic, watched player and room followed here reads what it lacks from
 * the tables. */
static void on_reconnected(void *arg)
{
    (void)arg;
    unsigned n = 0;
    char(*names)[EVENTS_TOPIC_MAX] = events_followed("game:", &n);
    for (unsigned i = 0; i < n; i++) {
        long long id = 0;
        if (sscanf(names[i], "game:%lld", &id) == 1 && id > 0)
            catch_up_game(id, 0);
    }
    free(names);
    names = events_followed("watch:", &n);
    for (unsigned i = 0; i < n; i++) {
        long long id = 0;
        if (sscanf(names[i], "watch:%lld", &id) == 1 && id > 0)
            catch_up_watch(id);
    }
    free(names);
    room_state_catch_up();
}

static unsigned heartbeat_ms;

/* Every heartbeat: this node still runs, and nodes gone are forgotten. */
static void on_tick(void *arg)
{
    (void)arg;
    static bool beaten;
    room_state_heartbeat(heartbeat_ms, !beaten);
    beaten = true;
}

int live_nodes_start(unsigned tick_ms)
{
    heartbeat_ms = tick_ms;
    struct storage_listener l = {on_payload, on_reconnected, NULL, on_tick, tick_ms};
    return storage_listen_start(&l) == STORAGE_OK ? 0 : -1;
}

void live_nodes_stop(void)
{
    storage_listen_stop();
}
