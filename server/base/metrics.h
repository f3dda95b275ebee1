/* Metrics: counters, gauges and histograms that every wing records into,
 * and their text in the Prometheus exposition format (version 0.0.4) for
 * GET /metrics. Recording is a few relaxed atomic additions, with no lock,
 * so a step pays next to nothing. Every series is fixed at start (the
 * request table's rows and the status codes below), and the memory is
 * static: nothing a client sends can add a series. */
#ifndef SOKOD_METRICS_H
#define SOKOD_METRICS_H

#include "base/textbuf.h"

#include <stddef.h>
#include <stdint.h>

/* The most rows of the request counters: one per route, plus one per
 * method for the requests no route took. */
#define METRICS_REQUEST_ROWS_MAX 160

/* The database's failures, as the storage wing codes them. */
enum metrics_db_error {
    METRICS_DB_ERROR,    /* STORAGE_ERROR: disk, corruption, a bug */
    METRICS_DB_BUSY,     /* STORAGE_BUSY: locked past the busy timeout */
    METRICS_DB_FULL,     /* STORAGE_FULL: the disk is full */
    METRICS_DB_CONFLICT, /* STORAGE_RETRY: a serialization failure or deadlock */
    METRICS_DB_KINDS
};

/* Sets the number of rows of the request counters, before any request is
 * counted. Returns 0, or -1 when rows exceeds METRICS_REQUEST_ROWS_MAX. */
int metrics_requests_setup(unsigned rows);

/* Counts one answered request in `row` with HTTP status `status`; a
 * status outside the fixed list counts as "other", a row past the set-up
 * rows is ignored. */
void metrics_request(unsigned row, unsigned status);

/* Records one step's time, from its arrival to its answer, in microseconds. */
void metrics_step_us(uint64_t us);

/* Records the size, in jobs, of one committed batch. */
void metrics_commit_batch(unsigned jobs);

/* Records the round trips to the database server of one committed batch. */
void metrics_commit_round_trips(uint64_t trips);

/* Adds delta to the jobs waiting for a batch of the group commit. */
void metrics_commit_queued(int delta);

/* Counts one round trip to the database server, of any connection. */
void metrics_db_round_trip(void);

/* Adds delta (+1 or -1) to the live streams open. */
void metrics_live_streams(int delta);

/* Sets the bytes the game cache holds. */
void metrics_game_cache_bytes(size_t bytes);

/* What all guests store, in bytes, as the sweeper last counted. */
void metrics_guests_storage_bytes(int64_t bytes);

/* Counts one making of the list of rooms (GET /rooms), read from the
 * database rather than given as made before. */
void metrics_room_list_made(void);

/* Counts one failure of the database. */
void metrics_db_error(enum metrics_db_error kind);

/* Names row `row` of the request counters for the text: its method and
 * its route, plain text that needs no escaping (the caller's own). */
typedef void metrics_row_name(unsigned row, const char **method, const char **route);

/* Appends every metric to b in the exposition format, the request
 * counters named by name_row (only the series counted once or more). */
void metrics_write(struct textbuf *b, metrics_row_name *name_row);

#endif
