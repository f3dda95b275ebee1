/* A check's report as JSON (for the API) and as text (for the command line). */
#ifndef SOKOD_CHECK_REPORT_H
#define SOKOD_CHECK_REPORT_H

#include "library/check.h"

#include <jansson.h>
#include <stdio.h>

/* The whole report: the file's name, format, collection name, description
 * and credit, its error if it cannot be read, a summary of counts and one
 * object per level (see docs/api.md). Returns a new object, or NULL when
 * out of memory. */
json_t *check_report_json(const struct check_report *r);

/* A level's solver verdict as the report shows it (JSON null when the solver
 * was not asked), and back: check_report_solver_read sets the level's
 * solver fields from such an object (CHECK_SOLVER_NONE from anything else). */
json_t *check_report_solver_json(const struct check_level *l);
void check_report_solver_read(const json_t *solver, struct check_level *l);

/* The rows of a board text ("#####\n#@$.#\n...") as a JSON array of strings. */
json_t *check_report_rows(const char *board);

/* Prints the report as `sokod check` prints levels: one line per level,
 * and every error as FILE:LINE:COL: level N (title): message. Without
 * `all`, only the levels with something to say (errors, duplicates,
 * solutions that fail). */
void check_report_print(const struct check_report *r, FILE *out, bool all);

#endif
