/* The flags of the commands (cli_options.h). */
#include "cli/cli_options.h"

#include <stdio.h>

static void usage(const struct cli_command *cmd, FILE *out)
{
    fputs(cmd->about, out);
    options_usage(out, cmd->rows, 0, cmd->pad, 2);
    fprintf(out, "\n%s", cmd->after);
}

int cli_options(const struct cli_command *cmd, void *settings, int argc, char **argv,
                struct options_result *r)
{
    unsigned flags = cmd->files ? 0 : OPTIONS_NO_ARGS;
    switch (options_parse(cmd->rows, 0, flags, settings, argc, argv, r)) {
    case OPTIONS_OK:
        break;
    case OPTIONS_WANTS_HELP:
        usage(cmd, stdout);
        return 0;
    case OPTIONS_FAILED:
        return 1;
    default:
        if (cmd->complain == NULL || !cmd->complain(r))
            fprintf(stderr, "sokod %s: unknown option '%s'\n", cmd->name, r->arg);
        fputc('\n', stderr);
        usage(cmd, stderr);
        return 2;
    }
    if (cmd->files && r->nargs == 0) {
        usage(cmd, stderr);
        return 2;
    }
    return -1;
}

int cli_config(struct config *cfg, unsigned command, int argc, char **argv, const char *synopsis,
               const char *about)
{
    int loaded = config_load(cfg, command, argc, argv);
    if (loaded == 1) {
        config_usage(command, synopsis);
        if (about != NULL)
            printf("\n%s", about);
        return 0;
    }
    return loaded < 0 ? 2 : -1;
}
