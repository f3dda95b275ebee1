/* The database, opened for a command (cli_storage.h). */
#include "cli/cli_storage.h"

#include "storage/storage.h"
#include "storage/storage_migrate.h"

bool cli_storage_open(const struct config *cfg)
{
    bool fresh = false;
    if (storage_init(cfg->db, cfg->synchronous) != STORAGE_OK ||
        storage_migrate(cfg->migrations, &fresh) != STORAGE_OK) {
        storage_shutdown();
        return false;
    }
    return true;
}
