/* A game: the rules of a step (standard, multi-push and reverse), undo,
 * redo and restart over a history log the caller owns, with incremental
 * counts and a Zobrist hash. */
#include "game.h"
#include "reverse.h"

_Static_assert(SOKO_STEP_PULL == 4u, "SOKO_STEP_PULL must equal SOKO_LURD_PUSH");

/* Squares a player can never stand on and a box can never be pushed onto. */
#define BLOCKS_PLAYER (SOKO_WALL | SOKO_OUTSIDE)
#define BLOCKS_BOX (SOKO_WALL | SOKO_OUTSIDE | SOKO_BOX)

/* The entry field holds 13 bits of pushed boxes. */
#define MAX_PUSHED 0x1FFFu

/* What a step in one direction would do from the current position. */
typedef struct step_plan {
    soko_cell to;       /* the player's new square */
    soko_cell box_from; /* the square the moved box leaves (a line's near end) */
    soko_cell box_to;   /* where the far end of the pushed line lands */
    unsigned pushed;    /* boxes moved, 0 for a plain move */
} step_plan;

static soko_cell neighbour(const soko_game *g, soko_cell c, int d)
{
    uint32_t w = g->level->width, h = g->level->height;
    if (c == SOKO_NO_CELL || (uint32_t)c >= w * h)
        return SOKO_NO_CELL;
    uint32_t x = c % w, y = c / w;
    switch (d) {
    case SOKO_UP:
        return y > 0 ? (soko_cell)(c - w) : SOKO_NO_CELL;
    case SOKO_RIGHT:
        return x + 1 < w ? (soko_cell)(c + 1) : SOKO_NO_CELL;
    case SOKO_DOWN:
        return y + 1 < h ? (soko_cell)(c + w) : SOKO_NO_CELL;
    default:
        return x > 0 ? (soko_cell)(c - 1) : SOKO_NO_CELL;
    }
}

static bool blocked(const soko_game *g, soko_cell c, uint8_t mask)
{
    return c == SOKO_NO_CELL || (g->cell[c] & mask) != 0;
}

/* Works out a step of a reverse game: a box ahead blocks the player, and a
 * pull brings the box behind the player onto the square it leaves. */
static int plan_reverse(const soko_game *g, int d, bool pull, step_plan *plan)
{
    if ((g->cell[plan->to] & SOKO_BOX) != 0)
        return SOKO_E_BLOCKED;
    if (!pull)
        return SOKO_MOVED;
    soko_cell behind = neighbour(g, g->player, d ^ 2);
    if (behind == SOKO_NO_CELL || (g->cell[behind] & SOKO_BOX) == 0)
        return SOKO_E_BLOCKED;
    plan->box_from = behind;
    plan->box_to = g->player;
    plan->pushed = 1;
    return SOKO_PUSHED;
}

/* Works out a step under the game's rule without changing anything; `pull`
 * matters in a reverse game only. */
static int plan_step(const soko_game *g, int d, bool pull, step_plan *plan)
{
    soko_cell to = neighbour(g, g->player, d);
    if (blocked(g, to, BLOCKS_PLAYER))
        return SOKO_E_WALL;
    plan->to = to;
    plan->box_from = SOKO_NO_CELL;
    plan->box_to = SOKO_NO_CELL;
    plan->pushed = 0;
    if (g->rule == SOKO_RULE_REVERSE)
        return plan_reverse(g, d, pull, plan);
    if ((g->cell[to] & SOKO_BOX) == 0)
        return SOKO_MOVED;
    soko_cell beyond = neighbour(g, to, d);
    unsigned pushed = 1;
    if (g->rule == SOKO_RULE_MULTIPUSH) {
        while (beyond != SOKO_NO_CELL && (g->cell[beyond] & SOKO_BOX) != 0) {
            beyond = neighbour(g, beyond, d);
            pushed++;
        }
    }
    if (blocked(g, beyond, BLOCKS_BOX) || pushed > MAX_PUSHED)
        return SOKO_E_BLOCKED;
    plan->box_from = to;
    plan->box_to = beyond;
    plan->pushed = pushed;
    return SOKO_PUSHED;
}

static void remove_box(soko_game *g, soko_cell c)
{
    g->cell[c] &= (uint8_t)~SOKO_BOX;
    g->hash ^= soko_zobrist(c, 0);
    if (g->cell[c] & SOKO_GOAL)
        g->boxes_on_goal--;
    if (g->level->cell[c] & SOKO_BOX)
        g->boxes_on_start--;
}

static void add_box(soko_game *g, soko_cell c)
{
    g->cell[c] |= SOKO_BOX;
    g->hash ^= soko_zobrist(c, 0);
    if (g->cell[c] & SOKO_GOAL)
        g->boxes_on_goal++;
    if (g->level->cell[c] & SOKO_BOX)
        g->boxes_on_start++;
}

static void move_player(soko_game *g, soko_cell to)
{
    g->hash ^= soko_zobrist(g->player, 1) ^ soko_zobrist(to, 1);
    g->player = to;
}

/* Pushing a line of boxes one square only changes its two ends: the first
 * box's square empties and the square past the last one fills. */
static void apply_plan(soko_game *g, const step_plan *plan)
{
    if (plan->pushed > 0) {
        remove_box(g, plan->box_from);
        add_box(g, plan->box_to);
        g->pushes++;
    }
    move_player(g, plan->to);
    g->moves++;
}

/* Puts boxes, player, counts and hash back to the game's start: the
 * level's start, or for a reverse game a box on every goal and the player
 * on its start square. */
static void reset_position(soko_game *g)
{
    const soko_level *lvl = g->level;
    uint32_t n = (uint32_t)lvl->width * lvl->height;
    __builtin_memcpy(g->cell, lvl->cell, n);
    if (g->rule == SOKO_RULE_REVERSE) {
        for (uint32_t c = 0; c < n; c++) {
            g->cell[c] &= (uint8_t)~SOKO_BOX;
            if (g->cell[c] & SOKO_GOAL)
                g->cell[c] |= SOKO_BOX;
        }
    }
    g->player = g->start;
    g->moves = 0;
    g->pushes = 0;
    g->boxes_on_goal = 0;
    g->boxes_on_start = 0;
    g->hash = soko_zobrist(g->player, 1);
    for (uint32_t c = 0; c < n; c++) {
        if (g->cell[c] & SOKO_BOX) {
            g->hash ^= soko_zobrist((soko_cell)c, 0);
            if (g->cell[c] & SOKO_GOAL)
                g->boxes_on_goal++;
            if (lvl->cell[c] & SOKO_BOX)
                g->boxes_on_start++;
        }
    }
}

/* Re-applies a recorded step; refuses (changing nothing) an entry that does
 * not fit the position, which only a damaged history can hold. */
static int replay_entry(soko_game *g, soko_entry_t e)
{
    if (e == SOKO_ENTRY_RESTART) {
        reset_position(g);
        return SOKO_OK;
    }
    step_plan plan;
    if (plan_step(g, SOKO_ENTRY_DIR(e), SOKO_ENTRY_PUSHED(e) > 0, &plan) < 0 ||
        plan.pushed != SOKO_ENTRY_PUSHED(e))
        return SOKO_E_RANGE;
    apply_plan(g, &plan);
    return SOKO_OK;
}

/* Appends an entry at the cursor, dropping the redo stack. */
static int record(soko_game *g, soko_entry_t e)
{
    if (g->cursor >= g->history_cap)
        return SOKO_E_FULL;
    g->history[g->cursor++] = e;
    g->history_len = g->cursor;
    return SOKO_OK;
}

SOKO_EXPORT("soko_game_init")
void soko_game_init(soko_game *g, const soko_level *lvl, int rule, soko_entry_t *history,
                    uint32_t cap)
{
    __builtin_memset(g, 0, sizeof *g);
    g->level = lvl;
    g->rule = rule == SOKO_RULE_MULTIPUSH || rule == SOKO_RULE_REVERSE ? (uint8_t)rule
                                                                       : SOKO_RULE_STANDARD;
    g->start = g->rule == SOKO_RULE_REVERSE ? soko_reverse_default_start(lvl) : lvl->player;
    if (g->rule == SOKO_RULE_REVERSE)
        soko_reverse_home_region(lvl, g->home);
    g->history = history;
    g->history_cap = history != NULL ? cap : 0;
    reset_position(g);
}

/* Plans, records and applies one step. */
static int take_step(soko_game *g, int d, bool pull)
{
    if (d < SOKO_UP || d > SOKO_LEFT)
        return SOKO_E_RANGE;
    step_plan plan;
    int result = plan_step(g, d, pull, &plan);
    if (result < 0)
        return result;
    int rc = record(g, (soko_entry_t)((plan.pushed << 2) | (unsigned)d));
    if (rc < 0)
        return rc;
    apply_plan(g, &plan);
    return result;
}

SOKO_EXPORT("soko_game_step")
int soko_game_step(soko_game *g, int d)
{
    return take_step(g, d, false);
}

SOKO_EXPORT("soko_game_pull")
int soko_game_pull(soko_game *g, int d)
{
    if (g->rule != SOKO_RULE_REVERSE)
        return SOKO_E_RANGE;
    return take_step(g, d, true);
}

SOKO_EXPORT("soko_game_play")
int soko_game_play(soko_game *g, unsigned step)
{
    if (step > (SOKO_STEP_PULL | 3u))
        return SOKO_E_RANGE;
    bool pull = g->rule == SOKO_RULE_REVERSE && (step & SOKO_STEP_PULL) != 0;
    return take_step(g, (int)(step & 3u), pull);
}

SOKO_EXPORT("soko_game_set_start")
int soko_game_set_start(soko_game *g, soko_cell c)
{
    if (g->rule != SOKO_RULE_REVERSE || g->history_len != 0 ||
        !soko_reverse_start_allowed(g->level, c))
        return SOKO_E_RANGE;
    g->start = c;
    reset_position(g);
    return SOKO_OK;
}

/* Takes back a pull: the player returns against the step's direction and
 * the box on the square it returns to goes back one more square. */
static int unapply_pull(soko_game *g, int d)
{
    soko_cell from = neighbour(g, g->player, d ^ 2);
    soko_cell back = neighbour(g, from, d ^ 2);
    if (from == SOKO_NO_CELL || back == SOKO_NO_CELL || (g->cell[from] & SOKO_BOX) == 0 ||
        (g->cell[back] & BLOCKS_BOX) != 0)
        return SOKO_E_RANGE;
    remove_box(g, from);
    add_box(g, back);
    g->pushes--;
    move_player(g, from);
    g->moves--;
    return SOKO_OK;
}

/* Takes back one step: the player returns against the step's direction and
 * the far end of the pushed line comes back to the player's square. */
static int unapply_step(soko_game *g, soko_entry_t e)
{
    int d = SOKO_ENTRY_DIR(e);
    unsigned pushed = SOKO_ENTRY_PUSHED(e);
    if (g->rule == SOKO_RULE_REVERSE && pushed > 0)
        return pushed == 1 ? unapply_pull(g, d) : SOKO_E_RANGE;
    soko_cell from = neighbour(g, g->player, d ^ 2);
    soko_cell last = g->player;
    for (unsigned i = 0; i < pushed && last != SOKO_NO_CELL; i++)
        last = neighbour(g, last, d);
    if (from == SOKO_NO_CELL || last == SOKO_NO_CELL)
        return SOKO_E_RANGE;
    if (pushed > 0) {
        if ((g->cell[last] & SOKO_BOX) == 0 || (g->cell[g->player] & SOKO_BOX) != 0)
            return SOKO_E_RANGE;
        remove_box(g, last);
        add_box(g, g->player);
        g->pushes--;
    }
    move_player(g, from);
    g->moves--;
    return SOKO_OK;
}

/* Rebuilds the position before the restart at history[at]: the start, then
 * every step after the previous applied restart. */
static int unapply_restart(soko_game *g, uint32_t at)
{
    uint32_t from = at;
    while (from > 0 && g->history[from - 1] != SOKO_ENTRY_RESTART)
        from--;
    reset_position(g);
    for (uint32_t i = from; i < at; i++) {
        if (replay_entry(g, g->history[i]) < 0)
            return SOKO_E_RANGE;
    }
    return SOKO_OK;
}

SOKO_EXPORT("soko_game_undo")
int soko_game_undo(soko_game *g)
{
    if (g->cursor == 0)
        return SOKO_E_NOTHING;
    soko_entry_t e = g->history[g->cursor - 1];
    int rc = e == SOKO_ENTRY_RESTART ? unapply_restart(g, g->cursor - 1) : unapply_step(g, e);
    if (rc < 0)
        return rc;
    g->cursor--;
    return SOKO_OK;
}

SOKO_EXPORT("soko_game_redo")
int soko_game_redo(soko_game *g)
{
    if (g->cursor >= g->history_len)
        return SOKO_E_NOTHING;
    int rc = replay_entry(g, g->history[g->cursor]);
    if (rc < 0)
        return rc;
    g->cursor++;
    return SOKO_OK;
}

/* With no step since the start or the last restart the position already is
 * the start: recording a restart then would only throw away the redo stack
 * of a player who has just undone back to the start. */
SOKO_EXPORT("soko_game_restart")
int soko_game_restart(soko_game *g)
{
    if (g->moves == 0)
        return SOKO_OK;
    int rc = record(g, SOKO_ENTRY_RESTART);
    if (rc < 0)
        return rc;
    reset_position(g);
    return SOKO_OK;
}

SOKO_EXPORT("soko_game_solved")
bool soko_game_solved(const soko_game *g)
{
    if (g->rule == SOKO_RULE_REVERSE)
        return g->boxes_on_start == g->level->boxes &&
               ((g->home[g->player / 8] >> (g->player % 8)) & 1u) != 0;
    return g->boxes_on_goal == g->level->boxes;
}

SOKO_EXPORT("soko_game_redo_count")
uint32_t soko_game_redo_count(const soko_game *g)
{
    return g->history_len - g->cursor;
}

SOKO_EXPORT("soko_game_max_history")
uint32_t soko_game_max_history(void)
{
    return SOKO_MAX_HISTORY;
}

SOKO_EXPORT("soko_zobrist")
uint64_t soko_zobrist(soko_cell c, int kind)
{
    return soko_mix64(((uint64_t)(kind != 0 ? 2 : 1) << 32) | c);
}
