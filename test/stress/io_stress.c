/* io_stress.c — the poller and <wuc/io.h> under load and at their edges
 * (docs/io.md; test/stress/README.md).
 *
 * wuc_io_stress MODE, run by CTest as stress.io.MODE.wN with
 * WUC_PROCESSORS=N:
 *
 *   echo       200 loopback TCP connections, a thread per side each, 200
 *              messages of 1..4096 bytes per connection: every byte comes
 *              back, in order
 *   echo-wait  the same, the server side waiting in wuc_wait_fd (a readable
 *              clause) before each read: after a short read the clause
 *              knows the socket empty without poll(2), and must still wake
 *   many       10,000 loopback connections at once (RLIMIT_NOFILE raised by
 *              the program; the clients are a child process), a thread
 *              blocked in wuc_read on each, then one byte each way; skipped
 *              with a message where the hard limit is too low
 *   close      threads blocked in wuc_read and wuc_wait_fd on pipes; another
 *              thread wuc_close's the fds: every call fails with ECANCELED
 *   emfile     accept with no fd left: wuc_accept returns -1 with EMFILE (no
 *              crash, no spin), and accepts again once fds are freed
 *   stall      a reader that stops reading: the writer's wuc_write_all parks
 *              while other threads go on, and completes once it reads again
 *   halfclose  shutdown(SHUT_WR): the server reads end of file and still
 *              writes its answer, which the client reads
 *   halfclose-edge  data and FIN in one edge on a watched socket: after the
 *              short read of the data, the next read returns 0 at once
 *   epipe      writes to a socket and a pipe whose reader is gone fail with
 *              EPIPE; the program is not killed by SIGPIPE
 *   reset      a peer that closes with SO_LINGER 0: wuc_read fails with
 *              ECONNRESET
 *   blocking   64 threads each run jobs through wuc_blocking (16 helpers):
 *              results and errno come back to the right thread
 *   signals    wuc_signal_notify: 100 SIGUSR1s raised one at a time, each
 *              received on the channel
 *   waitfd     wuc_wait_fd times out on a silent pipe (ETIMEDOUT), returns 0
 *              once written to; wuc_connect to a listening socket
 *   file       wuc_read of a regular file (1 MiB, in the current directory):
 *              whole reads, chunked reads and a read past the end return
 *              what read(2) would, with the pages cached (served inline) and
 *              dropped from the cache first (read on a helper thread)
 *   reuse      an fd the runtime registered with epoll is closed with
 *              close(2), not wuc_close, and its number comes back as a new
 *              socket: wuc_read and wuc_wait_fd on the new one still end
 *              when it is written to (the poller's audit registers it; a
 *              hang here is what the test catches)
 *
 * A failed check prints "FAILED: ..." and exits with status 1; CTest's
 * timeout ends a hang. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <wuc.h>
#include <wuc/io.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *g_mode = "?";

#include "stress_check.h"

/* ---- sockets --------------------------------------------------------------- */

static int listen_loopback(int backlog, struct sockaddr_in *addr) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  CHECK(fd >= 0, "socket: %s", strerror(errno));
  memset(addr, 0, sizeof *addr);
  addr->sin_family = AF_INET;
  addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof *addr;
  CHECK(bind(fd, (struct sockaddr *)addr, len) == 0, "bind: %s", strerror(errno));
  CHECK(listen(fd, backlog) == 0, "listen: %s", strerror(errno));
  CHECK(getsockname(fd, (struct sockaddr *)addr, &len) == 0, "getsockname: %s", strerror(errno));
  return fd;
}

static int connect_to(const struct sockaddr_in *addr) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  CHECK(fd >= 0, "socket: %s", strerror(errno));
  CHECK(wuc_connect(fd, (const struct sockaddr *)addr, sizeof *addr, seconds(10)) == 0,
        "wuc_connect: %s", strerror(errno));
  return fd;
}

static void read_exactly(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n > 0) {
    ssize_t r = wuc_read(fd, p, n);
    CHECK(r > 0, "wuc_read: %zd (%s)", r, r < 0 ? strerror(errno) : "end of file");
    p += r;
    n -= (size_t)r;
  }
}

/* ---- echo ---------------------------------------------------------------------- */

enum { ECHO_CONNECTIONS = 200, ECHO_MESSAGES = 200, ECHO_MAX = 4096 };

static bool g_wait_first; /* echo-wait: wuc_wait_fd (a readable clause) before each read */

static void echo_server_side(void *arg) {
  int fd = (int)(intptr_t)arg;
  char buf[ECHO_MAX];
  for (;;) {
    if (g_wait_first)
      CHECK(wuc_wait_fd(fd, WUC_FD_READABLE, -1) == 0, "wuc_wait_fd: %s", strerror(errno));
    ssize_t n = wuc_read(fd, buf, sizeof buf);
    CHECK(n >= 0, "server wuc_read: %s", strerror(errno));
    if (n == 0) break;
    CHECK(wuc_write_all(fd, buf, (size_t)n) == n, "server wuc_write_all: %s", strerror(errno));
  }
  CHECK(wuc_close(fd) == 0, "wuc_close: %s", strerror(errno));
}

static struct sockaddr_in g_addr;
static atomic_long g_bytes;

static void echo_client_side(void *arg) {
  unsigned seed = (unsigned)(intptr_t)arg * 2654435761u + 1;
  int fd = connect_to(&g_addr);
  char out[ECHO_MAX], in[ECHO_MAX];
  for (int m = 0; m < ECHO_MESSAGES; m++) {
    seed = seed * 1103515245u + 12345u;
    size_t n = 1 + (seed >> 8) % ECHO_MAX;
    for (size_t i = 0; i < n; i++) out[i] = (char)(seed + i * 31 + (size_t)m);
    CHECK(wuc_write_all(fd, out, n) == (ssize_t)n, "client wuc_write_all: %s", strerror(errno));
    read_exactly(fd, in, n);
    CHECK(memcmp(in, out, n) == 0, "message %d of %zu bytes came back changed", m, n);
    atomic_fetch_add(&g_bytes, (long)n);
  }
  CHECK(wuc_close(fd) == 0, "wuc_close: %s", strerror(errno));
}

static uthread_t *g_servers[ECHO_CONNECTIONS];

static void acceptor(void *arg) {
  int listener = (int)(intptr_t)arg;
  for (int i = 0; i < ECHO_CONNECTIONS; i++) {
    int fd = wuc_accept(listener, NULL, NULL);
    CHECK(fd >= 0, "wuc_accept: %s", strerror(errno));
    g_servers[i] = uthread_spawn(echo_server_side, (void *)(intptr_t)fd);
  }
}

static void run_echo(void) {
  int listener = listen_loopback(ECHO_CONNECTIONS, &g_addr);
  uthread_t *acc = uthread_spawn(acceptor, (void *)(intptr_t)listener);
  uthread_t *clients[ECHO_CONNECTIONS];
  for (int i = 0; i < ECHO_CONNECTIONS; i++)
    clients[i] = uthread_spawn(echo_client_side, (void *)(intptr_t)i);
  for (int i = 0; i < ECHO_CONNECTIONS; i++) uthread_join(clients[i]);
  uthread_join(acc);
  for (int i = 0; i < ECHO_CONNECTIONS; i++) uthread_join(g_servers[i]);
  wuc_close(listener);
  printf("%s: %d connections, %ld bytes echoed\n", g_mode, ECHO_CONNECTIONS, atomic_load(&g_bytes));
}

static void run_echo_wait(void) {
  g_wait_first = true;
  run_echo();
}

/* ---- many ---------------------------------------------------------------------- */

/* The clients are a child process of plain blocking sockets (forked before
 * the first spawn), so each process needs only MANY fds. */
enum { MANY = 10000 };
static atomic_int g_many_ready;

static void many_server_side(void *arg) {
  int fd = (int)(intptr_t)arg;
  char c;
  atomic_fetch_add(&g_many_ready, 1);
  read_exactly(fd, &c, 1); /* every thread blocks here until its byte */
  CHECK(wuc_write_all(fd, &c, 1) == 1, "wuc_write_all: %s", strerror(errno));
  wuc_close(fd);
}

static int many_clients(int go) {
  static int fds[MANY];
  for (int i = 0; i < MANY; i++) {
    fds[i] = socket(AF_INET, SOCK_STREAM, 0);
    if (fds[i] < 0 || connect(fds[i], (struct sockaddr *)&g_addr, sizeof g_addr) != 0) return 1;
  }
  char c;
  if (read(go, &c, 1) != 1) return 1; /* every server thread waits in wuc_read */
  for (int i = 0; i < MANY; i++) {
    c = (char)i;
    if (write(fds[i], &c, 1) != 1) return 1;
  }
  for (int i = 0; i < MANY; i++)
    if (read(fds[i], &c, 1) != 1 || c != (char)i) return 1;
  return 0;
}

static void run_many(void) {
  struct rlimit lim;
  getrlimit(RLIMIT_NOFILE, &lim);
  rlim_t need = MANY + 64;
  if (lim.rlim_max < need) {
    printf("many: skipped, the hard limit on open files is %llu (%llu needed)\n",
           (unsigned long long)lim.rlim_max, (unsigned long long)need);
    return;
  }
  lim.rlim_cur = need;
  CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0, "setrlimit: %s", strerror(errno));
  int listener = listen_loopback(4096, &g_addr);
  int go[2];
  CHECK(pipe(go) == 0, "pipe");
  pid_t child = fork();
  CHECK(child >= 0, "fork: %s", strerror(errno));
  if (child == 0) _exit(many_clients(go[0]));
  static uthread_t *threads[MANY];
  for (int i = 0; i < MANY; i++) {
    int fd = wuc_accept(listener, NULL, NULL);
    CHECK(fd >= 0, "wuc_accept %d: %s", i, strerror(errno));
    threads[i] = uthread_spawn(many_server_side, (void *)(intptr_t)fd);
  }
  while (atomic_load(&g_many_ready) < MANY) uthread_yield();
  CHECK(write(go[1], "g", 1) == 1, "write");
  for (int i = 0; i < MANY; i++) uthread_join(threads[i]);
  int status;
  CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "the client process failed (status %d)", status);
  wuc_close(listener);
  printf("many: %d connections, a thread blocked in wuc_read on each, all answered\n", MANY);
}

/* ---- close ---------------------------------------------------------------------- */

enum { CLOSE_PIPES = 32 };
static int g_pipes[CLOSE_PIPES][2];
static atomic_int g_cancelled, g_blocked;

static void blocked_reader(void *arg) {
  int i = (int)(intptr_t)arg;
  char c;
  atomic_fetch_add(&g_blocked, 1);
  ssize_t r = i % 2 ? wuc_read(g_pipes[i][0], &c, 1)
                    : wuc_wait_fd(g_pipes[i][0], WUC_FD_READABLE, seconds(60));
  CHECK(r == -1 && errno == ECANCELED, "pipe %d: %zd (%s)", i, r, strerror(errno));
  atomic_fetch_add(&g_cancelled, 1);
}

static void run_close(void) {
  uthread_t *t[CLOSE_PIPES];
  for (int i = 0; i < CLOSE_PIPES; i++) {
    CHECK(pipe(g_pipes[i]) == 0, "pipe: %s", strerror(errno));
    t[i] = uthread_spawn(blocked_reader, (void *)(intptr_t)i);
  }
  while (atomic_load(&g_blocked) < CLOSE_PIPES) uthread_yield();
  uthread_sleep(milliseconds(5)); /* let them park (not required for correctness) */
  for (int i = 0; i < CLOSE_PIPES; i++) CHECK(wuc_close(g_pipes[i][0]) == 0, "wuc_close");
  for (int i = 0; i < CLOSE_PIPES; i++) uthread_join(t[i]);
  for (int i = 0; i < CLOSE_PIPES; i++) close(g_pipes[i][1]);
  CHECK(atomic_load(&g_cancelled) == CLOSE_PIPES, "%d cancelled", atomic_load(&g_cancelled));
  printf("close: %d waiting calls ended with ECANCELED\n", CLOSE_PIPES);
}

/* ---- emfile ---------------------------------------------------------------------- */

static void run_emfile(void) {
  int listener = listen_loopback(64, &g_addr);
  int client = connect_to(&g_addr);
  /* Use up every fd the limit allows, then lower it to what is open. */
  struct rlimit lim, low;
  getrlimit(RLIMIT_NOFILE, &lim);
  int fillers[64], n = 0;
  int highest = dup(0);
  CHECK(highest >= 0, "dup: %s", strerror(errno));
  fillers[n++] = highest;
  low = lim;
  low.rlim_cur = (rlim_t)highest + 1;
  CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0, "setrlimit: %s", strerror(errno));
  for (int fd; n < 64 && (fd = dup(0)) >= 0;) fillers[n++] = fd;
  int r = wuc_accept(listener, NULL, NULL);
  CHECK(r == -1 && errno == EMFILE, "wuc_accept with no fd left: %d (%s)", r, strerror(errno));
  for (int i = 0; i < n; i++) close(fillers[i]);
  CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0, "setrlimit: %s", strerror(errno));
  int fd = wuc_accept(listener, NULL, NULL);
  CHECK(fd >= 0, "wuc_accept once fds are free: %s", strerror(errno));
  wuc_close(fd);
  wuc_close(client);
  wuc_close(listener);
  printf("emfile: wuc_accept returned EMFILE, then accepted\n");
}

/* ---- stall ---------------------------------------------------------------------- */

enum { STALL_BYTES = 8 << 20 };
static atomic_bool g_writer_done;
static atomic_long g_ticks;

static void stalled_writer(void *arg) {
  int fd = (int)(intptr_t)arg;
  char *data = malloc(STALL_BYTES);
  CHECK(data, "malloc");
  for (size_t i = 0; i < STALL_BYTES; i++) data[i] = (char)(i * 7 + (i >> 12));
  CHECK(wuc_write_all(fd, data, STALL_BYTES) == STALL_BYTES, "wuc_write_all: %s", strerror(errno));
  free(data);
  atomic_store(&g_writer_done, true);
}

static void ticker(void *arg) {
  (void)arg;
  while (!atomic_load(&g_writer_done)) {
    atomic_fetch_add(&g_ticks, 1);
    uthread_sleep(microseconds(200));
  }
}

static void run_stall(void) {
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0, "socketpair");
  uthread_t *w = uthread_spawn(stalled_writer, (void *)(intptr_t)sv[0]);
  uthread_t *t = uthread_spawn(ticker, NULL);
  /* The reader stops: the writer fills the buffer and parks; others run. */
  long before = atomic_load(&g_ticks);
  while (atomic_load(&g_ticks) < before + 20) uthread_sleep(milliseconds(1));
  CHECK(!atomic_load(&g_writer_done), "8 MiB fit in a socket buffer?");
  char *got = malloc(STALL_BYTES);
  CHECK(got, "malloc");
  read_exactly(sv[1], got, STALL_BYTES);
  for (size_t i = 0; i < STALL_BYTES; i++)
    CHECK(got[i] == (char)(i * 7 + (i >> 12)), "byte %zu changed", i);
  free(got);
  uthread_join(w);
  uthread_join(t);
  wuc_close(sv[0]);
  wuc_close(sv[1]);
  printf("stall: the writer parked and completed; others ran meanwhile\n");
}

/* ---- halfclose, epipe, reset ---------------------------------------------------- */

static void half_server(void *arg) {
  int listener = (int)(intptr_t)arg;
  int fd = wuc_accept(listener, NULL, NULL);
  CHECK(fd >= 0, "wuc_accept: %s", strerror(errno));
  char buf[64];
  size_t got = 0;
  for (ssize_t n; (n = wuc_read(fd, buf + got, sizeof buf - got)) != 0; got += (size_t)n)
    CHECK(n > 0, "wuc_read: %s", strerror(errno));
  CHECK(got == 5 && memcmp(buf, "hello", 5) == 0, "read %zu bytes", got);
  CHECK(wuc_write_all(fd, "bye", 3) == 3, "wuc_write_all after end of file: %s", strerror(errno));
  wuc_close(fd);
}

static void run_halfclose(void) {
  int listener = listen_loopback(4, &g_addr);
  uthread_t *s = uthread_spawn(half_server, (void *)(intptr_t)listener);
  int fd = connect_to(&g_addr);
  CHECK(wuc_write_all(fd, "hello", 5) == 5, "wuc_write_all");
  CHECK(shutdown(fd, SHUT_WR) == 0, "shutdown: %s", strerror(errno));
  char buf[8];
  read_exactly(fd, buf, 3);
  CHECK(memcmp(buf, "bye", 3) == 0, "answer");
  CHECK(wuc_read(fd, buf, sizeof buf) == 0, "end of file after the answer");
  uthread_join(s);
  wuc_close(fd);
  wuc_close(listener);
  printf("halfclose: end of file read, answer written after it\n");
}

/* halfclose-edge: the server's fd is in the epoll set before the client
 * sends "hello" and its FIN, so one edge reports both (EPOLLIN|EPOLLRDHUP);
 * the read of the 5 bytes is short, and the next read must return 0 at once
 * rather than park for an edge that never comes (docs/io.md, "Park first
 * after a short read"). */
static _Atomic int g_edge_step;
static int g_edge_pipe[2];

/* Waits on a pipe meanwhile, so that an idle worker blocks in epoll_wait
 * and dispatches the server socket's event as soon as it comes. */
static void edge_poller(void *arg) {
  (void)arg;
  char c;
  CHECK(wuc_read(g_edge_pipe[0], &c, 1) == 1, "pipe read: %s", strerror(errno));
}

static void edge_server(void *arg) {
  int listener = (int)(intptr_t)arg;
  int fd = wuc_accept(listener, NULL, NULL);
  CHECK(fd >= 0, "wuc_accept: %s", strerror(errno));
  /* Registers fd with the poller: nothing to read yet, so it times out. */
  CHECK(wuc_wait_fd(fd, WUC_FD_READABLE, milliseconds(1)) == -1 && errno == ETIMEDOUT,
        "wuc_wait_fd on a silent socket: %s", strerror(errno));
  atomic_store(&g_edge_step, 1);
  while (atomic_load(&g_edge_step) != 2) uthread_sleep(milliseconds(1));
  uthread_sleep(milliseconds(20)); /* the poller sees data and FIN in one event */
  char buf[64];
  CHECK(wuc_read(fd, buf, sizeof buf) == 5, "first read: %s", strerror(errno));
  CHECK(wuc_read(fd, buf, sizeof buf) == 0, "end of file after a short read");
  wuc_close(fd);
}

static void run_halfclose_edge(void) {
  int listener = listen_loopback(4, &g_addr);
  uthread_t *s = uthread_spawn(edge_server, (void *)(intptr_t)listener);
  CHECK(pipe2(g_edge_pipe, O_CLOEXEC) == 0, "pipe2: %s", strerror(errno));
  uthread_t *p = uthread_spawn(edge_poller, NULL);
  int fd = connect_to(&g_addr);
  while (atomic_load(&g_edge_step) != 1) uthread_sleep(milliseconds(1));
  CHECK(wuc_write_all(fd, "hello", 5) == 5, "wuc_write_all");
  CHECK(shutdown(fd, SHUT_WR) == 0, "shutdown: %s", strerror(errno));
  atomic_store(&g_edge_step, 2);
  uthread_join(s);
  CHECK(wuc_write(g_edge_pipe[1], "x", 1) == 1, "pipe write: %s", strerror(errno));
  uthread_join(p);
  wuc_close(g_edge_pipe[0]);
  wuc_close(g_edge_pipe[1]);
  wuc_close(fd);
  wuc_close(listener);
  printf("halfclose-edge: end of file read at once after a short read\n");
}

static void run_epipe(void) {
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0, "socketpair");
  wuc_close(sv[1]);
  CHECK(wuc_write(sv[0], "x", 1) == -1 && errno == EPIPE, "socket: %s", strerror(errno));
  wuc_close(sv[0]);
  int p[2];
  CHECK(pipe(p) == 0, "pipe");
  wuc_close(p[0]);
  CHECK(wuc_write(p[1], "x", 1) == -1 && errno == EPIPE, "pipe: %s", strerror(errno));
  wuc_close(p[1]);
  printf("epipe: both writes failed with EPIPE, no SIGPIPE\n");
}

static void run_reset(void) {
  int listener = listen_loopback(4, &g_addr);
  int client = connect_to(&g_addr);
  int server = wuc_accept(listener, NULL, NULL);
  CHECK(server >= 0, "wuc_accept: %s", strerror(errno));
  struct linger l = {.l_onoff = 1, .l_linger = 0};
  CHECK(setsockopt(client, SOL_SOCKET, SO_LINGER, &l, sizeof l) == 0, "SO_LINGER");
  wuc_close(client); /* sends a reset */
  char c;
  ssize_t r = wuc_read(server, &c, 1);
  CHECK(r == -1 && errno == ECONNRESET, "wuc_read after a reset: %zd (%s)", r, strerror(errno));
  wuc_close(server);
  wuc_close(listener);
  printf("reset: wuc_read failed with ECONNRESET\n");
}

/* ---- blocking ------------------------------------------------------------------- */

struct job {
  long in, out;
  int error;
};

static void *slow_square(void *arg) {
  struct job *j = arg;
  usleep(2000);
  j->out = j->in * j->in;
  errno = (int)(j->in % 100) + 1; /* errno comes back to the caller */
  return j;
}

static void blocking_user(void *arg) {
  long base = (long)(intptr_t)arg;
  for (long k = 0; k < 8; k++) {
    struct job j = {.in = base * 100 + k};
    void *r = wuc_blocking(slow_square, &j);
    int e = errno;
    CHECK(r == &j && j.out == j.in * j.in, "job %ld", j.in);
    CHECK(e == (int)(j.in % 100) + 1, "errno %d for job %ld", e, j.in);
  }
}

static void run_blocking(void) {
  uthread_t *t[64];
  for (long i = 0; i < 64; i++) t[i] = uthread_spawn(blocking_user, (void *)(intptr_t)i);
  for (int i = 0; i < 64; i++) uthread_join(t[i]);
  printf("blocking: 512 jobs, results and errno back to their threads\n");
}

/* ---- signals, waitfd ----------------------------------------------------------- */

static WUC_CHANNEL(int) g_signals; /* plain C: channel(int) is the dialect's spelling */

static void run_signals(void) {
  chan_init(&g_signals, 4);
  CHECK(wuc_signal_notify(&g_signals, SIGUSR1) == 0, "wuc_signal_notify: %s", strerror(errno));
  CHECK(wuc_signal_notify(&g_signals, SIGKILL) == -1 && errno == EINVAL, "SIGKILL refused");
  for (int i = 0; i < 100; i++) {
    raise(SIGUSR1);
    int s = 0;
    CHECK(chan_recv(&g_signals, &s), "the channel closed");
    CHECK(s == SIGUSR1, "received %d", s);
  }
  printf("signals: 100 SIGUSR1s received on the channel\n");
}

static void run_waitfd(void) {
  int p[2];
  CHECK(pipe(p) == 0, "pipe");
  CHECK(wuc_wait_fd(p[0], WUC_FD_READABLE, milliseconds(5)) == -1 && errno == ETIMEDOUT,
        "a silent pipe: %s", strerror(errno));
  CHECK(wuc_wait_fd(p[1], WUC_FD_WRITABLE, milliseconds(5)) == 0, "an empty pipe is writable");
  CHECK(write(p[1], "x", 1) == 1, "write");
  CHECK(wuc_wait_fd(p[0], WUC_FD_READABLE | WUC_FD_WRITABLE, -1) == 0, "readable");
  wuc_close(p[0]);
  wuc_close(p[1]);
  printf("waitfd: timed out, then ready\n");
}

#define FILE_BYTES (1 << 20)

/* Reads the whole file at offset 0 in chunks of `chunk` bytes and checks it. */
static void read_file_back(int fd, const unsigned char *want, size_t chunk) {
  static unsigned char got[FILE_BYTES + 4096];
  CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek");
  size_t total = 0;
  for (;;) {
    ssize_t n = wuc_read(fd, got + total, chunk);
    CHECK(n >= 0, "wuc_read: %s", strerror(errno));
    if (n == 0) break;
    /* A regular file reads all that was asked for, up to its end. */
    CHECK((size_t)n == chunk || total + (size_t)n == FILE_BYTES, "a short read of %zd at %zu", n,
          total);
    total += (size_t)n;
    CHECK(total <= FILE_BYTES, "read %zu bytes of %d", total, FILE_BYTES);
  }
  CHECK(total == FILE_BYTES && memcmp(got, want, FILE_BYTES) == 0, "read back %zu bytes", total);
}

static void run_file(void) {
  static unsigned char data[FILE_BYTES];
  for (size_t i = 0; i < FILE_BYTES; i++) data[i] = (unsigned char)(i * 7 + i / 4096);
  char name[] = "wuc_io_stress_file_XXXXXX";
  int fd = mkstemp(name);
  CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
  unlink(name);
  CHECK(write(fd, data, FILE_BYTES) == FILE_BYTES, "write");
  const size_t chunks[] = {FILE_BYTES + 4096, 4093, 65536};
  for (int cold = 0; cold < 2; cold++) {
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
      if (cold) { /* clean pages, then out of the cache (where the file system lets them go) */
        CHECK(fdatasync(fd) == 0, "fdatasync: %s", strerror(errno));
        CHECK(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0, "posix_fadvise");
      }
      read_file_back(fd, data, chunks[k]);
    }
  }
  wuc_close(fd);
  printf("file: cached and uncached reads returned the whole file\n");
}

static int g_reuse_peer;

static void late_writer(void *arg) {
  (void)arg;
  uthread_sleep(milliseconds(20));
  CHECK(write(g_reuse_peer, "r", 1) == 1, "write: %s", strerror(errno));
}

/* A socket pair one of whose fds has the number `old` (closed before). */
static int pair_at(int old) {
  int t[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, t) == 0, "socketpair");
  CHECK(t[0] == old || t[1] == old, "fd %d did not come back (%d, %d)", old, t[0], t[1]);
  g_reuse_peer = t[0] == old ? t[1] : t[0];
  return old;
}

static void run_reuse(void) {
  int s[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, s) == 0, "socketpair");
  /* A wait registers s[0] with epoll. */
  CHECK(wuc_wait_fd(s[0], WUC_FD_READABLE, milliseconds(1)) == -1 && errno == ETIMEDOUT,
        "a silent socket: %s", strerror(errno));
  int old = s[0];
  CHECK(close(s[0]) == 0 && close(s[1]) == 0, "close"); /* behind the runtime's back */
  int fd = pair_at(old);
  uthread_t *w = uthread_spawn(late_writer, NULL);
  char c = 0;
  CHECK(wuc_read(fd, &c, 1) == 1 && c == 'r', "wuc_read on the new socket: %s", strerror(errno));
  uthread_join(w);
  CHECK(close(fd) == 0 && close(g_reuse_peer) == 0, "close");
  fd = pair_at(old);
  w = uthread_spawn(late_writer, NULL);
  CHECK(wuc_wait_fd(fd, WUC_FD_READABLE, -1) == 0, "wuc_wait_fd: %s", strerror(errno));
  uthread_join(w);
  wuc_close(fd);
  wuc_close(g_reuse_peer);
  printf("reuse: waits on a reused fd number ended\n");
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*run)(void);
  } modes[] = {{"echo", run_echo},
               {"many", run_many},
               {"close", run_close},
               {"emfile", run_emfile},
               {"stall", run_stall},
               {"halfclose", run_halfclose},
               {"halfclose-edge", run_halfclose_edge},
               {"epipe", run_epipe},
               {"reset", run_reset},
               {"blocking", run_blocking},
               {"signals", run_signals},
               {"waitfd", run_waitfd},
               {"reuse", run_reuse},
               {"file", run_file},
               {"echo-wait", run_echo_wait}};
  if (argc == 2)
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
      if (strcmp(argv[1], modes[i].name) == 0) {
        g_mode = modes[i].name;
        modes[i].run();
        return 0;
      }
  fprintf(stderr,
          "usage: wuc_io_stress MODE (echo, many, close, emfile, stall, halfclose, halfclose-edge, "
          "epipe, reset, blocking, signals, waitfd, reuse, file, echo-wait)\n");
  return 2;
}
