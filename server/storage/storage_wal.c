/* Keeps the WAL short while the server writes without pause.
 *
 * A background thread copies committed frames back into the database
 * (PASSIVE checkpoints, which never block a writer), so commits never pay
 * for that copy or its fsyncs. A passive checkpoint alone cannot empty the
 * WAL under steady writes, though: by the time it has copied every frame it
 * saw, the writers have added more, and SQLite starts the WAL over from its
 * beginning only when a writer finds every frame copied. The WAL would grow
 * without end (gigabytes in minutes at full load), every new WAL page would
 * cost the kernel a zeroed page, and the wal-index would keep growing.
 *
 * So once the WAL is long and the background thread has caught up to
 * within a short tail, it asks the next writer to copy that tail itself,
 * right after its commit and while it still holds this process's write
 * lock: nothing is written in between, every frame is then copied, and the
 * next transaction starts the WAL over. That costs the writer one small
 * checkpoint (two fsyncs) per WAL_RESTART_FRAMES frames. The WAL file keeps
 * its largest size (about 256 MiB under steady writes) until the server
 * stops, when the last connection's checkpoint removes it. */
#include "storage/storage_wal.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* Wake the checkpointer early once a commit leaves this many frames (16
 * MiB of 4 KiB pages) it has not copied; otherwise it runs twice a second.
 * Each pass costs two fsyncs and copies a page once however many frames
 * hold it, so passes are kept few and large. */
#define WAL_WAKE_FRAMES 4096
/* Start the WAL over once it holds this many frames (256 MiB)... */
#define WAL_RESTART_FRAMES 65536
/* ...and the checkpointer has copied all but this many of them. The
 * writer's copy of that tail holds commits back while it writes the tail's
 * pages into the database and makes two fsyncs: up to 16 MiB, 10-20 ms on
 * this project's virtual disks. A shorter tail (256 frames, the
 * checkpointer running passes back to back to reach it) did not lower the
 * step latency's p99 in bench_server, so the checkpointer is not pressed
 * for it. A long WAL makes that pause rare (every few seconds at ten
 * thousand steps a second), and the WAL file, once that long, is reused
 * rather than grown. */
#define WAL_TAIL_FRAMES 4096
/* Past this many frames (1 GiB) a writer copies whatever is left, however
 * long: the checkpointer is not keeping up (a reader holds old frames). */
#define WAL_FORCE_FRAMES 262144
/* The checkpointer's pause between passes, in milliseconds. */
#define WAL_PERIOD_MS 500

static atomic_bool background;
static pthread_t checkpointer;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static bool stopping; /* under lock */
static bool woken;    /* under lock */
static atomic_bool sleeping;
/* Frames in the WAL after the newest commit of this process, and those the
 * checkpointer had copied at its last pass. */
static atomic_int wal_frames;
static atomic_int wal_copied;
/* Set by the checkpointer when a writer should copy the tail. */
static atomic_bool restart_wanted;

/* SQLite calls this after each commit of a watched connection, with the
 * frames the WAL now holds. */
static int on_commit(void *unused, sqlite3 *db, const char *name, int frames)
{
    (void)unused;
    (void)db;
    (void)name;
    atomic_store(&wal_frames, frames);
    /* Negative once the WAL has started over: then the periodic pass. */
    if (frames - atomic_load(&wal_copied) >= WAL_WAKE_FRAMES && atomic_load(&sleeping)) {
        pthread_mutex_lock(&lock);
        woken = true;
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&lock);
    }
    return SQLITE_OK;
}

void storage_wal_tend(void)
{
    if (!atomic_load(&background))
        return;
    int frames = atomic_load(&wal_frames);
    if (!atomic_exchange(&restart_wanted, false) && frames < WAL_FORCE_FRAMES)
        return;
    /* SQLITE_BUSY when the checkpointer is in a pass of its own: it will
     * ask again. */
    int rc = sqlite3_wal_checkpoint_v2(storage_db(), NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
        storage_status(rc, "checkpoint");
}

/* One passive checkpoint; asks for a restart when the WAL is long and
 * nearly all copied. Returns true when a pass right away would copy more. */
static bool checkpoint_pass(sqlite3 *db)
{
    int log = 0, copied = 0;
    int rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    if (rc != SQLITE_OK) {
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            storage_status(rc, "checkpoint");
        return false;
    }
    atomic_store(&wal_copied, copied);
    if (log >= WAL_RESTART_FRAMES && log - copied <= WAL_TAIL_FRAMES)
        atomic_store(&restart_wanted, true);
    return log - copied > WAL_TAIL_FRAMES && copied > 0;
}

/* Waits until woken, asked to stop, or WAL_PERIOD_MS have passed. Returns
 * true when asked to stop. Called with lock held. */
static bool wait_for_work(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += WAL_PERIOD_MS * 1000L * 1000L;
    if (until.tv_nsec >= 1000L * 1000L * 1000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000L * 1000L * 1000L;
    }
    atomic_store(&sleeping, true);
    while (!stopping && !woken && pthread_cond_timedwait(&wake, &lock, &until) == 0)
        ;
    atomic_store(&sleeping, false);
    woken = false;
    return stopping;
}

/* Checkpoints until asked to stop, then once more. */
static void *checkpoint_main(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-wal"); /* as top -H shows it */
    sqlite3 *db = storage_db();
    bool more = false;
    pthread_mutex_lock(&lock);
    for (bool last = false; !last;) {
        if (!more)
            last = wait_for_work();
        else
            last = stopping;
        pthread_mutex_unlock(&lock);
        more = db != NULL && checkpoint_pass(db);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int storage_checkpointer_start(void)
{
    atomic_store(&background, true);
    atomic_store(&restart_wanted, false);
    stopping = false;
    woken = false;
    storage_conn_watch_wal(on_commit);
    if (pthread_create(&checkpointer, NULL, checkpoint_main, NULL) != 0) {
        storage_conn_watch_wal(NULL);
        atomic_store(&background, false);
        return STORAGE_ERROR;
    }
    return STORAGE_OK;
}

void storage_checkpointer_stop(void)
{
    if (!atomic_load(&background))
        return;
    pthread_mutex_lock(&lock);
    stopping = true;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(checkpointer, NULL);
    storage_conn_watch_wal(NULL);
    atomic_store(&background, false);
}
