/* Storage of uploads staged for import (staged_uploads and their parts),
 * shared by every node on the database: an upload's parts may reach any
 * node, and each finds the bytes the others took. The states are texts:
 * "receiving", "complete", "checking", "checked", "imported". Writes run
 * inside the caller's transaction (storage_begin). */
#ifndef SOKOD_STORAGE_STAGING_H
#define SOKOD_STORAGE_STAGING_H

#include "storage/storage_codes.h"

#include <stddef.h>
#include <stdint.h>

/* How long an upload is kept after its last use. */
#define STAGING_KEEP_SECONDS (3 * 3600)

struct storage_upload {
    int64_t id, owner;
    char filename[256];
    char format[8];
    char state[12];
    int64_t size, received;
    int64_t collection_id; /* 0 until imported */
    int64_t solver_total, solver_done, solver_ms;
    int64_t created_at, used_at;
    char *report; /* malloc'd JSON text once checked, else NULL */
};

/* Frees the upload's report. */
void storage_upload_clear(struct storage_upload *u);

/* Deletes the uploads unused since before `before`, with their parts;
 * *deleted (when not NULL) counts them. */
int storage_staging_expire(int64_t before, int64_t *deleted);

/* The uploads kept but not imported (arriving, or waiting for their check
 * or for an admin), and the bytes of those whose bytes are still
 * arriving or waiting for their check. */
int storage_staging_load(int64_t *count, int64_t *arriving);

/* Forgets the imported uploads but the `keep` newest: their reports are
 * all that is left of them. */
int storage_staging_prune_imported(int64_t keep);

/* Puts the uploads whose check began before stale_before (its node
 * stopped midway) back to "complete", then lists in ids (up to max, *n of
 * them, oldest first) every complete upload: each waits for a check that
 * nobody runs. */
int storage_staging_settle(int64_t stale_before, int64_t now, int64_t *ids, size_t max, size_t *n);

/* Stores a new upload (owner, filename, format, size, created_at) in
 * state "receiving"; sets *id. */
int storage_staging_create(const struct storage_upload *u, int64_t *id);

/* Marks the upload used at `now` (unless it is being checked: it keeps
 * the time its check began), which also holds its row until the
 * transaction ends (another node's change of it waits). STORAGE_NOT_FOUND
 * when there is none. */
int storage_staging_touch(int64_t id, int64_t now);

/* Reads the upload into *u (the caller clears it), with its report when
 * `report` is nonzero. STORAGE_NOT_FOUND when there is none. */
int storage_staging_get(int64_t id, int report, struct storage_upload *u);

/* Calls fn on each upload, oldest first, with its report lent for the
 * call only (fn must not free or keep it). */
int storage_staging_each(int (*fn)(const struct storage_upload *u, void *arg), void *arg);

/* Adds the n bytes at offset, when the upload is receiving, offset is the
 * count received so far and the bytes fit its size; it becomes "complete"
 * with its last byte. STORAGE_CONFLICT when it takes no such part,
 * STORAGE_NOT_FOUND when there is no upload. */
int storage_staging_append(int64_t id, int64_t offset, const void *bytes, size_t n, int64_t now);

/* Moves the upload from state `from` to `to`: STORAGE_CONFLICT when it is
 * in another state, STORAGE_NOT_FOUND when there is none. */
int storage_staging_move(int64_t id, const char *from, const char *to, int64_t now);

/* Reads the upload's bytes, in order, into buf (exactly size bytes): a
 * missing part is STORAGE_ERROR. */
int storage_staging_bytes(int64_t id, char *buf, size_t size);

/* Stores a checking upload's report and the levels left to the solver,
 * and makes it "checked". STORAGE_CONFLICT when it is no longer checking. */
int storage_staging_checked(int64_t id, const char *report, int64_t solver_total, int64_t now);

/* Replaces the report, adds done levels and solver milliseconds. */
int storage_staging_report(int64_t id, const char *report, int64_t done, int64_t ms);

/* Makes a checked upload "imported" into collection, with the report that
 * names its levels' ids, and deletes its bytes. */
int storage_staging_imported(int64_t id, int64_t collection, const char *report);

/* Deletes the upload and its bytes unless it is being checked by a check
 * begun at stale_before or later: STORAGE_CONFLICT then, STORAGE_NOT_FOUND
 * when there is none. */
int storage_staging_delete(int64_t id, int64_t stale_before);

#endif
