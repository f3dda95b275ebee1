/* Storage: shared rate limits, by the generic cell rate algorithm. A key's
 * row holds tat, the moment its bucket is empty again; an event at `now`
 * is allowed while tat - now <= (burst - 1) * interval, and moves tat to
 * max(tat, now) + interval. The decision and the move are one upsert, so
 * that two nodes counting the same key at once are serialized by the row,
 * and `now` is the database's clock, the same for every node. */
#include "storage/storage_limits.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>

/* The database's clock in Unix milliseconds: PostgreSQL's now() is the
 * time its statement (here its own transaction) began; SQLite's 'now' is
 * fixed for the length of one statement. */
#define NOW_LITE "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
#define NOW_PG "CAST(extract(epoch FROM now()) * 1000 AS bigint)"

/* ?1 key, ?2 interval, ?3 the allowance, (burst - 1) * interval. A row
 * comes back only when the event was allowed. */
#define TAKE(NOW)                                                                                  \
    "INSERT INTO rate_limits (key, tat) VALUES (?1, " NOW " + ?2) "                                \
    "ON CONFLICT (key) DO UPDATE SET tat = CASE WHEN rate_limits.tat > " NOW                       \
    " THEN rate_limits.tat ELSE " NOW " END + ?2 WHERE rate_limits.tat - " NOW " <= ?3 "           \
    "RETURNING tat"
static const char SQL_TAKE_LITE[] = TAKE(NOW_LITE);
static const char SQL_TAKE_PG[] = TAKE(NOW_PG);

static const char SQL_AHEAD_LITE[] = "SELECT tat - " NOW_LITE " FROM rate_limits WHERE key = ?1";
static const char SQL_AHEAD_PG[] = "SELECT tat - " NOW_PG " FROM rate_limits WHERE key = ?1";

static const char SQL_FORGET[] = "DELETE FROM rate_limits WHERE key = ?1";

static const char SQL_EXPIRED_LITE[] = "DELETE FROM rate_limits WHERE tat <= " NOW_LITE;
static const char SQL_EXPIRED_PG[] = "DELETE FROM rate_limits WHERE tat <= " NOW_PG;

/* ?1 the cap, ?2 the most rows one statement deletes, ?3 how far ahead of
 * now a row's tat says it is locked, and kept. */
#define TRIM(NOW)                                                                                  \
    "DELETE FROM rate_limits WHERE key IN "                                                        \
    "(SELECT key FROM rate_limits ORDER BY tat DESC LIMIT ?2 OFFSET ?1) "                          \
    "AND tat <= " NOW " + ?3"
static const char SQL_TRIM_LITE[] = TRIM(NOW_LITE);
static const char SQL_TRIM_PG[] = TRIM(NOW_PG);
#define TRIM_BATCH 100000

/* The key as stored: cut to STORAGE_LIMIT_KEY_MAX bytes. */
static void bind_key(struct sql_stmt *st, const char *key)
{
    char cut[STORAGE_LIMIT_KEY_MAX + 1];
    snprintf(cut, sizeof cut, "%s", key);
    sql_bind_text(st, 1, cut);
}

/* How far key's tat lies ahead of now, in milliseconds (0 when it has no
 * row, or its row has passed). */
static int ahead_of_now(const char *key, int64_t *ahead)
{
    struct sql_stmt *st = storage_stmt(storage_dialect(SQL_AHEAD_LITE, SQL_AHEAD_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    bind_key(st, key);
    *ahead = 0;
    int status = storage_first_int64(st, ahead, "reading a rate limit");
    if (status == STORAGE_NOT_FOUND)
        status = STORAGE_OK;
    if (*ahead < 0)
        *ahead = 0;
    return status;
}

/* The wait before one more event, from how far tat lies ahead of now. */
static int64_t wait_from(int64_t ahead, int64_t allowance)
{
    return ahead > allowance ? ahead - allowance : 0;
}

int storage_limit_take(const char *key, unsigned burst, int64_t interval_ms, int64_t *wait_ms)
{
    int64_t allowance = (int64_t)(burst > 0 ? burst - 1 : 0) * interval_ms;
    struct sql_stmt *st = storage_stmt(storage_dialect(SQL_TAKE_LITE, SQL_TAKE_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    bind_key(st, key);
    sql_bind_int64(st, 2, interval_ms);
    sql_bind_int64(st, 3, allowance);
    int64_t tat = 0;
    int status = storage_first_int64(st, &tat, "counting a rate limit");
    *wait_ms = 0;
    if (status != STORAGE_NOT_FOUND)
        return status;
    /* Refused: read how long the key must wait. A row swept in between
     * would allow the next event at once; 1 ms says "refused" all the same. */
    int64_t ahead = 0;
    status = ahead_of_now(key, &ahead);
    *wait_ms = wait_from(ahead, allowance);
    if (*wait_ms == 0)
        *wait_ms = 1;
    return status;
}

int storage_limit_check(const char *key, unsigned burst, int64_t interval_ms, int64_t *wait_ms)
{
    int64_t allowance = (int64_t)(burst > 0 ? burst - 1 : 0) * interval_ms;
    int64_t ahead = 0;
    int status = ahead_of_now(key, &ahead);
    *wait_ms = status == STORAGE_OK ? wait_from(ahead, allowance) : 0;
    return status;
}

int storage_limit_forget(const char *key)
{
    struct sql_stmt *st = storage_stmt(SQL_FORGET);
    if (st == NULL)
        return STORAGE_ERROR;
    bind_key(st, key);
    return storage_exec_stmt(st, "forgetting a rate limit");
}

/* Runs a delete of the sweep, adding its rows to *deleted. */
static int sweep_step(struct sql_stmt *st, int64_t *deleted, const char *what)
{
    int status = sql_step(st, what);
    if (status == STORAGE_OK)
        *deleted += sql_changes(st);
    sql_reset(st);
    return status;
}

int storage_limits_sweep(int64_t cap, int64_t hold_ms, int64_t *deleted)
{
    struct sql_stmt *st = storage_stmt(storage_dialect(SQL_EXPIRED_LITE, SQL_EXPIRED_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    int status = sweep_step(st, deleted, "sweeping expired rate limits");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(storage_dialect(SQL_TRIM_LITE, SQL_TRIM_PG));
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, cap);
    sql_bind_int64(st, 2, TRIM_BATCH);
    sql_bind_int64(st, 3, hold_ms);
    return sweep_step(st, deleted, "trimming rate limits to their cap");
}
