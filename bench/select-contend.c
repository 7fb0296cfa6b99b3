/* select-contend — the thesis channel benchmark (bench/SHAPES.md,
 * "select-contend"): N producers and N consumers; every operation is one
 * all-or waituntil over C channels (C = 2, 4, 8) of capacity K.  Counted:
 * the q·N receives.  Config P<workers>-N<N>-C<C>-cap<K>.
 *
 * The statements are hand-lowered (lowered.h); each is written out per C,
 * selected by a switch as the Go peer's selects are. */
#include "lowered.h"
#include "shapes.h"

struct run {
  chan_long *chans; /* 8, the first C initialised */
  int c;
  long q;
  long sums[];      /* one per consumer */
};

struct side {
  struct run *run;
  int index;
};

/* One statement: send x on any of the C channels. */
static inline void send_any(chan_long *chans, int c, long x) {
  lw_stmt st;
  int w;
  switch (c) {
  case 2: {
    /* waituntil (chans[0] << x) {} or waituntil (chans[1] << x) {} */
    lw_clause cl[] = {lw_send(&chans[0], &x), lw_send(&chans[1], &x)};
    w = lw_or(&st, cl, 2);
    (void)lw_selected(&st, w); /* empty bodies */
    lw_end(&st, w);
    break;
  }
  case 4: {
    /* waituntil (chans[0] << x) {} or ... or waituntil (chans[3] << x) {} */
    lw_clause cl[] = {lw_send(&chans[0], &x), lw_send(&chans[1], &x), lw_send(&chans[2], &x),
                      lw_send(&chans[3], &x)};
    w = lw_or(&st, cl, 4);
    (void)lw_selected(&st, w);
    lw_end(&st, w);
    break;
  }
  default: {
    /* waituntil (chans[0] << x) {} or ... or waituntil (chans[7] << x) {} */
    lw_clause cl[] = {lw_send(&chans[0], &x), lw_send(&chans[1], &x), lw_send(&chans[2], &x),
                      lw_send(&chans[3], &x), lw_send(&chans[4], &x), lw_send(&chans[5], &x),
                      lw_send(&chans[6], &x), lw_send(&chans[7], &x)};
    w = lw_or(&st, cl, 8);
    (void)lw_selected(&st, w);
    lw_end(&st, w);
    break;
  }
  }
}

/* One statement: receive from any of the C channels. */
static inline long recv_any(chan_long *chans, int c) {
  lw_stmt st;
  long v = 0;
  int w;
  switch (c) {
  case 2: {
    /* waituntil (v << chans[0]) {} or waituntil (v << chans[1]) {} */
    lw_clause cl[] = {lw_recv(&chans[0], &v), lw_recv(&chans[1], &v)};
    w = lw_or(&st, cl, 2);
    (void)lw_selected(&st, w);
    lw_end(&st, w);
    break;
  }
  case 4: {
    lw_clause cl[] = {lw_recv(&chans[0], &v), lw_recv(&chans[1], &v), lw_recv(&chans[2], &v),
                      lw_recv(&chans[3], &v)};
    w = lw_or(&st, cl, 4);
    (void)lw_selected(&st, w);
    lw_end(&st, w);
    break;
  }
  default: {
    lw_clause cl[] = {lw_recv(&chans[0], &v), lw_recv(&chans[1], &v), lw_recv(&chans[2], &v),
                      lw_recv(&chans[3], &v), lw_recv(&chans[4], &v), lw_recv(&chans[5], &v),
                      lw_recv(&chans[6], &v), lw_recv(&chans[7], &v)};
    w = lw_or(&st, cl, 8);
    (void)lw_selected(&st, w);
    lw_end(&st, w);
    break;
  }
  }
  return v;
}

static void producer(void *arg) {
  struct side *s = arg;
  struct run *r = s->run;
  for (long i = 0; i < r->q; i++) send_any(r->chans, r->c, i);
}

static void consumer(void *arg) {
  struct side *s = arg;
  struct run *r = s->run;
  long sum = 0;
  for (long i = 0; i < r->q; i++) sum += recv_any(r->chans, r->c);
  r->sums[s->index] = sum;
}

static int64_t run_once(long q, long pairs, int c, long cap) {
  struct run *r = malloc(sizeof *r + (size_t)pairs * sizeof(long));
  struct side *sides = calloc((size_t)(2 * pairs), sizeof *sides);
  if (!r || !sides) shapes_die("bench_select-contend", "out of memory");
  r->chans = shapes_alloc(8 * sizeof(chan_long));
  for (int k = 0; k < c; k++) chan_init(&r->chans[k], (size_t)cap);
  r->c = c;
  r->q = q;
  struct shapes_group g;
  shapes_group_init(&g, (unsigned)(2 * pairs));
  for (long p = 0; p < pairs; p++) {
    sides[p] = (struct side){r, (int)p};
    shapes_spawn(&g, producer, &sides[p]);
  }
  for (long k = 0; k < pairs; k++) {
    sides[pairs + k] = (struct side){r, (int)k};
    shapes_spawn(&g, consumer, &sides[pairs + k]);
  }
  int64_t ns = shapes_group_run(&g);
  long total = 0;
  for (long k = 0; k < pairs; k++) total += r->sums[k];
  shapes_check_sum("select-contend", total, pairs * shapes_triangle(q));
  for (int k = 0; k < c; k++) chan_destroy(&r->chans[k]);
  free(r->chans);
  shapes_group_free(&g);
  free(sides);
  free(r);
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n t c cap");
  if (o.c != 2 && o.c != 4 && o.c != 8) shapes_die(argv[0], "-c must be 2, 4 or 8");
  long cap = o.cap < 0 ? 0 : o.cap;
  long pairs = o.t ? o.t : shapes_per_side();
  long n = o.n ? o.n : (cap > 0 ? 8000000 : 4000000) / o.c;
  long q = shapes_max(n / pairs, 1);

  run_once(shapes_max(q / 20, 1), pairs, (int)o.c, cap); /* warm-up */
  int64_t ns = run_once(q, pairs, (int)o.c, cap);

  char config[128];
  snprintf(config, sizeof config, "P%u-N%ld-C%ld-cap%ld", wuc_processors(), pairs, o.c, cap);
  bench_result("select-contend", config, shapes_per_second(q * pairs, ns), "ops/s");
  return 0;
}
