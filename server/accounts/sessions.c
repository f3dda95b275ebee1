/* Account endpoints that guard an account: log out everywhere, and change
 * the password (which ends every other session, so that whoever knew the
 * old password, or held a session opened with it, is out). Both make the
 * account forget its trusted browsers (device.h); the browser that changed
 * the password is trusted again at once. */
#include "accounts/sessions.h"

#include "accounts/account_limits.h"
#include "accounts/accounts.h"
#include "accounts/auth.h"
#include "accounts/device.h"
#include "http/body.h"
#include "storage/storage.h"
#include "storage/storage_users.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

int sessions_logout_all(struct http_conn *c)
{
    int result = MHD_NO;
    if (!body_parse_empty(c, &result))
        return result;
    int64_t user;
    if (!auth_user(c, AUTH_EXISTING, &user, &result))
        return result;
    int64_t ended = 0;
    int status;
    unsigned runs = 0;
    do {
        ended = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = auth_sessions_revoke(c, user, false, &ended);
        if (status == STORAGE_OK)
            status = storage_user_forget_devices(user);
        if (status == STORAGE_OK)
            status = auth_session_end(c);
        status = auth_session_commit(c, status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return reply_json(c, 200, json_pack("{s:n,s:I}", "user", "sessions_ended", (json_int_t)ended));
}

/* One password change, checked and hashed on a worker thread. */
struct password_change {
    int64_t user;
    char username[STORAGE_USERNAME_CAP];
    char stored[crypto_pwhash_STRBYTES];
    char current[PASSWORD_MAX + 1];
    size_t current_len;
    char fresh[PASSWORD_MAX + 1];
    size_t fresh_len;
    char hash[crypto_pwhash_STRBYTES];
    char device[DEVICE_ID_SIZE]; /* a device trusted for the name, or "" */
    bool verified;
    bool hashed;
};

static void check_and_hash(void *arg)
{
    struct password_change *j = arg;
    j->verified = crypto_pwhash_str_verify(j->stored, j->current, j->current_len) == 0;
    if (j->verified)
        j->hashed =
            crypto_pwhash_str(j->hash, j->fresh, j->fresh_len, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
    sodium_memzero(j->current, sizeof j->current);
    sodium_memzero(j->fresh, sizeof j->fresh);
}

static int finish_change(struct http_conn *c, void *arg)
{
    struct password_change *j = arg;
    if (!account_limits_checked(j->username, j->device, j->verified))
        return reply_error(c, API_E_BAD_CREDENTIALS, "the current password is wrong");
    if (!j->hashed)
        return reply_error(c, API_E_INTERNAL, "cannot hash the password (out of memory?)");
    int64_t ended = 0;
    int status;
    unsigned runs = 0;
    do {
        ended = 0;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_user_set_password(j->user, j->hash);
        if (status == STORAGE_OK)
            status = auth_sessions_revoke(c, j->user, true, &ended);
        if (status == STORAGE_OK)
            status = storage_user_forget_devices(j->user);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    device_remember(c, j->username);
    return reply_json(c, 200,
                      json_pack("{s:b,s:I}", "changed", 1, "sessions_ended", (json_int_t)ended));
}

/* Checks who asks and what they send (the current and the new password);
 * returns the job to run, or NULL after answering. */
static struct password_change *read_change(struct http_conn *c, const struct body_text *current,
                                           const struct body_text *fresh, int *result)
{
    int64_t user;
    if (!auth_user(c, AUTH_EXISTING, &user, result))
        return NULL;
    struct storage_user u;
    int status = storage_user_get(user, &u);
    if (status != STORAGE_OK) {
        *result = reply_storage_failure(c, status);
        return NULL;
    }
    if (u.guest) {
        *result = reply_error(c, API_E_SIGN_IN_REQUIRED,
                              "a guest has no password: sign up to choose one");
        return NULL;
    }
    size_t fresh_len = fresh->len, current_len = current->len;
    if (fresh_len < PASSWORD_MIN || fresh_len > PASSWORD_MAX) {
        *result = reply_error(c, API_E_INVALID_VALUE, "a password has %d to %d bytes", PASSWORD_MIN,
                              PASSWORD_MAX);
        return NULL;
    }
    char device[DEVICE_ID_SIZE];
    device_trusted(c, u.username, device);
    if (!account_limits_attempt(c, u.username, device, result))
        return NULL;
    if (current_len > PASSWORD_MAX) {
        account_limits_failed(u.username, device);
        *result = reply_error(c, API_E_BAD_CREDENTIALS, "the current password is wrong");
        return NULL;
    }
    struct password_change *j = calloc(1, sizeof *j);
    if (j == NULL) {
        *result = reply_error(c, API_E_INTERNAL, "out of memory");
        return NULL;
    }
    status = storage_user_password_hash(user, j->stored, sizeof j->stored);
    if (status != STORAGE_OK) {
        free(j);
        *result = reply_storage_failure(c, status);
        return NULL;
    }
    j->user = user;
    snprintf(j->username, sizeof j->username, "%s", u.username);
    memcpy(j->device, device, sizeof j->device);
    j->current_len = current_len;
    memcpy(j->current, current->text, current_len);
    j->fresh_len = fresh_len;
    memcpy(j->fresh, fresh->text, fresh_len);
    return j;
}

int sessions_password(struct http_conn *c)
{
    int result = MHD_NO;
    struct body_text current = {0}, fresh = {0};
    struct body_field spec[] = {
        body_text("current_password", &current),
        body_text("new_password", &fresh),
        body_end(),
    };
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    struct password_change *j = read_change(c, &current, &fresh, &result);
    json_decref(body);
    if (j == NULL)
        return result;
    return http_defer(c, WORKER_AUTH, check_and_hash, finish_change, j);
}
