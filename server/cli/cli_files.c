/* What the commands that read level files share: saying why a file cannot
 * be read, text that may not be UTF-8 in JSON, and printing JSON. */
#include "cli/cli.h"

#include "base/files.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cli_read_reported(const char *path, json_t *files, json_t **entry, uint32_t *len)
{
    char *text = file_read_whole(path, len);
    int error = errno;
    *entry = files != NULL ? json_object() : NULL;
    if (*entry != NULL) {
        json_object_set_new(*entry, "path", cli_json_text(path, strlen(path)));
        json_array_append_new(files, *entry);
    }
    if (text == NULL) {
        if (*entry != NULL)
            json_object_set_new(*entry, "error", json_string(strerror(error)));
        else
            printf("%s: cannot read: %s\n", path, strerror(error));
    }
    return text;
}

json_t *cli_json_text(const char *s, size_t len)
{
    json_t *j = json_stringn(s, len);
    if (j != NULL)
        return j;
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return json_string("");
    for (size_t i = 0; i < len; i++)
        copy[i] = (s[i] & 0x80) || s[i] == '\0' ? '?' : s[i];
    j = json_stringn(copy, len);
    free(copy);
    return j;
}

void cli_print_json(json_t *root)
{
    json_dumpf(root, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    json_decref(root);
}
