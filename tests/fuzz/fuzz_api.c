/* libFuzzer target: the JSON API of every route, through the whole server.
 * LLVMFuzzerInitialize starts sokod in this process (server_start) on a
 * free loopback port, with a fresh database in a temporary folder and a
 * small collection written here, signs up a player and an admin (made one
 * in the database), and opens a game for each. Each input is then one
 * request over a real socket, through libmicrohttpd, the router, the
 * same-origin check and the handler:
 *
 *   byte 0      the route: an index into the table (routes_each), modulo
 *   byte 1      who asks: 0 the player, 1 the admin, 2 nobody (modulo 3)
 *   one byte    per {id} of the route's pattern: the id (0 makes it "0")
 *   "?...\n"    optionally, the query string (other bytes %-encoded)
 *   the rest    the body, sent as application/json from the same origin
 *
 * After each answer: it is HTTP with a status, its Content-Length holds,
 * a JSON answer parses, an error of the API has the shape of docs/api.md
 * ({"error":{"code","message"}}), and no status is 5xx but 503 and 507
 * (documented as "try again" and "disk full"). Anything else aborts, with
 * the request and the answer on stderr.
 *
 * Seeds: tests/fuzz/corpus/fuzz_api/ holds one text file per route
 * ("METHOD PATTERN WHO ID...", then an optional "?query" line, then the
 * body), turned here into inputs of the format above in the folder named by
 * SOKOD_FUZZ_API_SEEDS_OUT, so that they keep their route whatever its
 * place in the table. libFuzzer is best run with -close_fd_mask=2: the
 * server's access log then stays out of its output, while sanitizer
 * reports and this target's messages (on a copy of stderr) still show. */
#include "base/config.h"
#include "endpoints.h"
#include "http/http.h"
#include "http/routes.h"
#include "server.h"
#include "storage/storage.h"
#include "storage/storage_admin.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Levels of this target's own, small enough for hints to be quick. */
static const char LEVELS[] = "Collection: fuzz\n"
                             "\n"
                             "; Corridor\n"
                             "#######\n"
                             "#@ $ .#\n"
                             "#######\n"
                             "\n"
                             "; Room\n"
                             "########\n"
                             "#      #\n"
                             "# $  . #\n"
                             "#@ $ . #\n"
                             "#      #\n"
                             "########\n";

#define MAX_ROUTES 128
/* Answers are read into a buffer that grows up to this. */
#define ANSWER_CAP (8u << 20)
/* Far longer than any answer takes, even on a loaded machine (a log-in
 * hashes twice), and shorter than the -timeout=30 it runs with. */
#define READ_TIMEOUT_MS 15000

struct fuzz_route {
    unsigned method;
    const char *pattern;
};

enum { PLAYER, ADMIN, NOBODY };

static const char *const NAMES[] = {"fuzzplayer", "fuzzadmin"};
/* The account of each: NAMES, then NAMES followed by 2, 3 ... */
static char account[2][40];
static unsigned accounts_made[2];
static const char PASSWORD[] = "fuzz password 1";

static struct fuzz_route table[MAX_ROUTES];
static size_t ntable;
static struct config cfg;
static unsigned port;
static char folder[256];
static char cookie[2][160];
static int64_t user_id[2];
/* The real stderr: libFuzzer's -close_fd_mask=2 closes fd 2 after start-up. */
static FILE *msg;

/* ---- A small HTTP client ---------------------------------------------------------------- */

struct answer {
    char *text; /* the whole answer, NUL-terminated */
    size_t len, cap;
    unsigned status;
    const char *body;
    size_t body_len;
};

static void fail(const char *request, size_t request_len, const struct answer *a, const char *fmt,
                 ...) __attribute__((format(printf, 4, 5)));

static void fail(const char *request, size_t request_len, const struct answer *a, const char *fmt,
                 ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(msg, "fuzz_api: ");
    vfprintf(msg, fmt, ap);
    va_end(ap);
    fprintf(msg, "\n--- request ---\n%.*s\n--- answer ---\n%.*s\n", (int)request_len, request,
            a != NULL ? (int)(a->len < 4000 ? a->len : 4000) : 0, a != NULL ? a->text : "");
    fflush(msg);
    abort();
}

/* Requests left unanswered for READ_TIMEOUT_MS: counted and printed, not
 * failed. Early runs saw a request whose connection was suspended for work
 * on another thread (a log-in or sign-up hashing a password, a daily
 * puzzle) stay unanswered while every thread was idle (libmicrohttpd in
 * epoll_wait without a timeout, the worker pool's queue empty), as if the
 * resumption were lost; attaching gdb woke it. Two causes are gone: libFuzzer's
 * timer signal, which interrupted the wait below and was counted as a stall
 * (each wait now resumes after a signal), and a handler called again before
 * its work was done, which left the connection where its resume was lost
 * (it now suspends again, in server/http/http.c). Since then two long runs (22
 * and 30 minutes, over 600,000 requests) saw no stall; a stall is still
 * counted rather than aborting, so that the other checks keep running. */
static unsigned stalls;

static const char *find_header(const struct answer *a, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(a->text, "\r\n"); p != NULL && p + 2 < a->body;
         p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p + 2, name, n) == 0 && p[2 + n] == ':')
            return p + 3 + n;
    }
    return NULL;
}

/* Connects fd to the server. A signal (libFuzzer's timers) may interrupt a
 * blocking connect, which then goes on by itself: wait for it to end. */
static bool connect_server(int fd)
{
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0)
        return true;
    if (errno != EINTR)
        return false;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int ready;
    do
        ready = poll(&p, 1, READ_TIMEOUT_MS);
    while (ready < 0 && errno == EINTR);
    int error = 0;
    socklen_t len = sizeof error;
    if (ready != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0)
        return false;
    errno = error;
    return error == 0;
}

/* Sends the request and reads the answer to the connection's end (the
 * request says Connection: close); a stream of events is read to the end of
 * its headers only. Returns false, after counting a stall, when no answer
 * comes; aborts when the answer is not HTTP. */
static bool exchange(const char *request, size_t request_len, struct answer *a)
{
    memset(a, 0, sizeof *a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || !connect_server(fd))
        fail(request, request_len, NULL, "cannot connect to the server: %s", strerror(errno));
    for (size_t sent = 0; sent < request_len;) {
        ssize_t n = send(fd, request + sent, request_len - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* the server may answer (413) and close before all is sent */
        sent += (size_t)n;
    }
    a->cap = 64 * 1024;
    a->text = malloc(a->cap + 1);
    bool stream = false;
    for (;;) {
        if (a->len == a->cap && a->cap < ANSWER_CAP) {
            a->cap *= 2;
            a->text = realloc(a->text, a->cap + 1);
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int ready;
        do
            ready = poll(&p, 1, READ_TIMEOUT_MS);
        while (ready < 0 && errno == EINTR);
        if (ready != 1) {
            stalls++;
            a->text[a->len] = '\0';
            fprintf(msg, "fuzz_api: stall %u: no answer within %d ms to:\n%.*s\n", stalls,
                    READ_TIMEOUT_MS, (int)(request_len < 400 ? request_len : 400), request);
            fflush(msg);
            close(fd);
            return false;
        }
        ssize_t n = recv(fd, a->text + a->len, a->cap - a->len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        a->len += (size_t)n;
        a->text[a->len] = '\0';
        char *end = strstr(a->text, "\r\n\r\n");
        /* A stream, by its headers only: a body may hold the words too. */
        if (end != NULL &&
            memmem(a->text, (size_t)(end - a->text), "text/event-stream", 17) != NULL &&
            end < a->text + a->len) {
            stream = true;
            break;
        }
        if (a->len == ANSWER_CAP)
            fail(request, request_len, a, "an answer over %u bytes", ANSWER_CAP);
    }
    close(fd);
    a->text[a->len] = '\0';
    char *end = strstr(a->text, "\r\n\r\n");
    if (end == NULL || sscanf(a->text, "HTTP/1.1 %3u ", &a->status) != 1 || a->status < 100)
        fail(request, request_len, a, "not an HTTP answer");
    a->body = end + 4;
    a->body_len = a->len - (size_t)(a->body - a->text);
    const char *length = find_header(a, "Content-Length");
    if (!stream && length != NULL && strtoull(length, NULL, 10) != a->body_len)
        fail(request, request_len, a, "Content-Length says %llu, the body has %zu bytes",
             strtoull(length, NULL, 10), a->body_len);
    return true;
}

/* Builds a request into a malloc'd buffer; *len receives its size. */
static char *build(const char *method, const char *target, int who, const char *body,
                   size_t body_len, size_t *len)
{
    size_t cap = strlen(target) + body_len + 1024;
    char *r = malloc(cap);
    int n = snprintf(r, cap,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nOrigin: http://127.0.0.1:%u\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n%s%s%s\r\n",
                     method, target, port, port, body_len,
                     who == NOBODY ? "" : "Cookie: ", who == NOBODY ? "" : cookie[who],
                     who == NOBODY ? "" : "\r\n");
    memcpy(r + n, body, body_len);
    *len = (size_t)n + body_len;
    return r;
}

/* One request made by this target itself; returns the answer's JSON body. */
static json_t *call(const char *method, const char *target, int who, const char *body,
                    unsigned *status, struct answer *a)
{
    size_t len;
    char *r = build(method, target, who, body, strlen(body), &len);
    bool answered = exchange(r, len, a);
    free(r);
    *status = answered ? a->status : 0;
    return answered ? json_loadb(a->body, a->body_len, 0, NULL) : NULL;
}

/* ---- Start-up ---------------------------------------------------------------------------- */

static void add_route(void *arg, const struct route *r)
{
    (void)arg;
    if (ntable < MAX_ROUTES)
        table[ntable++] = (struct fuzz_route){r->method, r->pattern};
}

static void die(const char *what)
{
    fprintf(msg, "fuzz_api: %s\n", what);
    fflush(msg);
    exit(1);
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        die("cannot write a file in the temporary folder");
}

/* Signs a new account up for `who` over HTTP and keeps its session
 * cookie; the admin's gets the admin right. A new one each time, as an
 * input may have logged the last one out, changed its password, or locked
 * it with wrong passwords (log-ins by name are limited). */
static void new_account(int who)
{
    char body[200];
    struct answer a;
    unsigned status = 0;
    json_t *j = NULL;
    /* A stalled sign-up (see stalls) is tried again; a name an input took
     * already (the fuzzer learns names) gives way to the next. */
    for (int attempt = 0; attempt < 8 && status != 201; attempt++) {
        if (attempt > 0 && status != 0) {
            json_decref(j);
            free(a.text);
        }
        if (status != 0 || attempt == 0) {
            accounts_made[who]++;
            if (accounts_made[who] == 1)
                snprintf(account[who], sizeof account[who], "%s", NAMES[who]);
            else
                snprintf(account[who], sizeof account[who], "%s%u.%08x", NAMES[who],
                         accounts_made[who], (unsigned)random());
        }
        snprintf(body, sizeof body, "{\"username\":\"%s\",\"password\":\"%s\"}", account[who],
                 PASSWORD);
        j = call("POST", "/api/v1/account/signup", NOBODY, body, &status, &a);
        if (status == 0)
            free(a.text);
    }
    const char *set = status != 0 ? find_header(&a, "Set-Cookie") : NULL;
    if (status != 201 || set == NULL) {
        fprintf(msg, "fuzz_api: signing %s up: status %u %.300s\n", account[who], status,
                status != 0 ? a.body : "");
        die("signing up failed");
    }
    while (*set == ' ')
        set++;
    size_t n = strcspn(set, ";\r");
    snprintf(cookie[who], sizeof cookie[who], "%.*s", (int)n, set);
    user_id[who] = json_integer_value(json_object_get(json_object_get(j, "user"), "id"));
    json_decref(j);
    free(a.text);
    if (who != ADMIN)
        return;
    int64_t id = 0;
    int stored = storage_begin();
    if (stored == STORAGE_OK)
        stored = storage_user_set_admin(account[ADMIN], true, &id);
    if (stored == STORAGE_OK)
        stored = storage_commit();
    else
        storage_rollback();
    if (stored != STORAGE_OK)
        die("cannot make the admin");
}

/* True when who's cookie still names who. */
static bool session_holds(int who)
{
    struct answer a;
    unsigned status;
    json_t *j = call("GET", "/api/v1/account", who, "", &status, &a);
    json_t *id = json_object_get(json_object_get(j, "user"), "id");
    bool ok = status == 200 && json_is_integer(id) && json_integer_value(id) == user_id[who];
    json_decref(j);
    free(a.text);
    return ok;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void stop_everything(void)
{
    fprintf(msg, "fuzz_api: stalls: %u\n", stalls);
    fflush(msg);
    /* A stalled request may hold its connection suspended, which
     * libmicrohttpd refuses at a stop: leave the server to the exit. */
    if (stalls == 0)
        server_stop();
    nftw(folder, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Turns the text seeds of `from` into inputs in `to` (see the top). */
static void write_seeds(const char *from, const char *to)
{
    DIR *d = opendir(from);
    if (d == NULL)
        return;
    mkdir(to, 0755);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", from, e->d_name);
        FILE *f = fopen(path, "rb");
        if (f == NULL)
            continue;
        char text[65536];
        size_t len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[len] = '\0';
        char method[16], pattern[200], who[16];
        int used = 0;
        if (sscanf(text, "%15s %199s %15s%n", method, pattern, who, &used) != 3)
            die("a seed does not start with METHOD PATTERN WHO");
        size_t route = ntable;
        for (size_t i = 0; i < ntable; i++) {
            if (strcmp(table[i].pattern, pattern) == 0 &&
                strcmp(http_method_name(table[i].method), method) == 0)
                route = i;
        }
        if (route == ntable) {
            fprintf(msg, "fuzz_api: the seed %s names no route of the table\n", e->d_name);
            die("a seed names no route");
        }
        uint8_t input[65536];
        size_t n = 0;
        input[n++] = (uint8_t)route;
        input[n++] = (uint8_t)(strcmp(who, "admin") == 0    ? ADMIN
                               : strcmp(who, "nobody") == 0 ? NOBODY
                                                            : PLAYER);
        const char *p = text + used;
        while (*p == ' ') {
            char *end;
            long id = strtol(p, &end, 10);
            if (end == p)
                break;
            input[n++] = (uint8_t)id;
            p = end;
        }
        if (*p == '\n')
            p++;
        size_t rest = len - (size_t)(p - text);
        memcpy(input + n, p, rest);
        n += rest;
        snprintf(path, sizeof path, "%s/seed-%s", to, e->d_name);
        FILE *out = fopen(path, "wb");
        if (out == NULL || fwrite(input, 1, n, out) != n || fclose(out) != 0)
            die("cannot write a seed");
    }
    closedir(d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    msg = fdopen(dup(2), "w");
    if (msg == NULL)
        msg = stderr;
    routes_use(endpoints_table);
    routes_each("", add_route, NULL);
    const char *seeds_out = getenv("SOKOD_FUZZ_API_SEEDS_OUT");
    if (seeds_out != NULL)
        write_seeds(SOKOD_SOURCE_DIR "/tests/fuzz/corpus/fuzz_api", seeds_out);

    const char *tmp = getenv("TMPDIR");
    snprintf(folder, sizeof folder, "%s/sokod-fuzz-api-XXXXXX", tmp != NULL ? tmp : "/tmp");
    if (mkdtemp(folder) == NULL)
        die("cannot make a temporary folder");
    char levels[300], db[300], file[320];
    snprintf(levels, sizeof levels, "%s/levels", folder);
    snprintf(db, sizeof db, "%s/data/sokod.db", folder);
    snprintf(file, sizeof file, "%s/fuzz.sok", levels);
    mkdir(levels, 0700);
    write_file(file, LEVELS, sizeof LEVELS - 1);
    char *args[] = {"serve",
                    "--address",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--db",
                    db,
                    "--levels",
                    levels,
                    "--static",
                    SOKOD_SOURCE_DIR "/static",
                    "--migrations",
                    SOKOD_SOURCE_DIR "/migrations",
                    "--wasm",
                    SOKOD_BINARY_DIR "/core.wasm",
                    "--solver-seconds",
                    "0",
                    "--hint-seconds",
                    "1",
                    "--hint-jobs",
                    "1",
                    "--threads",
                    "2",
                    "--timeout",
                    "5",
                    "--auth-per-minute",
                    "60000",
                    NULL};
    if (config_load(&cfg, CONFIG_SERVE, (int)(sizeof args / sizeof args[0]) - 1, args) != 0)
        die("the server's flags were refused");
    if (server_start(&cfg, &port) != 0)
        die("the server did not start");
    atexit(stop_everything);

    new_account(PLAYER);
    new_account(ADMIN);
    for (int who = PLAYER; who <= ADMIN; who++) {
        struct answer a;
        unsigned code;
        json_decref(call("POST", "/api/v1/levels/1/game", who, "{}", &code, &a));
        free(a.text);
        if (code != 201)
            die("cannot open a game");
    }
    fprintf(msg, "fuzz_api: sokod serves on 127.0.0.1:%u from %s; %zu routes\n", port, folder,
            ntable);
    fflush(msg);
    return 0;
}

/* ---- One input ---------------------------------------------------------------------------- */

/* Appends the bytes [p, end) to out as a query string: safe bytes as they
 * are, the rest %-encoded. */
static size_t encode_query(char *out, size_t n, const uint8_t *p, const uint8_t *end)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; p < end; p++) {
        if (*p > 0x20 && *p < 0x7F && *p != '#' && *p != '%') {
            out[n++] = (char)*p;
        } else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    return n;
}

/* Checks what every answer of the API must be. */
static void check_answer(const char *request, size_t request_len, const struct answer *a, bool api)
{
    if (a->status >= 500 && a->status != 503 && a->status != 507)
        fail(request, request_len, a, "status %u", a->status);
    const char *type = find_header(a, "Content-Type");
    bool json = type != NULL && strstr(type, "application/json") != NULL &&
                strstr(type, "application/json") < a->body;
    if (!api || a->body_len == 0)
        return;
    if (a->status >= 400 && !json)
        fail(request, request_len, a, "an error of the API that is not JSON");
    if (!json)
        return;
    json_error_t err;
    json_t *j = json_loadb(a->body, a->body_len, 0, &err);
    if (j == NULL)
        fail(request, request_len, a, "the answer is not JSON: %s", err.text);
    if (!json_is_object(j))
        fail(request, request_len, a, "the answer is not a JSON object");
    if (a->status >= 400) {
        json_t *e = json_object_get(j, "error");
        const char *code = json_string_value(json_object_get(e, "code"));
        if (!json_is_object(e) || code == NULL || code[0] == '\0' ||
            strspn(code, "abcdefghijklmnopqrstuvwxyz_") != strlen(code) ||
            !json_is_string(json_object_get(e, "message")))
            fail(request, request_len, a, "an error without {\"error\":{\"code\",\"message\"}}");
    }
    json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 65536)
        return 0;
    const struct fuzz_route *r = &table[data[0] % ntable];
    int who = data[1] % 3;
    const uint8_t *p = data + 2, *end = data + size;

    /* The target: the pattern with each {id} from the input. */
    char *target = malloc(strlen(r->pattern) + 3 * size + 64);
    size_t n = 0;
    if (strcmp(r->pattern, "/...") == 0) {
        target[n++] = '/';
    } else {
        for (const char *s = r->pattern; *s != '\0';) {
            if (strncmp(s, "{id}", 4) == 0) {
                n += (size_t)snprintf(target + n, 8, "%u", p < end ? *p++ : 1u);
                s += 4;
            } else {
                target[n++] = *s++;
            }
        }
    }
    if (p < end && *p == '?') {
        const uint8_t *line = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *stop = line != NULL ? line : end;
        target[n++] = '?';
        n = encode_query(target, n, p + 1, stop);
        p = line != NULL ? line + 1 : end;
    }
    target[n] = '\0';

    size_t request_len;
    char *request = build(http_method_name(r->method), target, who, (const char *)p,
                          (size_t)(end - p), &request_len);
    struct answer a;
    if (exchange(request, request_len, &a))
        check_answer(request, request_len, &a, strncmp(r->pattern, "/api/", 5) == 0);
    free(a.text);
    free(request);
    free(target);

    /* Log-outs, log-ins and password changes may end the session of the
     * input's user: the next inputs need one, of a new account. */
    if (who != NOBODY && strncmp(r->pattern, "/api/v1/account/", 16) == 0 &&
        r->method == HTTP_POST && !session_holds(who))
        new_account(who);
    return 0;
}
