/* thread_timer.pml — a thread's statement timer (runtime/timeout.c, "the
 * thread's timer"; docs/runtime.md, "Timers"): one timer per thread serving
 * the timeout clause of each of its statements, kept armed across them.
 *
 *   Owner:  NSTMT statements in a row; each registers its timeout (deadline
 *           now + 1 or now + 2) on the thread timer (use_thread_timer), then
 *           either another clause wins at once or nothing else comes and the
 *           statement waits for its timeout; then it unregisters
 *           (leave_thread_timer).  At its end the thread cancels the timer
 *           (wuc_thread_timer_end).
 *   Firers: two (a worker and the monitor): any pending slot whose deadline
 *           has come is claimed (PENDING -> FIRING) and its fire runs
 *           (wuc_thread_timer_fire), then FIRED.
 *   Dropper (-DWITH_DROP): an idle worker dropping the timer while no clause
 *           uses it (wuc_thread_timer_drop_idle).
 *   Clock:  time advances by steps up to MAXT.
 *
 * The word is (node, OWN, KICK), changed atomically; `armed` and the slots
 * change under OWN.  wuc_timer_cancel: PENDING -> CANCELLED, or waits out a
 * FIRING slot (unless called from that slot's own fire).
 *
 * Checked: a timeout is claimed only once its deadline has passed (never
 * early); a statement waiting for its timeout is always woken (an owner
 * blocked for good is an invalid end state: a lost timer); at most one slot
 * is pending; a fire that takes OWN is the current slot's; after the
 * thread's end no slot is pending.  NO_FAST: every register takes OWN (no
 * one-CAS path).  Seeded mistakes: BUG_KICK_AFTER_ARM is the release that
 * cleared the kick after starting the timer again (a fire of the new slot
 * is lost: stress.chan.churn hung on it; with the one-CAS path the thread
 * seldom holds the word, so it shows with NO_FAST); BUG_FAST_NO_RECHECK
 * publishes the node without looking at `armed` again (a fire that came
 * and went just before leaves nothing armed); BUG_FIRE_IGNORES_DEADLINE
 * claims a statement whose deadline is later than the slot that fired
 * (early). */

#ifndef NSTMT
#define NSTMT 3
#endif
#define NSLOTS 10
#define MAXT 5

#define S_PENDING 1
#define S_FIRING 2
#define S_FIRED 3
#define S_CANCELLED 4

#define W_NONE 0
#define W_TIMEOUT 1
#define W_OTHER 2

byte now;
byte slot_state[NSLOTS];
byte slot_deadline[NSLOTS];
byte nslots;
byte cur = 255;  /* tt->timer.slot */
byte armed;      /* 0: none */
byte node;       /* the word: the statement using the timer (1..NSTMT), 0: none */
bool own, kick;  /* ... and its two flags */
byte node_deadline[NSTMT + 1];
byte winner[NSTMT + 1];
bool ended;

#define DUE(s) (slot_state[s] == S_PENDING && slot_deadline[s] <= now)
#define ANY_DUE (DUE(0) || DUE(1) || DUE(2) || DUE(3) || DUE(4) || DUE(5) || DUE(6) || DUE(7) || DUE(8) || DUE(9))
#define NPENDING ((slot_state[0] == S_PENDING) + (slot_state[1] == S_PENDING) + \
                  (slot_state[2] == S_PENDING) + (slot_state[3] == S_PENDING) + \
                  (slot_state[4] == S_PENDING) + (slot_state[5] == S_PENDING) + \
                  (slot_state[6] == S_PENDING) + (slot_state[7] == S_PENDING) + \
                  (slot_state[8] == S_PENDING) + (slot_state[9] == S_PENDING))

/* wuc_timer_start on the thread timer (under OWN) */
inline arm(d) {
  atomic {
    assert(nslots < NSLOTS); /* else the model is too small */
    assert(NPENDING == 0);
    slot_state[nslots] = S_PENDING;
    slot_deadline[nslots] = d;
    cur = nslots;
    nslots++;
    armed = d
  }
}

/* disarm: wuc_timer_cancel of the current slot (under OWN); `mine` is the
 * slot whose fire runs this (255: none) */
inline disarm(mine) {
  if
  :: armed != 0 ->
     atomic {
       if
       :: slot_state[cur] == S_PENDING -> slot_state[cur] = S_CANCELLED
       :: else -> skip
       fi
     }
     (slot_state[cur] != S_FIRING || cur == mine);
     armed = 0
  :: else -> skip
  fi
}

/* A claim of statement n's timeout: the first claim wins its race word. */
inline claim(n) {
  atomic {
    if
    :: winner[n] == W_NONE -> assert(now >= node_deadline[n]); winner[n] = W_TIMEOUT
    :: else -> skip
    fi
  }
}

/* release: lets go of OWN; after a kick, starts the timer again for the
 * node's deadline, or, if that has passed, claims the node (the owner
 * registering it claims it for itself) */
inline release(mine) {
  do
  :: atomic { !kick -> own = false; break }
  :: kick ->
#ifndef BUG_KICK_AFTER_ARM
     kick = false;
#endif
     disarm(mine);
     if
     :: node != 0 && node_deadline[node] > now -> arm(node_deadline[node])
     :: node != 0 && node_deadline[node] <= now -> claim(node)
     :: else -> skip
     fi;
#ifdef BUG_KICK_AFTER_ARM
     kick = false
#endif
  od
}

proctype Owner() {
  byte i = 1, d, a;
  bool fast;
  do
  :: atomic {
       i <= NSTMT && now + 2 <= MAXT -> /* the clock reading, and d = 1 or 2 */
       if
       :: d = now + 1
       :: d = now + 2
       fi
     };
     /* use_thread_timer: the one-CAS path (word 0, armed no later than
      * d: publish the node without OWN, then look at armed again), else
      * take OWN, arm if needed, release */
     a = armed;
     node_deadline[i] = d;
     fast = false;
     if
#ifndef NO_FAST
     :: a != 0 && a <= d ->
#else
     :: false ->
#endif
        atomic {
          if
          :: !own && node == 0 -> node = i; fast = true
          :: else -> skip
          fi
        };
#ifndef BUG_FAST_NO_RECHECK
        if
        :: fast && armed == 0 -> fast = false /* consumed meanwhile: the slow path */
        :: else -> skip
        fi
#else
        skip
#endif
     :: else -> skip
     fi;
     if
     :: !fast ->
        atomic { !own && (node == 0 || node == i) -> own = true; node = i };
        if
        :: armed == 0 || armed > d -> disarm(255); arm(d)
        :: else -> skip
        fi;
        release(255)
     :: else -> skip
     fi;
     if
     :: true -> /* another clause completes, unless the timeout won */
        atomic {
          if
          :: winner[i] == W_NONE -> winner[i] = W_OTHER
          :: else -> skip
          fi
        }
     :: true -> (winner[i] != W_NONE) /* nothing else comes: wait (a lost timer blocks here) */
     fi;
     /* leave_thread_timer */
     atomic { !own -> assert(node == i); node = 0 };
     i++
  :: else -> break
  od;
  /* wuc_thread_timer_end */
  atomic { !own && node == 0 -> own = true };
  disarm(255);
  kick = false;
  own = false;
  ended = true;
  assert(NPENDING == 0)
}

/* wuc_thread_timer_fire for slot s (FIRING) */
inline fire(s) {
  atomic {
    if
    :: own -> kick = true; goto fired
    :: else -> own = true
    fi
  }
  assert(cur == s);
  fired_at = armed;
  armed = 0;
  n = node;
  if
  :: n != 0 ->
     if
#ifdef BUG_FIRE_IGNORES_DEADLINE
     :: true ->
#else
     :: node_deadline[n] <= fired_at || node_deadline[n] <= now ->
#endif
        claim(n)
     :: else -> arm(node_deadline[n]) /* early for this statement */
     fi
  :: else -> skip
  fi;
  release(s);
fired:
  slot_state[s] = S_FIRED
}

proctype Firer() {
  byte s, fired_at, n;
end:
  do
  :: atomic {
       ANY_DUE ->
       if
       :: DUE(0) -> s = 0
       :: DUE(1) -> s = 1
       :: DUE(2) -> s = 2
       :: DUE(3) -> s = 3
       :: DUE(4) -> s = 4
       :: DUE(5) -> s = 5
       :: DUE(6) -> s = 6
       :: DUE(7) -> s = 7
       :: DUE(8) -> s = 8
       :: DUE(9) -> s = 9
       fi;
       slot_state[s] = S_FIRING
     };
     fire(s)
  od
}

#ifdef WITH_DROP
/* wuc_thread_timer_drop_idle, under the lock of the heap holding the slot */
proctype Dropper() {
end:
  do
  :: atomic { !own && node == 0 && !ended && armed != 0 -> own = true };
     disarm(255);
     release(255)
  od
}
#endif

proctype Clock() {
end:
  do
  :: now < MAXT -> now++
  od
}

init {
  atomic {
    run Owner();
    run Firer();
    run Firer();
#ifdef WITH_DROP
    run Dropper();
#endif
    run Clock()
  }
}
