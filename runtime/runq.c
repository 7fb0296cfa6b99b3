/* runq.c — per-worker FIFO rings and the global queue (see runq.h). */
#include "runq.h"

#include <stdlib.h>

#include "fatal.h"

#include "scheduler.h"

#define RUNQ_MASK (WUC_RUNQ_SIZE - 1)

static inline struct wuc_uthread *slot_load(struct runq *q, uint32_t i) {
  return atomic_load_explicit(&q->slots[i & RUNQ_MASK], memory_order_relaxed);
}
static inline void slot_store(struct runq *q, uint32_t i, struct wuc_uthread *t) {
  atomic_store_explicit(&q->slots[i & RUNQ_MASK], t, memory_order_relaxed);
}

#define GLOBAL_MIN_CAPACITY 256

/* Makes room for n more threads in g (under its lock). */
static void global_reserve(struct global_runq *g, uint32_t n) {
  uint32_t size = atomic_load_explicit(&g->size, memory_order_relaxed);
  if (size + n <= g->capacity) return;
  uint32_t capacity = g->capacity ? g->capacity : GLOBAL_MIN_CAPACITY;
  while (capacity < size + n) capacity *= 2;
  struct wuc_uthread **ring = malloc(capacity * sizeof *ring);
  if (!ring) wuc_fatal("out of memory growing the global run queue to %u threads", capacity);
  for (uint32_t i = 0; i < size; i++) ring[i] = g->ring[(g->head + i) & (g->capacity - 1)];
  free(g->ring);
  g->ring = ring;
  g->capacity = capacity;
  g->head = 0;
}

/* Appends batch[0 .. n) to g under one lock (an overflow moves 129 threads:
 * a lock per thread cost rss100k's wake loop ~50 instructions per thread). */
static void global_push_batch(struct global_runq *g, struct wuc_uthread *const *batch, uint32_t n) {
  pthread_mutex_lock(&g->lock);
  global_reserve(g, n);
  uint32_t size = atomic_load_explicit(&g->size, memory_order_relaxed);
  for (uint32_t i = 0; i < n; i++) g->ring[(g->head + size + i) & (g->capacity - 1)] = batch[i];
  atomic_store_explicit(&g->size, size + n, memory_order_seq_cst);
  pthread_mutex_unlock(&g->lock);
}

/* Moves half of a full local queue, plus t, to the global queue.  Fails (and
 * the caller retries the fast path) if a thief emptied part of it meanwhile. */
static bool runq_push_overflow(struct worker *w, struct wuc_uthread *t, uint32_t head,
                               uint32_t tail) {
  struct runq *q = &w->runq;
  uint32_t n = (tail - head) / 2;
  struct wuc_uthread *batch[WUC_RUNQ_SIZE / 2 + 1];
  for (uint32_t i = 0; i < n; i++) batch[i] = slot_load(q, head + i);
  if (!atomic_compare_exchange_strong_explicit(&q->head, &head, head + n, memory_order_release,
                                               memory_order_relaxed))
    return false;
  batch[n] = t;
  global_push_batch(&wuc_sched.global, batch, n + 1);
  return true;
}

void wuc_runq_push(struct worker *w, struct wuc_uthread *t) {
  struct runq *q = &w->runq;
  for (;;) {
    uint32_t head = atomic_load_explicit(&q->head, memory_order_acquire);
    uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
    if (tail - head < WUC_RUNQ_SIZE) {
      slot_store(q, tail, t);
      atomic_store_explicit(&q->tail, tail + 1, memory_order_release);
      return;
    }
    if (runq_push_overflow(w, t, head, tail)) return;
  }
}

struct wuc_uthread *wuc_runq_pop(struct worker *w) {
  struct runq *q = &w->runq;
  for (;;) {
    uint32_t head = atomic_load_explicit(&q->head, memory_order_acquire);
    uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
    if (tail == head) return NULL;
    struct wuc_uthread *t = slot_load(q, head);
    if (atomic_compare_exchange_weak_explicit(&q->head, &head, head + 1, memory_order_release,
                                              memory_order_relaxed))
      return t;
  }
}

bool wuc_runq_empty(struct runq *q) {
  uint32_t head = atomic_load_explicit(&q->head, memory_order_acquire);
  uint32_t tail = atomic_load_explicit(&q->tail, memory_order_acquire);
  return head == tail;
}

struct wuc_uthread *wuc_runq_steal(struct worker *thief, struct worker *victim) {
  struct runq *from = &victim->runq, *to = &thief->runq;
  uint32_t to_tail = atomic_load_explicit(&to->tail, memory_order_relaxed);
  for (;;) {
    uint32_t head = atomic_load_explicit(&from->head, memory_order_acquire);
    uint32_t tail = atomic_load_explicit(&from->tail, memory_order_acquire);
    uint32_t n = tail - head;
    n -= n / 2;
    if (n == 0) return NULL;
    if (n > WUC_RUNQ_SIZE / 2) continue; /* read head and tail at different times */
    /* Copy into our own ring beyond its tail: invisible until tail moves. */
    for (uint32_t i = 0; i < n; i++) slot_store(to, to_tail + i, slot_load(from, head + i));
    if (atomic_compare_exchange_weak_explicit(&from->head, &head, head + n, memory_order_release,
                                              memory_order_relaxed)) {
      struct wuc_uthread *t = slot_load(to, to_tail + n - 1);
      if (n > 1) atomic_store_explicit(&to->tail, to_tail + n - 1, memory_order_release);
      return t;
    }
  }
}

void wuc_global_runq_push(struct global_runq *g, struct wuc_uthread *t) {
  global_push_batch(g, &t, 1);
}

struct wuc_uthread *wuc_global_runq_take(struct global_runq *g, struct worker *w) {
  if (atomic_load_explicit(&g->size, memory_order_relaxed) == 0) return NULL;
  pthread_mutex_lock(&g->lock);
  uint32_t size = atomic_load_explicit(&g->size, memory_order_relaxed);
  if (size == 0) {
    pthread_mutex_unlock(&g->lock);
    return NULL;
  }
  uint32_t n = size / atomic_load(&wuc_sched.nworkers) + 1;
  if (n > size) n = size;
  if (n > WUC_RUNQ_SIZE / 2) n = WUC_RUNQ_SIZE / 2;
  /* Never overflow w's queue here: that would re-enter this lock. */
  uint32_t used = atomic_load_explicit(&w->runq.tail, memory_order_relaxed) -
                  atomic_load_explicit(&w->runq.head, memory_order_acquire);
  if (n > WUC_RUNQ_SIZE - used) n = WUC_RUNQ_SIZE - used;
  if (n == 0) n = 1;
  uint32_t mask = g->capacity - 1;
  struct wuc_uthread *first = g->ring[g->head];
  for (uint32_t i = 1; i < n; i++) wuc_runq_push(w, g->ring[(g->head + i) & mask]);
  g->head = (g->head + n) & mask;
  atomic_store_explicit(&g->size, size - n, memory_order_relaxed);
  pthread_mutex_unlock(&g->lock);
  return first;
}
