/* The background solvability check of uploaded levels: one thread that
 * takes the levels of checked uploads one by one (staging.h) and gives the
 * solver a time limit on each, off the HTTP threads. A level comes out
 * solvable (with the moves and pushes of the solution found), unsolvable, or
 * unknown when the time ran out. Results go into the upload's report and,
 * for levels imported meanwhile, into the library. */
#ifndef SOKOD_SOLVECHECK_H
#define SOKOD_SOLVECHECK_H

/* Starts the thread when staging gives the solver time (seconds > 0).
 * Returns 0, or -1 when the thread cannot start. */
int solvecheck_start(void);

/* Stops the thread (call staging_stop first, which cancels its search). */
void solvecheck_stop(void);

#endif
