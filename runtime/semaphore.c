/* semaphore.c — the FIFO hand-off counting semaphore of <wuc/semaphore.h>.
 *
 * permits, used and the waiter queue change together under the queue's
 * spinlock, so "a permit is available" and "somebody waits" never hold at
 * once: a release gives its permit to the first waiter that still wants it
 * (a node whose claim is lost is skipped) before it would count it. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/semaphore.h>

#include <limits.h>

#include "fatal.h"
#include "scheduler.h"
#include "waitq.h"

#undef wuc_semaphore_acquire

static __attribute__((noreturn)) void not_zeroed(wuc_semaphore *s) {
  wuc_fatal("semaphore_init(%p): the semaphore is not zeroed (declare it static, or with = {0}, "
            "or allocate it with calloc: semaphore_init goes on a zeroed, unused semaphore)",
            (void *)s);
}

void wuc_semaphore_init(wuc_semaphore *s, long n) {
  wuc_check_not_forked("semaphore_init");
  if (n < 0) wuc_fatal("semaphore_init(%p, %ld): negative permit count", (void *)s, n);
  /* A local semaphore without an initialiser holds garbage: a lock word
   * that is neither free (0) nor held (1) would spin forever, and queue
   * links would lead the first waiter into random memory. */
  int lock = atomic_load_explicit(&s->waiters.lock, memory_order_relaxed);
  if (lock != 0 && lock != 1) not_zeroed(s);
  waitq_lock(&s->waiters);
  bool used = s->used;
  /* !used => the queue is empty: every operation sets used before it queues. */
  bool links = s->waiters.head || s->waiters.tail;
  s->used = true;
  if (!used) s->permits = n;
  waitq_unlock(&s->waiters);
  if (used)
    wuc_fatal("semaphore_init(%p): the semaphore was already initialised or used", (void *)s);
  if (links) not_zeroed(s);
}

/* Takes a permit if one is there.  Locked. */
static bool take_if_available(wuc_semaphore *s) {
  s->used = true;
  if (s->permits == 0) return false;
  s->permits--;
  return true;
}

void wuc_semaphore_acquire_at(wuc_semaphore *s, const char *file, int line) {
  wuc_uthread_t *self = wuc_current_thread_or_die_at("semaphore_acquire", file, line);
  waitq_lock(&s->waiters);
  if (take_if_available(s)) {
    waitq_unlock(&s->waiters);
    return;
  }
  /* A releaser hands us its permit before it wakes us. */
  wuc_waitq_block(&s->waiters, self, "semaphore_acquire", s, file, line);
}

void wuc_semaphore_acquire(wuc_semaphore *s) { wuc_semaphore_acquire_at(s, NULL, 0); }

bool wuc_semaphore_try_acquire(wuc_semaphore *s) {
  wuc_check_not_forked("semaphore_try_acquire");
  waitq_lock(&s->waiters);
  bool taken = take_if_available(s);
  waitq_unlock(&s->waiters);
  return taken;
}

void wuc_semaphore_release(wuc_semaphore *s) {
  wuc_check_not_forked("semaphore_release");
  waitq_lock(&s->waiters);
  s->used = true;
  struct wuc_waiter *next = wuc_waitq_grant_first(&s->waiters);
  if (!next) {
    if (s->permits == LONG_MAX) {
      waitq_unlock(&s->waiters);
      wuc_fatal("semaphore_release(%p): more than LONG_MAX permits", (void *)s);
    }
    s->permits++;
  }
  waitq_unlock(&s->waiters);
  if (next) wuc_waitq_wake(next);
}

/* ---- the waituntil trait ------------------------------------------------ */

bool wuc_semaphore_register(wuc_semaphore *s, wuc_select_node *n) {
  waitq_lock(&s->waiters);
  s->used = true;
  if (s->permits > 0) {
    bool won = wuc_select_claim(n); /* claim first: a lost claim takes nothing */
    if (won) s->permits--;
    waitq_unlock(&s->waiters);
    if (won) wuc_select_done(n);
    return won;
  }
  if (!n->try_only) wuc_waitq_push(&s->waiters, wuc_waitq_node_init(n));
  waitq_unlock(&s->waiters);
  return false;
}

bool wuc_semaphore_unregister(wuc_semaphore *s, wuc_select_node *n) {
  wuc_waitq_cancel(&s->waiters, waitq_node_waiter(n));
  bool took = wuc_select_withdraw(n);
  if (took) wuc_semaphore_release(s); /* after the body, or instead of it */
  return took;
}
