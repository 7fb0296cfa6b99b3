/* A plain C program that knows nothing of wuc: dlopens the library given as
 * its first argument (wuc_library.c), calls it, and with a second argument
 * then overflows its own stack, which must end it by SIGSEGV as it would
 * without that library (driver/runtime_in_shared_library.wc). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

/* Far beyond any stack: read at run time, so the recursion is not infinite
 * to the compiler. */
static volatile int depth_limit = 1 << 30;

static int deep(int n) {
  volatile char pad[4096];
  memset((char *)pad, n, sizeof pad);
  return n < depth_limit ? deep(n + 1) + pad[n % 4096] : 0;
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  int (*sum_of_squares)(int) = (int (*)(int))dlsym(lib, "sum_of_squares");
  printf("sum of squares 1..10: %d\n", sum_of_squares(10));
  fflush(stdout);
  if (argc > 2) {
    /* A stack that can overflow even under `ulimit -s unlimited`. */
    struct rlimit r;
    getrlimit(RLIMIT_STACK, &r);
    if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > (64u << 20)) r.rlim_cur = 64u << 20;
    setrlimit(RLIMIT_STACK, &r);
    return deep(1);
  }
  return 0;
}
