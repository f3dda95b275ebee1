/* A player's statistics (stats.h). */
#include "play/stats.h"

#include "accounts/auth.h"
#include "base/clock.h"
#include "play/daily.h"
#include "play/rating_rules.h"
#include "storage/storage_boards.h"
#include "storage/storage_ratings.h"
#include "storage/storage_stats.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

struct stats {
    int64_t start; /* the window's first day, Unix seconds */
    uint32_t solved[STATS_DAYS];
    int64_t seconds[STATS_DAYS];
    uint32_t solved_before;
    int64_t seconds_before;
};

/* Log entries read at most per answer: the time played of a player
 * with a longer history is that of its latest entries. */
#define STATS_LOG_BUDGET 100000u

static int take_day(void *arg, const struct storage_stats_day *d)
{
    struct stats *s = arg;
    if (d->day < 0)
        s->solved_before += d->solved;
    else if (d->day < STATS_DAYS)
        s->solved[d->day] += d->solved;
    /* Later than today: a clock set back. Left out. */
    return 0;
}

static int take_gap(void *arg, int64_t at, int64_t seconds)
{
    struct stats *s = arg;
    if (at < s->start)
        s->seconds_before += seconds;
    else if ((at - s->start) / 86400 < STATS_DAYS)
        s->seconds[(at - s->start) / 86400] += seconds;
    return 0;
}

static int add_collection(void *arg, const struct storage_stats_collection *c)
{
    json_t *o = json_pack("{s:I,s:o,s:i,s:i,s:i}", "id", (json_int_t)c->id, "name",
                          http_json_text(c->name), "levels", (int)c->levels, "solved",
                          (int)c->solved, "at_best_known", (int)c->at_best_known);
    return json_array_append_new(arg, o) != 0;
}

static json_t *day_text(int64_t t)
{
    time_t when = (time_t)t;
    struct tm tm;
    gmtime_r(&when, &tm);
    char text[32];
    snprintf(text, sizeof text, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    return json_string(text);
}

/* The days, oldest first, and the weeks: the window's runs of seven days,
 * the last ending today. */
static json_t *days_json(const struct stats *s, json_t **weeks)
{
    json_t *days = json_array();
    *weeks = json_array();
    for (int w = 0; w < STATS_DAYS / 7; w++) {
        uint32_t solved = 0;
        int64_t seconds = 0;
        for (int i = w * 7; i < w * 7 + 7; i++) {
            json_array_append_new(
                days, json_pack("{s:o,s:i,s:I}", "day", day_text(s->start + (int64_t)i * 86400),
                                "solved", (int)s->solved[i], "seconds", (json_int_t)s->seconds[i]));
            solved += s->solved[i];
            seconds += s->seconds[i];
        }
        json_array_append_new(*weeks,
                              json_pack("{s:o,s:i,s:I}", "first_day",
                                        day_text(s->start + (int64_t)w * 7 * 86400), "solved",
                                        (int)solved, "seconds", (json_int_t)seconds));
    }
    return days;
}

static json_t *totals_json(const struct stats *s, bool partial)
{
    uint32_t solved = 0;
    int64_t seconds = 0;
    for (int i = 0; i < STATS_DAYS; i++) {
        solved += s->solved[i];
        seconds += s->seconds[i];
    }
    return json_pack("{s:i,s:I,s:i,s:I,s:b}", "levels_solved", (int)(solved + s->solved_before),
                     "seconds_played", (json_int_t)(seconds + s->seconds_before),
                     "solved_in_window", (int)solved, "seconds_in_window", (json_int_t)seconds,
                     "played_partial", partial);
}

static int add_rating_day(void *arg, int64_t day, int64_t rating_milli, int64_t deviation_milli)
{
    json_t *o = json_pack("{s:o,s:i,s:i}", "day", day_text(day), "rating",
                          (int)lround(rating_milli / 1000.0), "deviation",
                          (int)lround(deviation_milli / 1000.0));
    return json_array_append_new(arg, o) != 0;
}

/* The player's rating now and at the end of each day of the window that
 * had a rated attempt; null before the first. */
static int rating_json(int64_t user, int64_t start, json_t **out)
{
    *out = json_null();
    if (user == 0)
        return STORAGE_OK;
    struct storage_rating r;
    int status = storage_ratings_player(user, &r);
    if (status == STORAGE_NOT_FOUND)
        return STORAGE_OK;
    if (status != STORAGE_OK)
        return status;
    json_t *history = json_array();
    status = storage_ratings_history(user, start, add_rating_day, history);
    if (status != STORAGE_OK) {
        json_decref(history);
        return status;
    }
    double rating = r.rating_milli / 1000.0;
    *out = json_pack("{s:i,s:i,s:s,s:i,s:o}", "rating", (int)lround(rating), "deviation",
                     (int)lround(r.deviation_milli / 1000.0), "label", rating_label(rating),
                     "attempts", (int)r.attempts, "history", history);
    return STORAGE_OK;
}

int stats_get(struct http_conn *c)
{
    int result = MHD_NO;
    int64_t user;
    if (!auth_user(c, AUTH_OPTIONAL, &user, &result))
        return result;
    char today[11];
    daily_today(today);
    struct stats s = {0};
    int64_t now = clock_now();
    s.start = now - now % 86400 - (int64_t)(STATS_DAYS - 1) * 86400;
    json_t *collections = json_array();
    uint32_t streak = 0;
    bool solved_today = false, partial = false;
    int status = STORAGE_OK;
    if (user != 0) {
        status = storage_stats_days(user, s.start, take_day, &s);
        if (status == STORAGE_OK)
            status = storage_stats_played(user, STATS_LOG_BUDGET, take_gap, &s, &partial);
        if (status == STORAGE_OK)
            status = storage_stats_collections(user, add_collection, collections);
        if (status == STORAGE_OK)
            status = storage_daily_streak(user, today, &streak, &solved_today);
    }
    json_t *rating = NULL;
    if (status == STORAGE_OK)
        status = rating_json(user, s.start, &rating);
    if (status != STORAGE_OK) {
        json_decref(collections);
        return reply_storage_failure(c, status);
    }
    json_t *weeks = NULL;
    json_t *days = days_json(&s, &weeks);
    json_t *body =
        json_pack("{s:s,s:o,s:i,s:i,s:i,s:o,s:o,s:{s:i,s:b},s:o,s:o,s:o}", "today", today,
                  "first_day", day_text(s.start), "days_in_window", STATS_DAYS, "gap_cap_seconds",
                  STORAGE_STATS_GAP_CAP, "log_entries_read_at_most", (int)STATS_LOG_BUDGET, "days",
                  days, "weeks", weeks, "streak", "days", (int)streak, "solved_today", solved_today,
                  "totals", totals_json(&s, partial), "collections", collections, "rating", rating);
    return reply_json(c, 200, body);
}
