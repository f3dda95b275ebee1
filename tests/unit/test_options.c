/* Command-line flags (server/base/options.c): what a table of rows reads
 * into its settings, where it stops and why, and the help it prints. Each
 * failure names the arguments read and what came out. */
#include "base/options.h"
#include "check.h"

#include <stdlib.h>

struct settings {
    bool verbose;
    unsigned port;
    uint64_t big;
    uint16_t small;
    char name[8];
    char nonempty[8];
    int mode;
};

/* "fast" or "slow" into an int field. */
static int store_mode(void *field, const char *value)
{
    if (strcmp(value, "fast") == 0)
        *(int *)field = 1;
    else if (strcmp(value, "slow") == 0)
        *(int *)field = 2;
    else if (strcmp(value, "broken") == 0)
        return OPTIONS_STOP;
    else
        return OPTIONS_REFUSED;
    return OPTIONS_STORED;
}

enum { FIRST = 1, SECOND = 2 };

static const struct options_row rows[] = {
    {"verbose", NULL, 0, NULL, "say more", OPTIONS_SWITCH(struct settings, verbose)},
    {"port", "TEST_PORT", FIRST, "PORT", "port", OPTIONS_NUMBER(struct settings, port, 1, 65535)},
    {"big", NULL, 0, "N", "a big one", OPTIONS_NUMBER(struct settings, big, 0, UINT64_MAX)},
    {"small", NULL, SECOND, "N", "a small one\non two lines",
     OPTIONS_NUMBER(struct settings, small, 0, 65535)},
    {"name", NULL, 0, "NAME", "a name", OPTIONS_TEXT(struct settings, name, 0)},
    {"nonempty", NULL, 0, "NAME", "a name", OPTIONS_TEXT(struct settings, nonempty, 1)},
    {"mode", NULL, FIRST | SECOND, "MODE", "fast or slow",
     OPTIONS_BY(struct settings, mode, store_mode)},
    {"help", NULL, 0, NULL, "print this help", OPTIONS_HELP},
    OPTIONS_END,
};

/* Parses the space-separated words of line (after a command name) for
 * `command` with `flags` into *s. The words live in a static buffer. */
static enum options_status parse(const char *line, unsigned command, unsigned flags,
                                 struct settings *s, struct options_result *r)
{
    static char buf[256];
    static char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    argv[argc++] = "test";
    for (char *w = strtok(buf, " "); w != NULL && argc < 31; w = strtok(NULL, " "))
        argv[argc++] = strcmp(w, "''") == 0 ? "" : w;
    argv[argc] = NULL;
    memset(s, 0, sizeof *s);
    return options_parse(rows, command, flags, s, argc, argv, r);
}

static void each_kind_stores_its_field(void)
{
    struct settings s;
    struct options_result r;
    enum options_status st =
        parse("--verbose --port 8080 --big 18446744073709551615 --small 7 --name abcdefg "
              "--nonempty x --mode slow",
              FIRST | SECOND, 0, &s, &r);
    CHECK_INT(st, OPTIONS_OK);
    CHECK(s.verbose);
    CHECK_INT(s.port, 8080);
    CHECK(s.big == UINT64_MAX);
    CHECK_INT(s.small, 7);
    CHECK_STR(s.name, "abcdefg");
    CHECK_STR(s.nonempty, "x");
    CHECK_INT(s.mode, 2);
    CHECK_INT(r.nargs, 0);
}

static void errors_name_the_argument_at_fault(void)
{
    static const struct {
        const char *line;
        unsigned command, flags;
        enum options_status status;
        const char *arg, *value;
    } cases[] = {
        {"--port", FIRST, 0, OPTIONS_MISSING, "--port", NULL},
        {"--port 0", FIRST, 0, OPTIONS_INVALID, "--port", "0"},
        {"--port 65536", FIRST, 0, OPTIONS_INVALID, "--port", "65536"},
        {"--port +80", FIRST, 0, OPTIONS_INVALID, "--port", "+80"},
        {"--port -1", FIRST, 0, OPTIONS_INVALID, "--port", "-1"},
        {"--port 80x", FIRST, 0, OPTIONS_INVALID, "--port", "80x"},
        {"--port ''", FIRST, 0, OPTIONS_INVALID, "--port", ""},
        {"--port=abc", FIRST, OPTIONS_EQUALS, OPTIONS_INVALID, "--port=abc", "abc"},
        {"--port=abc", FIRST, 0, OPTIONS_UNKNOWN, "--port=abc", NULL},
        {"--big 18446744073709551616", FIRST, 0, OPTIONS_INVALID, "--big", "18446744073709551616"},
        {"--small 65536", SECOND, 0, OPTIONS_INVALID, "--small", "65536"},
        {"--name abcdefgh", FIRST, 0, OPTIONS_INVALID, "--name", "abcdefgh"},
        {"--nonempty ''", FIRST, 0, OPTIONS_INVALID, "--nonempty", ""},
        {"--mode medium", FIRST, 0, OPTIONS_INVALID, "--mode", "medium"},
        {"--mode broken --verbose", FIRST, 0, OPTIONS_FAILED, "--mode", "broken"},
        {"--verbose=1", FIRST, OPTIONS_EQUALS, OPTIONS_UNKNOWN, "--verbose=1", NULL},
        {"--small 1", FIRST, 0, OPTIONS_UNKNOWN, "--small", "1"},
        {"--frob", FIRST, 0, OPTIONS_UNKNOWN, "--frob", NULL},
        {"-x file", FIRST, 0, OPTIONS_UNKNOWN, "-x", "file"},
        {"file", FIRST, OPTIONS_NO_ARGS, OPTIONS_UNKNOWN, "file", NULL},
        {"-- x", FIRST, OPTIONS_NO_ARGS, OPTIONS_UNKNOWN, "--", "x"},
        {"- x", FIRST, OPTIONS_NO_ARGS, OPTIONS_UNKNOWN, "-", "x"},
        {"--verbose --help --frob", FIRST, 0, OPTIONS_WANTS_HELP, "--help", NULL},
        {"--frob --help", FIRST, 0, OPTIONS_UNKNOWN, "--frob", "--help"},
        {"file -h", FIRST, 0, OPTIONS_WANTS_HELP, NULL, NULL},
        {"--help=1", FIRST, OPTIONS_EQUALS, OPTIONS_UNKNOWN, "--help=1", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct settings s;
        struct options_result r;
        enum options_status st = parse(cases[i].line, cases[i].command, cases[i].flags, &s, &r);
        const char *want_arg = cases[i].arg, *want_value = cases[i].value;
        bool arg_ok = want_arg == NULL || (r.arg != NULL && strcmp(r.arg, want_arg) == 0);
        bool value_ok = want_value == NULL ? r.value == NULL
                                           : r.value != NULL && strcmp(r.value, want_value) == 0;
        if (st != cases[i].status || r.status != st || !arg_ok || !value_ok)
            check_fail(__FILE__, __LINE__,
                       "'%s': status %d arg '%s' value '%s'; expected %d '%s' '%s'", cases[i].line,
                       st, r.arg ? r.arg : "(null)", r.value ? r.value : "(null)", cases[i].status,
                       want_arg ? want_arg : "(any)", want_value ? want_value : "(null)");
    }
}

static void arguments_are_gathered_in_order(void)
{
    struct settings s;
    struct options_result r;
    enum options_status st = parse("a --port 9 - b -- --verbose -c", FIRST, 0, &s, &r);
    note("arguments read: %d, the first '%s'", r.nargs, r.nargs > 0 ? r.args[0] : "");
    static const char *const want[] = {"a", "-", "b", "--verbose", "-c"};
    bool same = r.nargs == 5;
    for (int i = 0; same && i < 5; i++)
        same = strcmp(r.args[i], want[i]) == 0;
    CHECK_INT(st, OPTIONS_OK);
    CHECK(same);
    CHECK_INT(s.port, 9);
    CHECK(!s.verbose);
}

static void equals_form_takes_its_value(void)
{
    struct settings s;
    struct options_result r;
    enum options_status st = parse("--port=81 --name= --mode=fast", FIRST, OPTIONS_EQUALS, &s, &r);
    CHECK_INT(st, OPTIONS_OK);
    CHECK_INT(s.port, 81);
    CHECK_STR(s.name, "");
    CHECK_INT(s.mode, 1);
}

static void usage_lists_the_rows_of_the_command(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK(out != NULL);
    if (out == NULL)
        return;
    options_usage(out, rows, SECOND, 12, 2);
    fclose(out);
    const char *want = "  --verbose     say more\n"
                       "  --big N       a big one\n"
                       "  --small N     a small one\n"
                       "                on two lines\n"
                       "  --name NAME   a name\n"
                       "  --nonempty NAME  a name\n"
                       "  --mode MODE   fast or slow\n"
                       "  --help        print this help\n";
    CHECK_STR(text, want);
    free(text);
    text = NULL;
    out = open_memstream(&text, &len);
    if (out == NULL)
        return;
    options_usage(out, rows, FIRST, 6, 1);
    fclose(out);
    note("usage for FIRST:\n%s", text);
    CHECK(strstr(text, "  --port PORT port [$TEST_PORT]\n") != NULL);
    CHECK(strstr(text, "--small") == NULL);
    free(text);
}

int main(void)
{
    RUN(each_kind_stores_its_field);
    RUN(errors_name_the_argument_at_fault);
    RUN(arguments_are_gathered_in_order);
    RUN(equals_form_takes_its_value);
    RUN(usage_lists_the_rows_of_the_command);
    return check_finish();
}
