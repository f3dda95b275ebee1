/* The library by difficulty, and the next level for a player (difficulty.h). */
#include "play/difficulty.h"

#include "accounts/auth.h"
#include "library/catalog.h"
#include "play/glicko.h"
#include "play/rating_rules.h"
#include "storage/storage_ratings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const FILTERS[STORAGE_FILTERS] = {"all", "unsolved", "solved", "started"};
static const char *const SORTS[STORAGE_SORTS] = {"order", "difficulty", "size", "boxes", "solves"};

/* The index of `text` among names[n], or -1. */
static int named(const char *text, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(text, names[i]) == 0)
            return i;
    return -1;
}

/* Reads a query argument from 0 to max into *out (left as it is when
 * absent); false after answering 400. */
static bool query_number(struct http_conn *c, const char *name, long long max, long long *out,
                         int *result)
{
    const char *text = http_query(c, name);
    if (text == NULL)
        return true;
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < 0 || v > max) {
        *result =
            reply_error(c, API_E_INVALID_VALUE, "'%s' must be a number from 0 to %lld", name, max);
        return false;
    }
    *out = v;
    return true;
}

/* Reads a query argument among names[n] into *out; false after 400. */
static bool query_name(struct http_conn *c, const char *name, const char *const *names, int n,
                       int *out, int *result)
{
    const char *text = http_query(c, name);
    if (text == NULL)
        return true;
    int i = named(text, names, n);
    if (i < 0) {
        char list[128] = "";
        for (int k = 0; k < n; k++) {
            strncat(list, names[k], sizeof list - strlen(list) - 1);
            if (k + 1 < n)
                strncat(list, ", ", sizeof list - strlen(list) - 1);
        }
        *result = reply_error(c, API_E_INVALID_VALUE, "'%s' must be one of %s", name, list);
        return false;
    }
    *out = i;
    return true;
}

/* A rating as the API shows it: rounded points, the deviation, a word. */
static json_t *difficulty_json(int64_t rating_milli, int64_t deviation_milli)
{
    double r = rating_milli / 1000.0;
    return json_pack("{s:i,s:i,s:s}", "rating", (int)lround(r), "deviation",
                     (int)lround(deviation_milli / 1000.0), "label", rating_label(r));
}

static int add_level(void *arg, const struct storage_library_level *l)
{
    json_t *o =
        json_pack("{s:I,s:I,s:o,s:i,s:o,s:i,s:i,s:i,s:o,s:i,s:b,s:b}", "id", (json_int_t)l->id,
                  "collection_id", (json_int_t)l->collection_id, "collection_name",
                  http_json_text(l->collection_name), "position", (int)l->position, "title",
                  http_json_text(l->title), "width", (int)l->width, "height", (int)l->height,
                  "boxes", (int)l->boxes, "difficulty",
                  l->rated ? difficulty_json(l->rating_milli, l->deviation_milli) : json_null(),
                  "solves", (int)l->solvers, "solved", l->solved, "started", l->started);
    return json_array_append_new(arg, o) != 0;
}

int difficulty_levels(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    long long collection = 0, offset = 0, limit = DIFFICULTY_PAGE;
    int filter = STORAGE_FILTER_ALL, sort = STORAGE_SORT_ORDER, order = 0;
    static const char *const ORDERS[] = {"asc", "desc"};
    if (!query_number(c, "collection", INT64_MAX, &collection, &result) ||
        !query_number(c, "offset", 1000000, &offset, &result) ||
        !query_number(c, "limit", DIFFICULTY_PAGE_MAX, &limit, &result) ||
        !query_name(c, "filter", FILTERS, STORAGE_FILTERS, &filter, &result) ||
        !query_name(c, "sort", SORTS, STORAGE_SORTS, &sort, &result) ||
        !query_name(c, "order", ORDERS, 2, &order, &result))
        return result;
    struct storage_library_query q = {
        .user = user,
        .collection = collection,
        .filter = (enum storage_library_filter)filter,
        .sort = (enum storage_library_sort)sort,
        .descending = order == 1,
        .offset = (uint32_t)offset,
        .limit = (uint32_t)limit,
    };
    json_t *levels = json_array();
    uint32_t total = 0;
    int status = storage_ratings_library(&q, add_level, levels, &total);
    if (status != STORAGE_OK) {
        json_decref(levels);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200,
                      json_pack("{s:o,s:i,s:i,s:i,s:s,s:s,s:s}", "levels", levels, "total",
                                (int)total, "offset", (int)offset, "limit", (int)limit, "filter",
                                FILTERS[filter], "sort", SORTS[sort], "order", ORDERS[order]));
}

int difficulty_next(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    long long exclude = 0, draw = 0;
    if (!query_number(c, "exclude", INT64_MAX, &exclude, &result) ||
        !query_number(c, "draw", DIFFICULTY_DRAWS, &draw, &result))
        return result;
    struct glicko player = glicko_new();
    bool rated = false;
    struct storage_rating pr;
    int status = user != 0 ? storage_ratings_player(user, &pr) : STORAGE_NOT_FOUND;
    if (status == STORAGE_OK) {
        player = (struct glicko){pr.rating_milli / 1000.0, pr.deviation_milli / 1000.0,
                                 pr.volatility_micro / 1000000.0};
        rated = true;
    } else if (status != STORAGE_NOT_FOUND) {
        return reply_storage_failure(c, status);
    }
    int64_t centre = llround(player.rating * 1000.0), level = 0;
    int64_t half = DIFFICULTY_BAND;
    int widened = 0;
    status = STORAGE_NOT_FOUND;
    for (;; widened++) {
        bool last = widened > DIFFICULTY_WIDENINGS;
        int64_t lo = last ? INT64_MIN / 2 : centre - half * 1000;
        int64_t hi = last ? INT64_MAX / 2 : centre + half * 1000;
        int64_t seed = (user % 1000003) * 7919 + draw * 104729 % 1000003;
        status = storage_ratings_pick(user, lo, hi, exclude, seed, &level);
        if (status != STORAGE_NOT_FOUND || last)
            break;
        half *= 2;
    }
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND)
        return reply_storage_failure(c, status);
    json_t *band = widened > DIFFICULTY_WIDENINGS
                       ? json_null()
                       : json_pack("{s:i,s:i}", "low", (int)lround(centre / 1000.0 - half), "high",
                                   (int)lround(centre / 1000.0 + half));
    json_t *me = json_pack("{s:i,s:i,s:b}", "rating", (int)lround(player.rating), "deviation",
                           (int)lround(player.deviation), "rated", rated);
    json_t *chosen = json_null();
    if (status == STORAGE_OK) {
        status = catalog_level_object(level, user, &chosen);
        struct storage_rating lr;
        if (status == STORAGE_OK)
            status = storage_ratings_level(level, &lr);
        if (status != STORAGE_OK) {
            json_decref(chosen);
            json_decref(band);
            json_decref(me);
            return reply_storage_failure(c, status);
        }
        json_object_del(chosen, "rows");
        json_object_set_new(chosen, "difficulty",
                            difficulty_json(lr.rating_milli, lr.deviation_milli));
    }
    return reply_json(c, 200,
                      json_pack("{s:o,s:o,s:o,s:i}", "level", chosen, "player", me, "band", band,
                                "widened", widened));
}
