/* The storage wing's plumbing, on its own with SQLite: storage_each_row
 * steps a statement through its rows with the codes the listings promise
 * (none found, stopped, an error that ends the rows); storage_first_row
 * gives a lookup's one row with the same codes (storage_first_int64 its
 * integer), storage_text_by_id a lookup's one text; storage_rows_by_id,
 * storage_list_by_id and their two-id forms bind their ids, a listing of
 * no rows being no error; storage_exec_changed refuses an update that
 * changed no row and storage_exec_insert gives the new row's id; a
 * connection opened while a WAL hook is set leaves checkpoints to its
 * owner and reports each commit, while one opened after the hook is
 * cleared does neither. */
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* What the helpers below give when a statement cannot even be prepared,
 * so that no check mistakes it for the code under test. */
#define NO_STATEMENT 100

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
    note("rows of %s", sql);
    sqlite3_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return NO_STATEMENT;
    int status = storage_each_row(st, read_x, (void *)collect, s, "the test's rows");
    CHECK(!sqlite3_stmt_busy(st)); /* reset, whatever ended the rows */
    return status;
}

static const char SQL_ALL[] = "SELECT x FROM t";
static const char SQL_NONE[] = "SELECT x FROM t WHERE x > 10";
/* Rows come in rowid order, computed one by one: the second one fails
 * (abs of the smallest integer overflows). */
static const char SQL_FAILS_SECOND[] =
    "SELECT CASE WHEN x < 2 THEN x ELSE abs(-9223372036854775807 - 1) END FROM t";
static const char SQL_FAILS_FIRST[] = "SELECT abs(-9223372036854775807 - 1)";

static void each_row_gives_every_row_in_order(void)
{
    struct seen s = {0};
    CHECK_INT(rows(SQL_ALL, &s), STORAGE_OK);
    CHECK_INT(s.n, 3);
    CHECK_INT(s.x[0], 1);
    CHECK_INT(s.x[1], 2);
    CHECK_INT(s.x[2], 3);
}

static void each_row_without_rows_is_not_found(void)
{
    struct seen s = {0};
    CHECK_INT(rows(SQL_NONE, &s), STORAGE_NOT_FOUND);
    CHECK_INT(s.n, 0);
}

static void each_row_stops_when_the_callback_asks(void)
{
    struct seen s = {.stop_at = 2};
    CHECK_INT(rows(SQL_ALL, &s), STORAGE_STOP);
    CHECK_INT(s.n, 2);
    /* The statement gives its rows again from the first. */
    struct seen again = {0};
    CHECK_INT(rows(SQL_ALL, &again), STORAGE_OK);
    CHECK_INT(again.n, 3);
    CHECK_INT(again.x[0], 1);
}

static void each_row_reports_an_error_between_rows(void)
{
    struct seen s = {0};
    CHECK_INT(rows(SQL_FAILS_SECOND, &s), STORAGE_ERROR);
    CHECK_INT(s.n, 1);
    CHECK_INT(s.x[0], 1);
}

/* --- storage_first_row -------------------------------------------------------------------- */

static int first_row(const char *sql, int64_t *x)
{
    note("first row of %s", sql);
    sqlite3_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return NO_STATEMENT;
    int status = storage_first_int64(st, x, "the test's first row");
    CHECK(!sqlite3_stmt_busy(st));
    return status;
}

static void first_row_is_ready_to_read(void)
{
    int64_t x = 0;
    CHECK_INT(first_row(SQL_ALL, &x), STORAGE_OK);
    CHECK_INT(x, 1);
}

static void first_row_of_nothing_is_not_found(void)
{
    int64_t x = 7;
    CHECK_INT(first_row(SQL_NONE, &x), STORAGE_NOT_FOUND);
    CHECK_INT(x, 7);
}

static void first_row_reports_its_error(void)
{
    int64_t x = 0;
    CHECK_INT(first_row(SQL_FAILS_FIRST, &x), STORAGE_ERROR);
}

/* --- storage_text_by_id ------------------------------------------------------------------ */

static const char SQL_NAME[] = "SELECT 'x is ' || x FROM t WHERE x = ?";

static void text_by_id_copies_the_text(void)
{
    char out[16] = "";
    CHECK_INT(storage_text_by_id(SQL_NAME, 2, out, sizeof out, "the test's text"), STORAGE_OK);
    CHECK_STR(out, "x is 2");
}

static void text_by_id_cuts_the_text_to_fit(void)
{
    char out[4] = "";
    CHECK_INT(storage_text_by_id(SQL_NAME, 3, out, sizeof out, "the test's text"), STORAGE_OK);
    CHECK_STR(out, "x i");
}

static void text_by_id_without_a_row_leaves_out_alone(void)
{
    char out[16] = "before";
    CHECK_INT(storage_text_by_id(SQL_NAME, 42, out, sizeof out, "the test's text"),
              STORAGE_NOT_FOUND);
    CHECK_STR(out, "before");
}

/* --- storage_rows_by_id and storage_list_by_id ----------------------------------------------- */

static const char SQL_FROM[] = "SELECT x FROM t WHERE x >= ? ORDER BY x";

static void rows_by_id_binds_the_id(void)
{
    struct seen s = {0};
    CHECK_INT(storage_rows_by_id(SQL_FROM, 2, read_x, (void *)collect, &s, "the test's rows"),
              STORAGE_OK);
    CHECK_INT(s.n, 2);
    CHECK_INT(s.x[0], 2);
    CHECK_INT(s.x[1], 3);
}

static void rows_by_id_without_rows_is_not_found(void)
{
    struct seen s = {0};
    CHECK_INT(storage_rows_by_id(SQL_FROM, 42, read_x, (void *)collect, &s, "the test's rows"),
              STORAGE_NOT_FOUND);
    CHECK_INT(s.n, 0);
}

static const char SQL_BETWEEN[] = "SELECT x FROM t WHERE x BETWEEN ?1 AND ?2 ORDER BY x";

static void rows_by_ids_binds_both_in_order(void)
{
    struct seen s = {0};
    CHECK_INT(
        storage_rows_by_ids(SQL_BETWEEN, 2, 3, read_x, (void *)collect, &s, "the test's rows"),
        STORAGE_OK);
    CHECK_INT(s.n, 2);
    CHECK_INT(s.x[0], 2);
    CHECK_INT(s.x[1], 3);
    struct seen none = {0};
    CHECK_INT(
        storage_list_by_ids(SQL_BETWEEN, 3, 2, read_x, (void *)collect, &none, "the test's list"),
        STORAGE_OK);
    CHECK_INT(none.n, 0);
}

static void list_by_id_without_rows_is_ok(void)
{
    struct seen s = {0};
    CHECK_INT(storage_list_by_id(SQL_FROM, 42, read_x, (void *)collect, &s, "the test's list"),
              STORAGE_OK);
    CHECK_INT(s.n, 0);
    struct seen stopped = {.stop_at = 1};
    CHECK_INT(storage_list_by_id(SQL_FROM, 1, read_x, (void *)collect, &stopped, "the test's list"),
              STORAGE_STOP);
}

/* --- storage_exec_changed and storage_exec_insert --------------------------------------------- */

static const char SQL_TOUCH[] = "UPDATE t SET x = x WHERE x = ?";

static int touch(int64_t x)
{
    sqlite3_stmt *st = storage_stmt(SQL_TOUCH);
    if (st == NULL)
        return NO_STATEMENT;
    sqlite3_bind_int64(st, 1, x);
    return storage_exec_changed(st, "the test's update");
}

static void exec_changed_needs_a_changed_row(void)
{
    CHECK_INT(touch(2), STORAGE_OK);
    CHECK_INT(touch(42), STORAGE_NOT_FOUND);
}

static const char SQL_ADD[] = "INSERT INTO u (name) VALUES (?)";

static int add(const char *name, int64_t *id)
{
    sqlite3_stmt *st = storage_stmt(SQL_ADD);
    if (st == NULL)
        return NO_STATEMENT;
    storage_bind_text(st, 1, name);
    return storage_exec_insert(st, id, "the test's insert");
}

static void exec_insert_gives_the_new_rows_id(void)
{
    int64_t first = 0, second = 0;
    CHECK_INT(add("one", &first), STORAGE_OK);
    CHECK_INT(add("two", &second), STORAGE_OK);
    CHECK(first > 0);
    CHECK_INT(second, first + 1);
    int64_t again = -1;
    CHECK_INT(add("one", &again), STORAGE_CONFLICT);
    CHECK_INT(again, -1);
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
    CHECK_INT(o.autocheckpoint, 0);
    CHECK_INT(o.commits, 1);
    CHECK(last_frames > 0);
}

static void connections_opened_after_the_hook_checkpoint_themselves(void)
{
    struct opened o = open_in_thread();
    CHECK(o.autocheckpoint > 0);
    CHECK_INT(o.commits, 0);
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
        sqlite3_exec(storage_db(),
                     "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3); "
                     "CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT UNIQUE)",
                     NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "cannot set up %s\n", path);
        return 1;
    }

    RUN(each_row_gives_every_row_in_order);
    RUN(each_row_without_rows_is_not_found);
    RUN(each_row_stops_when_the_callback_asks);
    RUN(each_row_reports_an_error_between_rows);
    RUN(first_row_is_ready_to_read);
    RUN(first_row_of_nothing_is_not_found);
    RUN(first_row_reports_its_error);
    RUN(text_by_id_copies_the_text);
    RUN(text_by_id_cuts_the_text_to_fit);
    RUN(text_by_id_without_a_row_leaves_out_alone);
    RUN(rows_by_id_binds_the_id);
    RUN(rows_by_id_without_rows_is_not_found);
    RUN(list_by_id_without_rows_is_ok);
    RUN(rows_by_ids_binds_both_in_order);
    RUN(exec_changed_needs_a_changed_row);
    RUN(exec_insert_gives_the_new_rows_id);
    RUN(watched_connections_leave_checkpoints_to_the_hook);
    RUN(connections_opened_after_the_hook_checkpoint_themselves);

    storage_conn_close();
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char file[sizeof path + 8];
        snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
        unlink(file);
    }
    rmdir(dir);
    return check_finish();
}
