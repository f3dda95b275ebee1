/* sokod serve: the HTTP server, from start-up to a clean stop on SIGINT or SIGTERM. */
#include "cli.h"

#include "access_log.h"
#include "account_limits.h"
#include "commit.h"
#include "config.h"
#include "events.h"
#include "game_cache.h"
#include "gzip_cache.h"
#include "hint.h"
#include "hint_plan.h"
#include "http.h"
#include "import.h"
#include "live.h"
#include "static_files.h"
#include "storage.h"
#include "uploads.h"
#include "worker.h"

#include <errno.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* Password hashing threads: each hash takes ~64 MiB, so keep them few. */
#define SLOW_WORKERS 2

int cli_serve(int argc, char **argv)
{
    struct config cfg;
    int loaded = config_load(&cfg, CONFIG_SERVE, argc, argv);
    if (loaded == 1) {
        config_usage(CONFIG_SERVE, "sokod [serve] [FLAGS]");
        return 0;
    }
    if (loaded < 0)
        return 2;
    if (cfg.nargs > 0) {
        fprintf(stderr, "sokod serve: unexpected argument '%s' (try --help)\n", cfg.args[0]);
        return 2;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "sokod: libsodium failed to start\n");
        return 1;
    }

    /* Every thread started from here on inherits this mask; the signals
     * are taken by sigwait below, on this thread only. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    bool fresh = false;
    /* Held until the process ends: sokod restore refuses while it is. */
    if (storage_init(cfg.db, cfg.synchronous) == STORAGE_OK && storage_lock(cfg.db, false) < 0) {
        if (errno == EWOULDBLOCK) {
            fprintf(stderr, "sokod: %s is being restored (%s.lock is held): try again once done\n",
                    cfg.db, cfg.db);
            return 1;
        }
        /* A folder sokod may not write to: serve, without the guard. */
        fprintf(stderr, "sokod: cannot lock %s.lock (%s): sokod restore will not see this server\n",
                cfg.db, strerror(errno));
    }
    if (storage_init(cfg.db, cfg.synchronous) != STORAGE_OK ||
        storage_migrate(cfg.migrations, &fresh) != STORAGE_OK) {
        storage_shutdown();
        return 1;
    }
    if (fresh)
        fprintf(stderr, "sokod: created the database %s\n", cfg.db);
    import_bundled(cfg.levels_dir);
    static_files_init(cfg.static_dir, cfg.wasm);
    if (uploads_start(&cfg) != 0) {
        fprintf(stderr, "sokod: cannot start the solvability check's thread\n");
        storage_shutdown();
        return 1;
    }

    if (account_limits_start(cfg.auth_per_minute) != 0) {
        fprintf(stderr, "sokod: out of memory for the account limits\n");
        uploads_stop();
        storage_shutdown();
        return 1;
    }
    /* Hints have threads of their own in the pool, so that a slow search
     * never keeps a password waiting. */
    hint_setup(&cfg);
    if (worker_start(SLOW_WORKERS + cfg.hint_jobs) != 0 ||
        storage_checkpointer_start() != STORAGE_OK || commit_start() != 0 ||
        events_start(live_heartbeat_ms(cfg.heartbeat, cfg.timeout)) != 0) {
        fprintf(stderr, "sokod: cannot start worker threads\n");
        events_stop();
        commit_stop();
        worker_stop();
        storage_checkpointer_stop();
        storage_shutdown();
        return 1;
    }
    /* Without its thread, lines are written at once: nothing is lost. */
    access_log_start();
    unsigned port = 0;
    struct MHD_Daemon *daemon = http_start(&cfg, &port);
    if (daemon == NULL) {
        events_stop();
        access_log_stop();
        uploads_stop();
        commit_stop();
        worker_stop();
        storage_checkpointer_stop();
        storage_shutdown();
        return 1;
    }
    bool v6 = strchr(cfg.address, ':') != NULL;
    printf("sokod: listening on http://%s%s%s:%u\n", v6 ? "[" : "", cfg.address, v6 ? "]" : "",
           port);
    fflush(stdout);

    int sig = 0;
    sigwait(&stop_signals, &sig);
    fprintf(stderr, "sokod: %s received, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");

    hint_cancel_all();
    http_stop(daemon, 10000);
    commit_stop();
    access_log_stop();
    worker_stop();
    uploads_stop();
    storage_checkpointer_stop();
    game_cache_clear();
    hint_plan_clear();
    gzip_cache_clear();
    account_limits_stop();
    storage_shutdown();
    fprintf(stderr, "sokod: stopped\n");
    return 0;
}
