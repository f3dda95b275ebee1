/* sokod generate: prints generated levels in the community text format,
 * with their reference solutions, ready for `sokod import`. */
#include "base/files.h"
#include "cli/cli.h"
#include "generate.h"
#include "soko.h"
#include "solver.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Positions the solver may store to check a level (a check only). */
#define VERIFY_NODES 2000000
#define MAX_COUNT 100000
#define MAX_JOBS 64

static void generate_usage(FILE *out)
{
    fprintf(out,
            "usage: sokod generate [--seed N] [--width W] [--height H] [--boxes K] [--count C]\n"
            "                      [--shape S] [--candidates N] [--min-score S] [--nodes N]\n"
            "                      [--title T] [--collection NAME] [--comment TEXT] [--sort]\n"
            "                      [--avoid FILE] [--no-verify] [--jobs N] [--json]\n"
            "\n"
            "Generates solvable levels and prints them in the community text format,\n"
            "each with its title, \"Author: sokod\", a comment giving its seed and\n"
            "difficulty score, and a solution with the fewest pushes. The same options\n"
            "give the same levels on every machine.\n"
            "\n"
            "  --seed N        the first level's seed (default 1); level i uses N + i,\n"
            "                  skipping seeds that repeat an earlier level of the run\n"
            "  --width W       the largest board width, outer walls included (5-40, default 12)\n"
            "  --height H      the largest board height (5-40, default 12)\n"
            "  --boxes K       boxes (1-8, default 3)\n"
            "                  W, H and K may be ranges such as 8-12: each level's seed picks\n"
            "  --count C       levels to print (default 1)\n"
            "  --shape S       room shape: any (default), open, rooms, cave or tiles\n"
            "  --candidates N  rooms whose best positions compete for each level (default 4)\n"
            "  --min-score S   try more rooms (up to 8 times as many) until the score reaches S\n"
            "  --nodes N       positions of the pull search per room (default 300000)\n"
            "  --title T       titles \"T 1\", \"T 2\"... (default \"Generated 1\"...)\n"
            "  --collection NAME  start with a collection header credited to sokod\n"
            "  --comment TEXT  the collection's comment\n"
            "  --sort          print the levels from the lowest difficulty score up\n"
            "  --avoid FILE    skip seeds that give a level of FILE (again for more files)\n"
            "  --no-verify     skip the solver's check of each level\n"
            "  --jobs N        generate on N threads (the output does not change)\n"
            "  --json          print one JSON document instead\n"
            "  --help          show this help\n"
            "\n"
            "Exit status: 0 when every level was generated, 1 when one could not be,\n"
            "2 on a usage error.\n");
}

typedef struct range {
    uint32_t lo, hi;
} range;

/* Reads "N" or "LO-HI" within [min, max]. */
static bool parse_range(const char *s, uint32_t min, uint32_t max, range *out)
{
    char *end;
    errno = 0;
    unsigned long lo = strtoul(s, &end, 10), hi = lo;
    if (errno != 0 || end == s || s[0] == '-')
        return false;
    if (*end == '-') {
        const char *h = end + 1;
        hi = strtoul(h, &end, 10);
        if (errno != 0 || end == h)
            return false;
    }
    if (*end != '\0' || lo < min || hi > max || lo > hi)
        return false;
    out->lo = (uint32_t)lo;
    out->hi = (uint32_t)hi;
    return true;
}

static bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    if (s[0] == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

typedef struct slot {
    uint64_t seed;
    gen_options opt;
    gen_level level;
    int rc;
} slot;

typedef struct batch {
    slot *slots;
    uint32_t n;
    uint32_t next;
    pthread_mutex_t lock;
} batch;

static void *generate_worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        uint32_t i = b->next < b->n ? b->next++ : b->n;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->n)
            return NULL;
        b->slots[i].rc = gen_generate(&b->slots[i].opt, &b->slots[i].level);
    }
}

/* The options of the level of `seed`: sizes and boxes picked from their
 * ranges by a number derived from the seed alone. */
static gen_options level_options(const gen_options *base, uint64_t seed, range w, range h, range k)
{
    gen_options o = *base;
    uint64_t x = soko_mix64(seed ^ 0x51DE5EEDull);
    o.seed = seed;
    o.width = (uint16_t)(w.lo + (uint32_t)(x % (w.hi - w.lo + 1)));
    x = soko_mix64(x);
    o.height = (uint16_t)(h.lo + (uint32_t)(x % (h.hi - h.lo + 1)));
    x = soko_mix64(x);
    o.boxes = (uint16_t)(k.lo + (uint32_t)(x % (k.hi - k.lo + 1)));
    return o;
}

static int by_score(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->level.score != y->level.score)
        return x->level.score < y->level.score ? -1 : 1;
    return x->seed < y->seed ? -1 : x->seed > y->seed;
}

static void print_text(const slot *s, const char *title, unsigned number)
{
    const gen_level *l = &s->level;
    printf("%s", l->board);
    printf("Title: %s %u\n", title, number);
    printf("Author: sokod\n");
    printf("Comment: Seed %" PRIu64 ", %s shape, difficulty score %u.\n", s->seed,
           gen_shape_name(l->shape), l->score);
    printf("\nSolution\n%s\n\n", l->solution);
}

static json_t *level_json(const slot *s, const char *title, unsigned number)
{
    const gen_level *l = &s->level;
    char name[300];
    snprintf(name, sizeof name, "%s %u", title, number);
    json_t *j = json_object();
    json_object_set_new(j, "title", json_string(name));
    json_object_set_new(j, "seed", json_integer((json_int_t)s->seed));
    json_object_set_new(j, "area_width", json_integer(s->opt.width));
    json_object_set_new(j, "area_height", json_integer(s->opt.height));
    json_object_set_new(j, "board", json_string(l->board));
    json_object_set_new(j, "solution", json_string(l->solution));
    json_object_set_new(j, "width", json_integer(l->width));
    json_object_set_new(j, "height", json_integer(l->height));
    json_object_set_new(j, "boxes", json_integer(l->boxes));
    json_object_set_new(j, "shape", json_string(gen_shape_name(l->shape)));
    json_object_set_new(j, "moves", json_integer(l->moves));
    json_object_set_new(j, "pushes", json_integer(l->pushes));
    json_object_set_new(j, "box_lines", json_integer(l->box_lines));
    json_object_set_new(j, "box_changes", json_integer(l->box_changes));
    json_object_set_new(j, "effort", json_integer((json_int_t)l->effort));
    json_object_set_new(j, "score", json_integer(l->score));
    json_object_set_new(j, "rooms", json_integer(l->rooms));
    if (l->solver_status >= 0) {
        json_object_set_new(j, "solver", json_string(solver_status_name(l->solver_status)));
        json_object_set_new(j, "solver_nodes", json_integer((json_int_t)l->solver_nodes));
    }
    return j;
}

/* The canonical hash of a generated board, to skip repeats. */
static uint64_t board_hash(const char *board)
{
    static _Thread_local soko_level lvl;
    soko_error err;
    if (soko_level_parse(&lvl, board, (uint32_t)strlen(board), 1, &err) != SOKO_OK)
        return 0;
    return soko_level_canonical_hash(&lvl);
}

/* The canonical hashes of a level file's valid boards, appended to *list.
 * Returns false (after a message) when the file cannot be read. */
static bool read_avoid(const char *path, uint64_t **list, size_t *n, size_t *cap)
{
    uint32_t len;
    char *text = file_read_whole(path, &len);
    if (text == NULL) {
        fprintf(stderr, "sokod generate: %s: cannot read: %s\n", path, strerror(errno));
        return false;
    }
    static soko_reader reader;
    static soko_entry entry;
    soko_reader_init(&reader, text, len);
    while (soko_reader_next(&reader, &entry) == 1) {
        char *board = strndup(text + entry.board.off, entry.board.len);
        uint64_t hash = board != NULL ? board_hash(board) : 0;
        free(board);
        if (hash == 0)
            continue;
        if (*n == *cap) {
            size_t bigger = *cap == 0 ? 256 : *cap * 2;
            uint64_t *grown = realloc(*list, bigger * sizeof *grown);
            if (grown == NULL)
                break;
            *list = grown;
            *cap = bigger;
        }
        (*list)[(*n)++] = hash;
    }
    free(text);
    return true;
}

int cli_generate(int argc, char **argv)
{
    uint64_t *avoid = NULL;
    size_t avoid_n = 0, avoid_cap = 0;
    gen_options base;
    gen_options_default(&base);
    base.verify_nodes = VERIFY_NODES;
    range w = {12, 12}, h = {12, 12}, k = {3, 3};
    uint64_t count = 1, jobs = 1, v = 0;
    const char *title = "Generated", *collection = NULL, *comment = NULL;
    bool json = false, sort = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            generate_usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
            continue;
        } else if (strcmp(a, "--sort") == 0) {
            sort = true;
            continue;
        } else if (strcmp(a, "--no-verify") == 0) {
            base.verify_nodes = 0;
            continue;
        } else if (val == NULL) {
            ok = false;
        } else if (strcmp(a, "--seed") == 0) {
            ok = parse_u64(val, 0, UINT64_MAX, &base.seed);
        } else if (strcmp(a, "--width") == 0) {
            ok = parse_range(val, GEN_MIN_SIDE, GEN_MAX_SIDE, &w);
        } else if (strcmp(a, "--height") == 0) {
            ok = parse_range(val, GEN_MIN_SIDE, GEN_MAX_SIDE, &h);
        } else if (strcmp(a, "--boxes") == 0) {
            ok = parse_range(val, 1, GEN_MAX_BOXES, &k);
        } else if (strcmp(a, "--count") == 0) {
            ok = parse_u64(val, 1, MAX_COUNT, &count);
        } else if (strcmp(a, "--jobs") == 0) {
            ok = parse_u64(val, 1, MAX_JOBS, &jobs);
        } else if (strcmp(a, "--candidates") == 0) {
            ok = parse_u64(val, 1, 1000, &v);
            base.candidates = (uint32_t)v;
        } else if (strcmp(a, "--min-score") == 0) {
            ok = parse_u64(val, 0, 100000, &v);
            base.min_score = (uint32_t)v;
        } else if (strcmp(a, "--nodes") == 0) {
            ok = parse_u64(val, 1, 50000000, &base.node_limit);
        } else if (strcmp(a, "--shape") == 0) {
            int s = gen_shape_from_name(val);
            ok = s >= 0;
            base.shape = (uint8_t)(s >= 0 ? s : 0);
        } else if (strcmp(a, "--title") == 0) {
            title = val;
            ok = val[0] != '\0' && strlen(val) < 200 && strchr(val, '\n') == NULL;
        } else if (strcmp(a, "--collection") == 0) {
            collection = val;
            ok = val[0] != '\0' && strchr(val, '\n') == NULL;
        } else if (strcmp(a, "--comment") == 0) {
            comment = val;
        } else if (strcmp(a, "--avoid") == 0) {
            if (!read_avoid(val, &avoid, &avoid_n, &avoid_cap)) {
                free(avoid);
                return 1;
            }
        } else {
            fprintf(stderr, "sokod generate: unknown option '%s'\n\n", a);
            generate_usage(stderr);
            free(avoid);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "sokod generate: %s needs a valid value%s%s\n\n", a, val ? ": " : "",
                    val ? val : "");
            generate_usage(stderr);
            free(avoid);
            return 2;
        }
        i++;
    }
    slot *done = calloc(count, sizeof *done);
    uint64_t *hashes = calloc(count, sizeof *hashes);
    uint32_t per_batch = (uint32_t)jobs * 4;
    slot *slots = calloc(per_batch, sizeof *slots);
    if (done == NULL || hashes == NULL || slots == NULL) {
        free(done);
        free(hashes);
        free(slots);
        free(avoid);
        fprintf(stderr, "sokod generate: out of memory\n");
        return 1;
    }
    uint64_t have = 0, seed = base.seed, skipped = 0;
    int status = 0;
    /* Seeds are generated in batches on the threads, and taken in seed
     * order, so the levels do not depend on the number of threads. */
    while (have < count && status == 0) {
        uint32_t n = (uint32_t)(count - have < per_batch ? count - have : per_batch);
        for (uint32_t i = 0; i < n; i++) {
            slots[i].seed = seed + i;
            slots[i].opt = level_options(&base, seed + i, w, h, k);
        }
        batch b = {.slots = slots, .n = n, .next = 0};
        pthread_mutex_init(&b.lock, NULL);
        pthread_t threads[MAX_JOBS];
        unsigned started = 0;
        for (unsigned t = 1; t < jobs && t < n; t++) {
            if (pthread_create(&threads[started], NULL, generate_worker, &b) == 0)
                started++;
        }
        generate_worker(&b);
        for (unsigned t = 0; t < started; t++)
            pthread_join(threads[t], NULL);
        pthread_mutex_destroy(&b.lock);
        for (uint32_t i = 0; i < n; i++) {
            slot *s = &slots[i];
            if (s->rc != GEN_OK) {
                fprintf(stderr, "sokod generate: seed %" PRIu64 ": %s\n", s->seed,
                        gen_error_name(s->rc));
                status = 1;
                continue;
            }
            uint64_t hash = board_hash(s->level.board);
            bool repeat = false;
            for (uint64_t j = 0; j < have && !repeat; j++)
                repeat = hashes[j] == hash;
            for (size_t j = 0; j < avoid_n && !repeat; j++)
                repeat = avoid[j] == hash;
            if (repeat || have == count || status != 0) {
                skipped += repeat;
                gen_level_free(&s->level);
                continue;
            }
            hashes[have] = hash;
            done[have++] = *s;
        }
        seed += n;
    }
    if (sort)
        qsort(done, have, sizeof *done, by_score);
    json_t *root = NULL, *levels = NULL;
    if (json) {
        root = json_object();
        levels = json_array();
        if (collection != NULL)
            json_object_set_new(root, "collection", json_string(collection));
        json_object_set_new(root, "levels", levels);
    } else if (collection != NULL) {
        printf("Collection: %s\nAuthor: sokod\n", collection);
        if (comment != NULL)
            printf("Comment:\n%s\nComment-End:\n", comment);
        printf("\n");
    }
    for (uint64_t i = 0; i < have; i++) {
        if (json)
            json_array_append_new(levels, level_json(&done[i], title, (unsigned)i + 1));
        else
            print_text(&done[i], title, (unsigned)i + 1);
        gen_level_free(&done[i].level);
    }
    if (json) {
        json_object_set_new(root, "skipped_repeats", json_integer((json_int_t)skipped));
        json_dumpf(root, stdout, JSON_INDENT(2));
        fputc('\n', stdout);
        json_decref(root);
    }
    free(done);
    free(hashes);
    free(slots);
    free(avoid);
    return status;
}
