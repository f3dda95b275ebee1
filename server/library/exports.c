/* Exporting a collection (its levels not deleted, hidden ones included) as
 * a .sok text file with its reference solutions, as SLC XML, or as a
 * SokoPy binary pack. */
#include "library/exports.h"

#include "http/http.h"
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

/* "Comment: text" for one line, a Comment: ... Comment-End: block otherwise. */
static void write_comment(FILE *f, const char *text)
{
    if (text[0] == '\0')
        return;
    if (strchr(text, '\n') == NULL)
        fprintf(f, "Comment: %s\n", text);
    else
        fprintf(f, "Comment:\n%s\nComment-End:\n", text);
}

struct solution_writer {
    FILE *f;
    int status;
};

static int write_solution(void *arg, const struct storage_reference *r)
{
    struct solution_writer *w = arg;
    char title[256];
    snprintf(title, sizeof title, "%s", r->title);
    one_line(title);
    if (title[0] == '\0')
        fprintf(w->f, "Solution %u/%u\n", r->moves, r->pushes);
    else
        fprintf(w->f, "%s\n", title);
    size_t len = strlen(r->lurd);
    for (size_t at = 0; at < len; at += MOVES_PER_LINE)
        fprintf(w->f, "%.*s\n", MOVES_PER_LINE, r->lurd + at);
    return 0;
}

/* The text format: the collection's header, then per level its title line,
 * its board, its metadata and its reference solutions. */
static char *write_sok(const struct export *e, size_t *len, int *status)
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
    for (size_t i = 0; i < e->n && *status == STORAGE_OK; i++) {
        const struct export_level *l = &e->levels[i];
        fprintf(f, "\n");
        if (l->title[0] != '\0')
            fprintf(f, "; %s\n", l->title);
        fprintf(f, "%s", l->board);
        if (l->author[0] != '\0')
            fprintf(f, "Author: %s\n", l->author);
        write_comment(f, l->comment);
        struct solution_writer w = {f, STORAGE_OK};
        *status = storage_references_each(l->id, write_solution, &w);
    }
    if (fclose(f) != 0 || *status != STORAGE_OK) {
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
    if (status == STORAGE_OK && !e.oom)
        status = storage_admin_levels_each(c->param[0], take_level, &e);
    char *body = NULL;
    size_t len = 0;
    char why[256] = "";
    if (status == STORAGE_OK && !e.oom) {
        if (kind == 0)
            body = write_sok(&e, &len, &status);
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
    if (status != STORAGE_OK)
        return reply_storage_failure(c, status);
    if (why[0] != '\0')
        return reply_error(c, API_E_EXPORT_IMPOSSIBLE, "%s", why);
    if (body == NULL)
        return reply_error(c, API_E_INTERNAL, "out of memory");
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    char disposition[200];
    snprintf(disposition, sizeof disposition, "attachment; filename=\"%s\"", name);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, kinds[kind].type);
    MHD_add_response_header(r, "Content-Disposition", disposition);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return http_queue(c, 200, r, len);
}
