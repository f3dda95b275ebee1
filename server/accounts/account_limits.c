/* Account limits: two limiters shared by every node of the database
 * (shared_limits.h), one keyed by client address and one by account name. The address limiter
 * counts every attempt, so one client cannot try many names; the name limiter counts only wrong
 * passwords, so many clients together cannot guess one account's password
 * quickly, while its owner's right password resets it. The owner's own
 * browsers (device.h) have keys of their own in the name limiter, so that
 * strangers locking the name do not lock them out.
 *
 * The address is the client's as http_client_address reads it, from
 * X-Forwarded-For behind a proxy listed in --trusted-proxies. */
#include "accounts/account_limits.h"

#include "accounts/shared_limits.h"

#include <ctype.h>
#include <stdio.h>

static struct shared_limit *by_address;
static struct shared_limit *by_name;

int account_limits_start(unsigned per_minute)
{
    if (per_minute == 0)
        per_minute = 1;
    by_address =
        shared_limit_new(per_minute, 60000u / per_minute > 0 ? 60000u / per_minute : 1, false);
    by_name =
        shared_limit_new(ACCOUNT_LIMITS_NAME_BURST, ACCOUNT_LIMITS_NAME_INTERVAL_S * 1000u, true);
    if (by_address == NULL || by_name == NULL) {
        account_limits_stop();
        return -1;
    }
    return 0;
}

void account_limits_stop(void)
{
    shared_limit_free(by_address);
    shared_limit_free(by_name);
    by_address = NULL;
    by_name = NULL;
}

/* Whether failures count against a device (its id given) rather than the name. */
static bool trusted(const char *device)
{
    return device != NULL && device[0] != '\0';
}

/* The key that counts failures: "device ID" for a trusted device, else
 * "name " and the name folded to lower case, as names are unique
 * regardless of case. */
static void failure_key(char *key, size_t cap, const char *name, const char *device)
{
    int n = trusted(device) ? snprintf(key, cap, "device %s", device)
                            : snprintf(key, cap, "name %s", name);
    if (n < 0)
        key[0] = '\0';
    for (char *p = key; *p != '\0'; p++)
        *p = (char)tolower((unsigned char)*p);
}

static int refuse(struct http_conn *c, unsigned retry_s, const char *why)
{
    http_retry_after(c, retry_s);
    return reply_error(c, API_E_RATE_LIMITED, "%s; try again in %u second%s", why, retry_s,
                       retry_s == 1 ? "" : "s");
}

bool account_limits_attempt(struct http_conn *c, const char *name, const char *device, int *result)
{
    if (by_address == NULL)
        return true;
    unsigned retry = 0;
    char key[96];
    if (name != NULL) {
        failure_key(key, sizeof key, name, device);
        if (!shared_limit_check(by_name, key, &retry)) {
            *result = refuse(c, retry,
                             trusted(device) ? "too many wrong passwords from this browser"
                                             : "too many wrong passwords for this account");
            return false;
        }
    }
    char address[64];
    http_client_address(c, address, sizeof address);
    snprintf(key, sizeof key, "address %s", address);
    if (!shared_limit_take(by_address, key, &retry)) {
        *result = refuse(c, retry, "too many attempts from your address");
        return false;
    }
    return true;
}

void account_limits_failed(const char *name, const char *device)
{
    if (by_name == NULL || name == NULL)
        return;
    char key[96];
    failure_key(key, sizeof key, name, device);
    shared_limit_take(by_name, key, NULL);
}

void account_limits_succeeded(const char *name, const char *device)
{
    if (by_name == NULL || name == NULL)
        return;
    char key[96];
    failure_key(key, sizeof key, name, device);
    shared_limit_reset(by_name, key);
}

bool account_limits_checked(const char *name, const char *device, bool right)
{
    if (right)
        account_limits_succeeded(name, device);
    else
        account_limits_failed(name, device);
    return right;
}
