/* The shared rate limits' storage (storage_limits.c) on the schema of
 * migration 0016: the generic cell rate algorithm's decisions (a burst,
 * then refusals that are not counted and say how long to wait), checks
 * that count nothing, a forgotten key, and the sweep that deletes expired
 * keys and trims the table to its cap, nearest to expiry first, keeping
 * keys over their limits. On SQLite,
 * and with "postgresql" as its argument on a fresh database of the cluster
 * in SOKOD_TEST_PG_DIR. */
#include "storage/sql.h"
#include "storage/storage_conn.h"
#include "storage/storage_limits.h"
#include "storage/storage_sql.h"

#include "check.h"

#include <stdlib.h>
#include <unistd.h>

#define MINUTE_MS 60000
/* A hold beyond every key of these tests: the sweep may trim any live key. */
#define HOLD_NONE (1000LL * MINUTE_MS)

#define TEXT_OF(x) #x
#define TEXT(x) TEXT_OF(x)
#define ROWS "SELECT count(*) FROM rate_limits"

/* The count that `sql` (a literal) gives, or -1. */
static int64_t rows(const char *sql)
{
    struct sql_stmt *st = storage_stmt(sql);
    int64_t n = -1;
    if (st != NULL)
        storage_first_int64(st, &n, "counting the test's keys");
    return n;
}

static void a_burst_then_refusals_that_are_not_counted(void)
{
    note("key 'burst', a burst of 3 and one a minute");
    int64_t wait = -1;
    for (int i = 1; i <= 3; i++) {
        note("event %d", i);
        CHECK_INT(storage_limit_take("burst", 3, MINUTE_MS, &wait), STORAGE_OK);
        CHECK_INT(wait, 0);
    }
    CHECK_INT(storage_limit_take("burst", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_MSG(wait > MINUTE_MS - 5000 && wait <= MINUTE_MS, "the 4th waits %lld ms",
              (long long)wait);
    /* Refused events move nothing: the wait stays about a minute. */
    for (int i = 0; i < 5; i++)
        CHECK_INT(storage_limit_take("burst", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_MSG(wait > MINUTE_MS - 5000 && wait <= MINUTE_MS, "after refusals, waits %lld ms",
              (long long)wait);
    CHECK_INT(storage_limit_check("burst", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_MSG(wait > 0, "a check sees the refusal, waits %lld ms", (long long)wait);
}

static void checks_count_nothing(void)
{
    int64_t wait = -1;
    for (int i = 0; i < 5; i++) {
        CHECK_INT(storage_limit_check("checked", 1, MINUTE_MS, &wait), STORAGE_OK);
        CHECK_INT(wait, 0);
    }
    CHECK_INT(rows(ROWS " WHERE key = 'checked'"), 0);
    CHECK_INT(storage_limit_take("checked", 1, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_INT(wait, 0);
    CHECK_INT(storage_limit_check("checked", 1, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_MSG(wait > 0, "one event of a burst of 1: a check waits %lld ms", (long long)wait);
}

static void a_forgotten_key_starts_afresh(void)
{
    int64_t wait = -1;
    CHECK_INT(storage_limit_take("forgotten", 1, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_INT(storage_limit_take("forgotten", 1, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_MSG(wait > 0, "the second event waits %lld ms", (long long)wait);
    CHECK_INT(storage_limit_forget("forgotten"), STORAGE_OK);
    CHECK_INT(storage_limit_take("forgotten", 1, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_INT(wait, 0);
}

static void long_keys_are_cut_to_the_maximum(void)
{
    char key[STORAGE_LIMIT_KEY_MAX * 2];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    int64_t wait = -1;
    CHECK_INT(storage_limit_take(key, 1, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_INT(wait, 0);
    CHECK_INT(rows(ROWS " WHERE length(key) = " TEXT(STORAGE_LIMIT_KEY_MAX)), 1);
}

static void the_sweep_deletes_expired_keys_then_trims_to_the_cap(void)
{
    CHECK_INT(storage_conn_exec("DELETE FROM rate_limits", "emptying the test's table"),
              STORAGE_OK);
    /* Three keys long expired, and ten live ones, "live 0" nearest to
     * expiry (a minute each, taken 0 to 9 times). */
    CHECK_INT(storage_conn_exec("INSERT INTO rate_limits (key, tat) VALUES "
                                "('old 1', 1), ('old 2', 2), ('old 3', 3)",
                                "the test's expired keys"),
              STORAGE_OK);
    for (int i = 0; i < 10; i++) {
        char key[16];
        snprintf(key, sizeof key, "live %d", i);
        int64_t wait = -1;
        for (int n = 0; n <= i; n++)
            CHECK_INT(storage_limit_take(key, 100, MINUTE_MS, &wait), STORAGE_OK);
    }
    int64_t deleted = 0;
    CHECK_INT(storage_limits_sweep(100, HOLD_NONE, &deleted), STORAGE_OK);
    CHECK_INT(deleted, 3);
    CHECK_INT(rows(ROWS), 10);
    deleted = 0;
    CHECK_INT(storage_limits_sweep(4, HOLD_NONE, &deleted), STORAGE_OK);
    CHECK_INT(deleted, 6);
    CHECK_INT(rows(ROWS), 4);
    CHECK_INT(rows(ROWS " WHERE key IN ('live 6', 'live 7', 'live 8', 'live 9')"), 4);
}

/* Keys over a limit of 3 a minute (tat more than 2 minutes ahead) are
 * never trimmed, however small the cap: a name locked by wrong passwords
 * stays locked until its time runs out. */
static void the_sweep_never_trims_a_key_over_its_limit(void)
{
    CHECK_INT(storage_conn_exec("DELETE FROM rate_limits", "emptying the test's table"),
              STORAGE_OK);
    int64_t wait = -1;
    for (int n = 0; n < 3; n++)
        CHECK_INT(storage_limit_take("locked", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_INT(storage_limit_take("locked", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK(wait > 0);
    CHECK_INT(storage_limit_take("counting", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK_INT(wait, 0);
    int64_t deleted = 0;
    CHECK_INT(storage_limits_sweep(0, 2 * MINUTE_MS, &deleted), STORAGE_OK);
    CHECK_INT(deleted, 1);
    CHECK_INT(rows(ROWS " WHERE key = 'locked'"), 1);
    CHECK_INT(storage_limit_check("locked", 3, MINUTE_MS, &wait), STORAGE_OK);
    CHECK(wait > 0);
}

/* Makes the table of migration 0016, read from the source tree. */
static bool set_up(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/migrations/%s0016_rate_limits.sql", SOKOD_SOURCE_DIR,
             sql_backend() == SQL_SQLITE ? "" : "postgresql/");
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        return false;
    }
    static char script[8192];
    size_t n = fread(script, 1, sizeof script - 1, f);
    fclose(f);
    script[n] = '\0';
    return storage_conn() != NULL && storage_conn_exec(script, "migration 0016") == STORAGE_OK;
}

static void run_all(void)
{
    RUN(a_burst_then_refusals_that_are_not_counted);
    RUN(checks_count_nothing);
    RUN(a_forgotten_key_starts_afresh);
    RUN(long_keys_are_cut_to_the_maximum);
    RUN(the_sweep_deletes_expired_keys_then_trims_to_the_cap);
    RUN(the_sweep_never_trims_a_key_over_its_limit);
}

/* A database of its own in the cluster of SOKOD_TEST_PG_DIR: made, used,
 * dropped. */
static int on_postgresql(void)
{
    const char *dir = getenv("SOKOD_TEST_PG_DIR");
    if (dir == NULL) {
        fprintf(stderr, "SOKOD_TEST_PG_DIR is not set: run this test through ctest\n");
        return 1;
    }
    char admin[512], uri[512], sql[128], name[64];
    snprintf(name, sizeof name, "test_storage_limits_%ld", (long)getpid());
    snprintf(admin, sizeof admin, "postgresql://postgres@/postgres?host=%s", dir);
    snprintf(uri, sizeof uri, "postgresql://postgres@/%s?host=%s", name, dir);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    bool made = storage_conn_configure(admin, 1) && storage_conn() != NULL &&
                storage_conn_exec(sql, "creating the test's database") == STORAGE_OK;
    storage_conn_close();
    if (made && storage_conn_configure(uri, 1) && set_up())
        run_all();
    else
        fprintf(stderr, "cannot set up %s\n", uri);
    storage_conn_close();
    if (made && storage_conn_configure(admin, 1) && storage_conn() != NULL) {
        snprintf(sql, sizeof sql, "DROP DATABASE %s", name);
        storage_conn_exec(sql, "dropping the test's database");
        storage_conn_close();
    }
    return made ? check_finish() : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "postgresql") == 0)
        return on_postgresql();
    char dir[] = "/tmp/sokod-test-limits-XXXXXX";
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
