/* Live events across the sokod nodes that share one PostgreSQL database
 * (nodes.c). A node that commits an entry notifies "game:ID:SEQ" in the
 * entry's transaction; every node's listener reads the entries a followed
 * game topic lacks from the database and publishes them at their seqs
 * (the bus drops those it has, such as the committing node's own). A
 * player who stops being watchable is notified as "unwatch:USER", and
 * every node ends the streams watching them. On SQLite nothing runs. */
#ifndef SOKOD_LIVE_NODES_H
#define SOKOD_LIVE_NODES_H

#include <stdint.h>

/* Starts listening to the other nodes, and saying every tick_ms that this
 * node still runs (room_state_heartbeat); each tick also reads how full
 * PostgreSQL's NOTIFY queue is and, past notify_queue_max_ppm millionths
 * (0: never), ends the other nodes' listening connections. Returns 0, or
 * -1 when the listener cannot start. */
int live_nodes_start(unsigned tick_ms, int64_t notify_queue_max_ppm);

/* Stops listening. Does nothing when it did not start. */
void live_nodes_stop(void);

/* Publishes the entries of game `game` that its topic lacks, read from
 * the database (a followed topic only): before an entry committed here
 * whose predecessors came from another node and were not yet heard of,
 * so that the topic's events stay in order. */
void live_nodes_catch_up(int64_t game);

#endif
