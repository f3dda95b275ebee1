/* The SQLite VFS sokod opens its database with: the system's own, except
 * that the writes of a transaction to the WAL reach the kernel in one
 * system call instead of two per page.
 *
 * SQLite appends a commit to the WAL as frames, each a 24-byte header and
 * a page, and writes the header and the page with a pwrite each. A batch
 * of the committer touches some hundred pages: two hundred system calls,
 * which cost more than the rest of the commit on a virtual machine. Here
 * the frames of the WAL file gather in a buffer while they follow each
 * other, and go to the file in one write when the header of the frame that
 * ends the transaction (its "database size after commit" is not zero)
 * arrives, before that write returns to SQLite; that frame's page follows
 * in a write of its own. So when COMMIT returns, every frame of it is in
 * the file, exactly as without the buffer, and a failure (a full disk)
 * fails that commit as it would have.
 *
 * Anything else done to the WAL file (a read, a sync, a truncation, its
 * size, a file control, closing it) first writes out what is buffered, so
 * SQLite sees the file as it wrote it. Frames of a transaction that never
 * commits lie beyond the WAL's last commit and are ignored by readers and
 * overwritten by the next writer, buffered or not. Other files (the
 * database itself, the wal-index) are the system VFS's, untouched. */
#include "storage/storage_vfs.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <pthread.h>
#include <string.h>

#define VFS_NAME "sokod"
/* The size of a WAL frame's header, and the most a buffer holds: the unix
 * VFS writes at most 128 KiB - 1 bytes in one call (and treats more as a
 * full disk), so a flush never asks for more. */
#define FRAME_HEADER 24
#define BUFFER_BYTES (124 * 1024)

struct wal_file {
    sqlite3_file base; /* first: SQLite sees this */
    sqlite3_file *real;
    unsigned char *buf;     /* BUFFER_BYTES, from the first write */
    sqlite3_int64 buf_from; /* the file offset of buf[0] */
    int buf_len;
    bool page_next; /* the buffer ends with a frame's header */
};

/* A WAL file is its wrapper, then the system VFS's file, aligned. */
#define WRAPPER_BYTES ((sizeof(struct wal_file) + 15) & ~(size_t)15)

static sqlite3_vfs vfs;
static sqlite3_io_methods wal_methods;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int registered = SQLITE_ERROR;

/* Writes out the buffer. */
static int flush(struct wal_file *f)
{
    if (f->buf_len == 0)
        return SQLITE_OK;
    int rc = f->real->pMethods->xWrite(f->real, f->buf, f->buf_len, f->buf_from);
    f->buf_len = 0;
    f->page_next = false;
    return rc;
}

static int wal_close(sqlite3_file *file)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    int closed = f->real->pMethods->xClose(f->real);
    sqlite3_free(f->buf);
    f->buf = NULL;
    return rc != SQLITE_OK ? rc : closed;
}

static int wal_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xRead(f->real, out, amount, offset);
}

/* True when a WAL write is a frame's header that ends a transaction: bytes
 * 4-7 of a header hold the database's size in pages after the commit, for
 * the last frame of a transaction, and 0 for the others. */
static bool commit_header(const unsigned char *h, int amount)
{
    return amount == FRAME_HEADER && (h[4] | h[5] | h[6] | h[7]) != 0;
}

/* Appends a write to the buffer; for a commit frame's header, writes out
 * the buffer with it. */
static int append(struct wal_file *f, const void *data, int amount, sqlite3_int64 offset)
{
    if (f->buf_len == 0)
        f->buf_from = offset;
    memcpy(f->buf + f->buf_len, data, (size_t)amount);
    f->buf_len += amount;
    f->page_next = amount == FRAME_HEADER;
    return commit_header(data, amount) ? flush(f) : SQLITE_OK;
}

/* Only whole frames appended one after another are gathered: a frame's
 * header (24 bytes; a page is never that short) where the buffer ends, then
 * its page right after it. A commit frame's header is written out at once
 * with everything before it, and its page after it: SQLite also rewrites
 * the headers of earlier frames in place at a commit (new checksums), with
 * no page after them, so nothing may wait for a write that may not come.
 * Anything else (the WAL's own header, a page rewritten in place) goes
 * straight to the file, after what is buffered. */
static int wal_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset)
{
    struct wal_file *f = (struct wal_file *)file;
    bool header = amount == FRAME_HEADER;
    bool follows =
        f->buf_len > 0 && offset == f->buf_from + f->buf_len && amount <= BUFFER_BYTES - f->buf_len;
    if (f->buf == NULL) {
        f->buf = sqlite3_malloc(BUFFER_BYTES);
        if (f->buf == NULL)
            return f->real->pMethods->xWrite(f->real, data, amount, offset);
    }
    if (follows && (header || f->page_next))
        return append(f, data, amount, offset);
    int rc = flush(f);
    if (rc != SQLITE_OK)
        return rc;
    if (header)
        return append(f, data, amount, offset);
    return f->real->pMethods->xWrite(f->real, data, amount, offset);
}

static int wal_truncate(sqlite3_file *file, sqlite3_int64 size)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xTruncate(f->real, size);
}

static int wal_sync(sqlite3_file *file, int flags)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xSync(f->real, flags);
}

static int wal_file_size(sqlite3_file *file, sqlite3_int64 *size)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xFileSize(f->real, size);
}

static int wal_lock(sqlite3_file *file, int level)
{
    struct wal_file *f = (struct wal_file *)file;
    return f->real->pMethods->xLock(f->real, level);
}

static int wal_unlock(sqlite3_file *file, int level)
{
    struct wal_file *f = (struct wal_file *)file;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int wal_check_reserved(sqlite3_file *file, int *out)
{
    struct wal_file *f = (struct wal_file *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int wal_file_control(sqlite3_file *file, int op, void *arg)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xFileControl(f->real, op, arg);
}

static int wal_sector_size(sqlite3_file *file)
{
    struct wal_file *f = (struct wal_file *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int wal_device(sqlite3_file *file)
{
    struct wal_file *f = (struct wal_file *)file;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

static int vfs_open(sqlite3_vfs *self, const char *name, sqlite3_file *file, int flags, int *out)
{
    sqlite3_vfs *system = self->pAppData;
    if (!(flags & SQLITE_OPEN_WAL))
        return system->xOpen(system, name, file, flags, out);
    struct wal_file *f = (struct wal_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)((char *)f + WRAPPER_BYTES);
    int rc = system->xOpen(system, name, f->real, flags, out);
    if (rc != SQLITE_OK || f->real->pMethods == NULL) {
        f->base.pMethods = NULL;
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    f->base.pMethods = &wal_methods;
    return SQLITE_OK;
}

/* The system VFS's other methods, called through ours. */
static int vfs_delete(sqlite3_vfs *self, const char *name, int sync_dir)
{
    sqlite3_vfs *system = self->pAppData;
    return system->xDelete(system, name, sync_dir);
}

static int vfs_access(sqlite3_vfs *self, const char *name, int flags, int *out)
{
    sqlite3_vfs *system = self->pAppData;
    return system->xAccess(system, name, flags, out);
}

static int vfs_full_pathname(sqlite3_vfs *self, const char *name, int n, char *out)
{
    sqlite3_vfs *system = self->pAppData;
    return system->xFullPathname(system, name, n, out);
}

static void register_vfs(void)
{
    sqlite3_vfs *system = sqlite3_vfs_find(NULL);
    if (system == NULL)
        return;
    vfs = *system;
    vfs.pNext = NULL;
    vfs.zName = VFS_NAME;
    vfs.pAppData = system;
    vfs.szOsFile = (int)WRAPPER_BYTES + system->szOsFile;
    vfs.xOpen = vfs_open;
    vfs.xDelete = vfs_delete;
    vfs.xAccess = vfs_access;
    vfs.xFullPathname = vfs_full_pathname;
    /* Version 1 methods only: a WAL file has no shared memory, and SQLite
     * never memory-maps it. */
    wal_methods = (sqlite3_io_methods){
        .iVersion = 1,
        .xClose = wal_close,
        .xRead = wal_read,
        .xWrite = wal_write,
        .xTruncate = wal_truncate,
        .xSync = wal_sync,
        .xFileSize = wal_file_size,
        .xLock = wal_lock,
        .xUnlock = wal_unlock,
        .xCheckReservedLock = wal_check_reserved,
        .xFileControl = wal_file_control,
        .xSectorSize = wal_sector_size,
        .xDeviceCharacteristics = wal_device,
    };
    registered = sqlite3_vfs_register(&vfs, 0);
}

const char *storage_vfs(void)
{
    pthread_once(&once, register_vfs);
    return registered == SQLITE_OK ? VFS_NAME : NULL;
}
