/* futures — the thesis future benchmark (bench/SHAPES.md, "futures"): a
 * server fulfils futures A, B and C once per round, a client waits on them
 * with one predicate (-pred or, and, and-or, or-and), and the two meet on a
 * rendezvous channel after every round.  The futures of round r are in slot
 * r % 2; the server resets them after the meeting.  Counted: the n rounds.
 * Config P<workers>-OR / -AND / -AND-OR / -OR-AND.
 *
 * OR is an all-or statement; AND, AND-OR and OR-AND mix `and` and `or`, so
 * they run the mixed driver of lowered.h: each clause claimed on its own,
 * bodies run as their clauses complete, clauses under a satisfied `or`
 * withdrawn. */
#include "lowered.h"
#include "shapes.h"

WUC_FUTURE_STRUCT(future_long, long);
WUC_CHANNEL_STRUCT(chan_int, int);

struct round {
  struct future_long a, b, c;
};

enum pred { OR, AND, AND_OR, OR_AND };

struct run {
  struct chan_int meet; /* first: cache-line aligned by shapes_alloc */
  struct round slot[2];
  long n;
  enum pred pred;
  long sink;
};

/* The and/or trees as lowered.h's needed(ran): the clauses (bit 0 = A,
 * 1 = B, 2 = C) not yet run and still needed; 0 once satisfied. */
static unsigned needed_and(unsigned ran) { /* A and B and C */
  return ~ran & 7u;
}
static unsigned needed_and_or(unsigned ran) { /* (A and B) or C */
  if ((ran & 3u) == 3u || (ran & 4u)) return 0;
  return ~ran & 7u;
}
static unsigned needed_or_and(unsigned ran) { /* (A or B) and C */
  return ((ran & 3u) ? 0u : 3u) | ((ran & 4u) ? 0u : 4u);
}

static __attribute__((noreturn, cold)) void wrong_value(long x, long r) {
  fprintf(stderr, "bench_futures: value %ld in round %ld\n", x, r);
  exit(1);
}

/* use(f): { long x = future_get(&f); if (x != r) fail(); s += x; } */
#define USE(f)                                                                            \
  do {                                                                                    \
    long x_ = future_get(&(f));                                                           \
    if (x_ != r) wrong_value(x_, r);                                                      \
    s += x_;                                                                              \
  } while (0)

static void client(void *arg) {
  struct run *run = arg;
  long s = 0;
  for (long r = 0; r < run->n; r++) {
    struct round *F = &run->slot[r & 1];
    lw_clause cl[] = {lw_future(&F->a), lw_future(&F->b), lw_future(&F->c)};
    lw_stmt st;
    if (run->pred == OR) {
      /* waituntil (F->a) { use(F->a); } or waituntil (F->b) { use(F->b); }
       *   or waituntil (F->c) { use(F->c); } */
      int w = lw_or(&st, cl, 3);
      if (lw_selected(&st, w)) {
        switch (w) {
        case 0: USE(F->a); break;
        case 1: USE(F->b); break;
        default: USE(F->c); break;
        }
      }
      lw_end(&st, w);
    } else {
      /* AND:    waituntil (F->a) {...} and waituntil (F->b) {...} and waituntil (F->c) {...}
       * AND-OR: waituntil (F->a) {...} and waituntil (F->b) {...} or waituntil (F->c) {...}
       * OR-AND: (waituntil (F->a) {...} or waituntil (F->b) {...}) and waituntil (F->c) {...} */
      lw_needed_fn needed = run->pred == AND      ? needed_and
                            : run->pred == AND_OR ? needed_and_or
                                                  : needed_or_and;
      lw_mixed_begin(&st, cl, 3);
      for (int i; (i = lw_mixed_next(&st, needed)) >= 0;) {
        switch (i) {
        case 0: USE(F->a); break;
        case 1: USE(F->b); break;
        default: USE(F->c); break;
        }
        lw_mixed_ran(&st, i, needed);
      }
    }
    int dummy;
    chan_recv(&run->meet, &dummy);
  }
  run->sink = s;
}

static void server(void *arg) {
  struct run *run = arg;
  for (long r = 0; r < run->n; r++) {
    struct round *F = &run->slot[r & 1];
    future_set(&F->a, r);
    future_set(&F->b, r);
    future_set(&F->c, r);
    chan_send(&run->meet, 0);
    future_reset(&F->a);
    future_reset(&F->b);
    future_reset(&F->c);
  }
}

static int64_t run_once(long n, enum pred pred) {
  struct run *run = shapes_alloc(sizeof *run); /* zeroed: empty futures */
  chan_init(&run->meet, 0);
  run->n = n;
  run->pred = pred;
  struct shapes_group g;
  shapes_group_init(&g, 2);
  shapes_spawn(&g, server, run);
  shapes_spawn(&g, client, run);
  int64_t ns = shapes_group_run(&g);
  shapes_group_free(&g);
  chan_destroy(&run->meet);
  free(run);
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n pred");
  const char *p = o.pred ? o.pred : "or";
  enum pred pred;
  const char *label;
  if (!strcmp(p, "or")) pred = OR, label = "OR";
  else if (!strcmp(p, "and")) pred = AND, label = "AND";
  else if (!strcmp(p, "and-or")) pred = AND_OR, label = "AND-OR";
  else if (!strcmp(p, "or-and")) pred = OR_AND, label = "OR-AND";
  else shapes_die(argv[0], "-pred must be or, and, and-or or or-and");
  long n = o.n ? o.n : 500000;

  run_once(shapes_max(n / 20, 1), pred); /* warm-up */
  int64_t ns = run_once(n, pred);

  char config[128];
  snprintf(config, sizeof config, "P%u-%s", wuc_processors(), label);
  bench_result("futures", config, shapes_per_second(n, ns), "rounds/s");
  return 0;
}
