/* Storage of the levels players publish, their likes, the reports on them
 * and the authors blocked from publishing (storage_community.c; migration
 * 0025). Same rules as storage.h: the calling thread's connection,
 * STORAGE_* codes, text handed to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_COMMUNITY_H
#define SOKOD_STORAGE_COMMUNITY_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stdint.h>

/* The source that marks the community collection among the collections. */
#define STORAGE_COMMUNITY_SOURCE "community"

/* A level to publish, checked by the caller: its normalised board, the
 * hash of that board under rotation and mirror, and the solver's line. */
struct storage_community_new {
    int64_t author_id;
    const char *author; /* the author's name, the level's credit */
    const char *title;
    const char *board;
    uint32_t width, height, boxes;
    const char *canonical_hash;
    const char *solution; /* LURD, kept as a reference solution */
    uint32_t moves, pushes;
    int64_t at;
};

/* A published level as listings show it, with one viewer's like and state. */
struct storage_community_level {
    int64_t level_id;
    int64_t collection_id;
    const char *title;
    int64_t author_id;
    const char *author; /* the account's name now */
    uint32_t width, height, boxes;
    uint32_t likes;
    bool liked;  /* by the viewer */
    bool solved; /* by the viewer */
    bool hidden; /* hidden or deleted by an admin (admin listings only) */
    uint32_t reports;
    int64_t published_at;
};

/* A report, for the admins. */
struct storage_community_report {
    int64_t id, level_id, user_id;
    const char *level_title, *author, *reporter, *reason;
    int64_t author_id;
    bool hidden;
    int64_t created_at;
};

struct storage_community_block {
    int64_t user_id;
    const char *username, *reason;
    int64_t blocked_at;
};

/* How many levels `author` published since `since`, and whether an admin
 * blocked the author from publishing. */
int storage_community_author(int64_t author, int64_t since, uint32_t *published, bool *blocked);

/* The id of a level of the library, in any state (hidden and deleted
 * ones count), whose canonical hash is `hash`: STORAGE_NOT_FOUND when none. */
int storage_community_hash_taken(const char *hash, int64_t *level_id);

/* Inside the caller's transaction: makes the community collection when it
 * does not exist, and adds the level at its end with its reference
 * solution and its author's row (counted against the author's quota:
 * STORAGE_QUOTA past it; STORAGE_CONFLICT when a published level has its
 * canonical hash, published meanwhile). Sets *level_id. */
int storage_community_publish(const struct storage_community_new *n, int64_t *level_id);

/* Calls fn for the published levels, newest first: every author's (author
 * 0) or one author's, with the viewer's like and solved state, at most
 * `limit`, older than level `before` (0: from the newest). Hidden and
 * deleted levels only when `all` (for admins). */
int storage_community_each(int64_t author, int64_t viewer, bool all, uint32_t limit, int64_t before,
                           int (*fn)(void *arg, const struct storage_community_level *l),
                           void *arg);

/* Calls fn once for the level, when it is a published one that players see:
 * STORAGE_NOT_FOUND otherwise. */
int storage_community_get(int64_t level, int64_t viewer,
                          int (*fn)(void *arg, const struct storage_community_level *l), void *arg);

/* Inside the caller's transaction: the viewer likes the level (on) or no
 * longer does; *changed says whether anything changed. */
int storage_community_like(int64_t level, int64_t user, bool on, int64_t at, bool *changed);

/* The reports `user` made since `since`. */
int storage_community_reports_since(int64_t user, int64_t since, uint32_t *count);

/* Inside the caller's transaction: a report of the level by the user; *created
 * is false when the user had reported it already (nothing changes). */
int storage_community_report(int64_t level, int64_t user, const char *reason, int64_t at,
                             bool *created);

/* The newest reports first, at most `limit`. */
int storage_community_reports_each(uint32_t limit,
                                   int (*fn)(void *arg, const struct storage_community_report *r),
                                   void *arg);

/* Inside the caller's transaction: blocks the user (on) or lifts the block;
 * *changed says whether anything changed. */
int storage_community_block(int64_t user, bool on, const char *reason, int64_t at, bool *changed);

/* The blocked authors, newest first, at most `limit`. */
int storage_community_blocks_each(uint32_t limit,
                                  int (*fn)(void *arg, const struct storage_community_block *b),
                                  void *arg);

#endif
