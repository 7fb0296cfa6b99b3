/* park.c — the one-permit park/unpark protocol (park.h; states in scheduler.h). */
#include "park.h"

#include <errno.h>

#include "fatal.h"
#include "scheduler.h"

/* Never inlined: wuc_tls_worker is read before the switch only, which is
 * a tail call (scheduler.h). */
__attribute__((noinline)) void wuc_park_at(const char *what, const void *object, const char *file,
                                           int line) {
  struct worker *w = wuc_tls_worker;
  struct wuc_uthread *cur = w ? w->current : NULL;
  if (!cur) wuc_check_not_forked(what ? what : "wuc_park");
  if (!cur || w->in_timer_callbacks)
    wuc_fatal("wuc_park(\"%s\") called outside a user thread (e.g. in a timer callback)",
              what ? what : "");
  int permit = PARK_PERMIT; /* read first: a CAS that fails still costs a locked op */
  if (atomic_load_explicit(&cur->park_state, memory_order_relaxed) == PARK_PERMIT &&
      atomic_compare_exchange_strong(&cur->park_state, &permit, PARK_RUNNING))
    return;
  wuc_note_wait(cur, what, object, file, line);
  wuc_switch_away(w, cur, PREV_PARK); /* clears the wait_* fields when cur runs again */
}

void wuc_park(const char *what, const void *object) { wuc_park_at(what, object, NULL, 0); }

__attribute__((noinline)) void wuc_park_published(const char *what, const void *object,
                                                  bool (*publish)(void *arg), void *arg) {
  struct worker *w = wuc_tls_worker;
  struct wuc_uthread *cur = w ? w->current : NULL;
  if (!cur || w->in_timer_callbacks)
    wuc_fatal("wuc_park_published(\"%s\") called outside a user thread", what ? what : "");
  wuc_note_wait(cur, what, object, NULL, 0);
  w->prev_publish = publish;
  w->prev_publish_arg = arg;
  wuc_switch_away(w, cur, PREV_PARK_PUBLISH);
}

void wuc_wake_published(wuc_uthread_t *t) { wuc_make_runnable_published(t); }

void wuc_unpark(wuc_uthread_t *t) {
  if (!t) wuc_fatal("wuc_unpark(NULL)");
  for (;;) {
    int state = atomic_load(&t->park_state);
    switch (state) {
    case PARK_PERMIT:
      /* The permit saturates, but not with a plain load: the caller's
       * result (a release store, e.g. a waiter's WAKING) must be visible
       * before t can consume this permit and look at it.  A load here can
       * pass that store (x86 reorders a store with a later load), t then
       * consumes the old permit, still reads "waiting" and parks for good
       * (the thread waiter's lost wake-up, docs/runtime.md "park /
       * unpark").  The CAS that keeps PERMIT is a read-modify-write: t's
       * CAS that consumes the permit either comes after it (and sees the
       * result) or before it (and this CAS finds RUNNING: a new permit). */
      if (atomic_compare_exchange_weak(&t->park_state, &state, PARK_PERMIT)) return;
      break;
    case PARK_RUNNING:
      if (atomic_compare_exchange_weak(&t->park_state, &state, PARK_PERMIT)) return;
      break;
    case PARK_PARKED:
      if (atomic_compare_exchange_weak(&t->park_state, &state, PARK_RUNNING)) {
        wuc_make_runnable(t);
        return;
      }
      break;
    case PARK_EXITED:
      wuc_fatal("wuc_unpark: user thread %lu has already finished", t->id);
    default:
      /* A published park (a statement's wait, a thread waiter in its
       * channel cell): only whoever wins what was published makes t
       * runnable.  No unpark is in flight for a thread that starts such a
       * wait (every waker is waited out: WAKING words, a node's DONE), so
       * this is a stale wake, which an ordinary park would have spent on
       * one more turn of its wait's loop.  Dropped. */
      if (state == PARK_PUBLISHED) return;
      wuc_fatal("wuc_unpark(%p): not a user thread", (void *)t);
    }
  }
}

__attribute__((noinline)) void wuc_set_errno_after_park(int error) {
  __asm__ volatile("" ::: "memory");
  errno = error;
}
