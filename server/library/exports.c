/* Exporting a collection (its levels not deleted, hidden ones included) as
 * a .sok text file with its reference solutions (streamed), as SLC XML, or
 * as a SokoPy binary pack. */
#include "library/exports.h"

#include "http/http.h"
#include "http/streamed.h"
#include "library/admin.h"
#include "library/slc.h"
#include "storage/storage_admin.h"

#include "pack.h"
#include "soko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Moves lines of solutions are cut at this many letters. */
#define MOVES_PER_LINE 70

struct export_level {
    int64_t id;
    char *title, *author, *comment, *board;
    unsigned width, height;
};

struct export
{
    char *name, *notes, *author;
    bool found;
    struct export_level *levels;
    size_t n, cap;
    bool oom;
};

static int take_collection(void *arg, const struct storage_admin_collection *c)
{
    struct export *e = arg;
    e->found = c->deleted_at == 0;
    e->name = strdup(c->name);
    e->notes = strdup(c->notes);
    e->author = strdup(c->author);
    e->oom = e->name == NULL || e->notes == NULL || e->author == NULL;
    return 0;
}

static int take_level(void *arg, const struct storage_admin_level *l)
{
    struct export *e = arg;
    if (l->deleted_at != 0)
        return 0;
    if (e->n == e->cap) {
        size_t cap = e->cap == 0 ? 64 : e->cap * 2;
        struct export_level *bigger = realloc(e->levels, cap * sizeof *bigger);
        if (bigger == NULL) {
            e->oom = true;
            return 1;
        }
        e->levels = bigger;
        e->cap = cap;
    }
    struct export_level *x = &e->levels[e->n++];
    x->id = l->id;
    x->title = strdup(l->title);
    x->author = strdup(l->author);
    x->comment = strdup(l->comment);
    x->board = strdup(l->board);
    x->width = l->width;
    x->height = l->height;
    e->oom =
        e->oom || x->title == NULL || x->author == NULL || x->comment == NULL || x->board == NULL;
    return e->oom;
}

static void export_free(struct export *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->levels[i].title);
        free(e->levels[i].author);
        free(e->levels[i].comment);
        free(e->levels[i].board);
    }
    free(e->levels);
    free(e->name);
    free(e->notes);
    free(e->author);
}

/* A one-line copy: line breaks and tabs become spaces. */
static void one_line(char *s)
{
    for (char *p = s; *p != '\0'; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    }
}

/* The text format is streamed (streamed.h): the collection's header,
 * then per level its title line, board, metadata and reference solutions,
 * read 16 levels and 16 references at a time after the last written
 * whole, and the references' moves in slices, so that a connection holds
 * one buffer and two pages of keys however long the solutions. */

/* Levels and references listed per query. */
#define EXPORT_PAGE 16

struct sok_stream {
    int64_t collection;
    char *header; /* the collection's lines, written first */
    size_t header_at, header_len;
    struct storage_export_key levels[EXPORT_PAGE];
    unsigned nlevels, level; /* levels listed, and the one being written */
    bool levels_listed;      /* the last page of levels was read */
    struct storage_export_key after_level;
    bool level_open; /* levels[level]'s text is written: its references follow */
    struct {
        struct storage_export_key key;
        char title[256];
    } refs[EXPORT_PAGE];
    unsigned nrefs, ref;
    bool refs_listed;
    struct storage_export_key after_ref;
    bool ref_open;   /* refs[ref]'s title is written: its moves follow */
    size_t moves_at; /* bytes of its moves written */
};

static void sok_stream_free(void *arg)
{
    struct sok_stream *x = arg;
    free(x->header);
    free(x);
}

static int take_level_key(void *arg, const struct storage_admin_level *l)
{
    struct sok_stream *x = arg;
    x->levels[x->nlevels++] = (struct storage_export_key){l->position, 0, l->id};
    return x->nlevels == EXPORT_PAGE;
}

static int take_reference(void *arg, const struct storage_reference *r)
{
    struct sok_stream *x = arg;
    x->refs[x->nrefs].key = (struct storage_export_key){r->moves, r->pushes, r->id};
    /* The title is one line of at most 255 bytes, as it always was. */
    snprintf(x->refs[x->nrefs].title, sizeof x->refs[x->nrefs].title, "%s", r->title);
    one_line(x->refs[x->nrefs].title);
    x->nrefs++;
    return x->nrefs == EXPORT_PAGE;
}

struct level_text {
    struct streamed_out *out;
    int64_t id;
    bool found, fits;
};

/* A level's title line, board and metadata. */
static int write_level(void *arg, const struct storage_admin_level *l)
{
    struct level_text *t = arg;
    if (l->id != t->id)
        return 0;
    t->found = true;
    struct streamed_out *out = t->out;
    bool fits = streamed_put(out, "\n", 1);
    if (fits && l->title[0] != '\0')
        fits = streamed_printf(out, "; %s\n", l->title);
    fits = fits && streamed_put(out, l->board, strlen(l->board));
    if (fits && l->author[0] != '\0')
        fits = streamed_printf(out, "Author: %s\n", l->author);
    /* "Comment: text" for one line, a Comment: ... Comment-End: block
     * otherwise. */
    if (fits && l->comment[0] != '\0' && strchr(l->comment, '\n') == NULL)
        fits = streamed_printf(out, "Comment: %s\n", l->comment);
    else if (fits && l->comment[0] != '\0')
        fits = streamed_printf(out, "Comment:\n%s\nComment-End:\n", l->comment);
    t->fits = fits;
    return 1;
}

/* Writes refs[ref]'s moves in lines of MOVES_PER_LINE letters, as many as
 * fit; closes it after the last. */
static int write_reference_moves(struct sok_stream *x, struct streamed_out *out)
{
    int64_t id = x->refs[x->ref].key.id;
    for (;;) {
        size_t lines = (out->cap - out->len) / (MOVES_PER_LINE + 1);
        if (lines == 0)
            return STORAGE_OK;
        /* Read below where the lines go, then move each up to its place
         * with its line break: line i moves by lines - i bytes, down. */
        char *base = out->data + out->len;
        size_t got = 0, total = 0;
        int status = storage_reference_moves(id, x->moves_at, base + lines, lines * MOVES_PER_LINE,
                                             &got, &total);
        if (status != STORAGE_OK)
            return status;
        size_t full = got / MOVES_PER_LINE, rest = got % MOVES_PER_LINE;
        for (size_t i = 0; i < full; i++) {
            memmove(base + i * (MOVES_PER_LINE + 1), base + lines + i * MOVES_PER_LINE,
                    MOVES_PER_LINE);
            base[i * (MOVES_PER_LINE + 1) + MOVES_PER_LINE] = '\n';
        }
        size_t len = full * (MOVES_PER_LINE + 1);
        if (rest > 0) {
            memmove(base + len, base + lines + full * MOVES_PER_LINE, rest);
            base[len + rest] = '\n';
            len += rest + 1;
        }
        out->len += len;
        x->moves_at += got;
        if (x->moves_at >= total) {
            x->after_ref = x->refs[x->ref].key;
            x->ref_open = false;
            x->ref++;
            return STORAGE_OK;
        }
        if (got == 0)
            return STORAGE_ERROR;
    }
}

/* Writes the open level's reference solutions, as many as fit; closes the
 * level after the last. */
static int write_references(struct sok_stream *x, struct streamed_out *out)
{
    int64_t level = x->levels[x->level].id;
    for (;;) {
        if (x->ref == x->nrefs) {
            if (x->refs_listed) {
                x->after_level = x->levels[x->level];
                x->level_open = false;
                x->level++;
                return STORAGE_OK;
            }
            x->nrefs = x->ref = 0;
            int status =
                storage_export_references(level, &x->after_ref, EXPORT_PAGE, take_reference, x);
            if (status != STORAGE_OK && status != STORAGE_STOP)
                return status;
            x->refs_listed = x->nrefs < EXPORT_PAGE;
            continue;
        }
        if (!x->ref_open) {
            const char *title = x->refs[x->ref].title;
            const struct storage_export_key *k = &x->refs[x->ref].key;
            bool fits = title[0] == '\0' ? streamed_printf(out, "Solution %u/%u\n", k->a, k->b)
                                         : streamed_printf(out, "%s\n", title);
            if (!fits)
                return STORAGE_OK;
            x->ref_open = true;
            x->moves_at = 0;
        }
        int status = write_reference_moves(x, out);
        if (status != STORAGE_OK || x->ref_open)
            return status;
    }
}

static int sok_fill(void *arg, struct streamed_out *out)
{
    struct sok_stream *x = arg;
    size_t n = x->header_len - x->header_at;
    if (n > 0) {
        if (n > out->cap - out->len)
            n = out->cap - out->len;
        streamed_put(out, x->header + x->header_at, n);
        x->header_at += n;
        return STORAGE_OK;
    }
    for (;;) {
        if (x->level == x->nlevels) {
            if (x->levels_listed) {
                out->end = true;
                return STORAGE_OK;
            }
            x->nlevels = x->level = 0;
            int status = storage_export_levels(x->collection, &x->after_level, EXPORT_PAGE,
                                               take_level_key, x);
            if (status != STORAGE_OK && status != STORAGE_STOP)
                return status;
            x->levels_listed = x->nlevels < EXPORT_PAGE;
            continue;
        }
        if (!x->level_open) {
            /* The level's text, read again by its key: one level's row. */
            struct level_text t = {.out = out, .id = x->levels[x->level].id};
            size_t mark = out->len;
            struct storage_export_key before = x->levels[x->level];
            before.id--;
            int status = storage_export_levels(x->collection, &before, 1, write_level, &t);
            if (status != STORAGE_OK && status != STORAGE_STOP)
                return status;
            if (!t.found) {
                /* Deleted since it was listed: skipped, as a deleted level is. */
                x->after_level = x->levels[x->level++];
                continue;
            }
            if (!t.fits) {
                out->len = mark;
                return out->len > 0 ? STORAGE_OK : STORAGE_ERROR;
            }
            x->level_open = true;
            x->nrefs = x->ref = 0;
            x->refs_listed = false;
            x->after_ref = (struct storage_export_key){0, 0, 0};
        }
        int status = write_references(x, out);
        if (status != STORAGE_OK || x->level_open)
            return status;
    }
}

/* The collection's header: its name, author and notes. */
static char *sok_header(const struct export *e, size_t *len)
{
    char *out = NULL;
    FILE *f = open_memstream(&out, len);
    if (f == NULL)
        return NULL;
    char name[256];
    snprintf(name, sizeof name, "%s", e->name);
    one_line(name);
    fprintf(f, "Collection: %s\n", name);
    if (e->author[0] != '\0')
        fprintf(f, "Author: %s\n", e->author);
    if (e->notes[0] != '\0')
        fprintf(f, "Comment:\n%s\nComment-End:\n", e->notes);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static char *write_slc(const struct export *e, size_t *len)
{
    struct slc_out_level *levels = calloc(e->n + 1, sizeof *levels);
    char(*ids)[24] = calloc(e->n + 1, sizeof *ids);
    char *out = NULL;
    if (levels != NULL && ids != NULL) {
        for (size_t i = 0; i < e->n; i++) {
            const struct export_level *l = &e->levels[i];
            snprintf(ids[i], sizeof ids[i], "%zu", i + 1);
            levels[i] = (struct slc_out_level){
                .id = l->title[0] != '\0' ? l->title : ids[i],
                .copyright = l->author,
                .board = l->board,
                .width = l->width,
                .height = l->height,
            };
        }
        out = slc_write(e->name, e->notes, e->author, levels, e->n, len);
    }
    free(levels);
    free(ids);
    return out;
}

/* A pack, or NULL with *why saying what does not fit. */
static char *write_pack(const struct export *e, size_t *len, char *why, size_t cap)
{
    if (e->n == 0 || e->n > SOKO_PACK_MAX_LEVELS) {
        snprintf(why, cap, "a SokoPy pack holds 1 to %d levels; this collection has %zu",
                 SOKO_PACK_MAX_LEVELS, e->n);
        return NULL;
    }
    size_t size = 1u << 20;
    uint8_t *out = malloc(size);
    soko_level *lvl = malloc(sizeof *lvl);
    char *title = strdup(e->name), *description = strdup(e->notes);
    soko_error err = {0};
    int rc =
        out != NULL && lvl != NULL && title != NULL && description != NULL ? SOKO_OK : SOKO_E_FULL;
    soko_pack_writer w;
    if (rc == SOKO_OK) {
        one_line(title);
        one_line(description);
        rc =
            soko_pack_write_begin(&w, out, (uint32_t)size, title, (uint32_t)strlen(title),
                                  description, (uint32_t)strlen(description), (uint32_t)e->n, &err);
    }
    for (size_t i = 0; rc == SOKO_OK && i < e->n; i++) {
        const char *board = e->levels[i].board;
        rc = soko_level_parse(lvl, board, (uint32_t)strlen(board), 1, &err);
        if (rc == SOKO_OK)
            rc = soko_pack_write_level(&w, lvl, &err);
    }
    int32_t n = rc == SOKO_OK ? soko_pack_write_end(&w, &err) : rc;
    free(lvl);
    free(title);
    free(description);
    if (n < 0) {
        snprintf(why, cap, "it does not fit a SokoPy pack: %s",
                 err.message[0] != '\0' ? err.message : "out of memory");
        free(out);
        return NULL;
    }
    *len = (size_t)n;
    return (char *)out;
}

/* The collection's name made safe for a file name. */
static void file_name(const char *name, const char *extension, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = name; *p != '\0' && n + 1 < cap && n < 80; p++) {
        char ch = *p;
        bool fine = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
        out[n++] = fine ? ch : '_';
    }
    out[n] = '\0';
    if (n == 0)
        snprintf(out, cap, "collection");
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s", extension);
}

int exports_collection(struct http_conn *c)
{
    int result = MHD_NO;
    struct audit_actor who;
    if (!admin_require(c, &who, &result))
        return result;
    const char *format = http_query(c, "format");
    if (format == NULL)
        format = "sok";
    static const struct {
        const char *format, *extension, *type;
    } kinds[] = {{"sok", ".sok", "text/plain; charset=utf-8"},
                 {"slc", ".slc", "application/xml; charset=utf-8"},
                 {"pack", ".skbn", "application/octet-stream"}};
    size_t kind = 0;
    while (kind < 3 && strcmp(kinds[kind].format, format) != 0)
        kind++;
    if (kind == 3)
        return reply_error(c, API_E_INVALID_VALUE, "'format' must be \"sok\", \"slc\" or \"pack\"");
    struct export e = {0};
    int status = storage_admin_collection_get(c->param[0], take_collection, &e);
    if (status == STORAGE_OK && !e.found)
        status = STORAGE_NOT_FOUND;
    /* The text format is streamed; the others are built whole: their
     * levels are boards, bounded by a collection's size. */
    if (status == STORAGE_OK && !e.oom && kind != 0)
        status = storage_admin_levels_each(c->param[0], take_level, &e);
    char *body = NULL;
    size_t len = 0;
    char why[256] = "";
    if (status == STORAGE_OK && !e.oom) {
        if (kind == 0)
            body = sok_header(&e, &len);
        else if (kind == 1)
            body = write_slc(&e, &len);
        else
            body = write_pack(&e, &len, why, sizeof why);
    }
    char name[128];
    file_name(e.name != NULL ? e.name : "", kinds[kind].extension, name, sizeof name);
    export_free(&e);
    if (status == STORAGE_NOT_FOUND)
        return reply_error(c, API_E_COLLECTION_NOT_FOUND, "there is no collection %lld",
                           (long long)c->param[0]);
    if (status != STORAGE_OK) {
        free(body);
        return reply_storage_failure(c, status);
    }
    char disposition[200];
    snprintf(disposition, sizeof disposition, "attachment; filename=\"%s\"", name);
    if (kind == 0 && body != NULL) {
        struct sok_stream *x = calloc(1, sizeof *x);
        if (x == NULL) {
            free(body);
            return reply_error(c, API_E_INTERNAL, "out of memory");
        }
        x->collection = c->param[0];
        x->header = body;
        x->header_len = len;
        const struct streamed_answer answer = {
            .content_type = kinds[0].type,
            .disposition = disposition,
            .fill = sok_fill,
            .release = sok_stream_free,
        };
        return reply_streamed(c, &answer, x);
    }
    if (why[0] != '\0')
        return reply_error(c, API_E_EXPORT_IMPOSSIBLE, "%s", why);
    if (body == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, kinds[kind].type);
    MHD_add_response_header(r, "Content-Disposition", disposition);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return http_queue(c, 200, r, len);
}
