/* Storage: the statement API of sql.h, passed to each statement's driver,
 * and the choice of driver. */
#include "storage/sql_driver.h"

#include "storage/storage_codes.h"
#include "storage/storage_metrics.h"

#include <stdio.h>
#include <string.h>

static const struct sql_driver *in_use = &sql_sqlite_driver;

const struct sql_driver *sql_driver_for(const char *target)
{
    if (strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0)
        return &sql_pg_driver;
    return &sql_sqlite_driver;
}

/* Appends src[0..len) to out at *at, within cap. */
static void put(char *out, size_t cap, size_t *at, const char *src, size_t len)
{
    while (len-- > 0 && *at + 1 < cap)
        out[(*at)++] = *src++;
    out[*at] = '\0';
}

void sql_redact(const char *target, char *out, size_t cap)
{
    if (cap == 0)
        return;
    out[0] = '\0';
    size_t at = 0;
    const char *scheme_end = strstr(target, "://");
    if (scheme_end == NULL) {
        snprintf(out, cap, "%s", target);
        return;
    }
    const char *user = scheme_end + 3;
    const char *query = strchr(user, '?');
    const char *end = query != NULL ? query : user + strlen(user);
    /* The user part ends at the last '@' before the query. */
    const char *atsign = NULL;
    for (const char *p = user; p < end; p++) {
        if (*p == '@')
            atsign = p;
    }
    const char *colon = atsign != NULL ? memchr(user, ':', (size_t)(atsign - user)) : NULL;
    if (colon != NULL) {
        put(out, cap, &at, target, (size_t)(colon + 1 - target));
        put(out, cap, &at, "***", 3);
        put(out, cap, &at, atsign, (size_t)(end - atsign));
    } else {
        put(out, cap, &at, target, (size_t)(end - target));
    }
    /* The query's parameters, with password's value hidden. */
    const char *p = query;
    while (p != NULL && *p != '\0') {
        const char *next = strchr(p + 1, '&');
        size_t len = next != NULL ? (size_t)(next - p) : strlen(p);
        if (strncmp(p + 1, "password=", 9) == 0) {
            put(out, cap, &at, p, 10);
            put(out, cap, &at, "***", 3);
        } else {
            put(out, cap, &at, p, len);
        }
        p = next;
    }
}

void sql_use(const struct sql_driver *d)
{
    in_use = d;
}

enum sql_backend sql_backend(void)
{
    return in_use->backend;
}

void sql_bind_int64(struct sql_stmt *st, int idx, int64_t value)
{
    st->driver->bind_int64(st, idx, value);
}

void sql_bind_text(struct sql_stmt *st, int idx, const char *text)
{
    st->driver->bind_text(st, idx, text != NULL ? text : "");
}

void sql_bind_blob(struct sql_stmt *st, int idx, const void *data, size_t len)
{
    st->driver->bind_blob(st, idx, data, len);
}

void sql_bind_null(struct sql_stmt *st, int idx)
{
    st->driver->bind_null(st, idx);
}

int sql_step(struct sql_stmt *st, const char *what)
{
    int status = st->driver->step(st, what);
    return status == SQL_ROW ? status : storage_metrics_note(status);
}

int sql_send(struct sql_stmt *st, const char *what)
{
    if (st->driver->send != NULL)
        return storage_metrics_note(st->driver->send(st, what));
    int status = sql_step(st, what);
    sql_reset(st);
    return status == SQL_ROW ? STORAGE_OK : status;
}

int64_t sql_column_int64(struct sql_stmt *st, int col)
{
    return st->driver->column_int64(st, col);
}

int sql_column_int(struct sql_stmt *st, int col)
{
    return (int)st->driver->column_int64(st, col);
}

const char *sql_column_text(struct sql_stmt *st, int col)
{
    const char *t = st->driver->column_text(st, col);
    return t != NULL ? t : "";
}

const void *sql_column_blob(struct sql_stmt *st, int col, size_t *len)
{
    return st->driver->column_blob(st, col, len);
}

bool sql_column_is_null(struct sql_stmt *st, int col)
{
    return st->driver->column_is_null(st, col);
}

int64_t sql_changes(struct sql_stmt *st)
{
    return st->driver->changes(st);
}

void sql_reset(struct sql_stmt *st)
{
    st->driver->reset(st);
}

bool sql_busy(struct sql_stmt *st)
{
    return st->driver->busy(st);
}
