/* Settings of the sokod commands: flags, each with an environment variable,
 * and defaults found relative to the sokod binary. */
#ifndef SOKOD_CONFIG_H
#define SOKOD_CONFIG_H

#include "base/client_ip.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* Which command a flag belongs to (a flag may belong to several). */
enum { CONFIG_SERVE = 1, CONFIG_IMPORT = 2, CONFIG_ADMIN = 4, CONFIG_COPY = 8 };

enum { CONFIG_SYNC_NORMAL = 1, CONFIG_SYNC_FULL = 2 };

struct config {
    char config[PATH_MAX]; /* the settings file read first (--config); "" for none */
    char address[64];
    unsigned port;
    char db[PATH_MAX];
    char from[PATH_MAX], to[PATH_MAX]; /* the databases of `sokod copy` */
    char static_dir[PATH_MAX];
    char levels_dir[PATH_MAX];
    char wasm[PATH_MAX];
    char migrations[PATH_MAX];
    int synchronous;         /* CONFIG_SYNC_NORMAL or CONFIG_SYNC_FULL */
    size_t max_body;         /* the largest request body accepted, in bytes */
    size_t max_upload;       /* the largest level file an admin may upload, in bytes */
    unsigned solver_seconds; /* per uploaded level for the solvability check; 0: off */
    double hint_seconds;     /* the most one hint may take */
    unsigned hint_memory;    /* MiB of solver tables one hint may use */
    unsigned hint_jobs;      /* hints computed at once */
    unsigned threads;
    unsigned timeout;         /* seconds of inactivity before a connection is closed */
    unsigned heartbeat;       /* seconds between heartbeats of an idle live stream */
    unsigned auth_per_minute; /* log-ins, sign-ups and password changes per address */
    unsigned auth_queue;      /* password checks waiting at once (worker.h) */
    unsigned limit_keys;      /* keys each shared rate limit holds in memory */
    char origins[1024];       /* public origins, comma-separated (--origin); "" for none */
    unsigned max_rooms;       /* race rooms held in memory at once */
    char collection[256];
    /* Guests and the disk: how fast one address may make guests, and when
     * the sweeper deletes them (sweeper.h). */
    unsigned guests_per_minute;  /* new guests per client address */
    unsigned guest_unplayed_ttl; /* seconds before a guest who never played is deleted */
    unsigned guest_idle_ttl;     /* seconds unseen before any guest is deleted */
    unsigned sweep_interval;     /* seconds between sweeps */
    /* The rating pass (play/ratings.h). */
    unsigned rating_interval;       /* seconds between passes */
    unsigned rating_given_up_after; /* seconds an unsolved game waits to count as given up */
    /* Memory limits against abuse. */
    unsigned game_cache_mb; /* MiB of games kept in memory between requests */
    /* Connections, live streams and proxies (http.c). */
    unsigned max_connections;         /* connections open at once */
    unsigned connections_per_address; /* of them from one address (not a trusted proxy) */
    unsigned max_streams;             /* live streams open at once; 0: half of max_connections */
    unsigned streams_per_address;     /* of them for one client */
    unsigned events_memory;           /* MiB of live events kept for replay, over all topics */
    unsigned cost_per_second;  /* declared CPU ms a second one address may spend (cost_limit.h) */
    unsigned user_storage_mb;  /* MiB an account may store: games, saved positions, solutions */
    unsigned guest_storage_mb; /* and a guest */
    unsigned all_guests_storage_mb;        /* and all guests together; 0: no bound */
    unsigned notify_queue_percent;         /* PostgreSQL NOTIFY queue use that ends laggards */
    struct client_ip_nets trusted_proxies; /* may set X-Forwarded-For and -Proto */
    struct client_ip_nets metrics_allow;   /* clients that may read GET /metrics */
    /* Arguments that are not flags (the files of `sokod import`), in argv. */
    char **args;
    int nargs;
    /* Bounds on CPU work: uploads' checks and past days' puzzles. */
    unsigned long long upload_steps; /* solution steps one upload's check replays at most */
    unsigned upload_solver_seconds;  /* solver time one upload's levels get in all */
    unsigned daily_past_jobs;        /* past days' puzzles being made or waiting at once */
    unsigned db_connections;         /* PostgreSQL connections the node may hold */
    unsigned community_per_day;      /* levels one author may publish a day; 0: none */
};

/* Fills *cfg for `command` (CONFIG_SERVE, CONFIG_IMPORT or CONFIG_ADMIN): defaults, then
 * the settings file that --config names, then environment variables, then
 * the flags in argv[1..argc) (argv[0] is the command's name). Paths left
 * unset are found beside the binary. Returns 0 when ready, 1 when --help
 * was printed (to stdout), or -1 after printing what is wrong to stderr. cfg->args points into
 * argv. */
int config_load(struct config *cfg, unsigned command, int argc, char **argv);

/* Prints the flags of `command` with their variables and defaults. */
void config_usage(unsigned command, const char *synopsis);

#endif
