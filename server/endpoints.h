/* sokod's HTTP API: the routing table the daemon routes with. */
#ifndef SOKOD_ENDPOINTS_H
#define SOKOD_ENDPOINTS_H

#include "http/routes.h"

/* Every route of sokod, ended by a row with no pattern (routes_use). */
extern const struct route endpoints_table[];

#endif
