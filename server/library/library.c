/* Importing checked levels into the library. */
#include "library/library.h"

#include "base/clock.h"
#include "storage/storage_admin.h"
#include "storage/storage_levels.h"

#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOARD_TEXT_CAP (SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 2)

struct found {
    bool exists;
    bool deleted;
};

static int take_collection(void *arg, const struct storage_admin_collection *c)
{
    struct found *f = arg;
    f->exists = true;
    f->deleted = c->deleted_at != 0;
    return 0;
}

/* Finds or creates the target collection; sets *position to the first free one. */
static enum library_status open_target(struct check_report *r, const struct library_target *t,
                                       int64_t now, struct library_result *out, uint32_t *position,
                                       int *storage)
{
    if (t->collection_id != 0) {
        struct found f = {false, false};
        *storage = storage_admin_collection_get(t->collection_id, take_collection, &f);
        if (*storage == STORAGE_NOT_FOUND || (*storage == STORAGE_OK && f.deleted)) {
            *storage = STORAGE_OK;
            return LIBRARY_NO_COLLECTION;
        }
        if (*storage != STORAGE_OK)
            return LIBRARY_STORAGE;
        out->collection_id = t->collection_id;
        *storage = storage_collection_next_position(t->collection_id, position);
        return *storage == STORAGE_OK ? LIBRARY_OK : LIBRARY_STORAGE;
    }
    *position = 1;
    *storage = storage_library_collection_create(
        t->name != NULL ? t->name : r->name, t->source != NULL ? t->source : r->filename,
        t->description != NULL ? t->description : r->description,
        t->author != NULL ? t->author : r->author, now, &out->collection_id);
    if (*storage == STORAGE_CONFLICT) {
        *storage = STORAGE_OK;
        return LIBRARY_NAME_TAKEN;
    }
    out->created = *storage == STORAGE_OK;
    return *storage == STORAGE_OK ? LIBRARY_OK : LIBRARY_STORAGE;
}

/* Brings back a deleted level; its own board stays (players' games are
 * written against it), so the file's solutions are kept only when the
 * file's board is the same. */
static int revive(const struct check_level *l, int64_t collection, uint32_t position,
                  bool *same_board)
{
    char *board = malloc(BOARD_TEXT_CAP);
    if (board == NULL)
        return STORAGE_ERROR;
    int status = storage_level_board(l->restores, board, BOARD_TEXT_CAP);
    *same_board = status == STORAGE_OK && strcmp(board, l->board) == 0;
    free(board);
    if (status == STORAGE_OK)
        status = storage_level_revive(l->restores, collection, position, l->title, l->author,
                                      l->comment);
    return status;
}

static int insert(const struct check_level *l, int64_t collection, uint32_t position, int64_t now,
                  int64_t *id)
{
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)l->hash);
    struct storage_new_level row = {
        .collection_id = collection,
        .position = position,
        .title = l->title,
        .author = l->author,
        .comment = l->comment,
        .board = l->board,
        .width = l->width,
        .height = l->height,
        .boxes = l->boxes,
        .canonical_hash = hash,
    };
    return storage_level_insert(&row, now, id);
}

/* Keeps the level's solutions that solve, and the solver's verdict. */
static int keep_results(const struct check_level *l, int64_t now, unsigned *references)
{
    int status = STORAGE_OK;
    for (uint32_t s = 0; status == STORAGE_OK && s < l->nsolutions; s++) {
        const struct check_solution *sol = &l->solutions[s];
        if (sol->result != CHECK_SOLUTION_SOLVED || sol->lurd == NULL)
            continue;
        status = storage_reference_add(l->imported_id, sol->title, sol->lurd, sol->moves,
                                       sol->pushes, now);
        if (status == STORAGE_OK)
            (*references)++;
    }
    if (status == STORAGE_OK &&
        (l->solver == CHECK_SOLVER_SOLVABLE || l->solver == CHECK_SOLVER_UNSOLVABLE ||
         l->solver == CHECK_SOLVER_UNKNOWN))
        status = storage_level_set_solver(l->imported_id, check_solver_name(l->solver),
                                          l->solver_moves, l->solver_pushes);
    return status;
}

static int record(const struct check_report *r, const struct audit_actor *who,
                  const struct library_result *out)
{
    char target[48];
    snprintf(target, sizeof target, "collection %lld", (long long)out->collection_id);
    json_t *details = json_pack("{s:s,s:s,s:s,s:b,s:i,s:i,s:i,s:i,s:i}", "file", r->filename,
                                "format", check_format_name(r->format), "name", r->name, "created",
                                out->created, "imported", (int)out->imported, "restored",
                                (int)out->restored, "invalid", (int)out->invalid, "duplicates",
                                (int)out->duplicates, "references", (int)out->references);
    return audit_record(who, "library.import", target, details);
}

static enum library_status import_levels(struct check_report *r, const struct library_target *t,
                                         const struct audit_actor *who, struct library_result *out,
                                         int *storage)
{
    *storage = STORAGE_OK;
    for (size_t i = 0; i < r->nlevels; i++)
        r->levels[i].imported_id = 0;
    if (r->failed)
        return LIBRARY_FILE_FAILED;
    if (check_lookup_library(r) != 0) {
        *storage = STORAGE_ERROR;
        return LIBRARY_STORAGE;
    }
    unsigned wanted = 0;
    for (size_t i = 0; i < r->nlevels; i++) {
        const struct check_level *l = &r->levels[i];
        wanted += l->valid && (l->duplicate == CHECK_UNIQUE || t->keep_duplicates);
    }
    if (wanted == 0) {
        out->invalid = r->invalid;
        out->duplicates = r->valid;
        return LIBRARY_NOTHING;
    }
    int64_t now = clock_now();
    uint32_t position = 1;
    enum library_status result = open_target(r, t, now, out, &position, storage);
    if (result != LIBRARY_OK)
        return result;
    for (size_t i = 0; i < r->nlevels && *storage == STORAGE_OK; i++) {
        struct check_level *l = &r->levels[i];
        if (!l->valid) {
            out->invalid++;
            continue;
        }
        if (l->duplicate != CHECK_UNIQUE && !t->keep_duplicates) {
            out->duplicates++;
            continue;
        }
        bool keep_solutions = true;
        if (l->restores != 0 && l->duplicate == CHECK_UNIQUE) {
            *storage = revive(l, out->collection_id, position, &keep_solutions);
            l->imported_id = l->restores;
            out->restored++;
        } else {
            *storage = insert(l, out->collection_id, position, now, &l->imported_id);
        }
        position++;
        out->imported++;
        if (*storage == STORAGE_OK && keep_solutions)
            *storage = keep_results(l, now, &out->references);
    }
    if (*storage == STORAGE_OK)
        *storage = record(r, who, out);
    return *storage == STORAGE_OK ? LIBRARY_OK : LIBRARY_STORAGE;
}

enum library_status library_import(struct check_report *r, const struct library_target *t,
                                   const struct audit_actor *who, struct library_result *out,
                                   int *storage)
{
    memset(out, 0, sizeof *out);
    enum library_status result = import_levels(r, t, who, out, storage);
    if (result != LIBRARY_OK) {
        for (size_t i = 0; i < r->nlevels; i++)
            r->levels[i].imported_id = 0;
    }
    return result;
}
