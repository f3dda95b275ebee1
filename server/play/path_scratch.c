/* A soko_path_scratch per thread, made when first asked for. */
#include "play/path_scratch.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void make_scratch_key(void)
{
    pthread_key_create(&scratch_key, free);
}

soko_path_scratch *path_scratch(void)
{
    pthread_once(&scratch_once, make_scratch_key);
    soko_path_scratch *s = pthread_getspecific(scratch_key);
    if (s == NULL) {
        s = calloc(1, sizeof *s);
        if (s != NULL)
            pthread_setspecific(scratch_key, s);
    }
    return s;
}
