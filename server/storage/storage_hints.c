/* Storage: hint plans. */
#include "storage/storage_hints.h"

#include "storage/storage.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdlib.h>
#include <string.h>

/* The hash is kept as the signed integer of the same 64 bits. */
static const char SQL_PUT[] =
    "INSERT INTO hint_plans (game_id, hash, rest) VALUES (?1, ?2, ?3) "
    "ON CONFLICT (game_id) DO UPDATE SET hash = excluded.hash, rest = excluded.rest";
static const char SQL_TAKE[] = "DELETE FROM hint_plans WHERE game_id = ? RETURNING hash, rest";

int storage_hint_plan_put(int64_t game_id, uint64_t hash, const char *rest)
{
    int status = storage_begin();
    struct sql_stmt *st = status == STORAGE_OK ? storage_stmt(SQL_PUT) : NULL;
    if (status == STORAGE_OK && st == NULL)
        status = STORAGE_ERROR;
    if (st != NULL) {
        sql_bind_int64(st, 1, game_id);
        sql_bind_int64(st, 2, (int64_t)hash);
        sql_bind_text(st, 3, rest);
        status = storage_exec_stmt(st, "storing a hint's plan");
    }
    return storage_finish(status);
}

int storage_hint_plan_take(int64_t game_id, uint64_t *hash, char **rest)
{
    int status = storage_begin();
    struct sql_stmt *st = status == STORAGE_OK ? storage_stmt(SQL_TAKE) : NULL;
    if (status == STORAGE_OK && st == NULL)
        status = STORAGE_ERROR;
    if (st != NULL) {
        sql_bind_int64(st, 1, game_id);
        status = storage_first_row(st, "taking a hint's plan");
        if (status == STORAGE_OK) {
            *hash = (uint64_t)sql_column_int64(st, 0);
            *rest = strdup(sql_column_text(st, 1));
            sql_reset(st);
            if (*rest == NULL)
                status = STORAGE_ERROR;
        }
    }
    return storage_finish(status);
}
