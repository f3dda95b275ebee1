/* Settings endpoints: the caller's options (theme, animation, sound, point
 * mode ...), kept on the server so that they follow the player to every
 * device. The client owns the keys; the server keeps them small and flat. */
#include "accounts/settings.h"

#include "accounts/auth.h"
#include "base/clock.h"
#include "http/body.h"
#include "storage/storage.h"
#include "storage/storage_settings.h"

#include <stdlib.h>
#include <string.h>

#define SETTINGS_MAX_KEYS 64
#define SETTINGS_MAX_KEY 64
#define SETTINGS_MAX_STRING 256
/* The stored JSON text, whole: the browser's options take about 150 bytes,
 * and every guest may keep this much on disk. */
#define SETTINGS_MAX_BYTES 2048
#define SETTINGS_LISTENERS_MAX 4

static settings_listener listeners[SETTINGS_LISTENERS_MAX];
static unsigned nlisteners;

int settings_add_listener(settings_listener fn)
{
    for (unsigned i = 0; i < nlisteners; i++) {
        if (listeners[i] == fn)
            return 0;
    }
    if (nlisteners == SETTINGS_LISTENERS_MAX)
        return -1;
    listeners[nlisteners++] = fn;
    return 0;
}

int settings_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    json_t *settings = NULL;
    if (user != 0) {
        char *text = NULL;
        int status = storage_settings_get(user, &text);
        if (status != STORAGE_OK && status != STORAGE_NOT_FOUND)
            return reply_storage_failure(c, status);
        if (text != NULL)
            settings = json_loads(text, 0, NULL);
        free(text);
    }
    if (!json_is_object(settings)) {
        json_decref(settings);
        settings = json_object();
    }
    return reply_json(c, 200, json_pack("{s:o}", "settings", settings));
}

static bool key_ok(const char *key)
{
    size_t len = strlen(key);
    if (len == 0 || len > SETTINGS_MAX_KEY)
        return false;
    for (const char *p = key; *p != '\0'; p++) {
        char ch = *p;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '-' || ch == '.'))
            return false;
    }
    return true;
}

/* True when every value is a short string, a number, a boolean or null;
 * otherwise answers 400 naming the key, and sets *result. */
static bool settings_ok(struct http_conn *c, json_t *settings, int *result)
{
    if (json_object_size(settings) > SETTINGS_MAX_KEYS) {
        *result =
            reply_error(c, API_E_INVALID_VALUE, "settings hold at most %d keys", SETTINGS_MAX_KEYS);
        return false;
    }
    const char *key;
    json_t *value;
    json_object_foreach(settings, key, value)
    {
        if (!key_ok(key)) {
            *result = reply_error(c, API_E_INVALID_VALUE,
                                  "a settings key is 1 to %d letters, digits, '_', '-' or '.'",
                                  SETTINGS_MAX_KEY);
            return false;
        }
        if (strcmp(key, "watchable") == 0 && !json_is_boolean(value)) {
            *result = reply_error(c, API_E_WRONG_TYPE,
                                  "setting 'watchable' is true (others may watch you play) or "
                                  "false");
            return false;
        }
        bool scalar = json_is_number(value) || json_is_boolean(value) || json_is_null(value) ||
                      (json_is_string(value) && json_string_length(value) <= SETTINGS_MAX_STRING);
        if (!scalar) {
            *result = reply_error(c, API_E_INVALID_VALUE,
                                  "setting '%s' must be a number, a boolean, null or a string "
                                  "of at most %d bytes",
                                  key, SETTINGS_MAX_STRING);
            return false;
        }
    }
    return true;
}

int settings_put(struct http_conn *c)
{
    int result = MHD_NO;
    json_t *settings = NULL;
    struct body_field spec[] = {body_object("settings", &settings), body_end()};
    json_t *body = body_parse(c, spec, &result);
    if (body == NULL)
        return result;
    json_incref(settings);
    json_decref(body);
    int64_t user;
    /* Without a session there is nothing to keep the settings for: the
     * browser keeps them until the player has one (a game opened, a room
     * joined, a log-in), rather than each visit making a guest. */
    if (!settings_ok(c, settings, &result) || !auth_user(c, AUTH_EXISTING, &user, &result)) {
        json_decref(settings);
        return result;
    }
    char *text = json_dumps(settings, JSON_COMPACT | JSON_SORT_KEYS);
    if (text != NULL && strlen(text) > SETTINGS_MAX_BYTES) {
        free(text);
        json_decref(settings);
        return reply_error(c, API_E_BODY_TOO_LARGE, "settings hold at most %d bytes of JSON",
                           SETTINGS_MAX_BYTES);
    }
    int status = STORAGE_ERROR;
    unsigned runs = 0;
    if (text != NULL) {
        do {
            status = storage_begin();
            if (status == STORAGE_OK)
                status = storage_settings_put(user, text, clock_now());
            status = storage_finish(status);
        } while (storage_again(status, &runs));
    }
    free(text);
    if (status != STORAGE_OK) {
        json_decref(settings);
        return reply_storage_failure(c, status);
    }
    for (unsigned i = 0; i < nlisteners; i++)
        listeners[i](user, settings);
    return reply_json(c, 200, json_pack("{s:o}", "settings", settings));
}
