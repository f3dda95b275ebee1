/* The answers to GET /api/v1/games/{id} for games with long histories,
 * kept gzip-compressed for the clients that accept gzip: megabytes of
 * letters are built and compressed once per version of a game, not once
 * per request. */
#ifndef SOKOD_GAME_ANSWERS_H
#define SOKOD_GAME_ANSWERS_H

#include <stddef.h>
#include <stdint.h>

/* Answers shorter than this go out as they are: compressing them gains
 * little. */
#define GAME_ANSWERS_MIN ((size_t)64 * 1024)

/* What the answer depends on besides the log: its owner and hints. */
struct game_answers_key {
    int64_t id;
    int64_t user_id;
    uint32_t seq;
    uint32_t hints;
};

/* A copy (malloc'd, the caller frees it) of the kept answer for k, with
 * *len set; NULL when none is kept or out of memory. Thread-safe. */
uint8_t *game_answers_find(const struct game_answers_key *k, size_t *len);

/* The kept answer for k inflated back to JSON text (malloc'd, the caller
 * frees it), with *len set; NULL when none is kept or out of memory: for
 * clients that do not accept gzip, an inflate costs less than writing the
 * answer again. Thread-safe. */
char *game_answers_find_text(const struct game_answers_key *k, size_t *len);

/* Compresses text[0..len) with gzip, keeps it for k (the oldest answers
 * leave past the bound) and returns a copy the caller frees, with *zlen
 * set; NULL when compression or memory fails. Thread-safe. */
uint8_t *game_answers_put(const struct game_answers_key *k, const char *text, size_t len,
                          size_t *zlen);

/* Frees every kept answer. */
void game_answers_clear(void);

#endif
