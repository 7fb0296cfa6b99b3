/* chan_closed.c — the closed(ch) clause: ready once the channel is closed
 * and drained, i.e. every cell below S_close that a receiver has not taken
 * is settled without an element (chan_cell.h).
 *
 * Waiting clauses sit in a list under the channel's watch lock.  Close, and
 * every operation that may settle a cell after close, calls
 * chan_notify_closed_watchers, which wakes the list once drained() holds.
 *
 * Why no wake-up is lost: a watcher is listed before it asks drained(), and
 * an operation stores its cell before it loads the list (both with a
 * seq_cst fence between), so either the operation sees the watcher or the
 * watcher's drained() sees the operation's cell. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>
#include <wuc/select.h>

#include "chan_cell.h"
#include "select_internal.h"
#include "spin.h"

/* A watching node's res words, while it is listed. */
enum { RES_WATCHED_CHAN = 0, RES_NEXT_WATCHER = 1 };

/* The list head and a node's RES_WATCHED_CHAN change under the watch lock
 * only, but are read without it (notify's quick look at the head, the
 * unregister's look whether a notify took its node off): atomic, so no read
 * races a write.  Taking a node off the list is a release, seen by the
 * unregister's acquire: it is the notifier's last touch of the node. */
static wuc_select_node *first_watcher(wuc_chan *ch) {
  return __atomic_load_n(&ch->watchers, __ATOMIC_RELAXED);
}
static void set_first_watcher(wuc_chan *ch, wuc_select_node *n) {
  __atomic_store_n(&ch->watchers, n, __ATOMIC_RELAXED);
}
static bool listed(wuc_select_node *n) {
  return __atomic_load_n(&n->res.ptr[RES_WATCHED_CHAN], __ATOMIC_ACQUIRE) != NULL;
}
static void set_listed(wuc_select_node *n, wuc_chan *ch) {
  __atomic_store_n(&n->res.ptr[RES_WATCHED_CHAN], (void *)ch, __ATOMIC_RELEASE);
}

static void watch_lock(wuc_chan *ch) { wuc_spin_lock(&ch->watch_lock); }
static void watch_unlock(wuc_chan *ch) { wuc_spin_unlock(&ch->watch_lock); }

static wuc_select_node *next_watcher(wuc_select_node *n) { return n->res.ptr[RES_NEXT_WATCHER]; }

/* Under the watch lock: closed, and nothing left for a receiver to take. */
static bool drained(wuc_chan *ch) {
  if (!(atomic_load(&ch->senders) & CLOSED_BIT)) return false;
  struct cell_walk w = cell_walk_start(atomic_load(&ch->receive_segment),
                                       atomic_load(&ch->receivers), close_point(ch));
  while (cell_walk_next(&w))
    if (!is_settled(atomic_load(w.cell))) return false;
  return !w.ran_out; /* a sender has yet to reach its segment */
}

void wuc_chan_notify_closed_watchers(wuc_chan *ch) {
  /* The load half of the store-then-load pair with wuc_chan_closed_register. */
  atomic_thread_fence(memory_order_seq_cst);
  if (!first_watcher(ch)) return;
  /* Claim under the lock: a node we did not claim may belong to a statement
   * that has withdrawn and returned, so it must not be touched after unlock;
   * a claimed one cannot leave before we wake it. */
  wuc_select_node *claimed = NULL;
  watch_lock(ch);
  if (drained(ch)) {
    wuc_select_node *n = first_watcher(ch);
    set_first_watcher(ch, NULL);
    while (n) {
      wuc_select_node *next = next_watcher(n);
      /* As a resumer (select_internal.h): the receive that drained the
       * channel may be a clause of n's own statement, registering; claiming
       * its sibling n would win the statement behind that clause's back,
       * which then completes too.  n is dropped and registers again. */
      bool mine = wuc_select_claim_waiter(n);
      /* Off the list: the last touch of a node we did not claim (its
       * unregister, seeing this, may return and end its statement). */
      set_listed(n, NULL);
      if (mine) {
        n->res.ptr[RES_NEXT_WATCHER] = claimed;
        claimed = n;
      }
      n = next;
    }
  }
  watch_unlock(ch);
  while (claimed) {
    wuc_select_node *n = claimed;
    claimed = next_watcher(n);
    wuc_select_wake(n);
  }
}

/* Under the watch lock. */
static void unlist_watcher(wuc_chan *ch, wuc_select_node *n) {
  if (first_watcher(ch) == n) {
    set_first_watcher(ch, next_watcher(n));
  } else {
    wuc_select_node *p = first_watcher(ch);
    while (p && next_watcher(p) != n) p = next_watcher(p);
    if (p) p->res.ptr[RES_NEXT_WATCHER] = next_watcher(n);
  }
  set_listed(n, NULL);
}

bool wuc_chan_closed_register(wuc_chan_closed_clause *clause, wuc_select_node *n) {
  wuc_chan *ch = clause->chan;
  chan_ready(ch, clause->elem_size, "waituntil (closed(ch))");
  watch_lock(ch);
  if (!n->try_only && !listed(n)) {
    n->res.ptr[RES_NEXT_WATCHER] = first_watcher(ch);
    set_listed(n, ch);
    set_first_watcher(ch, n);
  }
  atomic_thread_fence(memory_order_seq_cst);
  if (drained(ch)) {
    if (listed(n)) unlist_watcher(ch, n);
    watch_unlock(ch);
    return wuc_select_claim_done_own(n);
  }
  watch_unlock(ch);
  return false;
}

bool wuc_chan_closed_unregister(wuc_chan_closed_clause *clause, wuc_select_node *n) {
  wuc_chan *ch = clause->chan;
  bool done = wuc_select_withdraw(n);
  if (listed(n)) {
    watch_lock(ch);
    if (listed(n)) unlist_watcher(ch, n); /* unless a notify took it off */
    watch_unlock(ch);
  }
  return done;
}

bool wuc_chan_closed_on_selected(wuc_chan_closed_clause *clause, wuc_select_node *n) {
  (void)clause;
  return n->needed;
}
