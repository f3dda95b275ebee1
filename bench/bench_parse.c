/* Reading collections: every .xsb, .sok and .txt file under the shared
 * levels folder is loaded into memory first; then finding their levels,
 * parsing and validating every board is timed, 20 times over. Prints the
 * minimum and the median of the total. */
#include "soko.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPEATS 20
#define MAX_FILES 64

static struct loaded {
    char path[512];
    char *text;
    uint32_t len;
} files[MAX_FILES];
static int nfiles;

static bool wanted(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot != NULL &&
           (strcmp(dot, ".xsb") == 0 || strcmp(dot, ".sok") == 0 || strcmp(dot, ".txt") == 0);
}

static void load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && nfiles < MAX_FILES) {
        if (de->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (de->d_type == DT_DIR) {
            load_dir(path);
            continue;
        }
        if (!wanted(de->d_name))
            continue;
        FILE *f = fopen(path, "rb");
        if (f == NULL)
            continue;
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *text = malloc((size_t)size + 1);
        if (text != NULL && fread(text, 1, (size_t)size, f) == (size_t)size) {
            struct loaded *l = &files[nfiles++];
            snprintf(l->path, sizeof l->path, "%s", path);
            l->text = text;
            l->len = (uint32_t)size;
        } else {
            free(text);
        }
        fclose(f);
    }
    closedir(d);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    static soko_reader reader;
    static soko_entry entry;
    static soko_level level;
    load_dir(SOKOD_SHARED_DIR "/levels");
    if (nfiles == 0) {
        fprintf(stderr, "bench_parse: no level files under %s/levels\n", SOKOD_SHARED_DIR);
        return 1;
    }
    double times[REPEATS];
    unsigned levels = 0, valid = 0;
    size_t bytes = 0;
    for (int i = 0; i < nfiles; i++)
        bytes += files[i].len;
    for (int rep = 0; rep < REPEATS; rep++) {
        levels = valid = 0;
        double t0 = now();
        for (int i = 0; i < nfiles; i++) {
            soko_reader_init(&reader, files[i].text, files[i].len);
            while (soko_reader_next(&reader, &entry) == 1) {
                soko_error err;
                levels++;
                valid += soko_level_parse(&level, files[i].text + entry.board.off, entry.board.len,
                                          entry.board_line, &err) == SOKO_OK;
            }
        }
        times[rep] = now() - t0;
    }
    qsort(times, REPEATS, sizeof times[0], cmp_double);
    double median = (times[REPEATS / 2 - 1] + times[REPEATS / 2]) / 2;
    printf("bench_parse: %d files, %zu bytes, %u levels (%u valid)\n", nfiles, bytes, levels,
           valid);
    printf("read+parse+validate all: min %.3f ms, median %.3f ms (%d runs); %.2f us per level\n",
           times[0] * 1e3, median * 1e3, REPEATS, times[0] * 1e6 / (levels ? levels : 1));
    for (int i = 0; i < nfiles; i++)
        free(files[i].text);
    return 0;
}
