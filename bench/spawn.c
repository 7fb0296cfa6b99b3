/* spawn — uthread_spawn of a thread that does nothing, then uthread_join,
 * in a loop.  Reports ns per spawn+join.  Run with WUC_PROCESSORS=1 and =2. */
#include <stdio.h>

#include <wuc.h>

#include "bench.h"

static void nothing(void *arg) { (void)arg; }

static int64_t round_of(long n) {
  int64_t t0 = bench_now_ns();
  for (long i = 0; i < n; i++) uthread_join(uthread_spawn(nothing, NULL));
  return bench_now_ns() - t0;
}

int main(int argc, char **argv) {
  long iters = 1000000;
  bench_args(argc, argv, &iters, NULL);

  round_of(iters / 20 + 1); /* warm-up: workers started, a stack pooled */
  int64_t ns = round_of(iters);

  char config[32];
  snprintf(config, sizeof config, "P%u", wuc_processors());
  bench_result("spawn", config, (double)ns / (double)iters, "ns/op");
  return 0;
}
