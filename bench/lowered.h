/* lowered.h — waituntil statements lowered by hand, for the benchmarks, until
 * wucc generates them.  Each function below is one part of the code
 * <wuc/select.h> says a statement compiles to ("The statement's side, in
 * order", steps 1-5); the comments quote the step they implement.
 *
 * A clause is an lw_clause: which trait (channel receive / send / closed,
 * latch, future, timeout) and the operand, built by the lw_recv, lw_send,
 * lw_closed, lw_latch, lw_future and lw_timeout macros.  The statement lives in
 * an lw_stmt in the caller's frame (the wuc_select_stmt and one node per
 * clause; nothing is allocated).  Three shapes:
 *
 *   all-or     waituntil (v << a) { A } or waituntil (b << x) { B }
 *
 *       lw_clause cl[2] = {lw_recv(&a, &v), lw_send(&b, &x)};
 *       lw_stmt st;
 *       int w = lw_or(&st, cl, 2);          // steps 1-3, and 5 for the losers
 *       if (lw_selected(&st, w)) {          // step 4: on_selected,
 *         if (w == 0) { A } else { B }      //         the body,
 *       }
 *       lw_end(&st, w);                     //         then unreg(winner)
 *
 *   all-or with else   ... or else { E }
 *
 *       int w = lw_or_else(&st, cl, 2);     // step 1 only
 *       if (w < 0) { E } else { as above from lw_selected }
 *
 *   and/or mixed   (waituntil (f) { F } or waituntil (g) { G }) and waituntil (h) { H }
 *
 *       lw_mixed_begin(&st, cl, 3);                      // step 2
 *       for (int i; (i = lw_mixed_next(&st, needed)) >= 0;) {   // steps 3, 5
 *         switch (i) { case 0: F; break; case 1: G; break; case 2: H; break; }
 *         lw_mixed_ran(&st, i, needed);                  // step 4's unreg, then 5
 *       }
 *
 *     where needed(ran) is the and/or tree compiled to bit operations: given
 *     the set of clauses whose bodies have run, the set of clauses that have
 *     not run and are still needed (not under a satisfied `or`); 0 exactly
 *     when the statement is satisfied.
 *
 * The all-or order differs from select.h's numbering in one harmless point,
 * as the runtime's own blocking operations do: the losers are unregistered
 * (step 5) before the winner's body (step 4) rather than after it.  In an
 * all-or statement a loser can never complete (one race word), so its
 * unregister only takes its node out of its queue; doing that first frees
 * the queues (channel cells) sooner.
 *
 * Cost notes: nodes are initialised lazily, in the try pass, only up to the
 * clause that wins; a statement won in the try pass queued nothing and
 * unregisters nothing but its winner.  After a failed try pass with an
 * `else`, nothing is withdrawn and the race is not closed: every resource
 * here (the built-in ones) honours try_only, so no node was queued and no
 * other party can hold a pointer to one.  (A user type that ignores
 * try_only would need wuc_select_close and unreg there; wucc can tell the
 * built-in traits apart.) */
#ifndef WUC_BENCH_LOWERED_H
#define WUC_BENCH_LOWERED_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <wuc.h>

#ifndef LW_MAX_CLAUSES
#define LW_MAX_CLAUSES 8
#endif
_Static_assert(LW_MAX_CLAUSES <= 32, "clause sets are bit masks in an unsigned");

enum lw_kind { LW_K_RECV, LW_K_SEND, LW_K_CLOSED, LW_K_LATCH, LW_K_FUTURE, LW_K_TIMEOUT };

typedef struct lw_clause {
  enum lw_kind kind;
  /* The node's data: where a receive stores its element, or the value a
   * send sends (already evaluated, of the channel's element type). */
  void *data;
  union {
    wuc_chan_recv_clause recv;
    wuc_chan_send_clause send;
    wuc_chan_closed_clause closed;
    latch *latch;
    wuc_future *future;
    wuc_timeout timeout;
  } r;
} lw_clause;

/* A compile error unless *p has the channel's element type (the runtime
 * copies sizeof(T) bytes to or from the node's data). */
#define LW_SAME_ELEM_(p, ch)                                                              \
  ((void)sizeof(char[__builtin_types_compatible_p(__typeof__(*(p)),                       \
                                                  __typeof__((ch)->elem[0]))              \
                         ? 1                                                              \
                         : -1]))

/* waituntil (*target << ch): receive into *target. */
#define lw_recv(ch, target)                                                               \
  (LW_SAME_ELEM_(target, ch),                                                             \
   (lw_clause){.kind = LW_K_RECV, .data = (target), .r.recv = chan_recv_clause(ch)})
/* waituntil (ch << *value): send *value (the evaluated e of `ch << e`). */
#define lw_send(ch, value)                                                                \
  (LW_SAME_ELEM_(value, ch),                                                              \
   (lw_clause){.kind = LW_K_SEND, .data = (value), .r.send = chan_send_clause(ch)})
/* waituntil (closed(ch)) */
#define lw_closed(ch) ((lw_clause){.kind = LW_K_CLOSED, .r.closed = chan_closed_clause(ch)})
/* waituntil (e), e a latch * */
#define lw_latch(e) ((lw_clause){.kind = LW_K_LATCH, .r.latch = (e)})
/* waituntil (f), f a typed future * (WUC_FUTURE / WUC_FUTURE_STRUCT) */
#define lw_future(f) ((lw_clause){.kind = LW_K_FUTURE, .r.future = &(f)->core})
/* waituntil (timeout(d)): the deadline is fixed here, when the clause's
 * resource expression is evaluated (before the statement runs). */
#define lw_timeout(d) ((lw_clause){.kind = LW_K_TIMEOUT, .r.timeout = wuc_timeout_make(d)})

typedef struct lw_stmt {
  wuc_select_stmt s;
  lw_clause *cl;
  unsigned n;
  unsigned registered; /* all-or: nodes [0, registered) went through step 2 */
  unsigned live;       /* mixed: registered and not yet unregistered */
  unsigned ran;        /* mixed: clauses whose bodies have run */
  unsigned pending;    /* mixed: completed after their withdrawal; bodies still to run */
  wuc_select_node node[LW_MAX_CLAUSES];
} lw_stmt;

/* -DLW_STATS: count how all-or statements end (diagnosis only: the counters
 * are shared atomics), printed at exit. */
#ifdef LW_STATS
#include <stdatomic.h>
static _Atomic unsigned long lw_stat_[6];
static const char *const lw_stat_name_[6] = {"statements", "won in the try pass",
                                             "won while registering", "re-registrations",
                                             "waited (step 3)", "else taken"};
static void lw_stats_print_(void) {
  for (int i = 0; i < 6; i++) fprintf(stderr, "lw: %-24s %lu\n", lw_stat_name_[i], lw_stat_[i]);
}
__attribute__((constructor)) static void lw_stats_init_(void) { atexit(lw_stats_print_); }
#define LW_STAT_(i) atomic_fetch_add_explicit(&lw_stat_[i], 1, memory_order_relaxed)
#else
#define LW_STAT_(i) ((void)0)
#endif

static inline __attribute__((noreturn, cold)) void lw_protocol_error_(const char *what) {
  fprintf(stderr, "lowered.h: %s\n", what);
  abort();
}

/* ---- the three trait functions, by clause kind ---------------------------- */

static inline __attribute__((always_inline)) bool lw_reg(lw_clause *c, wuc_select_node *n) {
  switch (c->kind) {
  case LW_K_RECV: return wuc_chan_recv_register(&c->r.recv, n);
  case LW_K_SEND: return wuc_chan_send_register(&c->r.send, n);
  case LW_K_CLOSED: return wuc_chan_closed_register(&c->r.closed, n);
  case LW_K_LATCH: return latch_register(c->r.latch, n);
  case LW_K_FUTURE: return wuc_future_register(c->r.future, n);
  case LW_K_TIMEOUT: return wuc_timeout_register(&c->r.timeout, n);
  }
  __builtin_unreachable();
}

static inline __attribute__((always_inline)) bool lw_unreg(lw_clause *c, wuc_select_node *n) {
  switch (c->kind) {
  case LW_K_RECV: return wuc_chan_recv_unregister(&c->r.recv, n);
  case LW_K_SEND: return wuc_chan_send_unregister(&c->r.send, n);
  case LW_K_CLOSED: return wuc_chan_closed_unregister(&c->r.closed, n);
  case LW_K_LATCH: return latch_unregister(c->r.latch, n);
  case LW_K_FUTURE: return wuc_future_unregister(c->r.future, n);
  case LW_K_TIMEOUT: return wuc_timeout_unregister(&c->r.timeout, n);
  }
  __builtin_unreachable();
}

static inline __attribute__((always_inline)) bool lw_on_sel(lw_clause *c, wuc_select_node *n) {
  switch (c->kind) {
  case LW_K_RECV: return wuc_chan_recv_on_selected(&c->r.recv, n);
  case LW_K_SEND: return wuc_chan_send_on_selected(&c->r.send, n);
  case LW_K_CLOSED: return wuc_chan_closed_on_selected(&c->r.closed, n);
  case LW_K_LATCH: return latch_on_selected(c->r.latch, n);
  case LW_K_FUTURE: return wuc_future_on_selected(c->r.future, n);
  case LW_K_TIMEOUT: return wuc_timeout_on_selected(&c->r.timeout, n);
  }
  __builtin_unreachable();
}

/* ---- all-or statements -------------------------------------------------- */

/* Step 1 for an all-or statement: "reg each enabled clause in source order
 * with try_only set; the first true wins, its body runs, nothing was
 * queued".  Returns the winner, or -1. */
static inline __attribute__((always_inline)) int lw_try_pass_(lw_stmt *st, lw_clause *cl,
                                                               unsigned n) {
  wuc_select_stmt_init(&st->s, true);
  st->cl = cl;
  st->n = n;
  st->registered = 0;
  LW_STAT_(0);
  for (unsigned i = 0; i < n; i++) {
    wuc_select_node *node = &st->node[i];
    wuc_select_node_init(node, &st->s, cl[i].data);
    node->try_only = true;
    if (lw_reg(&cl[i], node)) {
      LW_STAT_(1);
      return (int)i;
    }
    node->try_only = false;
  }
  return -1;
}

/* Steps 2, 3 and (for the losers) 5, when the try pass found nothing. */
static __attribute__((noinline, unused)) int lw_or_block_(lw_stmt *st) {
  lw_clause *cl = st->cl;
  int winner = -1;
  /* 2. "reg each enabled clause (try_only clear); a true completes that
   *    clause at once (in an all-or statement it is the winner: stop
   *    registering)".  Between begin and end registration nobody else can
   *    claim our nodes: a claimer drops the node onto the statement's
   *    re-register list instead (Kotlin's re-register rule). */
  wuc_select_begin_registration(&st->s);
  for (unsigned i = 0; i < st->n; i++) {
    st->registered = i + 1;
    if (lw_reg(&cl[i], &st->node[i])) {
      LW_STAT_(2);
      winner = (int)i;
      break;
    }
  }
  /*    Register the dropped nodes again until end_registration hands back
   *    none (the statement then waits) or one of them wins.  Two statements
   *    registering at once can keep dropping each other's nodes; after two
   *    rounds give the other side the CPU as a back-off (cheap when nobody
   *    else is runnable here). */
  for (unsigned round = 0; winner < 0; round++) {
    wuc_select_node *again = wuc_select_end_registration(&st->s);
    if (!again) break;
    if (round >= 2) uthread_yield();
    do {
      wuc_select_node *next = again->rereg_next; /* a new drop rewrites it */
      unsigned k = (unsigned)(again - st->node);
      LW_STAT_(3);
      if (lw_reg(&cl[k], again)) {
        LW_STAT_(2);
        winner = (int)k;
        break;
      }
      again = next;
    } while (again);
  }
  /* 3. "wait (wuc_select_wait_winner)". */
  if (winner < 0) {
    LW_STAT_(4);
    winner = (int)(wuc_select_wait_winner(&st->s) - st->node);
  }
  /* 5. "for every other registered clause: unreg(r, n)" — in an all-or
   *    statement it never returns true (one race word, one winner). */
  for (unsigned i = 0; i < st->registered; i++)
    if ((int)i != winner && lw_unreg(&cl[i], &st->node[i]))
      lw_protocol_error_("a losing clause of an all-or statement completed");
  return winner;
}

/* waituntil (c0) ... or waituntil (c1) ... : returns the winning clause. */
static inline int lw_or(lw_stmt *st, lw_clause *cl, unsigned n) {
  int w = lw_try_pass_(st, cl, n); /* 1. */
  if (w >= 0) return w;
  return lw_or_block_(st); /* 2, 3, 5 */
}

/* ... or else: the winning clause, or -1 for the else branch. */
static inline int lw_or_else(lw_stmt *st, lw_clause *cl, unsigned n) {
  int w = lw_try_pass_(st, cl, n); /* 1. only; see "Cost notes" above */
  if (w < 0) LW_STAT_(5);
  return w;
}

/* 4. "if (on_selected(r, n)) body;" */
static inline bool lw_selected(lw_stmt *st, int w) {
  return lw_on_sel(&st->cl[w], &st->node[w]);
}

/* 4. "... then unreg(r, n)" (a lock would be released here). */
static inline void lw_end(lw_stmt *st, int w) {
  if (!lw_unreg(&st->cl[w], &st->node[w]))
    lw_protocol_error_("the winning clause did not complete");
}

/* ---- statements mixing `and` and `or` ------------------------------------ */

typedef unsigned (*lw_needed_fn)(unsigned ran);

/* Step 5 for clause j (no longer needed): "unreg(r, n); if it returns true
 * the clause completed after all; the statement clears n->needed ..., and
 * runs the body only if on_selected(r, n) still says so". */
static inline void lw_withdraw_(lw_stmt *st, unsigned j) {
  wuc_select_node *node = &st->node[j];
  node->needed = false;
  st->live &= ~(1u << j);
  if (lw_unreg(&st->cl[j], node) && lw_on_sel(&st->cl[j], node)) st->pending |= 1u << j;
}

/* 2. "reg each enabled clause (try_only clear); a true completes that
 *    clause at once" (found DONE by lw_mixed_next).  No try pass: step 1 is
 *    the all-or fast path; each clause here has its own claim word. */
static inline void lw_mixed_begin(lw_stmt *st, lw_clause *cl, unsigned n) {
  wuc_select_stmt_init(&st->s, false);
  st->cl = cl;
  st->n = n;
  st->ran = st->pending = 0;
  st->live = (n == 32 ? 0u : (1u << n)) - 1u;
  for (unsigned i = 0; i < n; i++) {
    wuc_select_node_init(&st->node[i], &st->s, cl[i].data);
    (void)lw_reg(&cl[i], &st->node[i]);
  }
}

/* 3. "wait (wuc_select_wait_any) and run the bodies of completed clauses as
 *    they complete": the next clause whose body runs now (on_selected said
 *    so: step 4's first half), or -1 once the statement is satisfied and
 *    every other clause is withdrawn (step 5). */
static inline int lw_mixed_next(lw_stmt *st, lw_needed_fn needed) {
  for (;;) {
    if (st->pending) {
      int j = __builtin_ctz(st->pending);
      st->pending &= st->pending - 1;
      return j;
    }
    for (unsigned m = st->live; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctz(m);
      if (!wuc_select_is_done(&st->node[i])) continue;
      if (lw_on_sel(&st->cl[i], &st->node[i])) return (int)i;
      st->live &= ~(1u << i); /* completed, body skipped: unreg all the same */
      (void)lw_unreg(&st->cl[i], &st->node[i]);
    }
    if (needed(st->ran) == 0) {
      /* 5. what is left is no longer needed */
      for (unsigned m = st->live; m; m &= m - 1) lw_withdraw_(st, (unsigned)__builtin_ctz(m));
      if (!st->pending) return -1;
      continue;
    }
    wuc_select_wait_any(&st->s, st->node, st->n);
  }
}

/* After clause i's body: 4. "then unreg(r, n)"; then 5. for every clause
 * the tree no longer needs (under a satisfied `or`). */
static inline void lw_mixed_ran(lw_stmt *st, int i, lw_needed_fn needed) {
  unsigned bit = 1u << i;
  if (st->live & bit) {
    st->live &= ~bit;
    (void)lw_unreg(&st->cl[i], &st->node[i]);
  }
  st->ran |= bit;
  for (unsigned m = st->live & ~needed(st->ran); m; m &= m - 1)
    lw_withdraw_(st, (unsigned)__builtin_ctz(m));
}

#endif
