/* fault-cost — what the kernel charges for a new thread stack before the
 * thread runs a line of code: the floor under rss100k's spawn+park
 * (docs/benchmarks.md, "spawn+park").  One kernel thread, no libwuc; the
 * stacks are laid out as runtime/stack.c lays them out (regions of a 64 KiB
 * guard and a 256 KiB stack, 16 to a mapping, MAP_NORESERVE, no huge pages).
 * Three lines, each the mean per stack over -n stacks (default 100,000):
 *   - first-touch: the page fault of a store to the stack's top page (the
 *     page a new thread's handle and first frames use);
 *   - guard: MADV_GUARD_INSTALL of the 64 KiB guard, 16 stacks to one
 *     process_madvise on the program itself (Linux 6.13+; the line is left
 *     out where the kernel refuses it);
 *   - mmap: the mapping of 16 regions and its MADV_NOHUGEPAGE, per stack.
 *
 *   RESULT name=fault-cost config=<what> value=<ns> unit=ns/stack */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#define SELF_PIDFD (-10001) /* PIDFD_SELF_PROCESS, Linux 6.15 (stack.c) */

enum { PER_MAPPING = 16, GUARD = 64 * 1024, STACK = 256 * 1024, PAGE = 4096 };

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void result(const char *what, double ns) {
  printf("RESULT name=fault-cost config=%s value=%.1f unit=ns/stack\n", what, ns);
}

int main(int argc, char **argv) {
  long n = 100000;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!strcmp(argv[i], "-n")) n = atol(argv[i + 1]);
  long mappings = (n + PER_MAPPING - 1) / PER_MAPPING;
  size_t region = GUARD + STACK, bytes = region * PER_MAPPING;
  char **maps = calloc((size_t)mappings, sizeof *maps);
  if (!maps) return 1;

  double mapped = 0, guarded = 0, touched = 0;
  int guards = 1;
  for (long m = 0; m < mappings; m++) {
    double t0 = now_ns();
    maps[m] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (maps[m] == MAP_FAILED) {
      perror("fault-cost: mmap");
      return 1;
    }
    madvise(maps[m], bytes, MADV_NOHUGEPAGE);
    double t1 = now_ns();
    if (guards) {
      struct iovec iov[PER_MAPPING];
      for (int i = 0; i < PER_MAPPING; i++)
        iov[i] = (struct iovec){maps[m] + (size_t)i * region, GUARD};
      guards = syscall(SYS_process_madvise, SELF_PIDFD, iov, (size_t)PER_MAPPING,
                       MADV_GUARD_INSTALL, 0u) == (long)(PER_MAPPING * GUARD);
    }
    double t2 = now_ns();
    for (int i = 0; i < PER_MAPPING; i++) /* the store a new thread's first frames make */
      ((volatile char *)maps[m])[(size_t)(i + 1) * region - PAGE + 64] = 1;
    double t3 = now_ns();
    mapped += t1 - t0;
    guarded += t2 - t1;
    touched += t3 - t2;
  }
  double stacks = (double)mappings * PER_MAPPING;
  result("first-touch", touched / stacks);
  if (guards) result("guard", guarded / stacks);
  result("mmap", mapped / stacks);
  for (long m = 0; m < mappings; m++) munmap(maps[m], bytes);
  free(maps);
  return 0;
}
