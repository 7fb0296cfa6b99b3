/* idle-conns — memory of idle connections: a loopback server accepts C
 * connections (default 10,000) and gives each a user thread blocked in
 * wuc_read on it with a 4 KiB buffer on its stack (-mode read, default) or
 * in wuc_wait_fd until readable before that read's frame is made (-mode
 * wait: an idle thread's stack holds no buffer); once all are blocked it
 * reads VmRSS and VmHWM of its own process.  The clients are a forked child
 * process (plain blocking connect(2)s, then it waits for the parent to close
 * a pipe), so only the server's memory is in the reading.  The soft limit on
 * descriptors is raised to the hard one (setrlimit).  Reports MiB and the
 * growth per connection over the reading taken before the first accept.
 *
 *   bench_idle-conns [-c CONNECTIONS] [-mode read|wait] */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <wuc.h>
#include <wuc/io.h>

#include "bench.h"
#include "net.h"

static long conns = 10000;
static int listen_fd, port;
static _Atomic long blocked, finished;

static bool wait_first; /* -mode wait */

/* The read, with its buffer on the stack (as a C server writes it). */
static __attribute__((noinline)) void read_eof(int fd) {
  char buf[4096];
  ssize_t n = wuc_read(fd, buf, sizeof buf); /* end of file when the client goes */
  NET_CHECK(n == 0, "idle read: %zd (%s)", n, n < 0 ? strerror(errno) : "data");
}

static void idle(void *arg) {
  int fd = (int)(intptr_t)arg;
  atomic_fetch_add(&blocked, 1);
  /* -mode wait: park until readable before the buffer's frame exists, so an
   * idle thread's stack is only what the wait needs. */
  if (wait_first) NET_CHECK(wuc_wait_fd(fd, WUC_FD_READABLE, -1) == 0, "wait: %m");
  read_eof(fd);
  wuc_close(fd);
  atomic_fetch_add(&finished, 1);
}

/* The forked client: async-signal-safe calls only (the parent has threads). */
static void client_process(int hold_fd) {
  struct sockaddr_in a = net_loopback(port);
  for (long i = 0; i < conns; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) _exit(3);
  }
  char c;
  while (read(hold_fd, &c, 1) < 0 && errno == EINTR) {
  }
  _exit(0); /* the kernel closes every connection */
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i += 2) {
    char *end = NULL;
    if (i + 1 < argc && !strcmp(argv[i], "-c")) conns = strtol(argv[i + 1], &end, 10);
    if (i + 1 < argc && !strcmp(argv[i], "-mode") &&
        (!strcmp(argv[i + 1], "read") || !strcmp(argv[i + 1], "wait"))) {
      wait_first = argv[i + 1][0] == 'w';
      end = "";
    }
    NET_CHECK(end && *end == '\0' && conns >= 1, "usage: %s [-c CONNECTIONS] [-mode read|wait]",
              argv[0]);
  }
  long limit = net_raise_nofile();
  NET_CHECK(limit > conns + 64, "descriptor limit %ld too low for %ld connections", limit, conns);
  listen_fd = net_listen(0, &port);
  int hold[2];
  NET_CHECK(pipe(hold) == 0, "pipe: %m");
  long long rss0 = bench_proc_status_bytes("VmRSS");

  pid_t child = fork();
  NET_CHECK(child >= 0, "fork: %m");
  if (child == 0) {
    close(hold[1]);
    client_process(hold[0]);
  }
  close(hold[0]);

  int64_t t0 = bench_now_ns();
  for (long i = 0; i < conns; i++) {
    int fd = wuc_accept(listen_fd, NULL, NULL);
    NET_CHECK(fd >= 0, "accept: %m");
    uthread_spawn(idle, (void *)(intptr_t)fd);
  }
  while (atomic_load(&blocked) < conns) uthread_sleep(milliseconds(1));
  int64_t t1 = bench_now_ns();
  uthread_sleep(milliseconds(100)); /* the last few: from the count into the read */
  long long rss = bench_proc_status_bytes("VmRSS");
  long long hwm = bench_proc_status_bytes("VmHWM");

  close(hold[1]); /* the client exits: every connection reaches end of file */
  int status;
  NET_CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
            "client process failed (status %d)", status);
  while (atomic_load(&finished) < conns) uthread_sleep(milliseconds(1));
  wuc_close(listen_fd);

  char config[64];
  unsigned p = wuc_processors();
#define EMIT(what, value, unit)                                                                    \
  do {                                                                                             \
    snprintf(config, sizeof config, "P%u-C%ld-%s%s", p, conns, wait_first ? "wait-" : "", what);   \
    bench_result("idle-conns", config, (value), unit);                                             \
  } while (0)
  EMIT("VmRSS", (double)rss / (1024.0 * 1024.0), "MiB");
  EMIT("VmHWM", (double)hwm / (1024.0 * 1024.0), "MiB");
  EMIT("bytes-per-conn", (double)(rss - rss0) / (double)conns, "B");
  EMIT("accept+block", (double)(t1 - t0) / (double)conns, "ns/conn");
  return 0;
}
