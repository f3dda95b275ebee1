/* From box moves to steps: for each move, the fewest pushes that bring the
 * box from its square to its target with the player walking the shortest
 * way between pushes; then every step is replayed on the core, which writes
 * the LURD text and checks that the solution is one. */
#include "internal.h"
#include "lurd.h"

#include <stdlib.h>
#include <string.h>

typedef struct steps {
    uint8_t *dir;
    uint32_t n, cap;
} steps;

typedef struct builder {
    const solver_board *b;
    uint16_t *occ;   /* 1 where a box stands */
    uint16_t player; /* the player's square */
    uint16_t *prev;  /* walk search: the square each square was reached from */
    uint8_t *how;    /* ...and in which direction */
    uint32_t *seen;  /* walk search stamps */
    uint32_t stamp;
    uint16_t *queue;
    solver_boxpath path;
    steps out;
} builder;

static int append(steps *s, uint8_t dir)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 256;
        uint8_t *grown = realloc(s->dir, cap);
        if (grown == NULL)
            return -1;
        s->dir = grown;
        s->cap = cap;
    }
    s->dir[s->n++] = dir;
    return 0;
}

/* Appends the shortest walk of the player to `target`, around the boxes and
 * a box on `extra`. Returns 0, or -1 when there is none or memory runs out. */
static int walk(builder *bd, uint16_t target, uint16_t extra)
{
    const solver_board *b = bd->b;
    bd->stamp++;
    uint32_t head = 0, tail = 0;
    bd->seen[bd->player] = bd->stamp;
    bd->queue[tail++] = bd->player;
    while (head < tail && bd->seen[target] != bd->stamp) {
        uint16_t s = bd->queue[head++];
        for (int d = 0; d < 4; d++) {
            uint16_t t = b->nb[s * 4 + d];
            if (t == SOLVER_NONE || t == extra || bd->occ[t] || bd->seen[t] == bd->stamp)
                continue;
            bd->seen[t] = bd->stamp;
            bd->prev[t] = s;
            bd->how[t] = (uint8_t)d;
            bd->queue[tail++] = t;
        }
    }
    if (bd->seen[target] != bd->stamp)
        return -1;
    uint32_t len = 0;
    for (uint16_t s = target; s != bd->player; s = bd->prev[s])
        len++;
    for (uint32_t k = 0; k < len; k++)
        if (append(&bd->out, 0) < 0)
            return -1;
    uint32_t at = bd->out.n;
    for (uint16_t s = target; s != bd->player; s = bd->prev[s])
        bd->out.dir[--at] = bd->how[s];
    bd->player = target;
    return 0;
}

/* Appends the steps that push the box on `from` to `to` with the fewest
 * pushes, the player walking the shortest way to each push. */
static int move_box(builder *bd, uint16_t from, uint16_t to, bool first_push_only)
{
    const solver_board *b = bd->b;
    bd->occ[from] = 0;
    uint16_t end;
    int n = solver_boxpath_find(&bd->path, b, bd->occ, from, to, bd->player, &end);
    if (n <= 0) {
        bd->occ[from] = 1;
        return -1;
    }
    uint16_t box = from;
    for (int k = 0; k < n; k++) {
        uint32_t st = bd->path.path[k];
        uint16_t x = (uint16_t)(st / 4);
        int side = (int)(st % 4);
        if (walk(bd, b->nb[x * 4 + side], x) < 0 ||
            append(&bd->out, (uint8_t)((side ^ 2) | SOKO_LURD_PUSH)) < 0)
            return -1;
        bd->player = x;
        box = b->nb[x * 4 + (side ^ 2)];
        if (first_push_only)
            break;
    }
    bd->occ[box] = 1;
    return 0;
}

/* Plays the steps on a game from the start, which counts them and writes
 * the LURD; the solution must end solved unless only a hint was asked. */
static int replay(const steps *st, const soko_level *start, bool first_push_only,
                  solver_result *out)
{
    soko_game *g = malloc(sizeof *g);
    soko_entry_t *history = malloc(((size_t)st->n + 1) * sizeof *history);
    char *text = malloc((size_t)st->n + 1);
    int rc = g != NULL && history != NULL && text != NULL ? 0 : -1;
    if (rc == 0) {
        soko_game_init(g, start, SOKO_RULE_STANDARD, history, st->n + 1);
        for (uint32_t k = 0; k < st->n && rc == 0; k++) {
            int r = soko_game_step(g, st->dir[k] & 3);
            bool push = (st->dir[k] & SOKO_LURD_PUSH) != 0;
            if (r < 0 || (r == SOKO_PUSHED) != push)
                rc = -1;
        }
        if (rc == 0 && !first_push_only && !soko_game_solved(g))
            rc = -1;
    }
    if (rc == 0) {
        int32_t len = soko_lurd_encode(g, text, st->n + 1);
        if (len < 0) {
            rc = -1;
        } else {
            text[len] = '\0';
            out->lurd = text;
            out->moves = g->moves;
            out->pushes = g->pushes;
            text = NULL;
        }
    }
    free(text);
    free(history);
    free(g);
    return rc;
}

int solver_solution_build(const solver_board *b, const soko_level *start, const uint16_t *from,
                          const uint16_t *to, uint32_t n, bool first_push_only, solver_result *out)
{
    builder bd;
    memset(&bd, 0, sizeof bd);
    bd.b = b;
    uint32_t nsq = b->nsq;
    bd.occ = calloc(nsq + 1, sizeof *bd.occ);
    bd.prev = malloc((nsq + 1) * sizeof *bd.prev);
    bd.how = malloc(nsq + 1);
    bd.seen = calloc(nsq + 1, sizeof *bd.seen);
    bd.queue = malloc((nsq + 1) * sizeof *bd.queue);
    int rc = solver_boxpath_init(&bd.path, b);
    if (!bd.occ || !bd.prev || !bd.how || !bd.seen || !bd.queue)
        rc = -1;
    if (rc == 0) {
        for (uint32_t s = 0; s < nsq; s++)
            bd.occ[s] = (start->cell[b->cell[s]] & SOKO_BOX) != 0;
        bd.player = b->square[start->player];
        for (uint32_t k = 0; k < n && rc == 0; k++) {
            rc = move_box(&bd, from[k], to[k], first_push_only);
            if (first_push_only)
                break;
        }
    }
    if (rc == 0)
        rc = replay(&bd.out, start, first_push_only, out);
    free(bd.occ);
    free(bd.prev);
    free(bd.how);
    free(bd.seen);
    free(bd.queue);
    solver_boxpath_free(&bd.path);
    free(bd.out.dir);
    return rc;
}
