/* The generator's driver: rooms and goals chosen by the seed, the pull
 * search on each, the best candidate written as a level, its solution
 * replayed on the core, and (when asked) checked by the solver. */
#include "gen_internal.h"
#include "soko.h"
#include "solver.h"

#include <stdlib.h>
#include <string.h>

/* Rooms tried at most, as a multiple of the candidates asked, while none
 * reaches the minimum score or gives a level at all. */
#define ATTEMPTS_FACTOR 8

static const char *const shape_names[GEN_SHAPE_COUNT] = {"any", "open", "rooms", "cave", "tiles"};

const char *gen_shape_name(int shape)
{
    return shape >= 0 && shape < GEN_SHAPE_COUNT ? shape_names[shape] : NULL;
}

int gen_shape_from_name(const char *name)
{
    for (int i = 0; i < GEN_SHAPE_COUNT; i++) {
        if (strcmp(name, shape_names[i]) == 0)
            return i;
    }
    return -1;
}

const char *gen_error_name(int code)
{
    switch (code) {
    case GEN_OK:
        return "ok";
    case GEN_E_OPTIONS:
        return "a size, box count or shape out of bounds";
    case GEN_E_MEMORY:
        return "out of memory";
    case GEN_E_NOT_FOUND:
        return "no room gave a level (an area too small for the boxes, or a minimum score too "
               "high)";
    default:
        return "the generated level did not replay (a bug)";
    }
}

void gen_options_default(gen_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->seed = 1;
    opt->width = 12;
    opt->height = 12;
    opt->boxes = 3;
    opt->shape = GEN_SHAPE_ANY;
    opt->candidates = 4;
    opt->node_limit = 300000;
}

void gen_level_free(gen_level *lvl)
{
    free(lvl->board);
    free(lvl->solution);
    memset(lvl, 0, sizeof *lvl);
    lvl->solver_status = -1;
}

/* Chooses `k` distinct floor cells for the goals: scattered, or (one time
 * in three) gathered around one cell, as in a store room. Returns false
 * when the room has too little floor. */
static bool place_goals(const gen_room *room, gen_rng *r, uint16_t k, uint16_t *goal)
{
    uint16_t floor[GEN_MAX_CELLS];
    uint32_t n = 0, cells = (uint32_t)room->width * room->height;
    for (uint32_t c = 0; c < cells; c++) {
        if (room->floor[c])
            floor[n++] = (uint16_t)c;
    }
    if (n < (uint32_t)k * 3 + 4)
        return false;
    if (gen_rng_below(r, 3) == 0) {
        /* Breadth first from a random cell, taking cells as met, each with
         * a chance of two in three. */
        static const int8_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        uint8_t seen[GEN_MAX_CELLS] = {0};
        uint16_t queue[GEN_MAX_CELLS];
        uint32_t head = 0, tail = 0, got = 0;
        queue[tail++] = floor[gen_rng_below(r, n)];
        seen[queue[0]] = 1;
        while (head < tail && got < k) {
            uint16_t c = queue[head++];
            if (gen_rng_below(r, 3) != 0)
                goal[got++] = c;
            int x = c % room->width, y = c / room->width;
            for (int d = 0; d < 4; d++) {
                uint32_t nc = (uint32_t)(y + dy[d]) * room->width + (uint32_t)(x + dx[d]);
                if (room->floor[nc] && !seen[nc]) {
                    seen[nc] = 1;
                    queue[tail++] = (uint16_t)nc;
                }
            }
        }
        if (got == k)
            return true;
    }
    /* A partial shuffle of the floor cells. */
    for (uint16_t i = 0; i < k; i++) {
        uint32_t j = i + gen_rng_below(r, n - i);
        uint16_t t = floor[i];
        floor[i] = floor[j];
        floor[j] = t;
        goal[i] = floor[i];
    }
    return true;
}

typedef struct candidate {
    gen_room room;
    uint16_t goal[GEN_MAX_BOXES];
    gen_found found;
} candidate;

/* Writes the candidate as text rows cropped to its walls: walls only where
 * they touch floor, spaces outside. Returns the text (malloc) or NULL; sets
 * the crop's corner and size. */
static char *board_text(const candidate *c, int *x0, int *y0, int *cw, int *ch)
{
    const gen_room *room = &c->room;
    int minx = room->width, miny = room->height, maxx = 0, maxy = 0;
    for (int y = 0; y < room->height; y++) {
        for (int x = 0; x < room->width; x++) {
            if (!room->floor[y * room->width + x])
                continue;
            minx = x < minx ? x : minx;
            maxx = x > maxx ? x : maxx;
            miny = y < miny ? y : miny;
            maxy = y > maxy ? y : maxy;
        }
    }
    *x0 = minx - 1;
    *y0 = miny - 1;
    *cw = maxx - minx + 3;
    *ch = maxy - miny + 3;
    char *text = malloc((size_t)(*cw + 1) * (size_t)*ch + 1);
    if (text == NULL)
        return NULL;
    size_t len = 0;
    for (int y = *y0; y < *y0 + *ch; y++) {
        for (int x = *x0; x < *x0 + *cw; x++) {
            int cell = y * room->width + x;
            char ch8 = ' ';
            if (room->floor[cell]) {
                bool goal = false, box = false;
                for (uint16_t b = 0; b < GEN_MAX_BOXES && c->goal[b] != 0xFFFF; b++) {
                    goal |= c->goal[b] == cell;
                    box |= c->found.box[b] == cell;
                }
                if (c->found.player == cell)
                    ch8 = goal ? '+' : '@';
                else if (box)
                    ch8 = goal ? '*' : '$';
                else
                    ch8 = goal ? '.' : ' ';
            } else {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx, ny = y + dy;
                        if (nx >= 0 && ny >= 0 && nx < room->width && ny < room->height &&
                            room->floor[ny * room->width + nx])
                            ch8 = '#';
                    }
                }
            }
            text[len++] = ch8;
        }
        text[len++] = '\n';
    }
    text[len] = '\0';
    return text;
}

/* Plays the candidate's solution on the core from the parsed level: walks
 * by the core's shortest paths, then each push. Fills the level's solution
 * and counts. Returns GEN_OK or GEN_E_VERIFY / GEN_E_MEMORY. */
static int replay(const candidate *c, const soko_level *lvl, int x0, int y0, gen_level *out)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    uint32_t cap = 1u << 16;
    soko_game *g = malloc(sizeof *g);
    soko_entry_t *history = malloc(sizeof *history * cap);
    soko_path_scratch *scratch = calloc(1, sizeof *scratch);
    uint8_t *dirs = malloc(SOKO_MAX_CELLS);
    int rc =
        g != NULL && history != NULL && scratch != NULL && dirs != NULL ? GEN_OK : GEN_E_MEMORY;
    if (rc == GEN_OK)
        soko_game_init(g, lvl, SOKO_RULE_STANDARD, history, cap);
    for (uint32_t i = 0; rc == GEN_OK && i < c->found.pushes; i++) {
        const gen_push *p = &c->found.push[i];
        int bx = p->from % c->room.width - x0, by = p->from / c->room.width - y0;
        int d = p->dir;
        int px = bx - dx[d], py = by - dy[d];
        soko_cell target = (soko_cell)(py * lvl->width + px);
        int32_t n = soko_path_walk(g, target, scratch, dirs, SOKO_MAX_CELLS);
        if (n < 0) {
            rc = GEN_E_VERIFY;
            break;
        }
        for (int32_t j = 0; j < n && rc == GEN_OK; j++) {
            if (soko_game_step(g, dirs[j]) != SOKO_MOVED)
                rc = GEN_E_VERIFY;
        }
        if (rc == GEN_OK && soko_game_step(g, d) != SOKO_PUSHED)
            rc = GEN_E_VERIFY;
    }
    if (rc == GEN_OK && !soko_game_solved(g))
        rc = GEN_E_VERIFY;
    if (rc == GEN_OK) {
        out->solution = malloc(g->moves + 1u);
        int32_t len =
            out->solution != NULL ? soko_lurd_encode(g, out->solution, g->moves + 1u) : -1;
        if (len < 0) {
            rc = out->solution == NULL ? GEN_E_MEMORY : GEN_E_VERIFY;
        } else {
            out->solution[len] = '\0';
            out->moves = g->moves;
            out->pushes = g->pushes;
        }
    }
    free(g);
    free(history);
    free(scratch);
    free(dirs);
    return rc;
}

/* Turns the best candidate into the level: text, parse, replay, check. */
static int finish(const candidate *c, const gen_options *opt, gen_level *out)
{
    int x0, y0, cw, ch;
    char *text = board_text(c, &x0, &y0, &cw, &ch);
    soko_level *lvl = malloc(sizeof *lvl);
    int rc = text != NULL && lvl != NULL ? GEN_OK : GEN_E_MEMORY;
    soko_error err;
    if (rc == GEN_OK && (soko_level_parse(lvl, text, (uint32_t)strlen(text), 1, &err) != SOKO_OK ||
                         lvl->width != cw || lvl->height != ch))
        rc = GEN_E_VERIFY;
    if (rc == GEN_OK) {
        uint32_t cap = (uint32_t)(cw + 1) * (uint32_t)ch + 1;
        out->board = malloc(cap);
        int32_t len = out->board != NULL ? soko_level_write(lvl, false, out->board, cap) : -1;
        if (len < 0)
            rc = out->board == NULL ? GEN_E_MEMORY : GEN_E_VERIFY;
        else
            out->board[len] = '\0';
    }
    if (rc == GEN_OK)
        rc = replay(c, lvl, x0, y0, out);
    if (rc == GEN_OK) {
        out->width = lvl->width;
        out->height = lvl->height;
        out->boxes = lvl->boxes;
        out->shape = c->room.shape;
        out->box_lines = c->found.box_lines;
        out->box_changes = c->found.box_changes;
        out->effort = c->found.effort;
        out->score = c->found.score;
    }
    if (rc == GEN_OK && opt->verify_nodes > 0) {
        /* A check only: the solver's answer never changes which level comes
         * out, so the level does not depend on the solver's version. */
        solver_options so;
        solver_options_default(&so);
        so.node_limit = opt->verify_nodes;
        solver_result r;
        solver_solve_level(lvl, &so, &r);
        out->solver_status = r.status;
        out->solver_nodes = r.nodes;
        if (r.status == SOLVER_UNSOLVABLE)
            rc = GEN_E_VERIFY;
        solver_result_free(&r);
    }
    free(text);
    free(lvl);
    return rc;
}

int gen_generate(const gen_options *opt, gen_level *out)
{
    memset(out, 0, sizeof *out);
    out->solver_status = -1;
    if (opt->width < GEN_MIN_SIDE || opt->width > GEN_MAX_SIDE || opt->height < GEN_MIN_SIDE ||
        opt->height > GEN_MAX_SIDE || opt->boxes < 1 || opt->boxes > GEN_MAX_BOXES ||
        opt->shape >= GEN_SHAPE_COUNT || opt->node_limit < 1)
        return GEN_E_OPTIONS;
    candidate *best = calloc(1, sizeof *best);
    candidate *cur = calloc(1, sizeof *cur);
    if (best == NULL || cur == NULL) {
        free(best);
        free(cur);
        return GEN_E_MEMORY;
    }
    gen_rng rng;
    gen_rng_seed(&rng, opt->seed);
    uint32_t wanted = opt->candidates > 0 ? opt->candidates : 1;
    uint32_t attempts = wanted * ATTEMPTS_FACTOR;
    bool have = false;
    int rc = GEN_OK;
    uint32_t tried = 0;
    for (; tried < attempts && rc == GEN_OK; tried++) {
        if (tried >= wanted && have && best->found.score >= opt->min_score)
            break;
        int shape = opt->shape != GEN_SHAPE_ANY
                        ? opt->shape
                        : (int)gen_rng_range(&rng, GEN_SHAPE_OPEN, GEN_SHAPE_COUNT - 1);
        gen_room_carve(&cur->room, &rng, opt->width, opt->height, shape);
        memset(cur->goal, 0xFF, sizeof cur->goal);
        if (!place_goals(&cur->room, &rng, opt->boxes, cur->goal))
            continue;
        int found = gen_search(&cur->room, cur->goal, opt->boxes, opt->node_limit, &cur->found);
        if (found == GEN_E_MEMORY)
            rc = GEN_E_MEMORY;
        if (found != GEN_OK)
            continue;
        if (!have || cur->found.score > best->found.score) {
            free(best->found.push);
            candidate *t = best;
            best = cur;
            cur = t;
            cur->found.push = NULL;
            have = true;
        } else {
            free(cur->found.push);
            cur->found.push = NULL;
        }
    }
    if (rc == GEN_OK && (!have || best->found.score < opt->min_score))
        rc = GEN_E_NOT_FOUND;
    if (rc == GEN_OK)
        rc = finish(best, opt, out);
    if (rc == GEN_OK)
        out->rooms = tried;
    free(best->found.push);
    free(best);
    free(cur->found.push);
    free(cur);
    if (rc != GEN_OK)
        gen_level_free(out);
    return rc;
}
