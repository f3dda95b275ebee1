/* A small test harness for sokod's C tests.
 *
 * A test program defines functions `static void name(void)` and lists them
 * in main with RUN(name). CHECK* macros record a failure with the file, the
 * line, what was checked and the values that differed, and let the test go
 * on; a test should also print (with note()) what it ran, so that a failure
 * says which level and which moves led to it. check_finish() prints
 * "N passed, N failed" and returns the exit status. */
#ifndef SOKO_CHECK_H
#define SOKO_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int check_failures_in_test;

/* Records one failed check; prints the location and the formatted reason. */
void check_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Adds context that is printed only if the current test fails. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void check_run(const char *name, void (*fn)(void));
int check_finish(void);

#define RUN(fn) check_run(#fn, fn)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            check_fail(__FILE__, __LINE__, "expected %s", #cond);                                  \
    } while (0)

/* CHECK with its own message, printf's format and arguments. */
#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            check_fail(__FILE__, __LINE__, __VA_ARGS__);                                           \
    } while (0)

#define CHECK_INT(actual, expected)                                                                \
    do {                                                                                           \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                \
        if (check_a_ != check_e_)                                                                  \
            check_fail(__FILE__, __LINE__, "%s is %lld, expected %s = %lld", #actual, check_a_,    \
                       #expected, check_e_);                                                       \
    } while (0)

#define CHECK_STR(actual, expected)                                                                \
    do {                                                                                           \
        const char *check_a_ = (actual), *check_e_ = (expected);                                   \
        if (check_a_ == NULL || strcmp(check_a_, check_e_) != 0)                                   \
            check_fail(__FILE__, __LINE__, "%s is \"%s\", expected \"%s\"", #actual,               \
                       check_a_ ? check_a_ : "(null)", check_e_);                                  \
    } while (0)

/* Reads a whole file into a NUL-terminated buffer the caller frees; NULL
 * (after a check failure naming the file) when it cannot be read. */
char *read_file(const char *path, size_t *len);

/* Path of a file under the shared folder (../shared beside the checkout). */
const char *shared_path(const char *relative);

#endif
