/* Work that one node at a time does, when several sokod nodes share one
 * PostgreSQL database (storage_work.c): the sweeps of old guests and
 * sessions, making the daily puzzle or a race level, starting an upload. Advisory locks of
 * PostgreSQL, keyed by the work; on SQLite, one database per process (its
 * write lock already serializes writers), every call succeeds at once. */
#ifndef SOKOD_STORAGE_WORK_H
#define SOKOD_STORAGE_WORK_H

#include <stdbool.h>

enum storage_work {
    STORAGE_WORK_SWEEP = 1,      /* the sweeper's rounds */
    STORAGE_WORK_DAILY = 2,      /* storing a day's puzzle */
    STORAGE_WORK_RACE_LEVEL = 3, /* storing a generated race level */
    STORAGE_WORK_BUNDLED = 4,    /* importing the bundled levels at start */
    STORAGE_WORK_STAGING = 5,    /* starting an upload, within the bounds of all uploads */
    STORAGE_WORK_RATINGS = 6,    /* the rating pass */
};

/* Takes the work's lock for the calling thread without waiting: true when
 * this node may do the work now, false when another node is doing it (or
 * the database cannot be asked: the work waits for a later round). Release
 * with storage_work_end. */
bool storage_work_begin(enum storage_work w);

/* Like storage_work_begin, waiting up to `seconds` for another node to
 * finish the work: true once this node holds the lock, false when the wait
 * ran out (or the database cannot be asked). */
bool storage_work_wait(enum storage_work w, unsigned seconds);

/* Releases a lock taken by storage_work_begin or storage_work_wait. */
void storage_work_end(enum storage_work w);

/* Inside the open write transaction: waits until no other node is inside
 * a transaction holding the same work, then holds it until this
 * transaction ends. Returns STORAGE_OK or the code of a failure. */
int storage_work_serialize(enum storage_work w);

#endif
