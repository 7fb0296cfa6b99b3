/* locked-cost — what one locked instruction costs on this machine, the unit
 * behind bench/locked_count.py's counts (docs/benchmarks.md, the channel
 * round trip).  One kernel thread, no libwuc; each line is the mean time of
 * one operation over -n (default 50,000,000) back to back on a line of its
 * own, and the last shows how much of fourteen locked instructions per
 * iteration — a channel round trip's count — ordinary work between them
 * hides (-work ordinary read-modify-writes of plain memory between two
 * locked ones, default 20).
 *
 *   RESULT name=locked-cost config=<operation> value=<ns> unit=ns/op */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct line {
  _Alignas(64) _Atomic uint64_t word;
};

static struct line lines[14];
static uint64_t plain[1024];
static volatile uint64_t sink;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void report(const char *config, double ns) {
  printf("RESULT name=locked-cost config=%s value=%.2f unit=ns/op\n", config, ns);
}

/* `work` plain read-modify-writes, their addresses spread by i. */
static inline void ordinary_work(long i, int work) {
  for (int j = 0; j < work; j++) {
    __asm__ volatile("" ::: "memory"); /* keeps each one a real load and store */
    plain[(i * 7 + j) & 1023] += (uint64_t)j;
  }
}

int main(int argc, char **argv) {
  long n = 50000000;
  int work = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n"))
      n = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "-work"))
      work = atoi(argv[i + 1]);
  }
  uint64_t s = 0;
  double t0 = now_ns();
  for (long i = 0; i < n; i++) s += atomic_fetch_add(&lines[0].word, 1);
  report("lock-xadd", (now_ns() - t0) / (double)n);

  t0 = now_ns();
  for (long i = 0; i < n; i++) {
    uint64_t expected = (uint64_t)i;
    s += atomic_compare_exchange_strong(&lines[1].word, &expected, (uint64_t)i + 1);
  }
  report("lock-cmpxchg", (now_ns() - t0) / (double)n);

  t0 = now_ns();
  for (long i = 0; i < n; i++) atomic_store(&lines[2].word, (uint64_t)i); /* xchg */
  report("xchg-store", (now_ns() - t0) / (double)n);

  t0 = now_ns();
  for (long i = 0; i < n; i++) {
    atomic_store_explicit(&lines[3].word, (uint64_t)i, memory_order_release);
    s += atomic_load_explicit(&lines[4].word, memory_order_acquire);
  }
  report("release-store+acquire-load", (now_ns() - t0) / (double)n);

  long rounds = n / 14;
  t0 = now_ns();
  for (long i = 0; i < rounds; i++)
    for (int l = 0; l < 14; l++) {
      s += atomic_fetch_add(&lines[l].word, 1);
      ordinary_work(i, work);
    }
  double with_locked = (now_ns() - t0) / (double)rounds;
  t0 = now_ns();
  for (long i = 0; i < rounds; i++)
    for (int l = 0; l < 14; l++) {
      s += atomic_load_explicit(&lines[l].word, memory_order_relaxed);
      ordinary_work(i, work);
    }
  double without = (now_ns() - t0) / (double)rounds;
  char config[64];
  snprintf(config, sizeof config, "14-locked-among-work%d", work);
  report(config, with_locked - without);
  sink = s;
  return 0;
}
