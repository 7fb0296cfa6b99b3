/* closed.pml — a `closed(ch)` clause against the close that drains the
 * channel, and against a receive that takes its last element.
 *
 *   S: an all-or statement waiting on closed(ch) (its other clauses never
 *      complete on a closed, empty channel: they are left out)
 *   B: chan_close(ch), which ends with chan_notify_closed_watchers
 *   R: (WITH_RECEIVER) takes the one buffered element below S_close, the
 *      last unsettled cell, then (notify_if_closed) sees the closed bit and
 *      calls chan_notify_closed_watchers
 *
 * runtime/channel.c as at b7cb0cf: wuc_chan_closed_register (under the
 * watch lock: put the node on ch->watchers, fence, then drained? take it
 * off again, claim own and complete), chan_notify_closed_watchers (fence; an
 * empty list: return; else under the lock: drained? take every listed node
 * off and claim it; after unlock: wake the claimed ones), drained() (closed
 * bit, and no unsettled cell below S_close).  Both sides store, then load:
 * the model is sequentially consistent, which the seq_cst fences give.
 * S registers between begin and end registration (a claim from outside
 * while it registers drops the node; S registers it again), then
 * wuc_select_wait_winner.
 *
 * Variants, each a mistake the model must find:
 *   BUG_CHECK_BEFORE_LISTING  register checks drained() first and lists the
 *                             node after (the runtime at 4cee82e)
 *   BUG_SETTLER_SILENT        the operation that settles the last cell does
 *                             not notify (WITH_RECEIVER)
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
  if /* the unlocked look at the list (after the fence) */
  :: !listed -> goto notified
  :: else
  fi;
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
#ifndef BUG_SETTLER_SILENT
  if /* notify_if_closed */
  :: closed -> notify()
  :: else
  fi
#endif
}

/* wuc_chan_closed_register. */
inline reg_closed(won) {
  lock();
#ifdef BUG_CHECK_BEFORE_LISTING
  if
  :: DRAINED -> drained_now = true
  :: else -> drained_now = false; listed = true
  fi;
#else
  listed = true; /* (if not listed yet) */
  drained_now = DRAINED;
  if
  :: drained_now -> listed = false
  :: else
  fi;
#endif
  unlock();
  if
  :: drained_now ->
     atomic { race == REG -> race = WON }; /* the owner's claim cannot fail */
     claims++;
     node_done = true;
     won = true
  :: else -> won = false
  fi
}

active proctype S() {
  bool won, again, drained_now;
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
