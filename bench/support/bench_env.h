/* What a benchmark reads of the machine it runs on: the clock, its settings
 * from the environment, whole files, and the load average that says how
 * busy the machine was while it measured. */
#ifndef SOKOD_BENCH_ENV_H
#define SOKOD_BENCH_ENV_H

#include <stddef.h>
#include <stdint.h>

/* The monotonic clock, in microseconds. */
uint64_t bench_env_now_us(void);

/* The environment variable `name` as a number above 0, or fallback when it
 * is unset, 0 or not a number. */
unsigned bench_env_unsigned(const char *name, unsigned fallback);

/* The whole file at path, NUL-terminated, with its length in *len; the
 * caller frees it. NULL when it cannot be read. */
char *bench_env_read_file(const char *path, uint32_t *len);

/* The machine's load averages as Linux writes them ("0.77 2.99 3.62
 * 3/110 1005"), without the newline; "?" when they cannot be read. */
void bench_env_load(char *out, size_t cap);

#endif
