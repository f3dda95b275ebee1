/* Copying a whole database to another (storage_copy.c), for `sokod copy`:
 * the source, a SQLite file or a PostgreSQL URI, is opened as a second
 * connection beside the process's database, which is the target (set by
 * storage_init). Rows keep their ids; the target's sequences end past
 * them. Functions return STORAGE_* codes; a refusal (STORAGE_CONFLICT)
 * says why in err, other failures are logged on stderr. */
#ifndef SOKOD_STORAGE_COPY_H
#define SOKOD_STORAGE_COPY_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct storage_copy;

/* Whether target names a PostgreSQL database (a postgresql:// URI). */
bool storage_copy_is_postgres(const char *target);

/* Opens the source and starts a read-only transaction on it, so that what
 * is copied is one moment's database. STORAGE_CONFLICT when a SQLite
 * source file does not exist. Sets *out (freed by storage_copy_close). */
int storage_copy_open(const char *source, struct storage_copy **out, char *err, size_t cap);

/* The source's name, with a URI's password hidden. */
const char *storage_copy_source_name(const struct storage_copy *c);

/* STORAGE_CONFLICT when a table of the target holds a row (err names it). */
int storage_copy_target_empty(char *err, size_t cap);

/* Sets the schema versions of the source and of the target. */
int storage_copy_versions(struct storage_copy *c, int *source, int *target);

/* Copies every table of the source into the target, in an order that
 * keeps the foreign keys, in transactions of a bounded number of rows.
 * STORAGE_CONFLICT when either side has a table the copy does not know,
 * or when a table's columns differ. Calls fn after each table with its
 * rows copied. */
int storage_copy_tables(struct storage_copy *c,
                        void (*fn)(void *arg, const char *table, int64_t rows), void *arg,
                        char *err, size_t cap);

/* Moves the target's id sequences past the copied ids and past the ids
 * the source had already given (PostgreSQL's identities, SQLite's
 * sqlite_sequence), so that no id is given twice. */
int storage_copy_sequences(struct storage_copy *c);

/* Counts the rows of every table on both sides, calling fn for each. */
int storage_copy_count(struct storage_copy *c,
                       void (*fn)(void *arg, const char *table, int64_t source, int64_t target),
                       void *arg);

/* Reads the ids of the target's games above `after`, in order, into out
 * (at most cap); sets *n to their number, 0 after the last. */
int storage_copy_game_ids(int64_t after, int64_t *out, int cap, int *n);

/* Ends the source's transaction and closes it. */
void storage_copy_close(struct storage_copy *c);

#endif
