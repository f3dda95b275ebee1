/* Request bodies: JSON objects checked against a spec of the fields an
 * endpoint takes. Each row of a spec names a field, its type, whether it is
 * required, an integer's limits, and where its value goes, so a handler
 * reads no field itself:
 *
 *     json_int_t seq = 0;
 *     struct body_text steps = {0};
 *     struct body_field spec[] = {
 *         body_integer_in("seq", &seq, 1, 100, "'seq' is from 1 to 100"),
 *         body_optional(body_text("steps", &steps), NULL),
 *         body_end(),
 *     };
 *     json_t *body = body_parse(c, spec, &result);
 *
 * Values are stored only once the whole body passed; a field that is absent
 * leaves its destination as the caller set it. Strings and JSON values are
 * borrowed from the returned body: they live as long as it does. */
#ifndef SOKOD_BODY_H
#define SOKOD_BODY_H

#include "http/http.h"

#include <jansson.h>
#include <stddef.h>

enum body_type { BODY_STRING, BODY_INTEGER, BODY_BOOLEAN, BODY_OBJECT, BODY_ARRAY };

/* A string field's value, len bytes long (jansson refuses an escaped NUL,
 * so no NUL is inside). text stays NULL while the field is absent. */
struct body_text {
    const char *text;
    size_t len;
};

/* One row of a spec; build rows with the functions below, not by hand. */
struct body_field {
    const char *name; /* NULL in the row that ends a spec */
    enum body_type type;
    bool required;
    union {
        struct body_text *text; /* BODY_STRING */
        json_int_t *integer;    /* BODY_INTEGER */
        bool *boolean;          /* BODY_BOOLEAN */
        json_t **json;          /* BODY_OBJECT, BODY_ARRAY */
    } to;
    bool *present;            /* when not NULL: set to whether the body has the field */
    json_int_t min, max;      /* an integer's limits, when limited */
    const char *out_of_range; /* the message of a 400 for an integer beyond them; NULL: any */
};

/* A required string, stored in *out. */
struct body_field body_text(const char *name, struct body_text *out);

/* A required integer, stored in *out. */
struct body_field body_integer(const char *name, json_int_t *out);

/* A required integer from min to max, stored in *out. Beyond them, the
 * answer is 400 invalid_value with `message` (not formatted). */
struct body_field body_integer_in(const char *name, json_int_t *out, json_int_t min, json_int_t max,
                                  const char *message);

/* A required true or false, stored in *out. */
struct body_field body_boolean(const char *name, bool *out);

/* A required JSON object or array, stored in *out (borrowed from the body). */
struct body_field body_object(const char *name, json_t **out);
struct body_field body_array(const char *name, json_t **out);

/* Makes a row optional. When `present` is not NULL, *present is set to
 * whether the body has the field (for a value that has no "absent" of its
 * own). */
struct body_field body_optional(struct body_field row, bool *present);

/* The row that ends every spec. */
struct body_field body_end(void);

/* Parses the request body as a JSON object (an empty body reads as {}) and
 * checks it with body_check against spec (NULL: a body of no fields).
 * Returns the object (the caller owns the reference, and the strings and
 * values stored are borrowed from it), or NULL after answering 400 and
 * setting *result. */
json_t *body_parse(struct http_conn *c, const struct body_field *spec, int *result);

/* Checks the body of a request that carries no fields: empty, or an object
 * that body_parse with no spec accepts. Returns true, or false after
 * answering 400 and setting *result. */
bool body_parse_empty(struct http_conn *c, int *result);

/* Checks that obj has only the fields of spec, each of its type, every
 * required one, and integers within their limits; then stores each value
 * where its row says. `where` names obj in messages ("the body", "'box'").
 * Returns true, or false after answering 400 (wrong_type, unknown_field,
 * missing_field, invalid_value), with nothing stored, and setting *result. */
bool body_check(struct http_conn *c, json_t *obj, const char *where, const struct body_field *spec,
                int *result);

#endif
