/* The codes every storage function returns, shared by the storage wing's
 * public headers and its internal modules. */
#ifndef SOKOD_STORAGE_CODES_H
#define SOKOD_STORAGE_CODES_H

enum {
    STORAGE_OK = 0,
    STORAGE_NOT_FOUND = 1, /* no such row */
    STORAGE_CONFLICT = 2,  /* a uniqueness rule refused the write */
    STORAGE_STOP = 3,      /* a callback asked to stop early */
    STORAGE_ERROR = -1,    /* anything else: disk, corruption, a bug */
    STORAGE_BUSY = -2,     /* the database stayed locked past the busy timeout */
    STORAGE_FULL = -3,     /* the disk (or the database's size limit) is full */
    /* A serialization failure or a deadlock (PostgreSQL's 40001, 40P01):
     * the database undid the statement, and the transaction must be undone
     * too (to its savepoint, or whole); the same work run again after that
     * may well succeed. */
    STORAGE_RETRY = -4,
    /* The write would take its player past the storage quota (migration
     * 0020): the statement was undone; the rest of the transaction may go
     * on. */
    STORAGE_QUOTA = -5,
};

/* How long a write waits for a database locked by another process (or by
 * this one's other writers) before STORAGE_BUSY. */
#define STORAGE_BUSY_MS 5000

#endif
