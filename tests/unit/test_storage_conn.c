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
 * cleared does neither; a statement only sent (sql_send) runs before the
 * next that waits, and its failure dooms its transaction. */
#include "storage/sql_sqlite.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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

static int read_x(struct sql_stmt *st, void *fn, void *arg)
{
    return ((int (*)(void *, int64_t))fn)(arg, sql_column_int64(st, 0));
}

static int rows(const char *sql, struct seen *s)
{
    note("rows of %s", sql);
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return NO_STATEMENT;
    int status = storage_each_row(st, read_x, (void *)collect, s, "the test's rows");
    CHECK(!sql_busy(st)); /* reset, whatever ended the rows */
    return status;
}

static const char SQL_ALL[] = "SELECT x FROM t ORDER BY x";
static const char SQL_NONE[] = "SELECT x FROM t WHERE x > 10";
/* The second row fails (abs of the smallest integer overflows). SQLite
 * computes rows one by one, so the first is given before the error;
 * PostgreSQL computes them all before giving any. */
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
    CHECK_INT(s.n, sql_backend() == SQL_SQLITE ? 1 : 0);
    if (s.n > 0)
        CHECK_INT(s.x[0], 1);
}

/* --- storage_first_row -------------------------------------------------------------------- */

static int first_row(const char *sql, int64_t *x)
{
    note("first row of %s", sql);
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return NO_STATEMENT;
    int status = storage_first_int64(st, x, "the test's first row");
    CHECK(!sql_busy(st));
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
    struct sql_stmt *st = storage_stmt(SQL_TOUCH);
    if (st == NULL)
        return NO_STATEMENT;
    sql_bind_int64(st, 1, x);
    return storage_exec_changed(st, "the test's update");
}

static void exec_changed_needs_a_changed_row(void)
{
    CHECK_INT(touch(2), STORAGE_OK);
    CHECK_INT(touch(42), STORAGE_NOT_FOUND);
}

static const char SQL_ADD[] = "INSERT INTO u (name) VALUES (?) RETURNING id";

static int add(const char *name, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_ADD);
    if (st == NULL)
        return NO_STATEMENT;
    sql_bind_text(st, 1, name);
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

/* --- sql_send ----------------------------------------------------------------------------- */

static const char SQL_BEGIN_TX[] = "BEGIN";
static const char SQL_COMMIT_TX[] = "COMMIT";
static const char SQL_ROLLBACK_TX[] = "ROLLBACK";
static const char SQL_MARK[] = "SAVEPOINT part";
static const char SQL_UNMARK[] = "RELEASE part";
static const char SQL_UNDO[] = "ROLLBACK TO part";
static const char SQL_ADD_SENT[] = "INSERT INTO u (name) VALUES (?)";
static const char SQL_COUNT_SENT[] = "SELECT count(*) FROM u WHERE name LIKE 'sent-%'";

static int run_sql(const char *sql)
{
    note("running %s", sql);
    struct sql_stmt *st = storage_stmt(sql);
    return st != NULL ? storage_exec_stmt(st, sql) : NO_STATEMENT;
}

static int send_sql(const char *sql)
{
    note("sending %s", sql);
    struct sql_stmt *st = storage_stmt(sql);
    return st != NULL ? sql_send(st, sql) : NO_STATEMENT;
}

static int send_name(const char *name)
{
    note("sending the insert of %s", name);
    struct sql_stmt *st = storage_stmt(SQL_ADD_SENT);
    if (st == NULL)
        return NO_STATEMENT;
    sql_bind_text(st, 1, name);
    return sql_send(st, "the test's insert");
}

static int64_t count_sent(int *status)
{
    int64_t n = -1;
    struct sql_stmt *st = storage_stmt(SQL_COUNT_SENT);
    *status = st != NULL ? storage_first_int64(st, &n, "counting") : NO_STATEMENT;
    return n;
}

/* A transaction of sent statements, each under its savepoint, then read:
 * the statements that were only sent are in place when a statement that
 * waits for its answer runs, and they commit. It also prepares every
 * statement on the connection, so that the next test's are only sent. */
static void sent_statements_run_before_the_next_that_waits(void)
{
    CHECK_INT(run_sql(SQL_BEGIN_TX), STORAGE_OK);
    CHECK_INT(send_sql(SQL_MARK), STORAGE_OK);
    CHECK_INT(send_name("sent-1"), STORAGE_OK);
    CHECK_INT(send_sql(SQL_UNMARK), STORAGE_OK);
    CHECK_INT(send_sql(SQL_MARK), STORAGE_OK);
    CHECK_INT(send_name("sent-2"), STORAGE_OK);
    int status;
    CHECK_INT(count_sent(&status), 2);
    CHECK_INT(status, STORAGE_OK);
    CHECK_INT(run_sql(SQL_UNDO), STORAGE_OK); /* sent-2 only */
    CHECK_INT(send_sql(SQL_UNMARK), STORAGE_OK);
    CHECK_INT(run_sql(SQL_COMMIT_TX), STORAGE_OK);
    CHECK_INT(count_sent(&status), 1);
    CHECK_INT(status, STORAGE_OK);
}

/* A sent statement that fails (a name taken) after its caller was told all
 * went well: either sql_send says so at once, or nothing of the
 * transaction may stand, not even what came before the failure's
 * savepoint, which a ROLLBACK TO would keep. A whole ROLLBACK ends it, and
 * the connection serves the next transaction. */
static void a_sent_failure_dooms_its_transaction(void)
{
    int status;
    CHECK_INT(run_sql(SQL_BEGIN_TX), STORAGE_OK);
    CHECK_INT(send_sql(SQL_MARK), STORAGE_OK);
    CHECK_INT(send_name("sent-3"), STORAGE_OK);
    CHECK_INT(send_sql(SQL_UNMARK), STORAGE_OK);
    CHECK_INT(send_sql(SQL_MARK), STORAGE_OK);
    int taken = send_name("sent-1");
    if (taken == STORAGE_OK) {
        /* Only sent (PostgreSQL): the failure reaches every statement after. */
        CHECK_INT(count_sent(&status), -1);
        CHECK(status != STORAGE_OK);
        CHECK(status != STORAGE_CONFLICT); /* the insert's, not the count's */
        CHECK(run_sql(SQL_UNDO) != STORAGE_OK);
        CHECK(send_sql(SQL_UNMARK) != STORAGE_OK);
        CHECK(run_sql(SQL_COMMIT_TX) != STORAGE_OK);
    } else {
        /* Run at once (SQLite): the caller knows, and undoes its part. */
        CHECK_INT(taken, STORAGE_CONFLICT);
        CHECK_INT(run_sql(SQL_UNDO), STORAGE_OK);
    }
    CHECK_INT(run_sql(SQL_ROLLBACK_TX), STORAGE_OK);
    CHECK_INT(count_sent(&status), 1);
    CHECK_INT(status, STORAGE_OK);
    CHECK_INT(run_sql(SQL_BEGIN_TX), STORAGE_OK);
    CHECK_INT(send_name("sent-4"), STORAGE_OK);
    CHECK_INT(run_sql(SQL_COMMIT_TX), STORAGE_OK);
    CHECK_INT(count_sent(&status), 2);
}

/* Outside a transaction a sent statement runs at once. */
static void a_statement_sent_alone_runs_at_once(void)
{
    CHECK_INT(send_name("sent-1"), STORAGE_CONFLICT);
    CHECK_INT(send_name("sent-5"), STORAGE_OK);
    int status;
    CHECK_INT(count_sent(&status), 3);
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
    sqlite3 *db = sql_sqlite_handle(storage_conn());
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
    sql_sqlite_watch_wal(on_commit);
    struct opened o = open_in_thread();
    sql_sqlite_watch_wal(NULL);
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

/* Creates the tables of the tests on the calling thread's connection. */
static bool set_up(void)
{
    const char *schema =
        sql_backend() == SQL_SQLITE
            ? "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3); "
              "CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT UNIQUE)"
            : "CREATE TABLE t (x BIGINT); INSERT INTO t VALUES (1), (2), (3); "
              "CREATE TABLE u (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
              "name TEXT UNIQUE)";
    return storage_conn() != NULL && storage_conn_exec(schema, "the test's tables") == STORAGE_OK;
}

static void run_all(void)
{
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
    RUN(sent_statements_run_before_the_next_that_waits);
    RUN(a_sent_failure_dooms_its_transaction);
    RUN(a_statement_sent_alone_runs_at_once);
}

/* With "postgresql" as its argument, the tests run on a fresh database of
 * the cluster in SOKOD_TEST_PG_DIR (tests/pg.cmake); otherwise on SQLite. */
static int on_postgresql(void)
{
    const char *dir = getenv("SOKOD_TEST_PG_DIR");
    if (dir == NULL) {
        fprintf(stderr, "SOKOD_TEST_PG_DIR is not set: run this test through ctest\n");
        return 1;
    }
    char admin[512], uri[512], create[128];
    char name[64];
    snprintf(name, sizeof name, "test_storage_conn_%ld", (long)getpid());
    snprintf(admin, sizeof admin, "postgresql://postgres@/postgres?host=%s", dir);
    snprintf(uri, sizeof uri, "postgresql://postgres@/%s?host=%s", name, dir);
    snprintf(create, sizeof create, "CREATE DATABASE %s", name);
    if (!storage_conn_configure(admin, 1) || storage_conn() == NULL ||
        storage_conn_exec(create, "creating the test's database") != STORAGE_OK) {
        fprintf(stderr, "cannot create the database %s in %s\n", name, dir);
        return 1;
    }
    storage_conn_close();
    if (!storage_conn_configure(uri, 1) || !set_up()) {
        fprintf(stderr, "cannot set up %s\n", uri);
        return 1;
    }
    run_all();
    storage_conn_close();
    if (storage_conn_configure(admin, 1) && storage_conn() != NULL) {
        snprintf(create, sizeof create, "DROP DATABASE %s", name);
        storage_conn_exec(create, "dropping the test's database");
        storage_conn_close();
    }
    return check_finish();
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "postgresql") == 0)
        return on_postgresql();
    char dir[] = "/tmp/sokod-test-conn-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/test.db", dir);
    if (!storage_conn_configure(path, 1) || !set_up()) {
        fprintf(stderr, "cannot set up %s\n", path);
        return 1;
    }

    run_all();
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
