/* Importing level files: read every file first, then check and import
 * them one after another inside one transaction, so that a later file sees
 * the levels of the earlier ones as already in the library. */
#include "library/import.h"

#include "base/files.h"
#include "library/check.h"
#include "library/check_report.h"
#include "library/library.h"
#include "storage/storage.h"
#include "storage/storage_levels.h"
#include "storage/storage_work.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How long a starting node waits for another to import the bundled levels. */
#define BUNDLED_WAIT_S 120u

struct file_data {
    char *data;
    uint32_t len;
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* Checks and imports one file; returns 0 or -1 (reported). */
static int import_one(const char *path, const struct file_data *f, const char *collection,
                      int64_t *collection_id, const char *source_prefix,
                      const struct audit_actor *who, FILE *report, bool all,
                      struct import_summary *sum)
{
    struct check_report *r = check_run(f->data, f->len, path, CHECK_FORMAT_AUTO, true);
    if (r == NULL) {
        fprintf(report, "%s: cannot be checked (out of memory, or the database failed)\n", path);
        return -1;
    }
    check_report_print(r, report, all);
    char source[PATH_MAX];
    snprintf(source, sizeof source, "%s%s", source_prefix, base_name(path));
    struct library_target t = {
        .collection_id = *collection_id,
        .name = collection,
        .source = source,
    };
    struct library_result out;
    int storage = STORAGE_OK;
    enum library_status status = library_import(r, &t, who, &out, &storage);
    int result = 0;
    switch (status) {
    case LIBRARY_OK:
        if (collection != NULL)
            *collection_id = out.collection_id;
        break;
    case LIBRARY_NOTHING:
        /* Counted below; the whole run fails only if no file gives a level. */
        break;
    case LIBRARY_NAME_TAKEN:
        fprintf(report,
                "%s: a collection named '%s' exists already; choose another name with "
                "--collection\n",
                path, collection != NULL ? collection : r->name);
        result = -1;
        break;
    case LIBRARY_FILE_FAILED:
        result = -1;
        break;
    case LIBRARY_NO_COLLECTION:
    case LIBRARY_STORAGE:
        fprintf(report, "%s: the database failed (see above)\n", path);
        result = -1;
        break;
    }
    sum->files++;
    sum->levels += out.imported;
    sum->refused += status == LIBRARY_NOTHING ? r->invalid : out.invalid;
    sum->duplicates += status == LIBRARY_NOTHING ? r->valid : out.duplicates;
    sum->references += out.references;
    check_report_free(r);
    return result;
}

int import_files(char *const *paths, int n, const char *collection, const char *source_prefix,
                 const struct audit_actor *who, FILE *report, bool all, struct import_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    struct file_data *files = calloc((size_t)(n > 0 ? n : 1), sizeof *files);
    int status = files != NULL ? 0 : -1;
    for (int i = 0; i < n && status == 0; i++) {
        files[i].data = file_read_whole(paths[i], &files[i].len);
        if (files[i].data == NULL) {
            fprintf(report, "%s: cannot read: %s\n", paths[i], strerror(errno));
            status = -1;
        }
    }
    if (status == 0 && storage_begin() != STORAGE_OK)
        status = -1;
    if (status == 0) {
        int64_t collection_id = 0;
        for (int i = 0; i < n && status == 0; i++)
            status = import_one(paths[i], &files[i], collection, &collection_id, source_prefix, who,
                                report, all, sum);
        if (status == 0 && sum->levels == 0) {
            fprintf(report, "no level to import\n");
            status = -1;
        }
        if (status == 0 && storage_commit() != STORAGE_OK)
            status = -1;
        if (status != 0)
            storage_rollback();
    }
    for (int i = 0; files != NULL && i < n; i++)
        free(files[i].data);
    free(files);
    if (status != 0) {
        sum->levels = 0;
        sum->references = 0;
        return -1;
    }
    return sum->refused > 0 || sum->duplicates > 0 ? 1 : 0;
}

/* The tutorial first, as a new player's first collection; then by name. */
static int by_name(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    bool tx = strcmp(x, "tutorial.sok") == 0, ty = strcmp(y, "tutorial.sok") == 0;
    if (tx != ty)
        return tx ? -1 : 1;
    return strcmp(x, y);
}

static bool is_level_file(const char *name)
{
    static const char *const extensions[] = {".sok", ".xsb", ".slc", ".skbn"};
    const char *dot = strrchr(name, '.');
    if (name[0] == '.' || dot == NULL)
        return false;
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
        if (strcasecmp(dot, extensions[i]) == 0)
            return true;
    }
    return false;
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
    struct audit_actor who = {.user_id = 0};
    snprintf(who.name, sizeof who.name, "sokod (bundled levels)");
    /* Nodes that start together on one database take turns: the first
     * imports, the others then find each file there. */
    bool turn = storage_work_wait(STORAGE_WORK_BUNDLED, BUNDLED_WAIT_S);
    if (!turn)
        fprintf(stderr,
                "sokod: another node has been importing the bundled levels for %u s: "
                "not importing them here\n",
                BUNDLED_WAIT_S);
    for (size_t i = 0; turn && i < count; i++) {
        char source[PATH_MAX];
        snprintf(source, sizeof source, "bundled:%s", names[i]);
        if (storage_collection_from_source(source) != STORAGE_NOT_FOUND)
            continue;
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *one[1] = {path};
        struct import_summary sum;
        int status = import_files(one, 1, NULL, "bundled:", &who, stderr, false, &sum);
        if (status >= 0)
            fprintf(stderr, "sokod: imported %u level(s) from %s%s\n", sum.levels, path,
                    status == 1 ? " (some skipped, see above)" : "");
        else
            fprintf(stderr, "sokod: could not import %s (see above)\n", path);
    }
    if (turn)
        storage_work_end(STORAGE_WORK_BUNDLED);
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
