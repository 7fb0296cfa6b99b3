/* owner_lock.c — the recursive FIFO hand-off lock of <wuc/lock.h>.
 *
 * Everything happens under the waiter queue's spinlock: owner, depth and the
 * queue change together, so "free" and "nobody waits" cannot disagree, and a
 * release hands the lock to the first waiter that still wants it (a node
 * whose claim is lost is skipped) without ever making it free in between. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/lock.h>

#include "fatal.h"
#include "scheduler.h"
#include "waitq.h"

#undef wuc_lock_acquire

/* Takes l for `who` if it is free or already who's (recursion).  Locked. */
static bool take_if_available(wuc_owner_lock *l, wuc_uthread_t *who) {
  if (l->owner && l->owner != who) return false;
  l->owner = who;
  l->depth++;
  return true;
}

void wuc_lock_acquire_at(wuc_owner_lock *l, const char *file, int line) {
  wuc_uthread_t *self = wuc_current_thread_or_die_at("lock_acquire", file, line);
  waitq_lock(&l->waiters);
  if (take_if_available(l, self)) {
    waitq_unlock(&l->waiters);
    return;
  }
  /* The releaser makes us the owner before it wakes us. */
  wuc_waitq_block(&l->waiters, self, "lock_acquire", l, file, line);
}

void wuc_lock_acquire(wuc_owner_lock *l) { wuc_lock_acquire_at(l, NULL, 0); }

bool wuc_lock_try_acquire(wuc_owner_lock *l) {
  wuc_uthread_t *self = wuc_current_thread_or_die("lock_try_acquire");
  waitq_lock(&l->waiters);
  bool taken = take_if_available(l, self);
  waitq_unlock(&l->waiters);
  return taken;
}

static __attribute__((noreturn)) void not_held(wuc_owner_lock *l, wuc_uthread_t *owner,
                                               bool by_clause) {
  if (by_clause)
    wuc_fatal("waituntil: owner_lock %p, acquired by a clause, is no longer held when the clause "
              "ends (was it released in the body?)",
              (void *)l);
  if (!owner) wuc_fatal("lock_release(%p): the lock is not held", (void *)l);
  wuc_fatal("lock_release(%p): the lock is held by user thread %lu", (void *)l,
            wuc_uthread_id(owner));
}

/* Releases one level held by the caller (for a clause: its statement). */
static void release(wuc_owner_lock *l, bool by_clause) {
  wuc_uthread_t *self = wuc_current_thread_or_die(by_clause ? "waituntil" : "lock_release");
  waitq_lock(&l->waiters);
  wuc_uthread_t *owner = l->owner;
  if (owner != self) {
    waitq_unlock(&l->waiters);
    not_held(l, owner, by_clause);
  }
  if (--l->depth > 0) {
    waitq_unlock(&l->waiters);
    return;
  }
  struct wuc_waiter *next = wuc_waitq_grant_first(&l->waiters);
  l->owner = next ? next->thread : NULL;
  l->depth = next ? 1 : 0;
  waitq_unlock(&l->waiters);
  if (next) wuc_waitq_wake(next);
}

void wuc_lock_release(wuc_owner_lock *l) { release(l, false); }

/* ---- the waituntil trait ------------------------------------------------ */

bool wuc_owner_lock_register(wuc_owner_lock *l, wuc_select_node *n) {
  wuc_uthread_t *who = n->stmt->thread;
  waitq_lock(&l->waiters);
  if (!l->owner || l->owner == who) {
    bool won = wuc_select_claim(n); /* claim first: a lost claim acquires nothing */
    if (won) take_if_available(l, who);
    waitq_unlock(&l->waiters);
    if (won) wuc_select_done(n);
    return won;
  }
  if (!n->try_only) wuc_waitq_push(&l->waiters, wuc_waitq_node_init(n));
  waitq_unlock(&l->waiters);
  return false;
}

bool wuc_owner_lock_unregister(wuc_owner_lock *l, wuc_select_node *n) {
  wuc_waitq_cancel(&l->waiters, waitq_node_waiter(n));
  bool acquired = wuc_select_withdraw(n);
  /* After the body, or instead of it: the clause's hold ends here. */
  if (acquired) release(l, true);
  return acquired;
}
