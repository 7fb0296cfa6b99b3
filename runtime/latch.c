/* latch.c — the one-shot event of <wuc/latch.h>.
 *
 * Fast paths read is_set once and, when it is set, touch nothing shared.
 * Slow paths re-read it under the queue's spinlock, where latch_set stores
 * it: a waiter either sees it set or is queued before the set takes the
 * queue, so no wake-up is lost. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/latch.h>

#include "scheduler.h"
#include "waitq.h"

#undef wuc_latch_wait

void wuc_latch_set(wuc_latch *e) {
  if (wuc_latch_is_set(e)) return; /* no read-modify-write once set */
  wuc_check_not_forked("latch_set");
  waitq_lock(&e->waiters);
  if (atomic_load_explicit(&e->is_set, memory_order_relaxed)) {
    waitq_unlock(&e->waiters);
    return;
  }
  atomic_store_explicit(&e->is_set, true, memory_order_release);
  struct wuc_waiter *woken = wuc_waitq_grant_all(&e->waiters);
  waitq_unlock(&e->waiters);
  wuc_waitq_wake_chain(woken);
}

void wuc_latch_wait_at(wuc_latch *e, const char *file, int line) {
  if (wuc_latch_is_set(e)) return;
  wuc_uthread_t *self = wuc_current_thread_or_die_at("latch_wait", file, line);
  waitq_lock(&e->waiters);
  if (atomic_load_explicit(&e->is_set, memory_order_relaxed)) {
    waitq_unlock(&e->waiters);
    return;
  }
  wuc_waitq_block(&e->waiters, self, "latch_wait", e, file, line);
}

void wuc_latch_wait(wuc_latch *e) { wuc_latch_wait_at(e, NULL, 0); }

/* ---- the waituntil trait ------------------------------------------------ */

bool wuc_latch_register(wuc_latch *e, wuc_select_node *n) {
  if (wuc_latch_is_set(e)) return waitq_complete_now(n);
  if (n->try_only) return false;
  waitq_lock(&e->waiters);
  bool set = atomic_load_explicit(&e->is_set, memory_order_relaxed);
  if (!set) wuc_waitq_push(&e->waiters, wuc_waitq_node_init(n));
  waitq_unlock(&e->waiters);
  return set && waitq_complete_now(n);
}

bool wuc_latch_unregister(wuc_latch *e, wuc_select_node *n) {
  wuc_waitq_cancel(&e->waiters, waitq_node_waiter(n)); /* no lock if n never queued */
  return wuc_select_withdraw(n);
}
