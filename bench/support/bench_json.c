/* Reading sokod's answers and events with jansson. */
#include "bench_json.h"

#include <string.h>

json_t *bench_json_parse(const char *text)
{
    return text != NULL ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}

json_t *bench_json_at(const json_t *root, const char *path)
{
    json_t *at = (json_t *)root;
    while (at != NULL && *path != '\0') {
        size_t n = strcspn(path, ".");
        char key[64];
        if (!json_is_object(at) || n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        at = json_object_get(at, key);
        path += path[n] == '.' ? n + 1 : n;
    }
    return at;
}

long bench_json_long(const json_t *root, const char *path, long fallback)
{
    const json_t *v = bench_json_at(root, path);
    return json_is_integer(v) ? (long)json_integer_value(v) : fallback;
}

bool bench_json_true(const json_t *root, const char *path)
{
    return json_is_true(bench_json_at(root, path));
}

const char *bench_json_text(const json_t *root, const char *path)
{
    return json_string_value(bench_json_at(root, path));
}

json_t *bench_json_find(const json_t *root, const char *path, const char *key, long value)
{
    const json_t *list = bench_json_at(root, path);
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        const json_t *v = json_object_get(item, key);
        if (json_is_integer(v) && json_integer_value(v) == value)
            return item;
    }
    return NULL;
}
