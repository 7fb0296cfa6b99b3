/* scheduler.h — user threads, workers and the scheduler's shared state.
 *
 * Threads.  A user thread (struct uthread) is a saved context, a stack and a
 * park permit.  Its park_state is the whole of the park/unpark protocol:
 *
 *   RUNNING  running or runnable, no permit
 *   PERMIT   running or runnable, permit present
 *   PARKED   blocked in wuc_park, permit absent; whoever moves it from PARKED
 *            to RUNNING (by CAS) owns making it runnable, exactly once
 *   EXITED   its function returned
 *   PUBLISHED  blocked in wuc_park_published (park.h), or a blocking channel
 *            operation's thread waiter published in its cell (channel.c):
 *            not woken by unpark, but by whoever wins what was published
 *
 * A parking thread does not write PARKED itself: it switches away first, and
 * the context that runs next commits the park (finish_switch).  Until the
 * switch has saved the thread's registers nobody may resume it, and this
 * ordering guarantees that without a lock: an unpark that lands in between
 * finds RUNNING, leaves PERMIT, and the commit's CAS fails and requeues it.
 * A published park (Go's gopark with an unlock function) goes further: the
 * thread's wait itself becomes visible only in finish_switch, so whoever
 * finds it knows the thread is off its CPU and makes it runnable with plain
 * stores; neither side touches the park word with a read-modify-write.
 *
 * A blocking channel operation that must wait parks that way, specialised
 * (PREV_PARK_IN_CELL): it switches away with its thread waiter not yet in
 * its cell, and the finishing step publishes it there by the cell's own
 * CAS (channel.c, "thread waiters off their CPU").  As predicates:
 *   waiter in cell  =>  thread off its CPU, in no queue, park_state PUBLISHED
 *   thread runnable again  <=>  exactly one party moved the cell away from
 *       its waiter (a resumer), or the publication failed or withdrew it
 * so neither side needs a read-modify-write of the park word.  No quiescent
 * point (reclaim.h) comes between the operation's fetch-and-add and the
 * publication: the full look leaves its point to finish_switch.
 *
 * Switches.  A thread that blocks, yields or exits switches straight to the
 * next runnable thread of its worker (or to the worker's scheduler context if
 * there is none) and leaves what remains of its own transition — requeue
 * after a yield, commit after a park, recycle its stack after exit — in
 * worker.prev / prev_action, for the resumed side to finish.  So a hand-off
 * between two threads costs one context switch, not two.  Every switch of a
 * running thread is made from one call in wuc_switch_away (an exiting
 * thread's last one from wuc_switch_exit), so the return that ends it is
 * predicted.
 *
 * The hand-off.  A thread that switches away while its worker's `next` slot
 * holds a thread goes straight to that thread, without the full look for
 * work below (scheduler.c, take_hand_off), unless this schedule is one the
 * full look treats specially (the 61-schedule fairness turn, the local
 * queue's turn after 64 hand-offs in a row) or a timer is due.  All it
 * skips is the quiescent point (reclaim.h), which the full look makes at
 * least every 31st schedule.  A park/unpark round trip between two threads
 * of one worker is then: unpark fills `next` (a plain store into an empty
 * slot), park takes it (a plain load and store: scheduler.c, "the plain
 * hand-off") and switches.
 *
 * Workers.  One per kernel thread.  Where a thread made runnable goes:
 *   - woken by a user thread: the waker's `next` slot (runs when the waker
 *     blocks; the thread displaced from `next` goes to the local queue);
 *   - spawned, yielded, woken by a timer: the back of the local queue;
 *   - made runnable outside any worker (a foreign kernel thread, or the
 *     monitor firing a busy worker's timer): the global queue;
 *   - preempted: the worker's pinned list, which only it runs (preempt.h).
 * A worker looking for work (the full look) fires its expired timers, then
 * looks, in order, at: next (at most 64 times in a row, then its queue goes
 * first once), its queue, the global queue, its pinned list (every 61st
 * schedule, hand-offs counted, starts with the global queue, and the one
 * half-way between with the pinned list, so neither starves; a
 * preemption's switch defers that turn once);
 * then it spins briefly looking at the other workers (and at their overdue
 * timers: sysmon.h), and
 * steals only work that has waited there for a while (STEAL_AGE_NS: half of
 * a queue it saw non-empty that long, or a `next` thread it saw waiting for
 * the same hand-off that long), because threads that share a worker mostly
 * talk to each other and lose more to cross-CPU traffic than they gain from
 * parallelism (scheduler.c, "stealing").  If it saw work that is not old
 * enough yet it sleeps until it will be, still counted as spinning (watch);
 * otherwise it sleeps on a futex until woken or until its next timer is due
 * (one sleeper, the lookout, also every millisecond while others are busy:
 * nobody wakes a worker for a `next` thread whose waker keeps running).
 *
 * Waking idle workers (the Dekker pair that keeps work from being stranded):
 * a producer of stealable work stores it, then reads nspinning/nidle; a worker
 * going idle registers in the idle list, then re-reads every queue.  Both
 * sides use seq_cst, so at least one of them sees the other.  A lone spawn
 * (its thread the only one waiting on the worker: no `next`, empty queue)
 * makes no stealable work yet while a lookout exists: the spawner's worker
 * runs the thread when the spawner blocks, and the lookout, whose role
 * passes on while any worker is busy, takes it if the spawner computes on
 * (uthread.c, spawn).
 *
 * Deadlock.  When the last worker goes idle with every queue empty and no
 * timer pending, only a kernel thread outside the runtime could still make a
 * thread runnable (through a non-blocking call: latch_set, chan_try_send...).
 * If the process has none, nothing ever will: the deadlock report.  If it
 * has some, the worker looks again later (1 ms, doubling up to 100 ms), and
 * reports once they have all ended (scheduler.c, check_deadlock).
 *
 * Registry.  Every live thread is on a list of the worker that spawned it
 * (struct worker, `threads`), which the deadlock report, schedtrace and the
 * gdb extension walk (deadlock.c).  A spawn and an exit take only that
 * list's spin lock, which stays in the spawner's cache when its threads end
 * on the same worker; nothing global is written but the next id.
 *
 * Fork.  Before the first spawn, a fork() by main leaves the child a whole
 * runtime.  After it, only the forking kernel thread exists in the child:
 * the other workers and the threads they ran are gone, with any lock they
 * held.  The runtime does not run there: the child's calls stop it with a
 * message (wuc_fork, below). */
#ifndef WUC_RUNTIME_SCHEDULER_H
#define WUC_RUNTIME_SCHEDULER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <stddef.h>

#include <wuc/thread.h>

#include "chan_segment.h"
#include "clock.h"
#include "context.h"
#include "reclaim.h"
#include "runq.h"
#include "segment_pool.h"
#include "stack.h"
#include "timer_heap.h"

#define WUC_MAX_WORKERS 256

enum { UTHREAD_MAGIC = 0x75746872u /* "uthr" */, UTHREAD_DEAD = 0xdeadbeefu };

enum park_state {
  PARK_RUNNING = 0,
  PARK_PERMIT = 1,
  PARK_PARKED = 2,
  PARK_EXITED = 3,
  PARK_PUBLISHED = 4 /* parked by wuc_park_published: its publisher's winner wakes it */
};

/* uthread.join_word: 0 (no joiner yet), the joining thread, JOIN_WAKING (the
 * finishing side is unparking the joiner) or JOIN_DONE.  The joiner must not
 * return while WAKING: the unpark still reads the joiner's own handle. */
#define JOIN_DONE ((uintptr_t)1)
#define JOIN_WAKING ((uintptr_t)2)

struct wuc_uthread {
  wuc_context ctx;
  _Atomic int park_state;
  int spawn_line; /* (for reports, below: here it fills a hole) */
  unsigned long id;
  uint32_t magic;           /* past the words free() reuses, so a stale handle reads DEAD */
  unsigned registry_worker; /* whose registry list holds it (wuc_registry_add) */
  _Atomic uintptr_t join_word;
  struct wuc_uthread *queue_next; /* its worker's pinned list link (preempt.h) */

  struct wuc_stack stack; /* main's is not ours: base == NULL */
  void (*fn)(void *);
  void *arg;

  /* For reports: where the thread came from and what it waits for. */
  const char *spawn_file; /* (spawn_line and registry_worker are above, in holes) */
  void *spawn_return_address;
  unsigned long parent_id;
  char name[32]; /* "" until named (uthread.c); written by the thread itself or before it starts */
  const char *wait_what;
  const void *wait_object;
  const char *wait_file;
  int wait_line;
  unsigned preemption_off; /* nesting count of wuc_uthread_preemption_off (preempt.h) */

  struct wuc_uthread *all_prev, *all_next; /* its worker's registry list, newest first */
  struct wuc_thread_timer stmt_timer;      /* its statements' timeouts (timer.h, timeout.c) */
  struct wuc_kept_pin kept_pin;            /* its channel clauses' kept pin (chan_segment.h) */
};

enum prev_action {
  PREV_NONE,
  PREV_YIELD,
  PREV_PARK,
  PREV_PARK_PUBLISH, /* wuc_park_published */
  PREV_PARK_IN_CELL, /* a channel's thread waiter (park.h) */
  PREV_EXIT,
  PREV_PREEMPT
};

struct worker {
  unsigned id;
  struct wuc_uthread *current; /* NULL while the scheduler context runs */
  wuc_context sched_ctx;
  struct wuc_uthread *prev; /* transition to finish after the next switch */
  enum prev_action prev_action;
  /* PREV_PARK_PUBLISH: what makes prev's wait visible (park.h). */
  bool (*prev_publish)(void *arg);
  void *prev_publish_arg;
  struct thread_waiter *publish_waiter; /* PREV_PARK_IN_CELL: the one to publish (park.h) */
  bool quiesce_after_publish;           /* that switch's full look left its quiescent point to it */
  struct wuc_stack exited_stack;        /* of a thread that just exited: free after the switch */
  struct wuc_stack_cache stacks;        /* free stacks for spawns on this worker (stack.h) */
  struct segment_pool segments;         /* channel segments kept for reuse (segment_pool.h) */
  wuc_context exit_ctx;                 /* that thread's last context: release after the switch */
  bool in_timer_callbacks;              /* wakes go to the queue's back, not `next` */
  bool keep_one_wake;                   /* the next such wake wakes no other worker (poller.c) */
  bool spinning;
  uint32_t fair_countdown; /* schedules before one looks at global or pinned first */
  bool fair_global;        /* the last such look was at the global queue */
  bool preempted;          /* a preemption's switch: the next such look waits */
  uint32_t next_streak;    /* consecutive schedules served from `next` */
  uint32_t rng;

  struct runq runq;
  /* Threads preempted here, oldest first, linked by queue_next: they
   * resume on this worker only (preempt.h), so nobody else touches it. */
  struct wuc_uthread *pinned_head, *pinned_tail;
  struct wuc_uthread *_Atomic next;
  _Atomic uint32_t next_epoch; /* bumped by the owner whenever it fills `next` */
  /* A thief of `next` (scheduler.c, "the plain hand-off"): next_thief is odd
   * while one is at work, and next_stolen / next_stolen_seq say what the
   * thief of that number took, if it took anything. */
  _Atomic uint32_t next_thief;
  _Atomic uint32_t next_stolen_seq;
  struct wuc_uthread *_Atomic next_stolen;
  struct timer_heap timers;
  struct wuc_deadline_filter timer_filter; /* when `timers` surely has nothing due (clock.h) */

  _Atomic uint32_t wake_word; /* futex: 1 = notified */
  _Atomic bool in_epoll;      /* asleep in epoll_wait, not on the futex (poller.h) */
  struct worker *idle_next;   /* idle list link, under sched.idle_lock */
  _Atomic bool idle;          /* in the idle list; written under sched.idle_lock */

  pthread_t os_thread;
  _Atomic pid_t tid; /* its kernel thread's id (0 until it runs), for the deadlock check */
  int64_t deadlock_recheck_ns;  /* how long to wait before looking again (scheduler.c) */
  struct wuc_stack sched_stack; /* worker 0 only: its kernel thread's stack is main's */
  void *signal_stack;           /* the kernel thread's sigaltstack (stack_overflow.c) */

  /* Reclamation (reclaim.c): the epoch seen at the last quiescent point,
   * and objects this worker retired, oldest first. */
  _Atomic uint64_t reclaim_epoch;
  struct wuc_retired *retired_head, *retired_tail;
  uint64_t retired_count;
  uint32_t reclaim_tick;
  uint32_t reclaim_ops; /* operations started since the last announcement */
  /* The buffered channel whose expandBuffer runs here, or NULL (channel.c,
   * "expansions in flight"): written only by this worker, read by others. */
  _Atomic(struct wuc_chan *) expanding;

  /* The registry of live threads, in one list per worker (deadlock.c): the
   * threads spawned here (worker 0's also has main), newest first, linked by
   * all_next/all_prev, and how many; changed under registry_lock, a spin
   * lock (spin.h), by spawns here and by those threads' exits wherever they
   * run.  On a line of its own: a spinning worker reads the lines around. */
  _Atomic int registry_lock __attribute__((aligned(64)));
  struct wuc_uthread *threads;
  _Atomic unsigned long live_threads; /* also read without the lock */

  /* Switches into a user thread. */
  _Atomic uint64_t threads_run __attribute__((aligned(64)));
  _Atomic uint64_t threads_stolen; /* threads taken from other workers */
  _Atomic uint64_t preemptions;    /* threads preempted here */
  /* threads_run + 1 while the monitor asks the running thread to yield at
   * its next preemption point (it has had a whole time slice: sysmon.c),
   * else 0 or a stale value (threads_run has moved on since). */
  _Atomic uint64_t yield_request;

  /* What this worker, looking for work, saw of each other one (times 0:
   * not seen): since when its queue has been non-empty, and which fill of
   * its `next` slot and since when, to tell work that waits from work that
   * moves (scheduler.c, steal_work). */
  struct sighting {
    int64_t backlog_since;
    int64_t next_since;
    uint32_t next_epoch;
  } seen[WUC_MAX_WORKERS];

  /* The alarm (alarm.h): the deadline it covers (or ALARM_NONE, ALARM_DISARMED),
   * the kernel's timer, and whether this kernel thread is changing it.  On
   * a line of their own: only a switch that sees a pending timer reads them. */
  int64_t alarm_covers __attribute__((aligned(64)));
  int alarm_id;
  volatile bool alarm_busy;
  _Atomic bool has_alarm; /* read by the monitor */
} __attribute__((aligned(64)));

struct scheduler {
  _Atomic bool initialized;  /* start-up finished */
  _Atomic unsigned nworkers; /* workers running: 1 until the first spawn */
  unsigned target_workers;   /* how many the first spawn starts */
  _Atomic bool started;      /* workers 1..n-1 started */
  struct worker *workers[WUC_MAX_WORKERS];
  struct global_runq global;

  pthread_mutex_t idle_lock;
  struct worker *idle_list;
  _Atomic unsigned nidle;
  _Atomic unsigned nspinning;
  uint64_t idle_epoch;  /* bumped whenever a worker leaves the idle list, under idle_lock */
  _Atomic bool lookout; /* a sleeping worker looks again now and then (scheduler.c, idle) */

  /* On a line of its own: every spawn takes an id, and a spinning worker
   * keeps reading nidle and nspinning above (false sharing cost bench_spawn
   * ~20 ns at P2). */
  _Atomic unsigned long next_id __attribute__((aligned(64)));
};

extern struct scheduler wuc_sched;

/* Set in the child of a fork() (scheduler.c, fork_child): thread is the user
 * thread that called fork, if one did.  Read-mostly, on a line of its own. */
struct wuc_fork_state {
  _Atomic bool in_child;
  struct wuc_uthread *thread;
} __attribute__((aligned(64)));
extern struct wuc_fork_state wuc_fork;

/* Stops the program: `call` was made in the child of a fork(). */
__attribute__((noreturn, cold)) void wuc_fork_child_fatal(const char *call);
/* The check at the entry of calls that change an object or involve a thread
 * (the others find no worker there and stop through the checks that find
 * none: wuc_current_thread_or_die...). */
static inline void wuc_check_not_forked(const char *call) {
  if (__builtin_expect(atomic_load_explicit(&wuc_fork.in_child, memory_order_relaxed), 0))
    wuc_fork_child_fatal(call);
}

/* The worker running the caller, or NULL on a foreign kernel thread.  Not
 * inlined on purpose: a user thread can resume on another kernel thread, and
 * a compiler may keep a thread-local address computed before a switch. */
struct worker *wuc_current_worker(void);
/* wuc_current_worker for a signal handler that may have interrupted a
 * sanitizer's runtime (preempt.c). */
struct worker *wuc_current_worker_in_handler(void);
/* The same, read directly, for a function that switches (parks, yields)
 * only in a tail call, if at all: one that switches and then uses it again
 * must use wuc_current_worker, or the compiler may keep the address of the
 * old kernel thread's variable across the switch. */
extern __thread struct worker *wuc_tls_worker __attribute__((tls_model("initial-exec")));
/* As above, but stops the program if the caller is not a user thread. */
struct wuc_uthread *wuc_current_thread_or_die(const char *call);
/* The same for a call whose macro recorded its site: the message names it
 * ("chan_recv at demo.c:12 called outside a user thread"); file may be NULL. */
struct wuc_uthread *wuc_current_thread_or_die_at(const char *call, const char *file, int line);
/* wuc_current_thread_or_die for a waituntil statement that starts, which is
 * also where it counts as an operation for reclamation (reclaim.h). */
struct wuc_uthread *wuc_statement_start(const char *call);

/* The start of an operation that may block (a blocking channel operation,
 * an I/O call): wuc_reclaim_op_start, and a preemption point.  If the
 * monitor asked the running thread to yield (yield_request), it yields
 * here: it would switch here anyway had the operation to wait, and holds
 * nothing the next thread could need.  A thread whose every operation
 * finds its resource ready (a connection whose next request is always
 * there) would otherwise keep its worker as long as that lasts, in code
 * (libc, libwuc) where the preemption signal never switches. */
void wuc_blocking_op_slow(struct worker *w, const char *what);

/* One operation started on w (reclaim.h, wuc_reclaim_op_start). */
static inline void wuc_reclaim_count_op(struct worker *w) {
  if ((++w->reclaim_ops & 255) == 0) wuc_reclaim_quiescent(w);
}

/* Inline for its common case, an operation that is neither the 256th since
 * the last quiescent point nor asked to yield: three loads and a store.  The
 * slow part may switch (and so resume on another kernel thread): a caller
 * reads the worker afresh afterwards (wuc_current_worker), never through
 * wuc_tls_worker. */
static inline void wuc_blocking_op_start(const char *what) {
  struct worker *w = wuc_tls_worker;
  if (__builtin_expect(w != NULL, 1) && __builtin_expect((++w->reclaim_ops & 255) != 0, 1) &&
      __builtin_expect(atomic_load_explicit(&w->yield_request, memory_order_relaxed) == 0, 1))
    return;
  wuc_blocking_op_slow(w, what);
}

/* Makes a thread runnable (it must not be queued or running).  Inline for
 * the hand-off's case, a user thread waking one into its worker's empty
 * `next` slot: only the owner fills the slot (a thief only empties it), so
 * an empty slot stays empty until this store, which needs no locked
 * instruction (scheduler.c, ready_next, does the rest).  Reading
 * wuc_tls_worker directly is safe: nothing here switches. */
void wuc_make_runnable_slow(struct worker *w, struct wuc_uthread *t);
/* The owner has filled w's `next` slot: a new hand-off, which thieves tell
 * from the last by next_epoch (scheduler.c, steal_stale_next). */
static inline void wuc_next_filled(struct worker *w) {
  uint32_t epoch = atomic_load_explicit(&w->next_epoch, memory_order_relaxed);
  atomic_store_explicit(&w->next_epoch, epoch + 1, memory_order_relaxed); /* owner only */
}
static inline void wuc_make_runnable(struct wuc_uthread *t) {
  struct worker *w = wuc_tls_worker;
  if (__builtin_expect(!w || w->in_timer_callbacks ||
                           atomic_load_explicit(&w->next, memory_order_relaxed) != NULL,
                       0)) {
    wuc_make_runnable_slow(w, t);
    return;
  }
  atomic_store_explicit(&w->next, t, memory_order_release);
  wuc_next_filled(w);
}
/* Wakes a thread parked by its publication (park.h, wuc_wake_published):
 * inline for the channel's hot wake. */
static inline void wuc_make_runnable_published(struct wuc_uthread *t) {
  atomic_store_explicit(&t->park_state, PARK_RUNNING, memory_order_relaxed);
  wuc_make_runnable(t);
}
/* What cur is about to wait for, for the deadlock report and the scheduler
 * trace; wuc_switch_away clears it when cur runs again.  wait_what is also
 * read while cur runs (schedtrace.c): atomic, relaxed, a plain store on x86. */
static inline void wuc_note_wait(struct wuc_uthread *cur, const char *what, const void *object,
                                 const char *file, int line) {
  __atomic_store_n(&cur->wait_what, what, __ATOMIC_RELAXED);
  cur->wait_object = object;
  cur->wait_file = file;
  cur->wait_line = line;
}
/* Gives up the worker: yield, park (after the caller noted its wait,
 * wuc_note_wait), or be preempted (from the signal handler, preempt.c). */
void wuc_switch_away(struct worker *w, struct wuc_uthread *cur, enum prev_action action);
/* A thread's exit (uthread.c, uthread_entry; scheduler.c, "a thread's
 * exit"): takes the thread to run after it (NULL if nothing is local) and
 * prefetches its stack; then, once the end is published, the exiting
 * thread's last switch, to that thread (with NULL: to whatever is local
 * then, else the scheduler). */
struct wuc_uthread *wuc_exit_successor(struct worker *w);
__attribute__((noreturn)) void wuc_switch_exit(struct worker *w, struct wuc_uthread *next);
/* Wakes an idle worker if there is one and nobody is already spinning. */
void wuc_wake_idle_worker(void);
/* The same, for callers running on a worker.  With one worker that is the
 * caller, so nobody can be idle: no fence (a locked instruction), and no
 * call (a yield's, every time).  nworkers changes once, at the first spawn. */
static inline void wuc_wake_other_worker(void) {
  if (atomic_load_explicit(&wuc_sched.nworkers, memory_order_relaxed) != 1) wuc_wake_idle_worker();
}
/* Wakes w if it is idle, so that it looks at its heap again: a timer was
 * started on it by another kernel thread (timer.c). */
void wuc_wake_worker_if_idle(struct worker *w);
/* Whether w has nothing queued (its `next` slot and run queue are empty). */
bool wuc_worker_has_no_work(struct worker *w);
/* Starts workers 1..n-1 (first spawn). */
void wuc_sched_start_workers(void);

/* The registry of live threads (struct worker, `threads`).  Adds t, made on
 * w (the caller's worker), to w's list, and gives it the next id unless it
 * has one (main's is 1). */
void wuc_registry_add(struct worker *w, struct wuc_uthread *t);
/* Whether the process has a kernel thread that is neither a worker nor, in a
 * sanitized build, the sanitizer's own: such a thread may still wake a user
 * thread, so the deadlock report waits for it (deadlock.c).  False if /proc
 * cannot be read. */
bool wuc_foreign_kernel_threads(void);
/* Takes t out (t has ended; it may run on any worker). */
void wuc_registry_remove(struct wuc_uthread *t);
/* How many threads are live, main included (a sum of the lists' counts,
 * each read without its lock). */
unsigned long wuc_registry_live(void);
/* Takes every list's lock, so that no thread leaves the registry (and so
 * none is freed: a joiner frees a thread only after its exit took it out)
 * until wuc_registry_unlock_all; spawns and exits wait meanwhile.  Returns
 * how many lists it locked, for the other two. */
unsigned wuc_registry_lock_all(void);
void wuc_registry_unlock_all(unsigned lists);
/* Calls fn on every live thread, oldest (smallest id) first, under
 * wuc_registry_lock_all. */
void wuc_registry_each(unsigned lists, void (*fn)(struct wuc_uthread *, void *), void *arg);
/* Prints every live thread with what it waits on, then exits with status 2. */
__attribute__((noreturn)) void wuc_deadlock_report(void);
/* How reports name t: "user thread N (FUNCTION, spawned at FILE:LINE by
 * thread M)", or "user thread 1 (main)"; a named thread has its name in
 * quotes after N. */
void wuc_describe_thread(struct wuc_uthread *t, char *buf, unsigned size);
/* How the deadlock report names what a waituntil clause waits on: its
 * resource kind and object ("channel receive on jobs", "fd 3 readable
 * (pipe)", "future on 0x55d0c3a1b2a0").  Not for a signal handler. */
struct wuc_wu_clause;
void wuc_describe_clause(const struct wuc_wu_clause *c, char *buf, unsigned size);
/* fatal.h's hook: where the caller runs, "in <thread>" or another place (a
 * timer callback, a worker's scheduler, start-up, a foreign kernel thread). */
void wuc_describe_where(char *buf, unsigned size);

/* Worker statistics, for tests and benchmarks. */
struct wuc_worker_stats {
  uint64_t threads_run;
  uint64_t threads_stolen;
  uint64_t preemptions;
};
void wuc_worker_stats(unsigned worker, struct wuc_worker_stats *out);

#endif
