/* A text growing in memory, for answers written straight as JSON rather
 * than built as jansson objects and then dumped: the answer to every step
 * is written this way. */
#ifndef SOKOD_TEXTBUF_H
#define SOKOD_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Start with {0}. Once out of memory, every call does nothing and `failed`
 * stays true, so that a writer checks once at the end. */
struct textbuf {
    char *data; /* NUL-terminated while not failed */
    size_t len;
    size_t cap;
    bool failed;
};

/* Makes room for n more bytes (and the final NUL) at data + len; returns
 * that place, or NULL once failed. The caller writes there, then adds what
 * it wrote to len. */
char *textbuf_room(struct textbuf *b, size_t n);

/* Appends n bytes of s. */
void textbuf_put(struct textbuf *b, const char *s, size_t n);

/* Appends the NUL-terminated s. */
void textbuf_puts(struct textbuf *b, const char *s);

/* Appends v in decimal. */
void textbuf_int(struct textbuf *b, int64_t v);

/* Appends s[0..n) as a JSON string, quoted and escaped. Bytes that are not
 * UTF-8 become '?'. */
void textbuf_json_string(struct textbuf *b, const char *s, size_t n);

/* Hands the text over (the caller frees it) and empties b; *len gets its
 * length. NULL when b failed (then b is freed). */
char *textbuf_take(struct textbuf *b, size_t *len);

/* Frees the text and empties b. */
void textbuf_free(struct textbuf *b);

#endif
