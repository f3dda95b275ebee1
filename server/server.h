/* The whole server in one process: everything `sokod serve` runs, started
 * and stopped as a pair, so that the serve command and in-process tests
 * (the API fuzz target) run the same start-up. */
#ifndef SOKOD_SERVER_H
#define SOKOD_SERVER_H

#include "base/config.h"

/* Starts the server of cfg: libsodium, the database (locked against
 * sokod restore, migrated, the bundled levels imported), the static files,
 * the solvability check, the account limits, the worker pool, the
 * checkpointer, the committer, live events, the access log and the HTTP
 * daemon. Sets *port to the port bound (useful when cfg->port is 0).
 * Returns 0, or -1 after a message on stderr with everything started
 * stopped again. SIGPIPE is ignored from here on. cfg must outlive the
 * server. One server per process; call from the thread that will call
 * server_stop. */
int server_start(const struct config *cfg, unsigned *port);

/* Stops the server server_start started: the daemon first (requests in
 * flight get up to ten seconds to be answered), then the committer, the
 * worker pool and the rest, and closes the database. */
void server_stop(void);

#endif
