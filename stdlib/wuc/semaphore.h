/* <wuc/semaphore.h> — a counting semaphore with FIFO hand-off, usable in
 * waituntil clauses.
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

#include <stdbool.h>

#include <wuc/lock.h> /* wuc_waitq */
#include <wuc/select.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct semaphore {
  wuc_waitq waiters; /* its spinlock also guards the fields below */
  long permits;
  bool used; /* initialised or operated on: a later semaphore_init is misuse */
} semaphore;

void semaphore_init(semaphore *s, long n);
/* Blocks until the caller has a permit. */
void wuc_semaphore_acquire_at(semaphore *s, const char *file, int line);
void semaphore_acquire(semaphore *s);
/* Takes a permit if one is available; never blocks. */
bool semaphore_try_acquire(semaphore *s);
/* Gives a permit back (to the first waiter, if any). */
void semaphore_release(semaphore *s);

/* The call records its source line for the deadlock report;
 * (semaphore_acquire)(s) still reaches the plain function. */
#define semaphore_acquire(s) wuc_semaphore_acquire_at((s), __FILE__, __LINE__)

/* The waituntil trait (<wuc/select.h>). */
bool semaphore_register(semaphore *s, wuc_select_node *n);
bool semaphore_unregister(semaphore *s, wuc_select_node *n);
WUC_SELECTABLE_DROPPABLE(semaphore, semaphore_register, semaphore_unregister,
                         semaphore_on_selected);

#ifdef __cplusplus
}
#endif
#endif
