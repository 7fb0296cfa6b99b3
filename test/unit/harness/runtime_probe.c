/* runtime_probe.c — see runtime_probe.h. */
#include "runtime_probe.h"

#include <scheduler.h>
#include <wuc.h>
#include <wuc/thread.h>

/* ~0u outside a worker: a timer the monitor fired (sysmon.h). */
unsigned probe_worker_id(void) {
  struct worker *w = wuc_current_worker();
  return w ? w->id : ~0u;
}

int probe_is_parked(const struct wuc_uthread *t) {
  return atomic_load(&((struct wuc_uthread *)t)->park_state) == PARK_PARKED;
}

void probe_await_parked(const struct wuc_uthread *t) {
  while (!probe_is_parked(t)) uthread_sleep(microseconds(20));
}

uint64_t probe_threads_run(unsigned worker) {
  struct wuc_worker_stats stats;
  wuc_worker_stats(worker, &stats);
  return stats.threads_run;
}

uint64_t probe_threads_stolen(unsigned worker) {
  struct wuc_worker_stats stats;
  wuc_worker_stats(worker, &stats);
  return stats.threads_stolen;
}

int64_t probe_pending_timers(void) { return wuc_timers_pending(); }

size_t probe_timer_heap_len(void) { return wuc_current_worker()->timers.len; }
