/* Catalogue endpoints: collections and levels, with the caller's solved state. */
#include "library/catalog.h"

#include "accounts/auth.h"
#include "base/board.h"
#include "storage/storage_community.h"
#include "storage/storage_levels.h"
#include "storage/storage_submitted.h"

#include "soko.h"

#include <stdlib.h>
#include <string.h>

static json_t *collection_json(const struct storage_collection *c)
{
    return json_pack("{s:I,s:o,s:o,s:o,s:o,s:i,s:i,s:o}", "id", (json_int_t)c->id, "name",
                     http_json_text(c->name), "source", http_json_text(c->source), "notes",
                     http_json_text(c->notes), "author", http_json_text(c->author), "levels",
                     (int)c->levels, "solved", (int)c->solved, "created_at",
                     http_json_time(c->created_at));
}

static json_t *level_json(const struct storage_level *l)
{
    json_t *o =
        json_pack("{s:I,s:I,s:i,s:o,s:o,s:i,s:i,s:i,s:b,s:o,s:o,s:o}", "id", (json_int_t)l->id,
                  "collection_id", (json_int_t)l->collection_id, "position", (int)l->position,
                  "title", http_json_text(l->title), "author", http_json_text(l->author), "width",
                  (int)l->width, "height", (int)l->height, "boxes", (int)l->boxes, "solved",
                  l->solved, "best_moves", l->solved ? json_integer(l->best_moves) : json_null(),
                  "best_pushes", l->solved ? json_integer(l->best_pushes) : json_null(), "game_id",
                  l->game_id != 0 ? json_integer(l->game_id) : json_null());
    json_object_set_new(o, "hinted", json_boolean(l->hinted));
    json_object_set_new(o, "started", json_boolean(l->started));
    return o;
}

static int add_collection(void *arg, const struct storage_collection *c)
{
    return json_array_append_new(arg, collection_json(c)) != 0;
}

int catalog_collections(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    json_t *list = json_array();
    int status = storage_collections_each(user, add_collection, list);
    if (status != STORAGE_OK) {
        json_decref(list);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200, json_pack("{s:o}", "collections", list));
}

static int take_collection(void *arg, const struct storage_collection *c)
{
    *(json_t **)arg = collection_json(c);
    return 0;
}

static int add_level(void *arg, const struct storage_level *l)
{
    return json_array_append_new(arg, level_json(l)) != 0;
}

int catalog_collection(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    json_t *collection = NULL;
    int status = storage_collection_get(c->param[0], user, take_collection, &collection);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_COLLECTION_NOT_FOUND, "there is no collection %lld",
                           (long long)c->param[0]);
    json_t *levels = json_array();
    if (status == STORAGE_OK)
        status = storage_levels_each(c->param[0], user, add_level, levels);
    if (status != STORAGE_OK || collection == NULL) {
        json_decref(collection);
        json_decref(levels);
        return reply_storage_failure(c, status);
    }
    return reply_json(c, 200, json_pack("{s:o,s:o}", "collection", collection, "levels", levels));
}

static int take_level(void *arg, const struct storage_level *l)
{
    json_t *o = level_json(l);
    soko_level *lvl = malloc(sizeof *lvl);
    soko_error err;
    const char *board = l->board != NULL ? l->board : "";
    if (o != NULL && lvl != NULL &&
        soko_level_parse(lvl, board, (uint32_t)strlen(board), 1, &err) == SOKO_OK) {
        json_object_set_new(o, "rows", board_rows(lvl->cell, lvl->width, lvl->height, lvl->player));
        json_object_set_new(o, "comment", http_json_text(l->comment));
        json_object_set_new(o, "collection_name", http_json_text(l->collection_name));
        json_object_set_new(o, "canonical_hash", http_json_text(l->canonical_hash));
        *(json_t **)arg = o;
    } else {
        json_decref(o);
    }
    free(lvl);
    return 0;
}

int catalog_level_object(int64_t id, int64_t user, json_t **out)
{
    *out = NULL;
    int status = storage_level_get(id, user, take_level, out);
    if (status == STORAGE_OK && *out == NULL)
        status = STORAGE_ERROR;
    return status;
}

json_t *catalog_community_json(const struct storage_community_level *l)
{
    json_t *o = json_pack(
        "{s:I,s:I,s:o,s:I,s:o,s:i,s:i,s:i,s:i,s:b,s:b,s:o}", "id", (json_int_t)l->level_id,
        "collection_id", (json_int_t)l->collection_id, "title", http_json_text(l->title),
        "author_id", (json_int_t)l->author_id, "author", http_json_text(l->author), "width",
        (int)l->width, "height", (int)l->height, "boxes", (int)l->boxes, "likes", (int)l->likes,
        "liked", l->liked, "solved", l->solved, "published_at", http_json_time(l->published_at));
    /* The rating that play gives a level, once sokod rates levels. */
    json_object_set_new(o, "difficulty", json_null());
    return o;
}

static int take_community(void *arg, const struct storage_community_level *l)
{
    *(json_t **)arg = catalog_community_json(l);
    return 0;
}

json_t *catalog_best_known(int64_t level, int rule)
{
    uint32_t moves, pushes;
    bool found;
    if (storage_level_best_known(level, rule, &moves, &pushes, &found) != STORAGE_OK)
        return NULL;
    if (!found)
        return json_null();
    return json_pack("{s:i,s:i}", "moves", (int)moves, "pushes", (int)pushes);
}

int catalog_level(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    json_t *level = NULL;
    int status = storage_level_get(c->param[0], user, take_level, &level);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld",
                           (long long)c->param[0]);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    if (level == NULL)
        return reply_error(c, API_E_INTERNAL, "level %lld cannot be shown", (long long)c->param[0]);
    json_t *best = catalog_best_known(c->param[0], 0);
    if (best == NULL) {
        json_decref(level);
        return reply_storage_failure(c, STORAGE_ERROR);
    }
    json_object_set_new(level, "best_known", best);
    /* A level a player published: its author and likes. */
    json_t *community = NULL;
    status = storage_community_get(c->param[0], user, take_community, &community);
    if (status != STORAGE_OK && status != STORAGE_NOT_FOUND) {
        json_decref(level);
        return reply_storage_failure(c, status);
    }
    if (community != NULL)
        json_object_set_new(level, "community", community);
    return reply_json(c, 200, json_pack("{s:o}", "level", level));
}
