/* Storage: copying a whole database to another, SQLite or PostgreSQL either
 * way (storage_copy.h).
 *
 * The tables are those of KNOWN, in an order where each comes after the
 * tables its foreign keys name; the catalogs of both sides are read, and
 * a table KNOWN does not list stops the copy, so that a new table cannot
 * be left behind. Columns are read from the source's catalog and written
 * by name, so their order may differ between the backends. Rows are read
 * in key order, a batch at a time (keyset paging: PostgreSQL's driver
 * holds a whole result in memory), and each batch is written in one
 * transaction of the target. */
#include "storage/storage_copy.h"

#include "storage/sql_driver.h"
#include "storage/storage.h"
#include "storage/storage_conn.h"
#include "storage/storage_quota.h"
#include "storage/storage_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Rows per read and per write transaction. */
#define COPY_BATCH 1000
/* Rows per insert statement: on PostgreSQL each statement is a round trip,
 * which costs far more than the rows it carries. */
#define INSERT_ROWS 64
#define MAX_COLUMNS 32
#define MAX_KEY 4
#define MAX_TABLES 64
#define NAME_CAP 64

/* A table sokod's schema has. `derived` tables are filled by triggers on
 * the tables before them (the leaderboards, from solutions and their own
 * entries): the rows those triggers wrote while the copy ran are deleted,
 * and the source's rows are copied as they stand. Recomputing them would
 * not give the same rows: a bucket whose players all left stays, at 0. */
struct known_table {
    const char *name;
    const char *key; /* the primary key's columns: the order rows are read in */
    bool identity;   /* its id comes from a sequence that must end past them */
    bool derived;
};

static const struct known_table KNOWN[] = {
    {"users", "id", true, false},
    {"sessions", "token_hash", false, false},
    {"user_settings", "user_id", false, false},
    {"audit_log", "id", true, false},
    {"server_keys", "name", false, false},
    {"rate_limits", "key", false, false},
    {"collections", "id", true, false},
    {"levels", "id", true, false},
    {"reference_solutions", "id", true, false},
    {"daily", "day", false, false},
    {"race_levels", "difficulty,seed", false, false},
    {"rooms", "id", true, false},
    {"games", "id", true, false},
    {"room_seats", "room_id,user_id", false, false},
    {"room_presence", "room_id,node,user_id", false, false},
    {"node_heartbeats", "node", false, false},
    {"room_events", "room_id,seq", false, false},
    {"game_log", "game_id,seq", false, false},
    {"hint_plans", "game_id", false, false},
    {"snapshots", "id", true, false},
    {"solutions", "id", true, false},
    {"submitted_solutions", "id", true, false},
    {"community_levels", "level_id", false, false},
    {"community_likes", "level_id,user_id", false, false},
    {"community_reports", "id", true, false},
    {"community_blocks", "user_id", false, false},
    {"board_entries", "level_id,board,hinted,user_id", false, true},
    {"board_buckets", "level_id,board,hinted,first", false, true},
    {"staged_uploads", "id", true, false},
    {"staged_upload_parts", "upload_id,at", false, false},
    {"level_ratings", "level_id", false, false},
    {"level_solvers", "level_id,user_id", false, false},
    {"player_ratings", "user_id", false, false},
    {"rating_history", "user_id,day", false, false},
    {"rated_games", "game_id", false, false},
    /* The rating pass's cursors: one row, which the migration made. */
    {"rating_cursor", "id", false, true},
    {"jobs", "id", true, false},
    /* The storage quota's limits: emptied while the rows above arrive (no
     * write is checked against them), copied last; the counts that the
     * triggers added to as the rows arrived are then counted again. */
    {"storage_quota", "id", false, true},
};
#define NKNOWN (sizeof KNOWN / sizeof KNOWN[0])

/* A column's kind; KIND_NULL only for a value held for an insert. */
enum column_kind { KIND_INT, KIND_TEXT, KIND_BLOB, KIND_NULL };

struct columns {
    int n;
    char name[MAX_COLUMNS][NAME_CAP];
    enum column_kind kind[MAX_COLUMNS];
};

struct storage_copy {
    struct sql_conn *source;
    char name[1024];
};

/* The value of a key column of the last row read, bound to read on. */
struct key_value {
    enum column_kind kind;
    int64_t number;
    void *bytes; /* text (with its NUL) or a blob, malloc'd */
    size_t len;
};

bool storage_copy_is_postgres(const char *target)
{
    return sql_driver_for(target)->backend == SQL_POSTGRES;
}

static bool is_pg(struct sql_conn *conn)
{
    return conn->driver->backend == SQL_POSTGRES;
}

/* Runs sql (with text bound to ?1 unless NULL) on conn and reads the first
 * column of its first row; STORAGE_NOT_FOUND without a row. */
static int first_int(struct sql_conn *conn, const char *sql, const char *text, int64_t *out,
                     const char *what)
{
    struct sql_stmt *st = conn->driver->prepare(conn, sql);
    if (st == NULL)
        return STORAGE_ERROR;
    if (text != NULL)
        sql_bind_text(st, 1, text);
    int status = sql_step(st, what);
    if (status == SQL_ROW) {
        *out = sql_column_int64(st, 0);
        status = STORAGE_OK;
    } else if (status == STORAGE_OK) {
        status = STORAGE_NOT_FOUND;
    }
    conn->driver->finalize(st);
    return status;
}

/* Whether a catalog's name is one SQL may carry unquoted. */
static bool plain_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= NAME_CAP)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
            return false;
    }
    return true;
}

static const char SQL_LITE_TABLES[] = "SELECT name FROM sqlite_master WHERE type = 'table' "
                                      "AND name NOT LIKE 'sqlite^_%' ESCAPE '^' ORDER BY name";
/* schema_version is the migrations' own bookkeeping, not data. */
static const char SQL_PG_TABLES[] =
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
    "AND table_type = 'BASE TABLE' AND table_name <> 'schema_version' ORDER BY table_name";

/* The data tables of conn's catalog, into names (at most MAX_TABLES). */
static int catalog_tables(struct sql_conn *conn, char names[][NAME_CAP], int *n, char *err,
                          size_t cap)
{
    struct sql_stmt *st =
        conn->driver->prepare(conn, is_pg(conn) ? SQL_PG_TABLES : SQL_LITE_TABLES);
    if (st == NULL)
        return STORAGE_ERROR;
    *n = 0;
    int status;
    while ((status = sql_step(st, "reading the tables")) == SQL_ROW) {
        const char *name = sql_column_text(st, 0);
        if (*n == MAX_TABLES || !plain_name(name)) {
            snprintf(err, cap, "the database holds a table the copy cannot name: %.60s", name);
            status = STORAGE_CONFLICT;
            break;
        }
        snprintf(names[(*n)++], NAME_CAP, "%s", name);
    }
    conn->driver->finalize(st);
    return status;
}

static const char SQL_LITE_COLUMNS[] = "SELECT name, type FROM pragma_table_info(?1) ORDER BY cid";
static const char SQL_PG_COLUMNS[] =
    "SELECT column_name, data_type FROM information_schema.columns "
    "WHERE table_schema = current_schema() AND table_name = ?1 ORDER BY ordinal_position";

/* SQLite's declared types and PostgreSQL's type names, read the same way. */
static enum column_kind kind_of(const char *type)
{
    if (strcasestr(type, "int") != NULL)
        return KIND_INT;
    if (strcasestr(type, "blob") != NULL || strcasestr(type, "bytea") != NULL)
        return KIND_BLOB;
    return KIND_TEXT;
}

static int table_columns(struct sql_conn *conn, const char *table, struct columns *cols, char *err,
                         size_t cap)
{
    struct sql_stmt *st =
        conn->driver->prepare(conn, is_pg(conn) ? SQL_PG_COLUMNS : SQL_LITE_COLUMNS);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, table);
    cols->n = 0;
    int status;
    while ((status = sql_step(st, "reading the columns")) == SQL_ROW) {
        const char *name = sql_column_text(st, 0);
        if (cols->n == MAX_COLUMNS || !plain_name(name)) {
            snprintf(err, cap, "table %s has a column the copy cannot name: %.60s", table, name);
            status = STORAGE_CONFLICT;
            break;
        }
        snprintf(cols->name[cols->n], NAME_CAP, "%s", name);
        cols->kind[cols->n++] = kind_of(sql_column_text(st, 1));
    }
    conn->driver->finalize(st);
    return status;
}

static int column_index(const struct columns *cols, const char *name)
{
    for (int i = 0; i < cols->n; i++) {
        if (strcmp(cols->name[i], name) == 0)
            return i;
    }
    return -1;
}

/* STORAGE_CONFLICT (err says which) when the target's columns of table
 * are not the source's, whatever their order. */
static int same_columns(const char *table, const struct columns *a, const struct columns *b,
                        char *err, size_t cap)
{
    for (int i = 0; i < a->n; i++) {
        if (column_index(b, a->name[i]) < 0) {
            snprintf(err, cap, "column %s.%s of the source is missing from the target", table,
                     a->name[i]);
            return STORAGE_CONFLICT;
        }
    }
    for (int i = 0; i < b->n; i++) {
        if (column_index(a, b->name[i]) < 0) {
            snprintf(err, cap, "column %s.%s of the target is missing from the source", table,
                     b->name[i]);
            return STORAGE_CONFLICT;
        }
    }
    return STORAGE_OK;
}

static const struct known_table *known(const char *name)
{
    for (size_t i = 0; i < NKNOWN; i++) {
        if (strcmp(KNOWN[i].name, name) == 0)
            return &KNOWN[i];
    }
    return NULL;
}

/* STORAGE_CONFLICT when conn's catalog has a table KNOWN lacks or lacks
 * one it has: the copy would leave rows behind, or find nowhere to put
 * them. */
static int check_catalog(struct sql_conn *conn, const char *side, char *err, size_t cap)
{
    char names[MAX_TABLES][NAME_CAP];
    int n = 0;
    int status = catalog_tables(conn, names, &n, err, cap);
    if (status != STORAGE_OK)
        return status;
    for (int i = 0; i < n; i++) {
        if (known(names[i]) == NULL) {
            snprintf(err, cap,
                     "the %s has a table the copy does not know: %s (this sokod cannot copy "
                     "it; a newer sokod may)",
                     side, names[i]);
            return STORAGE_CONFLICT;
        }
    }
    for (size_t k = 0; k < NKNOWN; k++) {
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = strcmp(names[i], KNOWN[k].name) == 0;
        if (!found) {
            snprintf(err, cap, "the %s has no table %s", side, KNOWN[k].name);
            return STORAGE_CONFLICT;
        }
    }
    return STORAGE_OK;
}

int storage_copy_open(const char *source, struct storage_copy **out, char *err, size_t cap)
{
    const struct sql_driver *d = sql_driver_for(source);
    struct storage_copy *c = calloc(1, sizeof *c);
    if (c == NULL)
        return STORAGE_ERROR;
    sql_redact(source, c->name, sizeof c->name);
    /* SQLite would make an empty database of a missing file. */
    if (d->backend == SQL_SQLITE && access(source, R_OK) != 0) {
        snprintf(err, cap, "no database at %s", c->name);
        free(c);
        return STORAGE_CONFLICT;
    }
    c->source = d->open(source);
    if (c->source == NULL) {
        free(c);
        return STORAGE_ERROR;
    }
    const char *begin =
        d->backend == SQL_POSTGRES ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN";
    if (d->exec(c->source, begin, "starting to read the source") != STORAGE_OK) {
        d->close(c->source);
        free(c);
        return STORAGE_ERROR;
    }
    *out = c;
    return STORAGE_OK;
}

const char *storage_copy_source_name(const struct storage_copy *c)
{
    return c->name;
}

void storage_copy_close(struct storage_copy *c)
{
    if (c == NULL)
        return;
    c->source->driver->exec(c->source, "COMMIT", "ending the read of the source");
    c->source->driver->close(c->source);
    free(c);
}

int storage_copy_target_empty(char *err, size_t cap)
{
    struct sql_conn *conn = storage_conn();
    if (conn == NULL)
        return STORAGE_ERROR;
    char names[MAX_TABLES][NAME_CAP];
    int n = 0;
    int status = catalog_tables(conn, names, &n, err, cap);
    for (int i = 0; i < n && status == STORAGE_OK; i++) {
        /* A derived table's rows are replaced by the copy's. */
        const struct known_table *t = known(names[i]);
        if (t != NULL && t->derived)
            continue;
        char sql[128];
        if (snprintf(sql, sizeof sql, "SELECT 1 FROM %s LIMIT 1", names[i]) >= (int)sizeof sql) {
            snprintf(err, cap, "a table's name is too long: %.40s...", names[i]);
            status = STORAGE_ERROR;
            break;
        }
        int64_t one = 0;
        status = first_int(conn, sql, NULL, &one, "looking for rows in the target");
        if (status == STORAGE_OK) {
            snprintf(err, cap, "the target %s is not empty: table %s holds rows", storage_name(),
                     names[i]);
            return STORAGE_CONFLICT;
        }
        if (status == STORAGE_NOT_FOUND)
            status = STORAGE_OK;
    }
    return status;
}

static const char SQL_PG_HAS_VERSION[] =
    "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
    "AND table_name = 'schema_version'";

/* The schema version of conn's database: 0 for one without sokod's schema. */
static int version_of(struct sql_conn *conn, int *version)
{
    int64_t v = 0;
    int status;
    if (is_pg(conn)) {
        /* Reading a missing table would end the source's transaction. */
        int64_t has = 0;
        status = first_int(conn, SQL_PG_HAS_VERSION, NULL, &has, "looking for schema_version");
        if (status == STORAGE_OK && has > 0)
            status = first_int(conn, "SELECT version FROM schema_version", NULL, &v,
                               "reading the schema version");
    } else {
        status = first_int(conn, "PRAGMA user_version", NULL, &v, "reading the schema version");
    }
    *version = (int)v;
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

int storage_copy_versions(struct storage_copy *c, int *source, int *target)
{
    struct sql_conn *conn = storage_conn();
    if (conn == NULL)
        return STORAGE_ERROR;
    int status = version_of(c->source, source);
    return status == STORAGE_OK ? version_of(conn, target) : status;
}

static void key_clear(struct key_value *k, int n)
{
    for (int i = 0; i < n; i++) {
        free(k[i].bytes);
        k[i].bytes = NULL;
    }
}

/* Keeps column col of st's row as key value k. */
static int key_keep(struct key_value *k, struct sql_stmt *st, int col, enum column_kind kind)
{
    free(k->bytes);
    k->bytes = NULL;
    k->kind = kind;
    const void *data = NULL;
    if (kind == KIND_INT) {
        k->number = sql_column_int64(st, col);
        return STORAGE_OK;
    }
    if (kind == KIND_BLOB) {
        data = sql_column_blob(st, col, &k->len);
    } else {
        data = sql_column_text(st, col);
        k->len = data != NULL ? strlen(data) + 1 : 1;
    }
    k->bytes = malloc(k->len > 0 ? k->len : 1);
    if (k->bytes == NULL)
        return STORAGE_ERROR;
    if (data != NULL)
        memcpy(k->bytes, data, k->len);
    else
        ((char *)k->bytes)[0] = '\0';
    return STORAGE_OK;
}

/* Keeps column col of st's row as k, a NULL as KIND_NULL. */
static int value_keep(struct key_value *k, struct sql_stmt *st, int col, enum column_kind kind)
{
    if (!sql_column_is_null(st, col))
        return key_keep(k, st, col, kind);
    free(k->bytes);
    k->bytes = NULL;
    k->kind = KIND_NULL;
    return STORAGE_OK;
}

static void key_bind(struct sql_stmt *st, int idx, const struct key_value *k)
{
    if (k->kind == KIND_NULL)
        sql_bind_null(st, idx);
    else if (k->kind == KIND_INT)
        sql_bind_int64(st, idx, k->number);
    else if (k->kind == KIND_BLOB)
        sql_bind_blob(st, idx, k->bytes, k->len);
    else
        sql_bind_text(st, idx, k->bytes);
}

/* Appends text to out (cap bytes) at *at; false when it does not fit. */
static bool append(char *out, size_t cap, size_t *at, const char *text)
{
    int w = snprintf(out + *at, cap - *at, "%s", text);
    if (w < 0 || (size_t)w >= cap - *at)
        return false;
    *at += (size_t)w;
    return true;
}

/* What copying one table needs: its columns, its key's columns, the
 * statements that read a batch after a key and insert one row or
 * INSERT_ROWS rows, and the rows read but not inserted yet. */
struct table_copy {
    const struct known_table *t;
    struct columns cols;
    int nkey;
    int key[MAX_KEY]; /* indexes into cols */
    char first[4096], next[4096], insert[4096];
    char *insert_many; /* malloc'd */
    /* Prepared once per table: PostgreSQL keeps each prepared statement
     * until the connection ends. */
    struct sql_stmt *read_first, *read_next, *ins, *ins_many;
    struct key_value held[INSERT_ROWS * MAX_COLUMNS];
};

/* INSERT_ROWS times the row's placeholders after insert's text. */
static char *many_rows(const char *insert, const char *marks)
{
    size_t cap = strlen(insert) + INSERT_ROWS * (strlen(marks) + 4) + 1;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    size_t at = 0;
    bool ok = append(out, cap, &at, insert);
    for (int r = 1; r < INSERT_ROWS && ok; r++)
        ok = append(out, cap, &at, ", (") && append(out, cap, &at, marks) &&
             append(out, cap, &at, ")");
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* Builds tc's statements from its columns. */
static int plan_table(struct table_copy *tc, char *err, size_t cap)
{
    char keys[256];
    snprintf(keys, sizeof keys, "%s", tc->t->key);
    tc->nkey = 0;
    for (char *save = NULL, *k = strtok_r(keys, ",", &save); k != NULL;
         k = strtok_r(NULL, ",", &save)) {
        int i = column_index(&tc->cols, k);
        if (i < 0 || tc->nkey == MAX_KEY) {
            snprintf(err, cap, "table %s has no column %s", tc->t->name, k);
            return STORAGE_CONFLICT;
        }
        tc->key[tc->nkey++] = i;
    }
    char list[2048] = "", marks[256] = "", order[256] = "", after[256] = "";
    size_t a = 0, b = 0, o = 0, f = 0;
    bool ok = true;
    for (int i = 0; i < tc->cols.n && ok; i++) {
        ok = append(list, sizeof list, &a, i > 0 ? ", " : "") &&
             append(list, sizeof list, &a, tc->cols.name[i]) &&
             append(marks, sizeof marks, &b, i > 0 ? ", ?" : "?");
    }
    for (int i = 0; i < tc->nkey && ok; i++) {
        ok = append(order, sizeof order, &o, i > 0 ? ", " : "") &&
             append(order, sizeof order, &o, tc->cols.name[tc->key[i]]) &&
             append(after, sizeof after, &f, i > 0 ? ", ?" : "?");
    }
    int w1 = snprintf(tc->first, sizeof tc->first, "SELECT %s FROM %s ORDER BY %s LIMIT %d", list,
                      tc->t->name, order, COPY_BATCH);
    int w2 = snprintf(tc->next, sizeof tc->next,
                      "SELECT %s FROM %s WHERE (%s) > (%s) ORDER BY %s LIMIT %d", list, tc->t->name,
                      order, after, order, COPY_BATCH);
    int w3 = snprintf(tc->insert, sizeof tc->insert, "INSERT INTO %s (%s) VALUES (%s)", tc->t->name,
                      list, marks);
    if (!ok || w1 < 0 || w2 < 0 || w3 < 0 || (size_t)w1 >= sizeof tc->first ||
        (size_t)w2 >= sizeof tc->next || (size_t)w3 >= sizeof tc->insert) {
        snprintf(err, cap, "table %s has too many columns to copy", tc->t->name);
        return STORAGE_CONFLICT;
    }
    tc->insert_many = many_rows(tc->insert, marks);
    return tc->insert_many != NULL ? STORAGE_OK : STORAGE_ERROR;
}

/* Inserts n of the rows held, from row `from`, with ins (which takes n
 * rows). */
static int insert_held(struct table_copy *tc, struct sql_stmt *ins, int from, int n)
{
    int ncols = tc->cols.n;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < ncols; i++)
            key_bind(ins, r * ncols + i + 1, &tc->held[(from + r) * ncols + i]);
    int status = sql_step(ins, tc->t->name);
    sql_reset(ins);
    return status;
}

/* Copies one batch: the rows after `keys` (or the first ones), inside one
 * transaction of the target, INSERT_ROWS rows a statement and the rest one
 * by one. Sets *rows to the rows copied. */
static int copy_batch(struct table_copy *tc, struct key_value *keys, bool first, int64_t *rows)
{
    struct sql_stmt *read = first ? tc->read_first : tc->read_next;
    for (int k = 0; k < tc->nkey && !first; k++)
        key_bind(read, k + 1, &keys[k]);
    *rows = 0;
    int status = storage_begin();
    if (status == STORAGE_OK && first && tc->t->derived) {
        char sql[128];
        snprintf(sql, sizeof sql, "DELETE FROM %s", tc->t->name);
        status = storage_conn_exec(sql, "emptying a table the triggers filled");
    }
    int ncols = tc->cols.n, held = 0;
    while (status == STORAGE_OK && (status = sql_step(read, "reading the source")) == SQL_ROW) {
        status = STORAGE_OK;
        for (int i = 0; i < ncols && status == STORAGE_OK; i++)
            status = value_keep(&tc->held[held * ncols + i], read, i, tc->cols.kind[i]);
        for (int k = 0; k < tc->nkey && status == STORAGE_OK; k++)
            status = key_keep(&keys[k], read, tc->key[k], tc->cols.kind[tc->key[k]]);
        if (status == STORAGE_OK && ++held == INSERT_ROWS) {
            status = insert_held(tc, tc->ins_many, 0, INSERT_ROWS);
            *rows += status == STORAGE_OK ? INSERT_ROWS : 0;
            held = 0;
        }
    }
    sql_reset(read);
    for (int r = 0; r < held && status == STORAGE_OK; r++) {
        status = insert_held(tc, tc->ins, r, 1);
        *rows += status == STORAGE_OK;
    }
    return storage_finish(status);
}

/* Prepares tc's statements: the reads on the source, the insert on the
 * target. */
static int prepare_table(struct storage_copy *c, struct table_copy *tc)
{
    struct sql_conn *src = c->source, *dst = storage_conn();
    tc->read_first = src->driver->prepare(src, tc->first);
    tc->read_next = src->driver->prepare(src, tc->next);
    tc->ins = dst->driver->prepare(dst, tc->insert);
    tc->ins_many = dst->driver->prepare(dst, tc->insert_many);
    return tc->read_first != NULL && tc->read_next != NULL && tc->ins != NULL &&
                   tc->ins_many != NULL
               ? STORAGE_OK
               : STORAGE_ERROR;
}

static void finalize_table(struct storage_copy *c, struct table_copy *tc)
{
    if (tc->read_first != NULL)
        c->source->driver->finalize(tc->read_first);
    if (tc->read_next != NULL)
        c->source->driver->finalize(tc->read_next);
    if (tc->ins != NULL)
        storage_conn()->driver->finalize(tc->ins);
    if (tc->ins_many != NULL)
        storage_conn()->driver->finalize(tc->ins_many);
    free(tc->insert_many);
    key_clear(tc->held, INSERT_ROWS * MAX_COLUMNS);
}

static int copy_table(struct storage_copy *c, const struct known_table *t, int64_t *total,
                      char *err, size_t cap)
{
    struct table_copy *tc = calloc(1, sizeof *tc);
    if (tc == NULL)
        return STORAGE_ERROR;
    tc->t = t;
    struct columns target;
    int status = table_columns(c->source, t->name, &tc->cols, err, cap);
    if (status == STORAGE_OK)
        status = table_columns(storage_conn(), t->name, &target, err, cap);
    if (status == STORAGE_OK)
        status = same_columns(t->name, &tc->cols, &target, err, cap);
    if (status == STORAGE_OK)
        status = plan_table(tc, err, cap);
    if (status == STORAGE_OK)
        status = prepare_table(c, tc);
    struct key_value keys[MAX_KEY] = {0};
    *total = 0;
    for (bool first = true; status == STORAGE_OK; first = false) {
        int64_t rows = 0;
        status = copy_batch(tc, keys, first, &rows);
        *total += rows;
        if (rows < COPY_BATCH)
            break;
    }
    key_clear(keys, MAX_KEY);
    finalize_table(c, tc);
    free(tc);
    return status;
}

int storage_copy_tables(struct storage_copy *c,
                        void (*fn)(void *arg, const char *table, int64_t rows), void *arg,
                        char *err, size_t cap)
{
    struct sql_conn *conn = storage_conn();
    if (conn == NULL)
        return STORAGE_ERROR;
    int status = check_catalog(c->source, "source", err, cap);
    if (status == STORAGE_OK)
        status = check_catalog(conn, "target", err, cap);
    if (status == STORAGE_OK) {
        status = storage_begin();
        if (status == STORAGE_OK)
            status = storage_conn_exec("DELETE FROM storage_quota", "lifting the storage quota");
        status = storage_finish(status);
    }
    for (size_t i = 0; i < NKNOWN && status == STORAGE_OK; i++) {
        int64_t rows = 0;
        status = copy_table(c, &KNOWN[i], &rows, err, cap);
        if (status == STORAGE_OK && fn != NULL)
            fn(arg, KNOWN[i].name, rows);
    }
    if (status == STORAGE_OK)
        status = storage_quota_recount();
    return status;
}

/* The last id the source's sequence of table gave: PostgreSQL's identity,
 * or SQLite's sqlite_sequence (AUTOINCREMENT tables only); 0 when none. */
static int source_last_id(struct sql_conn *src, const char *table, int64_t *last)
{
    *last = 0;
    int status;
    if (is_pg(src)) {
        status = first_int(src,
                           "SELECT pg_sequence_last_value("
                           "CAST(pg_get_serial_sequence(?1, 'id') AS regclass))",
                           table, last, "reading a sequence");
    } else {
        int64_t has = 0;
        status = first_int(src, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'",
                           NULL, &has, "looking for sqlite_sequence");
        if (status == STORAGE_OK && has > 0)
            status = first_int(src, "SELECT seq FROM sqlite_sequence WHERE name = ?1", table, last,
                               "reading sqlite_sequence");
    }
    return status == STORAGE_NOT_FOUND ? STORAGE_OK : status;
}

static const char SQL_LITE_AUTOINCREMENT[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1 "
    "AND sql LIKE '%AUTOINCREMENT%'";

/* Makes the target's sequence of table give ids above last. SQLite's
 * tables without AUTOINCREMENT take the largest id plus one, and have no
 * sequence to move. */
static int move_sequence(const char *table, int64_t last)
{
    struct sql_conn *conn = storage_conn();
    struct sql_stmt *st;
    if (is_pg(conn)) {
        st = conn->driver->prepare(
            conn, "SELECT setval(CAST(pg_get_serial_sequence(?1, 'id') AS regclass), ?2)");
    } else {
        int64_t autoincrement = 0;
        int status =
            first_int(conn, SQL_LITE_AUTOINCREMENT, table, &autoincrement, "reading the schema");
        if (status != STORAGE_OK || autoincrement == 0)
            return status;
        /* Inserting the rows moved sqlite_sequence to the largest id; the
         * source may have given larger ones, since deleted. */
        st = conn->driver->prepare(conn, "UPDATE sqlite_sequence SET seq = ?2 WHERE name = ?1 "
                                         "AND seq < ?2");
        if (st == NULL)
            return STORAGE_ERROR;
        sql_bind_text(st, 1, table);
        sql_bind_int64(st, 2, last);
        status = sql_step(st, "moving sqlite_sequence");
        bool moved = sql_changes(st) > 0;
        conn->driver->finalize(st);
        if (status != STORAGE_OK || moved)
            return status;
        int64_t seq = 0;
        status = first_int(conn, "SELECT seq FROM sqlite_sequence WHERE name = ?1", table, &seq,
                           "reading sqlite_sequence");
        if (status != STORAGE_NOT_FOUND)
            return status;
        st = conn->driver->prepare(conn, "INSERT INTO sqlite_sequence (name, seq) VALUES (?1, ?2)");
    }
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, table);
    sql_bind_int64(st, 2, last);
    int status = sql_step(st, "moving a sequence");
    conn->driver->finalize(st);
    return status == SQL_ROW ? STORAGE_OK : status;
}

int storage_copy_sequences(struct storage_copy *c)
{
    int status = storage_begin();
    for (size_t i = 0; i < NKNOWN && status == STORAGE_OK; i++) {
        if (!KNOWN[i].identity)
            continue;
        int64_t last = 0, largest = 0;
        status = source_last_id(c->source, KNOWN[i].name, &last);
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT max(id) FROM %s", KNOWN[i].name);
        if (status == STORAGE_OK)
            status = first_int(storage_conn(), sql, NULL, &largest, "reading the largest id");
        if (status == STORAGE_OK && largest > last)
            last = largest;
        /* A sequence never used needs no moving (setval takes no 0). */
        if (status == STORAGE_OK && last > 0)
            status = move_sequence(KNOWN[i].name, last);
    }
    return storage_finish(status);
}

int storage_copy_count(struct storage_copy *c,
                       void (*fn)(void *arg, const char *table, int64_t source, int64_t target),
                       void *arg)
{
    struct sql_conn *conn = storage_conn();
    if (conn == NULL)
        return STORAGE_ERROR;
    int status = STORAGE_OK;
    for (size_t i = 0; i < NKNOWN && status == STORAGE_OK; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", KNOWN[i].name);
        int64_t in_source = 0, in_target = 0;
        status = first_int(c->source, sql, NULL, &in_source, "counting the source's rows");
        if (status == STORAGE_OK)
            status = first_int(conn, sql, NULL, &in_target, "counting the target's rows");
        if (status == STORAGE_OK)
            fn(arg, KNOWN[i].name, in_source, in_target);
    }
    return status;
}

static const char SQL_GAMES_AFTER[] = "SELECT id FROM games WHERE id > ?1 ORDER BY id LIMIT ?2";

int storage_copy_game_ids(int64_t after, int64_t *out, int cap, int *n)
{
    *n = 0;
    struct sql_stmt *st = storage_stmt(SQL_GAMES_AFTER);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_int64(st, 1, after);
    sql_bind_int64(st, 2, cap);
    int status;
    while ((status = sql_step(st, "listing games")) == SQL_ROW && *n < cap)
        out[(*n)++] = sql_column_int64(st, 0);
    sql_reset(st);
    return status == SQL_ROW ? STORAGE_OK : status;
}
