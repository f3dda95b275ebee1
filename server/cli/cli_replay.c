/* sokod replay: plays every solution written in level files on its level. */
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "library/check.h"
#include "soko.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest solution replayed, in steps. */
#define REPLAY_MAX_STEPS (1u << 20)

struct replay_args {
    bool json, multipush;
};

static const struct options_row replay_rows[] = {
    CLI_JSON_ROW(struct replay_args),
    {"multipush", NULL, 0, NULL, "play under the multi-push rule (a push moves a line of boxes)",
     OPTIONS_SWITCH(struct replay_args, multipush)},
    CLI_HELP_ROW,
    OPTIONS_END,
};

static const struct cli_command replay_command = {
    .name = "replay",
    .about = "usage: sokod replay [--json] [--multipush] FILE...\n"
             "\n"
             "Finds the solutions written after each level's board (LURD, run-length\n"
             "counts allowed) and plays them. Prints for each one whether it ends\n"
             "solved (with its moves and pushes), the step where it fails and why, or\n"
             "that it ends unsolved; then \"solutions: N, solved: S, failed: F\".\n"
             "A solution is judged by the position it ends in, even when it passes\n"
             "through the solved position earlier.\n"
             "\n",
    .rows = replay_rows,
    .pad = 12,
    .after = "Exit status: 0 when every solution solves its level, 1 when one does not\n"
             "or a file cannot be read, 2 on a usage error.\n",
    .files = true,
};

typedef struct replay_state {
    bool json;
    int rule;
    unsigned solutions, solved, failed;
    bool file_failed;
    uint8_t *steps;
    soko_entry_t *history;
} replay_state;

/* Replays solution s of entry e on lvl (NULL when the level is invalid)
 * and reports it. */
static void replay_one(replay_state *st, const char *path, const char *text, const soko_entry *e,
                       uint32_t s, const soko_level *lvl, const soko_error *level_err,
                       json_t *jsols)
{
    static soko_game game;
    const soko_solution_ref *ref = &e->solution[s];
    json_t *js = st->json ? json_object() : NULL;
    char head[400];
    snprintf(head, sizeof head, "  %u.%u%s%.*s%s", e->number, s + 1, ref->title.len ? " \"" : "",
             (int)(ref->title.len > 200 ? 200 : ref->title.len), text + ref->title.off,
             ref->title.len ? "\"" : "");
    st->solutions++;
    if (js != NULL) {
        json_object_set_new(js, "title", cli_json_text(text + ref->title.off, ref->title.len));
        json_object_set_new(js, "line", json_integer(ref->line));
        json_array_append_new(jsols, js);
    }
    if (lvl == NULL) {
        st->failed++;
        if (js != NULL) {
            json_object_set_new(js, "result", json_string("invalid_level"));
            json_object_set_new(js, "message",
                                cli_json_text(level_err->message, strlen(level_err->message)));
        } else {
            printf("%s: not played, the level is invalid: %s\n", head, level_err->message);
        }
        return;
    }
    soko_error err = {0};
    int32_t n = soko_lurd_decode(text + ref->moves.off, ref->moves.len, ref->line, st->steps,
                                 REPLAY_MAX_STEPS, &err);
    if (n < 0) {
        st->failed++;
        if (js != NULL) {
            json_object_set_new(js, "result", json_string("unreadable"));
            json_object_set_new(js, "error_line", json_integer(err.line));
            json_object_set_new(js, "error_col", json_integer(err.col));
            json_object_set_new(js, "message", cli_json_text(err.message, strlen(err.message)));
        } else {
            printf("%s: cannot be read\n%s:%u:%u: %s\n", head, path, err.line, err.col,
                   err.message);
        }
        return;
    }
    soko_game_init(&game, lvl, st->rule, st->history, REPLAY_MAX_STEPS);
    uint32_t failed_at = 0;
    int rc = soko_lurd_play(&game, st->steps, (uint32_t)n, &failed_at);
    if (rc != SOKO_OK) {
        st->failed++;
        uint8_t step = st->steps[failed_at];
        char letter = soko_lurd_letter(step & 3, (step & SOKO_LURD_PUSH) != 0);
        if (js != NULL) {
            json_object_set_new(js, "result", json_string("failed"));
            json_object_set_new(js, "step", json_integer(failed_at + 1));
            json_object_set_new(js, "steps", json_integer(n));
            json_object_set_new(js, "error", json_string(soko_error_name(rc)));
        } else {
            printf("%s: fails at step %u of %d ('%c'): %s\n", head, failed_at + 1, n, letter,
                   check_step_words(rc));
        }
        return;
    }
    bool solved = soko_game_solved(&game);
    if (solved)
        st->solved++;
    else
        st->failed++;
    if (js != NULL) {
        json_object_set_new(js, "result", json_string(solved ? "solved" : "unsolved"));
        json_object_set_new(js, "moves", json_integer(game.moves));
        json_object_set_new(js, "pushes", json_integer(game.pushes));
        if (!solved)
            json_object_set_new(js, "boxes_on_goals", json_integer(game.boxes_on_goal));
    } else if (solved) {
        printf("%s: solved in %u move%s, %u push%s\n", head, game.moves, game.moves == 1 ? "" : "s",
               game.pushes, game.pushes == 1 ? "" : "es");
    } else {
        printf("%s: ends unsolved after %u move%s, %u push%s (%u of %u boxes on goals)\n", head,
               game.moves, game.moves == 1 ? "" : "s", game.pushes, game.pushes == 1 ? "" : "es",
               game.boxes_on_goal, lvl->boxes);
    }
}

/* Replays the solutions of one level, under a line naming it. */
static void replay_level(void *ctx, const struct cli_level *l)
{
    replay_state *st = ctx;
    const soko_entry *e = l->entry;
    if (e->solution_total == 0)
        return;
    uint32_t not_replayed = e->solution_total - e->solution_count;
    json_t *jsols = NULL;
    if (l->levels != NULL) {
        json_t *jl = json_object();
        json_object_set_new(jl, "number", json_integer(e->number));
        json_object_set_new(jl, "title", cli_json_text(l->text + e->title.off, e->title.len));
        jsols = json_array();
        json_object_set_new(jl, "solutions", jsols);
        if (not_replayed > 0)
            json_object_set_new(jl, "not_replayed", json_integer(not_replayed));
        json_array_append_new(l->levels, jl);
    } else if (e->title.len > 0) {
        printf("  %u \"%.*s\"\n", e->number, (int)e->title.len, l->text + e->title.off);
    } else {
        printf("  %u\n", e->number);
    }
    for (uint32_t s = 0; s < e->solution_count; s++)
        replay_one(st, l->path, l->text, e, s, l->level, l->error, jsols);
    if (l->levels == NULL && not_replayed > 0)
        printf("  %u: %u more solutions not replayed (at most %d are kept per level)\n", e->number,
               not_replayed, SOKO_MAX_SOLUTIONS);
}

int cli_replay(int argc, char **argv)
{
    struct replay_args args = {0};
    struct options_result r;
    int early = cli_options(&replay_command, &args, argc, argv, &r);
    if (early >= 0)
        return early;
    replay_state st = {.json = args.json,
                       .rule = args.multipush ? SOKO_RULE_MULTIPUSH : SOKO_RULE_STANDARD};
    st.steps = malloc(REPLAY_MAX_STEPS);
    st.history = malloc(REPLAY_MAX_STEPS * sizeof *st.history);
    if (st.steps == NULL || st.history == NULL) {
        fprintf(stderr, "sokod replay: out of memory\n");
        free(st.steps);
        free(st.history);
        return 1;
    }
    json_t *files = st.json ? json_array() : NULL;
    st.file_failed = cli_each_file(r.args, r.nargs, files, 0, replay_level, &st);
    free(st.steps);
    free(st.history);
    cli_print_summary(files, (struct cli_count[]){{"solutions", st.solutions, false},
                                                  {"solved", st.solved, false},
                                                  {"failed", st.failed, false},
                                                  {NULL, 0, false}});
    return st.failed > 0 || st.file_failed ? 1 : 0;
}
