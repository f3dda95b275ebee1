/* Request bodies: parsing JSON objects, checking them against specs and
 * storing their fields where the specs say. */
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

struct body_field body_text(const char *name, struct body_text *out)
{
    return (struct body_field){.name = name, .type = BODY_STRING, .required = true, .to.text = out};
}

struct body_field body_integer(const char *name, json_int_t *out)
{
    return (struct body_field){
        .name = name, .type = BODY_INTEGER, .required = true, .to.integer = out};
}

struct body_field body_integer_in(const char *name, json_int_t *out, json_int_t min, json_int_t max,
                                  const char *message)
{
    struct body_field row = body_integer(name, out);
    row.min = min;
    row.max = max;
    row.out_of_range = message;
    return row;
}

struct body_field body_boolean(const char *name, bool *out)
{
    return (struct body_field){
        .name = name, .type = BODY_BOOLEAN, .required = true, .to.boolean = out};
}

struct body_field body_object(const char *name, json_t **out)
{
    return (struct body_field){.name = name, .type = BODY_OBJECT, .required = true, .to.json = out};
}

struct body_field body_array(const char *name, json_t **out)
{
    return (struct body_field){.name = name, .type = BODY_ARRAY, .required = true, .to.json = out};
}

struct body_field body_optional(struct body_field row, bool *present)
{
    row.required = false;
    row.present = present;
    return row;
}

struct body_field body_end(void)
{
    return (struct body_field){.name = NULL};
}

/* The row of spec named `key`, or NULL. */
static const struct body_field *row_named(const struct body_field *spec, const char *key)
{
    for (; spec != NULL && spec->name != NULL; spec++) {
        if (strcmp(spec->name, key) == 0)
            return spec;
    }
    return NULL;
}

static bool out_of_range(const struct body_field *row, json_t *value)
{
    if (row->type != BODY_INTEGER || row->out_of_range == NULL || value == NULL)
        return false;
    json_int_t n = json_integer_value(value);
    return n < row->min || n > row->max;
}

static void store(const struct body_field *row, json_t *value)
{
    if (row->present != NULL)
        *row->present = value != NULL;
    if (value == NULL)
        return;
    switch (row->type) {
    case BODY_STRING:
        row->to.text->text = json_string_value(value);
        row->to.text->len = json_string_length(value);
        break;
    case BODY_INTEGER:
        *row->to.integer = json_integer_value(value);
        break;
    case BODY_BOOLEAN:
        *row->to.boolean = json_is_true(value);
        break;
    case BODY_OBJECT:
    case BODY_ARRAY:
        *row->to.json = value;
        break;
    }
}

bool body_check(struct http_conn *c, json_t *obj, const char *where, const struct body_field *spec,
                int *result)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value)
    {
        const struct body_field *row = row_named(spec, key);
        if (row == NULL) {
            *result = reply_error(c, API_E_UNKNOWN_FIELD,
                                  "%s has a field '%.64s' that %s "
                                  "does not take",
                                  where, key, c->path);
            return false;
        }
        if (!has_type(value, row->type)) {
            *result = reply_error(c, API_E_WRONG_TYPE, "'%s' in %s must be %s", key, where,
                                  type_name(row->type));
            return false;
        }
    }
    const struct body_field *row;
    for (row = spec; row != NULL && row->name != NULL; row++) {
        if (row->required && json_object_get(obj, row->name) == NULL) {
            *result = reply_error(c, API_E_MISSING_FIELD, "%s needs '%s' (%s)", where, row->name,
                                  type_name(row->type));
            return false;
        }
    }
    for (row = spec; row != NULL && row->name != NULL; row++) {
        if (out_of_range(row, json_object_get(obj, row->name))) {
            *result = reply_error(c, API_E_INVALID_VALUE, "%s", row->out_of_range);
            return false;
        }
    }
    for (row = spec; row != NULL && row->name != NULL; row++)
        store(row, json_object_get(obj, row->name));
    return true;
}

json_t *body_parse(struct http_conn *c, const struct body_field *spec, int *result)
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
    if (!body_check(c, obj, "the body", spec, result)) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

bool body_parse_empty(struct http_conn *c, int *result)
{
    json_t *body = body_parse(c, NULL, result);
    json_decref(body);
    return body != NULL;
}
