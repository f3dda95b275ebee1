/* sokod check: reads level files and reports every level's errors. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "soko.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct check_args {
    bool json;
};

static const struct options_row check_rows[] = {
    CLI_JSON_ROW(struct check_args),
    CLI_HELP_ROW,
    OPTIONS_END,
};

/* The largest board, as the help states it: "128x128". */
#define DIGITS_OF(n) #n
#define DIGITS(n) DIGITS_OF(n)
#define MAX_SIZE DIGITS(SOKO_MAX_WIDTH) "x" DIGITS(SOKO_MAX_HEIGHT)

static const struct cli_command check_command = {
    .name = "check",
    .about = "usage: sokod check [--json] FILE...\n"
             "\n"
             "Reads level collections (.xsb, .sok, .txt and the like) and checks every\n"
             "level: one player, as many goals as boxes, a closed board, every box\n"
             "within the player's reach, at most " MAX_SIZE " squares. Prints each level's\n"
             "number, title and size, or its error as FILE:LINE:COL: message, then\n"
             "\"levels: N, valid: V, invalid: I\".\n"
             "\n",
    .rows = check_rows,
    .pad = 7,
    .after = "Exit status: 0 when every level is valid, 1 when a level is invalid or a\n"
             "file cannot be read or holds no level, 2 on a usage error.\n",
    .files = true,
};

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
    struct check_args args = {0};
    struct options_result r;
    int early = cli_options(&check_command, &args, argc, argv, &r);
    if (early >= 0)
        return early;
    bool json = args.json;
    totals t = {0};
    json_t *root = json ? json_object() : NULL;
    json_t *files = json ? json_array() : NULL;
    for (int i = 0; i < r.nargs; i++)
        check_file(r.args[i], json, files, &t);
    if (json) {
        json_object_set_new(root, "files", files);
        json_object_set_new(root, "levels", json_integer(t.levels));
        json_object_set_new(root, "valid", json_integer(t.valid));
        json_object_set_new(root, "invalid", json_integer(t.invalid));
        cli_print_json(root);
    } else {
        printf("levels: %u, valid: %u, invalid: %u\n", t.levels, t.valid, t.invalid);
    }
    return t.invalid > 0 || t.file_failed ? 1 : 0;
}
