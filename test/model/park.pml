/* park.pml — the one-permit park/unpark of runtime/park.c and the commit in
 * runtime/scheduler.c (finish_switch), for one waiting thread T.
 *
 *   RUNNING  running or runnable, no permit
 *   PERMIT   running or runnable, permit present (saturates at one)
 *   PARKED   blocked in wuc_park
 *
 * Included by the models; they define NTHREADS (threads that park) before. */

#define P_RUNNING 0
#define P_PERMIT  1
#define P_PARKED  2

byte park_state[NTHREADS];

/* wuc_unpark (park.c): PERMIT stays, RUNNING -> PERMIT, PARKED -> RUNNING
 * (and the unparker makes T runnable). */
inline unpark(t) {
  atomic {
    if
    :: park_state[t] == P_RUNNING -> park_state[t] = P_PERMIT
    :: park_state[t] == P_PARKED  -> park_state[t] = P_RUNNING
    :: else -> skip
    fi
  }
}

/* wuc_park_at (park.c): a present permit is consumed and park returns;
 * otherwise T switches away and the next context commits the park with a
 * CAS RUNNING -> PARKED (scheduler.c finish_switch), which fails if an
 * unpark landed during the switch: the permit is consumed and T runs again.
 * A parked T runs again only once an unpark moved it to RUNNING. */
inline park(t) {
  if
  :: atomic { park_state[t] == P_PERMIT -> park_state[t] = P_RUNNING }
  :: else ->
     atomic {
       if
       :: park_state[t] == P_RUNNING -> park_state[t] = P_PARKED
       :: else -> park_state[t] = P_RUNNING
       fi
     }
     (park_state[t] != P_PARKED)
  fi
}

/* A park elsewhere on T's path (a clause body that blocks on something
 * else, in a loop over its own condition) may consume a permit meant for
 * the statement: over-approximated as "the permit may vanish". */
inline maybe_lose_permit(t) {
  if
  :: atomic { park_state[t] == P_PERMIT -> park_state[t] = P_RUNNING }
  :: true
  fi
}
