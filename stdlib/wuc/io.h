/* <wuc/io.h> — input and output that park only the calling user thread.
 *
 * Each call behaves as the POSIX call of the same name without the prefix
 * (the same arguments, -1 and errno on failure), except that where that call
 * would block, the calling user thread parks until the fd is ready (the
 * runtime's poller, docs/io.md) and its worker runs other threads.
 *
 *   - An fd passed to these calls is made non-blocking (O_NONBLOCK) on first
 *     use and stays so; fds these calls create are non-blocking and
 *     close-on-exec.  Regular files and other fds epoll cannot watch are read
 *     from the page cache when the data is there (preadv2, RWF_NOWAIT) and
 *     otherwise, as they are written, on the runtime's helper threads
 *     (wuc_blocking).
 *   - wuc_close(fd) wakes every thread that waits on fd, in a call here or
 *     in a readable/writable clause: the calls fail with ECANCELED, the
 *     clauses complete (their body's call then reports EBADF).
 *   - Writing to a socket whose peer has gone fails with EPIPE; it never
 *     raises SIGPIPE (MSG_NOSIGNAL; for pipes the runtime ignores SIGPIPE
 *     while a write here runs — docs/io.md).
 *
 * Unlike <wuc/fd.h> this header includes the system's socket headers: the
 * names it brings are the program's choice to include. */
#ifndef WUC_IO_H
#define WUC_IO_H

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <wuc/channel.h>
#include <wuc/fd.h>
#include <wuc/time.h>

#ifdef __cplusplus
extern "C" {
#endif

ssize_t wuc_read(int __wuc_fd, void *__wuc_buf, size_t __wuc_n);
ssize_t wuc_write(int __wuc_fd, const void *__wuc_buf, size_t __wuc_n);
/* Writes all n bytes unless an error stops it: then -1 with errno, and the
 * bytes written so far are lost to the caller (as with a short write). */
ssize_t wuc_write_all(int __wuc_fd, const void *__wuc_buf, size_t __wuc_n);
ssize_t wuc_readv(int __wuc_fd, const struct iovec *__wuc_iov, int __wuc_iovcnt);
ssize_t wuc_writev(int __wuc_fd, const struct iovec *__wuc_iov, int __wuc_iovcnt);

ssize_t wuc_recv(int __wuc_fd, void *__wuc_buf, size_t __wuc_n, int __wuc_flags);
ssize_t wuc_send(int __wuc_fd, const void *__wuc_buf, size_t __wuc_n, int __wuc_flags);
ssize_t wuc_recvfrom(int __wuc_fd, void *__wuc_buf, size_t __wuc_n, int __wuc_flags,
                     struct sockaddr *__wuc_from, socklen_t *__wuc_fromlen);
ssize_t wuc_sendto(int __wuc_fd, const void *__wuc_buf, size_t __wuc_n, int __wuc_flags,
                   const struct sockaddr *__wuc_to, socklen_t __wuc_tolen);

/* accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC. */
int wuc_accept(int __wuc_fd, struct sockaddr *__wuc_addr, socklen_t *__wuc_len);
/* Connects a socket, waiting at most `limit` (ETIMEDOUT after it; a
 * negative limit waits for ever). */
int wuc_connect(int __wuc_fd, const struct sockaddr *__wuc_addr, socklen_t __wuc_len,
                wuc_duration_t __wuc_limit);

/* Waits until fd is ready for `events` (WUC_FD_READABLE, WUC_FD_WRITABLE or
 * both): 0 when it is, -1 with ETIMEDOUT after `limit` (negative: for ever),
 * ECANCELED if wuc_close closed fd meanwhile. */
int wuc_wait_fd(int __wuc_fd, unsigned __wuc_events, wuc_duration_t __wuc_limit);

/* close(2), after waking every thread that waits on fd (above). */
int wuc_close(int __wuc_fd);

/* Runs fn(arg) on one of the runtime's helper kernel threads and returns its
 * result; the calling user thread parks meanwhile.  For calls that block
 * and have no non-blocking form: getaddrinfo, fsync, a library's blocking
 * call.  fn must not call the runtime's blocking operations (it runs on no
 * user thread); at most WUC_BLOCKING_THREADS (default 16) run at once, the
 * others wait in order.  errno as fn left it is the caller's errno. */
void *wuc_blocking(void *(*__wuc_fn)(void *), void *__wuc_arg);

/* From now on, signal signo arrives as an element (its number) on ch, a
 * channel(int) (Go's signal.Notify): a waituntil waits for SIGINT beside its
 * sockets and channels.  The signal's previous action no longer runs.  A
 * signal is offered without blocking: a channel without room misses it (give
 * it a buffer).  Up to 8 channels per signal; 0, or -1 with EINVAL for a
 * signal that cannot be a message (SIGKILL, SIGSTOP, SIGURG — the runtime's
 * preemption signal — and the faults SIGSEGV, SIGBUS, SIGFPE, SIGILL). */
#define wuc_signal_notify(ch, signo)                                                               \
  wuc_signal_notify_(WUC_CHAN_CORE_(ch), WUC_CHAN_SIZE_(ch), (signo))
int wuc_signal_notify_(wuc_chan *__wuc_ch, wuc_size_t __wuc_elem_size, int __wuc_signo);

#ifdef __cplusplus
}
#endif
#endif
