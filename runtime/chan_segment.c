/* chan_segment.c — the segment list of a channel (see chan_segment.h). */
#include "chan_segment.h"

#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "spin.h"

/* counts: the low half cleaned + (head pointers << 16), the high half the
 * pins (registered clauses) + PINS_RETIRED once the grace period is over. */
#define POINTER_UNIT WUC_SEGMENT_POINTER_UNIT
#define PIN_UNIT (UINT64_C(1) << 32)
#define PINS_RETIRED (UINT64_C(1) << 63)

static inline uint32_t cleaned_and_pointers(uint64_t counts) { return (uint32_t)counts; }
static inline uint64_t pins(uint64_t counts) { return counts >> 32; }
/* Whether an unpin that found `counts` took the last pin of a segment whose
 * grace period is over: then it frees the segment. */
static inline bool last_pin_after_grace(uint64_t counts) {
  return pins(counts) == (PINS_RETIRED >> 32 | 1);
}

struct wuc_chan_segment *wuc_chan_segment_new(uint64_t id, struct wuc_chan_segment *prev,
                                              size_t elem_size) {
  size_t bytes = sizeof(struct wuc_chan_segment) + WUC_SEGMENT_SIZE * elem_size;
  /* From the worker's pool (or malloc, not calloc: glibc's calloc bypasses
   * its per-thread cache).  Only the header and the cells need zeroes: an
   * element is written before the cell state that publishes it. */
  struct segment_pool_tag tag;
  struct wuc_chan_segment *s = wuc_segment_pool_alloc(bytes, &tag);
  if (!s) wuc_fatal("out of memory allocating a channel segment (%zu bytes)", bytes);
  memset(s, 0, sizeof *s);
  s->id = id;
  s->prev = prev;
  s->pool = tag;
  return s;
}

void wuc_chan_segment_free(struct wuc_chan_segment *s) { wuc_segment_pool_free(s, s->pool); }

static inline bool is_tail(struct wuc_chan_segment *s) { return atomic_load(&s->next) == NULL; }

/* A segment is removed once every cell is cleaned and no head pointer is on
 * it; the tail never is (a new segment is appended after it first). */
static inline bool removed(struct wuc_chan_segment *s) {
  return chan_segment_removed(s) && !is_tail(s);
}

/* ---- the maintenance lock: unlinking and retiring ------------------------ */

static void maintenance_lock(wuc_chan *ch) { wuc_spin_lock(&ch->maintenance_lock); }
static bool maintenance_trylock(wuc_chan *ch) { return wuc_spin_trylock(&ch->maintenance_lock); }
static void maintenance_unlock(wuc_chan *ch) { wuc_spin_unlock(&ch->maintenance_lock); }

/* Frees s now unless a registered clause or a kept pin still pins it (its
 * last unpin frees it).  Only for a segment no new pin can reach: pins are
 * taken inside critical sections, so after the grace period (or with the
 * channel destroyed) none can come, and with none held a load decides
 * without the read-modify-write. */
static void free_unless_pinned(struct wuc_chan_segment *s) {
  if (pins(atomic_load(&s->counts)) == 0 || pins(atomic_fetch_or(&s->counts, PINS_RETIRED)) == 0)
    wuc_chan_segment_free(s);
}

static void segment_free_after_grace(wuc_retired *r) {
  free_unless_pinned(
      (struct wuc_chan_segment *)((char *)r - offsetof(struct wuc_chan_segment, retired)));
}

/* Unlinks s (under the lock) and hands it to the reclaimer. */
static void unlink_locked(wuc_chan *ch, struct wuc_chan_segment *s) {
  if (s->unlinked) return;
  s->unlinked = true;
  struct wuc_chan_segment *next = atomic_load(&s->next);
  if (s->prev)
    atomic_store(&s->prev->next, next);
  else
    ch->oldest = next;
  next->prev = s->prev;
  wuc_retire(&s->retired, segment_free_after_grace);
}

static void remove_segment(wuc_chan *ch, struct wuc_chan_segment *s) {
  maintenance_lock(ch);
  if (removed(s)) unlink_locked(ch, s);
  maintenance_unlock(ch);
}

void wuc_chan_segment_cell_cleaned(wuc_chan *ch, struct wuc_chan_segment *s) {
  if (cleaned_and_pointers(atomic_fetch_add(&s->counts, 1)) + 1 == WUC_SEGMENT_SIZE && !is_tail(s))
    remove_segment(ch, s);
}

void wuc_chan_segment_cell_cleaned_unpin(wuc_chan *ch, struct wuc_chan_segment *s) {
  uint64_t v = atomic_load(&s->counts);
  do {
    if (cleaned_and_pointers(v) + 1 == WUC_SEGMENT_SIZE) {
      /* The last cell: s may be removed, which needs the pin kept meanwhile. */
      wuc_chan_segment_cell_cleaned(ch, s);
      wuc_chan_segment_unpin(s);
      return;
    }
  } while (!atomic_compare_exchange_weak(&s->counts, &v, v + 1 - PIN_UNIT));
  if (last_pin_after_grace(v)) wuc_chan_segment_free(s);
}

/* The id of the segment the rearmost head pointer is on. */
static uint64_t rearmost_head_id(wuc_chan *ch) {
  uint64_t min = atomic_load(&ch->send_segment)->id;
  uint64_t r = atomic_load(&ch->receive_segment)->id;
  if (r < min) min = r;
  struct wuc_chan_segment *b = atomic_load(&ch->buffer_end_segment);
  if (b && b->id < min) min = b->id;
  return min;
}

void wuc_chan_retire_passed_segments(wuc_chan *ch) {
  if (!maintenance_trylock(ch)) return; /* whoever holds it will get there */
  uint64_t min = rearmost_head_id(ch);
  while (ch->oldest->id < min) {
    struct wuc_chan_segment *s = ch->oldest;
    struct wuc_chan_segment *next = atomic_load(&s->next); /* not NULL: s is behind a head */
    ch->oldest = next;
    next->prev = NULL;
    if (!s->unlinked) {
      s->unlinked = true;
      wuc_retire(&s->retired, segment_free_after_grace);
    }
  }
  maintenance_unlock(ch);
}

/* ---- head pointers --------------------------------------------------------- */

static bool try_inc_pointers(struct wuc_chan_segment *s) {
  uint64_t v = atomic_load(&s->counts);
  do {
    /* removed: stays removed */
    if (cleaned_and_pointers(v) == WUC_SEGMENT_SIZE && !is_tail(s)) return false;
  } while (!atomic_compare_exchange_weak(&s->counts, &v, v + POINTER_UNIT));
  return true;
}

/* Returns true if s became removable. */
static bool dec_pointers(struct wuc_chan_segment *s) {
  return cleaned_and_pointers(atomic_fetch_sub(&s->counts, POINTER_UNIT) - POINTER_UNIT) ==
             WUC_SEGMENT_SIZE &&
         !is_tail(s);
}

/* Moves *head forward to `to` (never backward).  False if `to` was removed. */
static bool move_forward(wuc_chan *ch, _Atomic(struct wuc_chan_segment *) *head,
                         struct wuc_chan_segment *to) {
  for (;;) {
    struct wuc_chan_segment *cur = atomic_load(head);
    if (cur->id >= to->id) return true;
    if (!try_inc_pointers(to)) return false;
    if (atomic_compare_exchange_strong(head, &cur, to)) {
      if (dec_pointers(cur)) remove_segment(ch, cur);
      /* Segments are passed in order: while another head is still on cur
       * or behind it, the head that leaves last retires them (the lock's
       * locked instruction is saved on every other move). */
      if (rearmost_head_id(ch) > cur->id) wuc_chan_retire_passed_segments(ch);
      return true;
    }
    if (dec_pointers(to)) remove_segment(ch, to);
  }
}

struct wuc_chan_segment *wuc_chan_find_segment(wuc_chan *ch,
                                               _Atomic(struct wuc_chan_segment *) *head,
                                               struct wuc_chan_segment *start, uint64_t id) {
  struct wuc_chan_segment *cur = start;
  for (;;) {
    while (cur->id < id || removed(cur)) {
      struct wuc_chan_segment *next = atomic_load(&cur->next);
      if (!next) {
        struct wuc_chan_segment *fresh = wuc_chan_segment_new(cur->id + 1, cur, ch->elem_size);
        struct wuc_chan_segment *expected = NULL;
        if (atomic_compare_exchange_strong(&cur->next, &expected, fresh)) {
          /* cur stopped being the tail: it may be removable now. */
          if (removed(cur)) remove_segment(ch, cur);
          next = fresh;
        } else {
          wuc_chan_segment_free(fresh); /* never published */
          next = expected;
        }
      }
      cur = next;
    }
    if (move_forward(ch, head, cur)) return cur;
    /* cur was removed meanwhile; its `next` still leads on. */
  }
}

void wuc_chan_advance_head(wuc_chan *ch, _Atomic(struct wuc_chan_segment *) *head,
                           struct wuc_chan_segment *start, uint64_t id) {
  struct wuc_chan_segment *cur = start, *next;
  while (cur->id < id && (next = atomic_load(&cur->next))) cur = next;
  if (!removed(cur)) move_forward(ch, head, cur); /* a failure only means cur went away */
}

/* ---- pins for registered clauses ------------------------------------------- */

void wuc_chan_segment_pin(struct wuc_chan_segment *s) { atomic_fetch_add(&s->counts, PIN_UNIT); }

void wuc_chan_segment_unpin(struct wuc_chan_segment *s) {
  if (last_pin_after_grace(atomic_fetch_sub(&s->counts, PIN_UNIT))) wuc_chan_segment_free(s);
}

bool wuc_chan_segment_pin_clause(struct wuc_kept_pin *kept, struct wuc_chan_segment *s) {
  if (kept->segment == s) {
    kept->users++;
    return false;
  }
  wuc_chan_segment_pin(s);
  return true;
}

void wuc_chan_segment_unpin_clause(wuc_chan *ch, struct wuc_kept_pin *kept,
                                   struct wuc_chan_segment *s, bool own, bool cleaned) {
  if (!own) {
    kept->users--;
    if (cleaned) wuc_chan_segment_cell_cleaned(ch, s);
  } else if (cleaned) {
    /* Not kept: one update for both beats a cleaning and the old kept pin's unpin. */
    wuc_chan_segment_cell_cleaned_unpin(ch, s);
  } else if (kept->users == 0) {
    struct wuc_chan_segment *old = kept->segment;
    kept->segment = s; /* this pin is the thread's now */
    if (old) wuc_chan_segment_unpin(old);
  } else {
    wuc_chan_segment_unpin(s);
  }
}

void wuc_chan_segment_drop_kept(struct wuc_kept_pin *kept) {
  if (kept->segment) wuc_chan_segment_unpin(kept->segment);
  kept->segment = NULL;
}

void wuc_chan_free_all_segments(wuc_chan *ch) {
  struct wuc_chan_segment *s = ch->oldest;
  while (s) {
    struct wuc_chan_segment *next = atomic_load(&s->next);
    free_unless_pinned(s); /* a thread's kept pin may hold it */
    s = next;
  }
  ch->oldest = NULL;
}
