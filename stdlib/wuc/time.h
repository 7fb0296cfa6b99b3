/* <wuc/time.h> — durations and the monotonic clock.
 *
 * A wuc_duration_t (duration_t in <wuc.h>) is a signed count of nanoseconds, so ordinary arithmetic
 * and comparison apply.  Deadlines used by the runtime are points on the monotonic clock returned
 * by wuc_now().
 *
 * Durations saturate: wuc_microseconds(), wuc_milliseconds() and wuc_seconds() of a count
 * whose nanoseconds do not fit in a duration_t give INT64_MAX (or INT64_MIN),
 * and a deadline that far ahead is "never" (a timeout that never fires, a
 * sleep that never ends: docs/library.md, 'Durations and time'). */
#ifndef WUC_TIME_H
#define WUC_TIME_H

#include <wuc/base.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef wuc_int64_t wuc_duration_t;

/* n * unit, saturated to the range of wuc_duration_t (unit > 0). */
static inline wuc_duration_t wuc_scale_(wuc_int64_t __wuc_n, wuc_int64_t __wuc_unit) {
  return __wuc_n > WUC_INT64_MAX / __wuc_unit   ? WUC_INT64_MAX
         : __wuc_n < WUC_INT64_MIN / __wuc_unit ? WUC_INT64_MIN
                                                : __wuc_n * __wuc_unit;
}

static inline wuc_duration_t wuc_nanoseconds(wuc_int64_t __wuc_n) { return __wuc_n; }
static inline wuc_duration_t wuc_microseconds(wuc_int64_t __wuc_n) {
  return wuc_scale_(__wuc_n, 1000);
}
static inline wuc_duration_t wuc_milliseconds(wuc_int64_t __wuc_n) {
  return wuc_scale_(__wuc_n, 1000000);
}
static inline wuc_duration_t wuc_seconds(wuc_int64_t __wuc_n) {
  return wuc_scale_(__wuc_n, 1000000000);
}

/* Nanoseconds on CLOCK_MONOTONIC. */
wuc_int64_t wuc_now(void);

/* ---- any arithmetic value as a duration ------------------------------------
 *
 * WUC_DURATION_(d, call, file, line) converts the count of nanoseconds d, of
 * any arithmetic type, to a wuc_duration_t: a floating d is truncated toward
 * zero, a d beyond the range of wuc_duration_t (1e19, INFINITY, UINT64_MAX)
 * saturates to INT64_MAX or INT64_MIN, and a NaN stops the program with
 * "<call> at FILE:LINE: the duration is NaN (not a number)".  A plain
 * conversion would be undefined for the first ones (x86-64 gives INT64_MIN:
 * a timeout of 1e19 would fire at once) and would make UINT64_MAX -1.
 * `timeout(d)` and uthread_sleep(d) go through it. */

__attribute__((__noreturn__)) void wuc_duration_nan_(const char *__wuc_call, const char *__wuc_file,
                                                     int __wuc_line);

static inline wuc_duration_t wuc_duration_i_(wuc_int64_t __wuc_d, const char *__wuc_call,
                                             const char *__wuc_file, int __wuc_line) {
  (void)__wuc_call, (void)__wuc_file, (void)__wuc_line;
  return __wuc_d;
}

static inline wuc_duration_t wuc_duration_u_(unsigned long long __wuc_d, const char *__wuc_call,
                                             const char *__wuc_file, int __wuc_line) {
  (void)__wuc_call, (void)__wuc_file, (void)__wuc_line;
  return __wuc_d > (unsigned long long)WUC_INT64_MAX ? WUC_INT64_MAX : (wuc_duration_t)__wuc_d;
}

static inline wuc_duration_t wuc_duration_f_(long double __wuc_d, const char *__wuc_call,
                                             const char *__wuc_file, int __wuc_line) {
  if (__builtin_isnan(__wuc_d)) wuc_duration_nan_(__wuc_call, __wuc_file, __wuc_line);
  if (__wuc_d >= 9223372036854775808.0L) return WUC_INT64_MAX; /* 2^63 */
  if (__wuc_d <= -9223372036854775808.0L) return WUC_INT64_MIN;
  return (wuc_duration_t)__wuc_d;
}

#ifdef __cplusplus
} /* extern "C" */

/* C++: the same conversion, chosen by a template (no _Generic). */
template <typename T>
inline wuc_duration_t wuc_duration_(T d, const char *call, const char *file, int line) {
  return static_cast<T>(0.5) != static_cast<T>(0)
             ? wuc_duration_f_(static_cast<long double>(d), call, file, line)
         : static_cast<T>(-1) > static_cast<T>(0)
             ? wuc_duration_u_(static_cast<unsigned long long>(d), call, file, line)
             : static_cast<wuc_duration_t>(d);
}
#define WUC_DURATION_(d, call, file, line) wuc_duration_((d), (call), (file), (line))

#else

/* __extension__: _Generic is C11; wuc's headers also serve -std=c99. */
#define WUC_DURATION_(d, call, file, line)                                                         \
  (__extension__ _Generic((d), float                                                               \
                          : wuc_duration_f_, double                                                \
                          : wuc_duration_f_, long double                                           \
                          : wuc_duration_f_, unsigned long                                         \
                          : wuc_duration_u_, unsigned long long                                    \
                          : wuc_duration_u_, default                                               \
                          : wuc_duration_i_)((d), (call), (file), (line)))

#endif
#endif
