/* env.c — see env.h. */
#include "env.h"

#include <errno.h>
#include <stdlib.h>

#include "fatal.h"

int64_t wuc_env_microseconds(const char *name, long long max_us, int64_t default_ns,
                             const char *expected) {
  const char *env = getenv(name);
  if (!env || !*env) return default_ns;
  char *end;
  errno = 0;
  long long us = strtoll(env, &end, 10);
  if (*end != '\0' || errno || us < 0 || us > max_us)
    wuc_fatal("%s=%s: expected %s", name, env, expected);
  return us * 1000;
}
