/* timer.h — one-shot timers on the per-worker timer heaps.
 *
 * A timer lives in its user's memory (a stack frame, typically: a waituntil
 * statement's timeout clause or uthread_sleep).  Starting it registers it with
 * the current worker; when its deadline passes, that worker calls fire(t) from
 * its scheduler, outside any user thread, or, if that worker is busy running
 * a thread that does not reach a scheduling point, another worker or the
 * monitor thread does (sysmon.h).  fire must be short and must not block: it
 * may wuc_unpark a thread, claim a select node, start a timer, and so on.
 *
 * Cancel is O(1) and may run on any worker: it marks the worker's entry for
 * the timer dead, and the owner drops dead entries when they reach the top of
 * its heap, or all at once when they outnumber a quarter of the heap, so the
 * heap stays proportional to the live timers (a receive-or-timeout loop that
 * never times out does not grow it).
 *
 * After wuc_timer_cancel returns, the runtime no longer touches *t, so its
 * memory may be reused: if fire was running, cancel waits for it to return. */
#ifndef WUC_RUNTIME_TIMER_H
#define WUC_RUNTIME_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct timer_slot;

typedef struct wuc_timer {
  void (*fire)(struct wuc_timer *t);
  /* Set by wuc_timer_start; opaque to users. */
  struct timer_slot *slot;
  uint64_t generation;
} wuc_timer;

/* Starts t: fire(t) runs once, no earlier than `deadline` (wuc_now() time).
 * Must be called on a user thread or in a timer's fire(). */
void wuc_timer_start(wuc_timer *t, int64_t deadline, void (*fire)(wuc_timer *t));

/* Stops t.  Returns true if t was cancelled before firing; false if it has
 * fired (and fire has returned — or, called from t's own fire, is running). */
bool wuc_timer_cancel(wuc_timer *t);

/* A thread's timer for its statements' timeouts: timer_heap.h. */
struct wuc_thread_timer;

/* The thread timer's fire function (timer.c recognises its slots). */
void wuc_thread_timer_fire(wuc_timer *t);
/* Called with `held` (a heap's lock) held, for a pending thread-timer slot
 * of that heap: if no clause uses the thread timer t (its thread is between
 * statements, or waits for something else), cancels it and returns true.
 * So an idle worker does not sleep until, and the deadlock report does not
 * wait for, a timer nobody needs. */
struct timer_heap;
bool wuc_thread_timer_drop_idle(wuc_timer *t, struct timer_heap *held);
/* At the end of the thread that owns tt: cancels its timer if armed. */
void wuc_thread_timer_end(struct wuc_thread_timer *tt);

#ifdef __cplusplus
}
#endif
#endif
