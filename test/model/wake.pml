/* wake.pml — a blocking chan_recv's thread waiter woken by its resumer
 * (runtime/channel.c: wake_thread, thread_waiter_wait), with park.c's
 * permit, on x86-TSO: the resumer's stores to the waiter's state go through
 * its store buffer, which drains into memory at any moment, and at once
 * before a locked instruction (a CAS); its plain loads do not wait for it.
 * The other models are sequentially consistent; this one is not, because
 * the lost wake-up it checks for needs a load to pass a store.
 *
 *   waiter T   it may hold a permit left over from an earlier wake-up; it
 *              parks while its state is WAITING, waits out WAKING, and
 *              returns once WOKEN (thread_waiter_wait).
 *   resumer K  it has taken T's cell (a CAS: its buffer is empty); it
 *              stores WAKING, unparks T, stores WOKEN (wake_thread).
 *
 * wuc_unpark (park.c) is a CAS of T's park word in every case: the CAS
 * drains K's buffer first.  BUG_UNPARK_PLAIN_LOAD is the unpark before
 * b59428a: a permit already there was left on a plain load, with WAKING
 * still in K's buffer; T consumes the old permit, reads WAITING and parks
 * for good (an invalid end state: stress.family.scatter's hung consumer). */

#define NTHREADS 1
#include "park.pml"

#define T 0
#define WAITING 0
#define WAKING 1
#define WOKEN 2

byte state = WAITING; /* T's thread_waiter.state, in memory */
byte buf[2];          /* K's store buffer (FIFO), stores to `state` */
byte nbuf = 0;

inline buffered_store(v) {
  atomic { buf[nbuf] = v; nbuf++ }
}

inline drain_one() {
  atomic { nbuf > 0 -> state = buf[0]; buf[0] = buf[1]; nbuf-- }
}

inline drain_all() {
  do
  :: nbuf > 0 -> state = buf[0]; buf[0] = buf[1]; nbuf--
  :: else -> break
  od
}

/* The store buffer drains whenever the CPU gets to it. */
active proctype Drain() {
end:
  do
  :: drain_one()
  od
}

proctype Resumer() {
  buffered_store(WAKING);
#ifdef BUG_UNPARK_PLAIN_LOAD
  if
  :: park_state[T] == P_PERMIT -> skip /* plain load: the buffer stays */
  :: else -> atomic { drain_all(); unpark(T) }
  fi;
#else
  atomic { drain_all(); unpark(T) } /* a CAS in every case */
#endif
  buffered_store(WOKEN)
}

proctype Waiter() {
  do
  :: state == WAITING -> park(T)
  :: state == WAKING -> skip /* the resumer is inside wuc_unpark */
  :: state == WOKEN -> break
  od
}

init {
  atomic {
    if
    :: park_state[T] = P_PERMIT /* left over from an earlier wake-up */
    :: park_state[T] = P_RUNNING
    fi;
    run Waiter();
    run Resumer()
  }
}
