/* <wuc/lock.h> — wuc_owner_lock (owner_lock in <wuc.h>): a recursive lock with FIFO hand-off,
 * usable in waituntil clauses.  Also defines wuc_waitq, the waiter queue that every blocking
 * resource of the library embeds.
 *
 * A zero-initialised owner_lock is unlocked.  Invariants (under the queue's
 * internal spinlock):
 *   - owner == NULL  <=>  depth == 0, and then no thread or clause waits;
 *   - release hands ownership straight to the first waiter (a thread blocked
 *     in lock_acquire or a waituntil clause, in arrival order), so the lock
 *     is never free while someone waits and nobody can overtake a waiter;
 *   - the owner may acquire again (recursion); it must release as often.
 *
 * As a waituntil clause (`waituntil (l) body`): ready when l can be acquired
 * by the waiting thread (free, or already its own); the clause acquires it;
 * the body runs with it held and it is released when the body ends.  A
 * clause that acquired it but whose body does not run (no longer needed, or
 * the statement was left by a jump) releases it too.
 *
 * Misuse stops the program: releasing a lock the caller does not hold. */
#ifndef WUC_LOCK_H
#define WUC_LOCK_H

#include <wuc/select.h>
#include <wuc/thread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A FIFO of waiters (threads and select nodes) behind a spinlock that is
 * held for a few instructions and never across a park.  Zero = empty.  Only
 * the runtime looks inside (runtime/waitq.h). */
struct wuc_waiter;
typedef struct wuc_waitq {
  WUC_EXT_ WUC_ATOMIC(int) lock;
  char __wuc_pad[4];
  struct wuc_waiter *head, *tail;
} wuc_waitq;

typedef struct wuc_owner_lock {
  wuc_waitq waiters;    /* its spinlock also guards owner and depth */
  wuc_uthread_t *owner; /* NULL: free */
  unsigned long depth;
} wuc_owner_lock;

/* Blocks until the caller holds l (at once if it already does). */
void wuc_lock_acquire_at(wuc_owner_lock *__wuc_l, const char *__wuc_file, int __wuc_line);
void wuc_lock_acquire(wuc_owner_lock *__wuc_l);
/* Acquires l if it is free or already the caller's; never blocks. */
wuc_bool wuc_lock_try_acquire(wuc_owner_lock *__wuc_l);
/* Gives up one level; the last one hands l to the first waiter. */
void wuc_lock_release(wuc_owner_lock *__wuc_l);

/* The call records its source line for the deadlock report;
 * (wuc_lock_acquire)(l) still reaches the plain function. */
#define wuc_lock_acquire(...) wuc_lock_acquire_at((__VA_ARGS__), __FILE__, __LINE__)

/* The waituntil trait (<wuc/select.h>). */
wuc_bool wuc_owner_lock_register(wuc_owner_lock *__wuc_l, wuc_select_node *__wuc_n);
wuc_bool wuc_owner_lock_unregister(wuc_owner_lock *__wuc_l, wuc_select_node *__wuc_n);
WUC_SELECTABLE_DROPPABLE_BUILTIN_(wuc_owner_lock, wuc_owner_lock_register,
                                  wuc_owner_lock_unregister, wuc_owner_lock_on_selected, 0);

#ifdef __cplusplus
}
#endif
#endif
