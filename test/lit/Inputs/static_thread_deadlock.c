/* Plain C over libwuc for driver/runtime_names_without_rdynamic.wc: a
 * `static` thread function that blocks for good, in a program linked without
 * -rdynamic; the deadlock report names it. */
#include <wuc.h>

static WUC_CHANNEL(int) nobody_sends;

static void lonely_receiver(void *arg) {
  (void)arg;
  int v;
  chan_recv(&nobody_sends, &v);
}

int main(void) {
  chan_init(&nobody_sends, 0);
  uthread_t *t = uthread_spawn(lonely_receiver, NULL);
  uthread_join(t);
  return 0;
}
