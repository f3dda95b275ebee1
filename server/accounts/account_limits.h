/* Limits on password guessing and mass sign-ups: attempts per client
 * address, and failed attempts per account name, each answered 429 with
 * Retry-After past its limit. */
#ifndef SOKOD_ACCOUNT_LIMITS_H
#define SOKOD_ACCOUNT_LIMITS_H

#include "http/http.h"

#include <stdbool.h>

/* Failed log-ins (or password checks) allowed at once for one account
 * name, or from one trusted device; then one more per
 * ACCOUNT_LIMITS_NAME_INTERVAL_S. */
#define ACCOUNT_LIMITS_NAME_BURST 10u
#define ACCOUNT_LIMITS_NAME_INTERVAL_S 60u

/* Sets up the limiters: `per_minute` attempts (log-ins, sign-ups and
 * password changes together) from one address, as a burst and then as a
 * steady rate. Returns 0, or -1 when out of memory. */
int account_limits_start(unsigned per_minute);
void account_limits_stop(void);

/* Counts an attempt from the request's address for the account `name`
 * (NULL: no name is involved, as in a sign-up). `device` is the id that
 * device_trusted gave for `name` (NULL or "": none): then the name's
 * failures do not stop the attempt, only the device's own. Returns true to
 * go on; otherwise has answered 429 rate_limited with Retry-After and set
 * *result. */
bool account_limits_attempt(struct http_conn *c, const char *name, const char *device, int *result);

/* Records a wrong password for `name`, counted against `device` instead
 * when there is one. */
void account_limits_failed(const char *name, const char *device);

/* Forgets the failures that a right password for `name` answers: the
 * device's, or else the name's. */
void account_limits_succeeded(const char *name, const char *device);

/* Records a password check for `name`: account_limits_succeeded when the
 * password was right, account_limits_failed when not. Returns right. */
bool account_limits_checked(const char *name, const char *device, bool right);

#endif
