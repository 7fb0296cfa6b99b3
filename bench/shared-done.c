/* shared-done — Go issue #20351's shape (bench/SHAPES.md, "shared-done"):
 * every statement also waits on a shutdown resource `done` that is signalled
 * only after the timed run.  -done shared: one for all threads; private: one
 * per thread (the control).  Shapes (-shape):
 *
 *   pairs  N producer/consumer pairs (-t), pair p on its own channel ch[p] of
 *          capacity K (-cap); q receives per consumer; counted q·N
 *            producer: waituntil (ch[p] << x) {} or waituntil (*done) { return; }
 *            consumer: waituntil (v << ch[p]) { sum += v; } or waituntil (*done) { return; }
 *   self   T threads (-t, default = workers), each with its own cap-1 channel:
 *            waituntil (ch << x) {} or waituntil (v << ch) { sum += v; }
 *              or waituntil (*done) { return; }
 *          q selects per thread; counted q·T
 *
 * `done` is a latch (LANGUAGE.md: "the cheap broadcast for shutdown"), set
 * with latch_set after the run.  -done shared-closed / private-closed use
 * instead the literal translation of Go's idiom: a channel closed after the
 * run and a `closed(donech)` clause (extra configs, ...-shared-closed and
 * ...-private-closed; the harness pairs them with Go's shared / private). */
#include "lowered.h"
#include "shapes.h"

struct thread_arg {
  struct run *run;
  chan_long *ch;
  latch *done;       /* latch form */
  chan_long *donech; /* closed-channel form */
  long index;
};

struct run {
  long q;
  bool closed_form;
  long *sums;
};

static void producer(void *arg) {
  struct thread_arg *a = arg;
  long q = a->run->q;
  for (long i = 0; i < q; i++) {
    long x = i;
    lw_clause cl[] = {lw_send(a->ch, &x),
                      a->run->closed_form ? lw_closed(a->donech) : lw_latch(a->done)};
    lw_stmt st;
    int w = lw_or(&st, cl, 2);
    if (lw_selected(&st, w) && w == 1) {
      lw_end(&st, w); /* leaving by a jump: step 5 for the clause not yet unregistered */
      return;
    }
    lw_end(&st, w);
  }
}

static void consumer(void *arg) {
  struct thread_arg *a = arg;
  long q = a->run->q, sum = 0, v = 0;
  for (long i = 0; i < q; i++) {
    lw_clause cl[] = {lw_recv(a->ch, &v),
                      a->run->closed_form ? lw_closed(a->donech) : lw_latch(a->done)};
    lw_stmt st;
    int w = lw_or(&st, cl, 2);
    if (lw_selected(&st, w)) {
      if (w == 0) {
        sum += v;
      } else {
        lw_end(&st, w);
        return;
      }
    }
    lw_end(&st, w);
  }
  a->run->sums[a->index] = sum;
}

static void self(void *arg) {
  struct thread_arg *a = arg;
  long q = a->run->q, sum = 0, v = 0;
  for (long i = 0; i < q; i++) {
    long x = i;
    lw_clause cl[] = {lw_send(a->ch, &x), lw_recv(a->ch, &v),
                      a->run->closed_form ? lw_closed(a->donech) : lw_latch(a->done)};
    lw_stmt st;
    int w = lw_or(&st, cl, 3);
    if (lw_selected(&st, w)) {
      if (w == 1) {
        sum += v;
      } else if (w == 2) {
        lw_end(&st, w);
        return;
      }
    }
    lw_end(&st, w);
  }
  a->run->sums[a->index] = sum;
}

static int64_t run_once(long q, long threads, long cap, bool self_shape, bool shared,
                        bool closed_form) {
  long members = self_shape ? threads : 2 * threads;
  long nch = threads; /* one channel per pair, or per self thread */
  struct run run = {.q = q, .closed_form = closed_form};
  run.sums = calloc((size_t)threads, sizeof *run.sums);
  struct thread_arg *args = calloc((size_t)members, sizeof *args);
  chan_long *chans = shapes_alloc((size_t)nch * sizeof(chan_long));
  /* done resources: [0] is the shared one; private ones 1..members */
  latch *dones = shapes_alloc((size_t)(members + 1) * sizeof(latch));
  chan_long *donechs = shapes_alloc((size_t)(members + 1) * sizeof(chan_long));
  if (!run.sums || !args) shapes_die("bench_shared-done", "out of memory");
  for (long k = 0; k < nch; k++) chan_init(&chans[k], self_shape ? 1 : (size_t)cap);
  for (long k = 0; k <= members; k++) chan_init(&donechs[k], 0);
  struct shapes_group g;
  shapes_group_init(&g, (unsigned)members);
  for (long m = 0; m < members; m++) {
    long own = shared ? 0 : m + 1;
    args[m] = (struct thread_arg){&run, &chans[self_shape ? m : m % threads], &dones[own],
                                  &donechs[own], self_shape ? m : m % threads};
    shapes_spawn(&g, self_shape ? self : m < threads ? producer : consumer, &args[m]);
  }
  int64_t ns = shapes_group_run(&g);
  for (long k = 0; k <= members; k++) { /* after the run, as Go closes its done channels */
    latch_set(&dones[k]);
    chan_close(&donechs[k]);
  }
  long total = 0;
  for (long t = 0; t < threads; t++) total += run.sums[t];
  if (self_shape) {
    long h = q / 2; /* odd iterations receive what the even one before sent */
    shapes_check_sum("shared-done", total, threads * (h * (h - 1)));
  } else {
    shapes_check_sum("shared-done", total, threads * shapes_triangle(q));
  }
  for (long k = 0; k < nch; k++) chan_destroy(&chans[k]);
  for (long k = 0; k <= members; k++) chan_destroy(&donechs[k]);
  shapes_group_free(&g);
  free(chans);
  free(dones);
  free(donechs);
  free(args);
  free(run.sums);
  return ns;
}

int main(int argc, char **argv) {
  struct shapes_opts o = shapes_args(argc, argv, "n t shape cap done");
  const char *shape = o.shape ? o.shape : "pairs";
  const char *done = o.done ? o.done : "shared";
  bool self_shape = !strcmp(shape, "self");
  if (!self_shape && strcmp(shape, "pairs")) shapes_die(argv[0], "-shape must be pairs or self");
  bool shared = !strncmp(done, "shared", 6);
  bool closed_form = strstr(done, "-closed") != NULL;
  if (strcmp(done, "shared") && strcmp(done, "private") && strcmp(done, "shared-closed") &&
      strcmp(done, "private-closed"))
    shapes_die(argv[0], "-done must be shared, private, shared-closed or private-closed");
  long cap = o.cap < 0 ? 0 : o.cap;
  long threads = o.t ? o.t : self_shape ? (long)wuc_processors() : shapes_per_side();
  long n = o.n ? o.n : self_shape ? 4000000 : cap == 0 ? 1000000 : 2000000;
  long q = shapes_max(n / threads, 1);

  run_once(shapes_max(q / 20, 1), threads, cap, self_shape, shared, closed_form); /* warm-up */
  int64_t ns = run_once(q, threads, cap, self_shape, shared, closed_form);

  char config[128];
  if (self_shape)
    snprintf(config, sizeof config, "P%u-self-N%ld-%s", wuc_processors(), threads, done);
  else
    snprintf(config, sizeof config, "P%u-pairs-N%ld-cap%ld-%s", wuc_processors(), threads, cap,
             done);
  bench_result("shared-done", config, shapes_per_second(q * threads, ns), "ops/s");
  return 0;
}
