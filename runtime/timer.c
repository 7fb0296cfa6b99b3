/* timer.c — per-worker timer heaps with O(1) cancel (see timer_heap.h). */
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "scheduler.h"
#include "spin.h"
#include "sysmon.h"
#include "timer_heap.h"

#define SLOT_STATE(s) ((s)&3u)
#define SLOT_GEN(s) ((s) >> 2)
#define SLOTS_PER_CHUNK 64

static struct timer_slot *slot_alloc(struct worker *w) {
  struct timer_heap *h = &w->timers;
  if (!h->free_slots) {
    /* Slots are never returned to malloc: a canceller on another worker may
     * still read a recycled slot's state word. */
    struct timer_slot *chunk = calloc(SLOTS_PER_CHUNK, sizeof *chunk);
    if (!chunk) wuc_fatal("out of memory allocating timers");
    for (int i = 0; i < SLOTS_PER_CHUNK; i++) {
      chunk[i].state = SLOT_FIRED; /* generation 0, not live */
      /* Written once, here: a canceller reads it after its CAS, when the
       * owner may already be recycling the slot (ThreadSanitizer found the
       * rewrite at every start racing that read). */
      chunk[i].owner = w;
      chunk[i].free_next = h->free_slots;
      h->free_slots = &chunk[i];
    }
  }
  struct timer_slot *s = h->free_slots;
  h->free_slots = s->free_next;
  return s;
}

static void slot_free(struct timer_heap *h, struct timer_slot *s) {
  s->timer = NULL;
  s->free_next = h->free_slots;
  h->free_slots = s;
}

static inline int slot_before(const struct timer_slot *a, const struct timer_slot *b) {
  return a->deadline < b->deadline || (a->deadline == b->deadline && a->sequence < b->sequence);
}

static void sift_up(struct timer_heap *h, size_t i) {
  struct timer_slot *s = h->heap[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!slot_before(s, h->heap[parent])) break;
    h->heap[i] = h->heap[parent];
    i = parent;
  }
  h->heap[i] = s;
}

static void sift_down(struct timer_heap *h, size_t i) {
  struct timer_slot *s = h->heap[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= h->len) break;
    if (child + 1 < h->len && slot_before(h->heap[child + 1], h->heap[child])) child++;
    if (!slot_before(h->heap[child], s)) break;
    h->heap[i] = h->heap[child];
    i = child;
  }
  h->heap[i] = s;
}

static struct timer_slot *heap_pop(struct timer_heap *h) {
  struct timer_slot *top = h->heap[0];
  h->heap[0] = h->heap[--h->len];
  if (h->len > 0) sift_down(h, 0);
  return top;
}

/* Drops every cancelled slot and re-heapifies: O(n), run when cancelled slots
 * exceed a quarter of the heap, so each cancel costs O(1) amortised. */
/* A count only the holder of the heap's lock changes (no locked add). */
static inline void count_under_lock(_Atomic uint64_t *c, uint64_t n) {
  atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_release);
}

int64_t wuc_timers_pending(void) {
  int64_t pending = 0;
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    struct timer_heap *h = &wuc_sched.workers[i]->timers;
    /* The ends before the starts: a timer that starts and ends between the
     * loads is then counted as pending, never the other way round. */
    uint64_t cancelled = atomic_load_explicit(&h->cancelled, memory_order_acquire);
    uint64_t fired = atomic_load_explicit(&h->fired, memory_order_acquire);
    pending +=
        (int64_t)(atomic_load_explicit(&h->started, memory_order_acquire) - fired - cancelled);
  }
  return pending;
}

int64_t wuc_timers_pending_needed(void) {
  if (wuc_timers_pending() == 0) return 0;
  /* Drop the thread timers no clause uses (wuc_thread_timer_drop_idle),
   * wherever they are in the heaps, then count again. */
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    struct timer_heap *h = &wuc_sched.workers[i]->timers;
    wuc_spin_lock(&h->lock);
    for (size_t k = 0; k < h->len; k++) {
      struct timer_slot *s = h->heap[k];
      if (s->thread_timer &&
          SLOT_STATE(atomic_load_explicit(&s->state, memory_order_acquire)) == SLOT_PENDING)
        (void)wuc_thread_timer_drop_idle(s->timer, h);
    }
    wuc_spin_unlock(&h->lock);
  }
  return wuc_timers_pending();
}

static __attribute__((noinline)) void heap_compact(struct timer_heap *h) {
  size_t kept = 0;
  int64_t dropped = 0;
  for (size_t i = 0; i < h->len; i++) {
    struct timer_slot *s = h->heap[i];
    if (SLOT_STATE(atomic_load_explicit(&s->state, memory_order_acquire)) == SLOT_CANCELLED) {
      slot_free(h, s);
      dropped++;
    } else {
      h->heap[kept++] = s;
    }
  }
  h->len = kept;
  count_under_lock(&h->dropped, (uint64_t)dropped);
  for (size_t i = h->len / 2; i-- > 0;) sift_down(h, i);
}

/* Inline: every start asks (two loads and a compare), and compacts rarely. */
static inline __attribute__((always_inline)) void maybe_compact(struct timer_heap *h) {
  if (h->len < 64) return;
  int64_t dead = (int64_t)(atomic_load_explicit(&h->cancelled, memory_order_relaxed) -
                           atomic_load_explicit(&h->dropped, memory_order_relaxed));
  if (dead > (int64_t)(h->len / 4)) heap_compact(h);
}

/* Called with the lock held, after every change of the top. */
static void publish_earliest(struct timer_heap *h) {
  atomic_store_explicit(&h->earliest, h->len ? h->heap[0]->deadline : INT64_MAX,
                        memory_order_release);
}

/* Tells a cancel running inside a fire which kernel thread is firing: the
 * address of a thread-local byte is unique per kernel thread. */
static __thread char firing_here;
/* The worker whose timer this kernel thread is firing, if it is no worker
 * itself (the monitor): a timer that fire() starts goes on that heap. */
static __thread struct worker *firing_for;

void wuc_timer_start(wuc_timer *t, int64_t deadline, void (*fire)(wuc_timer *t)) {
  struct worker *w = wuc_current_worker();
  bool foreign = !w; /* the monitor, firing w's timers */
  if (!w) w = firing_for;
  if (!w) wuc_check_not_forked("wuc_timer_start");
  if (!w) wuc_fatal("wuc_timer_start called outside the wuc runtime");
  if (!fire) wuc_fatal("wuc_timer_start: NULL fire function");
  struct timer_heap *h = &w->timers;
  wuc_spin_lock(&h->lock);
  maybe_compact(h);
  if (h->len == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 64;
    struct timer_slot **heap = realloc(h->heap, cap * sizeof *heap);
    if (!heap) wuc_fatal("out of memory allocating timers");
    h->heap = heap;
    h->cap = cap;
  }
  struct timer_slot *s = slot_alloc(w);
  uint64_t generation = SLOT_GEN(atomic_load_explicit(&s->state, memory_order_relaxed)) + 1;
  s->deadline = deadline;
  s->sequence = h->next_sequence++;
  s->timer = t;
  s->thread_timer = fire == wuc_thread_timer_fire;
  /* A thread timer is started again while a fire of its last slot may be
   * reading t->fire (timeout.c): the same value, left unwritten. */
  if (t->fire != fire) t->fire = fire;
  t->slot = s;
  t->generation = generation;
  count_under_lock(&h->started, 1);
  atomic_store_explicit(&s->state, generation << 2 | SLOT_PENDING, memory_order_release);
  h->heap[h->len] = s;
  sift_up(h, h->len++);
  bool new_top = h->heap[0] == s;
  if (new_top) publish_earliest(h);
  wuc_spin_unlock(&h->lock);
  if (new_top) {
    wuc_sysmon_timer_started(deadline);
    /* The monitor fires the timers of a worker it saw busy; that worker
     * may have gone idle since, its sleep set without this slot, and the
     * monitor does not watch idle workers' heaps: wake it to look again.
     * (Dekker: it sets `idle` before it reads its heap under the lock.) */
    if (foreign) wuc_wake_worker_if_idle(w);
  }
}

bool wuc_timer_cancel(wuc_timer *t) {
  struct timer_slot *s = t->slot;
  if (!s) wuc_fatal("wuc_timer_cancel: timer %p was never started", (void *)t);
  uint64_t pending = t->generation << 2 | SLOT_PENDING;
  for (;;) {
    uint64_t state = atomic_load_explicit(&s->state, memory_order_acquire);
    if (SLOT_GEN(state) != t->generation) return false; /* fired, slot reused */
    switch (SLOT_STATE(state)) {
    case SLOT_PENDING:
      if (atomic_compare_exchange_weak(&s->state, &pending, t->generation << 2 | SLOT_CANCELLED)) {
        atomic_fetch_add_explicit(&s->owner->timers.cancelled, 1, memory_order_release);
        return true;
      }
      pending = t->generation << 2 | SLOT_PENDING;
      break;
    case SLOT_FIRING:
      /* Called from t's own fire(): it is running below us. */
      if (atomic_load_explicit(&s->firer, memory_order_relaxed) == &firing_here) return false;
      cpu_relax(); /* fire() is short; after it returns *t is ours again */
      break;
    default:
      return false;
    }
  }
}

int wuc_timers_run(struct worker *w, int64_t now) {
  struct timer_heap *h = &w->timers;
  struct worker *me = wuc_current_worker();
  if (me == w)
    wuc_spin_lock(&h->lock);
  else if (!wuc_spin_trylock(&h->lock))
    return 0; /* somebody is at it */
  int fired = 0;
  maybe_compact(h);
  while (h->len > 0 && h->heap[0]->deadline <= now) {
    struct timer_slot *s = heap_pop(h);
    uint64_t state = atomic_load_explicit(&s->state, memory_order_acquire);
    uint64_t firing = (state & ~(uint64_t)3) | SLOT_FIRING;
    atomic_store_explicit(&s->firer, &firing_here, memory_order_relaxed);
    if (SLOT_STATE(state) != SLOT_PENDING ||
        !atomic_compare_exchange_strong(&s->state, &state, firing)) {
      count_under_lock(&h->dropped, 1);
      slot_free(h, s);
      continue;
    }
    publish_earliest(h);
    /* fire() runs without the lock: it may start a timer (on this heap,
     * when the monitor runs it: wuc_timer_start).  The slot counts as
     * pending until fire() has returned: the deadlock report must not see
     * "no timer pending" while a fire is about to wake a thread or to start
     * a thread's timer again (timeout.c); a true report this delays waits for
     * the next worker that goes idle. */
    wuc_spin_unlock(&h->lock);
    wuc_timer *t = s->timer;
    struct worker *firing_for_before = firing_for;
    firing_for = w;
    if (me) me->in_timer_callbacks = true;
    t->fire(t);
    if (me) me->in_timer_callbacks = false;
    firing_for = firing_for_before;
    atomic_store_explicit(&s->state, (firing & ~(uint64_t)3) | SLOT_FIRED, memory_order_release);
    fired++;
    wuc_spin_lock(&h->lock);
    count_under_lock(&h->fired, 1);
    slot_free(h, s);
  }
  publish_earliest(h);
  wuc_spin_unlock(&h->lock);
  return fired;
}

int64_t wuc_timers_next_deadline(struct worker *w) {
  struct timer_heap *h = &w->timers;
  if (wuc_timers_earliest(h) == INT64_MAX) return INT64_MAX;
  wuc_spin_lock(&h->lock);
  while (h->len > 0) {
    struct timer_slot *top = h->heap[0];
    /* A pending thread timer is alive while we hold the lock
     * (wuc_thread_timer_end cancels under it); one nobody uses is dropped,
     * so that an idle worker neither sleeps until it nor keeps the deadlock
     * report waiting. */
    if (SLOT_STATE(atomic_load_explicit(&top->state, memory_order_acquire)) != SLOT_CANCELLED &&
        !(top->thread_timer && wuc_thread_timer_drop_idle(top->timer, h) &&
          SLOT_STATE(atomic_load_explicit(&top->state, memory_order_acquire)) == SLOT_CANCELLED))
      break;
    heap_pop(h);
    count_under_lock(&h->dropped, 1);
    slot_free(h, top);
  }
  publish_earliest(h);
  wuc_spin_unlock(&h->lock);
  return wuc_timers_earliest(h);
}
