/* The soak's players: each a person with a schedule of its own (a heap of
 * wake-up times), who plays, browses, signs up, watches and races. */
#include "soak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct lobby lobbies[MAX_LOBBIES];

struct player *player_list;
struct player **player_heap;
size_t player_heap_len;

static uint64_t rnd(struct player *p)
{
    /* xorshift64*: fast, and the same seed gives the same run of choices. */
    p->rng ^= p->rng >> 12;
    p->rng ^= p->rng << 25;
    p->rng ^= p->rng >> 27;
    return p->rng * 2685821657736338717ull;
}

unsigned player_rnd_below(struct player *p, unsigned n)
{
    return n > 0 ? (unsigned)(rnd(p) >> 33) % n : 0;
}

bool player_chance(struct player *p, unsigned percent)
{
    return player_rnd_below(p, 100) < percent;
}

uint64_t player_think_us(struct player *p)
{
    return (uint64_t)(THINK_MIN_MS + player_rnd_below(p, THINK_MAX_MS - THINK_MIN_MS + 1)) * 1000u;
}

static void heap_swap(size_t a, size_t b)
{
    struct player *t = player_heap[a];
    player_heap[a] = player_heap[b];
    player_heap[b] = t;
    player_heap[a]->heap_at = a;
    player_heap[b]->heap_at = b;
}

static void heap_up(size_t i)
{
    while (i > 0 && player_heap[(i - 1) / 2]->wake > player_heap[i]->wake) {
        heap_swap(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void heap_down(size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < player_heap_len && player_heap[l]->wake < player_heap[m]->wake)
            m = l;
        if (r < player_heap_len && player_heap[r]->wake < player_heap[m]->wake)
            m = r;
        if (m == i)
            return;
        heap_swap(i, m);
        i = m;
    }
}

/* Puts the player's next action at `at` (rescheduling it if it had one). */
void player_schedule(struct player *p, uint64_t at)
{
    p->wake = at;
    if (!p->in_heap) {
        p->in_heap = true;
        p->heap_at = player_heap_len;
        player_heap[player_heap_len++] = p;
        heap_up(p->heap_at);
        return;
    }
    heap_up(p->heap_at);
    heap_down(p->heap_at);
}

struct player *player_next_due(void)
{
    struct player *p = player_heap[0];
    heap_swap(0, --player_heap_len);
    heap_down(0);
    p->in_heap = false;
    return p;
}

static void open_level(struct player *p)
{
    unsigned roll = player_rnd_below(p, 100);
    if (p->feed_kind == FEED_GAME)
        net_close_feed(p, true);
    if (roll < 45) {
        p->kind = LV_WALK;
        p->level_id = library_walk_level;
    } else if (roll < 85) {
        p->kind = LV_TUTORIAL;
        p->tutorial = (int)player_rnd_below(p, library_ntutorial);
        p->level_id = library_tutorial_level[p->tutorial];
    } else {
        p->kind = LV_BROWSE;
        p->level_id = library_browse[player_rnd_below(p, library_nbrowse)];
    }
    p->game = 0;
    char path[96];
    snprintf(path, sizeof path, "/api/v1/levels/%ld/game", p->level_id);
    net_send(p, RT_OPEN, "POST", path, "{}");
}

static void send_entry(struct player *p, enum route r, int kind, const char *fields)
{
    char path[96], body[256];
    snprintf(path, sizeof path, "/api/v1/games/%ld/%s", p->game, r == RT_WALK ? "walk" : "log");
    snprintf(body, sizeof body, "{\"seq\":%ld,%s}", p->seq + 1, fields);
    p->pending_kind = kind;
    /* Counted for the second tab only when sent once it followed the game:
     * an entry already on its way may be committed before. */
    p->pending_watched = p->feed_kind == FEED_GAME && p->feed_ready && p->feed_game == p->game;
    net_send(p, r, "POST", path, body);
}

/* Steps on the open floor: one to three, never leaving the room's top. */
static void walk_steps(struct player *p)
{
    static const struct {
        char c;
        int dx, dy;
    } dirs[4] = {{'l', -1, 0}, {'r', 1, 0}, {'u', 0, -1}, {'d', 0, 1}};
    char steps[8], fields[48];
    unsigned n = 1 + player_rnd_below(p, 3), k = 0;
    int x = p->x, y = p->y;
    while (k < n) {
        unsigned d = player_rnd_below(p, 4);
        int nx = x + dirs[d].dx, ny = y + dirs[d].dy;
        if (nx < WALK_X0 || nx > WALK_X1 || ny < WALK_Y0 || ny > WALK_Y1)
            continue;
        steps[k++] = dirs[d].c;
        x = nx;
        y = ny;
    }
    steps[k] = '\0';
    p->pending_moves = k;
    snprintf(fields, sizeof fields, "\"steps\":\"%s\"", steps);
    send_entry(p, RT_LOG, EK_STEPS, fields);
}

/* The next one to three steps of the tutorial level's solution. */
static void solution_steps(struct player *p)
{
    const char *line = library_tutorial_line[p->tutorial];
    size_t left = strlen(line) - p->lurd_len;
    unsigned n = 1 + player_rnd_below(p, 3);
    if (n > left)
        n = (unsigned)left;
    char fields[48];
    snprintf(fields, sizeof fields, "\"steps\":\"%.*s\"", (int)n, line + p->lurd_len);
    p->pending_moves = n;
    send_entry(p, RT_LOG, EK_STEPS, fields);
}

static void point_walk(struct player *p)
{
    int x, y;
    do {
        x = WALK_X0 + (int)player_rnd_below(p, WALK_X1 - WALK_X0 + 1);
        y = WALK_Y0 + (int)player_rnd_below(p, WALK_Y1 - WALK_Y0 + 1);
    } while (x == p->x && y == p->y); /* a walk to where it stands adds nothing */
    char fields[48];
    snprintf(fields, sizeof fields, "\"x\":%d,\"y\":%d", x, y);
    send_entry(p, RT_WALK, EK_WALK, fields);
}

/* A step, or what stands for one where the player cannot step. */
static void play(struct player *p)
{
    if (p->kind == LV_WALK) {
        walk_steps(p);
    } else if (p->kind == LV_TUTORIAL && p->on_line && !p->solved &&
               p->lurd_len < strlen(library_tutorial_line[p->tutorial])) {
        solution_steps(p);
    } else if (p->kind == LV_TUTORIAL && p->lurd_len > 0 && player_chance(p, 50)) {
        send_entry(p, RT_LOG, EK_RESTART, "\"restart\":true");
    } else {
        open_level(p);
    }
}

static void get(struct player *p, enum route r, const char *fmt, long id)
{
    char path[128];
    snprintf(path, sizeof path, fmt, id);
    net_send(p, r, "GET", path, NULL);
}

void player_lobby_release(struct player *p)
{
    struct lobby *l = p->lobby;
    p->lobby = NULL;
    if (l != NULL && --l->members == 0)
        memset(l, 0, sizeof *l);
}

/* A racer goes racing: joins a room waiting for players, or opens one. */
static void race_begin(struct player *p)
{
    if (p->feed_kind != FEED_NONE)
        net_close_feed(p, false);
    p->race = RACE_LOBBY;
    p->race_poll = false;
    p->race_game = 0;
    p->race_seq = 0;
    p->race_pos = 0;
    p->race_at = bench_env_now_us();
    unsigned start = player_rnd_below(p, MAX_LOBBIES);
    bool join = player_chance(p, 60);
    for (unsigned i = 0; i < MAX_LOBBIES && join; i++) {
        struct lobby *l = &lobbies[(start + i) % MAX_LOBBIES];
        if (!l->used || l->closed || l->room == 0 || l->claimed >= l->target)
            continue;
        l->claimed++;
        l->members++;
        p->lobby = l;
        p->hosting = false;
        char path[96];
        snprintf(path, sizeof path, "/api/v1/rooms/%ld/join", l->room);
        net_send(p, RT_ROOM_JOIN, "POST", path, "{}");
        return;
    }
    struct lobby *l = NULL;
    for (unsigned i = 0; i < MAX_LOBBIES && l == NULL; i++) {
        if (!lobbies[i].used)
            l = &lobbies[i];
    }
    if (l == NULL) {
        p->race = RACE_NONE;
        player_schedule(p, bench_env_now_us() + player_think_us(p));
        return;
    }
    memset(l, 0, sizeof *l);
    l->used = true;
    l->tutorial = (int)player_rnd_below(p, library_ntutorial);
    l->target = 2 + player_rnd_below(p, 3);
    l->claimed = 1;
    l->members = 1;
    l->created = bench_env_now_us();
    p->lobby = l;
    p->hosting = true;
    char body[96];
    snprintf(body, sizeof body, "{\"level\":\"chosen\",\"level_id\":%ld}",
             library_tutorial_level[l->tutorial]);
    net_send(p, RT_ROOM_CREATE, "POST", "/api/v1/rooms", body);
}

/* The race game is known and the countdown runs: play from its end. */
void player_race_go(struct player *p, long game, long starts_in_ms)
{
    p->race = RACE_COUNTDOWN;
    p->race_game = game;
    p->race_seq = 0;
    p->race_pos = 0;
    player_schedule(p, bench_env_now_us() +
                           (uint64_t)(starts_in_ms > 0 ? starts_in_ms : 0) * 1000u + 100000u +
                           player_think_us(p));
}

void player_race_leave(struct player *p)
{
    char path[96];
    snprintf(path, sizeof path, "/api/v1/rooms/%ld/leave", p->lobby->room);
    net_send(p, RT_ROOM_LEAVE, "POST", path, "{}");
}

static void race_act(struct player *p, uint64_t now)
{
    struct lobby *l = p->lobby;
    switch (p->race) {
    case RACE_LOBBY:
        /* The host starts once the seats it waits for are taken and every
         * player hears the room (or a joiner is lost: after 15 s). */
        if (p->hosting && p->feed_ready &&
            ((l->ready >= l->claimed && (l->claimed >= l->target || now - l->created > 8000000u)) ||
             now - l->created > 15000000u)) {
            l->closed = true;
            char path[96];
            snprintf(path, sizeof path, "/api/v1/rooms/%ld/start", l->room);
            net_send(p, RT_ROOM_START, "POST", path, "{}");
            return;
        }
        /* A stream that broke is opened again, as a browser does; a joiner
         * who may have missed the start asks for the room meanwhile. */
        if (p->feed_kind == FEED_NONE && l->room > 0) {
            char q[64];
            snprintf(q, sizeof q, "room=%ld", l->room);
            net_open_feed(p, FEED_RACE, q, true);
        }
        if (p->race_poll && !p->hosting && l->room > 0) {
            p->race_poll = false;
            get(p, RT_ROOM, "/api/v1/rooms/%ld", l->room);
            return;
        }
        if (now - p->race_at > 30000000u) {
            /* Nobody started the race: give up as a person would. */
            figures_error(RT_ROOM_START, "race never started (30 s in the lobby)", "");
            player_race_leave(p);
            return;
        }
        player_schedule(p, now + player_think_us(p));
        return;
    case RACE_COUNTDOWN:
    case RACE_RUN: {
        p->race = RACE_RUN;
        const char *line = library_tutorial_line[l->tutorial];
        char path[96], body[96];
        snprintf(path, sizeof path, "/api/v1/games/%ld/log", p->race_game);
        snprintf(body, sizeof body, "{\"seq\":%ld,\"steps\":\"%c\"}", p->race_seq + 1,
                 line[p->race_pos]);
        p->pending_kind = EK_RACE;
        p->pending_moves = 1;
        net_send(p, RT_LOG, "POST", path, body);
        return;
    }
    case RACE_DONE:
        player_race_leave(p);
        return;
    case RACE_NONE:
        break;
    }
}

static void end_session(struct player *p, uint64_t now)
{
    if (p->feed_kind != FEED_NONE)
        net_close_feed(p, false);
    net_close(&p->api);
    p->live = false;
    /* The next player takes the place after a moment. */
    player_start_session(p, now + player_think_us(p) * 4);
}

/* Signs the player up, or logs it in again: its name and password follow
 * from its serial number and the run's seed. */
static void send_account(struct player *p, enum route r, const char *path)
{
    char body[160];
    snprintf(body, sizeof body, "{\"username\":\"soak%lu_%u\",\"password\":\"soak-password-%lu\"}",
             p->serial, soak_seed, p->serial);
    net_send(p, r, "POST", path, body);
}

void player_act(struct player *p, uint64_t now)
{
    p->actions++;
    if (p->race != RACE_NONE) {
        race_act(p, now);
        return;
    }
    if (now >= p->ends) {
        end_session(p, now);
        return;
    }
    if (p->resync && p->game > 0) {
        p->resync = false;
        get(p, RT_GAME, "/api/v1/games/%ld", p->game);
        return;
    }
    if (p->feed_kind == FEED_ROOM) {
        if (now < p->feed_until) {
            player_schedule(p, p->feed_until);
            return;
        }
        net_close_feed(p, false);
    }
    if (p->feed_kind == FEED_LINGER && now >= p->feed_until)
        net_close_feed(p, false);
    if (p->feed_kind == FEED_GAME && p->feed_game != p->game)
        net_close_feed(p, true);
    if (p->actions == 1) {
        net_send(p, RT_COLLECTIONS, "GET", "/api/v1/collections", NULL);
        return;
    }
    if (p->game == 0) {
        open_level(p);
        return;
    }
    if (p->signer && p->account == 0 && p->actions > p->signup_after) {
        send_account(p, RT_SIGNUP, "/api/v1/account/signup");
        return;
    }
    if (p->account == 1 && p->relogin_at != 0 && now >= p->relogin_at) {
        p->relogin_at = 0;
        net_send(p, RT_LOGOUT, "POST", "/api/v1/account/logout", "{}");
        return;
    }
    if (p->account == 2) {
        send_account(p, RT_LOGIN, "/api/v1/account/login");
        return;
    }
    if (p->two_tabs && p->feed_kind == FEED_NONE && p->kind != LV_BROWSE) {
        char q[64];
        snprintf(q, sizeof q, "game=%ld", p->game);
        p->feed_game = p->game;
        net_open_feed(p, FEED_GAME, q, true);
    }
    if (p->racer && player_chance(p, 8)) {
        race_begin(p);
        return;
    }
    if (p->spectator && player_chance(p, 5)) {
        unsigned start = player_rnd_below(p, MAX_LOBBIES);
        for (unsigned i = 0; i < MAX_LOBBIES; i++) {
            struct lobby *l = &lobbies[(start + i) % MAX_LOBBIES];
            if (!l->used || !l->racing)
                continue;
            char q[64];
            snprintf(q, sizeof q, "room=%ld", l->room);
            p->feed_room = l->room;
            p->feed_until = now + (20 + player_rnd_below(p, 41)) * 1000000ull;
            net_open_feed(p, FEED_ROOM, q, false);
            player_schedule(p, p->feed_until);
            return;
        }
    }
    /* The mix of a person playing: mostly steps, now and then the rest. */
    unsigned roll = player_rnd_below(p, 1000);
    if (roll < 560)
        play(p);
    else if (roll < 620)
        p->undo_avail > 0 ? send_entry(p, RT_LOG, EK_UNDO, "\"undo\":1") : play(p);
    else if (roll < 670)
        p->redo_avail > 0 ? send_entry(p, RT_LOG, EK_REDO, "\"redo\":1") : play(p);
    else if (roll < 690)
        p->kind != LV_BROWSE && p->lurd_len > 0
            ? send_entry(p, RT_LOG, EK_RESTART, "\"restart\":true")
            : play(p);
    else if (roll < 730)
        p->kind == LV_WALK ? point_walk(p) : play(p);
    else if (roll < 800)
        open_level(p);
    else if (roll < 830)
        get(p, RT_LEVEL, "/api/v1/levels/%ld", p->level_id);
    else if (roll < 850)
        net_send(p, RT_COLLECTIONS, "GET", "/api/v1/collections", NULL);
    else if (roll < 875)
        get(p, RT_COLLECTION, "/api/v1/collections/%ld",
            library_collections[player_rnd_below(p, library_ncollections)]);
    else if (roll < 905)
        net_send(p, RT_PROGRESS, "GET", "/api/v1/progress", NULL);
    else if (roll < 930)
        get(p, RT_GAME, "/api/v1/games/%ld", p->game);
    else if (roll < 945)
        net_send(p, RT_ACCOUNT, "GET", "/api/v1/account", NULL);
    else if (roll < 975)
        get(p, RT_LEADERBOARD, "/api/v1/levels/%ld/leaderboard", p->level_id);
    else
        net_send(p, RT_ROOMS, "GET", "/api/v1/rooms", NULL);
}

void player_start_session(struct player *p, uint64_t at)
{
    net_close(&p->api);
    net_close(&p->feed);
    p->serial += soak_nplayers; /* a new person: a new address, a new guest */
    p->rng = ((uint64_t)soak_seed << 32) ^ (p->serial * 0x9E3779B97F4A7C15ull) ^ 0x5DEECE66Dull;
    for (int i = 0; i < 4; i++)
        rnd(p);
    p->cookie[0] = '\0';
    p->live = true;
    p->racer = player_chance(p, PERCENT_RACERS);
    p->two_tabs = !p->racer && player_chance(p, PERCENT_TWO_TABS);
    p->spectator = !p->racer && !p->two_tabs && player_chance(p, PERCENT_SPECTATORS);
    p->signer = player_chance(p, PERCENT_SIGNERS);
    /* People sign up after playing a while, not all at once. */
    p->signup_after = 6 + player_rnd_below(p, 600);
    p->started = at;
    uint64_t mean = (uint64_t)soak_session_seconds * 1000000u;
    p->ends = at + mean * 4 / 10 + (rnd(p) >> 11) % (mean * 12 / 10 + 1);
    p->actions = 0;
    p->account = 0;
    p->relogin_at = 0;
    p->user_id = 0;
    p->game = p->level_id = p->seq = p->undo_avail = p->redo_avail = 0;
    p->kind = LV_NONE;
    p->lurd_len = 0;
    p->on_line = false;
    p->solved = p->resync = false;
    p->feed_kind = FEED_NONE;
    p->race = RACE_NONE;
    p->lobby = NULL;
    p->busy = false;
    figures.sessions++;
    player_schedule(p, at);
}
