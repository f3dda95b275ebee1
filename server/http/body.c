/* Request bodies: parsing and checking JSON objects. */
#include "http/body.h"

#include <string.h>

static const char *type_name(enum body_type t)
{
    switch (t) {
    case BODY_STRING:
        return "a string";
    case BODY_INTEGER:
        return "an integer";
    case BODY_BOOLEAN:
        return "true or false";
    case BODY_OBJECT:
        return "an object";
    case BODY_ARRAY:
        return "an array";
    }
    return "?";
}

static bool has_type(json_t *v, enum body_type t)
{
    switch (t) {
    case BODY_STRING:
        return json_is_string(v);
    case BODY_INTEGER:
        return json_is_integer(v);
    case BODY_BOOLEAN:
        return json_is_boolean(v);
    case BODY_OBJECT:
        return json_is_object(v);
    case BODY_ARRAY:
        return json_is_array(v);
    }
    return false;
}

bool body_check(struct http_conn *c, json_t *obj, const char *where,
                const struct body_field *fields, size_t n, int *result)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value)
    {
        size_t i = 0;
        while (i < n && strcmp(fields[i].name, key) != 0)
            i++;
        if (i == n) {
            *result = reply_error(c, API_E_UNKNOWN_FIELD,
                                  "%s has a field '%.64s' that %s "
                                  "does not take",
                                  where, key, c->path);
            return false;
        }
        if (!has_type(value, fields[i].type)) {
            *result = reply_error(c, API_E_WRONG_TYPE, "'%s' in %s must be %s", key, where,
                                  type_name(fields[i].type));
            return false;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (fields[i].required && json_object_get(obj, fields[i].name) == NULL) {
            *result = reply_error(c, API_E_MISSING_FIELD, "%s needs '%s' (%s)", where,
                                  fields[i].name, type_name(fields[i].type));
            return false;
        }
    }
    return true;
}

json_t *body_parse(struct http_conn *c, const struct body_field *fields, size_t n, int *result)
{
    json_t *obj;
    if (c->body_len == 0) {
        obj = json_object();
    } else {
        json_error_t err;
        obj = json_loadb(c->body, c->body_len, JSON_REJECT_DUPLICATES, &err);
        if (obj == NULL) {
            *result = reply_error(c, API_E_BAD_JSON,
                                  "the body is not JSON: %s (line %d, "
                                  "column %d)",
                                  err.text, err.line, err.column);
            return NULL;
        }
    }
    if (!json_is_object(obj)) {
        json_decref(obj);
        *result = reply_error(c, API_E_BAD_JSON, "the body must be a JSON object");
        return NULL;
    }
    if (!body_check(c, obj, "the body", fields, n, result)) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}
