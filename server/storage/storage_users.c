/* Storage: users and sessions. */
#include "storage/storage_users.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static void read_user(struct sql_stmt *st, struct storage_user *u)
{
    u->id = sql_column_int64(st, 0);
    u->guest = sql_column_int(st, 1) != 0;
    snprintf(u->username, sizeof u->username, "%s", sql_column_text(st, 2));
    u->created_at = sql_column_int64(st, 3);
}

/* Steps a statement expected to return at most one user row. */
static int one_user(struct sql_stmt *st, struct storage_user *u, const char *what)
{
    int status = storage_first_row(st, what);
    if (status == STORAGE_OK)
        read_user(st, u);
    sql_reset(st);
    return status;
}

static const char SQL_CREATE_GUEST[] =
    "INSERT INTO users (guest, created_at) VALUES (1, ?) RETURNING id";

int storage_user_create_guest(int64_t now, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_CREATE_GUEST);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, now);
    int status = storage_exec_insert(st, id, "creating a guest");
    return status;
}

static const char SQL_USER_GET[] = "SELECT id, guest, username, created_at FROM users WHERE id = ?";

int storage_user_get(int64_t id, struct storage_user *u)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    return one_user(st, u, "reading a user");
}

static const char SQL_USER_BY_NAME[] = "SELECT id, guest, username, created_at, password_hash "
                                       "FROM users WHERE username = ? AND guest = 0";

int storage_user_by_name(const char *username, struct storage_user *u, char *hash, size_t cap)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_BY_NAME);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, username);
    int status = storage_first_row(st, "finding a user");
    if (status == STORAGE_OK) {
        read_user(st, u);
        snprintf(hash, cap, "%s", sql_column_text(st, 4));
    }
    sql_reset(st);
    return status;
}

static const char SQL_USER_REGISTER[] =
    "UPDATE users SET guest = 0, username = ?, password_hash = ? WHERE id = ? AND guest = 1";

int storage_user_register(int64_t id, const char *username, const char *hash)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_REGISTER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, username);
    sql_bind_text(st, 2, hash);
    sql_bind_int64(st, 3, id);
    return storage_exec_changed(st, "signing up a guest");
}

static const char SQL_USER_CREATE[] = "INSERT INTO users (guest, username, password_hash, "
                                      "created_at) VALUES (0, ?, ?, ?) RETURNING id";

int storage_user_create(const char *username, const char *hash, int64_t now, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_CREATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, username);
    sql_bind_text(st, 2, hash);
    sql_bind_int64(st, 3, now);
    int status = storage_exec_insert(st, id, "creating an account");
    return status;
}

/* A solution the account has already found stays the guest's, and goes
 * with the guest. */
static const char SQL_MERGE_SOLUTIONS[] =
    "UPDATE solutions SET user_id = ?2 WHERE user_id = ?1 AND NOT EXISTS (SELECT 1 FROM "
    "solutions o WHERE o.user_id = ?2 AND o.level_id = solutions.level_id "
    "AND o.rule = solutions.rule AND o.lurd_hash = solutions.lurd_hash)";
static const char SQL_MERGE_GAMES[] =
    "UPDATE games SET user_id = ?2 WHERE user_id = ?1 AND room_id IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM games a WHERE a.user_id = ?2 AND a.room_id IS NULL "
    "AND a.level_id = games.level_id AND a.rule = games.rule)";
static const char SQL_DELETE_GUEST[] = "DELETE FROM users WHERE id = ?1 AND guest = 1";

int storage_user_merge_guest(int64_t guest, int64_t account)
{
    const char *const steps[] = {SQL_MERGE_SOLUTIONS, SQL_MERGE_GAMES, SQL_DELETE_GUEST};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        struct sql_stmt *st = storage_stmt(steps[i]);
        if (st == NULL)
            return STORAGE_ERROR;
        sql_bind_int64(st, 1, guest);
        if (i < 2)
            sql_bind_int64(st, 2, account);
        int status = storage_exec_stmt(st, "merging a guest into an account");
        if (status != STORAGE_OK)
            return status;
    }
    return STORAGE_OK;
}

static const char SQL_SESSION_CREATE[] =
    "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)";

int storage_session_create(const uint8_t token_hash[32], int64_t user, int64_t now,
                           int64_t expires_at)
{
    struct sql_stmt *st = storage_stmt(SQL_SESSION_CREATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_blob(st, 1, token_hash, 32);
    sql_bind_int64(st, 2, user);
    sql_bind_int64(st, 3, now);
    sql_bind_int64(st, 4, expires_at);
    return storage_exec_stmt(st, "creating a session");
}

static const char SQL_SESSION_USER[] =
    "SELECT u.id, u.guest, u.username, u.created_at, s.expires_at FROM sessions s "
    "JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND s.expires_at > ?";

int storage_session_lookup(const uint8_t token_hash[32], int64_t now, struct storage_user *u,
                           int64_t *expires_at)
{
    struct sql_stmt *st = storage_stmt(SQL_SESSION_USER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_blob(st, 1, token_hash, 32);
    sql_bind_int64(st, 2, now);
    int status = storage_first_row(st, "reading a session");
    if (status == STORAGE_OK) {
        read_user(st, u);
        if (expires_at != NULL)
            *expires_at = sql_column_int64(st, 4);
    }
    sql_reset(st);
    return status;
}

int storage_session_user(const uint8_t token_hash[32], int64_t now, struct storage_user *u)
{
    return storage_session_lookup(token_hash, now, u, NULL);
}

static const char SQL_SESSION_REFRESH[] = "UPDATE sessions SET expires_at = ? WHERE token_hash = ?";

int storage_session_refresh(const uint8_t token_hash[32], int64_t expires_at)
{
    struct sql_stmt *st = storage_stmt(SQL_SESSION_REFRESH);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, expires_at);
    sql_bind_blob(st, 2, token_hash, 32);
    return storage_exec_stmt(st, "refreshing a session");
}

static const char SQL_SESSIONS_REVOKE[] =
    "DELETE FROM sessions WHERE user_id = ?1 AND (token_hash <> ?2 OR ?2 IS NULL)";

int storage_sessions_revoke(int64_t user, const uint8_t *keep_hash, int64_t *count)
{
    struct sql_stmt *st = storage_stmt(SQL_SESSIONS_REVOKE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    if (keep_hash != NULL)
        sql_bind_blob(st, 2, keep_hash, 32);
    else
        sql_bind_null(st, 2);
    int status = storage_exec_stmt(st, "revoking sessions");
    if (status == STORAGE_OK && count != NULL)
        *count = sql_changes(st);
    return status;
}

static const char SQL_SESSIONS_PURGE[] =
    "DELETE FROM sessions WHERE user_id = ? AND expires_at <= ?";

int storage_sessions_purge(int64_t user, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_SESSIONS_PURGE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, now);
    return storage_exec_stmt(st, "deleting expired sessions");
}

static const char SQL_USER_PASSWORD[] =
    "SELECT password_hash FROM users WHERE id = ? AND guest = 0";

int storage_user_password_hash(int64_t user, char *hash, size_t cap)
{
    return storage_text_by_id(SQL_USER_PASSWORD, user, hash, cap, "reading a password hash");
}

static const char SQL_USER_SET_PASSWORD[] =
    "UPDATE users SET password_hash = ? WHERE id = ? AND guest = 0";

int storage_user_set_password(int64_t user, const char *hash)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_SET_PASSWORD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, hash);
    sql_bind_int64(st, 2, user);
    return storage_exec_changed(st, "changing a password");
}

static const char SQL_USER_DEVICES_EPOCH[] =
    "SELECT devices_epoch FROM users WHERE username = ? AND guest = 0";

int storage_user_devices_epoch(const char *username, int64_t *epoch)
{
    *epoch = 0;
    struct sql_stmt *st = storage_stmt(SQL_USER_DEVICES_EPOCH);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, username);
    int status = storage_first_int64(st, epoch, "reading a devices epoch");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

static const char SQL_USER_FORGET_DEVICES[] =
    "UPDATE users SET devices_epoch = devices_epoch + 1 WHERE id = ? AND guest = 0";

int storage_user_forget_devices(int64_t user)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_FORGET_DEVICES);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    return storage_exec_stmt(st, "forgetting an account's devices");
}

static const char SQL_SESSION_DELETE[] = "DELETE FROM sessions WHERE token_hash = ?";

int storage_session_delete(const uint8_t token_hash[32])
{
    struct sql_stmt *st = storage_stmt(SQL_SESSION_DELETE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_blob(st, 1, token_hash, 32);
    return storage_exec_stmt(st, "deleting a session");
}

/* ---- The sweep of old guests and expired sessions ----------------------------------------- */

/* A guest has played when one of its games has an entry in its log (seq is
 * the last entry's number) or a saved position, when it raced (a race
 * game, even empty), when it has a solution, or when it hosts a room: each
 * is something the guest, or another player, may come back to. ?1 is the
 * guest's id. */
#define SQL_PLAYED                                                                                 \
    "(EXISTS (SELECT 1 FROM games g WHERE g.user_id = ?1 AND (g.seq > 0 OR g.room_id IS NOT "      \
    "NULL OR EXISTS (SELECT 1 FROM snapshots n WHERE n.game_id = g.id))) "                         \
    "OR EXISTS (SELECT 1 FROM solutions s WHERE s.user_id = ?1) "                                  \
    "OR EXISTS (SELECT 1 FROM rooms r WHERE r.host_id = ?1))"

/* When guest ?1 (row u) was last seen: when a session's sliding expiry was
 * last moved (the expiry less ?2, a session's span) or, without a session,
 * when it was made. */
#define SQL_SEEN                                                                                   \
    "(SELECT CASE WHEN u.created_at > x.seen THEN u.created_at ELSE x.seen END FROM "              \
    "(SELECT coalesce(max(s.expires_at) - ?2, 0) AS seen FROM sessions s WHERE s.user_id = ?1) x)"

/* SQLite is told which index to walk (INDEXED BY); PostgreSQL's planner
 * finds it. */
#define SQL_GUESTS_BY_AGE(INDEXED)                                                                 \
    "SELECT id, created_at FROM users " INDEXED                                                    \
    "WHERE guest = 1 AND created_at <= ?1 AND (created_at > ?2 OR (created_at = ?2 AND id > ?3)) " \
    "ORDER BY created_at, id LIMIT ?4"
static const char SQL_GUESTS_BY_AGE_LITE[] = SQL_GUESTS_BY_AGE("INDEXED BY users_guests ");
static const char SQL_GUESTS_BY_AGE_PG[] = SQL_GUESTS_BY_AGE("");

static const char SQL_GUESTS_BY_ID[] =
    "SELECT id, created_at FROM users WHERE guest = 1 AND id > ?1 ORDER BY id LIMIT ?2";

static const char SQL_GUEST_PLAYED[] = "SELECT " SQL_PLAYED;

static const char SQL_GUEST_SEEN[] = "SELECT " SQL_SEEN " FROM users u WHERE u.id = ?1";

/* Reads the next rows (id, created_at) of a listing into ids, moving the
 * cursor past each. Sets cursor->done when the listing ran out. */
static int list_guests(struct sql_stmt *st, struct storage_sweep_cursor *cursor, int max,
                       int64_t *ids, int *n)
{
    int rc = STORAGE_OK;
    *n = 0;
    while (*n < max && (rc = sql_step(st, "listing guests")) == SQL_ROW) {
        ids[(*n)++] = sql_column_int64(st, 0);
        cursor->id = sql_column_int64(st, 0);
        cursor->at = sql_column_int64(st, 1);
    }
    int status = rc == SQL_ROW ? STORAGE_OK : rc;
    cursor->done = *n < max;
    sql_reset(st);
    return status;
}

/* Runs a one-column query about guest id (bound as ?1, and span as ?2 when
 * not negative) into *value. */
static int guest_value(const char *sql, int64_t id, int64_t span, int64_t *value)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    if (span >= 0)
        sql_bind_int64(st, 2, span);
    int status = storage_first_int64(st, value, "reading about a guest");
    return status;
}

int storage_guests_unplayed(int64_t made_before, struct storage_sweep_cursor *cursor, int max,
                            int64_t *ids, int *n)
{
    *n = 0;
    struct sql_stmt *st =
        storage_stmt(storage_dialect(SQL_GUESTS_BY_AGE_LITE, SQL_GUESTS_BY_AGE_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, made_before);
    sql_bind_int64(st, 2, cursor->at);
    sql_bind_int64(st, 3, cursor->id);
    sql_bind_int64(st, 4, max);
    int listed = 0;
    int status = list_guests(st, cursor, max, ids, &listed);
    for (int i = 0; i < listed && status == STORAGE_OK; i++) {
        int64_t played = 1;
        status = guest_value(SQL_GUEST_PLAYED, ids[i], -1, &played);
        if (status == STORAGE_OK && played == 0)
            ids[(*n)++] = ids[i];
    }
    return status;
}

int storage_guests_idle(int64_t seen_before, int64_t session_span,
                        struct storage_sweep_cursor *cursor, int max, int64_t *ids, int *n)
{
    *n = 0;
    struct sql_stmt *st = storage_stmt(SQL_GUESTS_BY_ID);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, cursor->id);
    sql_bind_int64(st, 2, max);
    int listed = 0;
    int status = list_guests(st, cursor, max, ids, &listed);
    for (int i = 0; i < listed && status == STORAGE_OK; i++) {
        int64_t seen = 0;
        status = guest_value(SQL_GUEST_SEEN, ids[i], session_span, &seen);
        if (status == STORAGE_NOT_FOUND) {
            status = STORAGE_OK;
            continue;
        }
        if (status == STORAGE_OK && seen <= seen_before)
            ids[(*n)++] = ids[i];
    }
    return status;
}

/* Whether guest ?1 still qualifies, read in the transaction that deletes
 * from it: made at or before ?2 and never played, or last seen (sessions
 * spanning ?2) at or before ?3. PostgreSQL locks its row, so that a
 * sign-up waits for the transaction. */
#define SQL_STILL_UNPLAYED                                                                         \
    "SELECT u.id FROM users u WHERE u.id = ?1 AND u.guest = 1 AND u.created_at <= ?2 AND "         \
    "NOT " SQL_PLAYED
#define SQL_STILL_IDLE                                                                             \
    "SELECT u.id FROM users u WHERE u.id = ?1 AND u.guest = 1 AND " SQL_SEEN " <= ?3"
static const char SQL_STILL_UNPLAYED_LITE[] = SQL_STILL_UNPLAYED;
static const char SQL_STILL_UNPLAYED_PG[] = SQL_STILL_UNPLAYED " FOR UPDATE";
static const char SQL_STILL_IDLE_LITE[] = SQL_STILL_IDLE;
static const char SQL_STILL_IDLE_PG[] = SQL_STILL_IDLE " FOR UPDATE";

static const char SQL_GUEST_SESSIONS_END[] = "DELETE FROM sessions WHERE user_id = ?1";

/* The games a guest's delete would take: its own, and the race games of
 * the rooms it hosts. */
#define SQL_GUEST_GAMES                                                                            \
    "(SELECT id FROM games WHERE user_id = ?1 UNION ALL SELECT g.id FROM rooms r "                 \
    "JOIN games g ON g.room_id = r.id WHERE r.host_id = ?1)"

/* The parts of guest ?1 that may grow, at most ?2 rows of one. SQLite is
 * built without LIMIT on DELETE: the rows are chosen by a subquery. */
static const char SQL_GUEST_SNAPSHOTS_TRIM[] =
    "DELETE FROM snapshots WHERE id IN (SELECT id FROM snapshots WHERE game_id IN " SQL_GUEST_GAMES
    " LIMIT ?2)";
static const char SQL_GUEST_LOGS_TRIM[] =
    "DELETE FROM game_log WHERE (game_id, seq) IN (SELECT game_id, seq FROM game_log "
    "WHERE game_id IN " SQL_GUEST_GAMES " LIMIT ?2)";
static const char SQL_GUEST_SOLUTIONS_TRIM[] =
    "DELETE FROM solutions WHERE id IN (SELECT id FROM solutions WHERE user_id = ?1 LIMIT ?2)";
static const char SQL_GUEST_GAMES_TRIM[] =
    "DELETE FROM games WHERE id IN (SELECT id FROM games WHERE id IN " SQL_GUEST_GAMES " LIMIT ?2)";
static const char SQL_GUEST_ROOMS_TRIM[] =
    "DELETE FROM rooms WHERE id IN (SELECT id FROM rooms WHERE host_id = ?1 LIMIT ?2)";

static const char SQL_GUEST_DELETE[] = "DELETE FROM users WHERE id = ?1 AND guest = 1";

/* Runs a delete of guest id's rows (?1, with limit ?2 when not negative)
 * and adds the rows it deleted to *rows; *n (when not NULL) receives them. */
static int guest_delete(const char *sql, int64_t id, int64_t limit, int64_t *rows, int64_t *n,
                        const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    if (limit >= 0)
        sql_bind_int64(st, 2, limit);
    int status = storage_exec_stmt(st, what);
    int64_t changed = status == STORAGE_OK ? sql_changes(st) : 0;
    *rows += changed;
    if (n != NULL)
        *n = changed;
    return status;
}

/* Deletes at most *allowed rows of a part of guest id (sql), taking them
 * from *allowed. True when the part may hold more: *allowed ran out. */
static int trim_part(const char *sql, int64_t id, int64_t *allowed, int64_t *rows, bool *more,
                     const char *what)
{
    *more = *allowed <= 0;
    if (*more)
        return STORAGE_OK;
    int64_t n = 0;
    int status = guest_delete(sql, id, *allowed, rows, &n, what);
    *allowed -= n;
    *more = status == STORAGE_OK && *allowed <= 0;
    return status;
}

/* Whether guest id still qualifies under rule, locking it on PostgreSQL. */
static int still_qualifies(enum storage_sweep_rule rule, int64_t id, int64_t before,
                           int64_t session_span, bool *yes)
{
    *yes = false;
    bool idle = rule == STORAGE_SWEEP_IDLE;
    struct sql_stmt *st =
        storage_stmt(idle ? storage_dialect(SQL_STILL_IDLE_LITE, SQL_STILL_IDLE_PG)
                          : storage_dialect(SQL_STILL_UNPLAYED_LITE, SQL_STILL_UNPLAYED_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, idle ? session_span : before);
    if (idle)
        sql_bind_int64(st, 3, before);
    int64_t found = 0;
    int status = storage_first_int64(st, &found, "checking a guest to sweep");
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    *yes = status == STORAGE_OK;
    return status;
}

int storage_guest_sweep(int64_t id, enum storage_sweep_rule rule, int64_t before,
                        int64_t session_span, struct storage_sweep_budget *budget, bool *done,
                        int64_t *deleted)
{
    *done = true;
    bool qualifies = false;
    int status = still_qualifies(rule, id, before, session_span, &qualifies);
    if (status != STORAGE_OK || !qualifies)
        return status;
    status = guest_delete(SQL_GUEST_SESSIONS_END, id, -1, &budget->rows, NULL,
                          "ending a swept guest's sessions");
    /* Parts of a game first, then the games, then the rooms, so that no
     * delete cascades to more rows than the budget allows. A guest who
     * never played has no part but its games (SQL_PLAYED): it skips the
     * others' statements. */
    const struct {
        const char *sql;
        int64_t *allowed;
        bool players_only; /* only a guest who played can have it */
        const char *what;
    } parts[] = {
        {SQL_GUEST_SNAPSHOTS_TRIM, &budget->snapshots, true,
         "deleting a swept guest's saved positions"},
        {SQL_GUEST_LOGS_TRIM, &budget->logs, true, "deleting a swept guest's game logs"},
        {SQL_GUEST_SOLUTIONS_TRIM, &budget->solutions, true, "deleting a swept guest's solutions"},
        {SQL_GUEST_GAMES_TRIM, &budget->games, false, "deleting a swept guest's games"},
        {SQL_GUEST_ROOMS_TRIM, &budget->rooms, true, "deleting a swept guest's rooms"},
    };
    bool more = false;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && status == STORAGE_OK && !more; i++) {
        if (parts[i].players_only && rule == STORAGE_SWEEP_UNPLAYED)
            continue;
        status = trim_part(parts[i].sql, id, parts[i].allowed, &budget->rows, &more, parts[i].what);
    }
    if (status != STORAGE_OK || more) {
        *done = false;
        return status;
    }
    int64_t n = 0;
    status = guest_delete(SQL_GUEST_DELETE, id, -1, &budget->rows, &n, "deleting a swept guest");
    if (status == STORAGE_OK)
        *deleted += n;
    return status;
}

#define SQL_SESSIONS_EXPIRED(INDEXED)                                                              \
    "DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions " INDEXED           \
    "WHERE expires_at <= ?1 LIMIT ?2)"
static const char SQL_SESSIONS_EXPIRED_LITE[] = SQL_SESSIONS_EXPIRED("INDEXED BY sessions_expiry ");
static const char SQL_SESSIONS_EXPIRED_PG[] = SQL_SESSIONS_EXPIRED("");

int storage_sessions_expired(int64_t now, int max, int64_t *deleted)
{
    *deleted = 0;
    struct sql_stmt *st =
        storage_stmt(storage_dialect(SQL_SESSIONS_EXPIRED_LITE, SQL_SESSIONS_EXPIRED_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, now);
    sql_bind_int64(st, 2, max);
    int status = storage_exec_stmt(st, "deleting expired sessions");
    if (status == STORAGE_OK)
        *deleted = sql_changes(st);
    return status;
}

static const char SQL_USER_NAME[] = "SELECT coalesce(username, '') FROM users WHERE id = ?";

int storage_user_name(int64_t id, char *name, size_t cap)
{
    return storage_text_by_id(SQL_USER_NAME, id, name, cap, "reading a user");
}
