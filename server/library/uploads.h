/* Uploads of level files by admins (the handlers are in handlers.h). */
#ifndef SOKOD_UPLOADS_H
#define SOKOD_UPLOADS_H

#include "base/config.h"

/* Sets the upload cap and starts the background solvability check, per
 * cfg. Returns 0, or -1 when its thread cannot start. */
int uploads_start(const struct config *cfg);

/* Stops the solvability check and forgets every upload. Call it after the
 * HTTP daemon and the worker threads have stopped. */
void uploads_stop(void);

#endif
