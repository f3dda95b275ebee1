/* The access log: a buffer of lines and the thread that empties it. */
#include "http/access_log.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a line may wait in memory, and how much may wait. */
#define FLUSH_MS 50
#define BUFFER_BYTES (64 * 1024)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static char buffer[BUFFER_BYTES];
static size_t used;
static bool running, stopping;
static pthread_t writer;

/* Writes all of text to stderr, going on after partial writes. */
static void write_all(const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = write(STDERR_FILENO, text, len);
        if (n <= 0)
            return;
        text += n;
        len -= (size_t)n;
    }
}

/* Empties the buffer. Called with the lock held, so that lines keep their order. */
static void flush_locked(void)
{
    write_all(buffer, used);
    used = 0;
}

static void *writer_main(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-log"); /* as top -H shows it */
    pthread_mutex_lock(&lock);
    while (!stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += FLUSH_MS * 1000L * 1000L;
        if (until.tv_nsec >= 1000L * 1000L * 1000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000L * 1000L * 1000L;
        }
        pthread_cond_timedwait(&wake, &lock, &until);
        if (used > 0)
            flush_locked();
    }
    flush_locked();
    pthread_mutex_unlock(&lock);
    return NULL;
}

int access_log_start(void)
{
    pthread_mutex_lock(&lock);
    stopping = false;
    running = pthread_create(&writer, NULL, writer_main, NULL) == 0;
    pthread_mutex_unlock(&lock);
    return running ? 0 : -1;
}

void access_log_add(const char *line, size_t len)
{
    pthread_mutex_lock(&lock);
    if (!running || len > BUFFER_BYTES) {
        flush_locked();
        write_all(line, len);
    } else {
        if (used + len > BUFFER_BYTES)
            flush_locked();
        memcpy(buffer + used, line, len);
        used += len;
    }
    pthread_mutex_unlock(&lock);
}

void access_log_stop(void)
{
    pthread_mutex_lock(&lock);
    if (!running) {
        pthread_mutex_unlock(&lock);
        return;
    }
    stopping = true;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(writer, NULL);
    pthread_mutex_lock(&lock);
    running = false;
    pthread_mutex_unlock(&lock);
}
