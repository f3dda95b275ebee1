/* The path-finding memory of the calling thread, shared by what needs the
 * core's paths on the server (point mode, a reverse game's walk home). */
#ifndef SOKOD_PLAY_PATH_SCRATCH_H
#define SOKOD_PLAY_PATH_SCRATCH_H

#include "soko.h"

/* The calling thread's soko_path_scratch (about 1.6 MB), made on the
 * thread's first call and freed when the thread ends; NULL out of memory. */
soko_path_scratch *path_scratch(void);

#endif
