/* Storage: the PostgreSQL driver of sql.h, over libpq.
 *
 * Statements are prepared on the server (named s1, s2 ... per connection)
 * the first time they run, with the `?` placeholders of sokod's SQL
 * numbered as `$N`, and run with their parameters in text form (blobs in
 * binary), their results read in text form. Integers are sent as int8;
 * text as of unknown type, so that PostgreSQL takes the type of the
 * column it meets (a citext username compares regardless of case). A
 * connection that breaks is reset on the next statement, which then
 * prepares itself again. */
#include "storage/sql_driver.h"

#include "base/metrics.h"
#include "storage/storage_codes.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The most parameters one statement of sokod takes (a copy's insert of
 * many rows takes the most). */
#define PG_MAX_PARAMS 4096
#define INT8OID 20
#define BYTEAOID 17

struct pg_conn {
    struct sql_conn base;
    PGconn *pg;
    int next_name;
    /* Moves on at each reset of the connection: statements prepared
     * before it must be prepared again. */
    unsigned generation;
    /* Statements sent in pipeline mode (sql_send) whose answers are still
     * to read: they go out with the next statement that waits. */
    unsigned queued;
    /* The STORAGE_* code of a sent statement that failed, or STORAGE_OK.
     * Its caller was told all went well, so nothing of its transaction may
     * stand: every statement but a whole ROLLBACK fails with this code
     * (a ROLLBACK TO could keep what came before the failure). */
    int doomed;
};

struct pg_stmt {
    struct sql_stmt base;
    struct pg_conn *conn;
    char *text; /* the statement with $N placeholders */
    int nparams;
    char name[16];
    bool prepared;
    unsigned generation;
    /* The bindings of the next run, nparams of each (at least one). */
    char **values;
    int *lengths;
    int *formats;
    Oid *types;
    bool *owned;
    char (*numbers)[24];
    /* The run's result and the row being read; row is -1 before the first
     * step. */
    PGresult *result;
    int row;
    int64_t changes;
    unsigned char *bytes; /* the last blob read, decoded */
};

/* The calling thread's round trips: each statement or pipeline whose
 * answer it waited for. */
static _Thread_local uint64_t thread_trips;

/* Counts one round trip, about to be made. */
static void trip(void)
{
    thread_trips++;
    metrics_db_round_trip();
}

uint64_t sql_round_trips(void)
{
    return thread_trips;
}

static void ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static struct sql_conn *pg_open(const char *uri)
{
    PGconn *pg = PQconnectdb(uri);
    if (pg == NULL || PQstatus(pg) != CONNECTION_OK) {
        /* libpq's messages name the host and user, never the password. */
        fprintf(stderr, "sokod: cannot connect to PostgreSQL: %s",
                pg != NULL ? PQerrorMessage(pg) : "out of memory\n");
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, ignore_notice, NULL);
    /* A lock held elsewhere is waited for as long as SQLite's busy timeout. */
    char set[64];
    snprintf(set, sizeof set, "SET lock_timeout = %d", STORAGE_BUSY_MS);
    trip();
    PGresult *r = PQexec(pg, set);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) {
        fprintf(stderr, "sokod: PostgreSQL: %s", PQerrorMessage(pg));
        PQfinish(pg);
        return NULL;
    }
    struct pg_conn *c = calloc(1, sizeof *c);
    if (c == NULL) {
        PQfinish(pg);
        return NULL;
    }
    c->base.driver = &sql_pg_driver;
    c->pg = pg;
    return &c->base;
}

static void pg_close(struct sql_conn *base)
{
    struct pg_conn *c = (struct pg_conn *)base;
    PQfinish(c->pg);
    free(c);
}

/* Opens the connection again, as a new one: its statements prepare
 * themselves again, and what it had sent and not read is gone. */
static void reconnect(struct pg_conn *c)
{
    PQreset(c->pg);
    c->generation++;
    c->queued = 0;
    c->doomed = STORAGE_OK;
    if (PQstatus(c->pg) == CONNECTION_OK)
        PQsetNoticeProcessor(c->pg, ignore_notice, NULL);
}

/* Maps a failed result to a STORAGE_* code, logging all but a uniqueness
 * conflict (which callers expect and answer). */
static int failure(struct pg_conn *c, const PGresult *r, const char *what)
{
    const char *state = r != NULL ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *message = r != NULL ? PQresultErrorMessage(r) : PQerrorMessage(c->pg);
    if (state != NULL && strcmp(state, "23505") == 0)
        return STORAGE_CONFLICT;
    /* RAISE ... USING ERRCODE = 'SKQ01' in a trigger of migration 0020. */
    if (state != NULL && strcmp(state, "SKQ01") == 0)
        return STORAGE_QUOTA;
    if (state != NULL && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0)) {
        fprintf(stderr, "sokod: database conflict, to run again: %s: %s", what, message);
        return STORAGE_RETRY;
    }
    if (state != NULL && (strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0)) {
        fprintf(stderr, "sokod: database busy: %s: %s", what, message);
        return STORAGE_BUSY;
    }
    if (state != NULL && strcmp(state, "53100") == 0) {
        fprintf(stderr, "sokod: database: disk full: %s\n", what);
        return STORAGE_FULL;
    }
    fprintf(stderr, "sokod: database: %s: %s", what, message);
    if (PQstatus(c->pg) == CONNECTION_BAD) {
        /* The server went away: the next statement finds a fresh
         * connection, and prepares itself on it. */
        reconnect(c);
    }
    return STORAGE_ERROR;
}

/* A pipeline that cannot be sent or left: the connection is dropped, and
 * its transaction with it, so that nothing of it commits. */
static int drop_pipeline(struct pg_conn *c, const char *what)
{
    fprintf(stderr, "sokod: database: %s: %s", what, PQerrorMessage(c->pg));
    reconnect(c);
    return STORAGE_ERROR;
}

/* The code a statement of a doomed transaction fails with (see doomed),
 * or STORAGE_OK when sql may run: a whole ROLLBACK, or anything once the
 * transaction is over. */
static int refusal(struct pg_conn *c, const char *sql)
{
    if (c->doomed == STORAGE_OK)
        return STORAGE_OK;
    while (*sql == ' ' || *sql == '\t' || *sql == '\n')
        sql++;
    if (strcasecmp(sql, "ROLLBACK") == 0 || PQtransactionStatus(c->pg) == PQTRANS_IDLE) {
        c->doomed = STORAGE_OK;
        return STORAGE_OK;
    }
    return c->doomed;
}

/* Reads the answers of the statements sent in pipeline mode up to and
 * including the sync after them, then leaves pipeline mode. The answer of
 * the last statement is kept in *last when last is not NULL (NULL when it
 * failed); those of the others only count when they failed, which dooms
 * the transaction. Returns STORAGE_OK or the code of the first failure. */
static int read_pipeline(struct pg_conn *c, unsigned nsent, PGresult **last, const char *what)
{
    int status = STORAGE_OK;
    PGresult *failed = NULL;
    bool failed_queued = false;
    for (unsigned i = 0; i < nsent && PQstatus(c->pg) == CONNECTION_OK; i++) {
        bool is_last = last != NULL && i + 1 == nsent;
        PGresult *r;
        while ((r = PQgetResult(c->pg)) != NULL) {
            ExecStatusType s = PQresultStatus(r);
            bool ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
            if (!ok && s != PGRES_PIPELINE_ABORTED && failed == NULL) {
                failed = r;
                failed_queued = !is_last;
            } else if (ok && is_last) {
                PQclear(*last);
                *last = r;
            } else {
                PQclear(r);
            }
        }
    }
    /* The sync's own answer; anything else before it is read and dropped. */
    for (PGresult *r; PQstatus(c->pg) == CONNECTION_OK && (r = PQgetResult(c->pg)) != NULL;) {
        ExecStatusType s = PQresultStatus(r);
        PQclear(r);
        if (s == PGRES_PIPELINE_SYNC)
            break;
    }
    c->queued = 0;
    if (PQstatus(c->pg) == CONNECTION_OK && PQexitPipelineMode(c->pg) != 1) {
        PQclear(failed);
        if (last != NULL) {
            PQclear(*last);
            *last = NULL;
        }
        return drop_pipeline(c, what);
    }
    if (failed != NULL || PQstatus(c->pg) != CONNECTION_OK) {
        status = failure(c, failed, what);
        /* A sent statement's taken key is not the caller's to answer. */
        if (failed_queued && status == STORAGE_CONFLICT)
            status = STORAGE_ERROR;
        if (failed_queued && PQstatus(c->pg) == CONNECTION_OK)
            c->doomed = status;
    }
    PQclear(failed);
    if (status != STORAGE_OK && last != NULL) {
        PQclear(*last);
        *last = NULL;
    }
    return status;
}

/* Sends a sync after the statements queued by sql_send and reads their
 * answers: STORAGE_OK, or the code of the first that failed. */
static int flush_queued(struct pg_conn *c, const char *what)
{
    if (c->queued == 0)
        return STORAGE_OK;
    if (PQpipelineSync(c->pg) != 1)
        return drop_pipeline(c, what);
    trip();
    return read_pipeline(c, c->queued, NULL, what);
}

static int pg_exec(struct sql_conn *base, const char *script, const char *what)
{
    struct pg_conn *c = (struct pg_conn *)base;
    int status = refusal(c, script);
    if (status == STORAGE_OK)
        status = flush_queued(c, what);
    if (status != STORAGE_OK)
        return status;
    trip();
    PGresult *r = PQexec(c->pg, script);
    ExecStatusType s = PQresultStatus(r);
    status = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? STORAGE_OK : failure(c, r, what);
    PQclear(r);
    return status;
}

static bool pg_in_transaction(struct sql_conn *base)
{
    PGTransactionStatusType t = PQtransactionStatus(((struct pg_conn *)base)->pg);
    return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

/* Numbers sokod's placeholders as PostgreSQL's: `?N` is `$N`, and a bare
 * `?` takes the number after the largest so far, as SQLite counts them.
 * Quoted text, quoted names and comments are copied as they are. Returns
 * the new text (malloc'd) and sets *nparams; NULL when out of memory or
 * past PG_MAX_PARAMS. */
static char *number_placeholders(const char *sql, int *nparams)
{
    size_t len = strlen(sql);
    /* A bare `?` may become `$4096`. */
    char *out = malloc(len * 5 + 1);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    int most = 0;
    for (size_t i = 0; i < len;) {
        char ch = sql[i];
        if (ch == '\'' || ch == '"') {
            size_t j = i + 1;
            while (j < len && sql[j] != ch)
                j++;
            j = j < len ? j + 1 : j;
            memcpy(out + o, sql + i, j - i);
            o += j - i;
            i = j;
        } else if (ch == '-' && i + 1 < len && sql[i + 1] == '-') {
            size_t j = i;
            while (j < len && sql[j] != '\n')
                j++;
            memcpy(out + o, sql + i, j - i);
            o += j - i;
            i = j;
        } else if (ch == '?') {
            int n = 0;
            size_t j = i + 1;
            while (j < len && sql[j] >= '0' && sql[j] <= '9' && n < 1000)
                n = n * 10 + (sql[j++] - '0');
            if (j == i + 1)
                n = most + 1;
            if (n < 1 || n > PG_MAX_PARAMS) {
                free(out);
                return NULL;
            }
            most = n > most ? n : most;
            o += (size_t)snprintf(out + o, 8, "$%d", n);
            i = j;
        } else {
            out[o++] = ch;
            i++;
        }
    }
    out[o] = '\0';
    *nparams = most;
    return out;
}

static void free_params(struct pg_stmt *st)
{
    free(st->values);
    free(st->lengths);
    free(st->formats);
    free(st->types);
    free(st->owned);
    free(st->numbers);
}

static struct sql_stmt *pg_prepare(struct sql_conn *base, const char *sql)
{
    struct pg_conn *c = (struct pg_conn *)base;
    struct pg_stmt *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->base.driver = &sql_pg_driver;
    st->conn = c;
    st->row = -1;
    st->text = number_placeholders(sql, &st->nparams);
    if (st->text == NULL) {
        fprintf(stderr, "sokod: database: preparing %s: too many parameters\n", sql);
        free(st);
        return NULL;
    }
    size_t n = st->nparams > 0 ? (size_t)st->nparams : 1;
    st->values = calloc(n, sizeof *st->values);
    st->lengths = calloc(n, sizeof *st->lengths);
    st->formats = calloc(n, sizeof *st->formats);
    st->types = calloc(n, sizeof *st->types);
    st->owned = calloc(n, sizeof *st->owned);
    st->numbers = calloc(n, sizeof *st->numbers);
    if (st->values == NULL || st->lengths == NULL || st->formats == NULL || st->types == NULL ||
        st->owned == NULL || st->numbers == NULL) {
        free_params(st);
        free(st->text);
        free(st);
        return NULL;
    }
    return &st->base;
}

static void unbind(struct pg_stmt *st)
{
    for (int i = 0; i < st->nparams; i++) {
        if (st->owned[i])
            free(st->values[i]);
        st->values[i] = NULL;
        st->owned[i] = false;
        st->lengths[i] = 0;
        st->formats[i] = 0;
        st->types[i] = 0;
    }
}

static void clear_result(struct pg_stmt *st)
{
    PQclear(st->result);
    st->result = NULL;
    st->row = -1;
    PQfreemem(st->bytes);
    st->bytes = NULL;
}

static void pg_reset(struct sql_stmt *base)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    clear_result(st);
    unbind(st);
}

static void pg_finalize(struct sql_stmt *base)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    pg_reset(base);
    /* The server keeps a prepared statement until its connection ends. */
    if (st->prepared && flush_queued(st->conn, "forgetting a statement") == STORAGE_OK &&
        st->generation == st->conn->generation && PQstatus(st->conn->pg) == CONNECTION_OK) {
        char sql[32];
        snprintf(sql, sizeof sql, "DEALLOCATE %s", st->name);
        trip();
        PQclear(PQexec(st->conn->pg, sql));
    }
    free_params(st);
    free(st->text);
    free(st);
}

/* The slot of parameter idx, emptied; NULL when idx is out of range. */
static struct pg_stmt *slot(struct sql_stmt *base, int idx)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    if (idx < 1 || idx > st->nparams)
        return NULL;
    int i = idx - 1;
    if (st->owned[i])
        free(st->values[i]);
    st->values[i] = NULL;
    st->owned[i] = false;
    return st;
}

static void pg_bind_int64(struct sql_stmt *base, int idx, int64_t value)
{
    struct pg_stmt *st = slot(base, idx);
    if (st == NULL)
        return;
    int i = idx - 1;
    snprintf(st->numbers[i], sizeof st->numbers[i], "%" PRId64, value);
    st->values[i] = st->numbers[i];
    st->formats[i] = 0;
    st->types[i] = INT8OID;
}

static void pg_bind_text(struct sql_stmt *base, int idx, const char *text)
{
    struct pg_stmt *st = slot(base, idx);
    if (st == NULL)
        return;
    int i = idx - 1;
    st->values[i] = strdup(text);
    st->owned[i] = st->values[i] != NULL;
    st->formats[i] = 0;
    st->types[i] = 0;
}

static void pg_bind_blob(struct sql_stmt *base, int idx, const void *data, size_t len)
{
    struct pg_stmt *st = slot(base, idx);
    if (st == NULL)
        return;
    int i = idx - 1;
    st->values[i] = malloc(len > 0 ? len : 1);
    if (st->values[i] == NULL)
        return;
    memcpy(st->values[i], data, len);
    st->owned[i] = true;
    st->lengths[i] = (int)len;
    st->formats[i] = 1;
    st->types[i] = BYTEAOID;
}

static void pg_bind_null(struct sql_stmt *base, int idx)
{
    struct pg_stmt *st = slot(base, idx);
    if (st != NULL)
        st->types[idx - 1] = 0;
}

/* Prepares the statement on its connection, with the types of its first
 * bindings. */
static int prepare_on_server(struct pg_stmt *st, const char *what)
{
    struct pg_conn *c = st->conn;
    snprintf(st->name, sizeof st->name, "s%d", ++c->next_name);
    trip();
    PGresult *r = PQprepare(c->pg, st->name, st->text, st->nparams, st->types);
    int status = PQresultStatus(r) == PGRES_COMMAND_OK ? STORAGE_OK : failure(c, r, what);
    PQclear(r);
    if (status == STORAGE_OK) {
        st->prepared = true;
        st->generation = c->generation;
    }
    return status;
}

/* True when sql, run outside a transaction, may run again after a lost
 * answer without doing anything twice that matters: a BEGIN, or a read
 * (a read's side effects, a notification with ids or an advisory lock of
 * the lost session, are safe to repeat). */
static bool repeatable(const char *sql)
{
    while (*sql == ' ' || *sql == '\t' || *sql == '\n')
        sql++;
    return strncasecmp(sql, "BEGIN", 5) == 0 || strncasecmp(sql, "SELECT", 6) == 0;
}

static int run_once(struct pg_stmt *st, const char *what)
{
    struct pg_conn *c = st->conn;
    st->changes = 0;
    if (!st->prepared || st->generation != c->generation) {
        /* Preparing waits for its answer: what was queued goes first. */
        int status = flush_queued(c, what);
        if (status == STORAGE_OK)
            status = prepare_on_server(st, what);
        if (status != STORAGE_OK)
            return status;
    }
    if (c->queued > 0) {
        /* One round trip for the queued statements and this one. */
        if (PQsendQueryPrepared(c->pg, st->name, st->nparams, (const char *const *)st->values,
                                st->lengths, st->formats, 0) != 1 ||
            PQpipelineSync(c->pg) != 1)
            return drop_pipeline(c, what);
        trip();
        int status = read_pipeline(c, c->queued + 1, &st->result, what);
        if (status != STORAGE_OK)
            return status;
    } else {
        trip();
        st->result = PQexecPrepared(c->pg, st->name, st->nparams, (const char *const *)st->values,
                                    st->lengths, st->formats, 0);
        ExecStatusType s = PQresultStatus(st->result);
        if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
            int status = failure(c, st->result, what);
            clear_result(st);
            return status;
        }
    }
    st->changes = strtoll(PQcmdTuples(st->result), NULL, 10);
    return STORAGE_OK;
}

/* Runs st. A connection the server ended while it was idle (a restart, a
 * standby promoted, an administrator) is found gone by the next statement:
 * failure() makes a new one, and a statement that began no transaction's
 * work and may run twice is asked again there, so that it costs no
 * request. */
static int run(struct pg_stmt *st, const char *what)
{
    struct pg_conn *c = st->conn;
    int doomed = refusal(c, st->text);
    if (doomed != STORAGE_OK)
        return doomed;
    bool repeat =
        c->queued == 0 && PQtransactionStatus(c->pg) == PQTRANS_IDLE && repeatable(st->text);
    unsigned generation = c->generation;
    int status = run_once(st, what);
    if (status == STORAGE_ERROR && repeat && c->generation != generation &&
        PQstatus(c->pg) == CONNECTION_OK) {
        fprintf(stderr, "sokod: database: connected again; %s asked again\n", what);
        status = run_once(st, what);
    }
    return status;
}

static int pg_step(struct sql_stmt *base, const char *what)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    if (st->result == NULL) {
        int status = run(st, what);
        if (status != STORAGE_OK)
            return status;
    }
    PQfreemem(st->bytes);
    st->bytes = NULL;
    st->row++;
    return st->row < PQntuples(st->result) ? SQL_ROW : STORAGE_OK;
}

/* Statements queued at most before a sync is sent: a batch of the group
 * commit sends a few per entry, up to 512 entries. Their answers pile up
 * in libpq's input buffer while it writes (libpq reads whenever the socket
 * will not take more, so the server never blocks on a full socket). */
#define PG_MAX_QUEUED 4096

/* Whether sql opens a transaction: a BEGIN. */
static bool opens_transaction(const char *sql)
{
    while (*sql == ' ' || *sql == '\t' || *sql == '\n')
        sql++;
    return strncasecmp(sql, "BEGIN", 5) == 0;
}

/* Inside a transaction, or for the BEGIN that opens one, sends st in
 * pipeline mode without waiting for its answer: it goes out with the next
 * statement that waits, in one round trip, and a failure of it dooms the
 * transaction. Elsewhere (and the first time st runs on its connection,
 * to prepare it) it runs at once. */
static int pg_send(struct sql_stmt *base, const char *what)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    struct pg_conn *c = st->conn;
    int status = refusal(c, st->text);
    PGTransactionStatusType t = PQtransactionStatus(c->pg);
    bool in_transaction =
        c->queued > 0 || t == PQTRANS_INTRANS || (t == PQTRANS_IDLE && opens_transaction(st->text));
    if (status == STORAGE_OK && c->queued >= PG_MAX_QUEUED)
        status = flush_queued(c, what);
    if (status != STORAGE_OK || !in_transaction || !st->prepared ||
        st->generation != c->generation) {
        if (status == STORAGE_OK)
            status = pg_step(base, what);
        pg_reset(base);
        return status == SQL_ROW ? STORAGE_OK : status;
    }
    if (c->queued == 0 && PQenterPipelineMode(c->pg) != 1) {
        pg_reset(base);
        return drop_pipeline(c, what);
    }
    if (PQsendQueryPrepared(c->pg, st->name, st->nparams, (const char *const *)st->values,
                            st->lengths, st->formats, 0) != 1) {
        pg_reset(base);
        return drop_pipeline(c, what);
    }
    c->queued++;
    pg_reset(base);
    return STORAGE_OK;
}

static const char *value(struct sql_stmt *base, int col)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    if (st->result == NULL || st->row < 0 || st->row >= PQntuples(st->result) || col < 0 ||
        col >= PQnfields(st->result) || PQgetisnull(st->result, st->row, col))
        return NULL;
    return PQgetvalue(st->result, st->row, col);
}

static int64_t pg_column_int64(struct sql_stmt *base, int col)
{
    const char *v = value(base, col);
    if (v == NULL)
        return 0;
    /* A comparison or EXISTS gives a boolean: sokod reads it as 1 or 0. */
    if (v[0] == 't' && v[1] == '\0')
        return 1;
    if (v[0] == 'f' && v[1] == '\0')
        return 0;
    return strtoll(v, NULL, 10);
}

static const char *pg_column_text(struct sql_stmt *base, int col)
{
    return value(base, col);
}

static const void *pg_column_blob(struct sql_stmt *base, int col, size_t *len)
{
    struct pg_stmt *st = (struct pg_stmt *)base;
    *len = 0;
    const char *v = value(base, col);
    if (v == NULL)
        return NULL;
    PQfreemem(st->bytes);
    st->bytes = PQunescapeBytea((const unsigned char *)v, len);
    return st->bytes;
}

static bool pg_column_is_null(struct sql_stmt *base, int col)
{
    return value(base, col) == NULL;
}

static int64_t pg_changes(struct sql_stmt *base)
{
    return ((struct pg_stmt *)base)->changes;
}

static bool pg_busy(struct sql_stmt *base)
{
    return ((struct pg_stmt *)base)->result != NULL;
}

const struct sql_driver sql_pg_driver = {
    .backend = SQL_POSTGRES,
    .open = pg_open,
    .close = pg_close,
    .prepare = pg_prepare,
    .finalize = pg_finalize,
    .exec = pg_exec,
    .in_transaction = pg_in_transaction,
    .bind_int64 = pg_bind_int64,
    .bind_text = pg_bind_text,
    .bind_blob = pg_bind_blob,
    .bind_null = pg_bind_null,
    .step = pg_step,
    .send = pg_send,
    .column_int64 = pg_column_int64,
    .column_text = pg_column_text,
    .column_blob = pg_column_blob,
    .column_is_null = pg_column_is_null,
    .changes = pg_changes,
    .reset = pg_reset,
    .busy = pg_busy,
};
