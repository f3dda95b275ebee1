/* Storage: the community collection's levels, likes, reports and blocks. */
#include "storage/storage_community.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"
#include "storage/sql.h"

#include <stddef.h>

static const char SQL_AUTHOR[] =
    "SELECT (SELECT count(*) FROM community_levels WHERE author_id = ?1 AND published_at >= ?2), "
    "(SELECT count(*) FROM community_blocks WHERE user_id = ?1)";

int storage_community_author(int64_t author, int64_t since, uint32_t *published, bool *blocked)
{
    *published = 0;
    *blocked = false;
    struct sql_stmt *st = storage_stmt(SQL_AUTHOR);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, author);
    sql_bind_int64(st, 2, since);
    int status = storage_first_row(st, "counting an author's levels");
    if (status != STORAGE_OK)
        return status;
    *published = (uint32_t)sql_column_int64(st, 0);
    *blocked = sql_column_int64(st, 1) > 0;
    sql_reset(st);
    return STORAGE_OK;
}

static const char SQL_HASH_TAKEN[] =
    "SELECT id FROM levels WHERE canonical_hash = ? ORDER BY id LIMIT 1";

int storage_community_hash_taken(const char *hash, int64_t *level_id)
{
    struct sql_stmt *st = storage_stmt(SQL_HASH_TAKEN);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, hash);
    return storage_first_int64(st, level_id, "finding a level by its hash");
}

/* Listed after the collections admins made, which start at position 1. */
static const char SQL_COLLECTION_MAKE[] =
    "INSERT INTO collections (name, source, notes, author, created_at, position) "
    "VALUES ('Community', '" STORAGE_COMMUNITY_SOURCE "', "
    "'Levels the players of this site made and published from the editor.', '', ?, 1000000) "
    "ON CONFLICT DO NOTHING RETURNING id";
static const char SQL_COLLECTION_FIND[] =
    "SELECT id FROM collections WHERE source = '" STORAGE_COMMUNITY_SOURCE "' ORDER BY id LIMIT 1";

static int community_collection(int64_t at, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_COLLECTION_FIND);
    if (st == NULL)
        return STORAGE_ERROR;
    int status = storage_first_int64(st, id, "finding the community collection");
    if (status != STORAGE_NOT_FOUND)
        return status;
    st = storage_stmt(SQL_COLLECTION_MAKE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, at);
    status = storage_exec_insert(st, id, "making the community collection");
    /* NOT_FOUND: a collection of that name exists, made by an admin. */
    return status == STORAGE_NOT_FOUND ? STORAGE_CONFLICT : status;
}

static const char SQL_LEVEL_ADD[] =
    "INSERT INTO levels (collection_id, position, title, author, comment, board, width, height, "
    "boxes, canonical_hash, created_at, solver_status, solver_moves, solver_pushes) "
    "VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM levels WHERE collection_id = ?1), "
    "?2, ?3, '', ?4, ?5, ?6, ?7, ?8, ?9, 'solvable', ?10, ?11) RETURNING id";
static const char SQL_REFERENCE_ADD[] =
    "INSERT INTO reference_solutions (level_id, title, lurd, moves, pushes, created_at) "
    "VALUES (?, 'solver', ?, ?, ?, ?)";
static const char SQL_AUTHOR_ADD[] =
    "INSERT INTO community_levels (level_id, author_id, canonical_hash, bytes, published_at) "
    "VALUES (?, ?, ?, ?, ?)";

/* What a level stores for its author: its board and title, and a row. */
static int64_t level_bytes(const struct storage_community_new *n)
{
    size_t len = 32;
    for (const char *s = n->board; *s != '\0'; s++)
        len++;
    for (const char *s = n->title; *s != '\0'; s++)
        len++;
    return (int64_t)len;
}

int storage_community_publish(const struct storage_community_new *n, int64_t *level_id)
{
    int64_t collection = 0;
    int status = community_collection(n->at, &collection);
    if (status != STORAGE_OK)
        return status;
    struct sql_stmt *st = storage_stmt(SQL_LEVEL_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, collection);
    sql_bind_text(st, 2, n->title);
    sql_bind_text(st, 3, n->author);
    sql_bind_text(st, 4, n->board);
    sql_bind_int64(st, 5, n->width);
    sql_bind_int64(st, 6, n->height);
    sql_bind_int64(st, 7, n->boxes);
    sql_bind_text(st, 8, n->canonical_hash);
    sql_bind_int64(st, 9, n->at);
    sql_bind_int64(st, 10, n->moves);
    sql_bind_int64(st, 11, n->pushes);
    status = storage_exec_insert(st, level_id, "adding a community level");
    if (status != STORAGE_OK)
        return status == STORAGE_NOT_FOUND ? STORAGE_ERROR : status;
    st = storage_stmt(SQL_REFERENCE_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, *level_id);
    sql_bind_text(st, 2, n->solution);
    sql_bind_int64(st, 3, n->moves);
    sql_bind_int64(st, 4, n->pushes);
    sql_bind_int64(st, 5, n->at);
    status = storage_exec_stmt(st, "keeping the solver's solution");
    if (status != STORAGE_OK)
        return status;
    st = storage_stmt(SQL_AUTHOR_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, *level_id);
    sql_bind_int64(st, 2, n->author_id);
    sql_bind_text(st, 3, n->canonical_hash);
    sql_bind_int64(st, 4, level_bytes(n));
    sql_bind_int64(st, 5, n->at);
    status = storage_exec_stmt(st, "naming a level's author");
    if (status == STORAGE_CONFLICT)
        *level_id = 0; /* rolled back with the caller's transaction */
    return status;
}

/* A published level with viewer ?1's like and solved state; hidden says
 * whether an admin hid or deleted it. */
#define LEVEL_COLUMNS                                                                              \
    "SELECT l.id, l.collection_id, l.title, cl.author_id, u.username, l.width, l.height, "         \
    "l.boxes, cl.likes, "                                                                          \
    "CASE WHEN EXISTS (SELECT 1 FROM community_likes k WHERE k.level_id = l.id "                   \
    "AND k.user_id = ?1) THEN 1 ELSE 0 END, "                                                      \
    "CASE WHEN EXISTS (SELECT 1 FROM solutions s WHERE s.level_id = l.id AND s.user_id = ?1) "     \
    "THEN 1 ELSE 0 END, "                                                                          \
    "CASE WHEN l.hidden <> 0 OR l.deleted_at IS NOT NULL THEN 1 ELSE 0 END, "                      \
    "(SELECT count(*) FROM community_reports r WHERE r.level_id = l.id), cl.published_at "         \
    "FROM community_levels cl JOIN levels l ON l.id = cl.level_id "                                \
    "JOIN users u ON u.id = cl.author_id "
#define VISIBLE "l.hidden = 0 AND l.deleted_at IS NULL"

static const char SQL_EACH[] =
    LEVEL_COLUMNS "WHERE (?2 = 0 OR cl.author_id = ?2) AND (?3 = 1 OR (" VISIBLE ")) "
                  "AND (?5 = 0 OR cl.level_id < ?5) ORDER BY cl.level_id DESC LIMIT ?4";
static const char SQL_GET[] = LEVEL_COLUMNS "WHERE cl.level_id = ?2 AND " VISIBLE;

static int read_level(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_community_level l = {
        .level_id = sql_column_int64(st, 0),
        .collection_id = sql_column_int64(st, 1),
        .title = sql_column_text(st, 2),
        .author_id = sql_column_int64(st, 3),
        .author = sql_column_text(st, 4),
        .width = (uint32_t)sql_column_int64(st, 5),
        .height = (uint32_t)sql_column_int64(st, 6),
        .boxes = (uint32_t)sql_column_int64(st, 7),
        .likes = (uint32_t)sql_column_int64(st, 8),
        .liked = sql_column_int64(st, 9) != 0,
        .solved = sql_column_int64(st, 10) != 0,
        .hidden = sql_column_int64(st, 11) != 0,
        .reports = (uint32_t)sql_column_int64(st, 12),
        .published_at = sql_column_int64(st, 13),
    };
    return ((int (*)(void *, const struct storage_community_level *))fn)(arg, &l);
}

int storage_community_each(int64_t author, int64_t viewer, bool all, uint32_t limit, int64_t before,
                           int (*fn)(void *arg, const struct storage_community_level *l), void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_EACH);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, viewer);
    sql_bind_int64(st, 2, author);
    sql_bind_int64(st, 3, all ? 1 : 0);
    sql_bind_int64(st, 4, limit);
    sql_bind_int64(st, 5, before);
    int status = storage_each_row(st, read_level, (void *)fn, arg, "listing community levels");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

int storage_community_get(int64_t level, int64_t viewer,
                          int (*fn)(void *arg, const struct storage_community_level *l), void *arg)
{
    return storage_rows_by_ids(SQL_GET, viewer, level, read_level, (void *)fn, arg,
                               "reading a community level");
}

static const char SQL_LIKE[] = "INSERT INTO community_likes (level_id, user_id, created_at) "
                               "VALUES (?, ?, ?) ON CONFLICT DO NOTHING";
static const char SQL_UNLIKE[] = "DELETE FROM community_likes WHERE level_id = ? AND user_id = ?";

int storage_community_like(int64_t level, int64_t user, bool on, int64_t at, bool *changed)
{
    *changed = false;
    struct sql_stmt *st = storage_stmt(on ? SQL_LIKE : SQL_UNLIKE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, user);
    if (on)
        sql_bind_int64(st, 3, at);
    int status = storage_exec_changed(st, on ? "liking a level" : "taking back a like");
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    *changed = status == STORAGE_OK;
    return status;
}

static const char SQL_REPORTS_SINCE[] =
    "SELECT count(*) FROM community_reports WHERE user_id = ? AND created_at >= ?";

int storage_community_reports_since(int64_t user, int64_t since, uint32_t *count)
{
    *count = 0;
    struct sql_stmt *st = storage_stmt(SQL_REPORTS_SINCE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    sql_bind_int64(st, 2, since);
    int64_t n = 0;
    int status = storage_first_int64(st, &n, "counting a player's reports");
    *count = (uint32_t)n;
    return status;
}

static const char SQL_REPORT[] =
    "INSERT INTO community_reports (level_id, user_id, reason, created_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT DO NOTHING RETURNING id";

int storage_community_report(int64_t level, int64_t user, const char *reason, int64_t at,
                             bool *created)
{
    *created = false;
    struct sql_stmt *st = storage_stmt(SQL_REPORT);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, user);
    sql_bind_text(st, 3, reason);
    sql_bind_int64(st, 4, at);
    int64_t id = 0;
    int status = storage_exec_insert(st, &id, "reporting a level");
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    *created = status == STORAGE_OK;
    return status;
}

static const char SQL_REPORTS[] =
    "SELECT r.id, r.level_id, r.user_id, l.title, a.username, p.username, r.reason, "
    "cl.author_id, CASE WHEN l.hidden <> 0 OR l.deleted_at IS NOT NULL THEN 1 ELSE 0 END, "
    "r.created_at FROM community_reports r "
    "JOIN community_levels cl ON cl.level_id = r.level_id JOIN levels l ON l.id = r.level_id "
    "JOIN users a ON a.id = cl.author_id JOIN users p ON p.id = r.user_id "
    "ORDER BY r.id DESC LIMIT ?";

static int read_report(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_community_report r = {
        .id = sql_column_int64(st, 0),
        .level_id = sql_column_int64(st, 1),
        .user_id = sql_column_int64(st, 2),
        .level_title = sql_column_text(st, 3),
        .author = sql_column_text(st, 4),
        .reporter = sql_column_text(st, 5),
        .reason = sql_column_text(st, 6),
        .author_id = sql_column_int64(st, 7),
        .hidden = sql_column_int64(st, 8) != 0,
        .created_at = sql_column_int64(st, 9),
    };
    return ((int (*)(void *, const struct storage_community_report *))fn)(arg, &r);
}

int storage_community_reports_each(uint32_t limit,
                                   int (*fn)(void *arg, const struct storage_community_report *r),
                                   void *arg)
{
    return storage_list_by_id(SQL_REPORTS, limit, read_report, (void *)fn, arg, "listing reports");
}

static const char SQL_BLOCK[] =
    "INSERT INTO community_blocks (user_id, reason, blocked_at) VALUES (?, ?, ?) "
    "ON CONFLICT DO NOTHING";
static const char SQL_UNBLOCK[] = "DELETE FROM community_blocks WHERE user_id = ?";

int storage_community_block(int64_t user, bool on, const char *reason, int64_t at, bool *changed)
{
    *changed = false;
    struct sql_stmt *st = storage_stmt(on ? SQL_BLOCK : SQL_UNBLOCK);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, user);
    if (on) {
        sql_bind_text(st, 2, reason);
        sql_bind_int64(st, 3, at);
    }
    int status = storage_exec_changed(st, on ? "blocking an author" : "unblocking an author");
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    *changed = status == STORAGE_OK;
    return status;
}

static const char SQL_BLOCKS[] =
    "SELECT b.user_id, u.username, b.reason, b.blocked_at FROM community_blocks b "
    "JOIN users u ON u.id = b.user_id ORDER BY b.blocked_at DESC, b.user_id LIMIT ?";

static int read_block(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_community_block b = {
        .user_id = sql_column_int64(st, 0),
        .username = storage_column_text_or_null(st, 1),
        .reason = sql_column_text(st, 2),
        .blocked_at = sql_column_int64(st, 3),
    };
    return ((int (*)(void *, const struct storage_community_block *))fn)(arg, &b);
}

int storage_community_blocks_each(uint32_t limit,
                                  int (*fn)(void *arg, const struct storage_community_block *b),
                                  void *arg)
{
    return storage_list_by_id(SQL_BLOCKS, limit, read_block, (void *)fn, arg,
                              "listing blocked authors");
}
