/* The database, opened for a command that writes to it (import, admin). */
#ifndef SOKOD_CLI_STORAGE_H
#define SOKOD_CLI_STORAGE_H

#include "base/config.h"

#include <stdbool.h>

/* Opens the database cfg->db and brings its schema up to date from
 * cfg->migrations. Returns true when the command may use storage (it then
 * calls storage_shutdown); false after storage said why, with storage
 * already shut down. */
bool cli_storage_open(const struct config *cfg);

#endif
