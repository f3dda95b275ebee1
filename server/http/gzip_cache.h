/* Gzip copies of static files, compressed once per version of a file. */
#ifndef SOKOD_GZIP_CACHE_H
#define SOKOD_GZIP_CACHE_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

/* True when a response of this Content-Type gains from compression. */
bool gzip_cache_worth(const char *content_type);

/* True when the Accept-Encoding header value admits gzip. */
bool gzip_cache_accepted(const char *accept_encoding);

/* A response holding the gzip copy of the file open on fd (size bytes),
 * whose version is `etag`: compressed on the first request for that
 * version, then served from memory. Sets *bytes to the compressed length.
 * Returns NULL when compression fails or saves nothing; the caller then
 * sends the file as it is. Does not close fd. Thread-safe. */
struct MHD_Response *gzip_cache_response(const char *path, const char *etag, int fd, size_t size,
                                         size_t *bytes);

/* Frees every cached copy. */
void gzip_cache_clear(void);

#endif
