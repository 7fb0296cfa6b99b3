/* <wuc/time.h> — durations and the monotonic clock.
 *
 * A duration_t is a signed count of nanoseconds, so ordinary arithmetic and
 * comparison apply.  Deadlines used by the runtime are points on the
 * monotonic clock returned by wuc_now().
 *
 * Durations saturate: microseconds(), milliseconds() and seconds() of a count
 * whose nanoseconds do not fit in a duration_t give INT64_MAX (or INT64_MIN),
 * and a deadline that far ahead is "never" (a timeout that never fires, a
 * sleep that never ends: docs/library.md, 'Durations and time'). */
#ifndef WUC_TIME_H
#define WUC_TIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t wuc_duration_t;
typedef wuc_duration_t duration_t;

/* n * unit, saturated to the range of duration_t (unit > 0). */
static inline duration_t wuc_scale_(int64_t n, int64_t unit) {
  return n > INT64_MAX / unit ? INT64_MAX : n < INT64_MIN / unit ? INT64_MIN : n * unit;
}

static inline duration_t nanoseconds(int64_t n) { return n; }
static inline duration_t microseconds(int64_t n) { return wuc_scale_(n, 1000); }
static inline duration_t milliseconds(int64_t n) { return wuc_scale_(n, 1000000); }
static inline duration_t seconds(int64_t n) { return wuc_scale_(n, 1000000000); }

/* Nanoseconds on CLOCK_MONOTONIC. */
int64_t wuc_now(void);

/* ---- any arithmetic value as a duration ------------------------------------
 *
 * WUC_DURATION_(d, call, file, line) converts the count of nanoseconds d, of
 * any arithmetic type, to a duration_t: a floating d is truncated toward
 * zero, a d beyond the range of duration_t (1e19, INFINITY, UINT64_MAX)
 * saturates to INT64_MAX or INT64_MIN, and a NaN stops the program with
 * "<call> at FILE:LINE: the duration is NaN (not a number)".  A plain
 * conversion would be undefined for the first ones (x86-64 gives INT64_MIN:
 * a timeout of 1e19 would fire at once) and would make UINT64_MAX -1.
 * `timeout(d)` and uthread_sleep(d) go through it. */

__attribute__((noreturn)) void wuc_duration_nan_(const char *call, const char *file, int line);

static inline duration_t wuc_duration_i_(int64_t d, const char *call, const char *file, int line) {
  (void)call, (void)file, (void)line;
  return d;
}

static inline duration_t wuc_duration_u_(unsigned long long d, const char *call, const char *file,
                                         int line) {
  (void)call, (void)file, (void)line;
  return d > (unsigned long long)INT64_MAX ? INT64_MAX : (duration_t)d;
}

static inline duration_t wuc_duration_f_(long double d, const char *call, const char *file,
                                         int line) {
  if (__builtin_isnan(d)) wuc_duration_nan_(call, file, line);
  if (d >= 9223372036854775808.0L) return INT64_MAX; /* 2^63 */
  if (d <= -9223372036854775808.0L) return INT64_MIN;
  return (duration_t)d;
}

#ifdef __cplusplus
} /* extern "C" */

/* C++: the same conversion, chosen by a template (no _Generic). */
template <typename T>
inline duration_t wuc_duration_(T d, const char *call, const char *file, int line) {
  return static_cast<T>(0.5) != static_cast<T>(0)
             ? wuc_duration_f_(static_cast<long double>(d), call, file, line)
         : static_cast<T>(-1) > static_cast<T>(0)
             ? wuc_duration_u_(static_cast<unsigned long long>(d), call, file, line)
             : static_cast<duration_t>(d);
}
#define WUC_DURATION_(d, call, file, line) wuc_duration_((d), (call), (file), (line))

#else

#define WUC_DURATION_(d, call, file, line)                                                         \
  _Generic((d), float                                                                              \
           : wuc_duration_f_, double                                                               \
           : wuc_duration_f_, long double                                                          \
           : wuc_duration_f_, unsigned long                                                        \
           : wuc_duration_u_, unsigned long long                                                   \
           : wuc_duration_u_, default                                                              \
           : wuc_duration_i_)((d), (call), (file), (line))

#endif
#endif
