/* sokod solve: the solver on level files, from the command line. */
#ifndef SOKOD_CLI_SOLVE_H
#define SOKOD_CLI_SOLVE_H

/* Solves every level of the files named in argv (after argv[0], the
 * command's name) and prints each result and a summary; see its --help.
 * Returns the exit status: 0 when every level was solved, 1 when one was not
 * or a file could not be read, 2 on a usage error. */
int cli_solve(int argc, char **argv);

#endif
