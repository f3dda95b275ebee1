/* Checking a level file before anything is imported: the same checks for
 * `sokod import` and for uploads through the API. A file in any of the
 * three formats (the text format, SLC XML, a SokoPy binary pack) becomes a
 * report: every level with its title, author, size, boxes and normalised
 * board, or its error located by line and column; the level it duplicates,
 * earlier in the file or already in the library (rotations and mirror
 * images count); the solutions written in the file, replayed. */
#ifndef SOKOD_CHECK_H
#define SOKOD_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum check_format { CHECK_FORMAT_AUTO, CHECK_FORMAT_TEXT, CHECK_FORMAT_SLC, CHECK_FORMAT_PACK };

/* An error, located in the file: 1-based line and column (0 when it has no
 * place). In a pack, which has no lines, line and col count rows and
 * squares of the level, and offset is the byte where the level starts. */
struct check_problem {
    uint32_t line, col;
    uint32_t offset;
    const char *code; /* a short name: "open", "no_player", "xml", "pack" ... */
    char message[256];
};

enum check_solution_result {
    CHECK_SOLUTION_SOLVED,
    CHECK_SOLUTION_UNSOLVED,    /* it plays to its end and leaves boxes off goals */
    CHECK_SOLUTION_FAILED,      /* a step walks into a wall or pushes a box that cannot move */
    CHECK_SOLUTION_UNREADABLE,  /* not LURD */
    CHECK_SOLUTION_NOT_PLAYED,  /* the level is invalid */
    CHECK_SOLUTION_OVER_BUDGET, /* not replayed: the file's steps budget was spent */
};

struct check_solution {
    char *title;
    char *lurd; /* the steps as played (pushes in upper case) when solved, else NULL */
    uint32_t line, col;
    enum check_solution_result result;
    uint32_t moves, pushes;
    uint32_t step; /* FAILED: the 1-based step refused */
    char message[160];
};

enum check_duplicate { CHECK_UNIQUE, CHECK_DUPLICATE_IN_FILE, CHECK_DUPLICATE_IN_LIBRARY };

/* What the background solver found (see solvecheck.h). */
enum check_solver {
    CHECK_SOLVER_NONE,    /* not asked */
    CHECK_SOLVER_PENDING, /* waiting for its turn */
    CHECK_SOLVER_RUNNING,
    CHECK_SOLVER_SOLVABLE,
    CHECK_SOLVER_UNSOLVABLE,
    CHECK_SOLVER_UNKNOWN,     /* the time limit ran out first */
    CHECK_SOLVER_OVER_BUDGET, /* not checked: the upload's solver time was spent */
};

struct check_level {
    uint32_t number; /* 1-based position in the file */
    uint32_t line;   /* where the level starts in the file (0 in a pack) */
    char *title, *author, *comment;
    bool valid;
    struct check_problem error; /* when not valid */
    char *board;                /* valid: the normalised rows, each ending in '\n' */
    uint32_t width, height, boxes;
    uint64_t hash;
    enum check_duplicate duplicate;
    uint32_t duplicate_number; /* in the file: the earlier level's number */
    int64_t duplicate_level;   /* in the library: the level's id, its collection ... */
    int64_t duplicate_collection;
    char *duplicate_title, *duplicate_collection_name;
    int64_t restores; /* a deleted level with the same hash, which the import brings back */
    struct check_solution *solutions;
    uint32_t nsolutions;
    uint32_t solutions_total; /* found in the file, even beyond those kept */
    enum check_solver solver;
    uint32_t solver_moves, solver_pushes;
    double solver_seconds;
    int64_t imported_id; /* the level's id once imported, else 0 */
};

struct check_report {
    char *filename;
    enum check_format format;
    char *name;        /* the collection's name in the file, else the file's name */
    char *description; /* its notes */
    char *author;      /* its credit */
    bool failed;       /* the file could not be read as a whole */
    struct check_problem file_error;
    struct check_level *levels;
    size_t nlevels;
    unsigned valid, invalid, duplicates; /* duplicates are valid levels too */
};

/* Checks the file in data[0..len) (named `filename`, for messages and as
 * the collection's name when the file gives none). With `library`, looks
 * up each valid level's hash in the database on the calling thread's
 * connection, for duplicates and for deleted levels to bring back.
 * Returns a report the caller frees with check_report_free, or NULL when
 * out of memory or when the database fails (logged). A file that cannot be
 * read as a whole still gives a report, with `failed` set. */
struct check_report *check_run(const char *data, size_t len, const char *filename,
                               enum check_format format, bool library);

/* check_run with a budget: the file's solutions are decoded and replayed up
 * to max_steps steps in all (0: no budget), so that the check's time is
 * bounded whatever the file holds. A solution past the budget is reported
 * CHECK_SOLUTION_OVER_BUDGET; one that fails to decode is charged all that
 * was left. */
struct check_report *check_run_within(const char *data, size_t len, const char *filename,
                                      enum check_format format, bool library, uint64_t max_steps);

/* Looks up the report's valid levels in the library again (it may have
 * changed since the check), clearing what no longer holds. Returns 0, or
 * -1 when the database fails. */
int check_lookup_library(struct check_report *r);

void check_report_free(struct check_report *r);

/* "text", "slc" or "pack". */
const char *check_format_name(enum check_format f);

/* Parses "text", "slc", "pack" or "auto"; false for anything else. */
bool check_format_parse(const char *name, enum check_format *out);

/* Why a solution's step was refused, in words, for a core error code
 * (SOKO_E_WALL, SOKO_E_BLOCKED, SOKO_E_FULL; the core's name otherwise). */
const char *check_step_words(int code);

/* "pending", "solvable", ... for solver states; NULL for CHECK_SOLVER_NONE. */
const char *check_solver_name(enum check_solver s);

#endif
