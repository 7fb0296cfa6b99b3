/* future.c — the untyped core of <wuc/future.h> (states and invariants
 * there).  The typed macros store the value between begin and end. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/future.h>

#include "fatal.h"
#include "scheduler.h"
#include "waitq.h"

bool wuc_future_begin_set(wuc_future *f) {
  wuc_check_not_forked("future_set");
  int empty = WUC_FUTURE_EMPTY;
  return atomic_compare_exchange_strong(&f->state, &empty, WUC_FUTURE_SETTING);
}

void wuc_future_end_set(wuc_future *f) {
  waitq_lock(&f->waiters);
  atomic_store_explicit(&f->state, WUC_FUTURE_READY, memory_order_release);
  struct wuc_waiter *woken = wuc_waitq_grant_all(&f->waiters);
  waitq_unlock(&f->waiters);
  wuc_waitq_wake_chain(woken);
}

void wuc_future_wait_at(wuc_future *f, const char *file, int line) {
  if (wuc_future_is_ready(f)) return;
  wuc_uthread_t *self = wuc_current_thread_or_die_at("future_get", file, line);
  waitq_lock(&f->waiters);
  if (atomic_load_explicit(&f->state, memory_order_relaxed) == WUC_FUTURE_READY) {
    waitq_unlock(&f->waiters);
    return;
  }
  wuc_waitq_block(&f->waiters, self, "future_get", f, file, line);
}

void wuc_future_reset(wuc_future *f) {
  wuc_check_not_forked("future_reset");
  uint32_t spins = 0;
  for (;;) {
    waitq_lock(&f->waiters);
    int state = atomic_load_explicit(&f->state, memory_order_relaxed);
    if (state != WUC_FUTURE_SETTING) break;
    waitq_unlock(&f->waiters); /* a set is storing its value: let it finish */
    wuc_spin_step(&spins);
  }
  bool waited_on = !waitq_is_empty(&f->waiters);
  if (!waited_on) atomic_store_explicit(&f->state, WUC_FUTURE_EMPTY, memory_order_relaxed);
  waitq_unlock(&f->waiters);
  if (waited_on)
    wuc_fatal("future_reset(%p): a thread waits in future_get or a waituntil clause on the "
              "future is still registered",
              (void *)f);
}

/* ---- the waituntil trait ------------------------------------------------ */

bool wuc_future_register(wuc_future *f, wuc_select_node *n) {
  if (wuc_future_is_ready(f)) return waitq_complete_now(n);
  if (n->try_only) return false;
  waitq_lock(&f->waiters);
  bool ready = atomic_load_explicit(&f->state, memory_order_relaxed) == WUC_FUTURE_READY;
  if (!ready) wuc_waitq_push(&f->waiters, wuc_waitq_node_init(n));
  waitq_unlock(&f->waiters);
  return ready && waitq_complete_now(n);
}

bool wuc_future_unregister(wuc_future *f, wuc_select_node *n) {
  wuc_waitq_cancel(&f->waiters, waitq_node_waiter(n));
  return wuc_select_withdraw(n);
}
