/* sysmon.h — the monitor: one kernel thread of the runtime's own that keeps
 * a worker busy with one user thread from holding others back (Go's sysmon).
 *
 * It watches every worker from outside and does two things:
 *   - timers: a timer overdue by SYSMON_TIMER_GRACE_NS on a worker that has
 *     not reached a scheduling point meanwhile is fired here (its thread goes
 *     to the global queue, where an idle worker finds it); by
 *     SYSMON_ALARM_BACKUP_NS on a worker whose alarm (alarm.h) should have
 *     seen to it;
 *   - time slices (preempt.h): a worker that has run one user thread for a
 *     whole slice while using the CPU, or whose overdue timer woke a thread
 *     that no idle worker can run, is sent the preemption signal.
 * And it gives back the pages of pooled stacks unused for a second
 * (wuc_stacks_trim, stack.h), a batch at a time.
 *
 * It sleeps until the next of: the earliest timer deadline of a busy worker
 * (plus the grace), the next look at a busy worker's slice, the next stack
 * trim; and for ever while every worker is idle and no trim is due (an idle worker sleeps until its
 * own next timer).  Whoever makes that sleep too long wakes it: a timer started with an earlier
 * deadline, a worker leaving the idle list.
 *
 * Predicates it keeps:
 *   - a timer due at d has fired by d + grace (the backup's, for a worker
 *     with an alarm) + one wake-up of this thread, unless it is cancelled
 *     first (whatever its worker runs);
 *   - a worker is signalled only while its kernel thread uses the CPU for
 *     the same user thread (never while it sleeps in a system call), and at
 *     most once per SYSMON_RETRY_NS. */
#ifndef WUC_RUNTIME_SYSMON_H
#define WUC_RUNTIME_SYSMON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* How long a due timer is left to its own worker before the monitor takes
 * it: a worker that passes scheduling points fires its timers itself. */
#define SYSMON_TIMER_GRACE_NS 50000
/* The same for a worker with an alarm (alarm.h), which rings at the grace:
 * the monitor is then only its backup.  A variable for the unit tests,
 * which turn the backup off to see the alarm alone. */
#define SYSMON_ALARM_BACKUP_NS (4 * SYSMON_TIMER_GRACE_NS)
extern _Atomic int64_t wuc_sysmon_alarm_backup_ns;
/* A preemption that did not happen (the thread was in libc, say) is asked
 * for again after this long, while the thread still runs. */
#define SYSMON_RETRY_NS 200000

struct sysmon_shared {
  /* When it wakes for timers; INT64_MAX: only when woken; SYSMON_NOT_RUNNING
   * before it starts (nobody wakes it then). */
  _Atomic int64_t sleep_until;
  _Atomic uint32_t wake_word; /* futex: 1 = woken */
  _Atomic pid_t tid;          /* 0 until it runs */
} __attribute__((aligned(64)));
extern struct sysmon_shared wuc_sysmon;
#define SYSMON_NOT_RUNNING (INT64_MIN + SYSMON_TIMER_GRACE_NS)

/* Starts the monitor (with the workers, at the first spawn). */
void wuc_sysmon_start(void);
/* Wakes the monitor. */
void wuc_sysmon_wake(void);

/* A timer was started with a deadline at the top of its heap (published
 * before: the fence pairs with the monitor's after it sets sleep_until). */
static inline void wuc_sysmon_timer_started(int64_t deadline) {
  atomic_thread_fence(memory_order_seq_cst);
  if (deadline <
      atomic_load_explicit(&wuc_sysmon.sleep_until, memory_order_relaxed) - SYSMON_TIMER_GRACE_NS)
    wuc_sysmon_wake();
}

/* A worker whose earliest timer is due at `due` left the idle list (after
 * its seq_cst update of nidle): the monitor did not watch it while idle. */
static inline void wuc_sysmon_worker_busy(int64_t due) {
  int64_t until = atomic_load(&wuc_sysmon.sleep_until);
  if (until == INT64_MAX || (due != INT64_MAX && due < until - SYSMON_TIMER_GRACE_NS))
    wuc_sysmon_wake();
}

/* Whether tid is the monitor's kernel thread (deadlock.c). */
static inline bool wuc_sysmon_is(pid_t tid) {
  return tid != 0 && atomic_load_explicit(&wuc_sysmon.tid, memory_order_relaxed) == tid;
}

#endif
