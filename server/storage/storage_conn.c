/* Storage: per-thread connections and their statement caches. */
#include "storage/storage_conn.h"

#include "storage/sql_driver.h"
#include "storage/storage_codes.h"
#include "storage/storage_metrics.h"
#include "storage/sql_sqlite.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define STMT_SLOTS 128

struct stmt_slot {
    const char *sql;
    struct sql_stmt *stmt;
};

struct connection {
    struct sql_conn *conn;
    int nslots;
    struct stmt_slot slot[STMT_SLOTS];
};

/* Long enough for a file path or a URI with its parameters. */
static char db_target[PATH_MAX];
static char db_name[PATH_MAX];
static const struct sql_driver *driver = &sql_sqlite_driver;
static pthread_key_t conn_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static atomic_int open_connections;
static atomic_uint max_connections; /* 0: no bound */

static void connection_close(void *p)
{
    struct connection *c = p;
    if (c == NULL)
        return;
    for (int i = 0; i < c->nslots; i++)
        driver->finalize(c->slot[i].stmt);
    driver->close(c->conn);
    free(c);
    atomic_fetch_sub(&open_connections, 1);
}

static void make_key(void)
{
    pthread_key_create(&conn_key, connection_close);
}

bool storage_conn_configure(const char *target, int synchronous)
{
    pthread_once(&key_once, make_key);
    int n = snprintf(db_target, sizeof db_target, "%s", target);
    if (n < 0 || (size_t)n >= sizeof db_target)
        return false;
    sql_redact(target, db_name, sizeof db_name);
    driver = sql_driver_for(target);
    sql_use(driver);
    sql_sqlite_configure(synchronous);
    return true;
}

const char *storage_conn_target(void)
{
    return db_target;
}

const char *storage_conn_name(void)
{
    return db_name;
}

void storage_conn_limit(unsigned n)
{
    atomic_store(&max_connections, n);
}

/* Counts a connection about to open; false when the bound is reached. */
static bool reserve(void)
{
    unsigned max = atomic_load(&max_connections);
    int n = atomic_fetch_add(&open_connections, 1);
    if (max == 0 || (unsigned)n < max)
        return true;
    atomic_fetch_sub(&open_connections, 1);
    fprintf(stderr, "sokod: database: all %u connections are in use (--db-connections)\n", max);
    return false;
}

static struct connection *current(void)
{
    pthread_once(&key_once, make_key);
    struct connection *c = pthread_getspecific(conn_key);
    if (c != NULL)
        return c;
    if (!reserve())
        return NULL;
    struct sql_conn *conn = driver->open(db_target);
    if (conn == NULL) {
        atomic_fetch_sub(&open_connections, 1);
        return NULL;
    }
    c = calloc(1, sizeof *c);
    if (c == NULL) {
        driver->close(conn);
        atomic_fetch_sub(&open_connections, 1);
        return NULL;
    }
    c->conn = conn;
    pthread_setspecific(conn_key, c);
    return c;
}

struct sql_conn *storage_conn(void)
{
    struct connection *c = current();
    return c != NULL ? c->conn : NULL;
}

struct sql_stmt *storage_stmt(const char *sql)
{
    struct connection *c = current();
    if (c == NULL)
        return NULL;
    for (int i = 0; i < c->nslots; i++) {
        if (c->slot[i].sql == sql) {
            driver->reset(c->slot[i].stmt);
            return c->slot[i].stmt;
        }
    }
    if (c->nslots == STMT_SLOTS) {
        /* Never expected: every statement is a constant of the storage files. */
        fprintf(stderr, "sokod: database: statement cache full\n");
        return NULL;
    }
    struct sql_stmt *st = driver->prepare(c->conn, sql);
    if (st == NULL)
        return NULL;
    c->slot[c->nslots].sql = sql;
    c->slot[c->nslots].stmt = st;
    c->nslots++;
    return st;
}

int storage_conn_exec(const char *script, const char *what)
{
    struct connection *c = current();
    if (c == NULL)
        return STORAGE_ERROR;
    return storage_metrics_note(driver->exec(c->conn, script, what));
}

bool storage_conn_in_transaction(void)
{
    pthread_once(&key_once, make_key);
    struct connection *c = pthread_getspecific(conn_key);
    return c != NULL && driver->in_transaction(c->conn);
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
