/* The answers to GET /api/v1/games/{id} for games with long histories,
 * kept gzip-compressed and shared: megabytes of letters are built and
 * compressed once per version of a game, not once per request, and every
 * request for that version sends the same bytes from memory, inflated as
 * they go for a client that does not accept gzip. */
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

/* A kept answer: gzip bytes and the length of the text they inflate to.
 * Counted references keep it alive while answers send it, after it has
 * left the kept ones. */
struct game_answer {
    const uint8_t *z;
    size_t zlen;
    size_t text_len;
};

/* A reference to the kept answer for k (give it back with
 * game_answers_release), or NULL when none is kept. Thread-safe. */
const struct game_answer *game_answers_find(const struct game_answers_key *k);

/* Compresses text[0..len) with gzip and keeps it for k (the oldest answers
 * leave past the bound). Returns a reference to it, or NULL when
 * compression or memory fails. Thread-safe. */
const struct game_answer *game_answers_put(const struct game_answers_key *k, const char *text,
                                           size_t len);

/* Gives back a reference; the last one frees the answer once it is no
 * longer kept. NULL is ignored. Thread-safe. */
void game_answers_release(const struct game_answer *a);

/* Inflates the answer's text from byte `pos` on into buf (at most max
 * bytes) through *stream, a z_stream the caller keeps between calls
 * (zeroed before the first, freed with game_answers_inflate_end); calls
 * must follow each other in order. Returns the bytes written, or -1 when
 * the answer does not inflate as it should. */
long game_answers_inflate(const struct game_answer *a, void **stream, uint64_t pos, char *buf,
                          size_t max);

/* Frees what game_answers_inflate kept in *stream. */
void game_answers_inflate_end(void **stream);

/* Forgets every kept answer; those still being sent go when their last
 * reference does. */
void game_answers_clear(void);

#endif
