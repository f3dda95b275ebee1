/* The daily puzzle: GET /api/v1/daily[?day=YYYY-MM-DD]. Each day (UTC) has
 * one level, generated from the date alone, so every server gives every
 * player the same puzzle. A day's level is made on its first request, on a
 * worker thread with the request suspended; requests for the same day that
 * come meanwhile wait for that one generation. The level lives in a hidden
 * collection, so games and progress treat it as any other level.
 *
 * Today is read from clock_now(), the server's one clock (which tests may
 * set with SOKOD_TEST_NOW). */
#include "play/daily.h"

#include "accounts/auth.h"
#include "base/clock.h"
#include "generate.h"
#include "http/ratelimit.h"
#include "http/worker.h"
#include "library/catalog.h"
#include "play/generated_level.h"
#include "soko.h"
#include "storage/storage_daily.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The first day that has a puzzle. */
#define FIRST_DAY "2000-01-01"

/* Past days made on request, per client address: a burst, then one more
 * every few minutes. Each costs the generator up to a second and stays in
 * the database, and any day since FIRST_DAY may be asked for; days made
 * already, and today, are never limited. */
#define PAST_DAYS_BURST 10
#define PAST_DAYS_INTERVAL_MS (6u * 60u * 1000u)

static struct ratelimit *past_days;
static pthread_once_t past_days_once = PTHREAD_ONCE_INIT;

static void make_past_days_limit(void)
{
    past_days = ratelimit_new(PAST_DAYS_BURST, PAST_DAYS_INTERVAL_MS);
}

/* Counts the making of a past day for c's address. False, after answering
 * 429, when the address has made too many lately. */
static bool may_make_past_day(struct http_conn *c, int *result)
{
    pthread_once(&past_days_once, make_past_days_limit);
    return http_limit_client(c, past_days, "past day", "past puzzles made for your address",
                             " (days already made can always be read)", result);
}

/* Past days being made or waiting for a thread, and how many may be
 * (daily_setup): each holds a thread of the levels pool for up to a second,
 * and a crowd asking for many different days must not queue work without
 * end. Today's puzzle is not counted: every request for it waits for one
 * making. */
static unsigned past_making;
static unsigned past_jobs = 4;

void daily_setup(const struct config *cfg)
{
    past_jobs = cfg->daily_past_jobs > 0 ? cfg->daily_past_jobs : 4;
}

/* Takes a place for making a past day. False, after answering 503, when
 * as many are being made as allowed. Called with pending_lock held. */
static bool take_past_place(struct http_conn *c, int *result)
{
    if (past_making < past_jobs) {
        past_making++;
        return true;
    }
    http_retry_after(c, 1);
    *result = reply_error(c, API_E_UNAVAILABLE,
                          "the server is making as many past puzzles as it can; try again in "
                          "a second (days already made can always be read)");
    return false;
}

/* A status of a wait that is not a storage code: the generator failed. */
#define DAILY_GENERATION_FAILED 1000

void daily_today(char out[11])
{
    time_t now = (time_t)clock_now();
    struct tm tm;
    gmtime_r(&now, &tm);
    char text[32];
    snprintf(text, sizeof text, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    memcpy(out, text, 10);
    out[10] = '\0';
}

/* ---- days ----------------------------------------------------------------- */

static bool leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

bool daily_parse_day(const char *s, int *y, int *m, int *d)
{
    static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (int i = 0; i < 10; i++) {
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return false;
    }
    *y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    *m = (s[5] - '0') * 10 + (s[6] - '0');
    *d = (s[8] - '0') * 10 + (s[9] - '0');
    if (*m < 1 || *m > 12 || *d < 1)
        return false;
    int last = month_days[*m - 1] + (*m == 2 && leap(*y));
    return *d <= last;
}

/* Days from 1970-01-01 to the date (proleptic Gregorian calendar). */
static int64_t days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* What the generator is asked for on a day: a seed from the date, and an
 * area and shape that vary from day to day. Changing this changes every
 * server's puzzles: keep it. */
static gen_options day_options(int64_t days)
{
    gen_options o;
    gen_options_default(&o);
    uint64_t x = soko_mix64((uint64_t)days ^ 0x6461696C79ull);
    o.seed = x;
    o.width = (uint16_t)(10 + (x >> 8) % 4);
    o.height = (uint16_t)(9 + (x >> 16) % 4);
    o.boxes = 3;
    o.candidates = 4;
    o.node_limit = 200000;
    return o;
}

/* ---- making a day's puzzle ------------------------------------------------ */

struct daily_wait {
    char day[11];
    int64_t user;
    int status; /* set before the wake */
    struct http_deferred *deferred;
    struct daily_wait *next;
};

struct pending {
    char day[11];
    bool past; /* holds a place in past_making */
    struct daily_wait *waiters;
    struct pending *next;
};

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pendings;

/* Generates and stores the day's level; returns a STORAGE_* code or
 * DAILY_GENERATION_FAILED. */
static int make_day(const char *day)
{
    int y, m, d;
    if (!daily_parse_day(day, &y, &m, &d))
        return DAILY_GENERATION_FAILED;
    gen_options o = day_options(days_from_civil(y, m, d));
    gen_level l;
    int rc = gen_generate(&o, &l);
    if (rc != GEN_OK) {
        fprintf(stderr, "sokod: the daily puzzle of %s: %s\n", day, gen_error_name(rc));
        return DAILY_GENERATION_FAILED;
    }
    char hash[GENERATED_LEVEL_HASH_SIZE], title[64], comment[128];
    snprintf(title, sizeof title, "Daily puzzle %s", day);
    snprintf(comment, sizeof comment, "The puzzle of %s (UTC); difficulty score %u.", day, l.score);
    struct storage_daily_new row = {.day = day};
    int status = DAILY_GENERATION_FAILED;
    if (generated_level_row(&l, title, comment, hash, &row.level)) {
        int64_t level;
        status = storage_daily_add(&row, clock_now(), &level);
    }
    gen_level_free(&l);
    return status;
}

/* Runs on a worker thread: makes the day, then wakes everyone waiting. */
static void generate_day(void *arg)
{
    struct pending *p = arg;
    int status = make_day(p->day);
    pthread_mutex_lock(&pending_lock);
    if (p->past)
        past_making--;
    for (struct pending **at = &pendings; *at != NULL; at = &(*at)->next) {
        if (*at == p) {
            *at = p->next;
            break;
        }
    }
    struct daily_wait *w = p->waiters;
    pthread_mutex_unlock(&pending_lock);
    while (w != NULL) {
        struct daily_wait *next = w->next;
        w->status = status;
        http_wake(w->deferred);
        w = next;
    }
    free(p);
}

/* ---- answers -------------------------------------------------------------- */

static int answer(struct http_conn *c, const char *day, int64_t level, int64_t user)
{
    json_t *obj;
    int status = catalog_level_object(level, user, &obj);
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return reply_json(c, 200, json_pack("{s:s,s:o}", "day", day, "level", obj));
}

static int answer_wait(struct http_conn *c, void *arg)
{
    struct daily_wait *w = arg;
    if (w->status == DAILY_GENERATION_FAILED)
        return reply_error(c, API_E_INTERNAL, "the daily puzzle of %s could not be made", w->day);
    int64_t level;
    int status = w->status == STORAGE_OK ? storage_daily_get(w->day, &level) : w->status;
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    return answer(c, w->day, level, w->user);
}

int daily_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    char now[11], day[11];
    daily_today(now);
    const char *asked = http_query(c, "day");
    int y, m, d;
    if (asked == NULL) {
        memcpy(day, now, sizeof day);
    } else if (!daily_parse_day(asked, &y, &m, &d)) {
        return reply_error(c, API_E_INVALID_VALUE,
                           "day must be a date of the calendar written YYYY-MM-DD, such as %s",
                           now);
    } else if (strcmp(asked, now) > 0) {
        return reply_error(c, API_E_INVALID_VALUE,
                           "the puzzle of %s is not out yet: today is %s (UTC)", asked, now);
    } else if (strcmp(asked, FIRST_DAY) < 0) {
        return reply_error(c, API_E_INVALID_VALUE, "the daily puzzles start on " FIRST_DAY);
    } else {
        memcpy(day, asked, sizeof day);
    }
    int64_t level;
    int status = storage_daily_get(day, &level);
    if (status == STORAGE_OK)
        return answer(c, day, level, user);
    if (status != STORAGE_NOT_FOUND)
        return reply_storage_failure(c, status);

    pthread_mutex_lock(&pending_lock);
    struct pending *p = pendings;
    while (p != NULL && strcmp(p->day, day) != 0)
        p = p->next;
    bool start = false;
    if (p == NULL) {
        /* Made since the look above, by a generation that just ended? */
        status = storage_daily_get(day, &level);
        if (status != STORAGE_NOT_FOUND) {
            pthread_mutex_unlock(&pending_lock);
            return status == STORAGE_OK ? answer(c, day, level, user)
                                        : reply_storage_failure(c, status);
        }
        bool past = strcmp(day, now) != 0;
        /* The place first: a 503 costs the address none of its allowance. */
        if (past && !take_past_place(c, &result)) {
            pthread_mutex_unlock(&pending_lock);
            return result;
        }
        if (past && !may_make_past_day(c, &result)) {
            past_making--;
            pthread_mutex_unlock(&pending_lock);
            return result;
        }
        p = calloc(1, sizeof *p);
        if (p == NULL) {
            if (past)
                past_making--;
            pthread_mutex_unlock(&pending_lock);
            return reply_error(c, API_E_INTERNAL, "out of memory");
        }
        memcpy(p->day, day, sizeof p->day);
        p->past = past;
        p->next = pendings;
        pendings = p;
        start = true;
    }
    struct daily_wait *w = calloc(1, sizeof *w);
    if (w != NULL) {
        memcpy(w->day, day, sizeof w->day);
        w->user = user;
        struct http_deferred *deferred;
        result = http_suspend(c, answer_wait, NULL, w, &deferred);
        if (deferred != NULL) {
            /* On failure http_suspend has freed w and answered. */
            w->deferred = deferred;
            w->next = p->waiters;
            p->waiters = w;
        }
    } else {
        result = reply_error(c, API_E_INTERNAL, "out of memory");
    }
    pthread_mutex_unlock(&pending_lock);
    if (start && !worker_submit(WORKER_LEVELS, generate_day, p))
        generate_day(p); /* no pool (stopping): make it here rather than never */
    return result;
}
