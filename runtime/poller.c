/* poller.c — the epoll set, the fd entries and the dispatch of events (poller.h). */
#define _GNU_SOURCE
#include "poller.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "fatal.h"
#include "scheduler.h"
#include "waitq.h"

struct poll_shared wuc_poll = {.epfd = -1, .wake_fd = -1};

/* Entries in chunks of 1024, made on first use and never freed, so that a
 * lookup is two loads and an entry's address never changes. */
#define CHUNK_BITS 10
#define CHUNK_SIZE (1u << CHUNK_BITS)
#define MAX_CHUNKS 4096u
static struct fd_entry *_Atomic chunks[MAX_CHUNKS];

/* epoll data of the eventfd and of the signal pipe (fds are below 2^31). */
#define WAKE_TOKEN UINT64_MAX
#define SIGNAL_TOKEN (UINT64_MAX - 1)
#define EVENTS_PER_POLL 128

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

struct fd_entry *wuc_fd_entry(int fd) {
  unsigned c = (unsigned)fd >> CHUNK_BITS;
  if (fd < 0 || c >= MAX_CHUNKS)
    wuc_fatal("file descriptor %d: the runtime waits on fds from 0 to %u", fd,
              MAX_CHUNKS * CHUNK_SIZE - 1);
  struct fd_entry *chunk = atomic_load_explicit(&chunks[c], memory_order_acquire);
  if (!chunk) {
    struct fd_entry *fresh = calloc(CHUNK_SIZE, sizeof *fresh);
    if (!fresh) wuc_fatal("out of memory for the entry of file descriptor %d", fd);
    for (unsigned i = 0; i < CHUNK_SIZE; i++) fresh[i].fd = (int)(c * CHUNK_SIZE + i);
    struct fd_entry *expected = NULL;
    if (atomic_compare_exchange_strong(&chunks[c], &expected, fresh)) {
      chunk = fresh;
    } else {
      free(fresh);
      chunk = expected;
    }
  }
  return &chunk[(unsigned)fd & (CHUNK_SIZE - 1)];
}

static void ignore_sigpipe(void) {
  struct sigaction old;
  if (sigaction(SIGPIPE, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
      old.sa_handler == SIG_DFL)
    signal(SIGPIPE, SIG_IGN);
}

void wuc_poll_ignore_sigpipe(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, ignore_sigpipe);
}

/* The epoll set and its eventfd, on the first wait on an fd. */
static void poll_init(void) {
  pthread_mutex_lock(&init_lock);
  if (atomic_load(&wuc_poll.epfd) < 0) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    int wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (ep < 0 || wake < 0) wuc_fatal("cannot create the poller: %s", strerror(errno));
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = WAKE_TOKEN}; /* level-triggered */
    if (epoll_ctl(ep, EPOLL_CTL_ADD, wake, &ev) != 0)
      wuc_fatal("cannot create the poller: %s", strerror(errno));
    wuc_poll.wake_fd = wake;
    wuc_poll_ignore_sigpipe();
    atomic_store_explicit(&wuc_poll.epfd, ep, memory_order_release);
  }
  pthread_mutex_unlock(&init_lock);
}

bool wuc_poll_watch(struct fd_entry *e) {
  if (atomic_load_explicit(&e->registered, memory_order_acquire)) return true;
  if (!wuc_poll_in_use()) poll_init();
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
                           .data.u64 = (uint64_t)e->fd};
  if (epoll_ctl(atomic_load_explicit(&wuc_poll.epfd, memory_order_relaxed), EPOLL_CTL_ADD, e->fd,
                &ev) == 0 ||
      errno == EEXIST) {
    atomic_store_explicit(&e->registered, true, memory_order_release);
    return true;
  }
  if (errno == ENOMEM || errno == ENOSPC)
    wuc_fatal("cannot watch file descriptor %d: %s", e->fd, strerror(errno));
  return false; /* EPERM: a regular file or a directory; EBADF: not open */
}

void wuc_fd_forget(struct fd_entry *e) {
  atomic_store_explicit(&e->registered, false, memory_order_relaxed);
  atomic_store_explicit(&e->stream, false, memory_order_relaxed);
  atomic_store_explicit(&e->hangup, false, memory_order_relaxed);
  atomic_store_explicit(&e->drained, 0, memory_order_relaxed);
  atomic_store_explicit(&e->kind, FD_KIND_UNKNOWN, memory_order_relaxed);
  atomic_store_explicit(&e->nonblocking, false, memory_order_relaxed);
}

/* ---- the audit: waits on files replaced behind the runtime's back ---------- */

#define AUDIT_PERIOD_NS 1000000000
static _Atomic int64_t next_audit;
static pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;

static bool has_waiters(struct fd_entry *e) {
  bool any = false;
  for (int dir = 0; dir < 2 && !any; dir++) {
    waitq_lock(&e->waiters[dir]);
    any = !waitq_is_empty(&e->waiters[dir]);
    waitq_unlock(&e->waiters[dir]);
  }
  return any;
}

int wuc_poll_audit(void) {
  int ep = atomic_load_explicit(&wuc_poll.epfd, memory_order_acquire);
  if (ep < 0 || pthread_mutex_trylock(&audit_lock) != 0) return 0;
  int fresh = 0;
  for (unsigned c = 0; c < MAX_CHUNKS; c++) {
    struct fd_entry *chunk = atomic_load_explicit(&chunks[c], memory_order_acquire);
    if (!chunk) continue;
    for (unsigned i = 0; i < CHUNK_SIZE; i++) {
      struct fd_entry *e = &chunk[i];
      if (!atomic_load_explicit(&e->registered, memory_order_relaxed)) continue;
      uint32_t parks = atomic_load_explicit(&e->parks, memory_order_relaxed);
      /* Only a wait that was already under way at the last look and not
       * checked yet: a busy fd starts new waits all the time and costs
       * nothing here; an idle one costs one epoll_ctl per long wait. */
      bool old_wait = parks == e->audit_mark && parks != e->audited;
      e->audit_mark = parks;
      if (!old_wait || !has_waiters(e)) continue;
      e->audited = parks;
      struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
                               .data.u64 = (uint64_t)e->fd};
      if (epoll_ctl(ep, EPOLL_CTL_ADD, e->fd, &ev) == 0) fresh++;
    }
  }
  pthread_mutex_unlock(&audit_lock);
  return fresh;
}

/* Runs the audit if it is due; the time the next one is due. */
static int64_t audit_if_due(int64_t now) {
  int64_t due = atomic_load_explicit(&next_audit, memory_order_relaxed);
  if (now < due) return due;
  if (!atomic_compare_exchange_strong(&next_audit, &due, now + AUDIT_PERIOD_NS)) return due;
  if (due != 0) wuc_poll_audit(); /* the first call only sets the clock */
  return now + AUDIT_PERIOD_NS;
}

void wuc_poll_watch_signals(int fd) {
  if (!wuc_poll_in_use()) poll_init();
  struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u64 = SIGNAL_TOKEN};
  if (epoll_ctl(atomic_load(&wuc_poll.epfd), EPOLL_CTL_ADD, fd, &ev) != 0)
    wuc_fatal("cannot watch the signal pipe: %s", strerror(errno));
}

/* An event for e's direction `dir`: bumps its sequence and wakes every
 * waiter.  Also what wuc_close does to both directions. */
int wuc_fd_ready(struct fd_entry *e, int dir) {
  wuc_waitq *q = &e->waiters[dir];
  waitq_lock(q);
  /* Read under the lock; release: a reader that sees the new value sees
   * the hang-up flag dispatch() set before it. */
  atomic_fetch_add_explicit(&e->seq[dir], 1, memory_order_release);
  long queued = 0;
  for (struct wuc_waiter *w = q->head; w; w = w->next) queued++;
  struct wuc_waiter *granted = wuc_waitq_grant_all(q);
  waitq_unlock(q);
  int woken = 0;
  for (struct wuc_waiter *w = granted; w; w = w->next) woken++;
  wuc_waitq_wake_chain(granted);
  /* Uncounted only once queued: a worker going idle meanwhile, with every
   * other worker idle (this one may poll from its idle sleep), would
   * otherwise see neither a waiter nor its thread, and report a deadlock
   * (scheduler.c, all_blocked reads `waiting` before the queues). */
  if (queued) atomic_fetch_sub_explicit(&wuc_poll.waiting, queued, memory_order_seq_cst);
  return woken;
}

static int dispatch(const struct epoll_event *events, int n) {
  int woken = 0;
  for (int i = 0; i < n; i++) {
    uint32_t what = events[i].events;
    if (events[i].data.u64 == WAKE_TOKEN) {
      uint64_t count;
      (void)!read(wuc_poll.wake_fd, &count, sizeof count);
      continue;
    }
    if (events[i].data.u64 == SIGNAL_TOKEN) {
      wuc_signal_dispatch();
      woken++;
      continue;
    }
    struct fd_entry *e = wuc_fd_entry((int)events[i].data.u64);
    if (what & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
      atomic_store_explicit(&e->hangup, true, memory_order_relaxed); /* before the bump */
    if (what & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) woken += wuc_fd_ready(e, FD_READ);
    if (what & (EPOLLOUT | EPOLLHUP | EPOLLERR)) woken += wuc_fd_ready(e, FD_WRITE);
  }
  return woken;
}

/* epoll_pwait2 takes a relative timeout in nanoseconds; kernels before 5.11
 * lack it, and then epoll_wait's milliseconds are rounded up. */
static int wait_events(int ep, struct epoll_event *events, int64_t deadline) {
  if (deadline == INT64_MAX) return epoll_wait(ep, events, EVENTS_PER_POLL, -1);
  int64_t left = deadline - wuc_now();
  if (left < 0) left = 0;
  static _Atomic bool no_pwait2;
  if (!atomic_load_explicit(&no_pwait2, memory_order_relaxed)) {
    struct timespec ts = {.tv_sec = left / 1000000000, .tv_nsec = left % 1000000000};
    int n = epoll_pwait2(ep, events, EVENTS_PER_POLL, &ts, NULL);
    if (n >= 0 || errno != ENOSYS) return n;
    atomic_store_explicit(&no_pwait2, true, memory_order_relaxed);
  }
  int64_t ms = (left + 999999) / 1000000;
  return epoll_wait(ep, events, EVENTS_PER_POLL, ms > INT32_MAX ? INT32_MAX : (int)ms);
}

int wuc_poll_run(bool block, int64_t deadline) {
  int ep = atomic_load_explicit(&wuc_poll.epfd, memory_order_acquire);
  if (ep < 0) return 0;
  if (atomic_load_explicit(&wuc_poll.waiting, memory_order_relaxed) > 0) {
    int64_t audit = audit_if_due(wuc_now());
    if (audit < deadline) deadline = audit; /* an idle program still audits */
  }
  struct epoll_event events[EVENTS_PER_POLL];
  int n = block ? wait_events(ep, events, deadline) : epoll_wait(ep, events, EVENTS_PER_POLL, 0);
  atomic_store_explicit(&wuc_poll.last_poll, wuc_now(), memory_order_relaxed);
  atomic_fetch_add_explicit(&wuc_poll.polls, 1, memory_order_relaxed);
  if (n <= 0) return 0;
  /* Wake-ups from here go to the back of the worker's queue, as a timer's
   * (or to the global queue on the monitor). */
  struct worker *me = wuc_current_worker();
  bool was = me && me->in_timer_callbacks;
  if (me) {
    me->in_timer_callbacks = true;
    /* A worker polls from its scheduler context, about to look for work:
     * if it has none, it runs the first thread woken here itself and wakes
     * another worker only for the second and later ones (Go's findRunnable
     * does the same).  Waking one for the first made it spin for nothing. */
    me->keep_one_wake = wuc_worker_has_no_work(me);
  }
  int woken = dispatch(events, n);
  if (me) {
    me->in_timer_callbacks = was;
    me->keep_one_wake = false;
  }
  return woken;
}

void wuc_poll_wake(void) {
  uint64_t one = 1;
  (void)!write(wuc_poll.wake_fd, &one, sizeof one);
}

bool wuc_poll_park(struct fd_entry *e, int dir, uint32_t seen, const char *what) {
  if (!wuc_poll_watch(e)) return false;
  struct wuc_uthread *self = wuc_current_thread_or_die(what);
  wuc_waitq *q = &e->waiters[dir];
  waitq_lock(q);
  if (atomic_load_explicit(&e->seq[dir], memory_order_relaxed) != seen) {
    waitq_unlock(q); /* an event came since the attempt: try again */
    return true;
  }
  wuc_poll_waiting(1); /* the granter (wuc_fd_ready) takes it back */
  atomic_fetch_add_explicit(&e->parks, 1, memory_order_relaxed);
  wuc_waitq_block(q, self, what, e, NULL, 0);
  return true;
}
