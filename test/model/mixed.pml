/* mixed.pml — a waituntil statement that mixes `and` and `or`, waiting on
 * three channel send clauses, against one receiver per clause.
 *
 * The statement T is runtime/waituntil.c: the generated loop around
 * wuc_wu_mixed_step (recompute the predicate and `needed`, step, run a body,
 * wuc_wu_mixed_ran), with its withdrawals, its registration, its scan for
 * DONE that also finds the first CLAIMED node, wuc_select_wait_any
 * (runtime/select.c) with that node or none, and wuc_park.  (The inline
 * step of <wuc/waituntil.h> is this step where registration is over and
 * nothing is pending or handed back: the same withdrawals and the same
 * scan for DONE, in one pass over the live mask, the withdrawals made
 * before the body found runs; not modelled apart.)  A receiver is
 * the resumer side of runtime/channel.c: it takes the cell holding the node
 * (S_RESUMING_BY_RCV), claims the node (wuc_select_claim), moves the
 * element, wakes (wuc_select_wake: unpark, then DONE) and settles the cell;
 * a lost claim marks the cell interrupted.  Withdrawal is clause_unregister:
 * wuc_select_withdraw, then the node is taken out of its cell (or the
 * resumer holding the cell is waited out).
 *
 * Tree (predicate): AND3 (default) c0 and c1 and c2 — the and_of_sends
 * reproducer; TREE_OR: (c0 and c1) or c2, where c2 or c0/c1 is withdrawn
 * while its receiver may be claiming it.
 *
 * Variants (-D...): the protocol as in the runtime since b7cb0cf is the
 * default; each BUG_* puts back one mistake, and the model must find it:
 *   BUG_WAIT_SEES_CLAIMED_ONLY  the runtime at b4ae2c6: a second scan
 *                               (wait_for_change) before parking, which
 *                               skips parking only for a CLAIMED node, not
 *                               a DONE one
 *   BUG_DONE_BEFORE_WAKE        wuc_select_wake publishes DONE, then unparks
 *   BUG_WITHDRAW_SKIPS_CLAIMED  wuc_select_withdraw treats CLAIMED as lost
 * PAIR_CLAIMERS: the receivers are all-or statements (pair claims, PENDING).
 * BODIES_NEVER_PARK: clause bodies never park (by default a body may
 * consume a permit meant for the statement, as a blocking body does).
 *
 * Checked: no invalid end state (T parked, or any busy-wait stuck, when no
 * one can move: a lost wake-up), and the assertions below. */
#define NTHREADS 1
#include "park.pml"

#define N 3

#define WAITING   0
#define PENDING   1
#define CLAIMED   2
#define DONE      3
#define WITHDRAWN 4

/* A clause's cell in its channel. */
#define C_EMPTY  0 /* the node was never left in it (reg completed at once) */
#define C_WAITER 1 /* the node waits in it */
#define C_BUSY   2 /* a receiver took it (S_RESUMING_BY_RCV) */
#define C_DONE   3
#define C_GONE   4 /* interrupted: withdrawn, or its claim was lost */

#ifdef TREE_OR
#define SATISFIED ((ran[0] && ran[1]) || ran[2])
#else
#define SATISFIED (ran[0] && ran[1] && ran[2])
#endif

byte status[N];    /* node status (wuc_select_node.status) */
byte cell[N];
byte transfers[N]; /* operations performed for node i */
byte bodies[N];    /* bodies run for clause i */
bool stmt_left;    /* T has left the statement: its nodes' frame is gone */

/* T's clause flags (wuc_wu_clause); only T touches them. */
bool live[N], ran[N], pending[N], needed[N];

/* The receiver that meets clause i's node in its cell.  PAIR_CLAIMERS:
 * the receiver is an all-or statement registering its own receive clause,
 * so it claims both nodes with wuc_select_claim_pair; when our statement
 * comes first in the global order our node is PENDING while the receiver
 * takes its own word (which cannot fail: it is registering). */
proctype Receiver(byte i) {
end_idle:
  atomic { cell[i] == C_WAITER -> cell[i] = C_BUSY }
  if
  :: atomic { status[i] == WAITING -> status[i] = CLAIMED }
#ifdef PAIR_CLAIMERS
  :: atomic { status[i] == WAITING -> status[i] = PENDING };
     /* the receiver's own race word, REGISTERING: its owner takes it */
     status[i] = CLAIMED
#endif
  :: status[i] == WITHDRAWN -> cell[i] = C_GONE; goto lost
  fi;
  transfers[i]++;
#ifdef BUG_DONE_BEFORE_WAKE
  status[i] = DONE;
  assert(!stmt_left); /* unpark reads the statement's thread handle */
  unpark(0);
#else
  assert(!stmt_left);
  unpark(0);
  status[i] = DONE;
#endif
  cell[i] = C_DONE;
lost:
  skip
}

/* reg: the send completes at once (a receiver or room was there: the node
 * is claimed by its own thread and DONE, never visible) or leaves the node
 * in a cell. */
inline reg(ci, done) {
  if
  :: d_step { status[ci] = DONE; transfers[ci]++ }; done = true
  :: cell[ci] = C_WAITER; done = false
  fi
}

/* clause_unregister (channel.c): withdraw (wait out CLAIMED), then take
 * the node out of its cell, waiting out a receiver holding the cell. */
inline unreg(ci, done) {
  if
  :: atomic { status[ci] == WAITING -> status[ci] = WITHDRAWN }; done = false
  :: status[ci] == DONE -> done = true
#ifdef BUG_WITHDRAW_SKIPS_CLAIMED
  :: status[ci] == CLAIMED -> done = false
#endif
  fi;
  if
  :: !done ->
     if
     :: atomic { cell[ci] == C_WAITER -> cell[ci] = C_GONE }
     :: cell[ci] != C_WAITER && cell[ci] != C_BUSY -> skip
     fi
  :: else
  fi
}

#ifdef BUG_WAIT_SEES_CLAIMED_ONLY
#define COMPLETING(i) (status[i] == CLAIMED)

/* The runtime at b4ae2c6: after the scan for DONE, a second scan
 * (wait_for_change) and wuc_select_wait_any: never park while a live node
 * is completing; wait_any reads the status again.  Since then the scan
 * for DONE also finds the first CLAIMED node, and the statement waits it
 * out or parks (step 3 in T). */
inline wait_for_change() {
  i = 0;
  do
  :: i < N ->
     if
     :: live[i] && COMPLETING(i) -> break
     :: else -> i++
     fi
  :: else -> break
  od;
  if
  :: i < N ->
     if
     :: COMPLETING(i) -> (status[i] == DONE)
     :: else -> park(0)
     fi
  :: else -> park(0)
  fi
}
#endif

active proctype T() {
  byte i, r, c, next_reg;
  bool sat, any_live, res;
  if /* a permit left over from an earlier statement, or none */
  :: park_state[0] = P_PERMIT
  :: park_state[0] = P_RUNNING
  fi;
  run Receiver(0); run Receiver(1); run Receiver(2);
recompute: /* the generated code: predicate and `needed` */
  skip;
  d_step {
    sat = SATISFIED;
    needed[0] = !ran[0] && !sat;
    needed[1] = !ran[1] && !sat;
    needed[2] = !ran[2] && !sat
  };
step: /* wuc_wu_mixed_step */
  any_live = false;
  i = 0;
  do /* step 5 for clauses no longer needed */
  :: i < N ->
     if
     :: live[i] && needed[i] -> any_live = true
     :: live[i] && !needed[i] ->
        live[i] = false;
        unreg(i, res);
        pending[i] = res /* a channel's on_selected is true */
     :: else
     fi;
     i++
  :: else -> break
  od;
  i = 0;
  do
  :: i < N && pending[i] -> pending[i] = false; r = i; goto selected
  :: i < N && !pending[i] -> i++
  :: else -> break
  od;
  do /* step 2: registration, in source order */
  :: next_reg < N ->
     i = next_reg;
     next_reg++;
     if
     :: needed[i] ->
        live[i] = true;
        reg(i, res);
        if
        :: res -> r = i; goto selected
        :: else -> any_live = true
        fi
     :: else
     fi
  :: else -> break
  od;
  i = 0;
#ifdef BUG_WAIT_SEES_CLAIMED_ONLY
  do /* step 3: completed clauses (then a second scan, wait_for_change) */
  :: i < N ->
     if
     :: live[i] && status[i] == DONE -> r = i; goto selected
     :: else -> i++
     fi
  :: else -> break
  od;
#else
  c = N;
  do /* step 3: completed clauses; the same look finds the first CLAIMED one */
  :: i < N ->
     if
     :: live[i] && status[i] == DONE -> r = i; goto selected
     :: live[i] && status[i] == CLAIMED && c == N -> c = i; i++
     :: else -> i++
     fi
  :: else -> break
  od;
#endif
  if
  :: sat && !any_live -> goto left
  :: else
  fi;
  assert(any_live); /* "a statement can no longer be satisfied" */
#ifdef BUG_WAIT_SEES_CLAIMED_ONLY
  wait_for_change();
#else
  /* wuc_select_wait_any with that node (wait it out) or none (park) */
  if
  :: c < N -> (status[c] == DONE)
  :: else -> park(0)
  fi;
#endif
  goto step;
selected: /* the body of clause r, then wuc_wu_mixed_ran */
  bodies[r]++;
#ifndef BODIES_NEVER_PARK
  maybe_lose_permit(0);
#endif
  ran[r] = true;
  if
  :: live[r] -> live[r] = false; unreg(r, res)
  :: else
  fi;
  goto recompute;
left:
  stmt_left = true;
  assert(SATISFIED);
  i = 0;
  do
  :: i < N ->
     /* every transfer ran its body once; nothing is still being claimed */
     assert(transfers[i] == bodies[i] && bodies[i] <= 1);
     assert(!live[i] && status[i] != CLAIMED);
     i++
  :: else -> break
  od
}
