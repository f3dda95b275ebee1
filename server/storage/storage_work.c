/* Storage: work one node at a time does, by PostgreSQL's advisory locks. */
#include "storage/storage_work.h"

#include "storage/storage_codes.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <time.h>

/* sokod's advisory locks: "soko" in the high half, the work in the low. */
#define WORK_KEY(w) ((int64_t)0x736f6b6f << 32 | (int64_t)(w))

static const char SQL_TRY_LOCK[] = "SELECT pg_try_advisory_lock(?1)";
static const char SQL_UNLOCK[] = "SELECT pg_advisory_unlock(?1)";
static const char SQL_XACT_LOCK[] = "SELECT pg_advisory_xact_lock(?1)";

/* Runs one of the lock functions on the work's key; its boolean (1 or 0)
 * into *got when not NULL. */
static int call(const char *sql, enum storage_work w, int64_t *got, const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, WORK_KEY(w));
    int64_t value = 0;
    int status = storage_first_int64(st, &value, what);
    if (got != NULL)
        *got = value;
    return status;
}

bool storage_work_begin(enum storage_work w)
{
    if (sql_backend() != SQL_POSTGRES)
        return true;
    int64_t got = 0;
    return call(SQL_TRY_LOCK, w, &got, "taking a work's lock") == STORAGE_OK && got != 0;
}

bool storage_work_wait(enum storage_work w, unsigned seconds)
{
    /* Asked again every tenth of a second: pg_advisory_lock itself would
     * give up after the connection's lock_timeout, and a node's work (an
     * import) may take longer than that. */
    for (unsigned tenths = 0; tenths <= seconds * 10; tenths++) {
        if (storage_work_begin(w))
            return true;
        nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
    }
    return false;
}

void storage_work_end(enum storage_work w)
{
    if (sql_backend() == SQL_POSTGRES)
        call(SQL_UNLOCK, w, NULL, "releasing a work's lock");
}

int storage_work_serialize(enum storage_work w)
{
    if (sql_backend() != SQL_POSTGRES)
        return STORAGE_OK;
    /* pg_advisory_xact_lock returns void: one row with NULL. */
    return call(SQL_XACT_LOCK, w, NULL, "waiting for another node's work");
}
