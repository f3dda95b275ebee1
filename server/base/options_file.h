/* A file of settings read against the same table of rows as the flags
 * (options.h), so that the file takes exactly what the flags take: one
 * setting a line, a flag's name without its dashes, then its value. */
#ifndef SOKOD_OPTIONS_FILE_H
#define SOKOD_OPTIONS_FILE_H

#include "base/options.h"

/* Reads the file at path into settings. Each line is blank, a comment
 * (its first non-blank character is '#'), or "name value" or
 * "name = value", with spaces around either trimmed; name is that of a row
 * with an environment variable (a setting of the site, not of one run);
 * rows that `command` does not take are checked but not stored. Returns 0,
 * or -1 after printing on stderr "sokod: PATH:LINE: " and what is wrong
 * (or why the file cannot be read), having stored the lines before it. */
int options_file_read(const struct options_row *rows, unsigned command, void *settings,
                      const char *path);

#endif
