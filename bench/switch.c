/* switch — the bare context switch: wuc_context_switch between two contexts
 * with no scheduler in between.  Reports ns per switch (one direction).
 *
 * Two shapes, because the return-stack predictor makes them differ:
 *   bare            main and a peer function ping-pong: each switch returns
 *                   to a different call site than the one that called it,
 *                   so every `ret` in the switch is mispredicted;
 *   bare-same-site  two contexts run the same loop, so each switch returns
 *                   to the very call site it was entered from (the case of
 *                   the scheduler, where threads switch from the same spot). */
#include <stdlib.h>

#include "bench.h"
#include "context.h"

enum { STACK = 64 * 1024 };

static wuc_context main_ctx, peer_ctx;

/* bare: the peer only ever hands control straight back. */
static void peer(void *arg) {
  (void)arg;
  for (;;) wuc_context_switch(&peer_ctx, &main_ctx);
}

static void run_bare(long round_trips) {
  for (long i = 0; i < round_trips; i++) wuc_context_switch(&main_ctx, &peer_ctx);
}

/* bare-same-site: both sides bounce from one call site until `remaining`
 * switches are done; whichever side is running then returns to main. */
struct side {
  wuc_context ctx;
  struct side *other;
};
static struct side sides[2];
static struct side *parked_with_main; /* the side that switched to main last */
static long remaining;

static void bounce(void *arg) {
  struct side *me = arg;
  for (;;) {
    while (remaining-- > 0) wuc_context_switch(&me->ctx, &me->other->ctx);
    parked_with_main = me;
    wuc_context_switch(&me->ctx, &main_ctx);
  }
}

static void run_same_site(long switches) {
  remaining = switches;
  wuc_context_switch(&main_ctx, &parked_with_main->ctx);
}

static char *new_stack(void) {
  char *stack = aligned_alloc(64, STACK);
  if (!stack) exit(1);
  return stack + STACK;
}

int main(int argc, char **argv) {
  long iters = 20000000; /* switches */
  bench_args(argc, argv, &iters, NULL);

  char *top = new_stack();
  wuc_context_init(&peer_ctx, top - STACK, top, peer, NULL);
  sides[0].other = &sides[1];
  sides[1].other = &sides[0];
  for (int i = 0; i < 2; i++) {
    top = new_stack();
    wuc_context_init(&sides[i].ctx, top - STACK, top, bounce, &sides[i]);
  }
  parked_with_main = &sides[0];
  /* The contexts stay suspended forever; their stacks are never freed. */

  long round_trips = (iters + 1) / 2;
  run_bare(round_trips / 20 + 1); /* warm caches and predictors */
  int64_t t0 = bench_now_ns();
  run_bare(round_trips);
  int64_t t1 = bench_now_ns();
  bench_result("switch", "bare", (double)(t1 - t0) / (2.0 * round_trips), "ns/op");

  run_same_site(iters / 20 + 1);
  t0 = bench_now_ns();
  run_same_site(iters);
  t1 = bench_now_ns();
  bench_result("switch", "bare-same-site", (double)(t1 - t0) / (double)iters, "ns/op");
  return 0;
}
