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
#include <wuc/channel.h>
#include <wuc/select.h>

#include "chan_cell.h"
#include "spin.h"

/* A watching node's res words, while it is listed. */
enum { RES_WATCHED_CHAN = 0, RES_NEXT_WATCHER = 1 };

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

void chan_notify_closed_watchers(wuc_chan *ch) {
  /* The load half of the store-then-load pair with wuc_chan_closed_register. */
  atomic_thread_fence(memory_order_seq_cst);
  if (!atomic_load_explicit((_Atomic(struct wuc_select_node *) *)&ch->watchers,
                            memory_order_relaxed))
    return;
  /* Claim under the lock: a node we did not claim may belong to a statement
   * that has withdrawn and returned, so it must not be touched after unlock;
   * a claimed one cannot leave before we wake it. */
  wuc_select_node *claimed = NULL;
  watch_lock(ch);
  if (drained(ch)) {
    wuc_select_node *n = ch->watchers;
    ch->watchers = NULL;
    while (n) {
      wuc_select_node *next = next_watcher(n);
      n->res.ptr[RES_WATCHED_CHAN] = NULL; /* off the list */
      if (wuc_select_claim(n)) {
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
  for (wuc_select_node **p = &ch->watchers; *p;
       p = (wuc_select_node **)&(*p)->res.ptr[RES_NEXT_WATCHER]) {
    if (*p == n) {
      *p = next_watcher(n);
      break;
    }
  }
  n->res.ptr[RES_WATCHED_CHAN] = NULL;
}

static bool listed(wuc_select_node *n) { return n->res.ptr[RES_WATCHED_CHAN] != NULL; }

bool wuc_chan_closed_register(wuc_chan_closed_clause *clause, wuc_select_node *n) {
  wuc_chan *ch = clause->chan;
  chan_ready(ch, clause->elem_size, "waituntil (closed(ch))");
  watch_lock(ch);
  if (!n->try_only && !listed(n)) {
    n->res.ptr[RES_WATCHED_CHAN] = ch;
    n->res.ptr[RES_NEXT_WATCHER] = ch->watchers;
    atomic_store((_Atomic(struct wuc_select_node *) *)&ch->watchers, n);
  }
  atomic_thread_fence(memory_order_seq_cst);
  if (drained(ch)) {
    if (listed(n)) unlist_watcher(ch, n);
    watch_unlock(ch);
    if (!wuc_select_claim(n)) return false;
    wuc_select_done(n);
    return true;
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
