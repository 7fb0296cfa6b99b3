/* channel.c — the buffered-channel algorithm of the Kotlin channels paper
 * ("Fast and Scalable Channels in Kotlin Coroutines", Koval, Alistarh and
 * Elizarov, arXiv 2211.04986; Kotlin's BufferedChannel), for rendezvous,
 * buffered and unbounded channels alike.
 *
 * Counters.  S counts send operations begun, R receive operations begun, B is
 * the end of the logical buffer (capacity 0 < C < ∞ only; 0 for rendezvous,
 * "infinite" for unbounded).  Each operation takes its cell by fetch-and-add
 * on its counter: send i and receive i meet in cell i.  A send does not
 * suspend when s < B (room in the buffer) or s < R (a receiver is there or
 * coming); a receive does not suspend when r < S.  The closed status is bit 63
 * of S, so a send learns it with the same fetch-and-add.  The cell states are
 * in chan_cell.h.
 *
 * One cell machine per direction.  update_cell_send and update_cell_receive
 * are the only code that moves a cell on behalf of a send or a receive; who
 * is operating is their `waiter` parameter (as in Kotlin, where a select
 * clause registers through sendImpl(waiter = select)): a try operation that
 * gives its cell up rather than wait, a blocking chan_send/chan_recv (a
 * thread waiter on its own stack, parked directly), or a waituntil clause.
 * They are inlined into each caller, so each kind pays only for its own
 * branches.
 *
 * Busy states.  Nodes live in their threads' frames, not on a garbage-
 * collected heap, so whoever takes a waiter out of its cell to deal with
 * it (resume it, fail it) first moves the cell to one of the four
 * *_RESUMING_* / CLOSING states, and writes the final state only when done
 * with the node.  A waiter withdrawing itself (a waituntil clause that lost,
 * a blocking op that saw close) either takes itself out by CAS or waits
 * out the busy state: after that nobody holds a pointer to its node, and
 * its frame may be reused (Kotlin's algorithm reads the waiter and resumes
 * it in place, which is only safe with a garbage collector).  Whoever resumes a
 * waituntil clause first claims its node (wuc_select_claim), which is what
 * makes it exclusive with the clause's other resources and its withdrawal;
 * a thread waiter is in no other resource, so taking it out of its cell is
 * its claim.  Then the resumer moves the element — into the receiver's
 * target, or out of the cell — and wakes the waiter.  The element a
 * suspended sender offers is stored in its cell.
 *
 * Memory: see chan_segment.h (segments) and reclaim.h.  No operation parks
 * while it holds a segment pointer. */
#include <string.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>
#include <wuc/select.h>
#include <wuc/waituntil.h> /* wuc_wu_recv_early, wuc_wu_send_early */

#include "chan_cell.h"
#include "chan_segment.h"
#include "chan_waiter.h"
#include "fatal.h"
#include "park.h"
#include "scheduler.h"
#include "select_internal.h"
#include "spin.h"

#define UNBOUNDED_B UINT64_MAX

/* A waituntil clause's node's res words, while it is in a cell:
 *   word[RES_RESULT]   what its resumer tells it: WAKE_OK or WAKE_CLOSED
 *   ptr[RES_SEGMENT]   the segment it waits in (pinned)
 *   word[RES_INDEX]    the cell index
 *   ptr[RES_CHAN]      the channel
 *   word[RES_OWN_PIN]  1: the pin is its own; 0: it shares its thread's kept pin */
enum wake_result { WAKE_OK = 1, WAKE_CLOSED = 2 };
enum { RES_RESULT = 0, RES_SEGMENT = 1, RES_INDEX = 2, RES_CHAN = 3, RES_OWN_PIN = 4 };

static inline uint64_t senders_for_receivers(wuc_chan *ch, uint64_t sc) {
  return sc & CLOSED_BIT ? close_point(ch) : sc;
}

static inline uint64_t receivable(wuc_chan *ch) {
  return senders_for_receivers(ch, atomic_load(&ch->senders));
}

static inline bool buffered_channel(const wuc_chan *ch) {
  return ch->capacity != 0 && ch->capacity != WUC_CHAN_UNBOUNDED;
}

/* Every operation ends with one load of ch->attention (chan_cell.h).
 *
 * Closed: a closed(ch) clause becomes ready when the last cell below the
 * close point is settled, and any operation may be the one that settles it
 * (a receiver breaking a cell, a withdrawn sender, expandBuffer failing a
 * sender...).  An operation that sees the channel closed after its last
 * transition that drained() looks at (a read-modify-write: on R or on a
 * cell at or beyond R) tells the watchers; one that does not ended before
 * close set ATTENTION_CLOSED (after publishing the close point), and
 * close's own notify, after that and a seq_cst fence, sees its transition.
 *
 * Clauses set aside (chan_aside.c): an operation that took a cell (it
 * completed or waits) hands them back to their statements, except those of
 * its own statement (`self`: it is the statement meeting itself). */
static __attribute__((noinline)) void attend(wuc_chan *ch, uint32_t attention, bool took_cell,
                                             const wuc_select_stmt *self) {
  if (attention & ATTENTION_CLOSED) wuc_chan_notify_closed_watchers(ch);
  if ((attention & ATTENTION_ASIDE) && took_cell) wuc_chan_wake_aside(ch, self);
}

static inline void op_end(wuc_chan *ch, bool took_cell, const wuc_select_stmt *self) {
  uint32_t attention = chan_attention(ch);
  if (__builtin_expect(attention != 0, 0)) attend(ch, attention, took_cell, self);
}

/* ---- set-up and checks ------------------------------------------------------ */

static void setup(wuc_chan *ch, size_t capacity, size_t elem_size) {
  if (elem_size > UINT32_MAX) wuc_fatal("channel element of %zu bytes", elem_size);
  ch->elem_size = (uint32_t)elem_size;
  ch->capacity = capacity;
  struct wuc_chan_segment *first = wuc_chan_segment_new(0, NULL, elem_size);
  unsigned heads = buffered_channel(ch) ? 3 : 2;
  atomic_store(&first->counts, heads * WUC_SEGMENT_POINTER_UNIT);
  atomic_store(&ch->buffer_end, capacity == WUC_CHAN_UNBOUNDED ? UNBOUNDED_B : (uint64_t)capacity);
  atomic_store_explicit(&ch->buffer_end_seen, atomic_load(&ch->buffer_end), memory_order_relaxed);
  atomic_store(&ch->send_segment, first);
  atomic_store(&ch->receive_segment, first);
  atomic_store(&ch->buffer_end_segment, buffered_channel(ch) ? first : NULL);
  ch->oldest = first;
  atomic_store_explicit(&ch->state, CHAN_READY, memory_order_release);
}

void wuc_chan_ready_slow(wuc_chan *ch, size_t elem_size, const char *call) {
  for (;;) {
    uint32_t state = atomic_load_explicit(&ch->state, memory_order_acquire);
    if (state == CHAN_READY) break;
    if (state == CHAN_DESTROYED)
      wuc_fatal("%s: channel %p used after chan_destroy", call, (void *)ch);
    uint32_t fresh = CHAN_FRESH;
    if (state == CHAN_FRESH &&
        atomic_compare_exchange_strong(&ch->state, &fresh, CHAN_INITIALISING))
      setup(ch, 0, elem_size); /* a zero-initialised channel is a rendezvous channel */
    else
      cpu_relax();
  }
  if (ch->elem_size != elem_size)
    wuc_fatal("%s: channel %p holds %u-byte elements, not %zu", call, (void *)ch, ch->elem_size,
              elem_size);
}

void wuc_chan_init(wuc_chan *ch, size_t capacity, size_t elem_size) {
  uint32_t fresh = CHAN_FRESH;
  if (!atomic_compare_exchange_strong(&ch->state, &fresh, CHAN_INITIALISING)) {
    if (fresh == CHAN_DESTROYED)
      wuc_fatal("chan_init: channel %p used after chan_destroy", (void *)ch);
    wuc_fatal("chan_init: channel %p was already initialised or used (chan_init goes on a zeroed, "
              "unused channel, once)",
              (void *)ch);
  }
  /* A channel on the stack declared without an initialiser can have a zero
   * state word by chance and garbage counters: set up on those, it would
   * hand out cells at random indices (and allocate segments up to them). */
  if (atomic_load(&ch->senders) || atomic_load(&ch->receivers) || atomic_load(&ch->close_point) ||
      atomic_load(&ch->send_segment) || atomic_load(&ch->receive_segment) || ch->watchers ||
      atomic_load(&ch->attention) || ch->aside)
    wuc_fatal("chan_init: channel %p is not zeroed (declare it static, or with = {0}, or "
              "allocate it with calloc: chan_init goes on a zeroed, unused channel)",
              (void *)ch);
  setup(ch, capacity, elem_size);
}

static unsigned count_waiters(wuc_chan *ch);

void wuc_chan_destroy(wuc_chan *ch) {
  uint32_t state = atomic_load(&ch->state);
  if (state == CHAN_DESTROYED) wuc_fatal("chan_destroy: channel %p destroyed twice", (void *)ch);
  if (state == CHAN_READY) {
    unsigned waiting = count_waiters(ch);
    if (waiting)
      wuc_fatal("chan_destroy: channel %p still has %u operation%s waiting on it", (void *)ch,
                waiting, waiting == 1 ? "" : "s");
    wuc_chan_free_all_segments(ch);
  }
  atomic_store(&ch->state, CHAN_DESTROYED);
}

/* Stops the program if ch was destroyed (inspection calls). */
static void not_destroyed(wuc_chan *ch, const char *call) {
  if (atomic_load_explicit(&ch->state, memory_order_acquire) == CHAN_DESTROYED)
    wuc_fatal("%s: channel %p used after chan_destroy", call, (void *)ch);
}

/* ---- counters ---------------------------------------------------------------- */

/* Raises a counter to at least `value` (cells of a removed segment are all
 * cleaned: skip them). */
static void raise_counter(_Atomic uint64_t *counter, uint64_t value, uint64_t keep_bits) {
  uint64_t cur = atomic_load(counter);
  while ((cur & ~keep_bits) < value &&
         !atomic_compare_exchange_weak(counter, &cur, value | (cur & keep_bits))) {
  }
}

/* Finds the segment of cell `index` starting at `seg`.  NULL: the segment
 * was removed (its cells are interrupted); the counter has been moved past
 * it and the caller takes a new cell. */
static struct wuc_chan_segment *segment_for(wuc_chan *ch, _Atomic(struct wuc_chan_segment *) *head,
                                            _Atomic uint64_t *counter, uint64_t keep_bits,
                                            struct wuc_chan_segment *seg, uint64_t index) {
  uint64_t id = index / WUC_SEGMENT_SIZE;
  if (seg->id == id) return seg;
  seg = wuc_chan_find_segment(ch, head, seg, id);
  if (seg->id == id) return seg;
  raise_counter(counter, seg->id * WUC_SEGMENT_SIZE, keep_bits);
  return NULL;
}

static inline void *cell_element(wuc_chan *ch, struct wuc_chan_segment *seg, uint64_t index) {
  return chan_segment_element(seg, (unsigned)(index % WUC_SEGMENT_SIZE), ch->elem_size);
}

/* Moves one element.  Most channels carry a word or less: copy those inline
 * (a call to memcpy with a run-time size is ~15 instructions per copy). */
static inline void copy_element(const wuc_chan *ch, void *to, const void *from) {
  switch (ch->elem_size) {
  case 8:
    memcpy(to, from, 8);
    break;
  case 4:
    memcpy(to, from, 4);
    break;
  default:
    memcpy(to, from, ch->elem_size);
    break;
  }
}

/* Takes the element of a BUFFERED cell.  Nobody but the cell's own receiver
 * (the one whose fetch-and-add on R gave it this index) changes a BUFFERED
 * cell: its sender is done with it, expandBuffer and close leave it as it
 * is.  So a plain store of DONE does, not a CAS: one locked instruction
 * less per buffered element. */
static inline void take_buffered(wuc_chan *ch, _Atomic uintptr_t *c, void *out, const void *elem) {
  copy_element(ch, out, elem);
  atomic_store_explicit(c, CELL_DONE, memory_order_release);
}

/* Ends a transfer through a cell that the caller holds in a busy state
 * (*_RESUMING_*): DONE is final.  A release store, not seq_cst (an xchg):
 * the only reader that cares is a withdrawing waiter spinning on the busy
 * state, which then needs what we wrote before; the closed(ch) checks look
 * at cells at or beyond R only, and a cell with a resumed waiter is below. */
static inline void finish_transfer(_Atomic uintptr_t *c) {
  atomic_store_explicit(c, CELL_DONE, memory_order_release);
}

/* ---- waiters ------------------------------------------------------------------ */

/* What a blocking chan_send/chan_recv that must wait leaves in its cell
 * (tagged WAITER_THREAD), in its own frame: not a select node in a one-
 * clause statement.  It waits in this one cell and nowhere else, so the
 * resumer that moves the cell from the waiter to a busy state (a receiver,
 * a sender, expandBuffer, close) has claimed it: no claim word, no CAS
 * beyond the cell's.  The waiter itself can only take itself out of the
 * cell (withdraw_if_closed), by CAS on the same state.
 *
 * state: WAITING until a resumer has it, WAKING while the resumer unparks
 * the thread, then WAKE_OK or WAKE_CLOSED.  The waiter parks while WAITING
 * and returns only after WAKING: the unpark still reads its thread's
 * handle (as a select node's DONE comes after its unpark, select.h). */
/* (enum and struct thread_waiter: chan_waiter.h, shared with finish_switch) */

/* The low three bits of a waiter pointer are the cell's tags (chan_cell.h). */
_Static_assert(_Alignof(struct thread_waiter) >= 8 && _Alignof(wuc_select_node) >= 8,
               "waiters are 8-aligned");

/* A thread waiter published after its thread's switch ("thread waiters off
 * their CPU", below): its thread is parked and in no queue, so it is made
 * runnable with plain stores. */
static __attribute__((noinline, cold)) void wait_for_publication(struct thread_waiter *t) {
  for (uint32_t spins = 0;
       atomic_load_explicit(&t->state, memory_order_acquire) == THREAD_PUBLISHING;)
    wuc_spin_step(&spins);
}

static inline void wake_off_cpu(struct thread_waiter *t, enum wake_result result) {
  struct wuc_uthread *thread = t->thread;
  /* The publication may still read t and the channel (I6, below). */
  if (__builtin_expect(atomic_load_explicit(&t->state, memory_order_acquire) == THREAD_PUBLISHING,
                       0))
    wait_for_publication(t);
  atomic_store_explicit(&t->state, result, memory_order_release);
  wuc_make_runnable_published(thread); /* t may vanish now */
}

static inline void wake_thread(struct thread_waiter *t, enum wake_result result) {
  if (t->off_cpu) {
    wake_off_cpu(t, result);
    return;
  }
  atomic_store_explicit(&t->state, THREAD_WAKING, memory_order_release);
  wuc_unpark(t->thread);
  atomic_store_explicit(&t->state, result, memory_order_release); /* t may vanish now */
}

/* The waiter of a cell we hold busy (state: what the cell held), claimed:
 * tells it the result and wakes it. */
static inline void wake_waiter(uintptr_t state, enum wake_result result) {
  if (is_thread_waiter(state)) {
    wake_thread(waiter_ptr(state), result);
    return;
  }
  wuc_select_node *n = waiter_node(state);
  n->res.word[RES_RESULT] = result;
  wuc_select_wake(n);
}

/* Claims the waiter of a cell we hold busy, for expandBuffer or close (a
 * resumer with no waiter of its own).  False: a clause lost its claim (it
 * is being withdrawn, or its statement won elsewhere). */
static inline bool claim_waiter(uintptr_t state) {
  return is_thread_waiter(state) || wuc_select_claim_waiter(waiter_node(state));
}

/* The sender's element is in its cell: the resumer takes it from there. */
static bool try_resume_sender(uintptr_t state) {
  if (!claim_waiter(state)) return false;
  wake_waiter(state, WAKE_OK);
  return true;
}

static void wake_closed(uintptr_t state) {
  if (claim_waiter(state)) wake_waiter(state, WAKE_CLOSED);
}

/* A suspended sender met after close (its cell is busy, held by the caller):
 * it fails, as close_cell would have failed it — blocked senders never
 * deliver once the channel is closed, whoever reaches them first. */
static __attribute__((noinline, cold)) void fail_sender(_Atomic uintptr_t *c, uintptr_t state) {
  wake_closed(state);
  atomic_store(c, CELL_INTERRUPTED_SEND);
}

/* (Inline: the check is on every receive that meets a suspended sender.) */
static inline bool fail_sender_if_closed(wuc_chan *ch, _Atomic uintptr_t *c, uintptr_t state) {
  if (!(atomic_load(&ch->senders) & CLOSED_BIT)) return false;
  fail_sender(c, state);
  return true;
}

/* ---- expandBuffer ------------------------------------------------------------- */

/* Cell b, which expandBuffer reached only now, belongs to a sender that took
 * it before close: the buffer was full then (B was at most b), so that
 * sender was blocked at close, and close is atomic for blocked senders.
 * (One that had not reached its cell yet would otherwise find it IN_BUFFER
 * and deliver after close: the linearizability test's atomic model caught
 * it under TSan, test/stress/README.md.) */
static inline bool sender_failed_by_close(wuc_chan *ch, uint64_t b) {
  return (atomic_load(&ch->senders) & CLOSED_BIT) && b < close_point(ch);
}

/* Cell b joins the buffer.  False: it cannot hold an element (its sender
 * left), so the buffer must grow by another cell. */
static bool update_cell_expand_buffer(wuc_chan *ch, struct wuc_chan_segment *seg, uint64_t b) {
  _Atomic uintptr_t *c = cell(seg, b);
  for (;;) {
    uintptr_t state = atomic_load(c);
    if (is_waiter(state)) {
      if (b < atomic_load(&ch->receivers)) {
        /* A receiver owns the cell: it resumes the sender and expands for us. */
        if (atomic_compare_exchange_strong(c, &state, state | WAITER_EB)) return true;
      } else if (atomic_compare_exchange_strong(c, &state, CELL_S_RESUMING_BY_EB)) {
        if (fail_sender_if_closed(ch, c, state)) return false;
        if (try_resume_sender(state)) {
          atomic_store(c, CELL_BUFFERED);
          return true;
        }
        atomic_store(c, CELL_INTERRUPTED_SEND);
        wuc_chan_segment_cell_cleaned(ch, seg);
        return false;
      }
      continue;
    }
    switch (state) {
    case CELL_INTERRUPTED_SEND:
      return false;
    case CELL_EMPTY:
      if (sender_failed_by_close(ch, b)) {
        /* Its sender took the cell before close, when the buffer was full,
         * and has not come yet: it fails when it does (as close fails a
         * suspended one), so the cell holds no element. */
        if (atomic_compare_exchange_strong(c, &state, CELL_INTERRUPTED_SEND)) {
          wuc_chan_segment_cell_cleaned(ch, seg);
          return false;
        }
      } else if (atomic_compare_exchange_strong(c, &state, CELL_IN_BUFFER)) {
        return true;
      }
      break;
    case CELL_S_RESUMING_BY_RCV:
    case CELL_CLOSING:
      cpu_relax(); /* decided in a few instructions */
      break;
    default: /* BUFFERED, BROKEN, DONE, INTERRUPTED_RCV, CLOSED, R_RESUMING_BY_SND */
      return true;
    }
  }
}

/* After a receive took (or waits for) the first buffered cell: move the end
 * of the buffer one cell on, resuming the sender waiting there if any. */
static void expand_buffer_cells(wuc_chan *ch) {
  struct wuc_chan_segment *seg = atomic_load(&ch->buffer_end_segment);
  for (;;) {
    uint64_t b = atomic_fetch_add(&ch->buffer_end, 1);
    uint64_t s = atomic_load(&ch->senders) & ~CLOSED_BIT;
    if (s <= b) {
      /* No sender has reached cell b: it will see b < B and buffer.  Keep the
       * pointer up with the segments that exist (not beyond: B can be far
       * ahead), so passed segments can be retired. */
      if (seg->id < b / WUC_SEGMENT_SIZE)
        wuc_chan_advance_head(ch, &ch->buffer_end_segment, seg, b / WUC_SEGMENT_SIZE);
      return;
    }
    struct wuc_chan_segment *found =
        segment_for(ch, &ch->buffer_end_segment, &ch->buffer_end, 0, seg, b);
    if (!found) continue;
    seg = found;
    if (update_cell_expand_buffer(ch, seg, b)) return;
  }
}

/* ---- expansions in flight ----------------------------------------------------- *
 *
 * An expandBuffer takes its cell b from B, then looks at S, and visits cell b
 * if a sender has reached it.  A cell whose receiver left (INTERRUPTED_RCV)
 * ends an expansion that visits it: it counts as buffer room.  If that cell
 * counted as cleaned while an expansion that took it was still on its way,
 * its segment could be removed first; the expansion would then skip the
 * segment as if its cells were senders' and expand once more: the buffer
 * would hold one element past its capacity.  So such a cell counts as
 * cleaned only once B has passed it and no expansion that took it or an
 * earlier cell is still running (every one after takes a later cell).
 * kotlinx.coroutines' BufferedChannel counts completed expansions for this
 * (a locked instruction per receive); here each worker says which channel it
 * expands (a plain store on each side of the expansion), and only the rare
 * receiver that leaves a cell looks at the workers. */

/* Expansions outside any worker (a foreign kernel thread's chan_try_recv). */
static _Atomic unsigned foreign_expansions;

static inline __attribute__((always_inline)) void expand_buffer(wuc_chan *ch) {
  if (!buffered_channel(ch)) return;
  struct worker *w = wuc_tls_worker;
  /* Seen by whoever sees B moved: the fetch-and-add on B releases it. */
  if (__builtin_expect(w != NULL, 1))
    atomic_store_explicit(&w->expanding, ch, memory_order_relaxed);
  else
    atomic_fetch_add(&foreign_expansions, 1);
  expand_buffer_cells(ch);
  if (__builtin_expect(w != NULL, 1))
    atomic_store_explicit(&w->expanding, NULL, memory_order_release);
  else
    atomic_fetch_sub(&foreign_expansions, 1);
}

/* How long a receiver that left its cell waits for B to pass it before it
 * leaves the cell uncounted (a guard, not a case: see below). */
#define BUFFER_END_WAIT_NS 100000000

/* Cell r of a buffered channel is INTERRUPTED_RCV: can no expansion visit it
 * any more?  First B must pass r: the receives that took cells before r
 * expand as they go, on other workers (one the kernel may have descheduled),
 * so B passes r once they have; a closed channel needs no wait, since no
 * send buffers after close, so the buffer's size no longer matters.  False
 * only if that takes longer than BUFFER_END_WAIT_NS.  Then waits for the
 * expansions running elsewhere, which finish in a few instructions and never
 * wait for a receiver. */
static bool no_expansion_can_visit(wuc_chan *ch, uint64_t r) {
  uint32_t waited = 0;
  int64_t give_up = 0;
  while (atomic_load(&ch->buffer_end) <= r) {
    if (atomic_load(&ch->senders) & CLOSED_BIT) return true;
    wuc_spin_step(&waited);
    if (waited % 256 == 0) { /* yielding for a while now: look at the clock */
      int64_t now = wuc_now();
      if (!give_up)
        give_up = now + BUFFER_END_WAIT_NS;
      else if (now > give_up)
        return false;
    }
  }
  struct worker *self = wuc_tls_worker;
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    struct worker *w = wuc_sched.workers[i];
    if (w == self) continue;
    uint32_t spins = 0;
    while (atomic_load_explicit(&w->expanding, memory_order_acquire) == ch) wuc_spin_step(&spins);
  }
  uint32_t spins = 0;
  while (atomic_load(&foreign_expansions)) wuc_spin_step(&spins);
  return true;
}

/* A receiver left cell r (INTERRUPTED_RCV): it counts as cleaned once no
 * expansion can visit it.  If B does not pass r in time, it never does, and
 * its segment goes when every head pointer has passed it, not before. */
static bool receive_cell_counts_cleaned(wuc_chan *ch, uint64_t r) {
  return !buffered_channel(ch) || no_expansion_can_visit(ch, r);
}

static void receive_cell_cleaned(wuc_chan *ch, struct wuc_chan_segment *seg, uint64_t r) {
  if (receive_cell_counts_cleaned(ch, r)) wuc_chan_segment_cell_cleaned(ch, seg);
}

/* ---- who operates -------------------------------------------------------------- */

/* `call`: chan_send or chan_recv, and `site` ("FILE:LINE", or NULL if
 * unknown) where it was made, for the misuse report of a caller that is no
 * user thread (docs/library.md, "Threads").  The operation counted for
 * reclamation when it started (wuc_reclaim_op_start): not again here. */
static void thread_waiter_init(struct thread_waiter *t, void *data, const char *call,
                               const char *site) {
  struct worker *worker = wuc_current_worker();
  t->thread = worker ? worker->current : NULL;
  if (__builtin_expect(!t->thread, 0)) wuc_current_thread_or_die_at(call, site, 0); /* stops */
  t->data = data;
  t->off_cpu = false;
  atomic_store_explicit(&t->state, THREAD_WAITING, memory_order_relaxed);
}

/* Waits until a resumer (or close) has woken t; the deadlock report shows
 * `what` on ch at site.  True: the element moved; false: closed. */
static bool thread_waiter_wait(struct thread_waiter *t, const char *what, wuc_chan *ch,
                               const char *site) {
  uint32_t state;
  while ((state = atomic_load_explicit(&t->state, memory_order_acquire)) == THREAD_WAITING)
    wuc_park_at(what, ch, site, 0); /* may return early: loop on our own state */
  for (uint32_t spins = 0; state == THREAD_WAKING;
       state = atomic_load_explicit(&t->state, memory_order_acquire))
    wuc_spin_step(&spins); /* the resumer is inside wuc_unpark(us) */
  return state == WAKE_OK;
}

/* Who operates on a cell, and so what is left in it if the operation must
 * wait there:
 *   WAITER_TRY       chan_try_send/chan_try_recv: never waits; gives the cell up
 *   WAITER_BLOCKING  chan_send/chan_recv: its thread waiter `thread`, set up
 *                    only once the cell says the operation must wait (most
 *                    do not)
 *   WAITER_CLAUSE    a waituntil clause: its `node`, which it must own before it
 *                    completes anything (select.h); in its statement's try
 *                    pass (try_only) it gives the cell up instead of waiting */
enum waiter_kind { WAITER_TRY, WAITER_BLOCKING, WAITER_CLAUSE };

struct waiter {
  enum waiter_kind kind;
  wuc_select_node *node;        /* a clause's */
  struct thread_waiter *thread; /* a blocking op's */
  const char *site;             /* a blocking op's "FILE:LINE" (from its macro), or NULL */
};

static inline bool gives_up(const struct waiter *w) {
  return w->kind == WAITER_TRY || (w->kind == WAITER_CLAUSE && w->node->try_only);
}

/* The waiter to leave in the cell, untagged but for WAITER_THREAD (`data`
 * is where a receiver's element goes; `call`, chan_send or chan_recv, names
 * a blocking operation's misuse). */
static inline uintptr_t waiting_state(struct waiter *w, void *data, const char *call) {
  if (w->kind != WAITER_BLOCKING) return (uintptr_t)w->node;
  thread_waiter_init(w->thread, data, call, w->site);
  return (uintptr_t)w->thread | WAITER_THREAD;
}

/* ---- thread waiters off their CPU -------------------------------------------- *
 *
 * A blocking chan_send/chan_recv that must wait does not put its thread
 * waiter in its cell itself: it parks with a switch that publishes it
 * (park_in_cell, PREV_PARK_IN_CELL; park.h), and the switch's finishing
 * step, run by the context that comes next on its worker once the thread's
 * registers are saved, publishes it (wuc_chan_publish_waiter, chan_waiter.h), as Go's gopark runs
 * its unlock function on the scheduler's stack.  Whoever takes the waiter out of the cell (a
 * partner, expandBuffer, close) then makes the thread runnable with plain stores (wake_thread): no
 * read-modify-write of the park word on either side, where the ordinary park costs one each (the
 * commit's CAS, the unpark's).
 *
 * Invariants, for a thread waiter t of thread T in cell c of segment seg:
 *   I1  t->off_cpu  =>  (t is in c  =>  T's context is saved, T is in no
 *       queue and park_state(T) == PARK_PUBLISHED): the publication is made
 *       only after T's switch, and park_state(T) := PARK_PUBLISHED is stored
 *       before the publishing CAS (which releases it);
 *   I2  T runnable again  <=>  exactly one of: the publication failed (c is
 *       no longer EMPTY: T looks at c again, THREAD_LOOK_AGAIN), the
 *       publication found the channel closed and took t out again
 *       (WAKE_CLOSED), or a resumer took t out of c (WAKE_OK/WAKE_CLOSED);
 *       each of these moves c away from t by CAS first, so at most one runs,
 *       and wuc_unpark never makes a PARK_PUBLISHED thread runnable;
 *   I3  between T's fetch-and-add and the end of the publication, T's
 *       worker passes no quiescent point (reclaim.h): a hand-off makes
 *       none, the full look leaves it to finish_switch, after the
 *       publication; so seg is not freed meanwhile.  A look again pins seg
 *       (t->pinned) before T can run anywhere, and the operation unpins it
 *       at its end;
 *   I4  no cell update is lost or doubled: the publication is a CAS from
 *       the state T saw (EMPTY), so it succeeds only if
 *       nobody moved c in between; otherwise T runs its direction's cell
 *       machine on the same cell again (update_cell_send/receive, the same
 *       code that decided to wait), which sees the move (BUFFERED, BROKEN,
 *       IN_BUFFER, CLOSED...) as if it had come before its first look;
 *   I5  the close check follows the publication (as withdraw_if_closed
 *       follows the ordinary one): a close whose scan missed c is seen;
 *       the operation's end (op_end) came before the switch, after the
 *       fetch-and-add, with ch->attention == 0 (else the ordinary path is
 *       taken): no clause was set aside to hand back, and the publication
 *       settles no cell, so the closed(ch) watchers need no notice for it
 *       (a withdrawal that settles one is followed by the woken thread's
 *       op_end);
 *   I6  t->state == THREAD_PUBLISHING  =>  the publication may still read
 *       t and ch: a resumer that took t waits for THREAD_WAITING before it
 *       makes T runnable (until then T cannot return, and its frame and
 *       the channel it uses stay).  Plain loads and a store: the resumer
 *       almost always comes long after.
 * Only chan_send on any channel and chan_recv on unbuffered (rendezvous,
 * unbounded) channels wait this way: a receive on a buffered channel
 * expands the buffer once its waiter is in the cell (update_cell_receive),
 * which must happen once per cell, look again or not. */

/* Whether w, a blocking operation (kind known at compile time), waits off
 * its CPU (above). */
static inline bool waits_off_cpu(wuc_chan *ch, const struct waiter *w, bool receive) {
  return w->kind == WAITER_BLOCKING && !(receive && buffered_channel(ch)) &&
         chan_attention(ch) == 0;
}

static __attribute__((noreturn, cold, noinline)) void not_a_user_thread(const char *call,
                                                                        const char *site) {
  wuc_current_thread_or_die_at(call, site, 0); /* stops */
  __builtin_unreachable();
}

/* A thread waiter that looked again and now waits in another cell: its old
 * segment is no longer used. */
static __attribute__((noinline, cold)) void unpin_old(struct thread_waiter *t) {
  wuc_chan_segment_unpin(t->seg);
  t->pinned = false;
}

/* Parks T to publish its thread waiter t in cell `index` of seg, seen EMPTY
 * (a receive waits off its CPU only where no IN_BUFFER is: above).  When T
 * runs again, t's state says why: the result, or THREAD_LOOK_AGAIN (the
 * cell moved meanwhile).  The switch is this function's tail call, so it
 * saves no registers of its own around it. */
static __attribute__((noinline)) void park_in_cell(wuc_chan *ch, struct wuc_chan_segment *seg,
                                                   uint64_t index, uintptr_t gone, void *data,
                                                   struct thread_waiter *t, const char *site,
                                                   const char *call) {
  /* wuc_tls_worker, read before the switch only: nothing after it here
   * uses the worker (it may be another one then: scheduler.h). */
  struct worker *worker = wuc_tls_worker;
  struct wuc_uthread *self = worker ? worker->current : NULL;
  if (__builtin_expect(!self, 0)) not_a_user_thread(call, site);
  t->thread = self;
  t->data = data;
  t->off_cpu = true;
  t->cell = cell(seg, index);
  t->gone = gone;
  t->ch = ch;
  t->seg = seg;
  atomic_store_explicit(&t->state, THREAD_PUBLISHING, memory_order_relaxed);
  wuc_note_wait(self, call, ch, site, 0); /* as wuc_park_at */
  worker->publish_waiter = t;
  wuc_switch_away(worker, self, PREV_PARK_IN_CELL); /* finish_switch publishes t */
}

/* After park_in_cell: true if woken, false to look at the cell again. */
static inline bool woken_in_cell(struct thread_waiter *t) {
  return atomic_load_explicit(&t->state, memory_order_acquire) != THREAD_LOOK_AGAIN;
}

/* At the end of a blocking operation (after its last look into a segment). */
static inline void unpin_if_looked_again(struct thread_waiter *t) {
  if (__builtin_expect(t->pinned, 0)) wuc_chan_segment_unpin(t->seg);
}

/* A blocking operation that waited off its CPU (OUTCOME_WOKEN): its end
 * came before it parked (I5); true if its element moved. */
static inline __attribute__((always_inline)) bool woken_result(wuc_chan *ch,
                                                               struct thread_waiter *t) {
  bool ok = atomic_load_explicit(&t->state, memory_order_relaxed) == WAKE_OK;
  if (!ok) op_end(ch, true, NULL); /* its withdrawal may have settled the cell */
  unpin_if_looked_again(t);
  return ok;
}

/* Makes T runnable again from the publication. */
static void publication_resumes(struct wuc_uthread *thread, struct thread_waiter *t,
                                uint32_t state) {
  atomic_store_explicit(&t->state, state, memory_order_release);
  wuc_make_runnable_published(thread);
}

/* Publications that failed (their threads looked again), for the stress
 * test that makes them happen (test/stress/chan_stress.cc, lookagain): a
 * plain count, exact enough for that. */
static _Atomic unsigned long looks_again;
unsigned long wuc_chan_looks_again(void) {
  return atomic_load_explicit(&looks_again, memory_order_relaxed);
}

void wuc_chan_publish_slow(struct wuc_uthread *thread, struct thread_waiter *t, bool published) {
  if (published) { /* but the channel is closed: the close check (I5), as withdraw_if_closed */
    uintptr_t state = atomic_load(t->cell);
    while (is_waiter(state) && waiter_ptr(state) == t) {
      if (atomic_compare_exchange_weak(t->cell, &state, t->gone)) {
        publication_resumes(thread, t, WAKE_CLOSED);
        return;
      }
    }
    /* A resumer has it: our last touch of t and the channel (I6). */
    atomic_store_explicit(&t->state, THREAD_WAITING, memory_order_release);
    return;
  }
  /* The cell moved since T looked (I4): T looks again, in seg (I3). */
  atomic_store_explicit(&looks_again, atomic_load_explicit(&looks_again, memory_order_relaxed) + 1,
                        memory_order_relaxed);
  if (!t->pinned) {
    wuc_chan_segment_pin(t->seg);
    t->pinned = true;
  }
  publication_resumes(thread, t, THREAD_LOOK_AGAIN);
}

static __attribute__((noreturn)) void own_claim_lost(wuc_select_node *n) {
  wuc_fatal("waituntil%s%s: a channel clause completed after its statement was won elsewhere "
            "(register all-or clauses between wuc_select_begin_registration and "
            "wuc_select_end_registration)",
            n->site ? " at " : "", n->site ? n->site : "");
}

/* The partner waiting in the cell, a clause's node: claim it, and a clause
 * its own node with it (both complete or neither: a losing partner is
 * skipped like a withdrawn waiter).  Nobody else can see a try or blocking
 * operation yet.  A clause of the clause's own statement is never claimed:
 * SELECT_PAIR_OWN, and the caller sets it aside (chan_aside.c). */
static inline int claim_partner(struct waiter *w, wuc_select_node *partner) {
  if (w->kind == WAITER_CLAUSE) return wuc_select_claim_pair_or_own(w->node, partner);
  return wuc_select_claim(partner) ? WUC_PAIR_CLAIMED : WUC_PAIR_THEIRS_LOST;
}

/* Is the partner in the cell (state) a thread waiter?  Clauses mostly meet
 * clauses (select-contend): lay their code out for that. */
static inline bool partner_is_thread(const struct waiter *w, uintptr_t state) {
  if (w->kind == WAITER_CLAUSE) return __builtin_expect(is_thread_waiter(state), 0);
  return is_thread_waiter(state);
}

/* The partner is a thread waiter, claimed already by the busy state we put
 * its cell in: a clause claims its own node (within registration nobody
 * else can, so it cannot fail). */
static inline void claim_own(struct waiter *w) {
  if (w->kind == WAITER_CLAUSE && !wuc_select_claim(w->node)) own_claim_lost(w->node);
}

/* Completed through a buffered cell, without a partner: a clause claims its
 * own node (within registration nobody else can, so it cannot fail). */
static inline void completed_alone(struct waiter *w) {
  if (w->kind != WAITER_CLAUSE) return;
  if (!wuc_select_claim_done_own(w->node)) own_claim_lost(w->node);
}

/* Completed with a partner, both claimed by claim_partner. */
static inline void completed_with_partner(struct waiter *w) {
  if (w->kind == WAITER_CLAUSE) wuc_select_done(w->node);
}

/* A clause of our own statement that we took out of its cell, to set it
 * aside: it unpins its segment now (we are inside that segment ourselves,
 * so it cannot be freed under us) and holds no cell any more; its unreg
 * then looks for it on the aside list. */
static void let_go_of_cell(wuc_select_node *n) {
  struct wuc_chan_segment *seg = n->res.ptr[RES_SEGMENT];
  n->res.ptr[RES_SEGMENT] = NULL;
  wuc_chan_segment_unpin_clause(n->res.ptr[RES_CHAN], &n->stmt->thread->kept_pin, seg,
                                n->res.word[RES_OWN_PIN], false);
}

/* What a cell update (and a walk over cells) ends in. */
enum outcome {
  OUTCOME_COMPLETED, /* the element moved */
  OUTCOME_WAITING,   /* the waiter is in the cell */
  OUTCOME_GAVE_UP,   /* a try found nothing to do now */
  OUTCOME_FAILED,    /* the cell is lost: take another */
  OUTCOME_CLOSED,    /* the channel is closed (for a receive: and drained) */
  OUTCOME_WOKEN      /* a blocking op waited off its CPU: the result is its waiter's */
};

/* After waiting in cell index: if the channel was closed meanwhile, close
 * may have scanned past the cell before the waiter (a node or a thread
 * waiter) was in it; take the waiter out again (true) unless a resumer got
 * there first. */
static bool withdraw_if_closed(wuc_chan *ch, struct wuc_chan_segment *seg, uint64_t index,
                               const void *waiter, uintptr_t gone) {
  if (!(atomic_load(&ch->senders) & CLOSED_BIT)) return false;
  _Atomic uintptr_t *c = cell(seg, index);
  uintptr_t state = atomic_load(c);
  while (is_waiter(state) && waiter_ptr(state) == waiter) {
    if (atomic_compare_exchange_weak(c, &state, gone)) return true;
  }
  return false;
}

/* ---- send --------------------------------------------------------------------- */

static inline bool buffer_or_rendezvous_send(wuc_chan *ch, uint64_t s) {
  /* B only grows: any value it had is a lower bound, and s below one proves
   * room.  Senders may overwrite a larger bound with a smaller one; both
   * were values of B, so the bound stays true. */
  if (s < atomic_load_explicit(&ch->buffer_end_seen, memory_order_relaxed)) return true;
  uint64_t b = atomic_load(&ch->buffer_end);
  if (s < b) {
    atomic_store_explicit(&ch->buffer_end_seen, b, memory_order_relaxed);
    return true;
  }
  return s < atomic_load(&ch->receivers);
}

/* The send's cell machine: cell s of seg, for waiter w. */
static inline __attribute__((always_inline)) enum outcome
update_cell_send(wuc_chan *ch, struct wuc_chan_segment *seg, uint64_t s, const void *value,
                 struct waiter *w) {
  _Atomic uintptr_t *c = cell(seg, s);
  copy_element(ch, cell_element(ch, seg, s), value); /* published by the state CAS */
  for (;;) {
    uintptr_t state = atomic_load(c);
    if (is_waiter(state)) { /* a receiver waits here (maybe marked by expandBuffer) */
      if (!atomic_compare_exchange_strong(c, &state, CELL_R_RESUMING_BY_SND)) continue;
      if (partner_is_thread(w, state)) {
        struct thread_waiter *receiver = waiter_ptr(state);
        claim_own(w);
        copy_element(ch, receiver->data, value);
        wake_thread(receiver, WAKE_OK);
        completed_with_partner(w);
        finish_transfer(c);
        return OUTCOME_COMPLETED;
      }
      wuc_select_node *receiver = waiter_node(state);
      switch (claim_partner(w, receiver)) {
      case WUC_PAIR_CLAIMED:
        copy_element(ch, receiver->data, value);
        receiver->res.word[RES_RESULT] = WAKE_OK;
        wuc_select_wake(receiver);
        completed_with_partner(w);
        finish_transfer(c);
        return OUTCOME_COMPLETED;
      case WUC_PAIR_THEIRS_LOST:
        atomic_store(c, CELL_INTERRUPTED_RCV);
        receive_cell_cleaned(ch, seg, s);
        return OUTCOME_FAILED;
      case WUC_PAIR_MINE_LOST:
        own_claim_lost(w->node);
      case SELECT_PAIR_OWN: /* our statement's receive clause: it leaves the cell */
        atomic_store(c, CELL_INTERRUPTED_RCV);
        receive_cell_cleaned(ch, seg, s);
        let_go_of_cell(receiver);
        wuc_chan_set_aside(ch, receiver, s);
        return OUTCOME_FAILED;
      }
    }
    switch (state) {
    case CELL_EMPTY:
      if (buffer_or_rendezvous_send(ch, s)) {
        if (__builtin_expect(atomic_load(&ch->senders) & CLOSED_BIT, 0)) {
          /* Closed since our fetch-and-add: the room we found may have come
           * after the close (a receive's expandBuffer), and a send blocked
           * at close fails (see sender_failed_by_close). */
          if (atomic_compare_exchange_strong(c, &state, CELL_INTERRUPTED_SEND)) {
            wuc_chan_segment_cell_cleaned(ch, seg);
            return OUTCOME_CLOSED;
          }
        } else if (atomic_compare_exchange_strong(c, &state, CELL_BUFFERED)) {
          completed_alone(w);
          return OUTCOME_COMPLETED;
        }
      } else if (gives_up(w)) {
        /* Give the cell up: expandBuffer skips it, its receiver takes another. */
        if (atomic_compare_exchange_strong(c, &state, CELL_INTERRUPTED_SEND)) {
          wuc_chan_segment_cell_cleaned(ch, seg);
          return OUTCOME_GAVE_UP;
        }
      } else if (waits_off_cpu(ch, w, false)) {
        if (__builtin_expect(w->thread->pinned, 0) && w->thread->seg != seg) unpin_old(w->thread);
        park_in_cell(ch, seg, s, CELL_INTERRUPTED_SEND, NULL, w->thread, w->site, "chan_send");
        if (woken_in_cell(w->thread)) return OUTCOME_WOKEN;
        /* else the cell moved while we switched: look again */
      } else if (atomic_compare_exchange_strong(
                     c, &state, waiting_state(w, NULL, "chan_send") | WAITER_SENDER)) {
        return OUTCOME_WAITING;
      }
      break;
    case CELL_IN_BUFFER:
      if (atomic_compare_exchange_strong(c, &state, CELL_BUFFERED)) {
        completed_alone(w);
        return OUTCOME_COMPLETED;
      }
      break;
    case CELL_CLOSED:
      return OUTCOME_CLOSED;
    case CELL_CLOSING:
      cpu_relax();
      break;
    default: /* INTERRUPTED_RCV, BROKEN: the receiver of this cell is gone */
      return OUTCOME_FAILED;
    }
  }
}

/* Takes send cells until one settles the send.  WAITING: *seg_out and
 * *index_out say where the waiter is. */
static inline __attribute__((always_inline)) enum outcome
send_cells(wuc_chan *ch, const void *value, struct waiter *w, struct wuc_chan_segment **seg_out,
           uint64_t *index_out) {
  for (;;) {
    struct wuc_chan_segment *seg = atomic_load(&ch->send_segment);
    uint64_t sc = atomic_load_explicit(&ch->senders, memory_order_relaxed);
    if (sc & CLOSED_BIT) return OUTCOME_CLOSED;
    /* A try takes a cell only while there is room or a receiver; it checks
     * again after every failed cell, or it would burn cells. */
    if (gives_up(w) && !buffer_or_rendezvous_send(ch, sc)) return OUTCOME_GAVE_UP;
    sc = atomic_fetch_add(&ch->senders, 1);
    if (sc & CLOSED_BIT) return OUTCOME_CLOSED;
    uint64_t s = sc;
    seg = segment_for(ch, &ch->send_segment, &ch->senders, CLOSED_BIT, seg, s);
    if (!seg) continue;
    enum outcome outcome = update_cell_send(ch, seg, s, value, w);
    if (__builtin_expect(outcome == OUTCOME_FAILED, 0)) continue;
    if (outcome == OUTCOME_WAITING) {
      *seg_out = seg;
      *index_out = s;
    }
    return outcome;
  }
}

/* chan_send and chan_try_send. */
static inline __attribute__((always_inline)) bool
send_impl(wuc_chan *ch, const void *value, enum waiter_kind kind, const char *site) {
  struct thread_waiter tw;
  if (kind == WAITER_BLOCKING) tw.pinned = false;
  struct waiter w = {.kind = kind, .node = NULL, .thread = &tw, .site = site};
  struct wuc_chan_segment *seg;
  uint64_t s;
  bool sent = false;
  switch (send_cells(ch, value, &w, &seg, &s)) {
  case OUTCOME_COMPLETED:
    sent = true;
    break;
  case OUTCOME_WOKEN:
    return woken_result(ch, &tw);
  case OUTCOME_WAITING: { /* no segment pointer held while parked */
    /* The operation's end comes before it parks: its last transition is
     * behind it, and the clauses set aside must be handed back now (they
     * may be the ones to resume it). */
    bool withdrawn = withdraw_if_closed(ch, seg, s, &tw, CELL_INTERRUPTED_SEND);
    op_end(ch, true, NULL);
    unpin_if_looked_again(&tw);
    return !withdrawn && thread_waiter_wait(&tw, "chan_send", ch, site);
  }
  default:
    break;
  }
  op_end(ch, sent, NULL);
  if (kind == WAITER_BLOCKING) unpin_if_looked_again(&tw);
  return sent;
}

bool wuc_chan_send_at(wuc_chan *ch, const void *value, size_t elem_size, const char *site) {
  /* Nothing held yet: a quiescent point and a preemption point. */
  wuc_blocking_op_start("a channel operation");
  chan_ready(ch, elem_size, "chan_send");
  return send_impl(ch, value, WAITER_BLOCKING, site);
}

bool wuc_chan_send(wuc_chan *ch, const void *value, size_t elem_size) {
  return wuc_chan_send_at(ch, value, elem_size, NULL);
}

/* A non-blocking operation from a kernel thread outside the runtime (a
 * foreign thread, the monitor dispatching a signal): reclamation counts it
 * while it holds segment pointers (reclaim.h, wuc_reclaim_foreign_begin). */
static void foreign_op_begin(void) {
  wuc_check_not_forked("a channel operation");
  wuc_reclaim_foreign_begin();
}

static __attribute__((noinline, cold)) bool foreign_try_send(wuc_chan *ch, const void *value) {
  foreign_op_begin();
  bool sent = send_impl(ch, value, WAITER_TRY, NULL);
  wuc_reclaim_foreign_end();
  return sent;
}

bool wuc_chan_try_send(wuc_chan *ch, const void *value, size_t elem_size) {
  chan_ready(ch, elem_size, "chan_try_send");
  if (__builtin_expect(!wuc_tls_worker, 0)) return foreign_try_send(ch, value);
  wuc_reclaim_op_start(); /* no segment pointer held yet: may be a quiescent point */
  return send_impl(ch, value, WAITER_TRY, NULL);
}

/* ---- receive ------------------------------------------------------------------ */

/* The receive's cell machine: cell r of seg, for waiter w; the element goes
 * to `out`. */
static inline __attribute__((always_inline)) enum outcome
update_cell_receive(wuc_chan *ch, struct wuc_chan_segment *seg, uint64_t r, void *out,
                    struct waiter *w) {
  _Atomic uintptr_t *c = cell(seg, r);
  for (;;) {
    uintptr_t state = atomic_load(c);
    if (is_waiter(state)) { /* a suspended sender: resume it */
      if (!atomic_compare_exchange_strong(c, &state, CELL_S_RESUMING_BY_RCV)) continue;
      bool help_expand = state & WAITER_EB;
      if (fail_sender_if_closed(ch, c, state)) {
        if (help_expand) expand_buffer(ch);
        return OUTCOME_FAILED;
      }
      if (partner_is_thread(w, state)) {
        claim_own(w);
        copy_element(ch, out, cell_element(ch, seg, r));
        wake_thread(waiter_ptr(state), WAKE_OK);
        completed_with_partner(w);
        finish_transfer(c);
        expand_buffer(ch);
        return OUTCOME_COMPLETED;
      }
      wuc_select_node *sender = waiter_node(state);
      switch (claim_partner(w, sender)) {
      case WUC_PAIR_CLAIMED:
        copy_element(ch, out, cell_element(ch, seg, r));
        sender->res.word[RES_RESULT] = WAKE_OK;
        wuc_select_wake(sender);
        completed_with_partner(w);
        finish_transfer(c);
        expand_buffer(ch);
        return OUTCOME_COMPLETED;
      case WUC_PAIR_THEIRS_LOST:
        atomic_store(c, CELL_INTERRUPTED_SEND);
        wuc_chan_segment_cell_cleaned(ch, seg);
        if (help_expand) expand_buffer(ch);
        return OUTCOME_FAILED;
      case WUC_PAIR_MINE_LOST:
        own_claim_lost(w->node);
      case SELECT_PAIR_OWN: /* our statement's send clause: it leaves the cell */
        atomic_store(c, CELL_INTERRUPTED_SEND);
        wuc_chan_segment_cell_cleaned(ch, seg);
        if (help_expand) expand_buffer(ch);
        let_go_of_cell(sender);
        wuc_chan_set_aside(ch, sender, r);
        return OUTCOME_FAILED;
      }
    }
    switch (state) {
    case CELL_EMPTY:
    case CELL_IN_BUFFER: {
      uint64_t sc = atomic_load(&ch->senders);
      if (r < senders_for_receivers(ch, sc)) {
        /* A sender has this cell but has not filled it: do not wait for it. */
        if (atomic_compare_exchange_strong(c, &state, CELL_BROKEN)) {
          expand_buffer(ch);
          return OUTCOME_FAILED;
        }
      } else if (sc & CLOSED_BIT) {
        return OUTCOME_CLOSED;
      } else if (gives_up(w)) {
        if (atomic_compare_exchange_strong(c, &state, CELL_INTERRUPTED_RCV)) {
          expand_buffer(ch); /* the cell is used up, as if a receiver waited in it */
          receive_cell_cleaned(ch, seg, r);
          return OUTCOME_GAVE_UP;
        }
      } else if (waits_off_cpu(ch, w, true)) {
        if (__builtin_expect(w->thread->pinned, 0) && w->thread->seg != seg) unpin_old(w->thread);
        park_in_cell(ch, seg, r, CELL_CLOSED, out, w->thread, w->site, "chan_recv");
        if (woken_in_cell(w->thread)) return OUTCOME_WOKEN;
        /* else the cell moved while we switched: look again */
      } else if (atomic_compare_exchange_strong(c, &state, waiting_state(w, out, "chan_recv"))) {
        expand_buffer(ch); /* the cell is used up */
        return OUTCOME_WAITING;
      }
      break;
    }
    case CELL_BUFFERED:
      take_buffered(ch, c, out, cell_element(ch, seg, r));
      completed_alone(w);
      expand_buffer(ch);
      return OUTCOME_COMPLETED;
    case CELL_S_RESUMING_BY_EB:
      cpu_relax(); /* expandBuffer decides in a few instructions */
      break;
    case CELL_CLOSED:
      return OUTCOME_CLOSED;
    default: /* INTERRUPTED_SEND, BROKEN */
      return OUTCOME_FAILED;
    }
  }
}

/* Takes receive cells until one settles the receive.  COMPLETED and
 * WAITING: *seg_out and *index_out say which cell (the caller may still look
 * into a segment it completed in). */
static inline __attribute__((always_inline)) enum outcome
recv_cells(wuc_chan *ch, void *out, struct waiter *w, struct wuc_chan_segment **seg_out,
           uint64_t *index_out) {
  for (;;) {
    /* A try takes a cell only while something was sent beyond R, and looks
     * again after every lost cell. */
    if (gives_up(w) && atomic_load(&ch->receivers) >= receivable(ch)) return OUTCOME_GAVE_UP;
    struct wuc_chan_segment *seg = atomic_load(&ch->receive_segment);
    uint64_t r = atomic_fetch_add(&ch->receivers, 1);
    seg = segment_for(ch, &ch->receive_segment, &ch->receivers, 0, seg, r);
    if (!seg) continue;
    enum outcome outcome = update_cell_receive(ch, seg, r, out, w);
    if (__builtin_expect(outcome == OUTCOME_FAILED || outcome == OUTCOME_GAVE_UP, 0)) continue;
    *seg_out = seg;
    *index_out = r;
    return outcome;
  }
}

/* After a receive from a closed channel: does the next cell a receiver will
 * take (R's) still hold an element?  Then the channel is not drained, and it
 * cannot become drained before that element's receiver has taken it (a
 * BUFFERED cell changes only by its own receiver, and close leaves it), whose
 * own check then follows: this receive need not look for closed(ch) watchers,
 * which costs a fence.  Draining a closed channel is the common case: every
 * receive but the last skips the fence.  Only asked once the channel is
 * closed.  seg: the segment just received from (cells in other segments are
 * not looked at). */
static bool next_element_buffered(wuc_chan *ch, struct wuc_chan_segment *seg) {
  uint64_t r = atomic_load(&ch->receivers);
  return r / WUC_SEGMENT_SIZE == seg->id && r < close_point(ch) &&
         atomic_load(cell(seg, r)) == CELL_BUFFERED;
}

/* chan_recv and chan_try_recv. */
static inline __attribute__((always_inline)) bool
recv_impl(wuc_chan *ch, void *out, enum waiter_kind kind, const char *site) {
  struct thread_waiter tw;
  if (kind == WAITER_BLOCKING) tw.pinned = false;
  struct waiter w = {.kind = kind, .node = NULL, .thread = &tw, .site = site};
  struct wuc_chan_segment *seg, *held = NULL;
  uint64_t r;
  bool received = false;
  switch (recv_cells(ch, out, &w, &seg, &r)) {
  case OUTCOME_COMPLETED:
    received = true;
    held = seg;
    break;
  case OUTCOME_WOKEN:
    return woken_result(ch, &tw);
  case OUTCOME_WAITING: { /* no segment pointer held while parked */
    /* The operation's end before it parks, as in send_impl. */
    bool withdrawn = withdraw_if_closed(ch, seg, r, &tw, CELL_CLOSED);
    op_end(ch, true, NULL);
    unpin_if_looked_again(&tw);
    return !withdrawn && thread_waiter_wait(&tw, "chan_recv", ch, site);
  }
  default:
    break;
  }
  /* op_end, but without the closed check while an element is left */
  uint32_t attention = chan_attention(ch);
  if (__builtin_expect(attention != 0, 0) &&
      !(attention == ATTENTION_CLOSED && held && next_element_buffered(ch, held)))
    attend(ch, attention, received, NULL);
  if (kind == WAITER_BLOCKING) unpin_if_looked_again(&tw);
  return received;
}

bool wuc_chan_recv_at(wuc_chan *ch, void *out, size_t elem_size, const char *site) {
  /* Nothing held yet: a quiescent point and a preemption point. */
  wuc_blocking_op_start("a channel operation");
  chan_ready(ch, elem_size, "chan_recv");
  return recv_impl(ch, out, WAITER_BLOCKING, site);
}

bool wuc_chan_recv(wuc_chan *ch, void *out, size_t elem_size) {
  return wuc_chan_recv_at(ch, out, elem_size, NULL);
}

static __attribute__((noinline, cold)) bool foreign_try_recv(wuc_chan *ch, void *out) {
  foreign_op_begin();
  bool received = recv_impl(ch, out, WAITER_TRY, NULL);
  wuc_reclaim_foreign_end();
  return received;
}

bool wuc_chan_try_recv(wuc_chan *ch, void *out, size_t elem_size) {
  chan_ready(ch, elem_size, "chan_try_recv");
  if (__builtin_expect(!wuc_tls_worker, 0)) return foreign_try_recv(ch, out);
  wuc_reclaim_op_start(); /* no segment pointer held yet: may be a quiescent point */
  return recv_impl(ch, out, WAITER_TRY, NULL);
}

/* ---- close ------------------------------------------------------------------- */

/* Close sets the closed bit in S (S_close = S then): later sends fail at
 * their fetch-and-add.  Then it settles the cells between R and S_close,
 * where senders may be suspended (their elements never reached the buffer:
 * they fail), and those between S_close and R, where receivers may be
 * suspended (no sender will come: they fail) or are about to (CLOSED tells
 * them).  Buffered elements stay and are delivered.  An operation that
 * suspends after the scan passed its cell sees the closed bit and takes
 * itself out (withdraw_if_closed). */
static void close_cell(_Atomic uintptr_t *c, uint64_t index, uint64_t s_close) {
  for (;;) {
    uintptr_t state = atomic_load(c);
    if (index < s_close) { /* a sender's cell */
      if (!is_waiter(state) || !(state & WAITER_SENDER)) return;
      if (atomic_compare_exchange_weak(c, &state, CELL_CLOSING)) {
        wake_closed(state);
        atomic_store(c, CELL_INTERRUPTED_SEND);
        return;
      }
    } else { /* a cell only receivers reach */
      if (is_waiter(state)) {
        /* A waituntil receive clause stays: it never becomes ready. */
        if (!is_thread_waiter(state)) return;
        if (atomic_compare_exchange_weak(c, &state, CELL_CLOSING)) {
          wake_thread(waiter_ptr(state), WAKE_CLOSED);
          atomic_store(c, CELL_CLOSED);
          return;
        }
      } else if (state == CELL_EMPTY || state == CELL_IN_BUFFER) {
        if (atomic_compare_exchange_weak(c, &state, CELL_CLOSED)) return;
      } else {
        return;
      }
    }
  }
}

static void close_impl(wuc_chan *ch);

void wuc_chan_close(wuc_chan *ch, size_t elem_size) {
  chan_ready(ch, elem_size, "chan_close");
  if (__builtin_expect(!wuc_tls_worker, 0)) {
    foreign_op_begin();
    close_impl(ch);
    wuc_reclaim_foreign_end();
    return;
  }
  wuc_reclaim_op_start(); /* no segment pointer held yet: may be a quiescent point */
  close_impl(ch);
}

static void close_impl(wuc_chan *ch) {
  struct wuc_chan_segment *seg = atomic_load(&ch->receive_segment);
  struct wuc_chan_segment *sseg = atomic_load(&ch->send_segment);
  if (sseg->id < seg->id) seg = sseg;
  uint64_t sc = atomic_fetch_or(&ch->senders, CLOSED_BIT);
  if (sc & CLOSED_BIT) return; /* idempotent */
  uint64_t s_close = sc;
  atomic_store(&ch->close_point, s_close + 1);
  atomic_fetch_or(&ch->attention, ATTENTION_CLOSED); /* seq_cst: see op_end */
  uint64_t r = atomic_load(&ch->receivers);
  uint64_t lo = r < s_close ? r : s_close, hi = r < s_close ? s_close : r;
  /* Senders never wait in an unbounded channel: below S_close there is
   * nothing to settle, only buffered elements (a Seq-style close of n
   * elements would otherwise walk n cells). */
  if (ch->capacity == WUC_CHAN_UNBOUNDED && lo < s_close) lo = s_close;
  /* A segment not there yet has nobody waiting in it, nor beyond. */
  for (struct cell_walk w = cell_walk_start(seg, lo, hi); cell_walk_next(&w);)
    close_cell(w.cell, w.index, s_close);
  wuc_chan_notify_closed_watchers(ch);
  /* A send clause set aside must learn that the channel is closed (it stops
   * the program when registered again); a receive clause finds the
   * channel's last elements, or that it is drained. */
  wuc_chan_wake_aside(ch, NULL);
}

bool wuc_chan_is_closed(wuc_chan *ch) {
  not_destroyed(ch, "chan_is_closed");
  return atomic_load(&ch->senders) & CLOSED_BIT;
}

/* Operations suspended in ch's cells, and closed(ch) clauses waiting. */
static unsigned count_waiters(wuc_chan *ch) {
  unsigned n = __atomic_load_n(&ch->watchers, __ATOMIC_RELAXED) ? 1 : 0;
  for (wuc_select_node *a = ch->aside; a;
       a = (wuc_select_node *)(a->res.word[RES_ASIDE] & ~(uint64_t)1))
    n++;
  uint64_t r = atomic_load(&ch->receivers), s = receivable(ch);
  uint64_t lo = r < s ? r : s, hi = r < s ? s : r;
  for (struct cell_walk w = cell_walk_start(ch->oldest, lo, hi); cell_walk_next(&w);) {
    uintptr_t state = atomic_load(w.cell);
    if (is_waiter(state) || is_busy(state)) n++;
  }
  return n;
}

size_t wuc_chan_len(wuc_chan *ch) {
  not_destroyed(ch, "chan_len");
  if (atomic_load_explicit(&ch->state, memory_order_acquire) != CHAN_READY) return 0;
  if (ch->capacity == 0) return 0; /* a rendezvous channel holds nothing */
  uint64_t r = atomic_load(&ch->receivers);
  uint64_t s = receivable(ch);
  /* S - R counts sends begun, interrupted ones too (a failed try, a
   * withdrawn clause): count the cells in between that hold an element.
   * The caller is not quiescent, so no segment it reaches is freed under
   * it; a removed segment held only interrupted cells. */
  size_t n = 0;
  for (struct cell_walk w = cell_walk_start(atomic_load(&ch->receive_segment), r, s);
       cell_walk_next(&w);)
    if (atomic_load(w.cell) == CELL_BUFFERED) n++;
  return n;
}

size_t wuc_chan_cap(wuc_chan *ch) {
  not_destroyed(ch, "chan_cap");
  if (atomic_load_explicit(&ch->state, memory_order_acquire) != CHAN_READY) return 0;
  return ch->capacity;
}

/* ---- waituntil clauses ------------------------------------------------------- *
 *
 * A clause registers through the same cell machines as a blocking
 * operation, with its node as the waiter (see struct waiter).  A registered
 * clause pins its segment until it unregisters. */

static __attribute__((noreturn, cold)) void send_on_closed_at(const char *site) {
  wuc_fatal("waituntil%s%s: send on a closed channel", site ? " at " : "", site ? site : "");
}

static __attribute__((noreturn)) void send_on_closed(wuc_select_node *n) {
  send_on_closed_at(n->site);
}

/* A clause registered before (and dropped for re-registration) lets go of
 * its old segment first. */
static void forget_registration(wuc_select_node *n) {
  struct wuc_chan_segment *seg = n->res.ptr[RES_SEGMENT];
  if (seg) {
    n->res.ptr[RES_SEGMENT] = NULL;
    wuc_chan_segment_unpin_clause(n->res.ptr[RES_CHAN], &n->stmt->thread->kept_pin, seg,
                                  n->res.word[RES_OWN_PIN], false);
  }
}

static void remember_registration(wuc_chan *ch, wuc_select_node *n, struct wuc_chan_segment *seg,
                                  uint64_t index) {
  n->res.word[RES_OWN_PIN] = wuc_chan_segment_pin_clause(&n->stmt->thread->kept_pin, seg);
  n->res.ptr[RES_SEGMENT] = seg;
  n->res.word[RES_INDEX] = index;
  n->res.ptr[RES_CHAN] = ch;
}

bool wuc_chan_send_register(wuc_chan_send_clause *clause, wuc_select_node *n) {
  wuc_chan *ch = clause->chan;
  chan_ready(ch, clause->elem_size, "waituntil (ch << e)");
  forget_registration(n);
  struct waiter w = {.kind = WAITER_CLAUSE, .node = n, .thread = NULL};
  struct wuc_chan_segment *seg;
  uint64_t s;
  bool completed = false;
  switch (send_cells(ch, n->data, &w, &seg, &s)) {
  case OUTCOME_COMPLETED:
    completed = true;
    break;
  case OUTCOME_WAITING:
    remember_registration(ch, n, seg, s);
    /* Waiting in a cell close had already scanned, it would wait forever:
     * like a blocking send it takes itself out, and a send on a closed
     * channel is a misuse.  If someone took it first, that one completed it
     * (a receiver) or failed it (close: on_selected reports it). */
    if (withdraw_if_closed(ch, seg, s, n, CELL_INTERRUPTED_SEND)) send_on_closed(n);
    break;
  case OUTCOME_CLOSED:
    send_on_closed(n);
  default:
    break;
  }
  op_end(ch, true, n->stmt);
  return completed;
}

bool wuc_chan_recv_register(wuc_chan_recv_clause *clause, wuc_select_node *n) {
  wuc_chan *ch = clause->chan;
  chan_ready(ch, clause->elem_size, "waituntil (x << ch)");
  forget_registration(n);
  struct waiter w = {.kind = WAITER_CLAUSE, .node = n, .thread = NULL};
  struct wuc_chan_segment *seg;
  uint64_t r;
  bool completed = false;
  switch (recv_cells(ch, n->data, &w, &seg, &r)) {
  case OUTCOME_COMPLETED:
    completed = true;
    break;
  case OUTCOME_WAITING:
    remember_registration(ch, n, seg, r);
    break;
  default: /* closed and drained: a receive clause is never ready */
    break;
  }
  op_end(ch, true, n->stmt);
  return completed;
}

/* ---- a lowered statement's early try (<wuc/waituntil.h>) ------------------- *
 *
 * The leading channel clauses of an all-or statement, tried in source order
 * before the statement is set up: the cell machine of chan_try_recv /
 * chan_try_send (WAITER_TRY), which gives its cell up rather than wait and
 * claims nothing of its own.  That is what each clause's try does
 * (WAITER_CLAUSE with try_only) in a statement none of whose nodes is queued
 * yet: its claim of its own node (a private try) cannot fail, and a clause
 * of its own statement is never in a cell.  Its end is the clause's (op_end
 * with took_cell, as reg).  The first clause's call starts the statement
 * (EARLY_FIRST), the last one's sets it up if nothing moved (EARLY_LAST):
 * one call per clause, as in the try pass, each specialised by the compiler
 * (the entry points below pass constants), so no call tests what it is. */

enum { EARLY_FIRST = 1, EARLY_LAST = 2 };

/* The statement starts: as wuc_wu_stmt_init, one operation for reclamation
 * (nothing is held yet: this may be a quiescent point). */
static inline struct wuc_uthread *early_start(void) {
  struct worker *w = wuc_tls_worker;
  if (__builtin_expect(!w || !w->current, 0)) wuc_current_thread_or_die("waituntil"); /* stops */
  struct wuc_uthread *t = w->current;
  wuc_reclaim_count_op(w);
  return t;
}

/* The early tries found nothing: the statement is set up as by wuc_wu_init
 * (`t`: the current thread, early_start's, or read again after a first call
 * that checked there is one). */
static void early_setup(wuc_wu *wu, struct wuc_uthread *t) {
  wuc_select_stmt_fill(&wu->s, t ? t : wuc_tls_worker->current, true, true);
  wu->next_reg = 0;
  wu->try_only = false;
}

static inline __attribute__((always_inline)) bool
recv_early(wuc_wu *wu, wuc_chan_recv_clause *clause, void *out, bool enabled, int how) {
  struct wuc_uthread *t = (how & EARLY_FIRST) ? early_start() : NULL;
  if (enabled) {
    wuc_chan *ch = clause->chan;
    chan_ready(ch, clause->elem_size, "waituntil (x << ch)");
    struct waiter w = {.kind = WAITER_TRY, .node = NULL, .thread = NULL};
    struct wuc_chan_segment *seg;
    uint64_t r;
    enum outcome outcome = recv_cells(ch, out, &w, &seg, &r);
    op_end(ch, true, NULL);
    if (outcome == OUTCOME_COMPLETED) return true;
  }
  if (how & EARLY_LAST) early_setup(wu, t);
  return false;
}

static inline __attribute__((always_inline)) bool send_early(wuc_wu *wu,
                                                             wuc_chan_send_clause *clause,
                                                             const void *value, bool enabled,
                                                             const char *site, int how) {
  struct wuc_uthread *t = (how & EARLY_FIRST) ? early_start() : NULL;
  if (enabled) {
    wuc_chan *ch = clause->chan;
    chan_ready(ch, clause->elem_size, "waituntil (ch << e)");
    struct waiter w = {.kind = WAITER_TRY, .node = NULL, .thread = NULL};
    struct wuc_chan_segment *seg;
    uint64_t s;
    enum outcome outcome = send_cells(ch, value, &w, &seg, &s);
    if (outcome == OUTCOME_CLOSED) send_on_closed_at(site);
    op_end(ch, true, NULL);
    if (outcome == OUTCOME_COMPLETED) return true;
  }
  if (how & EARLY_LAST) early_setup(wu, t);
  return false;
}

bool wuc_wu_recv_early(wuc_wu *wu, wuc_chan_recv_clause *clause, void *out, bool enabled) {
  return recv_early(wu, clause, out, enabled, EARLY_FIRST | EARLY_LAST);
}
bool wuc_wu_recv_early_first(wuc_wu *wu, wuc_chan_recv_clause *clause, void *out, bool enabled) {
  return recv_early(wu, clause, out, enabled, EARLY_FIRST);
}
bool wuc_wu_recv_early_next(wuc_wu *wu, wuc_chan_recv_clause *clause, void *out, bool enabled) {
  return recv_early(wu, clause, out, enabled, 0);
}
bool wuc_wu_recv_early_last(wuc_wu *wu, wuc_chan_recv_clause *clause, void *out, bool enabled) {
  return recv_early(wu, clause, out, enabled, EARLY_LAST);
}
bool wuc_wu_send_early(wuc_wu *wu, wuc_chan_send_clause *clause, const void *value, bool enabled,
                       const char *site) {
  return send_early(wu, clause, value, enabled, site, EARLY_FIRST | EARLY_LAST);
}
bool wuc_wu_send_early_first(wuc_wu *wu, wuc_chan_send_clause *clause, const void *value,
                             bool enabled, const char *site) {
  return send_early(wu, clause, value, enabled, site, EARLY_FIRST);
}
bool wuc_wu_send_early_next(wuc_wu *wu, wuc_chan_send_clause *clause, const void *value,
                            bool enabled, const char *site) {
  return send_early(wu, clause, value, enabled, site, 0);
}
bool wuc_wu_send_early_last(wuc_wu *wu, wuc_chan_send_clause *clause, const void *value,
                            bool enabled, const char *site) {
  return send_early(wu, clause, value, enabled, site, EARLY_LAST);
}

/* Withdraws a send or receive clause: takes its node out of its cell if it
 * is still there (the cell becomes `gone`), and says whether it completed. */
static bool clause_unregister(wuc_select_node *n, uintptr_t gone) {
  /* The common case, a clause that completed in its statement's try pass:
   * it holds no cell, and DONE means it won (withdraw would say so after a
   * close that changes nothing and a wait for DONE). */
  if (!n->res.ptr[RES_SEGMENT] &&
      atomic_load_explicit(&n->status, memory_order_acquire) == WUC_CLAUSE_DONE)
    return true;
  bool done = wuc_select_withdraw(n);
  struct wuc_chan_segment *seg = n->res.ptr[RES_SEGMENT];
  if (seg) {
    wuc_chan *ch = n->res.ptr[RES_CHAN];
    bool cleaned = false;
    if (!done) {
      /* Take n out of its cell, or wait until whoever took it is done with it. */
      _Atomic uintptr_t *c = cell(seg, n->res.word[RES_INDEX]);
      for (uintptr_t state = atomic_load(c);; state = atomic_load(c)) {
        if (is_waiter(state) && waiter_ptr(state) == n) {
          if (atomic_compare_exchange_weak(c, &state, gone)) {
            if (gone == CELL_INTERRUPTED_SEND && (state & WAITER_EB)) {
              /* expandBuffer left this sender's cell to its receiver, who
               * will now find it interrupted and not expand: expand for it,
               * or the buffer would lose a cell for good.  Not for a
               * receive clause: it expanded when it registered, and an
               * INTERRUPTED_RCV cell counts as buffer room, marked or not
               * (one more expansion would grow the buffer past capacity). */
              wuc_chan_segment_cell_cleaned(ch, seg);
              expand_buffer(ch);
            } else {
              cleaned = gone == CELL_INTERRUPTED_SEND ||
                        receive_cell_counts_cleaned(ch, n->res.word[RES_INDEX]);
            }
            break;
          }
        } else if (is_busy(state)) {
          cpu_relax();
        } else {
          break;
        }
      }
    }
    n->res.ptr[RES_SEGMENT] = NULL;
    wuc_chan_segment_unpin_clause(ch, &n->stmt->thread->kept_pin, seg, n->res.word[RES_OWN_PIN],
                                  cleaned);
    op_end(ch, false, NULL);
  } else if (!done) {
    /* Maybe set aside (it met a clause of its own statement and let go of
     * its cell, chan_aside.c); RES_CHAN is its channel then. */
    wuc_chan_unset_aside(n->res.ptr[RES_CHAN], n);
  }
  return done;
}

bool wuc_chan_send_unregister(wuc_chan_send_clause *clause, wuc_select_node *n) {
  (void)clause;
  return clause_unregister(n, CELL_INTERRUPTED_SEND);
}

bool wuc_chan_recv_unregister(wuc_chan_recv_clause *clause, wuc_select_node *n) {
  (void)clause;
  return clause_unregister(n, CELL_INTERRUPTED_RCV);
}

/* (wuc_chan_recv_on_selected is inline in <wuc/channel.h>.) */
bool wuc_chan_send_on_selected(wuc_chan_send_clause *clause, wuc_select_node *n) {
  (void)clause;
  if (n->res.word[RES_RESULT] == WAKE_CLOSED) send_on_closed(n); /* closed while waiting */
  return true;
}
