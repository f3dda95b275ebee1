/* The rating pass. Each pass, on one node at a time (storage_work.h),
 * in three steps, each a read outside any transaction and then one short
 * write transaction:
 *   1. levels without a rating get their prior (rating_rules.h),
 *      SEED_BATCH levels a transaction; so do levels rated from no prior
 *      whose upload check's solver gave its verdict since, while nobody
 *      played them;
 *   2. the solutions past the cursor, up to BATCH: each counts its player
 *      once among the level's solvers, and the first solution of a game
 *      of the standard rule outside race rooms rates that game;
 *   3. the games past the idle cursor that were last changed more than
 *      given_up_after ago, unsolved, with RATING_GIVEN_UP_ENTRIES log
 *      entries or more: each is rated as given up.
 * A game is rated once (rated_games), whatever happens to it later; the
 * cursors move in the transaction that rated what they passed. */
#include "play/ratings.h"

#include "base/clock.h"
#include "base/metrics.h"
#include "play/glicko.h"
#include "play/rating_rules.h"
#include "storage/storage.h"
#include "storage/storage_ratings.h"
#include "storage/storage_stats.h"
#include "storage/storage_work.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Levels given a prior per pass, and attempts read per step: a pass
 * holds the write lock for one batch at a time. */
#define SEED_BATCH 1000
#define BATCH 128
/* Log entries read per game for its time played: a longer game counts
 * the time of its first ones. */
#define LOG_BUDGET 4096

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool running, stopping;
    struct ratings_config cfg;
} rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

static struct glicko from_stored(const struct storage_rating *r)
{
    return (struct glicko){r->rating_milli / 1000.0, r->deviation_milli / 1000.0,
                           r->volatility_micro / 1000000.0};
}

static void to_stored(const struct glicko *g, struct storage_rating *r)
{
    r->rating_milli = llround(g->rating * 1000.0);
    r->deviation_milli = llround(g->deviation * 1000.0);
    r->volatility_micro = llround(g->volatility * 1000000.0);
}

/* A level's prior, from its facts. */
struct prior {
    int64_t level;
    struct glicko g;
    const char *name;
    uint32_t effort;
};

struct priors {
    struct prior *p;
    size_t n, cap;
};

static int take_facts(void *arg, const struct storage_level_facts *f)
{
    struct priors *ps = arg;
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 64;
        void *p = realloc(ps->p, cap * sizeof *ps->p);
        if (p == NULL)
            return 1;
        ps->p = p;
        ps->cap = cap;
    }
    struct rating_level_facts facts = {f->boxes, f->comment, f->solver_status, f->solver_pushes};
    struct prior *p = &ps->p[ps->n++];
    p->level = f->id;
    p->g = rating_prior(&facts, &p->name, &p->effort);
    return 0;
}

static int seed_one(const struct prior *p, int64_t now)
{
    struct storage_rating r = {.updated_at = now};
    to_stored(&p->g, &r);
    return storage_ratings_seed(p->level, &r, p->name);
}

/* Step 1, one batch: levels without a rating (`stale` false), or rated
 * from no prior before their solver's verdict came (true). Sets *more
 * when the batch was full. */
static int seed_levels(int64_t now, bool stale, bool *more)
{
    struct priors ps = {0};
    int status = stale ? storage_ratings_stale(SEED_BATCH, take_facts, &ps)
                       : storage_ratings_unrated(SEED_BATCH, take_facts, &ps);
    if (status == STORAGE_STOP)
        status = STORAGE_ERROR;
    *more = ps.n == SEED_BATCH;
    if (status == STORAGE_OK && ps.n > 0) {
        status = storage_begin();
        for (size_t i = 0; status == STORAGE_OK && i < ps.n; i++) {
            struct storage_rating r = {.updated_at = now};
            to_stored(&ps.p[i].g, &r);
            status = stale ? storage_ratings_reseed(ps.p[i].level, &r, ps.p[i].name)
                           : storage_ratings_seed(ps.p[i].level, &r, ps.p[i].name);
        }
        status = storage_finish(status);
    }
    free(ps.p);
    return status;
}

/* The prior of one level, read inside the write transaction: the effort
 * its typical time is guessed from, and its first rating when the pass
 * has not given it one yet. */
static int level_prior(int64_t level, int64_t now, struct prior *out)
{
    struct priors ps = {0};
    int status = storage_ratings_level_facts(level, take_facts, &ps);
    if (status == STORAGE_STOP)
        status = STORAGE_ERROR;
    if (status == STORAGE_OK && ps.n == 1) {
        *out = ps.p[0];
        status = seed_one(out, now);
    }
    free(ps.p);
    return status;
}

/* An attempt to rate: a game that ended solved or given up. */
struct attempt {
    int64_t game, user, level;
    int64_t opened, ended; /* the game's opening and the attempt's end */
    int64_t seconds;       /* time played, read before the write */
    bool solved, hinted, rate;
    int64_t solution; /* the solution read (step 2), else 0 */
};

struct attempts {
    struct attempt *a;
    size_t n, cap;
    int64_t last_at, last_id; /* step 3: the last game read */
};

static struct attempt *next_attempt(struct attempts *as)
{
    if (as->n == as->cap) {
        size_t cap = as->cap ? as->cap * 2 : BATCH;
        void *a = realloc(as->a, cap * sizeof *as->a);
        if (a == NULL)
            return NULL;
        as->a = a;
        as->cap = cap;
    }
    struct attempt *a = &as->a[as->n++];
    memset(a, 0, sizeof *a);
    return a;
}

static int take_solution(void *arg, const struct storage_rated_solution *s)
{
    struct attempt *a = next_attempt(arg);
    if (a == NULL)
        return 1;
    a->game = s->game_id;
    a->user = s->user_id;
    a->level = s->level_id;
    a->opened = s->game_created_at;
    a->ended = s->solved_at;
    a->solved = true;
    a->hinted = s->hinted;
    a->rate = s->rated_kind;
    a->solution = s->id;
    return 0;
}

static int take_idle(void *arg, const struct storage_idle_game *g)
{
    struct attempts *as = arg;
    struct attempt *a = next_attempt(as);
    if (a == NULL)
        return 1;
    a->game = g->id;
    a->user = g->user_id;
    a->level = g->level_id;
    a->opened = g->created_at;
    a->ended = g->updated_at;
    a->rate = true;
    as->last_at = g->updated_at;
    as->last_id = g->id;
    return 0;
}

/* Each attempt's time played, read outside the write transaction. */
static int read_times(struct attempts *as)
{
    for (size_t i = 0; i < as->n; i++) {
        struct attempt *a = &as->a[i];
        if (!a->rate)
            continue;
        int status = storage_ratings_game_seconds(a->game, a->opened, a->ended,
                                                  STORAGE_STATS_GAP_CAP, LOG_BUDGET, &a->seconds);
        if (status != STORAGE_OK)
            return status;
    }
    return STORAGE_OK;
}

static double idle_days(int64_t now, int64_t since)
{
    return since > 0 && now > since ? (double)(now - since) / 86400.0 : 0.0;
}

/* Rates one attempt, inside the write transaction: the match, both new
 * ratings, the player's day in its history, the level's solves. Sets
 * *done when it was rated now (not before, and its level still there). */
static int rate(const struct attempt *a, int64_t now, bool *done)
{
    *done = false;
    struct prior prior = {0};
    int status = level_prior(a->level, now, &prior);
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK; /* the level is gone: its game goes with it */
    struct storage_rating lr, pr;
    if (status == STORAGE_OK)
        status = storage_ratings_level(a->level, &lr);
    if (status != STORAGE_OK)
        return status;
    struct glicko player = glicko_new(), level = from_stored(&lr);
    status = storage_ratings_player(a->user, &pr);
    if (status == STORAGE_OK) {
        player = from_stored(&pr);
        glicko_age(&player, idle_days(now, pr.updated_at));
    } else if (status == STORAGE_NOT_FOUND) {
        memset(&pr, 0, sizeof pr);
    } else {
        return status;
    }
    glicko_age(&level, idle_days(now, lr.updated_at));
    double typical = rating_typical_seconds(lr.solves, lr.log_seconds_milli / 1000.0, prior.effort);
    double score = rating_score(a->solved, a->hinted, (double)a->seconds, typical);
    status = storage_ratings_mark(a->game, score > 0 ? 1 : 0, a->seconds, now);
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK; /* rated before */
    if (status != STORAGE_OK)
        return status;
    glicko_match(&player, &level, score);
    to_stored(&player, &pr);
    pr.attempts++;
    pr.updated_at = now;
    to_stored(&level, &lr);
    lr.attempts++;
    lr.updated_at = now;
    if (a->solved) {
        lr.solves++;
        lr.log_seconds_milli += llround(log(a->seconds > 1 ? (double)a->seconds : 1.0) * 1000.0);
    }
    status = storage_ratings_put_level(a->level, &lr);
    if (status == STORAGE_OK)
        status = storage_ratings_put_player(a->user, &pr, now - now % 86400);
    *done = status == STORAGE_OK;
    return status;
}

/* Writes a batch of attempts and the cursor in one transaction. Adds the
 * attempts rated to *rated. */
static int write_batch(const struct attempts *as, const struct storage_rating_cursor *cursor,
                       int64_t now, unsigned *rated)
{
    unsigned n = 0;
    uint64_t start = clock_mono_us();
    int status = storage_begin();
    for (size_t i = 0; status == STORAGE_OK && i < as->n; i++) {
        const struct attempt *a = &as->a[i];
        if (a->solution != 0) {
            struct prior prior;
            bool added;
            status = level_prior(a->level, now, &prior);
            if (status == STORAGE_OK)
                status = storage_ratings_add_solver(a->level, a->user, &added);
            else if (status == STORAGE_NOT_FOUND)
                status = STORAGE_OK;
        }
        bool done = false;
        if (status == STORAGE_OK && a->rate)
            status = rate(a, now, &done);
        n += done;
    }
    if (status == STORAGE_OK)
        status = storage_ratings_set_cursor(cursor);
    status = storage_finish(status);
    if (status != STORAGE_OK)
        n = 0;
    metrics_rating_batch(n, clock_mono_us() - start);
    *rated += n;
    return status;
}

/* Step 2. Sets *more when the batch was full. */
static int rate_solutions(int64_t now, struct storage_rating_cursor *cursor, unsigned *rated,
                          bool *more)
{
    struct attempts as = {0};
    int status = storage_ratings_solutions(cursor->solution_id, BATCH, take_solution, &as);
    if (status == STORAGE_STOP)
        status = STORAGE_ERROR;
    *more = as.n == BATCH;
    if (status == STORAGE_OK && as.n > 0)
        status = read_times(&as);
    if (status == STORAGE_OK && as.n > 0) {
        struct storage_rating_cursor next = *cursor;
        next.solution_id = as.a[as.n - 1].solution;
        status = write_batch(&as, &next, now, rated);
        if (status == STORAGE_OK)
            *cursor = next;
    }
    free(as.a);
    return status;
}

/* Step 3. Sets *more when the batch was full. */
static int rate_given_up(int64_t now, unsigned given_up_after, struct storage_rating_cursor *cursor,
                         unsigned *rated, bool *more)
{
    struct attempts as = {0};
    int64_t before = now - (int64_t)given_up_after;
    int status = storage_ratings_idle_games(cursor->idle_at, cursor->idle_game, before,
                                            RATING_GIVEN_UP_ENTRIES, BATCH, take_idle, &as);
    if (status == STORAGE_STOP)
        status = STORAGE_ERROR;
    *more = as.n == BATCH;
    if (status == STORAGE_OK)
        status = read_times(&as);
    if (status != STORAGE_OK) {
        free(as.a);
        return status;
    }
    struct storage_rating_cursor next = *cursor;
    if (*more) {
        next.idle_at = as.last_at;
        next.idle_game = as.last_id;
    } else {
        /* Every game last changed before `before` was read: a game
         * changed later has a later time, and comes past the cursor. */
        next.idle_at = before;
        next.idle_game = 0;
    }
    if (next.idle_at != cursor->idle_at || next.idle_game != cursor->idle_game || as.n > 0)
        status = write_batch(&as, &next, now, rated);
    if (status == STORAGE_OK)
        *cursor = next;
    free(as.a);
    return status;
}

static bool stopping(void)
{
    pthread_mutex_lock(&rt.lock);
    bool s = rt.stopping;
    pthread_mutex_unlock(&rt.lock);
    return s;
}

int ratings_pass(int64_t now, unsigned given_up_after)
{
    if (!storage_work_begin(STORAGE_WORK_RATINGS))
        return 0; /* another node rates */
    unsigned rated = 0;
    struct storage_rating_cursor cursor;
    bool more = true;
    int status = STORAGE_OK;
    while (status == STORAGE_OK && more && !stopping())
        status = seed_levels(now, false, &more);
    more = true;
    while (status == STORAGE_OK && more && !stopping())
        status = seed_levels(now, true, &more);
    if (status == STORAGE_OK)
        status = storage_ratings_cursor(&cursor);
    more = true;
    while (status == STORAGE_OK && more && !stopping())
        status = rate_solutions(now, &cursor, &rated, &more);
    more = true;
    while (status == STORAGE_OK && more && !stopping())
        status = rate_given_up(now, given_up_after, &cursor, &rated, &more);
    storage_work_end(STORAGE_WORK_RATINGS);
    if (status != STORAGE_OK) {
        fprintf(stderr,
                "sokod: the rating pass stopped early (storage status %d); it goes on "
                "later\n",
                status);
        return -1;
    }
    return (int)rated;
}

static void *ratings_main(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "sokod-rate");
    pthread_mutex_lock(&rt.lock);
    while (!rt.stopping) {
        unsigned given_up_after = rt.cfg.given_up_after;
        pthread_mutex_unlock(&rt.lock);
        ratings_pass(clock_now(), given_up_after);
        pthread_mutex_lock(&rt.lock);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += rt.cfg.interval;
        while (!rt.stopping && pthread_cond_timedwait(&rt.wake, &rt.lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&rt.lock);
    return NULL;
}

int ratings_start(const struct ratings_config *cfg)
{
    pthread_mutex_lock(&rt.lock);
    rt.cfg = *cfg;
    if (rt.cfg.interval == 0)
        rt.cfg.interval = 1;
    rt.stopping = false;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&rt.wake, &attr);
    pthread_condattr_destroy(&attr);
    rt.running = pthread_create(&rt.thread, NULL, ratings_main, NULL) == 0;
    if (!rt.running)
        pthread_cond_destroy(&rt.wake);
    pthread_mutex_unlock(&rt.lock);
    return rt.running ? 0 : -1;
}

void ratings_stop(void)
{
    pthread_mutex_lock(&rt.lock);
    bool running = rt.running;
    rt.stopping = true;
    if (running)
        pthread_cond_signal(&rt.wake);
    pthread_mutex_unlock(&rt.lock);
    if (!running)
        return;
    pthread_join(rt.thread, NULL);
    pthread_mutex_lock(&rt.lock);
    rt.running = false;
    pthread_cond_destroy(&rt.wake);
    pthread_mutex_unlock(&rt.lock);
}
