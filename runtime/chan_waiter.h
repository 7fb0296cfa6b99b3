/* chan_waiter.h — the thread waiter of a blocking chan_send/chan_recv
 * (channel.c, "waiters" and "thread waiters off their CPU"), and the common
 * case of its publication after its thread's switch, which the switch's
 * finishing step runs (scheduler.c, finish_switch; park.h). */
#ifndef WUC_RUNTIME_CHAN_WAITER_H
#define WUC_RUNTIME_CHAN_WAITER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <wuc/channel.h>

#include "chan_cell.h"
#include "scheduler.h"

/* The waiter's state word (channel.c): WAITING, WAKING (the ordinary
 * path's resumer is unparking it), PUBLISHING (the publication after the
 * switch may still read it), LOOK_AGAIN (that publication found the cell
 * moved), then a wake result (channel.c, enum wake_result: 1 or 2). */
enum { THREAD_WAITING = 0, THREAD_WAKING = 3, THREAD_LOOK_AGAIN = 4, THREAD_PUBLISHING = 5 };

struct thread_waiter {
  struct wuc_uthread *thread;
  void *data; /* a receiver's: where the element goes */
  _Atomic uint32_t state;
  bool off_cpu; /* published after its thread's switch: woken with plain stores */
  bool pinned;  /* a look again pinned `seg` (unpinned when the operation ends) */
  /* For the publication after the switch, into a cell the thread saw EMPTY: */
  _Atomic uintptr_t *cell;
  uintptr_t gone; /* what a withdrawal after close leaves there; says a sender */
  wuc_chan *ch;
  struct wuc_chan_segment *seg;
};

/* The tagged waiter a thread waiter leaves in its cell. */
static inline uintptr_t thread_waiter_state(const struct thread_waiter *t) {
  return (uintptr_t)t | WAITER_THREAD | (t->gone == CELL_INTERRUPTED_SEND ? WAITER_SENDER : 0);
}

/* channel.c: the publication's rare cases (published on a closed channel,
 * or not published: the cell moved). */
void wuc_chan_publish_slow(struct wuc_uthread *thread, struct thread_waiter *t, bool published);

/* Publishes thread's waiter t (park.h): park_state PUBLISHED before the
 * cell's CAS from EMPTY releases it, then the close check; the store of
 * WAITING is the last touch of t and its channel (channel.c, I1, I5, I6). */
static inline void wuc_chan_publish_waiter(struct wuc_uthread *thread, struct thread_waiter *t) {
  atomic_store_explicit(&thread->park_state, PARK_PUBLISHED, memory_order_relaxed);
  uintptr_t state = CELL_EMPTY;
  bool published = atomic_compare_exchange_strong(t->cell, &state, thread_waiter_state(t));
  if (__builtin_expect(published && !(atomic_load(&t->ch->senders) & CLOSED_BIT), 1)) {
    atomic_store_explicit(&t->state, THREAD_WAITING, memory_order_release);
    return;
  }
  wuc_chan_publish_slow(thread, t, published);
}

#endif
