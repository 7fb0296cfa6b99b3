/* select.c — the claim / wake / withdraw protocol of <wuc/select.h>.
 *
 * A clause's claim word is its statement's race word in an all-or statement
 * (taken by storing the winning node) and its own status word otherwise
 * (taken by storing CLAIMED).  In both, 0 means open and 1 means PENDING: a
 * two-sided claim holds it while it tries the other side's word. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/select.h>

#include "fatal.h"
#include "park.h"
#include "scheduler.h"
#include "select_internal.h"
#include "spin.h"

_Static_assert(WUC_RACE_OPEN == WUC_CLAUSE_WAITING && WUC_RACE_PENDING == WUC_CLAUSE_PENDING,
               "claim words share their open and pending values");

static inline _Atomic uintptr_t *race_word(wuc_select_node *n) { return &n->stmt->race; }

void wuc_select_stmt_init(wuc_select_stmt *s, bool all_or) {
  wuc_select_stmt_fill(s, wuc_statement_start("waituntil"), all_or, false);
}

/* wuc_wu_stmt_init, the first call of a lowered statement without an early
 * try, is in scheduler.c: it reads the worker's thread-local pointer itself,
 * one call less (wuc_statement_start).  A statement with an early try starts
 * in its first clause's (channel.c, wuc_wu_recv_early / wuc_wu_send_early
 * or ..._early_first). */

static inline bool is_registering(uintptr_t race) { return (race & 7) == WUC_RACE_REGISTERING; }
/* Open to claims: before the statement registers (its own try pass), and
 * once it waits (OPEN, or WAITING when its thread parked first). */
static inline bool is_open(uintptr_t race) {
  return race == WUC_RACE_OPEN || race == WUC_RACE_WAITING;
}
/* Names the winning node (node addresses are above every small value). */
static inline bool is_won(uintptr_t race) {
  return race > WUC_RACE_WAITING && !is_registering(race);
}

/* Is the caller the thread of n's statement?  (Only asked while it registers.) */
static bool claimed_by_owner(wuc_select_node *n) {
  struct worker *w = wuc_current_worker();
  return w && w->current == n->stmt->thread && !w->in_timer_callbacks;
}

/* Tries to move n's claim word from open to `to`, waiting out PENDING.  On
 * success *was holds the value replaced (to restore it on a failed pair).
 * A registering statement can be claimed only by its own thread, for the
 * clause it is registering (`as_owner`); anyone else, and its own thread
 * resuming a sibling for another clause, pushes n on the statement's
 * re-register list and fails.  Always inlined: `as_owner` is a constant at
 * every call. */
static inline __attribute__((always_inline)) bool take_claim_word(wuc_select_node *n, uintptr_t to,
                                                                  uintptr_t *was, bool as_owner) {
  for (;;) {
    if (n->stmt->all_or) {
      uintptr_t race = atomic_load(race_word(n));
      if (is_open(race) || (as_owner && is_registering(race) && claimed_by_owner(n))) {
        if (atomic_compare_exchange_weak(race_word(n), &race, to)) {
          *was = race;
          return true;
        }
        continue;
      }
      if (is_registering(race)) {
        n->rereg_next = (wuc_select_node *)(race & ~(uintptr_t)7);
        if (atomic_compare_exchange_weak(race_word(n), &race, (uintptr_t)n | WUC_RACE_REGISTERING))
          return false; /* n is dropped; its statement registers it again */
        continue;
      }
      if (race != WUC_RACE_PENDING) return false;
    } else {
      int waiting = WUC_CLAUSE_WAITING;
      if (atomic_compare_exchange_strong(&n->status, &waiting, (int)to)) {
        *was = WUC_CLAUSE_WAITING;
        return true;
      }
      if (waiting != WUC_CLAUSE_PENDING) return false;
    }
    cpu_relax(); /* a two-sided claim decides within a few instructions */
  }
}

/* The value that marks n's claim word as taken for n. */
static inline uintptr_t taken_value(wuc_select_node *n) {
  return n->stmt->all_or ? (uintptr_t)n : (uintptr_t)WUC_CLAUSE_CLAIMED;
}

/* A claim of n won over its claim word's value `was`: how its thread is
 * to be woken (wuc_select_wake). */
static inline void claimed_from(wuc_select_node *n, uintptr_t was) {
  if (n->stmt->all_or) n->stmt->wake_published = was == WUC_RACE_WAITING;
}

static void store_claim_word(wuc_select_node *n, uintptr_t value) {
  if (n->stmt->all_or)
    atomic_store(race_word(n), value);
  else
    atomic_store(&n->status, (int)value);
}

bool wuc_select_claim(wuc_select_node *n) {
  /* One locked instruction less per statement that wins its try pass. */
  if (n->try_only && n->stmt->private_try) return wuc_select_claim_private(n, WUC_CLAUSE_CLAIMED);
  uintptr_t was;
  if (!take_claim_word(n, taken_value(n), &was, true)) return false;
  claimed_from(n, was);
  /* Informational in an all-or statement (the race word decides): the
   * release store of DONE in wake publishes everything after it. */
  if (n->stmt->all_or) atomic_store_explicit(&n->status, WUC_CLAUSE_CLAIMED, memory_order_relaxed);
  return true;
}

bool wuc_select_claim_waiter(wuc_select_node *n) {
  uintptr_t was;
  if (!take_claim_word(n, taken_value(n), &was, false)) return false;
  claimed_from(n, was);
  if (n->stmt->all_or) atomic_store_explicit(&n->status, WUC_CLAUSE_CLAIMED, memory_order_relaxed);
  return true;
}

/* Global order on claim words: statement, then node (for mixed statements,
 * whose clauses have words of their own). */
static bool claims_before(const wuc_select_node *a, const wuc_select_node *b) {
  if (a->stmt != b->stmt) return (uintptr_t)a->stmt < (uintptr_t)b->stmt;
  return (uintptr_t)a < (uintptr_t)b;
}

enum wuc_claim_pair_result wuc_select_claim_pair(wuc_select_node *mine, wuc_select_node *theirs) {
  /* One race word cannot be won twice: an all-or statement that meets its
   * own clause drops that clause as a claimer from outside would: onto the
   * re-register list, so it is registered again further on instead of being
   * lost.  Only the statement's own thread, while registering, can get
   * here.  (Channels do not come here with their own clauses: they set
   * them aside, select_claim_pair_or_own.) */
  if (mine->stmt == theirs->stmt && mine->stmt->all_or) {
    for (;;) {
      uintptr_t race = atomic_load(race_word(theirs));
      if (!is_registering(race)) return WUC_PAIR_THEIRS_LOST;
      theirs->rereg_next = (wuc_select_node *)(race & ~(uintptr_t)7);
      if (atomic_compare_exchange_weak(race_word(theirs), &race,
                                       (uintptr_t)theirs | WUC_RACE_REGISTERING))
        return WUC_PAIR_THEIRS_LOST;
    }
  }
  return (enum wuc_claim_pair_result)wuc_select_claim_pair_or_own(mine, theirs);
}

int wuc_select_claim_pair_or_own(wuc_select_node *mine, wuc_select_node *theirs) {
  if (mine->stmt == theirs->stmt) return SELECT_PAIR_OWN;
  if (mine->try_only && mine->stmt->private_try) {
    /* Nobody else can reach our race word (<wuc/select.h>, private_try), so
     * nobody can be claiming it while we claim theirs: no global order to
     * keep, no PENDING.  Their word first, then ours by plain stores: one
     * locked instruction instead of three. */
    wuc_select_stmt *s = mine->stmt;
    if (atomic_load_explicit(&s->race, memory_order_relaxed) != WUC_RACE_OPEN)
      return WUC_PAIR_MINE_LOST;
    uintptr_t theirs_was;
    if (!take_claim_word(theirs, taken_value(theirs), &theirs_was, true))
      return WUC_PAIR_THEIRS_LOST;
    claimed_from(theirs, theirs_was);
    atomic_store_explicit(&s->race, (uintptr_t)mine, memory_order_relaxed);
    atomic_store_explicit(&mine->status, WUC_CLAUSE_CLAIMED, memory_order_relaxed);
    if (theirs->stmt->all_or)
      atomic_store_explicit(&theirs->status, WUC_CLAUSE_CLAIMED, memory_order_relaxed);
    return WUC_PAIR_CLAIMED;
  }
  wuc_select_node *first = claims_before(mine, theirs) ? mine : theirs;
  wuc_select_node *second = first == mine ? theirs : mine;
  uintptr_t first_was, second_was;
  /* `as_owner` for both: `theirs` is of another statement, so of another
   * thread (a thread is in one statement at a time), and the owner's
   * exception never applies to it. */
  if (!take_claim_word(first, WUC_RACE_PENDING, &first_was, true))
    return first == mine ? WUC_PAIR_MINE_LOST : WUC_PAIR_THEIRS_LOST;
  if (!take_claim_word(second, taken_value(second), &second_was, true)) {
    store_claim_word(first, first_was); /* give the first word back as it was */
    return second == mine ? WUC_PAIR_MINE_LOST : WUC_PAIR_THEIRS_LOST;
  }
  store_claim_word(first, taken_value(first));
  claimed_from(first, first_was);
  claimed_from(second, second_was);
  if (first->stmt->all_or)
    atomic_store_explicit(&first->status, WUC_CLAUSE_CLAIMED, memory_order_relaxed);
  if (second->stmt->all_or)
    atomic_store_explicit(&second->status, WUC_CLAUSE_CLAIMED, memory_order_relaxed);
  return WUC_PAIR_CLAIMED;
}

void wuc_select_wake(wuc_select_node *n) {
  /* Unpark first, then DONE: until DONE the waiting thread cannot leave the
   * statement, so its handle is alive for the unpark. */
  wuc_select_stmt *s = n->stmt;
  if (s->all_or && s->wake_published)
    wuc_wake_published(s->thread); /* parked, off its CPU: no permit needed */
  else
    wuc_unpark(s->thread);
  atomic_store_explicit(&n->status, WUC_CLAUSE_DONE, memory_order_release);
}

void wuc_select_done(wuc_select_node *n) {
  atomic_store_explicit(&n->status, WUC_CLAUSE_DONE, memory_order_release);
}

static void wait_until_done(wuc_select_node *n) {
  while (atomic_load_explicit(&n->status, memory_order_acquire) != WUC_CLAUSE_DONE) cpu_relax();
}

void wuc_select_begin_registration(wuc_select_stmt *s) {
  s->rereg_rounds = 0;
  if (!s->all_or) return;
  if (s->private_try) {
    /* Nothing of the statement is queued yet, so nobody else reads the race
     * word before a node is published, and publishing one (a cell's CAS, a
     * lock) releases this store: no locked instruction. */
    s->private_try = false; /* nodes get queued from here on */
    atomic_store_explicit(&s->race, WUC_RACE_REGISTERING, memory_order_relaxed);
    return;
  }
  /* A resource that does not honour try_only may have queued a node in the
   * try pass, and someone may have claimed it since: never overwrite a
   * winner (end_registration then finds the statement won). */
  uintptr_t open = WUC_RACE_OPEN;
  (void)atomic_compare_exchange_strong(&s->race, &open, WUC_RACE_REGISTERING);
}

wuc_select_node *wuc_select_end_registration(wuc_select_stmt *s) {
  if (!s->all_or) return NULL;
  for (;;) {
    uintptr_t race = atomic_load(&s->race);
    if (!is_registering(race)) return NULL; /* won while registering */
    uintptr_t next = race == WUC_RACE_REGISTERING ? WUC_RACE_OPEN : WUC_RACE_REGISTERING;
    if (atomic_compare_exchange_weak(&s->race, &race, next)) {
      wuc_select_node *again = (wuc_select_node *)(race & ~(uintptr_t)7);
      /* Two statements registering at the same instant can drop each other's
       * nodes round after round; yielding breaks the symmetry (docs/select.md). */
      if (again && ++s->rereg_rounds > 2) wuc_uthread_yield();
      return again;
    }
  }
}

/* WAITING -> OPEN, for a node handed back to a statement parked by its
 * publication: true if this call did it (its caller then owns the wake);
 * false if the word is or becomes anything else (a claim took it, and
 * wakes the thread, or the thread is not parked that way). */
static bool reopen_waiting(wuc_select_stmt *s) {
  for (;;) {
    uintptr_t race = atomic_load(&s->race);
    if (race == WUC_RACE_PENDING) {
      cpu_relax(); /* a two-sided claim: it takes the word or gives WAITING back */
    } else if (race != WUC_RACE_WAITING) {
      return false;
    } else if (atomic_compare_exchange_weak(&s->race, &race, WUC_RACE_OPEN)) {
      return true;
    }
  }
}

void wuc_select_defer(wuc_select_node *n) {
  wuc_select_stmt *s = n->stmt;
  wuc_select_node *head = atomic_load(&s->deferred);
  do n->rereg_next = head;
  while (!atomic_compare_exchange_weak(&s->deferred, &head, n));
  /* Our own thread (a clause meeting its sibling, in reg) looks at the list
   * before it parks: no permit to leave behind. */
  struct worker *w = wuc_current_worker();
  if (w && w->current == s->thread && !w->in_timer_callbacks) return;
  /* Parked by its publication (WAITING): open it again and wake it, unless
   * a claim takes it first (then the claim wakes it). */
  if (s->all_or && reopen_waiting(s))
    wuc_wake_published(s->thread);
  else
    wuc_unpark(s->thread);
}

static inline bool has_deferred(wuc_select_stmt *s) {
  return atomic_load_explicit(&s->deferred, memory_order_relaxed) != NULL;
}

wuc_select_node *wuc_select_take_deferred(wuc_select_stmt *s) {
  if (s->all_or) {
    /* Open a registration window again, as wuc_select_begin_registration,
     * unless someone has won the statement meanwhile. */
    for (;;) {
      uintptr_t race = atomic_load(&s->race);
      if (race == WUC_RACE_PENDING) {
        cpu_relax();
        continue;
      }
      if (race != WUC_RACE_OPEN) return NULL; /* won (wait returns it) */
      if (atomic_compare_exchange_weak(&s->race, &race, WUC_RACE_REGISTERING)) break;
    }
  }
  return atomic_exchange(&s->deferred, NULL);
}

wuc_select_node *wuc_select_close(wuc_select_stmt *s) {
  for (;;) {
    uintptr_t race = atomic_load(&s->race);
    if (race == WUC_RACE_CLOSED) return NULL;
    if (is_open(race) || is_registering(race)) {
      if (atomic_compare_exchange_weak(&s->race, &race, WUC_RACE_CLOSED)) return NULL;
    } else if (race == WUC_RACE_PENDING) {
      cpu_relax();
    } else {
      wuc_select_node *winner = (wuc_select_node *)race;
      wait_until_done(winner);
      return winner;
    }
  }
}

bool wuc_select_withdraw(wuc_select_node *n) {
  if (n->stmt->all_or) {
    /* Already won (every loser's unreg, and the winner's after its body):
     * nothing to close.  Only the winner waits for its claimer's DONE; a
     * loser was never claimed, so no claimer touches it any more. */
    uintptr_t race = atomic_load_explicit(&n->stmt->race, memory_order_acquire);
    if (is_won(race)) {
      if ((wuc_select_node *)race != n) return false;
      wait_until_done(n);
      return true;
    }
    return wuc_select_close(n->stmt) == n;
  }
  for (;;) {
    int status = atomic_load(&n->status);
    switch (status) {
    case WUC_CLAUSE_WAITING:
      if (atomic_compare_exchange_weak(&n->status, &status, WUC_CLAUSE_WITHDRAWN)) return false;
      break;
    case WUC_CLAUSE_PENDING:
    case WUC_CLAUSE_CLAIMED:
      cpu_relax(); /* a claimer is finishing the operation for n */
      break;
    case WUC_CLAUSE_DONE:
      return true;
    default:
      return false; /* already withdrawn */
    }
  }
}

/* The winner the race word names, once its claimer is done with it; NULL
 * while the word names none (open, pending, closed, registering). */
static wuc_select_node *winner_of(uintptr_t race) {
  if (!is_won(race)) return NULL;
  wuc_select_node *winner = (wuc_select_node *)race;
  wait_until_done(winner); /* the claimer unparked us just before DONE */
  return winner;
}

wuc_select_node *wuc_select_wait_winner(wuc_select_stmt *s) {
  for (;;) {
    uintptr_t race = atomic_load(&s->race);
    wuc_select_node *winner = winner_of(race);
    if (winner) return winner;
    if (race == WUC_RACE_CLOSED) wuc_fatal("waituntil: waiting on a statement already withdrawn");
    if (is_registering(race)) wuc_fatal("waituntil: waiting before wuc_select_end_registration");
    /* OPEN, or PENDING (a two-sided claim either takes us and wakes us, or
     * gives the word back): park. */
    wuc_park("waituntil", s);
  }
}

/* finish_switch's half of wuc_select_park_open: the registration window
 * closes (REGISTERING with no node dropped on it becomes WAITING) now that
 * the thread is off its CPU.  A window with dropped nodes stays: the thread
 * runs again and registers them.  A clause handed back meanwhile
 * (wuc_select_defer) found the thread not yet WAITING and left it a permit,
 * which this park does not look at: so once WAITING, look at the deferred
 * list (after the CAS, as wuc_select_defer looks at the race word after its
 * push: one of the two sees the other) and open the statement again for it
 * unless a claim or the defer itself got there first (they wake it). */
static bool publish_waiting(void *arg) {
  wuc_select_stmt *s = arg;
  uintptr_t race = WUC_RACE_REGISTERING;
  if (!atomic_compare_exchange_strong(&s->race, &race, WUC_RACE_WAITING)) return false;
  /* Reopened here: the thread runs again and registers what came back;
   * else taken, and its taker wakes the thread. */
  return atomic_load(&s->deferred) == NULL || !reopen_waiting(s);
}

bool wuc_select_park_open(wuc_select_stmt *s) {
  if (atomic_load_explicit(&s->race, memory_order_relaxed) != WUC_RACE_REGISTERING) return false;
  struct worker *w = wuc_tls_worker; /* nothing switched since the registration */
  if (s->clock_tsc && w) {
    /* Read during the registration just ended: the switch's timer check
     * needs no TSC read of its own (clock.h, hint_tsc).  Once: a later
     * round's park may come after a yield. */
    w->timer_filter.hint_tsc = s->clock_tsc;
    s->clock_tsc = 0;
  }
  wuc_park_published("waituntil", s, publish_waiting, s);
  /* Woken by a claim (the race names its winner) or by a clause handed
   * back (OPEN); still registering if the window could not close. */
  return !is_registering(atomic_load_explicit(&s->race, memory_order_relaxed));
}

wuc_select_node *wuc_select_wait(wuc_select_stmt *s) {
  for (;;) {
    uintptr_t race = atomic_load(&s->race);
    wuc_select_node *winner = winner_of(race);
    if (winner) return winner;
    if (race == WUC_RACE_CLOSED || is_registering(race))
      return wuc_select_wait_winner(s); /* fatal */
    if (!has_deferred(s))
      wuc_park("waituntil", s);
    else if (race == WUC_RACE_OPEN)
      return NULL; /* nodes handed back */
    else
      cpu_relax(); /* PENDING: won, or OPEN again, in a few instructions */
  }
}

void wuc_select_wait_any(wuc_select_stmt *s, wuc_select_node *nodes, unsigned count) {
  for (unsigned i = 0; i < count; i++) {
    if (wuc_select_is_claimed(&nodes[i])) {
      wait_until_done(&nodes[i]);
      return;
    }
  }
  if (has_deferred(s)) return;
  wuc_park("waituntil", s);
}
