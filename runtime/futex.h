/* futex.h — sleeping on a 32-bit word until it changes or a deadline, and
 * waking one sleeper: the workers' idle sleep (scheduler.c) and the
 * monitor's (sysmon.c). */
#ifndef WUC_RUNTIME_FUTEX_H
#define WUC_RUNTIME_FUTEX_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps while *word == value, until `deadline` on the wuc_now() clock
 * (INT64_MAX: no deadline).  May return early (a signal, a spurious wake):
 * callers look at their condition again. */
static inline void wuc_futex_wait_until(_Atomic uint32_t *word, uint32_t value, int64_t deadline) {
  struct timespec ts, *tsp = NULL;
  if (deadline != INT64_MAX) {
    ts.tv_sec = deadline / 1000000000;
    ts.tv_nsec = deadline % 1000000000;
    tsp = &ts;
  }
  /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline. */
  syscall(SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, value, tsp, NULL,
          FUTEX_BITSET_MATCH_ANY);
}

static inline void wuc_futex_wake_one(_Atomic uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
}

#endif
