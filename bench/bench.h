/* bench.h — shared helpers for the wuc benchmarks: argument parsing, timing,
 * memory readings and the one result-line format the harness (run.py) parses:
 *
 *   RESULT name=<bench> config=<cfg> value=<number> unit=<ns/op|MB|B/thread>
 *
 * Everything is static inline so each benchmark stays one self-contained file. */
#ifndef WUC_BENCH_H
#define WUC_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Keeps the compiler from moving memory accesses across a timing point. */
#define BENCH_BARRIER() __asm__ volatile("" ::: "memory")

static inline int64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Parses "-n COUNT" (iterations) and "-t THREADS" from argv; anything else is
 * a usage error.  Defaults are left untouched when the option is absent. */
static inline void bench_args(int argc, char **argv, long *iters, long *threads) {
  for (int i = 1; i < argc; i++) {
    long *dst = NULL;
    if (strcmp(argv[i], "-n") == 0)
      dst = iters;
    else if (strcmp(argv[i], "-t") == 0 && threads)
      dst = threads;
    if (!dst || i + 1 == argc) {
      fprintf(stderr, "usage: %s [-n ITERATIONS]%s\n", argv[0], threads ? " [-t THREADS]" : "");
      exit(2);
    }
    char *end;
    long v = strtol(argv[++i], &end, 10);
    if (*end != '\0' || v < 1) {
      fprintf(stderr, "%s: %s expects a positive integer, got '%s'\n", argv[0], argv[i - 1],
              argv[i]);
      exit(2);
    }
    *dst = v;
  }
}

static inline void bench_result(const char *name, const char *config, double value,
                                const char *unit) {
  printf("RESULT name=%s config=%s value=%.3f unit=%s\n", name, config, value, unit);
  fflush(stdout);
}

/* A "VmRSS:"-style field of /proc/self/status, in bytes (-1 if missing). */
static inline long long bench_proc_status_bytes(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  size_t len = strlen(field);
  long long kib = -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, field, len) == 0 && line[len] == ':') {
      kib = strtoll(line + len + 1, NULL, 10);
      break;
    }
  }
  fclose(f);
  return kib < 0 ? -1 : kib * 1024;
}

#endif
