/* The access log: one line per request on stderr. Lines are gathered in
 * memory and written by a background thread a few times a second, so that
 * a request pays for a copy, not for a system call. */
#ifndef SOKOD_ACCESS_LOG_H
#define SOKOD_ACCESS_LOG_H

#include <stddef.h>

/* Starts the thread that writes gathered lines. Until it runs (and after
 * access_log_stop), each line is written at once. Returns 0, or -1 when
 * the thread cannot start (lines are then written at once). */
int access_log_start(void);

/* Adds one line (with its newline) of len bytes. Lines are never mixed:
 * each comes out whole, in the order they were added. Cannot fail; a line
 * that cannot be written is lost. */
void access_log_add(const char *line, size_t len);

/* Writes what is gathered and stops the thread. */
void access_log_stop(void);

#endif
