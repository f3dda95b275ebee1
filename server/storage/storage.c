/* Storage: the database's setup and shutdown, and transactions. */
#include "storage/storage.h"

#include "base/clock.h"
#include "storage/sql_sqlite.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"
#include "storage/storage_wal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Writers of this process queue here rather than in SQLite's busy handler,
 * which sleeps in steps of milliseconds; BEGIN IMMEDIATE then only waits
 * for other processes. */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
/* Whether the calling thread (and so its connection) holds write_lock. */
static _Thread_local bool writing;

/* Creates every missing folder on the way to the file `path`. */
static int make_parent_dirs(const char *path)
{
    char dir[PATH_MAX];
    int n = snprintf(dir, sizeof dir, "%s", path);
    if (n < 0 || (size_t)n >= sizeof dir)
        return -1;
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p != '\0'; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

int storage_init(const char *path, int synchronous)
{
    if (!storage_conn_configure(path, synchronous)) {
        fprintf(stderr, "sokod: database path too long: %s\n", path);
        return STORAGE_ERROR;
    }
    if (sql_backend() == SQL_SQLITE && make_parent_dirs(path) != 0) {
        fprintf(stderr, "sokod: cannot create the folder of %s: %s\n", path, strerror(errno));
        return STORAGE_ERROR;
    }
    return STORAGE_OK;
}

/* SQLite's IMMEDIATE takes the write lock at once; PostgreSQL locks rows
 * as it writes them, and its transactions read committed rows. */
static const char SQL_BEGIN[] = "BEGIN IMMEDIATE";
static const char SQL_BEGIN_PG[] = "BEGIN";
static const char SQL_COMMIT[] = "COMMIT";
static const char SQL_ROLLBACK[] = "ROLLBACK";

/* Takes write_lock, waiting no later than deadline_ms. */
static bool lock_writers_until(int64_t deadline_ms)
{
    struct timespec until = {
        .tv_sec = (time_t)(deadline_ms / 1000),
        .tv_nsec = (long)(deadline_ms % 1000) * 1000000,
    };
    return pthread_mutex_clocklock(&write_lock, CLOCK_MONOTONIC, &until) == 0;
}

int storage_begin_until(int64_t deadline_ms)
{
    struct sql_conn *conn = storage_conn();
    if (conn == NULL)
        return STORAGE_ERROR;
    if (!writing) {
        /* Another writer of this process may be waiting out a lock held by
         * another process: that wait counts against this one's deadline. */
        if (!lock_writers_until(deadline_ms)) {
            fprintf(stderr, "sokod: database busy: waiting for another writer\n");
            return STORAGE_BUSY;
        }
        writing = true;
    }
    int status;
    sqlite3 *db = sql_sqlite_handle(conn);
    if (db != NULL) {
        int64_t left = deadline_ms - clock_mono_ms();
        /* 0 turns SQLite's busy handler off: a lock held elsewhere answers at once. */
        sqlite3_busy_timeout(db, left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left);
        status = storage_exec_stmt(storage_stmt(SQL_BEGIN), "BEGIN IMMEDIATE");
        sqlite3_busy_timeout(db, STORAGE_BUSY_MS);
    } else if (storage_writes_deferred()) {
        /* It goes out with the transaction's first read. */
        struct sql_stmt *st = storage_stmt(SQL_BEGIN_PG);
        status = st != NULL ? sql_send(st, "BEGIN") : STORAGE_ERROR;
    } else {
        status = storage_exec_stmt(storage_stmt(SQL_BEGIN_PG), "BEGIN");
    }
    if (status != STORAGE_OK) {
        writing = false;
        pthread_mutex_unlock(&write_lock);
    }
    return status;
}

int storage_begin(void)
{
    return storage_begin_until(clock_mono_ms() + STORAGE_BUSY_MS);
}

static void end_write(void)
{
    if (writing) {
        writing = false;
        pthread_mutex_unlock(&write_lock);
    }
}

int storage_commit(void)
{
    int status = storage_exec_stmt(storage_stmt(SQL_COMMIT), "COMMIT");
    if (status != STORAGE_OK)
        storage_rollback();
    else
        storage_wal_tend(); /* still holding the write lock */
    end_write();
    return status;
}

void storage_rollback(void)
{
    if (storage_conn_in_transaction())
        storage_exec_stmt(storage_stmt(SQL_ROLLBACK), "ROLLBACK");
    end_write();
}

/* For tests only: SOKOD_TEST_CONFLICTS=1 (storage_test_conflicts) makes
 * every other transaction each thread ends with storage_finish lose a
 * conflict, as a serialization failure would undo it. */
static atomic_bool conflicts;
static _Thread_local bool conflict_next = true;

void storage_test_conflicts(void)
{
    const char *v = getenv("SOKOD_TEST_CONFLICTS");
    if (v == NULL || strcmp(v, "1") != 0)
        return;
    atomic_store(&conflicts, true);
    fprintf(stderr, "sokod: every other transaction ends in a conflict (SOKOD_TEST_CONFLICTS)\n");
}

int storage_finish(int status)
{
    if (status == STORAGE_OK && atomic_load_explicit(&conflicts, memory_order_relaxed)) {
        conflict_next = !conflict_next;
        if (!conflict_next)
            status = STORAGE_RETRY;
    }
    if (status != STORAGE_OK) {
        storage_rollback();
        return status;
    }
    return storage_commit();
}

bool storage_again(int status, unsigned *runs)
{
    ++*runs;
    if (status != STORAGE_RETRY || *runs > STORAGE_RETRIES)
        return false;
    storage_retry_pause(*runs);
    return true;
}

int storage_transaction(int (*body)(void *arg), void *arg)
{
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = body(arg);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    return status;
}

void storage_defer_writes(bool on)
{
    storage_set_writes_deferred(on);
}

void storage_retry_pause(unsigned runs)
{
    unsigned shift = runs < 6 ? runs : 6;
    uint64_t span_us = 1000u << shift;
    /* Jitter from the clock's low bits, mixed: no state to share. */
    uint64_t mix = (clock_mono_us() * 0x9E3779B97F4A7C15ull) >> 32;
    uint64_t wait_us = span_us / 2 + mix % (span_us / 2);
    struct timespec t = {.tv_sec = 0, .tv_nsec = (long)(wait_us * 1000u)};
    nanosleep(&t, NULL);
}

static const char SQL_SAVEPOINT[] = "SAVEPOINT part";
static const char SQL_RELEASE[] = "RELEASE part";
static const char SQL_UNDO_TO[] = "ROLLBACK TO part";

/* Runs a statement whose answer may wait (sql_send): PostgreSQL's
 * savepoints then cost no round trip of their own. */
static int send_stmt(const char *sql, const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    return st != NULL ? sql_send(st, what) : STORAGE_ERROR;
}

int storage_savepoint(void)
{
    return send_stmt(SQL_SAVEPOINT, "SAVEPOINT");
}

int storage_release_savepoint(void)
{
    return send_stmt(SQL_RELEASE, "RELEASE");
}

int storage_undo_to_savepoint(void)
{
    int status = storage_exec_stmt(storage_stmt(SQL_UNDO_TO), "ROLLBACK TO");
    if (status == STORAGE_OK)
        status = storage_release_savepoint();
    return status;
}

uint64_t storage_round_trips(void)
{
    return sql_round_trips();
}

bool storage_is_server(void)
{
    return sql_backend() == SQL_POSTGRES;
}

void storage_set_max_connections(unsigned n)
{
    storage_conn_limit(n);
}

/* A measure whose round trip took longer says little about the clock. */
#define CLOCK_ROUND_TRIP_US 50000

static const char SQL_DATABASE_CLOCK[] =
    "SELECT CAST(extract(epoch FROM clock_timestamp()) * 1000000 AS bigint)";

int storage_follow_clock(void)
{
    if (sql_backend() != SQL_POSTGRES)
        return STORAGE_NOT_FOUND;
    struct sql_stmt *st = storage_stmt(SQL_DATABASE_CLOCK);
    if (st == NULL)
        return STORAGE_ERROR;
    int64_t before = clock_system_us();
    int64_t database = 0;
    int status = storage_first_int64(st, &database, "reading the database's clock");
    int64_t after = clock_system_us();
    if (status != STORAGE_OK)
        return status;
    if (after - before > CLOCK_ROUND_TRIP_US)
        return STORAGE_BUSY;
    clock_follow(database - (before + after) / 2);
    return STORAGE_OK;
}

const char *storage_name(void)
{
    return storage_conn_name();
}

void storage_shutdown(void)
{
    storage_conn_close();
}
