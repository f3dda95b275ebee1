/* Rules for accounts, shared by the sign-up endpoint and `sokod admin`. */
#ifndef SOKOD_ACCOUNTS_H
#define SOKOD_ACCOUNTS_H

#include <stdbool.h>

#define USERNAME_MIN 3
#define USERNAME_MAX 32
#define PASSWORD_MIN 8
#define PASSWORD_MAX 1024

/* True when name has USERNAME_MIN to USERNAME_MAX letters, digits, '_', '-'
 * or '.'. */
bool accounts_username_ok(const char *name);

#endif
