/* countdown_gate.c — waituntil statements over a user-written selectable
 * resource (the countdown gate of countdown_gate.h), lowered by hand in
 * plain C, following <wuc/select.h>'s steps; each is commented with the
 * source it implements (test/lit/examples/countdown_gate.wc writes the same
 * statements in the dialect).  docs/protocol.md walks through the resource,
 * docs/resources.md through these lowered statements. */
#include <stdio.h>

#include <wuc.h>

#include "countdown_gate.h"

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
    if (gate_register(r0, &n[0]))
      winner = &n[0];
    else if (wuc_timeout_register(&r1, &n[1]))
      winner = &n[1];

    if (!winner) {
      /* 2. register; a clause that others try to claim meanwhile is dropped
       *    and handed back by end_registration, to be registered again */
      n[0].try_only = n[1].try_only = false;
      wuc_select_begin_registration(&s);
      if (gate_register(r0, &n[0]))
        winner = &n[0];
      else if (wuc_timeout_register(&r1, &n[1]))
        winner = &n[1];
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
