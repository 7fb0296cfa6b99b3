/* alarm.h — each worker's alarm: a POSIX timer the kernel fires at the
 * worker's own kernel thread when its earliest timer is overdue.
 *
 * A worker running one user thread for long does not look at its timers;
 * the monitor fires them for it (sysmon.h), but the monitor is a kernel
 * thread too, and with every CPU busy a kernel that does not preempt a
 * computing thread for a waking one keeps it waiting up to a scheduler tick
 * (4 ms on the guest of docs/benchmarks.md, "Timer lateness behind busy
 * workers").  A timer's signal needs no CPU of its own: the kernel delivers
 * it to the thread that is running.  So a worker about to run a user thread
 * with a timer pending arms its alarm for that deadline plus the monitor's
 * grace, and the signal (SIGURG, the preemption signal, told apart by its
 * code and value) gets the timer fired (preempt.c): by an idle worker it
 * wakes, else by a switch of the running thread, as the monitor's would.
 *
 * Predicates:
 *   - after a switch into a user thread, the worker's alarm rings by
 *     alarm_covers + SYSMON_TIMER_GRACE_NS, and alarm_covers is at most its
 *     earliest deadline (the full look covers it; the hand-off goes only
 *     when it is covered) — except a deadline started on its heap from
 *     another kernel thread since, which the monitor backs up;
 *   - an idle worker's alarm is disarmed (its sleep ends at its earliest
 *     deadline anyway), so the alarm never wakes a sleeping worker;
 *   - an alarm only makes a switch happen: timers still fire only in a
 *     check that reads the clock (never early).
 * Only with preemption on (preempt.h): the alarm's work is a preemption.
 * Costs: one comparison per switch that sees a pending timer; a system call
 * when the deadline to cover moves earlier and when a worker goes idle with
 * the alarm armed; a signal when the alarm rings. */
#ifndef WUC_RUNTIME_ALARM_H
#define WUC_RUNTIME_ALARM_H

#include <stdbool.h>
#include <stdint.h>

#include "scheduler.h"
#include "sysmon.h"

/* Values of worker.alarm_covers besides a deadline. */
#define ALARM_NONE 0             /* the worker has no alarm: every cover is a no-op */
#define ALARM_DISARMED INT64_MAX /* armed for nothing */

/* Creates w's alarm, on w's kernel thread, once preemption is set up; w
 * keeps ALARM_NONE if preemption is off or the kernel refuses. */
void wuc_alarm_init(struct worker *w);

void wuc_alarm_arm(struct worker *w, int64_t due);

/* Whether w's alarm rings by `due` plus the grace (or w has none). */
static inline bool wuc_alarm_covers(const struct worker *w, int64_t due) {
  return due >= w->alarm_covers;
}

/* Makes sure it does (INT64_MAX: no timer).  On w's kernel thread, outside
 * the signal handler. */
static inline void wuc_alarm_cover(struct worker *w, int64_t due) {
  if (__builtin_expect(!wuc_alarm_covers(w, due), 0)) wuc_alarm_arm(w, due);
}

/* The same after w fired timers: an alarm still armed for a deadline that
 * fired is moved to `due` too (a ring for nothing costs a signal, more than
 * the system call). */
void wuc_alarm_follow(struct worker *w, int64_t due);

/* How long the monitor leaves an overdue timer of v to v itself: longer
 * when v's alarm will see to it (the monitor is then its backup, for a
 * timer started on v's heap from another kernel thread). */
static inline int64_t wuc_alarm_monitor_grace(struct worker *v) {
  return atomic_load_explicit(&v->has_alarm, memory_order_relaxed)
             ? atomic_load_explicit(&wuc_sysmon_alarm_backup_ns, memory_order_relaxed)
             : SYSMON_TIMER_GRACE_NS;
}

/* w goes idle: its sleep will end at its earliest deadline itself (as
 * after firing its last timer: nothing left to cover). */
static inline void wuc_alarm_disarm(struct worker *w) { wuc_alarm_follow(w, INT64_MAX); }

/* Whether the signal `value` came with is w's alarm ringing (si_code
 * SI_TIMER); then true when one of w's timers is overdue and the running
 * thread should make room, having re-armed the alarm for what is left.  In
 * the signal handler on w's kernel thread. */
bool wuc_alarm_is(const void *value);
bool wuc_alarm_rang(struct worker *w);

/* The alarm rang where the timers could not be looked at, or the thread
 * could not switch (it runs the runtime's code or libc's): it rings again a
 * little later.  In the signal handler; reads no atomic. */
void wuc_alarm_retry(struct worker *w);

#endif
