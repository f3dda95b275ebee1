/* The commands of the sokod program. Each takes the arguments after its own
 * name (argv[0] is the command's name) and returns the process exit status. */
#ifndef SOKOD_CLI_H
#define SOKOD_CLI_H

int cli_check(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_import(int argc, char **argv);

#endif
