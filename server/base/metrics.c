/* Metrics: static atomic counters, and their exposition text. */
#include "base/metrics.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

/* The status codes counted each on its own; any other is "other". The
 * last slot of a row is "other". */
static const unsigned status_codes[] = {200, 201, 204, 304, 400, 401, 403, 404, 405, 409,
                                        413, 415, 421, 422, 429, 500, 501, 503, 507};
#define NSTATUS (sizeof status_codes / sizeof status_codes[0])

static atomic_uint_fast64_t requests[METRICS_REQUEST_ROWS_MAX][NSTATUS + 1];
static unsigned request_rows;

#define BOUNDS_MAX 16

/* A histogram: per-bucket counts (not cumulative: each value adds to one
 * bucket), the last past every bound (+Inf). Its count is the sum of the
 * buckets, so that _count and the +Inf bucket always agree. */
struct histogram {
    const char *name;
    const char *help;
    double scale; /* recorded values are divided by it in the text */
    unsigned nbounds;
    uint64_t bounds[BOUNDS_MAX]; /* ascending upper bounds, inclusive */
    atomic_uint_fast64_t counts[BOUNDS_MAX + 1];
    atomic_uint_fast64_t sum;
};

static struct histogram step_time = {
    "sokod_step_seconds",
    "Time of a game entry (a step, undo, redo or restart; a walk or push of point mode) from the "
    "arrival of its request to its answer being queued, the group commit included.",
    1e6,
    14,
    {250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000, 2500000,
     5000000},
    {0},
    0,
};

static struct histogram batch_size = {
    "sokod_commit_batch_jobs",
    "Jobs (game entries, hints) in each transaction of the group commit.",
    1,
    10,
    {1, 2, 4, 8, 16, 32, 64, 128, 256, 512},
    {0},
    0,
};

static struct histogram batch_trips = {
    "sokod_commit_round_trips",
    "Round trips to the database server (PostgreSQL) of each transaction of the group commit, "
    "its BEGIN and COMMIT included.",
    1,
    8,
    {1, 2, 3, 4, 6, 8, 16, 64},
    {0},
    0,
};

static atomic_int_fast64_t live_streams;
static atomic_int_fast64_t commit_queued;
static atomic_uint_fast64_t db_round_trips;
static atomic_uint_fast64_t game_cache_bytes;
static atomic_int_fast64_t guests_storage_bytes;
static atomic_uint_fast64_t room_lists;
static atomic_uint_fast64_t db_errors[METRICS_DB_KINDS];
static const char *const db_error_names[METRICS_DB_KINDS] = {
    [METRICS_DB_ERROR] = "error",
    [METRICS_DB_BUSY] = "busy",
    [METRICS_DB_FULL] = "full",
    [METRICS_DB_CONFLICT] = "conflict",
};

static void add(atomic_uint_fast64_t *counter, uint64_t n)
{
    atomic_fetch_add_explicit(counter, n, memory_order_relaxed);
}

static uint64_t load(atomic_uint_fast64_t *counter)
{
    return atomic_load_explicit(counter, memory_order_relaxed);
}

static void observe(struct histogram *h, uint64_t value)
{
    unsigned i = 0;
    while (i < h->nbounds && value > h->bounds[i])
        i++;
    add(&h->counts[i], 1);
    add(&h->sum, value);
}

int metrics_requests_setup(unsigned rows)
{
    if (rows > METRICS_REQUEST_ROWS_MAX)
        return -1;
    request_rows = rows;
    return 0;
}

void metrics_request(unsigned row, unsigned status)
{
    if (row >= request_rows)
        return;
    unsigned slot = 0;
    while (slot < NSTATUS && status_codes[slot] != status)
        slot++;
    add(&requests[row][slot], 1);
}

void metrics_step_us(uint64_t us)
{
    observe(&step_time, us);
}

void metrics_commit_batch(unsigned jobs)
{
    observe(&batch_size, jobs);
}

void metrics_commit_round_trips(uint64_t trips)
{
    observe(&batch_trips, trips);
}

void metrics_commit_queued(int delta)
{
    atomic_fetch_add_explicit(&commit_queued, delta, memory_order_relaxed);
}

void metrics_db_round_trip(void)
{
    add(&db_round_trips, 1);
}

void metrics_live_streams(int delta)
{
    atomic_fetch_add_explicit(&live_streams, delta, memory_order_relaxed);
}

void metrics_game_cache_bytes(size_t bytes)
{
    atomic_store_explicit(&game_cache_bytes, bytes, memory_order_relaxed);
}

void metrics_guests_storage_bytes(int64_t bytes)
{
    atomic_store_explicit(&guests_storage_bytes, bytes, memory_order_relaxed);
}

void metrics_room_list_made(void)
{
    add(&room_lists, 1);
}

void metrics_db_error(enum metrics_db_error kind)
{
    if (kind < METRICS_DB_KINDS)
        add(&db_errors[kind], 1);
}

/* The HELP and TYPE lines of a metric. */
static void head(struct textbuf *b, const char *name, const char *type, const char *help)
{
    textbuf_puts(b, "# HELP ");
    textbuf_puts(b, name);
    textbuf_puts(b, " ");
    textbuf_puts(b, help);
    textbuf_puts(b, "\n# TYPE ");
    textbuf_puts(b, name);
    textbuf_puts(b, " ");
    textbuf_puts(b, type);
    textbuf_puts(b, "\n");
}

/* Appends value / scale: an integer as such, else with enough decimals. */
static void put_scaled(struct textbuf *b, uint64_t value, double scale)
{
    if (scale == 1) {
        textbuf_int(b, (int64_t)value);
        return;
    }
    char text[48];
    snprintf(text, sizeof text, "%.9g", (double)value / scale);
    textbuf_puts(b, text);
}

static void write_histogram(struct textbuf *b, struct histogram *h)
{
    head(b, h->name, "histogram", h->help);
    uint64_t cumulative = 0;
    for (unsigned i = 0; i <= h->nbounds; i++) {
        cumulative += load(&h->counts[i]);
        textbuf_puts(b, h->name);
        textbuf_puts(b, "_bucket{le=\"");
        if (i < h->nbounds)
            put_scaled(b, h->bounds[i], h->scale);
        else
            textbuf_puts(b, "+Inf");
        textbuf_puts(b, "\"} ");
        textbuf_int(b, (int64_t)cumulative);
        textbuf_puts(b, "\n");
    }
    textbuf_puts(b, h->name);
    textbuf_puts(b, "_sum ");
    put_scaled(b, load(&h->sum), h->scale);
    textbuf_puts(b, "\n");
    textbuf_puts(b, h->name);
    textbuf_puts(b, "_count ");
    textbuf_int(b, (int64_t)cumulative);
    textbuf_puts(b, "\n");
}

static void write_requests(struct textbuf *b, metrics_row_name *name_row)
{
    static const char name[] = "sokod_http_requests_total";
    head(b, name, "counter",
         "HTTP requests answered, by method, route (\"unmatched\" when none took the request) "
         "and status code (\"other\" for codes not listed on their own).");
    for (unsigned row = 0; row < request_rows; row++) {
        const char *method = "", *route = "";
        bool named = false;
        for (unsigned slot = 0; slot <= NSTATUS; slot++) {
            uint64_t n = load(&requests[row][slot]);
            if (n == 0)
                continue;
            if (!named)
                name_row(row, &method, &route);
            named = true;
            textbuf_puts(b, name);
            textbuf_puts(b, "{method=\"");
            textbuf_puts(b, method);
            textbuf_puts(b, "\",route=\"");
            textbuf_puts(b, route);
            textbuf_puts(b, "\",code=\"");
            if (slot < NSTATUS)
                textbuf_int(b, status_codes[slot]);
            else
                textbuf_puts(b, "other");
            textbuf_puts(b, "\"} ");
            textbuf_int(b, (int64_t)n);
            textbuf_puts(b, "\n");
        }
    }
}

static void write_gauge(struct textbuf *b, const char *name, const char *help, int64_t value)
{
    head(b, name, "gauge", help);
    textbuf_puts(b, name);
    textbuf_puts(b, " ");
    textbuf_int(b, value);
    textbuf_puts(b, "\n");
}

static void write_db_errors(struct textbuf *b)
{
    static const char name[] = "sokod_database_errors_total";
    head(b, name, "counter",
         "Failed database calls, by code: busy (locked past the busy timeout), full (the disk), "
         "error (anything else).");
    for (unsigned k = 0; k < METRICS_DB_KINDS; k++) {
        textbuf_puts(b, name);
        textbuf_puts(b, "{code=\"");
        textbuf_puts(b, db_error_names[k]);
        textbuf_puts(b, "\"} ");
        textbuf_int(b, (int64_t)load(&db_errors[k]));
        textbuf_puts(b, "\n");
    }
}

void metrics_write(struct textbuf *b, metrics_row_name *name_row)
{
    write_requests(b, name_row);
    write_histogram(b, &step_time);
    write_histogram(b, &batch_size);
    write_histogram(b, &batch_trips);
    write_gauge(b, "sokod_commit_queued_jobs",
                "Jobs waiting for a batch of the group commit (not those of the batch running).",
                atomic_load_explicit(&commit_queued, memory_order_relaxed));
    head(b, "sokod_db_round_trips_total", "counter",
         "Round trips to the database server (PostgreSQL) of every connection: a statement or a "
         "pipeline of them, each waited for.");
    textbuf_puts(b, "sokod_db_round_trips_total ");
    textbuf_int(b, (int64_t)load(&db_round_trips));
    textbuf_puts(b, "\n");
    write_gauge(b, "sokod_live_streams", "Live event streams open.",
                atomic_load_explicit(&live_streams, memory_order_relaxed));
    write_gauge(b, "sokod_game_cache_bytes", "Bytes of the games kept in memory between requests.",
                (int64_t)load(&game_cache_bytes));
    write_gauge(b, "sokod_guests_storage_bytes",
                "Bytes all guests store, at the sweeper's last count (0 before it, or with no "
                "--all-guests-storage-mb to count for).",
                atomic_load_explicit(&guests_storage_bytes, memory_order_relaxed));
    head(b, "sokod_room_lists_made_total", "counter",
         "Lists of rooms read from the database (each is then shared for up to a second).");
    textbuf_puts(b, "sokod_room_lists_made_total ");
    textbuf_int(b, (int64_t)load(&room_lists));
    textbuf_puts(b, "\n");
    write_db_errors(b);
}
