/* spin.h — short busy waits and the runtime's small spin locks.
 *
 * Used only where the other side holds on for a few instructions (a cell in
 * a busy state, a PENDING claim word, a short critical section).  A wait
 * that drags on gives the CPU away: the kernel thread being waited for may
 * have been preempted. */
#ifndef WUC_RUNTIME_SPIN_H
#define WUC_RUNTIME_SPIN_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

static inline void cpu_relax(void) { __builtin_ia32_pause(); }

/* One step of a short busy wait. */
static inline void wuc_spin_step(uint32_t *spins) {
  if (++*spins < 256)
    cpu_relax();
  else
    sched_yield();
}

/* Test-and-test-and-set lock on an int that is 0 when free. */
static inline void wuc_spin_lock(_Atomic int *lock) {
  while (atomic_exchange_explicit(lock, 1, memory_order_acquire)) {
    uint32_t spins = 0;
    while (atomic_load_explicit(lock, memory_order_relaxed)) wuc_spin_step(&spins);
  }
}

static inline _Bool wuc_spin_trylock(_Atomic int *lock) {
  return !atomic_load_explicit(lock, memory_order_relaxed) &&
         !atomic_exchange_explicit(lock, 1, memory_order_acquire);
}

static inline void wuc_spin_unlock(_Atomic int *lock) {
  atomic_store_explicit(lock, 0, memory_order_release);
}

#endif
