/* countdown_gate.c — a selectable resource written by a user, on nothing but
 * the documented protocol of <wuc/select.h>, and waituntil statements over it.
 *
 * A countdown gate opens after N arrivals and stays open.  As a waituntil
 * clause it is ready once open; the clause does nothing to the gate.
 *
 * Until wucc exists, the statements are lowered by hand, following
 * <wuc/select.h>'s steps; each is commented with the source it implements.
 * docs/resources.md ("Writing your own selectable resource") walks through
 * this file. */
#include <stdio.h>

#include <wuc.h>

/* ---- the resource ---------------------------------------------------------- */

struct gate {
  owner_lock lock;               /* guards the fields below; held for a few lines */
  long remaining;                /* arrivals still expected; 0: open, for good */
  wuc_select_node *first, *last; /* clauses waiting for it, in arrival order */
};

/* A waiting clause's links live in its node's resource area (zeroed by
 * wuc_select_node_init, so a node never queued reads "not queued"). */
#define NEXT(n) ((n)->res.ptr[0])
#define PREV(n) ((n)->res.ptr[1])
#define QUEUED(n) ((n)->res.word[2])

static void unlink_node(struct gate *g, wuc_select_node *n) {
  wuc_select_node *next = NEXT(n), *prev = PREV(n);
  if (prev) NEXT(prev) = next; else g->first = next;
  if (next) PREV(next) = prev; else g->last = prev;
  QUEUED(n) = 0;
}

void gate_init(struct gate *g, long arrivals) { g->remaining = arrivals; }

/* The N-th arrival opens the gate: every waiting clause whose claim we win
 * completes.  Claims are made under the lock while the node is still queued
 * (its statement cannot leave meanwhile: unregister needs the lock); a node
 * whose claim is lost is unlinked and never touched again.  The won nodes
 * are woken after the lock is released. */
void gate_arrive(struct gate *g) {
  wuc_select_node *won = NULL, *won_last = NULL;
  lock_acquire(&g->lock);
  if (g->remaining > 0 && --g->remaining == 0) {
    while (g->first) {
      wuc_select_node *n = g->first;
      bool claimed = wuc_select_claim(n);
      unlink_node(g, n);
      if (!claimed) continue; /* withdrawn, or its statement is won or registering */
      NEXT(n) = NULL;         /* n is ours until woken: chain it */
      if (won_last) NEXT(won_last) = n; else won = n;
      won_last = n;
    }
  }
  lock_release(&g->lock);
  while (won) {
    wuc_select_node *next = NEXT(won); /* before the wake: then the node may vanish */
    wuc_select_wake(won);
    won = next;
  }
}

bool gate_register(struct gate *g, wuc_select_node *n) {
  lock_acquire(&g->lock);
  bool open = g->remaining == 0;
  if (!open && !n->try_only) { /* queue n; an arrival will claim it */
    NEXT(n) = NULL;
    PREV(n) = g->last;
    if (g->last) NEXT(g->last) = n; else g->first = n;
    g->last = n;
    QUEUED(n) = 1;
  }
  lock_release(&g->lock);
  if (!open || !wuc_select_claim(n)) return false; /* queued, or claim lost */
  wuc_select_done(n); /* completed for our own statement: no wake needed */
  return true;
}

bool gate_unregister(struct gate *g, wuc_select_node *n) {
  lock_acquire(&g->lock);
  if (QUEUED(n)) unlink_node(g, n);
  lock_release(&g->lock);
  return wuc_select_withdraw(n); /* true: an arrival completed n first */
}

bool gate_on_selected(struct gate *g, wuc_select_node *n) {
  (void)g;
  return n->needed;
}

WUC_SELECTABLE(struct gate, gate_register, gate_unregister, gate_on_selected);

/* ---- the program ----------------------------------------------------------- */

enum { WORKERS = 8 };

static struct gate all_arrived;

static void worker(void *arg) {
  long id = (long)arg;
  uthread_sleep(milliseconds(1 + id % 3)); /* some work */
  gate_arrive(&all_arrived);
}

int main(void) {
  gate_init(&all_arrived, WORKERS);

  /*   waituntil (all_arrived) { puts("gate open early?"); }
   *   or else { printf("gate still closed\n"); }
   */
  {
    wuc_select_stmt s;
    wuc_select_node n0;
    wuc_select_stmt_init(&s, /*all_or=*/true);
    wuc_select_node_init(&n0, &s, NULL);
    wuc_select_node *winner = NULL;
    n0.try_only = true; /* with an else, every clause is tried once, no queueing */
    if (gate_register(&all_arrived, &n0)) winner = &n0;
    if (!winner) winner = wuc_select_close(&s); /* the else path: nothing can win now */
    if (winner == &n0) {
      if (gate_on_selected(&all_arrived, &n0)) puts("gate open early?");
      gate_unregister(&all_arrived, &n0);
    } else {
      gate_unregister(&all_arrived, &n0); /* withdraw before the else body */
      printf("gate still closed\n");
    }
  }

  uthread_t *threads[WORKERS];
  for (long i = 0; i < WORKERS; i++) threads[i] = uthread_spawn(worker, (void *)i);

  /*   waituntil (all_arrived) { printf("gate opened after %d arrivals\n", WORKERS); }
   *   or waituntil (timeout(seconds(10))) { printf("timed out\n"); }
   */
  {
    /* Resource expressions, evaluated once, in source order. */
    struct gate *r0 = &all_arrived;
    wuc_timeout r1 = wuc_timeout_make(seconds(10));

    wuc_select_stmt s;
    wuc_select_node n[2];
    wuc_select_stmt_init(&s, /*all_or=*/true);
    wuc_select_node_init(&n[0], &s, NULL);
    wuc_select_node_init(&n[1], &s, NULL);
    wuc_select_node *winner = NULL;

    /* 1. try each clause in source order without queueing */
    n[0].try_only = n[1].try_only = true;
    if (gate_register(r0, &n[0])) winner = &n[0];
    else if (wuc_timeout_register(&r1, &n[1])) winner = &n[1];

    if (!winner) {
      /* 2. register; a clause that others try to claim meanwhile is dropped
       *    and handed back by end_registration, to be registered again */
      n[0].try_only = n[1].try_only = false;
      wuc_select_begin_registration(&s);
      if (gate_register(r0, &n[0])) winner = &n[0];
      else if (wuc_timeout_register(&r1, &n[1])) winner = &n[1];
      while (!winner) {
        wuc_select_node *again = wuc_select_end_registration(&s);
        if (!again) break;
        for (wuc_select_node *next; again && !winner; again = next) {
          next = again->rereg_next;
          if (again == &n[0] ? gate_register(r0, again) : wuc_timeout_register(&r1, again))
            winner = again;
        }
      }
      /* 3. wait for the winner */
      if (!winner) winner = wuc_select_wait_winner(&s);
    }

    /* 4. the winner's body, then its unregister */
    if (winner == &n[0]) {
      if (gate_on_selected(r0, &n[0])) printf("gate opened after %d arrivals\n", WORKERS);
      gate_unregister(r0, &n[0]);
    } else {
      if (wuc_timeout_on_selected(&r1, &n[1])) printf("timed out\n");
      wuc_timeout_unregister(&r1, &n[1]);
    }
    /* 5. withdraw the others (safe on a clause never registered) */
    if (winner != &n[0]) {
      n[0].needed = false;
      gate_unregister(r0, &n[0]);
    }
    if (winner != &n[1]) {
      n[1].needed = false;
      wuc_timeout_unregister(&r1, &n[1]);
    }
  }

  for (int i = 0; i < WORKERS; i++) uthread_join(threads[i]);
  return 0;
}
