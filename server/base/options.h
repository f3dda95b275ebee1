/* Command-line flags, read one way for every sokod command: a table of rows,
 * each binding a flag (--name) to the field of the command's settings it
 * fills, ended by OPTIONS_END. The table also prints the command's help. */
#ifndef SOKOD_OPTIONS_H
#define SOKOD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How a row reads its value into its field. */
enum options_kind {
    OPTIONS_KIND_END,    /* the row that ends a table */
    OPTIONS_KIND_HELP,   /* --help: no value, no field */
    OPTIONS_KIND_SWITCH, /* no value: sets the bool field to true */
    OPTIONS_KIND_NUMBER, /* a whole number from min to max, into an unsigned field of
                          * 1, 2, 4 or 8 bytes */
    OPTIONS_KIND_TEXT,   /* text of min bytes or more copied into a char array */
    OPTIONS_KIND_BY,     /* text the row's own function reads */
};

/* What a store function returns: its value read, a value it does not take
 * (the caller says so), or a failure it has already reported, after which
 * the command stops. */
enum { OPTIONS_STORED = 0, OPTIONS_REFUSED = -1, OPTIONS_STOP = -2 };

struct options_row {
    const char *name;       /* the flag without its dashes */
    const char *env;        /* the environment variable that may set it, or NULL */
    unsigned commands;      /* which commands of a shared table take it; 0: all */
    const char *value_name; /* as the help names the value; NULL when none */
    const char *help;       /* lines after the first are indented under it */
    enum options_kind kind;
    int (*store)(void *field, const char *value); /* OPTIONS_KIND_BY only */
    size_t offset, size;                          /* the field in the settings */
    unsigned long long min, max;
};

/* The ends of rows, binding a field of the settings struct `type`. */
#define OPTIONS_FIELD(type, field) offsetof(type, field), sizeof(((type *)0)->field)
#define OPTIONS_SWITCH(type, field) OPTIONS_KIND_SWITCH, NULL, OPTIONS_FIELD(type, field), 0, 0
#define OPTIONS_NUMBER(type, field, lo, hi)                                                        \
    OPTIONS_KIND_NUMBER, NULL, OPTIONS_FIELD(type, field), (lo), (hi)
#define OPTIONS_TEXT(type, field, min_len)                                                         \
    OPTIONS_KIND_TEXT, NULL, OPTIONS_FIELD(type, field), (min_len), 0
#define OPTIONS_BY(type, field, fn) OPTIONS_KIND_BY, (fn), OPTIONS_FIELD(type, field), 0, 0
#define OPTIONS_HELP OPTIONS_KIND_HELP, NULL, 0, 0, 0, 0
#define OPTIONS_END                                                                                \
    {                                                                                              \
        NULL, NULL, 0, NULL, NULL, OPTIONS_KIND_END, NULL, 0, 0, 0, 0                              \
    }

/* Ways of reading arguments, for options_parse's flags. */
enum {
    OPTIONS_EQUALS = 1,  /* a value may follow its flag after '=' (--port=80) */
    OPTIONS_NO_ARGS = 2, /* every argument is a flag; "--" ends nothing */
};

/* What options_parse found. */
enum options_status {
    OPTIONS_OK,         /* every flag read */
    OPTIONS_WANTS_HELP, /* --help or -h */
    OPTIONS_UNKNOWN,    /* a flag no row of the command names, or any non-flag under NO_ARGS */
    OPTIONS_MISSING,    /* a flag that takes a value ends the arguments */
    OPTIONS_INVALID,    /* a value its row does not take */
    OPTIONS_FAILED,     /* a row's function failed and said why */
};

struct options_result {
    enum options_status status;
    const char *arg;               /* the argument at fault, as typed */
    const struct options_row *row; /* its row, when there is one */
    const char *value;             /* its value; for an unknown flag, the argument after it */
    char **args;                   /* the arguments that are not flags, in order */
    int nargs;
};

/* Reads argv[1..argc) (argv[0] is the command's name) against the rows
 * that `command` takes (0 for a table of one command), storing each value
 * into settings as its row says, until the first error. Arguments that are
 * not flags ("-" is one; all after "--") are gathered at the front of argv
 * and named by r->args. Returns r->status; r says where an error is. */
enum options_status options_parse(const struct options_row *rows, unsigned command, unsigned flags,
                                  void *settings, int argc, char **argv, struct options_result *r);

/* Stores value into settings as row says. Returns OPTIONS_STORED,
 * OPTIONS_REFUSED (settings may hold part of it) or OPTIONS_STOP. */
int options_store(const struct options_row *row, void *settings, const char *value);

/* Reads a whole number of decimal digits only, from min to max. Returns 0,
 * or -1 (*out unchanged) when text is not one. */
int options_read_number(const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out);

/* Prints the rows `command` takes, one a line: "  --name VALUE" padded to
 * pad columns, gap spaces, the help, and " [$ENV]" for a row with a
 * variable. */
void options_usage(FILE *out, const struct options_row *rows, unsigned command, int pad, int gap);

#endif
