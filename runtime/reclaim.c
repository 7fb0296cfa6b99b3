/* reclaim.c — quiescent-state-based reclamation (see reclaim.h).
 *
 * Each worker publishes the global epoch it saw at its last quiescent point
 * (WORKER_OFFLINE while it sleeps).  A retired object stamped e is safe once
 * every worker's published epoch is > e: each of them has passed a quiescent
 * point after the object was unlinked.  Retired objects wait in the retiring
 * worker's list, in stamp order; it frees the safe prefix now and then. */
#include "reclaim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "fatal.h"
#include "scheduler.h"

#define WORKER_OFFLINE UINT64_MAX
/* Look for safe objects after this many retirements. */
#define SCAN_PERIOD 32

static _Atomic uint64_t global_epoch = 1;

/* Kernel threads outside the runtime (reclaim.h): one at a time, under
 * foreign_lock, publishes the epoch it saw in foreign_epoch, counted like a
 * worker's; what they retire waits in foreign_retired (under its own lock),
 * freed by the first worker that finds it safe. */
static pthread_mutex_t foreign_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t foreign_epoch = WORKER_OFFLINE;
static pthread_mutex_t foreign_retired_lock = PTHREAD_MUTEX_INITIALIZER;
static wuc_retired *foreign_head, *foreign_tail;
static _Atomic bool foreign_pending; /* foreign_head != NULL, read without the lock */

void wuc_reclaim_foreign_begin(void) {
  pthread_mutex_lock(&foreign_lock);
  atomic_store(&foreign_epoch, atomic_load(&global_epoch));
  atomic_thread_fence(memory_order_seq_cst); /* as wuc_reclaim_online */
}

void wuc_reclaim_foreign_end(void) {
  atomic_store_explicit(&foreign_epoch, WORKER_OFFLINE, memory_order_release);
  pthread_mutex_unlock(&foreign_lock);
}

static void retire_foreign(wuc_retired *r) {
  pthread_mutex_lock(&foreign_retired_lock);
  if (foreign_tail)
    foreign_tail->next = r;
  else
    foreign_head = r;
  foreign_tail = r;
  atomic_store_explicit(&foreign_pending, true, memory_order_relaxed);
  pthread_mutex_unlock(&foreign_retired_lock);
}

/* The safe prefix of the foreign list (stamps only grow along it), freed
 * outside the lock. */
static void free_safe_foreign(uint64_t safe_below) {
  if (!atomic_load_explicit(&foreign_pending, memory_order_relaxed) ||
      pthread_mutex_trylock(&foreign_retired_lock) != 0)
    return;
  wuc_retired *safe = NULL, **tail = &safe;
  while (foreign_head && foreign_head->epoch < safe_below) {
    *tail = foreign_head;
    tail = &foreign_head->next;
    foreign_head = foreign_head->next;
  }
  *tail = NULL;
  if (!foreign_head) {
    foreign_tail = NULL;
    atomic_store_explicit(&foreign_pending, false, memory_order_relaxed);
  }
  pthread_mutex_unlock(&foreign_retired_lock);
  while (safe) {
    wuc_retired *next = safe->next;
    safe->free_fn(safe);
    safe = next;
  }
}

static uint64_t min_published_epoch(void) {
  uint64_t min = atomic_load(&foreign_epoch);
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    uint64_t e = atomic_load(&wuc_sched.workers[i]->reclaim_epoch);
    if (e < min) min = e;
  }
  return min;
}

static void free_safe(struct worker *w) {
  uint64_t safe_below = min_published_epoch();
  free_safe_foreign(safe_below);
  while (w->retired_head && w->retired_head->epoch < safe_below) {
    wuc_retired *r = w->retired_head;
    w->retired_head = r->next;
    if (!w->retired_head) w->retired_tail = NULL;
    w->retired_count--;
    r->free_fn(r);
  }
}

void wuc_retire(wuc_retired *r, void (*free_fn)(wuc_retired *)) {
  struct worker *w = wuc_current_worker();
  r->free_fn = free_fn;
  r->next = NULL;
  /* Stamp with the epoch before advancing it: a worker that publishes the
   * new epoch has passed a quiescent point after the unlink. */
  r->epoch = atomic_fetch_add(&global_epoch, 1);
  if (!w) { /* a kernel thread outside the runtime, between foreign_begin and _end */
    retire_foreign(r);
    return;
  }
  if (w->retired_tail)
    w->retired_tail->next = r;
  else
    w->retired_head = r;
  w->retired_tail = r;
  if (++w->retired_count % SCAN_PERIOD == 0) free_safe(w);
}

/* Whether free_safe has anything to look at: w's list, or the foreign one. */
static inline bool anything_retired(struct worker *w) {
  return w->retired_head || atomic_load_explicit(&foreign_pending, memory_order_relaxed);
}

void wuc_reclaim_quiescent(struct worker *w) {
  uint64_t e = atomic_load_explicit(&global_epoch, memory_order_acquire);
  if (atomic_load_explicit(&w->reclaim_epoch, memory_order_relaxed) != e)
    atomic_store_explicit(&w->reclaim_epoch, e, memory_order_release);
  if (anything_retired(w) && (++w->reclaim_tick & 63) == 0) free_safe(w);
}

void wuc_reclaim_offline(struct worker *w) {
  if (anything_retired(w)) free_safe(w);
  atomic_store(&w->reclaim_epoch, WORKER_OFFLINE);
}

void wuc_reclaim_online(struct worker *w) {
  atomic_store(&w->reclaim_epoch, atomic_load(&global_epoch));
  atomic_thread_fence(memory_order_seq_cst);
}
