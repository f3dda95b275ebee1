/* Storage: the server's own secret keys, made once and kept. */
#include "storage/storage_keys.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static const char SQL_KEY_OFFER[] = "INSERT OR IGNORE INTO server_keys (name, key) VALUES (?1, ?2)";
static const char SQL_KEY_GET[] = "SELECT key FROM server_keys WHERE name = ?";

int storage_server_key(const char *name, const uint8_t *fresh, uint8_t *key, size_t len)
{
    /* Offered first and then read: of two processes that race, both read
     * the key that was stored first. */
    sqlite3_stmt *st = storage_stmt(SQL_KEY_OFFER);
    if (st == NULL)
        return STORAGE_ERROR;
    storage_bind_text(st, 1, name);
    sqlite3_bind_blob(st, 2, fresh, (int)len, SQLITE_STATIC);
    int status = storage_exec_stmt(st, "storing a server key");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(SQL_KEY_GET);
    if (st == NULL)
        return STORAGE_ERROR;
    storage_bind_text(st, 1, name);
    status = storage_first_row(st, "reading a server key");
    if (status == STORAGE_OK) {
        if ((size_t)sqlite3_column_bytes(st, 0) == len) {
            memcpy(key, sqlite3_column_blob(st, 0), len);
        } else {
            fprintf(stderr, "sokod: database: the server key '%s' has the wrong length\n", name);
            status = STORAGE_ERROR;
        }
    }
    sqlite3_reset(st);
    return status;
}
