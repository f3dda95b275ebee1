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

static json_t *level_json(const struct cli_level *l)
{
    const soko_entry *e = l->entry;
    json_t *jl = json_object();
    json_object_set_new(jl, "number", json_integer(e->number));
    json_object_set_new(jl, "title", cli_json_text(l->text + e->title.off, e->title.len));
    json_object_set_new(jl, "line", json_integer(e->board_line));
    json_object_set_new(jl, "valid", json_boolean(l->level != NULL));
    if (l->level != NULL) {
        char hash[20];
        snprintf(hash, sizeof hash, "%016llx",
                 (unsigned long long)soko_level_canonical_hash(l->level));
        json_object_set_new(jl, "width", json_integer(l->level->width));
        json_object_set_new(jl, "height", json_integer(l->level->height));
        json_object_set_new(jl, "boxes", json_integer(l->level->boxes));
        json_object_set_new(jl, "hash", json_string(hash));
    } else {
        const soko_error *err = l->error;
        json_t *je = json_object();
        json_object_set_new(je, "code", json_string(soko_error_name(err->code)));
        json_object_set_new(je, "line", json_integer(err->line));
        json_object_set_new(je, "col", json_integer(err->col));
        json_object_set_new(je, "message", cli_json_text(err->message, strlen(err->message)));
        json_object_set_new(jl, "error", je);
    }
    return jl;
}

static void print_level(const struct cli_level *l)
{
    const soko_entry *e = l->entry;
    const soko_error *err = l->error;
    if (e->title.len > 0)
        printf("  %u \"%.*s\": ", e->number, (int)e->title.len, l->text + e->title.off);
    else
        printf("  %u: ", e->number);
    if (l->level != NULL) {
        printf("ok %ux%u, %u box%s\n", l->level->width, l->level->height, l->level->boxes,
               l->level->boxes == 1 ? "" : "es");
    } else if (err->col > 0) {
        printf("invalid\n%s:%u:%u: %s\n", l->path, err->line, err->col, err->message);
    } else {
        printf("invalid\n%s:%u: %s\n", l->path, err->line, err->message);
    }
}

static void check_level(void *ctx, const struct cli_level *l)
{
    totals *t = ctx;
    t->levels++;
    if (l->level != NULL)
        t->valid++;
    else
        t->invalid++;
    if (l->levels != NULL)
        json_array_append_new(l->levels, level_json(l));
    else
        print_level(l);
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
    json_t *files = json ? json_array() : NULL;
    t.file_failed = cli_each_file(r.args, r.nargs, files,
                                  CLI_LEVELS_COLLECTION | CLI_LEVELS_REQUIRED, check_level, &t);
    cli_print_summary(files, (struct cli_count[]){{"levels", t.levels, false},
                                                  {"valid", t.valid, false},
                                                  {"invalid", t.invalid, false},
                                                  {NULL, 0, false}});
    return t.invalid > 0 || t.file_failed ? 1 : 0;
}
