/* Reports of checked files, as JSON and as text. */
#include "library/check_report.h"

#include <string.h>

json_t *check_report_rows(const char *board)
{
    json_t *rows = json_array();
    const char *p = board != NULL ? board : "";
    while (rows != NULL && *p != '\0') {
        const char *end = strchr(p, '\n');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        json_array_append_new(rows, json_stringn(p, n));
        p += n + (end != NULL ? 1 : 0);
    }
    return rows;
}

static json_t *text(const char *s)
{
    json_t *j = json_string(s != NULL ? s : "");
    return j != NULL ? j : json_string("?");
}

static json_t *problem_json(const struct check_problem *p, bool in_pack)
{
    json_t *o = json_pack("{s:i,s:i,s:s,s:o}", "line", (int)p->line, "col", (int)p->col, "code",
                          p->code != NULL ? p->code : "error", "message", text(p->message));
    if (o != NULL && in_pack)
        json_object_set_new(o, "offset", json_integer(p->offset));
    return o;
}

static const char *solution_result(enum check_solution_result r)
{
    switch (r) {
    case CHECK_SOLUTION_SOLVED:
        return "solved";
    case CHECK_SOLUTION_UNSOLVED:
        return "unsolved";
    case CHECK_SOLUTION_FAILED:
        return "failed";
    case CHECK_SOLUTION_UNREADABLE:
        return "unreadable";
    case CHECK_SOLUTION_OVER_BUDGET:
        return "over_budget";
    case CHECK_SOLUTION_NOT_PLAYED:
        break;
    }
    return "not_played";
}

static json_t *solution_json(const struct check_solution *s)
{
    json_t *o = json_pack("{s:o,s:i,s:s}", "title", text(s->title), "line", (int)s->line, "result",
                          solution_result(s->result));
    if (o == NULL)
        return NULL;
    if (s->result == CHECK_SOLUTION_SOLVED || s->result == CHECK_SOLUTION_UNSOLVED) {
        json_object_set_new(o, "moves", json_integer(s->moves));
        json_object_set_new(o, "pushes", json_integer(s->pushes));
    }
    if (s->lurd != NULL)
        json_object_set_new(o, "lurd", json_string(s->lurd));
    if (s->result == CHECK_SOLUTION_UNREADABLE)
        json_object_set_new(o, "col", json_integer(s->col));
    if (s->result == CHECK_SOLUTION_FAILED)
        json_object_set_new(o, "step", json_integer(s->step));
    if (s->result != CHECK_SOLUTION_SOLVED)
        json_object_set_new(o, "message", text(s->message));
    return o;
}

static json_t *duplicate_json(const struct check_level *l)
{
    switch (l->duplicate) {
    case CHECK_DUPLICATE_IN_FILE:
        return json_pack("{s:s,s:i}", "where", "file", "number", (int)l->duplicate_number);
    case CHECK_DUPLICATE_IN_LIBRARY:
        return json_pack("{s:s,s:I,s:o,s:I,s:o}", "where", "library", "level_id",
                         (json_int_t)l->duplicate_level, "title", text(l->duplicate_title),
                         "collection_id", (json_int_t)l->duplicate_collection, "collection",
                         text(l->duplicate_collection_name));
    case CHECK_UNIQUE:
        break;
    }
    return json_null();
}

json_t *check_report_solver_json(const struct check_level *l)
{
    const char *name = check_solver_name(l->solver);
    if (name == NULL)
        return json_null();
    json_t *o = json_pack("{s:s}", "status", name);
    if (o != NULL && l->solver == CHECK_SOLVER_SOLVABLE) {
        json_object_set_new(o, "moves", json_integer(l->solver_moves));
        json_object_set_new(o, "pushes", json_integer(l->solver_pushes));
    }
    if (o != NULL && l->solver >= CHECK_SOLVER_SOLVABLE && l->solver <= CHECK_SOLVER_UNKNOWN)
        json_object_set_new(o, "seconds", json_real(l->solver_seconds));
    return o;
}

void check_report_solver_read(const json_t *solver, struct check_level *l)
{
    const char *name = json_string_value(json_object_get(solver, "status"));
    l->solver = CHECK_SOLVER_NONE;
    for (int s = CHECK_SOLVER_PENDING; name != NULL && s <= CHECK_SOLVER_OVER_BUDGET; s++) {
        if (strcmp(name, check_solver_name((enum check_solver)s)) == 0)
            l->solver = (enum check_solver)s;
    }
    l->solver_moves = (uint32_t)json_integer_value(json_object_get(solver, "moves"));
    l->solver_pushes = (uint32_t)json_integer_value(json_object_get(solver, "pushes"));
    l->solver_seconds = json_number_value(json_object_get(solver, "seconds"));
}

static json_t *level_json(const struct check_report *r, const struct check_level *l)
{
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)l->hash);
    json_t *o = json_pack("{s:i,s:i,s:o,s:o,s:o,s:b}", "number", (int)l->number, "line",
                          (int)l->line, "title", text(l->title), "author", text(l->author),
                          "comment", text(l->comment), "valid", l->valid);
    if (o == NULL)
        return NULL;
    json_t *errors = json_array();
    if (l->valid) {
        json_object_set_new(o, "width", json_integer(l->width));
        json_object_set_new(o, "height", json_integer(l->height));
        json_object_set_new(o, "boxes", json_integer(l->boxes));
        json_object_set_new(o, "rows", check_report_rows(l->board));
        json_object_set_new(o, "hash", json_string(hash));
    } else {
        json_array_append_new(errors, problem_json(&l->error, r->format == CHECK_FORMAT_PACK));
    }
    json_object_set_new(o, "errors", errors);
    json_object_set_new(o, "duplicate", duplicate_json(l));
    json_object_set_new(o, "restores", l->restores != 0 ? json_integer(l->restores) : json_null());
    json_t *sols = json_array();
    for (uint32_t s = 0; s < l->nsolutions; s++)
        json_array_append_new(sols, solution_json(&l->solutions[s]));
    json_object_set_new(o, "solutions", sols);
    if (l->solutions_total > l->nsolutions)
        json_object_set_new(o, "solutions_not_replayed",
                            json_integer(l->solutions_total - l->nsolutions));
    json_object_set_new(o, "solver", check_report_solver_json(l));
    json_object_set_new(o, "imported_id",
                        l->imported_id != 0 ? json_integer(l->imported_id) : json_null());
    return o;
}

json_t *check_report_json(const struct check_report *r)
{
    json_t *levels = json_array();
    for (size_t i = 0; levels != NULL && i < r->nlevels; i++) {
        if (json_array_append_new(levels, level_json(r, &r->levels[i])) != 0) {
            json_decref(levels);
            return NULL;
        }
    }
    return json_pack("{s:o,s:s,s:o,s:o,s:o,s:o,s:{s:i,s:i,s:i,s:i},s:o}", "file", text(r->filename),
                     "format", check_format_name(r->format), "name", text(r->name), "description",
                     text(r->description), "author", text(r->author), "error",
                     r->failed ? problem_json(&r->file_error, false) : json_null(), "summary",
                     "levels", (int)r->nlevels, "valid", (int)r->valid, "invalid", (int)r->invalid,
                     "duplicates", (int)r->duplicates, "levels", levels);
}

/* "level 4 (Title)" or "level 4". */
static void level_name(const struct check_level *l, char *out, size_t cap)
{
    if (l->title != NULL && l->title[0] != '\0')
        snprintf(out, cap, "level %u (%.80s)", l->number, l->title);
    else
        snprintf(out, cap, "level %u", l->number);
}

/* FILE:LINE:COL, FILE:LINE or FILE, then ": ". */
static void print_place(FILE *out, const char *file, uint32_t line, uint32_t col)
{
    if (line > 0 && col > 0)
        fprintf(out, "%s:%u:%u: ", file, line, col);
    else if (line > 0)
        fprintf(out, "%s:%u: ", file, line);
    else
        fprintf(out, "%s: ", file);
}

static void print_level(const struct check_report *r, const struct check_level *l, FILE *out)
{
    char name[128];
    level_name(l, name, sizeof name);
    if (l->title != NULL && l->title[0] != '\0')
        fprintf(out, "  %u \"%s\": ", l->number, l->title);
    else
        fprintf(out, "  %u: ", l->number);
    if (!l->valid) {
        fprintf(out, "invalid\n");
        if (r->format == CHECK_FORMAT_PACK) {
            fprintf(out, "%s: %s (byte %u)", r->filename, name, l->error.offset);
            if (l->error.line > 0)
                fprintf(out, ", row %u", l->error.line);
            if (l->error.col > 0)
                fprintf(out, ", column %u", l->error.col);
            fprintf(out, ": %s\n", l->error.message);
        } else {
            print_place(out, r->filename, l->error.line, l->error.col);
            fprintf(out, "%s: %s\n", name, l->error.message);
        }
        return;
    }
    fprintf(out, "ok %ux%u, %u box%s", l->width, l->height, l->boxes, l->boxes == 1 ? "" : "es");
    unsigned solved = 0;
    for (uint32_t s = 0; s < l->nsolutions; s++)
        solved += l->solutions[s].result == CHECK_SOLUTION_SOLVED;
    if (l->nsolutions == 1)
        fprintf(out, ", its solution %s", solved == 1 ? "solves it" : "does not solve it");
    else if (l->nsolutions > 1)
        fprintf(out, ", %u of its %u solutions solve it", solved, l->nsolutions);
    if (l->duplicate == CHECK_DUPLICATE_IN_FILE)
        fprintf(out, ", duplicate of level %u of this file", l->duplicate_number);
    else if (l->duplicate == CHECK_DUPLICATE_IN_LIBRARY)
        fprintf(out, ", duplicate of level %lld \"%s\" in collection \"%s\"",
                (long long)l->duplicate_level, l->duplicate_title, l->duplicate_collection_name);
    else if (l->restores != 0)
        fprintf(out, ", brings back deleted level %lld with its players' games",
                (long long)l->restores);
    fprintf(out, "\n");
    for (uint32_t s = 0; s < l->nsolutions; s++) {
        const struct check_solution *sol = &l->solutions[s];
        if (sol->result == CHECK_SOLUTION_SOLVED)
            continue;
        print_place(out, r->filename, sol->line,
                    sol->result == CHECK_SOLUTION_UNREADABLE ? sol->col : 0);
        fprintf(out, "%s, solution %u%s%s%s: %s\n", name, s + 1, sol->title[0] != '\0' ? " (" : "",
                sol->title, sol->title[0] != '\0' ? ")" : "", sol->message);
    }
}

/* True when a level has more to say than "ok". */
static bool remarkable(const struct check_level *l)
{
    if (!l->valid || l->duplicate != CHECK_UNIQUE || l->restores != 0)
        return true;
    for (uint32_t s = 0; s < l->nsolutions; s++) {
        if (l->solutions[s].result != CHECK_SOLUTION_SOLVED)
            return true;
    }
    return false;
}

void check_report_print(const struct check_report *r, FILE *out, bool all)
{
    if (all)
        fprintf(out, "%s (%s, %zu level%s)\n", r->filename, check_format_name(r->format),
                r->nlevels, r->nlevels == 1 ? "" : "s");
    if (r->failed) {
        print_place(out, r->filename, r->file_error.line, r->file_error.col);
        fprintf(out, "%s\n", r->file_error.message);
    }
    for (size_t i = 0; i < r->nlevels; i++) {
        if (all || remarkable(&r->levels[i]))
            print_level(r, &r->levels[i], out);
    }
}
