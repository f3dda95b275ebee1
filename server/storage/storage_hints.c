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

static int put_once(int64_t game_id, uint64_t hash, const char *rest)
{
    struct sql_stmt *st = storage_stmt(SQL_PUT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, game_id);
    sql_bind_int64(st, 2, (int64_t)hash);
    sql_bind_text(st, 3, rest);
    return storage_exec_stmt(st, "storing a hint's plan");
}

int storage_hint_plan_put(int64_t game_id, uint64_t hash, const char *rest)
{
    int status;
    unsigned runs = 0;
    do {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = put_once(game_id, hash, rest);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    return status;
}

static int take_once(int64_t game_id, uint64_t *hash, char **rest)
{
    struct sql_stmt *st = storage_stmt(SQL_TAKE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, game_id);
    int status = storage_first_row(st, "taking a hint's plan");
    if (status == STORAGE_OK) {
        *hash = (uint64_t)sql_column_int64(st, 0);
        *rest = strdup(sql_column_text(st, 1));
        sql_reset(st);
        if (*rest == NULL)
            status = STORAGE_ERROR;
    }
    return status;
}

int storage_hint_plan_take(int64_t game_id, uint64_t *hash, char **rest)
{
    int status;
    unsigned runs = 0;
    *rest = NULL;
    do {
        /* What an undone run read is read again. */
        free(*rest);
        *rest = NULL;
        status = storage_begin();
        if (status == STORAGE_OK)
            status = take_once(game_id, hash, rest);
        status = storage_finish(status);
    } while (storage_again(status, &runs));
    if (status != STORAGE_OK) {
        free(*rest);
        *rest = NULL;
    }
    return status;
}
