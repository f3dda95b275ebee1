/* SLC: the XML level collections of YASC, JSoko and sokoban.be
 * (SokobanLev.dtd), read and written with libxml2. */
#ifndef SOKOD_SLC_H
#define SOKOD_SLC_H

#include <stddef.h>
#include <stdint.h>

/* One <Level>: its rows as text, and where each row starts in the file. */
struct slc_level {
    char *id;        /* the Id attribute (the level's name), UTF-8 */
    char *copyright; /* the Copyright attribute (its author), UTF-8 */
    char *text;      /* the <L> rows, each ending in '\n' */
    size_t text_len;
    uint32_t line; /* the line of <Level> */
    uint32_t nrows;
    uint32_t *row_line; /* the line and column where row i's text starts */
    uint32_t *row_col;
};

/* A whole SLC file. Text fields are UTF-8 (libxml2 converts ISO-8859-1). */
struct slc_file {
    char *title;
    char *description;
    char *copyright; /* the LevelCollection's Copyright attribute */
    struct slc_level *levels;
    size_t nlevels;
    /* When reading failed: where and why (levels read before stay). */
    uint32_t error_line, error_col;
    char error[256];
};

/* Reads an SLC document from data[0..len) into *f (which the caller
 * releases with slc_free, whatever the result). Nothing is fetched from the
 * network and no external DTD is loaded. Returns 0, or -1 with f->error,
 * f->error_line and f->error_col saying what is wrong: XML that is not well
 * formed, a root element that is not <SokobanLevels>, out of memory. */
int slc_read(const char *data, size_t len, struct slc_file *f);

void slc_free(struct slc_file *f);

/* Maps a place in a level's text (1-based line and column, as the core
 * reports them for text starting at line 1) to the place in the file.
 * A line of 0 is left alone. */
void slc_locate(const struct slc_level *l, uint32_t *line, uint32_t *col);

/* A level to write: its name, author and board rows ('\n'-separated). */
struct slc_out_level {
    const char *id;
    const char *copyright;
    const char *board;
    unsigned width, height;
};

/* Writes an SLC document, UTF-8, with the DOCTYPE of SokobanLev.dtd.
 * Returns a malloc'd buffer (its length in *len), or NULL when out of
 * memory or when a text is not UTF-8. */
char *slc_write(const char *title, const char *description, const char *copyright,
                const struct slc_out_level *levels, size_t n, size_t *len);

#endif
