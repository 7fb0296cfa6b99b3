/* yield — uthread_yield in a loop, in -t N spawned threads (main waits in
 * uthread_join).  -t 1: one thread yields alone (the cost of a yield that
 * finds nobody else to run); -t N (N >= 2): N threads yield to each other.
 * The yielders are spawned even for -t 1: a program that never spawns runs
 * one worker whatever WUC_PROCESSORS says, so a lone yield on main at
 * WUC_PROCESSORS=2 would measure the 1-worker path.  Reports total yields /
 * elapsed time. */
#include <stdio.h>

#include <wuc.h>

#include "bench.h"

static void yielder(void *arg) {
  long n = *(const long *)arg;
  for (long i = 0; i < n; i++) uthread_yield();
}

/* Runs `threads` yielders of `per_thread` yields each; returns elapsed ns.
 * Spawn and join are timed too: against ~10^7 yields they are noise. */
static int64_t round_of(long threads, long per_thread) {
  int64_t t0 = bench_now_ns();
  uthread_t **ts = malloc(sizeof *ts * (size_t)threads);
  if (!ts) exit(1);
  for (long i = 0; i < threads; i++) ts[i] = uthread_spawn(yielder, &per_thread);
  for (long i = 0; i < threads; i++) uthread_join(ts[i]);
  free(ts);
  return bench_now_ns() - t0;
}

int main(int argc, char **argv) {
  long iters = 10000000, threads = 2;
  bench_args(argc, argv, &iters, &threads);
  long per_thread = iters / threads;
  if (per_thread < 1) per_thread = 1;

  round_of(threads, per_thread / 20 + 1); /* warm-up: workers started, stacks pooled */
  int64_t ns = round_of(threads, per_thread);

  char config[64];
  snprintf(config, sizeof config, "P%u-T%ld", wuc_processors(), threads);
  bench_result("yield", config, (double)ns / (double)(per_thread * threads), "ns/op");
  return 0;
}
