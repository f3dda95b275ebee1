/* sokod generate: prints generated levels in the community text format,
 * with their reference solutions, ready for `sokod import`. */
#include "base/files.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_progress.h"
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

typedef struct range {
    uint32_t lo, hi;
} range;

/* Canonical board hashes, grown as needed. */
typedef struct hash_list {
    uint64_t *hashes;
    size_t n, cap;
} hash_list;

/* What the flags ask for. */
typedef struct generate_args {
    gen_options base;
    range width, height, boxes;
    uint64_t count, jobs;
    const char *title, *collection, *comment;
    bool sort, no_verify, json;
    hash_list avoid; /* the boards of --avoid's files */
} generate_args;

/* Reads "N" or "LO-HI", decimal digits only, within [min, max]. */
static bool parse_range(const char *s, uint32_t min, uint32_t max, range *out)
{
    char *end;
    errno = 0;
    if (s[0] < '0' || s[0] > '9')
        return false;
    unsigned long lo = strtoul(s, &end, 10), hi = lo;
    if (*end == '-') {
        const char *h = end + 1;
        if (h[0] < '0' || h[0] > '9')
            return false;
        hi = strtoul(h, &end, 10);
    }
    if (errno != 0 || *end != '\0' || lo < min || hi > max || lo > hi)
        return false;
    out->lo = (uint32_t)lo;
    out->hi = (uint32_t)hi;
    return true;
}

static int store_side(void *field, const char *value)
{
    return parse_range(value, GEN_MIN_SIDE, GEN_MAX_SIDE, field) ? OPTIONS_STORED : OPTIONS_REFUSED;
}

static int store_boxes(void *field, const char *value)
{
    return parse_range(value, 1, GEN_MAX_BOXES, field) ? OPTIONS_STORED : OPTIONS_REFUSED;
}

static int store_shape(void *field, const char *value)
{
    int shape = gen_shape_from_name(value);
    if (shape < 0)
        return OPTIONS_REFUSED;
    *(uint8_t *)field = (uint8_t)shape;
    return OPTIONS_STORED;
}

/* A title: one line, not empty, short enough for "TITLE 100000" to fit. */
static int store_title(void *field, const char *value)
{
    if (value[0] == '\0' || strlen(value) >= 200 || strchr(value, '\n') != NULL)
        return OPTIONS_REFUSED;
    *(const char **)field = value;
    return OPTIONS_STORED;
}

static int store_collection(void *field, const char *value)
{
    if (value[0] == '\0' || strchr(value, '\n') != NULL)
        return OPTIONS_REFUSED;
    *(const char **)field = value;
    return OPTIONS_STORED;
}

static int store_comment(void *field, const char *value)
{
    *(const char **)field = value;
    return OPTIONS_STORED;
}

static int store_avoid(void *field, const char *path);

static const struct options_row generate_rows[] = {
    {"seed", NULL, 0, "N",
     "the first level's seed (default 1); level i uses N + i,\n"
     "skipping seeds that repeat an earlier level of the run",
     OPTIONS_NUMBER(generate_args, base.seed, 0, UINT64_MAX)},
    {"width", NULL, 0, "W", "the largest board width, outer walls included (5-40, default 12)",
     OPTIONS_BY(generate_args, width, store_side)},
    {"height", NULL, 0, "H", "the largest board height (5-40, default 12)",
     OPTIONS_BY(generate_args, height, store_side)},
    {"boxes", NULL, 0, "K",
     "boxes (1-8, default 3)\n"
     "W, H and K may be ranges such as 8-12: each level's seed picks",
     OPTIONS_BY(generate_args, boxes, store_boxes)},
    {"count", NULL, 0, "C", "levels to print (default 1)",
     OPTIONS_NUMBER(generate_args, count, 1, MAX_COUNT)},
    {"shape", NULL, 0, "S", "room shape: any (default), open, rooms, cave or tiles",
     OPTIONS_BY(generate_args, base.shape, store_shape)},
    {"candidates", NULL, 0, "N", "rooms whose best positions compete for each level (default 4)",
     OPTIONS_NUMBER(generate_args, base.candidates, 1, 1000)},
    {"min-score", NULL, 0, "S", "try more rooms (up to 8 times as many) until the score reaches S",
     OPTIONS_NUMBER(generate_args, base.min_score, 0, 100000)},
    {"nodes", NULL, 0, "N", "positions of the pull search per room (default 300000)",
     OPTIONS_NUMBER(generate_args, base.node_limit, 1, 50000000)},
    {"title", NULL, 0, "T", "titles \"T 1\", \"T 2\"... (default \"Generated 1\"...)",
     OPTIONS_BY(generate_args, title, store_title)},
    {"collection", NULL, 0, "NAME", "start with a collection header credited to sokod",
     OPTIONS_BY(generate_args, collection, store_collection)},
    {"comment", NULL, 0, "TEXT", "the collection's comment",
     OPTIONS_BY(generate_args, comment, store_comment)},
    {"sort", NULL, 0, NULL, "print the levels from the lowest difficulty score up",
     OPTIONS_SWITCH(generate_args, sort)},
    {"avoid", NULL, 0, "FILE", "skip seeds that give a level of FILE (again for more files)",
     OPTIONS_BY(generate_args, avoid, store_avoid)},
    {"no-verify", NULL, 0, NULL, "skip the solver's check of each level",
     OPTIONS_SWITCH(generate_args, no_verify)},
    {"jobs", NULL, 0, "N", "generate on N threads (the output does not change)",
     OPTIONS_NUMBER(generate_args, jobs, 1, MAX_JOBS)},
    CLI_JSON_ROW(generate_args),
    CLI_HELP_ROW,
    OPTIONS_END,
};

/* An unknown flag that ends the arguments is worded as a flag without its
 * value, as the command always has. */
static bool generate_complain(const struct options_result *r)
{
    if (r->status == OPTIONS_INVALID) {
        fprintf(stderr, "sokod generate: %s needs a valid value: %s\n", r->arg, r->value);
        return true;
    }
    if (r->status == OPTIONS_MISSING || (r->status == OPTIONS_UNKNOWN && r->value == NULL)) {
        fprintf(stderr, "sokod generate: %s needs a valid value\n", r->arg);
        return true;
    }
    return false;
}

static const struct cli_command generate_command = {
    .name = "generate",
    .about = "usage: sokod generate [--seed N] [--width W] [--height H] [--boxes K] [--count C]\n"
             "                      [--shape S] [--candidates N] [--min-score S] [--nodes N]\n"
             "                      [--title T] [--collection NAME] [--comment TEXT] [--sort]\n"
             "                      [--avoid FILE] [--no-verify] [--jobs N] [--json]\n"
             "\n"
             "Generates solvable levels and prints them in the community text format,\n"
             "each with its title, \"Author: sokod\", a comment giving its seed and\n"
             "difficulty score, and a solution with the fewest pushes. The same options\n"
             "give the same levels on every machine.\n"
             "\n",
    .rows = generate_rows,
    .pad = 14,
    .after = "Exit status: 0 when every level was generated, 1 when one could not be,\n"
             "2 on a usage error.\n",
    .complain = generate_complain,
};

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

static void hash_list_add(hash_list *list, uint64_t hash)
{
    if (list->n == list->cap) {
        size_t bigger = list->cap == 0 ? 256 : list->cap * 2;
        uint64_t *grown = realloc(list->hashes, bigger * sizeof *grown);
        if (grown == NULL)
            return;
        list->hashes = grown;
        list->cap = bigger;
    }
    list->hashes[list->n++] = hash;
}

static bool hash_list_has(const uint64_t *hashes, size_t n, uint64_t hash)
{
    for (size_t i = 0; i < n; i++) {
        if (hashes[i] == hash)
            return true;
    }
    return false;
}

/* Adds the canonical hashes of the valid boards of the level file `path`
 * to the hash_list field. OPTIONS_STOP (after a message) when the file
 * cannot be read: the command then stops with status 1. */
static int store_avoid(void *field, const char *path)
{
    uint32_t len;
    char *text = file_read_whole(path, &len);
    if (text == NULL) {
        fprintf(stderr, "sokod generate: %s: cannot read: %s\n", path, strerror(errno));
        return OPTIONS_STOP;
    }
    static soko_reader reader;
    static soko_entry entry;
    soko_reader_init(&reader, text, len);
    while (soko_reader_next(&reader, &entry) == 1) {
        char *board = strndup(text + entry.board.off, entry.board.len);
        uint64_t hash = board != NULL ? board_hash(board) : 0;
        free(board);
        if (hash != 0)
            hash_list_add(field, hash);
    }
    free(text);
    return OPTIONS_STORED;
}

/* The levels kept so far, in seed order, and how the run goes. */
typedef struct run_state {
    struct cli_progress progress; /* levels kept of the count */
    slot *done;                   /* count at most */
    uint64_t *hashes;             /* of done's boards, to skip repeats */
    uint64_t have, skipped;
    int status; /* 1 once a seed has failed */
} run_state;

/* Generates slots[0..n) on `jobs` threads, this one included. */
static void generate_batch(slot *slots, uint32_t n, uint64_t jobs)
{
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
}

/* Keeps the levels of slots[0..n) in order, but not one that repeats a
 * level kept or one to avoid, nor any past the count or after a failed
 * seed: their levels are freed. */
static void take_batch(const generate_args *a, run_state *run, slot *slots, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        slot *s = &slots[i];
        if (s->rc != GEN_OK) {
            cli_progress_hide(&run->progress);
            fprintf(stderr, "sokod generate: seed %" PRIu64 ": %s\n", s->seed,
                    gen_error_name(s->rc));
            run->status = 1;
            continue;
        }
        uint64_t hash = board_hash(s->level.board);
        bool repeat = hash_list_has(run->hashes, run->have, hash) ||
                      hash_list_has(a->avoid.hashes, a->avoid.n, hash);
        if (repeat || run->have == a->count || run->status != 0) {
            run->skipped += repeat;
            gen_level_free(&s->level);
            continue;
        }
        run->hashes[run->have] = hash;
        run->done[run->have++] = *s;
    }
}

/* Generates levels from the first seed on until run holds the count or a
 * seed fails. Seeds are generated in batches on the threads, and taken in
 * seed order, so the levels do not depend on the number of threads. */
static void generate_all(const generate_args *a, run_state *run, slot *slots, uint32_t per_batch)
{
    uint64_t seed = a->base.seed;
    while (run->have < a->count && run->status == 0) {
        uint64_t left = a->count - run->have;
        uint32_t n = (uint32_t)(left < per_batch ? left : per_batch);
        for (uint32_t i = 0; i < n; i++) {
            slots[i].seed = seed + i;
            slots[i].opt = level_options(&a->base, seed + i, a->width, a->height, a->boxes);
        }
        generate_batch(slots, n, a->jobs);
        take_batch(a, run, slots, n);
        cli_progress_update(&run->progress, run->have);
        seed += n;
    }
    cli_progress_end(&run->progress);
}

/* Prints the levels kept, with the collection header when asked for one. */
static void print_levels_text(const generate_args *a, const run_state *run)
{
    if (a->collection != NULL) {
        printf("Collection: %s\nAuthor: sokod\n", a->collection);
        if (a->comment != NULL)
            printf("Comment:\n%s\nComment-End:\n", a->comment);
        printf("\n");
    }
    for (uint64_t i = 0; i < run->have; i++)
        print_text(&run->done[i], a->title, (unsigned)i + 1);
}

static void print_levels_json(const generate_args *a, const run_state *run)
{
    json_t *root = json_object(), *levels = json_array();
    if (a->collection != NULL)
        json_object_set_new(root, "collection", json_string(a->collection));
    json_object_set_new(root, "levels", levels);
    for (uint64_t i = 0; i < run->have; i++)
        json_array_append_new(levels, level_json(&run->done[i], a->title, (unsigned)i + 1));
    json_object_set_new(root, "skipped_repeats", json_integer((json_int_t)run->skipped));
    cli_print_json(root);
}

/* Generates and prints the levels the flags ask for; the exit status. */
static int generate_run(const generate_args *a)
{
    uint32_t per_batch = (uint32_t)a->jobs * 4;
    run_state run = {.done = calloc(a->count, sizeof *run.done),
                     .hashes = calloc(a->count, sizeof *run.hashes)};
    slot *slots = calloc(per_batch, sizeof *slots);
    if (run.done != NULL && run.hashes != NULL && slots != NULL) {
        cli_progress_begin(&run.progress, "generate", "levels", a->count, a->json);
        generate_all(a, &run, slots, per_batch);
        if (a->sort)
            qsort(run.done, run.have, sizeof *run.done, by_score);
        if (a->json)
            print_levels_json(a, &run);
        else
            print_levels_text(a, &run);
        for (uint64_t i = 0; i < run.have; i++)
            gen_level_free(&run.done[i].level);
    } else {
        fprintf(stderr, "sokod generate: out of memory\n");
        run.status = 1;
    }
    free(run.done);
    free(run.hashes);
    free(slots);
    return run.status;
}

int cli_generate(int argc, char **argv)
{
    generate_args a = {.width = {12, 12}, .height = {12, 12}, .boxes = {3, 3}};
    gen_options_default(&a.base);
    a.count = 1;
    a.jobs = 1;
    a.title = "Generated";
    struct options_result r;
    int status = cli_options(&generate_command, &a, argc, argv, &r);
    if (status < 0) {
        a.base.verify_nodes = a.no_verify ? 0 : VERIFY_NODES;
        status = generate_run(&a);
    }
    free(a.avoid.hashes);
    return status;
}
