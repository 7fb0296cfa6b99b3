/* spin.h — busy-waiting for a thread that runs on another worker. */
#ifndef WUC_TEST_SPIN_H
#define WUC_TEST_SPIN_H

#include <sched.h>
#include <stdint.h>

/* One step of a busy wait.  After a while it gives the CPU away: on a busy
 * machine (ctest -j, or anything else running) the other worker's kernel
 * thread may be waiting for this very CPU. */
static inline void wuc_test_spin_step(uint32_t *spins) {
  if (++*spins < 1000)
    __builtin_ia32_pause();
  else
    sched_yield();
}

#endif
