/* rss100k — memory of many parked threads: spawns N (default 100,000) user
 * threads that each park in a loop on their own flag, reads VmRSS, VmHWM and
 * VmPTE from /proc/self/status once all are parked, then wakes and joins
 * them all.  Reports MiB, bytes per thread (RSS growth / N) and the time per
 * thread of the two phases. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wuc.h>

#include "bench.h"
#include "park.h"

struct waiter {
  _Atomic bool go;
  _Atomic bool unparked; /* main's wuc_unpark of this thread is over */
};

static _Atomic long parked;

static void waiter(void *arg) {
  struct waiter *w = arg;
  atomic_fetch_add(&parked, 1);
  while (!atomic_load(&w->go)) wuc_park("rss100k", w);
  /* Main may not have unparked us yet (we can see `go` first on another
   * worker); unparking a finished thread is an error, so wait for it.  Only
   * for our own unpark: like the Go peer's goroutines, each thread ends as
   * soon as it is woken, not after all the others have been. */
  while (!atomic_load(&w->unparked)) uthread_yield();
}

static double mib(long long bytes) { return (double)bytes / (1024.0 * 1024.0); }

int main(int argc, char **argv) {
  long n = 100000;
  bench_args(argc, argv, &n, NULL);
  struct waiter *ws = malloc((size_t)n * sizeof *ws);
  uthread_t **ts = malloc((size_t)n * sizeof *ts);
  if (!ws || !ts) return 1;
  /* Touch the bookkeeping arrays now, so the RSS growth counts threads only
   * (the Go peer likewise makes its channels before its first reading). */
  memset(ws, 0, (size_t)n * sizeof *ws);
  memset(ts, 0, (size_t)n * sizeof *ts);

  long long rss0 = bench_proc_status_bytes("VmRSS");
  int64_t t0 = bench_now_ns();
  for (long i = 0; i < n; i++) ts[i] = uthread_spawn(waiter, &ws[i]);
  while (atomic_load(&parked) < n) uthread_yield();
  int64_t t1 = bench_now_ns();
  /* On more than one worker the last few may be between the count and the
   * park: give them time to get there before reading memory. */
  uthread_sleep(milliseconds(20));
  long long rss = bench_proc_status_bytes("VmRSS");
  long long hwm = bench_proc_status_bytes("VmHWM");
  long long pte = bench_proc_status_bytes("VmPTE");

  int64_t t2 = bench_now_ns();
  for (long i = 0; i < n; i++) {
    atomic_store(&ws[i].go, true);
    wuc_unpark(ts[i]);
    atomic_store(&ws[i].unparked, true);
  }
  for (long i = 0; i < n; i++) uthread_join(ts[i]);
  int64_t t3 = bench_now_ns();

  char config[64];
  unsigned p = wuc_processors();
#define EMIT(what, value, unit)                                                                    \
  do {                                                                                             \
    snprintf(config, sizeof config, "P%u-%s", p, what);                                            \
    bench_result("rss100k", config, (value), unit);                                                \
  } while (0)
  EMIT("VmRSS", mib(rss), "MiB");
  EMIT("VmHWM", mib(hwm), "MiB");
  EMIT("VmPTE", mib(pte), "MiB");
  EMIT("bytes-per-thread", (double)(rss - rss0) / (double)n, "B");
  EMIT("spawn+park", (double)(t1 - t0) / (double)n, "ns/thread");
  EMIT("wake+join", (double)(t3 - t2) / (double)n, "ns/thread");
  free(ws);
  free(ts);
  return 0;
}
