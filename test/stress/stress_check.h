/* stress_check.h — the check of the stress programs (preempt_stress.c,
 * io_stress.c, family_stress.wc): a failed condition prints "FAILED: <mode>:
 * file:line: cond: details" and exits with status 1 at once.  The including
 * file defines g_mode, the mode being run. */
#ifndef WUC_STRESS_CHECK_H
#define WUC_STRESS_CHECK_H

#include <stdio.h>
#include <unistd.h>

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "FAILED: %s: %s:%d: %s: ", g_mode, __FILE__, __LINE__, #cond);               \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      fflush(stdout);                                                                              \
      fflush(stderr);                                                                              \
      _exit(1);                                                                                    \
    }                                                                                              \
  } while (0)

#endif
