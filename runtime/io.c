/* io.c — <wuc/io.h>: POSIX calls that park only the calling user thread.
 *
 * Every call is the same loop: read the fd's readiness sequence for its
 * direction, try the call without blocking, and if it would block, park
 * until an event after that sequence (poller.h); wuc_close bumps `closing`
 * and wakes everyone, who then fail with ECANCELED.  An fd epoll cannot
 * watch (a regular file) never reports EAGAIN, its calls just take long: a
 * read is served from the page cache when it can be (read_file), the rest
 * goes to the helper threads (blocking.h). */
#define _GNU_SOURCE
#include <wuc/io.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <wuc/timeout.h>
#include <wuc/waituntil.h>

#include "fatal.h"
#include "park.h"
#include "poller.h"
#include "scheduler.h"

/* What fd is, learnt once (until wuc_close): a socket (send and recv take
 * MSG_NOSIGNAL / MSG_DONTWAIT), something epoll watches (pipes, ttys,
 * eventfds...: made O_NONBLOCK), or a file (the helper threads). */
static enum fd_kind kind_of(struct fd_entry *e) {
  int kind = atomic_load_explicit(&e->kind, memory_order_relaxed);
  if (kind != FD_KIND_UNKNOWN) return (enum fd_kind)kind;
  struct stat st;
  if (fstat(e->fd, &st) != 0) return FD_KIND_UNKNOWN; /* EBADF: the call reports it */
  if (S_ISSOCK(st.st_mode)) {
    kind = FD_KIND_SOCKET;
    int type = 0;
    socklen_t size = sizeof type;
    if (getsockopt(e->fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0 && type == SOCK_STREAM)
      atomic_store_explicit(&e->stream, true, memory_order_relaxed);
  } else if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode))
    kind = FD_KIND_FILE;
  else
    kind = FD_KIND_POLLABLE;
  wuc_poll_ignore_sigpipe();
  if (kind != FD_KIND_FILE && !atomic_load_explicit(&e->nonblocking, memory_order_relaxed)) {
    int flags = fcntl(e->fd, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK)) fcntl(e->fd, F_SETFL, flags | O_NONBLOCK);
    atomic_store_explicit(&e->nonblocking, true, memory_order_relaxed);
  }
  atomic_store_explicit(&e->kind, kind, memory_order_relaxed);
  return (enum fd_kind)kind;
}

/* A failure after a park (park.h, wuc_set_errno_after_park). */
static ssize_t fail_with(int error) {
  wuc_set_errno_after_park(error);
  return -1;
}

/* One attempt of a call, without blocking. */
typedef ssize_t attempt_fn(int fd, void *call);

/* Runs a call that takes its time on a helper thread (a regular file). */
struct offload {
  attempt_fn *attempt;
  int fd;
  void *call;
  ssize_t result;
};

static void *run_offloaded(void *arg) {
  struct offload *o = arg;
  o->result = o->attempt(o->fd, o->call);
  return NULL;
}

static ssize_t try_read(int fd, void *call);
static ssize_t read_file(int fd, void *call);
static ssize_t read_file_rest(int fd, void *call, size_t done);

/* read_unknown's answer when the fd turned out to be one that the loop below
 * must wait on: what it tried read nothing. */
#define READ_UNKNOWN_GO_ON (-2)

static ssize_t read_unknown(struct fd_entry *e, void *call);

/* After a short read of a stream socket (`seen`: its read sequence before
 * the read): it is drained, the park-first mark, unless the peer hung up:
 * then the end of file may wait behind the data with no edge to come. */
static void mark_drained(struct fd_entry *e, uint32_t seen) {
  if (!atomic_load_explicit(&e->hangup, memory_order_relaxed))
    atomic_store_explicit(&e->drained, UINT64_C(1) << 32 | seen, memory_order_relaxed);
}

/* The loop every call shares (above).  what names the call for reports.
 * want: how many bytes a read asks for (0 for the other calls).
 *
 * Park first after a short read.  A read of a stream socket that returns
 * less than it asked for (and not 0: the end) emptied the socket's receive
 * queue, just as a read failing with EAGAIN finds it empty; every byte that
 * arrives after it makes an epoll edge.  So the next read call on the fd
 * parks without trying, as after EAGAIN, if the read sequence has not moved
 * since the one read before that short read (nginx's "ready" flag does the
 * same): an edge that came since moves it and the call reads at once.  Saves
 * the read that would fail with EAGAIN in request/response protocols
 * (httpd: 1 of ~3.4 system calls per request).  One exception in the kernel:
 * TCP stops a read at an urgent-data mark (MSG_OOB), leaving data queued; a
 * program that uses urgent data should read it with wuc_recv(..., MSG_OOB)
 * first, as it must to see it at all.  (A MSG_PEEK or MSG_OOB receive takes
 * no part: a peek leaves the bytes queued.) */
static ssize_t io_loop_want(int fd, int dir, const char *what, attempt_fn *attempt, void *call,
                            size_t want) {
  wuc_current_thread_or_die(what);
  wuc_blocking_op_start(what); /* a preemption point (scheduler.h) */
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  struct fd_entry *e = wuc_fd_entry(fd);
  if (attempt == try_read &&
      atomic_load_explicit(&e->kind, memory_order_relaxed) == FD_KIND_UNKNOWN) {
    ssize_t r = read_unknown(e, call);
    if (r != READ_UNKNOWN_GO_ON) return r;
  }
  if (kind_of(e) == FD_KIND_FILE) {
    if (attempt == try_read) return read_file(fd, call);
    struct offload o = {attempt, fd, call, -1};
    wuc_blocking(run_offloaded, &o);
    return o.result;
  }
  uint32_t closing = atomic_load_explicit(&e->closing, memory_order_acquire);
  bool stream = want > 0 && atomic_load_explicit(&e->stream, memory_order_relaxed);
  if (stream) {
    uint64_t drained = atomic_load_explicit(&e->drained, memory_order_relaxed);
    if (drained != 0) {
      atomic_store_explicit(&e->drained, 0, memory_order_relaxed);
      bool parked = wuc_poll_park(e, dir, (uint32_t)drained, what);
      if (atomic_load_explicit(&e->closing, memory_order_acquire) != closing)
        return fail_with(ECANCELED);
      (void)parked; /* not watchable after all: the attempt below says what it is */
    }
  }
  for (;;) {
    uint32_t seen = atomic_load_explicit(&e->seq[dir], memory_order_acquire);
    ssize_t r = attempt(fd, call);
    if (r >= 0) {
      if (stream && r > 0 && (size_t)r < want) mark_drained(e, seen);
      return r;
    }
    int error = errno;
    if (error == EINTR) continue;
    if (error != EAGAIN && error != EWOULDBLOCK) return fail_with(error);
    bool parked = wuc_poll_park(e, dir, seen, what);
    if (atomic_load_explicit(&e->closing, memory_order_acquire) != closing)
      return fail_with(ECANCELED);
    if (!parked) return fail_with(error); /* not watchable: EAGAIN it is */
  }
}

static ssize_t io_loop(int fd, int dir, const char *what, attempt_fn *attempt, void *call) {
  return io_loop_want(fd, dir, what, attempt, call, 0);
}

/* ---- the calls --------------------------------------------------------------- */

struct buffer_call {
  void *buf;
  size_t n;
  int flags;
  struct sockaddr *addr;
  socklen_t *addrlen;
  const struct iovec *iov;
  int iovcnt;
};

static ssize_t try_read(int fd, void *call) {
  struct buffer_call *c = call;
  return read(fd, c->buf, c->n);
}

/* A read of a regular file: served inline from the page cache when it can be
 * (preadv2 with RWF_NOWAIT fails with EAGAIN, or reads less, when it would
 * have to wait for the disk), and what it could not read on a helper thread,
 * so that the call still reads all it would have read (a short read of a
 * file means its end, to many programs).  Offset -1: the file position, as
 * read(2). */
static ssize_t read_file(int fd, void *call) {
  struct buffer_call *c = call;
  struct iovec v = {c->buf, c->n};
  ssize_t r = c->n ? preadv2(fd, &v, 1, -1, RWF_NOWAIT) : 0;
  if (r == (ssize_t)c->n || r == 0) return r;             /* all of it, or the end of the file */
  return read_file_rest(fd, call, r > 0 ? (size_t)r : 0); /* EAGAIN, EOPNOTSUPP...: all */
}

/* The rest of a file's read, after the first `done` bytes, on a helper
 * thread; the total, or -1 if nothing was read. */
static ssize_t read_file_rest(int fd, void *call, size_t done) {
  struct buffer_call *c = call;
  struct buffer_call rest = {.buf = (char *)c->buf + done, .n = c->n - done};
  struct offload o = {try_read, fd, &rest, -1};
  wuc_blocking(run_offloaded, &o);
  if (o.result < 0) return done ? (ssize_t)done : -1;
  return (ssize_t)done + o.result;
}

/* The first read of an fd whose kind is not known yet (its first use, or the
 * first since wuc_close): preadv2 with RWF_NOWAIT at the file position reads
 * without blocking whatever the fd is, where the kernel can honour the flag
 * (regular files on the common file systems, sockets, pipes; others refuse it
 * with EOPNOTSUPP).  All that was asked, or the end of the file (0), is the
 * answer read(2) would have given, whatever the fd is, and the kind is not
 * needed: a file opened, read once and closed, as a file server does per
 * request, costs no fstat.  Anything else (less, EAGAIN, EOPNOTSUPP, an
 * error) and the kind is learnt (kind_of): a file's read goes on as
 * read_file's does; on a socket or pipe, bytes read are the answer (a short
 * read of a stream socket sets the park-first mark, as in the loop below),
 * and nothing read sends the call on to the loop. */
static ssize_t read_unknown(struct fd_entry *e, void *call) {
  struct buffer_call *c = call;
  if (c->n == 0) return READ_UNKNOWN_GO_ON;
  uint32_t seen = atomic_load_explicit(&e->seq[FD_READ], memory_order_acquire);
  struct iovec v = {c->buf, c->n};
  ssize_t r = preadv2(e->fd, &v, 1, -1, RWF_NOWAIT);
  if (r == (ssize_t)c->n || r == 0) return r;
  enum fd_kind kind = kind_of(e);
  if (kind == FD_KIND_FILE) return read_file_rest(e->fd, call, r > 0 ? (size_t)r : 0);
  if (r > 0) {
    if (kind == FD_KIND_SOCKET && atomic_load_explicit(&e->stream, memory_order_relaxed))
      mark_drained(e, seen);
    return r;
  }
  /* EAGAIN, EOPNOTSUPP, EBADF...: the loop's own attempt says */
  return READ_UNKNOWN_GO_ON;
}

/* A write to a socket never raises SIGPIPE (MSG_NOSIGNAL). */
static ssize_t try_write(int fd, void *call) {
  struct buffer_call *c = call;
  if (atomic_load_explicit(&wuc_fd_entry(fd)->kind, memory_order_relaxed) == FD_KIND_SOCKET)
    return send(fd, c->buf, c->n, MSG_NOSIGNAL);
  return write(fd, c->buf, c->n);
}

static ssize_t try_readv(int fd, void *call) {
  struct buffer_call *c = call;
  return readv(fd, c->iov, c->iovcnt);
}

static ssize_t try_writev(int fd, void *call) {
  struct buffer_call *c = call;
  if (atomic_load_explicit(&wuc_fd_entry(fd)->kind, memory_order_relaxed) == FD_KIND_SOCKET) {
    struct msghdr m = {.msg_iov = (struct iovec *)c->iov, .msg_iovlen = (size_t)c->iovcnt};
    return sendmsg(fd, &m, MSG_NOSIGNAL);
  }
  return writev(fd, c->iov, c->iovcnt);
}

static ssize_t try_recvfrom(int fd, void *call) {
  struct buffer_call *c = call;
  return recvfrom(fd, c->buf, c->n, c->flags | MSG_DONTWAIT, c->addr, c->addrlen);
}

static ssize_t try_sendto(int fd, void *call) {
  struct buffer_call *c = call;
  return sendto(fd, c->buf, c->n, c->flags | MSG_DONTWAIT | MSG_NOSIGNAL, c->addr,
                c->addrlen ? *c->addrlen : 0);
}

static ssize_t try_accept(int fd, void *call) {
  struct buffer_call *c = call;
  return accept4(fd, c->addr, c->addrlen, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

ssize_t wuc_read(int fd, void *buf, size_t n) {
  struct buffer_call c = {.buf = buf, .n = n};
  return io_loop_want(fd, FD_READ, "wuc_read", try_read, &c, n);
}

ssize_t wuc_write(int fd, const void *buf, size_t n) {
  struct buffer_call c = {.buf = (void *)buf, .n = n};
  return io_loop(fd, FD_WRITE, "wuc_write", try_write, &c);
}

ssize_t wuc_write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  size_t left = n;
  while (left > 0) {
    struct buffer_call c = {.buf = (void *)p, .n = left};
    ssize_t r = io_loop(fd, FD_WRITE, "wuc_write_all", try_write, &c);
    if (r < 0) return -1;
    p += r;
    left -= (size_t)r;
  }
  return (ssize_t)n;
}

ssize_t wuc_readv(int fd, const struct iovec *iov, int iovcnt) {
  struct buffer_call c = {.iov = iov, .iovcnt = iovcnt};
  return io_loop(fd, FD_READ, "wuc_readv", try_readv, &c);
}

ssize_t wuc_writev(int fd, const struct iovec *iov, int iovcnt) {
  struct buffer_call c = {.iov = iov, .iovcnt = iovcnt};
  return io_loop(fd, FD_WRITE, "wuc_writev", try_writev, &c);
}

ssize_t wuc_recv(int fd, void *buf, size_t n, int flags) {
  struct buffer_call c = {.buf = buf, .n = n, .flags = flags};
  return io_loop_want(fd, FD_READ, "wuc_recv", try_recvfrom, &c,
                      flags & (MSG_OOB | MSG_PEEK) ? 0 : n);
}

ssize_t wuc_send(int fd, const void *buf, size_t n, int flags) {
  struct buffer_call c = {.buf = (void *)buf, .n = n, .flags = flags};
  return io_loop(fd, FD_WRITE, "wuc_send", try_sendto, &c);
}

ssize_t wuc_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *from,
                     socklen_t *fromlen) {
  struct buffer_call c = {.buf = buf, .n = n, .flags = flags, .addr = from, .addrlen = fromlen};
  return io_loop(fd, FD_READ, "wuc_recvfrom", try_recvfrom, &c);
}

ssize_t wuc_sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *to,
                   socklen_t tolen) {
  struct buffer_call c = {
      .buf = (void *)buf, .n = n, .flags = flags, .addr = (struct sockaddr *)to, .addrlen = &tolen};
  return io_loop(fd, FD_WRITE, "wuc_sendto", try_sendto, &c);
}

int wuc_accept(int fd, struct sockaddr *addr, socklen_t *len) {
  struct buffer_call c = {.addr = addr, .addrlen = len};
  int conn = (int)io_loop(fd, FD_READ, "wuc_accept", try_accept, &c);
  if (conn >= 0) { /* a new socket, whatever the number was before: non-blocking */
    struct fd_entry *e = wuc_fd_entry(conn);
    wuc_fd_forget(e);
    atomic_store_explicit(&e->nonblocking, true, memory_order_relaxed);
    /* of the listener's type (accept: SOCK_STREAM or SOCK_SEQPACKET) */
    bool stream = atomic_load_explicit(&wuc_fd_entry(fd)->stream, memory_order_relaxed);
    atomic_store_explicit(&e->stream, stream, memory_order_relaxed);
    atomic_store_explicit(&e->kind, FD_KIND_SOCKET, memory_order_relaxed);
  }
  return conn;
}

/* ---- waiting with a limit: a waituntil statement of the runtime's own ---------- */

int wuc_wait_fd(int fd, unsigned events, wuc_duration_t limit) {
  wuc_current_thread_or_die("wuc_wait_fd");
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  if (events == 0 || (events & ~(unsigned)(WUC_FD_READABLE | WUC_FD_WRITABLE)))
    wuc_fatal("wuc_wait_fd(%d, %u): events must be WUC_FD_READABLE, WUC_FD_WRITABLE or both", fd,
              events);
  struct fd_entry *e = wuc_fd_entry(fd);
  uint32_t closing = atomic_load_explicit(&e->closing, memory_order_acquire);
  wuc_fd_clause readable = wuc_readable_make(fd), writable = wuc_writable_make(fd);
  wuc_timeout deadline =
      wuc_timeout_lazy_(limit < 0 ? INT64_MAX : limit); /* clock read if it waits */
  void *resource[3] = {&readable, &writable, &deadline};
  const wuc_selectable_ops *ops[3] = {&WUC_SELECTABLE_OPS(wuc_fd_register),
                                      &WUC_SELECTABLE_OPS(wuc_fd_register),
                                      &WUC_SELECTABLE_OPS(wuc_timeout_register)};
  bool enabled[3] = {(events & WUC_FD_READABLE) != 0, (events & WUC_FD_WRITABLE) != 0, limit >= 0};
  wuc_wu_clause clauses[3];
  wuc_wu w __attribute__((cleanup(wuc_wu_exit)));
  wuc_wu_init(&w, clauses, 1);
  w.s.waits_after_try = true; /* no else: a failed try registers (fd_clause.c) */
  for (unsigned i = 0; i < 3; i++)
    wuc_wu_clause_init(&w, i, enabled[i], resource[i], ops[i], NULL, "wuc_wait_fd");
  int won = -1;
  for (unsigned i = 0; i < 3 && won < 0; i++) {
    if (enabled[i] && ops[i]->register_select(resource[i], wuc_wu_try_node(&w, i))) {
      wuc_wu_won_try(&w, i);
      won = (int)i;
    }
  }
  if (won < 0) won = (int)wuc_wu_block_all_or(&w);
  if (wuc_wu_end_winner(&w, (unsigned)won))
    (void)ops[won]->unregister_select(resource[won], &clauses[won].__wuc_node);
  if (won == 2) return (int)fail_with(ETIMEDOUT);
  if (atomic_load_explicit(&e->closing, memory_order_acquire) != closing)
    return (int)fail_with(ECANCELED);
  return 0;
}

int wuc_connect(int fd, const struct sockaddr *addr, socklen_t len, wuc_duration_t limit) {
  wuc_current_thread_or_die("wuc_connect");
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  struct fd_entry *e = wuc_fd_entry(fd);
  wuc_fd_forget(e); /* a socket being connected is a new one to the runtime */
  kind_of(e);       /* non-blocking from here */
  if (connect(fd, addr, len) == 0) return 0;
  if (errno != EINPROGRESS && errno != EINTR) return -1;
  if (wuc_wait_fd(fd, WUC_FD_WRITABLE, limit) != 0) return -1;
  int error = 0;
  socklen_t size = sizeof error;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) return -1;
  return error ? (int)fail_with(error) : 0;
}

/* ---- close ------------------------------------------------------------------ */

int wuc_close(int fd) {
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  struct fd_entry *e = wuc_fd_entry(fd);
  atomic_fetch_add_explicit(&e->closing, 1, memory_order_acq_rel);
  wuc_fd_ready(e, FD_READ);
  wuc_fd_ready(e, FD_WRITE);
  /* The number may come back as another file: learn and register it afresh
   * (close drops the epoll registration). */
  wuc_fd_forget(e);
  return close(fd);
}
