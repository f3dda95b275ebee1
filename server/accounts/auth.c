/* Sessions and guests. */
#include "accounts/auth.h"

#include "accounts/shared_limits.h"
#include "base/clock.h"
#include "storage/storage.h"
#include "storage/storage_users.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* Sessions slide: one ends after SESSION_SECONDS without use, and each use
 * (at most once every SESSION_REFRESH_SECONDS, to keep reads free of
 * writes) moves its end SESSION_SECONDS ahead again. A guest lives as long
 * as its session, so the span is long enough for a player's pauses. */
#define SESSION_SECONDS AUTH_SESSION_SECONDS
#define SESSION_REFRESH_SECONDS (24 * 3600)
#define TOKEN_BYTES 32

/* Reads the session token of the cookie into token; false when absent or malformed. */
static bool cookie_token(struct http_conn *c, uint8_t token[TOKEN_BYTES])
{
    const char *value = http_cookie(c, AUTH_COOKIE);
    if (value == NULL)
        return false;
    size_t len = 0;
    const char *end = NULL;
    if (sodium_base642bin(token, TOKEN_BYTES, value, strlen(value), NULL, &len, &end,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
        return false;
    return len == TOKEN_BYTES && *end == '\0';
}

static void token_hash(const uint8_t token[TOKEN_BYTES], uint8_t hash[32])
{
    crypto_generichash(hash, 32, token, TOKEN_BYTES, NULL, 0);
}

bool auth_session_key(struct http_conn *c, uint8_t key[32])
{
    uint8_t token[TOKEN_BYTES];
    if (!cookie_token(c, token))
        return false;
    token_hash(token, key);
    sodium_memzero(token, sizeof token);
    return true;
}

static void set_cookie(struct http_conn *c, const char *value, long max_age)
{
    snprintf(c->set_cookie, sizeof c->set_cookie,
             "%s=%s; Path=/; HttpOnly; SameSite=Lax; Max-Age=%ld%s", AUTH_COOKIE, value, max_age,
             http_is_https(c) ? "; Secure" : "");
}

int auth_session_start(struct http_conn *c, int64_t user)
{
    uint8_t token[TOKEN_BYTES], hash[32];
    randombytes_buf(token, sizeof token);
    token_hash(token, hash);
    int64_t now = clock_now();
    int status = storage_session_create(hash, user, now, now + SESSION_SECONDS);
    if (status != STORAGE_OK)
        return status;
    char text[sodium_base64_ENCODED_LEN(TOKEN_BYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(text, sizeof text, token, sizeof token,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    set_cookie(c, text, SESSION_SECONDS);
    c->auth_done = true;
    c->user_id = user;
    sodium_memzero(token, sizeof token);
    return STORAGE_OK;
}

int auth_session_end(struct http_conn *c)
{
    uint8_t token[TOKEN_BYTES], hash[32];
    int status = STORAGE_OK;
    if (cookie_token(c, token)) {
        token_hash(token, hash);
        status = storage_session_delete(hash);
    }
    set_cookie(c, "", 0);
    c->auth_done = true;
    c->user_id = 0;
    return status;
}

int auth_session_commit(struct http_conn *c, int status)
{
    status = storage_finish(status);
    if (status != STORAGE_OK)
        c->set_cookie[0] = '\0';
    return status;
}

/* New guests per client address: a burst of `per_minute`, then one every
 * 60/per_minute seconds, on every node together. Each guest is a user row
 * and a session on disk, so this bounds how fast one address can fill the
 * database. */
static struct shared_limit *guest_limit;

int auth_start(unsigned guests_per_minute)
{
    unsigned n = guests_per_minute > 0 ? guests_per_minute : 1;
    uint64_t interval = 60000u / n > 0 ? 60000u / n : 1;
    guest_limit = shared_limit_new(n, interval, false);
    return guest_limit != NULL ? 0 : -1;
}

void auth_stop(void)
{
    shared_limit_free(guest_limit);
    guest_limit = NULL;
}

/* Counts a new guest against the request's address. True to go on;
 * otherwise has answered 429 with Retry-After and set *result. */
static bool guest_allowed(struct http_conn *c, int *result)
{
    return shared_limit_client(c, guest_limit, "guest", "new players from your address", result);
}

/* One run of a new guest's transaction. */
struct new_guest {
    struct http_conn *c;
    int64_t *user;
};

static int new_guest_body(void *arg)
{
    struct new_guest *g = arg;
    int status = storage_user_create_guest(clock_now(), g->user);
    if (status == STORAGE_OK)
        status = auth_session_start(g->c, *g->user);
    return status;
}

/* Creates a guest with a session, in a transaction of its own (run again
 * when a conflict with another transaction undoes it). */
static int create_guest(struct http_conn *c, int64_t *user)
{
    struct new_guest g = {c, user};
    int status = storage_transaction(new_guest_body, &g);
    if (status != STORAGE_OK) {
        c->set_cookie[0] = '\0';
        c->auth_done = false;
        c->user_id = 0;
    }
    return status;
}

bool auth_user(struct http_conn *c, enum auth_need need, int64_t *user, int *result)
{
    if (!c->auth_done) {
        uint8_t token[TOKEN_BYTES], hash[32];
        c->user_id = 0;
        if (cookie_token(c, token)) {
            token_hash(token, hash);
            struct storage_user u;
            int64_t now = clock_now(), expires = 0;
            int status = storage_session_lookup(hash, now, &u, &expires);
            if (status == STORAGE_OK) {
                c->user_id = u.id;
                if (expires < now + SESSION_SECONDS - SESSION_REFRESH_SECONDS &&
                    storage_session_refresh(hash, now + SESSION_SECONDS) == STORAGE_OK)
                    set_cookie(c, http_cookie(c, AUTH_COOKIE), SESSION_SECONDS);
            } else if (status != STORAGE_NOT_FOUND) {
                *result = reply_storage_failure(c, status);
                return false;
            }
        }
        c->auth_done = true;
    }
    if (c->user_id == 0 && need == AUTH_CREATE_GUEST) {
        if (!guest_allowed(c, result))
            return false;
        int status = create_guest(c, &c->user_id);
        if (status != STORAGE_OK) {
            *result = reply_storage_failure(c, status);
            return false;
        }
    }
    if (c->user_id == 0 && need == AUTH_EXISTING) {
        *result = reply_error(c, API_E_NO_SESSION, AUTH_NO_SESSION_MESSAGE);
        return false;
    }
    *user = c->user_id;
    return true;
}

int auth_sessions_revoke(struct http_conn *c, int64_t user, bool keep_current, int64_t *count)
{
    uint8_t token[TOKEN_BYTES], hash[32];
    bool have = keep_current && cookie_token(c, token);
    if (have) {
        token_hash(token, hash);
        sodium_memzero(token, sizeof token);
    }
    return storage_sessions_revoke(user, have ? hash : NULL, count);
}
