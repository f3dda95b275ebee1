/* Storage: the server's own secret keys, made once and kept. */
#include "storage/storage_keys.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static const char SQL_KEY_OFFER[] =
    "INSERT INTO server_keys (name, key) VALUES (?1, ?2) ON CONFLICT DO NOTHING";
static const char SQL_KEY_GET[] = "SELECT key FROM server_keys WHERE name = ?";

int storage_server_key(const char *name, const uint8_t *fresh, uint8_t *key, size_t len)
{
    /* Offered first and then read: of two processes that race, both read
     * the key that was stored first. */
    struct sql_stmt *st = storage_stmt(SQL_KEY_OFFER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, name);
    sql_bind_blob(st, 2, fresh, len);
    int status = storage_exec_stmt(st, "storing a server key");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(SQL_KEY_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, name);
    status = storage_first_row(st, "reading a server key");
    if (status == STORAGE_OK) {
        size_t stored = 0;
        const void *bytes = sql_column_blob(st, 0, &stored);
        if (stored == len) {
            memcpy(key, bytes, len);
        } else {
            fprintf(stderr, "sokod: database: the server key '%s' has the wrong length\n", name);
            status = STORAGE_ERROR;
        }
    }
    sql_reset(st);
    return status;
}
