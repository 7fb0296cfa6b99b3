/* timeout.c — the `timeout(d)` clause of <wuc/timeout.h>.
 *
 * While registered, the node's resource area holds a started wuc_timer.  Its
 * fire claims the node and wakes the statement; unregister cancels it, and
 * wuc_timer_cancel waits for a running fire, so once unregister returns the
 * timer no longer touches the node.  A fire whose claim is lost does
 * nothing (the clause was withdrawn, another won, or the statement is still
 * registering and will register the clause again). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <wuc/timeout.h>

#include <stddef.h>

#include "clock.h"
#include "scheduler.h"
#include "select_internal.h"
#include "timer.h"

struct timeout_clause {
  wuc_timer timer;
  bool started;
} __attribute__((may_alias));

_Static_assert(sizeof(struct timeout_clause) <= sizeof(((wuc_select_node *)0)->res),
               "a timeout's timer fits in a select node's resource area");
_Static_assert(offsetof(struct timeout_clause, timer) == 0, "timeout_fire finds the node");

static struct timeout_clause *clause_of(wuc_select_node *n) {
  return (struct timeout_clause *)(void *)&n->res;
}

static void timeout_fire(wuc_timer *timer) {
  /* timer is the first member of the clause area inside the node */
  wuc_select_node *n = (wuc_select_node *)(void *)((char *)timer - offsetof(wuc_select_node, res));
  if (wuc_select_claim(n)) wuc_select_wake(n); /* lost: withdrawn, or another clause won */
}

/* Stops n's timer if it runs (waiting for a fire in progress). */
static void stop(struct timeout_clause *c) {
  if (!c->started) return;
  wuc_timer_cancel(&c->timer); /* O(1) */
  c->started = false;
}

int64_t wuc_select_stmt_clock(wuc_select_stmt *s) {
  if (s->clock == 0) {
    struct worker *w = wuc_current_worker();
    s->clock = w ? wuc_now_not_before(&w->timer_filter) : wuc_now();
  }
  return s->clock;
}

static bool has_passed(const wuc_timeout *t) {
  if (t->deadline == INT64_MIN) return true; /* d <= 0: no clock needed */
  return t->deadline != INT64_MAX && wuc_now() >= t->deadline;
}

bool wuc_timeout_register(wuc_timeout *t, wuc_select_node *n) {
  struct timeout_clause *c = clause_of(n); /* zeroed by wuc_select_node_init */
  /* Registered again (its fire's claim met the statement registering): the
   * old timer has fired, but its fire may not have returned yet. */
  stop(c);
  if (t->delay > 0) {
    /* d > 0 counts from when the statement is about to wait (issue 21's
     * lazy clock): not ready in the first pass, and no clock read for it.
     * Later than the evaluation, so never early. */
    if (n->try_only) return false;
    int64_t now = wuc_select_stmt_clock(n->stmt);
    t->deadline = t->delay > INT64_MAX - now ? INT64_MAX : now + t->delay;
    t->delay = 0; /* fixed: registered again, it keeps this deadline */
  } else if (has_passed(t)) {
    return wuc_select_claim_done_own(n);
  }
  /* A saturated deadline never passes: no timer, so that it neither wakes
   * anyone nor counts as pending for the deadlock report. */
  if (n->try_only || t->deadline == INT64_MAX) return false;
  c->started = true;
  wuc_timer_start(&c->timer, t->deadline, timeout_fire);
  return false;
}

bool wuc_timeout_unregister(wuc_timeout *t, wuc_select_node *n) {
  (void)t;
  stop(clause_of(n));
  return wuc_select_withdraw(n);
}
