/* What a database driver gives sql_driver.c (sql.h's API) and storage_conn.c
 * (connections): one table of functions per backend. A driver's
 * connection and statement structs start with the header structs below,
 * so that sql_driver.c finds the driver of any statement. For the storage
 * wing's sql*.c and storage_conn.c only. */
#ifndef SOKOD_STORAGE_SQL_DRIVER_H
#define SOKOD_STORAGE_SQL_DRIVER_H

#include "storage/sql.h"

struct sql_driver;

/* The first member of each driver's connection. */
struct sql_conn {
    const struct sql_driver *driver;
};

/* The first member of each driver's statement. */
struct sql_stmt {
    const struct sql_driver *driver;
};

struct sql_driver {
    enum sql_backend backend;
    /* Opens a connection to target (a file path or a URI), configured for
     * sokod; NULL on failure, logged without the target's password. */
    struct sql_conn *(*open)(const char *target);
    void (*close)(struct sql_conn *c);
    /* Prepares sql (with `?` placeholders); NULL on failure, logged. */
    struct sql_stmt *(*prepare)(struct sql_conn *c, const char *sql);
    void (*finalize)(struct sql_stmt *st);
    /* Runs a script of statements without parameters or rows: STORAGE_OK
     * or the error's code, logged with what. */
    int (*exec)(struct sql_conn *c, const char *script, const char *what);
    /* Whether a transaction is open on the connection. */
    bool (*in_transaction)(struct sql_conn *c);

    void (*bind_int64)(struct sql_stmt *st, int idx, int64_t value);
    void (*bind_text)(struct sql_stmt *st, int idx, const char *text);
    void (*bind_blob)(struct sql_stmt *st, int idx, const void *data, size_t len);
    void (*bind_null)(struct sql_stmt *st, int idx);
    int (*step)(struct sql_stmt *st, const char *what);
    /* sql_send's work; NULL runs the statement at once (step and reset). */
    int (*send)(struct sql_stmt *st, const char *what);
    int64_t (*column_int64)(struct sql_stmt *st, int col);
    const char *(*column_text)(struct sql_stmt *st, int col);
    const void *(*column_blob)(struct sql_stmt *st, int col, size_t *len);
    bool (*column_is_null)(struct sql_stmt *st, int col);
    int64_t (*changes)(struct sql_stmt *st);
    void (*reset)(struct sql_stmt *st);
    bool (*busy)(struct sql_stmt *st);
};

extern const struct sql_driver sql_sqlite_driver;
extern const struct sql_driver sql_pg_driver;

/* The driver for a --db value: PostgreSQL for a postgresql:// or
 * postgres:// URI, SQLite for anything else (a file path). */
const struct sql_driver *sql_driver_for(const char *target);

/* Copies target into out (cap bytes, cut short to fit) with a URI's
 * password, in its user part or its query, replaced by "***": what
 * messages may print. */
void sql_redact(const char *target, char *out, size_t cap);

/* Makes d the process's driver, the one sql_backend() names. */
void sql_use(const struct sql_driver *d);

#endif
