/* <wuc/latch.h> — wuc_latch (latch in <wuc.h>): a one-shot event, the cheap broadcast (e.g. for
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

#include <wuc/lock.h> /* wuc_waitq */
#include <wuc/select.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wuc_latch {
  WUC_EXT_ WUC_ATOMIC(wuc_bool) is_set;
  char __wuc_pad[7];
  wuc_waitq waiters;
} wuc_latch;

static inline wuc_bool wuc_latch_is_set(wuc_latch *__wuc_e) {
  return WUC_LOAD_ACQUIRE_(&__wuc_e->is_set);
}

/* Sets e and wakes all its waiters; does nothing if e is set already. */
void wuc_latch_set(wuc_latch *__wuc_e);
/* Blocks until e is set (returns at once if it is). */
void wuc_latch_wait_at(wuc_latch *__wuc_e, const char *__wuc_file, int __wuc_line);
void wuc_latch_wait(wuc_latch *__wuc_e);

/* The call records its source line for the deadlock report;
 * (wuc_latch_wait)(e) still reaches the plain function. */
#define wuc_latch_wait(...) wuc_latch_wait_at((__VA_ARGS__), __FILE__, __LINE__)

/* The waituntil trait (<wuc/select.h>). */
wuc_bool wuc_latch_register(wuc_latch *__wuc_e, wuc_select_node *__wuc_n);
wuc_bool wuc_latch_unregister(wuc_latch *__wuc_e, wuc_select_node *__wuc_n);
WUC_SELECTABLE_DROPPABLE_BUILTIN_(wuc_latch, wuc_latch_register, wuc_latch_unregister,
                                  wuc_latch_on_selected, 0);

#ifdef __cplusplus
}
#endif
#endif
