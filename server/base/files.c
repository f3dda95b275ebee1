/* Whole files read into memory. */
#include "base/files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *file_read_whole(const char *path, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (n == cap) {
            if (cap >= (size_t)1 << 30) {
                free(buf);
                buf = NULL;
                errno = EFBIG;
                break;
            }
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                /* The read's own reason (EISDIR for a folder), else EIO. */
                int why = errno != 0 ? errno : EIO;
                free(buf);
                buf = NULL;
                errno = why;
            }
            break;
        }
    }
    fclose(f);
    if (buf != NULL)
        buf[n] = '\0'; /* the last read found room: n < cap */
    *len = (uint32_t)n;
    return buf;
}
