/* Storage: backups of a PostgreSQL database through pg_dump and pg_restore
 * (storage_pgdump.h). */
#include "storage/storage_pgdump.h"

#include "storage/storage_conn.h"
#include "storage/storage_sql.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Long enough for any URI sokod takes (storage_conn.c's bound). */
#define URI_CAP PATH_MAX

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Decodes the %XX escapes of src[0..len) into out (cap bytes). */
static void percent_decode(const char *src, size_t len, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        int hi = i + 2 < len && src[i] == '%' ? hex_digit(src[i + 1]) : -1;
        int lo = hi >= 0 ? hex_digit(src[i + 2]) : -1;
        if (lo >= 0) {
            out[o++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[o++] = src[i];
        }
    }
    out[o] = '\0';
}

/* Appends src[0..len) to out (cap bytes) at *at; false when it does not fit. */
static bool put(char *out, size_t cap, size_t *at, const char *src, size_t len)
{
    if (*at + len >= cap)
        return false;
    memcpy(out + *at, src, len);
    *at += len;
    out[*at] = '\0';
    return true;
}

/* Copies uri into out without its password (in the user part, as libpq
 * reads it: up to the first '@' before any '/', or as a parameter), which
 * goes, decoded, into password (cap bytes each). False when out is too
 * small. */
static bool split_password(const char *uri, char *out, char *password, size_t cap)
{
    password[0] = '\0';
    out[0] = '\0';
    size_t at = 0;
    const char *scheme = strstr(uri, "://");
    if (scheme == NULL)
        return put(out, cap, &at, uri, strlen(uri));
    const char *user = scheme + 3;
    const char *p = user;
    while (*p != '\0' && *p != '@' && *p != '/')
        p++;
    const char *rest = user;
    if (!put(out, cap, &at, uri, (size_t)(user - uri)))
        return false;
    if (*p == '@') {
        const char *colon = memchr(user, ':', (size_t)(p - user));
        const char *user_end = colon != NULL ? colon : p;
        if (colon != NULL)
            percent_decode(colon + 1, (size_t)(p - colon - 1), password, cap);
        if (!put(out, cap, &at, user, (size_t)(user_end - user)))
            return false;
        rest = p;
    }
    const char *query = strchr(rest, '?');
    size_t head = query != NULL ? (size_t)(query - rest) : strlen(rest);
    if (!put(out, cap, &at, rest, head))
        return false;
    char sep = '?';
    for (const char *q = query; q != NULL && *q != '\0';) {
        const char *name = q + 1;
        const char *next = strchr(name, '&');
        size_t len = next != NULL ? (size_t)(next - name) : strlen(name);
        if (strncmp(name, "password=", 9) == 0) {
            percent_decode(name + 9, len - 9, password, cap);
        } else if (len > 0) {
            if (!put(out, cap, &at, &sep, 1) || !put(out, cap, &at, name, len))
                return false;
            sep = '&';
        }
        q = next;
    }
    return true;
}

/* The environment of this process with PGPASSWORD set to password (or
 * left out when it is ""); malloc'd, entry[last] owned too. */
static char **child_environment(const char *password)
{
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (env == NULL)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(environ[i], "PGPASSWORD=", 11) != 0)
            env[k++] = environ[i];
    }
    if (password[0] != '\0') {
        size_t len = strlen(password) + 12;
        env[k] = malloc(len);
        if (env[k] == NULL) {
            free(env);
            return NULL;
        }
        snprintf(env[k], len, "PGPASSWORD=%s", password);
    }
    return env;
}

/* Runs argv (argv[0], found on PATH) with the password in its environment
 * and waits for it. */
static int run_tool(char *const argv[], const char *password, char *err, size_t cap)
{
    char **env = child_environment(password);
    if (env == NULL)
        return STORAGE_ERROR;
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, env);
    char *secret = NULL;
    for (size_t i = 0; env[i] != NULL; i++) {
        if (strncmp(env[i], "PGPASSWORD=", 11) == 0)
            secret = env[i];
    }
    if (secret != NULL) {
        memset(secret, 0, strlen(secret));
        free(secret);
    }
    free(env);
    if (rc == ENOENT) {
        snprintf(err, cap,
                 "%s is not installed (or not on PATH): install PostgreSQL's client tools "
                 "(Debian: apt install postgresql-client)",
                 argv[0]);
        return STORAGE_ERROR;
    }
    if (rc != 0) {
        snprintf(err, cap, "cannot run %s: %s", argv[0], strerror(rc));
        return STORAGE_ERROR;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, cap, "waiting for %s: %s", argv[0], strerror(errno));
            return STORAGE_ERROR;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, cap, "%s failed (%s %d); it said why above", argv[0],
                 WIFEXITED(status) ? "exit status" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return STORAGE_ERROR;
    }
    return STORAGE_OK;
}

/* Runs args (the tool's name, then nargs - 1 flags, nargs at most 10), then
 * --dbname with uri less its password, then `last` unless it is NULL: the
 * password goes in PGPASSWORD. */
static int run_on(const char *uri, const char *const *args, int nargs, const char *last, char *err,
                  size_t cap)
{
    char target[URI_CAP], password[URI_CAP];
    char *argv[16];
    if (nargs > 10 || !split_password(uri, target, password, sizeof target)) {
        snprintf(err, cap, "the database's URI is too long");
        return STORAGE_ERROR;
    }
    int n = 0;
    for (int i = 0; i < nargs; i++)
        argv[n++] = (char *)(uintptr_t)args[i];
    argv[n++] = "--no-password";
    argv[n++] = "--dbname";
    argv[n++] = target;
    if (last != NULL)
        argv[n++] = (char *)(uintptr_t)last;
    argv[n] = NULL;
    int status = run_tool(argv, password, err, cap);
    memset(password, 0, sizeof password);
    return status;
}

int storage_pg_backup(const char *uri, const char *file, char *err, size_t cap)
{
    char partial[PATH_MAX], file_arg[PATH_MAX + 16];
    int w = snprintf(partial, sizeof partial, "%s.partial", file);
    if (w < 0 || (size_t)w >= sizeof partial) {
        snprintf(err, cap, "the backup's file name is too long");
        return STORAGE_ERROR;
    }
    snprintf(file_arg, sizeof file_arg, "--file=%s", partial);
    const char *args[] = {"pg_dump", "--format=custom", file_arg};
    int status = run_on(uri, args, 3, NULL, err, cap);
    if (status == STORAGE_OK && rename(partial, file) != 0) {
        snprintf(err, cap, "cannot put the dump in place as %s: %s", file, strerror(errno));
        status = STORAGE_ERROR;
    }
    if (status != STORAGE_OK)
        unlink(partial);
    return status;
}

int storage_pg_restore(const char *uri, const char *file, char *err, size_t cap)
{
    const char *args[] = {"pg_restore", "--clean", "--if-exists", "--single-transaction",
                          "--no-owner"};
    return run_on(uri, args, 5, file, err, cap);
}

static const char SQL_OTHER_CONNECTIONS[] =
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
    "AND pid <> pg_backend_pid()";

int storage_pg_other_connections(int64_t *n)
{
    *n = 0;
    struct sql_stmt *st = storage_stmt(SQL_OTHER_CONNECTIONS);
    if (st == NULL)
        return STORAGE_ERROR;
    return storage_first_int64(st, n, "counting the database's connections");
}
