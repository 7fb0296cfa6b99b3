/* clock.c — the monotonic clock behind durations and deadlines, and the
 * error of a duration that is no number (<wuc/time.h>, WUC_DURATION_). */
#include <time.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/time.h>

#include "fatal.h"

int64_t wuc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A NaN is no "never" and no "at once": most likely a computation went wrong
 * (0.0 / 0.0), so it is reported where the duration was used instead of
 * becoming a hang or a busy loop (docs/library.md, 'Durations and time'). */
void wuc_duration_nan_(const char *call, const char *file, int line) {
  if (file) wuc_fatal("%s at %s:%d: the duration is NaN (not a number)", call, file, line);
  wuc_fatal("%s: the duration is NaN (not a number)", call);
}
