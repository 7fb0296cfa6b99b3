/* select-order — the thesis's pathological case for Go's select
 * (bench/SHAPES.md, "select-order"): P1 and C1 select over channels A and B
 * (A first), P2 and C2 use only B.  Fixed window (-d, default 500 ms);
 * three results: receives per second of both consumers together and of each.
 * Config P<workers>-cap<K>-{total,pair1,pair2}.
 *
 * The consumers never finish: when the window is over main stops the
 * producers and joins them; the consumers drain what is left and stay
 * blocked until main returns (which ends the program).  So each run's
 * channels and threads are never freed. */
#include "lowered.h"
#include "shapes.h"

enum { PUBLISH = 256 };

struct counter {
  _Atomic long n;
  long sum; /* keeps the consumer's sum alive */
  char pad[64 - 2 * sizeof(long)];
};

struct run {
  chan_long a, b;
  struct counter cnt[2]; /* C1's and C2's receive counts, every 256th */
  _Atomic bool stop;
  latch over; /* set by the first consumer that sees the window over */
  int64_t window;
  struct shapes_group g;
};

static inline void tick(struct run *r, int k, long i, long sum) {
  atomic_store(&r->cnt[k].n, i);
  r->cnt[k].sum = sum;
  if (bench_now_ns() - r->g.t0 >= r->window) latch_set(&r->over); /* once: a load after */
}

static void p1(void *arg) {
  struct run *r = arg;
  for (long i = 0; !atomic_load_explicit(&r->stop, memory_order_relaxed); i++) {
    long x = i;
    /* waituntil (A << x) {} or waituntil (B << x) {} */
    lw_clause cl[] = {lw_send(&r->a, &x), lw_send(&r->b, &x)};
    lw_stmt st;
    int w = lw_or(&st, cl, 2);
    (void)lw_selected(&st, w);
    lw_end(&st, w);
  }
}

static void c1(void *arg) {
  struct run *r = arg;
  long sum = 0, v;
  for (long i = 1;; i++) {
    /* waituntil (v << A) { sum += v; } or waituntil (v << B) { sum += v; } */
    lw_clause cl[] = {lw_recv(&r->a, &v), lw_recv(&r->b, &v)};
    lw_stmt st;
    int w = lw_or(&st, cl, 2);
    if (lw_selected(&st, w)) sum += v; /* the same body in both clauses */
    lw_end(&st, w);
    if (i % PUBLISH == 0) tick(r, 0, i, sum);
  }
  __builtin_unreachable();
}

static void p2(void *arg) {
  struct run *r = arg;
  for (long i = 0; !atomic_load_explicit(&r->stop, memory_order_relaxed); i++) chan_send(&r->b, i);
}

static void c2(void *arg) {
  struct run *r = arg;
  long sum = 0, v;
  for (long i = 1;; i++) {
    chan_recv(&r->b, &v);
    sum += v;
    if (i % PUBLISH == 0) tick(r, 1, i, sum);
  }
  __builtin_unreachable();
}

struct outcome {
  long c1, c2;
  int64_t ns;
};

static struct outcome run_once(int64_t window, long cap) {
  struct run *r = shapes_alloc(sizeof *r); /* never freed: C1 and C2 stay blocked in it */
  chan_init(&r->a, (size_t)cap);
  chan_init(&r->b, (size_t)cap);
  r->window = window;
  shapes_group_init(&r->g, 4);
  uthread_t *tp1 = shapes_spawn(&r->g, p1, r);
  shapes_spawn(&r->g, c1, r);
  uthread_t *tp2 = shapes_spawn(&r->g, p2, r);
  shapes_spawn(&r->g, c2, r);
  shapes_group_open(&r->g);
  latch_wait(&r->over);
  struct outcome o;
  o.c1 = atomic_load(&r->cnt[0].n);
  o.c2 = atomic_load(&r->cnt[1].n);
  o.ns = bench_now_ns() - r->g.t0;
  atomic_store(&r->stop, true);
  uthread_join(tp1);
  uthread_join(tp2);
  return o;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "d cap");
  long cap = o.cap < 0 ? 0 : o.cap;
  int64_t window = o.d * 1000000;

  run_once(shapes_max(window / 20, 1000000), cap); /* warm-up */
  struct outcome r = run_once(window, cap);

  char config[128];
  double secs = (double)r.ns / 1e9;
  snprintf(config, sizeof config, "P%u-cap%ld-total", wuc_processors(), cap);
  bench_result("select-order", config, (double)(r.c1 + r.c2) / secs, "ops/s");
  snprintf(config, sizeof config, "P%u-cap%ld-pair1", wuc_processors(), cap);
  bench_result("select-order", config, (double)r.c1 / secs, "ops/s");
  snprintf(config, sizeof config, "P%u-cap%ld-pair2", wuc_processors(), cap);
  bench_result("select-order", config, (double)r.c2 / secs, "ops/s");
  return 0;
}
