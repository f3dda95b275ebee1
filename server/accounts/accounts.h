/* Rules for accounts, shared by the sign-up endpoint and `sokod admin`. */
#ifndef SOKOD_ACCOUNTS_H
#define SOKOD_ACCOUNTS_H

#include "http/http.h"

#include <stdbool.h>

#define USERNAME_MIN 3
#define USERNAME_MAX 32
#define PASSWORD_MIN 8
#define PASSWORD_MAX 1024

/* True when name is one a new account may take: USERNAME_MIN to
 * USERNAME_MAX letters, digits, '_', '-' or '.', with a letter or a digit
 * at both ends. Accounts named under an older, looser rule keep their
 * names: log-ins do not check this. */
bool accounts_username_ok(const char *name);

#define ACCOUNTS_TEXT_(x) #x
#define ACCOUNTS_TEXT(x) ACCOUNTS_TEXT_(x)
/* The rule of accounts_username_ok in words, for refusals. */
#define ACCOUNTS_USERNAME_RULE                                                                     \
    "a username has " ACCOUNTS_TEXT(USERNAME_MIN) " to " ACCOUNTS_TEXT(                            \
        USERNAME_MAX) " letters, digits, '_', '-' or '.', and starts and ends with a letter or "   \
                      "a digit"

/* Endpoints, for the routing table (server/endpoints.c). */
int accounts_whoami(struct http_conn *c);
int accounts_signup(struct http_conn *c);
int accounts_login(struct http_conn *c);
int accounts_logout(struct http_conn *c);

#endif
