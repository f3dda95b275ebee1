/* The background solvability check of uploaded levels: one thread per
 * node that takes jobs from the database one by one (staging.h, jobs.h):
 * the checks of uploads that a stopped node left, and the levels of
 * checked uploads, on which it gives the solver a time limit (when
 * staging gives it time), off the HTTP threads. A level comes out
 * solvable (with the moves and pushes of the solution found), unsolvable, or
 * unknown when the time ran out. Results go into the upload's report and,
 * for levels imported meanwhile, into the library. */
#ifndef SOKOD_SOLVECHECK_H
#define SOKOD_SOLVECHECK_H

/* Starts the thread. Returns 0, or -1 when the thread cannot start. */
int solvecheck_start(void);

/* Stops the thread (call staging_stop first, which cancels its search). */
void solvecheck_stop(void);

#endif
