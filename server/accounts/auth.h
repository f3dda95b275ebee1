/* Who is asking: session cookies and guests. (The rules that keep other
 * sites from acting for a user, JSON only and same origin, are request
 * checks: http_checks_write.) */
#ifndef SOKOD_AUTH_H
#define SOKOD_AUTH_H

#include "http/http.h"

#include <stdbool.h>
#include <stdint.h>

#define AUTH_COOKIE "sokod_session"

/* How long a session lasts unused (it slides with use): 90 days. */
#define AUTH_SESSION_SECONDS (90 * 24 * 3600)

enum auth_need {
    AUTH_OPTIONAL,     /* no user is fine: *user is 0 */
    AUTH_EXISTING,     /* 401 no_session without a valid session */
    AUTH_CREATE_GUEST, /* without a valid session, a guest and its session are created */
};

/* Sets up the limit on new guests: `guests_per_minute` from one client
 * address, as a burst and then as a steady rate. Returns 0, or -1 when out
 * of memory. Without it, guests are not limited. */
int auth_start(unsigned guests_per_minute);
void auth_stop(void);

/* Finds the user of the request's session cookie, per `need`. Returns true
 * with *user set (0 for nobody under AUTH_OPTIONAL); otherwise has answered
 * (401; 429 rate_limited with Retry-After when the address made too many
 * guests lately; 500/503 when the database fails) and set *result. A guest
 * created here commits before this returns; its cookie goes out with the
 * answer. */
bool auth_user(struct http_conn *c, enum auth_need need, int64_t *user, int *result);

/* What a request that needs a session and has none is told (401 no_session). */
#define AUTH_NO_SESSION_MESSAGE "this needs a session: open a game or sign in first"

/* Sets key to the hash under which the session of the request's cookie is
 * stored, for storage_session_user. False when there is no well-formed
 * session cookie. Touches no database. */
bool auth_session_key(struct http_conn *c, uint8_t key[32]);

/* Starts a session for `user` inside the caller's transaction and sets its
 * cookie on the answer. Returns a STORAGE_* code. */
int auth_session_start(struct http_conn *c, int64_t user);

/* Ends the request's session, if any, inside the caller's transaction, and
 * sets a cookie that clears it. Returns a STORAGE_* code. */
int auth_session_end(struct http_conn *c);

/* Ends the caller's transaction that started or ended the request's
 * session: commits it when status is STORAGE_OK, else rolls it back. On
 * any failure the answer sets no cookie, since the session it named is not
 * stored. Returns the outcome, a STORAGE_* code. */
int auth_session_commit(struct http_conn *c, int status);

/* Ends every session of `user` inside the caller's transaction, except the
 * request's own when keep_current; *count (when not NULL) receives how many
 * ended. Returns a STORAGE_* code. */
int auth_sessions_revoke(struct http_conn *c, int64_t user, bool keep_current, int64_t *count);

#endif
