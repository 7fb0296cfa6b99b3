/* hello_threads.c — a first wuc program in plain C: a pipeline of user
 * threads handing numbers along with park/unpark-free primitives only
 * (spawn, join, sleep, yield).  Each worker squares a slice of 1..1000; main
 * joins them and prints the total. */
#include <stdio.h>

#include <wuc.h>

enum { WORKERS = 8, N = 1000 };

struct slice {
  long from, to;
  long long sum;
};

static void square_slice(void *arg) {
  struct slice *s = arg;
  for (long i = s->from; i <= s->to; i++) {
    s->sum += (long long)i * i;
    if (i % 50 == 0) uthread_yield(); /* let the others interleave */
  }
  uthread_sleep(milliseconds(1));
}

int main(void) {
  struct slice slices[WORKERS];
  uthread_t *threads[WORKERS];
  for (int i = 0; i < WORKERS; i++) {
    slices[i] = (struct slice){.from = i * (N / WORKERS) + 1, .to = (i + 1) * (N / WORKERS)};
    threads[i] = uthread_spawn(square_slice, &slices[i]);
  }
  long long total = 0;
  for (int i = 0; i < WORKERS; i++) {
    uthread_join(threads[i]);
    total += slices[i].sum;
  }
  printf("%d user threads on %u workers: sum of squares 1..%d = %lld\n", WORKERS, wuc_processors(),
         N, total);
  return 0;
}
