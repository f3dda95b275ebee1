/* Storage: NOTIFY in a transaction, and the LISTEN thread. The listening
 * connection is libpq's own, apart from the statement API: it runs no
 * statements once it listens, and waits on its socket.
 *
 * The thread's states: CONNECTING (every second until the database
 * answers), LISTENING (poll on the socket and a pipe that stop writes to;
 * each readable socket is consumed and its notifications handed over) and
 * back to CONNECTING when the connection is lost, or STOPPED when the pipe
 * speaks. Entering LISTENING again after a loss calls `reconnected`. */
#include "storage/storage_notify.h"

#include "storage/sql.h"
#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <libpq-fe.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RETRY_MS 1000

static const char SQL_NOTIFY[] = "SELECT pg_notify('sokod', ?)";

static struct storage_listener listener;
static pthread_t thread;
static bool started;
static int stop_pipe[2] = {-1, -1};
/* This process's mark, after a '/' at the end of what it sends. */
static char mark[24];
static pthread_once_t mark_once = PTHREAD_ONCE_INIT;

static void make_mark(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    snprintf(mark, sizeof mark, "/%x.%lx", (unsigned)getpid(), (unsigned long)t.tv_nsec);
}

int storage_notify(const char *payload)
{
    if (sql_backend() != SQL_POSTGRES)
        return STORAGE_OK;
    pthread_once(&mark_once, make_mark);
    char text[STORAGE_NOTIFY_MAX + sizeof mark];
    int n = snprintf(text, sizeof text, "%s%s", payload, mark);
    if (strlen(payload) > STORAGE_NOTIFY_MAX || n < 0 || (size_t)n >= sizeof text)
        return STORAGE_ERROR;
    struct sql_stmt *st = storage_stmt(SQL_NOTIFY);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, text);
    /* Inside a transaction, it goes out with the next statement. */
    return sql_send(st, "notifying the other nodes");
}

static const char SQL_QUEUE_USAGE[] = "SELECT (pg_notification_queue_usage() * 1000000)::bigint";
static const char SQL_END_LISTENERS[] =
    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
    "WHERE datname = current_database() AND application_name LIKE 'sokod-listen %' "
    "AND application_name <> ?";

int storage_notify_queue_ppm(int64_t *ppm)
{
    *ppm = 0;
    if (sql_backend() != SQL_POSTGRES)
        return STORAGE_OK;
    struct sql_stmt *st = storage_stmt(SQL_QUEUE_USAGE);
    return st != NULL ? storage_first_int64(st, ppm, "reading the NOTIFY queue's use")
                      : STORAGE_ERROR;
}

int storage_notify_end_listeners(int64_t *ended)
{
    *ended = 0;
    if (sql_backend() != SQL_POSTGRES)
        return STORAGE_OK;
    char own[32];
    snprintf(own, sizeof own, "sokod-listen %d", (int)getpid());
    struct sql_stmt *st = storage_stmt(SQL_END_LISTENERS);
    if (st == NULL)
        return STORAGE_ERROR;
    sql_bind_text(st, 1, own);
    return storage_first_int64(st, ended, "ending other nodes' listening connections");
}

/* Waits up to ms for the stop pipe; true when stop was asked. */
static bool stop_asked(int ms)
{
    struct pollfd p = {.fd = stop_pipe[0], .events = POLLIN};
    return poll(&p, 1, ms) > 0;
}

/* A connection that listens, or NULL (logged once per loss). */
static PGconn *connect_listening(bool *logged)
{
    /* Named with the process, for an operator (or a test) to find it. */
    char name[32];
    snprintf(name, sizeof name, "sokod-listen %d", (int)getpid());
    const char *keys[] = {"dbname", "application_name", NULL};
    const char *values[] = {storage_conn_target(), name, NULL};
    PGconn *pg = PQconnectdbParams(keys, values, 1);
    PGresult *r = pg != NULL && PQstatus(pg) == CONNECTION_OK ? PQexec(pg, "LISTEN sokod") : NULL;
    bool ok = r != NULL && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (ok)
        return pg;
    if (!*logged) {
        /* libpq's messages name the host and user, never the password. */
        fprintf(stderr, "sokod: cannot listen for other nodes' events (retrying): %s",
                pg != NULL ? PQerrorMessage(pg) : "out of memory\n");
        *logged = true;
    }
    PQfinish(pg);
    return NULL;
}

/* Hands over the notifications that came; false when the connection is lost. */
static bool consume(PGconn *pg)
{
    if (PQconsumeInput(pg) == 0 || PQstatus(pg) != CONNECTION_OK)
        return false;
    PGnotify *n;
    while ((n = PQnotifies(pg)) != NULL) {
        char *from = strrchr(n->extra, '/');
        bool own = from != NULL && strcmp(from, mark) == 0;
        if (from != NULL)
            *from = '\0';
        listener.payload(listener.arg, n->extra, own);
        PQfreemem(n);
    }
    return true;
}

static int64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *listen_main(void *unused)
{
    (void)unused;
    int64_t next_tick = 0;                              /* listener.tick's, on mono_ms */
    pthread_setname_np(pthread_self(), "sokod-listen"); /* as top -H shows it */
    bool lost = false, logged = false;
    while (!stop_asked(0)) {
        PGconn *pg = connect_listening(&logged);
        if (pg == NULL) {
            lost = true;
            if (stop_asked(RETRY_MS))
                break;
            continue;
        }
        if (lost) {
            fprintf(stderr, "sokod: listening for other nodes' events again\n");
            listener.reconnected(listener.arg);
        }
        lost = false;
        logged = false;
        for (;;) {
            int wait = -1;
            if (listener.tick != NULL) {
                if (mono_ms() >= next_tick) {
                    listener.tick(listener.arg);
                    next_tick = mono_ms() + listener.tick_ms;
                }
                int64_t left = next_tick - mono_ms();
                wait = left < 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
            }
            struct pollfd p[2] = {{.fd = PQsocket(pg), .events = POLLIN},
                                  {.fd = stop_pipe[0], .events = POLLIN}};
            int ready = poll(p, 2, wait);
            if (ready <= 0)
                continue;
            if (p[1].revents != 0)
                break;
            if (!consume(pg)) {
                fprintf(stderr, "sokod: the connection listening for other nodes' events was "
                                "lost: reconnecting\n");
                lost = true;
                break;
            }
        }
        PQfinish(pg);
    }
    return NULL; /* the thread's own connection closes as it ends */
}

int storage_listen_start(const struct storage_listener *l)
{
    if (sql_backend() != SQL_POSTGRES || started)
        return STORAGE_OK;
    listener = *l;
    pthread_once(&mark_once, make_mark);
    if (pipe(stop_pipe) != 0)
        return STORAGE_ERROR;
    if (pthread_create(&thread, NULL, listen_main, NULL) != 0) {
        close(stop_pipe[0]);
        close(stop_pipe[1]);
        return STORAGE_ERROR;
    }
    started = true;
    return STORAGE_OK;
}

void storage_listen_stop(void)
{
    if (!started)
        return;
    ssize_t w = write(stop_pipe[1], "x", 1);
    (void)w;
    pthread_join(thread, NULL);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    started = false;
}
