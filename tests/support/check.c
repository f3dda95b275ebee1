#include "check.h"

#include <stdlib.h>

int check_failures_in_test;
static int passed, failed;
static char notes[8192];
static size_t notes_len;

void note(const char *fmt, ...)
{
    /* Room for the text, its '\n' and the final NUL; a note that does not
     * fit is cut, and notes beyond the buffer are dropped. */
    size_t room = sizeof notes - notes_len;
    if (room < 3)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(notes + notes_len, room - 1, fmt, ap);
    va_end(ap);
    size_t wrote = n < 0 ? 0 : (size_t)n < room - 2 ? (size_t)n : room - 2;
    notes_len += wrote;
    notes[notes_len++] = '\n';
    notes[notes_len] = '\0';
}

void check_fail(const char *file, int line, const char *fmt, ...)
{
    if (check_failures_in_test == 0 && notes_len > 0)
        fprintf(stderr, "  context:\n%s", notes);
    check_failures_in_test++;
    if (check_failures_in_test > 20)
        return; /* one broken rule should not bury the report */
    fprintf(stderr, "  %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void check_run(const char *name, void (*fn)(void))
{
    check_failures_in_test = 0;
    notes_len = 0;
    notes[0] = '\0';
    fn();
    if (check_failures_in_test == 0) {
        passed++;
        printf("ok   %s\n", name);
    } else {
        failed++;
        printf("FAIL %s (%d failed checks)\n", name, check_failures_in_test);
    }
    fflush(stdout);
}

int check_finish(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        check_fail(__FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

const char *shared_path(const char *relative)
{
    static char path[4096];
    const char *dir = getenv("SOKOD_SHARED_DIR");
    snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : SOKOD_SHARED_DIR, relative);
    return path;
}
