/* chan_cell.h — a channel's cells as the channel's files share them: the
 * cell states, the tags on a waiter in a cell, the closed bit of S, and the
 * one walk over a range of cells.  The algorithm that moves cells between
 * these states is channel.c; the closed(ch) watchers are chan_closed.c.
 *
 * Cell states (the names of the Kotlin channels paper, "Fast and Scalable
 * Channels in Kotlin Coroutines", arXiv 2211.04986, with Kotlin's
 * refinements):
 *
 *   EMPTY              nobody has touched the cell
 *   waiter             a suspended operation: a waituntil clause's
 *                      wuc_select_node, or a blocking chan_send/chan_recv's
 *                      thread waiter (tagged WAITER_THREAD); tagged
 *                      WAITER_SENDER for a sender; WAITER_EB when
 *                      expandBuffer passed a sender it could not resume yet
 *                      (whoever resumes it then expands the buffer)
 *   BUFFERED           an element waits in the cell
 *   IN_BUFFER          expandBuffer made the cell part of the buffer before
 *                      its sender came: the sender will buffer
 *   S_RESUMING_BY_RCV  a receiver is resuming the suspended sender
 *   S_RESUMING_BY_EB   expandBuffer is resuming the suspended sender
 *   R_RESUMING_BY_SND  a sender is resuming the suspended receiver
 *   CLOSING            close is failing the suspended waiter
 *   BROKEN             a receiver found no element where one was due (its
 *                      sender is late) and poisoned the cell; both skip it
 *   DONE               the receiver took the element
 *   INTERRUPTED_SEND   the sender left (withdrawn, gave up, or failed by close)
 *   INTERRUPTED_RCV    the receiver left (withdrawn, or gave up)
 *   CLOSED             close marked a cell no sender will ever reach
 *
 * Settled (no element, and nobody will ever put one there): INTERRUPTED_SEND,
 * BROKEN, DONE, INTERRUPTED_RCV.  The four *_RESUMING_* / CLOSING states are
 * busy: whoever holds one is using the waiter's node and writes the final
 * state when done with it. */
#ifndef WUC_RUNTIME_CHAN_CELL_H
#define WUC_RUNTIME_CHAN_CELL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>
#include <wuc/select.h>

#include "chan_segment.h"
#include "spin.h"

enum cell_state {
  CELL_EMPTY = 0,
  CELL_BUFFERED = 16,
  CELL_IN_BUFFER = 32,
  CELL_S_RESUMING_BY_RCV = 48,
  CELL_S_RESUMING_BY_EB = 64,
  CELL_BROKEN = 80,
  CELL_DONE = 96,
  CELL_INTERRUPTED_SEND = 112,
  CELL_INTERRUPTED_RCV = 128,
  CELL_CLOSED = 144,
  CELL_R_RESUMING_BY_SND = 160,
  CELL_CLOSING = 176,
};
/* Waiter pointers are far above every state constant, and 8-aligned: the
 * low three bits are tags. */
#define WAITER_MIN ((uintptr_t)4096)
#define WAITER_SENDER ((uintptr_t)1)
#define WAITER_EB ((uintptr_t)2)
/* Not a select node: the struct thread_waiter of a blocking chan_send or
 * chan_recv (channel.c), whose claim is the cell's own busy state. */
#define WAITER_THREAD ((uintptr_t)4)
#define WAITER_TAGS (WAITER_SENDER | WAITER_EB | WAITER_THREAD)

#define CLOSED_BIT (UINT64_C(1) << 63)

static inline bool is_waiter(uintptr_t state) { return state >= WAITER_MIN; }
static inline bool is_busy(uintptr_t state) {
  return state == CELL_S_RESUMING_BY_RCV || state == CELL_S_RESUMING_BY_EB ||
         state == CELL_R_RESUMING_BY_SND || state == CELL_CLOSING;
}
static inline bool is_settled(uintptr_t state) {
  return state == CELL_INTERRUPTED_SEND || state == CELL_BROKEN || state == CELL_DONE ||
         state == CELL_INTERRUPTED_RCV;
}
static inline bool is_thread_waiter(uintptr_t state) { return state & WAITER_THREAD; }
/* The waiter without its tags: what a waiter compares itself with. */
static inline void *waiter_ptr(uintptr_t state) { return (void *)(state & ~WAITER_TAGS); }
/* A waituntil clause's node (!is_thread_waiter(state)). */
static inline wuc_select_node *waiter_node(uintptr_t state) {
  return (wuc_select_node *)waiter_ptr(state);
}

static inline _Atomic uintptr_t *cell(struct wuc_chan_segment *seg, uint64_t index) {
  return &seg->cells[index % WUC_SEGMENT_SIZE];
}

/* S at close: sends beyond it still bump S (they fail right after their
 * fetch-and-add), but no element will ever come from them.  Close publishes
 * the point (plus one, so that 0 means "not yet") right after setting the
 * closed bit; only call this once the bit is seen. */
static inline uint64_t close_point(wuc_chan *ch) {
  uint64_t published;
  while ((published = atomic_load_explicit(&ch->close_point, memory_order_acquire)) == 0)
    cpu_relax(); /* close is between two stores */
  return published - 1;
}

/* The walk over cells [from, to) that close, the closed(ch) check and the
 * inspection calls share.  Segments whose cells were all cleaned are gone
 * from the list: the walk skips their indices.
 *
 *   for (struct cell_walk w = cell_walk_start(seg, from, to); cell_walk_next(&w);)
 *     ... w.index, w.cell ...
 *   if (w.ran_out) ... the segment of w.index does not exist yet ...
 *
 * The walker must keep its segments from being freed (it is not quiescent:
 * reclaim.h). */
struct cell_walk {
  struct wuc_chan_segment *seg;
  uint64_t index, to;
  _Atomic uintptr_t *cell;
  bool started, ran_out;
};

static inline struct cell_walk cell_walk_start(struct wuc_chan_segment *seg, uint64_t from,
                                               uint64_t to) {
  return (struct cell_walk){.seg = seg, .index = from, .to = to};
}

static inline bool cell_walk_next(struct cell_walk *w) {
  if (w->started) w->index++;
  w->started = true;
  if (w->index >= w->to) return false;
  uint64_t id = w->index / WUC_SEGMENT_SIZE;
  while (w->seg->id < id) {
    struct wuc_chan_segment *next = atomic_load(&w->seg->next);
    if (!next) {
      w->ran_out = true;
      return false;
    }
    w->seg = next;
  }
  if (w->seg->id > id) { /* removed segments: all their cells were cleaned */
    w->index = w->seg->id * WUC_SEGMENT_SIZE;
    if (w->index >= w->to) return false;
  }
  w->cell = cell(w->seg, w->index);
  return true;
}

enum chan_state { CHAN_FRESH = 0, CHAN_INITIALISING, CHAN_READY, CHAN_DESTROYED };

void wuc_chan_ready_slow(wuc_chan *ch, size_t elem_size, const char *call);

/* Every call starts here: sets up a zeroed channel on first use, and stops
 * the program on a destroyed channel or a wrong element size. */
static inline void chan_ready(wuc_chan *ch, size_t elem_size, const char *call) {
  if (__builtin_expect(atomic_load_explicit(&ch->state, memory_order_acquire) != CHAN_READY ||
                           ch->elem_size != elem_size,
                       0))
    wuc_chan_ready_slow(ch, elem_size, call);
}

/* closed(ch) clauses (chan_closed.c): an operation that may have settled
 * the last cell of a closed channel tells the watchers. */
void wuc_chan_notify_closed_watchers(wuc_chan *ch);

/* Clauses set aside (chan_aside.c): a waituntil clause that met a clause of
 * its own statement in a cell leaves it and waits on the channel's list
 * until another party takes a cell.  `index` is the cell where they met. */
void wuc_chan_set_aside(wuc_chan *ch, wuc_select_node *n, uint64_t index);
/* Hands every clause set aside, except those of statement `self` (NULL:
 * all), back to its statement. */
void wuc_chan_wake_aside(wuc_chan *ch, const wuc_select_stmt *self);
/* In a clause's unreg: takes n off the list if it is there (waits out a
 * wake in progress). */
void wuc_chan_unset_aside(wuc_chan *ch, wuc_select_node *n);
/* The node word that says whether the node is set aside. */
#define RES_ASIDE 5

/* ch->attention: what an operation's end must look at. */
#define ATTENTION_CLOSED 1u /* close_point is published */
#define ATTENTION_ASIDE 2u  /* the list of clauses set aside is not empty */

/* The test at every operation's end is one load of ch->attention, not of
 * the closed bit in S: S's line belongs to the senders, who write it on
 * every send, and a receiver on another CPU reading it at every receive cost
 * the next send a cache miss (elastic Con at 2 workers spent ~25 ns per
 * element on it).  attention is written rarely (close; a statement meeting
 * itself) and shares its line with fields every operation only reads. */
static inline uint32_t chan_attention(wuc_chan *ch) { return atomic_load(&ch->attention); }

#endif
