/* What the soak's players read of sokod's answers and events, with
 * jansson, and what they do on them. */
#include "soak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The error code of an error answer, or "" */
const char *answers_error_code(const json_t *doc)
{
    const char *code = bench_json_text(doc, "error.code");
    return code != NULL ? code : "";
}

/* Adopts the game of an answer (its member "game", as the log, the game and
 * the opening answer hold it). False when the answer holds none. A step's
 * answer holds the game's summary, without `lurd`: the player only ever
 * plays the solution's letters, so its LURD since the last restart is then
 * the solution's first `moves` letters. */
static bool adopt_game(struct player *p, const json_t *doc)
{
    const json_t *g = bench_json_at(doc, "game");
    if (!json_is_object(g))
        return false;
    p->game = bench_json_long(g, "id", p->game);
    p->level_id = bench_json_long(g, "level_id", p->level_id);
    p->seq = bench_json_long(g, "seq", p->seq);
    p->solved = bench_json_true(g, "solved");
    p->x = (int)bench_json_long(g, "player.x", p->x);
    p->y = (int)bench_json_long(g, "player.y", p->y);
    p->undo_avail = bench_json_long(g, "undo_available", 0);
    p->redo_avail = bench_json_long(g, "redo_available", 0);
    long moves = bench_json_long(g, "moves", 0);
    const char *lurd = bench_json_text(g, "lurd");
    if (lurd == NULL) {
        p->lurd_len = (size_t)moves;
    } else {
        p->lurd_len = strlen(lurd);
        if (p->kind == LV_TUTORIAL) {
            const char *line = library_tutorial_line[p->tutorial];
            p->on_line = p->lurd_len <= strlen(line) && strncasecmp(lurd, line, p->lurd_len) == 0;
        }
    }
    return true;
}

/* The race game of the player `user` in a room (an answer holding "room",
 * or a room event, which is the room itself), or 0 before the start. */
static long seat_game(const json_t *room, long user)
{
    return bench_json_long(bench_json_find(room, "players", "user_id", user), "game_id", 0);
}

/* The pushes (upper-case letters) among the steps of a log answer. */
static unsigned long pushes_of(const json_t *doc)
{
    const char *s = bench_json_text(doc, "steps");
    unsigned long n = 0;
    for (; s != NULL && *s != '\0'; s++)
        n += *s >= 'A' && *s <= 'Z';
    return n;
}

static void race_answer(struct player *p, enum route r, int status, const json_t *doc,
                        const char *body)
{
    struct lobby *l = p->lobby;
    uint64_t now = bench_env_now_us();
    if (r == RT_ROOM_CREATE || r == RT_ROOM_JOIN) {
        if (status != (r == RT_ROOM_CREATE ? 201 : 200)) {
            if (!p->hosting)
                l->claimed--;
            player_lobby_release(p);
            p->race = RACE_NONE;
            return;
        }
        p->user_id = bench_json_long(doc, "you.user_id", 0);
        if (r == RT_ROOM_CREATE) {
            l->room = bench_json_long(doc, "room.id", 0);
            figures.rooms++;
        }
        char q[64];
        snprintf(q, sizeof q, "room=%ld", l->room);
        net_open_feed(p, FEED_RACE, q, true);
        return;
    }
    if (r == RT_ROOM_START) {
        if (status != 200) {
            player_race_leave(p);
            return;
        }
        figures.races_started++;
        l->racing = true;
        long game = seat_game(bench_json_at(doc, "room"), p->user_id);
        if (game <= 0) {
            figures_error(RT_ROOM_START, "race gave the host no game", body);
            player_race_leave(p);
            return;
        }
        figures.race_seats += l->claimed;
        player_race_go(p, game, bench_json_long(doc, "room.starts_in_ms", 0));
        return;
    }
    if (r == RT_ROOM) {
        const json_t *room = bench_json_at(doc, "room");
        const char *state = bench_json_text(room, "state");
        if (status == 200 && p->race == RACE_LOBBY && state != NULL &&
            (strcmp(state, "countdown") == 0 || strcmp(state, "racing") == 0)) {
            long game = seat_game(room, p->user_id);
            if (game > 0)
                player_race_go(p, game, bench_json_long(room, "starts_in_ms", 0));
        }
        return;
    }
    if (r == RT_ROOM_LEAVE) {
        net_close_feed(p, false);
        player_lobby_release(p);
        p->race = RACE_NONE;
        p->hosting = false;
        return;
    }
    if (r == RT_LOG && p->pending_kind == EK_RACE) {
        if (status != 200) {
            /* Out of step with the race: leave it. */
            player_race_leave(p);
            return;
        }
        figures.entries++;
        figures.moves++;
        figures.pushes += pushes_of(doc) > 0;
        p->race_seq = bench_json_long(doc, "game.seq", p->race_seq + 1);
        p->race_pos++;
        bool solved = bench_json_true(doc, "game.solved");
        if (solved || p->race_pos >= strlen(library_tutorial_line[l->tutorial])) {
            figures.race_finishes++;
            figures.solved += solved;
            p->race = RACE_DONE;
            player_schedule(p, now + 1000000u + player_think_us(p) * 4);
        }
        return;
    }
}

/* Counts a committed log entry (or a point-mode walk) by its kind. */
static void count_entry(const struct player *p, const json_t *doc)
{
    figures.entries++;
    switch (p->pending_kind) {
    case EK_STEPS:
        figures.moves += p->pending_moves;
        figures.pushes += pushes_of(doc);
        break;
    case EK_UNDO:
        figures.undos++;
        break;
    case EK_REDO:
        figures.redos++;
        break;
    case EK_RESTART:
        figures.restarts++;
        break;
    case EK_WALK: {
        figures.walks++;
        const char *s = bench_json_text(doc, "steps");
        figures.moves += s != NULL ? strlen(s) : 0;
        break;
    }
    default:
        break;
    }
}

/* The answer to a log entry or a walk: counted when committed; the game
 * adopted either way, or caught up with when the answer holds none. */
static void entry_answer(struct player *p, bool ok, const json_t *doc)
{
    if (ok && bench_json_true(doc, "duplicate")) {
        figures.duplicates++;
    } else if (ok) {
        count_entry(p, doc);
        bool was_solved = p->solved;
        if (p->pending_watched && p->feed_game == p->game &&
            (p->feed_kind == FEED_GAME || p->feed_kind == FEED_LINGER)) {
            long seq = bench_json_long(doc, "game.seq", 0);
            if (p->feed_sent++ == 0)
                p->feed_first = seq;
            p->feed_last = seq;
        }
        adopt_game(p, doc);
        figures.solved += p->solved && !was_solved;
    }
    if (!ok && !adopt_game(p, doc))
        p->resync = true;
}

/* The answers to signing up, logging out and logging in. */
static void account_answer(struct player *p, enum route r, bool ok, uint64_t now)
{
    if (r == RT_SIGNUP && ok) {
        p->account = 1;
        figures.signups++;
        /* A third of those who sign up log in again later, as on
         * another device. */
        if (player_chance(p, 33))
            p->relogin_at = now + (30 + player_rnd_below(p, 120)) * 1000000ull;
    } else if (r == RT_SIGNUP) {
        p->signer = false;
    } else if (r == RT_LOGOUT) {
        p->account = ok ? 2 : 1;
    } else if (r == RT_LOGIN) {
        p->account = 1;
        if (ok)
            figures.logins++;
        else
            p->signer = false;
        p->resync = true;
    }
}

/* True for the routes whose successful answers a player reads: the others
 * are parsed only when they fail, for their error code. */
static bool reads_answer(enum route r)
{
    return r == RT_OPEN || r == RT_LOG || r == RT_WALK || r == RT_GAME || r == RT_ROOM_CREATE ||
           r == RT_ROOM_JOIN || r == RT_ROOM_START || r == RT_ROOM;
}

/* Handles an answer on the player's API connection and plans what follows. */
void answers_take(struct player *p, enum route r, int status, const char *body)
{
    uint64_t now = bench_env_now_us();
    p->busy = false;
    int want = (r == RT_SIGNUP || r == RT_ROOM_CREATE) ? 201 : 200;
    bool ok = status == want || (r == RT_OPEN && status == 201);
    json_t *doc = !ok || reads_answer(r) ? bench_json_parse(body) : NULL;
    if (!ok) {
        const char *code = answers_error_code(doc);
        char what[96];
        snprintf(what, sizeof what, "%d %.63s", status, code[0] ? code : "(no code)");
        figures_error(r, what, body);
    }
    if (p->race != RACE_NONE) {
        race_answer(p, r, status, doc, body);
        json_decref(doc);
        if (!p->busy && (p->race == RACE_NONE || !p->in_heap || p->wake < now))
            player_schedule(p, now + player_think_us(p));
        return;
    }
    switch (r) {
    case RT_OPEN:
        if (!ok || !adopt_game(p, doc)) {
            p->game = 0;
            p->kind = LV_NONE;
        }
        break;
    case RT_LOG:
    case RT_WALK:
        entry_answer(p, ok, doc);
        break;
    case RT_GAME:
        if (ok)
            adopt_game(p, doc);
        else
            p->game = 0;
        break;
    case RT_SIGNUP:
    case RT_LOGOUT:
    case RT_LOGIN:
        account_answer(p, r, ok, now);
        break;
    default:
        break;
    }
    json_decref(doc);
    player_schedule(p, now + player_think_us(p));
}

/* Notes the seq of a step event that a second tab saw. */
static void saw_step(struct player *p, const char *data)
{
    if (p->nseen == p->seen_cap) {
        size_t cap = p->seen_cap > 0 ? p->seen_cap * 2 : 64;
        long *v = realloc(p->seen, cap * sizeof *v);
        if (v == NULL)
            return;
        p->seen = v;
        p->seen_cap = cap;
    }
    json_t *doc = bench_json_parse(data);
    p->seen[p->nseen++] = bench_json_long(doc, "seq", 0);
    json_decref(doc);
}

/* A room event to a joiner in the lobby: the countdown names its game. */
static void room_changed(struct player *p, const char *data)
{
    json_t *room = bench_json_parse(data);
    const char *state = bench_json_text(room, "state");
    long game = state != NULL && strcmp(state, "countdown") == 0 ? seat_game(room, p->user_id) : 0;
    if (game > 0)
        player_race_go(p, game, bench_json_long(room, "starts_in_ms", 0));
    json_decref(room);
}

/* An SSE event: counts it, and drives a racer waiting for its race. */
void answers_event(void *arg, const struct bench_http_event *e)
{
    struct player *p = arg;
    if (e->type == NULL) {
        figures.heartbeats++;
        return;
    }
    int kind = EV_OTHER;
    for (int k = 0; k < EV_OTHER; k++) {
        if (strcmp(e->type, figures_event_name[k]) == 0)
            kind = k;
    }
    figures.events[kind]++;
    if (kind == EV_READY && !p->feed_ready) {
        p->feed_ready = true;
        figures.stream_ready++;
        figures_latency(RT_EVENTS, bench_env_now_us() - p->feed.sent_at);
        if (p->feed_kind == FEED_RACE && p->lobby != NULL)
            p->lobby->ready++;
    } else if (kind == EV_STEP && (p->feed_kind == FEED_GAME || p->feed_kind == FEED_LINGER)) {
        saw_step(p, e->data);
    } else if (kind == EV_ROOM && p->feed_kind == FEED_RACE && p->race == RACE_LOBBY &&
               !p->hosting) {
        room_changed(p, e->data);
    }
}
