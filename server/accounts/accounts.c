/* Account endpoints: who am I, sign up, log in, log out.
 *
 * Anyone plays at once as a guest. Signing up gives the guest a name and a
 * password and keeps everything it did. Logging in on another device ends
 * that device's guest: its solutions join the account, and so do its games
 * on levels the account has not started (the account's own games win);
 * whatever is left of the guest is deleted. */
#include "accounts/account_limits.h"
#include "accounts/accounts.h"
#include "accounts/auth.h"
#include "accounts/device.h"
#include "base/clock.h"
#include "http/body.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"
#include "storage/storage_quota.h"
#include "storage/storage_users.h"

#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/* The work of one sign-up or log-in, done on a worker thread. */
struct password_job {
    char username[USERNAME_MAX + 1];
    char password[PASSWORD_MAX + 1];
    size_t password_len;
    char hash[crypto_pwhash_STRBYTES];
    int64_t account;             /* log-in: the account found, 0 if none */
    int64_t current;             /* the user of the request's session, or 0 */
    char device[DEVICE_ID_SIZE]; /* log-in: a device trusted for the name, or "" */
    bool ok;
};

static json_t *user_json(const struct storage_user *u)
{
    return json_pack("{s:I,s:o,s:b,s:o}", "id", (json_int_t)u->id, "username",
                     u->guest ? json_null() : json_string(u->username), "guest", u->guest,
                     "created_at", http_json_time(u->created_at));
}

/* Answers {"user": ...} for user id (null for 0). */
static int reply_user(struct http_conn *c, unsigned status, int64_t id)
{
    if (id == 0)
        return reply_json(c, status, json_pack("{s:n}", "user"));
    struct storage_user u;
    bool guest = true, admin = false;
    char name[64];
    int st = storage_user_get(id, &u);
    if (st == STORAGE_OK)
        st = storage_user_admin(id, &guest, &admin, name, sizeof name);
    if (st != STORAGE_OK)
        return reply_storage_failure(c, st);
    json_t *user = user_json(&u);
    json_object_set_new(user, "admin", json_boolean(admin));
    int64_t used = 0, allowed = 0;
    if (storage_quota_of(id, &used, &allowed) == STORAGE_OK)
        json_object_set_new(
            user, "storage",
            json_pack("{s:I,s:I}", "used", (json_int_t)used, "allowed", (json_int_t)allowed));
    return reply_json(c, status, json_pack("{s:o}", "user", user));
}

int accounts_whoami(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    return reply_user(c, 200, user);
}

static bool letter_or_digit(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

bool accounts_username_ok(const char *name)
{
    size_t len = strlen(name);
    if (len < USERNAME_MIN || len > USERNAME_MAX)
        return false;
    /* Letters or digits at both ends: "root." and "---" read as mistakes,
     * or as someone else's name in a list. */
    if (!letter_or_digit(name[0]) || !letter_or_digit(name[len - 1]))
        return false;
    for (const char *p = name; *p != '\0'; p++) {
        if (!letter_or_digit(*p) && *p != '_' && *p != '-' && *p != '.')
            return false;
    }
    return true;
}

/* Reads and checks the credentials of the body into a new job; NULL after answering. */
static struct password_job *read_credentials(struct http_conn *c, bool strict, int *result)
{
    struct body_text username = {0}, pw = {0};
    struct body_field spec[] = {
        body_text("username", &username),
        body_text("password", &pw),
        body_end(),
    };
    json_t *body = body_parse(c, spec, result);
    if (body == NULL)
        return NULL;
    const char *name = username.text;
    const char *password = pw.text;
    size_t len = pw.len;
    struct password_job *job = NULL;
    if (strict && !accounts_username_ok(name)) {
        *result = reply_error(c, API_E_INVALID_VALUE, "%s", ACCOUNTS_USERNAME_RULE);
    } else if (strict && (len < PASSWORD_MIN || len > PASSWORD_MAX)) {
        *result = reply_error(c, API_E_INVALID_VALUE, "a password has %d to %d bytes", PASSWORD_MIN,
                              PASSWORD_MAX);
    } else if (strlen(name) > USERNAME_MAX || len > PASSWORD_MAX) {
        *result = reply_error(c, API_E_BAD_CREDENTIALS, "wrong username or password");
    } else {
        job = calloc(1, sizeof *job);
        if (job == NULL) {
            *result = reply_error(c, API_E_INTERNAL, "out of memory");
        } else {
            snprintf(job->username, sizeof job->username, "%s", name);
            memcpy(job->password, password, len);
            job->password_len = len;
        }
    }
    json_decref(body);
    return job;
}

static void hash_password(void *arg)
{
    struct password_job *job = arg;
    job->ok = crypto_pwhash_str(job->hash, job->password, job->password_len,
                                crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
    sodium_memzero(job->password, sizeof job->password);
}

/* Back on an HTTP thread: the guest becomes the account, or a new account starts. */
static int finish_signup(struct http_conn *c, void *arg)
{
    struct password_job *job = arg;
    if (!job->ok)
        return reply_error(c, API_E_INTERNAL, "cannot hash the password (out of memory?)");
    int64_t user;
    int status;
    unsigned runs = 0;
    do {
        user = job->current;
        status = storage_begin();
        if (status == STORAGE_OK && user != 0)
            status = storage_user_register(user, job->username, job->hash);
        else if (status == STORAGE_OK)
            status = storage_user_create(job->username, job->hash, clock_now(), &user);
        /* A new session token, so that one known before sign-up is worth nothing. */
        if (status == STORAGE_OK)
            status = auth_session_end(c);
        if (status == STORAGE_OK)
            status = auth_session_start(c, user);
        status = auth_session_commit(c, status);
    } while (storage_again(status, &runs));
    if (status == STORAGE_CONFLICT)
        return reply_error(c, API_E_USERNAME_TAKEN, "the username '%s' is taken", job->username);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_ALREADY_SIGNED_UP, "this session has an account");
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    device_remember(c, job->username);
    return reply_user(c, 201, user);
}

int accounts_signup(struct http_conn *c)
{
    int result = MHD_NO;
    if (!account_limits_attempt(c, NULL, NULL, &result))
        return result;
    struct password_job *job = read_credentials(c, true, &result);
    if (job == NULL)
        return result;
    int64_t user;
    struct storage_user u, existing;
    char hash[crypto_pwhash_STRBYTES];
    int status = STORAGE_OK;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result)) {
        free(job);
        return result;
    }
    if (user != 0)
        status = storage_user_get(user, &u);
    if (status == STORAGE_OK && user != 0 && !u.guest) {
        free(job);
        return reply_error(c, API_E_ALREADY_SIGNED_UP,
                           "you are signed in as '%s': log out to create another account",
                           u.username);
    }
    if (status == STORAGE_OK)
        status = storage_user_by_name(job->username, &existing, hash, sizeof hash);
    if (status == STORAGE_OK) {
        free(job);
        return reply_error(c, API_E_USERNAME_TAKEN, "the username '%s' is taken",
                           existing.username);
    }
    if (status != STORAGE_NOT_FOUND) {
        free(job);
        return reply_storage_failure(c, status);
    }
    job->current = user;
    return http_defer(c, WORKER_AUTH, hash_password, finish_signup, job);
}

/* A hash to check unknown usernames against, so that they take as long as known ones. */
static char decoy_hash[crypto_pwhash_STRBYTES];
static pthread_once_t decoy_once = PTHREAD_ONCE_INIT;

static void make_decoy(void)
{
    char random[32];
    randombytes_buf(random, sizeof random);
    if (crypto_pwhash_str(decoy_hash, random, sizeof random, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
        decoy_hash[0] = '\0';
}

static void verify_password(void *arg)
{
    struct password_job *job = arg;
    if (job->account == 0) {
        pthread_once(&decoy_once, make_decoy);
        memcpy(job->hash, decoy_hash, sizeof job->hash);
    }
    job->ok = job->hash[0] != '\0' &&
              crypto_pwhash_str_verify(job->hash, job->password, job->password_len) == 0 &&
              job->account != 0;
    sodium_memzero(job->password, sizeof job->password);
}

static int finish_login(struct http_conn *c, void *arg)
{
    struct password_job *job = arg;
    if (!account_limits_checked(job->username, job->device, job->ok))
        return reply_error(c, API_E_BAD_CREDENTIALS, "wrong username or password");
    struct storage_user current;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        bool merge = false;
        if (status == STORAGE_OK && job->current != 0 && job->current != job->account) {
            status = storage_user_get(job->current, &current);
            if (status == STORAGE_NOT_FOUND)
                status = STORAGE_OK;
            else if (status == STORAGE_OK)
                merge = current.guest;
        }
        if (status == STORAGE_OK)
            status = auth_session_end(c);
        if (status == STORAGE_OK)
            status = storage_sessions_purge(job->account, clock_now());
        if (status == STORAGE_OK && merge)
            status = storage_user_merge_guest(job->current, job->account);
        if (status == STORAGE_OK)
            status = auth_session_start(c, job->account);
        status = auth_session_commit(c, status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    device_remember(c, job->username);
    return reply_user(c, 200, job->account);
}

int accounts_login(struct http_conn *c)
{
    int result = MHD_NO;
    struct password_job *job = read_credentials(c, false, &result);
    if (job == NULL)
        return result;
    device_trusted(c, job->username, job->device);
    if (!account_limits_attempt(c, job->username, job->device, &result)) {
        sodium_memzero(job->password, sizeof job->password);
        free(job);
        return result;
    }
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result)) {
        free(job);
        return result;
    }
    struct storage_user account;
    int status = storage_user_by_name(job->username, &account, job->hash, sizeof job->hash);
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND) {
        free(job);
        return reply_storage_failure(c, status);
    }
    job->account = status == STORAGE_OK ? account.id : 0;
    job->current = user;
    return http_defer(c, WORKER_AUTH, verify_password, finish_login, job);
}

int accounts_logout(struct http_conn *c)
{
    int result = MHD_NO;
    if (!body_parse_empty(c, &result))
        return result;
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = auth_session_end(c);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return reply_json(c, 200, json_pack("{s:n}", "user"));
}
