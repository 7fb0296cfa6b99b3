/* sysmon.c — the monitor thread (sysmon.h). */
#define _GNU_SOURCE
#include "sysmon.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "alarm.h"
#include "fatal.h"
#include "futex.h"
#include "poller.h"
#include "preempt.h"
#include "schedtrace.h"
#include "scheduler.h"
#include "stack.h"

struct sysmon_shared wuc_sysmon = {.sleep_until = SYSMON_NOT_RUNNING};
_Atomic int64_t wuc_sysmon_alarm_backup_ns = SYSMON_ALARM_BACKUP_NS;

/* Looking at a worker's CPU time twice this far apart tells a thread that
 * computes from one that sleeps in a system call. */
#define SYSMON_SAMPLE_NS 50000
/* How long a thread runs before it yields at a preemption point while other
 * threads wait on its worker (look_at). */
#define SYSMON_SHARE_SLICE_NS 250000
/* How often it polls fds while threads wait on them and no worker blocks in
 * epoll_wait (every worker is busy: poller.h). */
#define SYSMON_POLL_NS 200000
/* Wake-ups that find nothing to do come at most this often (doubling from
 * the grace), so that timers their own workers fire on time cost little. */
#define SYSMON_MAX_GAP_NS 1000000

/* What the monitor knows of one worker. */
struct watch {
  uint64_t tick;  /* the worker's threads_run when first seen */
  int64_t since;  /* when that was */
  int64_t cpu_at; /* the worker's CPU time on that tick, at cpu_wall_at (0: not yet) */
  int64_t cpu_wall_at;
  int64_t signalled_at;
  clockid_t cpu_clock; /* the worker's kernel thread's CPU clock */
};

static struct watch watches[WUC_MAX_WORKERS];

static int64_t read_clock(clockid_t clock) {
  struct timespec ts;
  if (clock_gettime(clock, &ts) != 0) return 0;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void wuc_sysmon_wake(void) {
  atomic_store(&wuc_sysmon.wake_word, 1);
  wuc_futex_wake_one(&wuc_sysmon.wake_word);
}

/* Whether the worker of w used the CPU for at least half the time since the
 * sample on its current tick (taking the sample first if there is none). */
static bool computing(struct watch *w, int64_t now) {
  if (w->cpu_at == 0) {
    w->cpu_at = read_clock(w->cpu_clock);
    w->cpu_wall_at = now;
    return false;
  }
  int64_t wall = now - w->cpu_wall_at;
  if (wall < SYSMON_SAMPLE_NS) return false;
  int64_t cpu = read_clock(w->cpu_clock);
  bool busy = 2 * (cpu - w->cpu_at) >= wall;
  if (!busy) { /* asleep in the kernel: judge the next stretch afresh */
    w->cpu_at = cpu;
    w->cpu_wall_at = now;
  }
  return busy;
}

/* One look at worker i: fires its overdue timers, preempts its thread if it
 * should be.  Returns when to look at it again; sets *acted if it did
 * anything. */
static int64_t look_at(unsigned i, int64_t now, bool *acted) {
  struct worker *v = wuc_sched.workers[i];
  struct watch *w = &watches[i];
  int64_t next = INT64_MAX;

  if (atomic_load_explicit(&v->idle, memory_order_relaxed)) return INT64_MAX; /* wakes itself */
  int64_t due = wuc_timers_earliest(&v->timers);
  int64_t grace = wuc_alarm_monitor_grace(v);
  if (due <= now - grace) {
    *acted |= wuc_timers_run(v, now) > 0;
    due = wuc_timers_earliest(&v->timers);
  }
  if (due != INT64_MAX) next = due + grace;

  uint64_t tick = atomic_load_explicit(&v->threads_run, memory_order_relaxed);
  if (wuc_timeslice_ns == 0) return next;
  if (tick != w->tick) { /* it switched since the last look: a new baseline */
    w->tick = tick;
    w->since = now;
    w->cpu_at = 0;
    computing(w, now);
  }
  int64_t slice_end = w->since + wuc_timeslice_ns;
  /* With threads waiting on its worker, a thread yields at its next
   * preemption point (scheduler.h) after a shorter slice: one whose blocking
   * operations keep finding their resource ready (a connection whose next
   * request is always there) would otherwise make each of them wait a whole
   * slice per thread ahead of it.  Only on the looks the monitor makes
   * anyway (every SYSMON_POLL_NS while threads wait on fds and every worker
   * is busy: the programs whose threads find I/O ready): waking for it would
   * cost every busy program with a backlog ~4,000 wake-ups a second. */
  if (now >= w->since + SYSMON_SHARE_SLICE_NS && !wuc_worker_has_no_work(v))
    atomic_store_explicit(&v->yield_request, tick + 1, memory_order_relaxed);
  /* Threads wait in the global queue (woken by a timer fired here, or by
   * a foreign kernel thread) and no worker is idle to take them: make room
   * now rather than at the end of the slice. */
  bool make_room = atomic_load(&wuc_sched.global.size) != 0 && atomic_load(&wuc_sched.nidle) == 0;
  if (now < slice_end && !make_room) return slice_end < next ? slice_end : next;
  /* A whole slice: the thread yields at its next preemption point
   * (scheduler.h), whether it computes or not — on a machine shared with
   * other processes a thread that runs all the time may get less than half
   * a CPU, and the signal below waits for that. */
  if (now >= slice_end) atomic_store_explicit(&v->yield_request, tick + 1, memory_order_relaxed);
  int64_t again = now + SYSMON_RETRY_NS;
  if (computing(w, now)) {
    if (now - w->signalled_at >= SYSMON_RETRY_NS) {
      w->signalled_at = now;
      wuc_preempt_request(v);
      *acted = true;
    }
  } else if (now - w->cpu_wall_at < SYSMON_SAMPLE_NS) {
    again = w->cpu_wall_at + SYSMON_SAMPLE_NS; /* judge as soon as a sample can tell */
  }
  return again < next ? again : next;
}

/* The earliest deadline at the top of a busy worker's heap, or INT64_MAX. */
static int64_t earliest_timer(unsigned n) {
  int64_t due = INT64_MAX;
  for (unsigned i = 0; i < n; i++) {
    struct worker *v = wuc_sched.workers[i];
    int64_t d = wuc_timers_earliest(&v->timers);
    if (d < due && !atomic_load_explicit(&v->idle, memory_order_relaxed)) due = d;
  }
  return due;
}

static void *sysmon_main(void *arg) {
  (void)arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* the program's signals go to its own threads */
  atomic_store_explicit(&wuc_sysmon.tid, gettid(), memory_order_relaxed);
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* its wake-ups are the timers' lateness */
  int64_t gap = SYSMON_TIMER_GRACE_NS;
  int64_t next_trace = wuc_now() + wuc_schedtrace_period_ns;
  for (;;) {
    atomic_store(&wuc_sysmon.wake_word, 0);
    int64_t now = wuc_now();
    unsigned n = atomic_load(&wuc_sched.nworkers);
    bool acted = false;
    int64_t until = INT64_MAX;
    for (unsigned i = 0; i < n; i++) {
      int64_t t = look_at(i, now, &acted);
      if (t < until) until = t;
    }
    if (atomic_load(&wuc_poll.waiting) > 0 && !atomic_load(&wuc_poll.polling)) {
      int64_t poll_at = atomic_load(&wuc_poll.last_poll) + SYSMON_POLL_NS;
      if (poll_at <= now) {
        acted |= wuc_poll_run(false, 0) > 0;
        poll_at = now + SYSMON_POLL_NS;
      }
      if (poll_at < until) until = poll_at;
    }
    int64_t due = earliest_timer(n);
    /* Nothing to watch while every worker sleeps (a timer of theirs wakes
     * them, and they us when they leave the idle list). */
    bool all_idle = atomic_load(&wuc_sched.nidle) == n;
    if (all_idle) until = INT64_MAX;
    /* Pooled stacks' pages go back from here, whatever the workers do. */
    int64_t trim_at = wuc_stacks_trim(now);
    if (trim_at < until) until = trim_at;
    if (wuc_schedtrace_period_ns) {
      if (now >= next_trace) {
        wuc_schedtrace_print(now);
        next_trace = now + wuc_schedtrace_period_ns;
      }
      if (next_trace < until) until = next_trace;
    }
    gap = acted ? SYSMON_TIMER_GRACE_NS : gap < SYSMON_MAX_GAP_NS ? 2 * gap : gap;
    if (until != INT64_MAX && until < now + gap) until = now + gap;
    atomic_store(&wuc_sysmon.sleep_until, until);
    /* Dekker with wuc_sysmon_timer_started and _worker_busy: what they
     * published before reading sleep_until is seen here. */
    bool stale = earliest_timer(n) < due || (all_idle && atomic_load(&wuc_sched.nidle) != n);
    if (!stale) wuc_futex_wait_until(&wuc_sysmon.wake_word, 0, until);
    atomic_store(&wuc_sysmon.sleep_until, (int64_t)0); /* awake: nobody needs to wake us */
  }
  return NULL;
}

void wuc_sysmon_start(void) {
  wuc_schedtrace_init();
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    if (pthread_getcpuclockid(wuc_sched.workers[i]->os_thread, &watches[i].cpu_clock) != 0)
      watches[i].cpu_clock = CLOCK_MONOTONIC; /* cannot tell: count it as computing */
  }
  atomic_store(&wuc_sysmon.sleep_until, (int64_t)0);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t thread;
  int err = pthread_create(&thread, &attr, sysmon_main, NULL);
  pthread_attr_destroy(&attr);
  if (err) wuc_fatal("cannot start the monitor thread: %s", strerror(err));
}
