/* SLC files: read with libxml2's SAX parser, which tells where each <L>
 * row starts so that board errors point into the file; written with its
 * text writer. No network, no external DTD, no entity expansion beyond
 * XML's own. */
#include "library/slc.h"

#include <libxml/parser.h>
#include <libxml/xmlwriter.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The root's children, the collection's and the level's, by depth. */
#define DEPTH_ROOT 0
#define DEPTH_HEAD 1
#define DEPTH_LEVEL 2
#define DEPTH_ROW 3

struct buffer {
    char *data;
    size_t len, cap;
};

enum capture { CAPTURE_NONE, CAPTURE_TITLE, CAPTURE_DESCRIPTION, CAPTURE_ROW };

struct reader {
    xmlParserCtxtPtr ctxt;
    struct slc_file *f;
    int depth;
    bool in_collection;
    struct slc_level *level; /* the <Level> being read, or NULL */
    size_t levels_cap, rows_cap;
    enum capture capture;
    struct buffer text; /* the text of the element being captured */
    struct buffer rows; /* the current level's rows */
    bool failed;
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_libxml(void)
{
    xmlInitParser();
}

static bool buffer_add(struct buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 256 : b->cap;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *bigger = realloc(b->data, cap);
        if (bigger == NULL)
            return false;
        b->data = bigger;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return true;
}

static void fail(struct reader *r, uint32_t line, uint32_t col, const char *message)
{
    if (r->failed)
        return;
    r->failed = true;
    r->f->error_line = line;
    r->f->error_col = col;
    snprintf(r->f->error, sizeof r->f->error, "%s", message);
    xmlStopParser(r->ctxt);
}

static void out_of_memory(struct reader *r)
{
    fail(r, 0, 0, "out of memory");
}

/* A copy of an attribute's value (libxml2 gives it as a start and an end). */
static char *attribute(int nb, const xmlChar **attrs, const char *name)
{
    for (int i = 0; i < nb; i++) {
        const xmlChar **a = attrs + 5 * i;
        if (strcmp((const char *)a[0], name) == 0)
            return strndup((const char *)a[3], (size_t)(a[4] - a[3]));
    }
    return strdup("");
}

static void start_level(struct reader *r, int nb, const xmlChar **attrs)
{
    struct slc_file *f = r->f;
    if (f->nlevels == r->levels_cap) {
        size_t cap = r->levels_cap == 0 ? 64 : r->levels_cap * 2;
        struct slc_level *bigger = realloc(f->levels, cap * sizeof *bigger);
        if (bigger == NULL) {
            out_of_memory(r);
            return;
        }
        f->levels = bigger;
        r->levels_cap = cap;
    }
    struct slc_level *l = &f->levels[f->nlevels++];
    memset(l, 0, sizeof *l);
    l->id = attribute(nb, attrs, "Id");
    l->copyright = attribute(nb, attrs, "Copyright");
    l->line = (uint32_t)r->ctxt->input->line;
    r->level = l;
    r->rows.len = 0;
    r->rows_cap = 0;
    if (l->id == NULL || l->copyright == NULL)
        out_of_memory(r);
}

/* Records where the row's text starts: just after the '>' of <L>, where
 * the parser stands when it reports the start tag. */
static void start_row(struct reader *r)
{
    struct slc_level *l = r->level;
    if (l->nrows == r->rows_cap) {
        size_t cap = r->rows_cap == 0 ? 16 : r->rows_cap * 2;
        uint32_t *lines = realloc(l->row_line, cap * sizeof *lines);
        if (lines != NULL)
            l->row_line = lines;
        uint32_t *cols = realloc(l->row_col, cap * sizeof *cols);
        if (cols != NULL)
            l->row_col = cols;
        if (lines == NULL || cols == NULL) {
            out_of_memory(r);
            return;
        }
        r->rows_cap = cap;
    }
    xmlParserInputPtr in = r->ctxt->input;
    l->row_line[l->nrows] = (uint32_t)in->line;
    l->row_col[l->nrows] = (uint32_t)in->col + (in->cur != NULL && *in->cur == '>' ? 1u : 0u);
    l->nrows++;
    r->capture = CAPTURE_ROW;
    r->text.len = 0;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
                     int nb_defaulted, const xmlChar **attributes)
{
    (void)prefix;
    (void)uri;
    (void)nb_namespaces;
    (void)namespaces;
    (void)nb_defaulted;
    struct reader *r = ctx;
    const char *name = (const char *)localname;
    if (r->failed)
        return;
    if (r->depth == DEPTH_ROOT && strcmp(name, "SokobanLevels") != 0) {
        char message[200];
        snprintf(message, sizeof message,
                 "not an SLC file: the root element is <%.80s>, not <SokobanLevels>", name);
        fail(r, (uint32_t)r->ctxt->input->line, 0, message);
        return;
    }
    if (r->depth == DEPTH_HEAD && strcmp(name, "Title") == 0) {
        r->capture = CAPTURE_TITLE;
        r->text.len = 0;
    } else if (r->depth == DEPTH_HEAD && strcmp(name, "Description") == 0) {
        r->capture = CAPTURE_DESCRIPTION;
        r->text.len = 0;
    } else if (r->depth == DEPTH_HEAD && strcmp(name, "LevelCollection") == 0) {
        r->in_collection = true;
        free(r->f->copyright);
        r->f->copyright = attribute(nb_attributes, attributes, "Copyright");
        if (r->f->copyright == NULL)
            out_of_memory(r);
    } else if (r->depth == DEPTH_LEVEL && r->in_collection && strcmp(name, "Level") == 0) {
        start_level(r, nb_attributes, attributes);
    } else if (r->depth == DEPTH_ROW && r->level != NULL && strcmp(name, "L") == 0) {
        start_row(r);
    }
    r->depth++;
}

static char *captured(struct reader *r)
{
    char *copy = strndup(r->text.data != NULL ? r->text.data : "", r->text.len);
    if (copy == NULL)
        out_of_memory(r);
    return copy;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
    (void)localname;
    (void)prefix;
    (void)uri;
    struct reader *r = ctx;
    r->depth--;
    if (r->failed)
        return;
    if (r->depth == DEPTH_HEAD && r->capture == CAPTURE_TITLE) {
        free(r->f->title);
        r->f->title = captured(r);
    } else if (r->depth == DEPTH_HEAD && r->capture == CAPTURE_DESCRIPTION) {
        free(r->f->description);
        r->f->description = captured(r);
    } else if (r->depth == DEPTH_HEAD && r->in_collection) {
        r->in_collection = false;
    } else if (r->depth == DEPTH_ROW && r->capture == CAPTURE_ROW) {
        if (!buffer_add(&r->rows, r->text.data != NULL ? r->text.data : "", r->text.len) ||
            !buffer_add(&r->rows, "\n", 1))
            out_of_memory(r);
    } else if (r->depth == DEPTH_LEVEL && r->level != NULL) {
        r->level->text = strndup(r->rows.data != NULL ? r->rows.data : "", r->rows.len);
        r->level->text_len = r->rows.len;
        if (r->level->text == NULL)
            out_of_memory(r);
        r->level = NULL;
    }
    if (r->depth <= DEPTH_ROW)
        r->capture = CAPTURE_NONE;
}

static void on_text(void *ctx, const xmlChar *text, int len)
{
    struct reader *r = ctx;
    if (r->failed || r->capture == CAPTURE_NONE || len <= 0)
        return;
    if (!buffer_add(&r->text, (const char *)text, (size_t)len))
        out_of_memory(r);
}

static void on_error(void *ctx, xmlErrorPtr e)
{
    struct reader *r = ctx;
    if (e == NULL || e->level < XML_ERR_ERROR || r->failed)
        return;
    char message[256];
    const char *what = e->message != NULL ? e->message : "malformed XML";
    snprintf(message, sizeof message, "not well-formed XML: %s", what);
    size_t n = strlen(message);
    while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' '))
        message[--n] = '\0';
    fail(r, e->line > 0 ? (uint32_t)e->line : 0, e->int2 > 0 ? (uint32_t)e->int2 : 0, message);
}

int slc_read(const char *data, size_t len, struct slc_file *f)
{
    memset(f, 0, sizeof *f);
    pthread_once(&init_once, init_libxml);
    if (len > (size_t)INT32_MAX) {
        snprintf(f->error, sizeof f->error, "the file is too large");
        return -1;
    }
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_text;
    sax.cdataBlock = on_text;
    sax.ignorableWhitespace = on_text;
    sax.serror = on_error;
    struct reader r = {.f = f};
    r.ctxt = xmlCreatePushParserCtxt(&sax, &r, NULL, 0, NULL);
    if (r.ctxt == NULL) {
        snprintf(f->error, sizeof f->error, "out of memory");
        return -1;
    }
    xmlCtxtUseOptions(r.ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA);
    xmlParseChunk(r.ctxt, data, (int)len, 1);
    bool well_formed = r.ctxt->wellFormed != 0;
    if (!r.failed && !well_formed)
        fail(&r, 0, 0, "not well-formed XML");
    xmlFreeParserCtxt(r.ctxt);
    free(r.text.data);
    free(r.rows.data);
    if (!r.failed && (f->title == NULL || f->description == NULL)) {
        if (f->title == NULL)
            f->title = strdup("");
        if (f->description == NULL)
            f->description = strdup("");
        if (f->title == NULL || f->description == NULL) {
            snprintf(f->error, sizeof f->error, "out of memory");
            return -1;
        }
    }
    if (!r.failed && f->copyright == NULL) {
        f->copyright = strdup("");
        if (f->copyright == NULL) {
            snprintf(f->error, sizeof f->error, "out of memory");
            return -1;
        }
    }
    return r.failed ? -1 : 0;
}

void slc_free(struct slc_file *f)
{
    for (size_t i = 0; i < f->nlevels; i++) {
        free(f->levels[i].id);
        free(f->levels[i].copyright);
        free(f->levels[i].text);
        free(f->levels[i].row_line);
        free(f->levels[i].row_col);
    }
    free(f->levels);
    free(f->title);
    free(f->description);
    free(f->copyright);
    memset(f, 0, sizeof *f);
}

void slc_locate(const struct slc_level *l, uint32_t *line, uint32_t *col)
{
    if (*line == 0 || *line > l->nrows) {
        if (*line != 0)
            *line = l->line;
        return;
    }
    uint32_t row = *line - 1;
    *line = l->row_line[row];
    if (*col > 0)
        *col = l->row_col[row] + *col - 1;
}

/* ---- Writing ---------------------------------------------------------------------------- */

static int write_level(xmlTextWriterPtr w, const struct slc_out_level *l)
{
    char number[16];
    int rc = xmlTextWriterStartElement(w, BAD_CAST "Level");
    if (rc >= 0)
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "Id", BAD_CAST l->id);
    snprintf(number, sizeof number, "%u", l->width);
    if (rc >= 0)
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "Width", BAD_CAST number);
    snprintf(number, sizeof number, "%u", l->height);
    if (rc >= 0)
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "Height", BAD_CAST number);
    if (rc >= 0 && l->copyright != NULL && l->copyright[0] != '\0')
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "Copyright", BAD_CAST l->copyright);
    const char *p = l->board;
    while (rc >= 0 && *p != '\0') {
        const char *end = strchr(p, '\n');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        char *row = strndup(p, n);
        if (row == NULL)
            return -1;
        rc = xmlTextWriterWriteElement(w, BAD_CAST "L", BAD_CAST row);
        free(row);
        p += n;
        if (*p == '\n')
            p++;
    }
    if (rc >= 0)
        rc = xmlTextWriterEndElement(w);
    return rc;
}

char *slc_write(const char *title, const char *description, const char *copyright,
                const struct slc_out_level *levels, size_t n, size_t *len)
{
    pthread_once(&init_once, init_libxml);
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf != NULL ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (w == NULL) {
        xmlBufferFree(buf);
        return NULL;
    }
    unsigned max_w = 0, max_h = 0;
    for (size_t i = 0; i < n; i++) {
        max_w = levels[i].width > max_w ? levels[i].width : max_w;
        max_h = levels[i].height > max_h ? levels[i].height : max_h;
    }
    char number[16];
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    int rc = xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
    if (rc >= 0)
        rc = xmlTextWriterWriteDTD(w, BAD_CAST "SokobanLevels", NULL, BAD_CAST "SokobanLev.dtd",
                                   NULL);
    if (rc >= 0)
        rc = xmlTextWriterStartElement(w, BAD_CAST "SokobanLevels");
    if (rc >= 0)
        rc = xmlTextWriterWriteElement(w, BAD_CAST "Title", BAD_CAST title);
    if (rc >= 0)
        rc = xmlTextWriterWriteElement(w, BAD_CAST "Description", BAD_CAST description);
    if (rc >= 0)
        rc = xmlTextWriterStartElement(w, BAD_CAST "LevelCollection");
    if (rc >= 0)
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "Copyright", BAD_CAST copyright);
    snprintf(number, sizeof number, "%u", max_w);
    if (rc >= 0)
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "MaxWidth", BAD_CAST number);
    snprintf(number, sizeof number, "%u", max_h);
    if (rc >= 0)
        rc = xmlTextWriterWriteAttribute(w, BAD_CAST "MaxHeight", BAD_CAST number);
    for (size_t i = 0; rc >= 0 && i < n; i++)
        rc = write_level(w, &levels[i]);
    if (rc >= 0)
        rc = xmlTextWriterEndDocument(w);
    xmlFreeTextWriter(w);
    char *out = NULL;
    if (rc >= 0) {
        *len = (size_t)xmlBufferLength(buf);
        out = malloc(*len + 1);
        if (out != NULL) {
            memcpy(out, xmlBufferContent(buf), *len);
            out[*len] = '\0';
        }
    }
    xmlBufferFree(buf);
    return out;
}
