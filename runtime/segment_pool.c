/* segment_pool.c — channel segments kept for reuse (see segment_pool.h). */
#include "segment_pool.h"

#include <stdbool.h>
#include <stdlib.h>

#include "sanitizer.h"
#include "scheduler.h"

struct pooled_segment {
  struct pooled_segment *next;
  uint8_t size;
};

#if defined(WUC_ASAN) || defined(WUC_TSAN)
#define POOL_ENABLED false
#else
#define POOL_ENABLED true
#endif

/* The index of `bytes` among p's sizes, claiming a free one; -1 if all four
 * hold other sizes. */
static int size_index(struct segment_pool *p, size_t bytes) {
  for (int k = 0; k < SEGMENT_POOL_SIZES; k++) {
    if (p->bytes[k] == bytes) return k;
    if (p->bytes[k] == 0) {
      p->bytes[k] = bytes;
      return k;
    }
  }
  return -1;
}

static void keep(struct segment_pool *p, struct pooled_segment *s) {
  if (p->count[s->size] >= SEGMENT_POOL_KEEP) {
    free(s);
    return;
  }
  s->next = p->kept[s->size];
  p->kept[s->size] = s;
  p->count[s->size]++;
}

/* Moves the remote stack onto the lists. */
static void take_remote(struct segment_pool *p) {
  struct pooled_segment *s = atomic_exchange_explicit(&p->remote, NULL, memory_order_acquire);
  uint32_t n = 0;
  while (s) {
    struct pooled_segment *next = s->next;
    keep(p, s);
    s = next;
    n++;
  }
  atomic_fetch_sub_explicit(&p->remote_count, n, memory_order_relaxed);
}

void *wuc_segment_pool_alloc(size_t bytes, struct segment_pool_tag *tag) {
  struct worker *w = POOL_ENABLED ? wuc_current_worker() : NULL;
  int k = w ? size_index(&w->segments, bytes) : -1;
  if (k < 0) {
    tag->owner = 0;
    return malloc(bytes);
  }
  struct segment_pool *p = &w->segments;
  tag->owner = (uint16_t)(w->id + 1);
  tag->size = (uint8_t)k;
  if (!p->kept[k] && atomic_load_explicit(&p->remote, memory_order_relaxed)) take_remote(p);
  struct pooled_segment *s = p->kept[k];
  if (!s) return malloc(bytes);
  p->kept[k] = s->next;
  p->count[k]--;
  return s;
}

void wuc_segment_pool_free(void *ptr, struct segment_pool_tag tag) {
  if (tag.owner == 0) {
    free(ptr);
    return;
  }
  struct worker *owner = wuc_sched.workers[tag.owner - 1];
  struct pooled_segment *s = ptr;
  s->size = tag.size;
  if (wuc_current_worker() == owner) {
    keep(&owner->segments, s);
    return;
  }
  struct segment_pool *p = &owner->segments;
  if (atomic_fetch_add_explicit(&p->remote_count, 1, memory_order_relaxed) >= SEGMENT_POOL_REMOTE) {
    atomic_fetch_sub_explicit(&p->remote_count, 1, memory_order_relaxed);
    free(ptr);
    return;
  }
  struct pooled_segment *top = atomic_load_explicit(&p->remote, memory_order_relaxed);
  do s->next = top;
  while (!atomic_compare_exchange_weak_explicit(&p->remote, &top, s, memory_order_release,
                                                memory_order_relaxed));
}

size_t wuc_segment_pools_held_bytes(void) {
  size_t held = 0;
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    struct segment_pool *p = &wuc_sched.workers[i]->segments;
    for (int k = 0; k < SEGMENT_POOL_SIZES; k++) held += (size_t)p->count[k] * p->bytes[k];
    for (struct pooled_segment *s = atomic_load(&p->remote); s; s = s->next)
      held += p->bytes[s->size];
  }
  return held;
}
