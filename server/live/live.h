/* Live play over Server-Sent Events: the stream endpoint (GET
 * /api/v1/events) on top of the event bus, and what the game endpoints
 * publish once a step is committed. */
#ifndef SOKOD_LIVE_H
#define SOKOD_LIVE_H

#include "http/http.h"

#include <stdint.h>

/* Registers with play what live streams need of it: each committed entry
 * goes to the followers of its game. Call at start-up, before the
 * committer starts. Returns 0, or -1 when play has no room for it. */
int live_listen(void);

/* The heartbeat period in milliseconds for an idle-connection timeout of
 * `timeout_s` seconds and a wished period of `heartbeat_s` seconds: short
 * enough that a stream never looks idle to libmicrohttpd. */
unsigned live_heartbeat_ms(unsigned heartbeat_s, unsigned timeout_s);

/* Endpoints, for the routing table (server/endpoints.c). */
int live_events(struct http_conn *c);

#endif
