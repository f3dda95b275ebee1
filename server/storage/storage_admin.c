/* Storage: admins, the audit log, imports and the library's management. */
#include "storage/storage_admin.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <string.h>

static void bind_optional_text(struct sql_stmt *st, int idx, const char *text)
{
    if (text == NULL)
        sql_bind_null(st, idx);
    else
        sql_bind_text(st, idx, text);
}

/* ---- Admins and the audit log ------------------------------------------------------------ */

static const char SQL_SET_ADMIN[] = "UPDATE users SET admin = ?2 WHERE username = ?1 AND guest = 0 "
                                    "RETURNING id";

int storage_user_set_admin(const char *username, bool admin, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_SET_ADMIN);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, username);
    sql_bind_int64(st, 2, admin ? 1 : 0);
    int status = storage_first_row(st, "setting the admin right");
    if (status == STORAGE_OK)
        *id = sql_column_int64(st, 0);
    sql_reset(st);
    return status;
}

static const char SQL_USER_ADMIN[] = "SELECT guest, admin, username FROM users WHERE id = ?";

int storage_user_admin(int64_t id, bool *guest, bool *admin, char *name, size_t cap)
{
    struct sql_stmt *st = storage_stmt(SQL_USER_ADMIN);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    int status = storage_first_row(st, "reading a user's rights");
    if (status == STORAGE_OK) {
        *guest = sql_column_int(st, 0) != 0;
        *admin = sql_column_int(st, 1) != 0;
        snprintf(name, cap, "%s", sql_column_text(st, 2));
    }
    sql_reset(st);
    return status;
}

static const char SQL_AUDIT_ADD[] =
    "INSERT INTO audit_log (at, user_id, actor, action, target, details) VALUES (?, ?, ?, ?, ?, ?)";

int storage_audit_add(int64_t user_id, const char *actor, const char *action, const char *target,
                      const char *details, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_AUDIT_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, now);
    if (user_id != 0)
        sql_bind_int64(st, 2, user_id);
    else
        sql_bind_null(st, 2);
    sql_bind_text(st, 3, actor);
    sql_bind_text(st, 4, action);
    sql_bind_text(st, 5, target);
    sql_bind_text(st, 6, details != NULL ? details : "{}");
    return storage_exec_stmt(st, "adding to the audit log");
}

static const char SQL_AUDIT_EACH[] =
    "SELECT id, at, coalesce(user_id, 0), actor, action, target, details FROM audit_log "
    "WHERE id < ?1 ORDER BY id DESC LIMIT ?2";

static int read_audit(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_audit a = {
        .id = sql_column_int64(st, 0),
        .at = sql_column_int64(st, 1),
        .user_id = sql_column_int64(st, 2),
        .actor = sql_column_text(st, 3),
        .action = sql_column_text(st, 4),
        .target = sql_column_text(st, 5),
        .details = sql_column_text(st, 6),
    };
    return ((int (*)(void *, const struct storage_audit *))fn)(arg, &a);
}

int storage_audit_each(int64_t before, int limit,
                       int (*fn)(void *arg, const struct storage_audit *a), void *arg)
{
    return storage_list_by_ids(SQL_AUDIT_EACH, before > 0 ? before : INT64_MAX, limit, read_audit,
                               (void *)fn, arg, "reading the audit log");
}

/* ---- Importing ----------------------------------------------------------------------------- */

static const char SQL_BY_HASH[] = "SELECT l.id, l.collection_id, l.title, c.name, "
                                  "(l.deleted_at IS NOT NULL OR c.deleted_at IS NOT NULL) AS gone "
                                  "FROM levels l JOIN collections c ON c.id = l.collection_id "
                                  "WHERE l.canonical_hash = ? ORDER BY gone, l.id";

static int read_match(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_hash_match m = {
        .level_id = sql_column_int64(st, 0),
        .collection_id = sql_column_int64(st, 1),
        .title = sql_column_text(st, 2),
        .collection_name = sql_column_text(st, 3),
        .deleted = sql_column_int(st, 4) != 0,
    };
    return ((int (*)(void *, const struct storage_hash_match *))fn)(arg, &m);
}

int storage_levels_by_hash(const char *hash,
                           int (*fn)(void *arg, const struct storage_hash_match *m), void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_BY_HASH);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, hash);
    int status = storage_each_row(st, read_match, (void *)fn, arg, "finding levels by hash");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

static const char SQL_LIBRARY_COLLECTION_CREATE[] =
    "INSERT INTO collections (name, source, notes, author, created_at, position) "
    "VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM collections)) RETURNING id";

int storage_library_collection_create(const char *name, const char *source, const char *notes,
                                      const char *author, int64_t now, int64_t *id)
{
    struct sql_stmt *st = storage_stmt(SQL_LIBRARY_COLLECTION_CREATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, name);
    sql_bind_text(st, 2, source);
    sql_bind_text(st, 3, notes);
    sql_bind_text(st, 4, author);
    sql_bind_int64(st, 5, now);
    int status = storage_exec_insert(st, id, "creating a collection");
    return status;
}

static const char SQL_NEXT_POSITION[] =
    "SELECT coalesce(max(position), 0) + 1 FROM levels WHERE collection_id = ?";

int storage_collection_next_position(int64_t collection, uint32_t *position)
{
    struct sql_stmt *st = storage_stmt(SQL_NEXT_POSITION);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, collection);
    int64_t next = 1;
    int status = storage_first_int64(st, &next, "finding the last position");
    *position = (uint32_t)next;
    return status;
}

static const char SQL_LEVEL_REVIVE[] =
    "UPDATE levels SET collection_id = ?2, position = ?3, title = ?4, author = ?5, comment = ?6, "
    "hidden = 0, deleted_at = NULL WHERE id = ?1";

int storage_level_revive(int64_t level, int64_t collection, uint32_t position, const char *title,
                         const char *author, const char *comment)
{
    struct sql_stmt *st = storage_stmt(SQL_LEVEL_REVIVE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_int64(st, 2, collection);
    sql_bind_int64(st, 3, position);
    sql_bind_text(st, 4, title);
    sql_bind_text(st, 5, author);
    sql_bind_text(st, 6, comment);
    return storage_exec_changed(st, "bringing back a level");
}

static const char SQL_LEVEL_BOARD[] = "SELECT board FROM levels WHERE id = ?";

int storage_level_board(int64_t level, char *out, size_t cap)
{
    return storage_text_by_id(SQL_LEVEL_BOARD, level, out, cap, "reading a board");
}

static const char SQL_REFERENCE_ADD[] =
    "INSERT INTO reference_solutions (level_id, title, lurd, moves, pushes, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";

int storage_reference_add(int64_t level, const char *title, const char *lurd, uint32_t moves,
                          uint32_t pushes, int64_t now)
{
    struct sql_stmt *st = storage_stmt(SQL_REFERENCE_ADD);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, level);
    sql_bind_text(st, 2, title);
    sql_bind_text(st, 3, lurd);
    sql_bind_int64(st, 4, moves);
    sql_bind_int64(st, 5, pushes);
    sql_bind_int64(st, 6, now);
    return storage_exec_stmt(st, "keeping a reference solution");
}

static const char SQL_REFERENCES[] =
    "SELECT id, title, lurd, moves, pushes FROM reference_solutions "
    "WHERE level_id = ? ORDER BY moves, pushes, id";

static int read_reference(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_reference r = {
        .id = sql_column_int64(st, 0),
        .title = sql_column_text(st, 1),
        .lurd = sql_column_text(st, 2),
        .moves = (uint32_t)sql_column_int64(st, 3),
        .pushes = (uint32_t)sql_column_int64(st, 4),
    };
    return ((int (*)(void *, const struct storage_reference *))fn)(arg, &r);
}

int storage_references_each(int64_t level, int (*fn)(void *arg, const struct storage_reference *r),
                            void *arg)
{
    return storage_list_by_id(SQL_REFERENCES, level, read_reference, (void *)fn, arg,
                              "reading reference solutions");
}

static const char SQL_SET_SOLVER[] =
    "UPDATE levels SET solver_status = ?2, solver_moves = ?3, solver_pushes = ?4 WHERE id = ?1";

int storage_level_set_solver(int64_t level, const char *status, uint32_t moves, uint32_t pushes)
{
    struct sql_stmt *st = storage_stmt(SQL_SET_SOLVER);
    if (st == NULL)
        return STORAGE_ERROR;
    bool solvable = strcmp(status, "solvable") == 0;
    sql_bind_int64(st, 1, level);
    sql_bind_text(st, 2, status);
    if (solvable) {
        sql_bind_int64(st, 3, moves);
        sql_bind_int64(st, 4, pushes);
    }
    return storage_exec_stmt(st, "recording a solver result");
}

/* ---- Managing the library ------------------------------------------------------------------ */

#define ADMIN_COLLECTION_COLUMNS                                                                   \
    "SELECT c.id, c.name, c.source, c.notes, c.author, c.position, c.hidden, "                     \
    "coalesce(c.deleted_at, 0), c.created_at, "                                                    \
    "(SELECT count(*) FROM levels l WHERE l.collection_id = c.id AND l.deleted_at IS NULL), "      \
    "(SELECT count(*) FROM levels l WHERE l.collection_id = c.id AND l.deleted_at IS NOT NULL) "   \
    "FROM collections c "

static const char SQL_ADMIN_COLLECTIONS[] = ADMIN_COLLECTION_COLUMNS "ORDER BY c.position, c.id";
static const char SQL_ADMIN_COLLECTION[] = ADMIN_COLLECTION_COLUMNS "WHERE c.id = ?";

static int read_admin_collection(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_admin_collection c = {
        .id = sql_column_int64(st, 0),
        .name = sql_column_text(st, 1),
        .source = sql_column_text(st, 2),
        .notes = sql_column_text(st, 3),
        .author = sql_column_text(st, 4),
        .position = (uint32_t)sql_column_int64(st, 5),
        .hidden = sql_column_int(st, 6) != 0,
        .deleted_at = sql_column_int64(st, 7),
        .created_at = sql_column_int64(st, 8),
        .levels = (uint32_t)sql_column_int64(st, 9),
        .deleted = (uint32_t)sql_column_int64(st, 10),
    };
    return ((int (*)(void *, const struct storage_admin_collection *))fn)(arg, &c);
}

int storage_admin_collections_each(int (*fn)(void *arg, const struct storage_admin_collection *c),
                                   void *arg)
{
    struct sql_stmt *st = storage_stmt(SQL_ADMIN_COLLECTIONS);
    if (st == NULL)
        return STORAGE_ERROR;
    int status =
        storage_each_row(st, read_admin_collection, (void *)fn, arg, "listing collections");
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

int storage_admin_collection_get(int64_t id,
                                 int (*fn)(void *arg, const struct storage_admin_collection *c),
                                 void *arg)
{
    return storage_rows_by_id(SQL_ADMIN_COLLECTION, id, read_admin_collection, (void *)fn, arg,
                              "reading a collection");
}

#define ADMIN_LEVEL_COLUMNS                                                                        \
    "SELECT l.id, l.collection_id, l.position, l.title, l.author, l.comment, l.board, "            \
    "l.canonical_hash, l.width, l.height, l.boxes, l.hidden, coalesce(l.deleted_at, 0), "          \
    "l.solver_status, coalesce(l.solver_moves, 0), coalesce(l.solver_pushes, 0), "                 \
    "(SELECT count(*) FROM games g WHERE g.level_id = l.id), "                                     \
    "(SELECT count(*) FROM solutions s WHERE s.level_id = l.id), "                                 \
    "(SELECT count(*) FROM reference_solutions r WHERE r.level_id = l.id) FROM levels l "

static const char SQL_ADMIN_LEVELS[] =
    ADMIN_LEVEL_COLUMNS "WHERE l.collection_id = ? ORDER BY l.position";
static const char SQL_ADMIN_LEVEL[] = ADMIN_LEVEL_COLUMNS "WHERE l.id = ?";

static int read_admin_level(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_admin_level l = {
        .id = sql_column_int64(st, 0),
        .collection_id = sql_column_int64(st, 1),
        .position = (uint32_t)sql_column_int64(st, 2),
        .title = sql_column_text(st, 3),
        .author = sql_column_text(st, 4),
        .comment = sql_column_text(st, 5),
        .board = sql_column_text(st, 6),
        .canonical_hash = sql_column_text(st, 7),
        .width = (uint32_t)sql_column_int64(st, 8),
        .height = (uint32_t)sql_column_int64(st, 9),
        .boxes = (uint32_t)sql_column_int64(st, 10),
        .hidden = sql_column_int(st, 11) != 0,
        .deleted_at = sql_column_int64(st, 12),
        .solver_status = sql_column_text(st, 13),
        .solver_moves = (uint32_t)sql_column_int64(st, 14),
        .solver_pushes = (uint32_t)sql_column_int64(st, 15),
        .games = (uint32_t)sql_column_int64(st, 16),
        .solutions = (uint32_t)sql_column_int64(st, 17),
        .references = (uint32_t)sql_column_int64(st, 18),
    };
    return ((int (*)(void *, const struct storage_admin_level *))fn)(arg, &l);
}

int storage_admin_levels_each(int64_t collection,
                              int (*fn)(void *arg, const struct storage_admin_level *l), void *arg)
{
    return storage_list_by_id(SQL_ADMIN_LEVELS, collection, read_admin_level, (void *)fn, arg,
                              "listing levels");
}

int storage_admin_level_get(int64_t id, int (*fn)(void *arg, const struct storage_admin_level *l),
                            void *arg)
{
    return storage_rows_by_id(SQL_ADMIN_LEVEL, id, read_admin_level, (void *)fn, arg,
                              "reading a level");
}

static const char SQL_COLLECTION_UPDATE[] =
    "UPDATE collections SET name = coalesce(?2, name), notes = coalesce(?3, notes), "
    "author = coalesce(?4, author), hidden = coalesce(?5, hidden) WHERE id = ?1";

int storage_collection_update(int64_t id, const char *name, const char *notes, const char *author,
                              int hidden)
{
    struct sql_stmt *st = storage_stmt(SQL_COLLECTION_UPDATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    bind_optional_text(st, 2, name);
    bind_optional_text(st, 3, notes);
    bind_optional_text(st, 4, author);
    if (hidden >= 0)
        sql_bind_int64(st, 5, hidden != 0);
    return storage_exec_changed(st, "changing a collection");
}

static const char SQL_LEVEL_UPDATE[] =
    "UPDATE levels SET title = coalesce(?2, title), comment = coalesce(?3, comment), "
    "author = coalesce(?4, author), hidden = coalesce(?5, hidden) WHERE id = ?1";

int storage_level_update(int64_t id, const char *title, const char *comment, const char *author,
                         int hidden)
{
    struct sql_stmt *st = storage_stmt(SQL_LEVEL_UPDATE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    bind_optional_text(st, 2, title);
    bind_optional_text(st, 3, comment);
    bind_optional_text(st, 4, author);
    if (hidden >= 0)
        sql_bind_int64(st, 5, hidden != 0);
    return storage_exec_changed(st, "changing a level");
}

static const char SQL_COLLECTION_DELETED[] =
    "UPDATE collections SET deleted_at = nullif(?2, 0) WHERE id = ?1";
static const char SQL_LEVEL_DELETED[] =
    "UPDATE levels SET deleted_at = nullif(?2, 0) WHERE id = ?1";

static int set_deleted(const char *sql, int64_t id, int64_t at, const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, at);
    return storage_exec_changed(st, what);
}

int storage_collection_set_deleted(int64_t id, int64_t at)
{
    return set_deleted(SQL_COLLECTION_DELETED, id, at, "deleting a collection");
}

int storage_level_set_deleted(int64_t id, int64_t at)
{
    return set_deleted(SQL_LEVEL_DELETED, id, at, "deleting a level");
}

static const char SQL_COLLECTION_POSITION[] = "UPDATE collections SET position = ?2 WHERE id = ?1";

int storage_collection_set_position(int64_t id, uint32_t position)
{
    struct sql_stmt *st = storage_stmt(SQL_COLLECTION_POSITION);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, id);
    sql_bind_int64(st, 2, position);
    return storage_exec_changed(st, "moving a collection");
}

/* Positions are unique in a collection: every level first moves to a
 * negative position out of the way, then to its place. */
static const char SQL_LEVELS_ASIDE[] =
    "UPDATE levels SET position = -position WHERE collection_id = ? AND position > 0";
static const char SQL_LEVEL_POSITION[] =
    "UPDATE levels SET position = ?3 WHERE id = ?1 AND collection_id = ?2";

int storage_levels_set_order(int64_t collection, const int64_t *ids, size_t n)
{
    struct sql_stmt *st = storage_stmt(SQL_LEVELS_ASIDE);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, collection);
    int status = storage_exec_stmt(st, "reordering levels");
    for (size_t i = 0; status == STORAGE_OK && i < n; i++) {
        st = storage_stmt(SQL_LEVEL_POSITION);
        if (st == NULL)
            return STORAGE_ERROR;
        sql_bind_int64(st, 1, ids[i]);
        sql_bind_int64(st, 2, collection);
        sql_bind_int64(st, 3, (int64_t)i + 1);
        status = storage_exec_changed(st, "reordering levels");
    }
    return status;
}

static const char SQL_EXPORT_LEVELS[] =
    "SELECT id, position, title, author, comment, board FROM levels "
    "WHERE collection_id = ?1 AND deleted_at IS NULL AND (position, id) > (?2, ?3) "
    "ORDER BY position, id LIMIT ?4";

static int read_export_level(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_admin_level l = {
        .id = sql_column_int64(st, 0),
        .position = (uint32_t)sql_column_int64(st, 1),
        .title = sql_column_text(st, 2),
        .author = sql_column_text(st, 3),
        .comment = sql_column_text(st, 4),
        .board = sql_column_text(st, 5),
        .solver_status = "",
        .canonical_hash = "",
    };
    return ((int (*)(void *, const struct storage_admin_level *))fn)(arg, &l);
}

/* Runs a page's statement: ?1 the owner, ?2 ?3 ?4 the key, ?5 the limit
 * (the levels' statement has no b: it binds ?2 ?3 and its limit at ?4). */
static int export_page(const char *sql, bool with_b, int64_t owner,
                       const struct storage_export_key *after, unsigned limit,
                       int (*row)(struct sql_stmt *st, void *fn, void *arg), void *fn, void *arg,
                       const char *what)
{
    struct sql_stmt *st = storage_stmt(sql);
    if (st == NULL)
        return STORAGE_ERROR;
    int i = 1;
    sql_bind_int64(st, i++, owner);
    sql_bind_int64(st, i++, after->a);
    if (with_b)
        sql_bind_int64(st, i++, after->b);
    sql_bind_int64(st, i++, after->id);
    sql_bind_int64(st, i, limit);
    int status = storage_each_row(st, row, fn, arg, what);
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

int storage_export_levels(int64_t collection, const struct storage_export_key *after,
                          unsigned limit, int (*fn)(void *arg, const struct storage_admin_level *l),
                          void *arg)
{
    return export_page(SQL_EXPORT_LEVELS, false, collection, after, limit, read_export_level,
                       (void *)fn, arg, "listing levels to export");
}

/* The moves stay out: they can be megabytes (storage_reference_moves). */
static const char SQL_EXPORT_REFERENCES[] =
    "SELECT id, title, moves, pushes FROM reference_solutions "
    "WHERE level_id = ?1 AND (moves, pushes, id) > (?2, ?3, ?4) "
    "ORDER BY moves, pushes, id LIMIT ?5";

static int read_export_reference(struct sql_stmt *st, void *fn, void *arg)
{
    struct storage_reference r = {
        .id = sql_column_int64(st, 0),
        .title = sql_column_text(st, 1),
        .moves = (uint32_t)sql_column_int64(st, 2),
        .pushes = (uint32_t)sql_column_int64(st, 3),
    };
    return ((int (*)(void *, const struct storage_reference *))fn)(arg, &r);
}

int storage_export_references(int64_t level, const struct storage_export_key *after, unsigned limit,
                              int (*fn)(void *arg, const struct storage_reference *r), void *arg)
{
    return export_page(SQL_EXPORT_REFERENCES, true, level, after, limit, read_export_reference,
                       (void *)fn, arg, "listing reference solutions to export");
}

/* PostgreSQL's half of storage_text_slice (storage_sql.h). */
static const char SQL_REFERENCE_MOVES[] =
    "SELECT length(lurd), substr(lurd, CAST(?2 AS integer), CAST(?3 AS integer)) "
    "FROM reference_solutions WHERE id = ?1";

int storage_reference_moves(int64_t id, size_t offset, char *out, size_t cap, size_t *got,
                            size_t *total)
{
    return storage_text_slice("reference_solutions", "lurd", SQL_REFERENCE_MOVES, id, offset, out,
                              cap, got, total, "reading a reference solution's moves");
}
