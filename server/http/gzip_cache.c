/* Gzip copies of static files. The client's files are small and few, so
 * each version is compressed once at the best level and kept for good; a
 * file that changes gets a new etag and is compressed again. */
#include "http/gzip_cache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Files beyond this are sent as they are: they are not the client's. */
#define MAX_FILE (8u << 20)
#define MAX_ENTRIES 256

struct entry {
    char *path;
    char *etag;
    unsigned char *data;
    size_t len;
};

static struct entry entries[MAX_ENTRIES];
static size_t nentries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

bool gzip_cache_worth(const char *content_type)
{
    return strncmp(content_type, "text/", 5) == 0 ||
           strncmp(content_type, "application/json", 16) == 0 ||
           strcmp(content_type, "application/wasm") == 0 ||
           strcmp(content_type, "application/manifest+json") == 0 ||
           strcmp(content_type, "image/svg+xml") == 0;
}

bool gzip_cache_accepted(const char *accept_encoding)
{
    if (accept_encoding == NULL)
        return false;
    /* Each comma-separated coding, with an optional ";q=" weight: gzip is
     * accepted unless its weight is zero. */
    const char *p = accept_encoding;
    while (*p != '\0') {
        while (*p == ' ' || *p == ',')
            p++;
        const char *end = p;
        while (*end != '\0' && *end != ',')
            end++;
        size_t name = 0;
        while (p + name < end && p[name] != ';' && p[name] != ' ')
            name++;
        if ((name == 4 && strncmp(p, "gzip", 4) == 0) || (name == 1 && p[0] == '*')) {
            const char *q = memchr(p, 'q', (size_t)(end - p));
            if (q == NULL || q + 1 >= end || q[1] != '=')
                return true;
            return strtod(q + 2, NULL) > 0.0;
        }
        p = end;
    }
    return false;
}

/* Reads the file whole from offset 0; NULL on a short read. */
static unsigned char *read_all(int fd, size_t size)
{
    unsigned char *buf = malloc(size > 0 ? size : 1);
    size_t got = 0;
    while (buf != NULL && got < size) {
        ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
        if (n <= 0) {
            free(buf);
            return NULL;
        }
        got += (size_t)n;
    }
    return buf;
}

/* Compresses in one call into a buffer the caller frees; NULL on failure. */
static unsigned char *compress_gzip(const unsigned char *in, size_t len, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* 15 window bits, plus 16 for a gzip header and trailer. */
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, (uLong)len);
    unsigned char *out = malloc(cap);
    if (out == NULL) {
        deflateEnd(&z);
        return NULL;
    }
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

static struct entry *find(const char *path)
{
    for (size_t i = 0; i < nentries; i++) {
        if (strcmp(entries[i].path, path) == 0)
            return &entries[i];
    }
    return NULL;
}

/* Keeps the copy for `path` (NULL data: a version not worth compressing),
 * replacing an older version's; false when the table is full or memory is
 * short, and then the caller still owns data. */
static bool keep(const char *path, const char *etag, unsigned char *data, size_t len)
{
    struct entry *e = find(path);
    if (e == NULL) {
        if (nentries == MAX_ENTRIES)
            return false;
        e = &entries[nentries];
        e->path = strdup(path);
        if (e->path == NULL)
            return false;
        e->etag = NULL;
        e->data = NULL;
        nentries++;
    }
    char *tag = strdup(etag);
    if (tag == NULL)
        return false;
    free(e->etag);
    free(e->data);
    e->etag = tag;
    e->data = data;
    e->len = len;
    return true;
}

struct MHD_Response *gzip_cache_response(const char *path, const char *etag, int fd, size_t size,
                                         size_t *bytes)
{
    if (size > MAX_FILE)
        return NULL;
    struct MHD_Response *r = NULL;
    pthread_mutex_lock(&lock);
    struct entry *e = find(path);
    bool known = e != NULL && strcmp(e->etag, etag) == 0;
    if (known && e->data != NULL) {
        r = MHD_create_response_from_buffer(e->len, e->data, MHD_RESPMEM_MUST_COPY);
        *bytes = e->len;
    }
    pthread_mutex_unlock(&lock);
    if (known)
        return r; /* NULL for a version that compression does not shrink */

    /* Compress outside the lock: another thread may do the same work for
     * the same file at the same moment, which costs time but no harm. */
    unsigned char *raw = read_all(fd, size);
    size_t len = 0;
    unsigned char *gz = raw != NULL ? compress_gzip(raw, size, &len) : NULL;
    free(raw);
    if (gz == NULL)
        return NULL;
    if (len >= size) {
        free(gz);
        pthread_mutex_lock(&lock);
        keep(path, etag, NULL, 0);
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    r = MHD_create_response_from_buffer(len, gz, MHD_RESPMEM_MUST_COPY);
    *bytes = len;
    pthread_mutex_lock(&lock);
    if (!keep(path, etag, gz, len))
        free(gz);
    pthread_mutex_unlock(&lock);
    return r;
}

void gzip_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nentries; i++) {
        free(entries[i].path);
        free(entries[i].etag);
        free(entries[i].data);
    }
    nentries = 0;
    pthread_mutex_unlock(&lock);
}
