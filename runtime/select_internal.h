/* select_internal.h — the parts of the select protocol (select.c) that only
 * the runtime's own resources use. */
#ifndef WUC_RUNTIME_SELECT_INTERNAL_H
#define WUC_RUNTIME_SELECT_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/select.h>

/* wuc_select_claim_pair, except that two nodes of one statement are not
 * claimed nor dropped: it returns SELECT_PAIR_OWN and leaves both as they
 * were (a channel sets `theirs` aside: docs/select.md, "A statement
 * meeting itself").  Otherwise one of enum wuc_claim_pair_result. */
enum { SELECT_PAIR_OWN = WUC_PAIR_THEIRS_LOST + 1 };
int wuc_select_claim_pair_or_own(wuc_select_node *mine, wuc_select_node *theirs);

/* The claim of n in its statement's private try (<wuc/select.h>,
 * private_try): nothing of the statement is queued, so only its own thread,
 * here, can claim it, with plain stores; n's status becomes `status`. */
static inline bool wuc_select_claim_private(wuc_select_node *n, int status) {
  wuc_select_stmt *s = n->stmt;
  if (atomic_load_explicit(&s->race, memory_order_relaxed) != WUC_RACE_OPEN) return false;
  atomic_store_explicit(&s->race, (uintptr_t)n, memory_order_relaxed);
  atomic_store_explicit(&n->status, status, memory_order_relaxed);
  return true;
}

/* wuc_select_claim then, at once, wuc_select_done, for a resource completing
 * its own node in reg: in a private try, plain stores, no call. */
static inline bool wuc_select_claim_done_own(wuc_select_node *n) {
  if (n->try_only && n->stmt->private_try) return wuc_select_claim_private(n, WUC_CLAUSE_DONE);
  if (!wuc_select_claim(n)) return false;
  wuc_select_done(n);
  return true;
}

/* wuc_select_claim for a resumer: a resource completing a node that waits
 * in it on behalf of some other operation (a channel receive moving a
 * suspended sender into the buffer, or failing it on close).  Unlike
 * wuc_select_claim, the statement's own thread gets no exception while the
 * statement registers: it may be making room with one clause for a sibling
 * clause waiting in the same channel, and claiming that sibling would win
 * the statement behind the back of the clause being registered, which then
 * completes too (docs/select.md, "The registration problem").  The sibling
 * is dropped onto the re-register list, as anyone else would drop it. */
bool wuc_select_claim_waiter(wuc_select_node *n);

/* Ends an all-or statement's registration window by parking: once the
 * thread is off its CPU the window closes as WAITING (park.h,
 * wuc_park_published), so the claim that wins wakes the thread without a
 * read-modify-write of its park word, and the park needs none either.
 * Returns true once woken (the statement is won, or OPEN with clauses
 * handed back: wuc_select_wait tells which); false, without waiting, if
 * nodes were dropped on the window (end it with
 * wuc_select_end_registration). */
bool wuc_select_park_open(wuc_select_stmt *s);

/* The statement's clock reading, taken once for all its timeouts (s->clock,
 * timeout.c): from the TSC when the worker read the clock less than 1 ms
 * ago (clock.h), never below the true time. */
int64_t wuc_select_stmt_clock(wuc_select_stmt *s);

/* Sets up a statement of `thread` (wuc_statement_start's result).  A
 * lowered all-or statement starts with a private try (wuc_wu_try_node keeps
 * it).  The re-register rounds are counted from
 * wuc_select_begin_registration on (nothing reads them before). */
static inline void wuc_select_stmt_fill(wuc_select_stmt *s, struct wuc_uthread *thread, bool all_or,
                                        bool lowered) {
  atomic_init(&s->race, WUC_RACE_OPEN);
  s->thread = thread;
  s->all_or = all_or;
  s->lowered = lowered;
  s->private_try = lowered && all_or;
  s->wake_published = false;
  s->waits_after_try = false;
  atomic_init(&s->deferred, NULL);
  s->clock = 0;
  s->clock_tsc = 0;
}

#endif
