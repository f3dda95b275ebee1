/* Storage: per-thread SQLite connections, the statement cache, transactions. */
#include "base/clock.h"
#include "storage/storage_internal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define STMT_SLOTS 96

struct stmt_slot {
    const char *sql;
    sqlite3_stmt *stmt;
};

struct connection {
    sqlite3 *db;
    bool writing; /* holds write_lock */
    int nslots;
    struct stmt_slot slot[STMT_SLOTS];
};

static char db_path[PATH_MAX];
static int db_synchronous = 1;
static pthread_key_t conn_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static atomic_int open_connections;

/* Writers of this process queue here rather than in SQLite's busy handler,
 * which sleeps in steps of milliseconds; BEGIN IMMEDIATE then only waits
 * for other processes. */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

static void connection_close(void *p)
{
    struct connection *c = p;
    if (c == NULL)
        return;
    for (int i = 0; i < c->nslots; i++)
        sqlite3_finalize(c->slot[i].stmt);
    if (sqlite3_close(c->db) != SQLITE_OK)
        fprintf(stderr, "sokod: database: closing: %s\n", sqlite3_errmsg(c->db));
    free(c);
    atomic_fetch_sub(&open_connections, 1);
}

static void make_key(void)
{
    pthread_key_create(&conn_key, connection_close);
}

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
    pthread_once(&key_once, make_key);
    int n = snprintf(db_path, sizeof db_path, "%s", path);
    if (n < 0 || (size_t)n >= sizeof db_path) {
        fprintf(stderr, "sokod: database path too long: %s\n", path);
        return STORAGE_ERROR;
    }
    db_synchronous = synchronous;
    if (make_parent_dirs(path) != 0) {
        fprintf(stderr, "sokod: cannot create the folder of %s: %s\n", path, strerror(errno));
        return STORAGE_ERROR;
    }
    return STORAGE_OK;
}

static int exec_sql(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "sokod: database: %s: %s\n", sql, msg != NULL ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
    }
    return rc;
}

static struct connection *connection_open(void)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(db_path, &db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             storage_vfs());
    if (rc != SQLITE_OK) {
        fprintf(stderr, "sokod: cannot open database %s: %s\n", db_path,
                db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, STORAGE_BUSY_MS);
    sqlite3_extended_result_codes(db, 1);
    const char *sync =
        db_synchronous == 2 ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL";
    if (exec_sql(db, "PRAGMA journal_mode=WAL") != SQLITE_OK || exec_sql(db, sync) != SQLITE_OK ||
        exec_sql(db, "PRAGMA foreign_keys=ON") != SQLITE_OK ||
        (storage_wal_background() && exec_sql(db, "PRAGMA wal_autocheckpoint=0") != SQLITE_OK)) {
        sqlite3_close(db);
        return NULL;
    }
    struct connection *c = calloc(1, sizeof *c);
    if (c == NULL) {
        sqlite3_close(db);
        return NULL;
    }
    c->db = db;
    if (storage_wal_background())
        storage_wal_watch(db);
    atomic_fetch_add(&open_connections, 1);
    return c;
}

static struct connection *current(void)
{
    pthread_once(&key_once, make_key);
    struct connection *c = pthread_getspecific(conn_key);
    if (c != NULL)
        return c;
    c = connection_open();
    if (c != NULL)
        pthread_setspecific(conn_key, c);
    return c;
}

sqlite3 *storage_db(void)
{
    struct connection *c = current();
    return c != NULL ? c->db : NULL;
}

sqlite3_stmt *storage_stmt(const char *sql)
{
    struct connection *c = current();
    if (c == NULL)
        return NULL;
    for (int i = 0; i < c->nslots; i++) {
        if (c->slot[i].sql == sql) {
            sqlite3_reset(c->slot[i].stmt);
            sqlite3_clear_bindings(c->slot[i].stmt);
            return c->slot[i].stmt;
        }
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "sokod: database: preparing %s: %s\n", sql, sqlite3_errmsg(c->db));
        return NULL;
    }
    if (c->nslots == STMT_SLOTS) {
        /* Never expected: every statement is a constant of the storage files. */
        fprintf(stderr, "sokod: database: statement cache full\n");
        sqlite3_finalize(st);
        return NULL;
    }
    c->slot[c->nslots].sql = sql;
    c->slot[c->nslots].stmt = st;
    c->nslots++;
    return st;
}

int storage_status(int rc, const char *what)
{
    switch (rc & 0xFF) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
        return STORAGE_OK;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        fprintf(stderr, "sokod: database busy: %s\n", what);
        return STORAGE_BUSY;
    case SQLITE_FULL:
        fprintf(stderr, "sokod: database: disk full: %s\n", what);
        return STORAGE_FULL;
    case SQLITE_IOERR:
        if (storage_db() != NULL && sqlite3_system_errno(storage_db()) == ENOSPC) {
            fprintf(stderr, "sokod: database: disk full: %s\n", what);
            return STORAGE_FULL;
        }
        break;
    case SQLITE_CONSTRAINT:
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            return STORAGE_CONFLICT;
        break;
    default:
        break;
    }
    sqlite3 *db = storage_db();
    fprintf(stderr, "sokod: database: %s: %s\n", what,
            db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    return STORAGE_ERROR;
}

int storage_exec_stmt(sqlite3_stmt *st, const char *what)
{
    if (st == NULL)
        return STORAGE_ERROR;
    int rc = sqlite3_step(st);
    int status = storage_status(rc, what);
    sqlite3_reset(st);
    return status;
}

int storage_bind_text(sqlite3_stmt *st, int idx, const char *text)
{
    return sqlite3_bind_text(st, idx, text != NULL ? text : "", -1, SQLITE_TRANSIENT);
}

const char *storage_column_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t != NULL ? (const char *)t : "";
}

static const char SQL_BEGIN[] = "BEGIN IMMEDIATE";
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
    struct connection *c = current();
    if (c == NULL)
        return STORAGE_ERROR;
    if (!c->writing) {
        /* Another writer of this process may be waiting out a lock held by
         * another process: that wait counts against this one's deadline. */
        if (!lock_writers_until(deadline_ms)) {
            fprintf(stderr, "sokod: database busy: waiting for another writer\n");
            return STORAGE_BUSY;
        }
        c->writing = true;
    }
    int64_t left = deadline_ms - clock_mono_ms();
    /* 0 turns SQLite's busy handler off: a lock held elsewhere answers at once. */
    sqlite3_busy_timeout(c->db, left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left);
    int status = storage_exec_stmt(storage_stmt(SQL_BEGIN), "BEGIN IMMEDIATE");
    sqlite3_busy_timeout(c->db, STORAGE_BUSY_MS);
    if (status != STORAGE_OK) {
        c->writing = false;
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
    struct connection *c = current();
    if (c != NULL && c->writing) {
        c->writing = false;
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
    sqlite3 *db = storage_db();
    if (db != NULL && !sqlite3_get_autocommit(db))
        storage_exec_stmt(storage_stmt(SQL_ROLLBACK), "ROLLBACK");
    end_write();
}

static const char SQL_SAVEPOINT[] = "SAVEPOINT part";
static const char SQL_RELEASE[] = "RELEASE part";
static const char SQL_UNDO_TO[] = "ROLLBACK TO part";

int storage_savepoint(void)
{
    return storage_exec_stmt(storage_stmt(SQL_SAVEPOINT), "SAVEPOINT");
}

int storage_release_savepoint(void)
{
    return storage_exec_stmt(storage_stmt(SQL_RELEASE), "RELEASE");
}

int storage_undo_to_savepoint(void)
{
    int status = storage_exec_stmt(storage_stmt(SQL_UNDO_TO), "ROLLBACK TO");
    if (status == STORAGE_OK)
        status = storage_release_savepoint();
    return status;
}

void storage_shutdown(void)
{
    pthread_once(&key_once, make_key);
    struct connection *c = pthread_getspecific(conn_key);
    if (c != NULL) {
        pthread_setspecific(conn_key, NULL);
        connection_close(c);
    }
    int left = atomic_load(&open_connections);
    if (left != 0)
        fprintf(stderr, "sokod: %d database connection(s) still open at shutdown\n", left);
}
