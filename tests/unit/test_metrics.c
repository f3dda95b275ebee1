/* The metrics module on its own: a value on a bucket's bound falls in that
 * bucket and the buckets are written cumulative, with _count equal to the
 * +Inf bucket; a request's status outside the fixed list counts as
 * "other", a row past the set-up ones adds nothing, and the rows cannot
 * outgrow METRICS_REQUEST_ROWS_MAX. */
#include "base/metrics.h"

#include "check.h"

#include <stdlib.h>

static void name_row(unsigned row, const char **method, const char **route)
{
    *method = row == 0 ? "GET" : "POST";
    *route = row == 0 ? "/a" : "/b/{id}";
}

/* The metrics' text, from malloc. */
static char *text(void)
{
    struct textbuf b = {0};
    metrics_write(&b, name_row);
    size_t len = 0;
    return textbuf_take(&b, &len);
}

/* True when the text holds `line` as a whole line. */
static bool has_line(const char *all, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = strstr(all, line); p != NULL; p = strstr(p + 1, line)) {
        if ((p == all || p[-1] == '\n') && p[n] == '\n')
            return true;
    }
    return false;
}

#define CHECK_LINE(all, line) CHECK_MSG(has_line(all, line), "no line '%s' in:\n%s", line, all)

static void step_times_fill_cumulative_buckets(void)
{
    note("steps of 250 us (on a bound), 300 us and 9 s (past every bound)");
    metrics_step_us(250);
    metrics_step_us(300);
    metrics_step_us(9000000);
    char *all = text();
    CHECK_LINE(all, "# TYPE sokod_step_seconds histogram");
    CHECK_LINE(all, "sokod_step_seconds_bucket{le=\"0.00025\"} 1");
    CHECK_LINE(all, "sokod_step_seconds_bucket{le=\"0.0005\"} 2");
    CHECK_LINE(all, "sokod_step_seconds_bucket{le=\"5\"} 2");
    CHECK_LINE(all, "sokod_step_seconds_bucket{le=\"+Inf\"} 3");
    CHECK_LINE(all, "sokod_step_seconds_count 3");
    CHECK_LINE(all, "sokod_step_seconds_sum 9.00055");
    free(all);
}

static void requests_count_by_row_and_status(void)
{
    CHECK_INT(metrics_requests_setup(METRICS_REQUEST_ROWS_MAX + 1), -1);
    CHECK_INT(metrics_requests_setup(2), 0);
    metrics_request(0, 200);
    metrics_request(0, 200);
    metrics_request(1, 418);
    metrics_request(2, 200); /* past the rows: not counted */
    char *all = text();
    CHECK_LINE(all, "sokod_http_requests_total{method=\"GET\",route=\"/a\",code=\"200\"} 2");
    CHECK_LINE(all,
               "sokod_http_requests_total{method=\"POST\",route=\"/b/{id}\",code=\"other\"} 1");
    CHECK_MSG(strstr(all, "route=\"/b/{id}\",code=\"200\"") == NULL,
              "a series never counted is written");
    free(all);
}

static void gauges_and_database_errors(void)
{
    metrics_live_streams(1);
    metrics_live_streams(1);
    metrics_live_streams(-1);
    metrics_game_cache_bytes(4096);
    metrics_db_error(METRICS_DB_BUSY);
    char *all = text();
    CHECK_LINE(all, "sokod_live_streams 1");
    CHECK_LINE(all, "sokod_game_cache_bytes 4096");
    CHECK_LINE(all, "sokod_database_errors_total{code=\"busy\"} 1");
    CHECK_LINE(all, "sokod_database_errors_total{code=\"error\"} 0");
    free(all);
}

int main(void)
{
    RUN(step_times_fill_cumulative_buckets);
    RUN(requests_count_by_row_and_status);
    RUN(gauges_and_database_errors);
    return check_finish();
}
