/* The storage of the health checks, on its own with SQLite: the schema
 * version is read and remembered as the node's; a file that is no
 * database, and one that cannot be opened, fail the read (what /readyz
 * answers 503 database_failed for) and each failure is counted in the
 * metrics' database errors. */
#include "base/metrics.h"
#include "storage/storage_conn.h"
#include "storage/storage_health.h"

#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/sokod-test-health-XXXXXX";

/* The count of sokod_database_errors_total{code="error"} in the metrics'
 * text; -1 when the line is missing. */
static long long counted_errors(void)
{
    struct textbuf b = {0};
    metrics_write(&b, NULL);
    static const char line[] = "sokod_database_errors_total{code=\"error\"} ";
    const char *at = b.data != NULL ? strstr(b.data, line) : NULL;
    long long n = at != NULL ? atoll(at + sizeof line - 1) : -1;
    textbuf_free(&b);
    return n;
}

struct schema_read {
    int status;
    int version;
};

/* Reads the schema version on a thread of its own, whose connection opens
 * the file configured last (a thread's connection stays on its file). */
static void *read_schema(void *arg)
{
    struct schema_read *r = arg;
    r->status = storage_health_schema(&r->version);
    storage_conn_close();
    return NULL;
}

static struct schema_read read_on(const char *path)
{
    struct schema_read r = {STORAGE_OK, -1};
    note("reading the schema version of %s", path);
    CHECK(storage_conn_configure(path, 1));
    pthread_t t;
    if (pthread_create(&t, NULL, read_schema, &r) == 0)
        pthread_join(t, NULL);
    return r;
}

static void schema_version_is_read_and_remembered(void)
{
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/good.db", dir);
    CHECK(storage_conn_configure(path, 1));
    CHECK(storage_conn() != NULL &&
          storage_conn_exec("PRAGMA user_version = 7", "the test's version") == STORAGE_OK);
    CHECK_INT(storage_health_expected(), 0);
    CHECK_INT(storage_health_remember(), STORAGE_OK);
    CHECK_INT(storage_health_expected(), 7);
    CHECK(storage_conn_exec("PRAGMA user_version = 8", "the test's version") == STORAGE_OK);
    int version = 0;
    CHECK_INT(storage_health_schema(&version), STORAGE_OK);
    CHECK_INT(version, 8);
    CHECK_INT(storage_health_expected(), 7); /* what the node started with */
    storage_conn_close();
}

static void a_file_that_is_no_database_fails_and_is_counted(void)
{
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/text.db", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    for (int i = 0; f != NULL && i < 400; i++)
        fputs("this is a text file, not a database\n", f);
    if (f != NULL)
        fclose(f);
    long long before = counted_errors();
    struct schema_read r = read_on(path);
    CHECK_INT(r.status, STORAGE_ERROR);
    CHECK_INT(counted_errors(), before + 1);
}

static void a_database_that_cannot_be_opened_fails_and_is_counted(void)
{
    char path[sizeof dir + 32];
    snprintf(path, sizeof path, "%s/no-such-folder/x.db", dir);
    long long before = counted_errors();
    struct schema_read r = read_on(path);
    CHECK_INT(r.status, STORAGE_ERROR);
    CHECK_INT(counted_errors(), before + 1);
}

int main(void)
{
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    RUN(schema_version_is_read_and_remembered);
    RUN(a_file_that_is_no_database_fails_and_is_counted);
    RUN(a_database_that_cannot_be_opened_fails_and_is_counted);
    const char *files[] = {"good.db", "good.db-wal", "good.db-shm", "text.db"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char file[sizeof dir + 16];
        snprintf(file, sizeof file, "%s/%s", dir, files[i]);
        unlink(file);
    }
    rmdir(dir);
    return check_finish();
}
