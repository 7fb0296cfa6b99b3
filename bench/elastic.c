/* elastic — seed 002's four benchmarks (bench/SHAPES.md, "elastic"): one
 * producer sends 0 … n-1 and closes; one consumer receives n elements and
 * checks that the i-th is i.  Counted: n.  Config P<workers>-<mode>:
 *
 *   FixedNoBuf  capacity 0, concurrent
 *   Fixed1024   capacity 1024, concurrent
 *   Seq         wuc's own unbounded channel (CHAN_UNBOUNDED); the producer
 *               sends all n and closes, only then the consumer starts
 *   Con         the unbounded channel, concurrent
 *
 * Go has no unbounded channel: its peer emulates one with a goroutine
 * between two cap-128 channels (seed 002's elasticRun1).  Here there is no
 * emulation: that is the comparison.  DESIGN.md's goal compares wuc with
 * itself: Seq and Con >= 0.9 x wuc's Fixed1024. */
#include "shapes.h"

enum mode { FIXED_NO_BUF, FIXED_1024, SEQ, CON };

struct run {
  chan_long c;
  long n;
  enum mode mode;
  latch produced; /* Seq: set after the producer's close */
};

static void produce(void *arg) {
  struct run *r = arg;
  for (long i = 0; i < r->n; i++) chan_send(&r->c, i);
  chan_close(&r->c);
  latch_set(&r->produced);
}

static void consume(void *arg) {
  struct run *r = arg;
  if (r->mode == SEQ) latch_wait(&r->produced);
  long v;
  for (long i = 0; i < r->n; i++) {
    chan_recv(&r->c, &v);
    if (v != i) {
      fprintf(stderr, "bench_elastic: received %ld, want %ld\n", v, i);
      exit(1);
    }
  }
}

static int64_t run_once(long n, enum mode mode) {
  struct run *r = shapes_alloc(sizeof *r);
  size_t cap = mode == FIXED_NO_BUF ? 0 : mode == FIXED_1024 ? 1024 : CHAN_UNBOUNDED;
  chan_init(&r->c, cap);
  r->n = n;
  r->mode = mode;
  struct shapes_group g;
  shapes_group_init(&g, 2);
  shapes_spawn(&g, produce, r);
  shapes_spawn(&g, consume, r);
  int64_t ns = shapes_group_run(&g);
  shapes_group_free(&g);
  chan_destroy(&r->c);
  free(r);
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n mode");
  const char *m = o.mode ? o.mode : "FixedNoBuf";
  enum mode mode;
  long def;
  if (!strcmp(m, "FixedNoBuf")) mode = FIXED_NO_BUF, def = 2000000;
  else if (!strcmp(m, "Fixed1024")) mode = FIXED_1024, def = 6000000;
  else if (!strcmp(m, "Seq")) mode = SEQ, def = 4000000;
  else if (!strcmp(m, "Con")) mode = CON, def = 4000000;
  else shapes_die(argv[0], "-mode must be FixedNoBuf, Fixed1024, Seq or Con");
  long n = o.n ? o.n : def;

  run_once(shapes_max(n / 20, 1), mode); /* warm-up */
  int64_t ns = run_once(n, mode);

  char config[128];
  snprintf(config, sizeof config, "P%u-%s", wuc_processors(), m);
  bench_result("elastic", config, shapes_per_second(n, ns), "ops/s");
  return 0;
}
