/* The HTTP daemon: sokod's listening socket and libmicrohttpd's threads. */
#ifndef SOKOD_DAEMON_H
#define SOKOD_DAEMON_H

#include "base/config.h"

#include <microhttpd.h>

/* Starts the daemon on cfg's address and port with cfg's limits; returns
 * it and sets *port to the port bound (useful when cfg->port is 0). NULL on
 * failure, after a message on stderr. cfg must outlive the daemon. */
struct MHD_Daemon *daemon_start(const struct config *cfg, unsigned *port);

/* Stops accepting connections; requests in flight go on. Live streams
 * never end by themselves and the daemon must not stop with suspended
 * connections: end them (events_stop) between this call and daemon_stop. */
void daemon_quiesce(struct MHD_Daemon *d);

/* Stops accepting connections (if daemon_quiesce has not), waits (at most
 * `grace_ms`) for requests in flight to be answered, then stops the daemon. */
void daemon_stop(struct MHD_Daemon *d, unsigned grace_ms);

#endif
