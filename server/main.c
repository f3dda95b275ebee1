/* sokod: the Sokoban server and its command-line tools, in one program. */
#include "cli/cli.h"
#include "revision.h"

#include <stdio.h>
#include <string.h>

/* sokod version (and sokod --version): the release, and the commit built
 * when the build had one. */
static int print_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (SOKOD_REVISION[0] != '\0')
        printf("sokod %s (git %s)\n", SOKOD_VERSION, SOKOD_REVISION);
    else
        printf("sokod %s\n", SOKOD_VERSION);
    return 0;
}

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"check", cli_check, "read level collections and report every level's errors"},
    {"replay", cli_replay, "replay the solutions found in level files"},
    {"serve", cli_serve, "serve the game over HTTP (the default without a command)"},
    {"import", cli_import, "import level files into the database"},
    {"admin", cli_admin, "create admin accounts; grant and revoke the admin right"},
    {"solve", cli_solve, "solve the levels of level files and print their solutions"},
    {"optimise", cli_optimise, "make the solutions written in level files shorter"},
    {"generate", cli_generate, "generate solvable levels from a seed"},
    {"backup", cli_backup, "copy the database to a file, safely while the server runs"},
    {"restore", cli_restore, "replace the database with a backup (the server stopped)"},
    {"copy", cli_copy, "copy a whole database to another, SQLite or PostgreSQL"},
    {"version", print_version, "print the version and the commit sokod was built from"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: sokod COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'sokod COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0)
        return print_version(argc - 1, argv + 1);
    /* No command, or flags only: serve. */
    if (argc < 2 || argv[1][0] == '-')
        return cli_serve(argc, argv);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "sokod: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
