/* timer_heap.h — the per-worker timer structure behind timer.h.
 *
 * The owning worker starts timers on its heap; the owner fires them at its
 * scheduling points, and so may anybody who finds them overdue (an idle or
 * spinning worker, the monitor: sysmon.h), so that a timer is not late
 * because its worker runs a thread that computes.  A spin lock guards the
 * heap and its free slots (taken once per start and per batch of fires,
 * uncontended unless somebody is taking the timers over); `earliest`
 * publishes the top's deadline so that others can look without the lock.
 * Cancel touches only a slot's state word.  A started timer owns a
 * runtime-allocated slot, and the heap orders slots by (deadline, sequence),
 * so the user's wuc_timer can go away right after a cancel while its dead
 * slot waits in the heap.
 *
 * slot.state = generation << 2 | one of:
 *   SLOT_PENDING    in the heap, not yet due
 *   SLOT_FIRING     a firer has claimed it and is running fire()
 *   SLOT_FIRED      fire() has returned
 *   SLOT_CANCELLED  a canceller won (PENDING -> CANCELLED); the owner frees it
 * A slot is reused with generation + 1, so a canceller holding a stale
 * generation fails its CAS and learns that the timer fired long ago. */
#ifndef WUC_RUNTIME_TIMER_HEAP_H
#define WUC_RUNTIME_TIMER_HEAP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timer.h"

/* A thread's timer for the timeout(d) clauses of its statements, kept
 * armed across statements (timeout.c; docs/runtime.md, "The thread's
 * statement timer"): a receive-or-timeout loop whose timeout never fires
 * starts a timer once per armed period instead of starting and cancelling
 * one per statement that waits.  `word` is the node of the clause using it
 * (0: none) | TT_OWN while some party changes `timer` and `armed` (the
 * statement's thread, a fire of the timer, a worker dropping it while
 * idle) | TT_KICK when a fire came while TT_OWN was held (the holder looks
 * at the timer again before it lets go).  Zero: nothing armed, no node. */
struct wuc_thread_timer {
  wuc_timer timer;
  _Atomic int64_t armed; /* deadline of the started timer; 0: none (changed under TT_OWN) */
  _Atomic uintptr_t word;
};
#define WUC_TT_OWN ((uintptr_t)1)
#define WUC_TT_KICK ((uintptr_t)2)

enum { SLOT_PENDING = 0, SLOT_FIRING = 1, SLOT_FIRED = 2, SLOT_CANCELLED = 3 };

struct worker;

struct timer_slot {
  _Atomic uint64_t state;
  int64_t deadline;
  uint64_t sequence; /* tie-break: equal deadlines fire in start order */
  wuc_timer *timer;
  struct worker *owner;        /* the heap's worker, set when the slot is made */
  _Atomic(const void *) firer; /* while FIRING: the firing kernel thread (timer.c) */
  struct timer_slot *free_next;
  /* The timer is a thread's statement timer (timer.h): set at its start,
   * so that the heap's owner can tell without touching the timer. */
  bool thread_timer;
};

struct timer_heap {
  _Atomic int lock;         /* spin.h: the heap, its free slots, next_sequence */
  _Atomic int64_t earliest; /* the top's deadline (perhaps cancelled), INT64_MAX if empty */
  struct timer_slot **heap;
  size_t len, cap;
  struct timer_slot *free_slots;
  uint64_t next_sequence;
  /* Counts, so that a start and a cancel touch no line shared by all
   * workers: started, fired and dropped (cancelled slots taken out) change
   * under the lock, cancelled (any thread) by one atomic add.  Pending
   * timers: started - fired - cancelled; cancelled slots still in the heap:
   * cancelled - dropped. */
  _Atomic uint64_t started, fired, dropped;
  _Atomic uint64_t cancelled;
};

/* Fires every timer of w due at `now`; returns how many fired.  Any kernel
 * thread may call it: w's own worker waits for the heap, anybody else gives
 * up (returns 0) if somebody holds it. */
int wuc_timers_run(struct worker *w, int64_t now);
/* Timers started and neither fired nor cancelled, over all workers. */
int64_t wuc_timers_pending(void);
/* wuc_timers_pending, not counting thread timers that no clause uses
 * (they are cancelled first): for the deadlock report, which asks it with
 * every worker idle. */
int64_t wuc_timers_pending_needed(void);
/* The earliest live deadline of w, or INT64_MAX (w's own worker only);
 * drops the thread timers no clause uses from its top first. */
int64_t wuc_timers_next_deadline(struct worker *w);

/* The deadline at the top of a heap, without its lock: perhaps a cancelled
 * timer's (so at worst a look too early), INT64_MAX if none. */
static inline int64_t wuc_timers_earliest(struct timer_heap *h) {
  return atomic_load_explicit(&h->earliest, memory_order_acquire);
}

#endif
