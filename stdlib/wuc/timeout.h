/* <wuc/timeout.h> — the resource of a `timeout(d)` clause.
 *
 * wucc lowers `waituntil (timeout(d)) body` to a wuc_timeout made by
 * wuc_timeout_make(d) when the clause's resource expression is evaluated.
 * A d <= 0 is ready at once.  A d > 0 is kept as it is: the clock is read
 * only when the statement is about to wait (its first pass found no clause
 * ready), once for all its timeouts, and the deadline is that reading + d.
 * A statement that does not wait reads no clock, and a timeout never fires
 * before d has passed since its evaluation (docs/library.md, "Timeouts").
 * d may have any arithmetic type (WUC_DURATION_ in <wuc/time.h>): a d, or a
 * deadline, beyond the clock's range saturates to INT64_MAX, "never" (the
 * clause then starts no timer: it cannot complete), and a NaN stops the
 * program.
 *
 * As a waituntil clause: ready when the deadline has passed; the clause does
 * nothing else.  While the clause waits, its thread's statement timer serves
 * it, kept armed from one statement to the next (a statement's second
 * timeout has a one-shot timer in its node; no allocation either way), so a
 * receive-or-timeout loop that rarely times out starts a timer about once
 * per d (docs/runtime.md, "Timers"). */
#ifndef WUC_TIMEOUT_H
#define WUC_TIMEOUT_H

#include <wuc/select.h>
#include <wuc/time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wuc_timeout {
  /* On the wuc_now() clock: WUC_INT64_MIN for "at once", WUC_INT64_MAX for
   * never; meaningless while delay > 0. */
  wuc_int64_t deadline;
  /* d > 0 not yet turned into a deadline (the clock not read yet), else 0. */
  wuc_int64_t delay;
} wuc_timeout;

/* The timeout of a clause: d from when its statement is about to wait. */
static inline wuc_timeout wuc_timeout_lazy_(wuc_duration_t __wuc_d) {
  wuc_timeout __wuc_t;
  __wuc_t.deadline = __wuc_d <= 0 ? WUC_INT64_MIN : WUC_INT64_MAX;
  __wuc_t.delay = __wuc_d <= 0 || __wuc_d == WUC_INT64_MAX ? 0 : __wuc_d;
  return __wuc_t;
}

#ifndef __cplusplus
static inline wuc_timeout wuc_timeout_make(wuc_duration_t __wuc_d) {
  return wuc_timeout_lazy_(__wuc_d);
}
/* Any arithmetic d, converted by WUC_DURATION_ (1e19 or UINT64_MAX is never,
 * not INT64_MIN or -1). */
#define wuc_timeout_make(...)                                                                      \
  wuc_timeout_lazy_(WUC_DURATION_((__VA_ARGS__), "timeout", __FILE__, __LINE__))
#endif

/* The waituntil trait (<wuc/select.h>). */
wuc_bool wuc_timeout_register(wuc_timeout *__wuc_t, wuc_select_node *__wuc_n);
wuc_bool wuc_timeout_unregister(wuc_timeout *__wuc_t, wuc_select_node *__wuc_n);
WUC_SELECTABLE_DROPPABLE_BUILTIN_(wuc_timeout, wuc_timeout_register, wuc_timeout_unregister,
                                  wuc_timeout_on_selected,
                                  WUC_SELECTABLE_TIMEOUT | WUC_SELECTABLE_TRY_WIN_FINAL);

#ifdef __cplusplus
}

template <typename D> inline wuc_timeout wuc_timeout_make(D d) {
  return wuc_timeout_lazy_(WUC_DURATION_(d, "timeout", nullptr, 0));
}
#endif
#endif
