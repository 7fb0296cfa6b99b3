/* env.h — the runtime's settings read from the environment (docs/library.md,
 * "Environment variables"). */
#ifndef WUC_RUNTIME_ENV_H
#define WUC_RUNTIME_ENV_H

#include <stdint.h>

/* The variable `name` as whole microseconds from 0 to max_us, in
 * nanoseconds; default_ns when it is unset or empty.  Anything else stops
 * the program: "<name>=<value>: expected <expected>". */
int64_t wuc_env_microseconds(const char *name, long long max_us, int64_t default_ns,
                             const char *expected);

#endif
