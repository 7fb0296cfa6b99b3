/* <wuc/semaphore.h> — wuc_semaphore (semaphore in <wuc.h>): a counting semaphore with FIFO
 * hand-off, usable in waituntil clauses.
 *
 * A zero-initialised semaphore has no permits; semaphore_init gives it n, on
 * a zeroed semaphore not yet used.  Invariants (under the queue's spinlock):
 *   - permits > 0  =>  nobody waits;
 *   - a release hands its permit straight to the first waiter (a thread
 *     blocked in semaphore_acquire or a waituntil clause, in arrival order)
 *     and only adds it to `permits` when nobody waits, so waiters are served
 *     FIFO and cannot be overtaken.
 *
 * As a waituntil clause (`waituntil (s) body`): ready when a permit is
 * available; the clause takes one; the body runs holding it and it is
 * returned when the body ends.  A clause that took a permit but whose body
 * does not run (no longer needed, or the statement was left by a jump)
 * returns it too.
 *
 * Misuse stops the program: semaphore_init with a negative count, on a
 * semaphore already initialised or used, or on one that is not zeroed; more
 * than LONG_MAX permits. */
#ifndef WUC_SEMAPHORE_H
#define WUC_SEMAPHORE_H

#include <wuc/lock.h> /* wuc_waitq */
#include <wuc/select.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wuc_semaphore {
  wuc_waitq waiters; /* its spinlock also guards the fields below */
  long permits;
  wuc_bool used; /* initialised or operated on: a later semaphore_init is misuse */
  char __wuc_pad[7];
} wuc_semaphore;

void wuc_semaphore_init(wuc_semaphore *__wuc_s, long __wuc_n);
/* Blocks until the caller has a permit. */
void wuc_semaphore_acquire_at(wuc_semaphore *__wuc_s, const char *__wuc_file, int __wuc_line);
void wuc_semaphore_acquire(wuc_semaphore *__wuc_s);
/* Takes a permit if one is available; never blocks. */
wuc_bool wuc_semaphore_try_acquire(wuc_semaphore *__wuc_s);
/* Gives a permit back (to the first waiter, if any). */
void wuc_semaphore_release(wuc_semaphore *__wuc_s);

/* The call records its source line for the deadlock report;
 * (wuc_semaphore_acquire)(s) still reaches the plain function. */
#define wuc_semaphore_acquire(...) wuc_semaphore_acquire_at((__VA_ARGS__), __FILE__, __LINE__)

/* The waituntil trait (<wuc/select.h>). */
wuc_bool wuc_semaphore_register(wuc_semaphore *__wuc_s, wuc_select_node *__wuc_n);
wuc_bool wuc_semaphore_unregister(wuc_semaphore *__wuc_s, wuc_select_node *__wuc_n);
WUC_SELECTABLE_DROPPABLE_BUILTIN_(wuc_semaphore, wuc_semaphore_register, wuc_semaphore_unregister,
                                  wuc_semaphore_on_selected, 0);

#ifdef __cplusplus
}
#endif
#endif
