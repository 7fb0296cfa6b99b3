/* runtime_probe.h — read-only looks into the runtime's internals for tests.
 *
 * The scheduler's headers use C11 _Atomic, which C++ does not accept, so these
 * small C wrappers are what C++ tests call. */
#ifndef WUC_TEST_RUNTIME_PROBE_H
#define WUC_TEST_RUNTIME_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct wuc_uthread;

/* The id of the worker running the caller (0 .. workers-1). */
unsigned probe_worker_id(void);
/* Whether t is blocked in wuc_park (its park committed). */
int probe_is_parked(const struct wuc_uthread *t);
/* Sleeps on the calling user thread until probe_is_parked(t) (for tests that
 * queue waiters in a known order).  Only meaningful while t blocks in
 * nothing else. */
void probe_await_parked(const struct wuc_uthread *t);
/* Does what the monitor does when the caller has run a slice: asks it to
 * yield at its next preemption point (scheduler.h, yield_request). */
void probe_ask_to_yield(void);
/* Threads run on / stolen by the given worker so far (wuc_worker_stats). */
uint64_t probe_threads_run(unsigned worker);
uint64_t probe_threads_stolen(unsigned worker);
/* Timers started and neither fired nor cancelled, over all workers. */
int64_t probe_pending_timers(void);
/* Pending timers that some clause or sleeper needs: cancels every thread's
 * statement timer that no clause uses (timer_heap.h), then counts, as the
 * deadlock report does. */
int64_t probe_needed_timers(void);
/* Timers started so far, over all workers. */
uint64_t probe_timers_started(void);
/* Leaves the overdue timers of a worker with an alarm (runtime/alarm.h) to
 * the alarm alone: the monitor no longer backs it up. */
void probe_leave_timers_to_alarms(void);
/* Whether the worker has an alarm (preemption on, and the kernel gave it
 * its timer). */
int probe_worker_has_alarm(unsigned worker);
/* Whether the given worker is idle (in the idle list, perhaps asleep). */
int probe_worker_idle(unsigned worker);
/* Entries (live or cancelled) in the heap of the caller's worker.  Only the
 * owner touches its heap, so this must run on a user thread. */
size_t probe_timer_heap_len(void);
/* Adds n made-up threads to the registry, the i-th on worker on[i]'s list
 * (on[i] < the number of workers), walks it as the reports do, and takes
 * them out again.  Returns NULL if the walk gave every live thread once,
 * smallest id first, and the live count matched; else what went wrong.
 * n <= 64. */
const char *probe_registry_walk(const unsigned *on, int n);

/* Whether t's handle lies in its stack's slot (runtime/stack.h, "The
 * slot"), not in malloc'd memory. */
int probe_handle_in_slot(const struct wuc_uthread *t);
/* The lowest address of t's stack: the same for two threads that ran on
 * one stack. */
const void *probe_stack_of(const struct wuc_uthread *t);
/* Whether t's function has returned (its handle reads EXITED). */
int probe_has_exited(const struct wuc_uthread *t);
/* Does what the monitor does to pooled stacks beyond the pool's bound once
 * they have aged (stack.c, wuc_stacks_trim), at once and to all of them.
 * Returns the number of trim calls it made. */
int probe_trim_stacks(void);

/* The poller's entry of fd (poller.h): what the runtime has learnt it is
 * (enum fd_kind: 0 unknown, 1 socket, 2 pollable, 3 file). */
int probe_fd_kind(int fd);
/* Sets fd's park-first mark as a short read of a stream socket does (io.c):
 * known empty until the next read event. */
void probe_fd_mark_drained(int fd);
/* Whether fd's park-first mark is set. */
int probe_fd_drained(int fd);
/* A `readable(fd)` clause's try, as the try pass of an all-or statement
 * makes it (try_only; waits_after_try: no `else`, a registration pass
 * follows).  Returns whether the clause completed. */
int probe_fd_try_readable(int fd, int waits_after_try);

/* Runs a private global run queue (runq.h) through `rounds` rounds of
 * pushes and takes whose sizes vary, so that its ring wraps around and
 * grows while wrapped; a take's batch is drained from a private worker's
 * local queue.  Returns how many threads came out, or -1 - i if the i-th
 * one out was not the i-th one in (or, i = all in, if some never came out). */
long probe_global_runq_fifo(int rounds);

#ifdef __cplusplus
}
#endif
#endif
