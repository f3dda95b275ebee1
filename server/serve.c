/* sokod serve: the HTTP server, from start-up to a clean stop on SIGINT or SIGTERM. */
#include "cli/cli.h"
#include "cli/cli_options.h"

#include "base/config.h"
#include "server.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int cli_serve(int argc, char **argv)
{
    struct config cfg;
    int early = cli_config(&cfg, CONFIG_SERVE, argc, argv, "sokod [serve] [FLAGS]", NULL);
    if (early >= 0)
        return early;
    if (cfg.nargs > 0) {
        fprintf(stderr, "sokod serve: unexpected argument '%s' (try --help)\n", cfg.args[0]);
        return 2;
    }

    /* Every thread started from here on inherits this mask; the signals
     * are taken by sigwait below, on this thread only. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);

    unsigned port = 0;
    if (server_start(&cfg, &port) != 0)
        return 1;
    bool v6 = strchr(cfg.address, ':') != NULL;
    printf("sokod: listening on http://%s%s%s:%u\n", v6 ? "[" : "", cfg.address, v6 ? "]" : "",
           port);
    fflush(stdout);

    int sig = 0;
    sigwait(&stop_signals, &sig);
    fprintf(stderr, "sokod: %s received, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    server_stop();
    fprintf(stderr, "sokod: stopped\n");
    return 0;
}
