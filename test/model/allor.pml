/* allor.pml — two all-or waituntil statements meeting each other in
 * rendezvous channels (the two-sided race), with Kotlin's re-register rule.
 *
 *   S0 (thread 0):  waituntil (x << A) or waituntil (x << B) [or waituntil (timeout(..))]
 *   S1 (thread 1):  waituntil (B << i) or waituntil (A << i)
 *
 * the adversarial case of docs/select.md (opposite orders, capacity 0).
 * A statement is runtime/waituntil.c wuc_wu_block_all_or: begin
 * registration, reg each clause in order, end registration and register
 * the dropped nodes again until none comes back, wuc_select_wait (register
 * the clauses handed back in a new window), unreg the losers.  The protocol is runtime/select.c: the race word
 * (OPEN, PENDING, CLOSED, REGISTERING + list of dropped nodes, or the
 * winner), take_claim_word, wuc_select_claim_pair in the global order
 * (statement, then node), wake (unpark, then DONE), wuc_select_close.
 * A clause's reg is runtime/channel.c wuc_chan_{send,recv}_register over
 * Kotlin cells: take the next cell index; an empty cell gets the node as
 * waiter; a cell with the other side's waiter is taken (RESUMING) and both
 * nodes are claimed with wuc_select_claim_pair: CLAIMED -> transfer, wake
 * the other, DONE; THEIRS_LOST -> the cell is interrupted, take the next.
 * unreg is clause_unregister: wuc_select_withdraw, then the node leaves its
 * cell (or the party holding the cell is waited out).
 *
 * Abstractions: the index FAA and the first CAS on the cell are one step
 * (only the cell's own sender and receiver touch it); settled cells both
 * sides have passed are recycled (indices shifted down) while no party
 * holds a cell of the channel, so the state space is finite and endless
 * re-registration is a cycle the non-progress check can see.  No try pass
 * (its meeting a waiter is the same claim_pair as during registration).
 *
 * Variants (-D...): the protocol as in the runtime by default; each BUG_* puts
 * back a mistake the model must find:
 *   BUG_NO_REGISTERING      no REGISTERING word: a registering statement
 *                           can be won by others (the Cforall pending race)
 *   BUG_PAIR_UNORDERED      claim_pair takes its own word first (no global order)
 *   BUG_PAIR_RESTORES_OPEN  a failed pair claim gives the first word back as
 *                           OPEN instead of as it was (loses REGISTERING + list)
 *   BUG_END_REG_SPLIT       end_registration reads the list and clears it in
 *                           two steps (a drop in between is lost)
 * WITH_BLOCKING_RECEIVER: a third thread, R, runs chan_recv(&A): its thread
 * waiter (no statement: channel.c struct thread_waiter) waits in a cell; the
 * party that takes it out of the cell (C_BUSY) has claimed it, and a clause
 * meeting it claims only its own node (claim_own); its status is its state
 * (WAITING, CLAIMED = WAKING, DONE = woken).  When R meets a waiting sender
 * it claims that node alone (try_resume_sender).
 * S0 and R compete for S1's one element: one of them stays parked.
 * SELF_PAIR: S0 is `waituntil (x << A) or waituntil (A << i)` (a send and a
 * receive clause on one channel) and nobody else uses A; with
 * SELF_PAIR_PARTNER, S1 is `waituntil (A << i) or waituntil (x << A)`, the
 * partner (Go's TestSelfSelect).  A clause that meets a clause of its own
 * statement is set aside (runtime/chan_aside.c): its cell is interrupted, it
 * joins the channel's list (with the attention bit), and its thread reads S
 * and R: if anyone else took a cell since the meeting, it hands the clause
 * back to its statement at once (wuc_select_defer).  Every registration
 * ends by loading attention and, when set, handing back the clauses set
 * aside by other statements (under the lock: push on the statement's
 * deferred list, unpark).  A waiting statement with deferred clauses opens a
 * registration window again (wuc_select_take_deferred) and registers them;
 * unreg takes a clause off the list.  With WITH_BLOCKING_RECEIVER instead of
 * S1, the partner is R, chan_recv(&A), which hands back the clauses set
 * aside before it parks; S0 registers its send first then (`(A << i) or
 * (x << A)`), so its receive is the clause that meets the send and goes on.  Checked on top: no statement pairs with itself;
 * alone, S0 parks (no non-progress cycle) and waits unclaimed; with R, S0's
 * send reaches R.
 *   SELF_DROP_REREG      the code before: the meeting drops the clause onto
 *                        the re-register list (c49ecad); alone it never parks
 *   BUG_ASIDE_NO_CHECK   no look at S and R after listing: a partner that
 *                        took its cell meanwhile missed the list
 *   BUG_ASIDE_WAKES_OWN  a registration's end hands back its own
 *                        statement's clauses too: alone it never parks
 * WITH_TIMEOUT: S0 has a third clause, a timeout whose timer fires at any
 * moment (from a timer callback: never the owner, so it drops the node
 * while S0 registers, and S0 registers it again: expired, it wins at once).
 *
 * Checked: every claim happens at most once and both halves of a transfer
 * together; each statement has exactly one winner, and the winners of S0
 * and S1 are the two halves of one transfer (or S0 timed out and S1 is
 * still waiting with an open race and no node claimed); nothing waits
 * forever otherwise (a `timeout` monitor); no claimer touches a statement
 * that has left.  Livelock: non-progress cycles (PROGRESS_AT_WAIT) and the
 * LTL claim (LIVENESS) under weak fairness; see run.sh. */
#ifdef WITH_BLOCKING_RECEIVER
#define NSTMT 3
#elif defined(SELF_PAIR) && !defined(SELF_PAIR_PARTNER)
#define NSTMT 1
#else
#define NSTMT 2
#endif
#define NTHREADS NSTMT
#include "park.pml"

#ifdef WITH_TIMEOUT
#define S0_NODES 3
#else
#define S0_NODES 2
#endif
#ifdef WITH_BLOCKING_RECEIVER
#define NN (S0_NODES + 3)
#elif defined(SELF_PAIR) && !defined(SELF_PAIR_PARTNER)
#define NN S0_NODES
#else
#define NN (S0_NODES + 2)
#endif
#define NCHAN 2
#ifndef K
#define K 3 /* live cells per channel (more is a model error, see TRUNCATE_AT_K) */
#endif
#define NONE 255

/* race word */
#define OPEN      0
#define PENDING   1
#define CLOSED    2
#define REG       3
#define WON(n)    (4 + (n))
#define WINNER(r) ((r) - 4)

/* node status (informational in all-or statements, except DONE) */
#define WAITING 0
#define CLAIMED 2
#define DONE    3

/* cells */
#define C_EMPTY       0
#define C_BUSY        1 /* a party took the waiter out (RESUMING) */
#define C_DONE        2
#define C_INTERRUPTED 3
#define C_WAITER(n)   (4 + (n))
#define IS_WAITER(x)  ((x) >= 4)
#define CELL_NODE(x)  ((x) - 4)

#define A 0
#define B 1
#define RECV 0
#define SEND 1
#define TIMER 2

/* Node table: statement, kind, channel.  S0: 0 = x << A, 1 = x << B,
 * [2 = timeout]; S1: S1_LO = B << i, S1_LO + 1 = A << i. */
#define S0_HI (S0_NODES - 1)
#define S1_LO S0_NODES
#define R_NODE (S1_LO + 2) /* WITH_BLOCKING_RECEIVER: chan_recv(A)'s thread waiter */
#ifdef WITH_BLOCKING_RECEIVER
#define THREAD_WAITER(n) ((n) == R_NODE)
#else
#define THREAD_WAITER(n) false
#endif
byte stmt_of[NN], kind_of[NN], chan_of[NN];

byte race[NSTMT];
byte relist[NSTMT];       /* REGISTERING's list of dropped nodes (a bit set) */
byte status[NN];
byte regcell[NN];         /* cell index the node was left in (res.word[RES_INDEX]) */
byte cell[NCHAN * K];
byte snd[NCHAN], rcv[NCHAN];
byte claims[NN];          /* claims taken for node n */
byte partner[NN];         /* the other half of n's transfer */
byte winner_of[NSTMT];
bool left[NSTMT];         /* the statement has returned: its frame is gone */
bool timer_armed;
bool won_elsewhere_while_registering; /* set just before failing on it */
bool waiting_while_registering_or_closed;
/* Clauses set aside (chan_aside.c): the channel's list (a bit set of nodes;
 * its attention bit is aside != 0), each statement's deferred list, and the
 * meeting a statement is about to check S and R against (one past the cell
 * of the meeting, kept up by recycle; 255 once S or R moved past it). */
byte aside;
byte deferred[NSTMT];
byte meet_next[NSTMT];

#define CELL(c, j) cell[(c) * K + (j)]

/* Two parties per channel never need more than K live cells (checked).
 * With a third party that waits for good (WITH_BLOCKING_RECEIVER), endless
 * re-registration uses ever more cells: TRUNCATE_AT_K cuts such an
 * execution off (the process stops, the final checks are skipped). */
bool out_of_cells;
#ifdef TRUNCATE_AT_K
#define CELL_BOUND(k) if :: k >= K -> out_of_cells = true; false :: else fi
#else
#define CELL_BOUND(k) assert(k < K)
#endif

/* Cells both parties have passed and that are settled are never touched
 * again: shift them out so that indices stay small.  Not while a party
 * holds a cell of the channel (RESUMING): it holds its index. */
inline recycle(c) {
  d_step {
    held = false;
    j = 0;
    do
    :: j < K -> held = held || CELL(c, j) == C_BUSY; j++
    :: else -> break
    od;
    do
    :: !held && (CELL(c, 0) == C_DONE || CELL(c, 0) == C_INTERRUPTED) && snd[c] > 0 && rcv[c] > 0 ->
       j = 0;
       do
       :: j < K - 1 -> CELL(c, j) = CELL(c, j + 1); j++
       :: else -> break
       od;
       CELL(c, K - 1) = C_EMPTY;
       snd[c]--; rcv[c]--;
       j = 0;
       do
       :: j < NSTMT ->
          if
          :: meet_next[j] != NONE && meet_next[j] != 255 ->
             if
             :: meet_next[j] == 0 -> meet_next[j] = 255
             :: else -> meet_next[j]--
             fi
          :: else
          fi;
          j++
       :: else -> break
       od;
       j = 0;
       do
       :: j < NN ->
          if
          :: chan_of[j] == c && regcell[j] != NONE ->
             if
             :: regcell[j] == 0 -> regcell[j] = NONE
             :: else -> regcell[j]--
             fi
          :: else
          fi;
          j++
       :: else -> break
       od
    :: else -> break
    od;
    j = 0
  }
}

/* take_claim_word (select.c) for an all-or node: OPEN (or REGISTERING,
 * for the statement's own thread) -> `to`; REGISTERING for anyone else:
 * drop n onto the list; PENDING: wait. */
inline take_word(n, to, owner, ok, was) {
  atomic {
    race[stmt_of[n]] != PENDING;
    if
#ifdef BUG_NO_REGISTERING
    :: race[stmt_of[n]] == OPEN ->
#else
    :: race[stmt_of[n]] == OPEN || (race[stmt_of[n]] == REG && owner) ->
#endif
       was = race[stmt_of[n]];
       race[stmt_of[n]] = to;
       ok = true
    :: race[stmt_of[n]] == REG && !owner ->
       relist[stmt_of[n]] = relist[stmt_of[n]] | (1 << n);
       ok = false
    :: else -> ok = false
    fi
  }
}

#define MINE_LOST   0
#define THEIRS_LOST 1
#define PAIR_OK     2
#define OWN         3 /* select_claim_pair_or_own: the same statement */

#ifdef BUG_PAIR_UNORDERED
#define CLAIMS_BEFORE(a, b) true
#else
#define CLAIMS_BEFORE(a, b) (stmt_of[a] < stmt_of[b] || (stmt_of[a] == stmt_of[b] && (a) < (b)))
#endif

/* wuc_select_claim_pair(mine, theirs), called by statement `me`. */
inline claim_pair(mine, theirs, result) {
  if
  :: stmt_of[mine] == stmt_of[theirs] ->
#ifdef SELF_DROP_REREG
     /* its own clause (a send and a receive on one channel): dropped onto
      * the re-register list, as a claimer from outside would (c49ecad) */
     atomic { assert(race[me] == REG); relist[me] = relist[me] | (1 << theirs) };
#endif
     result = OWN
  :: else ->
     if
     :: CLAIMS_BEFORE(mine, theirs) -> first = mine; second = theirs
     :: else -> first = theirs; second = mine
     fi;
     take_word(first, PENDING, stmt_of[first] == me, ok, was);
     if
     :: !ok -> result = (first == mine -> MINE_LOST : THEIRS_LOST)
     :: else ->
        take_word(second, WON(second), stmt_of[second] == me, ok, was2);
        if
        :: !ok ->
#ifdef BUG_PAIR_RESTORES_OPEN
           race[stmt_of[first]] = OPEN;
#else
           race[stmt_of[first]] = was;
#endif
           result = (second == mine -> MINE_LOST : THEIRS_LOST)
        :: else ->
           race[stmt_of[first]] = WON(first);
           claims[first]++; claims[second]++;
           result = PAIR_OK
        fi
     fi
  fi
}

/* wuc_select_wake: unpark the node's thread, then DONE.  A thread waiter
 * (wake_thread): WAKING, unpark, then its result (DONE here). */
inline wake(n) {
  assert(!left[stmt_of[n]]);
  if
  :: THREAD_WAITER(n) -> status[n] = CLAIMED
  :: else
  fi;
  unpark(stmt_of[n]);
  status[n] = DONE
}

/* The next cell of channel c for node n's side (the index FAA and the
 * first CAS on the cell): an empty cell gets n as waiter (m = NONE); a
 * waiter of the other side is taken, RESUMING (m = that node); an
 * interrupted cell is passed over (m = NN). */
inline take_cell(n, c, k, m) {
  atomic {
    if
    :: kind_of[n] == SEND -> k = snd[c]; snd[c]++
    :: else -> k = rcv[c]; rcv[c]++
    fi;
    CELL_BOUND(k);
    if
    :: CELL(c, k) == C_EMPTY -> CELL(c, k) = C_WAITER(n); regcell[n] = k; m = NONE
    :: IS_WAITER(CELL(c, k)) -> m = CELL_NODE(CELL(c, k)); CELL(c, k) = C_BUSY
    :: else -> m = NN
    fi
  }
}

/* The cell taken by the party of node n is settled: DONE after a transfer
 * with waiter m (whose thread is woken; n is marked DONE if it was claimed,
 * wuc_select_done), else INTERRUPTED. */
inline settle_cell(n, m, c, k, transferred, n_claimed) {
  if
  :: transferred ->
     assert(stmt_of[n] != stmt_of[m]); /* no statement pairs with itself */
     partner[n] = m; partner[m] = n;
     wake(m);
     if
     :: n_claimed -> status[n] = DONE
     :: else
     fi;
     CELL(c, k) = C_DONE
  :: else -> CELL(c, k) = C_INTERRUPTED
  fi;
  recycle(c)
}

/* wuc_select_defer: onto statement s's deferred list, wake its thread
 * (not when it is the caller: it looks at the list before parking). */
inline defer(m) {
  assert(!left[stmt_of[m]]);
  deferred[stmt_of[m]] = deferred[stmt_of[m]] | (1 << m);
  if
  :: stmt_of[m] != me -> unpark(stmt_of[m])
  :: else
  fi
}

/* chan_set_aside: our clause met its sibling m in cell k (held RESUMING):
 * the cell is interrupted, m joins the list (lock, list, attention: one
 * step), then S and R are read; if anyone else took a cell since, m is
 * handed back at once, unless a wake did it already. */
inline set_aside(m, c, k) {
  atomic {
    CELL(c, k) = C_INTERRUPTED;
    aside = aside | (1 << m);
    meet_next[me] = k + 1
  };
  recycle(c);
#ifndef BUG_ASIDE_NO_CHECK
  atomic {
    if
    :: snd[c] == meet_next[me] && rcv[c] == meet_next[me] -> skip
    :: else ->
       if
       :: aside & (1 << m) -> aside = aside & ~(1 << m); defer(m)
       :: else
       fi
    fi;
    meet_next[me] = NONE
  }
#else
  meet_next[me] = NONE
#endif
}

/* The end of a registration (op_end): one load of attention; if set, under
 * the lock, every clause set aside by another statement is handed back. */
inline wake_aside(me) {
  if
  :: aside != 0 ->
     atomic {
       j = 0;
       do
       :: j < NN ->
          if
#ifdef BUG_ASIDE_WAKES_OWN
          :: aside & (1 << j) ->
#else
          :: (aside & (1 << j)) && stmt_of[j] != me ->
#endif
             aside = aside & ~(1 << j); defer(j)
          :: else
          fi;
          j++
       :: else -> break
       od;
       j = 0
     }
  :: else
  fi
}

/* Channel clause registration (channel.c update_cell_{send,receive}, WAITER_CLAUSE).
 * done: the clause completed (it won its statement). */
inline reg_chan(n, done) {
  c = chan_of[n];
  regcell[n] = NONE; /* forget_registration */
  do
  :: take_cell(n, c, k, m);
     if
     :: m == NONE -> done = false; break
     :: m == NN -> skip
     :: else ->
        assert(kind_of[m] != kind_of[n]);
        if
        :: THREAD_WAITER(m) -> /* claimed by C_BUSY: claim_own */
           take_word(n, WON(n), true, ok, was);
           if
           :: ok -> claims[n]++; claims[m]++; pr = PAIR_OK
           :: else -> pr = MINE_LOST
           fi
        :: else -> claim_pair(n, m, pr)
        fi;
        if
        :: pr == MINE_LOST -> /* claim_own's fatal error */
           won_elsewhere_while_registering = true;
           assert(!won_elsewhere_while_registering)
        :: else
        fi;
#ifdef SELF_DROP_REREG
        settle_cell(n, m, c, k, pr == PAIR_OK, true);
#else
        if
        :: pr == OWN -> set_aside(m, c, k)
        :: else -> settle_cell(n, m, c, k, pr == PAIR_OK, true)
        fi;
#endif
        if
        :: pr == PAIR_OK -> done = true; break
        :: else
        fi
     fi
  od;
  wake_aside(me) /* op_end: load attention, hand back the others' clauses */
}

/* wuc_timeout_register: an expired deadline completes at once (claimed by
 * the owner); otherwise the timer is armed. */
inline reg_timer(n, done) {
  if
  :: take_word(n, WON(n), true, ok, was);
     assert(ok);
     claims[n]++;
     status[n] = DONE;
     done = true
  :: timer_armed = true; done = false
  fi
}

inline reg(n, done) {
  if
  :: kind_of[n] == TIMER -> reg_timer(n, done)
  :: else -> reg_chan(n, done)
  fi
}

/* wuc_select_close: the winner (waiting for its DONE), or none after
 * closing an open race. */
inline close_race(s, w) {
  atomic {
    race[s] != PENDING;
    if
    :: race[s] == OPEN || race[s] == REG -> race[s] = CLOSED; w = NONE
    :: race[s] == CLOSED -> w = NONE
    :: else -> w = WINNER(race[s])
    fi
  };
  if
  :: w != NONE -> status[w] == DONE
  :: else
  fi
}

/* unreg: wuc_select_withdraw (close: is n the winner?), then a channel
 * node leaves its cell, waiting out a party holding the cell; a timer is
 * cancelled (wuc_timer_cancel waits for a running fire). */
inline unreg(n, done) {
  close_race(stmt_of[n], w);
  done = (w == n);
  if
  :: kind_of[n] == TIMER -> timer_armed = false
  :: kind_of[n] != TIMER && !done ->
     /* (a settled cell may have been recycled: regcell is NONE then) */
     c = chan_of[n];
     if
     :: atomic { regcell[n] != NONE && CELL(c, regcell[n]) == C_WAITER(n) ->
                 CELL(c, regcell[n]) = C_INTERRUPTED }
     :: atomic { regcell[n] == NONE ||
                 (CELL(c, regcell[n]) != C_WAITER(n) && CELL(c, regcell[n]) != C_BUSY) ->
                 aside = aside & ~(1 << n) } /* chan_unset_aside */
     fi;
     recycle(c)
  :: else
  fi
}

proctype Stmt(byte me; byte lo; byte hi) {
  byte n, winner = NONE, again, c, k, m, pr, first, second, was, was2, w, j, i;
  bool ok, done, held, live[NN];
  /* wuc_wu_block_all_or */
  race[me] = REG; /* wuc_select_begin_registration */
  n = lo;
  do
  :: n <= hi && winner == NONE ->
     live[n] = true;
     reg(n, done);
     if
     :: done -> winner = n
     :: else
     fi;
     n++
  :: else -> break
  od;
  do
  :: winner != NONE -> break
  :: else ->
#ifdef BUG_END_REG_SPLIT
     atomic { race[me] == REG -> again = relist[me] };
     atomic { relist[me] = 0; if :: again == 0 -> race[me] = OPEN :: else fi };
#else
     atomic { /* wuc_select_end_registration: one CAS */
       assert(race[me] == REG);
       again = relist[me];
       relist[me] = 0;
       if
       :: again == 0 -> race[me] = OPEN
       :: else
       fi
     };
#endif
     if
     :: again == 0 ->
#ifdef PROGRESS_AT_WAIT
progress_waiting: /* registered, nothing dropped: the statement waits (OPEN) */
#endif
        do /* wuc_select_wait */
        :: race[me] >= WON(0) -> winner = WINNER(race[me]); status[winner] == DONE; break
        :: (race[me] == OPEN || race[me] == PENDING) && deferred[me] == 0 -> park(me)
        :: atomic { /* clauses handed back: wuc_select_take_deferred */
             race[me] == OPEN && deferred[me] != 0 ->
             race[me] = REG; again = deferred[me]; deferred[me] = 0
           };
           break
        :: race[me] == REG || race[me] == CLOSED -> /* wuc_fatal in wait_winner */
           waiting_while_registering_or_closed = true;
           assert(!waiting_while_registering_or_closed)
        od
     :: else
     fi;
     /* a drop: register again what came back */
     do /* in any order: the list is LIFO */
     :: again == 0 || winner != NONE -> break
     :: else ->
        if
        :: again & (1 << lo)       -> n = lo
        :: again & (1 << (lo + 1)) -> n = lo + 1
        :: hi > lo + 1 && (again & (1 << hi)) -> n = hi
        fi;
        again = again & ~(1 << n);
        reg(n, done);
        if
        :: done -> winner = n
        :: else
        fi
     od
  od;
  /* the losers */
  n = lo;
  do
  :: n <= hi ->
     if
     :: n != winner && live[n] -> unreg(n, done); assert(!done)
     :: else
     fi;
     n++
  :: else -> break
  od;
  winner_of[me] = winner;
  left[me] = true
}

/* The timeout's timer: fires once, at any moment after it is armed, from
 * a timer callback (not the owner). */
proctype Timer(byte n) {
  bool ok;
  byte was;
end_idle:
  atomic { timer_armed -> timer_armed = false };
  take_word(n, WON(n), false, ok, was);
  if
  :: ok -> claims[n]++; wake(n)
  :: else
  fi
}

#ifdef LIVENESS
/* Livelock: the only endless executions are the lock-step ones, where both
 * statements stay inside their registration windows (docs/select.md): if
 * infinitely often one of them is outside, the statement that must
 * complete does. */
#define REGISTERING(s) (race[s] == REG || race[s] == PENDING)
#ifdef WITH_BLOCKING_RECEIVER
#define COMPLETES left[1] /* the one sender always completes */
#else
#define COMPLETES left[0] /* S0 always completes (a transfer or its timeout) */
#endif
ltl only_lockstep_livelock { ([]<> !(REGISTERING(0) && REGISTERING(1))) -> <> COMPLETES }
#endif

/* chan_recv (channel.c recv_impl): take the next cell; a waiting sender
 * is claimed alone (try_resume_sender) and woken; an empty cell gets R's
 * thread waiter; then thread_waiter_wait: park while WAITING, wait out
 * WAKING (CLAIMED here), return once DONE.  R's race word is never used. */
proctype BlockingRecv(byte me; byte n) {
  byte c, k, m, was, j;
  bool ok, done, held;
  c = chan_of[n];
  do
  :: take_cell(n, c, k, m);
     if
     :: m == NONE -> break
     :: m == NN -> skip
     :: else ->
        take_word(m, WON(m), false, ok, was);
        if
        :: ok -> claims[m]++
        :: else
        fi;
        settle_cell(n, m, c, k, ok, false);
        if
        :: ok -> winner_of[me] = n; wake_aside(me); goto received /* op_end */
        :: else
        fi
     fi
  od;
  wake_aside(me); /* op_waits: before parking */
  do /* thread_waiter_wait */
  :: status[n] == DONE -> break
  :: status[n] == WAITING -> park(me)
  od;
  winner_of[me] = n;
received:
  left[me] = true
}

/* When nothing can move any more: who is still waiting must be waiting
 * legitimately, and the winners must agree. */
/* Statement s never completed: it is parked with an open race, nothing of
 * it claimed. */
inline waits_unclaimed(s, lo_n, hi_n) {
  assert(!left[s] && park_state[s] == P_PARKED && race[s] == OPEN);
  i = lo_n;
  do
  :: i <= hi_n -> assert(claims[i] == 0); i++
  :: else -> break
  od
}

proctype Check() {
  byte i, p;
  timeout;
  if
  :: out_of_cells -> goto checked
  :: else
  fi;
  i = 0;
  do
  :: i < NN -> assert(claims[i] <= 1); i++
  :: else -> break
  od;
#if defined(SELF_PAIR) && defined(WITH_BLOCKING_RECEIVER)
  /* S0's send goes to R */
  assert(left[0] && left[2] && winner_of[0] == 0 && partner[0] == R_NODE)
#elif defined(SELF_PAIR) && !defined(SELF_PAIR_PARTNER)
  waits_unclaimed(0, 0, S0_HI) /* nobody else: S0 blocks, as in Go */
#elif defined(WITH_BLOCKING_RECEIVER)
  /* S1's one element went to S0 or to R; the other one waits */
  assert(left[1]);
  p = partner[winner_of[1]];
  assert(p != NONE && partner[p] == winner_of[1] && left[stmt_of[p]] && winner_of[stmt_of[p]] == p);
  if
  :: stmt_of[p] == 0 -> waits_unclaimed(2, R_NODE, R_NODE)
  :: else -> waits_unclaimed(0, 0, S0_HI)
  fi
#else
  assert(left[0]); /* S0 always completes: by a transfer with S1 or its timeout */
  if
  :: kind_of[winner_of[0]] == TIMER ->
     waits_unclaimed(1, S1_LO, S1_LO + 1) /* S1 has no other party */
  :: else ->
     assert(left[1] && partner[winner_of[0]] == winner_of[1] && partner[winner_of[1]] == winner_of[0])
  fi
#endif
checked:
  skip
}

init {
  byte i;
  d_step {
    stmt_of[0] = 0; kind_of[0] = RECV; chan_of[0] = A;
#if defined(SELF_PAIR) && defined(WITH_BLOCKING_RECEIVER)
    /* the send first: the receive meets it and continues, R needs the send */
    kind_of[0] = SEND;
    stmt_of[1] = 0; kind_of[1] = RECV; chan_of[1] = A;
#elif defined(SELF_PAIR)
    stmt_of[1] = 0; kind_of[1] = SEND; chan_of[1] = A;
#else
    stmt_of[1] = 0; kind_of[1] = RECV; chan_of[1] = B;
#endif
#ifdef WITH_TIMEOUT
    stmt_of[2] = 0; kind_of[2] = TIMER; chan_of[2] = NONE;
#endif
#if defined(SELF_PAIR_PARTNER)
    stmt_of[S1_LO] = 1; kind_of[S1_LO] = SEND; chan_of[S1_LO] = A;
    stmt_of[S1_LO + 1] = 1; kind_of[S1_LO + 1] = RECV; chan_of[S1_LO + 1] = A;
#elif !defined(SELF_PAIR)
    stmt_of[S1_LO] = 1; kind_of[S1_LO] = SEND; chan_of[S1_LO] = B;
    stmt_of[S1_LO + 1] = 1; kind_of[S1_LO + 1] = SEND; chan_of[S1_LO + 1] = A;
#endif
#ifdef WITH_BLOCKING_RECEIVER
    stmt_of[R_NODE] = 2; kind_of[R_NODE] = RECV; chan_of[R_NODE] = A;
    winner_of[2] = NONE;
#endif
    i = 0;
    do
    :: i < NN -> partner[i] = NONE; regcell[i] = NONE; i++
    :: else -> break
    od;
    i = 0;
    do
    :: i < NSTMT -> winner_of[i] = NONE; meet_next[i] = NONE; i++
    :: else -> break
    od
  };
  atomic {
    run Stmt(0, 0, S0_HI);
#ifdef WITH_TIMEOUT
    run Timer(2);
#endif
#if !defined(SELF_PAIR) || defined(SELF_PAIR_PARTNER)
    run Stmt(1, S1_LO, S1_LO + 1);
#endif
#ifdef WITH_BLOCKING_RECEIVER
    run BlockingRecv(2, R_NODE);
#endif
    run Check()
  }
}
