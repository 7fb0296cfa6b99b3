/* clock.c — the monotonic clock behind durations and deadlines. */
#include <time.h>

#include <wuc/time.h>

int64_t wuc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
