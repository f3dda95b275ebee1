/* The background checkpointer, which keeps the WAL short while the server
 * writes without pause (storage_wal.c). */
#ifndef SOKOD_STORAGE_WAL_H
#define SOKOD_STORAGE_WAL_H

#include "storage/storage_codes.h"

/* Starts a thread that checkpoints the WAL in the background, so that
 * commits of connections opened from then on never do it themselves.
 * Returns STORAGE_OK or STORAGE_ERROR. */
int storage_checkpointer_start(void);
/* Runs a last checkpoint and stops that thread (its connection closes). */
void storage_checkpointer_stop(void);

/* For storage_commit only: right after a commit, with this process's write
 * lock still held, copies the WAL's last frames into the database when the
 * checkpointer asked for it, so that the next transaction starts the WAL
 * over. */
void storage_wal_tend(void);

#endif
