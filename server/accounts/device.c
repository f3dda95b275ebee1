/* Device cookies: the nonce and an HMAC (libsodium's crypto_auth) of the
 * nonce, the account name in lower case and the account's devices epoch
 * (left out while it is 0, as cookies were first made), in URL-safe
 * base64. Nothing is stored per device: the key proves the cookie, the
 * nonce names the device for the failure limit, and raising the epoch
 * makes every earlier cookie of the account fail its check. */
#include "accounts/device.h"

#include "storage/storage_keys.h"
#include "storage/storage_users.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#define NONCE_BYTES 16
#define COOKIE_BYTES (NONCE_BYTES + crypto_auth_BYTES)
/* A year: a browser unused for longer is a stranger again. */
#define DEVICE_SECONDS (365L * 24 * 60 * 60)

static uint8_t key[crypto_auth_KEYBYTES];
static bool have_key;

int device_start(void)
{
    uint8_t fresh[crypto_auth_KEYBYTES];
    crypto_auth_keygen(fresh);
    int status = storage_server_key("device", fresh, key, sizeof key);
    sodium_memzero(fresh, sizeof fresh);
    have_key = status == STORAGE_OK;
    if (!have_key)
        fprintf(stderr, "sokod: cannot read or store the device cookies' key\n");
    return have_key ? 0 : -1;
}

/* The tag of nonce, name (folded to lower case) and epoch. */
static void sign(const uint8_t nonce[NONCE_BYTES], const char *name, int64_t epoch,
                 uint8_t tag[crypto_auth_BYTES])
{
    uint8_t message[NONCE_BYTES + STORAGE_USERNAME_CAP + 9];
    size_t len = strnlen(name, STORAGE_USERNAME_CAP);
    memcpy(message, nonce, NONCE_BYTES);
    for (size_t i = 0; i < len; i++)
        message[NONCE_BYTES + i] = (uint8_t)tolower((unsigned char)name[i]);
    len += NONCE_BYTES;
    if (epoch != 0) {
        /* A NUL no name holds ends the name, then the epoch, big-endian. */
        message[len++] = 0;
        for (int shift = 56; shift >= 0; shift -= 8)
            message[len++] = (uint8_t)((uint64_t)epoch >> shift);
    }
    crypto_auth(tag, message, len, key);
}

/* The devices epoch of the account `name`; false when it cannot be read. */
static bool epoch_of(const char *name, int64_t *epoch)
{
    if (storage_user_devices_epoch(name, epoch) == STORAGE_OK)
        return true;
    fprintf(stderr, "sokod: cannot read the devices epoch of an account\n");
    return false;
}

bool device_trusted(struct http_conn *c, const char *name, char id[DEVICE_ID_SIZE])
{
    id[0] = '\0';
    const char *text = http_cookie(c, DEVICE_COOKIE);
    if (!have_key || text == NULL || name == NULL)
        return false;
    uint8_t raw[COOKIE_BYTES];
    size_t len = 0;
    if (sodium_base642bin(raw, sizeof raw, text, strlen(text), NULL, &len, NULL,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        len != COOKIE_BYTES)
        return false;
    int64_t epoch;
    if (!epoch_of(name, &epoch))
        return false;
    uint8_t want[crypto_auth_BYTES];
    sign(raw, name, epoch, want);
    if (sodium_memcmp(want, raw + NONCE_BYTES, crypto_auth_BYTES) != 0)
        return false;
    sodium_bin2hex(id, DEVICE_ID_SIZE, raw, NONCE_BYTES);
    return true;
}

void device_remember(struct http_conn *c, const char *name)
{
    int64_t epoch;
    if (!have_key || !epoch_of(name, &epoch))
        return;
    uint8_t raw[COOKIE_BYTES];
    randombytes_buf(raw, NONCE_BYTES);
    sign(raw, name, epoch, raw + NONCE_BYTES);
    char text[sodium_base64_ENCODED_LEN(COOKIE_BYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(text, sizeof text, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    /* Sent only to the account routes, where log-in and the password are. */
    snprintf(c->device_cookie, sizeof c->device_cookie,
             "%s=%s; Path=/api/v1/account; HttpOnly; SameSite=Strict; Max-Age=%ld%s", DEVICE_COOKIE,
             text, DEVICE_SECONDS, http_is_https(c) ? "; Secure" : "");
}
