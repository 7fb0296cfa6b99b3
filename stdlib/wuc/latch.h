/* <wuc/latch.h> — latch: a one-shot event, the cheap broadcast (e.g. for
 * shutdown), usable in waituntil clauses.
 *
 * A zero-initialised latch is unset; latch_set sets it for good (it never
 * reverts; setting it again does nothing) and wakes every waiter at once.
 * Invariants:
 *   - readiness is one load of `is_set`: once set, latch_wait,
 *     latch_is_set, latch_set and a clause's register write nothing shared
 *     (no counter per waiter, no read-modify-write on the latch);
 *   - waiters (threads in latch_wait, waituntil clauses) queue only while it
 *     is unset; is_set becomes true under the queue's spinlock, so a waiter
 *     that queued saw it unset and is woken by the set.
 *
 * As a waituntil clause (`waituntil (e) body`): ready when e is set; the
 * clause does nothing to e; the body runs with e set. */
#ifndef WUC_LATCH_H
#define WUC_LATCH_H

#include <stdbool.h>

#include <wuc/lock.h> /* wuc_waitq */
#include <wuc/select.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct latch {
  WUC_ATOMIC(bool) is_set;
  wuc_waitq waiters;
} latch;

static inline bool latch_is_set(latch *e) {
#ifdef __cplusplus
  return e->is_set.load(std::memory_order_acquire);
#else
  return atomic_load_explicit(&e->is_set, memory_order_acquire);
#endif
}

/* Sets e and wakes all its waiters; does nothing if e is set already. */
void latch_set(latch *e);
/* Blocks until e is set (returns at once if it is). */
void wuc_latch_wait_at(latch *e, const char *file, int line);
void latch_wait(latch *e);

/* The call records its source line for the deadlock report;
 * (latch_wait)(e) still reaches the plain function. */
#define latch_wait(e) wuc_latch_wait_at((e), __FILE__, __LINE__)

/* The waituntil trait (<wuc/select.h>). */
bool latch_register(latch *e, wuc_select_node *n);
bool latch_unregister(latch *e, wuc_select_node *n);
WUC_SELECTABLE_DROPPABLE(latch, latch_register, latch_unregister, latch_on_selected);

#ifdef __cplusplus
}
#endif
#endif
