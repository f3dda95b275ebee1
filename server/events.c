/* The event bus: topics with a ring of recent events, streams with a
 * bounded queue of shared frames, one lock, and a heartbeat thread. */
#include "events.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOPIC_BUCKETS 1024
/* A topic nobody follows is forgotten after this long (microseconds). */
#define TOPIC_LINGER_US (10ull * 60 * 1000 * 1000)

/* One event as SSE text, shared by every queue and history holding it.
 * refs is only touched under the lock. */
struct frame {
    unsigned refs;
    size_t len;
    char text[];
};

struct topic {
    char name[EVENTS_TOPIC_MAX];
    /* The history holds every event of the topic with an id above this. */
    uint64_t since;
    struct frame *ring[EVENTS_HISTORY];
    uint64_t ring_id[EVENTS_HISTORY];
    unsigned head, count; /* the oldest event's slot; how many are kept */
    struct events_stream **subs;
    unsigned nsubs, subcap;
    uint64_t unfollowed_us; /* when the last stream stopped following it */
    struct topic *next;     /* in its bucket */
};

struct events_stream {
    struct frame *queue[EVENTS_QUEUE];
    unsigned qhead, qcount;
    size_t offset; /* bytes of the first frame already read */
    bool waiting;  /* suspended, to be woken by the next frame */
    bool closed;
    struct topic *topics[EVENTS_MAX_TOPICS];
    unsigned ntopics;
    struct events_owner owner;
    struct events_stream *prev, *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tick = PTHREAD_COND_INITIALIZER;
static struct topic *buckets[TOPIC_BUCKETS];
static struct events_stream *streams;
static unsigned nstreams, ntopics;
static uint64_t last_id;
static bool stopping, beating;
static unsigned beat_ms;
static pthread_t beater;
static struct frame *heartbeat;

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Ids start at the wall clock in microseconds, once, under the lock. */
static void init_ids(void)
{
    if (last_id != 0)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    last_id = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static struct frame *frame_new(size_t len)
{
    struct frame *f = malloc(sizeof *f + len + 1);
    if (f == NULL)
        return NULL;
    f->refs = 1;
    f->len = len;
    return f;
}

static void frame_drop(struct frame *f)
{
    if (f != NULL && --f->refs == 0)
        free(f);
}

/* A frame of "id: ID\nevent: TYPE\ndata: DATA\n\n" (no id line when id is 0). */
static struct frame *frame_event(uint64_t id, const char *type, const char *data, size_t len)
{
    char head[96];
    int n = id != 0 ? snprintf(head, sizeof head,
                               "id: %llu\nevent: %s\ndata: ", (unsigned long long)id, type)
                    : snprintf(head, sizeof head, "event: %s\ndata: ", type);
    if (n < 0 || (size_t)n >= sizeof head)
        return NULL;
    struct frame *f = frame_new((size_t)n + len + 2);
    if (f == NULL)
        return NULL;
    memcpy(f->text, head, (size_t)n);
    memcpy(f->text + n, data, len);
    memcpy(f->text + n + len, "\n\n", 3);
    return f;
}

static unsigned bucket_of(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p != '\0'; p++)
        h = (h ^ *p) * 16777619u;
    return h & (TOPIC_BUCKETS - 1);
}

static struct topic *topic_find(const char *name)
{
    for (struct topic *t = buckets[bucket_of(name)]; t != NULL; t = t->next) {
        if (strcmp(t->name, name) == 0)
            return t;
    }
    return NULL;
}

static struct topic *topic_get(const char *name)
{
    struct topic *t = topic_find(name);
    if (t != NULL)
        return t;
    if (strlen(name) >= EVENTS_TOPIC_MAX)
        return NULL;
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    snprintf(t->name, sizeof t->name, "%s", name);
    init_ids();
    t->since = last_id;
    t->unfollowed_us = now_us();
    unsigned b = bucket_of(name);
    t->next = buckets[b];
    buckets[b] = t;
    ntopics++;
    return t;
}

static void topic_free(struct topic *t)
{
    for (unsigned i = 0; i < t->count; i++)
        frame_drop(t->ring[(t->head + i) % EVENTS_HISTORY]);
    free(t->subs);
    free(t);
}

static void wake(struct events_stream *s)
{
    if (s->waiting) {
        s->waiting = false;
        s->owner.wake(s->owner.arg);
    }
}

static void stream_clear(struct events_stream *s)
{
    for (unsigned i = 0; i < s->qcount; i++)
        frame_drop(s->queue[(s->qhead + i) % EVENTS_QUEUE]);
    s->qcount = 0;
    s->offset = 0;
}

/* Ends a stream at its next read, waking it if it sleeps. */
static void stream_end(struct events_stream *s)
{
    stream_clear(s);
    s->closed = true;
    wake(s);
}

/* Queues f for s (taking a reference); a full queue ends the stream. */
static void stream_push(struct events_stream *s, struct frame *f)
{
    if (s->closed)
        return;
    if (s->qcount == EVENTS_QUEUE) {
        stream_end(s);
        if (s->owner.drop != NULL)
            s->owner.drop(s->owner.arg);
        return;
    }
    f->refs++;
    s->queue[(s->qhead + s->qcount) % EVENTS_QUEUE] = f;
    s->qcount++;
}

static bool follow(struct topic *t, struct events_stream *s)
{
    if (t->nsubs == t->subcap) {
        unsigned cap = t->subcap == 0 ? 4 : t->subcap * 2;
        struct events_stream **bigger = realloc(t->subs, cap * sizeof *bigger);
        if (bigger == NULL)
            return false;
        t->subs = bigger;
        t->subcap = cap;
    }
    t->subs[t->nsubs++] = s;
    return true;
}

static void unfollow(struct topic *t, struct events_stream *s)
{
    for (unsigned i = 0; i < t->nsubs; i++) {
        if (t->subs[i] == s) {
            t->subs[i] = t->subs[--t->nsubs];
            break;
        }
    }
    if (t->nsubs == 0)
        t->unfollowed_us = now_us();
}

/* Forgets topics nobody followed for TOPIC_LINGER_US. */
static void sweep(uint64_t now)
{
    for (unsigned b = 0; b < TOPIC_BUCKETS; b++) {
        struct topic **p = &buckets[b];
        while (*p != NULL) {
            struct topic *t = *p;
            if (t->nsubs == 0 && now - t->unfollowed_us > TOPIC_LINGER_US) {
                *p = t->next;
                topic_free(t);
                ntopics--;
            } else {
                p = &t->next;
            }
        }
    }
}

static void *beat_main(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "sokod-beat"); /* as top -H shows it */
    pthread_mutex_lock(&lock);
    while (!stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)beat_ms * 1000000u;
        until.tv_sec += (time_t)(ns / 1000000000u);
        until.tv_nsec = (long)(ns % 1000000000u);
        pthread_cond_timedwait(&tick, &lock, &until);
        if (stopping)
            break;
        /* Only idle streams need one: a stream with events waiting is
         * being written to already. */
        for (struct events_stream *s = streams; s != NULL; s = s->next) {
            if (s->qcount == 0 && !s->closed) {
                stream_push(s, heartbeat);
                wake(s);
            }
        }
        sweep(now_us());
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int events_start(unsigned heartbeat_ms)
{
    static const char comment[] = ":\n\n";
    pthread_mutex_lock(&lock);
    init_ids();
    stopping = false;
    beat_ms = heartbeat_ms > 0 ? heartbeat_ms : 15000;
    if (heartbeat == NULL) {
        heartbeat = frame_new(sizeof comment - 1);
        if (heartbeat != NULL)
            memcpy(heartbeat->text, comment, sizeof comment);
    }
    beating = heartbeat != NULL && pthread_create(&beater, NULL, beat_main, NULL) == 0;
    pthread_mutex_unlock(&lock);
    return beating ? 0 : -1;
}

void events_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = true;
    for (struct events_stream *s = streams; s != NULL; s = s->next)
        stream_end(s);
    pthread_cond_broadcast(&tick);
    bool joining = beating;
    beating = false;
    pthread_mutex_unlock(&lock);
    if (joining)
        pthread_join(beater, NULL);
}

uint64_t events_last_id(void)
{
    pthread_mutex_lock(&lock);
    init_ids();
    uint64_t id = last_id;
    pthread_mutex_unlock(&lock);
    return id;
}

bool events_wanted(const char *topic)
{
    pthread_mutex_lock(&lock);
    bool found = topic_find(topic) != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

uint64_t events_publish(const char *topic, const char *type, const char *data, size_t len,
                        bool create)
{
    pthread_mutex_lock(&lock);
    struct topic *t = create ? topic_get(topic) : topic_find(topic);
    if (t == NULL) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    init_ids();
    uint64_t id = last_id + 1;
    struct frame *f = frame_event(id, type, data, len);
    if (f == NULL) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    last_id = id;
    if (t->count == EVENTS_HISTORY) {
        /* The oldest event leaves: the history now starts after it. */
        t->since = t->ring_id[t->head];
        frame_drop(t->ring[t->head]);
        t->head = (t->head + 1) % EVENTS_HISTORY;
        t->count--;
    }
    unsigned slot = (t->head + t->count) % EVENTS_HISTORY;
    t->ring[slot] = f; /* the history keeps frame_event's reference */
    t->ring_id[slot] = id;
    t->count++;
    for (unsigned i = 0; i < t->nsubs; i++) {
        stream_push(t->subs[i], f);
        wake(t->subs[i]);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

void events_end_topic(const char *topic)
{
    pthread_mutex_lock(&lock);
    struct topic *t = topic_find(topic);
    for (unsigned i = 0; t != NULL && i < t->nsubs; i++)
        stream_end(t->subs[i]);
    pthread_mutex_unlock(&lock);
}

/* Queues the events of s's topics after `last`, in id order, and a snapshot
 * for each topic whose history cannot say what came after it. Returns how
 * many events were queued; *snapshots counts the others. */
static unsigned replay(struct events_stream *s, uint64_t last, unsigned *snapshots)
{
    unsigned next[EVENTS_MAX_TOPICS] = {0}, queued = 0;
    *snapshots = 0;
    for (unsigned i = 0; i < s->ntopics; i++) {
        struct topic *t = s->topics[i];
        if (last < t->since || last > last_id) {
            char data[EVENTS_TOPIC_MAX + 16];
            int n = snprintf(data, sizeof data, "{\"topic\":\"%s\"}", t->name);
            struct frame *f = frame_event(0, "snapshot", data, (size_t)n);
            if (f != NULL) {
                stream_push(s, f);
                frame_drop(f);
            }
            (*snapshots)++;
            next[i] = t->count; /* nothing to replay */
            continue;
        }
        while (next[i] < t->count && t->ring_id[(t->head + next[i]) % EVENTS_HISTORY] <= last)
            next[i]++;
    }
    for (;;) {
        int best = -1;
        uint64_t best_id = 0;
        for (unsigned i = 0; i < s->ntopics; i++) {
            struct topic *t = s->topics[i];
            if (next[i] == t->count)
                continue;
            uint64_t id = t->ring_id[(t->head + next[i]) % EVENTS_HISTORY];
            if (best < 0 || id < best_id) {
                best = (int)i;
                best_id = id;
            }
        }
        if (best < 0)
            break;
        struct topic *t = s->topics[best];
        stream_push(s, t->ring[(t->head + next[best]) % EVENTS_HISTORY]);
        next[best]++;
        queued++;
    }
    return queued;
}

struct events_stream *events_open(const char *const *topics, unsigned n, bool has_last,
                                  uint64_t last, const struct events_owner *owner)
{
    if (n > EVENTS_MAX_TOPICS)
        return NULL;
    struct events_stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->owner = *owner;
    pthread_mutex_lock(&lock);
    if (stopping)
        goto fail;
    init_ids();
    for (unsigned i = 0; i < n; i++) {
        struct topic *t = topic_get(topics[i]);
        if (t == NULL || !follow(t, s))
            goto fail;
        s->topics[s->ntopics++] = t;
    }
    unsigned replayed = 0, snapshots = 0;
    if (has_last)
        replayed = replay(s, last, &snapshots);
    char data[96];
    int len = snprintf(data, sizeof data, "{\"id\":%llu,\"replayed\":%u,\"snapshots\":%u}",
                       (unsigned long long)last_id, replayed, snapshots);
    struct frame *ready = frame_event(last_id, "ready", data, (size_t)len);
    if (ready == NULL)
        goto fail;
    stream_push(s, ready);
    frame_drop(ready);
    s->next = streams;
    if (streams != NULL)
        streams->prev = s;
    streams = s;
    nstreams++;
    pthread_mutex_unlock(&lock);
    return s;
fail:
    for (unsigned i = 0; i < s->ntopics; i++)
        unfollow(s->topics[i], s);
    stream_clear(s);
    pthread_mutex_unlock(&lock);
    free(s);
    return NULL;
}

enum events_read_result events_read(struct events_stream *s, char *buf, size_t cap, size_t *len)
{
    *len = 0;
    pthread_mutex_lock(&lock);
    if (s->closed) {
        pthread_mutex_unlock(&lock);
        return EVENTS_END;
    }
    while (s->qcount > 0 && *len < cap) {
        struct frame *f = s->queue[s->qhead];
        size_t n = f->len - s->offset;
        if (n > cap - *len)
            n = cap - *len;
        memcpy(buf + *len, f->text + s->offset, n);
        *len += n;
        s->offset += n;
        if (s->offset == f->len) {
            frame_drop(f);
            s->qhead = (s->qhead + 1) % EVENTS_QUEUE;
            s->qcount--;
            s->offset = 0;
        }
    }
    if (*len > 0) {
        pthread_mutex_unlock(&lock);
        return EVENTS_DATA;
    }
    s->waiting = true;
    s->owner.suspend(s->owner.arg);
    pthread_mutex_unlock(&lock);
    return EVENTS_SUSPENDED;
}

void events_close(struct events_stream *s)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&lock);
    for (unsigned i = 0; i < s->ntopics; i++)
        unfollow(s->topics[i], s);
    stream_clear(s);
    if (s->prev != NULL)
        s->prev->next = s->next;
    else
        streams = s->next;
    if (s->next != NULL)
        s->next->prev = s->prev;
    nstreams--;
    pthread_mutex_unlock(&lock);
    free(s);
}

void events_counts(unsigned *open, unsigned *known)
{
    pthread_mutex_lock(&lock);
    *open = nstreams;
    *known = ntopics;
    pthread_mutex_unlock(&lock);
}
