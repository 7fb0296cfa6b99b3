/* <wuc/select.h> — the select-node protocol behind `waituntil`.
 *
 * A waituntil statement is a wuc_select_stmt plus one wuc_select_node per
 * clause, all in the waiting thread's frame.  Every resource — channels,
 * futures, locks, timeouts, and any user type — takes part through three
 * functions, declared with WUC_SELECTABLE:
 *
 *   bool reg(T *r, wuc_select_node *n)     true: the operation completed for
 *                                          n now (n was claimed first);
 *                                          false: n is queued, or its claim
 *                                          was lost (then nothing happened)
 *   bool unreg(T *r, wuc_select_node *n)   n leaves r; true: the operation
 *                                          completed for n (run the body)
 *   bool on_selected(T *r, wuc_select_node *n)
 *                                          on the waiting thread, before the
 *                                          body; false: skip the body
 *
 * Claiming.  Several parties may try to complete clauses of one statement
 * at once: the resources the clauses wait on, and the waiting thread when it
 * withdraws them.  Whoever wants to complete a clause first calls
 * wuc_select_claim(n); only if it returns true may it perform the operation
 * (move the data, hand over ownership), and then it calls wuc_select_wake(n).
 * A lost claim means the clause was withdrawn, or (in a statement made only
 * of `or`s) another clause won, or its statement is still registering and
 * will register the node again: skip that node and perform nothing.  After
 * a lost claim touch nothing of the node — not even your own links in
 * n->res — except under the lock your reg and unreg take: its thread may be
 * registering it again already.  So claim under that lock, while the node
 * is still queued.
 *
 *   - In an all-or statement the claim is one CAS on the statement's race
 *     word: exactly one clause can win, so exactly one operation happens.
 *   - In a statement that mixes `and` and `or`, each clause is claimed on its
 *     own status word; the waiting thread withdraws the clauses it no longer
 *     needs, and a clause whose operation won the race against its
 *     withdrawal has completed (docs/language.md §5, rule 4).
 *
 * Node life-cycle (n->status):
 *
 *   WAITING --claim--> CLAIMED --wake--> DONE
 *      \
 *       +--withdraw--> WITHDRAWN    (mixed statements; in an all-or statement
 *                                    the race word is closed instead)
 *
 * A node dropped for re-registration, or set aside by its resource and
 * handed back (wuc_select_defer, "Deferring" below), stays WAITING.
 *
 * An all-or statement's race word:
 *
 *   OPEN --begin_registration--> REGISTERING (+ the nodes dropped on it)
 *   REGISTERING --end_registration--> OPEN   (its thread runs on, then parks)
 *   REGISTERING --park_open, once its thread is off its CPU--> WAITING
 *   OPEN or WAITING --claim--> the winning node (PENDING between, two-sided)
 *   WAITING --a node handed back--> OPEN     (the thread runs to register it)
 *   OPEN or REGISTERING --the thread withdraws--> CLOSED
 *
 * A claim that takes WAITING wakes the thread with plain stores (it is
 * parked for sure); one that takes OPEN unparks it.
 *
 * Between claim and wake the claimer owns the node.  wuc_select_wake unparks
 * the waiting thread and only then publishes DONE, and the waiting thread
 * never leaves a statement while one of its nodes is CLAIMED (withdrawing
 * such a node waits for DONE).  So after DONE the claimer touches nothing of
 * the statement, and the statement's frame and thread outlive every claimer.
 *
 * Two-sided races.  When a claimer is itself a clause of another statement
 * (a select sending on a rendezvous channel finds a select receiving), both
 * clauses must be claimed together or not at all: wuc_select_claim_pair.  It
 * takes the two claim words in a global order (statement address, then node
 * address), marking the first PENDING while it tries the second, so two
 * statements claiming each other in opposite orders cannot livelock (the
 * one that takes the lower word first wins; the other waits a few
 * instructions and sees it taken).  See docs/select.md for the argument.
 *
 * The statement's side, in order (what wucc generates; docs/select.md):
 *
 *   1. all-or fast path: reg each enabled clause in source order with
 *      try_only set; the first true wins, its body runs, nothing was queued
 *      (a resource must not queue a node while try_only is set);
 *   2. reg each enabled clause (try_only clear); a true completes that clause
 *      at once (in an all-or statement it is the winner: stop registering).
 *      An all-or statement does this between wuc_select_begin_registration
 *      and wuc_select_end_registration, then registers again every node the
 *      latter hands back (read n->rereg_next before calling reg: a new drop
 *      rewrites it), until it hands back none;
 *   3. wait (wuc_select_wait / wuc_select_wait_any) and run the bodies of
 *      completed clauses as they complete; when the wait returns with no
 *      winner, a resource handed nodes back (wuc_select_defer): take them
 *      with wuc_select_take_deferred and register them again (an all-or
 *      statement is in a registration window again if it gets any: end it
 *      as in step 2);
 *   4. for a completed clause whose body is to run:
 *          if (on_selected(r, n)) body;   then   unreg(r, n);
 *      unreg after the body is where a lock or semaphore gives back what the
 *      clause acquired (docs/language.md §4: "released when the body ends");
 *   5. for every other registered clause: clear n->needed (the statement is
 *      done with it), unreg(r, n); if that returns true the clause completed
 *      after all, and its body runs only if on_selected(r, n) says so — a
 *      channel says yes (its transfer happened), a lock or future says
 *      n->needed, i.e. no (a lock's unreg has released it already).
 *   Leaving the statement by a jump runs step 5 for every clause not yet
 *   unregistered, bodies skipped: locks and permits are released, received
 *   values stay in their targets.
 *
 * Deferring.  A resource may take a queued node out without completing it
 * and hand it back later: wuc_select_defer(n) puts n on its statement's
 * deferred list and wakes its thread, which registers n again (step 3).
 * A channel does this with a clause that met a clause of its own statement
 * (a send and a receive on one channel): it may not pair them, and
 * registering the clause again at once would only meet the sibling again,
 * so it sets the clause aside until another party uses the channel
 * (docs/select.md, "A statement meeting itself").  The node stays WAITING
 * meanwhile; its unreg must take it off wherever the resource keeps it.
 *
 * A resource's queue (a lock's waiters, a future's waiters, a channel cell)
 * holds node pointers while registered; unreg must remove n if it is still
 * there, be safe against a claimer that has already taken n off the queue,
 * and be safe on a node that was never registered.  wuc_select_withdraw does
 * the protocol part: call it after taking n out of the queue (or failing to).
 */
#ifndef WUC_SELECT_H
#define WUC_SELECT_H

#include <wuc/base.h> /* one layout from C and C++ */
#include <wuc/thread.h>

#ifdef __cplusplus
extern "C" {
#endif

enum wuc_clause_status {
  WUC_CLAUSE_WAITING = 0,
  WUC_CLAUSE_PENDING = 1, /* a two-sided claim is deciding (mixed statements) */
  WUC_CLAUSE_CLAIMED = 2,
  WUC_CLAUSE_DONE = 3,
  WUC_CLAUSE_WITHDRAWN = 4,
};

struct wuc_select_node;

typedef struct wuc_select_stmt {
  /* All-or statements: 0 while open (WUC_RACE_WAITING once its thread
   * parked), WUC_RACE_PENDING during a two-sided claim, the winning node,
   * or WUC_RACE_CLOSED once withdrawn. */
  WUC_EXT_ WUC_ATOMIC(wuc_uintptr_t) race;
  wuc_uthread_t *thread;
  wuc_bool all_or;
  /* The statement is the head of a lowered waituntil (a wuc_wu of
   * <wuc/waituntil.h>): the deadlock report reads its clauses. */
  wuc_bool lowered;
  /* A lowered all-or statement in its try pass whose clauses so far all
   * honour try_only (wuc_wu_try_node keeps it): none of its nodes is queued
   * anywhere, so nobody else can reach its race word, and a claim in that
   * pass is a plain store instead of a CAS.  Cleared when registration
   * begins. */
  wuc_bool private_try;
  /* The claim that won took the race word from WUC_RACE_WAITING: the
   * thread is parked by its publication, and the wake is a plain one.
   * Written by that claimer only, before it wakes the thread. */
  wuc_bool wake_published;
  /* Set by the lowering (and wuc_wait_fd) for an all-or statement without
   * an `else`, whose failed try pass is always followed by its registration
   * pass: a resource may then let a try fail without looking when its queued
   * look would find the same (a readable(fd) clause on an fd known empty,
   * docs/io.md).  0 otherwise: the try is the clause's only look. */
  wuc_bool waits_after_try;
  char __wuc_pad[1];
  /* Re-registration rounds so far (backoff; 16 bits keep the struct's
   * size with the flags above). */
  unsigned short rereg_rounds;
  /* Nodes a resource set aside and now hands back to be registered again
   * (wuc_select_defer), linked by rereg_next. */
  WUC_EXT_ WUC_ATOMIC(struct wuc_select_node *) deferred;
  /* The statement's one clock reading for its timeouts, taken when the first
   * of them registers to wait (0: not yet; <wuc/timeout.h>), and the TSC
   * count read for it, which the statement's park passes on to its switch's
   * timer check (0: none or passed on already). */
  wuc_int64_t clock;
  wuc_uint64_t clock_tsc;
} wuc_select_stmt;

#define WUC_RACE_OPEN ((wuc_uintptr_t)0)
#define WUC_RACE_PENDING ((wuc_uintptr_t)1)
#define WUC_RACE_CLOSED ((wuc_uintptr_t)2)
/* Registering: the low bits are 3 and the rest is the list of nodes to
 * register again (see wuc_select_begin_registration). */
#define WUC_RACE_REGISTERING ((wuc_uintptr_t)3)
/* Open, and the statement's thread parked before this was published
 * (wuc_select_park_open): the claim that takes it wakes the thread
 * without a read-modify-write of its park word.  Claimers treat it as
 * open. */
#define WUC_RACE_WAITING ((wuc_uintptr_t)4)

typedef struct wuc_select_node {
  wuc_select_stmt *stmt;
  WUC_EXT_ WUC_ATOMIC(int) status; /* enum wuc_clause_status */
  char __wuc_pad0[4];
  /* Clause data: where a receive stores its element, or the value a send
   * sends (already evaluated).  Interpreted by the resource. */
  void *data;
  /* Set by the statement for its first, non-blocking pass: a resource that
   * cannot complete the operation now must not queue the node (built-in
   * resources honour it; one that does not is cleaned up by unreg). */
  wuc_bool try_only;
  /* Cleared by the statement when the clause is no longer needed (another
   * operand of an `or` was satisfied); on_selected decides from it whether a
   * completed clause's body still runs (step 5 above). */
  wuc_bool needed;
  char __wuc_pad1[6];
  /* Where the clause is in the source ("file:line:col"), for messages. */
  const char *site;
  /* Next in its statement's list of nodes to register again (the
   * REGISTERING list, or the deferred list; a node is on at most one, and
   * only while no resource holds it). */
  struct wuc_select_node *rereg_next;
  /* For the resource while the node is registered (queue links, a cell, a
   * timer...).  The statement never touches these. */
  union {
    void *ptr[6];
    wuc_uint64_t word[6];
  } res;
} wuc_select_node;

/* Statement set-up, on the waiting thread. */
void wuc_select_stmt_init(wuc_select_stmt *__wuc_s, wuc_bool __wuc_all_or);
static inline void wuc_select_node_init(wuc_select_node *__wuc_n, wuc_select_stmt *__wuc_s,
                                        void *__wuc_data) {
  int __wuc_i;
  __wuc_n->stmt = __wuc_s;
  WUC_INIT_RELAXED_(&__wuc_n->status, WUC_CLAUSE_WAITING);
  __wuc_n->data = __wuc_data;
  __wuc_n->try_only = 0;
  __wuc_n->needed = 1;
  __wuc_n->site = 0;
  __wuc_n->rereg_next = 0;
  for (__wuc_i = 0; __wuc_i < 6; __wuc_i++) __wuc_n->res.word[__wuc_i] = 0;
}

/* --- for resources ---------------------------------------------------- */

/* Claims n for an operation.  True: perform it, then wuc_select_wake(n). */
wuc_bool wuc_select_claim(wuc_select_node *__wuc_n);
/* Claims two nodes of (usually) two statements atomically: both or neither.
 * `mine` is the caller's own clause; the result tells which side lost. */
enum wuc_claim_pair_result { WUC_PAIR_CLAIMED, WUC_PAIR_MINE_LOST, WUC_PAIR_THEIRS_LOST };
enum wuc_claim_pair_result wuc_select_claim_pair(wuc_select_node *__wuc_mine,
                                                 wuc_select_node *__wuc_theirs);
/* After the operation for a claimed node: wakes its thread, then marks it
 * DONE.  The caller must not touch n afterwards.  For a node the caller
 * claimed for itself (its own statement), use wuc_select_done instead. */
void wuc_select_wake(wuc_select_node *__wuc_n);
void wuc_select_done(wuc_select_node *__wuc_n);
/* For a resource that took n out of its queue without completing it and
 * without a claim: n's statement registers n again (wuc_select_take_deferred).
 * Wakes the statement's thread (unless the caller is that thread, in reg);
 * the caller must keep the statement from leaving until this returns (its
 * unreg of n waits for it). */
void wuc_select_defer(wuc_select_node *__wuc_n);
/* The protocol half of unreg: makes every later claim of n fail.  Returns
 * true if n's operation completed (waiting if it is in progress). */
wuc_bool wuc_select_withdraw(wuc_select_node *__wuc_n);
/* Has n's operation completed?  (A plain load; DONE never reverts.) */
static inline wuc_bool wuc_select_is_done(wuc_select_node *__wuc_n) {
  return WUC_LOAD_ACQUIRE_(&__wuc_n->status) == WUC_CLAUSE_DONE;
}

/* Has n been claimed (CLAIMED or DONE)?  Its claimer's unpark may already
 * have been spent on an earlier park (unparks collapse into one permit), so
 * a waiting statement must not park for such a node: it waits it out. */
static inline wuc_bool wuc_select_is_claimed(wuc_select_node *__wuc_n) {
  int __wuc_status = WUC_LOAD_SEQ_CST_(&__wuc_n->status);
  return __wuc_status == WUC_CLAUSE_CLAIMED || __wuc_status == WUC_CLAUSE_DONE;
}

/* --- for the statement (the code wucc generates) ------------------------ */

/* All-or statements register their clauses between these two calls.  While
 * a statement registers, its clauses cannot be claimed by others: a claimer
 * drops the node (as for a lost claim) and records it here, and
 * wuc_select_end_registration hands such nodes back to be registered again
 * (Kotlin's re-register rule).  That way a statement that has met another
 * party inside a resource (a channel cell) never finds itself already won
 * elsewhere and unable to complete what it started.
 * end_registration returns NULL once the statement waits (or has won), else
 * the nodes to register again, linked by rereg_next; call it again after.
 * begin_registration leaves a statement that has already been won as it is
 * (a resource that ignores try_only queued a node in the try pass, and that
 * node was claimed): then register nothing, and the wait returns the winner. */
void wuc_select_begin_registration(wuc_select_stmt *__wuc_s);
wuc_select_node *wuc_select_end_registration(wuc_select_stmt *__wuc_s);

/* The statement's side of deferring (step 3).  wuc_select_wait (all-or) is
 * wuc_select_wait_winner, but returns NULL instead of parking when nodes
 * were handed back; then wuc_select_take_deferred returns them (linked by
 * rereg_next; read it before calling reg).  An all-or statement that gets
 * any is registering again (call wuc_select_end_registration after, as in
 * step 2); it gets NULL if it has been won meanwhile (wait again: the
 * wait returns the winner).  wuc_select_wait_winner never returns for
 * handed-back nodes: a statement whose clauses may be deferred (a send and
 * a receive on one channel) must wait with wuc_select_wait. */
wuc_select_node *wuc_select_wait(wuc_select_stmt *__wuc_s);
wuc_select_node *wuc_select_take_deferred(wuc_select_stmt *__wuc_s);

/* Closes an all-or statement's race (the `else` path, or after the winner
 * is known): no claim can succeed afterwards.  Returns the winning node, or
 * NULL if none had won. */
wuc_select_node *wuc_select_close(wuc_select_stmt *__wuc_s);
/* All-or: parks until a clause has won and its operation is done; returns
 * the winner. */
wuc_select_node *wuc_select_wait_winner(wuc_select_stmt *__wuc_s);
/* Mixed: parks until some node may have changed (returns spuriously too);
 * never parks while one of `nodes` is CLAIMED or DONE (its unpark may have
 * been spent: unparks collapse into one permit), nor while nodes were handed
 * back (wuc_select_take_deferred). */
void wuc_select_wait_any(wuc_select_stmt *__wuc_s, wuc_select_node *__wuc_nodes,
                         unsigned __wuc_count);

/* --- the trait ---------------------------------------------------------- */

/* The three functions with the resource type erased, for code that handles
 * clauses of any type alike (a statement's cleanup on a jump out of a body,
 * the blocking paths in <wuc/waituntil.h>). */
typedef struct wuc_selectable_ops {
  wuc_bool (*register_select)(void *, wuc_select_node *);
  wuc_bool (*unregister_select)(void *, wuc_select_node *);
  wuc_bool (*on_selected)(void *, wuc_select_node *);
  /* WUC_SELECTABLE_* flags: 0 for a program's own types (a word, so that
   * the table has no padding). */
  wuc_uintptr_t flags;
} wuc_selectable_ops;

/* reg never queues a node while try_only is set (the resources of <wuc.h>):
 * see wuc_select_stmt.private_try. */
#define WUC_SELECTABLE_HONOURS_TRY_ONLY 1u
/* The timeout(d) clause (its statement reads the clock for it). */
#define WUC_SELECTABLE_TIMEOUT 2u
/* unreg of a node whose reg returned true in the try pass (try_only set)
 * does nothing and returns true: a lowered statement skips that call. */
#define WUC_SELECTABLE_TRY_WIN_FINAL 4u

/* Declares that T is selectable with the three functions.  Expands to a
 * constant that wucc's semantic pass finds (by its annotation) and that
 * type-checks the functions against T, and to the type-erased table
 * WUC_SELECTABLE_OPS(reg_fn) that the generated code uses off its fast
 * path.  It expands in the program's text (wucc writes one for each
 * future(T)), so every name it declares is reserved or made from reg_fn:
 * no macro of the program can change them (docs/lowering.md, "Names"). */
#define WUC_SELECTABLE(T, reg_fn, unreg_fn, selected_fn)                                           \
  WUC_SELECTABLE_WITH_(T, reg_fn, unreg_fn, selected_fn, 0)
#define WUC_SELECTABLE_WITH_(T, reg_fn, unreg_fn, selected_fn, flags)                              \
  WUC_SELECTABLE_ANNOTATION_ static const struct {                                                 \
    wuc_bool (*__wuc_register_select)(T *, wuc_select_node *);                                     \
    wuc_bool (*__wuc_unregister_select)(T *, wuc_select_node *);                                   \
    wuc_bool (*__wuc_on_selected)(T *, wuc_select_node *);                                         \
  } WUC_SELECTABLE_NAME_(reg_fn) = {reg_fn, unreg_fn, selected_fn};                                \
  WUC_SELECTABLE_ERASED_(T, reg_fn, unreg_fn, selected_fn, flags)
#define WUC_SELECTABLE_NAME_(reg) wuc_selectable_trait_##reg
#define WUC_SELECTABLE_OPS(reg) wuc_selectable_ops_##reg
#define WUC_SELECTABLE_ERASED_(T, reg_fn, unreg_fn, selected_fn, flags)                            \
  static inline wuc_bool wuc_selectable_reg_##reg_fn(void *__wuc_r, wuc_select_node *__wuc_n) {    \
    return reg_fn((T *)__wuc_r, __wuc_n);                                                          \
  }                                                                                                \
  static inline wuc_bool wuc_selectable_unreg_##reg_fn(void *__wuc_r, wuc_select_node *__wuc_n) {  \
    return unreg_fn((T *)__wuc_r, __wuc_n);                                                        \
  }                                                                                                \
  static inline wuc_bool wuc_selectable_sel_##reg_fn(void *__wuc_r, wuc_select_node *__wuc_n) {    \
    return selected_fn((T *)__wuc_r, __wuc_n);                                                     \
  }                                                                                                \
  __attribute__((__unused__)) static const wuc_selectable_ops wuc_selectable_ops_##reg_fn = {      \
      wuc_selectable_reg_##reg_fn, wuc_selectable_unreg_##reg_fn, wuc_selectable_sel_##reg_fn,     \
      (flags)}

/* n->needed, for code that expands in the program's text. */
static inline wuc_bool __wuc_select_needed(const wuc_select_node *__wuc_n) {
  return __wuc_n->needed;
}

/* WUC_SELECTABLE for a resource whose completed operation may be dropped
 * (unreg undoes it, or it consumed nothing): also defines selected_fn, which
 * runs the body only while the clause is needed (n->needed). */
#define WUC_SELECTABLE_DROPPABLE(T, reg_fn, unreg_fn, selected_fn)                                 \
  WUC_SELECTABLE_DROPPABLE_WITH_(T, reg_fn, unreg_fn, selected_fn, 0)
#define WUC_SELECTABLE_DROPPABLE_WITH_(T, reg_fn, unreg_fn, selected_fn, flags)                    \
  static inline wuc_bool selected_fn(T *__wuc_r, wuc_select_node *__wuc_n) {                       \
    (void)__wuc_r;                                                                                 \
    return __wuc_select_needed(__wuc_n);                                                           \
  }                                                                                                \
  WUC_SELECTABLE_WITH_(T, reg_fn, unreg_fn, selected_fn, flags)

/* The two for the resources of <wuc.h>: their reg never queues a node while
 * try_only is set (WUC_SELECTABLE_HONOURS_TRY_ONLY), plus `flags`. */
#define WUC_SELECTABLE_BUILTIN_(T, reg_fn, unreg_fn, selected_fn, flags)                           \
  WUC_SELECTABLE_WITH_(T, reg_fn, unreg_fn, selected_fn, WUC_SELECTABLE_HONOURS_TRY_ONLY | (flags))
#define WUC_SELECTABLE_DROPPABLE_BUILTIN_(T, reg_fn, unreg_fn, selected_fn, flags)                 \
  WUC_SELECTABLE_DROPPABLE_WITH_(T, reg_fn, unreg_fn, selected_fn,                                 \
                                 WUC_SELECTABLE_HONOURS_TRY_ONLY | (flags))

#ifdef __clang__
#define WUC_SELECTABLE_ANNOTATION_ __attribute__((__annotate__("wuc_selectable"), __unused__))
#else
#define WUC_SELECTABLE_ANNOTATION_ __attribute__((__unused__))
#endif

#ifdef __cplusplus
}
#endif
#endif
