/* timer_heap.h — the per-worker timer structure behind timer.h.
 *
 * Only the owning worker touches the heap (start, fire, compaction); other
 * workers touch only a slot's state word, to cancel.  A started timer owns a
 * runtime-allocated slot, and the heap orders slots by (deadline, sequence),
 * so the user's wuc_timer can go away right after a cancel while its dead
 * slot waits in the heap.
 *
 * slot.state = generation << 2 | one of:
 *   SLOT_PENDING    in the heap, not yet due
 *   SLOT_FIRING     the owner has claimed it and is running fire()
 *   SLOT_FIRED      fire() has returned
 *   SLOT_CANCELLED  a canceller won (PENDING -> CANCELLED); the owner frees it
 * A slot is reused with generation + 1, so a canceller holding a stale
 * generation fails its CAS and learns that the timer fired long ago. */
#ifndef WUC_RUNTIME_TIMER_HEAP_H
#define WUC_RUNTIME_TIMER_HEAP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "timer.h"

enum { SLOT_PENDING = 0, SLOT_FIRING = 1, SLOT_FIRED = 2, SLOT_CANCELLED = 3 };

struct worker;

struct timer_slot {
  _Atomic uint64_t state;
  int64_t deadline;
  uint64_t sequence; /* tie-break: equal deadlines fire in start order */
  wuc_timer *timer;
  struct worker *owner; /* the heap's worker, set when the slot is made */
  struct timer_slot *free_next;
};

struct timer_heap {
  struct timer_slot **heap;
  size_t len, cap;
  struct timer_slot *free_slots;
  uint64_t next_sequence;
  _Atomic int64_t ncancelled; /* cancelled slots still in the heap */
};

/* Fires every timer of w due at `now`; returns how many fired. */
int wuc_timers_run(struct worker *w, int64_t now);
/* The earliest live deadline of w, or INT64_MAX. */
int64_t wuc_timers_next_deadline(struct worker *w);

static inline int wuc_timers_empty(const struct timer_heap *h) { return h->len == 0; }

#endif
