/* countdown_gate.h — a selectable resource written by a user, on nothing but
 * the documented protocol of <wuc/select.h> (docs/protocol.md): a countdown
 * gate that opens after N arrivals and stays open.  As a waituntil clause it
 * is ready once open; the clause does nothing to the gate.
 *
 * Used by examples/countdown_gate.c (statements lowered by hand) and by the
 * lit tests that write the statements in the dialect; docs/protocol.md walks
 * through it. */
#ifndef WUC_EXAMPLE_COUNTDOWN_GATE_H
#define WUC_EXAMPLE_COUNTDOWN_GATE_H

#include <wuc.h>

struct gate {
  owner_lock lock;               /* guards the fields below; held for a few lines */
  long remaining;                /* arrivals still expected; 0: open, for good */
  wuc_select_node *first, *last; /* clauses waiting for it, in arrival order */
};

/* A waiting clause's links live in its node's resource area (zeroed by
 * wuc_select_node_init, so a node never queued reads "not queued"). */
#define GATE_NEXT(n) ((n)->res.ptr[0])
#define GATE_PREV(n) ((n)->res.ptr[1])
#define GATE_QUEUED(n) ((n)->res.word[2])

static inline void gate_unlink(struct gate *g, wuc_select_node *n) {
  wuc_select_node *next = GATE_NEXT(n), *prev = GATE_PREV(n);
  if (prev)
    GATE_NEXT(prev) = next;
  else
    g->first = next;
  if (next)
    GATE_PREV(next) = prev;
  else
    g->last = prev;
  GATE_QUEUED(n) = 0;
}

static inline void gate_init(struct gate *g, long arrivals) { g->remaining = arrivals; }

/* The N-th arrival opens the gate: every waiting clause whose claim we win
 * completes.  Claims are made under the lock while the node is still queued
 * (its statement cannot leave meanwhile: unregister needs the lock); a node
 * whose claim is lost is unlinked and never touched again.  The won nodes
 * are woken after the lock is released. */
static inline void gate_arrive(struct gate *g) {
  wuc_select_node *won = NULL, *won_last = NULL;
  lock_acquire(&g->lock);
  if (g->remaining > 0 && --g->remaining == 0) {
    while (g->first) {
      wuc_select_node *n = g->first;
      bool claimed = wuc_select_claim(n);
      gate_unlink(g, n);
      if (!claimed) continue; /* withdrawn, or its statement is won or registering */
      GATE_NEXT(n) = NULL;    /* n is ours until woken: chain it */
      if (won_last)
        GATE_NEXT(won_last) = n;
      else
        won = n;
      won_last = n;
    }
  }
  lock_release(&g->lock);
  while (won) {
    wuc_select_node *next = GATE_NEXT(won); /* before the wake: then the node may vanish */
    wuc_select_wake(won);
    won = next;
  }
}

static inline bool gate_register(struct gate *g, wuc_select_node *n) {
  lock_acquire(&g->lock);
  bool open = g->remaining == 0;
  if (!open && !n->try_only) { /* queue n; an arrival will claim it */
    GATE_NEXT(n) = NULL;
    GATE_PREV(n) = g->last;
    if (g->last)
      GATE_NEXT(g->last) = n;
    else
      g->first = n;
    g->last = n;
    GATE_QUEUED(n) = 1;
  }
  lock_release(&g->lock);
  if (!open || !wuc_select_claim(n)) return false; /* queued, or claim lost */
  wuc_select_done(n); /* completed for our own statement: no wake needed */
  return true;
}

static inline bool gate_unregister(struct gate *g, wuc_select_node *n) {
  lock_acquire(&g->lock);
  if (GATE_QUEUED(n)) gate_unlink(g, n);
  lock_release(&g->lock);
  return wuc_select_withdraw(n); /* true: an arrival completed n first */
}

static inline bool gate_on_selected(struct gate *g, wuc_select_node *n) {
  (void)g;
  return n->needed;
}

WUC_SELECTABLE(struct gate, gate_register, gate_unregister, gate_on_selected);

#endif
