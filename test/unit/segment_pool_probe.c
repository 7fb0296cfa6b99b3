/* segment_pool_probe.c — runtime/segment_pool.h's rules, checked from C
 * (its headers are C11 only; segment_pool_test.cc calls these).  Each
 * returns 0, or the line of the first check that failed.  Run on the main
 * user thread, worker 0, of a fresh process. */
#include <pthread.h>
#include <stdlib.h>

#include "scheduler.h"
#include "segment_pool.h"

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) return __LINE__;                                                                  \
  } while (0)

enum { BYTES = 600 };

int segment_pool_reuses_on_the_same_worker(void) {
  struct segment_pool_tag tag, again;
  void *p = wuc_segment_pool_alloc(BYTES, &tag);
  CHECK(p && tag.owner == wuc_current_worker()->id + 1);
  wuc_segment_pool_free(p, tag);
  void *m = malloc(BYTES); /* kept by the pool, p is not malloc's to give */
  CHECK(m != p);
  free(m);
  CHECK(wuc_segment_pool_alloc(BYTES, &again) == p);
  CHECK(again.owner == tag.owner && again.size == tag.size);
  wuc_segment_pool_free(p, again);
  return 0;
}

enum { MANY = SEGMENT_POOL_KEEP + SEGMENT_POOL_REMOTE + 8 };

struct batch {
  int n;
  void *p[MANY];
  struct segment_pool_tag tag[MANY];
};

static int alloc_batch(struct batch *b, int n) {
  b->n = n;
  for (int i = 0; i < n; i++)
    if (!(b->p[i] = wuc_segment_pool_alloc(BYTES, &b->tag[i]))) return 0;
  return 1;
}

static void *free_batch(void *arg) {
  struct batch *b = arg;
  for (int i = 0; i < b->n; i++) wuc_segment_pool_free(b->p[i], b->tag[i]);
  return NULL;
}

/* Frees b on a kernel thread outside the runtime: no worker, so each free of
 * a segment allocated here is a remote one. */
static int free_batch_elsewhere(struct batch *b) {
  pthread_t t;
  return pthread_create(&t, NULL, free_batch, b) == 0 && pthread_join(t, NULL) == 0;
}

int segment_pool_takes_back_what_another_thread_freed(void) {
  static struct batch b, again;
  CHECK(alloc_batch(&b, 4));
  CHECK(free_batch_elsewhere(&b));
  struct segment_pool *pool = &wuc_current_worker()->segments;
  CHECK(atomic_load(&pool->remote_count) == 4);
  CHECK(alloc_batch(&again, 4)); /* the list is empty: it takes the remote stack */
  CHECK(atomic_load(&pool->remote_count) == 0 && atomic_load(&pool->remote) == NULL);
  for (int i = 0; i < 4; i++) {
    int found = 0;
    for (int j = 0; j < 4; j++) found += again.p[i] == b.p[j];
    CHECK(found == 1);
  }
  free_batch(&again);
  return 0;
}

int segment_pool_keeps_a_bounded_number(void) {
  static struct batch b;
  CHECK(alloc_batch(&b, MANY));
  free_batch(&b);
  struct segment_pool *pool = &wuc_current_worker()->segments;
  CHECK(pool->count[b.tag[0].size] == SEGMENT_POOL_KEEP); /* the rest went to malloc */
  CHECK(alloc_batch(&b, MANY));
  CHECK(pool->count[b.tag[0].size] == 0);
  CHECK(free_batch_elsewhere(&b));
  CHECK(atomic_load(&pool->remote_count) == SEGMENT_POOL_REMOTE);
  return 0;
}

int segment_pool_keeps_four_sizes(void) {
  struct segment_pool_tag tag;
  for (int i = 0; i < SEGMENT_POOL_SIZES; i++) {
    void *p = wuc_segment_pool_alloc(BYTES + 16 * (size_t)i, &tag);
    CHECK(p && tag.owner != 0 && tag.size == i);
    wuc_segment_pool_free(p, tag);
  }
  void *p = wuc_segment_pool_alloc(BYTES + 16 * SEGMENT_POOL_SIZES, &tag);
  CHECK(p && tag.owner == 0); /* a fifth size: malloc's */
  wuc_segment_pool_free(p, tag);
  return 0;
}

static void *alloc_outside(void *arg) {
  struct segment_pool_tag *tag = arg;
  void *p = wuc_segment_pool_alloc(BYTES, tag);
  wuc_segment_pool_free(p, *tag);
  return NULL;
}

int segment_pool_is_malloc_outside_the_workers(void) {
  struct segment_pool_tag tag = {.owner = 99};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, alloc_outside, &tag) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(tag.owner == 0);
  return 0;
}
