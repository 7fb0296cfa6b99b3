/* closed.pml — a `closed(ch)` clause against the close that drains the
 * channel, and against a receive that takes its last element.
 *
 *   S: an all-or statement waiting on closed(ch) (its other clauses never
 *      complete on a closed, empty channel: they are left out)
 *   B: chan_close(ch)
 *   R: (WITH_RECEIVER) takes the one buffered element, then, seeing the
 *      closed bit, calls notify_closed_watchers (recv_impl)
 *
 * runtime/channel.c: wuc_chan_closed_register (under the watch lock:
 * drained? claim own and complete : put the node on ch->watchers),
 * notify_closed_watchers (under the lock: drained? take every listed node
 * off the list and claim it; after unlock: wake the claimed ones), drained()
 * (closed bit, and no unsettled cell below S_close).  S registers between
 * begin and end registration (a claim from outside while it registers
 * drops the node; S registers it again), then wuc_select_wait_winner.
 *
 * Variants: the protocol as fixed by default (notify always takes the
 * lock); BUG_NOTIFY_EARLY_OUT: notify returns at once when it reads an
 * empty watchers list without the lock (the runtime at 4cee82e).
 *
 * Checked: no invalid end state (S parked on a closed, drained channel),
 * one claim at most, no wake of a statement that has left. */
#define NTHREADS 1
#include "park.pml"

#define OPEN 0
#define REG  3
#define WON  4

byte race;          /* S's race word (one node: WON is that node) */
bool dropped;       /* REGISTERING's list: the node was dropped */
bool closed;        /* the CLOSED bit in S (senders) */
#ifdef WITH_RECEIVER
bool element = true; /* one buffered element below S_close, not yet taken */
#else
bool element = false;
#endif
bool watch_lock;
bool listed;        /* S's node is on ch->watchers */
byte claims;
bool node_done;
bool left;

#define DRAINED (closed && !element)

inline lock() { atomic { !watch_lock -> watch_lock = true } }
inline unlock() { watch_lock = false }

/* take_claim_word for the node, from outside its statement. */
inline claim_from_outside(ok) {
  atomic {
    if
    :: race == OPEN -> race = WON; ok = true
    :: race == REG -> dropped = true; ok = false
    :: else -> ok = false
    fi
  }
}

inline notify() {
#ifdef BUG_NOTIFY_EARLY_OUT
  if
  :: !listed -> goto notified
  :: else
  fi;
#endif
  lock();
  ok = false;
  if
  :: DRAINED && listed ->
     listed = false;
     claim_from_outside(ok)
  :: else
  fi;
  unlock();
  if
  :: ok -> claims++; assert(!left); unpark(0); node_done = true
  :: else
  fi;
notified:
  skip
}

proctype Closer() {
  bool ok;
  closed = true; /* atomic_fetch_or(&ch->senders, CLOSED_BIT); the scan settles nothing here */
  notify()
}

proctype Receiver() {
  bool ok;
  atomic { element -> element = false }; /* update_cell_receive: BUFFERED -> DONE */
  if
  :: closed -> notify()
  :: else
  fi
}

/* wuc_chan_closed_register. */
inline reg_closed(won) {
  lock();
  if
  :: DRAINED ->
     unlock();
     atomic { race == REG -> race = WON }; /* the owner's claim cannot fail */
     claims++;
     node_done = true;
     won = true
  :: else ->
     listed = true;
     unlock();
     won = false
  fi
}

active proctype S() {
  bool won, again;
  run Closer();
#ifdef WITH_RECEIVER
  run Receiver();
#endif
  race = REG;
  reg_closed(won);
  do
  :: won -> break
  :: else ->
     atomic { /* wuc_select_end_registration */
       again = dropped;
       dropped = false;
       if
       :: !again -> race = OPEN
       :: else
       fi
     };
     if
     :: !again -> break
     :: else -> reg_closed(won)
     fi
  od;
  do /* wuc_select_wait_winner */
  :: race == WON -> node_done; break
  :: else -> park(0)
  od;
  left = true;
  assert(claims == 1)
}
