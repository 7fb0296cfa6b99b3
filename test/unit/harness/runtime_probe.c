/* runtime_probe.c — see runtime_probe.h. */
#include "runtime_probe.h"

#include <stdlib.h>
#include <string.h>

#include <poller.h>
#include <scheduler.h>
#include <stack.h>
#include <sysmon.h>
#include <wuc.h>
#include <wuc/fd.h>
#include <wuc/select.h>
#include <wuc/thread.h>

/* ~0u outside a worker: a timer the monitor fired (sysmon.h). */
unsigned probe_worker_id(void) {
  struct worker *w = wuc_current_worker();
  return w ? w->id : ~0u;
}

int probe_is_parked(const struct wuc_uthread *t) {
  int state = atomic_load(&((struct wuc_uthread *)t)->park_state);
  return state == PARK_PARKED || state == PARK_PUBLISHED; /* (a statement's or thread waiter's) */
}

void probe_await_parked(const struct wuc_uthread *t) {
  while (!probe_is_parked(t)) uthread_sleep(microseconds(20));
}

void probe_ask_to_yield(void) {
  struct worker *w = wuc_current_worker();
  atomic_store(&w->yield_request, atomic_load(&w->threads_run) + 1);
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

int64_t probe_needed_timers(void) { return wuc_timers_pending_needed(); }

uint64_t probe_timers_started(void) {
  uint64_t started = 0;
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) started += atomic_load(&wuc_sched.workers[i]->timers.started);
  return started;
}

int probe_worker_idle(unsigned worker) { return atomic_load(&wuc_sched.workers[worker]->idle); }

void probe_leave_timers_to_alarms(void) {
  atomic_store(&wuc_sysmon_alarm_backup_ns, INT64_MAX / 2);
}

int probe_worker_has_alarm(unsigned worker) {
  return atomic_load(&wuc_sched.workers[worker]->has_alarm);
}

size_t probe_timer_heap_len(void) { return wuc_current_worker()->timers.len; }

struct registry_walk {
  unsigned long ids[256];
  int count;
  int overflow;
};

static void registry_walk_visit(struct wuc_uthread *t, void *arg) {
  struct registry_walk *w = arg;
  if (w->count == 256)
    w->overflow = 1;
  else
    w->ids[w->count++] = t->id;
}

const char *probe_registry_walk(const unsigned *on, int n) {
  static struct wuc_uthread made_up[64];
  static struct registry_walk walk;
  if (n > 64) return "too many threads";
  for (int i = 0; i < n; i++) {
    memset(&made_up[i], 0, sizeof made_up[i]);
    wuc_registry_add(wuc_sched.workers[on[i]], &made_up[i]);
  }
  walk.count = walk.overflow = 0;
  unsigned lists = wuc_registry_lock_all();
  unsigned long live = wuc_registry_live();
  wuc_registry_each(lists, registry_walk_visit, &walk);
  wuc_registry_unlock_all(lists);
  for (int i = 0; i < n; i++) wuc_registry_remove(&made_up[i]);
  if (walk.overflow) return "more than 256 threads";
  if ((unsigned long)walk.count != live) return "the walk and the live count disagree";
  for (int i = 1; i < walk.count; i++)
    if (walk.ids[i] <= walk.ids[i - 1]) return "ids out of order";
  for (int i = 0; i < n; i++) {
    int found = 0;
    for (int j = 0; j < walk.count; j++) found += walk.ids[j] == made_up[i].id;
    if (found != 1) return "a made-up thread missing";
  }
  return NULL;
}

int probe_handle_in_slot(const struct wuc_uthread *t) {
  const char *h = (const char *)t;
  return h >= t->stack.top && h < t->stack.top + WUC_STACK_SLOT;
}

const void *probe_stack_of(const struct wuc_uthread *t) { return t->stack.base; }

int probe_has_exited(const struct wuc_uthread *t) {
  return atomic_load(&((struct wuc_uthread *)t)->park_state) == PARK_EXITED;
}

int probe_trim_stacks(void) {
  /* An hour ahead: every pooled stack has aged; each call plans the next
   * (a batch later, or once the rest has aged), INT64_MAX when done. */
  int64_t now = wuc_now() + 3600 * (int64_t)1000000000;
  int calls = 0;
  for (int64_t next; calls < 100000 && (next = wuc_stacks_trim(now)) != INT64_MAX; calls++)
    if (next > now) now = next;
  return calls;
}

int probe_fd_kind(int fd) { return atomic_load(&wuc_fd_entry(fd)->kind); }

void probe_fd_mark_drained(int fd) {
  struct fd_entry *e = wuc_fd_entry(fd);
  atomic_store(&e->drained, UINT64_C(1) << 32 | atomic_load(&e->seq[FD_READ]));
}

int probe_fd_drained(int fd) { return atomic_load(&wuc_fd_entry(fd)->drained) != 0; }

int probe_fd_try_readable(int fd, int waits_after_try) {
  wuc_select_stmt s;
  wuc_select_stmt_init(&s, 1);
  s.waits_after_try = waits_after_try != 0;
  wuc_select_node n;
  wuc_select_node_init(&n, &s, NULL);
  n.try_only = 1;
  wuc_fd_clause c = wuc_readable_make(fd);
  return wuc_fd_register(&c, &n);
}

long probe_global_runq_fifo(int rounds) {
  enum { THINGS = 1 << 16 };
  static char things[THINGS]; /* stand-ins: the queue never reads a handle */
  struct global_runq g = {.lock = PTHREAD_MUTEX_INITIALIZER};
  struct worker *w = calloc(1, sizeof *w);
  long in = 0, out = 0;
  uint32_t rng = 12345;
  for (int r = 0; r < rounds && in < THINGS; r++) {
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    long burst = rng % 700, takes = (rng >> 10) % 4;
    for (long i = 0; i < burst && in < THINGS; i++)
      wuc_global_runq_push(&g, (struct wuc_uthread *)(void *)&things[in++]);
    for (long k = 0; k <= takes || (r == rounds - 1 && atomic_load(&g.size)); k++) {
      struct wuc_uthread *t = wuc_global_runq_take(&g, w);
      if (!t) break;
      for (; t; t = wuc_runq_pop(w), out++)
        if ((char *)(void *)t != &things[out]) {
          free(w);
          return -1 - out;
        }
    }
  }
  free(w);
  free(g.ring);
  return out == in ? out : -1 - out;
}
