/* Importing level files: read, check every level with the core, then write
 * the valid ones in one transaction. */
#include "import.h"

#include "storage.h"

#include "soko.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_FILE_BYTES (256u << 20)
#define BOARD_TEXT_CAP (SOKO_MAX_CELLS + SOKO_MAX_HEIGHT + 1)

struct level_item {
    uint32_t number;
    char *title, *author, *comment, *board;
    uint32_t width, height, boxes;
    char hash[17];
};

struct file_item {
    const char *path;
    char *name; /* collection name, UTF-8 */
    char *notes;
    struct level_item *levels;
    size_t nlevels;
};

/* True when s[0..len) is well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
static bool valid_utf8(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned char b = s[i];
        size_t extra;
        uint32_t cp;
        if (b < 0x80) {
            i++;
            continue;
        } else if ((b & 0xE0) == 0xC0) {
            extra = 1;
            cp = b & 0x1F;
        } else if ((b & 0xF0) == 0xE0) {
            extra = 2;
            cp = b & 0x0F;
        } else if ((b & 0xF8) == 0xF0) {
            extra = 3;
            cp = b & 0x07;
        } else {
            return false;
        }
        if (extra > len - i - 1)
            return false;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

/* Copies len bytes as UTF-8: as they are when they are valid UTF-8,
 * otherwise read as ISO-8859-1 (as in older level files). Drops control
 * characters other than tab and newline. Returns a malloc'd string or NULL. */
static char *utf8_copy(const char *s, size_t len)
{
    bool valid = valid_utf8((const unsigned char *)s, len);
    char *out = malloc(len * 2 + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char b = (unsigned char)s[i];
        if ((b < 0x20 && b != '\t' && b != '\n') || b == 0x7F)
            continue;
        if (valid || b < 0x80) {
            out[n++] = (char)b;
        } else {
            out[n++] = (char)(0xC0 | (b >> 6));
            out[n++] = (char)(0x80 | (b & 0x3F));
        }
    }
    out[n] = '\0';
    return out;
}

static char *span_copy(const char *text, soko_span s)
{
    return utf8_copy(text + s.off, s.len);
}

static char *read_all(const char *path, uint32_t *len, FILE *report)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(report, "%s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (n == cap) {
            if (cap >= MAX_FILE_BYTES) {
                fprintf(report, "%s: larger than %u MiB\n", path, MAX_FILE_BYTES >> 20);
                free(buf);
                buf = NULL;
                break;
            }
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (buf != NULL && ferror(f)) {
        fprintf(report, "%s: cannot read: %s\n", path, strerror(errno));
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (uint32_t)n;
    return buf;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

static void free_file(struct file_item *f)
{
    for (size_t i = 0; i < f->nlevels; i++) {
        free(f->levels[i].title);
        free(f->levels[i].author);
        free(f->levels[i].comment);
        free(f->levels[i].board);
    }
    free(f->levels);
    free(f->name);
    free(f->notes);
}

/* Reads one file: keeps its valid levels, reports the others. Returns 0, or
 * -1 when the file cannot be read at all. */
static int read_levels(struct file_item *f, soko_level *lvl, FILE *report,
                       struct import_summary *sum)
{
    uint32_t len = 0;
    char *text = read_all(f->path, &len, report);
    if (text == NULL)
        return -1;
    soko_reader r;
    soko_reader_init(&r, text, len);
    soko_entry *e = malloc(sizeof *e);
    char *board = malloc(BOARD_TEXT_CAP);
    size_t cap = 0;
    int status = e != NULL && board != NULL ? 0 : -1;
    while (status == 0 && soko_reader_next(&r, e) == 1) {
        soko_error err = {0};
        int rc = soko_level_parse(lvl, text + e->board.off, e->board.len, e->board_line, &err);
        if (rc != SOKO_OK) {
            char title[80];
            soko_span t = e->title;
            snprintf(title, sizeof title, "%.*s", (int)(t.len < 60 ? t.len : 60), text + t.off);
            fprintf(report, "%s:%u:%u: level %u%s%s%s: %s\n", f->path,
                    err.line != 0 ? err.line : e->board_line, err.col != 0 ? err.col : 1, e->number,
                    title[0] != '\0' ? " (" : "", title, title[0] != '\0' ? ")" : "", err.message);
            sum->refused++;
            continue;
        }
        int32_t blen = soko_level_write(lvl, false, board, BOARD_TEXT_CAP);
        if (blen < 0) {
            fprintf(report, "%s:%u: level %u: cannot write its board\n", f->path, e->board_line,
                    e->number);
            sum->refused++;
            continue;
        }
        if (f->nlevels == cap) {
            size_t ncap = cap == 0 ? 64 : cap * 2;
            struct level_item *bigger = realloc(f->levels, ncap * sizeof *bigger);
            if (bigger == NULL) {
                status = -1;
                break;
            }
            f->levels = bigger;
            cap = ncap;
        }
        struct level_item *item = &f->levels[f->nlevels];
        memset(item, 0, sizeof *item);
        f->nlevels++;
        item->number = e->number;
        item->title = span_copy(text, soko_span_trim(text, e->title));
        item->author = span_copy(text, soko_span_trim(text, e->author));
        item->comment = span_copy(text, soko_span_trim(text, e->comment));
        item->board = utf8_copy(board, (size_t)blen);
        item->width = lvl->width;
        item->height = lvl->height;
        item->boxes = lvl->boxes;
        snprintf(item->hash, sizeof item->hash, "%016llx",
                 (unsigned long long)soko_level_canonical_hash(lvl));
        if (item->title == NULL || item->author == NULL || item->comment == NULL ||
            item->board == NULL)
            status = -1;
    }
    if (status == 0 && f->name == NULL) {
        soko_span cname = soko_span_trim(text, r.collection);
        if (cname.len > 0) {
            f->name = span_copy(text, cname);
        } else {
            const char *base = base_name(f->path);
            const char *dot = strrchr(base, '.');
            f->name =
                utf8_copy(base, dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base));
        }
    }
    if (status == 0)
        f->notes = span_copy(text, soko_span_trim(text, r.header));
    if (status != 0)
        fprintf(report, "%s: out of memory\n", f->path);
    free(board);
    free(e);
    free(text);
    return status;
}

/* Writes the files' levels; the caller holds the transaction. */
static int write_levels(struct file_item *files, int n, const char *collection,
                        const char *source_prefix, FILE *report)
{
    int64_t now = (int64_t)time(NULL);
    int64_t collection_id = 0;
    uint32_t position = 0;
    for (int i = 0; i < n; i++) {
        struct file_item *f = &files[i];
        if (collection == NULL || i == 0) {
            char source[PATH_MAX];
            snprintf(source, sizeof source, "%s%s", source_prefix, base_name(f->path));
            const char *name = collection != NULL ? collection : f->name;
            int status = storage_collection_create(name, source, f->notes, now, &collection_id);
            if (status == STORAGE_CONFLICT) {
                fprintf(report,
                        "%s: a collection named '%s' exists already; choose another "
                        "name with --collection\n",
                        f->path, name);
                return -1;
            }
            if (status != STORAGE_OK)
                return -1;
            position = 0;
        }
        for (size_t k = 0; k < f->nlevels; k++) {
            const struct level_item *l = &f->levels[k];
            struct storage_new_level row = {
                .collection_id = collection_id,
                .position = collection != NULL ? ++position : l->number,
                .title = l->title,
                .author = l->author,
                .comment = l->comment,
                .board = l->board,
                .width = l->width,
                .height = l->height,
                .boxes = l->boxes,
                .canonical_hash = l->hash,
            };
            int64_t id;
            if (storage_level_insert(&row, now, &id) != STORAGE_OK)
                return -1;
        }
    }
    return 0;
}

int import_files(char *const *paths, int n, const char *collection, const char *source_prefix,
                 FILE *report, struct import_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    struct file_item *files = calloc((size_t)(n > 0 ? n : 1), sizeof *files);
    soko_level *lvl = malloc(sizeof *lvl);
    int status = files != NULL && lvl != NULL ? 0 : -1;
    size_t total = 0;
    for (int i = 0; i < n && status == 0; i++) {
        files[i].path = paths[i];
        status = read_levels(&files[i], lvl, report, sum);
        total += files[i].nlevels;
        sum->files++;
    }
    if (status == 0 && total == 0) {
        fprintf(report, "no valid level to import\n");
        status = -1;
    }
    if (status == 0 && storage_begin() != STORAGE_OK)
        status = -1;
    if (status == 0) {
        if (write_levels(files, n, collection, source_prefix, report) == 0 &&
            storage_commit() == STORAGE_OK) {
            sum->levels = (unsigned)total;
        } else {
            storage_rollback();
            status = -1;
        }
    }
    for (int i = 0; files != NULL && i < n; i++)
        free_file(&files[i]);
    free(files);
    free(lvl);
    if (status != 0)
        return -1;
    return sum->refused > 0 ? 1 : 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_level_file(const char *name)
{
    const char *dot = strrchr(name, '.');
    return name[0] != '.' && dot != NULL &&
           (strcasecmp(dot, ".sok") == 0 || strcasecmp(dot, ".xsb") == 0);
}

void import_bundled(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    char **names = NULL;
    size_t count = 0, cap = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (!is_level_file(e->d_name))
            continue;
        if (count == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            char **bigger = realloc(names, cap * sizeof *bigger);
            if (bigger == NULL)
                break;
            names = bigger;
        }
        names[count] = strdup(e->d_name);
        if (names[count] != NULL)
            count++;
    }
    closedir(d);
    if (count > 0)
        qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        char source[PATH_MAX];
        snprintf(source, sizeof source, "bundled:%s", names[i]);
        if (storage_collection_from_source(source) != STORAGE_NOT_FOUND)
            continue;
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *one[1] = {path};
        struct import_summary sum;
        int status = import_files(one, 1, NULL, "bundled:", stderr, &sum);
        if (status >= 0)
            fprintf(stderr, "sokod: imported %u level(s) from %s%s\n", sum.levels, path,
                    status == 1 ? " (some refused, see above)" : "");
        else
            fprintf(stderr, "sokod: could not import %s (see above)\n", path);
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
