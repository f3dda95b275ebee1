/* Account endpoints that guard an account: log out everywhere, and change
 * the password (which ends every other session, so that whoever knew the
 * old password, or held a session opened with it, is out). Both make the
 * account forget its trusted browsers (device.h); the browser that changed
 * the password is trusted again at once. */
#ifndef SOKOD_SESSIONS_H
#define SOKOD_SESSIONS_H

#include "http/http.h"

/* Endpoints, for the routing table (server/endpoints.c). */
int sessions_logout_all(struct http_conn *c);
int sessions_password(struct http_conn *c);

#endif
