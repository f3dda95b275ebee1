/* The commands of the sokod program. Each takes the arguments after its own
 * name (argv[0] is the command's name) and returns the process exit status. */
#ifndef SOKOD_CLI_H
#define SOKOD_CLI_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

int cli_check(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_import(int argc, char **argv);
int cli_admin(int argc, char **argv);
int cli_generate(int argc, char **argv);
int cli_backup(int argc, char **argv);
int cli_restore(int argc, char **argv);

/* file_read_whole (base/files.h) for a command that reports per file. With `files` (a JSON
 * array; NULL for text output) it appends {"path": path} and sets *entry to
 * it (else *entry is NULL). When the file cannot be read, says why (in the
 * entry, or on standard output) and returns NULL. */
char *cli_read_reported(const char *path, json_t *files, json_t **entry, uint32_t *len);

/* A JSON string of len bytes of text that may not be UTF-8: invalid bytes
 * become '?'. */
json_t *cli_json_text(const char *s, size_t len);

#endif
