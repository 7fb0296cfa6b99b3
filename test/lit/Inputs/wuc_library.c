/* A shared library that uses wuc's channels and threads, linked with
 * `cc -shared -fPIC lib.c libwuc.a` and dlopened by dlopen_host.c, a plain
 * program (driver/runtime_in_shared_library.wc). */
#include <wuc.h>

static WUC_CHANNEL(int) results;

static void square(void *arg) {
  int v = (int)(long)arg;
  chan_send(&results, v * v);
}

int sum_of_squares(int n) {
  chan_init(&results, 0);
  for (int i = 1; i <= n; i++) uthread_spawn(square, (void *)(long)i);
  int sum = 0;
  for (int i = 1; i <= n; i++) {
    int v;
    chan_recv(&results, &v);
    sum += v;
  }
  return sum;
}
