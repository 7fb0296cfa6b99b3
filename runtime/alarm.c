/* alarm.c — each worker's alarm (alarm.h). */
#define _GNU_SOURCE
#include "alarm.h"

#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "preempt.h"
#include "sanitizer.h"

/* Its address is the value the alarm's signals carry. */
static const char alarm_mark;

/* Sets what w's alarm covers and arms it for `at` (relative unless flags
 * has TIMER_ABSTIME; 0 disarms).  The kernel's call, not libc's: it runs in
 * the signal handler too, where a sanitizer's interceptor must not
 * (preempt.c).  The handler may interrupt this (same kernel thread): it
 * leaves the alarm alone while alarm_busy is set, and the update it
 * interrupted arms what it meant to. */
WUC_NO_TSAN static void set_alarm(struct worker *w, int64_t covers, int flags, int64_t at) {
  w->alarm_busy = true;
  atomic_signal_fence(memory_order_seq_cst);
  w->alarm_covers = covers;
  struct itimerspec it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_sec = at / 1000000000;
  it.it_value.tv_nsec = at % 1000000000;
  syscall(SYS_timer_settime, w->alarm_id, flags, &it, NULL);
  atomic_signal_fence(memory_order_seq_cst);
  w->alarm_busy = false;
}

void wuc_alarm_init(struct worker *w) {
  w->alarm_covers = ALARM_NONE;
  if (wuc_timeslice_ns == 0) return;
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGURG;
  ev.sigev_value.sival_ptr = (void *)&alarm_mark;
  ev._sigev_un._tid = gettid();
  int id;
  if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) != 0) return; /* the monitor alone */
  w->alarm_id = id;
  w->alarm_covers = ALARM_DISARMED;
  atomic_store_explicit(&w->has_alarm, true, memory_order_relaxed);
}

WUC_NO_TSAN void wuc_alarm_arm(struct worker *w, int64_t due) {
  set_alarm(w, due, TIMER_ABSTIME, due + SYSMON_TIMER_GRACE_NS);
}

void wuc_alarm_follow(struct worker *w, int64_t due) {
  if (w->alarm_covers == ALARM_NONE || w->alarm_covers == due) return;
  if (due == INT64_MAX)
    set_alarm(w, ALARM_DISARMED, 0, 0);
  else
    wuc_alarm_arm(w, due);
}

WUC_NO_TSAN bool wuc_alarm_is(const void *value) { return value == &alarm_mark; }

WUC_NO_TSAN bool wuc_alarm_rang(struct worker *w) {
  int64_t covered = w->alarm_covers;
  if (w->alarm_busy || covered == ALARM_NONE) return false;
  int64_t due = wuc_timers_earliest(&w->timers);
  /* It rang at covered + grace, so a deadline up to `covered` is overdue
   * by the grace at least.  The kernel's timer is spent; alarm_covers stays
   * for wuc_alarm_retry, or for the switch's full look to move (it fires
   * the timer, then follows the next deadline). */
  if (covered != ALARM_DISARMED && due <= covered) return true;
  /* A later deadline is one the worker took on after firing the covered
   * one itself (or this is the signal of an alarm disarmed since). */
  w->alarm_covers = ALARM_DISARMED;
  if (due != INT64_MAX) wuc_alarm_arm(w, due);
  return false;
}

WUC_NO_TSAN void wuc_alarm_retry(struct worker *w) {
  /* Rings again SYSMON_RETRY_NS from now, as the monitor asks again, still
   * covering what it covered (an alarm disarmed since stays so: an idle
   * worker's is). */
  int64_t covered = w->alarm_covers;
  if (!w->alarm_busy && covered != ALARM_NONE && covered != ALARM_DISARMED)
    set_alarm(w, covered, 0, SYSMON_RETRY_NS);
}
