/* park.h — blocking and waking user threads, for resource implementers.
 *
 * Every user thread carries one permit, initially absent.
 *
 *   wuc_park(what, object)  if the permit is present, consumes it and returns
 *                           at once; otherwise blocks until wuc_unpark gives
 *                           one (and consumes it).
 *   wuc_unpark(t)           gives t the permit; wakes t if it is parked.  The
 *                           permit saturates at one: two unparks before a park
 *                           release a single park.  What the caller stored
 *                           before the unpark (even with a plain release
 *                           store) is visible to t once it has consumed the
 *                           permit or been woken: the unpark is always a
 *                           read-modify-write of t's park word, also when the
 *                           permit is there already.
 *
 * An unpark that arrives before the matching park is kept, so the usual
 * protocol needs no lock:
 *
 *     waiter                           waker
 *     publish "I wait" (e.g. enqueue)  take the waiter, publish the result
 *     while (!result published)        wuc_unpark(waiter)
 *         wuc_park("...", obj);
 *
 * wuc_park may return without a matching unpark (a permit left over from an
 * earlier, raced wake-up), so a waiter always parks in a loop over its own
 * condition, as above.
 *
 * A waker must know that t still exists: once the waiter has seen its
 * condition it may return, finish and be joined.  Publish the result with the
 * last access to the waiter's memory, or make the waiter wait for the waker
 * (see wuc_timer_cancel).
 *
 * `what` and `object` describe the wait for the deadlock report, e.g.
 * wuc_park("channel receive", ch).  `what` must be a string literal (or
 * otherwise outlive the wait).
 *
 * Threads woken from a user thread run next on the waker's worker (hand-off);
 * threads woken from a timer callback join the back of the worker's queue, so
 * timers that expire together resume their threads in deadline order.
 *
 * Protocol violations stop the program with a message: parking outside a user
 * thread (e.g. in a timer callback), unparking NULL, or unparking a thread
 * that has finished. */
#ifndef WUC_RUNTIME_PARK_H
#define WUC_RUNTIME_PARK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/thread.h>

#ifdef __cplusplus
extern "C" {
#endif

void wuc_park(const char *what, const void *object);
/* wuc_park for a call whose macro recorded its site (file NULL if unknown):
 * the deadlock report shows "waits in WHAT on OBJECT at FILE:LINE". */
void wuc_park_at(const char *what, const void *object, const char *file, int line);
void wuc_unpark(wuc_uthread_t *t);

/* A park whose wait becomes visible only once the thread is off its CPU
 * (Go's gopark with an unlock function): `publish(arg)` runs right after the
 * switch, on the worker, and makes the wait visible to wakers (one CAS);
 * false means it could not (the state it publishes over changed), and the
 * thread runs again at once.  Whoever then wins what was published — one
 * party, by the publication's own protocol — wakes the thread with
 * wuc_wake_published: no permit, no read-modify-write of the park word on
 * either side.  wuc_unpark leaves such a thread alone.  The caller looks
 * at its own state again when the call returns, as after wuc_park. */
void wuc_park_published(const char *what, const void *object, bool (*publish)(void *arg),
                        void *arg);
void wuc_wake_published(wuc_uthread_t *t);

/* The same, specialised for a blocking channel operation's thread waiter
 * (channel.c, "thread waiters off their CPU"), its publication inline in
 * the switch's finishing step instead of a call through a pointer.  The
 * operation, on a user thread, decides to wait in a channel cell but does
 * not put its waiter there: it switches away (PREV_PARK_IN_CELL), and the
 * context that runs next on its worker calls wuc_chan_publish_waiter from
 * the switch's finishing step (scheduler.c, finish_switch), before any
 * quiescent point (reclaim.h): the operation may still hold a pointer into
 * the channel's segments.  Whoever takes the waiter out of its cell then
 * knows the thread is off its CPU and has finished parking, and makes it
 * runnable with plain stores; the thread's park_state is PARK_PUBLISHED
 * meanwhile, which wuc_unpark leaves alone (scheduler.h).  The publication
 * (chan_waiter.h) makes the thread runnable again at once if it cannot
 * stay there (its cell moved, or the channel was closed). */

/* How many publications found their cell moved (for tests). */
unsigned long wuc_chan_looks_again(void);

#ifdef __cplusplus
}
#endif
/* Sets errno after a park: the thread may resume on another kernel thread,
 * and a compiler may keep &errno (glibc's __errno_location is `const`) from
 * before the park; out of line, the address is taken afresh. */
void wuc_set_errno_after_park(int error);

#endif
