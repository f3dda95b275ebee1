/* The API's error codes (server/http/api_error.c): each has a name and an
 * error status, and docs/api.md's error tables give every code the status
 * the server answers it with. A failure names the code, the document's
 * line and both statuses. */
#include "http/api_error.h"

#include "check.h"

#include <ctype.h>
#include <stdlib.h>

/* The code named `name`, or API_E_COUNT for a name no code has. */
static enum api_error code_named(const char *name)
{
    for (int i = 0; i < API_E_COUNT; i++)
        if (strcmp(api_error_name((enum api_error)i), name) == 0)
            return (enum api_error)i;
    return API_E_COUNT;
}

static void every_code_has_a_name_and_an_error_status(void)
{
    for (int i = 0; i < API_E_COUNT; i++) {
        const char *name = api_error_name((enum api_error)i);
        unsigned status = api_error_status((enum api_error)i);
        /* A row missing from the table reads as "internal", 500. */
        if (i != API_E_INTERNAL && strcmp(name, "internal") == 0)
            check_fail(__FILE__, __LINE__, "code %d (after '%s') has no row in the table", i,
                       i > 0 ? api_error_name((enum api_error)(i - 1)) : "none");
        else if ((int)code_named(name) != i)
            check_fail(__FILE__, __LINE__, "codes %d and %d are both named '%s'", i,
                       (int)code_named(name), name);
        if (status < 400 || status > 599)
            check_fail(__FILE__, __LINE__, "'%s' has status %u, not an error's", name, status);
    }
    CHECK_INT(api_error_status(API_E_COUNT), 500);
    CHECK_STR(api_error_name(API_E_COUNT), "internal");
}

/* Reads the codes of one line of an error table ("| 404 | `a`, `b` | when |")
 * into documented[], checking each against the table. Lines of other
 * tables, whose first cell is no status, are skipped. */
static void check_table_line(const char *line, int number, unsigned documented[])
{
    const char *p = line;
    if (*p++ != '|')
        return;
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) ||
        !isdigit((unsigned char)p[2]))
        return;
    unsigned status = (unsigned)atoi(p);
    const char *cell = strchr(p, '|');
    const char *end = cell != NULL ? strchr(cell + 1, '|') : NULL;
    if (end == NULL)
        return;
    for (const char *q = cell + 1; q < end; q++) {
        if (*q != '`')
            continue;
        const char *close = memchr(q + 1, '`', (size_t)(end - q - 1));
        if (close == NULL)
            break;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(close - q - 1), q + 1);
        enum api_error code = code_named(name);
        if (code == API_E_COUNT) {
            check_fail(__FILE__, __LINE__, "docs/api.md:%d lists '%s', which is no error code",
                       number, name);
        } else if (api_error_status(code) != status) {
            check_fail(__FILE__, __LINE__,
                       "docs/api.md:%d gives '%s' status %u; the server answers it with %u", number,
                       name, status, api_error_status(code));
        } else {
            documented[code]++;
        }
        q = close;
    }
}

static void the_documented_statuses_are_the_servers(void)
{
    size_t len = 0;
    char *doc = read_file(SOKOD_SOURCE_DIR "/docs/api.md", &len);
    if (doc == NULL)
        return;
    unsigned documented[API_E_COUNT] = {0};
    int number = 1;
    for (char *line = doc; line != NULL && *line != '\0'; number++) {
        char *next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        check_table_line(line, number, documented);
        line = next;
    }
    for (int i = 0; i < API_E_COUNT; i++)
        if (documented[i] == 0)
            check_fail(__FILE__, __LINE__, "docs/api.md's error tables do not list '%s' (%u)",
                       api_error_name((enum api_error)i), api_error_status((enum api_error)i));
    free(doc);
}

int main(void)
{
    RUN(every_code_has_a_name_and_an_error_status);
    RUN(the_documented_statuses_are_the_servers);
    return check_finish();
}
