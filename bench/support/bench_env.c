/* What a benchmark reads of the machine it runs on. */
#include "bench_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t bench_env_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

unsigned bench_env_unsigned(const char *name, unsigned fallback)
{
    const char *v = getenv(name);
    return v != NULL && atoi(v) > 0 ? (unsigned)atoi(v) : fallback;
}

char *bench_env_read_file(const char *path, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    char *text = size >= 0 && size < UINT32_MAX && fseek(f, 0, SEEK_SET) == 0
                     ? malloc((size_t)size + 1)
                     : NULL;
    if (text != NULL && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text != NULL) {
        text[size] = '\0';
        *len = (uint32_t)size;
    }
    return text;
}

void bench_env_load(char *out, size_t cap)
{
    FILE *f = fopen("/proc/loadavg", "r");
    snprintf(out, cap, "?");
    if (f != NULL && fgets(out, (int)cap, f) != NULL)
        out[strcspn(out, "\n")] = '\0';
    if (f != NULL)
        fclose(f);
}
