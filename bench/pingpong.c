/* pingpong — a round trip through park/unpark between two user threads:
 * A (main) gives the turn to B, unparks B and parks; B gives it back,
 * unparks A and parks.  Reports ns per round trip.  Run with
 * WUC_PROCESSORS=1 and =2. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include <wuc.h>

#include "bench.h"
#include "park.h"

static _Atomic int turn; /* 0: A's turn, 1: B's; only the thread whose turn it is writes */
static _Atomic bool a_finished;
static uthread_t *thread_a;
static long rounds;

static void b_side(void *arg) {
  (void)arg;
  for (long i = 0; i < rounds; i++) {
    while (atomic_load_explicit(&turn, memory_order_acquire) != 1) wuc_park("pingpong B", &turn);
    atomic_store_explicit(&turn, 0, memory_order_release);
    wuc_unpark(thread_a); /* A is main: it outlives this call */
  }
  /* A's last unpark of us may still be on its way (we can see the turn
   * before it lands): unparking a finished thread is an error, so stay alive
   * until A is done with us. */
  while (!atomic_load(&a_finished)) uthread_yield();
}

static int64_t round_of(long n) {
  rounds = n;
  atomic_store(&turn, 0);
  atomic_store(&a_finished, false);
  uthread_t *b = uthread_spawn(b_side, NULL);
  int64_t t0 = bench_now_ns();
  for (long i = 0; i < n; i++) {
    atomic_store_explicit(&turn, 1, memory_order_release);
    wuc_unpark(b);
    while (atomic_load_explicit(&turn, memory_order_acquire) != 0) wuc_park("pingpong A", &turn);
  }
  int64_t ns = bench_now_ns() - t0;
  atomic_store(&a_finished, true);
  uthread_join(b);
  return ns;
}

int main(int argc, char **argv) {
  long iters = 3000000;
  bench_args(argc, argv, &iters, NULL);
  thread_a = uthread_self();

  round_of(iters / 20 + 1); /* warm-up */
  int64_t ns = round_of(iters);

  char config[32];
  snprintf(config, sizeof config, "P%u", wuc_processors());
  bench_result("pingpong", config, (double)ns / (double)iters, "ns/op");
  return 0;
}
