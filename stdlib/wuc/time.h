/* <wuc/time.h> — durations and the monotonic clock.
 *
 * A duration_t is a signed count of nanoseconds, so ordinary arithmetic and
 * comparison apply.  Deadlines used by the runtime are points on the
 * monotonic clock returned by wuc_now(). */
#ifndef WUC_TIME_H
#define WUC_TIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t duration_t;

static inline duration_t nanoseconds(int64_t n) { return n; }
static inline duration_t microseconds(int64_t n) { return n * 1000; }
static inline duration_t milliseconds(int64_t n) { return n * 1000000; }
static inline duration_t seconds(int64_t n) { return n * 1000000000; }

/* Nanoseconds on CLOCK_MONOTONIC. */
int64_t wuc_now(void);

#ifdef __cplusplus
}
#endif
#endif
