/* Importing level collections from files into the database: the command
 * line's `sokod import` and the bundled levels. Both check files exactly as
 * uploads are checked (check.h) and import through library.h. */
#ifndef SOKOD_IMPORT_H
#define SOKOD_IMPORT_H

#include "library/audit.h"

#include <stdbool.h>
#include <stdio.h>

struct import_summary {
    unsigned files;
    unsigned levels;     /* imported, restored ones included */
    unsigned refused;    /* invalid levels, reported */
    unsigned duplicates; /* levels the library or the file had already, skipped */
    unsigned references; /* reference solutions kept */
};

/* Checks `n` files and imports their valid levels in one transaction. With
 * `collection` set, every level goes into that one collection; otherwise
 * each file becomes a collection named by its Collection: line (its SLC or
 * pack title) or its file name. Each collection records `source_prefix`
 * followed by the file's name. Writes each file's check report to `report`
 * (every level with `all`, else only those with something to say), and
 * records the import in the audit log as `who`. Returns 0 when every level
 * was imported, 1 when some were refused or skipped as duplicates (the rest
 * are in), or -1 when nothing was imported (an unreadable file, a file with
 * no level, a collection name in use, no level to import, a database
 * failure: reported). */
int import_files(char *const *paths, int n, const char *collection, const char *source_prefix,
                 const struct audit_actor *who, FILE *report, bool all, struct import_summary *sum);

/* Imports each *.sok, *.xsb, *.slc and *.skbn file of `dir`, in name order,
 * that has not been imported from there before: the bundled levels, on
 * first start. A missing or empty folder imports nothing. Problems are
 * reported to stderr; they do not stop the server. */
void import_bundled(const char *dir);

#endif
