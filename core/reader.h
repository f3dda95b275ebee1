/* Collections: finding the levels, their metadata and their solutions in the
 * text of a level file (.xsb, .sok, .txt), without copying anything: every
 * piece found is a span of the caller's text, which must outlive the reader. */
#ifndef SOKO_READER_H
#define SOKO_READER_H

#include "base.h"

/* The most solutions kept per level; more are counted but not kept. */
#define SOKO_MAX_SOLUTIONS 16

/* A solution or saved game written after a level's board. */
typedef struct soko_solution_ref {
    soko_span title; /* "Solution 230/97", a player's name, ...; may be empty */
    soko_span moves; /* the LURD text; may run over several lines */
    uint32_t line;   /* the line where the moves start */
} soko_solution_ref;

/* One level of a file. Spans are trimmed of surrounding blanks, of the ';'
 * that marks an XSB title, and of keys such as "Title:"; an absent item is an
 * empty span. Metadata lines the reader does not know stay in `notes`. */
typedef struct soko_entry {
    uint32_t number;         /* 1-based position of the level in the file */
    soko_span title;         /* a title line before or after the board, or Title: */
    soko_span author;        /* Author: */
    soko_span comment;       /* Comment: ... Comment-End:, or a one-line Comment: */
    soko_span notes;         /* every other line that belongs to the level, as written */
    soko_span board;         /* the board rows, from the first row's start to the last row's end */
    uint32_t board_line;     /* the line of the first board row */
    uint32_t solution_total; /* solutions found, even beyond SOKO_MAX_SOLUTIONS */
    uint32_t solution_count; /* solutions kept in solution[] */
    soko_solution_ref solution[SOKO_MAX_SOLUTIONS];
} soko_entry;

/* A cursor over the text of one file. Its fields are the reader's own. */
typedef struct soko_reader {
    const char *text;
    uint32_t len;
    uint32_t pos;  /* where scanning resumes */
    uint32_t line; /* the line at pos */
    uint32_t count;
    soko_span header;     /* free text before the first level (file notes) */
    soko_span collection; /* "Collection: name" in the file notes, when present */
    uint32_t flags;       /* the style of the file, as the reader has worked it out */
} soko_reader;

/* Starts reading `text`. A byte-order mark at the start (even doubled) is
 * skipped; LF and CRLF line ends are both accepted. Cannot fail. */
void soko_reader_init(soko_reader *r, const char *text, uint32_t len);

/* Finds the next level and fills *e. Returns 1 when a level was found and
 * 0 at the end of the text. The board is only located here, not checked:
 * pass e->board and e->board_line to soko_level_parse. Cannot fail. */
int soko_reader_next(soko_reader *r, soko_entry *e);

/* Trims blanks from both ends of a span of `text`. */
soko_span soko_span_trim(const char *text, soko_span s);

#endif
