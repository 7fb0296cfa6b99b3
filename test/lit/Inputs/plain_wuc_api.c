/* Plain C (no dialect) that includes <wuc.h> and uses every kind of name it
 * declares: threads, durations, channels, futures, locks, semaphores, latches,
 * timeouts and a resource of its own (WUC_SELECTABLE).  names/standards.wc
 * compiles it in every standard mode with -pedantic-errors -Wpadded. */
#include <wuc.h>

struct gate {
  int open;
  int spare;
};
static bool gate_register(struct gate *g, wuc_select_node *n) {
  (void)n;
  return g->open != 0;
}
static bool gate_unregister(struct gate *g, wuc_select_node *n) {
  (void)n;
  return g->open != 0;
}
WUC_SELECTABLE_DROPPABLE(struct gate, gate_register, gate_unregister, gate_on_selected);

WUC_CHANNEL_STRUCT(int_channel, int);
WUC_FUTURE_STRUCT(long_future, long);

static struct int_channel c;
static WUC_CHANNEL(double) d;
static struct long_future f;
static WUC_FUTURE(double) g; /* 8 bytes: no padding for -Wpadded to report */
static owner_lock l;
static semaphore s;
static latch e;

static void worker(void *arg) {
  int v = 0;
  (void)arg;
  if (chan_recv(&c, &v)) (void)future_set(&f, (long)v);
  latch_set(&e);
}

int main(void) {
  uthread_t *t;
  long out = 0;
  char ch = 0;
  double x = 0;
  duration_t dur = nanoseconds(1) + microseconds(1) + milliseconds(1) + seconds(0);
  wuc_timeout to = wuc_timeout_make(dur);
  struct gate gt = {1, 0};
  chan_init(&c, CHAN_UNBOUNDED);
  chan_init(&d, 2);
  t = uthread_spawn(worker, NULL);
  (void)chan_send(&c, 42);
  (void)chan_try_send(&d, 1.5);
  (void)chan_try_recv(&d, &x);
  latch_wait(&e);
  (latch_wait)(&e);
  out = future_get(&f);
  (void)future_try_get(&f, &out);
  (void)future_set(&g, 2.5);
  x += future_get(&g);
  future_reset(&g);
  lock_acquire(&l);
  (void)lock_try_acquire(&l);
  lock_release(&l);
  lock_release(&l);
  semaphore_init(&s, 1);
  semaphore_acquire(&s);
  (void)semaphore_try_acquire(&s);
  semaphore_release(&s);
  uthread_sleep(dur);
  uthread_yield();
  uthread_join(t);
  chan_close(&c);
  (void)gate_on_selected(&gt, NULL);
  return (int)(out + ch + (long)x + (long)chan_len(&c) + (long)chan_cap(&d) + chan_is_closed(&c) +
               future_ready(&f) + latch_is_set(&e) + (long)uthread_id(uthread_self()) +
               (long)wuc_processors() + (int)(to.deadline > 0) + (long)(wuc_now() > 0));
}
