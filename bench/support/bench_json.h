/* Reading sokod's answers and events with jansson: members are found by
 * their path from the root ("game.player.x"), whatever the order of the
 * keys, and a member that is missing or of another type reads as the
 * fallback the caller names. */
#ifndef SOKOD_BENCH_JSON_H
#define SOKOD_BENCH_JSON_H

#include <jansson.h>
#include <stdbool.h>

/* Parses text as JSON. Returns a new reference (json_decref), or NULL when
 * text is NULL or not JSON. */
json_t *bench_json_parse(const char *text);

/* The member at `path`, dot-separated object keys from root; NULL when a
 * step is missing or not an object. Borrowed from root. */
json_t *bench_json_at(const json_t *root, const char *path);

/* The integer at `path`, or fallback. */
long bench_json_long(const json_t *root, const char *path, long fallback);

/* True when the member at `path` is JSON true. */
bool bench_json_true(const json_t *root, const char *path);

/* The string at `path`, or NULL. Borrowed from root. */
const char *bench_json_text(const json_t *root, const char *path);

/* The first object of the array at `path` whose member `key` is the integer
 * `value` (a room's seat by its user_id), or NULL. Borrowed from root. */
json_t *bench_json_find(const json_t *root, const char *path, const char *key, long value);

#endif
