/* Text from level files, which may be UTF-8 or ISO-8859-1, made UTF-8. */
#ifndef SOKOD_UTF8_H
#define SOKOD_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* True when s[0..len) is well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
bool utf8_valid(const char *s, size_t len);

/* Copies len bytes as UTF-8: as they are when they are valid UTF-8,
 * otherwise read as ISO-8859-1 (as in older level files). Drops control
 * characters other than tab and newline. Returns a malloc'd string, or NULL
 * when out of memory. */
char *utf8_copy(const char *s, size_t len);

/* utf8_copy with every run of blanks, tabs and line breaks made one space,
 * and none at either end: for one-line fields such as titles. */
char *utf8_copy_line(const char *s, size_t len);

#endif
