/* Importing level collections from files into the database. */
#ifndef SOKOD_IMPORT_H
#define SOKOD_IMPORT_H

#include <stdbool.h>
#include <stdio.h>

struct import_summary {
    unsigned files;
    unsigned levels;  /* imported */
    unsigned refused; /* invalid levels, reported */
};

/* Imports the levels of `n` files in one transaction. With `collection`
 * set, every level goes into that one collection; otherwise each file
 * becomes a collection named by its "Collection:" line or its file name.
 * Each collection records `source_prefix` followed by the file's name.
 * Invalid levels are skipped and reported to `report` as FILE:LINE:COL.
 * Returns 0 when everything was imported, 1 when some levels were refused
 * (the rest are in), or -1 when nothing was imported (an unreadable file, a
 * collection name in use, no valid level, a database failure: reported). */
int import_files(char *const *paths, int n, const char *collection, const char *source_prefix,
                 FILE *report, struct import_summary *sum);

/* Imports each *.sok and *.xsb file of `dir`, in name order, that has not
 * been imported from there before: the bundled levels, on first start. A
 * missing or empty folder imports nothing. Problems are reported to
 * stderr; they do not stop the server. */
void import_bundled(const char *dir);

#endif
