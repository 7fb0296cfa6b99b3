/* clock.c — the monotonic clock behind durations and deadlines, the TSC
 * filter of clock.h, and the error of a duration that is no number
 * (<wuc/time.h>, WUC_DURATION_). */
#include "clock.h"

#include <time.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <wuc/time.h>

#include "fatal.h"

int64_t wuc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- the TSC filter (clock.h) ---------------------------------------------- */

#if defined(__x86_64__)
/* The rate is measured between two (TSC, clock) pairs at least this far
 * apart; a pair whose two TSC reads around the clock read are further
 * apart than PAIR_TICKS (the thread was interrupted) is not used. */
#define CALIBRATION_NS 10000000
#define PAIR_TICKS 4000
/* Time left beyond this is not converted (no overflow; the filter only
 * ends sooner). */
#define MAX_AHEAD_NS ((int64_t)1 << 36)
/* wuc_now_not_before: how old an anchor may be, and the allowance for the
 * TSCs of two CPUs (the kernel keeps them within far less). */
#define ANCHOR_NS 1000000
#define SKEW_NS 1000
_Static_assert(ANCHOR_NS / 63 + SKEW_NS <= WUC_NOW_NOT_BEFORE_MAX_LEAD_NS,
               "clock.h's bound on a reading's lead holds");

static struct {
  _Atomic uint64_t tsc0; /* the first pair (wuc_clock_init); 0: no TSC */
  _Atomic int64_t now0;
  _Atomic uint64_t rate_q24; /* ticks per ns << 24, 0 until calibrated */
  /* Set with the rate: ns per tick << 32, rounded up and 1/63 over (an
   * upper bound on elapsed time); ANCHOR_NS in ticks. */
  _Atomic uint64_t ns_per_tick_up_q32, anchor_ticks;
} tsc;

/* The kernel keeps CLOCK_MONOTONIC on the TSC only when it found the TSC
 * invariant and synchronized across CPUs. */
static bool kernel_clock_is_tsc(void) {
  FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
  if (!f) return false;
  char name[32] = "";
  bool yes = fgets(name, sizeof name, f) && strcmp(name, "tsc\n") == 0;
  fclose(f);
  return yes;
}

/* A TSC count taken no later than the clock reading *now (and the pair's
 * width), so that converting from it never overshoots. */
static uint64_t tsc_pair(int64_t *now, uint64_t *width) {
  uint64_t before = __rdtsc();
  *now = wuc_now();
  *width = __rdtsc() - before;
  return before;
}

void wuc_clock_init(void) {
  if (!kernel_clock_is_tsc()) return;
  for (int tries = 0; tries < 8; tries++) {
    int64_t now;
    uint64_t width, t = tsc_pair(&now, &width);
    if (width > PAIR_TICKS) continue;
    atomic_store_explicit(&tsc.now0, now, memory_order_relaxed);
    atomic_store_explicit(&tsc.tsc0, t, memory_order_relaxed);
    return;
  }
}

/* ticks per ns << 24, once a pair at least CALIBRATION_NS after the first
 * one comes along; 0 until then, or when the TSC is not to be used. */
static uint64_t calibrated_rate(uint64_t t, int64_t now, uint64_t width) {
  uint64_t rate = atomic_load_explicit(&tsc.rate_q24, memory_order_relaxed);
  if (rate || width > PAIR_TICKS) return rate;
  uint64_t t0 = atomic_load_explicit(&tsc.tsc0, memory_order_relaxed);
  int64_t now0 = atomic_load_explicit(&tsc.now0, memory_order_relaxed);
  if (t0 == 0 || now - now0 < CALIBRATION_NS || t <= t0) return 0;
  rate = (uint64_t)(((unsigned __int128)(t - t0) << 24) / (uint64_t)(now - now0));
  /* racers agree closely; the two below are set first: they are read only
   * once the rate is */
  atomic_store_explicit(&tsc.ns_per_tick_up_q32, ((uint64_t)1 << 56) / rate * 64 / 63 + 1,
                        memory_order_relaxed);
  atomic_store_explicit(&tsc.anchor_ticks, (uint64_t)ANCHOR_NS * rate >> 24, memory_order_relaxed);
  atomic_store_explicit(&tsc.rate_q24, rate, memory_order_release);
  return rate;
}

/* Reads the clock into *now with a TSC count *t taken just before it, makes
 * the pair f's anchor, and returns the calibrated rate (0: none). */
static uint64_t read_clock(struct wuc_deadline_filter *f, int64_t *now, uint64_t *t) {
  uint64_t width;
  *t = tsc_pair(now, &width);
  uint64_t rate = calibrated_rate(*t, *now, width);
  if (rate && width <= PAIR_TICKS) {
    f->anchor_tsc = *t;
    f->anchor_now = *now;
  }
  return rate;
}

int64_t wuc_now_not_before(struct wuc_deadline_filter *f, uint64_t *tsc_read) {
  if (f->anchor_tsc && atomic_load_explicit(&tsc.rate_q24, memory_order_acquire)) {
    *tsc_read = __rdtsc();
    uint64_t ticks = *tsc_read - f->anchor_tsc; /* a TSC behind the anchor's wraps: too old */
    if (ticks < atomic_load_explicit(&tsc.anchor_ticks, memory_order_relaxed)) {
      uint64_t up = atomic_load_explicit(&tsc.ns_per_tick_up_q32, memory_order_relaxed);
      return f->anchor_now + (int64_t)((ticks * up) >> 32) + SKEW_NS;
    }
  }
  int64_t now;
  (void)read_clock(f, &now, tsc_read);
  return now;
}

int64_t wuc_now_for_deadline(struct wuc_deadline_filter *f, int64_t deadline) {
  int64_t now;
  uint64_t t;
  uint64_t rate = read_clock(f, &now, &t);
  if (!rate || deadline <= now) {
    f->until_tsc = 0;
    return now;
  }
  int64_t ahead = deadline - now < MAX_AHEAD_NS ? deadline - now : MAX_AHEAD_NS;
  uint64_t ticks = (uint64_t)(((unsigned __int128)(uint64_t)ahead * rate) >> 24);
  f->from = deadline;
  f->until_tsc = t + ticks - ticks / 64;
  return now;
}

bool wuc_deadline_filter_usable(void) {
  return atomic_load_explicit(&tsc.rate_q24, memory_order_relaxed) != 0;
}
#else
int64_t wuc_now_for_deadline(struct wuc_deadline_filter *f, int64_t deadline) {
  (void)deadline;
  f->until_tsc = 0;
  return wuc_now();
}

bool wuc_deadline_filter_usable(void) { return false; }

int64_t wuc_now_not_before(struct wuc_deadline_filter *f, uint64_t *tsc) {
  (void)f;
  *tsc = 0;
  return wuc_now();
}

void wuc_clock_init(void) {}
#endif

/* A NaN is no "never" and no "at once": most likely a computation went wrong
 * (0.0 / 0.0), so it is reported where the duration was used instead of
 * becoming a hang or a busy loop (docs/library.md, 'Durations and time'). */
void wuc_duration_nan_(const char *call, const char *file, int line) {
  if (file) wuc_fatal("%s at %s:%d: the duration is NaN (not a number)", call, file, line);
  wuc_fatal("%s: the duration is NaN (not a number)", call);
}
