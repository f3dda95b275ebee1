/* Whole files read into memory, for the commands, the importer and the
 * migrations. */
#ifndef SOKOD_FILES_H
#define SOKOD_FILES_H

#include <stdint.h>

/* Reads a whole file (at most 1 GiB) into a NUL-terminated buffer the
 * caller frees. Returns NULL with errno set when it cannot. */
char *file_read_whole(const char *path, uint32_t *len);

#endif
