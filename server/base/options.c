/* Command-line flags read against a table of rows (options.h). */
#include "base/options.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int options_read_number(const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out)
{
    /* strtoull alone would take spaces, a sign and "-1" as a huge number. */
    if (text[0] < '0' || text[0] > '9')
        return -1;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Stores n into an unsigned field of size bytes; -1 for a size no field has. */
static int store_number(void *field, size_t size, unsigned long long n)
{
    switch (size) {
    case 1:
        *(uint8_t *)field = (uint8_t)n;
        return 0;
    case 2:
        *(uint16_t *)field = (uint16_t)n;
        return 0;
    case 4:
        *(uint32_t *)field = (uint32_t)n;
        return 0;
    case 8:
        *(uint64_t *)field = (uint64_t)n;
        return 0;
    default:
        return -1;
    }
}

int options_store(const struct options_row *row, void *settings, const char *value)
{
    void *field = (char *)settings + row->offset;
    unsigned long long n;
    size_t len;
    switch (row->kind) {
    case OPTIONS_KIND_SWITCH:
        *(bool *)field = true;
        return OPTIONS_STORED;
    case OPTIONS_KIND_NUMBER:
        if (options_read_number(value, row->min, row->max, &n) != 0 ||
            store_number(field, row->size, n) != 0)
            return OPTIONS_REFUSED;
        return OPTIONS_STORED;
    case OPTIONS_KIND_TEXT:
        len = strlen(value);
        if (len < row->min || len >= row->size)
            return OPTIONS_REFUSED;
        memcpy(field, value, len + 1);
        return OPTIONS_STORED;
    case OPTIONS_KIND_BY:
        return row->store(field, value);
    default:
        return OPTIONS_REFUSED;
    }
}

static bool row_takes_value(const struct options_row *row)
{
    return row->kind != OPTIONS_KIND_HELP && row->kind != OPTIONS_KIND_SWITCH;
}

static const struct options_row *find_row(const struct options_row *rows, unsigned command,
                                          const char *name, size_t len)
{
    for (const struct options_row *row = rows; row->kind != OPTIONS_KIND_END; row++) {
        bool taken = row->commands == 0 || (row->commands & command) != 0;
        if (taken && strlen(row->name) == len && strncmp(row->name, name, len) == 0)
            return row;
    }
    return NULL;
}

/* Reads the flag argv[*i], and its value, which may be the next argument
 * (then *i moves past it). */
static enum options_status read_flag(const struct options_row *rows, unsigned command,
                                     unsigned flags, void *settings, int argc, char **argv, int *i,
                                     struct options_result *r)
{
    const char *a = argv[*i];
    r->arg = a;
    /* An unknown flag's next argument lets a command word the error as
     * "missing value" when there is none. */
    r->value = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strncmp(a, "--", 2) != 0)
        return OPTIONS_UNKNOWN;
    const char *name = a + 2;
    const char *eq = (flags & OPTIONS_EQUALS) != 0 ? strchr(name, '=') : NULL;
    size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
    const struct options_row *row = find_row(rows, command, name, len);
    if (row == NULL || (eq != NULL && !row_takes_value(row)))
        return OPTIONS_UNKNOWN;
    r->row = row;
    r->value = NULL;
    if (row->kind == OPTIONS_KIND_HELP)
        return OPTIONS_WANTS_HELP;
    if (row_takes_value(row)) {
        if (eq != NULL)
            r->value = eq + 1;
        else if (*i + 1 < argc)
            r->value = argv[++*i];
        else
            return OPTIONS_MISSING;
    }
    int stored = options_store(row, settings, r->value);
    if (stored == OPTIONS_STOP)
        return OPTIONS_FAILED;
    return stored == OPTIONS_STORED ? OPTIONS_OK : OPTIONS_INVALID;
}

enum options_status options_parse(const struct options_row *rows, unsigned command, unsigned flags,
                                  void *settings, int argc, char **argv, struct options_result *r)
{
    memset(r, 0, sizeof *r);
    r->args = argv + 1;
    bool takes_args = (flags & OPTIONS_NO_ARGS) == 0, only_args = false;
    for (int i = 1; i < argc && r->status == OPTIONS_OK; i++) {
        char *a = argv[i];
        if (takes_args && (only_args || a[0] != '-' || a[1] == '\0'))
            r->args[r->nargs++] = a; /* never ahead of i: argv is rewritten in place */
        else if (takes_args && strcmp(a, "--") == 0)
            only_args = true;
        else if (strcmp(a, "-h") == 0)
            r->status = OPTIONS_WANTS_HELP;
        else
            r->status = read_flag(rows, command, flags, settings, argc, argv, &i, r);
    }
    return r->status;
}

/* Prints text, each line after the first indented by indent spaces. */
static void print_indented(FILE *out, const char *text, int indent)
{
    for (const char *nl = strchr(text, '\n'); nl != NULL; nl = strchr(text, '\n')) {
        fprintf(out, "%.*s\n%*s", (int)(nl - text), text, indent, "");
        text = nl + 1;
    }
    fputs(text, out);
}

void options_usage(FILE *out, const struct options_row *rows, unsigned command, int pad, int gap)
{
    for (const struct options_row *row = rows; row->kind != OPTIONS_KIND_END; row++) {
        if (row->commands != 0 && (row->commands & command) == 0)
            continue;
        char flag[64];
        if (row->value_name != NULL)
            snprintf(flag, sizeof flag, "--%s %s", row->name, row->value_name);
        else
            snprintf(flag, sizeof flag, "--%s", row->name);
        fprintf(out, "  %-*s%*s", pad, flag, gap, "");
        print_indented(out, row->help, 2 + pad + gap);
        if (row->env != NULL)
            fprintf(out, " [$%s]", row->env);
        fputc('\n', out);
    }
}
