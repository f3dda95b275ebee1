/* A file of settings read against a table of rows (options_file.h). */
#include "base/options_file.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest line read; a longer one is refused rather than cut. */
enum { LINE_MAX_BYTES = 4096 };

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The row named by the len bytes of name that a file may set, or NULL. */
static const struct options_row *find_setting(const struct options_row *rows, const char *name,
                                              size_t len)
{
    for (const struct options_row *row = rows; row->kind != OPTIONS_KIND_END; row++) {
        if (row->env != NULL && strlen(row->name) == len && strncmp(row->name, name, len) == 0)
            return row;
    }
    return NULL;
}

/* Reads one line, already cut of its end of line, into settings (or into
 * scratch, for a row `command` does not take). Returns 0, or -1 after
 * saying what is wrong, prefixed by where. */
static int read_line(const struct options_row *rows, unsigned command, void *settings,
                     void *scratch, char *line, const char *where)
{
    while (is_blank(*line))
        line++;
    size_t end = strlen(line);
    while (end > 0 && is_blank(line[end - 1]))
        line[--end] = '\0';
    if (line[0] == '\0' || line[0] == '#')
        return 0;
    size_t name_len = strcspn(line, " \t=");
    const char *value = line + name_len;
    while (is_blank(*value))
        value++;
    if (*value == '=') {
        value++;
        while (is_blank(*value))
            value++;
    }
    const struct options_row *row = find_setting(rows, line, name_len);
    if (row == NULL) {
        fprintf(stderr,
                "sokod: %s: unknown setting '%.*s' (the settings are the flags of "
                "sokod serve --help, without their dashes)\n",
                where, (int)name_len, line);
        return -1;
    }
    if (*value == '\0') {
        fprintf(stderr, "sokod: %s: %s needs a value\n", where, row->name);
        return -1;
    }
    bool taken = row->commands == 0 || (row->commands & command) != 0;
    int stored = options_store(row, taken ? settings : scratch, value);
    if (stored == OPTIONS_STOP)
        return -1;
    if (stored != OPTIONS_STORED) {
        fprintf(stderr, "sokod: %s: invalid value '%s' for %s (%s)\n", where, value, row->name,
                row->help);
        return -1;
    }
    return 0;
}

int options_file_read(const struct options_row *rows, unsigned command, void *settings,
                      const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "sokod: cannot read the settings file %s: %s\n", path, strerror(errno));
        return -1;
    }
    /* Settings of other commands are checked into a scratch copy as large
     * as the largest field any row writes. */
    size_t scratch_size = 1;
    for (const struct options_row *row = rows; row->kind != OPTIONS_KIND_END; row++) {
        if (row->offset + row->size > scratch_size)
            scratch_size = row->offset + row->size;
    }
    void *scratch = calloc(1, scratch_size);
    char *line = malloc(LINE_MAX_BYTES);
    int status = scratch != NULL && line != NULL ? 0 : -1;
    if (status != 0)
        fprintf(stderr, "sokod: out of memory reading %s\n", path);
    for (unsigned n = 1; status == 0 && fgets(line, LINE_MAX_BYTES, f) != NULL; n++) {
        char where[PATH_MAX + 16];
        snprintf(where, sizeof where, "%s:%u", path, n);
        size_t len = strlen(line);
        if (len == LINE_MAX_BYTES - 1 && line[len - 1] != '\n' && !feof(f)) {
            fprintf(stderr, "sokod: %s: line longer than %d bytes\n", where, LINE_MAX_BYTES - 2);
            status = -1;
        } else {
            status = read_line(rows, command, settings, scratch, line, where);
        }
    }
    if (status == 0 && ferror(f)) {
        fprintf(stderr, "sokod: cannot read the settings file %s: %s\n", path, strerror(errno));
        status = -1;
    }
    fclose(f);
    free(line);
    free(scratch);
    return status;
}
