/* Collections: finding levels, their titles, metadata and solutions in the
 * text of a level file.
 *
 * The text is read line by line. A board is a run of board lines; the lines
 * between two boards are split between the level before (its notes,
 * metadata and solutions) and the level after (its title), by the rule YASC
 * uses: a title is the last text line before a board, when a blank line
 * comes before it or it is the only text line between the boards. Files
 * that write their titles after the boards are told apart by their first
 * level (see detect_style). */
#include "reader.h"

/* reader flags */
enum {
    STYLE_TITLES_AFTER = 1u << 0, /* "; title" on the line after each board */
};

/* What a line is. */
enum line_kind {
    LINE_BLANK,
    LINE_BOARD,   /* board characters (and RLE) only, with at least one '#' */
    LINE_MOVES,   /* LURD letters (and RLE) only */
    LINE_IGNORED, /* a "::" comment for people reading the raw file */
    LINE_KEY,     /* "Key: value" */
    LINE_TEXT,    /* anything else */
};

/* Keys the reader knows. */
enum key_name { KEY_OTHER, KEY_TITLE, KEY_AUTHOR, KEY_COMMENT, KEY_COMMENT_END, KEY_COLLECTION };

typedef struct line {
    uint32_t start; /* the first byte, after any byte-order mark */
    uint32_t end;   /* the end, before the line break */
    uint32_t next;  /* the start of the next line (len at the end) */
    uint32_t number;
    int kind;
    int key;         /* for LINE_KEY */
    soko_span value; /* for LINE_KEY: the trimmed text after the colon */
} line;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Length of a byte-order mark at `pos` (UTF-8, or UTF-8 read as Latin-1 and
 * encoded again), or 0. */
static uint32_t bom_at(const char *t, uint32_t len, uint32_t pos)
{
    static const char bom[] = "\xEF\xBB\xBF";
    static const char twice[] = "\xC3\xAF\xC2\xBB\xC2\xBF";
    uint32_t n = 0;
    while (n < 3 && pos + n < len && t[pos + n] == bom[n])
        n++;
    if (n == 3)
        return 3;
    n = 0;
    while (n < 6 && pos + n < len && t[pos + n] == twice[n])
        n++;
    return n == 6 ? 6 : 0;
}

SOKO_EXPORT("soko_span_trim")
soko_span soko_span_trim(const char *text, soko_span s)
{
    while (s.len > 0 && (is_blank(text[s.off]) || text[s.off] == '\r' || text[s.off] == '\n')) {
        s.off++;
        s.len--;
    }
    while (s.len > 0) {
        char c = text[s.off + s.len - 1];
        if (!is_blank(c) && c != '\r' && c != '\n')
            break;
        s.len--;
    }
    if (s.len == 0)
        s.off = 0;
    return s;
}

static soko_span span(uint32_t from, uint32_t to)
{
    soko_span s = {from, to > from ? to - from : 0};
    return s;
}

static bool board_char(char c)
{
    switch (c) {
    case '#':
    case ' ':
    case '-':
    case '_':
    case '.':
    case 'o':
    case '$':
    case 'b':
    case '*':
    case 'B':
    case '@':
    case 'p':
    case 'm':
    case '+':
    case 'P':
    case 'M':
    case '(':
    case ')':
    case '|':
    case '\t':
        return true;
    default:
        return is_digit(c);
    }
}

static bool moves_char(char c)
{
    switch (c) {
    case 'l':
    case 'u':
    case 'r':
    case 'd':
    case 'L':
    case 'U':
    case 'R':
    case 'D':
    case '(':
    case ')':
    case ' ':
    case '\t':
        return true;
    default:
        return is_digit(c);
    }
}

/* Recognises "Key: value" where the key is one to three words that each
 * start with a letter, with an optional blank before the colon. */
static bool parse_key(const char *t, uint32_t start, uint32_t end, int *key, soko_span *value)
{
    uint32_t p = start;
    int words = 0;
    while (p < end) {
        if (!is_alpha(t[p]))
            return false;
        while (p < end && (is_alpha(t[p]) || is_digit(t[p]) || t[p] == '-' || t[p] == '_'))
            p++;
        words++;
        uint32_t q = p;
        while (q < end && is_blank(t[q]))
            q++;
        if (q < end && t[q] == ':') {
            p = q;
            break;
        }
        if (words == 3 || q == p || q >= end)
            return false;
        p = q;
    }
    if (p >= end || t[p] != ':')
        return false;
    /* "http://..." is text, not a key */
    if (p + 2 < end && t[p + 1] == '/' && t[p + 2] == '/')
        return false;
    uint32_t name_end = p;
    while (name_end > start && is_blank(t[name_end - 1]))
        name_end--;
    static const struct {
        const char *name;
        int key;
    } known[] = {{"title", KEY_TITLE},
                 {"author", KEY_AUTHOR},
                 {"comment", KEY_COMMENT},
                 {"comment-end", KEY_COMMENT_END},
                 {"comment_end", KEY_COMMENT_END},
                 {"collection", KEY_COLLECTION}};
    *key = KEY_OTHER;
    for (uint32_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        const char *n = known[k].name;
        uint32_t i = 0;
        while (n[i] != '\0' && start + i < name_end && lower(t[start + i]) == n[i])
            i++;
        if (n[i] == '\0' && start + i == name_end) {
            *key = known[k].key;
            break;
        }
    }
    *value = soko_span_trim(t, span(p + 1, end));
    return true;
}

/* Reads the line that starts at `pos` and says what it is. */
static void read_line(const soko_reader *r, uint32_t pos, uint32_t number, line *l)
{
    const char *t = r->text;
    uint32_t len = r->len, b;
    while ((b = bom_at(t, len, pos)) != 0)
        pos += b;
    l->start = pos;
    l->number = number;
    uint32_t e = pos;
    while (e < len && t[e] != '\n' && t[e] != '\r')
        e++;
    l->end = e;
    if (e < len && t[e] == '\r')
        e++;
    if (e < len && t[e] == '\n' && (e == l->end || t[e - 1] == '\r'))
        e++;
    l->next = e;

    uint32_t s = l->start, f = l->end;
    while (s < f && is_blank(t[s]))
        s++;
    while (f > s && is_blank(t[f - 1]))
        f--;
    l->key = KEY_OTHER;
    l->value = span(0, 0);
    if (s == f) {
        l->kind = LINE_BLANK;
        return;
    }
    if (f - s >= 2 && t[s] == ':' && t[s + 1] == ':') {
        l->kind = LINE_IGNORED;
        return;
    }
    bool board = true, wall = false, moves = true, letter = false;
    for (uint32_t i = l->start; i < l->end; i++) {
        char c = t[i];
        if (!board_char(c))
            board = false;
        if (c == '#')
            wall = true;
        if (!moves_char(c))
            moves = false;
        if (is_alpha(c))
            letter = true;
    }
    if (board && wall) {
        l->kind = LINE_BOARD;
        return;
    }
    if (moves && letter) {
        l->kind = LINE_MOVES;
        return;
    }
    if (parse_key(t, s, f, &l->key, &l->value)) {
        l->kind = LINE_KEY;
        return;
    }
    l->kind = LINE_TEXT;
}

static void next_line(const soko_reader *r, const line *cur, line *l)
{
    read_line(r, cur->next, cur->number + 1, l);
}

static bool at_end(const soko_reader *r, const line *l)
{
    return l->start >= r->len;
}

/* The trimmed text of a line. */
static soko_span line_text(const soko_reader *r, const line *l)
{
    return soko_span_trim(r->text, span(l->start, l->end));
}

/* The title a line gives: ';' comments lose their ';', "Title:" its key. */
static soko_span title_of(const soko_reader *r, const line *l)
{
    if (l->kind == LINE_KEY && l->key == KEY_TITLE)
        return l->value;
    soko_span s = line_text(r, l);
    if (s.len > 0 && r->text[s.off] == ';') {
        s.off++;
        s.len--;
        s = soko_span_trim(r->text, s);
    }
    return s;
}

/* A line that can be a level's title: text with a letter or a digit in it
 * (not a banner), or "Title:". */
static bool title_like(const soko_reader *r, const line *l)
{
    if (l->kind == LINE_KEY)
        return l->key == KEY_TITLE;
    if (l->kind != LINE_TEXT)
        return false;
    for (uint32_t i = l->start; i < l->end; i++) {
        if (is_alpha(r->text[i]) || is_digit(r->text[i]))
            return true;
    }
    return false;
}

/* A line of punctuation only ("=====", "*****"): it separates like a blank. */
static bool banner(const soko_reader *r, const line *l)
{
    if (l->kind != LINE_TEXT)
        return false;
    soko_span s = line_text(r, l);
    for (uint32_t i = 0; i < s.len; i++) {
        char c = r->text[s.off + i];
        if (is_alpha(c) || is_digit(c) || (c & 0x80))
            return false;
    }
    return s.len >= 3;
}

static bool quoted_name(const soko_reader *r, const line *l)
{
    soko_span s = line_text(r, l);
    char q = s.len >= 2 ? r->text[s.off] : 0;
    return (q == '\'' || q == '"') && r->text[s.off + s.len - 1] == q;
}

static bool semicolon_line(const soko_reader *r, const line *l)
{
    soko_span s = line_text(r, l);
    return s.len > 0 && r->text[s.off] == ';';
}

/* True when a "Comment-End:" line follows `l` before the next board. */
static bool comment_block_follows(const soko_reader *r, const line *l)
{
    line m = *l;
    for (;;) {
        next_line(r, &m, &m);
        if (at_end(r, &m) || m.kind == LINE_BOARD)
            return false;
        if (m.kind == LINE_KEY && m.key == KEY_COMMENT)
            return false; /* another comment starts: the first one is a line */
        if (m.kind == LINE_KEY && m.key == KEY_COMMENT_END)
            return true;
    }
}

/* Scans from line `l` (which is not a board line) to the next board line or
 * the end. Returns in *board the line where that board starts (at the end:
 * an empty line at len) and in *title the first line of the title that
 * belongs to that board, or *board itself when it has none. `after_board`
 * says that `l` directly follows a board. */
static void scan_gap(const soko_reader *r, const line *l, bool after_board, line *board,
                     line *title)
{
    line cur = *l, cand = *l, prev_text = *l;
    bool have_cand = false, have_prev = false, prev_blank = !after_board;
    bool in_comment = false;
    while (!at_end(r, &cur) && cur.kind != LINE_BOARD) {
        if (in_comment) {
            if (cur.kind == LINE_KEY && cur.key == KEY_COMMENT_END)
                in_comment = false;
            have_cand = false;
            prev_blank = false;
        } else if (cur.kind == LINE_BLANK || banner(r, &cur)) {
            prev_blank = true;
        } else if (cur.kind != LINE_IGNORED) {
            if (cur.kind == LINE_KEY && cur.key == KEY_COMMENT && comment_block_follows(r, &cur)) {
                in_comment = true;
                have_cand = false;
            } else if (title_like(r, &cur) && (prev_blank || !have_prev)) {
                cand = cur;
                have_cand = true;
            } else if (have_cand && quoted_name(r, &cur) && semicolon_line(r, &prev_text) &&
                       prev_text.start == cand.start && !prev_blank) {
                /* "; 12" then "'The Dungeon'": both lead the level. */
            } else {
                have_cand = false;
            }
            prev_text = cur;
            have_prev = true;
            prev_blank = false;
        }
        next_line(r, &cur, &cur);
    }
    *board = cur;
    *title = have_cand && !at_end(r, &cur) ? cand : cur;
}

/* A line right after a board row that is a row itself, with a character
 * that does not belong (a typo): it has a wall and either starts and ends
 * with one or has a board row after it. Kept in the board so that reading
 * the board reports the wrong character instead of cutting the board. */
static bool board_row_with_mistake(const soko_reader *r, const line *l)
{
    if (l->kind != LINE_TEXT)
        return false;
    soko_span s = line_text(r, l);
    bool wall = false;
    for (uint32_t i = 0; i < s.len; i++)
        wall = wall || r->text[s.off + i] == '#';
    if (!wall)
        return false;
    if (r->text[s.off] == '#' && r->text[s.off + s.len - 1] == '#')
        return true;
    line after;
    next_line(r, l, &after);
    return after.kind == LINE_BOARD;
}

/* Works out the file's style from its first board. Titles come after the
 * boards when the first board has no text line just before it, a text line
 * just after it, and that line is all the text before the second board (or,
 * in a file of one level, nothing but blank lines comes before the board). */
static void detect_style(soko_reader *r, const line *first, const line *board)
{
    bool pre_text = false, prev_text = false;
    for (line cur = *first; cur.start < board->start; next_line(r, &cur, &cur)) {
        bool text = cur.kind != LINE_BLANK && cur.kind != LINE_IGNORED;
        pre_text = pre_text || text;
        prev_text = text && !banner(r, &cur);
    }
    if (prev_text)
        return;
    line after = *board;
    while (after.kind == LINE_BOARD || board_row_with_mistake(r, &after))
        next_line(r, &after, &after);
    if (after.kind != LINE_TEXT || banner(r, &after))
        return;
    line next_board, next_title;
    scan_gap(r, &after, true, &next_board, &next_title);
    if (at_end(r, &next_board) ? !pre_text : next_title.start == after.start)
        r->flags |= STYLE_TITLES_AFTER;
}

SOKO_EXPORT("soko_reader_init")
void soko_reader_init(soko_reader *r, const char *text, uint32_t len)
{
    __builtin_memset(r, 0, sizeof *r);
    r->text = text;
    r->len = len;
    uint32_t b;
    while ((b = bom_at(text, len, r->pos)) != 0)
        r->pos += b;
    r->line = 1;

    line first, board, title;
    read_line(r, r->pos, 1, &first);
    if (first.kind == LINE_BOARD) {
        board = first;
        title = first;
    } else {
        scan_gap(r, &first, false, &board, &title);
    }
    if (!at_end(r, &board))
        detect_style(r, &first, &board);
    if (r->flags & STYLE_TITLES_AFTER)
        title = board;

    /* The file's notes: every line before the first level's title. */
    uint32_t h0 = 0, h1 = 0;
    bool any = false;
    for (line cur = first; cur.start < title.start && !at_end(r, &cur); next_line(r, &cur, &cur)) {
        if (cur.kind == LINE_BLANK || cur.kind == LINE_IGNORED)
            continue;
        if (!any)
            h0 = cur.start;
        any = true;
        h1 = cur.end;
        if (cur.kind == LINE_KEY && cur.key == KEY_COLLECTION && r->collection.len == 0)
            r->collection = cur.value;
    }
    if (any)
        r->header = soko_span_trim(text, span(h0, h1));
    r->pos = title.start;
    r->line = title.number;
}

/* Extends the notes by one line. */
static void add_note(soko_entry *e, const line *l)
{
    if (e->notes.len == 0)
        e->notes = span(l->start, l->end);
    else
        e->notes.len = l->end - e->notes.off;
}

SOKO_EXPORT("soko_reader_next")
int soko_reader_next(soko_reader *r, soko_entry *e)
{
    line cur;
    read_line(r, r->pos, r->line, &cur);
    /* The title lines, up to the board. */
    __builtin_memset(e, 0, sizeof *e);
    bool have_pre_notes = false;
    while (!at_end(r, &cur) && cur.kind != LINE_BOARD) {
        if (cur.kind != LINE_BLANK && cur.kind != LINE_IGNORED) {
            if (e->title.len == 0 && !have_pre_notes) {
                e->title = title_of(r, &cur);
                if (e->title.len == 0)
                    e->title = span(0, 0);
            } else {
                have_pre_notes = true;
                add_note(e, &cur);
            }
        }
        next_line(r, &cur, &cur);
    }
    if (at_end(r, &cur)) {
        r->pos = r->len;
        return 0;
    }

    /* The board. */
    e->board_line = cur.number;
    uint32_t board_start = cur.start, board_end = cur.end;
    while (cur.kind == LINE_BOARD || board_row_with_mistake(r, &cur)) {
        board_end = cur.end;
        next_line(r, &cur, &cur);
    }
    e->board = span(board_start, board_end);
    r->count++;
    e->number = r->count;

    /* What follows, up to the next level's title. */
    line next_board, next_title;
    if (at_end(r, &cur)) {
        next_board = cur;
        next_title = cur;
    } else {
        scan_gap(r, &cur, true, &next_board, &next_title);
        if (r->flags & STYLE_TITLES_AFTER)
            next_title = next_board;
    }
    if ((r->flags & STYLE_TITLES_AFTER) && cur.kind == LINE_TEXT) {
        e->title = title_of(r, &cur);
        next_line(r, &cur, &cur);
    }

    bool notes_before = have_pre_notes, in_solutions = false;
    line pending = cur; /* a text line that may be the title of the moves below it */
    bool have_pending = false;
    while (cur.start < next_title.start) {
        if (cur.kind == LINE_MOVES) {
            soko_solution_ref s = {span(0, 0), span(0, 0), cur.number};
            if (have_pending)
                s.title = line_text(r, &pending);
            have_pending = false;
            uint32_t m0 = cur.start, m1 = cur.end;
            next_line(r, &cur, &cur);
            while (cur.kind == LINE_MOVES && cur.start < next_title.start) {
                m1 = cur.end;
                next_line(r, &cur, &cur);
            }
            s.moves = soko_span_trim(r->text, span(m0, m1));
            if (e->solution_count < SOKO_MAX_SOLUTIONS)
                e->solution[e->solution_count++] = s;
            e->solution_total++;
            in_solutions = true;
            continue;
        }
        if (have_pending) {
            if (!in_solutions) {
                if (notes_before) {
                    e->notes = span(0, 0);
                    notes_before = false;
                }
                add_note(e, &pending);
            }
            have_pending = false;
        }
        if (cur.kind == LINE_TEXT) {
            pending = cur;
            have_pending = true;
        } else if (cur.kind == LINE_KEY) {
            switch (cur.key) {
            case KEY_TITLE:
                e->title = cur.value;
                break;
            case KEY_AUTHOR:
                if (e->author.len == 0)
                    e->author = cur.value;
                break;
            case KEY_COMMENT:
                if (comment_block_follows(r, &cur)) {
                    uint32_t c0 = cur.value.len > 0 ? cur.value.off : cur.next, c1 = c0;
                    if (cur.value.len > 0)
                        c1 = cur.value.off + cur.value.len;
                    next_line(r, &cur, &cur);
                    while (!at_end(r, &cur) &&
                           !(cur.kind == LINE_KEY && cur.key == KEY_COMMENT_END)) {
                        if (cur.kind != LINE_BLANK)
                            c1 = cur.end;
                        next_line(r, &cur, &cur);
                    }
                    if (e->comment.len == 0)
                        e->comment = soko_span_trim(r->text, span(c0, c1));
                } else if (e->comment.len == 0) {
                    e->comment = cur.value;
                }
                break;
            default:
                if (!in_solutions) {
                    if (notes_before) {
                        e->notes = span(0, 0);
                        notes_before = false;
                    }
                    add_note(e, &cur);
                }
                break;
            }
        }
        next_line(r, &cur, &cur);
    }
    if (have_pending && !in_solutions) {
        if (notes_before)
            e->notes = span(0, 0);
        add_note(e, &pending);
    }
    e->notes = soko_span_trim(r->text, e->notes);
    r->pos = next_title.start;
    r->line = next_title.number;
    return 1;
}
