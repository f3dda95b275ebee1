/* The SQLite VFS the storage wing opens its database with (storage_vfs.c). */
#ifndef SOKOD_STORAGE_VFS_H
#define SOKOD_STORAGE_VFS_H

/* The name of the VFS to open the database with (the system's, with the
 * WAL's writes gathered per transaction), registered on first use; NULL
 * when it could not be registered (the system's then). */
const char *storage_vfs(void);

#endif
