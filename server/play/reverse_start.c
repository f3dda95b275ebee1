/* Reverse games on the server: the start square a player asks for. */
#include "play/reverse_start.h"

#include "http/body.h"
#include "storage/storage.h"
#include "storage/storage_levels.h"

#include <stdlib.h>
#include <string.h>

struct start_check {
    int32_t cell;
    uint32_t x, y;
    bool allowed;
    bool parsed;
};

static int check_level(void *arg, const struct storage_level *l)
{
    struct start_check *k = arg;
    soko_level *lvl = malloc(sizeof *lvl);
    const char *board = l->board != NULL ? l->board : "";
    if (lvl == NULL)
        return 1;
    k->parsed = soko_level_parse(lvl, board, (uint32_t)strlen(board), 1, NULL) == SOKO_OK;
    if (k->parsed && k->x < lvl->width && k->y < lvl->height) {
        k->cell = (int32_t)(k->y * lvl->width + k->x);
        k->allowed = soko_reverse_start_allowed(lvl, (soko_cell)k->cell);
    }
    free(lvl);
    return 0;
}

bool reverse_read_start(struct http_conn *c, int64_t level, int rule, json_t *obj, int32_t *cell,
                        int *result)
{
    if (rule != SOKO_RULE_REVERSE) {
        *result = reply_error(c, API_E_INVALID_VALUE,
                              "'start' is a reverse game's (rule 2) square, not rule %d's", rule);
        return false;
    }
    json_int_t x = 0, y = 0;
    struct body_field spec[] = {body_integer("x", &x), body_integer("y", &y), body_end()};
    if (!body_check(c, obj, "start", spec, result))
        return false;
    struct start_check k = {.cell = -1};
    int status = STORAGE_OK;
    if (x >= 0 && y >= 0 && x < SOKO_MAX_WIDTH && y < SOKO_MAX_HEIGHT) {
        k.x = (uint32_t)x;
        k.y = (uint32_t)y;
        status = storage_level_get(level, 0, check_level, &k);
    }
    if (status == STORAGE_NOT_FOUND) {
        *result = reply_error(c, API_E_LEVEL_NOT_FOUND, "there is no level %lld", (long long)level);
        return false;
    }
    if (status != STORAGE_OK) {
        *result = reply_storage_failure(c, status);
        return false;
    }
    if (!k.allowed) {
        *result = reply_error(c, API_E_INVALID_VALUE,
                              "the player cannot start on (%lld, %lld): a start is a square "
                              "inside the level's walls without a goal",
                              (long long)x, (long long)y);
        return false;
    }
    *cell = k.cell;
    return true;
}
