/* sokod copy: moves a whole database to another, a SQLite file or a
 * PostgreSQL database either way, keeping every id, then checks the copy:
 * the rows of every table counted on both sides, and every game's log
 * replayed to the state stored beside it. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_progress.h"

#include "base/config.h"
#include "play/game_play.h"
#include "storage/storage.h"
#include "storage/storage_copy.h"
#include "storage/storage_games.h"
#include "storage/storage_migrate.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Games read and replayed at a time. */
#define GAMES_BATCH 256
/* Differing games named before the rest are only counted. */
#define MAX_NAMED 10

static void say_copied(void *arg, const char *table, int64_t rows)
{
    (void)arg;
    printf("  %-20s %" PRId64 " rows\n", table, rows);
}

/* What the count of rows found: tables whose counts differ, and the games
 * the check will replay (for its progress line). */
struct counts {
    unsigned differ;
    int64_t games;
};

static void compare_counts(void *arg, const char *table, int64_t source, int64_t target)
{
    struct counts *counts = arg;
    if (strcmp(table, "games") == 0)
        counts->games = target;
    if (source == target)
        return;
    fprintf(stderr,
            "sokod copy: table %s: %" PRId64 " rows in the source, %" PRId64 " in the copy\n",
            table, source, target);
    counts->differ++;
}

/* Whether g's log, replayed, gives the state stored with it; says on
 * stderr how not (the first MAX_NAMED times), the progress line taken off
 * first. */
static bool replays_to_state(const struct storage_game *row, unsigned *differ,
                             struct cli_progress *progress)
{
    struct live_game g = {.id = row->id};
    int status = play_rebuild(&g);
    bool same = status == STORAGE_OK && g.seq == row->seq && g.game.moves == row->moves &&
                g.game.pushes == row->pushes && soko_game_solved(&g.game) == row->solved;
    if (!same && ++*differ <= MAX_NAMED) {
        cli_progress_hide(progress);
        if (status != STORAGE_OK)
            fprintf(stderr, "sokod copy: game %" PRId64 ": its log cannot be replayed\n", row->id);
        else
            fprintf(stderr,
                    "sokod copy: game %" PRId64 " stores seq %u, %u moves, %u pushes, %s; its "
                    "log replays to seq %u, %u moves, %u pushes, %s\n",
                    row->id, row->seq, row->moves, row->pushes, row->solved ? "solved" : "unsolved",
                    g.seq, g.game.moves, g.game.pushes,
                    soko_game_solved(&g.game) ? "solved" : "unsolved");
    }
    play_free(&g);
    return same;
}

/* Replays every game of the copy, of which there are about `expected`;
 * sets *games to their number and *differ to those whose state differs. */
static int check_games(int64_t expected, unsigned *games, unsigned *differ)
{
    static int64_t batch[GAMES_BATCH];
    struct cli_progress progress;
    cli_progress_begin(&progress, "copy", "games checked", expected > 0 ? (uint64_t)expected : 0,
                       false);
    int64_t after = 0;
    *games = 0;
    *differ = 0;
    for (;;) {
        int n = 0;
        int status = storage_copy_game_ids(after, batch, GAMES_BATCH, &n);
        for (int i = 0; i < n && status == STORAGE_OK; i++) {
            struct storage_game row;
            status = storage_game_get(batch[i], &row);
            if (status == STORAGE_OK)
                replays_to_state(&row, differ, &progress);
            (*games)++;
            cli_progress_update(&progress, *games);
        }
        if (status != STORAGE_OK || n < GAMES_BATCH) {
            cli_progress_end(&progress);
            return status;
        }
        after = batch[n - 1];
    }
}

/* Refuses a source whose schema is not this sokod's: its rows would not
 * fit the target's tables. */
static bool same_version(struct storage_copy *c)
{
    int source = 0, target = 0;
    if (storage_copy_versions(c, &source, &target) != STORAGE_OK)
        return false;
    if (source == target)
        return true;
    if (source == 0)
        fprintf(stderr, "sokod copy: %s holds no sokod database\n", storage_copy_source_name(c));
    else if (source < target)
        fprintf(stderr,
                "sokod copy: %s has schema version %d, older than this sokod's (%d): start "
                "this sokod on it once (sokod serve --db ...) to bring it up to date, then "
                "copy\n",
                storage_copy_source_name(c), source, target);
    else
        fprintf(stderr,
                "sokod copy: %s has schema version %d, newer than this sokod's (%d): copy it "
                "with the sokod that wrote it\n",
                storage_copy_source_name(c), source, target);
    return false;
}

/* Copies, then checks; the exit status. The target is open (storage_init). */
static int copy_and_check(const struct config *cfg, struct storage_copy *c)
{
    char err[512] = "";
    int status = storage_copy_target_empty(err, sizeof err);
    bool fresh = false;
    if (status == STORAGE_OK)
        status = storage_migrate(cfg->migrations, &fresh);
    if (status == STORAGE_OK && !same_version(c))
        return 1;
    if (status == STORAGE_OK) {
        printf("sokod copy: %s to %s\n", storage_copy_source_name(c), storage_name());
        status = storage_copy_tables(c, say_copied, NULL, err, sizeof err);
    }
    if (status == STORAGE_OK)
        status = storage_copy_sequences(c);
    struct counts counts = {0};
    unsigned games = 0, games_differ = 0;
    if (status == STORAGE_OK)
        status = storage_copy_count(c, compare_counts, &counts);
    if (status == STORAGE_OK)
        status = check_games(counts.games, &games, &games_differ);
    unsigned tables_differ = counts.differ;
    if (status != STORAGE_OK) {
        if (err[0] != '\0')
            fprintf(stderr, "sokod copy: %s\n", err);
        else
            fprintf(stderr, "sokod copy: the copy failed (the database said why above)\n");
        return 1;
    }
    if (tables_differ > 0 || games_differ > 0) {
        fprintf(stderr,
                "sokod copy: the check failed: %u tables with other row counts, %u of %u games "
                "whose log does not replay to their state\n",
                tables_differ, games_differ, games);
        return 1;
    }
    printf("sokod copy: checked: the same row counts in every table; %u games replayed to their "
           "stored state\n",
           games);
    return 0;
}

int cli_copy(int argc, char **argv)
{
    static const char synopsis[] = "sokod copy --from DB --to DB [--migrations DIR]";
    struct config cfg;
    int early = cli_config(
        &cfg, CONFIG_COPY, argc, argv, synopsis,
        "Copies the whole database DB of --from (a SQLite file, or a PostgreSQL URI\n"
        "postgresql://user@host/name) to that of --to, which must be new or empty: its\n"
        "schema is made first. Every id is kept, and the ids given next come after them.\n"
        "Then checks the copy: the same rows in every table, and every game's log\n"
        "replayed to its stored state. Stop the servers of --from first: what they write\n"
        "after the copy began is not copied. Exit status: 0 copied and checked, 1 refused\n"
        "or failed, 2 usage.\n");
    if (early >= 0)
        return early;
    if (cfg.nargs != 0 || cfg.from[0] == '\0' || cfg.to[0] == '\0') {
        fprintf(stderr, "usage: %s (try --help)\n", synopsis);
        return 2;
    }
    if (strcmp(cfg.from, cfg.to) == 0) {
        fprintf(stderr, "sokod copy: --from and --to name the same database\n");
        return 1;
    }
    if (storage_init(cfg.to, cfg.synchronous) != STORAGE_OK)
        return 1;
    struct storage_copy *c = NULL;
    char err[512] = "";
    int status = storage_copy_open(cfg.from, &c, err, sizeof err);
    if (status != STORAGE_OK) {
        if (err[0] != '\0')
            fprintf(stderr, "sokod copy: %s\n", err);
        storage_shutdown();
        return 1;
    }
    int code = copy_and_check(&cfg, c);
    storage_copy_close(c);
    storage_shutdown();
    return code;
}
