/* Storage: per-thread SQLite connections and their statement caches. */
#include "storage/storage_conn.h"

#include "storage/storage_codes.h"
#include "storage/storage_vfs.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define STMT_SLOTS 96

struct stmt_slot {
    const char *sql;
    sqlite3_stmt *stmt;
};

struct connection {
    sqlite3 *db;
    int nslots;
    struct stmt_slot slot[STMT_SLOTS];
};

static char db_path[PATH_MAX];
static int db_synchronous = 1;
static pthread_key_t conn_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static atomic_int open_connections;
/* Set while a background checkpointer runs (storage_wal.c). */
static _Atomic(storage_wal_hook *) wal_hook;

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

bool storage_conn_configure(const char *path, int synchronous)
{
    pthread_once(&key_once, make_key);
    int n = snprintf(db_path, sizeof db_path, "%s", path);
    if (n < 0 || (size_t)n >= sizeof db_path)
        return false;
    db_synchronous = synchronous;
    return true;
}

void storage_conn_watch_wal(storage_wal_hook *hook)
{
    atomic_store(&wal_hook, hook);
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
    storage_wal_hook *hook = atomic_load(&wal_hook);
    if (exec_sql(db, "PRAGMA journal_mode=WAL") != SQLITE_OK || exec_sql(db, sync) != SQLITE_OK ||
        exec_sql(db, "PRAGMA foreign_keys=ON") != SQLITE_OK ||
        (hook != NULL && exec_sql(db, "PRAGMA wal_autocheckpoint=0") != SQLITE_OK)) {
        sqlite3_close(db);
        return NULL;
    }
    struct connection *c = calloc(1, sizeof *c);
    if (c == NULL) {
        sqlite3_close(db);
        return NULL;
    }
    c->db = db;
    if (hook != NULL)
        sqlite3_wal_hook(db, hook, NULL);
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

void storage_conn_close(void)
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
