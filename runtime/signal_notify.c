/* signal_notify.c — signals delivered as channel elements (<wuc/io.h>,
 * wuc_signal_notify; Go's signal.Notify).
 *
 * The handler only writes the signal's number to a non-blocking pipe (write
 * is async-signal-safe; a full pipe drops it).  The pipe's read end is in the
 * poller's epoll set (poller.h): whoever polls reads the numbers and offers
 * each to every channel registered for it with a try-send, which never
 * blocks — a channel without room misses that signal, as in Go.  A
 * registration counts as a waiter on an fd for good, so an idle worker
 * keeps polling and the deadlock report knows a signal may still come. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <wuc/io.h>

#include "fatal.h"
#include "kernel_sigaction.h"
#include "poller.h"
#include "sanitizer.h"

#define MAX_CHANNELS_PER_SIGNAL 8

static struct {
  pthread_mutex_t lock;
  int pipe_read, pipe_write;
  wuc_chan *channels[NSIG][MAX_CHANNELS_PER_SIGNAL];
} notify = {.lock = PTHREAD_MUTEX_INITIALIZER, .pipe_read = -1, .pipe_write = -1};

/* A raw write: under ThreadSanitizer the kernel calls this handler directly
 * (below), and it must not enter the sanitizer, which may be running in the
 * code it interrupted. */
WUC_NO_TSAN static void on_signal(int signo, siginfo_t *info, void *context) {
  (void)info;
  (void)context;
  int saved = errno;
  unsigned char byte = (unsigned char)signo;
  (void)syscall(SYS_write, notify.pipe_write, &byte, 1);
  errno = saved;
}

/* Installs on_signal for signo.  ThreadSanitizer runs a handler installed
 * through libc only when the thread next enters one of its interceptors,
 * which a worker asleep on its futex never does: the signal would wait for
 * ever.  There, the handler libc installed is replaced by ours with the raw
 * system call, keeping libc's return trampoline. */
static int install(int signo) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  if (sigaction(signo, &sa, NULL) != 0) return -1;
#ifdef WUC_TSAN
  if (wuc_kernel_sigaction_replace(signo, on_signal, sa.sa_flags) != 0) return -1;
#endif
  return 0;
}

/* Under notify.lock: the pipe, in the epoll set with the token of its own. */
static void open_pipe(void) {
  if (notify.pipe_read >= 0) return;
  int p[2];
  if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0)
    wuc_fatal("wuc_signal_notify: cannot create its pipe: %s", strerror(errno));
  notify.pipe_read = p[0];
  notify.pipe_write = p[1];
  wuc_poll_watch_signals(p[0]);
  wuc_poll_waiting(1); /* for good (above) */
}

void wuc_signal_dispatch(void) {
  unsigned char numbers[64];
  ssize_t n;
  while ((n = read(notify.pipe_read, numbers, sizeof numbers)) > 0) {
    pthread_mutex_lock(&notify.lock);
    for (ssize_t i = 0; i < n; i++) {
      int signo = numbers[i];
      for (int k = 0; k < MAX_CHANNELS_PER_SIGNAL && notify.channels[signo][k]; k++)
        (void)wuc_chan_try_send(notify.channels[signo][k], &signo, sizeof signo);
    }
    pthread_mutex_unlock(&notify.lock);
  }
}

int wuc_signal_notify_(wuc_chan *ch, wuc_size_t elem_size, int signo) {
  if (elem_size != sizeof(int))
    wuc_fatal("wuc_signal_notify: the channel's elements must be ints (the signal numbers)");
  if (signo <= 0 || signo >= NSIG || signo == SIGKILL || signo == SIGSTOP || signo == SIGURG ||
      signo == SIGSEGV || signo == SIGBUS || signo == SIGFPE || signo == SIGILL) {
    errno = EINVAL; /* SIGURG preempts threads (runtime.md); faults are not messages */
    return -1;
  }
  pthread_mutex_lock(&notify.lock);
  open_pipe();
  int k = 0;
  while (k < MAX_CHANNELS_PER_SIGNAL && notify.channels[signo][k] &&
         notify.channels[signo][k] != ch)
    k++;
  if (k == MAX_CHANNELS_PER_SIGNAL) {
    pthread_mutex_unlock(&notify.lock);
    errno = ENOSPC;
    return -1;
  }
  bool first = k == 0 && !notify.channels[signo][0];
  notify.channels[signo][k] = ch;
  pthread_mutex_unlock(&notify.lock);
  return first ? install(signo) : 0;
}
