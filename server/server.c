/* The server's start-up and shutdown, in their order. */
#include "server.h"

#include "endpoints.h"
#include "accounts/account_limits.h"
#include "accounts/auth.h"
#include "accounts/device.h"
#include "accounts/shared_limits.h"
#include "accounts/sweeper.h"
#include "base/heap.h"
#include "http/access_log.h"
#include "http/daemon.h"
#include "http/gzip_cache.h"
#include "http/http.h"
#include "http/http_checks.h"
#include "http/ops.h"
#include "http/static_files.h"
#include "http/worker.h"
#include "library/import.h"
#include "library/uploads.h"
#include "live/events.h"
#include "live/nodes.h"
#include "live/live.h"
#include "live/room_state.h"
#include "live/watch.h"
#include "play/commit.h"
#include "play/daily.h"
#include "play/game_answers.h"
#include "play/game_cache.h"
#include "play/community.h"
#include "play/hint.h"
#include "play/ratings.h"
#include "storage/storage.h"
#include "storage/storage_backup.h"
#include "storage/storage_migrate.h"
#include "storage/storage_quota.h"
#include "storage/storage_wal.h"

#include <errno.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Password hashing threads: each hash takes ~64 MiB, so keep them few. */
#define AUTH_WORKERS 2
/* Threads of generated levels (each job up to a second), and of upload
 * checks and imports (within their budgets, at a lower priority). */
#define LEVELS_WORKERS 2
#define UPLOADS_WORKERS 2

/* Threads beside the pools that may hold a database connection: the main
 * thread, the committer, the sweeper, the rating pass, the jobs' thread
 * and their lease keeper, the live listener, and one to spare. */
#define OTHER_DB_THREADS 8

/* How long requests in flight get at a stop. */
#define STOP_GRACE_MS 10000

/* What is running, so that a failed start stops exactly that. */
static struct {
    bool storage, uploads, limits, threads, access_log, sweeper, ratings;
    struct MHD_Daemon *daemon;
} running;

/* Stops whatever `running` says is up, in the reverse order of the start. */
static void stop_running(void)
{
    if (running.daemon != NULL) {
        hint_cancel_all();
        /* No new connection, then every live stream ended (each is woken
         * to finish), so that the requests in flight can all be answered
         * and the daemon stops with no connection suspended. */
        daemon_quiesce(running.daemon);
        events_stop();
        daemon_stop(running.daemon, STOP_GRACE_MS);
        running.daemon = NULL;
    }
    if (running.ratings)
        ratings_stop();
    if (running.sweeper)
        sweeper_stop();
    if (running.threads) {
        /* Stops the heartbeats when the daemon never started (else done). */
        events_stop();
        commit_stop();
        live_nodes_stop();
    }
    if (running.access_log)
        access_log_stop();
    if (running.threads)
        worker_stop();
    if (running.uploads)
        uploads_stop();
    if (running.threads)
        storage_checkpointer_stop();
    game_cache_clear();
    game_answers_clear();
    gzip_cache_clear();
    if (running.limits) {
        account_limits_stop();
        auth_stop();
    }
    if (running.storage)
        storage_shutdown();
    memset(&running, 0, sizeof running);
}

/* On PostgreSQL, the connections this node's threads may hold at once,
 * one each; false (with a message) when that is more than --db-connections
 * allows. SQLite's connections cost nothing beyond the process. */
static bool connections_fit(const struct config *cfg)
{
    if (!storage_is_server())
        return true;
    unsigned need = cfg->threads + AUTH_WORKERS + cfg->hint_jobs + LEVELS_WORKERS +
                    UPLOADS_WORKERS + OTHER_DB_THREADS;
    storage_set_max_connections(cfg->db_connections);
    if (need <= cfg->db_connections)
        return true;
    fprintf(stderr,
            "sokod: this node's threads may hold %u database connections, more than "
            "--db-connections %u: lower --threads (%u) or --hint-jobs (%u), or raise "
            "--db-connections\n",
            need, cfg->db_connections, cfg->threads, cfg->hint_jobs);
    return false;
}

/* Opens the database: locked, migrated, with the bundled levels. */
static int open_database(const struct config *cfg)
{
    bool fresh = false;
    /* Held until the process ends: sokod restore refuses while it is. */
    if (storage_init(cfg->db, cfg->synchronous) == STORAGE_OK && storage_lock(cfg->db, false) < 0) {
        if (errno == EWOULDBLOCK) {
            fprintf(stderr, "sokod: %s is being restored (%s.lock is held): try again once done\n",
                    storage_name(), storage_name());
            return -1;
        }
        /* A folder sokod may not write to: serve, without the guard. */
        fprintf(stderr, "sokod: cannot lock %s.lock (%s): sokod restore will not see this server\n",
                storage_name(), strerror(errno));
    }
    running.storage = true;
    if (storage_init(cfg->db, cfg->synchronous) != STORAGE_OK || !connections_fit(cfg) ||
        storage_migrate(cfg->migrations, &fresh) != STORAGE_OK)
        return -1;
    if (fresh)
        fprintf(stderr, "sokod: created the database %s\n", storage_name());
    /* Nodes of one PostgreSQL database read one time: its own. */
    storage_follow_clock();
    int quota = storage_quota_set((int64_t)cfg->user_storage_mb << 20,
                                  (int64_t)cfg->guest_storage_mb << 20);
    if (quota != STORAGE_OK && quota != STORAGE_NOT_FOUND)
        return -1;
    import_bundled(cfg->levels_dir);
    return 0;
}

/* The NOTIFY queue's bound in millionths: --notify-queue-percent, or for
 * tests SOKOD_TEST_NOTIFY_QUEUE_PPM (a queue that fills in seconds). */
static int64_t notify_queue_max_ppm(const struct config *cfg)
{
    const char *test = getenv("SOKOD_TEST_NOTIFY_QUEUE_PPM");
    if (test != NULL && *test != '\0')
        return strtoll(test, NULL, 10);
    return (int64_t)cfg->notify_queue_percent * 10000;
}

int server_start(const struct config *cfg, unsigned *port)
{
    heap_setup();
    if (sodium_init() < 0) {
        fprintf(stderr, "sokod: libsodium failed to start\n");
        return -1;
    }
    /* A client that goes away mid-answer must not end the process. */
    signal(SIGPIPE, SIG_IGN);
    memset(&running, 0, sizeof running);
    if (open_database(cfg) != 0) {
        stop_running();
        return -1;
    }
    static_files_init(cfg->static_dir, cfg->wasm);
    if (http_checks_init(cfg) != 0) {
        stop_running();
        return -1;
    }
    room_state_set_limit(cfg->max_rooms);
    game_cache_setup((size_t)cfg->game_cache_mb << 20);
    if (uploads_start(cfg) != 0) {
        fprintf(stderr, "sokod: cannot start the solvability check's thread\n");
        stop_running();
        return -1;
    }
    running.uploads = true;
    shared_limits_set_keys(cfg->limit_keys);
    if (account_limits_start(cfg->auth_per_minute) != 0 ||
        auth_start(cfg->guests_per_minute) != 0) {
        fprintf(stderr, "sokod: out of memory for the account limits\n");
        stop_running();
        return -1;
    }
    running.limits = true;
    if (device_start() != 0) {
        stop_running();
        return -1;
    }
    /* Passwords, hints, generated levels and uploads each have a pool of
     * their own, so that a slow search or a large upload never keeps a
     * log-in waiting. */
    hint_setup(cfg);
    community_setup(cfg);
    daily_setup(cfg);
    /* A sixteenth of the password checks' queue per address: eight
     * addresses flooding leave half of it to everyone else. */
    worker_cap(WORKER_AUTH, cfg->auth_queue, cfg->auth_queue / 16 > 0 ? cfg->auth_queue / 16 : 1);
    const unsigned pools[WORKER_POOLS] = {
        [WORKER_AUTH] = AUTH_WORKERS,
        [WORKER_HINTS] = cfg->hint_jobs,
        [WORKER_LEVELS] = LEVELS_WORKERS,
        [WORKER_UPLOADS] = UPLOADS_WORKERS,
    };
    /* What live play adds to each game's entries, in this order: the
     * game's own followers hear of an entry before its race room or the
     * player's watchers do. Before the committer starts, which reads the
     * lists without a lock. */
    if (live_listen() != 0 || room_state_listen() != 0 || watch_listen() != 0) {
        fprintf(stderr, "sokod: too many listeners of game entries\n");
        stop_running();
        return -1;
    }
    /* Each of these stops cleanly when it did not start. */
    running.threads = true;
    if (worker_start(pools) != 0 || storage_checkpointer_start() != STORAGE_OK ||
        commit_start() != 0 ||
        live_nodes_start(live_heartbeat_ms(cfg->heartbeat, cfg->timeout),
                         notify_queue_max_ppm(cfg)) != 0 ||
        events_start(live_heartbeat_ms(cfg->heartbeat, cfg->timeout),
                     (size_t)cfg->events_memory << 20) != 0) {
        fprintf(stderr, "sokod: cannot start worker threads\n");
        stop_running();
        return -1;
    }
    /* Uploads a killed server left halfway are checked again. */
    uploads_resume();
    struct sweeper_config sweep = {cfg->sweep_interval, cfg->guest_unplayed_ttl,
                                   cfg->guest_idle_ttl, (int64_t)cfg->guest_storage_mb << 20,
                                   (int64_t)cfg->all_guests_storage_mb << 20};
    if (sweeper_start(&sweep) != 0) {
        fprintf(stderr, "sokod: cannot start the sweeper's thread\n");
        stop_running();
        return -1;
    }
    running.sweeper = true;
    struct ratings_config rating = {cfg->rating_interval, cfg->rating_given_up_after};
    if (ratings_start(&rating) != 0) {
        fprintf(stderr, "sokod: cannot start the rating pass's thread\n");
        stop_running();
        return -1;
    }
    running.ratings = true;
    /* Without its thread, lines are written at once: nothing is lost. */
    access_log_start();
    running.access_log = true;
    routes_use(endpoints_table);
    storage_test_conflicts();
    if (ops_setup(cfg) != 0) {
        stop_running();
        return -1;
    }
    running.daemon = daemon_start(cfg, port);
    if (running.daemon == NULL) {
        stop_running();
        return -1;
    }
    return 0;
}

void server_stop(void)
{
    stop_running();
}
