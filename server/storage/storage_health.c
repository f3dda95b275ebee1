/* Storage: the schema version for /readyz. */
#include "storage/storage_health.h"

#include "storage/storage_conn.h"
#include "storage/storage_metrics.h"
#include "storage/storage_sql.h"

#include <stdatomic.h>
#include <stddef.h>

/* SQLite keeps the schema version in its header, PostgreSQL in a table
 * (storage_migrate.c). */
static const char SQL_SCHEMA_VERSION[] = "PRAGMA user_version";
static const char SQL_SCHEMA_VERSION_PG[] = "SELECT version FROM schema_version";

static atomic_int expected;

int storage_health_schema(int *version)
{
    struct sql_stmt *st = storage_stmt(storage_dialect(SQL_SCHEMA_VERSION, SQL_SCHEMA_VERSION_PG));
    if (st == NULL) /* no connection: counted here, as sql_step does not see it */
        return storage_metrics_note(STORAGE_ERROR);
    int64_t v = 0;
    int status = storage_first_int64(st, &v, "reading the schema version");
    if (status == STORAGE_OK)
        *version = (int)v;
    return status == STORAGE_NOT_FOUND ? STORAGE_ERROR : status;
}

int storage_health_remember(void)
{
    int version = 0;
    int status = storage_health_schema(&version);
    if (status == STORAGE_OK)
        atomic_store(&expected, version);
    return status;
}

int storage_health_expected(void)
{
    return atomic_load(&expected);
}
