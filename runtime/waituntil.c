/* The blocking paths and the cleanup of lowered waituntil statements; see
 * <wuc/waituntil.h> and docs/select.md.  The fast path is generated inline
 * by wucc; everything here calls the resources through their type-erased
 * traits, which costs an indirect call per clause on paths that park. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include <wuc/timeout.h>
#include <wuc/waituntil.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "select_internal.h"

static bool reg(wuc_wu_clause *c) { return c->ops->register_select(c->res, &c->__wuc_node); }
static bool unreg(wuc_wu_clause *c) { return c->ops->unregister_select(c->res, &c->__wuc_node); }
static bool selected(wuc_wu_clause *c) { return c->ops->on_selected(c->res, &c->__wuc_node); }
static wuc_wu_clause *clause_of(wuc_select_node *n) {
  return (wuc_wu_clause *)((char *)n - offsetof(wuc_wu_clause, __wuc_node));
}

int wuc_wu_try_fair(wuc_wu *w, unsigned *order) {
  unsigned m = 0;
  for (unsigned i = 0; i < w->n; i++)
    if (w->cl[i].enabled) order[m++] = i;
  /* Fisher-Yates, one position at a time: order[k] is drawn uniformly from
   * the clauses not yet tried, so the order of the tries is a uniformly
   * random permutation, and the first ready one in it is uniform among the
   * ready ones.  Nothing is drawn for the last candidate. */
  for (unsigned k = 0; k < m; k++) {
    unsigned left = m - k;
    if (left > 1) {
      unsigned j = k + wuc_fair_random(left);
      unsigned t = order[j];
      order[j] = order[k];
      order[k] = t;
    }
    unsigned i = order[k];
    wuc_wu_clause *c = &w->cl[i];
    if (c->ops->register_select(c->res, wuc_wu_try_node(w, i))) return (int)i;
  }
  return -1;
}

unsigned wuc_wu_block_all_or(wuc_wu *w) {
  int winner = -1;
  /* Step 2: register in source order; a clause that completes at once is
   * the winner.  Between begin and end registration others cannot claim our
   * nodes: they drop them on the statement's re-register list instead
   * (Kotlin's re-register rule; <wuc/select.h>). */
  wuc_select_begin_registration(&w->s);
  /* (Not registering: a clause a user resource queued in the try pass has
   * won meanwhile; registering the others could only fail.  The wait
   * returns that winner.) */
  bool registering =
      (atomic_load_explicit(&w->s.race, memory_order_relaxed) & 7) == WUC_RACE_REGISTERING;
  for (unsigned i = 0; registering && i < w->n && winner < 0; i++) {
    wuc_wu_clause *c = &w->cl[i];
    if (!c->enabled) continue;
    c->__wuc_node.try_only = false; /* it failed its try */
    c->live = true;
    if (reg(c)) winner = (int)i;
  }
  /* Register the dropped nodes again until none comes back; after two
   * rounds give the other side the CPU (two statements registering at once
   * can keep dropping each other's nodes, or keep handing back each other's
   * clauses set aside).  Then step 3: wait.  A wait
   * without a winner means a channel handed back a clause it had set aside
   * (it met a clause of this statement, docs/select.md): register it again,
   * in a registration window of its own. */
  for (unsigned round = 0; winner < 0; round++) {
    wuc_select_node *again = NULL;
    if (wuc_select_park_open(&w->s) || !(again = wuc_select_end_registration(&w->s))) {
      wuc_select_node *n = wuc_select_wait(&w->s);
      if (n) {
        winner = (int)(clause_of(n) - w->cl);
        break;
      }
      again = wuc_select_take_deferred(&w->s); /* NULL if won meanwhile */
    }
    if (again && round >= 2) wuc_uthread_yield();
    while (again) {
      wuc_select_node *next = again->rereg_next; /* a new drop rewrites it */
      wuc_wu_clause *c = clause_of(again);
      if (reg(c)) {
        winner = (int)(c - w->cl);
        break;
      }
      again = next;
    }
  }
  /* Step 5 for the losers: one race word, so none of them can complete. */
  for (unsigned i = 0; i < w->n; i++) {
    wuc_wu_clause *c = &w->cl[i];
    if ((int)i == winner || !c->live) continue;
    c->live = false;
    if (unreg(c))
      wuc_fatal("waituntil at %s: a losing clause of an all-or statement completed",
                c->__wuc_node.site ? c->__wuc_node.site : "?");
  }
  return (unsigned)winner;
}

/* The live (or pending) clauses in source order: the bits of the mask for
 * the first WUC_WU_MASK_BITS, the clauses' flags after them.  The mask is
 * a copy, taken when the walk starts: a walk may clear the bit of the
 * clause it is at, never one ahead of it. */
typedef struct walk {
  uint64_t bits;  /* clauses below WUC_WU_MASK_BITS not yet visited */
  unsigned after; /* the next clause from WUC_WU_MASK_BITS on to look at */
  bool pending;
} walk;
enum { NONE = -1 };
static inline walk walk_live(const wuc_wu *w) {
  return (walk){w->live_bits, WUC_WU_MASK_BITS, false};
}
static inline int walk_next(const wuc_wu *w, walk *k) {
  if (k->bits) {
    int i = __builtin_ctzll(k->bits);
    k->bits &= k->bits - 1;
    return i;
  }
  while (k->after < w->n) {
    unsigned i = k->after++;
    if (k->pending ? w->cl[i].pending : w->cl[i].live) return (int)i;
  }
  return NONE;
}
static inline uint64_t bit(unsigned i) { return i < WUC_WU_MASK_BITS ? (uint64_t)1 << i : 0; }
static inline void set_live(wuc_wu *w, unsigned i) {
  w->cl[i].live = true;
  w->live_bits |= bit(i);
}
static inline void clear_live(wuc_wu *w, unsigned i) {
  w->cl[i].live = false;
  w->live_bits &= ~bit(i);
}

/* The statement's part is over: nothing is live, so its exit (wuc_wu_exit)
 * has nothing to walk. */
static int finish(wuc_wu *w, int how) {
  w->n = 0;
  return how;
}

/* Clause i completed as it registered: its body runs now, before the
 * clauses after it register.  So that their timeouts still count from the
 * statement's first step (docs/language.md, "The timeout clock"), the
 * clock is read here, once, if one of them is a timeout (a timeout that
 * registers to wait reads it itself otherwise). */
static int first_done(wuc_wu *w, unsigned i) {
  if (w->s.clock == 0 && !w->try_only) {
    for (unsigned j = i + 1; j < w->n; j++) {
      if (w->cl[j].enabled && (w->cl[j].ops->flags & WUC_SELECTABLE_TIMEOUT)) {
        (void)wuc_select_stmt_clock(&w->s);
        break;
      }
    }
  }
  wuc_wu_clause *c = &w->cl[i];
  if (selected(c)) return (int)i;
  clear_live(w, i);
  (void)unreg(c);
  c->__wuc_ran = true;
  return WUC_WU_RECOMPUTE;
}

/* Step 5 for live clause i, no longer needed. */
static void withdraw(wuc_wu *w, unsigned i) {
  wuc_wu_clause *c = &w->cl[i];
  clear_live(w, i);
  if (unreg(c) && selected(c)) {
    c->pending = true;
    w->pending_bits |= bit(i);
  }
}

bool wuc_wu_mixed_withdraw(wuc_wu *w, uint64_t drop) {
  for (; drop; drop &= drop - 1) withdraw(w, (unsigned)__builtin_ctzll(drop));
  return w->pending_bits != 0;
}

int wuc_wu_mixed_step_slow(wuc_wu *w, bool satisfied) {
  /* The predicate's verdicts where the resources' on_selected reads them,
   * then step 5 for live clauses the tree no longer needs: one that
   * completed all the same runs its body if its resource says so (a
   * channel's transfer happened; a lock's unreg has released it already).
   * Every withdrawal happens before the first pending body, in source
   * order, is returned.  (Clauses not yet registered take their verdict
   * when they register; those no longer live are past needing one.) */
  walk k = walk_live(w);
  for (int i; (i = walk_next(w, &k)) != NONE;) {
    wuc_wu_clause *c = &w->cl[i];
    c->__wuc_node.needed = c->__wuc_needed;
    if (!c->__wuc_needed) withdraw(w, (unsigned)i);
  }
  walk pk = {w->pending_bits, WUC_WU_MASK_BITS, true};
  int p = walk_next(w, &pk);
  if (p != NONE) {
    w->cl[p].pending = false;
    w->pending_bits &= ~bit((unsigned)p);
    return p;
  }
  /* Every live clause is needed from here on: the verdicts do not change
   * before the next step. */
  for (;;) {
    /* Step 2, on the first calls: register the needed clauses in source
     * order, and run a body as soon as its clause completes. */
    for (unsigned i = w->next_reg, n = w->n; i < n; i++) {
      wuc_wu_clause *c = &w->cl[i];
      if (!c->enabled || !c->__wuc_needed) continue;
      bool try_only = w->try_only;
      c->__wuc_node.needed = true;
      c->__wuc_node.try_only = try_only;
      set_live(w, i);
      if (reg(c)) {
        w->next_reg = i + 1;
        return first_done(w, i);
      }
      if (try_only) clear_live(w, i); /* a try queues nothing */
    }
    w->next_reg = w->n;
    /* Clauses a channel set aside and handed back (they met a clause of
     * this statement, docs/select.md): register them again.  One that
     * completes is DONE, and the scan below runs it. */
    /* (A plain load first: a node deferred after it also unparks this
     * thread, so the wait below returns at once and the next round takes
     * it; the exchange is a locked instruction.) */
    wuc_select_node *again = NULL;
    if (atomic_load_explicit(&w->s.deferred, memory_order_acquire))
      again = wuc_select_take_deferred(&w->s);
    while (again) {
      wuc_select_node *next = again->rereg_next;
      wuc_wu_clause *c = clause_of(again);
      if (c->live && c->__wuc_node.needed) (void)reg(c);
      again = next;
    }
    /* Step 3: completed clauses, in source order; the same look at each
     * node finds the first one CLAIMED, for the wait below. */
    bool any_live = false;
    wuc_select_node *claimed = NULL;
    k = walk_live(w);
    for (int i; (i = walk_next(w, &k)) != NONE;) {
      wuc_wu_clause *c = &w->cl[i];
      any_live = true;
      int status = atomic_load(&c->__wuc_node.status);
      if (status == WUC_CLAUSE_CLAIMED && !claimed) claimed = &c->__wuc_node;
      if (status != WUC_CLAUSE_DONE) continue;
      if (selected(c)) return i;
      clear_live(w, (unsigned)i);
      (void)unreg(c);
      c->__wuc_ran = true;
      return WUC_WU_RECOMPUTE;
    }
    if (satisfied && !any_live) return finish(w, WUC_WU_END);
    if (w->try_only) return finish(w, WUC_WU_ELSE); /* nothing is queued: nothing to withdraw */
    if (!any_live) wuc_fatal("waituntil: internal error: a statement can no longer be satisfied");
    /* Parks until a node may have changed, but never while a live node is
     * CLAIMED or DONE (none was DONE above).  Claimers' unparks collapse
     * into the one permit: a node CLAIMED now may have had its unpark spent
     * on an earlier park, so parking could wait forever (found by the model
     * check, test/model); it is waited out (CLAIMED -> DONE takes a few
     * instructions) and the statement scans again.  A node that was
     * WAITING when it was looked at is claimed, and its thread unparked,
     * after that look: the park returns. */
    wuc_select_wait_any(&w->s, claimed, claimed ? 1 : 0);
  }
}

void wuc_wu_cleanup(wuc_wu *w) {
  for (unsigned i = 0; i < w->n; i++) {
    wuc_wu_clause *c = &w->cl[i];
    if (!c->live) continue;
    c->live = false;
    c->__wuc_node.needed = false;
    /* A receive that completed keeps its element: into its target. */
    if (unreg(c) && c->convert_to)
      wuc_wu_convert(c->convert_to, c->convert_to_kind, c->__wuc_node.data, c->convert_from_kind);
  }
}

/* ---- clause families ------------------------------------------------ */

/* A heap block: the list link, then the data (16-byte aligned, as malloc's). */
typedef struct block {
  struct block *next;
  char pad[8];
  _Alignas(16) char data[];
} block;

void *wuc_wu_grow(wuc_wu_storage *st, const void *old, unsigned count, unsigned cap, size_t size) {
  if (size && cap > (SIZE_MAX - sizeof(block)) / size) cap = 0; /* cannot be allocated */
  block *b = cap ? malloc(sizeof(block) + (size_t)cap * size) : NULL;
  if (!b)
    wuc_fatal("waituntil at %s: cannot allocate the nodes of a clause family (%u elements of %zu "
              "bytes): out of memory",
              st->site ? st->site : "?", cap, size);
  b->next = st->blocks;
  st->blocks = b;
  if (count) memcpy(b->data, old, (size_t)count * size);
  return b->data;
}

/* The sizes families had when they last grew, per worker thread, by site:
 * a direct-mapped table (a collision only costs a doubling more). */
enum { HINTS = 64 };
static __thread struct {
  const char *site;
  unsigned n;
} hints[HINTS]; /* the default TLS model: 1 KiB, not taken from the static TLS a dlopened libwuc
                   needs */

static unsigned hint_slot(const char *site) {
  return (unsigned)(((uintptr_t)site >> 3) * 0x9e3779b1u >> 26) % HINTS;
}

void wuc_wu_family_grew(const char *site, unsigned n) {
  unsigned k = hint_slot(site);
  hints[k].site = site;
  hints[k].n = n;
}

unsigned wuc_wu_next_cap(wuc_wu_storage *st, unsigned cap, const char *site) {
  if (cap == WUC_WU_FAMILY_FRAME && site) {
    unsigned k = hint_slot(site);
    if (hints[k].site == site && hints[k].n > 2 * cap && hints[k].n < 1u << 31) return hints[k].n;
  }
  if (cap >= 1u << 31)
    wuc_fatal("waituntil at %s: a clause family has more than 2^31 elements",
              st->site ? st->site : "?");
  return cap * 2;
}

void *wuc_wu_grow_family(wuc_wu_storage *st, wuc_wu *w, unsigned at, const void *old,
                         unsigned count, unsigned cap, size_t size) {
  char *to = wuc_wu_grow(st, old, count, cap, size);
  uintptr_t from = (uintptr_t)old, end = from + (uintptr_t)count * size;
  for (unsigned j = 0; j < count; j++) {
    wuc_wu_clause *c = &w->cl[at + j];
    uintptr_t r = (uintptr_t)c->res, d = (uintptr_t)c->__wuc_node.data;
    if (r >= from && r < end) c->res = to + (r - from);
    if (d >= from && d < end) c->__wuc_node.data = to + (d - from);
  }
  return to;
}

void wuc_wu_reserve_slow(wuc_wu_storage *st, wuc_wu *w, unsigned need) {
  unsigned cap = st->cap;
  while (cap < need) cap = wuc_wu_next_cap(st, cap, NULL);
  /* Before registration: the nodes hold only their data and site so far, so
   * a copy is the clause. */
  w->cl = wuc_wu_grow(st, w->cl, w->n, cap, sizeof(wuc_wu_clause));
  st->cap = cap;
}

void wuc_wu_storage_free(wuc_wu_storage *st) {
  for (block *b = st->blocks; b;) {
    block *next = b->next;
    free(b);
    b = next;
  }
  st->blocks = NULL;
}

int wuc_wu_try_fair_storage(wuc_wu *w, wuc_wu_storage *st) {
  unsigned frame[64];
  unsigned *order = w->n <= 64 ? frame : wuc_wu_grow(st, NULL, 0, w->n, sizeof(unsigned));
  return wuc_wu_try_fair(w, order);
}

bool wuc_wu_family_satisfied(const wuc_wu *w, unsigned at, unsigned n, bool all) {
  for (unsigned j = 0; j < n; j++)
    if (w->cl[at + j].__wuc_ran != all) return !all;
  return all;
}

void wuc_wu_family_need(wuc_wu *w, unsigned at, unsigned n, bool done) {
  for (unsigned j = 0; j < n; j++) w->cl[at + j].__wuc_needed = !done && !w->cl[at + j].__wuc_ran;
}

/* Loads as the widest type of the kind's family, stores with a C cast: the
 * same result as the assignment the generated code does on its normal path. */
#define STORE_(to, to_kind, v)                                                                     \
  switch (to_kind) {                                                                               \
  case WUC_WU_K_BOOL:                                                                              \
    *(bool *)(to) = (v) != 0;                                                                      \
    break;                                                                                         \
  case WUC_WU_K_I8:                                                                                \
    *(int8_t *)(to) = (int8_t)(v);                                                                 \
    break;                                                                                         \
  case WUC_WU_K_U8:                                                                                \
    *(uint8_t *)(to) = (uint8_t)(v);                                                               \
    break;                                                                                         \
  case WUC_WU_K_I16:                                                                               \
    *(int16_t *)(to) = (int16_t)(v);                                                               \
    break;                                                                                         \
  case WUC_WU_K_U16:                                                                               \
    *(uint16_t *)(to) = (uint16_t)(v);                                                             \
    break;                                                                                         \
  case WUC_WU_K_I32:                                                                               \
    *(int32_t *)(to) = (int32_t)(v);                                                               \
    break;                                                                                         \
  case WUC_WU_K_U32:                                                                               \
    *(uint32_t *)(to) = (uint32_t)(v);                                                             \
    break;                                                                                         \
  case WUC_WU_K_I64:                                                                               \
    *(int64_t *)(to) = (int64_t)(v);                                                               \
    break;                                                                                         \
  case WUC_WU_K_U64:                                                                               \
    *(uint64_t *)(to) = (uint64_t)(v);                                                             \
    break;                                                                                         \
  case WUC_WU_K_F32:                                                                               \
    *(float *)(to) = (float)(v);                                                                   \
    break;                                                                                         \
  case WUC_WU_K_F64:                                                                               \
    *(double *)(to) = (double)(v);                                                                 \
    break;                                                                                         \
  case WUC_WU_K_F80:                                                                               \
    *(long double *)(to) = (long double)(v);                                                       \
    break;                                                                                         \
  default:                                                                                         \
    wuc_fatal("waituntil: cannot convert a received element (kind %d)", to_kind);                  \
  }

void wuc_wu_convert(void *to, int to_kind, const void *from, int from_kind) {
  switch (from_kind) {
  case WUC_WU_K_POINTER:
    if (to_kind == WUC_WU_K_BOOL)
      *(bool *)to = *(void *const *)from != NULL;
    else
      memcpy(to, from, sizeof(void *)); /* pointer conversions keep the representation */
    return;
  case WUC_WU_K_F32:
    STORE_(to, to_kind, *(const float *)from);
    return;
  case WUC_WU_K_F64:
    STORE_(to, to_kind, *(const double *)from);
    return;
  case WUC_WU_K_F80:
    STORE_(to, to_kind, *(const long double *)from);
    return;
  case WUC_WU_K_U64:
    STORE_(to, to_kind, *(const uint64_t *)from);
    return;
  case WUC_WU_K_U32:
    STORE_(to, to_kind, *(const uint32_t *)from);
    return;
  case WUC_WU_K_U16:
    STORE_(to, to_kind, *(const uint16_t *)from);
    return;
  case WUC_WU_K_U8:
    STORE_(to, to_kind, *(const uint8_t *)from);
    return;
  case WUC_WU_K_BOOL:
    STORE_(to, to_kind, *(const bool *)from);
    return;
  case WUC_WU_K_I64:
    STORE_(to, to_kind, *(const int64_t *)from);
    return;
  case WUC_WU_K_I32:
    STORE_(to, to_kind, *(const int32_t *)from);
    return;
  case WUC_WU_K_I16:
    STORE_(to, to_kind, *(const int16_t *)from);
    return;
  case WUC_WU_K_I8:
    STORE_(to, to_kind, *(const int8_t *)from);
    return;
  default:
    wuc_fatal("waituntil: cannot convert a received element (kind %d)", from_kind);
  }
}
