/* chan-pc — the Kotlin-paper producer/consumer benchmark (bench/SHAPES.md,
 * "chan-pc"): N producers and N consumers on ONE channel of capacity K;
 * after every send and every receive the thread does work(x, limit), a
 * geometric number (mean -w, default 100) of xorshift64 steps.  Counted: the
 * q·N elements.  Config P<workers>-N<N>-cap<K>-w<M>. */
#include "shapes.h"

static uint64_t work_sink; /* keeps the work loops' results alive */

struct run {
  chan_long ch;
  long q, pairs;
  uint64_t limit;
  long *sums;     /* per consumer */
  uint64_t *xs;   /* per thread: its final work state */
};

struct side {
  struct run *run;
  long k; /* thread index: producers 0..N-1, consumers N..2N-1 */
};

static void producer(void *arg) {
  struct side *s = arg;
  struct run *r = s->run;
  uint64_t x = work_seed(s->k), limit = r->limit;
  for (long i = 0; i < r->q; i++) {
    chan_send(&r->ch, i);
    x = work(x, limit);
  }
  r->xs[s->k] = x;
}

static void consumer(void *arg) {
  struct side *s = arg;
  struct run *r = s->run;
  uint64_t x = work_seed(s->k), limit = r->limit;
  long sum = 0, v;
  for (long i = 0; i < r->q; i++) {
    chan_recv(&r->ch, &v);
    sum += v;
    x = work(x, limit);
  }
  r->sums[s->k - r->pairs] = sum;
  r->xs[s->k] = x;
}

static int64_t run_once(long q, long pairs, long cap, long mean) {
  struct run *r = shapes_alloc(sizeof *r);
  chan_init(&r->ch, (size_t)cap);
  r->q = q;
  r->pairs = pairs;
  r->limit = work_limit(mean);
  r->sums = calloc((size_t)pairs, sizeof *r->sums);
  r->xs = calloc((size_t)(2 * pairs), sizeof *r->xs);
  struct side *sides = calloc((size_t)(2 * pairs), sizeof *sides);
  if (!r->sums || !r->xs || !sides) shapes_die("bench_chan-pc", "out of memory");
  struct shapes_group g;
  shapes_group_init(&g, (unsigned)(2 * pairs));
  for (long k = 0; k < 2 * pairs; k++) {
    sides[k] = (struct side){r, k};
    shapes_spawn(&g, k < pairs ? producer : consumer, &sides[k]);
  }
  int64_t ns = shapes_group_run(&g);
  long total = 0;
  for (long c = 0; c < pairs; c++) total += r->sums[c];
  for (long k = 0; k < 2 * pairs; k++) work_sink += r->xs[k];
  shapes_check_sum("chan-pc", total, pairs * shapes_triangle(q));
  chan_destroy(&r->ch);
  shapes_group_free(&g);
  free(sides);
  free(r->sums);
  free(r->xs);
  free(r);
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n t cap w");
  long cap = o.cap < 0 ? 0 : o.cap;
  long pairs = o.t ? o.t : shapes_per_side();
  long n = o.n ? o.n : 1000000;
  long q = shapes_max(n / pairs, 1);

  run_once(shapes_max(q / 20, 1), pairs, cap, o.w); /* warm-up */
  int64_t ns = run_once(q, pairs, cap, o.w);

  char config[128];
  snprintf(config, sizeof config, "P%u-N%ld-cap%ld-w%ld", wuc_processors(), pairs, cap, o.w);
  bench_result("chan-pc", config, shapes_per_second(q * pairs, ns), "ops/s");
  if (work_sink == 42) puts(""); /* never; the sink must look used */
  return 0;
}
