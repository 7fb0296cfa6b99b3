/* timeout-loop — a receive-or-timeout in a loop where the 1-second timeout
 * never fires (bench/SHAPES.md, "timeout-loop"); n receives.  Shapes
 * (-shape): `ready`, one thread refilling a cap-1 channel before every
 * statement (nothing blocks: the cost of the timeout clause itself); `pc`, a
 * producer thread on a rendezvous channel (the consumer often blocks, so
 * the timer is really started and cancelled).  -timer: `timeout` (default)
 * for the statement, `none` for the bare receive.  Config
 * P<workers>-<shape>-timeout / -none; the harness pairs -timeout with each of
 * Go's ways (after, reuse, reuse with asynctimerchan=1).
 *
 *   waituntil (v << ch) { sum += v; } or waituntil (timeout(1`s)) { fail(); } */
#include "lowered.h"
#include "shapes.h"

struct run {
  chan_long ch;
  long q;
  bool ready_shape, with_timeout;
  long sum;
};

static __attribute__((noreturn, cold)) void expired(void) {
  fprintf(stderr, "bench_timeout-loop: the timeout fired\n");
  exit(1);
}

static void consumer(void *arg) {
  struct run *r = arg;
  long sum = 0, v = 0;
  if (r->with_timeout) {
    for (long i = 0; i < r->q; i++) {
      if (r->ready_shape) chan_send(&r->ch, i);
      /* waituntil (v << ch) { sum += v; } or waituntil (timeout(1`s)) { fail(); } */
      lw_clause cl[] = {lw_recv(&r->ch, &v), lw_timeout(seconds(1))};
      lw_stmt st;
      int w = lw_or(&st, cl, 2);
      if (lw_selected(&st, w)) {
        if (w == 0) sum += v;
        else expired();
      }
      lw_end(&st, w);
    }
  } else {
    for (long i = 0; i < r->q; i++) {
      if (r->ready_shape) chan_send(&r->ch, i);
      chan_recv(&r->ch, &v);
      sum += v;
    }
  }
  r->sum = sum;
}

static void producer(void *arg) {
  struct run *r = arg;
  for (long i = 0; i < r->q; i++) chan_send(&r->ch, i);
}

static int64_t run_once(long q, bool ready_shape, bool with_timeout) {
  struct run *r = shapes_alloc(sizeof *r);
  chan_init(&r->ch, ready_shape ? 1 : 0);
  r->q = q;
  r->ready_shape = ready_shape;
  r->with_timeout = with_timeout;
  struct shapes_group g;
  shapes_group_init(&g, 2);
  if (!ready_shape) shapes_spawn(&g, producer, r);
  shapes_spawn(&g, consumer, r);
  int64_t ns = shapes_group_run(&g);
  shapes_check_sum("timeout-loop", r->sum, shapes_triangle(q));
  shapes_group_free(&g);
  chan_destroy(&r->ch);
  free(r);
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n shape timer");
  const char *shape = o.shape ? o.shape : "ready";
  const char *timer = o.timer ? o.timer : "timeout";
  bool ready_shape = !strcmp(shape, "ready");
  if (!ready_shape && strcmp(shape, "pc")) shapes_die(argv[0], "-shape must be ready or pc");
  bool with_timeout = !strcmp(timer, "timeout");
  if (!with_timeout && strcmp(timer, "none")) shapes_die(argv[0], "-timer must be timeout or none");
  long n = o.n ? o.n : (with_timeout ? 4000000 : 10000000) / (ready_shape ? 1 : 4);

  run_once(shapes_max(n / 20, 1), ready_shape, with_timeout); /* warm-up */
  int64_t ns = run_once(n, ready_shape, with_timeout);

  char config[128];
  snprintf(config, sizeof config, "P%u-%s-%s", wuc_processors(), shape, timer);
  bench_result("timeout-loop", config, shapes_per_second(n, ns), "ops/s");
  return 0;
}
