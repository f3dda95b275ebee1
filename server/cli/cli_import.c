/* sokod import: level files into the database, from the command line,
 * through the same checks as an upload. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_storage.h"

#include "base/config.h"
#include "library/audit.h"
#include "library/import.h"
#include "storage/storage.h"

#include <stdio.h>

static const char synopsis[] = "sokod import FILE... [--db PATH] [--collection NAME]";

int cli_import(int argc, char **argv)
{
    struct config cfg;
    int early =
        cli_config(&cfg, CONFIG_IMPORT, argc, argv, synopsis,
                   "Checks level files (the text format, SLC XML or SokoPy binary packs) as an\n"
                   "upload is checked, prints each file's report (every level, its errors as\n"
                   "FILE:LINE:COL, duplicates of levels already in the library or earlier in the\n"
                   "file, solutions that fail), then imports the valid levels that are not\n"
                   "duplicates in one transaction, with the solutions that solve them as\n"
                   "reference solutions. Each file becomes a collection unless --collection\n"
                   "gathers them. The last line reads \"imported: N, invalid: I, duplicates: D\".\n"
                   "Exit status: 0 all imported, 1 some or all refused or skipped, 2 usage.\n");
    if (early >= 0)
        return early;
    if (cfg.nargs == 0) {
        fprintf(stderr, "usage: %s\n", synopsis);
        return 2;
    }
    if (!cli_storage_open(&cfg))
        return 1;
    struct audit_actor who;
    audit_command_line(&who);
    struct import_summary sum;
    int status =
        import_files(cfg.args, cfg.nargs, cfg.collection[0] != '\0' ? cfg.collection : NULL, "",
                     &who, stdout, true, &sum);
    storage_shutdown();
    if (status < 0)
        printf("nothing imported into %s\n", cfg.db);
    else
        printf("imported %u level(s) from %u file(s) into %s, with %u reference solution(s)\n",
               sum.levels, sum.files, cfg.db, sum.references);
    printf("imported: %u, invalid: %u, duplicates: %u\n", sum.levels, sum.refused, sum.duplicates);
    return status == 0 ? 0 : 1;
}
