/* The flags of the commands, read with options.h: those of the commands
 * that read level files (check, replay, solve, generate), reported in one
 * voice, and those of config.c's table (serve, import, admin, backup,
 * restore). */
#ifndef SOKOD_CLI_OPTIONS_H
#define SOKOD_CLI_OPTIONS_H

#include "base/config.h"
#include "base/options.h"

#include <stdbool.h>

/* A command's help is `about`, its rows (the flag column padded to pad),
 * a blank line and `after`. */
struct cli_command {
    const char *name;               /* as in "sokod check: unknown option" */
    const char *about;              /* the usage line and what the command does */
    const struct options_row *rows; /* its flags, ended by OPTIONS_END */
    int pad;                        /* the width of the help's flag column */
    const char *after;              /* its exit statuses */
    bool files;                     /* takes FILE... (one at least); else no argument */
    /* Says on stderr, in one line, what is wrong with a value (r's status
     * OPTIONS_MISSING or OPTIONS_INVALID), and may word other errors; false
     * leaves an error to the common words. NULL when no flag takes a value. */
    bool (*complain)(const struct options_result *r);
};

/* Reads the flags of argv[1..argc) into settings as cmd's rows say; the
 * files named are then r->args. Returns -1 when the command goes on, else
 * its exit status, after printing: 0 for --help (on stdout); 2 for a usage
 * error (what is wrong, then the help, on stderr); 1 when a flag's own
 * function failed (it said why). */
int cli_options(const struct cli_command *cmd, void *settings, int argc, char **argv,
                struct options_result *r);

/* Fills *cfg for `command` (CONFIG_SERVE, CONFIG_IMPORT or CONFIG_ADMIN)
 * with config_load; the arguments that are not flags are then cfg->args.
 * Returns -1 when the command goes on, else its exit status: 0 after
 * printing the help (the flags, then, after a blank line, `about` unless
 * it is NULL), 2 after config_load said what is wrong. */
int cli_config(struct config *cfg, unsigned command, int argc, char **argv, const char *synopsis,
               const char *about);

/* The rows most commands share. */
#define CLI_JSON_ROW(type)                                                                         \
    {                                                                                              \
        "json", NULL, 0, NULL, "print one JSON document instead", OPTIONS_SWITCH(type, json)       \
    }
#define CLI_HELP_ROW                                                                               \
    {                                                                                              \
        "help", NULL, 0, NULL, "show this help", OPTIONS_HELP                                      \
    }

#endif
