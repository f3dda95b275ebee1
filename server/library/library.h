/* Importing a checked file into the library: every valid level, in the
 * caller's transaction, so that a failure leaves nothing half-imported. */
#ifndef SOKOD_LIBRARY_H
#define SOKOD_LIBRARY_H

#include "library/audit.h"
#include "library/check.h"

#include <stdbool.h>
#include <stdint.h>

/* Where the levels go. */
struct library_target {
    int64_t collection_id;   /* an existing collection to append to, or 0 for a new one */
    const char *name;        /* the new collection's name; NULL: the report's */
    const char *source;      /* the new collection's source, e.g. "upload:Microban.slc" */
    const char *description; /* the new collection's notes; NULL: the report's */
    const char *author;      /* the new collection's credit; NULL: the report's */
    bool keep_duplicates;    /* import levels the library (or the file) has already */
};

struct library_result {
    int64_t collection_id;
    bool created;
    unsigned imported;   /* levels now in the collection, restored ones included */
    unsigned restored;   /* deleted levels brought back with their players' history */
    unsigned invalid;    /* refused */
    unsigned duplicates; /* skipped */
    unsigned references; /* reference solutions kept */
};

enum library_status {
    LIBRARY_OK = 0,
    LIBRARY_NAME_TAKEN = 1,    /* a collection (perhaps deleted) has that name */
    LIBRARY_NO_COLLECTION = 2, /* target.collection_id names no collection */
    LIBRARY_FILE_FAILED = 3,   /* the report says the file cannot be read */
    LIBRARY_NOTHING = 4,       /* every level is invalid or a skipped duplicate: nothing written */
    LIBRARY_STORAGE = -1,      /* the database failed: see *storage */
};

/* Imports the report's valid levels, skipping duplicates unless the target
 * keeps them, inside the caller's write transaction. Looks duplicates up
 * again first (the library may have changed since the check). A level whose
 * hash belongs to a deleted level brings that level back instead, with its
 * games and solutions. Solutions that solve are kept as reference
 * solutions; solver results the report has are recorded. Each report level
 * gets its imported_id. Records the import in the audit log as `who`.
 * Returns LIBRARY_OK, or another status after which the caller rolls back
 * (*storage holds the STORAGE_* code of a database failure). */
enum library_status library_import(struct check_report *r, const struct library_target *t,
                                   const struct audit_actor *who, struct library_result *out,
                                   int *storage);

#endif
