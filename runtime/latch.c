/* latch.c — the one-shot event of <wuc/latch.h>.
 *
 * Fast paths read is_set once and, when it is set, touch nothing shared.
 * Slow paths re-read it under the queue's spinlock, where latch_set stores
 * it: a waiter either sees it set or is queued before the set takes the
 * queue, so no wake-up is lost. */
#include <wuc/latch.h>

#include "scheduler.h"
#include "waitq.h"

#undef latch_wait

void latch_set(latch *e) {
  if (latch_is_set(e)) return; /* no read-modify-write once set */
  wuc_check_not_forked("latch_set");
  waitq_lock(&e->waiters);
  if (atomic_load_explicit(&e->is_set, memory_order_relaxed)) {
    waitq_unlock(&e->waiters);
    return;
  }
  atomic_store_explicit(&e->is_set, true, memory_order_release);
  struct wuc_waiter *woken = waitq_grant_all(&e->waiters);
  waitq_unlock(&e->waiters);
  waitq_wake_chain(woken);
}

void wuc_latch_wait_at(latch *e, const char *file, int line) {
  if (latch_is_set(e)) return;
  uthread_t *self = wuc_current_thread_or_die("latch_wait");
  waitq_lock(&e->waiters);
  if (atomic_load_explicit(&e->is_set, memory_order_relaxed)) {
    waitq_unlock(&e->waiters);
    return;
  }
  waitq_block(&e->waiters, self, "latch_wait", e, file, line);
}

void latch_wait(latch *e) { wuc_latch_wait_at(e, NULL, 0); }

/* ---- the waituntil trait ------------------------------------------------ */

bool latch_register(latch *e, wuc_select_node *n) {
  if (latch_is_set(e)) return waitq_complete_now(n);
  if (n->try_only) return false;
  waitq_lock(&e->waiters);
  bool set = atomic_load_explicit(&e->is_set, memory_order_relaxed);
  if (!set) waitq_push(&e->waiters, waitq_node_init(n));
  waitq_unlock(&e->waiters);
  return set && waitq_complete_now(n);
}

bool latch_unregister(latch *e, wuc_select_node *n) {
  waitq_cancel(&e->waiters, waitq_node_waiter(n)); /* no lock if n never queued */
  return wuc_select_withdraw(n);
}
