/* The limit on what one client address may make the server spend on the
 * routes whose limiter is ROUTE_LIMIT_COST (routes.h): each request is
 * charged its route's declared CPU time, against a bucket per address that
 * refills at --cost-per-second milliseconds a second and holds ten seconds
 * of them. Heavy reads (a player's progress, an export, a long solution)
 * then cost a client what they cost the server, whatever route a feature
 * adds next. */
#ifndef SOKOD_COST_LIMIT_H
#define SOKOD_COST_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

/* Starts the limiter: ms_per_second of declared CPU time per address. 0,
 * or -1 when out of memory. */
int cost_limit_start(unsigned ms_per_second);
void cost_limit_stop(void);

/* Charges `ms` to key at now_ms (a monotonic clock). True when the bucket
 * holds them (they are taken); false with *retry_s (at least 1) when the
 * key must wait, or when the table is full of keys still paying off their
 * debt: a key over its limit is never forgotten to make room. Nothing is
 * charged when refused. */
bool cost_limit_take(const char *key, uint32_t ms, uint64_t now_ms, unsigned *retry_s);

#endif
