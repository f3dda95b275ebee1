/* sokod import: level files into the database, from the command line. */
#include "cli.h"

#include "config.h"
#include "import.h"
#include "storage.h"

#include <stdio.h>

static const char synopsis[] = "sokod import FILE... [--db PATH] [--collection NAME]";

int cli_import(int argc, char **argv)
{
    struct config cfg;
    int loaded = config_load(&cfg, CONFIG_IMPORT, argc, argv);
    if (loaded == 1) {
        config_usage(CONFIG_IMPORT, synopsis);
        printf("\nImports the valid levels of the files in one transaction and reports the "
               "others\nas FILE:LINE:COL. Each file becomes a collection unless --collection "
               "gathers them.\nExit status: 0 all imported, 1 some or all refused, 2 usage.\n");
        return 0;
    }
    if (loaded < 0)
        return 2;
    if (cfg.nargs == 0) {
        fprintf(stderr, "usage: %s\n", synopsis);
        return 2;
    }
    bool fresh = false;
    if (storage_init(cfg.db, cfg.synchronous) != STORAGE_OK ||
        storage_migrate(cfg.migrations, &fresh) != STORAGE_OK) {
        storage_shutdown();
        return 1;
    }
    struct import_summary sum;
    int status = import_files(cfg.args, cfg.nargs,
                              cfg.collection[0] != '\0' ? cfg.collection : NULL, "", stderr, &sum);
    storage_shutdown();
    if (status < 0) {
        fprintf(stderr, "sokod: nothing imported\n");
        return 1;
    }
    printf("imported %u level(s) from %u file(s) into %s", sum.levels, sum.files, cfg.db);
    if (sum.refused > 0)
        printf("; %u refused (see above)", sum.refused);
    printf("\n");
    return status == 0 ? 0 : 1;
}
