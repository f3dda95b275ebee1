/* sokod check: reads level files and reports every level's errors. */
#include "base/files.h"
#include "cli/cli.h"
#include "soko.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_usage(FILE *out)
{
    fprintf(out,
            "usage: sokod check [--json] FILE...\n"
            "\n"
            "Reads level collections (.xsb, .sok, .txt and the like) and checks every\n"
            "level: one player, as many goals as boxes, a closed board, every box\n"
            "within the player's reach, at most %dx%d squares. Prints each level's\n"
            "number, title and size, or its error as FILE:LINE:COL: message, then\n"
            "\"levels: N, valid: V, invalid: I\".\n"
            "\n"
            "  --json   print one JSON document instead\n"
            "  --help   show this help\n"
            "\n"
            "Exit status: 0 when every level is valid, 1 when a level is invalid or a\n"
            "file cannot be read or holds no level, 2 on a usage error.\n",
            SOKO_MAX_WIDTH, SOKO_MAX_HEIGHT);
}

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

typedef struct totals {
    unsigned levels, valid, invalid;
    bool file_failed;
} totals;

static void check_file(const char *path, bool json, json_t *files, totals *t)
{
    uint32_t len;
    json_t *jf;
    char *text = cli_read_reported(path, files, &jf, &len);
    if (text == NULL) {
        t->file_failed = true;
        return;
    }
    static soko_reader reader;
    static soko_entry entry;
    static soko_level level;
    soko_reader_init(&reader, text, len);
    json_t *jlevels = NULL;
    if (json) {
        if (reader.collection.len > 0)
            json_object_set_new(jf, "collection",
                                cli_json_text(text + reader.collection.off, reader.collection.len));
        jlevels = json_array();
        json_object_set_new(jf, "levels", jlevels);
    } else {
        printf("%s\n", path);
    }
    unsigned found = 0;
    while (soko_reader_next(&reader, &entry) == 1) {
        found++;
        t->levels++;
        soko_error err = {0};
        int rc = soko_level_parse(&level, text + entry.board.off, entry.board.len, entry.board_line,
                                  &err);
        const char *title = text + entry.title.off;
        int tlen = (int)entry.title.len;
        if (rc == SOKO_OK)
            t->valid++;
        else
            t->invalid++;
        if (json) {
            json_t *jl = json_object();
            json_object_set_new(jl, "number", json_integer(entry.number));
            json_object_set_new(jl, "title", cli_json_text(title, entry.title.len));
            json_object_set_new(jl, "line", json_integer(entry.board_line));
            json_object_set_new(jl, "valid", json_boolean(rc == SOKO_OK));
            if (rc == SOKO_OK) {
                char hash[20];
                snprintf(hash, sizeof hash, "%016llx",
                         (unsigned long long)soko_level_canonical_hash(&level));
                json_object_set_new(jl, "width", json_integer(level.width));
                json_object_set_new(jl, "height", json_integer(level.height));
                json_object_set_new(jl, "boxes", json_integer(level.boxes));
                json_object_set_new(jl, "hash", json_string(hash));
            } else {
                json_t *je = json_object();
                json_object_set_new(je, "code", json_string(soko_error_name(err.code)));
                json_object_set_new(je, "line", json_integer(err.line));
                json_object_set_new(je, "col", json_integer(err.col));
                json_object_set_new(je, "message", cli_json_text(err.message, strlen(err.message)));
                json_object_set_new(jl, "error", je);
            }
            json_array_append_new(jlevels, jl);
            continue;
        }
        if (tlen > 0)
            printf("  %u \"%.*s\": ", entry.number, tlen, title);
        else
            printf("  %u: ", entry.number);
        if (rc == SOKO_OK) {
            printf("ok %ux%u, %u box%s\n", level.width, level.height, level.boxes,
                   level.boxes == 1 ? "" : "es");
        } else if (err.col > 0) {
            printf("invalid\n%s:%u:%u: %s\n", path, err.line, err.col, err.message);
        } else {
            printf("invalid\n%s:%u: %s\n", path, err.line, err.message);
        }
    }
    if (found == 0) {
        t->file_failed = true;
        if (json)
            json_object_set_new(jf, "error", json_string("no level found"));
        else
            printf("%s: no level found\n", path);
    }
    free(text);
}

int cli_check(int argc, char **argv)
{
    bool json = false, options = true;
    char **paths = calloc((size_t)argc, sizeof *paths);
    int nfiles = 0;
    if (paths == NULL)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false;
        } else if (options && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
            check_usage(stdout);
            free(paths);
            return 0;
        } else if (options && strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "sokod check: unknown option '%s'\n\n", argv[i]);
            check_usage(stderr);
            free(paths);
            return 2;
        } else {
            paths[nfiles++] = argv[i];
        }
    }
    if (nfiles == 0) {
        check_usage(stderr);
        free(paths);
        return 2;
    }
    totals t = {0};
    json_t *root = json ? json_object() : NULL;
    json_t *files = json ? json_array() : NULL;
    for (int i = 0; i < nfiles; i++)
        check_file(paths[i], json, files, &t);
    free(paths);
    if (json) {
        json_object_set_new(root, "files", files);
        json_object_set_new(root, "levels", json_integer(t.levels));
        json_object_set_new(root, "valid", json_integer(t.valid));
        json_object_set_new(root, "invalid", json_integer(t.invalid));
        json_dumpf(root, stdout, JSON_INDENT(2));
        fputc('\n', stdout);
        json_decref(root);
    } else {
        printf("levels: %u, valid: %u, invalid: %u\n", t.levels, t.valid, t.invalid);
    }
    return t.invalid > 0 || t.file_failed ? 1 : 0;
}
