/* tcp-echo — round trips over loopback TCP: C client connections, each with
 * its own user thread, against an echo server in the same process with one
 * user thread per accepted connection, all over <wuc/io.h>.  A round trip is
 * the client's write of S bytes and its read of the S bytes echoed back; each
 * client does q = n / C of them back to back (closed loop), after q/20 of
 * warm-up, from a start barrier.  Reports round trips per second (all
 * connections together, barrier to last client's end) and the p50 and p99 of
 * the single round trips' times.  bench/SHAPES.md ("tcp-echo") gives the Go
 * peer's same shape.
 *
 *   bench_tcp-echo [-n ROUND_TRIPS] [-c CONNECTIONS] [-s BYTES] */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wuc.h>
#include <wuc/io.h>

#include "bench.h"
#include "net.h"

static long conns = 100, size = 64, quota, warm;
static int listen_fd, port;
static int64_t *lat; /* conns * quota round-trip times, ns */
static _Atomic long ready;
static latch start;

static void server(void *arg) {
  int fd = (int)(intptr_t)arg;
  char *buf = malloc((size_t)size);
  NET_CHECK(buf, "out of memory");
  for (;;) {
    ssize_t n = wuc_read(fd, buf, (size_t)size);
    if (n <= 0) break;
    NET_CHECK(wuc_write_all(fd, buf, (size_t)n) == n, "server write: %m");
  }
  free(buf);
  wuc_close(fd);
}

static void acceptor(void *arg) {
  (void)arg;
  for (long i = 0; i < conns; i++) {
    int fd = wuc_accept(listen_fd, NULL, NULL);
    NET_CHECK(fd >= 0, "accept: %m");
    net_nodelay(fd);
    uthread_spawn(server, (void *)(intptr_t)fd); /* detached: never joined */
  }
}

static void round_trip(int fd, char *out, char *in) {
  NET_CHECK(wuc_write_all(fd, out, (size_t)size) == size, "client write: %m");
  for (long got = 0; got < size;) {
    ssize_t n = wuc_read(fd, in + got, (size_t)(size - got));
    NET_CHECK(n > 0, "client read: %s", n == 0 ? "end of file" : strerror(errno));
    got += n;
  }
}

static void client(void *arg) {
  long k = (long)(intptr_t)arg;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  NET_CHECK(fd >= 0, "socket: %m");
  net_nodelay(fd);
  struct sockaddr_in a = net_loopback(port);
  NET_CHECK(wuc_connect(fd, (struct sockaddr *)&a, sizeof a, seconds(10)) == 0, "connect: %m");
  char *out = malloc((size_t)size), *in = malloc((size_t)size);
  NET_CHECK(out && in, "out of memory");
  memset(out, 'a' + (int)(k % 26), (size_t)size);
  for (long i = 0; i < warm; i++) round_trip(fd, out, in);
  atomic_fetch_add(&ready, 1);
  latch_wait(&start);
  int64_t *mine = lat + k * quota;
  for (long i = 0; i < quota; i++) {
    int64_t t0 = bench_now_ns();
    round_trip(fd, out, in);
    mine[i] = bench_now_ns() - t0;
  }
  NET_CHECK(memcmp(in, out, (size_t)size) == 0, "echo differs from what was sent");
  free(out);
  free(in);
  wuc_close(fd);
}

static long arg_long(const char *flag, const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  NET_CHECK(*end == '\0' && v >= 1, "%s expects a positive integer, got '%s'", flag, s);
  return v;
}

int main(int argc, char **argv) {
  long n = 200000;
  for (int i = 1; i < argc; i++) {
    NET_CHECK(i + 1 < argc &&
                  (!strcmp(argv[i], "-n") || !strcmp(argv[i], "-c") || !strcmp(argv[i], "-s")),
              "usage: %s [-n ROUND_TRIPS] [-c CONNECTIONS] [-s BYTES]", argv[0]);
    long v = arg_long(argv[i], argv[i + 1]);
    *(argv[i][1] == 'n' ? &n : argv[i][1] == 'c' ? &conns : &size) = v;
    i++;
  }
  net_raise_nofile();
  quota = n / conns > 0 ? n / conns : 1;
  warm = quota / 20 + 1;
  lat = malloc((size_t)(conns * quota) * sizeof *lat);
  uthread_t **cs = malloc((size_t)conns * sizeof *cs);
  NET_CHECK(lat && cs, "out of memory");
  memset(lat, 0, (size_t)(conns * quota) * sizeof *lat);
  listen_fd = net_listen(0, &port);

  uthread_t *acc = uthread_spawn(acceptor, NULL);
  for (long k = 0; k < conns; k++) cs[k] = uthread_spawn(client, (void *)(intptr_t)k);
  uthread_join(acc);
  while (atomic_load(&ready) < conns) uthread_sleep(microseconds(100));
  int64_t t0 = bench_now_ns();
  latch_set(&start);
  for (long k = 0; k < conns; k++) uthread_join(cs[k]);
  int64_t t1 = bench_now_ns();
  wuc_close(listen_fd);

  long total = conns * quota;
  char config[64];
  unsigned p = wuc_processors();
  snprintf(config, sizeof config, "P%u-C%ld-S%ld-rtps", p, conns, size);
  bench_result("tcp-echo", config, (double)total * 1e9 / (double)(t1 - t0), "ops/s");
  snprintf(config, sizeof config, "P%u-C%ld-S%ld-p50", p, conns, size);
  bench_result("tcp-echo", config, (double)net_percentile(lat, total, 50, 0) / 1e3, "us");
  snprintf(config, sizeof config, "P%u-C%ld-S%ld-p99", p, conns, size);
  bench_result("tcp-echo", config, (double)net_percentile(lat, total, 99, 1) / 1e3, "us");
  free(lat);
  free(cs);
  return 0;
}
