/* waitq.h — the FIFO waiter queue behind futures, latches, owner_locks and
 * semaphores (the type, wuc_waitq, is public in <wuc/lock.h>).
 *
 * A waiter is a thread blocked in a call (its record lives in its frame) or
 * a waituntil clause's node (its record lives in n->res).  Invariants:
 *
 *   - q->lock guards the list, every queued waiter's links and `queued`,
 *     and whatever state of the resource the operation changes; it is held
 *     for a few instructions and never across a park or an unpark.
 *   - Granting a waiter (giving it the operation: ownership, a permit, a
 *     fulfilled value) happens under q->lock, while the waiter is still
 *     queued: a node is granted only if its claim (wuc_select_claim) is won,
 *     and a node whose claim is lost is dropped from the list and never
 *     touched again (its statement may already be gone).
 *   - A granted waiter stays alive until waitq_wake: a thread does not
 *     return from waitq_wait before its record says WOKEN, and a claimed
 *     node's statement does not end before the node is DONE.  So the waker
 *     reads the next link of a granted chain before waking each waiter.
 *   - A node's record is written only under q->lock.  A granter that lost
 *     n's claim is still unlinking n when n's statement may already register
 *     it again (the re-register rule of an all-or statement's registration
 *     phase), so register writes the record only in its locked slow path;
 *     a fast path that completes n at once leaves the record alone.
 *   - `queued` is cleared last, with release order: a reader that sees it
 *     clear without the lock knows the queue is done with the waiter.  A
 *     node never queued reads clear: wuc_select_node_init zeroes n->res. */
#ifndef WUC_RUNTIME_WAITQ_H
#define WUC_RUNTIME_WAITQ_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/lock.h>
#include <wuc/select.h>

#include "spin.h"

/* Thread waiters: WAITING until granted; WAKING while the waker unparks the
 * thread (it must not return yet: the unpark still reads its handle). */
enum { WAITER_WAITING = 0, WAITER_WAKING = 1, WAITER_WOKEN = 2 };

struct wuc_waiter {
  struct wuc_waiter *prev, *next;
  wuc_select_node *node; /* NULL: a thread blocked in a call */
  wuc_uthread_t *thread; /* the thread an operation is for (a node's statement's) */
  _Atomic int wake;      /* thread waiters only */
  _Atomic bool queued;
} __attribute__((may_alias));

_Static_assert(sizeof(struct wuc_waiter) <= sizeof(((wuc_select_node *)0)->res),
               "a waiter fits in a select node's resource area");

static inline void waitq_lock(wuc_waitq *q) { wuc_spin_lock(&q->lock); }
static inline void waitq_unlock(wuc_waitq *q) { wuc_spin_unlock(&q->lock); }

/* Under q->lock. */
static inline bool waitq_is_empty(const wuc_waitq *q) { return q->head == NULL; }
void wuc_waitq_push(wuc_waitq *q, struct wuc_waiter *w);
/* Takes the first waiter that accepts the operation off q and returns it
 * (a thread, or a node whose claim this won), or NULL if none does. */
struct wuc_waiter *wuc_waitq_grant_first(wuc_waitq *q);
/* Empties q; returns the accepting waiters, in queue order, chained by next. */
struct wuc_waiter *wuc_waitq_grant_all(wuc_waitq *q);

/* After q->lock is released: wakes one granted waiter, or a chain. */
void wuc_waitq_wake(struct wuc_waiter *w);
void wuc_waitq_wake_chain(struct wuc_waiter *chain);

/* A call that cannot complete now, under q->lock: queues the caller (self),
 * releases q->lock and parks until a granter has given it the operation.
 * what, object, file and line are for the deadlock report. */
void wuc_waitq_block(wuc_waitq *q, wuc_uthread_t *self, const char *what, const void *object,
                     const char *file, int line);

/* A clause: the waiter in n's resource area, initialised for n.  Under
 * q->lock, and only when n is about to be pushed. */
struct wuc_waiter *wuc_waitq_node_init(wuc_select_node *n);
static inline struct wuc_waiter *waitq_node_waiter(wuc_select_node *n) {
  return (struct wuc_waiter *)(void *)&n->res;
}
/* Unregister's queue part: takes w off q if it is still there (without the
 * lock when it is not, e.g. a clause completed at once).  Returns whether
 * it did (false: a granter took it first, or it was never queued). */
bool wuc_waitq_cancel(wuc_waitq *q, struct wuc_waiter *w);

/* Register's "available now": claims n for its own statement and marks it
 * done; false (nothing happened) if the claim is lost. */
static inline bool waitq_complete_now(wuc_select_node *n) {
  if (!wuc_select_claim(n)) return false;
  wuc_select_done(n);
  return true;
}

#endif
