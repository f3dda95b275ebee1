/* Flags, environment variables and the settings file of the sokod commands
 * that serve or open the database. */
#include "base/config.h"
#include "base/options.h"
#include "base/options_file.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The ends of rows binding a field of struct config (options.h). */
#define NUMBER(field, lo, hi) OPTIONS_NUMBER(struct config, field, lo, hi)
#define TEXT(field) OPTIONS_TEXT(struct config, field, 0)
#define BY(field, fn) OPTIONS_BY(struct config, field, fn)

/* A span of seconds for the sweeper: 1 second to 10 years. */
#define SPAN_MAX (10ull * 366 * 86400)

/* Copies value with its NUL into dst[cap]; -1 (dst unchanged) when it does
 * not fit. */
static int copy_text(char *dst, size_t cap, const char *value)
{
    size_t n = strlen(value);
    if (n >= cap)
        return -1;
    memcpy(dst, value, n + 1);
    return 0;
}

static int set_synchronous(void *field, const char *v)
{
    int *synchronous = field;
    if (strcasecmp(v, "NORMAL") == 0)
        *synchronous = CONFIG_SYNC_NORMAL;
    else if (strcasecmp(v, "FULL") == 0)
        *synchronous = CONFIG_SYNC_FULL;
    else
        return OPTIONS_REFUSED;
    return OPTIONS_STORED;
}

/* Seconds with up to three decimals ("2.5"), from 0.05 to 600. */
static int set_hint_seconds(void *field, const char *v)
{
    unsigned long long whole = 0, millis = 0;
    const char *dot = strchr(v, '.');
    char head[16];
    size_t len = dot != NULL ? (size_t)(dot - v) : strlen(v);
    if (len == 0 || len >= sizeof head)
        return OPTIONS_REFUSED;
    memcpy(head, v, len);
    head[len] = '\0';
    if (options_read_number(head, 0, 600, &whole) != 0)
        return OPTIONS_REFUSED;
    if (dot != NULL) {
        size_t digits = strlen(dot + 1);
        if (digits == 0 || digits > 3 || options_read_number(dot + 1, 0, 999, &millis) != 0)
            return OPTIONS_REFUSED;
        for (size_t i = digits; i < 3; i++)
            millis *= 10;
    }
    double seconds = (double)whole + (double)millis / 1000.0;
    if (seconds < 0.05 || seconds > 600)
        return OPTIONS_REFUSED;
    *(double *)field = seconds;
    return OPTIONS_STORED;
}

static int set_trusted_proxies(void *field, const char *v)
{
    return client_ip_nets_parse(field, v) == 0 ? OPTIONS_STORED : OPTIONS_REFUSED;
}

/* As set_trusted_proxies, and "none" for an empty list. */
static int set_metrics_allow(void *field, const char *v)
{
    return set_trusted_proxies(field, strcmp(v, "none") == 0 ? "" : v);
}

static const struct options_row options[] = {
    {"config", NULL, CONFIG_SERVE | CONFIG_IMPORT | CONFIG_ADMIN, "FILE",
     "a file of settings: one flag a line, as its name without dashes and its value "
     "(\"port 8080\" or \"port = 8080\"), # comments; variables and flags override it "
     "(default: none)",
     TEXT(config)},
    {"address", "SOKOD_ADDRESS", CONFIG_SERVE, "ADDR", "address to listen on (default 127.0.0.1)",
     TEXT(address)},
    {"port", "SOKOD_PORT", CONFIG_SERVE, "PORT",
     "port to listen on (default 8080; 0 picks a free port)", NUMBER(port, 0, 65535)},
    {"db", "SOKOD_DB", CONFIG_SERVE | CONFIG_IMPORT | CONFIG_ADMIN, "PATH",
     "the database: a SQLite file, or a PostgreSQL URI (postgresql://user@host/name) "
     "(default data/sokod.db)",
     TEXT(db)},
    {"from", NULL, CONFIG_COPY, "DB", "the database copied: a SQLite file or a PostgreSQL URI",
     TEXT(from)},
    {"to", NULL, CONFIG_COPY, "DB",
     "the database made: a SQLite file or a PostgreSQL URI, empty or new", TEXT(to)},
    {"static", "SOKOD_STATIC", CONFIG_SERVE, "DIR",
     "folder of the browser client (default: static/ beside the binary or its parent, else "
     "the installed one)",
     TEXT(static_dir)},
    {"levels", "SOKOD_LEVELS", CONFIG_SERVE, "DIR",
     "bundled levels imported on first start (default: levels/ beside the binary or its "
     "parent, else the installed ones)",
     TEXT(levels_dir)},
    {"wasm", "SOKOD_WASM", CONFIG_SERVE, "PATH",
     "core.wasm served at /core.wasm (default: core.wasm beside the binary, else the "
     "installed one)",
     TEXT(wasm)},
    {"migrations", "SOKOD_MIGRATIONS", CONFIG_SERVE | CONFIG_IMPORT | CONFIG_ADMIN | CONFIG_COPY,
     "DIR",
     "folder of NNNN_name.sql schema migrations (default: migrations/ beside the binary or "
     "its parent, else the installed ones)",
     TEXT(migrations)},
    {"synchronous", "SOKOD_SYNCHRONOUS", CONFIG_SERVE | CONFIG_IMPORT | CONFIG_ADMIN, "MODE",
     "SQLite synchronous setting: NORMAL (default) or FULL", BY(synchronous, set_synchronous)},
    {"max-body", "SOKOD_MAX_BODY", CONFIG_SERVE, "BYTES",
     "largest request body accepted (default 65536; larger ones get 413)",
     NUMBER(max_body, 1024, 1u << 30)},
    {"max-upload", "SOKOD_MAX_UPLOAD", CONFIG_SERVE, "BYTES",
     "largest level file an admin may upload (default 33554432; larger ones get 413)",
     NUMBER(max_upload, 1024, 1u << 30)},
    {"solver-seconds", "SOKOD_SOLVER_SECONDS", CONFIG_SERVE, "SECONDS",
     "time the background solvability check gives each uploaded level (default 10; 0: off)",
     NUMBER(solver_seconds, 0, 3600)},
    {"hint-seconds", "SOKOD_HINT_SECONDS", CONFIG_SERVE, "SECONDS",
     "time one hint may search, decimals allowed (default 3)", BY(hint_seconds, set_hint_seconds)},
    {"hint-memory", "SOKOD_HINT_MEMORY", CONFIG_SERVE, "MIB",
     "memory one hint's search may use, in MiB (default 256)", NUMBER(hint_memory, 16, 65536)},
    {"hint-jobs", "SOKOD_HINT_JOBS", CONFIG_SERVE, "N",
     "hints computed at once, from 1 to 8; more get 503 (default 2)", NUMBER(hint_jobs, 1, 8)},
    {"threads", "SOKOD_THREADS", CONFIG_SERVE, "N", "HTTP worker threads (default 0: one per core)",
     NUMBER(threads, 0, 1024)},
    {"timeout", "SOKOD_TIMEOUT", CONFIG_SERVE, "SECONDS", "idle connection timeout (default 30)",
     NUMBER(timeout, 1, 86400)},
    {"auth-per-minute", "SOKOD_AUTH_PER_MINUTE", CONFIG_SERVE, "N",
     "log-ins, sign-ups and password changes one address may try per minute (default 30; "
     "more get 429)",
     NUMBER(auth_per_minute, 1, 60000)},
    {"auth-queue", "SOKOD_AUTH_QUEUE", CONFIG_SERVE, "N",
     "password checks waiting at once, taken in turn from each address, which may hold a "
     "sixteenth of them (default 64; more get 503)",
     NUMBER(auth_queue, 1, 65536)},
    {"limit-keys", "SOKOD_LIMIT_KEYS", CONFIG_SERVE, "N",
     "keys each limit on log-ins, sign-ups and new guests holds in memory; keys over their "
     "limits are never dropped, new keys are refused instead (default 4096)",
     NUMBER(limit_keys, 16, 1u << 24)},
    {"heartbeat", "SOKOD_HEARTBEAT", CONFIG_SERVE, "SECONDS",
     "seconds between heartbeats of an idle live stream (default 15; at most half the timeout)",
     NUMBER(heartbeat, 1, 3600)},
    {"origin", "SOKOD_ORIGIN", CONFIG_SERVE, "URL[,URL]",
     "the address players use, as https://sokoban.example.org: other Host headers get 421 "
     "(default: none; on a loopback address, the loopback names)",
     TEXT(origins)},
    {"max-rooms", "SOKOD_MAX_ROOMS", CONFIG_SERVE, "N",
     "race rooms held in memory at once; past it, rooms not in use are forgotten, and when all "
     "are in use others get 503 (default 10000)",
     NUMBER(max_rooms, 1, 1000000)},
    {"collection", NULL, CONFIG_IMPORT, "NAME",
     "collection the levels go into (default: the file's Collection: line or its name)",
     OPTIONS_TEXT(struct config, collection, 1)},
    {"guests-per-minute", "SOKOD_GUESTS_PER_MINUTE", CONFIG_SERVE, "N",
     "new guests one address may make per minute, as a burst and then steadily (default 60; "
     "more get 429)",
     NUMBER(guests_per_minute, 1, 60000)},
    {"guest-unplayed-ttl", "SOKOD_GUEST_UNPLAYED_TTL", CONFIG_SERVE, "SECONDS",
     "a guest who never played is deleted this long after it was made (default 3600)",
     NUMBER(guest_unplayed_ttl, 1, SPAN_MAX)},
    {"guest-idle-ttl", "SOKOD_GUEST_IDLE_TTL", CONFIG_SERVE, "SECONDS",
     "a guest unseen this long is deleted with its games (default 7776000: 90 days)",
     NUMBER(guest_idle_ttl, 1, SPAN_MAX)},
    {"sweep-interval", "SOKOD_SWEEP_INTERVAL", CONFIG_SERVE, "SECONDS",
     "seconds between sweeps of old guests and expired sessions (default 300)",
     NUMBER(sweep_interval, 1, SPAN_MAX)},
    {"rating-interval", "SOKOD_RATING_INTERVAL", CONFIG_SERVE, "SECONDS",
     "seconds between passes of the rating of finished and given-up games (default 10)",
     NUMBER(rating_interval, 1, SPAN_MAX)},
    {"rating-given-up-after", "SOKOD_RATING_GIVEN_UP_AFTER", CONFIG_SERVE, "SECONDS",
     "an unsolved game left this long after ten entries or more is rated as given up "
     "(default 604800: 7 days)",
     NUMBER(rating_given_up_after, 1, SPAN_MAX)},
    {"game-cache-mb", "SOKOD_GAME_CACHE_MB", CONFIG_SERVE, "MIB",
     "memory the games kept between requests may use, in MiB (default 128); the least "
     "recently played leave first",
     NUMBER(game_cache_mb, 1, 1u << 20)},
    {"max-connections", "SOKOD_MAX_CONNECTIONS", CONFIG_SERVE, "N",
     "connections open at once; more are closed unanswered (default 4096)",
     NUMBER(max_connections, 16, 1000000)},
    {"connections-per-address", "SOKOD_CONNECTIONS_PER_ADDRESS", CONFIG_SERVE, "N",
     "connections open at once from one address (an IPv6 /64), trusted proxies excepted; more "
     "are closed unanswered (default 256)",
     NUMBER(connections_per_address, 1, 1000000)},
    {"max-streams", "SOKOD_MAX_STREAMS", CONFIG_SERVE, "N",
     "live event streams open at once, below --max-connections; more get 503 (default: half "
     "of --max-connections)",
     NUMBER(max_streams, 1, 1000000)},
    {"streams-per-address", "SOKOD_STREAMS_PER_ADDRESS", CONFIG_SERVE, "N",
     "live event streams open at once for one client address; more get 429 (default 128)",
     NUMBER(streams_per_address, 1, 1000000)},
    {"cost-per-second", "SOKOD_COST_PER_SECOND", CONFIG_SERVE, "MS",
     "milliseconds of CPU time, as the routing table declares each route's, that one client "
     "address may spend a second on the heavier routes, ten seconds of it at once; past it, 429 "
     "(default 1000)",
     NUMBER(cost_per_second, 1, 1000000)},
    {"user-storage-mb", "SOKOD_USER_STORAGE_MB", CONFIG_SERVE, "MIB",
     "what one account may store in the database (game histories, saved positions, solutions, "
     "settings), in MiB; a write past it gets 403 quota_exceeded (default 256)",
     NUMBER(user_storage_mb, 1, 1048576)},
    {"guest-storage-mb", "SOKOD_GUEST_STORAGE_MB", CONFIG_SERVE, "MIB",
     "what one guest may store in the database, in MiB (default 16)",
     NUMBER(guest_storage_mb, 1, 1048576)},
    {"all-guests-storage-mb", "SOKOD_ALL_GUESTS_STORAGE_MB", CONFIG_SERVE, "MIB",
     "what all guests together may store in the database, in MiB, counted every 10 seconds; "
     "past it, guests store nothing more (403 quota_exceeded) until the sweep frees room, and "
     "accounts go on; 0: no bound (default 4096)",
     NUMBER(all_guests_storage_mb, 0, 16777216)},
    {"notify-queue-percent", "SOKOD_NOTIFY_QUEUE_PERCENT", CONFIG_SERVE, "N",
     "on PostgreSQL, how full the NOTIFY queue may grow behind a listener that does not read "
     "before this node ends the other nodes' listening connections (each listens again and "
     "catches up); looked at every heartbeat; 0: never (default 50)",
     NUMBER(notify_queue_percent, 0, 100)},
    {"events-memory", "SOKOD_EVENTS_MEMORY", CONFIG_SERVE, "MIB",
     "memory for the live events kept for streams that reconnect, over all games, rooms and "
     "watched players, in MiB (default 64)",
     NUMBER(events_memory, 1, 65536)},
    {"trusted-proxies", "SOKOD_TRUSTED_PROXIES", CONFIG_SERVE, "LIST",
     "addresses and networks of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
     "are believed, such as 10.0.0.0/8,::1 (default: none)",
     BY(trusted_proxies, set_trusted_proxies)},
    {"metrics-allow", "SOKOD_METRICS_ALLOW", CONFIG_SERVE, "LIST",
     "addresses and networks of the clients that may read GET /metrics (behind a trusted proxy, "
     "the client it names), or none (default 127.0.0.0/8,::1)",
     BY(metrics_allow, set_metrics_allow)},
    {"upload-steps", "SOKOD_UPLOAD_STEPS", CONFIG_SERVE, "N",
     "solution steps the check of one upload replays in all; solutions past it are reported "
     "\"not checked: over budget\" (default 16777216)",
     NUMBER(upload_steps, 1024, 1ull << 40)},
    {"upload-solver-seconds", "SOKOD_UPLOAD_SOLVER_SECONDS", CONFIG_SERVE, "SECONDS",
     "solvability-check time the levels of one upload get in all; levels past it are not "
     "checked (default 300)",
     NUMBER(upload_solver_seconds, 1, 86400)},
    {"daily-past-jobs", "SOKOD_DAILY_PAST_JOBS", CONFIG_SERVE, "N",
     "past days' daily puzzles being made or waiting at once, from 1 to 16; more get 503 "
     "(default 4)",
     NUMBER(daily_past_jobs, 1, 16)},
    {"db-connections", "SOKOD_DB_CONNECTIONS", CONFIG_SERVE, "N",
     "PostgreSQL connections this node may hold, one per thread that reads or writes (default "
     "32: three nodes fit PostgreSQL's default max_connections of 100); a node whose threads "
     "need more does not start",
     NUMBER(db_connections, 4, 10000)},
    {"community-per-day", "SOKOD_COMMUNITY_PER_DAY", CONFIG_SERVE, "N",
     "levels one player may publish to the community collection in a day (default 5; 0: "
     "publishing off)",
     NUMBER(community_per_day, 0, 1000)},
    {"help", NULL, 0, NULL, "print this help", OPTIONS_HELP},
    OPTIONS_END,
};

void config_usage(unsigned command, const char *synopsis)
{
    printf("usage: %s\n\nflags:\n", synopsis);
    options_usage(stdout, options, command, 24, 1);
}

/* The folder holding the running binary, from /proc/self/exe. */
static int exe_dir(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n <= 0 || (size_t)n >= cap - 1)
        return -1;
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (slash == NULL)
        return -1;
    *slash = '\0';
    return 0;
}

/* Where `cmake --install` puts the data files: a path from the binary's
 * folder, so that an installed tree still works when moved, and the
 * absolute one, for a binary copied elsewhere. The build defines both. */
#ifndef SOKOD_DATADIR_FROM_BIN
#define SOKOD_DATADIR_FROM_BIN "../share/sokod"
#endif
#ifndef SOKOD_DATADIR
#define SOKOD_DATADIR "/usr/local/share/sokod"
#endif

/* Sets dst to the first that exists of <exe dir>/name, <exe dir>/../name
 * (a build folder in the checkout; skipped unless parent), and name in the
 * installed data folder; to the first when none does (so that messages
 * name a path). */
static void find_beside_binary(char *dst, size_t cap, const char *name, bool parent)
{
    char dir[PATH_MAX];
    if (exe_dir(dir, sizeof dir) != 0) {
        copy_text(dst, cap, name);
        return;
    }
    /* The last form leaves dir out: "%.0s" prints none of it. */
    const char *forms[] = {"%s/%s", "%s/../%s", "%s/" SOKOD_DATADIR_FROM_BIN "/%s",
                           "%.0s" SOKOD_DATADIR "/%s"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (i == 1 && !parent)
            continue;
        char candidate[PATH_MAX * 2];
        snprintf(candidate, sizeof candidate, forms[i], dir, name);
        struct stat st;
        if (stat(candidate, &st) == 0 && copy_text(dst, cap, candidate) == 0)
            return;
    }
    char first[PATH_MAX * 2];
    snprintf(first, sizeof first, "%s/%s", dir, name);
    copy_text(dst, cap, first);
}

/* Says that `value`, from the flag or variable `from`, is not one o takes. */
static void say_invalid(const char *value, const char *from, const struct options_row *o)
{
    fprintf(stderr, "sokod: invalid value '%s' for %s (%s)\n", value, from, o->help);
}

/* Says why the flags cannot be read, for options_parse's result r. */
static void complain(const struct options_result *r)
{
    switch (r->status) {
    case OPTIONS_MISSING:
        fprintf(stderr, "sokod: --%s needs a value\n", r->row->name);
        break;
    case OPTIONS_INVALID:
        say_invalid(r->value, r->arg, r->row);
        break;
    default:
        fprintf(stderr, "sokod: unknown flag '%s' (try --help)\n", r->arg);
        break;
    }
}

/* Reads the variables of the rows `command` takes; -1 after saying which
 * one holds a value its row does not take. */
static int load_env(struct config *cfg, unsigned command)
{
    for (const struct options_row *o = options; o->kind != OPTIONS_KIND_END; o++) {
        if ((o->commands & command) == 0 || o->env == NULL)
            continue;
        const char *v = getenv(o->env);
        if (v != NULL && v[0] != '\0' && options_store(o, cfg, v) != OPTIONS_STORED) {
            say_invalid(v, o->env, o);
            return -1;
        }
    }
    return 0;
}

/* Sets path to the file --config names among the flags in argv, or to ""
 * when none does or the flags cannot be read (the real reading says why).
 * The flags are read into a scratch copy, as options_parse rewrites argv. */
static void find_config_file(unsigned command, int argc, char **argv, char *path, size_t cap)
{
    path[0] = '\0';
    struct config *scratch = calloc(1, sizeof *scratch);
    char **copy = calloc((size_t)argc + 1, sizeof *copy);
    if (scratch != NULL && copy != NULL) {
        memcpy(copy, argv, (size_t)argc * sizeof *copy);
        struct options_result r;
        if (options_parse(options, command, OPTIONS_EQUALS, scratch, argc, copy, &r) == OPTIONS_OK)
            copy_text(path, cap, scratch->config);
    }
    free(copy);
    free(scratch);
}

int config_load(struct config *cfg, unsigned command, int argc, char **argv)
{
    char config_file[PATH_MAX];
    find_config_file(command, argc, argv, config_file, sizeof config_file);
    memset(cfg, 0, sizeof *cfg);
    copy_text(cfg->address, sizeof cfg->address, "127.0.0.1");
    cfg->port = 8080;
    copy_text(cfg->db, sizeof cfg->db, "data/sokod.db");
    cfg->synchronous = CONFIG_SYNC_NORMAL;
    cfg->max_body = 65536;
    cfg->max_upload = (size_t)32 << 20;
    cfg->solver_seconds = 10;
    cfg->hint_seconds = 3;
    cfg->hint_memory = 256;
    cfg->hint_jobs = 2;
    cfg->timeout = 30;
    cfg->auth_per_minute = 30;
    cfg->auth_queue = 64;
    cfg->limit_keys = 4096;
    cfg->heartbeat = 15;
    cfg->max_rooms = 10000;
    cfg->guests_per_minute = 60;
    cfg->guest_unplayed_ttl = 3600;
    cfg->guest_idle_ttl = 90u * 86400u;
    cfg->sweep_interval = 300;
    cfg->rating_interval = 10;
    cfg->rating_given_up_after = 7u * 86400u;
    cfg->game_cache_mb = 128;
    cfg->max_connections = 4096;
    cfg->connections_per_address = 256;
    cfg->streams_per_address = 128;
    cfg->events_memory = 64;
    cfg->cost_per_second = 1000;
    cfg->user_storage_mb = 256;
    cfg->guest_storage_mb = 16;
    cfg->all_guests_storage_mb = 4096;
    cfg->notify_queue_percent = 50;
    cfg->upload_steps = 1ull << 24;
    cfg->upload_solver_seconds = 300;
    cfg->daily_past_jobs = 4;
    cfg->community_per_day = 5;
    cfg->db_connections = 32;
    client_ip_nets_parse(&cfg->metrics_allow, "127.0.0.0/8,::1");

    /* The file, then the variables, then the flags: the last word wins. */
    if (config_file[0] != '\0' && options_file_read(options, command, cfg, config_file) != 0)
        return -1;
    if (load_env(cfg, command) != 0)
        return -1;
    struct options_result r;
    options_parse(options, command, OPTIONS_EQUALS, cfg, argc, argv, &r);
    cfg->args = r.args;
    cfg->nargs = r.nargs;
    if (r.status == OPTIONS_WANTS_HELP)
        return 1;
    if (r.status != OPTIONS_OK) {
        complain(&r);
        return -1;
    }

    if (cfg->static_dir[0] == '\0')
        find_beside_binary(cfg->static_dir, sizeof cfg->static_dir, "static", true);
    if (cfg->levels_dir[0] == '\0')
        find_beside_binary(cfg->levels_dir, sizeof cfg->levels_dir, "levels", true);
    if (cfg->migrations[0] == '\0')
        find_beside_binary(cfg->migrations, sizeof cfg->migrations, "migrations", true);
    if (cfg->wasm[0] == '\0')
        find_beside_binary(cfg->wasm, sizeof cfg->wasm, "core.wasm", false);
    if (cfg->max_streams == 0)
        cfg->max_streams = cfg->max_connections / 2;
    if (cfg->max_streams >= cfg->max_connections) {
        fprintf(stderr, "sokod: --max-streams (%u) must be below --max-connections (%u)\n",
                cfg->max_streams, cfg->max_connections);
        return -1;
    }
    if (cfg->threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg->threads = n > 0 && n < 256 ? (unsigned)n : 1;
    }
    return 0;
}
