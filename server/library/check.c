/* Checking level files: each format is read into the same report, every
 * board goes through the core's checks, duplicates are found by canonical
 * hash in the file and in the library, and solutions are replayed. */
#include "library/check.h"

#include "base/utf8.h"
#include "library/slc.h"
#include "storage/storage_admin.h"

#include "pack.h"
#include "soko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The longest solution replayed, in steps. */
#define MAX_STEPS (1u << 20)
#define BOARD_TEXT_CAP (SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 1)

/* Scratch space of one check. */
struct checker {
    struct check_report *r;
    size_t cap;
    soko_level *lvl;
    char *board;
    /* For replays, allocated at the first solution. */
    soko_game *game;
    uint8_t *steps;
    soko_entry_t *history;
    char *lurd;
    bool oom;
    /* Steps the solutions may still take, decoded and replayed; UINT64_MAX
     * when the check has no budget. */
    uint64_t steps_left;
    uint64_t step_budget;
};

/* The formats by name, for both directions. */
static const struct {
    const char *name;
    enum check_format format;
} format_names[] = {{"auto", CHECK_FORMAT_AUTO},
                    {"text", CHECK_FORMAT_TEXT},
                    {"slc", CHECK_FORMAT_SLC},
                    {"pack", CHECK_FORMAT_PACK}};

const char *check_format_name(enum check_format f)
{
    /* A file not yet read as one format or another is read as text. */
    if (f == CHECK_FORMAT_AUTO)
        f = CHECK_FORMAT_TEXT;
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++) {
        if (format_names[i].format == f)
            return format_names[i].name;
    }
    return "text";
}

bool check_format_parse(const char *name, enum check_format *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++) {
        if (strcmp(name, format_names[i].name) == 0) {
            *out = format_names[i].format;
            return true;
        }
    }
    return false;
}

const char *check_solver_name(enum check_solver s)
{
    switch (s) {
    case CHECK_SOLVER_PENDING:
        return "pending";
    case CHECK_SOLVER_RUNNING:
        return "running";
    case CHECK_SOLVER_SOLVABLE:
        return "solvable";
    case CHECK_SOLVER_UNSOLVABLE:
        return "unsolvable";
    case CHECK_SOLVER_UNKNOWN:
        return "unknown";
    case CHECK_SOLVER_OVER_BUDGET:
        return "over_budget";
    case CHECK_SOLVER_NONE:
        break;
    }
    return NULL;
}

/* The format of a file from its first bytes. */
static enum check_format sniff(const char *data, size_t len)
{
    if (len >= 4 && memcmp(data, "SKBN", 4) == 0)
        return CHECK_FORMAT_PACK;
    size_t i = 0;
    while (i + 3 <= len && memcmp(data + i, "\xEF\xBB\xBF", 3) == 0)
        i += 3;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    return i < len && data[i] == '<' ? CHECK_FORMAT_SLC : CHECK_FORMAT_TEXT;
}

static char *copy_or_flag(struct checker *k, char *s)
{
    if (s == NULL)
        k->oom = true;
    return s;
}

static char *text_line(struct checker *k, const char *s, size_t len)
{
    return copy_or_flag(k, utf8_copy_line(s, len));
}

static char *text_block(struct checker *k, const char *s, size_t len)
{
    while (len > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
        s++;
        len--;
    }
    while (len > 0 &&
           (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' || s[len - 1] == '\n'))
        len--;
    return copy_or_flag(k, utf8_copy(s, len));
}

static struct check_level *new_level(struct checker *k, uint32_t number, uint32_t line)
{
    struct check_report *r = k->r;
    if (r->nlevels == k->cap) {
        size_t cap = k->cap == 0 ? 64 : k->cap * 2;
        struct check_level *bigger = realloc(r->levels, cap * sizeof *bigger);
        if (bigger == NULL) {
            k->oom = true;
            return NULL;
        }
        r->levels = bigger;
        k->cap = cap;
    }
    struct check_level *l = &r->levels[r->nlevels++];
    memset(l, 0, sizeof *l);
    l->number = number;
    l->line = line;
    return l;
}

static void set_problem(struct check_problem *p, const soko_error *err, uint32_t line, uint32_t col)
{
    p->line = line;
    p->col = col;
    p->code = soko_error_name(err->code);
    snprintf(p->message, sizeof p->message, "%s", err->message);
}

/* Parses a board; a valid one fills the level's board, sizes and hash.
 * Returns the core's code; on error *err says why (in the text's terms). */
static int check_board(struct checker *k, struct check_level *l, const char *text, size_t len,
                       uint32_t first_line, soko_error *err)
{
    memset(err, 0, sizeof *err);
    int rc = soko_level_parse(k->lvl, text, (uint32_t)len, first_line, err);
    if (rc != SOKO_OK) {
        l->valid = false;
        set_problem(&l->error, err, err->line != 0 ? err->line : first_line, err->col);
        return rc;
    }
    int32_t n = soko_level_write(k->lvl, false, k->board, BOARD_TEXT_CAP);
    if (n < 0) {
        soko_error_set(err, SOKO_E_TOO_BIG, first_line, 0, "the board cannot be written back");
        l->valid = false;
        set_problem(&l->error, err, first_line, 0);
        return SOKO_E_TOO_BIG;
    }
    l->board = copy_or_flag(k, strndup(k->board, (size_t)n));
    l->valid = true;
    l->width = k->lvl->width;
    l->height = k->lvl->height;
    l->boxes = k->lvl->boxes;
    l->hash = soko_level_canonical_hash(k->lvl);
    return SOKO_OK;
}

static bool replay_buffers(struct checker *k)
{
    if (k->game != NULL)
        return true;
    k->game = malloc(sizeof *k->game);
    k->steps = malloc(MAX_STEPS);
    k->history = malloc(MAX_STEPS * sizeof *k->history);
    k->lurd = malloc(MAX_STEPS + 1);
    if (k->game != NULL && k->steps != NULL && k->history != NULL && k->lurd != NULL)
        return true;
    k->oom = true;
    return false;
}

const char *check_step_words(int code)
{
    switch (code) {
    case SOKO_E_WALL:
        return "the player walks into a wall";
    case SOKO_E_BLOCKED:
        return "the box cannot move there";
    case SOKO_E_FULL:
        return "the solution is too long";
    default:
        return soko_error_name(code);
    }
}

static void over_budget(const struct checker *k, struct check_solution *s)
{
    s->result = CHECK_SOLUTION_OVER_BUDGET;
    snprintf(s->message, sizeof s->message,
             "not checked: over budget (the solutions of one file are replayed up to %llu "
             "steps in all)",
             (unsigned long long)k->step_budget);
}

/* Decodes a solution into k->steps within what is left of the budget, and
 * charges it: the steps decoded, or all that was left when the decoding
 * failed (it may have expanded that much before it did). Returns the
 * steps, or -1 after setting the solution's result. */
static int32_t decode_within_budget(struct checker *k, struct check_solution *s, const char *moves,
                                    size_t len)
{
    if (k->steps_left == 0) {
        over_budget(k, s);
        return -1;
    }
    uint32_t cap = k->steps_left < MAX_STEPS ? (uint32_t)k->steps_left : MAX_STEPS;
    soko_error err = {0};
    int32_t n = soko_lurd_decode(moves, (uint32_t)len, s->line, k->steps, cap, &err);
    if (k->steps_left != UINT64_MAX)
        k->steps_left -= n >= 0 ? (uint64_t)n : cap;
    if (n >= 0)
        return n;
    if (err.code == SOKO_E_FULL && cap < MAX_STEPS) {
        over_budget(k, s);
        return -1;
    }
    s->result = CHECK_SOLUTION_UNREADABLE;
    s->line = err.line;
    s->col = err.col;
    snprintf(s->message, sizeof s->message, "%s", err.message);
    return -1;
}

/* Replays one solution on the level just parsed (k->lvl), when valid. */
static void replay(struct checker *k, const struct check_level *l, struct check_solution *s,
                   const char *moves, size_t len)
{
    if (!l->valid) {
        s->result = CHECK_SOLUTION_NOT_PLAYED;
        snprintf(s->message, sizeof s->message, "not played: the level is invalid");
        return;
    }
    if (!replay_buffers(k))
        return;
    int32_t n = decode_within_budget(k, s, moves, len);
    if (n < 0)
        return;
    soko_game_init(k->game, k->lvl, SOKO_RULE_STANDARD, k->history, MAX_STEPS);
    uint32_t failed = 0;
    int rc = soko_lurd_play(k->game, k->steps, (uint32_t)n, &failed);
    if (rc != SOKO_OK) {
        uint8_t step = k->steps[failed];
        s->result = CHECK_SOLUTION_FAILED;
        s->step = failed + 1;
        snprintf(s->message, sizeof s->message, "fails at step %u of %d ('%c'): %s", failed + 1, n,
                 soko_lurd_letter(step & 3, (step & SOKO_LURD_PUSH) != 0), check_step_words(rc));
        return;
    }
    s->moves = k->game->moves;
    s->pushes = k->game->pushes;
    if (!soko_game_solved(k->game)) {
        s->result = CHECK_SOLUTION_UNSOLVED;
        snprintf(s->message, sizeof s->message,
                 "ends unsolved after %u move%s, %u push%s (%u of %u boxes on goals)", s->moves,
                 s->moves == 1 ? "" : "s", s->pushes, s->pushes == 1 ? "" : "es",
                 k->game->boxes_on_goal, k->lvl->boxes);
        return;
    }
    s->result = CHECK_SOLUTION_SOLVED;
    int32_t m = soko_lurd_encode(k->game, k->lurd, MAX_STEPS);
    if (m >= 0)
        s->lurd = copy_or_flag(k, strndup(k->lurd, (size_t)m));
}

static void text_solutions(struct checker *k, struct check_level *l, const char *text,
                           const soko_entry *e)
{
    l->solutions_total = e->solution_total;
    if (e->solution_count == 0)
        return;
    l->solutions = calloc(e->solution_count, sizeof *l->solutions);
    if (l->solutions == NULL) {
        k->oom = true;
        return;
    }
    l->nsolutions = e->solution_count;
    for (uint32_t i = 0; i < e->solution_count; i++) {
        const soko_solution_ref *ref = &e->solution[i];
        struct check_solution *s = &l->solutions[i];
        soko_span t = soko_span_trim(text, ref->title);
        s->title = text_line(k, text + t.off, t.len);
        s->line = ref->line;
        replay(k, l, s, text + ref->moves.off, ref->moves.len);
    }
}

/* Starts a key ("Author :", "comment:") at the start of a header line? */
static bool header_key(const char *line, size_t len, const char *key, size_t *value_at)
{
    size_t n = strlen(key), i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (len - i < n || strncasecmp(line + i, key, n) != 0)
        return false;
    i += n;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= len || line[i] != ':')
        return false;
    *value_at = i + 1;
    return true;
}

/* How many bytes of a header line are its comment marker: a ';' (after
 * any blanks) and the one blank that follows it, or 0. Text files mark
 * their notes so; the notes are shown without the marks. */
static size_t comment_marker(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= len || line[i] != ';')
        return 0;
    i++;
    if (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i;
}

/* The file's notes: its header without the Collection: and Author: lines
 * (Author: gives the collection's credit), without the Comment: and
 * Comment-End: keys (their text stays) and without the ';' that marks a
 * line as a comment. */
static void text_header(struct checker *k, const char *text, soko_span header)
{
    struct check_report *r = k->r;
    const char *s = text + header.off, *end = s + header.len;
    char *notes = malloc(header.len + 1);
    size_t n = 0;
    if (notes == NULL) {
        k->oom = true;
        return;
    }
    while (s < end) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        size_t len = eol != NULL ? (size_t)(eol - s) : (size_t)(end - s);
        size_t at = 0;
        if (header_key(s, len, "Author", &at)) {
            if (r->author == NULL || r->author[0] == '\0') {
                free(r->author);
                r->author = text_line(k, s + at, len - at);
            }
        } else if (header_key(s, len, "Comment-End", &at) ||
                   header_key(s, len, "Collection", &at)) {
            /* dropped */
        } else {
            if (header_key(s, len, "Comment", &at)) {
                s += at;
                len -= at;
            }
            size_t mark = comment_marker(s, len);
            memcpy(notes + n, s + mark, len - mark);
            n += len - mark;
            notes[n++] = '\n';
        }
        s += len + (eol != NULL ? 1 : 0);
    }
    free(r->description);
    r->description = text_block(k, notes, n);
    free(notes);
}

static void read_text(struct checker *k, const char *data, size_t len)
{
    struct check_report *r = k->r;
    soko_reader rd;
    soko_entry *e = malloc(sizeof *e);
    if (e == NULL) {
        k->oom = true;
        return;
    }
    soko_reader_init(&rd, data, (uint32_t)len);
    while (!k->oom && soko_reader_next(&rd, e) == 1) {
        struct check_level *l = new_level(k, e->number, e->board_line);
        if (l == NULL)
            break;
        soko_span t = soko_span_trim(data, e->title), a = soko_span_trim(data, e->author);
        l->title = text_line(k, data + t.off, t.len);
        l->author = text_line(k, data + a.off, a.len);
        l->comment = text_block(k, data + e->comment.off, e->comment.len);
        soko_error err;
        check_board(k, l, data + e->board.off, e->board.len, e->board_line, &err);
        text_solutions(k, l, data, e);
    }
    free(e);
    soko_span cname = soko_span_trim(data, rd.collection);
    if (cname.len > 0)
        r->name = text_line(k, data + cname.off, cname.len);
    text_header(k, data, rd.header);
}

static void read_slc(struct checker *k, const char *data, size_t len)
{
    struct check_report *r = k->r;
    struct slc_file f;
    if (slc_read(data, len, &f) != 0) {
        r->failed = true;
        r->file_error.line = f.error_line;
        r->file_error.col = f.error_col;
        r->file_error.code = "xml";
        snprintf(r->file_error.message, sizeof r->file_error.message, "%s", f.error);
        slc_free(&f);
        return;
    }
    for (size_t i = 0; i < f.nlevels && !k->oom; i++) {
        const struct slc_level *sl = &f.levels[i];
        struct check_level *l = new_level(k, (uint32_t)i + 1, sl->line);
        if (l == NULL)
            break;
        l->title = text_line(k, sl->id, strlen(sl->id));
        l->author = text_line(k, sl->copyright, strlen(sl->copyright));
        l->comment = copy_or_flag(k, strdup(""));
        soko_error err;
        if (check_board(k, l, sl->text, sl->text_len, 1, &err) != SOKO_OK) {
            uint32_t line = err.line != 0 ? err.line : 1, col = err.col;
            slc_locate(sl, &line, &col);
            l->error.line = line;
            l->error.col = col;
        }
    }
    if (f.title[0] != '\0')
        r->name = text_line(k, f.title, strlen(f.title));
    r->description = text_block(k, f.description, strlen(f.description));
    r->author = text_line(k, f.copyright, strlen(f.copyright));
    slc_free(&f);
}

static void read_pack(struct checker *k, const char *data, size_t len)
{
    struct check_report *r = k->r;
    soko_pack p;
    soko_error err = {0};
    const uint8_t *bytes = (const uint8_t *)data;
    if (len > UINT32_MAX || soko_pack_open(&p, bytes, (uint32_t)len, &err) != SOKO_OK) {
        r->failed = true;
        r->file_error.code = "pack";
        snprintf(r->file_error.message, sizeof r->file_error.message, "%s",
                 len > UINT32_MAX ? "the file is too large" : err.message);
        return;
    }
    char *text = malloc(SOKO_PACK_TEXT_CAP);
    if (text == NULL) {
        k->oom = true;
        return;
    }
    for (uint32_t i = 0; i < p.count && !k->oom; i++) {
        struct check_level *l = new_level(k, i + 1, 0);
        if (l == NULL)
            break;
        l->title = copy_or_flag(k, strdup(""));
        l->author = copy_or_flag(k, strdup(""));
        l->comment = copy_or_flag(k, strdup(""));
        int32_t n = soko_pack_level(&p, i, text, SOKO_PACK_TEXT_CAP, &err);
        if (n < 0) {
            l->valid = false;
            set_problem(&l->error, &err, 0, 0);
        } else {
            check_board(k, l, text, (size_t)n, 1, &err);
        }
        l->error.offset = soko_pack_offset(&p, i);
    }
    free(text);
    if (p.title.len > 0)
        r->name = text_line(k, data + p.title.off, p.title.len);
    r->description = text_block(k, data + p.description.off, p.description.len);
}

/* Marks each valid level that repeats an earlier one of the file. */
static bool find_file_duplicates(struct check_report *r)
{
    size_t size = 64;
    while (size < 2 * r->nlevels)
        size *= 2;
    struct slot {
        uint64_t hash;
        uint32_t number; /* 0: empty */
    } *table = calloc(size, sizeof *table);
    if (table == NULL)
        return false;
    for (size_t i = 0; i < r->nlevels; i++) {
        struct check_level *l = &r->levels[i];
        if (!l->valid)
            continue;
        size_t at = (size_t)soko_mix64(l->hash) & (size - 1);
        while (table[at].number != 0 && table[at].hash != l->hash)
            at = (at + 1) & (size - 1);
        if (table[at].number != 0) {
            l->duplicate = CHECK_DUPLICATE_IN_FILE;
            l->duplicate_number = table[at].number;
        } else {
            table[at].hash = l->hash;
            table[at].number = l->number;
        }
    }
    free(table);
    return true;
}

struct lookup {
    struct check_level *l;
    bool oom;
};

static int take_match(void *arg, const struct storage_hash_match *m)
{
    struct lookup *lk = arg;
    struct check_level *l = lk->l;
    if (m->deleted) {
        l->restores = m->level_id;
        return 1;
    }
    l->duplicate = CHECK_DUPLICATE_IN_LIBRARY;
    l->duplicate_level = m->level_id;
    l->duplicate_collection = m->collection_id;
    l->duplicate_title = strdup(m->title);
    l->duplicate_collection_name = strdup(m->collection_name);
    lk->oom = l->duplicate_title == NULL || l->duplicate_collection_name == NULL;
    return 1;
}

static void count(struct check_report *r)
{
    r->valid = r->invalid = r->duplicates = 0;
    for (size_t i = 0; i < r->nlevels; i++) {
        if (!r->levels[i].valid)
            r->invalid++;
        else
            r->valid++;
        if (r->levels[i].duplicate != CHECK_UNIQUE)
            r->duplicates++;
    }
}

int check_lookup_library(struct check_report *r)
{
    for (size_t i = 0; i < r->nlevels; i++) {
        struct check_level *l = &r->levels[i];
        if (!l->valid || l->duplicate == CHECK_DUPLICATE_IN_FILE)
            continue;
        free(l->duplicate_title);
        free(l->duplicate_collection_name);
        l->duplicate_title = l->duplicate_collection_name = NULL;
        l->duplicate = CHECK_UNIQUE;
        l->duplicate_level = l->duplicate_collection = 0;
        l->restores = 0;
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)l->hash);
        struct lookup lk = {.l = l};
        int status = storage_levels_by_hash(hex, take_match, &lk);
        if (status != STORAGE_OK && status != STORAGE_STOP)
            return -1;
        if (lk.oom)
            return -1;
    }
    count(r);
    return 0;
}

/* The file's name without its folder and extension. */
static char *stem(const char *filename)
{
    const char *base = strrchr(filename, '/');
    base = base != NULL ? base + 1 : filename;
    const char *dot = strrchr(base, '.');
    size_t len = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    return utf8_copy_line(base, len);
}

struct check_report *check_run(const char *data, size_t len, const char *filename,
                               enum check_format format, bool library)
{
    return check_run_within(data, len, filename, format, library, 0);
}

struct check_report *check_run_within(const char *data, size_t len, const char *filename,
                                      enum check_format format, bool library, uint64_t max_steps)
{
    struct check_report *r = calloc(1, sizeof *r);
    struct checker k = {
        .r = r,
        .steps_left = max_steps != 0 ? max_steps : UINT64_MAX,
        .step_budget = max_steps,
    };
    if (r == NULL)
        return NULL;
    k.lvl = malloc(sizeof *k.lvl);
    k.board = malloc(BOARD_TEXT_CAP);
    r->filename = strdup(filename != NULL ? filename : "upload");
    r->format = format == CHECK_FORMAT_AUTO ? sniff(data, len) : format;
    if (k.lvl == NULL || k.board == NULL || r->filename == NULL)
        k.oom = true;
    if (!k.oom && r->format == CHECK_FORMAT_SLC)
        read_slc(&k, data, len);
    else if (!k.oom && r->format == CHECK_FORMAT_PACK)
        read_pack(&k, data, len);
    else if (!k.oom)
        read_text(&k, data, len);
    if (!k.oom && r->name == NULL)
        r->name = copy_or_flag(&k, stem(r->filename));
    if (!k.oom && r->description == NULL)
        r->description = copy_or_flag(&k, strdup(""));
    if (!k.oom && r->author == NULL)
        r->author = copy_or_flag(&k, strdup(""));
    if (!k.oom && !r->failed && r->nlevels == 0) {
        r->failed = true;
        r->file_error.code = "empty";
        snprintf(r->file_error.message, sizeof r->file_error.message,
                 "no level found in the file (read as %s)", check_format_name(r->format));
    }
    if (!k.oom && !find_file_duplicates(r))
        k.oom = true;
    count(r);
    int status = 0;
    if (!k.oom && library)
        status = check_lookup_library(r);
    free(k.lvl);
    free(k.board);
    free(k.game);
    free(k.steps);
    free(k.history);
    free(k.lurd);
    if (k.oom || status != 0) {
        if (k.oom)
            fprintf(stderr, "sokod: out of memory checking %s\n", r->filename);
        check_report_free(r);
        return NULL;
    }
    return r;
}

void check_report_free(struct check_report *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->nlevels; i++) {
        struct check_level *l = &r->levels[i];
        free(l->title);
        free(l->author);
        free(l->comment);
        free(l->board);
        free(l->duplicate_title);
        free(l->duplicate_collection_name);
        for (uint32_t s = 0; s < l->nsolutions; s++) {
            free(l->solutions[s].title);
            free(l->solutions[s].lurd);
        }
        free(l->solutions);
    }
    free(r->levels);
    free(r->filename);
    free(r->name);
    free(r->description);
    free(r->author);
    free(r);
}
