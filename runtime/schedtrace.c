/* schedtrace.c — the scheduler's counters (wuc_stats, <wuc/thread.h>) and
 * the trace that prints them (schedtrace.h). */
#define _GNU_SOURCE
#include "schedtrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wuc/thread.h>

#include "blocking.h"
#include "fatal.h"
#include "poller.h"
#include "scheduler.h"

int64_t wuc_schedtrace_period_ns;
static bool detail;
static int64_t started_at;

void wuc_stats(struct wuc_stats *out) {
  memset(out, 0, sizeof *out);
  unsigned n = atomic_load(&wuc_sched.nworkers);
  out->workers = n;
  out->idle_workers = atomic_load(&wuc_sched.nidle);
  out->live_threads = wuc_registry_live();
  for (unsigned i = 0; i < n; i++) {
    struct worker *w = wuc_sched.workers[i];
    out->switches += atomic_load_explicit(&w->threads_run, memory_order_relaxed);
    out->steals += atomic_load_explicit(&w->threads_stolen, memory_order_relaxed);
    out->preemptions += atomic_load_explicit(&w->preemptions, memory_order_relaxed);
  }
  out->polls = atomic_load_explicit(&wuc_poll.polls, memory_order_relaxed);
  int64_t timers = wuc_timers_pending();
  long fds = atomic_load(&wuc_poll.waiting), jobs = atomic_load(&wuc_blocking_jobs);
  out->pending_timers = timers > 0 ? (uint64_t)timers : 0;
  out->fd_waiters = fds > 0 ? (uint64_t)fds : 0;
  out->blocking_jobs = jobs > 0 ? (uint64_t)jobs : 0;
}

/* WUC_DEBUG is a comma-separated list of key=value; the keys are Go's. */
void wuc_schedtrace_init(void) {
  const char *env = getenv("WUC_DEBUG");
  if (!env || !*env) return;
  for (const char *p = env; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char *num_end;
    long value;
    if (len > 11 && strncmp(p, "schedtrace=", 11) == 0 &&
        (value = strtol(p + 11, &num_end, 10)) > 0 && num_end == p + len) {
      wuc_schedtrace_period_ns = (int64_t)value * 1000000;
    } else if (len == 13 && strncmp(p, "scheddetail=", 12) == 0 && (p[12] == '0' || p[12] == '1')) {
      detail = p[12] == '1';
    } else {
      wuc_fatal("WUC_DEBUG=%s: expected schedtrace=MS (milliseconds, > 0) and scheddetail=0|1, "
                "separated by commas",
                env);
    }
    p += len + (end != NULL);
  }
  if (detail && !wuc_schedtrace_period_ns) wuc_schedtrace_period_ns = 1000000000;
  started_at = wuc_now();
}

static const char *worker_state(struct worker *w) {
  if (atomic_load_explicit(&w->idle, memory_order_relaxed))
    return atomic_load_explicit(&w->in_epoll, memory_order_relaxed) ? "polling" : "idle";
  return "busy";
}

/* One line per user thread, under the registry's locks (threads leave the
 * registry under them before they are freed; spawns and exits wait while
 * the lines are written).  Their wait fields are read while they run: a
 * line may mix two moments of one thread. */
static void print_thread(struct wuc_uthread *t, void *arg) {
  (void)arg;
  char who[512];
  wuc_describe_thread(t, who, sizeof who);
  int state = atomic_load_explicit(&t->park_state, memory_order_relaxed);
  const char *what = __atomic_load_n(&t->wait_what, __ATOMIC_RELAXED);
  bool parked = state == PARK_PARKED || state == PARK_IN_CELL;
  fprintf(stderr, "  %s: %s", who, parked ? "parked" : "runnable or running");
  if (parked && what) fprintf(stderr, " in %s", what);
  fputc('\n', stderr);
}

static void print_threads(void) {
  unsigned lists = wuc_registry_lock_all();
  wuc_registry_each(lists, print_thread, NULL);
  wuc_registry_unlock_all(lists);
}

void wuc_schedtrace_print(int64_t now) {
  struct wuc_stats s;
  wuc_stats(&s);
  fprintf(stderr,
          "SCHED %lldms: workers=%llu idle=%llu spinning=%u threads=%llu global=%u "
          "switches=%llu steals=%llu preemptions=%llu timers=%llu fdwaits=%llu polls=%llu "
          "blocking=%llu\n",
          (long long)((now - started_at) / 1000000), (unsigned long long)s.workers,
          (unsigned long long)s.idle_workers, atomic_load(&wuc_sched.nspinning),
          (unsigned long long)s.live_threads, atomic_load(&wuc_sched.global.size),
          (unsigned long long)s.switches, (unsigned long long)s.steals,
          (unsigned long long)s.preemptions, (unsigned long long)s.pending_timers,
          (unsigned long long)s.fd_waiters, (unsigned long long)s.polls,
          (unsigned long long)s.blocking_jobs);
  for (unsigned i = 0; i < s.workers; i++) {
    struct worker *w = wuc_sched.workers[i];
    uint32_t queued = atomic_load_explicit(&w->runq.tail, memory_order_relaxed) -
                      atomic_load_explicit(&w->runq.head, memory_order_relaxed);
    int64_t due = wuc_timers_earliest(&w->timers);
    fprintf(stderr, "  worker %u: %s runq=%u next=%s switches=%llu steals=%llu preemptions=%llu", i,
            worker_state(w), queued, atomic_load(&w->next) ? "yes" : "no",
            (unsigned long long)atomic_load(&w->threads_run),
            (unsigned long long)atomic_load(&w->threads_stolen),
            (unsigned long long)atomic_load(&w->preemptions));
    if (due != INT64_MAX) fprintf(stderr, " timer-in=%lldus", (long long)((due - now) / 1000));
    fputc('\n', stderr);
  }
  if (detail) print_threads();
}
