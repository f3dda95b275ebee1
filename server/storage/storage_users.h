/* Storage of users, their sessions and the sweep of old guests
 * (storage_users.c). Same rules as storage.h: the calling thread's
 * connection, STORAGE_* codes, text handed to callbacks valid during the
 * call only. */
#ifndef SOKOD_STORAGE_USERS_H
#define SOKOD_STORAGE_USERS_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for a stored name and its NUL (names are at most 32 characters). */
#define STORAGE_USERNAME_CAP 64

struct storage_user {
    int64_t id;
    bool guest;
    char username[STORAGE_USERNAME_CAP]; /* empty for a guest */
    int64_t created_at;
};

int storage_user_create_guest(int64_t now, int64_t *id);
int storage_user_get(int64_t id, struct storage_user *u);
/* Finds an account by name (case-insensitive) and copies its password hash. */
int storage_user_by_name(const char *username, struct storage_user *u, char *hash, size_t cap);
/* Gives a guest a name and a password hash. STORAGE_CONFLICT when the name is taken. */
int storage_user_register(int64_t id, const char *username, const char *hash);
/* Creates an account. STORAGE_CONFLICT when the name is taken. */
int storage_user_create(const char *username, const char *hash, int64_t now, int64_t *id);
/* Moves a guest's solutions, and its games on levels the account has not
 * started, to the account, then deletes the guest and what is left of it. */
int storage_user_merge_guest(int64_t guest, int64_t account);

int storage_session_create(const uint8_t token_hash[32], int64_t user, int64_t now,
                           int64_t expires_at);
/* The user of an unexpired session; STORAGE_NOT_FOUND otherwise. */
int storage_session_user(const uint8_t token_hash[32], int64_t now, struct storage_user *u);
int storage_session_delete(const uint8_t token_hash[32]);
/* Like storage_session_user, also giving the session's expiry time. */
int storage_session_lookup(const uint8_t token_hash[32], int64_t now, struct storage_user *u,
                           int64_t *expires_at);
/* Moves a session's expiry to expires_at (a sliding expiry). */
int storage_session_refresh(const uint8_t token_hash[32], int64_t expires_at);
/* Deletes every session of a user but the one of keep_hash (NULL: all);
 * *count, when not NULL, receives how many went. */
int storage_sessions_revoke(int64_t user, const uint8_t *keep_hash, int64_t *count);
/* Deletes the sessions of a user that expired before now. */
int storage_sessions_purge(int64_t user, int64_t now);
/* The password hash of an account (STORAGE_NOT_FOUND for a guest). */
int storage_user_password_hash(int64_t user, char *hash, size_t cap);
/* Replaces the password hash of an account. */
int storage_user_set_password(int64_t user, const char *hash);
/* The devices epoch of the account named (case-insensitive) in *epoch;
 * 0 when there is no such account. Device cookies are signed with it. */
int storage_user_devices_epoch(const char *username, int64_t *epoch);
/* Raises an account's devices epoch: every device cookie given before is
 * no longer trusted. */
int storage_user_forget_devices(int64_t user);

/* The sweep of old guests (sweeper.c). A listing reads its rows in order
 * from a cursor that it moves past each row read; done is set when the
 * listing ran out (start over from a zeroed cursor). Listings read only;
 * the deletes run inside the caller's transaction and check again that
 * the guest is still one to delete, so a guest who played in between
 * stays. */
#define STORAGE_SWEEP_MAX 256
struct storage_sweep_cursor {
    int64_t at, id; /* the last row read: its time (for the listing by age) and id */
    bool done;
};
/* Puts in ids (at most max) the guests made at or before made_before that
 * never played (no game with a log entry or a saved position, no race
 * game, no solution, no room hosted), of the next max guests by age; *n
 * receives their number. */
int storage_guests_unplayed(int64_t made_before, struct storage_sweep_cursor *cursor, int max,
                            int64_t *ids, int *n);
/* Puts in ids the guests last seen at or before seen_before, of the next
 * max guests by id. A guest was last seen when its newest session's expiry
 * was last moved (that expiry less session_span) or, with no session left,
 * when it was made. */
int storage_guests_idle(int64_t seen_before, int64_t session_span,
                        struct storage_sweep_cursor *cursor, int max, int64_t *ids, int *n);
/* Which guests a sweep deletes: those made at or before a time who never
 * played (storage_guests_unplayed), or those last seen at or before a
 * time (storage_guests_idle). */
enum storage_sweep_rule { STORAGE_SWEEP_UNPLAYED, STORAGE_SWEEP_IDLE };
/* What one write transaction of the sweep may still delete of the parts
 * of guests that grow with use (rows of each table), and the rows it
 * deleted so far, those parts, sessions and guests together. */
struct storage_sweep_budget {
    int64_t snapshots, logs, solutions, games, rooms;
    int64_t rows;
};
/* Inside the caller's transaction, when guest id still qualifies under
 * rule at cut-off `before` (session_span is a session's span, for the last
 * seen time): ends its sessions, so that nobody reaches it any more, then
 * deletes the saved positions and log entries of its games and of the race
 * games of the rooms it hosts, its solutions, those games, and the rooms,
 * in that order, each within what is left of *budget. When all are gone,
 * deletes the guest with what is left of it (settings, seats) and adds 1
 * to *deleted. *done is false when the budget ran out first: call again
 * in a later transaction, with a new budget, to go on. Returns a STORAGE_*
 * code; on failure the caller rolls back. */
int storage_guest_sweep(int64_t id, enum storage_sweep_rule rule, int64_t before,
                        int64_t session_span, struct storage_sweep_budget *budget, bool *done,
                        int64_t *deleted);
/* Deletes at most max sessions expired at now; *deleted receives how many. */
int storage_sessions_expired(int64_t now, int max, int64_t *deleted);

/* The display name of a user: the username, or "" for a guest. */
int storage_user_name(int64_t id, char *name, size_t cap);

#endif
