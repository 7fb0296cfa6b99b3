/* poller.h — the poller: file descriptors as things user threads wait for.
 *
 * One epoll instance for the process (created on the first wait on an fd),
 * an eventfd in it to wake a worker blocked in epoll_wait, and an entry per
 * fd number (made on first use, never freed: entries are reused when the
 * number is) with, per direction (read, write):
 *   - a waiter queue (waitq.h): readable/writable clauses and threads
 *     blocked in a <wuc/io.h> call;
 *   - a readiness sequence, bumped by every event for that direction.
 *
 * Registration is edge-triggered (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
 * as Go's netpoll) and made once per life of an entry: on the first wait, and
 * again only after wuc_close (the kernel drops a registration silently when
 * the file is closed, and the number may come back as another file) or when
 * wuc_accept / wuc_connect hand the number out as a new socket.  A file
 * closed with close(2) behind the runtime's back leaves its entry marked
 * registered; the monitor's audit (wuc_poll_audit) re-registers the fd of
 * any wait that has lasted a second, so such a wait ends late, not never.
 * An event grants every waiter of its direction; a waiter that finds the fd
 * not ready after all waits again.
 *
 * No waiter is lost between a look and a park: a thread reads the sequence
 * before its non-blocking attempt and parks only if, under the queue's lock,
 * it has not moved; a clause queues its node first and then asks poll(2)
 * whether the fd is ready now (an event after the queueing finds the node).
 *
 * Who polls (poll_dispatch runs the waiters' wake-ups):
 *   - an idle worker, instead of sleeping on its futex, blocks in epoll_wait
 *     with its next timer deadline as the timeout — one worker at a time
 *     (wuc_poll.polling); its wakers write the eventfd;
 *   - a busy worker, without blocking, every 61st look for work when
 *     nobody blocks in epoll_wait and the last poll is 50 µs old;
 *   - a worker out of local work, without blocking, before it spins or
 *     steals, when nobody blocks in epoll_wait (Go's findRunnable); a
 *     worker polling from its scheduler with nothing queued runs the first
 *     thread the poll wakes itself and wakes other workers only for the
 *     rest (worker.keep_one_wake);
 *   - the monitor (sysmon.h), every 200 µs while threads wait on fds and no
 *     worker blocks in epoll_wait. */
#ifndef WUC_RUNTIME_POLLER_H
#define WUC_RUNTIME_POLLER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <wuc/fd.h>
#include <wuc/lock.h>

enum { FD_READ = 0, FD_WRITE = 1 };

/* What an fd is, learnt on first use (reset by wuc_close); a read that
 * preadv2 answers in full learns nothing (io.c, read_unknown). */
enum fd_kind { FD_KIND_UNKNOWN = 0, FD_KIND_SOCKET, FD_KIND_POLLABLE, FD_KIND_FILE };

struct fd_entry {
  wuc_waitq waiters[2];     /* by direction */
  _Atomic uint32_t seq[2];  /* readiness events seen, by direction */
  _Atomic uint32_t closing; /* bumped by wuc_close: wakes every waiter */
  _Atomic int kind;         /* enum fd_kind */
  _Atomic bool nonblocking; /* O_NONBLOCK set by the runtime */
  _Atomic bool registered;  /* the file at fd is in the epoll set (see above) */
  _Atomic bool stream;      /* a SOCK_STREAM socket: a short read drains it */
  /* An event reported a hang-up or an error: a short read may have stopped
   * at the end of the data with the end of file (or the error) still to be
   * read, and no edge will come for it, so io.c's park-first rule is off. */
  _Atomic bool hangup;
  /* 2^32 | seq[FD_READ] as read before the last short read of a stream
   * socket (0: none since the last full read): io.c's park-first rule. */
  _Atomic uint64_t drained;
  _Atomic uint32_t parks; /* waits started on the entry, for the audit */
  uint32_t audit_mark;    /* the audit's own: parks at its last look */
  uint32_t audited;       /* the audit's own: parks when it last registered */
  int fd;
};

struct poll_shared {
  _Atomic int epfd;     /* -1 until the first wait on an fd */
  int wake_fd;          /* the eventfd in the epoll set */
  _Atomic bool polling; /* a worker blocks in epoll_wait */
  _Atomic int64_t last_poll;
  _Atomic long waiting;   /* threads and clauses queued on fds */
  _Atomic uint64_t polls; /* epoll_wait calls, for wuc_stats */
} __attribute__((aligned(64)));
extern struct poll_shared wuc_poll;

/* fd's entry (made on first use); fd must be >= 0. */
struct fd_entry *wuc_fd_entry(int fd);
/* Registers e's fd with epoll unless the entry is registered already (no
 * system call then).  False if epoll cannot watch it (a regular file, a
 * directory: EPERM; not open: EBADF). */
bool wuc_poll_watch(struct fd_entry *e);
/* The entry's fd is (about to be) another file: registered afresh on its
 * next wait, its kind learnt again (wuc_close, wuc_accept, wuc_connect). */
void wuc_fd_forget(struct fd_entry *e);
/* The monitor's audit, about once a second while threads wait on fds: the
 * fd of every wait that was already under way at the previous audit is
 * registered again (EEXIST is the rule; a success means the file was
 * replaced behind the runtime's back, and the edge-triggered registration
 * reports it ready if it is).  Returns how many fds it registered anew. */
int wuc_poll_audit(void);

/* An event (or wuc_close) for e's direction dir: bumps its sequence and
 * wakes every waiter of that direction; returns how many it woke. */
int wuc_fd_ready(struct fd_entry *e, int dir);

/* A thread's wait in a <wuc/io.h> call: parks until an event for dir comes
 * after the one numbered `seen` (read before the attempt that found the fd
 * not ready), or until wuc_close.  Returns false if fd cannot be watched
 * (the caller then does not wait). */
bool wuc_poll_park(struct fd_entry *e, int dir, uint32_t seen, const char *what);

/* A program that waits on fds also writes to them: a write to a pipe or
 * socket whose reader has gone fails with EPIPE instead of killing it (as in
 * Go), unless it chose an action for SIGPIPE itself.  Once, on first use. */
void wuc_poll_ignore_sigpipe(void);

/* Puts signal_notify.c's pipe in the epoll set: when readable, polling
 * runs wuc_signal_dispatch. */
void wuc_poll_watch_signals(int fd);
void wuc_signal_dispatch(void);

/* Whether anybody has waited on an fd yet (then there is an epoll set). */
static inline bool wuc_poll_in_use(void) {
  return atomic_load_explicit(&wuc_poll.epfd, memory_order_acquire) >= 0;
}

/* Collects ready fds and wakes their waiters.  block: wait until `deadline`
 * (wuc_now() time, INT64_MAX for none) or a wake-up through the eventfd.
 * Returns how many waiters it woke. */
int wuc_poll_run(bool block, int64_t deadline);
/* Wakes a worker blocked in epoll_wait. */
void wuc_poll_wake(void);

/* A parked wait on a queue of e: counted so that the deadlock report knows
 * the outside world can still wake somebody. */
static inline void wuc_poll_waiting(long delta) {
  atomic_fetch_add_explicit(&wuc_poll.waiting, delta, memory_order_relaxed);
}

#endif
