/* shapes.h — what the mirrors of bench/SHAPES.md (the channel, select,
 * future and timeout benchmarks) share with each other and with their Go
 * peers (bench/peers/go/common.go): the flags, the start barrier and timing
 * ("Timing: from the start barrier to the last thread's end"), the checksum
 * and the chan-pc work loop.  Everything is static, so
 * each benchmark stays one program. */
#ifndef WUC_BENCH_SHAPES_H
#define WUC_BENCH_SHAPES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wuc.h>

#include "bench.h"

/* The element type of every benchmark is long, in channel(long): Go's int64. */
_Static_assert(sizeof(long) == 8, "long is Go's int64 (LP64)");

/* Channels have cache-line-aligned counters: allocate them aligned. */
static inline void *shapes_alloc(size_t size) {
  size = (size + 63) / 64 * 64;
  void *p = aligned_alloc(64, size);
  if (!p) {
    perror("aligned_alloc");
    exit(2);
  }
  memset(p, 0, size);
  return p;
}

/* ---- flags (the Go peer's, bench/SHAPES.md "Flags") ------------------------- */

struct shapes_opts {
  long n;   /* -n: 0 = the benchmark's default */
  long d;   /* -d: window in ms (select-order) */
  long t;   /* -t: 0 = the benchmark's default */
  long c;   /* -c */
  long cap; /* -cap: -1 = the benchmark's default */
  long w;   /* -w */
  long us;  /* -us: timer-latency's timeout in microseconds */
  const char *pred, *mode, *shape, *timer, *done;
};

static inline void shapes_usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [-n N] [-d MS] [-t T] [-c C] [-cap K] [-w M] [-pred P] [-mode M]\n"
          "          [-shape S] [-timer T] [-done D] [-us D]   (bench/SHAPES.md; each\n"
          "          benchmark uses its own subset)\n",
          prog);
  exit(2);
}

static inline long shapes_number(const char *prog, const char *flag, const char *s, long min) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < min) {
    fprintf(stderr, "%s: %s expects an integer >= %ld, got '%s'\n", prog, flag, min, s);
    exit(2);
  }
  return v;
}

/* `accepts` lists the flags this benchmark takes, e.g. "n t c cap". */
static inline struct shapes_opts shapes_args(int argc, char **argv, const char *accepts) {
  struct shapes_opts o = {.n = 0, .d = 500, .t = 0, .c = 2, .cap = -1, .w = 100, .us = 10000};
  for (int i = 1; i < argc; i++) {
    const char *f = argv[i];
    if (f[0] != '-' || i + 1 == argc) shapes_usage(argv[0]);
    const char *name = f + 1, *v = argv[++i];
    /* whole-word match in `accepts` */
    size_t len = strlen(name);
    bool ok = false;
    for (const char *p = accepts; (p = strstr(p, name)) != NULL; p += len)
      if ((p == accepts || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) ok = true;
    if (!ok || len == 0) shapes_usage(argv[0]);
    if (!strcmp(name, "n"))
      o.n = shapes_number(argv[0], f, v, 1);
    else if (!strcmp(name, "d"))
      o.d = shapes_number(argv[0], f, v, 1);
    else if (!strcmp(name, "t"))
      o.t = shapes_number(argv[0], f, v, 1);
    else if (!strcmp(name, "c"))
      o.c = shapes_number(argv[0], f, v, 1);
    else if (!strcmp(name, "cap"))
      o.cap = shapes_number(argv[0], f, v, 0);
    else if (!strcmp(name, "w"))
      o.w = shapes_number(argv[0], f, v, 0);
    else if (!strcmp(name, "us"))
      o.us = shapes_number(argv[0], f, v, 1);
    else if (!strcmp(name, "pred"))
      o.pred = v;
    else if (!strcmp(name, "mode"))
      o.mode = v;
    else if (!strcmp(name, "shape"))
      o.shape = v;
    else if (!strcmp(name, "timer"))
      o.timer = v;
    else if (!strcmp(name, "done"))
      o.done = v;
    else
      shapes_usage(argv[0]);
  }
  return o;
}

static inline __attribute__((noreturn)) void shapes_die(const char *prog, const char *msg) {
  fprintf(stderr, "%s: %s\n", prog, msg);
  exit(2);
}

static inline long shapes_max(long a, long b) { return a > b ? a : b; }

/* Producers = consumers per side: max(1, workers/2), as the thesis splits
 * the cores evenly. */
static inline long shapes_per_side(void) { return shapes_max(1, (long)wuc_processors() / 2); }

/* ---- checksum ---------------------------------------------------------------- */

/* 0 + 1 + ... + (q-1): what one producer sending its loop index q times adds. */
static inline long shapes_triangle(long q) { return q * (q - 1) / 2; }

static inline void shapes_check_sum(const char *bench, long got, long want) {
  if (got != want) {
    fprintf(stderr, "bench_%s: received values sum to %ld, want %ld\n", bench, got, want);
    exit(1);
  }
}

/* ---- the start barrier (Go: type group in common.go) ------------------------- */

struct shapes_member {
  struct shapes_group *g;
  void (*fn)(void *);
  void *arg;
  uthread_t *thread;
};

struct shapes_group {
  _Atomic long ready;
  latch start;
  int64_t t0; /* written before start is set; members may read it after */
  unsigned count, max;
  struct shapes_member *members;
};

static inline void shapes_group_init(struct shapes_group *g, unsigned max) {
  memset(g, 0, sizeof *g);
  g->max = max;
  g->members = calloc(max, sizeof *g->members);
  if (!g->members) {
    perror("calloc");
    exit(2);
  }
}

static inline void shapes_member_main(void *arg) {
  struct shapes_member *m = arg;
  atomic_fetch_add(&m->g->ready, 1);
  latch_wait(&m->g->start);
  m->fn(m->arg);
}

/* Adds a member: it counts itself ready, then waits at the barrier. */
static inline uthread_t *shapes_spawn(struct shapes_group *g, void (*fn)(void *), void *arg) {
  if (g->count == g->max) shapes_die("shapes", "too many members");
  struct shapes_member *m = &g->members[g->count++];
  m->g = g;
  m->fn = fn;
  m->arg = arg;
  m->thread = uthread_spawn(shapes_member_main, m);
  return m->thread;
}

/* Opens the barrier once every member waits at it (main: yield until all are
 * ready; t0; latch_set) and returns the time until all have been joined. */
static inline int64_t shapes_group_run(struct shapes_group *g) {
  while (atomic_load(&g->ready) < (long)g->count) uthread_yield();
  g->t0 = bench_now_ns();
  latch_set(&g->start);
  for (unsigned i = 0; i < g->count; i++) uthread_join(g->members[i].thread);
  return bench_now_ns() - g->t0;
}

/* Opens the barrier without joining (select-order's consumers never end). */
static inline void shapes_group_open(struct shapes_group *g) {
  while (atomic_load(&g->ready) < (long)g->count) uthread_yield();
  g->t0 = bench_now_ns();
  latch_set(&g->start);
}

static inline void shapes_group_free(struct shapes_group *g) { free(g->members); }

static inline double shapes_per_second(long count, int64_t ns) {
  return (double)count * 1e9 / (double)ns;
}

/* ---- the work loop (chan-pc, work): bench/SHAPES.md, exactly ----------------- */

/* Geometric number of xorshift64 steps with mean `mean`: stop when the state
 * falls below limit = UINT64_MAX / mean (probability 1/mean per step). */
static inline uint64_t work(uint64_t x, uint64_t limit) {
  if (limit == 0) return x; /* -w 0: no work */
  for (;;) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    if (x < limit) return x;
  }
}
static inline uint64_t work_limit(long mean) { return mean <= 0 ? 0 : UINT64_MAX / (uint64_t)mean; }
static inline uint64_t work_seed(long k) { return (uint64_t)(k + 1) * 0x9E3779B97F4A7C15u; }

#endif
