/* Storage: collections and levels, with one user's solved state. */
#include "storage/storage_levels.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stddef.h>

static const char SQL_COLLECTION_FROM_SOURCE[] =
    "SELECT 1 FROM collections WHERE source = ? LIMIT 1";

int storage_collection_from_source(const char *source)
{
    sqlite3_stmt *st = storage_stmt(SQL_COLLECTION_FROM_SOURCE);
    if (st == NULL)
        return STORAGE_ERROR;
    storage_bind_text(st, 1, source);
    int status = storage_first_row(st, "finding a collection");
    sqlite3_reset(st);
    return status;
}

static const char SQL_LEVEL_INSERT[] =
    "INSERT INTO levels (collection_id, position, title, author, comment, board, width, height, "
    "boxes, canonical_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

int storage_level_insert(const struct storage_new_level *l, int64_t now, int64_t *id)
{
    sqlite3_stmt *st = storage_stmt(SQL_LEVEL_INSERT);
    if (st == NULL)
        return STORAGE_ERROR;
    sqlite3_bind_int64(st, 1, l->collection_id);
    sqlite3_bind_int64(st, 2, l->position);
    storage_bind_text(st, 3, l->title);
    storage_bind_text(st, 4, l->author);
    storage_bind_text(st, 5, l->comment);
    storage_bind_text(st, 6, l->board);
    sqlite3_bind_int64(st, 7, l->width);
    sqlite3_bind_int64(st, 8, l->height);
    sqlite3_bind_int64(st, 9, l->boxes);
    storage_bind_text(st, 10, l->canonical_hash);
    sqlite3_bind_int64(st, 11, now);
    int status = storage_exec_insert(st, id, "adding a level");
    return status;
}

/* Collections with their level count and the user's solved count. Hidden
 * and deleted collections and levels are not listed to players. */
#define LISTED_C "c.hidden = 0 AND c.deleted_at IS NULL"
#define LISTED_L "l.hidden = 0 AND l.deleted_at IS NULL"
#define COLLECTION_COLUMNS                                                                         \
    "SELECT c.id, c.name, c.source, c.notes, c.created_at, "                                       \
    "(SELECT count(*) FROM levels l WHERE l.collection_id = c.id AND " LISTED_L "), "              \
    "(SELECT count(DISTINCT s.level_id) FROM solutions s JOIN levels l ON l.id = s.level_id "      \
    "WHERE l.collection_id = c.id AND s.user_id = ?1 AND " LISTED_L "), c.author "                 \
    "FROM collections c "

static const char SQL_COLLECTIONS[] =
    COLLECTION_COLUMNS "WHERE " LISTED_C " ORDER BY c.position, c.id";
static const char SQL_COLLECTION[] = COLLECTION_COLUMNS "WHERE c.id = ?2 AND " LISTED_C;

static int read_collection(sqlite3_stmt *st, void *fn, void *arg)
{
    struct storage_collection c = {
        .id = sqlite3_column_int64(st, 0),
        .name = storage_column_text(st, 1),
        .source = storage_column_text(st, 2),
        .notes = storage_column_text(st, 3),
        .created_at = sqlite3_column_int64(st, 4),
        .levels = (uint32_t)sqlite3_column_int64(st, 5),
        .solved = (uint32_t)sqlite3_column_int64(st, 6),
        .author = storage_column_text(st, 7),
    };
    return ((int (*)(void *, const struct storage_collection *))fn)(arg, &c);
}

int storage_collections_each(int64_t user, int (*fn)(void *arg, const struct storage_collection *c),
                             void *arg)
{
    return storage_list_by_id(SQL_COLLECTIONS, user, read_collection, (void *)fn, arg,
                              "listing collections");
}

int storage_collection_get(int64_t id, int64_t user,
                           int (*fn)(void *arg, const struct storage_collection *c), void *arg)
{
    return storage_rows_by_ids(SQL_COLLECTION, user, id, read_collection, (void *)fn, arg,
                               "listing collections");
}

/* Levels with the user's best solution counts and game. Column 6 is the
 * board, or NULL in listings. */
#define LEVEL_COLUMNS(board)                                                                       \
    "SELECT l.id, l.collection_id, l.position, l.title, l.author, l.comment, " board ", "          \
    "c.name, l.width, l.height, l.boxes, l.canonical_hash, "                                       \
    "b.best_moves, b.best_pushes, g.id, b.hinted FROM levels l "                                   \
    "JOIN collections c ON c.id = l.collection_id "                                                \
    "LEFT JOIN " STORAGE_BEST_SOLUTIONS " b ON b.level_id = l.id "                                 \
    "LEFT JOIN games g ON g.level_id = l.id AND g.user_id = ?1 AND g.room_id IS NULL "

static const char SQL_LEVELS[] =
    LEVEL_COLUMNS("NULL") "WHERE l.collection_id = ?2 AND " LISTED_L " ORDER BY l.position";
static const char SQL_LEVEL[] = LEVEL_COLUMNS("l.board") "WHERE l.id = ?2";

static int read_level(sqlite3_stmt *st, void *fn, void *arg)
{
    bool solved = sqlite3_column_type(st, 12) != SQLITE_NULL;
    struct storage_level l = {
        .id = sqlite3_column_int64(st, 0),
        .collection_id = sqlite3_column_int64(st, 1),
        .position = (uint32_t)sqlite3_column_int64(st, 2),
        .title = storage_column_text(st, 3),
        .author = storage_column_text(st, 4),
        .comment = storage_column_text(st, 5),
        .board = (const char *)sqlite3_column_text(st, 6),
        .collection_name = storage_column_text(st, 7),
        .width = (uint32_t)sqlite3_column_int64(st, 8),
        .height = (uint32_t)sqlite3_column_int64(st, 9),
        .boxes = (uint32_t)sqlite3_column_int64(st, 10),
        .canonical_hash = storage_column_text(st, 11),
        .solved = solved,
        .best_moves = solved ? (uint32_t)sqlite3_column_int64(st, 12) : 0,
        .best_pushes = solved ? (uint32_t)sqlite3_column_int64(st, 13) : 0,
        .game_id = sqlite3_column_int64(st, 14),
        .hinted = solved && sqlite3_column_int(st, 15) != 0,
    };
    return ((int (*)(void *, const struct storage_level *))fn)(arg, &l);
}

int storage_levels_each(int64_t collection, int64_t user,
                        int (*fn)(void *arg, const struct storage_level *l), void *arg)
{
    return storage_list_by_ids(SQL_LEVELS, user, collection, read_level, (void *)fn, arg,
                               "listing levels");
}

int storage_level_get(int64_t id, int64_t user, int (*fn)(void *arg, const struct storage_level *l),
                      void *arg)
{
    return storage_rows_by_ids(SQL_LEVEL, user, id, read_level, (void *)fn, arg, "listing levels");
}
