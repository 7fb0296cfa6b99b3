/* <wuc/waituntil.h> — the support code wucc's lowered statements call.
 *
 * Users do not include this: wucc inserts it before the first waituntil
 * statement of a file (docs/language.md, "Names and headers"), and <wuc.h>
 * includes it.  It is
 * the statement's side of <wuc/select.h> ("The statement's side, in order")
 * packaged for generated code:
 *
 *   - a statement is a wuc_wu in the waiting thread's frame plus an array of
 *     wuc_wu_clause (one per clause: the node, the resource, its type-erased
 *     trait, and four flags); nothing is allocated;
 *   - the fast path (step 1, all-or statements) is generated inline with
 *     direct calls to each clause's register function;
 *   - the blocking paths — wuc_wu_block_all_or (steps 2, 3, 5) and
 *     wuc_wu_mixed_step_slow (statements mixing `and` and `or`) — live in
 *     runtime/waituntil.c and call the resources through wuc_selectable_ops;
 *     a mixed statement's common step (a pass over its live mask) is the
 *     inline wuc_wu_mixed_step below;
 *   - wuc_wu_exit runs, through __attribute__((cleanup)), whenever control
 *     leaves the statement, normally or by a jump out of a body: every clause
 *     still registered is withdrawn (step 5 with bodies skipped), so no
 *     registration outlives the statement.
 *
 * The completion predicate of a mixed statement is generated per statement
 * (it is the statement's and/or tree); it reports to the runtime through each
 * clause's __wuc_needed flag and the `satisfied` argument of
 * wuc_wu_mixed_step. */
#ifndef WUC_WAITUNTIL_H
#define WUC_WAITUNTIL_H

#include <wuc/channel.h> /* the clause forms x << ch, ch << e, closed(ch) */
#include <wuc/select.h>
#include <wuc/timeout.h> /* timeout(d) */

#ifdef __cplusplus
extern "C" {
#endif

/* The members the generated code names (__wuc_node, __wuc_ran,
 * __wuc_needed) are reserved identifiers: the statement is lowered into the
 * program's text, where no macro or variable of the program can take their
 * names (docs/lowering.md, "Names"). */
typedef struct wuc_wu_clause {
  wuc_select_node __wuc_node;
  void *res;                     /* the resource the trait is declared for */
  const wuc_selectable_ops *ops; /* its trait, type-erased */
  wuc_bool enabled;              /* its guard was true (or it has none) */
  wuc_bool live;                 /* registered and not yet unregistered */
  wuc_bool __wuc_ran; /* its body ran, or it completed and its resource skipped the body */
  /* Mixed: the completion predicate's verdict, written before each
   * wuc_wu_mixed_step, which copies it to the node's `needed`. */
  wuc_bool __wuc_needed;
  wuc_bool pending; /* mixed: completed while being withdrawn; its body is still to run */
  /* A receive whose target's type differs from the element type receives
   * into a temporary; if the statement is left by a jump while such a clause
   * completes, the cleanup still assigns the element to the target (it is
   * never lost), converting by these arithmetic kinds (WUC_WU_KIND). */
  unsigned char convert_to_kind, convert_from_kind;
  char __wuc_pad[1];
  void *convert_to;
} wuc_wu_clause;

/* The kinds of scalar types a received element may be converted between. */
enum wuc_wu_kind {
  WUC_WU_K_NONE,
  WUC_WU_K_BOOL,
  WUC_WU_K_I8,
  WUC_WU_K_U8,
  WUC_WU_K_I16,
  WUC_WU_K_U16,
  WUC_WU_K_I32,
  WUC_WU_K_U32,
  WUC_WU_K_I64,
  WUC_WU_K_U64,
  WUC_WU_K_F32,
  WUC_WU_K_F64,
  WUC_WU_K_F80,
  WUC_WU_K_POINTER
};
#define WUC_WU_KIND(e)                                                                             \
  __extension__ _Generic((e), _Bool                                                                \
                         : WUC_WU_K_BOOL, char                                                     \
                         : ((char)-1 < 0 ? WUC_WU_K_I8 : WUC_WU_K_U8), signed char                 \
                         : WUC_WU_K_I8, unsigned char                                              \
                         : WUC_WU_K_U8, short                                                      \
                         : WUC_WU_K_I16, unsigned short                                            \
                         : WUC_WU_K_U16, int                                                       \
                         : WUC_WU_K_I32, unsigned                                                  \
                         : WUC_WU_K_U32, long                                                      \
                         : WUC_WU_K_I64, unsigned long                                             \
                         : WUC_WU_K_U64, long long                                                 \
                         : WUC_WU_K_I64, unsigned long long                                        \
                         : WUC_WU_K_U64, float                                                     \
                         : WUC_WU_K_F32, double                                                    \
                         : WUC_WU_K_F64, long double                                               \
                         : WUC_WU_K_F80, default                                                   \
                         : WUC_WU_K_POINTER)
/* *to = *from with C's conversion between the two kinds. */
void wuc_wu_convert(void *__wuc_to, int __wuc_to_kind, const void *__wuc_from, int __wuc_from_kind);

/* Mixed statements keep which clauses are live and pending as bit masks
 * too, for the first WUC_WU_MASK_BITS clauses: the step finds them with a
 * count of trailing zeros instead of a walk over every clause's flags
 * (clauses from WUC_WU_MASK_BITS on, in a statement with large families,
 * are found by their flags). */
#define WUC_WU_MASK_BITS 64u

typedef struct wuc_wu {
  wuc_select_stmt s;
  wuc_wu_clause *cl;
  unsigned n;
  unsigned next_reg; /* mixed: clauses before it have had their turn to register */
  /* Mixed: bit i set while clause i (< WUC_WU_MASK_BITS) is live / pending. */
  wuc_uint64_t live_bits, pending_bits;
  wuc_bool try_only; /* mixed with an `else`: try each clause once, never park */
  char __wuc_pad[7];
} wuc_wu;

/* Evaluation of a family's element: clause `c` (of the statement's array),
 * enabled, without counting it (the statement's w->n is set once, after the
 * family's loop). */
static inline void wuc_wu_element_init(wuc_wu_clause *__wuc_c, void *__wuc_res,
                                       const wuc_selectable_ops *__wuc_ops, void *__wuc_data,
                                       const char *__wuc_site) {
  __wuc_c->enabled = 1;
  __wuc_c->live = __wuc_c->__wuc_ran = __wuc_c->pending = 0;
  __wuc_c->res = __wuc_res;
  __wuc_c->ops = __wuc_ops;
  __wuc_c->__wuc_node.data = __wuc_data; /* kept here until the node is set up */
  __wuc_c->__wuc_node.site = __wuc_site;
  __wuc_c->convert_to = 0;
}

/* Evaluation: clause i of the statement, once its guard (and, if enabled,
 * its resource) has been evaluated. */
static inline void wuc_wu_clause_init(wuc_wu *__wuc_w, unsigned __wuc_i, wuc_bool __wuc_enabled,
                                      void *__wuc_res, const wuc_selectable_ops *__wuc_ops,
                                      void *__wuc_data, const char *__wuc_site) {
  __wuc_w->n = __wuc_i + 1;
  wuc_wu_element_init(&__wuc_w->cl[__wuc_i], __wuc_res, __wuc_ops, __wuc_data, __wuc_site);
  __wuc_w->cl[__wuc_i].enabled = __wuc_enabled;
}

/* Clause i receives into a temporary, then converts into `to`. */
static inline void wuc_wu_clause_converts(wuc_wu *__wuc_w, unsigned __wuc_i, void *__wuc_to,
                                          int __wuc_to_kind, int __wuc_from_kind) {
  __wuc_w->cl[__wuc_i].convert_to = __wuc_to;
  __wuc_w->cl[__wuc_i].convert_to_kind = (unsigned char)__wuc_to_kind;
  __wuc_w->cl[__wuc_i].convert_from_kind = (unsigned char)__wuc_from_kind;
}

/* Sets up clause i's node (keeping its data and site). */
static inline wuc_select_node *wuc_wu_node_setup(wuc_wu *__wuc_w, unsigned __wuc_i) {
  wuc_select_node *__wuc_n = &__wuc_w->cl[__wuc_i].__wuc_node;
  void *__wuc_data = __wuc_n->data;
  const char *__wuc_site = __wuc_n->site;
  wuc_select_node_init(__wuc_n, &__wuc_w->s, __wuc_data);
  __wuc_n->site = __wuc_site;
  return __wuc_n;
}

/* wuc_select_stmt_init for the statement of a wuc_wu: marks it `lowered`,
 * so the deadlock report can list its clauses (docs/debugging.md). */
void wuc_wu_stmt_init(wuc_select_stmt *__wuc_s, wuc_bool __wuc_all_or);

/* What the statement's cleanup reads, set before anything can jump out of
 * it: n counts the clauses set up so far (wuc_wu_clause_init), so the
 * cleanup never reads a clause a jump out of a guard skipped. */
static inline void wuc_wu_begin(wuc_wu *__wuc_w, wuc_wu_clause *__wuc_cl) {
  __wuc_w->cl = __wuc_cl;
  __wuc_w->n = 0;
}

static inline void wuc_wu_init(wuc_wu *__wuc_w, wuc_wu_clause *__wuc_cl, wuc_bool __wuc_all_or) {
  wuc_wu_stmt_init(&__wuc_w->s, __wuc_all_or);
  wuc_wu_begin(__wuc_w, __wuc_cl);
  __wuc_w->next_reg = 0;
  __wuc_w->try_only = 0;
}

/* The early try of an all-or statement's leading channel clauses (receives
 * and sends, up to the first clause of another kind), after wuc_wu_begin and
 * the evaluation of every clause (docs/select.md, "The early try"): one call
 * per clause, in source order, until one returns true: wuc_wu_recv_early
 * (wuc_wu_send_early) when the statement has one such clause, else
 * ..._early_first for the first, ..._early_next for the middle ones and
 * ..._early_last for the last.  The first clause's call starts the
 * statement: it counts as one operation, and stops the program outside a
 * user thread, as wuc_wu_init does.  Then, if the clause is `enabled`, it is
 * tried as chan_try_recv (or chan_try_send) does, with no node: into `out`
 * (from `value`).  True: the element moved, and the statement is not set up
 * at all (the clause's body runs, then wuc_wu_end_winner ends it:
 * wuc_wu_won_early).  False: nothing moved; the last clause's call then sets
 * the statement up as wuc_wu_init would; its clauses follow
 * (wuc_wu_clause_init), and the fast path goes on with the first clause not
 * tried early.  A send on a closed channel stops the program, as the
 * clause's try does (the message names `site`). */
wuc_bool wuc_wu_recv_early(wuc_wu *__wuc_w, wuc_chan_recv_clause *__wuc_c, void *__wuc_out,
                           wuc_bool __wuc_enabled);
wuc_bool wuc_wu_recv_early_first(wuc_wu *__wuc_w, wuc_chan_recv_clause *__wuc_c, void *__wuc_out,
                                 wuc_bool __wuc_enabled);
wuc_bool wuc_wu_recv_early_next(wuc_wu *__wuc_w, wuc_chan_recv_clause *__wuc_c, void *__wuc_out,
                                wuc_bool __wuc_enabled);
wuc_bool wuc_wu_recv_early_last(wuc_wu *__wuc_w, wuc_chan_recv_clause *__wuc_c, void *__wuc_out,
                                wuc_bool __wuc_enabled);
wuc_bool wuc_wu_send_early(wuc_wu *__wuc_w, wuc_chan_send_clause *__wuc_c, const void *__wuc_value,
                           wuc_bool __wuc_enabled, const char *__wuc_site);
wuc_bool wuc_wu_send_early_first(wuc_wu *__wuc_w, wuc_chan_send_clause *__wuc_c,
                                 const void *__wuc_value, wuc_bool __wuc_enabled,
                                 const char *__wuc_site);
wuc_bool wuc_wu_send_early_next(wuc_wu *__wuc_w, wuc_chan_send_clause *__wuc_c,
                                const void *__wuc_value, wuc_bool __wuc_enabled,
                                const char *__wuc_site);
wuc_bool wuc_wu_send_early_last(wuc_wu *__wuc_w, wuc_chan_send_clause *__wuc_c,
                                const void *__wuc_value, wuc_bool __wuc_enabled,
                                const char *__wuc_site);
/* The early try of clause i won: nothing of the statement is live (as after
 * wuc_wu_won_try of a channel clause); the clause's body runs, and
 * wuc_wu_end_winner says it needs no unreg. */
static inline void wuc_wu_won_early(wuc_wu *__wuc_w, unsigned __wuc_i) {
  __wuc_w->cl[__wuc_i].live = 0;
}

/* Fast path, clause i: the node is set up for a try (try_only: a resource
 * that cannot complete now queues nothing). */
static inline wuc_select_node *wuc_wu_try_node(wuc_wu *__wuc_w, unsigned __wuc_i) {
  /* (The flags first: the compiler then knows them from the clause's
   * set-up, before the node's atomic status store.) */
  if (!(__wuc_w->cl[__wuc_i].ops->flags & WUC_SELECTABLE_HONOURS_TRY_ONLY))
    __wuc_w->s.private_try = 0;
  wuc_select_node *__wuc_n = wuc_wu_node_setup(__wuc_w, __wuc_i);
  __wuc_n->try_only = 1;
  return __wuc_n;
}

/* The try of clause i won: it completed and must be unregistered after its
 * body (live), unless its resource's unreg has nothing to do after a win in
 * the try pass (WUC_SELECTABLE_TRY_WIN_FINAL): then nothing of the statement
 * is live any more (the try pass queued nothing), and the statement's exit
 * has nothing to walk. */
static inline void wuc_wu_won_try(wuc_wu *__wuc_w, unsigned __wuc_i) {
  if (__wuc_w->cl[__wuc_i].ops->flags & WUC_SELECTABLE_TRY_WIN_FINAL) {
    __wuc_w->n = 0;
    return;
  }
  __wuc_w->cl[__wuc_i].__wuc_node.try_only = 0;
  __wuc_w->cl[__wuc_i].live = 1;
}

/* [[wuc::fair]] all-or statements, the fast path: tries the enabled clauses
 * (each through wuc_wu_try_node and its type-erased trait) in a uniformly
 * random order, drawn as a Fisher-Yates shuffle of their indices in `order`
 * (the statement's own array of n entries) that stops at the first clause
 * that completes.  Returns that clause, whose try won (the caller goes on
 * with wuc_wu_won_try), or -1 when none could complete now: then every
 * enabled clause has been tried, as after the source-order fast path. */
int wuc_wu_try_fair(wuc_wu *__wuc_w, unsigned *__wuc_order);
/* A number drawn uniformly from [0, bound), bound >= 1, from the calling
 * worker's own generator (runtime/fair.c; WUC_RANDOM_SEED seeds it). */
unsigned wuc_fair_random(unsigned __wuc_bound);

/* All-or, after a try pass that found nothing (every enabled node has been
 * through wuc_wu_try_node and failed): registers every enabled clause, parks until one
 * wins, withdraws the others.  Returns the winner, still live: the caller
 * runs on_selected, the body, then unregisters it. */
unsigned wuc_wu_block_all_or(wuc_wu *__wuc_w);

/* All-or: after the winner's body.  No other clause is live (the try pass
 * queued nothing, wuc_wu_block_all_or withdrew the losers), so the
 * statement's exit has nothing to walk.  True: the winner is still live and
 * the caller unregisters it now (a lock is released here); false: it won
 * its try and needs no unreg (wuc_wu_won_try). */
static inline wuc_bool wuc_wu_end_winner(wuc_wu *__wuc_w, unsigned __wuc_i) {
  wuc_bool __wuc_live = __wuc_w->cl[__wuc_i].live;
  __wuc_w->cl[__wuc_i].live = 0;
  __wuc_w->n = 0;
  return __wuc_live;
}

/* Mixed statements.  Each call first copies each clause's __wuc_needed to
 * its node's `needed`, withdraws every live clause no longer needed, then returns the next clause
 * whose body is to run now (its on_selected said yes), WUC_WU_RECOMPUTE when a clause completed
 * without a body to run (the predicate must be recomputed), or WUC_WU_END
 * once `satisfied` and nothing is left to run.  It registers the clauses in
 * source order on the first calls, and parks only when nothing can run. */
enum { WUC_WU_END = -1, WUC_WU_RECOMPUTE = -2, WUC_WU_ELSE = -3 };
/* Mixed statements, after evaluation: sets up every enabled clause's node
 * (before the predicate first writes the __wuc_needed flags).  With try_only
 * (an enabled `else`), each clause is tried once without queueing, and
 * wuc_wu_mixed_step returns WUC_WU_ELSE instead of parking when the tree
 * is not satisfied after every clause had its try. */
static inline void wuc_wu_mixed_begin(wuc_wu *__wuc_w, wuc_bool __wuc_try_only) {
  wuc_wu_clause *__wuc_cl = __wuc_w->cl;
  unsigned __wuc_n = __wuc_w->n;
  __wuc_w->try_only = __wuc_try_only;
  __wuc_w->live_bits = __wuc_w->pending_bits = 0;
  for (unsigned __wuc_i = 0; __wuc_i < __wuc_n; __wuc_i++) {
    wuc_select_node *__wuc_node = &__wuc_cl[__wuc_i].__wuc_node;
    const char *__wuc_site = __wuc_node->site;
    if (!__wuc_cl[__wuc_i].enabled) continue;
    /* wuc_wu_node_setup: its data and site were kept in the node */
    wuc_select_node_init(__wuc_node, &__wuc_w->s, __wuc_node->data);
    __wuc_node->site = __wuc_site;
  }
}
/* After body i of a mixed statement (or for a clause that completed and
 * whose resource skips its body): counts it as run and unregisters it (a
 * lock is released here). */
static inline void wuc_wu_mixed_ran(wuc_wu *__wuc_w, unsigned __wuc_i) {
  wuc_wu_clause *__wuc_c = &__wuc_w->cl[__wuc_i];
  __wuc_c->__wuc_ran = 1;
  if (!__wuc_c->live) return;
  __wuc_c->live = 0;
  if (__wuc_i < WUC_WU_MASK_BITS) __wuc_w->live_bits &= ~((wuc_uint64_t)1 << __wuc_i);
  (void)__wuc_c->ops->unregister_select(__wuc_c->res, &__wuc_c->__wuc_node);
}
/* The whole step (runtime/waituntil.c). */
int wuc_wu_mixed_step_slow(wuc_wu *__wuc_w, wuc_bool __wuc_satisfied);
/* Step 5 for the live clauses of `drop` (bits of clauses below
 * WUC_WU_MASK_BITS), no longer needed, in source order: each is
 * unregistered, and pending if it completed all the same and its resource
 * runs its body.  True if one is pending. */
wuc_bool wuc_wu_mixed_withdraw(wuc_wu *__wuc_w, wuc_uint64_t __wuc_drop);
/* The step, inline while every clause has had its turn to register, none
 * is pending, none was handed back, and the statement has at most
 * WUC_WU_MASK_BITS clauses: the withdrawals, then a scan of the live mask
 * for the first completed clause in source order, or the end once the tree
 * is satisfied and nothing is live.  Anything else is left to
 * wuc_wu_mixed_step_slow, which does all of it (docs/select.md, "The
 * statement's steps"). */
static inline int wuc_wu_mixed_step(wuc_wu *__wuc_w, wuc_bool __wuc_satisfied) {
  wuc_uint64_t __wuc_live = __wuc_w->live_bits, __wuc_drop = 0, __wuc_m;
  int __wuc_first = -1;
  wuc_wu_clause *__wuc_c;
  if (__wuc_w->next_reg != __wuc_w->n || __wuc_w->n > WUC_WU_MASK_BITS || __wuc_w->pending_bits ||
      WUC_LOAD_ACQUIRE_(&__wuc_w->s.deferred))
    return wuc_wu_mixed_step_slow(__wuc_w, __wuc_satisfied);
  /* One pass over the live clauses: the predicate's verdicts where the
   * resources' on_selected reads them, the clauses no longer needed, and
   * the first needed one that completed. */
  for (__wuc_m = __wuc_live; __wuc_m; __wuc_m &= __wuc_m - 1) {
    unsigned __wuc_i = (unsigned)__builtin_ctzll(__wuc_m);
    wuc_bool __wuc_needed;
    __wuc_c = &__wuc_w->cl[__wuc_i];
    __wuc_needed = __wuc_c->__wuc_needed;
    __wuc_c->__wuc_node.needed = __wuc_needed;
    if (!__wuc_needed)
      __wuc_drop |= (wuc_uint64_t)1 << __wuc_i;
    else if (__wuc_first < 0 && wuc_select_is_done(&__wuc_c->__wuc_node))
      __wuc_first = (int)__wuc_i;
  }
  /* The withdrawals come first; a clause that completed all the same and
   * runs its body is returned by the whole step. */
  if (__wuc_drop && wuc_wu_mixed_withdraw(__wuc_w, __wuc_drop))
    return wuc_wu_mixed_step_slow(__wuc_w, __wuc_satisfied);
  if (__wuc_first >= 0) {
    __wuc_c = &__wuc_w->cl[__wuc_first];
    if (__wuc_c->ops->on_selected(__wuc_c->res, &__wuc_c->__wuc_node)) return __wuc_first;
    wuc_wu_mixed_ran(__wuc_w, (unsigned)__wuc_first); /* its body skipped: it counts as run */
    return WUC_WU_RECOMPUTE;
  }
  if (!__wuc_satisfied || (__wuc_live & ~__wuc_drop))
    return wuc_wu_mixed_step_slow(__wuc_w, __wuc_satisfied);
  __wuc_w->n = 0; /* nothing is live: the exit has nothing to withdraw */
  return WUC_WU_END;
}

/* ---- clause families (docs/language.md, "Clause families") ------------
 * A statement with a family flattens it: each element is one wuc_wu_clause
 * of the statement's array, in index order where the family stands, so the
 * paths above (and wuc_wu_try_fair) treat elements as clauses.  Nodes and
 * the per-element data live in the frame up to WUC_WU_FAMILY_FRAME elements
 * per family; above that, in blocks this storage allocates (malloc) and
 * frees when the statement ends, however it ends (its cleanup runs after
 * the statement's wuc_wu_exit).  Statements without families never use it. */
#define WUC_WU_FAMILY_FRAME 8
typedef struct wuc_wu_storage {
  void *blocks;     /* the heap blocks, a list (NULL: all in the frame) */
  const char *site; /* the statement, for the allocation failure message */
  unsigned cap;     /* the capacity of the statement's clause array */
  char __wuc_pad[4];
} wuc_wu_storage;
static inline void wuc_wu_storage_init(wuc_wu_storage *__wuc_st, unsigned __wuc_cap,
                                       const char *__wuc_site) {
  __wuc_st->blocks = 0;
  __wuc_st->site = __wuc_site;
  __wuc_st->cap = __wuc_cap;
}
/* A copy of the first `count` entries of `old` (of `size` bytes each) in a
 * new heap block of `cap` entries, freed with the storage.  Stops the
 * program with a message if the memory cannot be allocated. */
void *wuc_wu_grow(wuc_wu_storage *__wuc_st, const void *__wuc_old, unsigned __wuc_count,
                  unsigned __wuc_cap, __SIZE_TYPE__ __wuc_size);
/* wuc_wu_grow for one of a family's arrays whose first `count` elements
 * have their clauses from place `at` on: the clauses' resource and data
 * pointers into the old array are moved to the new one. */
void *wuc_wu_grow_family(wuc_wu_storage *__wuc_st, wuc_wu *__wuc_w, unsigned __wuc_at,
                         const void *__wuc_old, unsigned __wuc_count, unsigned __wuc_cap,
                         __SIZE_TYPE__ __wuc_size);
/* The next capacity of a family's arrays when they are full: at the first
 * growth, the size the family at `site` had when it last grew on this worker
 * (so a family of the same size each time is copied once, from the frame),
 * else double (stops the program past 2^31).  wuc_wu_family_grew records
 * that size, after a family's loop that grew. */
unsigned wuc_wu_next_cap(wuc_wu_storage *__wuc_st, unsigned __wuc_cap, const char *__wuc_site);
void wuc_wu_family_grew(const char *__wuc_site, unsigned __wuc_n);
void wuc_wu_reserve_slow(wuc_wu_storage *__wuc_st, wuc_wu *__wuc_w, unsigned __wuc_need);
/* Room in the clause array for `need` clauses (it moves to the heap past
 * its frame capacity; only before any node is set up). */
static inline void wuc_wu_reserve(wuc_wu_storage *__wuc_st, wuc_wu *__wuc_w, unsigned __wuc_need) {
  if (__builtin_expect(__wuc_need > __wuc_st->cap, 0))
    wuc_wu_reserve_slow(__wuc_st, __wuc_w, __wuc_need);
}
/* The statement's clause array, through functions: the lowered statement
 * names no member of wuc_wu outside the reserved ones, so a macro of the
 * program called `n` or `cl` cannot reach it (docs/lowering.md, "Names"). */
static inline unsigned wuc_wu_count(const wuc_wu *__wuc_w) { return __wuc_w->n; }
static inline void wuc_wu_set_count(wuc_wu *__wuc_w, unsigned __wuc_n) { __wuc_w->n = __wuc_n; }
static inline wuc_wu_clause *wuc_wu_clause_at(wuc_wu *__wuc_w, unsigned __wuc_i) {
  return &__wuc_w->cl[__wuc_i];
}
void wuc_wu_storage_free(wuc_wu_storage *__wuc_st);
/* __attribute__((cleanup)) of the storage: frees its blocks, if any. */
static inline void wuc_wu_storage_exit(wuc_wu_storage *__wuc_st) {
  if (__wuc_st->blocks) wuc_wu_storage_free(__wuc_st);
}
/* [[wuc::fair]] over a statement with families: wuc_wu_try_fair with an
 * order array of the statement's run-time size. */
int wuc_wu_try_fair_storage(wuc_wu *__wuc_w, wuc_wu_storage *__wuc_st);
/* Mixed statements: a family of `n` elements from clause `at` is satisfied
 * (an `or` family: one element ran; an `and` family: all ran). */
wuc_bool wuc_wu_family_satisfied(const wuc_wu *__wuc_w, unsigned __wuc_at, unsigned __wuc_n,
                                 wuc_bool __wuc_all);
/* Mixed statements: each element is needed unless it ran or `done`. */
void wuc_wu_family_need(wuc_wu *__wuc_w, unsigned __wuc_at, unsigned __wuc_n, wuc_bool __wuc_done);

/* Withdraws whatever is still registered. */
void wuc_wu_cleanup(wuc_wu *__wuc_w);
/* __attribute__((cleanup)) of a lowered statement: the out-of-line walk only
 * while some clause may still be live (not after an all-or winner's part). */
static inline void wuc_wu_exit(wuc_wu *__wuc_w) {
  if (__wuc_w->n) wuc_wu_cleanup(__wuc_w);
}
/* __attribute__((cleanup)) of a lowered statement's state, the one struct
 * that holds all of it (docs/lowering.md): its first member is the wuc_wu
 * and, with families, the wuc_wu_storage follows it.  `void *` accepts the
 * pointer to any such struct; the storage is freed after the withdrawal. */
static inline void wuc_wu_state_exit(void *__wuc_state) { wuc_wu_exit((wuc_wu *)__wuc_state); }
static inline void wuc_wu_family_state_exit(void *__wuc_state) {
  wuc_wu_exit((wuc_wu *)__wuc_state);
  wuc_wu_storage_exit((wuc_wu_storage *)(void *)((wuc_wu *)__wuc_state + 1));
}

#ifdef __cplusplus
}
#endif
#endif
