/* chan_segment.h — the infinite array of channel cells, as a list of segments.
 *
 * A channel's cells are numbered 0, 1, 2, …; cell i lives in segment
 * i / WUC_SEGMENT_SIZE at offset i % WUC_SEGMENT_SIZE (arXiv 2211.04986, §3.3).
 * Segments are created on demand at the tail and linked forward by `next`.
 *
 * Three head pointers walk the list: the send, receive and buffer-end
 * segments (the last only for buffered channels).  A segment counts how
 * many of them point at it, and how many of its cells are *cleaned*
 * (interrupted: nobody will ever use them again).  A segment whose cells
 * are all cleaned and that no head pointer references is *removed*: it is
 * unlinked in O(1) (prev/next), so a channel whose waiters keep withdrawing
 * (losing waituntil clauses) does not keep a trail of dead segments.  Once
 * removed, a segment never gets a pointer again (try_inc_pointers fails).
 *
 * Concurrency.  Finding a segment, appending one and moving a head pointer
 * are lock-free (CAS), as in Kotlin's ConcurrentLinkedList.  The rare
 * structural work — unlinking a removed segment, and retiring the segments
 * that every head pointer has passed — is serialised by a per-channel
 * maintenance lock, so concurrent unlinks cannot leave a live segment
 * pointing at a dead one (Kotlin leans on the garbage collector there; C
 * cannot).  A reader that holds a segment keeps following its `next`, which
 * an unlink never changes.
 *
 * Memory.  Unlinked segments are freed through reclaim.h (no worker may
 * still be inside one).  A waituntil clause registered in a cell can outlive
 * that, parked across scheduling points, so it pins the segment (the high
 * half of `counts`): the segment is freed when both the grace period has
 * passed and the last such clause has left. */
#ifndef WUC_RUNTIME_CHAN_SEGMENT_H
#define WUC_RUNTIME_CHAN_SEGMENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>

#include "reclaim.h"
#include "segment_pool.h"

#define WUC_SEGMENT_SIZE 32

struct wuc_chan_segment {
  uint64_t id;
  _Atomic(struct wuc_chan_segment *) next;
  struct wuc_chan_segment *prev; /* under the maintenance lock */
  /* Two counts in one word, so that a withdrawn clause updates both with
   * one read-modify-write (wuc_chan_segment_cell_cleaned_unpin).  The low
   * half: cleaned cells + (head pointers << 16), removed when it is
   * WUC_SEGMENT_SIZE.  The high half: registered waituntil clauses (pins),
   * plus a flag once the grace period is over. */
  _Atomic uint64_t counts;
  bool unlinked;                /* under the maintenance lock */
  struct segment_pool_tag pool; /* where its memory came from */
  wuc_retired retired;
  _Atomic uintptr_t cells[WUC_SEGMENT_SIZE];
  _Alignas(16) unsigned char elements[];
};

struct wuc_chan_segment *wuc_chan_segment_new(uint64_t id, struct wuc_chan_segment *prev,
                                              size_t elem_size);

static inline void *chan_segment_element(struct wuc_chan_segment *s, unsigned i, size_t elem_size) {
  return s->elements + (size_t)i * elem_size;
}

#define WUC_SEGMENT_POINTER_UNIT (UINT64_C(1) << 16)

static inline bool chan_segment_removed(struct wuc_chan_segment *s) {
  return (uint32_t)atomic_load(&s->counts) == WUC_SEGMENT_SIZE;
}

/* The first segment at or after `start` whose id is >= id and that is not
 * removed, appending segments as needed; then moves *head forward to it.
 * Returns NULL only when a racing removal made the move fail: retry. */
struct wuc_chan_segment *wuc_chan_find_segment(wuc_chan *ch,
                                               _Atomic(struct wuc_chan_segment *) *head,
                                               struct wuc_chan_segment *start, uint64_t id);

/* Moves *head forward towards segment `id` through segments that already
 * exist (never appends), starting at `start`. */
void wuc_chan_advance_head(wuc_chan *ch, _Atomic(struct wuc_chan_segment *) *head,
                           struct wuc_chan_segment *start, uint64_t id);

/* One more cell of s is cleaned (interrupted); removes s when it is the last. */
void wuc_chan_segment_cell_cleaned(wuc_chan *ch, struct wuc_chan_segment *s);

/* wuc_chan_segment_cell_cleaned, then wuc_chan_segment_unpin, as one update
 * unless this cell is the segment's last. */
void wuc_chan_segment_cell_cleaned_unpin(wuc_chan *ch, struct wuc_chan_segment *s);

/* Pin / unpin s for a registered waituntil clause. */
void wuc_chan_segment_pin(struct wuc_chan_segment *s);
void wuc_chan_segment_unpin(struct wuc_chan_segment *s);

/* Kept pins.  A waiting loop registers its clause in the same segment up to
 * 32 times in a row; each registration pinning and each withdrawal
 * unpinning costs two read-modify-writes per waiting statement.  So a
 * thread keeps the pin of the last clause that let go of one while no other
 * clause of its used the kept pin, and a clause registered in that segment
 * shares it.  A kept pin is let go when a later clause's pin replaces it,
 * and when the thread ends; meanwhile it keeps a segment of a channel long
 * gone (chan_destroy frees a pinned segment at its last unpin) — at most
 * one segment per thread.  Only the thread itself touches its kept pin.
 * Invariant: kept->segment, if any, holds one pin of the thread's, and
 * kept->users counts the registered clauses that rely on it. */
struct wuc_kept_pin {
  struct wuc_chan_segment *segment;
  unsigned users;
};

/* Pins s for a clause of the thread keeping `kept`: false when the clause
 * shares the kept pin, true when it took a pin of its own. */
bool wuc_chan_segment_pin_clause(struct wuc_kept_pin *kept, struct wuc_chan_segment *s);

/* Lets go of a clause's pin on s (`own`: as its pin returned), keeping it
 * for the thread when it can; with `cleaned`, one more cell of s is
 * cleaned too (in one update with the unpin when the pin is not kept). */
void wuc_chan_segment_unpin_clause(wuc_chan *ch, struct wuc_kept_pin *kept,
                                   struct wuc_chan_segment *s, bool own, bool cleaned);

/* The thread ends: lets go of its kept pin. */
void wuc_chan_segment_drop_kept(struct wuc_kept_pin *kept);

/* Retires the segments every head pointer has passed. */
void wuc_chan_retire_passed_segments(wuc_chan *ch);

/* Gives s's memory back (to the pool it came from). */
void wuc_chan_segment_free(struct wuc_chan_segment *s);

/* Frees every segment of a channel nobody uses any more (chan_destroy). */
void wuc_chan_free_all_segments(wuc_chan *ch);

#endif
