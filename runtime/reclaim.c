/* reclaim.c — quiescent-state-based reclamation (see reclaim.h).
 *
 * Each worker publishes the global epoch it saw at its last quiescent point
 * (WORKER_OFFLINE while it sleeps).  A retired object stamped e is safe once
 * every worker's published epoch is > e: each of them has passed a quiescent
 * point after the object was unlinked.  Retired objects wait in the retiring
 * worker's list, in stamp order; it frees the safe prefix now and then. */
#include "reclaim.h"

#include <stdatomic.h>

#include "fatal.h"
#include "scheduler.h"

#define WORKER_OFFLINE UINT64_MAX
/* Look for safe objects after this many retirements. */
#define SCAN_PERIOD 32

static _Atomic uint64_t global_epoch = 1;

static uint64_t min_published_epoch(void) {
  uint64_t min = WORKER_OFFLINE;
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    uint64_t e = atomic_load(&wuc_sched.workers[i]->reclaim_epoch);
    if (e < min) min = e;
  }
  return min;
}

static void free_safe(struct worker *w) {
  uint64_t safe_below = min_published_epoch();
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
  if (!w) wuc_fatal("wuc_retire called outside the wuc runtime");
  r->free_fn = free_fn;
  r->next = NULL;
  /* Stamp with the epoch before advancing it: a worker that publishes the
   * new epoch has passed a quiescent point after the unlink. */
  r->epoch = atomic_fetch_add(&global_epoch, 1);
  if (w->retired_tail)
    w->retired_tail->next = r;
  else
    w->retired_head = r;
  w->retired_tail = r;
  if (++w->retired_count % SCAN_PERIOD == 0) free_safe(w);
}

void wuc_reclaim_quiescent(struct worker *w) {
  uint64_t e = atomic_load_explicit(&global_epoch, memory_order_acquire);
  if (atomic_load_explicit(&w->reclaim_epoch, memory_order_relaxed) != e)
    atomic_store_explicit(&w->reclaim_epoch, e, memory_order_release);
  if (w->retired_head && (++w->reclaim_tick & 63) == 0) free_safe(w);
}

void wuc_reclaim_offline(struct worker *w) {
  if (w->retired_head) free_safe(w);
  atomic_store(&w->reclaim_epoch, WORKER_OFFLINE);
}

void wuc_reclaim_online(struct worker *w) {
  atomic_store(&w->reclaim_epoch, atomic_load(&global_epoch));
  atomic_thread_fence(memory_order_seq_cst);
}
