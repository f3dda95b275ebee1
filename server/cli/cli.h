/* The commands of the sokod program. Each takes the arguments after its own
 * name (argv[0] is the command's name) and returns the process exit status. */
#ifndef SOKOD_CLI_H
#define SOKOD_CLI_H

#include "soko.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int cli_check(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_import(int argc, char **argv);
int cli_admin(int argc, char **argv);
int cli_generate(int argc, char **argv);
int cli_backup(int argc, char **argv);
int cli_solve(int argc, char **argv);
int cli_optimise(int argc, char **argv);
int cli_restore(int argc, char **argv);
int cli_copy(int argc, char **argv);

/* file_read_whole (base/files.h) for a command that reports per file. With `files` (a JSON
 * array; NULL for text output) it appends {"path": path} and sets *entry to
 * it (else *entry is NULL). When the file cannot be read, says why (in the
 * entry, or on standard output) and returns NULL. */
char *cli_read_reported(const char *path, json_t *files, json_t **entry, uint32_t *len);

/* A JSON string of len bytes of text that may not be UTF-8: invalid bytes
 * become '?'. */
json_t *cli_json_text(const char *s, size_t len);

/* One level of a level file, as cli_each_level hands it over. */
struct cli_level {
    const char *path, *text; /* the file, and its text the spans point into */
    const soko_entry *entry;
    const soko_level *level; /* NULL when the board is invalid */
    const soko_error *error; /* why, then */
    json_t *levels;          /* the file's "levels" array; NULL for text output */
};

/* Ways of cli_each_level. */
enum {
    CLI_LEVELS_COLLECTION = 1, /* the JSON entry names the file's collection */
    CLI_LEVELS_REQUIRED = 2,   /* a file without a level fails, and says so */
};

/* Reads the level file `path` as cli_read_reported does, announces it (its
 * name on standard output, or a "levels" array in its JSON entry), and
 * calls fn(ctx, level) for each of its levels in order. Returns the number
 * of levels, or -1 when the file cannot be read (or, with
 * CLI_LEVELS_REQUIRED, holds none). */
int cli_each_level(const char *path, json_t *files, unsigned flags,
                   void (*fn)(void *ctx, const struct cli_level *level), void *ctx);

/* Prints root as an indented JSON document and a line end on standard
 * output, then frees it. */
void cli_print_json(json_t *root);

/* cli_each_level over the n files of paths, in order. Returns true when
 * one of them failed (could not be read, or held no level when required). */
bool cli_each_file(char **paths, int n, json_t *files, unsigned flags,
                   void (*fn)(void *ctx, const struct cli_level *level), void *ctx);

/* The levels in the n files of paths, as cli_each_file finds them; a file
 * that cannot be read counts none. Says nothing. */
unsigned cli_count_levels(char **paths, int n);

/* One count of a command's closing summary. */
struct cli_count {
    const char *name;
    unsigned value;
    bool json_only; /* left out of the text line */
};

/* Prints a command's closing summary, counts ended by one whose name is
 * NULL. With files (JSON output) it prints one JSON document, {"files":
 * files, then each count}, and takes files over; else one line,
 * "name: value, name: value". */
void cli_print_summary(json_t *files, const struct cli_count *counts);

#endif
