/* fault_util.h — what the fault and load tests share: their scale, a seeded
 * random generator, the resident set size, and failing with a message. */
#ifndef WUC_FAULT_UTIL_H
#define WUC_FAULT_UTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* $WUC_STRESS_SCALE multiplies the work, as for test/stress (long runs). */
static inline long fault_scale(void) {
  const char *s = getenv("WUC_STRESS_SCALE");
  long k = s ? strtol(s, NULL, 10) : 1;
  return k > 0 ? k : 1;
}

/* Failing a check prints what broke; exit status 1 (the runtime's own fatal
 * errors exit with 2, a crash with a signal, so the three stay apart). */
static inline void fault_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("FAILED: ", stdout);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
  fflush(stdout);
  exit(1);
}

/* xorshift64*: each thread keeps its own state, seeded from the run's seed. */
static inline uint64_t fault_rand(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* The run's seed: $WUC_FAULT_SEED, default 1. */
static inline uint64_t fault_seed(void) {
  const char *s = getenv("WUC_FAULT_SEED");
  return s ? strtoull(s, NULL, 10) : 1;
}

/* A generator state (never zero) for stream k of seed: one per thread. */
static inline uint64_t fault_stream(uint64_t seed, uint64_t k) {
  uint64_t x = (seed + k + 1) * 0x9E3779B97F4A7C15ULL;
  return (x ^ (x >> 31)) | 1;
}

/* A field of /proc/self/status in KiB ("VmRSS", "VmHWM"), -1 if unknown. */
static inline long fault_status_kib(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  size_t n = strlen(field);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, n) == 0 && line[n] == ':') {
      kib = strtol(line + n + 1, NULL, 10);
      break;
    }
  fclose(f);
  return kib;
}

#endif
