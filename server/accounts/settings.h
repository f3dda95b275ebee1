/* A player's settings, kept on the server so that they follow the player
 * to every device; and the news of their change, for the wings above. */
#ifndef SOKOD_SETTINGS_H
#define SOKOD_SETTINGS_H

#include "http/http.h"

#include <jansson.h>
#include <stdint.h>

/* GET and PUT /api/v1/account/settings. */
int settings_get(struct http_conn *c);
int settings_put(struct http_conn *c);

/* Called after a user's settings were stored, with the new object. */
typedef void (*settings_listener)(int64_t user, const json_t *settings);

/* Adds a listener of stored settings (at start-up, before any request;
 * adding one twice adds it once). Returns 0, or -1 when the list is full. */
int settings_add_listener(settings_listener fn);

#endif
