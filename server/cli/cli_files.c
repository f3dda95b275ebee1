/* What the commands that read level files share: reading a file's levels
 * and saying why it cannot be read, text that may not be UTF-8 in JSON,
 * and printing JSON. */
#include "cli/cli.h"

#include "base/files.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cli_read_reported(const char *path, json_t *files, json_t **entry, uint32_t *len)
{
    char *text = file_read_whole(path, len);
    int error = errno;
    *entry = files != NULL ? json_object() : NULL;
    if (*entry != NULL) {
        json_object_set_new(*entry, "path", cli_json_text(path, strlen(path)));
        json_array_append_new(files, *entry);
    }
    if (text == NULL) {
        if (*entry != NULL)
            json_object_set_new(*entry, "error", json_string(strerror(error)));
        else
            printf("%s: cannot read: %s\n", path, strerror(error));
    }
    return text;
}

json_t *cli_json_text(const char *s, size_t len)
{
    json_t *j = json_stringn(s, len);
    if (j != NULL)
        return j;
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return json_string("");
    for (size_t i = 0; i < len; i++)
        copy[i] = (s[i] & 0x80) || s[i] == '\0' ? '?' : s[i];
    j = json_stringn(copy, len);
    free(copy);
    return j;
}

/* Names the file about to be reported: on standard output, or as the
 * "levels" array of its JSON entry jf (after its collection, when asked);
 * returns that array. */
static json_t *announce(const char *path, const char *text, const soko_reader *reader, json_t *jf,
                        unsigned flags)
{
    if (jf == NULL) {
        printf("%s\n", path);
        return NULL;
    }
    soko_span collection = reader->collection;
    if ((flags & CLI_LEVELS_COLLECTION) != 0 && collection.len > 0)
        json_object_set_new(jf, "collection", cli_json_text(text + collection.off, collection.len));
    json_t *levels = json_array();
    json_object_set_new(jf, "levels", levels);
    return levels;
}

int cli_each_level(const char *path, json_t *files, unsigned flags,
                   void (*fn)(void *ctx, const struct cli_level *level), void *ctx)
{
    uint32_t len;
    json_t *jf;
    char *text = cli_read_reported(path, files, &jf, &len);
    if (text == NULL)
        return -1;
    static soko_reader reader;
    static soko_entry entry;
    static soko_level level;
    soko_reader_init(&reader, text, len);
    struct cli_level l = {.path = path, .text = text, .entry = &entry};
    l.levels = announce(path, text, &reader, jf, flags);
    int found = 0;
    while (soko_reader_next(&reader, &entry) == 1) {
        soko_error err = {0};
        int rc = soko_level_parse(&level, text + entry.board.off, entry.board.len, entry.board_line,
                                  &err);
        l.level = rc == SOKO_OK ? &level : NULL;
        l.error = &err;
        fn(ctx, &l);
        found++;
    }
    free(text);
    if (found > 0 || (flags & CLI_LEVELS_REQUIRED) == 0)
        return found;
    if (jf != NULL)
        json_object_set_new(jf, "error", json_string("no level found"));
    else
        printf("%s: no level found\n", path);
    return -1;
}

void cli_print_json(json_t *root)
{
    json_dumpf(root, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    json_decref(root);
}

bool cli_each_file(char **paths, int n, json_t *files, unsigned flags,
                   void (*fn)(void *ctx, const struct cli_level *level), void *ctx)
{
    bool failed = false;
    for (int i = 0; i < n; i++) {
        if (cli_each_level(paths[i], files, flags, fn, ctx) < 0)
            failed = true;
    }
    return failed;
}

unsigned cli_count_levels(char **paths, int n)
{
    unsigned count = 0;
    static soko_reader reader;
    static soko_entry entry;
    for (int i = 0; i < n; i++) {
        uint32_t len;
        char *text = file_read_whole(paths[i], &len);
        if (text == NULL)
            continue;
        soko_reader_init(&reader, text, len);
        while (soko_reader_next(&reader, &entry) == 1)
            count++;
        free(text);
    }
    return count;
}

void cli_print_summary(json_t *files, const struct cli_count *counts)
{
    if (files != NULL) {
        json_t *root = json_object();
        json_object_set_new(root, "files", files);
        for (const struct cli_count *c = counts; c->name != NULL; c++)
            json_object_set_new(root, c->name, json_integer(c->value));
        cli_print_json(root);
        return;
    }
    const char *sep = "";
    for (const struct cli_count *c = counts; c->name != NULL; c++) {
        if (c->json_only)
            continue;
        printf("%s%s: %u", sep, c->name, c->value);
        sep = ", ";
    }
    putchar('\n');
}
