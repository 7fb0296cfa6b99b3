/* countdown_gate.h — the user-defined selectable resource of
 * examples/countdown_gate.c, as a header for the lit tests: a gate that
 * opens after N arrivals and stays open.  Plain C on the documented protocol
 * of <wuc/select.h> (LANGUAGE.md §4); as a waituntil clause it is ready once
 * open, and the clause does nothing to it. */
#ifndef LIT_COUNTDOWN_GATE_H
#define LIT_COUNTDOWN_GATE_H

#include <wuc.h>

struct gate {
  owner_lock lock;               /* guards the fields below; held for a few lines */
  long remaining;                /* arrivals still expected; 0: open, for good */
  wuc_select_node *first, *last; /* clauses waiting for it, in arrival order */
};

#define GATE_NEXT(n) ((n)->res.ptr[0])
#define GATE_PREV(n) ((n)->res.ptr[1])
#define GATE_QUEUED(n) ((n)->res.word[2])

static void gate_unlink(struct gate *g, wuc_select_node *n) {
  wuc_select_node *next = GATE_NEXT(n), *prev = GATE_PREV(n);
  if (prev) GATE_NEXT(prev) = next; else g->first = next;
  if (next) GATE_PREV(next) = prev; else g->last = prev;
  GATE_QUEUED(n) = 0;
}

static inline void gate_init(struct gate *g, long arrivals) { g->remaining = arrivals; }

static inline void gate_arrive(struct gate *g) {
  wuc_select_node *won = NULL, *won_last = NULL;
  lock_acquire(&g->lock);
  if (g->remaining > 0 && --g->remaining == 0) {
    while (g->first) {
      wuc_select_node *n = g->first;
      bool claimed = wuc_select_claim(n);
      gate_unlink(g, n);
      if (!claimed) continue;
      GATE_NEXT(n) = NULL;
      if (won_last) GATE_NEXT(won_last) = n; else won = n;
      won_last = n;
    }
  }
  lock_release(&g->lock);
  while (won) {
    wuc_select_node *next = GATE_NEXT(won);
    wuc_select_wake(won);
    won = next;
  }
}

static inline bool gate_register(struct gate *g, wuc_select_node *n) {
  lock_acquire(&g->lock);
  bool open = g->remaining == 0;
  if (!open && !n->try_only) {
    GATE_NEXT(n) = NULL;
    GATE_PREV(n) = g->last;
    if (g->last) GATE_NEXT(g->last) = n; else g->first = n;
    g->last = n;
    GATE_QUEUED(n) = 1;
  }
  lock_release(&g->lock);
  if (!open || !wuc_select_claim(n)) return false;
  wuc_select_done(n);
  return true;
}

static inline bool gate_unregister(struct gate *g, wuc_select_node *n) {
  lock_acquire(&g->lock);
  if (GATE_QUEUED(n)) gate_unlink(g, n);
  lock_release(&g->lock);
  return wuc_select_withdraw(n);
}

static inline bool gate_on_selected(struct gate *g, wuc_select_node *n) {
  (void)g;
  return n->needed;
}

WUC_SELECTABLE(struct gate, gate_register, gate_unregister, gate_on_selected);

#endif
