/* work — the chan-pc work loop alone (bench/SHAPES.md, "work"): -n calls of
 * work(x, limit) with mean -w (default 100) on one thread, as the Go peer
 * times it on its main goroutine.  ns per call, config w<M>.  Not a
 * comparison by itself: it checks that the C loop costs what Go's does, so
 * that chan-pc compares channels, not compilers. */
#include "shapes.h"

static volatile uint64_t work_sink;

static int64_t run_once(long n, uint64_t limit) {
  uint64_t x = work_seed(0);
  int64_t t0 = bench_now_ns();
  for (long i = 0; i < n; i++) x = work(x, limit);
  int64_t ns = bench_now_ns() - t0;
  work_sink += x;
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n w");
  long n = o.n ? o.n : 2000000;
  uint64_t limit = work_limit(o.w);

  run_once(shapes_max(n / 20, 1), limit); /* warm-up */
  int64_t ns = run_once(n, limit);

  char config[128];
  snprintf(config, sizeof config, "w%ld", o.w);
  bench_result("work", config, (double)ns / (double)n, "ns/op");
  return 0;
}
