/* Storage for administration: admins, the audit log, importing checked
 * levels, and managing the library (storage_admin.c). Same rules as
 * storage.h: the calling thread's connection, STORAGE_* codes, text handed
 * to callbacks valid during the call only. */
#ifndef SOKOD_STORAGE_ADMIN_H
#define SOKOD_STORAGE_ADMIN_H

#include "storage/storage_codes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Admins and the audit log ------------------------------------------------------------ */

/* Sets or clears the admin right of the account `username`; *id gets its id.
 * STORAGE_NOT_FOUND when there is no such account (guests have no name). */
int storage_user_set_admin(const char *username, bool admin, int64_t *id);

/* Whether user `id` is an account with the admin right; its name goes to
 * name (cap bytes). STORAGE_NOT_FOUND when there is no such user. */
int storage_user_admin(int64_t id, bool *guest, bool *admin, char *name, size_t cap);

struct storage_audit {
    int64_t id;
    int64_t at;
    int64_t user_id; /* 0 for the command line */
    const char *actor, *action, *target, *details;
};

/* Adds an entry; details is a JSON text. */
int storage_audit_add(int64_t user_id, const char *actor, const char *action, const char *target,
                      const char *details, int64_t now);

/* Calls fn for at most `limit` entries with an id below `before` (0: from
 * the newest), newest first. */
int storage_audit_each(int64_t before, int limit,
                       int (*fn)(void *arg, const struct storage_audit *a), void *arg);

/* ---- Importing ----------------------------------------------------------------------------- */

struct storage_hash_match {
    int64_t level_id, collection_id;
    const char *title, *collection_name;
    bool deleted; /* the level or its collection is deleted */
};

/* Calls fn for each level with this canonical hash: those in the library
 * first (by id), then deleted ones (by id). */
int storage_levels_by_hash(const char *hash,
                           int (*fn)(void *arg, const struct storage_hash_match *m), void *arg);

/* Creates a collection at the end of the list. STORAGE_CONFLICT when the
 * name is taken (by a deleted collection too). */
int storage_library_collection_create(const char *name, const char *source, const char *notes,
                                      const char *author, int64_t now, int64_t *id);

/* The position after the last level of a collection (deleted ones count). */
int storage_collection_next_position(int64_t collection, uint32_t *position);

/* Brings back a deleted level into `collection` at `position`, with new
 * metadata; its board, games and solutions stay as they were. */
int storage_level_revive(int64_t level, int64_t collection, uint32_t position, const char *title,
                         const char *author, const char *comment);

/* The board of a level (copied into out, cap bytes). */
int storage_level_board(int64_t level, char *out, size_t cap);

/* Keeps a solution that came with a level's file; one already kept is kept once. */
int storage_reference_add(int64_t level, const char *title, const char *lurd, uint32_t moves,
                          uint32_t pushes, int64_t now);

struct storage_reference {
    int64_t id;
    const char *title, *lurd;
    uint32_t moves, pushes;
};

/* Calls fn for each reference solution of a level, fewest moves first. */
int storage_references_each(int64_t level, int (*fn)(void *arg, const struct storage_reference *r),
                            void *arg);

/* Records what the background solver found: status is "solvable",
 * "unsolvable" or "unknown"; moves and pushes count for "solvable" only. */
int storage_level_set_solver(int64_t level, const char *status, uint32_t moves, uint32_t pushes);

/* ---- Managing the library ------------------------------------------------------------------ */

struct storage_admin_collection {
    int64_t id;
    const char *name, *source, *notes, *author;
    uint32_t position;
    bool hidden;
    int64_t deleted_at; /* 0 when not deleted */
    int64_t created_at;
    uint32_t levels;  /* levels not deleted */
    uint32_t deleted; /* levels deleted */
};

/* Calls fn for every collection, deleted ones too, in the players' order. */
int storage_admin_collections_each(int (*fn)(void *arg, const struct storage_admin_collection *c),
                                   void *arg);
/* Calls fn once; STORAGE_NOT_FOUND when there is no such collection. */
int storage_admin_collection_get(int64_t id,
                                 int (*fn)(void *arg, const struct storage_admin_collection *c),
                                 void *arg);

struct storage_admin_level {
    int64_t id, collection_id;
    uint32_t position;
    const char *title, *author, *comment, *board, *canonical_hash;
    uint32_t width, height, boxes;
    bool hidden;
    int64_t deleted_at;
    const char *solver_status;
    uint32_t solver_moves, solver_pushes;
    uint32_t games, solutions, references; /* players' games and solutions, reference solutions */
};

/* Calls fn for each level of a collection, deleted ones too, by position. */
int storage_admin_levels_each(int64_t collection,
                              int (*fn)(void *arg, const struct storage_admin_level *l), void *arg);
/* Calls fn once; STORAGE_NOT_FOUND when there is no such level. */
int storage_admin_level_get(int64_t id, int (*fn)(void *arg, const struct storage_admin_level *l),
                            void *arg);

/* A level or a reference solution in the order of a collection's export:
 * levels by position then id, references by moves, pushes, then id. All
 * zero: before the first. */
struct storage_export_key {
    uint32_t a, b;
    int64_t id;
};

/* Calls fn for at most `limit` levels of a collection that are not
 * deleted, after `after` (a: position), with their text (the counts and
 * the solver's fields left zero). Returns STORAGE_OK (also when there are
 * none), STORAGE_STOP when fn returned nonzero, or the error's code. */
int storage_export_levels(int64_t collection, const struct storage_export_key *after,
                          unsigned limit, int (*fn)(void *arg, const struct storage_admin_level *l),
                          void *arg);

/* As storage_export_levels, for a level's reference solutions after
 * `after` (a: moves, b: pushes), without their moves (lurd NULL):
 * storage_reference_moves reads them in slices. */
int storage_export_references(int64_t level, const struct storage_export_key *after, unsigned limit,
                              int (*fn)(void *arg, const struct storage_reference *r), void *arg);

/* As storage_solution_moves (storage_games.h), for a reference solution. */
int storage_reference_moves(int64_t id, size_t offset, char *out, size_t cap, size_t *got,
                            size_t *total);

/* Changes a collection's fields; NULL (or hidden < 0) leaves one as it is.
 * STORAGE_NOT_FOUND when there is no such collection, STORAGE_CONFLICT when
 * the name is taken. */
int storage_collection_update(int64_t id, const char *name, const char *notes, const char *author,
                              int hidden);
/* The same for a level. */
int storage_level_update(int64_t id, const char *title, const char *comment, const char *author,
                         int hidden);

/* Marks a collection or a level deleted at `at`, or not deleted (at 0).
 * STORAGE_NOT_FOUND when there is no such row. */
int storage_collection_set_deleted(int64_t id, int64_t at);
int storage_level_set_deleted(int64_t id, int64_t at);

/* Gives collection ids[i] the position i + 1. */
int storage_collection_set_position(int64_t id, uint32_t position);

/* Gives the levels of a collection, listed in ids (every level of it,
 * deleted ones too), the positions 1, 2, 3 ... in that order. */
int storage_levels_set_order(int64_t collection, const int64_t *ids, size_t n);

#endif
