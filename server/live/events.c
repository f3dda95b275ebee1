/* The event bus: topics with a history of recent events, streams with a
 * bounded queue of shared frames, one lock, and a heartbeat thread. Every
 * kept event is also on one list of all of them in the order published,
 * so that the oldest over all topics leaves first when together they keep
 * too much: the oldest overall is always the oldest of its own topic. A
 * frame holds an event's type and data; the id line is written per stream
 * as it reads, since it names the positions of the stream's own topics. */
#include "live/events.h"

#include "base/clock.h"
#include "base/metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
    uint64_t pos;
    struct topic *topic;
    struct kept *next;          /* the topic's next event */
    struct kept *older, *newer; /* on the list of every kept event */
};

struct topic {
    char name[EVENTS_TOPIC_MAX];
    bool counted; /* positions are the node's count, not a game's seqs */
    /* The history holds every event of the topic past this position. */
    uint64_t since;
    uint64_t top; /* the last position published */
    /* A game topic rewound (events_rewind_topic) from stale_to back to
     * stale_from: a client that stood between them was shown entries
     * that are no more. */
    uint64_t stale_from, stale_to;
    struct kept *first, *last; /* oldest, newest */
    unsigned count;            /* events kept */
    size_t bytes;              /* their cost (kept_cost) */
    struct events_stream **subs;
    unsigned nsubs, subcap;
    uint64_t unfollowed_us; /* when the last stream stopped following it */
    struct topic *next;     /* in its bucket */
};

/* A queued frame and the position it moves its topic to (topic NO_TOPIC:
 * a heartbeat, or the ready event, which names the positions reached). */
#define NO_TOPIC 0xFF
#define NO_ID 0xFE
struct queued {
    struct frame *frame;
    uint64_t pos;
    uint8_t topic;
};

/* A stream's queue starts this long and doubles up to EVENTS_QUEUE as
 * events wait in it: a stream that keeps up holds one or two, and each of
 * thousands of spectators would otherwise hold 12 KiB for the worst case. */
#define QUEUE_FIRST 8

struct events_stream {
    struct queued *queue; /* a ring of qcap */
    unsigned qcap, qhead, qcount;
    size_t qbytes; /* the text of the frames queued */
    size_t offset; /* bytes of the first frame (after its id line) already read */
    /* The first frame's id line, written when it starts being read, and
     * the bytes of it read; idlen 0: not written yet. */
    char idline[EVENTS_ID_MAX + 8];
    size_t idlen, idread;
    uint64_t sent[EVENTS_MAX_TOPICS];   /* the positions the reader reached */
    uint64_t pushed[EVENTS_MAX_TOPICS]; /* and the last queued, per game topic */
    bool waiting;                       /* suspended, to be woken by the next frame */
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
static uint64_t start_us; /* where counted topics start */
static uint32_t tag;      /* this process's, in counted positions */
static bool stopping, beating;
static unsigned beat_ms;
static pthread_t beater;
static struct frame *heartbeat;
/* Every kept event, oldest first, and their cost against the cap. */
static struct kept *oldest, *newest;
static size_t kept_bytes, kept_cap;

/* Counted positions start at the wall clock in microseconds, so that they
 * grow across restarts, and carry a tag of the process. Once, under the
 * lock. */
static void init_ids(void)
{
    if (start_us != 0)
        return;
    start_us = (uint64_t)clock_now_us();
    uint64_t h = start_us ^ ((uint64_t)getpid() << 32) ^ (uint64_t)clock_mono_us();
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    tag = (uint32_t)h != 0 ? (uint32_t)h : 1;
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

/* A frame of "event: TYPE\ndata: DATA\n\n" (the id line comes before it
 * as each stream reads). */
static struct frame *frame_event(const char *type, const char *data, size_t len)
{
    char head[96];
    int n = snprintf(head, sizeof head, "event: %s\ndata: ", type);
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

/* The topic of that name, made when missing: a counted one, or a game
 * topic at `seq`. */
static struct topic *topic_get(const char *name, bool counted, uint64_t seq)
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
    t->counted = counted;
    t->top = counted ? start_us : seq;
    t->since = t->top;
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
    t->since = k->pos;
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

/* Keeps f (event at `pos`, taking the reference the caller holds) in t's
 * history, letting older events go to stay within the caps; an event
 * larger than a cap is not kept, and the history then starts after it. */
static void keep(struct topic *t, struct frame *f, uint64_t pos)
{
    size_t cost = kept_cost(f);
    size_t cap = kept_cap > 0 && kept_cap < EVENTS_HISTORY_BYTES ? kept_cap : EVENTS_HISTORY_BYTES;
    struct kept *k = cost <= cap ? calloc(1, sizeof *k) : NULL;
    if (k == NULL) {
        while (t->first != NULL)
            forget_oldest(t);
        t->since = pos;
        frame_drop(f);
        return;
    }
    while (t->first != NULL &&
           (t->count == EVENTS_HISTORY || t->bytes + cost > EVENTS_HISTORY_BYTES))
        forget_oldest(t);
    while (kept_cap > 0 && oldest != NULL && kept_bytes + cost > kept_cap)
        forget_oldest(oldest->topic);
    k->frame = f;
    k->pos = pos;
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
        frame_drop(s->queue[(s->qhead + i) % s->qcap].frame);
    s->qcount = 0;
    s->qbytes = 0;
    s->offset = 0;
    s->idlen = 0;
    s->idread = 0;
}

/* Ends a stream at its next read, waking it if it sleeps. */
static void stream_end(struct events_stream *s)
{
    stream_clear(s);
    s->closed = true;
    wake(s);
}

/* Doubles s's queue, its events in order from its start. False when its
 * length is EVENTS_QUEUE already, or memory ran out. */
static bool queue_grow(struct events_stream *s)
{
    if (s->qcap >= EVENTS_QUEUE)
        return false;
    unsigned cap = s->qcap * 2 < EVENTS_QUEUE ? s->qcap * 2 : EVENTS_QUEUE;
    struct queued *q = malloc(cap * sizeof *q);
    if (q == NULL)
        return false;
    for (unsigned i = 0; i < s->qcount; i++)
        q[i] = s->queue[(s->qhead + i) % s->qcap];
    free(s->queue);
    s->queue = q;
    s->qcap = cap;
    s->qhead = 0;
    return true;
}

/* Queues f for s (taking a reference), moving s's topic number `topic` to
 * `pos`; a game event the stream has queued already is skipped. A full
 * queue ends the stream (EVENTS_QUEUE events, or no memory to grow it).
 * `replay` lets the queue's bytes pass their cap, for an opening stream's
 * history. */
static void stream_push(struct events_stream *s, struct frame *f, bool replay, uint8_t topic,
                        uint64_t pos)
{
    if (s->closed)
        return;
    if (topic < EVENTS_MAX_TOPICS && !s->topics[topic]->counted && pos != 0) {
        if (pos <= s->pushed[topic])
            return;
        s->pushed[topic] = pos;
    }
    if ((s->qcount == s->qcap && !queue_grow(s)) ||
        (!replay && s->qcount > 0 && s->qbytes + f->len > EVENTS_QUEUE_BYTES)) {
        stream_end(s);
        if (s->owner.drop != NULL)
            s->owner.drop(s->owner.arg);
        return;
    }
    f->refs++;
    struct queued *q = &s->queue[(s->qhead + s->qcount) % s->qcap];
    q->frame = f;
    q->pos = pos;
    q->topic = topic;
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
                stream_push(s, heartbeat, false, NO_ID, 0);
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

/* s's number for topic t. */
static uint8_t topic_index(const struct events_stream *s, const struct topic *t)
{
    uint8_t i = 0;
    while (i < s->ntopics && s->topics[i] != t)
        i++;
    return i;
}

uint64_t events_publish(const char *topic, const char *type, const char *data, size_t len,
                        bool create, uint64_t pos)
{
    pthread_mutex_lock(&lock);
    struct topic *t =
        create ? topic_get(topic, pos == 0, pos > 0 ? pos - 1 : 0) : topic_find(topic);
    /* A game event this topic has is the same entry again. */
    if (t == NULL || (pos == 0) != t->counted || (pos != 0 && pos <= t->top)) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    if (pos == 0)
        pos = t->top + 1;
    struct frame *f = frame_event(type, data, len);
    if (f == NULL) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    t->top = pos;
    for (unsigned i = 0; i < t->nsubs; i++) {
        struct events_stream *s = t->subs[i];
        stream_push(s, f, false, topic_index(s, t), pos);
        wake(s);
    }
    keep(t, f, pos); /* takes frame_event's reference */
    pthread_mutex_unlock(&lock);
    return pos;
}

uint64_t events_position(const char *topic)
{
    pthread_mutex_lock(&lock);
    struct topic *t = topic_find(topic);
    uint64_t pos = t != NULL && !t->counted ? t->top : 0;
    pthread_mutex_unlock(&lock);
    return pos;
}

char (*events_followed(const char *prefix, unsigned *n))[EVENTS_TOPIC_MAX]
{
    *n = 0;
    size_t plen = strlen(prefix);
    pthread_mutex_lock(&lock);
    unsigned count = 0;
    for (unsigned b = 0; b < TOPIC_BUCKETS; b++) {
        for (struct topic *t = buckets[b]; t != NULL; t = t->next)
            count += t->nsubs > 0 && strncmp(t->name, prefix, plen) == 0;
    }
    char(*names)[EVENTS_TOPIC_MAX] = count > 0 ? malloc(count * sizeof *names) : NULL;
    for (unsigned b = 0; names != NULL && b < TOPIC_BUCKETS; b++) {
        for (struct topic *t = buckets[b]; t != NULL; t = t->next) {
            if (t->nsubs > 0 && strncmp(t->name, prefix, plen) == 0)
                memcpy(names[(*n)++], t->name, EVENTS_TOPIC_MAX);
        }
    }
    pthread_mutex_unlock(&lock);
    return names;
}

void events_end_topic(const char *topic)
{
    pthread_mutex_lock(&lock);
    struct topic *t = topic_find(topic);
    for (unsigned i = 0; t != NULL && i < t->nsubs; i++)
        stream_end(t->subs[i]);
    pthread_mutex_unlock(&lock);
}

void events_rewind_topic(const char *topic, uint64_t pos)
{
    pthread_mutex_lock(&lock);
    struct topic *t = topic_find(topic);
    if (t != NULL && !t->counted) {
        while (t->first != NULL)
            forget_oldest(t);
        if (t->top > pos) {
            t->stale_from = pos;
            t->stale_to = t->top > t->stale_to ? t->top : t->stale_to;
        }
        t->since = pos;
        t->top = pos;
        for (unsigned i = 0; i < t->nsubs; i++)
            stream_end(t->subs[i]);
    }
    pthread_mutex_unlock(&lock);
}

enum events_kept events_kept_compare(const char *topic, uint64_t pos, const char *type,
                                     const char *data, size_t len)
{
    struct frame *f = frame_event(type, data, len);
    if (f == NULL)
        return EVENTS_KEPT_UNKNOWN;
    enum events_kept found = EVENTS_KEPT_UNKNOWN;
    pthread_mutex_lock(&lock);
    struct topic *t = topic_find(topic);
    for (struct kept *k = t != NULL && !t->counted ? t->first : NULL; k != NULL; k = k->next) {
        if (k->pos == pos) {
            bool same = k->frame->len == f->len && memcmp(k->frame->text, f->text, f->len) == 0;
            found = same ? EVENTS_KEPT_SAME : EVENTS_KEPT_OTHER;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    frame_drop(f);
    return found;
}

/* Queues a snapshot event for s's topic number i: the client fetches the
 * state again, which is at the topic's last position or past it. */
static void push_snapshot(struct events_stream *s, uint8_t i)
{
    struct topic *t = s->topics[i];
    char data[EVENTS_TOPIC_MAX + 16];
    int n = snprintf(data, sizeof data, "{\"topic\":\"%s\"}", t->name);
    struct frame *f = frame_event("snapshot", data, (size_t)n);
    if (f == NULL)
        return;
    s->pushed[i] = 0;
    stream_push(s, f, true, i, t->top);
    frame_drop(f);
}

/* Queues what s missed in its topic number i after from->pos: the events
 * read back from the database, then the history past them. Returns how
 * many were queued, or -1 when the topic cannot say (a snapshot is queued). */
static int replay_topic(struct events_stream *s, uint8_t i, const struct events_from *from)
{
    struct topic *t = s->topics[i];
    uint64_t after = from->pos;
    bool lost = !from->known || from->foreign;
    if (t->counted)
        lost = lost || after < t->since || after > t->top;
    else
        lost = lost || from->gap || after > (t->top > from->seq ? t->top : from->seq) ||
               (from->nmissed == 0 && after < t->since && after < from->seq) ||
               (after > t->stale_from && after <= t->stale_to);
    if (lost) {
        push_snapshot(s, i);
        return -1;
    }
    s->sent[i] = after;
    s->pushed[i] = after;
    int queued = 0;
    for (unsigned m = 0; m < from->nmissed; m++) {
        const struct events_missed *e = &from->missed[m];
        if (e->pos <= s->pushed[i])
            continue;
        struct frame *f = frame_event("step", e->data, e->len);
        if (f == NULL)
            continue;
        stream_push(s, f, true, i, e->pos);
        frame_drop(f);
        queued++;
    }
    for (struct kept *k = t->first; k != NULL; k = k->next) {
        if (k->pos > s->pushed[i]) {
            stream_push(s, k->frame, true, i, k->pos);
            queued++;
        }
    }
    return queued;
}

/* Writes s's id: each topic's name and the position reached in it. */
static size_t write_id(const struct events_stream *s, char *out, size_t cap)
{
    size_t len = 0;
    for (unsigned i = 0; i < s->ntopics && len < cap; i++) {
        const struct topic *t = s->topics[i];
        int n = t->counted ? snprintf(out + len, cap - len, "%s%s@%08" PRIx32 ".%" PRIu64,
                                      i > 0 ? "," : "", t->name, tag, s->sent[i])
                           : snprintf(out + len, cap - len, "%s%s@%" PRIu64, i > 0 ? "," : "",
                                      t->name, s->sent[i]);
        if (n < 0 || (size_t)n >= cap - len)
            return 0;
        len += (size_t)n;
    }
    return len;
}

/* Reads "NAME@POS" or "NAME@TAG.POS" at p (up to a comma or the end) into
 * the matching topic's from[]. Returns the text after it, or NULL. */
static const char *parse_one(const char *p, const char *const *topics, unsigned n,
                             struct events_from *from)
{
    const char *at = strchr(p, '@');
    const char *end = strchr(p, ',');
    if (end == NULL)
        end = p + strlen(p);
    if (at == NULL || at > end || at == p || (size_t)(at - p) >= EVENTS_TOPIC_MAX)
        return NULL;
    const char *num = at + 1;
    const char *dot = memchr(num, '.', (size_t)(end - num));
    uint32_t their_tag = 0;
    bool counted = dot != NULL;
    if (counted) {
        char *stop = NULL;
        errno = 0;
        unsigned long long v = strtoull(num, &stop, 16);
        if (errno != 0 || stop != dot || dot - num != 8 || num[0] == '-')
            return NULL;
        their_tag = (uint32_t)v;
        num = dot + 1;
    }
    char *stop = NULL;
    errno = 0;
    unsigned long long v = strtoull(num, &stop, 10);
    if (errno != 0 || stop != end || num == end || num[0] < '0' || num[0] > '9')
        return NULL;
    for (unsigned i = 0; i < n; i++) {
        if (strlen(topics[i]) == (size_t)(at - p) && memcmp(topics[i], p, (size_t)(at - p)) == 0) {
            from[i].known = true;
            from[i].pos = v;
            init_ids();
            from[i].foreign = counted != !from[i].game || (counted && their_tag != tag);
        }
    }
    return *end == ',' ? end + 1 : end;
}

int events_parse_id(const char *text, const char *const *topics, unsigned n,
                    struct events_from *from)
{
    size_t len = strlen(text);
    if (len > EVENTS_ID_MAX)
        return -1;
    if (strspn(text, "0123456789") == len && len > 0)
        return 0; /* an older sokod's id: it names no topic */
    pthread_mutex_lock(&lock);
    const char *p = text;
    unsigned parts = 0;
    while (p != NULL && *p != '\0' && parts++ < EVENTS_MAX_TOPICS)
        p = parse_one(p, topics, n, from);
    pthread_mutex_unlock(&lock);
    return p != NULL && *p == '\0' && len > 0 ? 0 : -1;
}

struct events_stream *events_open(const char *const *topics, unsigned n, bool has_last,
                                  const struct events_from *from, const struct events_owner *owner)
{
    if (n > EVENTS_MAX_TOPICS)
        return NULL;
    struct events_stream *s = calloc(1, sizeof *s);
    if (s != NULL)
        s->queue = malloc(QUEUE_FIRST * sizeof *s->queue);
    if (s == NULL || s->queue == NULL) {
        free(s);
        return NULL;
    }
    s->qcap = QUEUE_FIRST;
    s->owner = *owner;
    pthread_mutex_lock(&lock);
    if (stopping)
        goto fail;
    init_ids();
    for (unsigned i = 0; i < n; i++) {
        struct topic *t = topic_get(topics[i], !from[i].game, from[i].seq);
        if (t == NULL || !follow(t, s))
            goto fail;
        s->topics[s->ntopics++] = t;
    }
    unsigned replayed = 0, snapshots = 0;
    for (uint8_t i = 0; i < s->ntopics; i++) {
        struct topic *t = s->topics[i];
        uint64_t now = t->counted || t->top > from[i].seq ? t->top : from[i].seq;
        s->sent[i] = now;
        s->pushed[i] = now;
        if (!has_last)
            continue;
        int queued = replay_topic(s, i, &from[i]);
        if (queued < 0)
            snapshots++;
        else
            replayed += (unsigned)queued;
    }
    char data[96];
    int len =
        snprintf(data, sizeof data, "{\"replayed\":%u,\"snapshots\":%u}", replayed, snapshots);
    struct frame *ready = frame_event("ready", data, (size_t)len);
    if (ready == NULL)
        goto fail;
    stream_push(s, ready, true, NO_TOPIC, 0);
    frame_drop(ready);
    s->next = streams;
    if (streams != NULL)
        streams->prev = s;
    streams = s;
    pthread_mutex_unlock(&lock);
    metrics_live_streams(1);
    return s;
fail:
    for (unsigned i = 0; i < s->ntopics; i++)
        unfollow(s->topics[i], s);
    stream_clear(s);
    pthread_mutex_unlock(&lock);
    free(s->queue);
    free(s);
    return NULL;
}

/* Writes the id line of the frame at the head of s's queue, once: an
 * event moves its topic's position first. Lock held. */
static void head_id(struct events_stream *s)
{
    if (s->idlen != 0 || s->offset != 0)
        return;
    struct queued *q = &s->queue[s->qhead];
    if (q->topic == NO_ID)
        return;
    if (q->topic < s->ntopics)
        s->sent[q->topic] = q->pos;
    memcpy(s->idline, "id: ", 4);
    size_t n = write_id(s, s->idline + 4, sizeof s->idline - 5);
    s->idline[4 + n] = '\n';
    s->idlen = n > 0 ? 5 + n : 0;
    s->idread = 0;
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
        head_id(s);
        if (s->idread < s->idlen) {
            size_t n = s->idlen - s->idread;
            if (n > cap - *len)
                n = cap - *len;
            memcpy(buf + *len, s->idline + s->idread, n);
            *len += n;
            s->idread += n;
            continue;
        }
        struct frame *f = s->queue[s->qhead].frame;
        size_t n = f->len - s->offset;
        if (n > cap - *len)
            n = cap - *len;
        memcpy(buf + *len, f->text + s->offset, n);
        *len += n;
        s->offset += n;
        if (s->offset == f->len) {
            s->qbytes -= f->len;
            frame_drop(f);
            s->qhead = (s->qhead + 1) % s->qcap;
            s->qcount--;
            s->offset = 0;
            s->idlen = 0;
            s->idread = 0;
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
    metrics_live_streams(-1);
    free(s->queue);
    free(s);
}
