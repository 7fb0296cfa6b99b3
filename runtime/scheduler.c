/* scheduler.c — workers, switching, work finding, stealing and idling.
 * The design and its invariants are described in scheduler.h. */
#define _GNU_SOURCE
#include "scheduler.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <wuc/waituntil.h> /* wuc_wu_stmt_init */

#include "alarm.h"
#include "blocking.h"
#include "chan_waiter.h"
#include "clock.h"
#include "env.h"
#include "fatal.h"
#include "futex.h"
#include "park.h"
#include "poller.h"
#include "preempt.h"
#include "sanitizer.h"
#include "select_internal.h"
#include "spin.h"
#include "sysmon.h"

/* How long an idle worker looks for work to steal before it sleeps. */
#define SPIN_NS 20000
/* Every this many schedules a worker looks at the global queue first. */
#define GLOBAL_QUEUE_PERIOD 61
/* After this many hand-offs in a row through `next`, the local queue goes
 * first once, so a pair of threads waking each other cannot starve it. */
#define NEXT_STREAK_LIMIT 64

struct scheduler wuc_sched = {
    .global = {.lock = PTHREAD_MUTEX_INITIALIZER},
    .idle_lock = PTHREAD_MUTEX_INITIALIZER,
    .next_id = 2,
    .nworkers = 1,
};

/* Pulls gdb_scripts.S (the gdb extension, docs/debugging.md) into every
 * program linked with libwuc.a: nothing else refers to it. */
extern const char wuc_gdb_scripts_anchor;
__attribute__((used)) static const char *const gdb_scripts_link = &wuc_gdb_scripts_anchor;

__thread struct worker *wuc_tls_worker __attribute__((tls_model("initial-exec")));

#if defined(__GNUC__) && !defined(__clang__)
#define NO_IPA __attribute__((noinline, noipa))
#else
#define NO_IPA __attribute__((noinline))
#endif

NO_IPA struct worker *wuc_current_worker(void) {
  __asm__ volatile("" ::: "memory");
  return wuc_tls_worker;
}

/* The same, for the preemption handler (WUC_NO_TSAN: see preempt.c). */
WUC_NO_TSAN __attribute__((noinline)) struct worker *wuc_current_worker_in_handler(void) {
  return wuc_tls_worker;
}

struct wuc_fork_state wuc_fork;

/* No worker (w == NULL) or no user thread: a misuse, or the child of a fork. */
static __attribute__((noreturn, cold)) void outside_user_thread_at(const char *call,
                                                                   const char *file, int line) {
  wuc_check_not_forked(call);
  char site[WUC_CALL_SITE_MAX];
  wuc_fatal("%s called outside a user thread", wuc_call_site(site, sizeof site, call, file, line));
}

static __attribute__((noreturn, cold)) void outside_user_thread(const char *call) {
  outside_user_thread_at(call, NULL, 0);
}

struct wuc_uthread *wuc_current_thread_or_die(const char *call) {
  struct worker *w = wuc_current_worker();
  if (!w || !w->current) outside_user_thread(call);
  return w->current;
}

struct wuc_uthread *wuc_current_thread_or_die_at(const char *call, const char *file, int line) {
  struct worker *w = wuc_current_worker();
  if (!w || !w->current) outside_user_thread_at(call, file, line);
  return w->current;
}

/* Not inlined anywhere: then reading the thread-local pointer directly is
 * as safe as through wuc_current_worker (nothing switches in between), and
 * every channel operation saves a call. */
__attribute__((noinline)) void wuc_reclaim_op_start(void) {
  struct worker *w = wuc_tls_worker;
  if (w)
    wuc_reclaim_count_op(w);
  else /* a foreign kernel thread's non-blocking operation, or the child of a fork */
    wuc_check_not_forked("a channel operation");
}

/* Out of line: taken about once per time slice at most. */
static __attribute__((noinline, cold)) void yield_if_asked(struct worker *w, uint64_t asked) {
  struct wuc_uthread *cur = w->current;
  if (asked != atomic_load_explicit(&w->threads_run, memory_order_relaxed) + 1) {
    /* stale: the thread it was for has switched since */
    atomic_compare_exchange_strong(&w->yield_request, &asked, 0);
    return;
  }
  if (!cur || cur->preemption_off || w->in_timer_callbacks) return;
  atomic_compare_exchange_strong(&w->yield_request, &asked, 0);
  wuc_switch_away(w, cur, PREV_YIELD);
}

/* wuc_blocking_op_start's rare cases: no worker, the op count at a multiple
 * of 256 (already counted), or a yield asked. */
__attribute__((noinline)) void wuc_blocking_op_slow(struct worker *w, const char *what) {
  if (!w) {
    wuc_check_not_forked(what);
    return;
  }
  if ((w->reclaim_ops & 255) == 0) wuc_reclaim_quiescent(w);
  uint64_t asked = atomic_load_explicit(&w->yield_request, memory_order_relaxed);
  if (asked != 0) yield_if_asked(w, asked);
}

__attribute__((noinline)) struct wuc_uthread *wuc_statement_start(const char *call) {
  struct worker *w = wuc_tls_worker;
  if (!w || !w->current) outside_user_thread(call);
  wuc_reclaim_count_op(w);
  return w->current;
}

/* A lowered statement's set-up (<wuc/waituntil.h>): wuc_statement_start and
 * wuc_select_stmt_fill in one call, every statement's first. */
void wuc_wu_stmt_init(wuc_select_stmt *s, bool all_or) {
  struct worker *w = wuc_tls_worker;
  if (!w || !w->current) outside_user_thread("waituntil");
  wuc_select_stmt_fill(s, w->current, all_or, true);
  wuc_reclaim_count_op(w); /* last: a tail call when it announces */
}

/* Only the owning worker writes its counters: no locked instruction needed. */
static inline void count(_Atomic uint64_t *counter) {
  atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1,
                        memory_order_relaxed);
}

static uint32_t fast_random(struct worker *w) {
  uint32_t x = w->rng; /* xorshift32 */
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return w->rng = x;
}

/* Wakes w, notified (wake_word set): from its futex, or from epoll_wait.
 * Dekker with sleep_until_woken: w stores in_epoll before it reads
 * wake_word, we store wake_word before we read in_epoll. */
static void wake_worker(struct worker *w) {
  wuc_futex_wake_one(&w->wake_word);
  if (atomic_load(&w->in_epoll)) wuc_poll_wake();
}

/* ---- making threads runnable --------------------------------------------- */

/* Takes w, idle, out of the idle list.  Called with idle_lock held.  A
 * waker that does so also sets w's wake_word and, after the unlock, wakes it
 * (wake_worker); the woken worker starts out spinning, owning a count of
 * nspinning its waker took. */
static void unlist_idle(struct worker *w) {
  struct worker **p = &wuc_sched.idle_list;
  while (*p != w) p = &(*p)->idle_next;
  *p = w->idle_next;
  atomic_store_explicit(&w->idle, false, memory_order_relaxed);
  atomic_fetch_sub(&wuc_sched.nidle, 1);
  wuc_sched.idle_epoch++;
}

void wuc_wake_idle_worker(void) {
  atomic_thread_fence(memory_order_seq_cst); /* the producer's half of the Dekker pair */
  if (atomic_load(&wuc_sched.nspinning) != 0 || atomic_load(&wuc_sched.nidle) == 0) return;
  unsigned zero = 0;
  if (!atomic_compare_exchange_strong(&wuc_sched.nspinning, &zero, 1)) return;
  pthread_mutex_lock(&wuc_sched.idle_lock);
  struct worker *w = wuc_sched.idle_list;
  if (w) {
    unlist_idle(w);
    atomic_store(&w->wake_word, 1); /* it owns the count we took */
  }
  pthread_mutex_unlock(&wuc_sched.idle_lock);
  if (w)
    wake_worker(w);
  else
    atomic_fetch_sub(&wuc_sched.nspinning, 1);
}

void wuc_wake_worker_if_idle(struct worker *w) {
  atomic_thread_fence(memory_order_seq_cst); /* the starter's half of the Dekker pair */
  if (!atomic_load_explicit(&w->idle, memory_order_relaxed)) return;
  pthread_mutex_lock(&wuc_sched.idle_lock);
  bool listed = atomic_load_explicit(&w->idle, memory_order_relaxed);
  if (listed) {
    unlist_idle(w);
    atomic_fetch_add(&wuc_sched.nspinning, 1); /* the count it owns */
    atomic_store(&w->wake_word, 1);
  }
  pthread_mutex_unlock(&wuc_sched.idle_lock);
  if (listed) wake_worker(w);
}

/* Puts t in w's `next` slot; the thread it displaces becomes stealable.
 * Only the owner fills the slot (a thief only empties it, by CAS from the
 * thread it saw), so an empty slot stays empty until our store: filling it
 * needs no locked instruction, only a release store for the thief's load. */
static void ready_next(struct worker *w, struct wuc_uthread *t) {
  struct wuc_uthread *old = atomic_load_explicit(&w->next, memory_order_relaxed);
  if (!old)
    atomic_store_explicit(&w->next, t, memory_order_release);
  else
    old = atomic_exchange_explicit(&w->next, t, memory_order_acq_rel);
  wuc_next_filled(w);
  if (old) {
    wuc_runq_push(w, old);
    wuc_wake_other_worker();
  }
}

void wuc_make_runnable_slow(struct worker *w, struct wuc_uthread *t) {
  if (!w) {
    wuc_check_not_forked("wuc_unpark");
    wuc_global_runq_push(&wuc_sched.global, t);
    wuc_wake_idle_worker();
  } else if (w->in_timer_callbacks) {
    wuc_runq_push(w, t);
    if (w->keep_one_wake)
      w->keep_one_wake = false; /* w runs it next itself */
    else
      wuc_wake_other_worker();
  } else {
    ready_next(w, t);
  }
}

bool wuc_worker_has_no_work(struct worker *w) {
  return !atomic_load_explicit(&w->next, memory_order_relaxed) && wuc_runq_empty(&w->runq);
}

/* ---- switching ------------------------------------------------------------ */

/* A thread preempted on w waits in w's pinned list (preempt.h).  Out of
 * line: finish_switch stays small enough to inline into every switch. */
static __attribute__((noinline, cold)) void pin(struct worker *w, struct wuc_uthread *p) {
  p->queue_next = NULL;
  if (w->pinned_tail)
    w->pinned_tail->queue_next = p;
  else
    w->pinned_head = p;
  w->pinned_tail = p;
  count(&w->preemptions);
}

/* A published park's thread is off its CPU now: publish its wait, or run it
 * again at once (park.h, wuc_park_published).  Out of line: the inline
 * switch then keeps no more registers live across a call than before. */
static __attribute__((noinline)) void publish_park(struct worker *w, struct wuc_uthread *p) {
  atomic_store_explicit(&p->park_state, PARK_PUBLISHED, memory_order_relaxed);
  if (!w->prev_publish(w->prev_publish_arg)) {
    atomic_store_explicit(&p->park_state, PARK_RUNNING, memory_order_relaxed);
    ready_next(w, p);
  }
}

/* Completes the transition of the thread that ran before the switch that just
 * resumed us (see scheduler.h). */
static inline __attribute__((always_inline)) void finish_switch(struct worker *w) {
  if (w->exited_stack.guard) {
    wuc_context_release(&w->exit_ctx);
    wuc_stack_free_cached(&w->stacks, &w->exited_stack);
    w->exited_stack.guard = NULL;
  }
  struct wuc_uthread *p = w->prev;
  if (!p) return;
  w->prev = NULL;
  switch (w->prev_action) {
  case PREV_YIELD:
    wuc_runq_push(w, p);
    wuc_wake_other_worker(); /* stealable now: a sleeping worker may take it */
    break;
  case PREV_PREEMPT:
    pin(w, p);
    break;
  case PREV_PARK_PUBLISH:
    publish_park(w, p);
    break;
  case PREV_PARK: {
    int running = PARK_RUNNING;
    if (!atomic_compare_exchange_strong(&p->park_state, &running, PARK_PARKED)) {
      /* An unpark came in while p was switching away: consume the permit. */
      atomic_store(&p->park_state, PARK_RUNNING);
      ready_next(w, p);
    }
    break;
  }
  case PREV_PARK_IN_CELL:
    /* A channel's thread waiter goes into its cell now that p is off its
     * CPU (park.h; channel.c, park_in_cell): no CAS of its park word. */
    wuc_chan_publish_waiter(p, w->publish_waiter);
    if (w->quiesce_after_publish) { /* the full look left it for after that */
      w->quiesce_after_publish = false;
      wuc_reclaim_quiescent(w);
    }
    break;
  case PREV_EXIT: /* handled above: prev is NULL */
  case PREV_NONE:
    break;
  }
}

void wuc_finish_switch(void) { finish_switch(wuc_current_worker()); }

/* ---- the plain hand-off ----------------------------------------------------
 *
 * The owner takes its `next` thread with a plain load and a plain store
 * instead of an exchange (a locked instruction, ~4.5 ns here, two per channel
 * round trip), because the only other writer, a thief of a stale hand-off
 * (steal_stale_next), is rare: it has watched the same hand-off for the steal
 * age.  The two sides are the halves of an asymmetric Dekker pair:
 *   owner: read next_thief (b); load next (t); store next = NULL;
 *          read next_thief again (a)
 *   thief: make next_thief odd (its number); membarrier(2);
 *          CAS next from t to NULL; on success record t and its number;
 *          make next_thief even
 * The membarrier runs a full barrier on every CPU running the process, so
 * either the owner's store is visible to the thief's CAS (which then fails),
 * or the owner's second read sees that thief's number or a later one.  So
 * a = b, even, means no thief took t; otherwise the owner waits until no
 * thief is at work and takes t unless the record names t and a number in
 * [b, a).  As predicates:
 *   owner runs t  <=>  no thief numbered since its look recorded t
 *   thief runs t  <=>  its CAS took t from `next` (and it recorded t)
 * and only one holds: after the first theft the slot is empty, and while
 * the owner settles it does not fill the slot again.  Without membarrier
 * (an old kernel, valgrind) the exchange stays. */

static bool plain_hand_off = true; /* true: one worker, or membarrier registered */

static void membarrier_or_die(void) {
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    wuc_fatal("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed: %s", strerror(errno));
}

/* Before a second worker starts: thieves exist from then on. */
static void choose_hand_off(unsigned workers) {
  plain_hand_off =
      workers == 1 || syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

/* The owner's take of t saw thieves at work since its look (next_thief was
 * `before` then): waits for them to finish and returns t unless one of them
 * took it.  At most one can have (the first to take t left NULL behind it),
 * and it recorded t with its number, which lies in [before, after). */
static __attribute__((noinline, cold)) struct wuc_uthread *
settle_with_thieves(struct worker *w, struct wuc_uthread *t, uint32_t before) {
  uint32_t after, spins = 0;
  while ((after = atomic_load_explicit(&w->next_thief, memory_order_acquire)) & 1)
    wuc_spin_step(&spins); /* yields if the thief's kernel thread was descheduled */
  uint32_t seq = atomic_load_explicit(&w->next_stolen_seq, memory_order_relaxed);
  if (seq - before < after - before &&
      atomic_load_explicit(&w->next_stolen, memory_order_relaxed) == t)
    return NULL;
  return t;
}

/* The owner's look at its `next` slot: the thread there, and (for
 * take_seen_next) the thieves' number before it. */
static inline struct wuc_uthread *look_at_next(struct worker *w, uint32_t *thieves) {
  *thieves = atomic_load_explicit(&w->next_thief, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst); /* x86 keeps the two loads in order */
  return atomic_load_explicit(&w->next, memory_order_relaxed);
}

/* Takes t out of w's `next` slot, where its owner's look_at_next saw it
 * (with `thieves`); NULL if a thief took it meanwhile. */
static inline struct wuc_uthread *take_seen_next(struct worker *w, struct wuc_uthread *t,
                                                 uint32_t thieves) {
  if (!plain_hand_off) return atomic_exchange_explicit(&w->next, NULL, memory_order_acq_rel);
  atomic_store_explicit(&w->next, NULL, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst); /* the store, then the look: the thief's barrier */
  uint32_t now = atomic_load_explicit(&w->next_thief, memory_order_relaxed);
  return __builtin_expect(now == thieves && !(now & 1), 1) ? t : settle_with_thieves(w, t, thieves);
}

/* A thief's take of v's `next` thread t, seen there in hand-off `epoch`. */
static struct wuc_uthread *steal_next(struct worker *v, struct wuc_uthread *t, uint32_t epoch) {
  if (!plain_hand_off) return atomic_compare_exchange_strong(&v->next, &t, NULL) ? t : NULL;
  uint32_t seq = atomic_load(&v->next_thief);
  if ((seq & 1) || !atomic_compare_exchange_strong(&v->next_thief, &seq, seq + 1))
    return NULL; /* another thief is at it */
  seq++;
  membarrier_or_die();
  struct wuc_uthread *taken = NULL;
  if (atomic_load(&v->next) == t && atomic_load(&v->next_epoch) == epoch &&
      atomic_compare_exchange_strong(&v->next, &t, NULL)) {
    taken = t;
    atomic_store_explicit(&v->next_stolen, t, memory_order_relaxed);
    atomic_store_explicit(&v->next_stolen_seq, seq, memory_order_relaxed);
  }
  atomic_store_explicit(&v->next_thief, seq + 1, memory_order_release);
  return taken;
}

static inline struct wuc_uthread *take_next(struct worker *w) {
  uint32_t thieves;
  struct wuc_uthread *t = look_at_next(w, &thieves);
  return t ? take_seen_next(w, t, thieves) : NULL;
}

/* At every schedule while a timer is pending: the TSC filter (clock.h)
 * answers "not yet" without a clock read for most of a timer's wait, and
 * the alarm (alarm.h) covers the earliest deadline left.  Out of line: the
 * switch without timers keeps its code as small as it was (rss100k's
 * wake+join, 100,000 cold stacks, lost ~20 % when it grew). */
static __attribute__((noinline)) void run_pending_timers(struct worker *w, int64_t due) {
  if (!wuc_deadline_surely_ahead(&w->timer_filter, due)) {
    int64_t now = wuc_now_for_deadline(&w->timer_filter, due);
    if (due <= now) {
      wuc_timers_run(w, now);
      wuc_alarm_follow(w, wuc_timers_earliest(&w->timers));
      return;
    }
  }
  wuc_alarm_cover(w, due); /* the thread that runs next may compute for long */
}

static inline void run_due_timers(struct worker *w) {
  int64_t due = wuc_timers_earliest(&w->timers);
  if (due != INT64_MAX) run_pending_timers(w, due);
}

static struct wuc_uthread *take_pinned(struct worker *w) {
  struct wuc_uthread *t = w->pinned_head;
  if (t && !(w->pinned_head = t->queue_next)) w->pinned_tail = NULL;
  return t;
}

/* How often a busy worker polls fds when no worker blocks in epoll_wait
 * (poller.h): at most every this long, looked at every 61st schedule. */
#define BUSY_POLL_NS 50000

static void poll_while_busy(void) {
  if (atomic_load_explicit(&wuc_poll.waiting, memory_order_relaxed) == 0 ||
      atomic_load_explicit(&wuc_poll.polling, memory_order_relaxed))
    return;
  if (wuc_now() - atomic_load_explicit(&wuc_poll.last_poll, memory_order_relaxed) >= BUSY_POLL_NS)
    wuc_poll_run(false, 0);
}

/* Work this worker can take without stealing: the full look.  Inlined in
 * the switch; the scheduler context's callers use look_for_local_work. */
static inline __attribute__((always_inline)) struct wuc_uthread *find_local_work(struct worker *w,
                                                                                 bool quiesce) {
  struct wuc_uthread *t;
  if (quiesce)
    wuc_reclaim_quiescent(w); /* a scheduling point holds no shared pointers */
  else
    w->quiesce_after_publish = true; /* finish_switch's, after the publication */
  /* Every 61st schedule the global queue goes first, and half-way between,
   * the pinned list: with both always non-empty (100,000 threads yielding,
   * one of them preempted), neither waits for the other.  Counted down over
   * every schedule, hand-offs included (take_hand_off). */
  run_due_timers(w); /* first: every schedule covers the alarm (alarm.h) */
  if (w->fair_countdown != 0) {
    w->fair_countdown--;
  } else if (w->preempted) {
    /* The preempted thread is first on the pinned list: on a pinned-first
     * turn it would run again at once, and the preemption (for a slice's
     * end, the global queue's threads, an overdue timer's) be lost.  The
     * turn waits for the next schedule. */
    w->preempted = false;
  } else if ((w->fair_global = !w->fair_global)) {
    w->fair_countdown = GLOBAL_QUEUE_PERIOD / 2 - 1;
    poll_while_busy();
    if ((t = wuc_global_runq_take(&wuc_sched.global, w)) || (t = take_pinned(w))) return t;
  } else {
    w->fair_countdown = GLOBAL_QUEUE_PERIOD - GLOBAL_QUEUE_PERIOD / 2 - 1;
    if ((t = take_pinned(w))) return t;
  }
  if (w->next_streak < NEXT_STREAK_LIMIT && (t = take_next(w))) {
    w->next_streak++;
    return t;
  }
  w->next_streak = 0;
  if ((t = wuc_runq_pop(w)) || (t = take_next(w)) ||
      (t = wuc_global_runq_take(&wuc_sched.global, w)))
    return t;
  return take_pinned(w);
}

static __attribute__((noinline)) struct wuc_uthread *look_for_local_work(struct worker *w) {
  return find_local_work(w, true);
}

/* A yield that finds nothing else to run here returns at once, unless
 * another worker is busy.  Then the yielding thread is usually polling for
 * something a thread on that CPU does (a waituntil with `else`, retried in
 * a loop), and every poll pulls the cache lines that thread is working on.
 * Pausing a little before polling again lets it get a batch of operations
 * done per poll: select-spin C2 at P2 went from 2.2-3.5 M to 4.3-5.1 M
 * elements/s (docs/benchmarks-log.md).  The pause is measured by the clock,
 * not counted in `pause` instructions, whose length differs 3x between
 * CPUs; with every other worker idle there is nobody to wait for, and a
 * yield costs what a look at the queues does. */
#define POLLING_PAUSE_NS 2000

static void polling_pause(void) {
  unsigned n = atomic_load_explicit(&wuc_sched.nworkers, memory_order_relaxed);
  if (n == 1 || atomic_load_explicit(&wuc_sched.nidle, memory_order_relaxed) >= n - 1) return;
  int64_t until = wuc_now() + POLLING_PAUSE_NS;
  do {
    for (int i = 0; i < 16; i++) cpu_relax();
  } while (wuc_now() < until);
}

/* The hand-off: the thread in w's `next` slot, when the switch may go
 * straight to it without the full look (find_local_work), else NULL.  It
 * may when the full look would take that thread too and has nothing else
 * to do this time:
 *   - not the schedule that looks at the global queue or the pinned list
 *     first (fair_countdown), nor the one after NEXT_STREAK_LIMIT
 *     hand-offs in a row, which looks at the local queue first;
 *   - no timer due (the full look's check: timers firing there would put
 *     their threads behind `next` anyway), and the alarm covers the
 *     earliest deadline (else the full look arms it: no call here, so the
 *     hand-off saves no registers).
 * What it leaves out is the quiescent point (reclaim.h): the full look
 * makes one at least every GLOBAL_QUEUE_PERIOD / 2 + 1 schedules.  A yield
 * request (sysmon.c) is honoured at preemption points, not at switches, and
 * thieves see `next` as before (steal_stale_next). */
static inline __attribute__((always_inline)) struct wuc_uthread *take_hand_off(struct worker *w) {
  uint32_t thieves;
  struct wuc_uthread *t = look_at_next(w, &thieves);
  if (!t || w->fair_countdown == 0 || w->next_streak >= NEXT_STREAK_LIMIT) return NULL;
  int64_t due = wuc_timers_earliest(&w->timers);
  if (due != INT64_MAX &&
      (!wuc_deadline_surely_ahead(&w->timer_filter, due) || !wuc_alarm_covers(w, due)))
    return NULL;
  t = take_seen_next(w, t, thieves);
  if (t) { /* else a thief took it meanwhile */
    w->fair_countdown--;
    w->next_streak++;
  }
  return t;
}

/* Records the switch from cur to next (NULL: to w's scheduler context). */
static inline void switching(struct worker *w, struct wuc_uthread *cur, enum prev_action action,
                             struct wuc_uthread *next) {
  w->prev = cur;
  w->prev_action = action;
  w->current = next;
  if (next) count(&w->threads_run);
}

/* The full look's half of wuc_switch_away: finds what to switch to and
 * records the switch; false for a yield or a preemption with nobody else
 * to run here.  Out of line: the hand-off then needs no saved registers
 * but the worker's. */
static __attribute__((noinline)) bool switch_after_look(struct worker *w, struct wuc_uthread *cur,
                                                        enum prev_action action) {
  /* A thread parking to publish its waiter still holds a pointer into its
   * channel's segment until finish_switch has published (park.h). */
  struct wuc_uthread *next = find_local_work(w, action != PREV_PARK_IN_CELL);
  if (!next && action == PREV_YIELD) { /* nobody else to run here */
    polling_pause();
    return false;
  }
  if (!next && action == PREV_PREEMPT) return false; /* nobody to make room for */
  switching(w, cur, action, next);
  return true;
}

/* Every switch of a user thread but its last is made here, from one call
 * of wuc_context_switch: the `ret` that ends a switch then returns where
 * the return-stack predictor expects (docs/benchmarks.md, "bare switch"). */
void wuc_switch_away(struct worker *w, struct wuc_uthread *cur, enum prev_action action) {
  struct wuc_uthread *next = take_hand_off(w);
  if (next)
    switching(w, cur, action, next);
  else if (!switch_after_look(w, cur, action))
    return;
  w->timer_filter.hint_tsc = 0; /* good for this switch only */
  next = w->current;
  wuc_context_switch(&w->prev->ctx, next ? &next->ctx : &w->sched_ctx);
  /* Resumed, perhaps on another worker. */
  w = wuc_current_worker();
  finish_switch(w);
  /* A park's wait is over (wuc_park_at set these; after other switches
   * they are NULL already). */
  cur = w->current;
  __atomic_store_n(&cur->wait_what, NULL, __ATOMIC_RELAXED);
  cur->wait_object = NULL;
  cur->wait_file = NULL;
}

/* ---- a thread's exit (uthread.c, uthread_entry) ----------------------------
 *
 * The thread that runs after an exiting one was usually parked long ago: the
 * stack lines its resumption reads (the switch's saved frame, the frames it
 * returns into) are out of the caches, and each miss waits for the one
 * before.  An exit that no joiner waits for therefore takes its successor
 * before it publishes the end, and prefetches that stack while the end is
 * published (registry, join word): taken, the successor is ours, so its
 * handle may be read (a thread only peeked at in a queue could be stolen,
 * run, joined and freed meanwhile).  A waiting joiner is not delayed: it is
 * woken into `next` and runs next (a hand-off keeps a recursive fork-join
 * depth first).  rss100k's wake+join: docs/benchmarks.md, "Thread life
 * cycle". */

/* Lines from the saved stack pointer up: the switch's frame (64 bytes, on one
 * or two lines) and the callers' frames it returns into. */
#define EXIT_PREFETCH_LINES 4

/* What an exiting thread switches to: the hand-off, else the full look. */
static struct wuc_uthread *exit_successor_now(struct worker *w) {
  struct wuc_uthread *next = take_hand_off(w);
  return next ? next : look_for_local_work(w);
}

struct wuc_uthread *wuc_exit_successor(struct worker *w) {
  /* Nothing queued here (a spawn+join whose joiner came late): no look now,
   * wuc_switch_exit looks once the end is published. */
  if (wuc_worker_has_no_work(w)) return NULL;
  struct wuc_uthread *next = exit_successor_now(w);
  if (next) {
    const char *sp = next->ctx.sp;
    for (int i = 0; i < EXIT_PREFETCH_LINES; i++) __builtin_prefetch(sp + 64 * i);
  }
  return next;
}

/* The last switch of an exiting thread, to next if it took one
 * (wuc_exit_successor).  Its handle may already be freed by its joiner: its
 * last context is the worker's copy (uthread_entry), nobody resumes it, and
 * `prev` stays NULL (the stack to recycle is in w->exited_stack). */
void wuc_switch_exit(struct worker *w, struct wuc_uthread *next) {
  if (!next) next = exit_successor_now(w);
  switching(w, NULL, PREV_EXIT, next);
  wuc_context_exit(&w->exit_ctx, next ? &next->ctx : &w->sched_ctx);
}

/* ---- stealing, spinning and sleeping -------------------------------------- */

/* Work waiting on a busy worker becomes stealable once it has waited there
 * for STEAL_AGE_NS.  Taking it sooner is usually a loss here: the threads a
 * worker runs in turn are mostly ones that talk to each other (a woken
 * thread lands on its waker's worker), and once two of them sit on
 * different CPUs every message moves cache lines between them (~80 ns a
 * line on the development machine, several lines per channel operation),
 * which costs more than the parallelism gains unless the threads also
 * compute.  A backlog that has waited this long means the worker is really
 * overloaded.  Linux's load balancer reasons the same way (a task that ran
 * in the last 0.5 ms is cache-hot and stays).  docs/runtime.md ("Why
 * stealing waits") and docs/benchmarks-log.md have the measurements. */
#define STEAL_AGE_NS 100000

/* STEAL_AGE_NS, or WUC_STEAL_AGE microseconds: a program whose threads
 * compute between messages gains from spreading them at once (0), which
 * costs the ones that only pass messages (docs/runtime.md). */
static int64_t steal_age_ns = STEAL_AGE_NS;

/* One pass over the other workers: the time it started, and the earliest
 * time at which work seen too young to steal will be old enough. */
struct steal_scan {
  int64_t now;
  int64_t ripe_at;
};

static bool ripe(struct steal_scan *scan, int64_t waiting_since) {
  int64_t at = waiting_since + steal_age_ns;
  if (scan->now >= at) return true;
  if (at < scan->ripe_at) scan->ripe_at = at;
  return false;
}

/* Half of v's queue, if w has seen it non-empty for STEAL_AGE_NS (every
 * time it looked: a queue that empties between two looks counts as never
 * emptied, which errs towards stealing, as before this rule). */
static struct wuc_uthread *steal_backlog(struct worker *w, struct worker *v,
                                         struct steal_scan *scan) {
  struct sighting *seen = &w->seen[v->id];
  if (wuc_runq_empty(&v->runq)) {
    seen->backlog_since = 0;
    return NULL;
  }
  if (seen->backlog_since == 0) seen->backlog_since = scan->now;
  if (!ripe(scan, seen->backlog_since)) return NULL;
  seen->backlog_since = 0;
  return wuc_runq_steal(w, v);
}

/* v's `next` thread, if w has seen the same hand-off (the same fill of the
 * slot, by v's next_epoch) waiting there for STEAL_AGE_NS: its waker kept
 * running instead of blocking. */
static struct wuc_uthread *steal_stale_next(struct worker *w, struct worker *v,
                                            struct steal_scan *scan) {
  struct wuc_uthread *t = atomic_load(&v->next);
  if (!t) return NULL;
  uint32_t epoch = atomic_load_explicit(&v->next_epoch, memory_order_relaxed);
  struct sighting *seen = &w->seen[v->id];
  if (seen->next_epoch != epoch || seen->next_since == 0) {
    seen->next_epoch = epoch;
    seen->next_since = scan->now;
  }
  if (!ripe(scan, seen->next_since)) return NULL;
  seen->next_since = 0;
  return steal_next(v, t, epoch);
}

/* The threads of v's timers overdue by the monitor's grace (v runs a thread
 * that does not reach a scheduling point): they wake onto w's queue. */
static struct wuc_uthread *steal_overdue_timers(struct worker *w, struct worker *v,
                                                struct steal_scan *scan) {
  if (wuc_timers_earliest(&v->timers) > scan->now - SYSMON_TIMER_GRACE_NS ||
      atomic_load_explicit(&v->idle, memory_order_relaxed)) /* it wakes for them itself */
    return NULL;
  return wuc_timers_run(v, scan->now) > 0 ? wuc_runq_pop(w) : NULL;
}

static struct wuc_uthread *steal_work(struct worker *w, struct steal_scan *scan) {
  unsigned n = atomic_load(&wuc_sched.nworkers);
  unsigned start = fast_random(w) % n;
  for (unsigned i = 0; i < n; i++) {
    struct worker *v = wuc_sched.workers[(start + i) % n];
    if (v == w) continue;
    struct wuc_uthread *t = steal_overdue_timers(w, v, scan);
    if (t) return t;
    t = steal_backlog(w, v, scan);
    if (!t) t = steal_stale_next(w, v, scan);
    if (t) {
      count(&w->threads_stolen);
      return t;
    }
  }
  return NULL;
}

/* Is there work any worker could take?  (Used after going idle.) */
static bool work_visible(void) {
  if (atomic_load(&wuc_sched.global.size) != 0) return true;
  unsigned n = atomic_load(&wuc_sched.nworkers);
  for (unsigned i = 0; i < n; i++) {
    struct worker *v = wuc_sched.workers[i];
    if (!wuc_runq_empty(&v->runq) || atomic_load(&v->next)) return true;
  }
  return false;
}

static void stop_spinning(struct worker *w) {
  if (!w->spinning) return;
  w->spinning = false;
  atomic_fetch_sub(&wuc_sched.nspinning, 1);
}

/* Takes w out of the idle list if it is still there.  Returns false if a
 * waker got there first, in which case w has been (or is being) notified and
 * holds a spinning count. */
static bool leave_idle_list(struct worker *w) {
  pthread_mutex_lock(&wuc_sched.idle_lock);
  bool was_idle = atomic_load_explicit(&w->idle, memory_order_relaxed);
  if (was_idle) unlist_idle(w);
  pthread_mutex_unlock(&wuc_sched.idle_lock);
  return was_idle;
}

/* Every worker idle, nothing runnable, no timer: no user thread can make
 * progress.  Called with idle_lock held. */
static bool all_blocked(void) {
  return atomic_load(&wuc_sched.nidle) == atomic_load(&wuc_sched.nworkers) &&
         atomic_load(&wuc_poll.waiting) == 0 && atomic_load(&wuc_blocking_jobs) == 0 &&
         !work_visible() && wuc_timers_pending_needed() == 0;
}

/* How soon a worker that found every thread blocked while kernel threads
 * outside the runtime exist looks again: from 1 ms, doubling up to 100 ms (a
 * report comes at most that late after the last of them ends). */
#define DEADLOCK_RECHECK_MIN_NS 1000000
#define DEADLOCK_RECHECK_MAX_NS 100000000

/* Called by a worker going to sleep with no timer of its own.  Reports a
 * deadlock if every user thread is blocked and nothing can wake one: no
 * timer, and no kernel thread outside the runtime, which could still call
 * latch_set, chan_try_send and the like (docs/runtime.md, 'Deadlock
 * report').  Returns when to look again: INT64_MAX for never (not blocked;
 * whoever changes that will wake a worker), else soon, while such kernel
 * threads exist.
 *
 * The kernel threads are looked at between two looks at the workers, with
 * no worker leaving the idle list in between (idle_epoch): so no user thread
 * ran meanwhile and started one after the look at /proc; and a kernel thread
 * that ended before that look made its wake-ups before, where the second
 * look at the queues sees them. */
static int64_t check_deadlock(struct worker *w) {
  pthread_mutex_lock(&wuc_sched.idle_lock);
  bool dead = all_blocked();
  uint64_t epoch = wuc_sched.idle_epoch;
  pthread_mutex_unlock(&wuc_sched.idle_lock);
  if (!dead) {
    w->deadlock_recheck_ns = 0;
    return INT64_MAX;
  }
  if (wuc_foreign_kernel_threads()) {
    int64_t wait = 2 * w->deadlock_recheck_ns;
    if (wait < DEADLOCK_RECHECK_MIN_NS) wait = DEADLOCK_RECHECK_MIN_NS;
    if (wait > DEADLOCK_RECHECK_MAX_NS) wait = DEADLOCK_RECHECK_MAX_NS;
    w->deadlock_recheck_ns = wait;
    return wuc_now() + wait;
  }
  pthread_mutex_lock(&wuc_sched.idle_lock);
  dead = all_blocked() && wuc_sched.idle_epoch == epoch;
  pthread_mutex_unlock(&wuc_sched.idle_lock);
  if (dead) wuc_deadlock_report();
  return INT64_MAX;
}

/* Nobody wakes a sleeping worker for a thread put in a `next` slot (a
 * hand-off: its waker's worker runs it when the waker blocks), so if the
 * waker then computes without blocking, the thread would wait for as long.
 * One sleeping worker therefore looks again every LOOKOUT_PERIOD_NS while
 * others are busy, and takes such a thread once it has waited STEAL_AGE_NS
 * (Go's sysmon plays the same part).  It only glances (one look at the
 * others instead of a spin of SPIN_NS), so it costs the idle CPU a wake-up
 * and a few microseconds per period. */
#define LOOKOUT_PERIOD_NS 1000000

/* Sleeps until notified or `deadline`: in epoll_wait if threads wait on fds
 * and no other worker does (poller.h), else on the futex. */
static void sleep_until_woken(struct worker *w, int64_t deadline) {
  bool expected = false;
  if (atomic_load_explicit(&wuc_poll.waiting, memory_order_relaxed) > 0 &&
      atomic_compare_exchange_strong(&wuc_poll.polling, &expected, true)) {
    atomic_store(&w->in_epoll, true);
    if (atomic_load(&w->wake_word) == 0) wuc_poll_run(true, deadline);
    atomic_store(&w->in_epoll, false);
    atomic_store(&wuc_poll.polling, false);
    return;
  }
  wuc_futex_wait_until(&w->wake_word, 0, deadline);
}

static bool become_lookout(void) {
  if (atomic_load(&wuc_sched.nidle) == atomic_load(&wuc_sched.nworkers)) return false;
  bool expected = false;
  return atomic_compare_exchange_strong(&wuc_sched.lookout, &expected, true);
}

/* Sleeps until notified or until w's next timer is due (or, as the lookout,
 * until it should look again).  True if it woke as the lookout, unnotified:
 * the caller then glances instead of spinning. */
static bool idle(struct worker *w) {
  stop_spinning(w);
  pthread_mutex_lock(&wuc_sched.idle_lock);
  atomic_store_explicit(&w->idle, true, memory_order_relaxed);
  w->idle_next = wuc_sched.idle_list;
  wuc_sched.idle_list = w;
  atomic_fetch_add(&wuc_sched.nidle, 1);
  pthread_mutex_unlock(&wuc_sched.idle_lock);
  atomic_thread_fence(memory_order_seq_cst); /* the sleeper's half of the Dekker pair */

  bool lookout = false;
  if (!work_visible()) {
    int64_t deadline = wuc_timers_next_deadline(w);
    if (deadline == INT64_MAX) deadline = check_deadlock(w);
    lookout = become_lookout();
    if (lookout) {
      int64_t look_again = wuc_now() + LOOKOUT_PERIOD_NS;
      if (look_again < deadline) deadline = look_again;
    }
    if (deadline > wuc_now()) {
      wuc_alarm_disarm(w);    /* the sleep ends at the earliest deadline itself */
      wuc_reclaim_offline(w); /* a sleeping worker does not hold back reclamation */
      sleep_until_woken(w, deadline);
      wuc_reclaim_online(w);
    }
    if (lookout) atomic_store(&wuc_sched.lookout, false);
  }
  bool was_listed = leave_idle_list(w);
  wuc_sysmon_worker_busy(wuc_timers_earliest(&w->timers));
  if (was_listed) return lookout;
  /* A waker took us off the list; its notification is set under the lock. */
  atomic_store(&w->wake_word, 0);
  w->deadlock_recheck_ns = 0; /* something happened: look again soon next time */
  w->spinning = true;
  return false;
}

/* Sleeps until `until`, when work seen on another worker will be old enough
 * to steal (or until w's next timer is due), keeping w's spinning count: a
 * worker that makes more work runnable meanwhile sees a spinner and does
 * not wake anybody, since this one will look again anyway.  w is not in the
 * idle list: nothing wakes it early. */
static void watch(struct worker *w, int64_t until) {
  int64_t timer = wuc_timers_next_deadline(w);
  if (timer < until) until = timer;
  if (until <= wuc_now()) return;
  struct timespec ts = {.tv_sec = until / 1000000000, .tv_nsec = until % 1000000000};
  wuc_reclaim_offline(w);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
  wuc_reclaim_online(w);
}

/* Out of local work: a look at the fds before spinning or stealing (Go's
 * findRunnable polls without blocking at the same point), unless a worker
 * blocks in epoll_wait already.  With one connection's two threads taking
 * turns, the edge the running thread's write made is found here, and its
 * thread runs on this worker (poller.c: the first wake-up wakes no other). */
static struct wuc_uthread *poll_for_work(struct worker *w) {
  if (atomic_load_explicit(&wuc_poll.waiting, memory_order_relaxed) == 0 ||
      atomic_load_explicit(&wuc_poll.polling, memory_order_relaxed) || wuc_poll_run(false, 0) == 0)
    return NULL;
  return look_for_local_work(w);
}

static struct wuc_uthread *find_work_or_sleep(struct worker *w) {
  bool glance = false; /* one look at the others, not a spin: the lookout's check */
  for (;;) {
    struct wuc_uthread *t = look_for_local_work(w);
    if (!t) t = poll_for_work(w);
    if (!t && atomic_load(&wuc_sched.nworkers) > 1) {
      /* Spin only if fewer than half the busy workers already do. */
      if (!w->spinning) {
        unsigned busy = atomic_load(&wuc_sched.nworkers) - atomic_load(&wuc_sched.nidle);
        if (2 * atomic_load(&wuc_sched.nspinning) < busy) {
          w->spinning = true;
          atomic_fetch_add(&wuc_sched.nspinning, 1);
        }
      }
      if (w->spinning) {
        int64_t until = glance ? 0 : wuc_now() + SPIN_NS;
        glance = false;
        struct steal_scan scan;
        /* Probing other workers' queues pulls their cache lines away from
         * them: back off exponentially between probes. */
        for (int pause = 16; !t; pause = pause < 1024 ? 2 * pause : pause) {
          scan = (struct steal_scan){wuc_now(), INT64_MAX};
          t = steal_work(w, &scan);
          if (!t && (atomic_load_explicit(&w->next, memory_order_relaxed) ||
                     atomic_load(&wuc_sched.global.size)))
            t = look_for_local_work(w);
          if (t || scan.now >= until) break;
          for (int i = 0; i < pause; i++) cpu_relax();
        }
        if (!t && scan.ripe_at != INT64_MAX) {
          watch(w, scan.ripe_at);
          continue;
        }
      }
    }
    if (t) {
      if (w->spinning) {
        w->spinning = false;
        /* The last spinner found work: there may be more, keep one looking. */
        if (atomic_fetch_sub(&wuc_sched.nspinning, 1) == 1) wuc_wake_idle_worker();
      }
      return t;
    }
    glance = idle(w);
  }
}

/* The scheduler context of a worker: runs when no user thread can. */
static void sched_loop(struct worker *w) {
  for (;;) {
    finish_switch(w);
    struct wuc_uthread *t = find_work_or_sleep(w);
    w->current = t;
    count(&w->threads_run);
    wuc_context_switch(&w->sched_ctx, &t->ctx);
  }
}

static void sched_entry(void *arg) { sched_loop(arg); }

/* ---- workers -------------------------------------------------------------- */

static struct worker *worker_new(unsigned id) {
  struct worker *w = aligned_alloc(64, sizeof *w);
  if (!w) wuc_fatal("out of memory creating worker %u", id);
  memset(w, 0, sizeof *w);
  w->id = id;
  w->rng = 0x9e3779b9u * (id + 1);
  atomic_store(&w->timers.earliest, INT64_MAX);
  wuc_reclaim_online(w);
  return w;
}

static void worker_os_thread_setup(struct worker *w) {
  wuc_tls_worker = w;
  atomic_store_explicit(&w->tid, gettid(), memory_order_relaxed);
  w->signal_stack = wuc_stack_overflow_altstack_init();
  /* Timer wake-ups within ~10 µs instead of the default 50 µs slack. */
  prctl(PR_SET_TIMERSLACK, 10000UL, 0, 0, 0);
}

static void *worker_main(void *arg) {
  struct worker *w = arg;
  worker_os_thread_setup(w);
  wuc_alarm_init(w);
  wuc_context_init_current(&w->sched_ctx);
  sched_loop(w); /* on this kernel thread's own stack */
  return NULL;
}

static unsigned default_processors(void) {
  const char *env = getenv("WUC_PROCESSORS");
  if (env && *env) {
    char *end;
    long n = strtol(env, &end, 10);
    if (*end != '\0' || n < 1 || n > WUC_MAX_WORKERS)
      wuc_fatal("WUC_PROCESSORS=%s: expected a number of workers from 1 to %d", env,
                WUC_MAX_WORKERS);
    return (unsigned)n;
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    unsigned n = (unsigned)CPU_COUNT(&set);
    return n > WUC_MAX_WORKERS ? WUC_MAX_WORKERS : n;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > WUC_MAX_WORKERS ? WUC_MAX_WORKERS : (unsigned)n;
}

void wuc_set_processors(unsigned n) {
  wuc_check_not_forked("wuc_set_processors");
  if (atomic_load(&wuc_sched.started))
    wuc_fatal("wuc_set_processors(%u) called after the first uthread_spawn; %u workers already run",
              n, atomic_load(&wuc_sched.nworkers));
  if (n > WUC_MAX_WORKERS)
    wuc_fatal("wuc_set_processors(%u): at most %d workers are supported", n, WUC_MAX_WORKERS);
  wuc_sched.target_workers = n ? n : default_processors();
}

unsigned wuc_processors(void) {
  return atomic_load(&wuc_sched.started) ? atomic_load(&wuc_sched.nworkers)
                                         : wuc_sched.target_workers;
}

void wuc_sched_start_workers(void) {
  bool expected = false;
  if (!atomic_compare_exchange_strong(&wuc_sched.started, &expected, true)) return;
  unsigned n = wuc_sched.target_workers;
  wuc_preempt_init();                   /* before the workers: they inherit the signal mask */
  wuc_alarm_init(wuc_sched.workers[0]); /* the first spawn runs on worker 0's kernel thread */
  choose_hand_off(n);
  steal_age_ns = wuc_env_microseconds(
      "WUC_STEAL_AGE", 1000000, STEAL_AGE_NS,
      "how long work waits before another worker takes it, in microseconds from 0 to 1000000");
  for (unsigned i = 1; i < n; i++) wuc_sched.workers[i] = worker_new(i);
  atomic_store(&wuc_sched.nworkers, n);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  for (unsigned i = 1; i < n; i++) {
    int err =
        pthread_create(&wuc_sched.workers[i]->os_thread, &attr, worker_main, wuc_sched.workers[i]);
    if (err) wuc_fatal("cannot start worker %u: %s", i, strerror(err));
  }
  pthread_attr_destroy(&attr);
  wuc_sysmon_start();
}

void wuc_worker_stats(unsigned worker, struct wuc_worker_stats *out) {
  memset(out, 0, sizeof *out);
  if (worker >= atomic_load(&wuc_sched.nworkers)) return;
  struct worker *w = wuc_sched.workers[worker];
  out->threads_run = atomic_load(&w->threads_run);
  out->threads_stolen = atomic_load(&w->threads_stolen);
  out->preemptions = atomic_load(&w->preemptions);
}

/* ---- start-up: the process's main thread becomes worker 0 running user
 * thread 1 (main) on its own stack; worker 0's scheduler gets a stack of ours. */

static struct wuc_uthread main_thread;

void wuc_uthread_main_init(struct wuc_uthread *t);

/* ---- fork ------------------------------------------------------------------
 *
 * Before the first uthread_spawn the runtime is one worker, the process's
 * own kernel thread, running one user thread, main: a fork() that main makes
 * then leaves the child a whole runtime, as if it had just started (its
 * workers start at its own first spawn); only the worker's kernel thread id
 * changes.
 *
 * After it, the child has only the kernel thread that called fork: the other
 * workers and the user threads they were running are gone, and so is the
 * owner of any lock they held.  Rebuilding a runtime from that would resume
 * threads half-way through an operation, so the runtime stops instead: the
 * child's kernel thread is no worker any more, and every call that would
 * block, wake or start a thread, or change a channel, future, latch,
 * semaphore or lock stops the program with the message below
 * (docs/runtime.md, 'fork'). */

static void fork_child(void) {
  struct worker *w = wuc_tls_worker;
  if (!atomic_load(&wuc_sched.started) && w && w->current && !w->in_timer_callbacks) {
    atomic_store_explicit(&w->tid, gettid(), memory_order_relaxed);
    return;
  }
  wuc_fork.thread = w && !w->in_timer_callbacks ? w->current : NULL;
  atomic_store_explicit(&wuc_fork.in_child, true, memory_order_relaxed);
  wuc_tls_worker = NULL;
}

void wuc_fork_child_fatal(const char *call) {
  wuc_fatal("%s called in the child of a fork() made after the first uthread_spawn: the wuc "
            "runtime runs only in the parent (fork before it, exec a program in the child, or "
            "use posix_spawn)",
            call);
}

__attribute__((constructor(101))) static void wuc_runtime_init(void) {
  wuc_fatal_set_where(wuc_describe_where);
  wuc_clock_init();
  wuc_stacks_init();
  wuc_sched.target_workers = default_processors();
  struct worker *w0 = worker_new(0);
  w0->os_thread = pthread_self();
  wuc_sched.workers[0] = w0;
  worker_os_thread_setup(w0);
  wuc_stack_overflow_handler_init();
  pthread_atfork(NULL, NULL, fork_child);

  wuc_uthread_main_init(&main_thread);
  wuc_context_init_current(&main_thread.ctx);
  w0->current = &main_thread;
  if (!wuc_stack_alloc(&w0->sched_stack))
    wuc_fatal("cannot allocate the scheduler stack: %s", strerror(errno));
  wuc_context_init(&w0->sched_ctx, w0->sched_stack.base, w0->sched_stack.top, sched_entry, w0);
  atomic_store(&wuc_sched.initialized, true);
}
