/* The storage wing's plumbing, on its own with SQLite: storage_each_row
 * steps a statement through its rows with the codes the listings promise
 * (none found, stopped, an error that ends the rows), storage_first_row
 * gives a lookup's one row with the same codes, and a connection opened
 * while a WAL hook is set leaves checkpoints to its owner and
 * reports each commit, while one opened after the hook is cleared does
 * neither. */
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* --- storage_each_row --------------------------------------------------------------------- */

#define SEEN_MAX 8

struct seen {
    int64_t x[SEEN_MAX];
    int n;
    int64_t stop_at; /* the value after which the callback stops; 0: never */
};

/* The caller's callback, as a listing's would be. */
static int collect(void *arg, int64_t x)
{
    struct seen *s = arg;
    if (s->n < SEEN_MAX)
        s->x[s->n++] = x;
    return x == s->stop_at;
}

static int read_x(sqlite3_stmt *st, void *fn, void *arg)
{
    return ((int (*)(void *, int64_t))fn)(arg, sqlite3_column_int64(st, 0));
}

static int rows(const char *sql, struct seen *s)
{
    sqlite3_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_each_row(st, read_x, (void *)collect, s, "the test's rows");
    CHECK(!sqlite3_stmt_busy(st), "%s: the statement was left running", sql);
    return status;
}

static const char SQL_ALL[] = "SELECT x FROM t";
static const char SQL_NONE[] = "SELECT x FROM t WHERE x > 10";
/* Rows come in rowid order, computed one by one: the second one fails
 * (abs of the smallest integer overflows). */
static const char SQL_FAILS_SECOND[] =
    "SELECT CASE WHEN x < 2 THEN x ELSE abs(-9223372036854775807 - 1) END FROM t";

static void each_row_gives_every_row_in_order(void)
{
    struct seen s = {0};
    int status = rows(SQL_ALL, &s);
    CHECK(status == STORAGE_OK, "all rows: status %d, want STORAGE_OK", status);
    CHECK(s.n == 3 && s.x[0] == 1 && s.x[1] == 2 && s.x[2] == 3,
          "all rows: saw %d rows (%lld, %lld, %lld), want 1, 2, 3", s.n, (long long)s.x[0],
          (long long)s.x[1], (long long)s.x[2]);
}

static void each_row_without_rows_is_not_found(void)
{
    struct seen s = {0};
    int status = rows(SQL_NONE, &s);
    CHECK(status == STORAGE_NOT_FOUND, "no rows: status %d, want STORAGE_NOT_FOUND", status);
    CHECK(s.n == 0, "no rows: the callback ran %d times", s.n);
}

static void each_row_stops_when_the_callback_asks(void)
{
    struct seen s = {.stop_at = 2};
    int status = rows(SQL_ALL, &s);
    CHECK(status == STORAGE_STOP, "stopped: status %d, want STORAGE_STOP", status);
    CHECK(s.n == 2, "stopped at the second row: saw %d rows", s.n);
    /* Reset, the statement gives its rows again from the first. */
    struct seen again = {0};
    CHECK(rows(SQL_ALL, &again) == STORAGE_OK && again.n == 3 && again.x[0] == 1,
          "after a stop: saw %d rows, first %lld", again.n, (long long)again.x[0]);
}

static void each_row_reports_an_error_between_rows(void)
{
    struct seen s = {0};
    int status = rows(SQL_FAILS_SECOND, &s);
    CHECK(status == STORAGE_ERROR, "failing row: status %d, want STORAGE_ERROR", status);
    CHECK(s.n == 1 && s.x[0] == 1, "failing row: saw %d rows before the error, want 1", s.n);
}

/* --- storage_first_row ------------------------------------------------------------------- */

static void first_row_is_ready_to_read(void)
{
    sqlite3_stmt *st = storage_stmt(SQL_ALL);
    int status = st != NULL ? storage_first_row(st, "the test's first row") : STORAGE_ERROR;
    CHECK(status == STORAGE_OK, "first row: status %d, want STORAGE_OK", status);
    CHECK(status != STORAGE_OK || sqlite3_column_int64(st, 0) == 1, "first row: read %lld, want 1",
          (long long)sqlite3_column_int64(st, 0));
}

static void first_row_of_nothing_is_not_found(void)
{
    sqlite3_stmt *st = storage_stmt(SQL_NONE);
    int status = st != NULL ? storage_first_row(st, "the test's first row") : STORAGE_ERROR;
    CHECK(status == STORAGE_NOT_FOUND, "no first row: status %d, want STORAGE_NOT_FOUND", status);
}

static const char SQL_FAILS_FIRST[] = "SELECT abs(-9223372036854775807 - 1)";

static void first_row_reports_its_error(void)
{
    sqlite3_stmt *st = storage_stmt(SQL_FAILS_FIRST);
    int status = st != NULL ? storage_first_row(st, "the test's first row") : STORAGE_OK;
    CHECK(status == STORAGE_ERROR, "failing first row: status %d, want STORAGE_ERROR", status);
}

/* --- the WAL hook -------------------------------------------------------------------------- */

static int commits_seen;
static int last_frames;

static int on_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
    (void)arg;
    (void)db;
    (void)name;
    commits_seen++;
    last_frames = frames;
    return SQLITE_OK;
}

struct opened {
    int autocheckpoint; /* PRAGMA wal_autocheckpoint of the new connection */
    int commits;        /* the hook's calls for one insert */
};

/* Each thread has a connection of its own, opened with the hook of the
 * moment; this one reads its settings and commits one row. */
static void *open_and_write(void *arg)
{
    struct opened *o = arg;
    sqlite3 *db = storage_db();
    o->autocheckpoint = -1;
    o->commits = -1;
    if (db == NULL)
        return NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA wal_autocheckpoint", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        o->autocheckpoint = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    int before = commits_seen;
    if (sqlite3_exec(db, "INSERT INTO t (x) VALUES (100)", NULL, NULL, NULL) == SQLITE_OK)
        o->commits = commits_seen - before;
    return NULL;
}

static struct opened open_in_thread(void)
{
    struct opened o = {-1, -1};
    pthread_t t;
    if (pthread_create(&t, NULL, open_and_write, &o) == 0)
        pthread_join(t, NULL);
    return o;
}

static void watched_connections_leave_checkpoints_to_the_hook(void)
{
    storage_conn_watch_wal(on_commit);
    struct opened o = open_in_thread();
    storage_conn_watch_wal(NULL);
    CHECK(o.autocheckpoint == 0, "watched: wal_autocheckpoint %d, want 0", o.autocheckpoint);
    CHECK(o.commits == 1, "watched: the hook saw %d commits of one insert", o.commits);
    CHECK(last_frames > 0, "watched: the hook was told of %d frames", last_frames);
}

static void connections_opened_after_the_hook_checkpoint_themselves(void)
{
    struct opened o = open_in_thread();
    CHECK(o.autocheckpoint > 0, "unwatched: wal_autocheckpoint %d, want SQLite's own",
          o.autocheckpoint);
    CHECK(o.commits == 0, "unwatched: the hook saw %d commits", o.commits);
}

int main(void)
{
    char dir[] = "/tmp/sokod-test-conn-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/test.db", dir);
    if (!storage_conn_configure(path, 1) || storage_db() == NULL ||
        sqlite3_exec(storage_db(), "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)",
                     NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "cannot set up %s\n", path);
        return 1;
    }

    each_row_gives_every_row_in_order();
    each_row_without_rows_is_not_found();
    each_row_stops_when_the_callback_asks();
    each_row_reports_an_error_between_rows();
    first_row_is_ready_to_read();
    first_row_of_nothing_is_not_found();
    first_row_reports_its_error();
    watched_connections_leave_checkpoints_to_the_hook();
    connections_opened_after_the_hook_checkpoint_themselves();

    storage_conn_close();
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char file[sizeof path + 8];
        snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
        unlink(file);
    }
    rmdir(dir);
    if (failures != 0) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("storage connections and rows: all checks passed\n");
    return 0;
}
