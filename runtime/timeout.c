/* timeout.c — the `timeout(d)` clause of <wuc/timeout.h>.
 *
 * While registered, the clause waits on its thread's statement timer (below)
 * or, if another clause of its statement uses that, on a wuc_timer started
 * in the node's resource area.  A fire claims the node and wakes the
 * statement; unregister takes the node off the thread's timer (waiting for a
 * fire that holds it) or cancels the node's timer (wuc_timer_cancel waits for
 * a running fire), so once unregister returns no timer touches the node.  A
 * fire whose claim is lost does nothing (the clause was withdrawn, another
 * won, or the statement is still registering and will register the clause
 * again). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <wuc/timeout.h>

#include <stddef.h>

#include "clock.h"
#include "scheduler.h"
#include "select_internal.h"
#include "spin.h"
#include "timer.h"
#include "timer_heap.h"

/* Where a registered clause's timer is. */
enum { NO_TIMER, NODE_TIMER, THREAD_TIMER };

struct timeout_clause {
  wuc_timer timer;  /* NODE_TIMER: a one-shot timer of the node's own */
  int64_t deadline; /* THREAD_TIMER: the deadline the thread's timer serves */
  unsigned char where;
} __attribute__((may_alias));

_Static_assert(sizeof(struct timeout_clause) <= sizeof(((wuc_select_node *)0)->res),
               "a timeout's timer fits in a select node's resource area");
_Static_assert(offsetof(struct timeout_clause, timer) == 0, "timeout_fire finds the node");
_Static_assert(offsetof(struct wuc_thread_timer, timer) == 0, "the thread timer's fire finds it");

static struct timeout_clause *clause_of(wuc_select_node *n) {
  return (struct timeout_clause *)(void *)&n->res;
}

static void timeout_fire(wuc_timer *timer) {
  /* timer is the first member of the clause area inside the node */
  wuc_select_node *n = (wuc_select_node *)(void *)((char *)timer - offsetof(wuc_select_node, res));
  if (wuc_select_claim(n)) wuc_select_wake(n); /* lost: withdrawn, or another clause won */
}

/* ---- the thread's timer (timer.h, struct wuc_thread_timer) --------------
 *
 * One timer per thread serves the first timeout clause of each statement
 * that waits.  It stays armed after the statement: the next statement whose
 * deadline is no earlier than the armed one only publishes its node and
 * deadline, and when the timer fires early for it (a spurious firing), the
 * fire starts it again for that deadline.  A deadline earlier than the
 * armed one cancels and starts it.  So a timeout never fires late (the
 * armed deadline is never after the clause's while the clause uses it) nor
 * early (a fire claims the node only once the clause's own deadline has
 * passed), and a loop whose timeout never fires starts one timer per armed
 * period.
 *
 * Who may change the timer: the holder of TT_OWN in `word` (the thread in
 * its register; a fire; an idle worker dropping it), one at a time.  A fire
 * that finds the word held does not wait (the holder may be cancelling the
 * timer, and cancel waits for a running fire): it sets TT_KICK and returns,
 * and the holder, letting go, restarts the timer for the clause's deadline.
 * Invariant: at most one slot of the timer is pending, `armed` is its
 * deadline (0: none), and a fire that takes TT_OWN is that slot's. */

static struct wuc_thread_timer *thread_timer_of(wuc_select_node *n) {
  return &n->stmt->thread->stmt_timer;
}

/* Takes TT_OWN if the word is `from` (with no flag); false if it is not. */
static bool take_own(struct wuc_thread_timer *tt, uintptr_t from) {
  uintptr_t w = from;
  return atomic_compare_exchange_strong(&tt->word, &w, from | WUC_TT_OWN);
}

static void arm(struct wuc_thread_timer *tt, int64_t deadline) {
  wuc_timer_start(&tt->timer, deadline, wuc_thread_timer_fire);
  atomic_store_explicit(&tt->armed, deadline, memory_order_relaxed);
}

/* Cancels the armed slot, under its heap's lock: a worker looking at its
 * heap under that lock may then touch the timer of any thread-timer slot it
 * finds pending, since the thread's end cancels it under the same lock
 * before the thread can go away.  `held`: the caller holds that heap's lock
 * already (wuc_thread_timer_drop_idle), and takes no other: it comes here
 * with the slot elsewhere only after that slot's fire kicked it, when the
 * slot is pending no more. */
static void disarm(struct wuc_thread_timer *tt, struct timer_heap *held) {
  if (atomic_load_explicit(&tt->armed, memory_order_relaxed) == 0) return;
  struct timer_heap *h = held ? NULL : &tt->timer.slot->owner->timers;
  if (h) wuc_spin_lock(&h->lock);
  (void)wuc_timer_cancel(&tt->timer); /* false: it fired, and its fire kicked us */
  if (h) wuc_spin_unlock(&h->lock);
  atomic_store_explicit(&tt->armed, 0, memory_order_relaxed);
}

/* Who lets go of TT_OWN (release). */
enum holder { BY_FIRE, BY_OWNER, BY_WORKER };

/* Lets go of TT_OWN.  A kick means a slot fired while we held the word,
 * perhaps the armed one: the timer is started again for the clause's
 * deadline, unless that has passed: then the holder completes the clause
 * itself, as the fire would have (a fire claims it; the statement's own
 * thread, registering it, claims it for itself and returns true: its reg
 * completed), so that a timer started with a deadline already passed cannot
 * be fired and kicked round after round.  The kick is cleared before the
 * timer starts again: a fire finding it set does not set it again, so a
 * fire of the new slot must find it clear, or it would be lost. */
static __attribute__((noinline)) bool release_kicked(struct wuc_thread_timer *tt,
                                                     struct timer_heap *held, enum holder by) {
  uintptr_t w = atomic_load_explicit(&tt->word, memory_order_relaxed);
  bool completed = false;
  for (;;) {
    if (!(w & WUC_TT_KICK)) {
      if (atomic_compare_exchange_weak(&tt->word, &w, w & ~WUC_TT_OWN)) return completed;
      continue;
    }
    if (!atomic_compare_exchange_weak(&tt->word, &w, w & ~WUC_TT_KICK)) continue;
    w &= ~WUC_TT_KICK;
    disarm(tt, held);
    wuc_select_node *n = (wuc_select_node *)(w & ~WUC_TT_OWN);
    if (!n || completed) continue;
    int64_t deadline = clause_of(n)->deadline;
    if (deadline > wuc_now()) {
      arm(tt, deadline);
    } else if (by == BY_OWNER) {
      completed = wuc_select_claim_done_own(n); /* false: the statement was won */
    } else if (wuc_select_claim(n)) {
      wuc_select_wake(n); /* lost: as timeout_fire */
    }
  }
}

/* The common case inline: no kick. */
static inline __attribute__((always_inline)) bool release(struct wuc_thread_timer *tt,
                                                          struct timer_heap *held, enum holder by) {
  uintptr_t w = atomic_load_explicit(&tt->word, memory_order_relaxed);
  if (!(w & WUC_TT_KICK) && atomic_compare_exchange_strong(&tt->word, &w, w & ~WUC_TT_OWN))
    return false;
  return release_kicked(tt, held, by);
}

void wuc_thread_timer_fire(wuc_timer *timer) {
  struct wuc_thread_timer *tt = (struct wuc_thread_timer *)(void *)timer;
  uintptr_t w = atomic_load(&tt->word);
  for (;;) {
    if (w & WUC_TT_OWN) {
      if ((w & WUC_TT_KICK) || atomic_compare_exchange_weak(&tt->word, &w, w | WUC_TT_KICK)) return;
    } else if (atomic_compare_exchange_weak(&tt->word, &w, w | WUC_TT_OWN)) {
      break;
    }
  }
  /* Ours: the armed slot has fired. */
  int64_t fired = atomic_load_explicit(&tt->armed, memory_order_relaxed);
  atomic_store_explicit(&tt->armed, 0, memory_order_relaxed);
  wuc_select_node *n = (wuc_select_node *)w;
  if (n) {
    int64_t deadline = clause_of(n)->deadline;
    if (deadline <= fired || deadline <= wuc_now()) {
      if (wuc_select_claim(n)) wuc_select_wake(n); /* lost: as timeout_fire */
    } else {
      arm(tt, deadline); /* early for this clause: an earlier statement armed it */
    }
  }
  (void)release(tt, NULL, BY_FIRE);
}

bool wuc_thread_timer_drop_idle(wuc_timer *timer, struct timer_heap *held) {
  struct wuc_thread_timer *tt = (struct wuc_thread_timer *)(void *)timer;
  if (!take_own(tt, 0)) return false; /* a clause uses it, or someone holds it */
  /* Only if its slot is in this heap (it may have been started again
   * elsewhere meanwhile): we take no second heap lock. */
  bool here = atomic_load_explicit(&tt->armed, memory_order_relaxed) != 0 &&
              &tt->timer.slot->owner->timers == held;
  if (here) disarm(tt, held);
  (void)release(tt, held, BY_WORKER); /* no node: a kick restarts nothing */
  return here;
}

void wuc_thread_timer_end(struct wuc_thread_timer *tt) {
  /* Nothing armed and nobody holding the word: no fire can come any more
   * (only a held word or a node gets the timer started again). */
  if (atomic_load_explicit(&tt->armed, memory_order_relaxed) == 0 &&
      atomic_load_explicit(&tt->word, memory_order_acquire) == 0)
    return;
  while (!take_own(tt, 0)) cpu_relax(); /* a fire or an idle worker is at it */
  disarm(tt, NULL);
  atomic_store_explicit(&tt->word, 0, memory_order_release); /* a kick: nothing to restart */
}

/* Registers n (deadline set) on its thread's timer: NOT_USED if another
 * clause of the statement uses it (then n starts a timer of its own),
 * COMPLETED if n's deadline passed meanwhile and n claimed itself
 * (release), else WAITING. */
enum use { NOT_USED, WAITING, COMPLETED };
static enum use use_thread_timer(wuc_select_node *n, int64_t deadline) {
  struct wuc_thread_timer *tt = thread_timer_of(n);
  uintptr_t w = atomic_load_explicit(&tt->word, memory_order_relaxed);
  /* The common case, one CAS: armed no later than n's deadline and nobody
   * holding the word.  Publish n without TT_OWN, then look at `armed`
   * again: only a holder changes it, and every holder but the thread sets
   * it to 0 (a fire without a node, a worker dropping it).  Still set: its
   * slot is pending, or its fire has yet to take the word and will find n.
   * 0: a fire or a drop came and went before n was published; arm it below
   * as the slow path does. */
  int64_t armed = atomic_load_explicit(&tt->armed, memory_order_relaxed);
  if (w == 0 && armed != 0 && armed <= deadline) {
    clause_of(n)->deadline = deadline; /* before n is published */
    if (atomic_compare_exchange_strong(&tt->word, &w, (uintptr_t)n)) {
      if (atomic_load(&tt->armed) != 0) return WAITING;
      w = (uintptr_t)n; /* take the word from n below */
    }
  }
  for (;;) {
    if (w & WUC_TT_OWN) { /* a fire (short: it never waits for us) */
      cpu_relax();
      w = atomic_load_explicit(&tt->word, memory_order_relaxed);
      continue;
    }
    if (w && w != (uintptr_t)n) return NOT_USED; /* a sibling clause's */
    /* (n itself: registered again after its fire's claim was lost) */
    if (atomic_compare_exchange_weak(&tt->word, &w, (uintptr_t)n | WUC_TT_OWN)) break;
  }
  clause_of(n)->deadline = deadline; /* a fire reads it holding the word */
  armed = atomic_load_explicit(&tt->armed, memory_order_relaxed);
  if (armed == 0 || armed > deadline) {
    disarm(tt, NULL);
    arm(tt, deadline);
  }
  return release(tt, NULL, BY_OWNER) ? COMPLETED : WAITING;
}

/* Takes n off its thread's timer, which stays armed for later statements. */
static void leave_thread_timer(wuc_select_node *n) {
  struct wuc_thread_timer *tt = thread_timer_of(n);
  uintptr_t w = (uintptr_t)n;
  while (!atomic_compare_exchange_weak(&tt->word, &w, 0)) {
    /* held by a fire (perhaps claiming n), or a spurious CAS failure */
    cpu_relax();
    w = (uintptr_t)n;
  }
}

/* Stops n's timer if it runs (waiting for a fire in progress). */
static void stop(wuc_select_node *n) {
  struct timeout_clause *c = clause_of(n);
  if (c->where == NODE_TIMER)
    wuc_timer_cancel(&c->timer); /* O(1) */
  else if (c->where == THREAD_TIMER)
    leave_thread_timer(n);
  c->where = NO_TIMER;
}

int64_t wuc_select_stmt_clock(wuc_select_stmt *s) {
  if (s->clock == 0) {
    struct worker *w = wuc_current_worker();
    s->clock = w ? wuc_now_not_before(&w->timer_filter, &s->clock_tsc) : wuc_now();
  }
  return s->clock;
}

static bool has_passed(const wuc_timeout *t) {
  if (t->deadline == INT64_MIN) return true; /* d <= 0: no clock needed */
  return t->deadline != INT64_MAX && wuc_now() >= t->deadline;
}

/* The clause registering to wait (not its try with d > 0). */
static __attribute__((noinline)) bool register_slow(wuc_timeout *t, wuc_select_node *n) {
  struct timeout_clause *c = clause_of(n); /* zeroed by wuc_select_node_init */
  /* Registered again (its fire's claim met the statement registering): the
   * old timer has fired, but its fire may not have returned yet.  (On the
   * thread's timer it stays: use_thread_timer below takes it again.) */
  if (c->where == NODE_TIMER) stop(n);
  if (t->delay > 0) {
    int64_t now = wuc_select_stmt_clock(n->stmt);
    t->deadline = t->delay > INT64_MAX - now ? INT64_MAX : now + t->delay;
    t->delay = 0; /* fixed: registered again, it keeps this deadline */
  } else if (has_passed(t)) {
    return wuc_select_claim_done_own(n);
  }
  /* A saturated deadline never passes: no timer, so that it neither wakes
   * anyone nor counts as pending for the deadlock report. */
  if (n->try_only || t->deadline == INT64_MAX) return false;
  enum use use = use_thread_timer(n, t->deadline);
  if (use != NOT_USED) {
    c->where = THREAD_TIMER; /* its unreg takes it off the thread's timer */
    return use == COMPLETED;
  }
  c->where = NODE_TIMER;
  wuc_timer_start(&c->timer, t->deadline, timeout_fire);
  return false;
}

bool wuc_timeout_register(wuc_timeout *t, wuc_select_node *n) {
  /* d > 0 counts from when the statement is about to wait (issue 21's lazy
   * clock): not ready in the first pass, and no clock read for it.  Later
   * than the evaluation, so never early.  (A node in its try is fresh: no
   * timer to stop.) */
  if (t->delay > 0 && n->try_only) return false;
  return register_slow(t, n);
}

bool wuc_timeout_unregister(wuc_timeout *t, wuc_select_node *n) {
  (void)t;
  stop(n);
  return wuc_select_withdraw(n);
}
