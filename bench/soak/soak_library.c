/* The soak's levels: the folder sokod serves (the checkout's levels and an
 * open floor of the soak's own), and the library as the players see it. */
#include "reader.h"
#include "soak.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An open floor: the player walks anywhere in columns 1 to 8 of rows 1 to 4
 * without touching the box, which stands on row 5 beside its goal. */
static const char WALK_FILE[] = "Collection: Soak\n\n; Open floor\n##########\n#@       #\n"
                                "#        #\n#        #\n#        #\n#   $.   #\n##########\n";

/* What the players know of the library, read once at the start. */
long library_walk_level;
long library_tutorial_level[MAX_TUTORIAL];
char *library_tutorial_line[MAX_TUTORIAL];
unsigned library_ntutorial;
long *library_browse;
unsigned library_nbrowse;
long library_collections[32];
unsigned library_ncollections;

/* The levels folder: the checkout's bundled files (linked, not copied) and
 * the open floor of this benchmark. */
void library_make_levels(const char *levels)
{
    DIR *d = opendir(SOKOD_SOURCE_DIR "/levels");
    if (d == NULL)
        soak_fail("cannot read %s/levels", SOKOD_SOURCE_DIR);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".sok") != 0)
            continue;
        char from[PATH_MAX + 512], to[2 * PATH_MAX];
        snprintf(from, sizeof from, "%s/levels/%s", SOKOD_SOURCE_DIR, e->d_name);
        snprintf(to, sizeof to, "%s/%s", levels, e->d_name);
        if (symlink(from, to) != 0)
            soak_fail("cannot link %s", to);
    }
    closedir(d);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/soak.sok", levels);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(WALK_FILE, f) < 0 || fclose(f) != 0)
        soak_fail("cannot write %s", path);
}

/* One blocking GET of the setting up, which must answer 200 with JSON:
 * returns the answer parsed (json_decref); exits with the answer when it is
 * anything else. */
static json_t *setup_get(struct bench_http_client *client, const char *path)
{
    char *body;
    int status = bench_http_request(client, "GET", path, NULL, &body);
    json_t *doc = status == 200 ? bench_json_parse(body) : NULL;
    if (status < 0)
        soak_fail("cannot reach sokod for GET %s", path);
    if (doc == NULL)
        soak_fail("GET %s: %d %s", path, status, body);
    free(body);
    return doc;
}

/* The tutorial's solutions, by level number, from the checkout's file. */
static void read_tutorial(char *lines[MAX_TUTORIAL], unsigned *count)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/levels/tutorial.sok", SOKOD_SOURCE_DIR);
    uint32_t len;
    char *text = bench_env_read_file(path, &len);
    if (text == NULL)
        soak_fail("cannot read %s", path);
    soko_reader r;
    soko_entry e;
    soko_reader_init(&r, text, len);
    *count = 0;
    while (soko_reader_next(&r, &e) && *count < MAX_TUTORIAL) {
        if (e.solution_count == 0)
            soak_fail("tutorial level %u has no solution", e.number);
        soko_span s = e.solution[0].moves;
        char *line = malloc(s.len + 1);
        size_t n = 0;
        for (uint32_t i = 0; i < s.len; i++) {
            char ch = text[s.off + i];
            if (strchr("lurdLURD", ch) != NULL)
                line[n++] = ch;
        }
        line[n] = '\0';
        lines[(*count)++] = line;
    }
    free(text);
    if (*count == 0)
        soak_fail("no level in %s", path);
}

/* Reads the collections' ids, and which are the tutorial and the open
 * floor's. */
static void read_collections(struct bench_http_client *client, long *tutorial, long *soak)
{
    json_t *doc = setup_get(client, "/api/v1/collections");
    size_t i;
    json_t *c;
    *tutorial = *soak = 0;
    json_array_foreach(json_object_get(doc, "collections"), i, c)
    {
        long id = bench_json_long(c, "id", 0);
        const char *name = bench_json_text(c, "name");
        if (library_ncollections < sizeof library_collections / sizeof library_collections[0])
            library_collections[library_ncollections++] = id;
        if (name != NULL && strcmp(name, "First Steps") == 0)
            *tutorial = id;
        if (name != NULL && strcmp(name, "Soak") == 0)
            *soak = id;
    }
    json_decref(doc);
    if (*tutorial == 0 || *soak == 0)
        soak_fail("the library has no tutorial or no Soak collection");
}

/* Sorts the levels of collection `id` into the open floor, the tutorial's
 * levels (with their solutions) and the levels to browse. */
static void read_levels(struct bench_http_client *client, long id, long tutorial, long soak,
                        char *const *solutions, unsigned nsolutions)
{
    char path[96];
    snprintf(path, sizeof path, "/api/v1/collections/%ld", id);
    json_t *doc = setup_get(client, path);
    size_t i;
    json_t *level;
    json_array_foreach(json_object_get(doc, "levels"), i, level)
    {
        long level_id = bench_json_long(level, "id", 0);
        long position = bench_json_long(level, "position", 0);
        if (id == soak) {
            library_walk_level = level_id;
        } else if (id == tutorial) {
            if (position >= 1 && (unsigned)position <= nsolutions) {
                library_tutorial_level[library_ntutorial] = level_id;
                library_tutorial_line[library_ntutorial++] = solutions[position - 1];
            }
        } else {
            long *b = realloc(library_browse, (library_nbrowse + 1) * sizeof *b);
            if (b == NULL)
                soak_fail("out of memory");
            library_browse = b;
            library_browse[library_nbrowse++] = level_id;
        }
    }
    json_decref(doc);
}

/* Finds the open floor, the tutorial's levels and every level to browse. */
void library_read(void)
{
    struct bench_http_client client = bench_http_client(soak_port);
    long tutorial, soak;
    read_collections(&client, &tutorial, &soak);
    char *solutions[MAX_TUTORIAL];
    unsigned nsolutions;
    read_tutorial(solutions, &nsolutions);
    for (unsigned i = 0; i < library_ncollections; i++)
        read_levels(&client, library_collections[i], tutorial, soak, solutions, nsolutions);
    if (library_walk_level == 0 || library_ntutorial == 0 || library_nbrowse == 0)
        soak_fail("the library lacks levels to play");
    /* The open floor must stand as written: a game on it starts at (1, 1). */
    char path[96];
    snprintf(path, sizeof path, "/api/v1/levels/%ld", library_walk_level);
    json_t *doc = setup_get(&client, path);
    const json_t *rows = bench_json_at(doc, "level.rows");
    const char *row0 = json_string_value(json_array_get(rows, 0));
    const char *row1 = json_string_value(json_array_get(rows, 1));
    if (row0 == NULL || row1 == NULL || strcmp(row0, "##########") != 0 ||
        strcmp(row1, "#@       #") != 0) {
        char *text = json_dumps(doc, JSON_COMPACT);
        soak_fail("the open floor is not as written: %s", text != NULL ? text : "");
    }
    json_decref(doc);
    bench_http_close(&client);
}
