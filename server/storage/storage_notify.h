/* Notifications between the sokod processes that share one PostgreSQL
 * database (storage_notify.c): NOTIFY on the channel "sokod" inside a
 * transaction, and a thread that LISTENs on its own connection. The
 * payloads are short texts whose meaning is the caller's. On SQLite (one
 * process) nothing is sent and no thread runs. */
#ifndef SOKOD_STORAGE_NOTIFY_H
#define SOKOD_STORAGE_NOTIFY_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* A payload's bytes at most: PostgreSQL allows 8,000, a payload names ids. */
#define STORAGE_NOTIFY_MAX 128

/* Sends `payload` to every listening process, with the calling thread's
 * open transaction: PostgreSQL delivers it at the commit, once (identical
 * payloads of one transaction fold into one), and never when the
 * transaction, or the savepoint it was sent under, is rolled back. Outside
 * a transaction it is sent at once; inside one it goes out with the next
 * statement that waits for an answer (sql_send). Returns a STORAGE_* code;
 * STORAGE_OK at once on SQLite. */
int storage_notify(const char *payload);

/* What the listener thread calls: `payload` for each notification (the
 * text, valid during the call; `own` when this process sent it), `reconnected` each time its
 * connection is back after a loss, once it listens again (notifications sent meanwhile were lost:
 * read what changed from the tables). Both run on the listener thread, which has its own database
 * connection for their reads. */
struct storage_listener {
    void (*payload)(void *arg, const char *payload, bool own);
    void (*reconnected)(void *arg);
    void *arg;
    /* Optional: called every tick_ms while the thread listens, the first
     * time as it first listens. */
    void (*tick)(void *arg);
    unsigned tick_ms;
};

/* Starts the listener thread (its connection retries every second while
 * the database cannot be reached). Returns STORAGE_OK, also on SQLite
 * (where nothing starts), or STORAGE_ERROR when the thread cannot start. */
int storage_listen_start(const struct storage_listener *l);

/* How much of PostgreSQL's NOTIFY queue is in use, in millionths (0 on
 * SQLite). A listener that does not read holds back every notification
 * after its position; once the queue is full, every transaction that
 * notifies fails, on every node. */
int storage_notify_queue_ppm(int64_t *ppm);

/* Ends the listening connections of the other sokod processes on this
 * database ("sokod-listen PID" but this one's): each listens again and
 * catches up from the tables, and the queue they held back is freed.
 * *ended gets how many. */
int storage_notify_end_listeners(int64_t *ended);

/* Stops the listener thread and closes its connections. Does nothing when
 * it did not start. */
void storage_listen_stop(void);

#endif
