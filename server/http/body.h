/* Request bodies: JSON objects checked against the fields an endpoint takes. */
#ifndef SOKOD_BODY_H
#define SOKOD_BODY_H

#include "http/http.h"

#include <jansson.h>
#include <stddef.h>

enum body_type { BODY_STRING, BODY_INTEGER, BODY_BOOLEAN, BODY_OBJECT, BODY_ARRAY };

struct body_field {
    const char *name;
    enum body_type type;
    bool required;
};

/* Parses the request body as a JSON object (an empty body reads as {}) and
 * checks it with body_check. Returns the object (the caller owns the
 * reference), or NULL after answering 400 and setting *result. */
json_t *body_parse(struct http_conn *c, const struct body_field *fields, size_t n, int *result);

/* Checks that obj has only the listed fields, each of its type, and every
 * required one. `where` names obj in messages ("the body", "box"). Returns
 * true, or false after answering 400 (wrong_type, unknown_field,
 * missing_field) and setting *result. */
bool body_check(struct http_conn *c, json_t *obj, const char *where,
                const struct body_field *fields, size_t n, int *result);

#endif
