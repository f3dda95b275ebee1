/* Static files: the client folder at / and core.wasm, never anything outside them. */
#include "http/static_files.h"

#include "http/gzip_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[PATH_MAX];
static char wasm_path[PATH_MAX];

void static_files_init(const char *folder, const char *wasm)
{
    snprintf(root, sizeof root, "%s", folder);
    snprintf(wasm_path, sizeof wasm_path, "%s", wasm);
}

static const struct {
    const char *ext;
    const char *type;
} types[] = {
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json; charset=utf-8"},
    {".map", "application/json; charset=utf-8"},
    {".webmanifest", "application/manifest+json"},
    {".wasm", "application/wasm"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".jpeg", "image/jpeg"},
    {".gif", "image/gif"},
    {".webp", "image/webp"},
    {".ico", "image/x-icon"},
    {".woff2", "font/woff2"},
    {".woff", "font/woff"},
    {".txt", "text/plain; charset=utf-8"},
    {".sok", "text/plain; charset=utf-8"},
    {".xsb", "text/plain; charset=utf-8"},
    {".md", "text/markdown; charset=utf-8"},
};

static const char *content_type(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash != NULL ? slash : path, '.');
    if (dot != NULL) {
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            if (strcasecmp(dot, types[i].ext) == 0)
                return types[i].type;
        }
    }
    return "application/octet-stream";
}

/* Opens the regular file at path for reading and fills *st; -1 for anything
 * else. Opening a FIFO for reading waits for a writer, and a device can do
 * anything when opened: neither is ever opened. The open does not block
 * (O_NONBLOCK), in case the file was swapped for a FIFO after the stat, and
 * the descriptor is checked again. */
static int open_regular(const char *path, struct stat *st)
{
    if (stat(path, st) != 0 || !S_ISREG(st->st_mode))
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return -1;
    }
    return fd;
}

static int not_found(struct http_conn *c);

/* Sends the regular file at `path` (already checked), with validators so
 * that browsers can revalidate cheaply. Anything but a regular file is
 * answered 404 without being opened. */
static int send_file(struct http_conn *c, const char *path)
{
    struct stat st;
    int fd = open_regular(path, &st);
    if (fd < 0)
        return not_found(c);
    /* The gzip copy is another representation of the same version, so it
     * has an etag of its own; either one revalidates that version. */
    const char *type = content_type(path);
    bool compressible = gzip_cache_worth(type);
    bool gzip =
        compressible && gzip_cache_accepted(http_header(c, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    char version[48], plain_etag[64], gzip_etag[64];
    snprintf(version, sizeof version, "%llx-%llx", (unsigned long long)st.st_size,
             (unsigned long long)st.st_mtim.tv_sec * 1000000000ull +
                 (unsigned long long)st.st_mtim.tv_nsec);
    snprintf(plain_etag, sizeof plain_etag, "\"%s\"", version);
    snprintf(gzip_etag, sizeof gzip_etag, "\"%s-gz\"", version);
    const char *etag = plain_etag;
    const char *match = http_header(c, MHD_HTTP_HEADER_IF_NONE_MATCH);
    struct MHD_Response *r = NULL;
    unsigned status = 200;
    uint64_t bytes = (uint64_t)st.st_size;
    if (match != NULL &&
        (strcmp(match, plain_etag) == 0 || (gzip && strcmp(match, gzip_etag) == 0))) {
        close(fd);
        r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        status = 304;
        bytes = 0;
        etag = match;
    } else {
        size_t gz_bytes = 0;
        if (gzip)
            r = gzip_cache_response(path, version, fd, (size_t)st.st_size, &gz_bytes);
        if (r != NULL) {
            close(fd);
            MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
            bytes = gz_bytes;
            etag = gzip_etag;
        } else {
            r = MHD_create_response_from_fd((size_t)st.st_size, fd);
            if (r == NULL)
                close(fd);
        }
    }
    if (r == NULL)
        return reply_error(c, API_E_INTERNAL, "cannot send %s", c->path);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (compressible)
        MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    return http_queue(c, status, r, bytes);
}

int static_wasm(struct http_conn *c)
{
    return send_file(c, wasm_path);
}

/* True when a segment of the (decoded) path is "..", "." or hidden, or
 * the path holds a backslash: such paths never name a file we serve. */
static bool suspicious(const char *path)
{
    if (strchr(path, '\\') != NULL)
        return true;
    const char *p = path;
    while (*p != '\0') {
        while (*p == '/')
            p++;
        const char *end = strchrnul(p, '/');
        if (end > p && p[0] == '.')
            return true;
        p = end;
    }
    return false;
}

/* True when the request takes a page (a browser's navigation asks for
 * text/html): it is shown the site's page for a missing one, where a
 * script or a tool gets the JSON error every other answer has. */
static bool wants_page(struct http_conn *c)
{
    const char *accept = http_header(c, MHD_HTTP_HEADER_ACCEPT);
    return accept != NULL && strstr(accept, "text/html") != NULL;
}

/* Answers 404 for the request's path: the folder's 404.html for a page,
 * else (or when there is none) the JSON not_found error. */
static int not_found(struct http_conn *c)
{
    char page[PATH_MAX + 16];
    int n = snprintf(page, sizeof page, "%s/404.html", root);
    struct stat st;
    int fd = -1;
    if (wants_page(c) && n > 0 && (size_t)n < sizeof page)
        fd = open_regular(page, &st);
    if (fd < 0)
        return reply_error(c, API_E_NOT_FOUND, "no file at %s", c->path);
    struct MHD_Response *r = MHD_create_response_from_fd((size_t)st.st_size, fd);
    if (r == NULL) {
        close(fd);
        return reply_error(c, API_E_INTERNAL, "cannot send %s", c->path);
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/html; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    return http_queue(c, 404, r, (uint64_t)st.st_size);
}

int static_get(struct http_conn *c)
{
    const char *path = c->path;
    if (suspicious(path))
        return reply_error(c, API_E_BAD_PATH,
                           "paths may not contain '..', hidden "
                           "names or backslashes");
    char wanted[PATH_MAX * 2];
    size_t len = strlen(path);
    int n = snprintf(wanted, sizeof wanted, "%s%s%s", root, path,
                     len > 0 && path[len - 1] == '/' ? "index.html" : "");
    if (n < 0 || (size_t)n >= sizeof wanted)
        return not_found(c);
    char real_root[PATH_MAX], real_file[PATH_MAX];
    if (realpath(root, real_root) == NULL || realpath(wanted, real_file) == NULL)
        return not_found(c);
    size_t rlen = strlen(real_root);
    if (strncmp(real_file, real_root, rlen) != 0 || real_file[rlen] != '/')
        return not_found(c);
    return send_file(c, real_file);
}
