/* Device cookies: a browser that has logged in to an account (or made it)
 * keeps a cookie that says so, signed with a key of the server's. When an
 * account's name is locked by wrong passwords from elsewhere, its own
 * browsers still log in: their failures are counted per device instead.
 * Anyone can lock a name; nobody can lock its owner out. A password change
 * and "log out everywhere" end the trust of every browser given a cookie
 * before (the cookies are signed with the account's devices epoch). */
#ifndef SOKOD_DEVICE_H
#define SOKOD_DEVICE_H

#include "http/http.h"

#include <stdbool.h>

#define DEVICE_COOKIE "sokod_device"
/* A device's id as text, NUL included: its cookie's nonce in hex. */
#define DEVICE_ID_SIZE 33

/* Loads the signing key from the database, making it on first start.
 * Returns 0, or -1 after a message on stderr. */
int device_start(void);

/* True, with the device's id in `id`, when the request carries a device
 * cookie this server gave for the account name `name` (in any case) since
 * the account last forgot its devices; false with `id` empty otherwise. */
bool device_trusted(struct http_conn *c, const char *name, char id[DEVICE_ID_SIZE]);

/* Makes the answer to c give its browser a new device cookie for `name`. */
void device_remember(struct http_conn *c, const char *name);

#endif
