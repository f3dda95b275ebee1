/* The event bus: topics with a history of recent events, streams with a
 * bounded queue of shared frames, one lock, and a heartbeat thread. Every
 * kept event is also on one list of all of them in id order, so that the
 * oldest over all topics leaves first when together they keep too much:
 * the oldest overall is always the oldest of its own topic. */
#include "live/events.h"

#include "base/clock.h"

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

/* One event a topic keeps. */
struct kept {
    struct frame *frame; /* holds a reference */
    uint64_t id;
    struct topic *topic;
    struct kept *next;          /* the topic's next event */
    struct kept *older, *newer; /* on the list of every kept event */
};

struct topic {
    char name[EVENTS_TOPIC_MAX];
    /* The history holds every event of the topic with an id above this. */
    uint64_t since;
    struct kept *first, *last; /* oldest, newest */
    unsigned count;            /* events kept */
    size_t bytes;              /* their cost (kept_cost) */
    struct events_stream **subs;
    unsigned nsubs, subcap;
    uint64_t unfollowed_us; /* when the last stream stopped following it */
    struct topic *next;     /* in its bucket */
};

struct events_stream {
    struct frame *queue[EVENTS_QUEUE];
    unsigned qhead, qcount;
    size_t qbytes; /* the text of the frames queued */
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
static uint64_t last_id;
static bool stopping, beating;
static unsigned beat_ms;
static pthread_t beater;
static struct frame *heartbeat;
/* Every kept event, oldest first, and their cost against the cap. */
static struct kept *oldest, *newest;
static size_t kept_bytes, kept_cap;

/* Ids start at the wall clock in microseconds, once, under the lock. */
static void init_ids(void)
{
    if (last_id != 0)
        return;
    last_id = (uint64_t)clock_now_us();
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
    t->unfollowed_us = clock_mono_us();
    unsigned b = bucket_of(name);
    t->next = buckets[b];
    buckets[b] = t;
    return t;
}

/* What keeping f costs: its text and the bookkeeping around it. */
static size_t kept_cost(const struct frame *f)
{
    return sizeof(struct kept) + sizeof *f + f->len + 1;
}

/* Lets t's oldest event go: the history now starts after it. */
static void forget_oldest(struct topic *t)
{
    struct kept *k = t->first;
    t->since = k->id;
    t->first = k->next;
    if (t->first == NULL)
        t->last = NULL;
    t->count--;
    size_t cost = kept_cost(k->frame);
    t->bytes -= cost;
    kept_bytes -= cost;
    if (k->older != NULL)
        k->older->newer = k->newer;
    else
        oldest = k->newer;
    if (k->newer != NULL)
        k->newer->older = k->older;
    else
        newest = k->older;
    frame_drop(k->frame);
    free(k);
}

/* Keeps f (event `id`, taking the reference the caller holds) in t's
 * history, letting older events go to stay within the caps; an event
 * larger than a cap is not kept, and the history then starts after it. */
static void keep(struct topic *t, struct frame *f, uint64_t id)
{
    size_t cost = kept_cost(f);
    size_t cap = kept_cap > 0 && kept_cap < EVENTS_HISTORY_BYTES ? kept_cap : EVENTS_HISTORY_BYTES;
    struct kept *k = cost <= cap ? calloc(1, sizeof *k) : NULL;
    if (k == NULL) {
        while (t->first != NULL)
            forget_oldest(t);
        t->since = id;
        frame_drop(f);
        return;
    }
    while (t->first != NULL &&
           (t->count == EVENTS_HISTORY || t->bytes + cost > EVENTS_HISTORY_BYTES))
        forget_oldest(t);
    while (kept_cap > 0 && oldest != NULL && kept_bytes + cost > kept_cap)
        forget_oldest(oldest->topic);
    k->frame = f;
    k->id = id;
    k->topic = t;
    if (t->last != NULL)
        t->last->next = k;
    else
        t->first = k;
    t->last = k;
    t->count++;
    t->bytes += cost;
    kept_bytes += cost;
    k->older = newest;
    if (newest != NULL)
        newest->newer = k;
    else
        oldest = k;
    newest = k;
}

static void topic_free(struct topic *t)
{
    while (t->first != NULL)
        forget_oldest(t);
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
    s->qbytes = 0;
    s->offset = 0;
}

/* Ends a stream at its next read, waking it if it sleeps. */
static void stream_end(struct events_stream *s)
{
    stream_clear(s);
    s->closed = true;
    wake(s);
}

/* Queues f for s (taking a reference); a full queue ends the stream.
 * `replay` lets the queue's bytes pass their cap, for an opening stream's
 * history. */
static void stream_push(struct events_stream *s, struct frame *f, bool replay)
{
    if (s->closed)
        return;
    if (s->qcount == EVENTS_QUEUE ||
        (!replay && s->qcount > 0 && s->qbytes + f->len > EVENTS_QUEUE_BYTES)) {
        stream_end(s);
        if (s->owner.drop != NULL)
            s->owner.drop(s->owner.arg);
        return;
    }
    f->refs++;
    s->queue[(s->qhead + s->qcount) % EVENTS_QUEUE] = f;
    s->qcount++;
    s->qbytes += f->len;
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
        t->unfollowed_us = clock_mono_us();
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
                stream_push(s, heartbeat, false);
                wake(s);
            }
        }
        sweep(clock_mono_us());
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int events_start(unsigned heartbeat_ms, size_t history_bytes)
{
    static const char comment[] = ":\n\n";
    pthread_mutex_lock(&lock);
    init_ids();
    kept_cap = history_bytes;
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
    for (unsigned i = 0; i < t->nsubs; i++) {
        stream_push(t->subs[i], f, false);
        wake(t->subs[i]);
    }
    keep(t, f, id); /* takes frame_event's reference */
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
    struct kept *next[EVENTS_MAX_TOPICS] = {0};
    unsigned queued = 0;
    *snapshots = 0;
    for (unsigned i = 0; i < s->ntopics; i++) {
        struct topic *t = s->topics[i];
        if (last < t->since || last > last_id) {
            char data[EVENTS_TOPIC_MAX + 16];
            int n = snprintf(data, sizeof data, "{\"topic\":\"%s\"}", t->name);
            struct frame *f = frame_event(0, "snapshot", data, (size_t)n);
            if (f != NULL) {
                stream_push(s, f, true);
                frame_drop(f);
            }
            (*snapshots)++;
            continue; /* nothing to replay */
        }
        next[i] = t->first;
        while (next[i] != NULL && next[i]->id <= last)
            next[i] = next[i]->next;
    }
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < s->ntopics; i++) {
            if (next[i] != NULL && (best < 0 || next[i]->id < next[best]->id))
                best = (int)i;
        }
        if (best < 0)
            break;
        stream_push(s, next[best]->frame, true);
        next[best] = next[best]->next;
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
    stream_push(s, ready, true);
    frame_drop(ready);
    s->next = streams;
    if (streams != NULL)
        streams->prev = s;
    streams = s;
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
            s->qbytes -= f->len;
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
    pthread_mutex_unlock(&lock);
    free(s);
}
