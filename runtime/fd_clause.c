/* fd_clause.c — `readable(fd)` and `writable(fd)` clauses (<wuc/fd.h>). */
#define _GNU_SOURCE
#include <poll.h>

#include <wuc/fd.h>

#include "fatal.h"
#include "poller.h"
#include "waitq.h"

static int direction(const wuc_fd_clause *c) {
  return c->events == WUC_FD_WRITABLE ? FD_WRITE : FD_READ;
}

/* Whether a read (write) on fd would not block now, as poll(2) says: data,
 * end of file, a hang-up, an error, or no open fd at all (POLLNVAL).  Data
 * seen here may not have reached the poller yet: the next read must try
 * rather than park first after an earlier short read (io.c). */
static bool ready_now(int fd, int dir) {
  struct pollfd p = {.fd = fd, .events = dir == FD_READ ? POLLIN | POLLRDHUP : POLLOUT};
  bool ready = poll(&p, 1, 0) != 0; /* -1 (EINTR, ENOMEM): let the body's call find out */
  if (ready && dir == FD_READ)
    atomic_store_explicit(&wuc_fd_entry(fd)->drained, 0, memory_order_relaxed);
  return ready;
}

/* Whether e's read direction is known empty without asking the kernel: a
 * short read emptied it and no edge has come since (io.c's park-first rule).
 * Only for a queued node, or a try that its statement's registration pass
 * follows (no `else`: waits_after_try): a byte that came since has an edge
 * still to come, which finds the queued node.  (A try for `else` asks
 * poll(2): that byte counts, and nothing may be queued for its edge.) */
static bool drained(struct fd_entry *e, int dir) {
  if (dir != FD_READ) return false;
  uint64_t mark = atomic_load_explicit(&e->drained, memory_order_relaxed);
  return mark != 0 &&
         atomic_load_explicit(&e->seq[FD_READ], memory_order_acquire) == (uint32_t)mark;
}

bool wuc_fd_register(wuc_fd_clause *c, wuc_select_node *n) {
  int dir = direction(c);
  if (c->fd < 0)
    wuc_fatal("%s(%d)%s%s: not a file descriptor", dir == FD_READ ? "readable" : "writable", c->fd,
              n->site ? " at " : "", n->site ? n->site : "");
  if (n->try_only) {
    /* Known empty and the registration pass follows: its look would say
     * the same without a system call, so this one need not ask either. */
    if (n->stmt->waits_after_try && drained(wuc_fd_entry(c->fd), dir)) return false;
    return ready_now(c->fd, dir) && waitq_complete_now(n);
  }
  /* Queued first, then the look: an event after the queueing finds the
   * node, one before it leaves the fd ready for the look (poller.h). */
  struct fd_entry *e = wuc_fd_entry(c->fd);
  bool watched = wuc_poll_watch(e);
  if (watched) {
    waitq_lock(&e->waiters[dir]);
    wuc_waitq_push(&e->waiters[dir], wuc_waitq_node_init(n));
    waitq_unlock(&e->waiters[dir]);
    wuc_poll_waiting(1);
    atomic_fetch_add_explicit(&e->parks, 1, memory_order_relaxed);
  }
  if (watched && (drained(e, dir) || !ready_now(c->fd, dir))) return false;
  if (watched && wuc_waitq_cancel(&e->waiters[dir], waitq_node_waiter(n))) wuc_poll_waiting(-1);
  return waitq_complete_now(n); /* false if the poller claimed it meanwhile */
}

bool wuc_fd_unregister(wuc_fd_clause *c, wuc_select_node *n) {
  if (c->fd >= 0) {
    struct fd_entry *e = wuc_fd_entry(c->fd);
    if (wuc_waitq_cancel(&e->waiters[direction(c)], waitq_node_waiter(n))) wuc_poll_waiting(-1);
  }
  return wuc_select_withdraw(n);
}
