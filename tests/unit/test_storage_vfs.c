/* sokod's SQLite VFS (server/storage/storage_vfs.c) gathers a transaction's WAL
 * writes. Checked here: every commit is in the file when COMMIT returns (a
 * process killed right after its last commit loses nothing, and another
 * connection sees each commit at once), transactions larger than the
 * buffer and rolled-back ones leave the database whole, and the writes do
 * reach the system in fewer calls than SQLite makes. */
#include "check.h"
#include "storage/storage_vfs.h"

#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- a VFS under sokod's that counts the writes reaching the WAL file --- */

static sqlite3_vfs counting;
static sqlite3_io_methods counting_methods;
static long wal_write_calls;

struct counted_file {
    sqlite3_file base;
    sqlite3_file *real;
};

#define COUNTED_BYTES ((sizeof(struct counted_file) + 15) & ~(size_t)15)

static int c_close(sqlite3_file *f)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xClose(c->real);
}
static int c_read(sqlite3_file *f, void *out, int n, sqlite3_int64 at)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xRead(c->real, out, n, at);
}
static int c_write(sqlite3_file *f, const void *in, int n, sqlite3_int64 at)
{
    struct counted_file *c = (struct counted_file *)f;
    wal_write_calls++;
    return c->real->pMethods->xWrite(c->real, in, n, at);
}
static int c_truncate(sqlite3_file *f, sqlite3_int64 n)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xTruncate(c->real, n);
}
static int c_sync(sqlite3_file *f, int flags)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xSync(c->real, flags);
}
static int c_size(sqlite3_file *f, sqlite3_int64 *n)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xFileSize(c->real, n);
}
static int c_lock(sqlite3_file *f, int l)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xLock(c->real, l);
}
static int c_unlock(sqlite3_file *f, int l)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xUnlock(c->real, l);
}
static int c_reserved(sqlite3_file *f, int *out)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xCheckReservedLock(c->real, out);
}
static int c_control(sqlite3_file *f, int op, void *arg)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xFileControl(c->real, op, arg);
}
static int c_sector(sqlite3_file *f)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xSectorSize(c->real);
}
static int c_device(sqlite3_file *f)
{
    struct counted_file *c = (struct counted_file *)f;
    return c->real->pMethods->xDeviceCharacteristics(c->real);
}

static int c_open(sqlite3_vfs *self, const char *name, sqlite3_file *f, int flags, int *out)
{
    sqlite3_vfs *system = self->pAppData;
    if (!(flags & SQLITE_OPEN_WAL))
        return system->xOpen(system, name, f, flags, out);
    struct counted_file *c = (struct counted_file *)f;
    c->real = (sqlite3_file *)((char *)f + COUNTED_BYTES);
    int rc = system->xOpen(system, name, c->real, flags, out);
    c->base.pMethods = rc == SQLITE_OK ? &counting_methods : NULL;
    return rc;
}

/* Makes the counting VFS the default, so that sokod's wraps it. */
static void install_counting_vfs(void)
{
    sqlite3_vfs *system = sqlite3_vfs_find(NULL);
    counting = *system;
    counting.zName = "counting";
    counting.pAppData = system;
    counting.szOsFile = (int)COUNTED_BYTES + system->szOsFile;
    counting.xOpen = c_open;
    counting_methods = (sqlite3_io_methods){
        .iVersion = 1,
        .xClose = c_close,
        .xRead = c_read,
        .xWrite = c_write,
        .xTruncate = c_truncate,
        .xSync = c_sync,
        .xFileSize = c_size,
        .xLock = c_lock,
        .xUnlock = c_unlock,
        .xCheckReservedLock = c_reserved,
        .xFileControl = c_control,
        .xSectorSize = c_sector,
        .xDeviceCharacteristics = c_device,
    };
    if (sqlite3_vfs_register(&counting, 1) != SQLITE_OK) {
        fprintf(stderr, "cannot register the counting VFS\n");
        exit(2);
    }
}

/* --- helpers --- */

/* The test's folder and the two databases in it, named in main. */
static char dir[] = "/tmp/sokod-vfs-XXXXXX";
static char killed_db[64], shared_db[64];

static sqlite3 *open_db(const char *path, const char *vfs)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs) != SQLITE_OK) {
        fprintf(stderr, "cannot open %s: %s\n", path, db ? sqlite3_errmsg(db) : "?");
        exit(2);
    }
    sqlite3_busy_timeout(db, 5000);
    return db;
}

static int exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
    }
    return rc;
}

/* The value row `id` holds: `size` bytes made from the id. */
static void fill(unsigned char *v, int size, int id)
{
    for (int i = 0; i < size; i++)
        v[i] = (unsigned char)(id * 31 + i * 7);
}

/* Transaction t inserts rows 100*t .. 100*t + rows_of(t) - 1; every tenth
 * one is far larger than the VFS's buffer. */
static int rows_of(int t)
{
    return t % 10 == 9 ? 90 : 1 + t % 5;
}
static int size_of(int id)
{
    return 600 + (id * 37) % 3000;
}

static int insert(sqlite3 *db, int id)
{
    static unsigned char v[4096];
    int size = size_of(id);
    fill(v, size, id);
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, "INSERT INTO t (id, v) VALUES (?1, ?2)", -1, &st, NULL);
    sqlite3_bind_int(st, 1, id);
    sqlite3_bind_blob(st, 2, v, size, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Checks that the database holds exactly the rows of transactions [0, n),
 * each with its value; returns the rows seen. */
static int verify(sqlite3 *db, int n, const char *what)
{
    int seen = 0;
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, "SELECT id, v FROM t ORDER BY id", -1, &st, NULL);
    static unsigned char want[4096];
    while (sqlite3_step(st) == SQLITE_ROW) {
        int id = sqlite3_column_int(st, 0);
        int t = id / 100, k = id % 100;
        CHECK_MSG(t < n && k < rows_of(t), "%s: row %d was never committed", what, id);
        int size = size_of(id);
        fill(want, size, id);
        CHECK_MSG(sqlite3_column_bytes(st, 1) == size &&
                      memcmp(sqlite3_column_blob(st, 1), want, (size_t)size) == 0,
                  "%s: row %d holds other bytes", what, id);
        seen++;
    }
    sqlite3_finalize(st);
    int expected = 0;
    for (int t = 0; t < n; t++)
        expected += rows_of(t);
    CHECK_MSG(seen == expected, "%s: %d rows, expected %d", what, seen, expected);
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL);
    CHECK_MSG(sqlite3_step(st) == SQLITE_ROW &&
                  strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0,
              "%s: integrity_check says %s", what, sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return seen;
}

/* --- the checks --- */

/* A child commits transactions through sokod's VFS, tells the parent after
 * each COMMIT returns, and is killed right after the last one without
 * closing anything. Every acknowledged transaction must be there. */
static void killed_after_commit(void)
{
    const char *path = killed_db;
    enum { TRANSACTIONS = 60 };
    int acks[2];
    if (pipe(acks) != 0) {
        perror("pipe");
        exit(2);
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(acks[0]);
        sqlite3 *db = open_db(path, storage_vfs());
        if (exec(db, "PRAGMA journal_mode=WAL") != SQLITE_OK ||
            exec(db, "PRAGMA synchronous=NORMAL") != SQLITE_OK ||
            exec(db, "PRAGMA wal_autocheckpoint=0") != SQLITE_OK ||
            /* A small page cache: large transactions spill pages to the
             * WAL before their commit. */
            exec(db, "PRAGMA cache_size=8") != SQLITE_OK ||
            exec(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)") != SQLITE_OK)
            _exit(3);
        for (int t = 0; t < TRANSACTIONS; t++) {
            if (exec(db, "BEGIN IMMEDIATE") != SQLITE_OK)
                _exit(4);
            for (int k = 0; k < rows_of(t); k++)
                if (insert(db, t * 100 + k) != SQLITE_OK)
                    _exit(5);
            /* Rewrite the pages of a large transaction after its first
             * ones went to the WAL: SQLite then overwrites frames in place
             * and rewrites their checksums at the commit. */
            if (rows_of(t) > 50 &&
                exec(db, "UPDATE t SET v = v || x'' WHERE id % 2 = 0") != SQLITE_OK)
                _exit(5);
            if (exec(db, "COMMIT") != SQLITE_OK)
                _exit(6);
            unsigned char ack = (unsigned char)t;
            if (write(acks[1], &ack, 1) != 1)
                _exit(7);
        }
        raise(SIGKILL);
        _exit(8);
    }
    close(acks[1]);
    int acknowledged = 0;
    unsigned char ack;
    while (read(acks[0], &ack, 1) == 1)
        acknowledged++;
    close(acks[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
              "the writer should die by SIGKILL after its last commit (status %d)", status);
    CHECK_MSG(acknowledged == TRANSACTIONS, "the writer acknowledged %d of %d transactions",
              acknowledged, TRANSACTIONS);
    /* Read with SQLite's own VFS, as the next start of the server would. */
    sqlite3 *db = open_db(path, NULL);
    int rows = verify(db, acknowledged, "after kill -9");
    printf("killed after commit: %d transactions acknowledged, %d rows found\n", acknowledged,
           rows);
    sqlite3_close(db);
}

/* One process, two connections: the reader, on the system's VFS, sees each
 * commit of the writer as soon as COMMIT returns; a rolled-back
 * transaction larger than the buffer leaves no trace; and the writer's WAL
 * writes reach the system in far fewer calls than SQLite makes. */
static void reader_sees_each_commit(void)
{
    const char *path = shared_db;
    sqlite3 *w = open_db(path, storage_vfs());
    if (exec(w, "PRAGMA journal_mode=WAL") != SQLITE_OK ||
        exec(w, "PRAGMA wal_autocheckpoint=0") != SQLITE_OK ||
        exec(w, "CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)") != SQLITE_OK) {
        check_fail(__FILE__, __LINE__, "the writer's database cannot be set up");
        return;
    }
    sqlite3 *r = open_db(path, NULL);
    long frames = 0;
    long before = wal_write_calls;
    enum { TRANSACTIONS = 40 };
    for (int t = 0; t < TRANSACTIONS; t++) {
        exec(w, "BEGIN IMMEDIATE");
        for (int k = 0; k < rows_of(t); k++)
            insert(w, t * 100 + k);
        CHECK_MSG(exec(w, "COMMIT") == SQLITE_OK, "commit %d", t);
        char what[48];
        snprintf(what, sizeof what, "the reader after commit %d", t);
        verify(r, t + 1, what);
        if (t == 20) {
            /* A large transaction that is rolled back. */
            exec(w, "BEGIN IMMEDIATE");
            for (int k = 0; k < 90; k++)
                insert(w, 9000 + k);
            exec(w, "ROLLBACK");
            verify(r, t + 1, "the reader after a rollback");
        }
    }
    int log = 0;
    sqlite3_wal_checkpoint_v2(w, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, NULL);
    frames = log;
    long calls = wal_write_calls - before;
    /* Without the buffer, SQLite writes each frame's header and page apart:
     * two calls per frame. */
    printf("WAL: %ld frames written in %ld calls (%ld without the buffer)\n", frames, calls,
           2 * frames);
    CHECK_MSG(frames > 100, "the test should write many frames (%ld)", frames);
    CHECK_MSG(calls * 4 < 2 * frames, "%ld calls for %ld frames: the writes are not gathered",
              calls, frames);
    sqlite3_close(r);
    CHECK_MSG(sqlite3_close(w) == SQLITE_OK, "closing the writer");
    sqlite3 *again = open_db(path, NULL);
    verify(again, TRANSACTIONS, "after closing");
    sqlite3_close(again);
}

int main(void)
{
    install_counting_vfs();
    if (storage_vfs() == NULL) {
        fprintf(stderr, "storage_vfs: not registered\n");
        return 2;
    }
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(killed_db, sizeof killed_db, "%s/killed.db", dir);
    snprintf(shared_db, sizeof shared_db, "%s/shared.db", dir);
    RUN(killed_after_commit);
    RUN(reader_sees_each_commit);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_finish();
}
