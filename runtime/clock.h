/* clock.h — a "surely not yet" test for deadlines on the wuc_now() clock
 * that costs a TSC read instead of a clock read (issue 21: a worker with a
 * pending timer checks it at every schedule, and the vDSO clock took ~12 %
 * of a receive-or-timeout loop's samples).
 *
 * A filter remembers, from its last clock reading, a deadline `from` and
 * the TSC count `until_tsc` before which no deadline >= `from` can have
 * passed: the time left converted to ticks at the calibrated rate, less
 * 1/64 for calibration error and the clock's slew.  It only ever says "not
 * yet"; whoever acts on a deadline reads the clock first, so nothing fires
 * early.  It is on when the kernel itself keeps CLOCK_MONOTONIC on the TSC
 * (clocksource "tsc": invariant and synchronized across CPUs), and says
 * nothing before the rate is calibrated (10 ms after start-up) or on other
 * machines: callers then read the clock every time, as before. */
#ifndef WUC_RUNTIME_CLOCK_H
#define WUC_RUNTIME_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct wuc_deadline_filter {
  int64_t from;       /* a deadline (wuc_now() time) not yet passed ... */
  uint64_t until_tsc; /* ... while the TSC is below this; 0: no knowledge */
  /* The last clock reading and a TSC count taken just before it (0: none),
   * for wuc_now_not_before. */
  uint64_t anchor_tsc;
  int64_t anchor_now;
  /* A TSC count the thread about to switch away read moments ago (0: none):
   * that switch's checks use it instead of reading the TSC again (the
   * statement's clock reading, select.c, wuc_select_park_open).  Older than
   * the true time, it can only make a check say "not yet" a little late. */
  uint64_t hint_tsc;
};

/* True only if `deadline` has surely not passed (no clock read). */
static inline bool wuc_deadline_surely_ahead(const struct wuc_deadline_filter *f,
                                             int64_t deadline) {
#if defined(__x86_64__)
  return deadline >= f->from && (f->hint_tsc ? f->hint_tsc : __rdtsc()) < f->until_tsc;
#else
  (void)f;
  (void)deadline;
  return false;
#endif
}

/* Reads the clock (wuc_now()) and, if `deadline` is still ahead, sets f so
 * that wuc_deadline_surely_ahead answers for it without a clock read. */
int64_t wuc_now_for_deadline(struct wuc_deadline_filter *f, int64_t deadline);

/* A reading of the wuc_now() clock never below the true time, so that a
 * deadline counted from it is never early: f's last clock reading plus the
 * TSC ticks since, converted at the calibrated rate less 1/64, plus 1 us for
 * the TSCs of different CPUs, while that reading is under 1 ms old (then
 * at most ~17 us late); else a clock read, which becomes f's new anchor.
 * *tsc gets the TSC count read on the way (0 if none was), for hint_tsc. */
int64_t wuc_now_not_before(struct wuc_deadline_filter *f, uint64_t *tsc);

/* How far above the true time such a reading may be (~17 us, rounded up):
 * a deadline counted from one may be that late, never early. */
#define WUC_NOW_NOT_BEFORE_MAX_LEAD_NS 20000

/* Takes the first (TSC, clock) pair of the calibration: once, at start-up,
 * before any other thread runs. */
void wuc_clock_init(void);

/* Whether filters can say anything here (tests). */
bool wuc_deadline_filter_usable(void);

#ifdef __cplusplus
}
#endif
#endif
