/* net.h — what the I/O benchmarks (tcp-echo, idle-conns, httpd) share:
 * a loopback listener on a port the kernel picks, TCP_NODELAY, the
 * descriptor limit raised to its hard maximum, and percentiles of a sample.
 * Static inline, as bench.h. */
#ifndef WUC_BENCH_NET_H
#define WUC_BENCH_NET_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* Exits with status 1 and the message when cond is false. */
#define NET_CHECK(cond, ...)                                                                       \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* The soft RLIMIT_NOFILE raised to the hard one (Go's runtime does the same
 * at start-up since Go 1.19); returns the new soft limit. */
static inline long net_raise_nofile(void) {
  struct rlimit rl;
  NET_CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0, "getrlimit: %m");
  rl.rlim_cur = rl.rlim_max;
  NET_CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0, "setrlimit: %m");
  return (long)rl.rlim_cur;
}

/* A non-blocking listening socket on 127.0.0.1:port (0: the kernel picks);
 * *port_out receives the port. */
static inline int net_listen(int port, int *port_out) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  NET_CHECK(fd >= 0, "socket: %m");
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  NET_CHECK(bind(fd, (struct sockaddr *)&a, sizeof a) == 0, "bind: %m");
  NET_CHECK(listen(fd, 65535) == 0, "listen: %m"); /* capped at net.core.somaxconn */
  socklen_t len = sizeof a;
  NET_CHECK(getsockname(fd, (struct sockaddr *)&a, &len) == 0, "getsockname: %m");
  if (port_out) *port_out = ntohs(a.sin_port);
  return fd;
}

static inline struct sockaddr_in net_loopback(int port) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

/* Go's net package sets TCP_NODELAY on every TCP connection; so do we. */
static inline void net_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static inline int net_cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The p-th percentile (0 < p <= 100) of xs[0..n), nearest rank; sorts xs. */
static inline int64_t net_percentile(int64_t *xs, long n, double p, int sorted) {
  if (!sorted) qsort(xs, (size_t)n, sizeof *xs, net_cmp_i64);
  long k = (long)((p / 100.0) * (double)n + 0.999999);
  if (k < 1) k = 1;
  if (k > n) k = n;
  return xs[k - 1];
}

#endif
