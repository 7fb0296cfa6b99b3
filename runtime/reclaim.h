/* reclaim.h — safe memory reclamation for lock-free structures (QSBR).
 *
 * Lock-free code reads pointers that another worker may unlink at any time;
 * the memory behind them can be freed only when no worker can still hold
 * such a pointer.  wuc uses quiescent-state-based reclamation, which costs
 * the fast paths nothing:
 *
 *   - a worker is *quiescent* whenever it schedules (and while it sleeps):
 *     user threads are never preempted, and runtime code never parks or
 *     yields while it holds a pointer it read from a shared structure, so at
 *     a scheduling point the worker holds no such pointer.  It announces
 *     that at every full look for work, at least every 31st schedule (a
 *     hand-off straight to the `next` thread skips it: scheduler.h; the
 *     full look of a channel operation's park makes it only after the
 *     switch, once the waiter is published: park.h), while it sleeps, and
 *     every 256 operations (wuc_reclaim_op_start);
 *   - wuc_retire(p, free_fn) stamps p with the current global epoch and
 *     advances the epoch; p is freed once every worker has been quiescent
 *     after that stamp (a sleeping worker counts as quiescent).
 *
 * Obligation on users of this module: between reading a shared pointer and
 * the last use of what it points to, do not park, yield or sleep.  Memory
 * that must outlive a park (a channel segment holding a registered select
 * node) is pinned by a reference count of its own, on top of this.
 *
 * A worker that computes for a long time without scheduling delays
 * reclamation (memory, not correctness). */
#ifndef WUC_RUNTIME_RECLAIM_H
#define WUC_RUNTIME_RECLAIM_H

#include <stdint.h>

struct worker;

typedef struct wuc_retired {
  struct wuc_retired *next;
  uint64_t epoch;
  void (*free_fn)(struct wuc_retired *);
} wuc_retired;

/* Hands `r` (embedded in the object to free) to the reclaimer; free_fn runs
 * once no worker can hold a pointer to the object any more.  Call from a
 * user thread or a worker's scheduler, or between wuc_reclaim_foreign_begin
 * and _end. */
void wuc_retire(wuc_retired *r, void (*free_fn)(wuc_retired *));

/* For operations on reclaimable structures, called at their start (where
 * the caller holds no pointer into any): a thread that never blocks would
 * otherwise never let its worker pass a quiescent point.  Cheap: counts,
 * and announces one every 256 calls (scheduler.c; wuc_reclaim_count_op in
 * scheduler.h for callers that have the worker).  A waituntil statement
 * counts once, when it starts (wuc_statement_start, or wuc_wu_stmt_init for a
 * lowered one, or its early try: the first clause's wuc_wu_recv_early /
 * wuc_wu_send_early or ..._early_first; the set-up after the early tries
 * does not count again), not once per clause. */
void wuc_reclaim_op_start(void);

/* Around a non-blocking operation on reclaimable structures made by a kernel
 * thread outside the runtime (a foreign thread's chan_try_send or
 * chan_close, the monitor dispatching a signal to its channels): the thread
 * counts as a worker that is not quiescent, one such thread at a time (a
 * mutex: these operations are rare and short), and what it retires waits on
 * a list of its own until a worker finds it safe. */
void wuc_reclaim_foreign_begin(void);
void wuc_reclaim_foreign_end(void);

/* Scheduler hooks: a quiescent point, going to sleep, waking up. */
void wuc_reclaim_quiescent(struct worker *w);
void wuc_reclaim_offline(struct worker *w);
void wuc_reclaim_online(struct worker *w);

#endif
